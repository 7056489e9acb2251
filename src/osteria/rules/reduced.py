"""Reduced games for exact methods: two players and a handful of cards, small enough that
counterfactual regret minimisation (CFR) solves them in seconds to minutes on one core.

A reduced game keeps the rules of its family and shrinks the deck: it is not a game of the
table (it has no match, no record, no encoding) but an object of study, whose equilibrium
says something about the full game's play. It deals every possible pair of hands with equal
probability, starts a deal from one, and values a finished deal for each seat, as
:class:`ReducedGame` says; ``osteria.envs.reduced`` makes each an OpenSpiel game. Every action
of a reduced game is public: a seat knows its hand as dealt and every action since.

**Mini Tressette** (the Tressette family): the deck is a few suits of a few ranks of the 40-card
deck, each player is dealt ``hand`` cards and the rest is set aside, unseen. Seat 0 leads the
first trick; each player follows suit while it can; the strongest card of the suit led takes
(3 2 A R C F 7 6 5 4); the taker leads next. Card points are the family's, counted in thirds
(the ace a point, twos, threes and figures a third each), and the last trick is worth a point
and takes the cards set aside, as the family gives a widow to the last trick.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Protocol

from osteria.cards import CARD_STRINGS, ITALIAN_40, RANKS_40, SUITS, card, cards_of, mask_of
from osteria.engine import Deal, DealResult, IllegalAction, RulesError, parse_cards
from osteria.i18n import Reason
from osteria.rules.tressette_family import ORDER, THIRDS, TrickDeal, rounded_points, thirds_of

Hands = tuple[tuple[int, ...], ...]
"""The hands of a deal, in seat order."""


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
        """Every deal, as the hands in seat order, each equally likely."""

    def new_deal(self, hands: Sequence[Sequence[int]]) -> Deal:
        """The deal of these hands, before its first action."""

    def returns(self, deal: Deal) -> list[float]:
        """What each seat wins in a finished deal; the returns add up to zero."""

    def max_returns(self) -> float:
        """The most a seat can win in a deal (and lose: the game is zero-sum)."""

    def max_decisions(self) -> int:
        """The most actions a deal takes."""


# A card of the 40-card deck by its name: what the reduced deal's actions are spelled with.
CARD_OF = {CARD_STRINGS[c]: c for c in ITALIAN_40.cards}


class MiniTressetteDeal(TrickDeal):
    """One deal of the mini Tressette: the family's trick play between two seats."""

    action_strings = CARD_STRINGS
    action_numbers = CARD_OF
    card_thirds = THIRDS

    def __init__(self, hands: Sequence[Sequence[int]], set_aside: Sequence[int]) -> None:
        self.seats = 2
        self.dealer = 1  # so that seat 0, the one after the dealer, leads
        self.history = []
        self.hands = [mask_of(hand) for hand in hands]
        self.setup_play(0, mask_of(set_aside))

    def legal(self) -> list[int]:
        return [] if self.to_move is None else self.playable_cards()

    def why_illegal(self, action: int) -> Reason:
        return self.card_problem(action) or Reason("{card} cannot be played now", card=CARD_STRINGS[action])

    def perform(self, seat: int, action: int) -> None:
        self.play_card(action)

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
class MiniTressette:
    """The rules of a mini Tressette: ``suits`` suits (d c s b, in that order) of the ranks
    ``ranks`` (letters of A234567FCR), ``hand`` cards each."""

    suits: int = 3
    ranks: str = "A23"
    hand: int = 3
    deck: tuple[int, ...] = field(init=False)

    name = "mini_tressette"
    seats = 2

    def __post_init__(self) -> None:
        if not 1 <= self.suits <= len(SUITS):
            raise RulesError(f"{self.name}: suits must be from 1 to {len(SUITS)}, not {self.suits!r}")
        unknown = [r for r in self.ranks if r not in RANKS_40]
        if not self.ranks or unknown or len(set(self.ranks)) != len(self.ranks):
            raise RulesError(f"{self.name}: ranks must be distinct letters of {RANKS_40}, not {self.ranks!r}")
        size = self.suits * len(self.ranks)
        # A card must stay unseen, or each player would know the other's hand from its own.
        if self.hand < 1 or 2 * self.hand >= size:
            raise RulesError(f"{self.name}: a deck of {size} cards deals hands of 1 to {(size - 1) // 2} cards "
                             f"(one card at least set aside), not {self.hand!r}")
        # In the deck's canonical order, whatever order the ranks were named in.
        cards = sorted(card(r, s) for s in SUITS[:self.suits] for r in self.ranks)
        object.__setattr__(self, "deck", tuple(cards))

    @property
    def taking_order(self) -> str:
        """The ranks from the weakest to the strongest, as the family takes tricks."""
        return "".join(r for r in ORDER if r in self.ranks)

    @property
    def deal_thirds(self) -> int:
        """The thirds of a deal: every card's and the last trick's."""
        return thirds_of(mask_of(self.deck)) + 3

    @property
    def actions(self) -> tuple[int, ...]:
        return self.deck

    def deals(self) -> list[Hands]:
        """Every pair of hands, seat 0's then seat 1's, each equally likely."""
        return [(first, second) for first in combinations(self.deck, self.hand)
                for second in combinations([c for c in self.deck if c not in first], self.hand)]

    def new_deal(self, hands: Sequence[Sequence[int]]) -> MiniTressetteDeal:
        dealt = {c for hand in hands for c in hand}
        return MiniTressetteDeal(hands, [c for c in self.deck if c not in dealt])

    def returns(self, deal: Deal) -> list[float]:
        """Each seat's card points less the other's, exact in thirds (rounding to whole points,
        as the full game does, would make most of a small deal's play worth nothing)."""
        assert isinstance(deal, MiniTressetteDeal)
        first, second = deal.final_thirds()
        return [(first - second) / 3, (second - first) / 3]

    def max_returns(self) -> float:
        return self.deal_thirds / 3

    def max_decisions(self) -> int:
        return self.seats * self.hand
