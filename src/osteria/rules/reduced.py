"""Reduced games for exact methods: two players and a handful of cards, small enough that
counterfactual regret minimisation (CFR) solves them in seconds to minutes on one core.

A reduced game keeps the rules of its family and shrinks the deck: it is not a game of the
table (it has no match, no record, no encoding) but an object of study, whose equilibrium
says something about the full game's play. It deals every possible deal with equal
probability, starts a deal from one, and values a finished deal for each seat, as
:class:`ReducedGame` says; ``osteria.envs.reduced`` makes each an OpenSpiel game. Every action
of a reduced game is public: a seat knows its hand as dealt and every action since.

**Mini Tressette** (the Tressette family): the deck is a few suits of a few ranks of the 40-card
deck, each player is dealt ``hand`` cards and the rest is set aside, unseen. Seat 0 leads the
first trick; each player follows suit while it can; the strongest card of the suit led takes
(3 2 A R C F 7 6 5 4); the taker leads next. Card points are the family's, counted in thirds
(the ace a point, twos, threes and figures a third each), and the last trick is worth a point
and takes the cards set aside, as the family gives a widow to the last trick.

**Mini Sancagna**: a few suits of a few ranks of the 52-card Venetian deck, ``hand`` cards
each, and one of the cards left turned face up: its suit is trump; the rest stays unseen.
Seat 0 leads; each player answers the suit led, else trumps, else plays any card ("rispondi o
taglia"); the highest trump takes, else the highest card of the suit led, in Sancagna's two
orders (in trump the re highest, in the other suits the four); the cards count Sancagna's
points for the trump they are played under. The set-aside cards, the turned one included,
count for no one, and there is no cenno and no call-out: what is left is the card play.

**Mini Quattrigghiu** (the Ombre family): a few suits of a few ranks of the 40-card deck, the
suits taken in the order s b d c so that the spatigghia (As) and the bastu (Ab) come first,
``hand`` cards each, the rest set aside unseen. Seat 0 speaks first: it passes or takes the
game alone naming the trunfu ("sulita SUIT", a suit of the deck); after a pass seat 1 does the
same; if both pass, the holder of the spatigghia must take the game, and with the spatigghia
set aside the deal is passed and nothing is paid. Seat 0 leads. The card play is
Quattrigghiu's: its card orders for the trunfu named, the spatigghia and the bastu trunfi
whatever it is, the obligation to answer the suit led (the trunfi on a trunfu lead) and the
matador privilege. A majority of the basi wins (vinta for the taker, cudigghia for the other)
and ends the deal at once; equal basi are a riposta. From three cards a hand, a majority
leaves basi to play: a player who took each of the first basi of a majority is asked tutita
or basta, and going on, takes all for a tutità or loses the deal as franca at the first base
lost. A win is worth one, a tutità two, a riposta, a franca and a passed deal nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Protocol

from osteria.cards import (
    CARD_STRINGS,
    ITALIAN_40,
    RANKS,
    RANKS_40,
    SUITS,
    VENETA_52,
    card,
    cards_of,
    mask_of,
    suit_of,
)
from osteria.engine import Deal, DealResult, IllegalAction, RulesError, parse_cards
from osteria.i18n import AtSeat, Reason
from osteria.rules import quattrigghiu
from osteria.rules.quattrigghiu import ACTION_STRINGS, BASTA, PASSU, SPATIGGHIA, SULITA_BASE, TUTITA
from osteria.rules.sancagna import card_points, card_refusal, required, trick_winner
from osteria.rules.tressette_family import LAST_TRICK_THIRDS, ORDER, THIRDS, TrickDeal, rounded_points, thirds_of

Hands = tuple[tuple[int, ...], ...]
"""The cards of a deal: each seat's hand in seat order, then any cards dealt face up (Mini
Sancagna's turned card)."""


class ReducedGame(Protocol):
    """What an exact method needs of a reduced game."""

    @property
    def name(self) -> str: ...

    @property
    def seats(self) -> int: ...

    @property
    def actions(self) -> tuple[int, ...]:
        """Every action of its deals, as the deals number them."""

    def deals(self) -> list[Hands]:
        """Every deal, each equally likely."""

    def new_deal(self, hands: Sequence[Sequence[int]]) -> Deal:
        """The deal of these cards, before its first action."""

    def returns(self, deal: Deal) -> list[float]:
        """What each seat wins in a finished deal; the returns add up to zero."""

    def max_returns(self) -> float:
        """The most a seat can win in a deal (and lose: the game is zero-sum)."""

    def max_decisions(self) -> int:
        """The most actions a deal takes."""


# A card of each deck by its name: what the reduced deals' actions are spelled with.
CARD_OF_40 = {CARD_STRINGS[c]: c for c in ITALIAN_40.cards}
CARD_OF_52 = {CARD_STRINGS[c]: c for c in VENETA_52.cards}


class MiniTressetteDeal(TrickDeal):
    """One deal of the mini Tressette: the family's trick play between two seats."""

    action_strings = CARD_STRINGS
    action_numbers = CARD_OF_40

    def __init__(self, hands: Sequence[Sequence[int]], set_aside: Sequence[int]) -> None:
        self.card_thirds = THIRDS
        self.seats = 2
        self.dealer = 1  # so that seat 0, the one after the dealer, leads
        self.history = []
        self.hands = [mask_of(hand) for hand in hands]
        self.setup_play(0, mask_of(set_aside))

    def unlisted_action(self, text: str) -> int:
        # Only a word that names no card of the 40-card deck reaches here: say what a card is.
        parse_cards(text.split() or [text], text)
        raise IllegalAction(Reason("{card} cannot be played now", card=text))

    def observation(self, seat: int) -> dict[str, object]:
        return {"hand": [CARD_STRINGS[c] for c in cards_of(self.hands[seat])], **self.play_observation()}

    def result(self) -> DealResult:
        last_taker = self.last_taker
        assert last_taker is not None
        points = rounded_points(self.final_thirds(), last_taker)
        return DealResult("played", points, [points[0] - points[1], points[1] - points[0]])


@dataclass(frozen=True)
class ReducedDeck:
    """A deck of ``suits`` suits (the first of ``suit_order``: d c s b, unless a game orders
    them otherwise) of the ranks ``ranks``, ``hand`` cards dealt to each of two players, at
    least one set aside unseen (else each player would know the other's hand from its own)."""

    suits: int
    ranks: str
    hand: int
    deck: tuple[int, ...] = field(init=False)

    name = "reduced"
    seats = 2
    rank_letters = RANKS_40  # the ranks the family's deck has
    suit_order = SUITS  # the first ``suits`` of these make the deck

    @property
    def deck_suits(self) -> str:
        """The letters of the deck's suits."""
        return self.suit_order[:self.suits]

    def __post_init__(self) -> None:
        if not 1 <= self.suits <= len(SUITS):
            raise RulesError(f"{self.name}: suits must be from 1 to {len(SUITS)}, not {self.suits!r}")
        unknown = [r for r in self.ranks if r not in self.rank_letters]
        if not self.ranks or unknown or len(set(self.ranks)) != len(self.ranks):
            raise RulesError(f"{self.name}: ranks must be distinct letters of {self.rank_letters}, "
                             f"not {self.ranks!r}")
        size = self.suits * len(self.ranks)
        if self.hand < 1 or 2 * self.hand >= size:
            raise RulesError(f"{self.name}: a deck of {size} cards deals hands of 1 to {(size - 1) // 2} cards "
                             f"(one card at least set aside), not {self.hand!r}")
        # In the deck's canonical order, whatever order the ranks were named in.
        cards = sorted(card(r, s) for s in self.deck_suits for r in self.ranks)
        object.__setattr__(self, "deck", tuple(cards))

    @property
    def actions(self) -> tuple[int, ...]:
        return self.deck

    def hand_pairs(self) -> list[Hands]:
        """Every pair of hands, seat 0's then seat 1's."""
        return [(first, second) for first in combinations(self.deck, self.hand)
                for second in combinations([c for c in self.deck if c not in first], self.hand)]

    def rest(self, hands: Sequence[Sequence[int]]) -> list[int]:
        """The cards that these hands leave, in the deck's order."""
        dealt = {c for hand in hands for c in hand}
        return [c for c in self.deck if c not in dealt]

    def max_decisions(self) -> int:
        return self.seats * self.hand


@dataclass(frozen=True)
class MiniTressette(ReducedDeck):
    """The rules of a mini Tressette, by default 3 suits of A 2 3, 3 cards each."""

    suits: int = 3
    ranks: str = "A23"
    hand: int = 3

    name = "mini_tressette"

    @property
    def taking_order(self) -> str:
        """The ranks from the weakest to the strongest, as the family takes tricks."""
        return "".join(r for r in ORDER if r in self.ranks)

    @property
    def deal_thirds(self) -> int:
        """The thirds of a deal: every card's and the last trick's."""
        return thirds_of(mask_of(self.deck)) + LAST_TRICK_THIRDS

    def deals(self) -> list[Hands]:
        """Every pair of hands, each equally likely."""
        return self.hand_pairs()

    def new_deal(self, hands: Sequence[Sequence[int]]) -> MiniTressetteDeal:
        return MiniTressetteDeal(hands, self.rest(hands))

    def returns(self, deal: Deal) -> list[float]:
        """Each seat's card points less the other's, exact in thirds (rounding to whole points,
        as the full game does, would make most of a small deal's play worth nothing)."""
        assert isinstance(deal, MiniTressetteDeal)
        first, second = deal.final_thirds()
        return [(first - second) / 3, (second - first) / 3]

    def max_returns(self) -> float:
        return self.deal_thirds / 3


class MiniSancagnaDeal(Deal):
    """One deal of the mini Sancagna: two seats, a trump shown by the turned card, and the
    rule "rispondi o taglia" (the suit led, else a trump, else any card)."""

    action_strings = CARD_STRINGS
    action_numbers = CARD_OF_52

    def __init__(self, hands: Sequence[Sequence[int]], turned: int) -> None:
        self.seats = 2
        self.dealer = 1  # so that seat 0, the one after the dealer, leads
        self.history = []
        self.hands = [mask_of(hand) for hand in hands]
        self.turned = turned
        self.trump = suit_of(turned)
        self.to_move: int | None = 0
        self.leader = 0
        self.trick: list[int] = []
        self.points = [0, 0]  # card points taken per seat

    def legal(self) -> list[int]:
        if self.to_move is None:
            return []
        hand = self.hands[self.to_move]
        return cards_of(required(hand, self.trick[0] // 13, self.trump) if self.trick else hand)

    def why_illegal(self, action: int) -> Reason:
        seat = self.to_move
        if seat is None:
            return Reason("the deal is over")
        led = self.trick[0] // 13 if self.trick else action // 13
        return card_refusal(self.hands[seat], seat, action, led, self.trump)

    def perform(self, seat: int, action: int) -> None:
        self.hands[seat] ^= 1 << action
        self.trick.append(action)
        if len(self.trick) < self.seats:
            self.to_move = 1 - seat
            return
        taker = (self.leader + trick_winner(self.trick, self.trump)) % self.seats
        self.points[taker] += sum(card_points(c, self.trump) for c in self.trick)
        self.trick = []
        self.leader = taker
        self.to_move = taker if self.hands[taker] else None

    def unlisted_action(self, text: str) -> int:
        # Only a word that names no card of the 52-card deck reaches here: say what a card is.
        parse_cards(text.split() or [text], text)
        raise IllegalAction(Reason("{card} cannot be played now", card=text))

    def observation(self, seat: int) -> dict[str, object]:
        return {"hand": [CARD_STRINGS[c] for c in cards_of(self.hands[seat])], "turned": CARD_STRINGS[self.turned],
                "leader": self.leader, "trick": [CARD_STRINGS[c] for c in self.trick], "points": list(self.points)}

    def result(self) -> DealResult:
        first, second = self.points
        return DealResult("played", list(self.points), [first - second, second - first])


@dataclass(frozen=True)
class MiniSancagna(ReducedDeck):
    """The rules of a mini Sancagna, by default 3 suits of 3 4 R, 2 cards each: one of the
    cards left is turned face up and its suit is trump; the others stay unseen."""

    suits: int = 3
    ranks: str = "34R"
    hand: int = 2

    name = "mini_sancagna"
    rank_letters = RANKS

    def deals(self) -> list[Hands]:
        """Every pair of hands and turned card (as a hand of one), each equally likely."""
        return [(*hands, (turned,)) for hands in self.hand_pairs() for turned in self.rest(hands)]

    def new_deal(self, hands: Sequence[Sequence[int]]) -> MiniSancagnaDeal:
        first, second, (turned,) = hands
        return MiniSancagnaDeal([first, second], turned)

    def returns(self, deal: Deal) -> list[float]:
        """Each seat's card points less the other's."""
        first, second = deal.result().delta
        return [float(first), float(second)]

    def max_returns(self) -> float:
        """At most the points of the cards played, the highest trump table's."""
        return float(max(sum(sorted((card_points(c, t) for c in self.deck), reverse=True)[:2 * self.hand])
                         for t in range(self.suits)))


# The words of a mini Quattrigghiu, the family's own: the cards, the call alone, passu, tutita
# and basta (the partnership calls and the volunteer's aiutu need four players).
MINI_QUATTRIGGHIU_ACTIONS = {**CARD_OF_40, **{ACTION_STRINGS[SULITA_BASE + t]: SULITA_BASE + t for t in range(4)},
                             **{ACTION_STRINGS[a]: a for a in (PASSU, TUTITA, BASTA)}}
TAKER, DEFENDER = 0, 1  # the sides, as quattrigghiu.settled numbers them
BIDDING, FORCED, PLAY, WINDOW, OVER = (quattrigghiu.BIDDING, quattrigghiu.FORCED, quattrigghiu.PLAY,
                                       quattrigghiu.WINDOW, quattrigghiu.OVER)


class MiniQuattrigghiuDeal(Deal):
    """One deal of the mini Quattrigghiu: the call (passu, or sulita SUIT), then the basi, with
    the matador privilege, the early stop at a majority and the tutità."""

    action_strings = ACTION_STRINGS
    action_numbers = MINI_QUATTRIGGHIU_ACTIONS

    def __init__(self, hands: Sequence[Sequence[int]], trumps: Sequence[int], matador: bool) -> None:
        self.seats = 2
        self.dealer = 1  # so that seat 0, the one after the dealer, speaks and leads first
        self.history = []
        self.hands = [mask_of(hand) for hand in hands]
        self.trumps = tuple(trumps)  # the suits one may name trunfu: the deck's
        self.matador = matador
        self.tricks = len(hands[0])
        self.winning = self.tricks // 2 + 1  # a majority of the basi
        self.phase = BIDDING
        self.to_move: int | None = 0
        self.passes = 0
        self.taker = -1
        self.trump = -1
        self.leader = 0
        self.trick: list[int] = []
        self.basi = [0, 0]  # per seat
        self.attempt = -1  # the side going for tutità
        self.outcome = ""
        self.winning_side = -1

    def side_of(self, seat: int) -> int:
        return TAKER if seat == self.taker else DEFENDER

    @property
    def side_basi(self) -> list[int]:
        """The basi of the taker, then of the other."""
        return [self.basi[self.taker], self.basi[1 - self.taker]]

    def legal(self) -> list[int]:
        seat = self.to_move
        if seat is None:
            return []
        if self.phase == PLAY:
            return cards_of(quattrigghiu.playable(self.hands[seat], self.trick, self.trump, self.matador))
        if self.phase == WINDOW:
            return [TUTITA, BASTA]
        calls = [SULITA_BASE + t for t in self.trumps]
        return calls if self.phase == FORCED else [PASSU, *calls]

    def why_illegal(self, action: int) -> Reason:
        seat = self.to_move
        if seat is None:
            return Reason("the deal is over")
        text = ACTION_STRINGS[action]
        if action < 52:
            if self.phase != PLAY:
                return Reason("{action!r}: no card is played now: {awaited}", action=text, awaited=self._awaited())
            return quattrigghiu.card_refusal(self.hands[seat], seat, action, self.trick, self.trump)
        if action == PASSU and self.phase == FORCED:
            return Reason("both passed: {who} must take the game, holding the spatigghia", who=AtSeat(seat))
        if action in (TUTITA, BASTA):
            return Reason("{action!r}: only after one has taken each of the first {count} basi, to go for tutità",
                          action=text, count=self.winning)
        if action == PASSU:
            return Reason("{action!r}: {awaited}", action=text, awaited=self._awaited())
        if self.phase not in (BIDDING, FORCED):
            return Reason("{action!r}: the call is made already; {awaited}", action=text, awaited=self._awaited())
        return Reason("{action!r}: the trunfu is one of the suits of the deck: {suits}", action=text,
                      suits=" ".join(SUITS[t] for t in self.trumps))

    def _awaited(self) -> Reason:
        return {
            BIDDING: Reason("each in turn says passu or calls"),
            FORCED: Reason("the holder of the spatigghia must call"),
            PLAY: Reason("a card is played"),
            WINDOW: Reason("who took each of the first basi answers tutita or basta"),
        }[self.phase]

    def perform(self, seat: int, action: int) -> None:
        if action < 52:
            self._play_card(seat, action)
        elif action == PASSU:
            self.passes += 1
            if self.passes < self.seats:
                self.to_move = 1 - seat
            elif any(hand >> SPATIGGHIA & 1 for hand in self.hands):
                self.phase = FORCED
                self.to_move = next(s for s in range(self.seats) if self.hands[s] >> SPATIGGHIA & 1)
            else:  # nobody holds the spatigghia that would have to take the game: nothing is paid
                self.outcome, self.phase, self.to_move = "passu", OVER, None
        elif action == TUTITA:
            self.attempt = self.side_of(seat)
            self.phase, self.to_move = PLAY, self.leader
        elif action == BASTA:
            self.end()
        else:
            self.taker, self.trump = seat, action - SULITA_BASE
            self.phase, self.to_move = PLAY, self.leader

    def _play_card(self, seat: int, c: int) -> None:
        self.hands[seat] ^= 1 << c
        self.trick.append(c)
        if len(self.trick) < self.seats:
            self.to_move = 1 - seat
            return
        winner = (self.leader + quattrigghiu.trick_taker(self.trump, self.trick)) % self.seats
        self.trick = []
        self.basi[winner] += 1
        self.leader = self.to_move = winner
        verdict = quattrigghiu.after_base(self.side_basi, self.side_of(winner), self.attempt, self.tricks,
                                          self.winning)
        if verdict == "window":  # the one who took them answers alone
            self.phase = WINDOW
        elif verdict == "end":
            self.end()

    def end(self) -> None:
        """The basi taken settle the deal."""
        self.outcome, self.winning_side = quattrigghiu.settled(self.side_basi, self.attempt, self.tricks,
                                                               self.winning)
        self.phase, self.to_move = OVER, None

    def unlisted_action(self, text: str) -> int:
        raise IllegalAction(Reason("{action!r} is not an action of this game: a card, passu, sulita SUIT, tutita "
                                   "or basta", action=text))

    def observation(self, seat: int) -> dict[str, object]:
        called = self.taker >= 0
        return {"hand": [CARD_STRINGS[c] for c in cards_of(self.hands[seat])], "phase": self.phase,
                "taker": self.taker if called else None, "trump": SUITS[self.trump] if called else None,
                "leader": self.leader, "trick": [CARD_STRINGS[c] for c in self.trick], "basi": list(self.basi),
                "tutita": self.attempt >= 0}

    def stakes(self) -> list[int]:
        """What each seat wins: one for a win, two for a tutità, nothing for a riposta, a franca
        or a passed deal."""
        if self.winning_side < 0:
            return [0, 0]
        won = 2 if self.outcome == "tutita" else 1
        return [won if self.side_of(s) == self.winning_side else -won for s in range(self.seats)]

    def result(self) -> DealResult:
        return DealResult(self.outcome, list(self.basi), self.stakes())


@dataclass(frozen=True)
class MiniQuattrigghiu(ReducedDeck):
    """The rules of a mini Quattrigghiu, by default spade, bastoni and denari of A 2 R, 2 cards
    each: the trunfu is named by who takes the game, and the spatigghia, the manigghia (the two
    of a long trunfu, the seven of a short one) and the bastu are matadors, privileged when
    ``matador``."""

    suits: int = 3
    ranks: str = "A2R"
    hand: int = 2
    matador: bool = True

    name = "mini_quattrigghiu"
    suit_order = "sbdc"  # the suits of the spatigghia and the bastu first

    @property
    def trumps(self) -> tuple[int, ...]:
        """The suits one may name trunfu, by their numbers."""
        return tuple(SUITS.index(s) for s in self.deck_suits)

    @property
    def actions(self) -> tuple[int, ...]:
        return (*self.deck, *(SULITA_BASE + t for t in sorted(self.trumps)), PASSU, TUTITA, BASTA)

    def deals(self) -> list[Hands]:
        """Every pair of hands, each equally likely."""
        return self.hand_pairs()

    def new_deal(self, hands: Sequence[Sequence[int]]) -> MiniQuattrigghiuDeal:
        return MiniQuattrigghiuDeal(hands, self.trumps, self.matador)

    def returns(self, deal: Deal) -> list[float]:
        return [float(stake) for stake in deal.result().delta]

    def max_returns(self) -> float:
        return 2.0  # a tutità

    def max_decisions(self) -> int:
        return 3 + 2 * self.hand + 1  # two passes and a forced call, the cards, tutita or basta
