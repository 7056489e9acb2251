"""The generic view of a seat's table, and the bases the games' views share.

:class:`TableView` draws any game from the keys most trick-taking observations share (the hand,
the open hands, the trick, the previous trick, the history, the scores) and shows any other key
as it is, so a new game plays at the plain table before it has a view of its own. A game's view
is a small subclass, in a module of its own, that draws what only that game has, in the game's
own words (with their English meaning at an English table), and orders the cards as the game
ranks them. :class:`FamilyView` ranks them as the Tressette family does; :class:`PartnershipView`
tells two fixed sides as we and they.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar

from osteria.cards import SUIT_SYMBOLS, SUITS, card_named, card_symbol, rank_of, suit_of
from osteria.engine import Terms, side_of
from osteria.i18n import DEFAULT_LANGUAGE, SUIT_KEYS, Reason, gloss, meaning, template
from osteria.rules.tressette_family import STRENGTH

Observation = Mapping[str, Any]


card_of = card_named  # the card a string names, or None: what the views read everywhere


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


def taken_trick(before: Observation, seat: int, action: str,
                after: Observation) -> tuple[list[tuple[int, str]], int | None] | None:
    """The trick that ``seat``'s ``action`` has just ended, as a seat saw it before and after
    the action, and who took it (None where the seat cannot tell); None when it ended no trick."""
    card = action.split()[0] if action.split() else ""
    if card_of(card) is None:
        return None
    trick_before = seat_cards(before.get("trick")) or []
    if len(seat_cards(after.get("trick")) or []) == len(trick_before) + 1:
        return None  # the trick goes on
    trick = [*trick_before, (seat, card)]
    last = after.get("last_trick")
    if isinstance(last, dict) and seat_cards(last.get("cards")) == trick:
        winner = last.get("winner")
        return trick, winner if isinstance(winner, int) else None
    # Where the rules no longer show the trick taken (Quattrigghiu's sixth basi), its taker leads the next.
    leader = after.get("leader") if after.get("to_move") is not None else None
    return trick, leader if isinstance(leader, int) else None


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


class Reads(Mapping[str, Any]):
    """An observation that remembers which of its keys were read (and what they held): what a
    drawing depended on. ``whole``: it was gone through as a whole, so it depended on every key."""

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.read: dict[str, object] = {}
        self.whole = False

    def __getitem__(self, key: str) -> Any:
        value = self.obs[key]
        self.read[key] = value
        return value

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str):
            return False
        self.read[key] = self.obs.get(key, Reads)  # Reads itself: the key is absent
        return key in self.obs

    def get(self, key: str, default: Any = None) -> Any:
        self.read[key] = self.obs.get(key, Reads)
        return self.obs.get(key, default)

    def __iter__(self) -> Iterator[str]:
        self.whole = True
        return iter(self.obs)

    def __len__(self) -> int:
        self.whole = True
        return len(self.obs)


def unchanged(read: Mapping[str, object], obs: Observation) -> bool:
    """Whether ``obs`` holds what was read from another observation (see :class:`Reads`), each
    value of the same type and equal (``True`` is not ``1`` to a line)."""
    get = obs.get
    for key, value in read.items():
        now = get(key, Reads)
        if now is not value and (type(now) is not type(value) or now != value):
            return False
    return True


class TableView:
    """Draws one seat's observation of any game in one language."""

    # Keys drawn by this view or deliberately left out (they repeat what is drawn);
    # any other key of an observation is shown as it is.
    handled: ClassVar[frozenset[str]] = frozenset({
        "game", "options", "players", "seat", "deal_index", "results", "totals", "finished", "to_move",
        "legal_actions", "dealer", "hand", "hands", "hand_sizes", "trick", "last_trick", "history", "played",
        "last_round",
    })
    declarations_key = "declarations"
    header_key, over_key, line_key = "deal_header", "deal_over", "deal_line"
    score_key = "score"  # the match's scores per seat: points, or stakes won and lost
    # Phases before the first card, when there is no table to draw.
    bidding_phases: ClassVar[frozenset[str]] = frozenset()
    # Game words as players say them, where the action strings write them without accents.
    spoken: ClassVar[Mapping[str, str]] = {}

    def __init__(self, lang: str, names: Sequence[str], seat: int, glossary: Terms, signal_names: Terms,
                 option_labels: Mapping[str, str] | None = None) -> None:
        self.lang = lang
        self.names = list(names)
        self.seat = seat
        self.glossary = glossary
        self.signal_names = signal_names
        self.option_labels = option_labels or {}  # each rules option's name, in English for the catalogs
        # Drawn once per view: a server draws every seat's lines again at each move, from the
        # same sentences and the same actions of the deal so far.
        self._templates: dict[str, str] = {}
        self._entries: dict[tuple[int, str], tuple[str | None, str | None]] = {}
        self._unlisted: set[str] = set()  # the actions neither declared nor a signal (see ``entry``)
        # The last history drawn, with its declarations and signals: the next one mostly goes on from it.
        self._drawn: tuple[list[list[object]], list[str], list[str]] = ([], [], [])
        # The lines of the match and the deal (see ``beside``) last drawn, with the keys they were
        # drawn from, all together and section by section: a move mostly leaves them as they were,
        # and else changes one section (the points taken at a trick's end).
        self._beside: tuple[dict[str, object], list[str]] | None = None
        self._sections_kept: list[tuple[dict[str, object], list[str]] | None] = []
        self._ordered: dict[tuple[tuple[str, ...], object], list[str]] = {}  # hands ordered (see in_order)
        self._action_cards: dict[str, int | None] = {}  # the card each action plays (see ordered)
        # The declarations' and the signals' lines last drawn, with the lists they were drawn from.
        self._listed: tuple[list[str], list[str], list[str]] | None = None
        # The lines ``beside`` last gave, with the two lists they joined.
        self._joined: tuple[list[str], tuple[list[str], list[str], list[str]], list[str]] | None = None

    def say(self, key: str, **values: object) -> str:
        if key not in self._templates:
            self._templates[key] = template(self.lang, key)
        return self._templates[key].format(**values)

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

    def ordering(self) -> object:
        """What the order of the cards depends on beyond the game: what ``note`` took note of."""
        return None

    def in_order(self, cards: Any) -> Any:
        """A list of cards as a hand is shown (by group, each from its lowest card to its highest);
        anything that is not a list of cards as it is. A hand is ordered again only once it changed
        (a server orders every seat's hand at every move, and a seat's hand changes at its own)."""
        if not isinstance(cards, list) or not cards:
            return cards
        key = (tuple(cards), self.ordering())
        if key not in self._ordered:
            found = [card_of(text) for text in cards]
            if None in found:
                return cards
            keys = [(self.group_of(c), self.rank_key(c)) for c in found if c is not None]
            if len(self._ordered) >= 8:  # the hands of a few states back: the rest will not come again
                self._ordered.clear()
            self._ordered[key] = [text for _, text in sorted(zip(keys, cards, strict=True))]
        return list(self._ordered[key])

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
        explained = gloss(word, self.lang, *(tables or (self.glossary, self.signal_names)))
        return f"{said} ({explained})" if explained and self.lang != DEFAULT_LANGUAGE else said

    def suit(self, suit: int) -> str:
        """A suit by name and symbol: spade ♠."""
        return f"{self.say(SUIT_KEYS[suit])} {SUIT_SYMBOLS[suit]}"

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

    def reason(self, why: Reason) -> str:
        """Why the rules refuse an action, in the table's language; a seat is named as an object
        ("tocca a te"), which every language's sentence is written around."""
        return why.say(self.lang, self.name_object, card_symbol)

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
            lines.append(self.say("options", options=" · ".join(self.option(k, v) for k, v in options.items())))
        return lines

    def option(self, name: str, value: object) -> str:
        """A rules option as the table says it: its name, then its value (a game's word stays as is)."""
        label = meaning(self.lang, self.option_labels[name]) if name in self.option_labels else name
        if isinstance(value, bool):
            shown = self.say("option_yes" if value else "option_no")
        elif isinstance(value, list):
            shown = ", ".join(self.value(v) for v in value) or self.say("option_none")
        else:
            shown = self.value(value)
        return self.say("option_item", label=label, value=shown)

    def table(self, obs: Observation) -> list[str]:
        """Everything the seat sees at its turn, its hand last, nearest to the choices."""
        self.note(obs)
        return [*self.match_and_deal(obs), *self.declarations(obs), *self.signals(obs), *self.last_trick(obs),
                *self.trick(obs), *self.extras(obs), *self.hands(obs)]

    def match_and_deal(self, obs: Observation) -> list[str]:
        """The lines of every section of the match and the deal (see ``sections``), drawn afresh."""
        return [line for draw in self.sections() for line in draw(obs)]

    def sections(self) -> list[Callable[[Observation], list[str]]]:
        """What draws the lines of the match and the deal, in their order: the scores, what the
        match declared, the game's status. A game whose status tells things that change at
        different times (its trump once a deal, the points at every trick) lists them apart, so
        that a server draws again only the one that changed (see ``beside``)."""
        return [self.scores, self.match_notes, self.status]

    def beside(self, obs: Observation) -> list[str]:
        """The lines a table shows beside the felt: the scores, what the match and the deal have
        declared, the signals made. A server draws them for every seat at every move, and most
        moves change none of what they say: those of the scores, the match and the deal are
        drawn again only when a key they were drawn from changed (a game's view reads whatever
        keys it needs), each section apart (see ``sections``), the declarations and signals only
        from the actions new in the history."""
        if self._beside is not None and unchanged(self._beside[0], obs):
            lines = self._beside[1]
        else:
            sections = self.sections()
            if len(self._sections_kept) != len(sections):
                self._sections_kept = [None] * len(sections)
            lines, read, whole = [], {}, False
            for index, draw in enumerate(sections):
                kept = self._sections_kept[index]
                if kept is None or not unchanged(kept[0], obs):
                    reads = Reads(obs)
                    self.note(reads)  # what orders the cards may be said by the lines too (a widow's cards)
                    kept = (reads.read, draw(reads))
                    self._sections_kept[index] = kept if not reads.whole else None
                    whole = whole or reads.whole
                read.update(kept[0])
                lines += kept[1]
            self._beside = (read, lines) if not whole else None
        declared, signals = self.history_entries(obs)
        # The same lists while no new declaration or signal came (history_entries makes new ones).
        if self._listed is None or self._listed[0] is not declared or self._listed[1] is not signals:
            self._listed = declared, signals, [*self.listed(self.declarations_key, declared),
                                               *self.listed("signals", signals)]
        # The same list while its lines are (read, not changed): a server compares each seat's
        # lines with those it sent at the last move.
        if self._joined is None or self._joined[0] is not lines or self._joined[1] is not self._listed:
            self._joined = lines, self._listed, [*lines, *self._listed[2]]
        return self._joined[2]

    def listed(self, key: str, items: Sequence[str]) -> list[str]:
        """A line listing ``items`` under the sentence ``key``; none for no item."""
        return [self.say(key, items=", ".join(items))] if items else []

    def scores(self, obs: Observation) -> list[str]:
        totals = obs.get("totals")
        if not isinstance(totals, list):
            return []
        return [self.say(self.score_key, scores=self.per_seat(totals))]

    def match_notes(self, obs: Observation) -> list[str]:
        """What the table has declared about the match: a last round, and the deal it ends with."""
        declared = obs.get("last_round")
        if not isinstance(declared, dict) or not isinstance(declared.get("last_deal"), int):
            return []
        return [self.say("last_round", name=self.name_object(declared.get("seat")), n=declared["last_deal"] + 1)]

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

    def entry(self, seat: int, action: str) -> tuple[str | None, str | None]:
        """An action of the history as the lines list it: as a declaration, or as a signal (a
        card played with a word after it), or neither (None, None)."""
        if action in self._unlisted:
            return None, None
        if (seat, action) not in self._entries:
            words = action.split()
            declared = f"{self.name(seat)}: {self.action(action)}" if self.declared(action) else None
            signal = (f"{self.name(seat)} {self.action(action)}"
                      if len(words) > 1 and card_of(words[0]) is not None else None)
            if declared is None and signal is None:
                # Most actions are cards played alone: each is kept once, not once a seat, so that
                # a view serving a table for hours stays small (whether an action is listed does
                # not depend on who made it).
                self._unlisted.add(action)
                return None, None
            self._entries[seat, action] = declared, signal
        return self._entries[seat, action]

    def history_entries(self, obs: Observation) -> tuple[list[str], list[str]]:
        """The declarations and the signals of the history (see ``entry``). Where the history goes
        on from the last one drawn, only its new actions are drawn."""
        history = obs.get("history")
        if not isinstance(history, list):
            return [], []
        drawn, declared, signals = self._drawn
        if history[:len(drawn)] != drawn:
            drawn, declared, signals = [], [], []
        for seat, action in self.history({"history": history[len(drawn):]}):
            entry = self.entry(seat, action)
            # New lists: those returned before are the caller's.
            if entry[0] is not None:
                declared = [*declared, entry[0]]
            if entry[1] is not None:
                signals = [*signals, entry[1]]
        # The history's own actions, kept (an observation's parts are read, not changed), in a
        # list of the view's own.
        self._drawn = list(history), declared, signals
        return declared, signals

    def declarations(self, obs: Observation) -> list[str]:
        """Actions that play no card (bids, declarations, calls), in the order made."""
        return self.listed(self.declarations_key, self.history_entries(obs)[0])

    def signals(self, obs: Observation) -> list[str]:
        """Cards played with a word after them."""
        return self.listed("signals", self.history_entries(obs)[1])

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
        cards_of_actions = self._action_cards
        declared: list[str] = []
        by_card: dict[int, list[str]] = {}
        for action in legal:
            if action not in cards_of_actions:
                words = action.split()
                cards_of_actions[action] = card_of(words[0]) if words else None
            c = cards_of_actions[action]
            if c is None:
                declared.append(action)
            else:
                by_card.setdefault(c, []).append(action)
        # A player holds a few cards and has each card's few variants: the cards are sorted, not the actions.
        return declared + [a for c in sorted(by_card, key=lambda c: (self.group_of(c), self.rank_key(c)))
                           for a in by_card[c]]

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
        lines += textwrap.wrap(self.legend(legal), width, initial_indent="   ", subsequent_indent="   ")
        return lines

    def legend(self, actions: Sequence[str]) -> str:
        """What the game's words in some actions mean, each word once, in the order first said."""
        words = dict.fromkeys(w for a in actions for w in a.split() if card_of(w) is None)
        return "; ".join(f"{w}: {m}" for w in words if (m := gloss(w, self.lang, self.signal_names, self.glossary)))

    def help(self) -> list[str]:
        """The cards, the game's words and the signals of the rules in play; the table's own
        commands come before these, from the table."""
        lines = [self.say("cards_help")]
        if self.glossary:
            lines.append(self.say("glossary"))
            lines += [f"  {w}: {gloss(w, self.lang, self.glossary) or w}" for w in self.glossary]
        if self.signal_names:
            lines.append(self.say("signal_list"))
            for typed, entry in self.signal_names.items():
                said, explained = entry.said or typed, meaning(self.lang, entry.meaning)
                # As said at the table, then as typed where it differs (ho l'asso, ho_asso).
                line = self.say("signal_entry", said=said, typed=typed) if said != typed else f"  {said}"
                lines.append(f"{line}: {explained}" if explained != said else line)
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

    def gains(self, delta: Sequence[int]) -> str:
        """What each seat gained in a deal."""
        return self.per_seat([f"{d:+d}" for d in delta])

    def match_end(self, results: Sequence[Observation], winners: Sequence[int]) -> list[str]:
        """The end of a match, below its title: each deal's outcome and gains, the final score,
        who won."""
        totals = [0] * len(self.names)
        lines = []
        for index, result in enumerate(results):
            delta = [d for d in result.get("delta", []) if isinstance(d, int)]
            totals = [t + d for t, d in zip(totals, delta, strict=True)]
            lines.append(self.say(self.line_key, n=index + 1, outcome=self.outcome(str(result.get("outcome"))),
                                  gains=self.gains(delta)))
        return [*lines, *self.scores({"totals": totals}), *self.match_over(winners)[1:]]

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
        return self._sides[side, members]

    @cached_property
    def _sides(self) -> dict[tuple[int, bool], str]:
        # Said once per view: the scores name both sides in every state a server sends.
        said = {}
        for side in (0, 1):
            names = [self.name(s) for s in range(len(self.names)) if side_of(s) == side]
            word = self.say("we" if side == side_of(self.seat) else "they")
            for members in (False, True):
                if self.watching():
                    said[side, members] = "/".join(names)
                else:
                    said[side, members] = self.say("side", side=word, names=", ".join(names)) if members else word
        return said

    def gains(self, delta: Sequence[int]) -> str:
        return self.by_side([f"{d:+d}" for d in delta[:2]], members=False)  # seats 0 and 1 stand for the sides

    def by_side(self, values: Sequence[str], *, members: bool = True) -> str:
        """One value per side, the person's side first (to a watcher, seat 0's side first)."""
        mine = 0 if self.watching() else side_of(self.seat)
        return " · ".join(f"{self.side(side, members=members)} {values[side]}" for side in (mine, 1 - mine))
