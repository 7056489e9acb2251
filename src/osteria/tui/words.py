"""The words of the full-screen table, in Italian and English.

The words it shares with the plain table (the scores, the hand, the results) come from
:mod:`osteria.i18n`; these are the ones of the full-screen table: its keys, buttons and screens,
the record viewer, and the words of resuming a saved match (which the plain table says too).
"""

from __future__ import annotations

from osteria.i18n import message

APP_MESSAGES: dict[str, dict[str, str]] = {
    "it": {
        "title": "osteria · {game}",
        "dealer_mark": "mazziere",
        # The levels of osteria's bots, as a seat shows them (any other bot by its own name).
        "level_facile": "facile",
        "level_medio": "medio",
        "level_difficile": "difficile",
        "level_maestro": "maestro",
        "cards_left": "{n} carte",
        "dummy_mark": "morto, carte scoperte",
        "hand_title": "La tua mano",
        "your_dummy": "Carte del morto ({name}): giochi tu per lui.",
        "waiting": "Tocca a {name}…",
        "trick_taken": "Presa da {name}",
        "number_wait": "{n}… Invio per sceglierlo, o un'altra cifra",
        "pick_cards": "scegli {n} carte della mano, poi Invio",
        "picked": "scelte: {cards}",
        "pick_more": "Scegli ancora {n} carte per «{word}».",
        "no_such_pick": "Queste carte non formano una mossa valida per «{word}».",
        "variants": "Più modi di giocare {card}: scegli dalla lista (Esc per tornarle tutte).",
        "not_yours": "Ora non tocca a te.",
        "not_playable": "{card} non si può giocare ora.",
        "no_previous": "Nessuna presa precedente da guardare (le regole lo vietano o non ce n'è ancora).",
        "previous_off": "Presa precedente nascosta.",
        "button_hint": "h Consiglio",
        "button_previous": "p Presa precedente",
        "button_save": "s Salva",
        "button_help": "? Aiuto",
        "button_quit": "q Esci",
        "button_last_round": "m Mano",
        "last_round_title": "Chiamare l'ultimo giro (mano)?",
        "last_round_body": "La partita finirà con la smazzata {n}. Non si torna indietro.",
        "last_round_yes": "Sì, ultimo giro",
        "hint_title": "Consiglio del maestro",
        "hint_play": "Gioca {action}",
        "hint_everything": "a Tutte",
        "close": "Chiudi",
        "continue": "Continua",
        "analysis_title": "Analisi della smazzata",
        "analysis_off": "Analisi disattivata.",
        "analysis_failed": "Analisi non riuscita: {error}",
        "match_over_title": "Partita finita",
        "quit_title": "Lasciare la partita?",
        "save_where": "Si salva in {path}",
        "replace_title": "Questo file esiste già e non è questa partita: sostituirlo?",
        "replace": "Sostituisci",
        "keep_file": "Non sostituire",
        "save_quit": "Salva ed esci",
        "quit_no_save": "Esci senza salvare",
        "cancel": "Annulla",
        "help_title": "Aiuto",
        "keys_help": ("Tasti: un numero sceglie la mossa della lista (10, 11… digitando le cifre); frecce su e giù "
                      "e Invio nella lista; frecce sinistra e destra e Invio sulle carte della mano; il mouse "
                      "gioca la carta o la mossa che clicchi. h consiglio del maestro, p presa precedente, s salva, "
                      "m ultimo giro (dove il gioco lo prevede, al mazziere), ? aiuto, Esc annulla una scelta, "
                      "q esce."),
        "viewer_title": "osteria · {game} · registrazione",
        "viewer_step": "Passo {n} di {total} · smazzata {deal}",
        "viewer_keys": "← → un passo · PagSu PagGiù una smazzata · Inizio Fine · q esce",
        "viewer_actions": "Giocate: {items}",
        "viewer_start": "Le carte appena distribuite.",
        "viewer_hand": "{name}: {cards}",
        "viewer_hidden": "{name}: {n} carte coperte (smazzata in corso)",
        "viewer_result": "Risultato: {outcome} · guadagno {delta}",
        "loaded_over": "la partita di {path} è finita: «osteria view {path}» la fa rivedere",
    },
    "en": {
        "title": "osteria · {game}",
        "dealer_mark": "dealer",
        "level_facile": "easy",
        "level_medio": "medium",
        "level_difficile": "hard",
        "level_maestro": "maestro",
        "cards_left": "{n} cards",
        "dummy_mark": "dummy, cards face up",
        "hand_title": "Your hand",
        "your_dummy": "The dummy's cards ({name}): you play for them.",
        "waiting": "{name} to move…",
        "trick_taken": "Taken by {name}",
        "number_wait": "{n}… Enter to choose it, or another digit",
        "pick_cards": "pick {n} cards of your hand, then Enter",
        "picked": "picked: {cards}",
        "pick_more": "Pick {n} more cards for “{word}”.",
        "no_such_pick": "These cards make no legal “{word}”.",
        "variants": "{card} can be played several ways: choose from the list (Esc shows them all again).",
        "not_yours": "It is not your turn.",
        "not_playable": "{card} cannot be played now.",
        "no_previous": "No previous trick to look at (the rules forbid it, or there is none yet).",
        "previous_off": "Previous trick hidden.",
        "button_hint": "h Hint",
        "button_previous": "p Previous trick",
        "button_save": "s Save",
        "button_help": "? Help",
        "button_quit": "q Quit",
        "button_last_round": "m Mano",
        "last_round_title": "Declare the last round (mano)?",
        "last_round_body": "The match will end with deal {n}. This cannot be undone.",
        "last_round_yes": "Yes, last round",
        "hint_title": "The maestro's hint",
        "hint_play": "Play {action}",
        "hint_everything": "a All",
        "close": "Close",
        "continue": "Continue",
        "analysis_title": "Analysis of the deal",
        "analysis_off": "Analysis switched off.",
        "analysis_failed": "The analysis failed: {error}",
        "match_over_title": "The match is over",
        "quit_title": "Leave the match?",
        "save_where": "It is saved to {path}",
        "replace_title": "This file exists and holds another match: replace it?",
        "replace": "Replace",
        "keep_file": "Keep it",
        "save_quit": "Save and quit",
        "quit_no_save": "Quit without saving",
        "cancel": "Cancel",
        "help_title": "Help",
        "keys_help": ("Keys: a number picks that choice of the list (10, 11… by typing the digits); up and down "
                      "arrows and Enter in the list; left and right arrows and Enter on the cards of your hand; "
                      "the mouse plays the card or choice you click. h the maestro's hint, p previous trick, "
                      "s save, m last round (where the game has one, for the dealer), ? help, Esc undoes a pick, "
                      "q quits."),
        "viewer_title": "osteria · {game} · record",
        "viewer_step": "Step {n} of {total} · deal {deal}",
        "viewer_keys": "← → one step · PgUp PgDn one deal · Home End · q quits",
        "viewer_actions": "Played: {items}",
        "viewer_start": "The cards as dealt.",
        "viewer_hand": "{name}: {cards}",
        "viewer_hidden": "{name}: {n} cards face down (deal in progress)",
        "viewer_result": "Result: {outcome} · gained {delta}",
        "loaded_over": "the match in {path} is over: “osteria view {path}” steps through it",
    },
}


def say(lang: str, key: str, **values: object) -> str:
    """A word of the full-screen table, or one it shares with the plain table, filled in."""
    if key in APP_MESSAGES[lang]:
        return APP_MESSAGES[lang][key].format(**values)
    return message(lang, key, **values)



def level_name(lang: str, level: str) -> str:
    """A bot's level as a table in ``lang`` says it; a bot of no level (random, an outside engine) by its name."""
    key = f"level_{level}"
    return say(lang, key) if key in APP_MESSAGES[lang] else level
