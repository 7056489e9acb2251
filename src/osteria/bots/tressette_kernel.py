"""The Tressette rule-based player, compiled with numba, to read the play at a search's pace.

Reading the play (``osteria.bots.inference``) replays each sampled deal from its start and asks
the rule-based player, at each action of another seat, what it would have done there. Asked in
Python, through the seat's observation and its legal actions as strings, that costs some 0.3 to
1 ms a sampled deal, more than the search of the deal itself. This module counts, in one call, the
actions of a whole deal that the rule-based player (``osteria.bots.tressette``) would have chosen
otherwise, deciding as it decides, with its ties broken alike (the tests hold the two to the same
count on sampled deals):

- in the first trick, before its card, it declares the first accuso its hand holds and has not
  declared;
- leading, it returns to the suit its partner last asked for with busso, where it holds a card of
  it, with its strongest; else it leads the card worth most (the strongest of those) that no card
  still unseen beats; else the weakest card of its longest suit, a card worth nothing first;
- following, where its partner holds the trick and plays last, or no unseen card beats his, it
  gives the card worth most, from the suit it holds fewest of, the weakest of those; else it takes
  with its weakest card of the suit led that surely takes, where the trick holds points, the card
  is worth some or it plays last; else it sheds its card worth least, the weakest of those.

Cards are compared by their card, signals aside, as the reading compares them. A dummy's hand
lies open to every seat, and its partner decides for it, seeing his own hand besides.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from osteria.bots.playout_kernel import cheapest_card, longest_suit_lead, taking_place
from osteria.bots.solver_kernel import compiled, count_bits, lowest_bit
from osteria.cards import ITALIAN_40, SUIT_MASK
from osteria.rules.tressette import ACCUSI, ACCUSO_BASE, FOUR_MASK, SIGNAL_INDEX, SIGNAL_STRIDE
from osteria.rules.tressette_family import STRENGTH, STRONGER, THIRDS

_SEATS = 4
_DECK = ITALIAN_40.mask
_BUSSO = SIGNAL_INDEX["busso"]
_STRENGTH = np.array(STRENGTH, np.int64)
_THIRDS = np.array(THIRDS, np.int64)
_STRONGER = np.array(STRONGER, np.int64)
_SUITS = np.array(SUIT_MASK, np.int64)
# Each accuso's cards, and for a tris the four of its rank, which is declared instead.
_ACCUSO_CARDS = np.array([a.mask for a in ACCUSI], np.int64)
_ACCUSO_FOUR = np.array([FOUR_MASK[a.rank] if a.kind == "tris" else 0 for a in ACCUSI], np.int64)


@compiled("always")
def _accuso_due(hand: int, declared: int, cards: Any, four: Any) -> int:
    """The first accuso (its index) ``hand`` holds that is not among ``declared`` (a bitmask of
    indexes), or -1."""
    for i in range(cards.shape[0]):
        if hand & cards[i] == cards[i] and not (four[i] and hand & four[i] == four[i]) and not declared >> i & 1:
            return i
    return -1


@compiled("always")
def _rule_card(seat: int, hand: int, gone: int, visible: int, trick: Any, trick_seats: Any, n: int, busso_seats: Any,
               busso_suits: Any, bussi: int, strength: Any, thirds: Any, stronger: Any, suits: Any) -> int:
    """The card the rule-based player plays for ``seat`` from ``hand``, the ``n``-th to the trick,
    with the cards ``gone`` from play (the trick's among them), those in the hands ``visible`` to
    it, and the partners' busso leads so far."""
    partner = (seat + 2) % _SEATS
    unseen = _DECK & ~gone & ~hand & ~visible
    if n == 0:
        for k in range(bussi - 1, -1, -1):
            if busso_seats[k] == partner and hand & suits[busso_suits[k]]:
                mine = hand & suits[busso_suits[k]]
                best = -1
                while mine:
                    c = lowest_bit(mine)
                    mine &= mine - 1
                    if best < 0 or strength[c] > strength[best]:
                        best = c
                return best
        best, best_key = -1, -1
        left = hand
        while left:
            c = lowest_bit(left)
            left &= left - 1
            if thirds[c] and not stronger[c] & unseen and thirds[c] * 64 + strength[c] > best_key:
                best, best_key = c, thirds[c] * 64 + strength[c]
        if best >= 0:
            return best
        return longest_suit_lead(hand, thirds, strength, suits)
    led = trick[0] // 13
    taking = taking_place(trick, n, strength)
    holding = trick[taking]
    following = hand & suits[led]
    legal = following if following else hand
    last = n == _SEATS - 1
    if trick_seats[taking] == partner and (last or not stronger[holding] & unseen):
        best, best_key = -1, -(1 << 30)
        left = legal
        while left:
            c = lowest_bit(left)
            left &= left - 1
            key = (thirds[c] * 64 - count_bits(legal & suits[c // 13])) * 64 - strength[c]
            if key > best_key:
                best, best_key = c, key
        return best
    on_table = 0
    for i in range(n):
        on_table += thirds[trick[i]]
    best, worth = -1, False
    left = following
    while left:
        c = lowest_bit(left)
        left &= left - 1
        if strength[c] > strength[holding] and (last or not stronger[c] & unseen):
            worth = worth or thirds[c] > 0
            if best < 0 or strength[c] < strength[best]:
                best = c
    if best >= 0 and (on_table or worth or last):
        return best
    return cheapest_card(legal, thirds, strength)


@compiled()
def _surprises(dealt: Any, played: Any, observer: int, morto: int, stride: int, accuso_base: int, busso: int,
               strength: Any, thirds: Any, stronger: Any, suits: Any, accuso_cards: Any, accuso_four: Any,
               work: Any) -> int:
    """How many actions of the seats ``observer`` does not decide for the rule-based player would
    have chosen otherwise, replaying the deal dealt ``dealt`` through ``played``, each action's
    seat and number in turn; ``morto``: the dummies' seats, as a bitmask.
    ``work``: room for the hands, the trick and the busso leads (the kernel allocates nothing)."""
    hands = work[0:4]
    trick = work[4:8]
    trick_seats = work[8:12]
    declared = work[12:16]
    busso_seats = work[16:26]
    busso_suits = work[26:36]
    for s in range(_SEATS):
        hands[s] = dealt[s]
        declared[s] = 0
    n = tricks = bussi = gone = surprises = 0
    for i in range(0, played.shape[0], 2):
        seat, action = played[i], played[i + 1]
        decider = (seat + 2) % _SEATS if morto >> seat & 1 else seat
        if decider != observer:
            visible = hands[decider]
            for s in range(_SEATS):
                if morto >> s & 1:
                    visible |= hands[s]
            due = _accuso_due(hands[seat], declared[seat], accuso_cards, accuso_four) if tricks == 0 else -1
            if due >= 0:
                chosen = accuso_base + due
                surprises += chosen != action
            elif action >= accuso_base or _rule_card(
                    seat, hands[seat], gone, visible, trick, trick_seats, n, busso_seats, busso_suits, bussi, strength,
                    thirds, stronger, suits) != action % stride:
                surprises += 1
        if action >= accuso_base:
            declared[seat] |= 1 << (action - accuso_base)
            continue
        c = action % stride
        hands[seat] ^= 1 << c
        gone |= 1 << c
        trick[n], trick_seats[n] = c, seat
        if n == 0 and action // stride == busso:
            busso_seats[bussi], busso_suits[bussi] = seat, c // 13
            bussi += 1
        n += 1
        if n == _SEATS:
            n = 0
            tricks += 1
    return surprises


def surprises(dealt: Sequence[int], history: Sequence[tuple[int, int]], observer: int,
              morto: Sequence[int] = ()) -> int:
    """How many actions of ``history`` (seat, action) of the seats ``observer`` does not decide
    for, in the deal dealt as the bitmasks ``dealt`` with the dummies ``morto``, the rule-based
    player would have chosen otherwise."""
    played = np.fromiter(itertools.chain.from_iterable(history), np.int64, 2 * len(history))
    return int(_surprises(np.array(dealt, np.int64), played, observer, sum(1 << s for s in morto),
                          SIGNAL_STRIDE, ACCUSO_BASE, _BUSSO, _STRENGTH, _THIRDS, _STRONGER, _SUITS, _ACCUSO_CARDS,
                          _ACCUSO_FOUR, np.zeros(36, np.int64)))
