"""How a seat's observation is drawn as lines of text, game by game.

:class:`TableView` draws any game from the keys most trick-taking observations share (the hand,
the open hands, the trick, the previous trick, the history, the scores) and shows any other key
as it is, so a new game plays at the plain table before it has a view of its own. A game's view
is a small subclass in :data:`VIEWS` that draws what only that game has.
"""

from __future__ import annotations

import importlib
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from osteria.cards import card_symbol, parse_card, rank_of, suit_of
from osteria.engine import side_of
from osteria.i18n import gloss, message
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

    def __init__(self, lang: str, names: Sequence[str], seat: int, glossary: Terms, signal_names: Terms) -> None:
        self.lang = lang
        self.names = list(names)
        self.seat = seat
        self.glossary = glossary
        self.signal_names = signal_names

    def say(self, key: str, **values: object) -> str:
        return message(self.lang, key, **values)

    # -- words and cards ----------------------------------------------------------------------

    def rank_key(self, card: int) -> int:
        """Where a card stands in its suit, for sorting a hand: the deck's order by default."""
        return rank_of(card)

    def cards(self, texts: Sequence[str]) -> str:
        """Cards sorted by suit and rank, with a wider gap between suits."""
        cards = sorted((c for c in map(card_of, texts) if c is not None),
                       key=lambda c: (suit_of(c), self.rank_key(c)))
        groups: dict[int, list[str]] = {}
        for c in cards:
            groups.setdefault(suit_of(c), []).append(card_symbol(c))
        return "   ".join(" ".join(group) for group in groups.values()) or self.say("nothing")

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
        lines = [self.say("deal_header", n=obs.get("deal_index", 0) + 1, game=obs.get("game", "?"),
                          dealer=self.name(obs.get("dealer")))]
        options = obs.get("options")
        if options:
            lines.append(self.say("options", options=self.value(options)))
        return lines

    def table(self, obs: Observation) -> list[str]:
        """Everything the seat sees at its turn, its hand last, nearest to the choices."""
        return [*self.scores(obs), *self.declarations(obs), *self.signals(obs), *self.last_trick(obs),
                *self.trick(obs), *self.extras(obs), *self.hands(obs)]

    def scores(self, obs: Observation) -> list[str]:
        totals = obs.get("totals")
        if not isinstance(totals, list):
            return []
        return [self.say("score", scores=" · ".join(f"{self.name(s)} {t}" for s, t in enumerate(totals)))]

    def history(self, obs: Observation) -> list[tuple[int, str]]:
        history = obs.get("history")
        if not isinstance(history, list):
            return []
        return [(s, a) for s, a in history if isinstance(a, str)]

    def declarations(self, obs: Observation) -> list[str]:
        """Actions that play no card (bids, declarations, calls), in the order made."""
        items = [f"{self.name(s)}: {self.action(a)}" for s, a in self.history(obs)
                 if a.split() and card_of(a.split()[0]) is None]
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
        if "trick" not in obs:
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
            return (0, 0, 0, index) if c is None else (1, suit_of(c), self.rank_key(c), index)
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
        return [self.say("deal_over", n=index + 1, outcome=self.outcome(str(result.get("outcome")))),
                self.say("deal_points", points=" · ".join(map(str, result.get("points", [])))),
                self.say("deal_delta", delta=" · ".join(f"{self.name(s)} {d:+d}"
                                                         for s, d in enumerate(result.get("delta", [])))),
                *self.scores({"totals": list(totals)})]


class TressetteView(TableView):
    """Tressette: two sides, points in thirds during the deal, accusi, the target."""

    handled = TableView.handled | {"thirds", "accusi", "segni", "morto", "leader", "tricks_played"}
    declarations_key = "accusi"

    def rank_key(self, card: int) -> int:
        return STRENGTH[card]

    def side(self, side: int, *, members: bool) -> str:
        """The side as we or they, with the names of its seats if asked."""
        word = self.say("we" if side == side_of(self.seat) else "they")
        if not members:
            return word
        names = [self.name(s) for s in range(len(self.names)) if side_of(s) == side]
        return self.say("side", side=word, names=", ".join(names))

    def by_side(self, values: Sequence[str], *, members: bool = True) -> str:
        """One value per side, the person's side first."""
        mine = side_of(self.seat)
        return " · ".join(f"{self.side(side, members=members)} {values[side]}" for side in (mine, 1 - mine))

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
        return [self.say("deal_over", n=index + 1, outcome=self.outcome(str(result["outcome"]))),
                self.say("deal_points", points=self.by_side(sides, members=False)),
                *self.scores({"totals": list(totals)})]


# The per-game views; a game without one is drawn by TableView.
VIEWS: dict[str, type[TableView]] = {"tressette": TressetteView}


def game_terms(game: object) -> tuple[Terms, Terms]:
    """A game module's GLOSSARY and SIGNAL_NAMES (empty where it has none)."""
    module = importlib.import_module(type(game).__module__)
    return getattr(module, "GLOSSARY", {}), getattr(module, "SIGNAL_NAMES", {})


def view_for(game: object, lang: str, names: Sequence[str], seat: int) -> TableView:
    """The view of a game's rules object (its ``name`` picks the view) for one seat."""
    glossary, signal_names = game_terms(game)
    return VIEWS.get(getattr(game, "name", ""), TableView)(lang, names, seat, glossary, signal_names)


__all__ = ["VIEWS", "TableView", "TressetteView", "card_of", "thirds_text", "view_for"]
