"""The play of tricks that the games of the Tressette family share, for any number of seats.

Every game of the family follows suit, gives the trick to the strongest card of the suit led
(Tressette's order, 3 highest), counts card points in thirds and gives the last trick a point.
The cards set aside at the start (a widow, a discard, the cards left over after an even deal)
go to whoever takes the last trick. A deal of such a game subclasses :class:`TrickDeal`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypedDict

from osteria.cards import CARD_STRINGS, ITALIAN_40, RANKS, SUIT_MASK, cards_of
from osteria.engine import Deal, SeatCard, TakenTrick
from osteria.i18n import AtSeat, OfCard, OfSuit, Reason
from osteria.openplay import suit_chains
from osteria.trickplay import CallAuction, TrickPlay

# Taking order within a suit, lowest first: 4 5 6 7 F C R A 2 3.
ORDER = "4567FCRA23"
STRENGTH: Final = [0] * 52
for _s in range(4):
    for _i, _r in enumerate(ORDER):
        STRENGTH[_s * 13 + RANKS.index(_r)] = _i

# Points are counted in thirds: the ace is a whole point, twos, threes and figures a third.
THIRDS: Final = [0] * 52
for _c in ITALIAN_40.cards:
    THIRDS[_c] = {"A": 3, "2": 1, "3": 1, "F": 1, "C": 1, "R": 1}.get(RANKS[_c % 13], 0)
LAST_TRICK_THIRDS: Final = 3
# The share of a playout's cards played at random, so that the playouts of one sampled deal differ
# (``Deal.playout_action`` of Tressette and Traversone).
PLAYOUT_SLIP: Final = 0.2
# Per card, the cards of its suit that beat it.
STRONGER: Final = [sum(1 << x for x in ITALIAN_40.cards if x // 13 == c // 13 and STRENGTH[x] > STRENGTH[c])
            if (ITALIAN_40.mask >> c) & 1 else 0 for c in range(52)]
# The whole thirds of a deal: card points and the last trick's point.
DEAL_THIRDS: Final = sum(THIRDS) + LAST_TRICK_THIRDS
# The suits as the open-handed search orders them: by taking strength.
FAMILY_CHAINS = suit_chains(STRENGTH, ITALIAN_40.mask)


def family_trick_play(sides: Sequence[int], thirds: Sequence[int] = THIRDS, *, lead_card: int | None,
                      lower_wins: bool = False, hand_size: int | None = None,
                      auction: CallAuction | None = None) -> TrickPlay:
    """The family's card play as tables: the 40 cards dealt to the seats (``sides``: each one's
    side), as many each as go round or ``hand_size``, the rest set aside to the last trick's
    taker, the holder of ``lead_card`` leading (None: the dealer's right), the suit followed,
    points in thirds; ``auction``: the bidding before the first card."""
    deck = ITALIAN_40.cards
    return TrickPlay(seats=len(sides), deck=deck, hand_size=hand_size or len(deck) // len(sides),
                     suits=tuple(c // 13 for c in deck), values=(tuple(thirds[c] for c in deck),),
                     strengths=(tuple(STRENGTH[c] for c in deck),), trumps=(-1,), sides=tuple(sides), unit=3,
                     last_bonus=LAST_TRICK_THIRDS, lower_wins=lower_wins,
                     lead_card=-1 if lead_card is None else deck.index(lead_card), rest_to_last_taker=True,
                     auction=auction)


class PlayObservation(TypedDict):
    """The public part of the trick play in a deal's observation."""

    hand_sizes: list[int]
    leader: int
    trick: list[SeatCard]
    last_trick: TakenTrick | None
    tricks_played: int
    thirds: list[int]  # taken per seat, the set-aside cards not included


def trick_taker(trick: Sequence[int]) -> int:
    """The position in the trick of the card that takes it: the strongest of the suit led."""
    led = trick[0] // 13
    best = 0
    for i in range(1, len(trick)):
        if trick[i] // 13 == led and STRENGTH[trick[i]] > STRENGTH[trick[best]]:
            best = i
    return best


def playable(hand: int, trick: Sequence[int]) -> int:
    """The cards of a hand that may go to the trick: the suit led while the hand holds it."""
    if not trick:
        return hand
    return hand & SUIT_MASK[trick[0] // 13] or hand


def thirds_of(mask: int, thirds: Sequence[int] = THIRDS) -> int:
    return sum(thirds[c] for c in cards_of(mask))


def final_thirds(taken: Sequence[int], last_taker: int, set_aside_thirds: int) -> list[int]:
    """Thirds per seat at the end, from those taken in tricks: the last trick's point and the
    set-aside cards go to whoever took the last trick."""
    thirds = list(taken)
    thirds[last_taker] += LAST_TRICK_THIRDS + set_aside_thirds
    return thirds


def taker_of(c: int, won: Sequence[int], last_taker: int) -> int:
    """Who took card ``c`` by the end of the deal (``won``: each seat's cards taken in tricks);
    a set-aside card goes with the last trick."""
    return next((s for s, cards in enumerate(won) if cards >> c & 1), last_taker)


def rounded_points(thirds: Sequence[int], last_taker: int) -> list[int]:
    """Whole points from thirds: each party keeps its whole points, and the thirds that rounding
    leaves over go to the party that took the last trick, so no whole point of the deal is lost."""
    points = [t // 3 for t in thirds]
    points[last_taker] += sum(thirds) // 3 - sum(points)
    return points


class TrickDeal(Deal):
    """The trick play of a deal: hands as bitmasks, thirds taken per seat, the set-aside cards.

    A subclass sets its seats, hands and card points, calls :meth:`setup_play` with the hands as
    dealt, and may run a phase of its own (bidding, exchanges) before the first card; then
    :meth:`play_card` plays one card of the seat to move.
    """

    hands: list[int]
    card_thirds: Sequence[int]

    def setup_play(self, leader: int, set_aside: int) -> None:
        self.leader = leader  # of the current trick
        self.to_move = leader
        self.trick: list[int] = []
        self.tricks_done = 0
        self.tricks_total = self.hands[leader].bit_count()
        self.taken = [0] * self.seats  # thirds per seat, the set-aside cards not included
        self.won = [0] * self.seats  # the cards each seat has taken in tricks, as bitmasks
        self.set_aside = set_aside
        self.last_taker: int | None = None
        self.last_trick: tuple[int, tuple[int, ...], int] | None = None  # leader, cards, taker

    # A deal that is its card play alone (Traversone, the reduced games): its actions are the
    # cards; a deal with more (Calabresella's bidding) answers these itself.
    def legal(self) -> list[int]:
        return [] if self.to_move is None else self.playable_cards()

    def why_illegal(self, action: int) -> Reason:
        return self.card_problem(action) or Reason("{card} cannot be played now", card=OfCard(action))

    def perform(self, seat: int, action: int) -> None:
        self.play_card(action)

    def playable_cards(self) -> list[int]:
        assert self.to_move is not None
        return cards_of(playable(self.hands[self.to_move], self.trick))

    def card_problem(self, c: int) -> Reason | None:
        """Why the seat to move may not play card ``c`` now, or None."""
        seat = self.to_move
        if seat is None:
            return Reason("the deal is over")
        hand = self.hands[seat]
        if not hand >> c & 1:
            return Reason("{who} cannot play {card}: it is not in the hand", who=AtSeat(seat), card=OfCard(c))
        if self.trick:
            led = self.trick[0] // 13
            if c // 13 != led and hand & SUIT_MASK[led]:
                return Reason("{who} must follow suit: {card} is not {suit}", who=AtSeat(seat), card=OfCard(c),
                              suit=OfSuit(led))
        return None

    def play_card(self, c: int) -> None:
        seat = self.to_move
        assert seat is not None
        self.hands[seat] ^= 1 << c
        trick = self.trick
        trick.append(c)
        if len(trick) < self.seats:
            self.to_move = (seat + 1) % self.seats
            return
        taker = (self.leader + trick_taker(trick)) % self.seats
        self.taken[taker] += sum(self.card_thirds[x] for x in trick)
        for x in trick:
            self.won[taker] |= 1 << x
        self.last_trick = (self.leader, tuple(trick), taker)
        self.trick = []
        self.tricks_done += 1
        if self.tricks_done == self.tricks_total:
            self.last_taker = taker
            self.to_move = None
        else:
            self.leader = self.to_move = taker

    def final_thirds(self) -> list[int]:
        """Thirds per seat at the end: the last trick's point and the set-aside cards included."""
        assert self.last_taker is not None
        return final_thirds(self.taken, self.last_taker, thirds_of(self.set_aside, self.card_thirds))

    def taker_of(self, c: int) -> int:
        """Who took card ``c`` by the end of the deal (a set-aside card: the last trick's taker)."""
        assert self.last_taker is not None
        return taker_of(c, self.won, self.last_taker)

    def play_observation(self) -> PlayObservation:
        """The public part of the trick play."""
        n = self.seats
        obs: PlayObservation = {
            "hand_sizes": [h.bit_count() for h in self.hands],
            "leader": self.leader,
            "trick": [[(self.leader + i) % n, CARD_STRINGS[c]] for i, c in enumerate(self.trick)],
            "last_trick": None,
            "tricks_played": self.tricks_done,
            "thirds": list(self.taken),
        }
        if self.last_trick is not None:
            leader, cards, taker = self.last_trick
            obs["last_trick"] = {"cards": [[(leader + i) % n, CARD_STRINGS[c]] for i, c in enumerate(cards)],
                                 "winner": taker}
        return obs
