"""The words of osteria's tables, through gettext catalogs.

Every sentence a table says is written here (or in a table's own words module) in English, the
catalogs' source language, under a key that is its gettext context: ``message(lang, key, ...)``
finds it in the catalog of ``lang`` and fills it in. A game's terms stay as the game says them;
what they mean (``glossary()``, ``signal_names()``) and why an action is not allowed
(:class:`Reason`) are English sentences the catalogs translate too.

The catalogs are ``locale/<language>/LC_MESSAGES/osteria.mo``, compiled from the ``.po`` files
beside them; every language found there is a language of the tables. A translator adds one with
the standard tools alone (docs/translating.md); ``OSTERIA_LOCALE_DIR`` names more folders to look
in, so a catalog can be tried before it ships. A variant's catalog (``it@scn``, a dialect of
Italian) needs only what it says differently: the rest comes from its language's.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import NamedTuple

from osteria.cards import card_str

DOMAIN = "osteria"
SOURCE_LANGUAGE = "en"  # the language the sentences are written in: it needs no catalog
DEFAULT_LANGUAGE = "it"
LOCALE_DIR = Path(__file__).parent / "locale"


def _catalogs() -> dict[str, gettext.NullTranslations]:
    folders = [LOCALE_DIR, *(Path(p) for p in os.environ.get("OSTERIA_LOCALE_DIR", "").split(os.pathsep) if p)]
    found: dict[str, gettext.NullTranslations] = {SOURCE_LANGUAGE: gettext.NullTranslations()}
    for folder in folders:
        for compiled in sorted(folder.glob(f"*/LC_MESSAGES/{DOMAIN}.mo")):
            with compiled.open("rb") as file:
                found[compiled.parent.parent.name] = gettext.GNUTranslations(file)
    # What a variant's catalog leaves out, its language says, as gettext's locale names have it:
    # it@scn (a dialect of Italian) and it_CH fall back on it.
    for lang, catalog in found.items():
        broader = lang.split("@")[0].split("_")[0]
        if broader != lang and broader in found:
            catalog.add_fallback(found[broader])
    return found


CATALOGS = _catalogs()
# The default language first, then the others by their codes.
LANGUAGES = tuple(sorted(CATALOGS, key=lambda lang: (lang != DEFAULT_LANGUAGE, lang)))


def N_(text: str) -> str:
    """An English sentence marked for the catalogs, translated where it is shown."""
    return text


def msg(key: str, text: str) -> tuple[str, str]:
    """A sentence of the tables under its key (the catalogs' extraction keyword, ``msg:1c,2``)."""
    return key, text


MESSAGES: dict[str, str] = dict((
    msg("you", "you"),
    msg("seat_number", "seat {n}"),
    # The suits and ranks, as the cards' names say them (the notation's letters stay Italian).
    msg("suit_d", "coins"),
    msg("suit_c", "cups"),
    msg("suit_s", "swords"),
    msg("suit_b", "clubs"),
    msg("rank_A", "ace"),
    msg("rank_2", "two"),
    msg("rank_3", "three"),
    msg("rank_4", "four"),
    msg("rank_5", "five"),
    msg("rank_6", "six"),
    msg("rank_7", "seven"),
    msg("rank_8", "eight"),
    msg("rank_9", "nine"),
    msg("rank_X", "ten"),
    msg("rank_F", "jack"),
    msg("rank_C", "knight"),
    msg("rank_R", "king"),
    msg("you_object", "you"),
    msg("bot", "bot {n}"),
    msg("deal_header", "── Deal {n} · {game} · dealer: {dealer} ──"),
    msg("options", "Rules: {options}"),
    # TRANSLATORS: one rules option in the line of the rules: its name, then its value.
    msg("option_item", "{label} {value}"),
    msg("option_yes", "yes"),
    msg("option_no", "no"),
    msg("option_none", "none"),
    msg("score", "Score: {scores}"),
    msg("table", "On the table: {cards}"),
    msg("nothing", "nothing"),
    msg("last_trick", "Previous trick: {cards} → taken by {winner}"),
    msg("declarations", "Declarations: {items}"),
    msg("signals", "Signals: {items}"),
    msg("your_hand", "Your hand: {cards}"),
    msg("open_hand", "{name}'s open hand: {cards}"),
    msg("your_turn", "Your turn."),
    msg("play_for", "{name} to move: you play for them."),
    msg("choices", "Your choices:"),
    msg("type_it", "{word}: {n} choices, to be typed in full, for example “{example}”"),
    msg("prompt", "Choose (number or action; ? help, q quit): "),
    msg("bad_number", "There is no choice number {n}: choose from 1 to {last}."),
    msg("not_allowed", "Not allowed: {why}"),
    msg("empty", "Type the number of a choice or the action itself (? for help, q to quit)."),
    msg("help", "Commands: a number picks that choice of the list; you may also type the action "
                "(3d, 3d volo, accuso Ad 2d 3d); ? or help shows this help; hint asks the maestro for a "
                "move; analysis shows the analysis of the last finished deal (analysis 2: of deal 2); "
                "q quits."),
    msg("cards_help", "Cards: rank A 2 3 4 5 6 7 F (fante, jack) C (cavallo, knight) R (re, king) and suit "
                      "d denari (coins) ♦, c coppe (cups) ♥, s spade (swords) ♠, b bastoni (clubs) ♣."),
    msg("signal_entry", "  {said} (typed {typed})"),
    msg("glossary", "Glossary:"),
    msg("signal_list", "Signals:"),
    msg("deal_over", "End of deal {n}: {outcome}."),
    msg("deal_points", "Points of the deal: {points}"),
    msg("deal_delta", "Gained: {delta}"),
    msg("deal_line", "Deal {n}: {outcome} · {gains}"),
    msg("match_over", "The match is over."),
    msg("winners", "Winners: {names}."),
    msg("you_won", "You won!"),
    msg("you_lost", "You lost."),
    msg("no_winner", "No winner."),
    msg("save_ask", "Save the match to {path}? [Y/n] "),
    msg("save_offer", "Save the match to {path}? [y/N] "),
    msg("replace_ask", "{path} already exists: replace it? [y/N] "),
    msg("not_saved", "The match was not saved."),
    msg("saved", "Match saved to {path}."),
    msg("save_failed", "Cannot save to {path}: {error}"),
    msg("bye", "Goodbye."),
    msg("error", "Error: {error}"),
    msg("bad_seat", "there is no seat {seat}: seats go from 0 to {last}"),
    msg("dummy_seat", "seat {seat} is a dummy, played by its partner: choose another seat"),
    # A last round declared at the table (Calabresella's chiamare mano)
    msg("last_round", "Last round, declared by {name}: the match ends with deal {n}."),
    msg("last_round_offer", "mano (or last): declare the last round, and the match ends with deal {n}."),
    msg("last_round_ask", "Declare the last round? The match will end with deal {n}. [y/N] "),
    msg("last_round_none", "You cannot declare the last round now: {why}"),
    # Tressette
    msg("we", "we"),
    msg("they", "they"),
    msg("side", "{side} ({names})"),
    msg("taken", "Points taken this deal: {sides}"),
    msg("target", "playing to {target}"),
    msg("accusi", "Accusi: {items}"),
    msg("side_result", "{total} ({points} in cards, {accusi} in accusi)"),
    msg("accuso_worth", "{name}: {n} points"),
    msg("accuso_quattro", "four {rank}"),
    msg("accuso_tris", "three {rank}"),
    msg("accuso_napoletana", "napoletana"),
    msg("ranks_A", "aces"),
    msg("ranks_2", "twos"),
    msg("ranks_3", "threes"),
    # Quattrigghiu and Calabresella: stakes per seat
    msg("stakes", "Stakes: {scores}"),
    # Quattrigghiu
    msg("calls", "Calls: {items}"),
    msg("q_trump", "{trunfu}: {suit} · {matadors}"),
    msg("q_forced", "All said passu (pass): the holder of the spatigghia {spatigghia} must call."),
    msg("q_call", "Caller: {name} · cu' m'aiuta? (who will help me?) {card}"),
    msg("q_open_call", "Caller: {name} · cu' m'aiuta? (who will help me?) Anyone may answer aiutu (I'll help)."),
    msg("q_alone", "Caller: {name}, alone against three."),
    msg("q_caller", "Caller: {name}"),
    msg("q_aiuto", "Aiutu (the caller's partner): {name}"),
    msg("q_secret", "The aiutu (the caller's partner) is secret: whoever holds {card}"),
    msg("q_window", "A clean six basi: go for {tutita} (tutita) or stop here (basta)?"),
    msg("q_attempt", "Going for {tutita}: every basi, or the deal is franca (nothing paid)."),
    msg("q_basi", "{basi}: {items}"),
    msg("q_gone", "The first six basi can no longer be looked at."),
    msg("callers", "callers ({names}) {n}"),
    msg("defenders", "defenders ({names}) {n}"),
    msg("callers_short", "callers {n}"),
    msg("defenders_short", "defenders {n}"),
    # Sancagna
    msg("s_deal_header", "── Deal {n} · {game} · dealer: {dealer} ──"),
    msg("s_deal_over", "End of deal {n}: {outcome}."),
    msg("s_deal_line", "Deal {n}: {outcome} · {gains}"),
    msg("circles", "Circles: {sides}"),
    msg("s_trump", "{briscola}: {suit}, turned card {turned}"),
    msg("s_bottom", "{bacio}: {bottom}"),
    msg("s_tally", "Points until a side calls out: {sides} (this deal: {deal})"),
    msg("s_a_mente", "Points until a side calls out: counted {a_mente}."),
    msg("s_cenni", "Cenni (silent signals) seen: {items}"),
    msg("s_calling", "Trick to {name}: call the side out (fuori) or play on (avanti)?"),
    msg("s_revoke", "{name} at trick {n}"),
    msg("s_revokes", "Revokes found: {items}"),
    msg("calls_out", "Calls: {items}"),
    msg("s_deal_points", "Points of the deal: {points}"),
    msg("s_circles_won", "Circles gained: {sides}"),
    # Calabresella
    msg("bids", "Bidding: {items}"),
    msg("c_call", "Caller: {name} · calls {card}"),
    msg("c_in_widow", "{card} was in the widow."),
    msg("c_holder", "{card} is held by {name}, who gets a card for it (cedo)."),
    msg("c_ceded", "{card}: from {name} to the caller, for {ceded} (cedo)."),
    msg("c_partner", "Compagno (the caller's partner): {name}"),
    msg("c_secret", "The compagno (the caller's partner) is secret: whoever holds {card}"),
    msg("c_sola", "Caller: {name} · plays {sola}."),
    msg("c_widow", "Widow: {cards}"),
    msg("c_discards", "Your discards: {cards} (they go to the taker of the last trick)"),
    msg("c_widow_hidden", "Widow: {n} cards face down, unseen."),
    msg("c_discards_hidden", "The caller's discards: {n} cards face down, to the taker of the last trick."),
    msg("c_taken", "Points taken: {items} (the caller's side wins with {n})"),
    msg("c_deal_points", "Points: caller's side {caller} · the others {others}"),
    # Traversone
    msg("t_score", "Score (a perdere: the lowest wins): {scores}"),
    msg("t_target", "the match ends at {target}"),
    msg("t_ace", "The ace of bastoni {card} is worth {n} points."),
    msg("t_taken", "Points taken this deal: {items}"),
    msg("t_leftover", "{n} cards left over, face down: they go to the taker of the last trick."),
    msg("t_leftover_one", "One card left over, face down: it goes to the taker of the last trick."),
    msg("t_deal_points", "Points taken: {items}"),
    msg("t_deal_scored", "Points scored: {items}"),
    # Hints and the analysis of a deal
    msg("unit_points", "points"),
    msg("unit_stakes", "stakes"),
    msg("unit_circles", "circles"),
    msg("hint_wait", "The maestro is thinking…"),
    msg("hint", "The maestro would play: {action}"),
    msg("hint_values", "Estimated value of the actions (in {unit}, over {samples} simulated deals), its own first:"),
    msg("hint_forced", "It is the only action there is."),
    msg("hint_not_top",
        "The values are a second search's; the maestro leaves its first choice only on a clear margin."),
    msg("hint_more", "…and {n} more actions, worth less."),
    msg("hint_all", "“hint all” lists them all."),
    msg("hint_none", "No hint: {why}"),
    msg("review_ask", "Show the analysis of deal {n}? [y/N] "),
    msg("review_wait", "Analysing deal {n}: every action against open-hand play and against the maestro…"),
    msg("review_none", "There is no finished deal number {n} to analyse."),
    msg("review_header", "── Analysis of deal {n} ──"),
    msg("review_explain", "The maestro: the action against the choice of the maestro, who sees only the player's "
                          "own cards (its estimate, in {unit})."),
    msg("review_explain_open", "Open hands: the card against the best one with every hand in view (in {unit})."),
    msg("review_mistakes", "The biggest mistakes, by what they lost against the maestro:"),
    msg("review_no_mistakes", "No action lost any value against the maestro."),
    msg("review_lost", "Lost against the maestro: {items}"),
    msg("review_lost_open", "Lost against open-hand play: {items}"),
    msg("review_for", "{player} for {seat}"),
    msg("review_before", "Before the tricks:"),
    msg("review_trick", "Trick {n}:"),
    msg("review_where_trick", "trick {n}"),
    msg("review_where_other", "action {n}"),
    msg("review_open_best", "open hands: the best"),
    msg("review_open_worse", "open hands: {best} was better ({cost})"),
    msg("review_open_unknown", "open hands: not computed"),
    msg("review_honest_same", "the maestro agrees"),
    msg("review_honest_equal", "the maestro: {honest}, worth the same"),
    msg("review_honest_other", "the maestro: {honest} ({cost})"),
    msg("review_honest_unknown", "the maestro: {honest}"),
))

# Commands, in either language.
QUIT_WORDS = frozenset({"q", "quit", "esci", "exit"})
HELP_WORDS = frozenset({"?", "aiuto", "help", "h"})
HINT_WORDS = frozenset({"consiglio", "hint"})
HINT_ALL_WORDS = frozenset({"consiglio tutto", "hint all"})
REVIEW_WORDS = frozenset({"analisi", "analysis"})
LAST_ROUND_WORDS = frozenset({"mano", "ultimo giro", "last", "last round"})
YES_WORDS = frozenset({"s", "si", "sì", "y", "yes"})


def translate(lang: str, key: str, text: str) -> str:
    """``text``, the English sentence under ``key``, in the catalog of ``lang``."""
    return CATALOGS[lang].pgettext(key, text)


def template(lang: str, key: str) -> str:
    """An interface sentence of a language, with its ``{placeholders}`` still to fill."""
    return translate(lang, key, MESSAGES[key])


def message(lang: str, key: str, **values: object) -> str:
    """An interface sentence of a language, filled in."""
    return template(lang, key).format(**values)


def meaning(lang: str, text: str) -> str:
    """An English sentence that is no table's key (what a game term means, an option's name), in
    the catalog of ``lang``."""
    return CATALOGS[lang].gettext(text)


class Term(NamedTuple):
    """What a game's word means, in English (the catalogs translate it: extraction keyword
    ``Term:1``), and how the table says it where that differs from the word as typed."""

    meaning: str
    said: str = ""


def gloss(word: str, lang: str, *tables: Mapping[str, Term]) -> str | None:
    """What a game term means in a language, from the first table that has it; None if none does,
    or if the language's explanation is the word itself."""
    for table in tables:
        entry = table.get(word)
        if entry is not None:
            text = meaning(lang, entry.meaning)
            if text not in (word.replace("_", " "), entry.said):
                return text
    return None


class AtSeat(NamedTuple):
    """A seat named in a :class:`Reason`: each table says it its own way (its player's name)."""

    seat: int


class OfSuit(NamedTuple):
    """A suit named in a :class:`Reason`, said in the table's language."""

    suit: int


class OfCard(NamedTuple):
    """A card named in a :class:`Reason`: its notation in the English, each table drawing it its
    own way (A♦)."""

    card: int


SUIT_KEYS = ("suit_d", "suit_c", "suit_s", "suit_b")


class Reason:
    """Why an action is not allowed: an English sentence (extraction keyword ``Reason:1``) and its
    values, which a table fills in its own language with its own names for the seats. ``str()``
    is the English, seats as numbers: what a record's or an engine's error says."""

    __slots__ = ("text", "values")

    def __init__(self, text: str, **values: object) -> None:
        self.text = text
        self.values = values

    def say(self, lang: str, name: Callable[[int], str] | None = None,
            card: Callable[[int], str] = card_str) -> str:
        def show(value: object) -> object:
            if isinstance(value, AtSeat):
                return name(value.seat) if name is not None else message(lang, "seat_number", n=value.seat)
            if isinstance(value, OfSuit):
                return message(lang, SUIT_KEYS[value.suit])
            if isinstance(value, OfCard):
                return card(value.card)
            if isinstance(value, Reason):
                return value.say(lang, name, card)
            return value

        return meaning(lang, self.text).format(**{k: show(v) for k, v in self.values.items()})

    def __str__(self) -> str:
        return self.say(SOURCE_LANGUAGE)

    def __repr__(self) -> str:
        return f"Reason({self.text!r}, ...)"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Reason) and (self.text, self.values) == (other.text, other.values)

    def __hash__(self) -> int:
        return hash(self.text)
