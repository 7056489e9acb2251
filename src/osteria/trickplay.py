"""A game's card play as tables: what an engine that plays many deals at once in compiled code
(:mod:`osteria.envs.batched`) needs to know of it, and nothing of how it plays.

A game whose card play such an engine can play answers :meth:`osteria.engine.Game.trick_play`
with a :class:`TrickPlay`. The card play it describes is the family's common one: the deck
shuffled and dealt in equal hands, the rest set aside; the first lead; a hand answers the suit
led (else trumps where it must); the highest trump takes the trick, else the strongest card of
the suit led; each card taken counts its value to the taker's side, and the last trick a bonus.
Whatever a game adds to it (signals, accusi, calls, a bidding) is the rules module's alone.

Cards are numbered by their place in the deck (``deck``), 0 up, as the environments number them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TrickPlay:
    """The card play of a game, for a given number of seats and options.

    Where the trump suit changes from deal to deal, the tables hold one row per trump (its
    ``variant``): the variant of a deal is the suit of its first card set aside (the turned
    card). Strength orders the cards that may take a trick: a trump's is above every other card's.
    """

    seats: int
    deck: tuple[int, ...]  # the rules' cards in deck order: a card's place here is its number
    hand_size: int
    suits: tuple[int, ...]  # per card, the suit it follows as
    values: tuple[tuple[int, ...], ...]  # per variant, per card: what taking it counts, in units
    strengths: tuple[tuple[int, ...], ...]  # per variant, per card
    trumps: tuple[int, ...]  # per variant, the trump suit, or -1 for none
    sides: tuple[int, ...]  # per seat, its side: what the seats of a side take counts to it
    unit: int = 1  # the units a point is counted in (3: thirds)
    last_bonus: int = 0  # units for taking the last trick
    must_trump: bool = False  # a hand void in the suit led must trump if it can
    lower_wins: bool = False  # points are poison
    lead_card: int = -1  # the card whose holder leads the first trick; -1 or set aside: the dealer's right
    rest_to_last_taker: bool = False  # the cards set aside count to whoever takes the last trick
    turned_trump: bool = False  # the first card set aside turns up the deal's trump (its variant)
    shown: tuple[int, ...] = ()  # the places in the set-aside cards of those every seat sees

    @property
    def cards(self) -> int:
        return len(self.deck)

    @property
    def side_count(self) -> int:
        return max(self.sides) + 1

    @property
    def tricks(self) -> int:
        return self.hand_size

    def deck_units(self, variant: int = 0) -> int:
        """The deck's units in all, the last trick's bonus included: what a deal holds where
        every card is played or counts (the scale the observation divides taken units by)."""
        return sum(self.values[variant]) + self.last_bonus
