"""A game's card play as tables: what an engine that plays many deals at once in compiled code
(:mod:`osteria.envs.batched`) needs to know of it, and nothing of how it plays.

A game whose card play such an engine can play answers :meth:`osteria.engine.Game.trick_play`
with a :class:`TrickPlay`. The card play it describes is the family's common one: the deck
shuffled and dealt in equal hands, the rest set aside; the first lead; a hand answers the suit
led (else trumps where it must); the highest trump takes the trick, else the strongest card of
the suit led; each card taken counts its value to the taker's side, and the last trick a bonus.
A game may put before it a bidding in which one seat takes the deal against the others
(:class:`CallAuction`), or Ombre's call of the trump suit with a partner (:class:`TrumpCall`), after
which the basi (tricks) count, not the cards. Whatever else a game adds to it (signals, accusi, cenni) is the rules
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
class TrumpCall:
    """Ombre's bidding and scoring: the seat that calls names the trump suit (the card play's
    variant) and plays with a partner, or alone, for the most basi.

    The holder of ``first_speaker`` speaks first; each in turn passes or calls, and the first call
    takes the deal. A call names the trump and a card of ``partner_cards`` the caller does not hold,
    whose holder is his partner, known to himself alone until that card is played or the tutità
    is asked; one holding all of them names one of ``instead`` he does not hold. With
    ``volunteers`` the caller names only the trump, and the others in turn from his right may
    answer that they help, publicly; none helping, he plays alone. Alone (``sulità``) he names
    the trump only. Where all pass, the holder of ``forced`` must call.

    The card play stops as soon as a side has ``winning`` basi; a side that took each of the first
    ``winning`` (with basi left) is asked, each member in playing order from the last taker,
    whether it goes for all of them (the tutità): all saying so, the play goes on and ends at the
    first base it loses. The outcome pays ``stakes`` (per contract, a call then alone: what the
    caller, his partner and each other seat win when the caller's side wins; every sign turns when
    the others win), times ``tutita`` for all the basi; five each, or a tutità tried and lost, pay
    nothing. Basi count alike whatever their cards: the card play's values are a card's share.
    """

    first_speaker: int
    forced: int
    partner_cards: tuple[int, ...]
    instead: tuple[int, ...]
    volunteers: bool
    winning: int
    stakes: tuple[tuple[int, int, int], tuple[int, int, int]]
    tutita: int
    # The game's words: a call, alone, a pass, help (a volunteer's), go for all the basi, stop.
    words: tuple[str, str, str, str, str, str]


@dataclass(frozen=True)
class TrickPlay:
    """The card play of a game, for a given number of seats and options.

    Where the trump suit changes from deal to deal, the tables hold one row per trump (its
    ``variant``): the variant of a deal is the suit of its first card set aside (the turned
    card), or the one a :class:`TrumpCall` names. Strength orders the cards that may take a
    trick: a trump's is above every other card's.
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
    auction: CallAuction | TrumpCall | None = None  # the bidding before the first card, where there is one
    # Per variant and card, the suit it follows as where the trump makes that differ from ``suits``
    # (a trump of another suit's cards); empty: ``suits`` in every variant.
    follows: tuple[tuple[int, ...], ...] = ()
    # Per variant, the places in the deck of the trumps a hand need not give to a trump lead while it
    # holds no other trump, unless a stronger one of them was led (Ombre's matador privilege).
    privileged: tuple[int, ...] = ()
    forgotten: int = 0  # once this many tricks are played, they are gone from the table and from what seats see

    def follow_suits(self, variant: int) -> tuple[int, ...]:
        """Per card, the suit it follows as in ``variant``."""
        return self.follows[variant] if self.follows else self.suits

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
