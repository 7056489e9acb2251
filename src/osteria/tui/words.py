"""The words of the full-screen table, in English, for the catalogs to translate.

The words it shares with the plain table (the scores, the hand, the results) come from
:mod:`osteria.i18n`; these are the ones of the full-screen table: its keys, buttons and screens,
the record viewer, and the words of resuming a saved match (which the plain table says too).
"""

from __future__ import annotations

from osteria.i18n import MESSAGES, msg, translate

APP_MESSAGES: dict[str, str] = dict((
    msg("title", "osteria · {game}"),
    msg("dealer_mark", "dealer"),
    msg("level_facile", "easy"),
    msg("level_medio", "medium"),
    msg("level_difficile", "hard"),
    msg("level_maestro", "maestro"),
    msg("cards_left", "{n} cards"),
    msg("dummy_mark", "dummy, cards face up"),
    msg("hand_title", "Your hand"),
    msg("your_dummy", "The dummy's cards ({name}): you play for them."),
    msg("waiting", "{name} to move…"),
    msg("trick_taken", "Taken by {name}"),
    msg("number_wait", "{n}… Enter to choose it, or another digit"),
    msg("pick_cards", "pick {n} cards of your hand, then Enter"),
    msg("picked", "picked: {cards}"),
    msg("pick_more", "Pick {n} more cards for “{word}”."),
    msg("no_such_pick", "These cards make no legal “{word}”."),
    msg("variants", "{card} can be played several ways: choose from the list (Esc shows them all again)."),
    msg("not_yours", "It is not your turn."),
    msg("not_playable", "{card} cannot be played now."),
    msg("no_previous", "No previous trick to look at (the rules forbid it, or there is none yet)."),
    msg("previous_off", "Previous trick hidden."),
    msg("button_hint", "h Hint"),
    msg("button_previous", "p Previous trick"),
    msg("button_save", "s Save"),
    msg("button_help", "? Help"),
    msg("button_quit", "q Quit"),
    msg("button_last_round", "m Mano"),
    msg("last_round_title", "Declare the last round (mano)?"),
    msg("last_round_body", "The match will end with deal {n}. This cannot be undone."),
    msg("last_round_yes", "Yes, last round"),
    msg("hint_title", "The maestro's hint"),
    msg("hint_play", "Play {action}"),
    msg("hint_everything", "a All"),
    msg("close", "Close"),
    msg("continue", "Continue"),
    msg("analysis_title", "Analysis of the deal"),
    msg("analysis_off", "Analysis switched off."),
    msg("analysis_failed", "The analysis failed: {error}"),
    msg("match_over_title", "The match is over"),
    msg("quit_title", "Leave the match?"),
    msg("save_where", "It is saved to {path}"),
    msg("replace_title", "This file exists and holds another match: replace it?"),
    msg("replace", "Replace"),
    msg("keep_file", "Keep it"),
    msg("save_quit", "Save and quit"),
    msg("quit_no_save", "Quit without saving"),
    msg("cancel", "Cancel"),
    msg("help_title", "Help"),
    msg("keys_help", "Keys: a number picks that choice of the list (10, 11… by typing the digits); up and down "
                     "arrows and Enter in the list; left and right arrows and Enter on the cards of your hand; "
                     "the mouse plays the card or choice you click. h the maestro's hint, p previous trick, "
                     "s save, m last round (where the game has one, for the dealer), ? help, Esc undoes a pick, "
                     "q quits."),
    msg("viewer_title", "osteria · {game} · record"),
    msg("viewer_step", "Step {n} of {total} · deal {deal}"),
    msg("viewer_keys", "← → one step · PgUp PgDn one deal · Home End · q quits"),
    msg("viewer_actions", "Played: {items}"),
    msg("viewer_start", "The cards as dealt."),
    msg("viewer_hand", "{name}: {cards}"),
    msg("viewer_hidden", "{name}: {n} cards face down (deal in progress)"),
    msg("viewer_result", "Result: {outcome} · gained {delta}"),
    msg("loaded_over", "the match in {path} is over: “osteria view {path}” steps through it"),
))


def say(lang: str, key: str, **values: object) -> str:
    """A word of the full-screen table, or one it shares with the plain table, filled in."""
    return translate(lang, key, APP_MESSAGES.get(key) or MESSAGES[key]).format(**values)


def level_name(lang: str, level: str) -> str:
    """A bot's level as a table in ``lang`` says it; a bot of no level (random, an outside engine) by its name."""
    key = f"level_{level}"
    return say(lang, key) if key in APP_MESSAGES else level
