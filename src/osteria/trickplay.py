"""A game's card play as tables: what an engine that plays many deals at once in compiled code
(:mod:`osteria.envs.batched`) needs to know of it, and nothing of how it plays.

A game whose card play such an engine can play answers :meth:`osteria.engine.Game.trick_play`
with a :class:`TrickPlay`. The card play it describes is the family's common one: the deck
shuffled and dealt in equal hands, the rest set aside; the first lead; a hand answers the suit
led (else trumps where it must); the highest trump takes the trick, else the strongest card of
the suit led; each card taken counts its value to the taker's side, and the last trick a bonus.
A game may put before it a bidding in which one seat takes the deal against the others
(:class:`CallAuction`). Whatever else a game adds to it (signals, accusi, cenni) is the rules
module's alone.

Cards are numbered by their place in the deck (``deck``), 0 up, as the environments number them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CallAuction:
    """A bidding in which one seat takes the deal against the others, by calling a card or alone.

    Each seat in turn from the first leader passes, calls a card it does not hold, or plays alone;
    the first that does not pass takes the contract, and where all pass the deal is void (it
    scores nothing). A call: with ``caller_takes_rest`` the caller takes the cards set aside and
    lays aside as many of his own, one at a time, after the exchange; with ``exchange`` the holder
    of the called card hands it over for a card the caller chooses, both face up; with
    ``hidden_partner`` the holder plays on the caller's side, known to himself alone until the
    called card is played. Alone: the taker plays the cards he was dealt, the rest unseen, and
    leads the first trick. The taker's side wins with ``winning_points`` whole points or more;
    cappotto is the losing side with none. During the play every seat takes for itself (the
    card play's ``sides`` are the seats): the contract makes the sides when the deal is scored.
    """

    caller_takes_rest: bool
    exchange: bool
    hidden_partner: bool
    winning_points: int
    # Per contract and cappotto, at (2 if alone else 0) + cappotto: what the caller and his
    # partner win and what each opponent pays when the caller's side wins; every sign turns when
    # it loses.
    stakes: tuple[tuple[int, int, int], ...]
    words: tuple[str, str]  # the game's words for passing and for playing alone


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
    auction: CallAuction | None = None  # the bidding before the first card, where there is one

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
