"""The words of osteria's tables, in Italian (the default) and English.

Game terms stay Italian in both languages, as players use them; a game module's ``GLOSSARY``
and ``SIGNAL_NAMES`` give each term as ``(italiano, English)``, and :func:`term` picks the
column of a language. Everything else a table says is in :data:`MESSAGES`.
"""

from __future__ import annotations

from collections.abc import Mapping

DEFAULT_LANGUAGE = "it"
LANGUAGES = ("it", "en")
# The column of each language in the (italiano, English) pairs of the game modules.
TERM_COLUMN = {"it": 0, "en": 1}

MESSAGES: dict[str, dict[str, str]] = {
    "it": {
        "you": "tu",
        "you_object": "te",
        "bot": "bot {n}",
        "deal_header": "── Smazzata {n} · {game} · mazziere: {dealer} ──",
        "options": "Regole: {options}",
        "score": "Punteggio: {scores}",
        "table": "In tavola: {cards}",
        "nothing": "niente",
        "last_trick": "Presa precedente: {cards} → presa da {winner}",
        "declarations": "Dichiarazioni: {items}",
        "signals": "Segni: {items}",
        "your_hand": "La tua mano: {cards}",
        "open_hand": "Carte scoperte di {name}: {cards}",
        "your_turn": "Tocca a te.",
        "play_for": "Tocca a {name}: giochi tu per lui.",
        "choices": "Mosse possibili:",
        "type_it": "{word}: {n} scelte, da scrivere per intero, per esempio «{example}»",
        "prompt": "Scegli (numero o mossa; ? aiuto, q esci): ",
        "bad_number": "Non c'è la mossa numero {n}: scegli da 1 a {last}.",
        "not_allowed": "Mossa non valida: {why}",
        "empty": "Scrivi il numero di una mossa o la mossa stessa (? per l'aiuto, q per uscire).",
        "help": ("Comandi: un numero sceglie la mossa della lista; si può anche scrivere la mossa "
                 "(3d, 3d volo, accuso Ad 2d 3d); ? o aiuto mostra questo aiuto; q esce."),
        "cards_help": "Carte: rango A 2 3 4 5 6 7 F C R e palo d denari ♦, c coppe ♥, s spade ♠, b bastoni ♣.",
        "glossary": "Glossario:",
        "signal_list": "Segni:",
        "deal_over": "Fine della smazzata {n}: {outcome}.",
        "deal_points": "Punti della smazzata: {points}",
        "deal_delta": "Guadagno: {delta}",
        "match_over": "Partita finita.",
        "winners": "Vincono: {names}.",
        "you_won": "Hai vinto!",
        "you_lost": "Hai perso.",
        "no_winner": "Nessun vincitore.",
        "save_ask": "Salvare la partita in {path}? [S/n] ",
        "saved": "Partita salvata in {path}.",
        "save_failed": "Non riesco a salvare in {path}: {error}",
        "bye": "Arrivederci.",
        "error": "Errore: {error}",
        "bad_seat": "non c'è il posto {seat}: i posti vanno da 0 a {last}",
        "dummy_seat": "il posto {seat} è un morto, giocato dal compagno: scegli un altro posto",
        # Tressette
        "we": "noi",
        "they": "loro",
        "side": "{side} ({names})",
        "taken": "Punti presi in questa smazzata: {sides}",
        "target": "si va a {target}",
        "accusi": "Accusi: {items}",
        "side_result": "{points} (accusi {accusi})",
    },
    "en": {
        "you": "you",
        "you_object": "you",
        "bot": "bot {n}",
        "deal_header": "── Deal {n} · {game} · dealer: {dealer} ──",
        "options": "Rules: {options}",
        "score": "Score: {scores}",
        "table": "On the table: {cards}",
        "nothing": "nothing",
        "last_trick": "Previous trick: {cards} → taken by {winner}",
        "declarations": "Declarations: {items}",
        "signals": "Signals: {items}",
        "your_hand": "Your hand: {cards}",
        "open_hand": "{name}'s open hand: {cards}",
        "your_turn": "Your turn.",
        "play_for": "{name} to move: you play for them.",
        "choices": "Your choices:",
        "type_it": "{word}: {n} choices, to be typed in full, for example “{example}”",
        "prompt": "Choose (number or action; ? help, q quit): ",
        "bad_number": "There is no choice number {n}: choose from 1 to {last}.",
        "not_allowed": "Not allowed: {why}",
        "empty": "Type the number of a choice or the action itself (? for help, q to quit).",
        "help": ("Commands: a number picks that choice of the list; you may also type the action "
                 "(3d, 3d volo, accuso Ad 2d 3d); ? or help shows this help; q quits."),
        "cards_help": "Cards: rank A 2 3 4 5 6 7 F C R and suit d coins ♦, c cups ♥, s swords ♠, b clubs ♣.",
        "glossary": "Glossary:",
        "signal_list": "Signals:",
        "deal_over": "End of deal {n}: {outcome}.",
        "deal_points": "Points of the deal: {points}",
        "deal_delta": "Gained: {delta}",
        "match_over": "The match is over.",
        "winners": "Winners: {names}.",
        "you_won": "You won!",
        "you_lost": "You lost.",
        "no_winner": "No winner.",
        "save_ask": "Save the match to {path}? [Y/n] ",
        "saved": "Match saved to {path}.",
        "save_failed": "Cannot save to {path}: {error}",
        "bye": "Goodbye.",
        "error": "Error: {error}",
        "bad_seat": "there is no seat {seat}: seats go from 0 to {last}",
        "dummy_seat": "seat {seat} is a dummy, played by its partner: choose another seat",
        # Tressette
        "we": "we",
        "they": "they",
        "side": "{side} ({names})",
        "taken": "Points taken this deal: {sides}",
        "target": "playing to {target}",
        "accusi": "Accusi: {items}",
        "side_result": "{points} (accusi {accusi})",
    },
}

# Commands, in either language.
QUIT_WORDS = frozenset({"q", "quit", "esci", "exit"})
HELP_WORDS = frozenset({"?", "aiuto", "help", "h"})


def message(lang: str, key: str, **values: object) -> str:
    """An interface string of a language, filled in."""
    return MESSAGES[lang][key].format(**values)


def term(entry: tuple[str, str], lang: str) -> str:
    """The column of an (italiano, English) pair for a language."""
    return entry[TERM_COLUMN[lang]]


def gloss(word: str, lang: str, *tables: Mapping[str, tuple[str, str]]) -> str | None:
    """What a game term means in a language, from the first table that has it; None if none does.
    Italian gives the explanation only when it says more than the word itself."""
    for table in tables:
        entry = table.get(word)
        if entry is not None:
            meaning = term(entry, lang)
            if meaning != word.replace("_", " "):
                return meaning
    return None
