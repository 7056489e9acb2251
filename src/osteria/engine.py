"""The game-independent model of a match of a trick-taking card game.

A game module provides two things: a :class:`Game` (its options, how cards are dealt, how a deal
begins, who deals next and when the match is over) and a :class:`Deal` (one deal in progress:
who is to move, the legal actions, applying one, what each seat may see, and the deal's
result). :class:`Match` strings deals together into the public API: actions as the strings of
the osteria/1 format, observations, results and records. The engine knows no game.

The fast path for search and simulation is the :class:`Deal` itself: actions are integers,
``legal()`` lists them, ``apply()`` plays one, and ``copy()`` is cheap.
"""

from __future__ import annotations

import json
import random
from abc import ABC, ABCMeta, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, NotRequired, Self, TypedDict, cast

from osteria.cards import CARD_STRINGS, RANKS, SUITS, Card, CardMask, Deck, cards_of, make_rng, parse_card
from osteria.i18n import AtSeat, Reason, Term
from osteria.openplay import OpenPlay

if TYPE_CHECKING:
    from osteria.trickplay import TrickPlay

JSON = Any
Seat = int
"""A seat at the table, from 0; play passes from each seat to the next number."""
Action = int
"""An action of a deal, by its number in the game's action space (the fast path)."""

SeatCard = list[Any]
"""A card on the table in an observation, ``[seat, card]``: a JSON array, so its two items of
different types are not told apart by the type and are read unchecked."""
SeatAction = list[Any]
"""An action in an observation's history, ``[seat, action]``, as the seat saw it."""


class TakenTrick(TypedDict):
    """A trick once taken, as an observation shows it: its cards in play order and its taker."""

    cards: list[SeatCard]
    winner: int


class MatchObservation(TypedDict):
    """The keys that ``Match.observation(seat)`` adds to the current deal's observation (a game's
    own TypedDict of it): each game combines the two into the view its bot reads. The view of a
    finished deal, ``observation(seat, deal=i)``, adds only ``seat``, ``deal_index`` and
    ``result``; before the first deal there are only these keys."""

    game: str
    options: dict[str, JSON]
    players: list[str]
    seat: int
    deal_index: int
    results: list[dict[str, JSON]]
    totals: list[int]
    finished: bool
    to_move: int | None
    legal_actions: list[str]
    result: NotRequired[dict[str, JSON]]  # once the current deal is over
    last_round: NotRequired[dict[str, int] | None]  # once the last round is declared


def side_of(seat: int) -> int:
    """In a four-seat partnership game, seats 0 and 2 are side 0, seats 1 and 3 side 1."""
    return seat & 1


def partner_of(seat: int) -> int:
    """In a four-seat partnership game, the partner sits opposite."""
    return seat ^ 2


class RulesError(ValueError):
    """An unknown game, an unknown option, a bad option value or an impossible deal."""


class IllegalAction(ValueError):
    """An action that the rules do not allow now; the message says why: in English, and as a
    :class:`Reason` that a table says in its own language with its own names for the seats."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Option:
    """A rules option: its default, and either the values it may take or a check of one."""

    name: str
    default: JSON
    choices: tuple[JSON, ...] | None = None
    check: Callable[[JSON], str | None] | None = None
    doc: str = ""  # what it means, in English: the catalogs translate it
    label: str = ""  # what a table calls it, in English for the catalogs to translate ("": its name)

    def validate(self, game: str, value: JSON) -> JSON:
        # bool is an int in Python: keep true/false and 1/0 apart.
        if self.choices is not None and not any(value == c and type(value) is type(c) for c in self.choices):
                allowed = ", ".join(_show(c) for c in self.choices)
                raise RulesError(f"{game}: option {self.name!r} cannot be {_show(value)}; "
                                 f"allowed: {allowed}")
        if self.check is not None:
            problem = self.check(value)
            if problem:
                raise RulesError(f"{game}: option {self.name!r} cannot be {_show(value)}: {problem}")
        return value


def _show(value: JSON) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


@dataclass
class DealResult:
    """How one deal ended, in the terms of the replay output of the osteria/1 format."""

    outcome: str
    points: list[int]
    delta: list[int]
    # What a later deal or the match needs beyond the replay output (a carried-over tally...).
    carry: dict[str, JSON] = field(default_factory=dict)

    def as_json(self) -> dict[str, JSON]:
        return {"outcome": self.outcome, "points": list(self.points), "delta": list(self.delta)}


@dataclass(frozen=True)
class SearchHints:
    """A game's measured guidance for searching players: from how many cards left in all hands
    the solver values every action of a sampled deal within a decision's budget (0: never), and
    within ten times that budget (a second a move; 0: as within one), how many standard errors
    a solved action must beat the rule-based player's by, and from how many cards left the card
    play is simulated where it is not solved."""

    solve_cards: int = 0
    deeper_solve_cards: int = 0
    solved_confidence: float = 0.0
    simulate_cards: int = 0


@dataclass(frozen=True)
class Drawing:
    """A deal's hidden cards as a search drew them from an observation, before the deal is rebuilt
    from them: every seat's hand as dealt (bitmasks; empty where the game does not hand them out)
    and the history's actions, from which a reader of the play weighs the drawing first
    (``osteria.bots.inference``), and ``build``, which deals the hands and replays the history:
    a deal not yet checked against the observation (``osteria.sampling.shows``)."""

    hands: tuple[CardMask, ...]
    actions: tuple[tuple[Seat, Action], ...]
    build: Callable[[], Deal]

    @classmethod
    def of(cls, deal: Deal) -> Drawing:
        """A deal sampled whole, as a drawing: nothing handed out before it."""
        return cls((), tuple(deal.history), lambda: deal)


Terms = Mapping[str, Term]
"""A game's words, each with what it means (in English, for the catalogs to translate)."""


class CardSets(NamedTuple):
    """A decision whose legal actions are ``word`` with any ``size`` of ``cards``, each set one
    action (Calabresella's scarto: 1,820 actions from sixteen cards): a caller may offer it card
    by card without listing every action."""

    word: str
    cards: CardMask
    size: int
    action: Callable[[CardMask], Action]  # the action of a set of the cards


def copy_into(new: Any, original: object, containers: bool = True) -> None:
    """Give ``new``, a bare object of ``original``'s class, its attributes; with ``containers``,
    each list, dict and set of them copied one level deep. In pure Python they are the object's
    ``__dict__``; compiled with mypyc (docs/research.md, *Speed*), a class keeps them in slots
    that its ``__mypyc_attrs__`` names, each given through its own."""
    names = getattr(type(original), "__mypyc_attrs__", None)
    if names is None:
        kept = new.__dict__
        kept.update(original.__dict__)
        if containers:
            for name, value in kept.items():
                if isinstance(value, (list, dict, set)):
                    kept[name] = value.copy()
        return
    for name in names:
        try:
            value = getattr(original, name)
        except AttributeError:  # not set on this object
            continue
        setattr(new, name, value.copy() if containers and isinstance(value, (list, dict, set)) else value)


class Deal(metaclass=ABCMeta):
    """One deal in progress. Actions are integers; the game maps them to and from strings."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        # A copy starts from a bare deal (``copy``). In pure Python object.__new__ makes one; a
        # class compiled with mypyc makes one only through a __new__ of its own, as this.
        return super().__new__(cls)

    seats: int
    dealer: int
    to_move: Seat | None
    history: list[tuple[Seat, Action]]
    hands: list[CardMask]  # the cards each seat holds

    @abstractmethod
    def legal(self) -> list[Action]:
        """The legal actions of the seat to move, in a stable order."""

    # The osteria/1 string of each action by its number, and the number of each string. A game
    # with actions beyond a table (a discard of any four cards) overrides action_str for them,
    # and unlisted_action reads them.
    action_strings: ClassVar[Mapping[int, str] | Sequence[str]]
    action_numbers: ClassVar[Mapping[str, int]]

    def apply(self, action: Action) -> None:
        """Play a legal action of the seat to move. Legality is the caller's to check."""
        seat = self.to_move
        assert seat is not None
        self.history.append((seat, action))
        self.perform(seat, action)

    @abstractmethod
    def perform(self, seat: Seat, action: Action) -> None:
        """What an action of ``seat``, the seat to move, does (``apply`` has recorded it)."""

    def copy(self) -> Self:
        """An independent copy, for search: the attributes, with each list, dict and set copied
        one level deep (a game whose state nests deeper, or whose hot path needs a leaner copy,
        overrides this)."""
        new = Deal.__new__(type(self))
        copy_into(new, self)
        return new

    @property
    def over(self) -> bool:
        return self.to_move is None

    def card_sets(self) -> CardSets | None:
        """The decision now as :class:`CardSets`, where its legal actions are every set of some
        size of some cards; None (the default) otherwise."""
        return None

    def action_str(self, action: Action) -> str:
        """The osteria/1 string of an action."""
        return self.action_strings[action]

    def seen_action(self, seat: Seat, actor: Seat, action: Action) -> str | None:
        """An action of ``actor`` as ``seat`` saw it: its osteria/1 string, or a string that
        shows less (another seat's hidden cards left out), or None where ``seat`` saw nothing
        of it. By default every action is public. It depends on the three alone, as long as
        the game's options stay the same (the environments keep what it gives by them)."""
        return self.action_str(action)

    def action_strs(self, actions: Sequence[Action]) -> list[str]:
        """The osteria/1 strings of several actions: looked up in the table while they are all in
        it, which is what ``action_str`` does for a listed action."""
        strings = self.action_strings
        try:
            return [strings[a] for a in actions]
        except (KeyError, IndexError):
            return [self.action_str(a) for a in actions]

    def parse_action(self, text: str) -> Action:
        """The action of a string; IllegalAction if it names no action of this game."""
        action = self.action_numbers.get(text)
        return action if action is not None else self.unlisted_action(text)

    @abstractmethod
    def unlisted_action(self, text: str) -> Action:
        """The action of a string that ``action_numbers`` lacks (one built of its words, as a
        discard), or IllegalAction saying what is wrong with it and what the actions look like."""

    @abstractmethod
    def why_illegal(self, action: Action) -> Reason:
        """Why an action that is not among ``legal()`` cannot be played now."""

    @abstractmethod
    def observation(self, seat: Seat) -> Mapping[str, JSON]:
        """What ``seat`` may know of this deal, JSON-serialisable: a new dict on each call, which
        the match extends with its own keys, typed by the game's own TypedDict."""

    def observations(self) -> Sequence[Mapping[str, JSON]]:
        """Every seat's observation at once, as ``observation`` gives each: a game whose seats see
        much alike (the history, the trick) builds that once, and the seats' observations hold the
        same objects for it, to be read and not changed."""
        return [self.observation(seat) for seat in range(self.seats)]

    @abstractmethod
    def result(self) -> DealResult:
        """The result of a finished deal."""

    def decider(self, seat: Seat) -> Seat:
        """The seat that chooses for ``seat`` (a dummy's partner chooses for the dummy)."""
        return seat

    # -- what generic code asks of a deal: search, analysis, views ------------------------------

    @property
    def in_card_play(self) -> bool:
        """Whether the deal is in its card play, or over: where the double-dummy solver applies.
        A game with bidding, exchanges or a window between tricks says when."""
        return True

    @property
    def cards_in_hands(self) -> int:
        """How many cards the hands still hold: how far the deal is from its end."""
        return sum(hand.bit_count() for hand in self.hands)

    def card_of(self, action: Action) -> Card | None:
        """The card an action plays (a signal dropped), or None for any other action. By
        default an action below 52 is the card of that number."""
        return action if action < 52 else None

    def same_side(self, a: Seat, b: Seat) -> bool:
        """Whether seats ``a`` and ``b`` play for one side in this deal."""
        return a == b

    def dealt_cards(self) -> tuple[list[list[Card]], dict[str, list[Card]]]:
        """The hands and the stock (the cards not dealt, by role) that this deal was dealt, as
        ``Game.new_deal`` took them: what a sampled deal began with, for a framework that deals
        it again card by card (OpenSpiel's chance nodes)."""
        raise NotImplementedError(f"{type(self).__name__} keeps no record of its cards as dealt")

    def as_dealt(self) -> Deal | None:
        """This deal as it was dealt, before its first action, for a search that replays a
        sampled deal to ask how likely each action seen was from the hands it sampled
        (``osteria.bots.inference``); None where the game does not keep what it was dealt."""
        return None

    def playout_action(self, rng: random.Random) -> Action:
        """The action a quick simulation plays for the seat to move (a search's playouts, which
        play a sampled deal to its end many times over): by default a uniformly random legal
        one. A game whose random play ends far from any real deal's result may play as a
        careful player would at first sight, as cheaply. A decision among sets of cards
        (``card_sets``) draws a set at once, as uniformly, without listing them all."""
        sets = self.card_sets()
        if sets is not None:
            drawn = 0
            for card in rng.sample(cards_of(sets.cards), sets.size):
                drawn |= 1 << card
            return sets.action(drawn)
        return rng.choice(self.legal())

    def stake_beyond_play(self) -> bool:
        """Whether the decision now weighs a stake that the play of the open cards does not
        settle (a call-out that hangs on a tally across deals): there search must not choose."""
        return False

    def open_choices(self) -> list[Action] | None:
        """For a decision within the card play that is not a card, the actions the solver
        searches as the deciding side's choice; None where there is none."""
        return None

    def open_play(self, seat: Seat) -> OpenPlay:
        """The card play still to come, every hand open, valued for ``seat`` in the solver's
        terms: what the double-dummy solver searches. ValueError for a game that has none."""
        raise ValueError(f"{type(self).__name__} has no open-handed play to search")

    def play_value(self, seat: Seat) -> int:
        """The value of the finished deal for ``seat`` in the solver's terms (``Game.solver_unit``):
        by default the seat's result."""
        return self.result().delta[seat]


class Game(ABC):
    """The rules of one game with its options."""

    name: ClassVar[str]
    deck: ClassVar[Deck]
    seat_counts: ClassVar[tuple[int, ...]]
    default_seats: ClassVar[int]
    option_specs: ClassVar[tuple[Option, ...]]
    stock_roles: ClassVar[tuple[str, ...]] = ()
    # Whether seats play in the fixed sides {0, 2} and {1, 3} (side_of, partner_of).
    partnership: ClassVar[bool] = False
    # Whether a lower score is the better one (Traversone, where points are poison).
    lower_wins: ClassVar[bool] = False
    # Whether the deltas of every deal add up to zero (stakes paid by the losers to the winners).
    zero_sum: ClassVar[bool] = False
    # Roles that always hold one card: a record writes them as that card, not as a list.
    single_card_roles: ClassVar[tuple[str, ...]] = ()
    # What a deal result's delta counts, in English words ("points", "stakes", "circles").
    unit: ClassVar[str] = "points"
    # What the double-dummy solver's values count, where it is not the result's unit.
    solver_unit: ClassVar[str | None] = None
    # How a searching player may spend its time in this game (see SearchHints).
    search_hints: ClassVar[SearchHints]

    def __init__(self, seats: int | None = None, **options: JSON) -> None:
        self.seats = self.default_seats if seats is None else seats
        if self.seats not in self.seat_counts:
            counts = ", ".join(map(str, self.seat_counts))
            raise RulesError(f"{self.name} is played by {counts} players, not {self.seats}")
        specs = {spec.name: spec for spec in self.option_specs}
        for name in options:
            if name not in specs:
                known = ", ".join(specs) or "none"
                raise RulesError(f"{self.name}: unknown option {name!r}; options: {known}")
        self.options: dict[str, JSON] = {
            name: spec.validate(self.name, options.get(name, spec.default))
            for name, spec in specs.items()
        }
        self.check_options()

    @property
    def sense(self) -> int:
        """+1 where a higher score is better, -1 where points are poison: what a result is
        multiplied by to read "higher is better"."""
        return -1 if self.lower_wins else 1

    def check_options(self) -> None:  # noqa: B027 - most games need no such check
        """Checks that concern several options, or options and the number of seats."""

    def changed_options(self) -> dict[str, JSON]:
        """The options that differ from the defaults: what a record lists."""
        return {spec.name: self.options[spec.name] for spec in self.option_specs
                if self.options[spec.name] != spec.default}

    @abstractmethod
    def hand_sizes(self) -> list[int]:
        """How many cards each seat is dealt."""

    def deal_cards(self, rng: random.Random) -> tuple[list[list[int]], dict[str, list[int]]]:
        """Shuffle and deal: the hands, and the cards not dealt by role."""
        from osteria.cards import deal

        hands, rest = deal(rng, self.deck, self.hand_sizes())
        return hands, self.stock_from_rest(rest)

    def stock_from_rest(self, rest: list[int]) -> dict[str, list[int]]:
        """The roles of the cards left after dealing the hands (none by default)."""
        return {}

    def check_deal(self, hands: Sequence[Sequence[int]], stock: Mapping[str, Sequence[int]]) -> None:
        """Raise RulesError unless these hands and stock are a possible deal of this game."""
        if len(hands) != self.seats:
            raise RulesError(f"{self.seats} hands expected, not {len(hands)}")
        for seat, (hand, size) in enumerate(zip(hands, self.hand_sizes(), strict=True)):
            if len(hand) != size:
                raise RulesError(f"seat {seat} holds {len(hand)} cards; {size} expected")
        for role in stock:
            if role not in self.stock_roles:
                allowed = ", ".join(self.stock_roles) or "none"
                raise RulesError(f"unknown stock role {role!r}; this game has: {allowed}")
        seen: set[int] = set()
        for cards in (*hands, *stock.values()):
            for c in cards:
                if c not in self.deck:
                    raise RulesError(f"{CARD_STRINGS[c]} is not in the {self.deck.name} deck")
                if c in seen:
                    raise RulesError(f"{CARD_STRINGS[c]} is dealt twice")
                seen.add(c)
        self.check_stock(hands, stock, seen)

    def check_stock(self, hands: Sequence[Sequence[int]], stock: Mapping[str, Sequence[int]],
                    seen: set[int]) -> None:
        """Game-specific checks of the stock; by default, hands and stock hold the whole deck."""
        if len(seen) != len(self.deck):
            missing = sorted(set(self.deck.cards) - seen)
            raise RulesError("cards missing from the deal: " + " ".join(CARD_STRINGS[c] for c in missing))

    @abstractmethod
    def new_deal(self, index: int, dealer: int, hands: Sequence[Sequence[int]],
                 stock: Mapping[str, Sequence[int]], previous: Sequence[DealResult]) -> Deal:
        """Begin deal number ``index`` (0 for the first of the match)."""

    def sample_deal(self, observation: Mapping[str, JSON], rng: random.Random) -> Deal:
        """The deal in progress as ``observation`` shows it, every card its seat cannot see dealt
        at random, uniformly among the deals consistent with all the seat knows, and the actions
        hidden from it (a discard, a cenno) filled in consistently: the position a searching bot
        may explore without having peeked."""
        raise NotImplementedError(f"{self.name} cannot sample hidden hands")

    def deal_sampler(self, observation: Mapping[str, JSON]) -> Callable[[random.Random], Deal]:
        """``sample_deal`` of one observation, to be drawn many times over (a search's samples): a
        game that reads what the observation tells of the hidden cards once for all its draws
        returns a sampler that does."""
        return lambda rng: self.sample_deal(observation, rng)

    def deal_drawer(self, observation: Mapping[str, JSON]) -> Callable[[random.Random], Drawing]:
        """Drawings of the hidden cards of one observation, for a search that weighs its deals
        before it builds them (``Drawing``): by default each deal sampled whole; a game whose
        sampler can hand out the hands before it replays the history returns a drawer that does."""
        sample = self.deal_sampler(observation)
        return lambda rng: Drawing.of(sample(rng))

    def next_dealer(self, deal: Deal) -> int:
        """Who deals after ``deal``: by default the next seat."""
        return (deal.dealer + 1) % self.seats

    @abstractmethod
    def match_status(self, results: Sequence[DealResult]) -> tuple[bool, list[int] | None]:
        """Whether the match is over after these deals, and then the winning seats."""

    def trick_play(self) -> TrickPlay | None:
        """This game's card play as tables (:mod:`osteria.trickplay`), for the engines that play
        many deals at once in compiled code; None where its card play is more than they hold."""
        return None

    @abstractmethod
    def score_bounds(self) -> tuple[int, int]:
        """The lowest and the highest delta of one seat in one deal."""

    @abstractmethod
    def max_decisions(self) -> int:
        """A bound on the decisions of one deal."""

    def discard_size(self) -> int:
        """How many cards one action sets aside together (a discard named as one action), or 0."""
        return 0

    def glossary(self) -> Terms:
        """The game's own words, each with its Italian and English explanation."""
        return {}

    def signal_names(self) -> Terms:
        """The names of the game's signals, each with its Italian and English explanation."""
        return {}

    def signals_in_play(self) -> Terms:
        """The signals these rules let a player make, as in ``signal_names()``: all of them,
        unless an option leaves some out (Tressette's segni)."""
        return self.signal_names()

    def board_over(self, results: Sequence[DealResult]) -> bool:
        """Whether the first deals of a match make a whole unit for comparing players in
        duplicate play: one deal, unless the game scores over several."""
        return bool(results)

    # -- a last round declared at the table --------------------------------------------------

    def last_round_end(self, index: int, dealer: int, seat: int) -> int:
        """Where the game lets a table end its match early (a control of the table, not a move of
        a deal): ``seat`` declares, while deal number ``index``, dealt by ``dealer``, is played or
        about to be dealt, that the round of deals it begins is the match's last. Returns the index
        of the match's last deal then; IllegalAction, saying why, where the game or the moment
        does not allow it. By default a game has no such declaration."""
        raise IllegalAction(Reason("{game} has no declared last round", game=self.name))

    def declared_end_status(self, results: Sequence[DealResult]) -> tuple[bool, list[int] | None]:
        """Whether a match is over once the last deal of a declared last round is played, and its
        winners: by default it is, and the best totals win."""
        return True, self.best_totals(results)

    def best_totals(self, results: Sequence[DealResult]) -> list[int]:
        """The seats whose totals over these deals are the best (the lowest where ``lower_wins``)."""
        totals = [sum(r.delta[s] for r in results) for s in range(self.seats)]
        best = min(totals) if self.lower_wins else max(totals)
        return [s for s in range(self.seats) if totals[s] == best]


@dataclass
class DealRecord:
    dealer: int
    hands: list[list[int]]
    stock: dict[str, list[int]]
    deal: Deal


class Match:
    """A match in progress: the public, string-based API over a game's deals."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        return super().__new__(cls)  # a bare match for ``copy``, as ``Deal.__new__`` says

    def __init__(self, game: Game, *, players: Sequence[str] | None = None,
                 seed: int | str | None = None, dealer: int | None = None) -> None:
        self.game = game
        seats = game.seats
        if players is None:
            players = [f"seat {seat}" for seat in range(seats)]
        if len(players) != seats or not all(isinstance(p, str) for p in players):
            raise RulesError(f"{game.name}: {seats} player names expected")
        self.players = list(players)
        self._rng = make_rng(seed)
        if dealer is None:
            dealer = self._rng.randrange(seats)
        elif not isinstance(dealer, int) or not 0 <= dealer < seats:
            raise RulesError(f"dealer must be a seat from 0 to {seats - 1}, not {dealer!r}")
        self._next_dealer = dealer
        self.deals: list[DealRecord] = []
        self.results: list[DealResult] = []
        self._finished = False
        self._winners: list[int] | None = None
        self._legal: list[int] | None = None
        # A last round declared at the table: (the deal it begins with, the seat that declared),
        # and the index of the match's last deal it makes.
        self._last_round: tuple[int, int] | None = None
        # The last deal each seat's declaration would make, for one deal and its dealer.
        self._last_deals: tuple[tuple[int, int] | None, dict[int, int | None]] = (None, {})
        self._last_deal: int | None = None
        # The match's keys as ``observations`` gives them, with what they were made from.
        self._shared_keys: tuple[tuple[object, ...], dict[str, JSON]] | None = None

    # -- deals -----------------------------------------------------------------------------

    def begin_deal(self, hands: Sequence[Sequence[int]] | None = None,
                   stock: Mapping[str, Sequence[int]] | None = None, dealer: int | None = None) -> Deal:
        """Start the next deal: with the given cards (a replay), else shuffled from the RNG."""
        if self._finished:
            raise RulesError("the match is over: no further deal")
        if self.deals and not self.deals[-1].deal.over:
            raise RulesError("the current deal is not finished")
        if dealer is None:
            dealer = self._next_dealer
        elif dealer != self._next_dealer and self.deals:
            raise RulesError(f"seat {self._next_dealer} deals now, not seat {dealer}")
        if hands is None:
            hands, stock = self.game.deal_cards(self._rng)
        else:  # cards from outside; the game's own deal needs no check
            self.game.check_deal(hands, stock or {})
        stock = dict(stock or {})
        deal = self.game.new_deal(len(self.deals), dealer, hands, stock, self.results)
        self.deals.append(DealRecord(dealer, [sorted(h) for h in hands],
                                     {role: list(cards) for role, cards in stock.items()}, deal))
        self._legal = None
        return deal

    @property
    def deal(self) -> Deal | None:
        """The current deal: the one in progress, or the last one played, which stays on view
        until :meth:`begin_deal` moves the match on; None before the first deal."""
        return self.deals[-1].deal if self.deals else None

    @property
    def deal_due(self) -> bool:
        """Whether the match waits for :meth:`begin_deal`: no deal dealt yet, or the last one
        finished and the match not over. Looking at a match never deals."""
        return not self._finished and (not self.deals or self.deals[-1].deal.over)

    def _deal_over(self, deal: Deal) -> None:
        self.results.append(deal.result())
        self._finished, self._winners = self.game.match_status(self.results)
        if not self._finished and self._last_deal is not None and len(self.results) > self._last_deal:
            self._finished, self._winners = self.game.declared_end_status(self.results)
        self._next_dealer = self.game.next_dealer(deal)

    # -- a last round declared at the table --------------------------------------------------

    def _declaring_at(self) -> tuple[int, int]:
        """The deal a declaration of the last round begins with now, and its dealer: the deal in
        progress (or on view), or the next one while it is due."""
        if self.deal_due:
            return len(self.deals), self._next_dealer
        return len(self.deals) - 1, self.deals[-1].dealer

    def declare_last_round(self, seat: int) -> None:
        """A control of the table, not a move: ``seat`` declares that the round of deals beginning
        with the current deal (the next one, while a deal is due) is the match's last, where the
        game allows it (``Game.last_round_end``). The match then ends, with its winners, once that
        round is played. IllegalAction, saying why, where it may not."""
        if self._finished:
            raise IllegalAction(Reason("the match is over"))
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.game.seats:
            raise IllegalAction(Reason("no seat {seat!r} in a {n}-seat game", seat=seat, n=self.game.seats))
        if self._last_round is not None:
            index, by = self._last_round
            raise IllegalAction(Reason("the last round is already declared, by {who} in deal {n}",
                                       who=AtSeat(by), n=index + 1))
        index, dealer = self._declaring_at()
        last = self.game.last_round_end(index, dealer, seat)
        self._last_round, self._last_deal = (index, seat), last

    def may_declare_last_round(self, seat: int) -> bool:
        """Whether ``seat`` may declare the last round now (:meth:`declare_last_round`)."""
        return self.last_deal_if_declared(seat) is not None

    def last_deal_if_declared(self, seat: int) -> int | None:
        """The index of the match's last deal if ``seat`` declared the last round now; None where
        it may not (what a table offering the declaration says it would do)."""
        if self._finished or self._last_round is not None:
            return None
        index, dealer = self._declaring_at()
        # Asked of every seat at every move (a table offers it), and the game's answer depends on
        # the deal, its dealer and the seat alone: asked once a deal.
        if self._last_deals[0] != (index, dealer):
            self._last_deals = (index, dealer), {}
        known = self._last_deals[1]
        if seat not in known:
            try:
                known[seat] = self.game.last_round_end(index, dealer, seat)
            except IllegalAction:
                known[seat] = None
        return known[seat]

    @property
    def last_round(self) -> dict[str, int] | None:
        """The last round declared, if any: the deal it begins with, the seat that declared it,
        and the match's last deal (indices from 0)."""
        if self._last_round is None or self._last_deal is None:
            return None
        index, seat = self._last_round
        return {"deal": index, "seat": seat, "last_deal": self._last_deal}

    def replay_steps(self, deals: int | None = None) -> Iterator[tuple[int, Match, int, int]]:
        """Every action of the first ``deals`` deals (all by default), played again from the same
        hands on a fresh match: (deal index, that match just before the action, the seat that
        acted, the action). What each seat saw at every moment is asked of that match."""
        again = Match(self.game, players=self.players, seed=0, dealer=self.deals[0].dealer if self.deals else None)
        for index, dealt in enumerate(self.deals[:deals]):
            again.begin_deal(dealt.hands, dealt.stock, dealt.dealer)
            for seat, action in dealt.deal.history:
                yield index, again, seat, action
                again.apply(action)

    def copy(self) -> Match:
        """An independent copy, for a player that may read the whole match (the arena's oracle):
        the deal in progress copied (``Deal.copy``), the results so far, and the shuffles to come,
        the same as this match's. Playing on the copy leaves this match as it is."""
        new = Match.__new__(Match)
        copy_into(new, self, containers=False)
        new.deals = self.deals[:]
        if new.deals:
            last = new.deals[-1]
            new.deals[-1] = DealRecord(last.dealer, last.hands, last.stock, last.deal.copy())
        new.results = self.results[:]
        new._last_deals = (self._last_deals[0], dict(self._last_deals[1]))  # a cache each fills alone
        try:
            new._rng = random.Random()
            new._rng.setstate(self._rng.getstate())
        except NotImplementedError:  # the system's generator has no state to copy: it is shared
            new._rng = self._rng
        return new

    # -- the public API ----------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self._finished

    @property
    def winners(self) -> list[int] | None:
        """The seats that won the match, once it is finished."""
        return None if self._winners is None else sorted(self._winners)

    @property
    def to_move(self) -> int | None:
        deal = self.deal
        return None if self._finished or deal is None else deal.to_move

    @property
    def decider(self) -> int | None:
        """The seat that chooses the next action (a dummy's partner for the dummy)."""
        deal = self.deal
        if self._finished or deal is None or deal.to_move is None:
            return None
        return deal.decider(deal.to_move)

    def _legal_ints(self) -> list[int]:
        if self._legal is None:
            deal = self.deal
            self._legal = [] if self._finished or deal is None else deal.legal()
        return self._legal

    def legal_actions(self) -> list[str]:
        deal = self.deal
        if deal is None:
            return []
        return deal.action_strs(self._legal_ints())

    def play(self, action: str) -> None:
        """Play one action of the seat to move; IllegalAction, saying why, if the rules forbid it."""
        if self._finished:
            raise IllegalAction(Reason("the match is over"))
        deal = self.deal
        if deal is None or deal.over:
            raise IllegalAction(Reason("no deal in progress: begin_deal() deals the next one"))
        if not isinstance(action, str):
            raise IllegalAction(Reason("an action is a string, not {kind}", kind=type(action).__name__))
        a = deal.parse_action(action)
        if a not in self._legal_ints():
            raise IllegalAction(deal.why_illegal(a))
        self._apply_to(deal, a)

    def apply(self, action: int) -> None:
        """Play an integer action known to be legal (the fast path of ``play``)."""
        deal = self.deal
        assert deal is not None and deal.to_move is not None, "no deal in progress"
        self._apply_to(deal, action)

    def _apply_to(self, deal: Deal, action: int) -> None:
        deal.apply(action)
        self._legal = None
        if deal.over:
            self._deal_over(deal)

    def observation(self, seat: int, deal: int | None = None) -> dict[str, JSON]:
        """What ``seat`` may know: its own view of the current deal (in progress, or finished
        with its ``result``, until the next one is dealt), the scores, and its legal actions;
        with ``deal``, its view of that deal as it ended."""
        if not isinstance(seat, int) or not 0 <= seat < self.game.seats:
            raise ValueError(f"no seat {seat!r} in a {self.game.seats}-seat game")
        if deal is not None:
            # A new dict on each call (Deal.observation), so it may be extended here.
            obs = cast(dict[str, JSON], self.deals[deal].deal.observation(seat))
            obs.update(seat=seat, deal_index=deal, result=self.results[deal].as_json()
                       if deal < len(self.results) else None)
            return obs
        current = self.deal
        return self._completed(self._match_keys(seat), {} if current is None else current.observation(seat), seat,
                               self._shown_result())

    def observations(self) -> list[dict[str, JSON]]:
        """Every seat's observation of the current deal, as ``observation`` gives each; what the
        seats see alike is built once and held by each, to be read and not changed (a server
        observes every seat at every move)."""
        current = self.deal
        match_keys = self._shared_match_keys()
        by_deal: Sequence[Mapping[str, JSON]] = [{}] * self.game.seats if current is None else current.observations()
        result = self._shown_result()
        return [self._completed({**match_keys, "seat": seat}, deal_keys, seat, result)
                for seat, deal_keys in enumerate(by_deal)]

    def _shared_match_keys(self) -> dict[str, JSON]:
        """The match's keys as ``observations`` gives them to every seat: the same objects from one
        call to the next until a deal begins or ends, a name changes or a last round is declared.
        A server observes every seat at every move and compares each view with the one before:
        kept, they compare at once, and are not made and held again."""
        made_from = (len(self.deals), len(self.results), self._finished, self._last_round, self._last_deal,
                     tuple(self.players))
        if self._shared_keys is None or self._shared_keys[0] != made_from:
            self._shared_keys = made_from, self._match_keys(0)
        return self._shared_keys[1]

    def _shown_result(self) -> JSON:
        """The current deal's result once it is over, else None."""
        current = self.deal
        return self.results[-1].as_json() if current is not None and current.over else None

    def _completed(self, obs: dict[str, JSON], deal_keys: Mapping[str, JSON], seat: int,
                   result: JSON) -> dict[str, JSON]:
        """``obs`` (the match's keys) with the deal's, its ``result`` where there is one, and the turn."""
        obs.update(deal_keys)
        if result is not None:
            obs["result"] = result
        obs["to_move"] = self.to_move
        obs["legal_actions"] = self.legal_actions() if self.decider == seat else []
        return obs

    def _match_keys(self, seat: int) -> dict[str, JSON]:
        """What ``seat`` knows of the match beyond the current deal."""
        obs: dict[str, JSON] = {
            "game": self.game.name,
            "options": dict(self.game.options),
            "players": list(self.players),
            "seat": seat,
            "deal_index": len(self.deals) - 1,
            "results": [r.as_json() for r in self.results],
            "totals": self.totals(),
            "finished": self._finished,
        }
        if self._last_round is not None:
            obs["last_round"] = self.last_round
        return obs

    def totals(self) -> list[int]:
        totals = [0] * self.game.seats
        for r in self.results:
            for seat, d in enumerate(r.delta):
                totals[seat] += d
        return totals

    def result(self) -> dict[str, JSON]:
        """The replay output of the osteria/1 format."""
        return {
            "game": self.game.name,
            "deals": [r.as_json() for r in self.results],
            "totals": self.totals(),
            "finished": self._finished,
            "winners": self.winners,
        }

    def deal_record(self, index: int) -> dict[str, JSON]:
        """Deal ``index`` as the osteria/1 record holds it: its dealer, hands, stock and actions."""
        rec = self.deals[index]
        entry: dict[str, JSON] = {
            "dealer": rec.dealer,
            "hands": [[CARD_STRINGS[c] for c in hand] for hand in rec.hands],
        }
        if rec.stock:
            single = self.game.single_card_roles
            entry["stock"] = {role: CARD_STRINGS[cards[0]] if role in single and len(cards) == 1
                              else [CARD_STRINGS[c] for c in cards] for role, cards in rec.stock.items()}
        entry["actions"] = [[seat, rec.deal.action_str(a)] for seat, a in rec.deal.history]
        return entry

    def record(self) -> dict[str, JSON]:
        """The osteria/1 record of the match so far."""
        record: dict[str, JSON] = {
            "format": "osteria/1",
            "game": self.game.name,
            "options": self.game.changed_options(),
            "players": list(self.players),
            "deals": [self.deal_record(index) for index in range(len(self.deals))],
        }
        if self._last_round is not None:  # an addition to version 1 (docs/records.md)
            index, seat = self._last_round
            record["last_round"] = {"deal": index, "seat": seat}
        return record


def _same(values: Sequence[JSON]) -> bool:
    # One object held by every observation (Match.observations builds what seats see alike once)
    # is the same without writing it out.
    first = values[0]
    if all(v is first for v in values[1:]):
        return True
    if first is None or isinstance(first, (str, int, float)):
        # A scalar is written alike only as a value of the same type (True is not 1, nor 1 1.0).
        kind = type(first)
        return all(type(v) is kind and v == first for v in values[1:])
    if any(v != first for v in values[1:]):
        return False  # unequal: taken apart by _common (a list and a tuple of the same items too)
    # Equal, but True == 1: alike only as written.
    written = json.dumps(first, sort_keys=True)
    return all(json.dumps(v, sort_keys=True) == written for v in values[1:])


def _common(values: Sequence[JSON]) -> JSON:
    """What is alike in every value: equal values stay, objects and equally long lists are compared
    key by key and item by item, anything else is None."""
    if _same(values):
        return values[0]
    if all(isinstance(v, dict) for v in values):
        keys = [k for k in values[0] if all(k in v for v in values[1:])]
        return {k: _common([v[k] for v in values]) for k in keys}
    if all(isinstance(v, list) for v in values) and len({len(v) for v in values}) == 1:
        return [_common(items) for items in zip(*values, strict=True)]
    return None


def public_view(observations: Sequence[dict[str, JSON]]) -> dict[str, JSON]:
    """A watcher's view: only what every seat's observation shows alike, so it holds no card
    that any seat cannot see."""
    view: dict[str, JSON] = _common(observations)
    view["seat"] = None
    view["legal_actions"] = []
    return view


def parse_cards(words: Sequence[str], action: str) -> list[int]:
    """The cards named by an action's arguments; IllegalAction naming the bad one."""
    cards = []
    for word in words:
        try:
            cards.append(parse_card(word))
        except ValueError:
            raise IllegalAction(Reason("{action!r}: {word!r} is not a card: a rank of {ranks} and a suit of {suits}, "
                                       "as in 3d or Rb", action=action, word=word, ranks=RANKS, suits=SUITS)) from None
    return cards
