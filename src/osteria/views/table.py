"""How a seat's observation is drawn as lines of text, game by game.

:class:`TableView` draws any game from the keys most trick-taking observations share (the hand,
the open hands, the trick, the previous trick, the history, the scores) and shows any other key
as it is, so a new game plays at the plain table before it has a view of its own. A game's view
is a small subclass in :data:`VIEWS` that draws what only that game has, in the game's own words
(with their English meaning at an English table), and orders the cards as the game ranks them.
"""

from __future__ import annotations

import importlib
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from osteria.cards import SUIT_NAMES, SUIT_SYMBOLS, SUITS, card_symbol, mask_of, parse_card, rank_of, suit_of
from osteria.engine import side_of
from osteria.i18n import gloss, message
from osteria.rules import calabresella, quattrigghiu, sancagna
from osteria.rules.traversone import ACE_OF_BASTONI
from osteria.rules.tressette_family import STRENGTH

Observation = Mapping[str, Any]
Terms = Mapping[str, tuple[str, str]]


def card_of(text: object) -> int | None:
    """The card a string names, or None when it names none."""
    if not isinstance(text, str):
        return None
    try:
        return parse_card(text)
    except ValueError:
        return None


def seat_cards(value: object) -> list[tuple[int, str]] | None:
    """A list of ``[seat, card]`` pairs, or None when the value is not one."""
    if not isinstance(value, list):
        return None
    pairs = []
    for item in value:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int)
                and card_of(item[1]) is not None):
            return None
        pairs.append((item[0], item[1]))
    return pairs


def capital(text: str) -> str:
    """A line's first word with a capital letter (a game term that starts the line)."""
    return text[:1].upper() + text[1:]


def suit_index(text: object) -> int | None:
    """The suit a suit letter names (``s``: spade), or None."""
    return SUITS.index(text) if isinstance(text, str) and len(text) == 1 and text in SUITS else None


def thirds_text(thirds: int) -> str:
    """Thirds of a point as a mixed number: 7 -> 2⅓."""
    whole, rest = divmod(thirds, 3)
    fraction = ("", "⅓", "⅔")[rest]
    return f"{whole}{fraction}" if whole or not fraction else fraction


class TableView:
    """Draws one seat's observation of any game in one language."""

    # Keys drawn by this view or deliberately left out (they repeat what is drawn);
    # any other key of an observation is shown as it is.
    handled: ClassVar[frozenset[str]] = frozenset({
        "game", "options", "players", "seat", "deal_index", "results", "totals", "finished", "to_move",
        "legal_actions", "dealer", "hand", "hands", "hand_sizes", "trick", "last_trick", "history", "played",
    })
    declarations_key = "declarations"
    header_key, over_key = "deal_header", "deal_over"
    score_key = "score"  # the match's scores per seat: points, or stakes won and lost
    # Phases before the first card, when there is no table to draw.
    bidding_phases: ClassVar[frozenset[str]] = frozenset()
    # Game words as players say them, where the action strings write them without accents.
    spoken: ClassVar[Mapping[str, str]] = {}

    def __init__(self, lang: str, names: Sequence[str], seat: int, glossary: Terms, signal_names: Terms) -> None:
        self.lang = lang
        self.names = list(names)
        self.seat = seat
        self.glossary = glossary
        self.signal_names = signal_names

    def say(self, key: str, **values: object) -> str:
        return message(self.lang, key, **values)

    # -- words and cards ----------------------------------------------------------------------

    def note(self, obs: Observation) -> None:
        """Take note of what orders the cards (a trump once named). :meth:`table` calls it first,
        so the choices listed after the table are ordered as its hand is."""

    def group_of(self, card: int) -> int:
        """The group a card is shown in, groups in increasing order: its suit by default."""
        return suit_of(card)

    def rank_key(self, card: int) -> int:
        """Where a card stands in its group, for sorting a hand: the deck's order by default."""
        return rank_of(card)

    def cards(self, texts: Sequence[str]) -> str:
        """Cards sorted by group (suit) and rank, lowest first, with a wider gap between groups."""
        cards = sorted((c for c in map(card_of, texts) if c is not None),
                       key=lambda c: (self.group_of(c), self.rank_key(c)))
        groups: dict[int, list[str]] = {}
        for c in cards:
            groups.setdefault(self.group_of(c), []).append(card_symbol(c))
        return "   ".join(" ".join(group) for group in groups.values()) or self.say("nothing")

    def term(self, word: str, *tables: Terms) -> str:
        """A game term as said; at an English table with its meaning (an Italian table needs none:
        the ? command lists the glossary). ``tables`` to look it up in, the glossary by default."""
        said = self.spoken.get(word, word)
        meaning = gloss(word, self.lang, *(tables or (self.glossary, self.signal_names))) if self.lang == "en" else None
        return f"{said} ({meaning})" if meaning else said

    def suit(self, suit: int) -> str:
        """A suit by name and symbol: spade ♠."""
        return f"{SUIT_NAMES[self.lang][suit]} {SUIT_SYMBOLS[suit]}"

    def per_seat(self, values: Sequence[object]) -> str:
        """One value per seat, after each seat's name."""
        return " · ".join(f"{self.name(s)} {v}" for s, v in enumerate(values))

    def word(self, word: str, *, explain: bool) -> str:
        """One word of an action: a card as its symbol, a game term with its meaning if asked."""
        c = card_of(word)
        if c is not None:
            return card_symbol(c)
        meaning = gloss(word, self.lang, self.signal_names, self.glossary) if explain else None
        return f"{word} ({meaning})" if meaning else word

    def action(self, text: str, *, explain: bool = False) -> str:
        return " ".join(self.word(w, explain=explain) for w in text.split())

    def name(self, seat: object) -> str:
        return self.names[seat] if isinstance(seat, int) and 0 <= seat < len(self.names) else str(seat)

    def name_object(self, seat: object) -> str:
        """A seat's name after a preposition ("presa da te")."""
        return self.say("you_object") if seat == self.seat else self.name(seat)

    def value(self, value: object, *, nested: bool = False) -> str:
        """Any JSON value, with cards as symbols and seats left as numbers."""
        if isinstance(value, str):
            return self.action(value)
        if isinstance(value, list):
            return "[" + ", ".join(self.value(v, nested=True) for v in value) + "]"
        if isinstance(value, dict):
            items = ", ".join(f"{k}={self.value(v, nested=True)}" for k, v in value.items())
            return "{" + items + "}" if nested else items
        if value is None:
            return "-"
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)

    # -- the table ---------------------------------------------------------------------------

    def deal_header(self, obs: Observation) -> list[str]:
        lines = [self.say(self.header_key, n=obs.get("deal_index", 0) + 1, game=obs.get("game", "?"),
                          dealer=self.name(obs.get("dealer")))]
        options = obs.get("options")
        if options:
            lines.append(self.say("options", options=self.value(options)))
        return lines

    def table(self, obs: Observation) -> list[str]:
        """Everything the seat sees at its turn, its hand last, nearest to the choices."""
        self.note(obs)
        return [*self.scores(obs), *self.status(obs), *self.declarations(obs), *self.signals(obs),
                *self.last_trick(obs), *self.trick(obs), *self.extras(obs), *self.hands(obs)]

    def scores(self, obs: Observation) -> list[str]:
        totals = obs.get("totals")
        if not isinstance(totals, list):
            return []
        return [self.say(self.score_key, scores=self.per_seat(totals))]

    def status(self, obs: Observation) -> list[str]:
        """What only this game has: its trump, its contract, the points of the deal so far."""
        return []

    def history(self, obs: Observation) -> list[tuple[int, str]]:
        history = obs.get("history")
        if not isinstance(history, list):
            return []
        return [(s, a) for s, a in history if isinstance(a, str)]

    def declared(self, action: str) -> bool:
        """Whether an action is listed with the declarations: by default any that plays no card."""
        return bool(action.split()) and card_of(action.split()[0]) is None

    def declarations(self, obs: Observation) -> list[str]:
        """Actions that play no card (bids, declarations, calls), in the order made."""
        items = [f"{self.name(s)}: {self.action(a)}" for s, a in self.history(obs) if self.declared(a)]
        return [self.say(self.declarations_key, items=", ".join(items))] if items else []

    def signals(self, obs: Observation) -> list[str]:
        """Cards played with a word after them."""
        items = [f"{self.name(s)} {self.action(a)}" for s, a in self.history(obs)
                 if len(a.split()) > 1 and card_of(a.split()[0]) is not None]
        return [self.say("signals", items=", ".join(items))] if items else []

    def played(self, obs: Observation, pairs: Sequence[tuple[int, str]]) -> str:
        """Cards on the table with who played them and the words said with them."""
        said = {a.split()[0]: a for _, a in self.history(obs) if a.split()}
        return " · ".join(f"{self.name(s)} {self.action(said.get(c, c))}" for s, c in pairs)

    def trick(self, obs: Observation) -> list[str]:
        if "trick" not in obs or obs.get("phase") in self.bidding_phases:
            return []
        pairs = seat_cards(obs["trick"])
        if pairs is None:
            return [f"trick: {self.value(obs['trick'])}"]
        return [self.say("table", cards=self.played(obs, pairs) if pairs else self.say("nothing"))]

    def last_trick(self, obs: Observation) -> list[str]:
        last = obs.get("last_trick")
        if last is None:
            return []
        pairs = seat_cards(last.get("cards")) if isinstance(last, dict) else None
        if pairs is None or not isinstance(last, dict):
            return [f"last_trick: {self.value(last)}"]
        return [self.say("last_trick", cards=self.played(obs, pairs), winner=self.name_object(last.get("winner")))]

    def extras(self, obs: Observation) -> list[str]:
        return [f"{key}: {self.value(value)}" for key, value in obs.items() if key not in self.handled]

    def hands(self, obs: Observation) -> list[str]:
        lines = []
        hands = obs.get("hands")
        if isinstance(hands, list):
            lines += [self.say("open_hand", name=self.name(s), cards=self.cards(hand))
                      for s, hand in enumerate(hands) if s != self.seat and isinstance(hand, list)]
        hand = obs.get("hand")
        if isinstance(hand, list):
            lines.append(self.say("your_hand", cards=self.cards(hand)))
        return lines

    # -- choices and help --------------------------------------------------------------------

    def ordered(self, legal: Sequence[str]) -> list[str]:
        """The legal actions in the order they are listed: those that play no card first, then
        the cards as the hand is sorted, each card's variants (its signals) in the game's order."""
        def key(item: tuple[int, str]) -> tuple[int, int, int, int]:
            index, action = item
            c = card_of(action.split()[0]) if action.split() else None
            return (0, 0, 0, index) if c is None else (1, self.group_of(c), self.rank_key(c), index)
        return [action for _, action in sorted(enumerate(legal), key=key)]

    def choices(self, legal: Sequence[str], width: int = 100) -> list[str]:
        """The actions numbered from 1 as given, packed into lines, then what their words mean."""
        lines, line = [], ""
        # Columns of 16 characters; a longer entry keeps two spaces before the next one.
        entries = [f"{i:>2}) {self.action(a)}  ".ljust(16) for i, a in enumerate(legal, 1)]
        for entry in entries:
            if line and len(line) + len(entry) > width:
                lines.append(line.rstrip())
                line = ""
            line += entry
        lines.append(line.rstrip())
        words = dict.fromkeys(w for a in legal for w in a.split() if card_of(w) is None)
        meanings = [f"{w}: {m}" for w in words if (m := gloss(w, self.lang, self.signal_names, self.glossary))]
        lines += textwrap.wrap("; ".join(meanings), width, initial_indent="   ", subsequent_indent="   ")
        return lines

    def help(self) -> list[str]:
        lines = [self.say("help"), self.say("cards_help")]
        if self.glossary:
            lines.append(self.say("glossary"))
            lines += [f"  {w}: {gloss(w, self.lang, self.glossary) or w}" for w in self.glossary]
        if self.signal_names:
            lines.append(self.say("signal_list"))
            lines += [f"  {w}" + (f": {m}" if (m := gloss(w, self.lang, self.signal_names, self.glossary)) else "")
                      for w in self.signal_names]
        return lines

    # -- results -----------------------------------------------------------------------------

    def outcome(self, outcome: str) -> str:
        meaning = gloss(outcome, self.lang, self.glossary)
        return f"{outcome} ({meaning})" if meaning else outcome

    def deal_result(self, index: int, result: Observation, totals: Sequence[int]) -> list[str]:
        return [self.say(self.over_key, n=index + 1, outcome=self.outcome(str(result.get("outcome")))),
                self.say("deal_points", points=" · ".join(map(str, result.get("points", [])))),
                self.say("deal_delta", delta=self.per_seat([f"{d:+d}" for d in result.get("delta", [])])),
                *self.scores({"totals": list(totals)})]

    def match_over(self, winners: Sequence[int]) -> list[str]:
        """The end of the match: who won, and whether the seat of the view is among them."""
        if not winners:
            return [self.say("match_over"), self.say("no_winner")]
        return [self.say("match_over"), self.say("winners", names=", ".join(self.name(s) for s in winners)),
                self.say("you_won" if self.seat in winners else "you_lost")]


class FamilyView(TableView):
    """A game of the Tressette family: its cards ranked 4 5 6 7 F C R A 2 3 in every suit."""

    def rank_key(self, card: int) -> int:
        return STRENGTH[card]


class PartnershipView(TableView):
    """A game of two fixed sides, seats 0 and 2 against 1 and 3, told as we and they."""

    def watching(self) -> bool:
        """Whether the view is a watcher's, who holds no seat (a seat out of range): no side is his."""
        return not 0 <= self.seat < len(self.names)

    def side(self, side: int, *, members: bool) -> str:
        """The side as we or they, with the names of its seats if asked; to a watcher, by its seats' names."""
        names = [self.name(s) for s in range(len(self.names)) if side_of(s) == side]
        if self.watching():
            return "/".join(names)
        word = self.say("we" if side == side_of(self.seat) else "they")
        if not members:
            return word
        return self.say("side", side=word, names=", ".join(names))

    def by_side(self, values: Sequence[str], *, members: bool = True) -> str:
        """One value per side, the person's side first (to a watcher, seat 0's side first)."""
        mine = 0 if self.watching() else side_of(self.seat)
        return " · ".join(f"{self.side(side, members=members)} {values[side]}" for side in (mine, 1 - mine))


class TressetteView(PartnershipView, FamilyView):
    """Tressette: two sides, points in thirds during the deal, accusi, the target."""

    handled = TableView.handled | {"thirds", "accusi", "segni", "morto", "leader", "tricks_played"}
    declarations_key = "accusi"

    def scores(self, obs: Observation) -> list[str]:
        totals = obs.get("totals")
        if not isinstance(totals, list):
            return []
        line = self.say("score", scores=self.by_side([str(totals[side]) for side in (0, 1)]))
        target = obs.get("options", {}).get("target")
        lines = [f"{line} ({self.say('target', target=target)})" if target else line]
        thirds = obs.get("thirds")
        if isinstance(thirds, list):
            lines.append(self.say("taken", sides=self.by_side([thirds_text(t) for t in thirds], members=False)))
        return lines

    def deal_result(self, index: int, result: Observation, totals: Sequence[int]) -> list[str]:
        points, delta = result["points"], result["delta"]
        # delta is per seat: a side's points plus its accusi; seats 0 and 1 stand for the sides.
        sides = [self.say("side_result", points=points[side], accusi=delta[side] - points[side]) for side in (0, 1)]
        return [self.say(self.over_key, n=index + 1, outcome=self.outcome(str(result["outcome"]))),
                self.say("deal_points", points=self.by_side(sides, members=False)),
                *self.scores({"totals": list(totals)})]


class QuattrigghiuView(TableView):
    """Quattrigghiu: the trunfu and its battittura, the call and the secret aiutu, the basi, the stakes."""

    handled = TableView.handled | {"phase", "caller", "trump", "called_card", "aiuto", "leader", "tricks",
                                   "tricks_played", "basi", "tutita"}
    declarations_key = "calls"
    score_key = "stakes"
    bidding_phases = frozenset({quattrigghiu.BIDDING, quattrigghiu.FORCED, quattrigghiu.VOLUNTEERS})
    spoken: ClassVar[Mapping[str, str]] = {"tutita": "tutità", "sulita": "sulità"}
    trump: int | None = None

    def note(self, obs: Observation) -> None:
        self.trump = suit_index(obs.get("trump"))

    def trumps(self) -> int:
        """The trunfi: the trump suit's once it is called; before, the spatigghia and the bastu,
        trunfi whatever the call."""
        if self.trump is None:
            return mask_of((quattrigghiu.SPATIGGHIA, quattrigghiu.BASTU))
        return quattrigghiu.TRUMP_MASK[self.trump]

    def group_of(self, card: int) -> int:
        return -1 if self.trumps() >> card & 1 else suit_of(card)

    def rank_key(self, card: int) -> int:
        # Before the call a suit ranks as it does when another suit is trunfu: its plain order.
        trump = self.trump if self.trump is not None else (suit_of(card) + 1) % 4
        return quattrigghiu.STRENGTH[trump][card]

    def word(self, word: str, *, explain: bool) -> str:
        suit = suit_index(word)  # the trunfu of a call, as its symbol (typed as a letter or the symbol)
        return SUIT_SYMBOLS[suit] if suit is not None else super().word(word, explain=explain)

    def sides(self, obs: Observation) -> tuple[list[int], list[int]] | None:
        """The caller's side and the others, when the seat can tell them apart."""
        caller, aiuto = obs.get("caller"), obs.get("aiuto")
        if not isinstance(caller, int):
            return None
        if isinstance(aiuto, int):
            callers = [caller, aiuto]
        elif obs.get("called_card") is None and obs.get("phase") != quattrigghiu.VOLUNTEERS:
            callers = [caller]  # sulità, or nobody answered aiutu
        else:
            return None
        return callers, [s for s in range(len(self.names)) if s not in callers]

    def status(self, obs: Observation) -> list[str]:
        lines = []
        phase, caller, aiuto = obs.get("phase"), obs.get("caller"), obs.get("aiuto")
        trump, called = suit_index(obs.get("trump")), card_of(obs.get("called_card"))
        if trump is not None:
            matadors = ((("spatigghia", quattrigghiu.SPATIGGHIA), ("manigghia", quattrigghiu.MANIGGHIA[trump]),
                         ("bastu", quattrigghiu.BASTU)))
            lines.append(self.say("q_trump", trunfu=capital(self.term("trunfu")), suit=self.suit(trump),
                                  matadors=", ".join(f"{word} {card_symbol(c)}" for word, c in matadors)))
        if phase == quattrigghiu.FORCED:
            lines.append(self.say("q_forced", spatigghia=card_symbol(quattrigghiu.SPATIGGHIA)))
        if isinstance(caller, int):
            if called is not None:
                lines.append(self.say("q_call", name=self.name(caller), card=card_symbol(called)))
            elif phase == quattrigghiu.VOLUNTEERS:
                lines.append(self.say("q_open_call", name=self.name(caller)))
            else:  # playing alone, or with the aiutu who answered
                lines.append(self.say("q_alone" if aiuto is None else "q_caller", name=self.name(caller)))
        if isinstance(aiuto, int):
            lines.append(self.say("q_aiuto", name=self.name(aiuto)))
        elif called is not None:
            lines.append(self.say("q_secret", card=card_symbol(called)))
        if phase == quattrigghiu.WINDOW:
            lines.append(self.say("q_window", tutita=self.term("tutita")))
        elif obs.get("tutita"):
            lines.append(self.say("q_attempt", tutita=self.term("tutita")))
        basi, played = obs.get("basi"), obs.get("tricks_played")
        if isinstance(basi, list) and isinstance(played, int) and phase in (quattrigghiu.PLAY, quattrigghiu.WINDOW):
            sides = self.sides(obs)
            if sides is None:
                items = self.per_seat(basi)
            else:
                callers, others = ([self.name(s) for s in side] for side in sides)
                items = " · ".join((self.say("callers", names=", ".join(callers), n=sum(basi[s] for s in sides[0])),
                                    self.say("defenders", names=", ".join(others), n=sum(basi[s] for s in sides[1]))))
            lines.append(self.say("q_basi", basi=capital(self.term("basi")), items=items))
            if played >= quattrigghiu.WINNING:
                lines.append(self.say("q_gone"))
        return lines

    def deal_result(self, index: int, result: Observation, totals: Sequence[int]) -> list[str]:
        points = result["points"]  # basi of the caller's side and of the others
        items = " · ".join((self.say("callers_short", n=points[0]), self.say("defenders_short", n=points[1])))
        return [self.say(self.over_key, n=index + 1, outcome=self.outcome(str(result["outcome"]))),
                self.say("q_basi", basi=capital(self.term("basi")), items=items),
                self.say("deal_delta", delta=self.per_seat([f"{d:+d}" for d in result["delta"]])),
                *self.scores({"totals": list(totals)})]


class SancagnaView(PartnershipView):
    """Sancagna: the briscola and the bacio della tavola, tallies across deals, cenni, the call-out."""

    handled = TableView.handled | {"trump", "turned", "bottom", "leader", "tricks_played", "calling", "cenni",
                                   "revokes", "points", "tally"}
    declarations_key = "calls_out"
    header_key, over_key = "s_deal_header", "s_deal_over"
    spoken: ClassVar[Mapping[str, str]] = {"gnagna": "gnagnà"}
    trump: int | None = None

    def note(self, obs: Observation) -> None:
        self.trump = suit_index(obs.get("trump"))

    def group_of(self, card: int) -> int:
        return -1 if suit_of(card) == self.trump else suit_of(card)

    def rank_key(self, card: int) -> int:
        return rank_of(card) if self.trump is None else sancagna.KEY[self.trump][card]

    def declared(self, action: str) -> bool:
        return action in ("fuori", "avanti")  # the cenni have a line of their own

    def scores(self, obs: Observation) -> list[str]:
        totals = obs.get("totals")
        if not isinstance(totals, list):
            return []
        line = self.say("circles", sides=self.by_side([str(totals[side]) for side in (0, 1)]))
        target = obs.get("options", {}).get("target")
        return [f"{line} ({self.say('target', target=target)})" if target else line]

    def status(self, obs: Observation) -> list[str]:
        lines = []
        trump, turned, bottom = suit_index(obs.get("trump")), card_of(obs.get("turned")), card_of(obs.get("bottom"))
        if trump is not None and turned is not None and bottom is not None:
            lines += [self.say("s_trump", briscola=capital(self.term("briscola")), suit=self.suit(trump),
                               turned=card_symbol(turned)),
                      self.say("s_bottom", bacio=capital(self.term("bacio della tavola")), bottom=card_symbol(bottom))]
        tally, points = obs.get("tally"), obs.get("points")
        if isinstance(tally, list) and isinstance(points, list):
            lines.append(self.say("s_tally", sides=self.by_side([str(t) for t in tally], members=False),
                                  deal=self.by_side([str(p) for p in points], members=False)))
        elif "tally" not in obs:
            lines.append(self.say("s_a_mente", a_mente=self.term("a mente")))
        cenni = obs.get("cenni")
        if isinstance(cenni, list) and cenni:
            items = [f"{self.name(s)} {self.term(w, self.signal_names)}" for s, w in cenni]
            lines.append(self.say("s_cenni", items=", ".join(items)))
        calling = obs.get("calling")
        if isinstance(calling, int):
            lines.append(self.say("s_calling", name=self.name_object(calling)))
        revokes = obs.get("revokes")
        if isinstance(revokes, list) and revokes:
            items = [self.say("s_revoke", name=self.name(s), n=t + 1) for s, t in revokes]
            lines.append(self.say("s_revokes", items=", ".join(items)))
        return lines

    def deal_result(self, index: int, result: Observation, totals: Sequence[int]) -> list[str]:
        points, delta = result["points"], result["delta"]  # points per side, circles per seat
        return [self.say(self.over_key, n=index + 1, outcome=self.outcome(str(result["outcome"]))),
                self.say("s_deal_points", points=self.by_side([str(p) for p in points], members=False)),
                self.say("s_circles_won", sides=self.by_side([f"{delta[side]:+d}" for side in (0, 1)], members=False)),
                *self.scores({"totals": list(totals)})]


class CalabresellaView(FamilyView):
    """Calabresella: the bidding, the caller and the called card, the widow and the discard as the
    seat may see them, points per seat, the stakes."""

    handled = TableView.handled | {"phase", "contract", "caller", "called", "called_holder", "partner", "ceded",
                                   "widow", "discards", "leader", "tricks_played", "thirds"}
    declarations_key = "bids"
    score_key = "stakes"
    bidding_phases = frozenset({"bidding", "cedo", "scarto"})

    def status(self, obs: Observation) -> list[str]:
        lines = []
        phase, contract, caller = obs.get("phase"), obs.get("contract"), obs.get("caller")
        called, holder, ceded = card_of(obs.get("called")), obs.get("called_holder"), card_of(obs.get("ceded"))
        three = len(self.names) == 3
        if contract == "chiamata" and isinstance(caller, int) and called is not None:
            card = card_symbol(called)
            lines.append(self.say("c_call", name=self.name(caller), card=card))
            if holder == "widow":
                lines.append(self.say("c_in_widow", card=card))
            elif isinstance(holder, int):
                name = self.name_object(holder)
                lines.append(self.say("c_ceded", name=name, card=card, ceded=card_symbol(ceded))
                             if ceded is not None else self.say("c_holder", name=name, card=card))
            elif len(self.names) == 5:
                partner = obs.get("partner")
                lines.append(self.say("c_partner", name=self.name(partner))
                             if isinstance(partner, int) else self.say("c_secret", card=card))
        elif contract == "sola" and isinstance(caller, int):
            lines.append(self.say("c_sola", name=self.name(caller), sola=self.term("sola")))
        widow, discards = obs.get("widow"), obs.get("discards")
        if isinstance(widow, list):
            lines.append(self.say("c_widow", cards=self.cards(widow)))
        if isinstance(discards, list):
            lines.append(self.say("c_discards", cards=self.cards(discards)))
        elif three and (phase == "bidding" or contract == "sola"):
            lines.append(self.say("c_widow_hidden", n=calabresella.DISCARDS))
        elif three and contract == "chiamata" and phase == "play":
            lines.append(self.say("c_discards_hidden", n=calabresella.DISCARDS))
        thirds = obs.get("thirds")
        if phase == "play" and isinstance(thirds, list):
            lines.append(self.say("c_taken", items=self.per_seat([thirds_text(t) for t in thirds]),
                                  n=calabresella.WINNING_POINTS))
        return lines

    def deal_result(self, index: int, result: Observation, totals: Sequence[int]) -> list[str]:
        lines = [self.say(self.over_key, n=index + 1, outcome=self.outcome(str(result["outcome"])))]
        if result["outcome"] != "monte":
            points = result["points"]  # the caller's side, the others
            lines += [self.say("c_deal_points", caller=points[0], others=points[1]),
                      self.say("deal_delta", delta=self.per_seat([f"{d:+d}" for d in result["delta"]]))]
        return [*lines, *self.scores({"totals": list(totals)})]


class TraversoneView(FamilyView):
    """Traversone: everyone for himself, points taken are poison, the lowest total wins."""

    handled = TableView.handled | {"leftover", "leader", "tricks_played", "thirds"}

    def scores(self, obs: Observation) -> list[str]:
        totals = obs.get("totals")
        if not isinstance(totals, list):
            return []
        line = self.say("t_score", scores=self.per_seat(totals))
        target = obs.get("options", {}).get("target")
        return [f"{line} ({self.say('t_target', target=target)})" if target else line]

    def status(self, obs: Observation) -> list[str]:
        lines = []
        ace = obs.get("options", {}).get("asso_bastoni")
        if isinstance(ace, int) and ace != 1:  # worth more than its usual point
            lines.append(self.say("t_ace", card=card_symbol(ACE_OF_BASTONI), n=ace))
        thirds = obs.get("thirds")
        if isinstance(thirds, list):
            lines.append(self.say("t_taken", items=self.per_seat([thirds_text(t) for t in thirds])))
        leftover = obs.get("leftover")
        if isinstance(leftover, int) and leftover:
            lines.append(self.say("t_leftover", n=leftover))
        return lines

    def deal_result(self, index: int, result: Observation, totals: Sequence[int]) -> list[str]:
        return [self.say(self.over_key, n=index + 1, outcome=self.outcome(str(result["outcome"]))),
                self.say("t_deal_points", items=self.per_seat(result["points"])),
                self.say("t_deal_scored", items=self.per_seat(result["delta"])),
                *self.scores({"totals": list(totals)})]


# The per-game views; a game without one is drawn by TableView.
VIEWS: dict[str, type[TableView]] = {
    "tressette": TressetteView, "quattrigghiu": QuattrigghiuView, "sancagna": SancagnaView,
    "calabresella": CalabresellaView, "traversone": TraversoneView,
}


def game_terms(game: object) -> tuple[Terms, Terms]:
    """A game module's GLOSSARY and SIGNAL_NAMES (empty where it has none)."""
    module = importlib.import_module(type(game).__module__)
    return getattr(module, "GLOSSARY", {}), getattr(module, "SIGNAL_NAMES", {})


def view_for(game: object, lang: str, names: Sequence[str], seat: int) -> TableView:
    """The view of a game's rules object (its ``name`` picks the view) for one seat."""
    glossary, signal_names = game_terms(game)
    return VIEWS.get(getattr(game, "name", ""), TableView)(lang, names, seat, glossary, signal_names)


__all__ = ["VIEWS", "CalabresellaView", "QuattrigghiuView", "SancagnaView", "TableView", "TraversoneView",
           "TressetteView", "card_of", "thirds_text", "view_for"]
