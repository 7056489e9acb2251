"""The play of the cards still to come with every hand open: what a double-dummy search needs
to know of a deal, and nothing of how it searches.

A game's deal describes its card play as one side against the other (``Deal.open_play``): the
hands, the trick so far, who may follow with what, who takes a trick, what each card is worth,
and how what a side gains turns into the seat's value, by the game's own scoring. The search
(:mod:`osteria.bots.solver`) asks nothing else of the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from osteria.cards import SUIT_MASK, cards_of

# The follow classes of a deck: per class its cards from the weakest to the strongest, and their mask.
Chains = list[tuple[tuple[int, ...], int]]


def chains_of(order: Sequence[Sequence[int]]) -> Chains:
    """The follow classes as (cards from weakest to strongest, their mask)."""
    return [(tuple(chain), sum(1 << c for c in chain)) for chain in order if chain]


def suit_chains(key: Sequence[int], deck: int) -> Chains:
    """The suits of ``deck`` as follow classes, each ordered by ``key`` (a card's strength)."""
    return chains_of([sorted(cards_of(deck & SUIT_MASK[s]), key=lambda c: key[c]) for s in range(4)])


@dataclass(frozen=True)
class SuitPlay:
    """A trick play that the compiled kernel (``osteria.bots.solver_kernel``) searches, in its
    terms: the follow classes are four (the chains, each from its weakest card up, at most 13
    cards: the suits, or as in Quattrigghiu the trump suit with the matadors of other suits and
    the other suits without them); a hand answers the class led, and one void in it trumps if it
    can where ``must_trump``; the highest trump takes the trick, else the strongest card of the
    class led; and the play is valued by its cards' values, each trick's ``trick_bonus`` and the
    last trick's bonus."""

    trump: int = -1  # the trump class (its chain's index); -1: none
    must_trump: bool = False
    # The cards that a hand whose cards of the class led are all among them need not play, unless
    # one of them stronger than one of its own was led (Quattrigghiu's matador privilege): the
    # strongest cards of the trump class.
    privileged: int = 0


@dataclass(frozen=True)
class OpenPlay:
    """The trick play still to come, with all hands open, as one side against the other.

    ``team[seat]`` says whether the seat plays for the side whose value is maximised, and
    ``gains[seat]`` whether what the seat takes counts to the gain (by default: the seats of
    that side). The search counts the gain still to come (a trick's ``values``, the
    ``last_bonus`` of the last one and a ``trick_bonus`` for each, to whoever takes it) and
    ``finish`` turns the total into the seat's value. ``no_merge`` holds the cards never taken
    as equivalent to another (they may be held back where their neighbours may not).
    """

    hands: Sequence[int]
    trick: Sequence[int]
    leader: int
    team: Sequence[bool]
    values: Sequence[int]
    chains: Chains
    follow: Callable[[int, list[int]], int]  # the cards of a hand that may go to a trick
    taker: Callable[[list[int]], int]  # the position in a whole trick of the card that takes it
    finish: Callable[[int], int]
    last_bonus: int = 0
    trick_bonus: int = 0
    no_merge: int = 0
    # Where points are poison (Traversone), the maximising side wants the others to take them:
    # ``gains`` are then the seats against it.
    gains: Sequence[bool] = ()
    # Whether the strongest live card of the suit led always takes the trick (no trumps), so
    # that what the leader can cash bounds the value (where its side wants what it takes).
    cashes: bool = False
    # The trick play in the compiled kernel's terms, where the kernel searches it; None: the
    # pure search alone (``follow`` and ``taker`` must say the same as this).
    suit_play: SuitPlay | None = None
    # Where the deal's playouts (``Deal.playout_action``) play the rest of the deal as this trick
    # play of four seats (no trumps: the strongest card of the suit led takes), each seat as the
    # careful player of ``osteria.bots.playout_kernel`` but for this share of its cards, played at
    # random, the kernel may play them instead (what else they do, as declaring an accuso still
    # to come, ``finish`` counts); None where they play otherwise.
    playout_slip: float | None = None
