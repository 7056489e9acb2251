"""The words of osteria's tables, in Italian (the default) and English.

Game terms stay Italian in both languages, as players use them; a game's ``glossary()``
and ``signal_names()`` give each term as ``(italiano, English)``, and :func:`term` picks the
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
                 "(3d, 3d volo, accuso Ad 2d 3d); ? o aiuto mostra questo aiuto; consiglio chiede la mossa "
                 "al maestro; analisi mostra l'analisi dell'ultima smazzata finita (analisi 2: della "
                 "smazzata 2); q esce."),
        "cards_help": "Carte: rango A 2 3 4 5 6 7 F C R e palo d denari ♦, c coppe ♥, s spade ♠, b bastoni ♣.",
        "glossary": "Glossario:",
        "signal_list": "Segni:",
        "signal_entry": "  {said} (si scrive {typed})",
        "deal_over": "Fine della smazzata {n}: {outcome}.",
        "deal_points": "Punti della smazzata: {points}",
        "deal_delta": "Guadagno: {delta}",
        "deal_line": "Smazzata {n}: {outcome} · {gains}",
        "match_over": "Partita finita.",
        "winners": "Vincono: {names}.",
        "you_won": "Hai vinto!",
        "you_lost": "Hai perso.",
        "no_winner": "Nessun vincitore.",
        "save_ask": "Salvare la partita in {path}? [S/n] ",
        "save_offer": "Salvare la partita in {path}? [s/N] ",
        "replace_ask": "{path} esiste già: sostituirlo? [s/N] ",
        "not_saved": "Partita non salvata.",
        "saved": "Partita salvata in {path}.",
        "save_failed": "Non riesco a salvare in {path}: {error}",
        "bye": "Arrivederci.",
        "error": "Errore: {error}",
        "bad_seat": "non c'è il posto {seat}: i posti vanno da 0 a {last}",
        "dummy_seat": "il posto {seat} è un morto, giocato dal compagno: scegli un altro posto",
        # A last round declared at the table (Calabresella's chiamare mano)
        "last_round": "Ultimo giro, chiamato da {name}: la partita finisce con la smazzata {n}.",
        "last_round_offer": "mano: chiami l'ultimo giro, e la partita finisce con la smazzata {n}.",
        "last_round_ask": "Chiamare l'ultimo giro? La partita finirà con la smazzata {n}. [s/N] ",
        "last_round_none": "Ora non puoi chiamare l'ultimo giro: {why}",
        # Tressette
        "we": "noi",
        "they": "loro",
        "side": "{side} ({names})",
        "taken": "Punti presi in questa smazzata: {sides}",
        "target": "si va a {target}",
        "accusi": "Accusi: {items}",
        "side_result": "{total} ({points} di carte, {accusi} di accusi)",
        "accuso_worth": "{name}: {n} punti",
        "accuso_quattro": "quattro {rank}",
        "accuso_tris": "tre {rank}",
        "accuso_napoletana": "napoletana",
        "ranks_A": "assi",
        "ranks_2": "due",
        "ranks_3": "tre",
        # Quattrigghiu and Calabresella: stakes per seat
        "stakes": "Poste: {scores}",
        # Quattrigghiu
        "calls": "Chiamata: {items}",
        "q_trump": "{trunfu}: {suit} · {matadors}",
        "q_forced": "Tutti hanno detto passu: chiama per forza chi ha la spatigghia {spatigghia}.",
        "q_call": "Il chiamante: {name} · cu' m'aiuta? {card}",
        "q_open_call": "Il chiamante: {name} · cu' m'aiuta? Chi vuole risponde aiutu.",
        "q_alone": "Il chiamante: {name}, da solo contro tre.",
        "q_caller": "Il chiamante: {name}",
        "q_aiuto": "L'aiutu: {name}",
        "q_secret": "L'aiutu è segreto: chi ha {card}",
        "q_window": "Sei basi pulite: si tenta la {tutita} (tutita) o ci si ferma (basta)?",
        "q_attempt": "Si tenta la {tutita}: tutte le basi, o è franca.",
        "q_basi": "{basi}: {items}",
        "q_gone": "Le prime sei basi non si possono più guardare.",
        "callers": "chiamanti ({names}) {n}",
        "defenders": "avversari ({names}) {n}",
        "callers_short": "chiamanti {n}",
        "defenders_short": "avversari {n}",
        # Sancagna
        "s_deal_header": "── Mano {n} · {game} · mazziere: {dealer} ──",
        "s_deal_over": "Fine della mano {n}: {outcome}.",
        "s_deal_line": "Mano {n}: {outcome} · {gains}",
        "circles": "Cerchi: {sides}",
        "s_trump": "{briscola}: {suit}, girata {turned}",
        "s_bottom": "{bacio}: {bottom}",
        "s_tally": "Punti della smazzata: {sides} (in questa mano: {deal})",
        "s_a_mente": "Punti della smazzata: si contano {a_mente}.",
        "s_cenni": "Cenni: {items}",
        "s_calling": "La presa è andata a {name}: ci si chiama fuori (fuori) o si va avanti (avanti)?",
        "s_revoke": "{name} alla presa {n}",
        "s_revokes": "Revoche trovate: {items}",
        "calls_out": "Chiamate: {items}",
        "s_deal_points": "Punti della mano: {points}",
        "s_circles_won": "Cerchi guadagnati: {sides}",
        # Calabresella
        "bids": "Chiamata: {items}",
        "c_call": "Il chiamante: {name} · chiama {card}",
        "c_in_widow": "{card} era nel tallone.",
        "c_holder": "{card} è in mano a {name}: passa al chiamante per una carta (cedo).",
        "c_ceded": "{card}: da {name} al chiamante, in cambio di {ceded} (cedo).",
        "c_partner": "Il compagno: {name}",
        "c_secret": "Il compagno è segreto: chi ha {card}",
        "c_sola": "Il chiamante: {name} · gioca {sola}: senza chiamata, posta doppia.",
        "c_widow": "Tallone: {cards}",
        "c_discards": "Il tuo scarto: {cards} (va a chi fa l'ultima presa)",
        "c_widow_hidden": "Tallone: {n} carte coperte, non si vedono.",
        "c_discards_hidden": "Scarto del chiamante: {n} carte coperte, vanno a chi fa l'ultima presa.",
        "c_taken": "Punti presi: {items} (la parte del chiamante vince con {n})",
        "c_deal_points": "Punti: parte del chiamante {caller} · avversari {others}",
        # Traversone
        "t_score": "Punteggio (a perdere: vince chi ha meno): {scores}",
        "t_target": "si chiude a {target}",
        "t_ace": "L'asso di bastoni {card} vale {n} punti.",
        "t_taken": "Punti presi in questa smazzata: {items}",
        "t_leftover": "{n} carte avanzate, coperte: vanno a chi fa l'ultima presa.",
        "t_leftover_one": "Una carta avanzata, coperta: va a chi fa l'ultima presa.",
        "t_deal_points": "Punti presi: {items}",
        "t_deal_scored": "Punti segnati: {items}",
        # Hints and the analysis of a deal
        "unit_points": "punti",
        "unit_stakes": "poste",
        "unit_circles": "cerchi",
        "hint_wait": "Il maestro ci pensa…",
        "hint": "Il maestro giocherebbe: {action}",
        "hint_values": "Valore stimato delle mosse (in {unit}, su {samples} smazzate simulate), la sua per prima:",
        "hint_forced": "È l'unica mossa possibile.",
        "hint_more": "…e altre {n} mosse, che valgono meno.",
        "hint_all": "«consiglio tutto» le elenca tutte.",
        "hint_none": "Nessun consiglio: {why}",
        "review_ask": "Vuoi l'analisi della smazzata {n}? [s/N] ",
        "review_wait": ("Analisi della smazzata {n} in corso: ogni mossa contro il gioco a carte scoperte "
                        "e contro il maestro…"),
        "review_none": "Non c'è una smazzata finita numero {n} da analizzare.",
        "review_header": "── Analisi della smazzata {n} ──",
        "review_explain": ("Il maestro: la mossa contro la scelta del maestro, che vede solo le carte di chi gioca "
                           "(sua stima, in {unit})."),
        "review_explain_open": "A carte scoperte: la carta contro la migliore con tutte le mani in vista (in {unit}).",
        "review_mistakes": "Gli errori più gravi, per quanto hanno perso rispetto al maestro:",
        "review_no_mistakes": "Nessuna mossa ha perso valore rispetto al maestro.",
        "review_lost": "Perso rispetto al maestro: {items}",
        "review_lost_open": "Perso a carte scoperte: {items}",
        "review_for": "{player} per {seat}",
        "review_before": "Prima delle prese:",
        "review_trick": "Presa {n}:",
        "review_where_trick": "presa {n}",
        "review_where_other": "mossa {n}",
        "review_open_best": "a carte scoperte la migliore",
        "review_open_worse": "a carte scoperte meglio {best} ({cost})",
        "review_open_unknown": "a carte scoperte non calcolata",
        "review_honest_same": "il maestro d'accordo",
        "review_honest_equal": "il maestro {honest}, di pari valore",
        "review_honest_other": "il maestro {honest} ({cost})",
        "review_honest_unknown": "il maestro {honest}",
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
                 "(3d, 3d volo, accuso Ad 2d 3d); ? or help shows this help; hint asks the maestro for a "
                 "move; analysis shows the analysis of the last finished deal (analysis 2: of deal 2); "
                 "q quits."),
        "cards_help": ("Cards: rank A 2 3 4 5 6 7 F (fante, jack) C (cavallo, knight) R (re, king) and suit "
                       "d denari (coins) ♦, c coppe (cups) ♥, s spade (swords) ♠, b bastoni (clubs) ♣."),
        "signal_entry": "  {said} (typed {typed})",
        "glossary": "Glossary:",
        "signal_list": "Signals:",
        "deal_over": "End of deal {n}: {outcome}.",
        "deal_points": "Points of the deal: {points}",
        "deal_delta": "Gained: {delta}",
        "deal_line": "Deal {n}: {outcome} · {gains}",
        "match_over": "The match is over.",
        "winners": "Winners: {names}.",
        "you_won": "You won!",
        "you_lost": "You lost.",
        "no_winner": "No winner.",
        "save_ask": "Save the match to {path}? [Y/n] ",
        "save_offer": "Save the match to {path}? [y/N] ",
        "replace_ask": "{path} already exists: replace it? [y/N] ",
        "not_saved": "The match was not saved.",
        "saved": "Match saved to {path}.",
        "save_failed": "Cannot save to {path}: {error}",
        "bye": "Goodbye.",
        "error": "Error: {error}",
        "bad_seat": "there is no seat {seat}: seats go from 0 to {last}",
        "dummy_seat": "seat {seat} is a dummy, played by its partner: choose another seat",
        # A last round declared at the table (Calabresella's chiamare mano)
        "last_round": "Last round, declared by {name}: the match ends with deal {n}.",
        "last_round_offer": "mano (or last): declare the last round, and the match ends with deal {n}.",
        "last_round_ask": "Declare the last round? The match will end with deal {n}. [y/N] ",
        "last_round_none": "You cannot declare the last round now: {why}",
        # Tressette
        "we": "we",
        "they": "they",
        "side": "{side} ({names})",
        "taken": "Points taken this deal: {sides}",
        "target": "playing to {target}",
        "accusi": "Accusi: {items}",
        "side_result": "{total} ({points} in cards, {accusi} in accusi)",
        "accuso_worth": "{name}: {n} points",
        "accuso_quattro": "four {rank}",
        "accuso_tris": "three {rank}",
        "accuso_napoletana": "napoletana",
        "ranks_A": "aces",
        "ranks_2": "twos",
        "ranks_3": "threes",
        # Quattrigghiu and Calabresella: stakes per seat
        "stakes": "Stakes: {scores}",
        # Quattrigghiu
        "calls": "Calls: {items}",
        "q_trump": "{trunfu}: {suit} · {matadors}",
        "q_forced": "All said passu (pass): the holder of the spatigghia {spatigghia} must call.",
        "q_call": "Caller: {name} · cu' m'aiuta? (who will help me?) {card}",
        "q_open_call": "Caller: {name} · cu' m'aiuta? (who will help me?) Anyone may answer aiutu (I'll help).",
        "q_alone": "Caller: {name}, alone against three.",
        "q_caller": "Caller: {name}",
        "q_aiuto": "Aiutu (the caller's partner): {name}",
        "q_secret": "The aiutu (the caller's partner) is secret: whoever holds {card}",
        "q_window": "A clean six basi: go for {tutita} (tutita) or stop here (basta)?",
        "q_attempt": "Going for {tutita}: every basi, or the deal is franca (nothing paid).",
        "q_basi": "{basi}: {items}",
        "q_gone": "The first six basi can no longer be looked at.",
        "callers": "callers ({names}) {n}",
        "defenders": "defenders ({names}) {n}",
        "callers_short": "callers {n}",
        "defenders_short": "defenders {n}",
        # Sancagna
        "s_deal_header": "── Deal {n} · {game} · dealer: {dealer} ──",
        "s_deal_over": "End of deal {n}: {outcome}.",
        "s_deal_line": "Deal {n}: {outcome} · {gains}",
        "circles": "Circles: {sides}",
        "s_trump": "{briscola}: {suit}, turned card {turned}",
        "s_bottom": "{bacio}: {bottom}",
        "s_tally": "Points until a side calls out: {sides} (this deal: {deal})",
        "s_a_mente": "Points until a side calls out: counted {a_mente}.",
        "s_cenni": "Cenni (silent signals) seen: {items}",
        "s_calling": "Trick to {name}: call the side out (fuori) or play on (avanti)?",
        "s_revoke": "{name} at trick {n}",
        "s_revokes": "Revokes found: {items}",
        "calls_out": "Calls: {items}",
        "s_deal_points": "Points of the deal: {points}",
        "s_circles_won": "Circles gained: {sides}",
        # Calabresella
        "bids": "Bidding: {items}",
        "c_call": "Caller: {name} · calls {card}",
        "c_in_widow": "{card} was in the widow.",
        "c_holder": "{card} is held by {name}, who gets a card for it (cedo).",
        "c_ceded": "{card}: from {name} to the caller, for {ceded} (cedo).",
        "c_partner": "Compagno (the caller's partner): {name}",
        "c_secret": "The compagno (the caller's partner) is secret: whoever holds {card}",
        "c_sola": "Caller: {name} · plays {sola}.",
        "c_widow": "Widow: {cards}",
        "c_discards": "Your discards: {cards} (they go to the taker of the last trick)",
        "c_widow_hidden": "Widow: {n} cards face down, unseen.",
        "c_discards_hidden": "The caller's discards: {n} cards face down, to the taker of the last trick.",
        "c_taken": "Points taken: {items} (the caller's side wins with {n})",
        "c_deal_points": "Points: caller's side {caller} · the others {others}",
        # Traversone
        "t_score": "Score (a perdere: the lowest wins): {scores}",
        "t_target": "the match ends at {target}",
        "t_ace": "The ace of bastoni {card} is worth {n} points.",
        "t_taken": "Points taken this deal: {items}",
        "t_leftover": "{n} cards left over, face down: they go to the taker of the last trick.",
        "t_leftover_one": "One card left over, face down: it goes to the taker of the last trick.",
        "t_deal_points": "Points taken: {items}",
        "t_deal_scored": "Points scored: {items}",
        # Hints and the analysis of a deal
        "unit_points": "points",
        "unit_stakes": "stakes",
        "unit_circles": "circles",
        "hint_wait": "The maestro is thinking…",
        "hint": "The maestro would play: {action}",
        "hint_values": "Estimated value of the actions (in {unit}, over {samples} simulated deals), its own first:",
        "hint_forced": "It is the only action there is.",
        "hint_more": "…and {n} more actions, worth less.",
        "hint_all": "“hint all” lists them all.",
        "hint_none": "No hint: {why}",
        "review_ask": "Show the analysis of deal {n}? [y/N] ",
        "review_wait": "Analysing deal {n}: every action against open-hand play and against the maestro…",
        "review_none": "There is no finished deal number {n} to analyse.",
        "review_header": "── Analysis of deal {n} ──",
        "review_explain": ("The maestro: the action against the choice of the maestro, who sees only the player's "
                           "own cards (its estimate, in {unit})."),
        "review_explain_open": "Open hands: the card against the best one with every hand in view (in {unit}).",
        "review_mistakes": "The biggest mistakes, by what they lost against the maestro:",
        "review_no_mistakes": "No action lost any value against the maestro.",
        "review_lost": "Lost against the maestro: {items}",
        "review_lost_open": "Lost against open-hand play: {items}",
        "review_for": "{player} for {seat}",
        "review_before": "Before the tricks:",
        "review_trick": "Trick {n}:",
        "review_where_trick": "trick {n}",
        "review_where_other": "action {n}",
        "review_open_best": "open hands: the best",
        "review_open_worse": "open hands: {best} was better ({cost})",
        "review_open_unknown": "open hands: not computed",
        "review_honest_same": "the maestro agrees",
        "review_honest_equal": "the maestro: {honest}, worth the same",
        "review_honest_other": "the maestro: {honest} ({cost})",
        "review_honest_unknown": "the maestro: {honest}",
    },
}

# Commands, in either language.
QUIT_WORDS = frozenset({"q", "quit", "esci", "exit"})
HELP_WORDS = frozenset({"?", "aiuto", "help", "h"})
HINT_WORDS = frozenset({"consiglio", "hint"})
HINT_ALL_WORDS = frozenset({"consiglio tutto", "hint all"})
REVIEW_WORDS = frozenset({"analisi", "analysis"})
LAST_ROUND_WORDS = frozenset({"mano", "ultimo giro", "last", "last round"})
YES_WORDS = frozenset({"s", "si", "sì", "y", "yes"})


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
