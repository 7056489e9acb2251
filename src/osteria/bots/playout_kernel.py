"""A search's playouts of a trick play, compiled with numba: the careful player's card play.

Where a deal's playouts from here on play its open trick play (``OpenPlay.playout_slip``: the
Tressette family's play without trumps, where the strongest card of the suit led takes the
trick), each seat playing as a sound player does at first sight with every hand open, this
module plays them in compiled code, the same way: it leads the card worth most that surely
takes its trick (no card of its suit left to the others is stronger), else the weakest card of
its longest suit, a card worth nothing before one worth something; it gives the card worth
most (the weakest among those) to a partner whose card surely takes the trick; following suit,
it takes with its weakest card that surely takes; else it sheds its card worth least, the
weakest among those. A card in ``slip`` (a fifth in Tressette) is any legal one, drawn
uniformly among the cards, so that the playouts of one sampled deal differ. Ties go to the
lowest card number, as the rules module's ``playout_action`` breaks them, so that without slips
the two play the same cards (the tests hold them to it).

A sampled deal's candidate cards are played out together, each ``playouts`` times, in one call:
what a Python playout does in some 3 µs a card, the kernel does in some 16 ns,
so that a search's time early in the deal goes to sampling deals rather than to playing them.

numba is the optional ``fast`` extra: without it, the searches play their playouts in Python.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from osteria.bots.solver_kernel import compiled, count_bits, lowest_bit, next_random, nth_bit, random_below
from osteria.cards import SUIT_MASK
from osteria.openplay import OpenPlay

_SEATS = 4
_SUIT_MASKS = np.array(SUIT_MASK, dtype=np.int64)
_S11 = np.uint64(11)
_UNIT = 1.0 / (1 << 53)  # a uniform float in [0, 1) from the top 53 bits of 64


@compiled("always")
def _uniform(rng: Any) -> float:
    return float(next_random(rng, 0) >> _S11) * _UNIT


@compiled("always")
def taking_place(trick: Any, n: int, strength: Any) -> int:
    """The place in the trick of the card that holds it: the strongest of the suit led."""
    best = 0
    led = trick[0] // 13
    for i in range(1, n):
        c = trick[i]
        if c // 13 == led and strength[c] > strength[trick[best]]:
            best = i
    return best


@compiled("always")
def longest_suit_lead(hand: int, values: Any, strength: Any, suits: Any) -> int:
    """The weakest card of the hand's longest suit, a card worth nothing before one worth
    something; of equals, the lowest card."""
    best, best_key = -1, 1 << 30
    left = hand
    while left:
        c = lowest_bit(left)
        left &= left - 1
        key = (-count_bits(hand & suits[c // 13]) * 2 + (1 if values[c] > 0 else 0)) * 64 + strength[c]
        if key < best_key:
            best, best_key = c, key
    return best


@compiled("always")
def cheapest_card(cards: int, values: Any, strength: Any) -> int:
    """The card of ``cards`` worth least, the weakest of those; of equals, the lowest card."""
    best, best_key = -1, 1 << 30
    left = cards
    while left:
        c = lowest_bit(left)
        left &= left - 1
        key = values[c] * 64 + strength[c]
        if key < best_key:
            best, best_key = c, key
    return best


@compiled("always")
def _choose(hands: Any, trick: Any, n: int, leader: int, seat: int, team: Any, values: Any, strength: Any,
            stronger: Any, suits: Any, rng: Any, slip: float) -> int:
    """The careful player's card for ``seat``, the ``n``-th to play to the trick."""
    hand = hands[seat]
    legal = hand
    if n:
        follow = hand & suits[trick[0] // 13]
        if follow:
            legal = follow
    count = count_bits(legal)
    if count == 1:
        return lowest_bit(legal)
    if _uniform(rng) < slip:
        return nth_bit(legal, random_below(rng, 0, count))
    later = 0  # the cards of the seats still to play to this trick
    for k in range(1, _SEATS - n):
        later |= hands[(seat + k) % _SEATS]
    if n == 0:
        best, worth = -1, 0
        left = hand
        while left:
            c = lowest_bit(left)
            left &= left - 1
            if values[c] > worth and not stronger[c] & later:
                best, worth = c, values[c]
        if best >= 0:
            return best
        return longest_suit_lead(hand, values, strength, suits)
    place = taking_place(trick, n, strength)
    holding = trick[place]
    if team[(leader + place) % _SEATS] == team[seat] and not stronger[holding] & later:
        # A partner surely takes: the card worth most, the weakest of those.
        best, best_key = -1, -(1 << 30)
        left = legal
        while left:
            c = lowest_bit(left)
            left &= left - 1
            key = values[c] * 64 - strength[c]
            if key > best_key:
                best, best_key = c, key
        return best
    if legal & suits[trick[0] // 13]:
        best = -1
        left = legal
        while left:
            c = lowest_bit(left)
            left &= left - 1
            if strength[c] > strength[holding] and not stronger[c] & later and (
                    best < 0 or strength[c] < strength[best]):
                best = c
        if best >= 0:
            return best
    return cheapest_card(legal, values, strength)


@compiled()
def _playouts(hands0: Any, trick0: Any, n0: int, leader0: int, cards: Any, playouts: int, team: Any, values: Any,
              strength: Any, stronger: Any, suits: Any, last_bonus: int, rng: Any, slip: float, gains: Any,
              record: Any, hands: Any, trick: Any) -> None:
    """``gains[k, p]``: what the maximising side takes from here to the end when the seat to move
    plays ``cards[k]`` and every seat then plays as the careful player, in playout ``p``; where
    ``record`` has rows, the cards of each playout are written there (for the tests). ``hands``
    and ``trick``: room for a playout's hands and trick (the kernel allocates nothing)."""
    for k in range(cards.shape[0]):
        for p in range(playouts):
            for s in range(_SEATS):
                hands[s] = hands0[s]
            for i in range(n0):
                trick[i] = trick0[i]
            n, leader = n0, leader0
            seat = (leader + n) % _SEATS
            card = cards[k]
            gained = 0
            played = 0
            while True:
                if record.shape[0]:
                    record[k * playouts + p, played] = card
                played += 1
                hands[seat] ^= np.int64(1) << card
                trick[n] = card
                n += 1
                if n < _SEATS:
                    seat = (seat + 1) % _SEATS
                else:
                    taker = (leader + taking_place(trick, n, strength)) % _SEATS
                    points = values[trick[0]] + values[trick[1]] + values[trick[2]] + values[trick[3]]
                    last = hands[taker] == 0
                    if last:
                        points += last_bonus
                    if team[taker]:
                        gained += points
                    if last:
                        break
                    leader = seat = taker
                    n = 0
                card = _choose(hands, trick, n, leader, seat, team, values, strength, stronger, suits, rng, slip)
            gains[k, p] = gained


@functools.cache
def _tables(chains: tuple[tuple[tuple[int, ...], int], ...], values: tuple[int, ...]) -> tuple[Any, Any, Any]:
    """Each card's value, its place in its suit from the weakest (its strength), and the cards of
    its suit stronger than it, indexed by the card."""
    strength = np.zeros(64, np.int64)
    stronger = np.zeros(64, np.int64)
    for chain, _ in chains:
        for place, c in enumerate(chain):
            strength[c] = place
            stronger[c] = sum(1 << x for x in chain[place + 1:])
    worth = np.zeros(64, np.int64)
    worth[:len(values)] = values
    return worth, strength, stronger


def careful_gains(play: OpenPlay, cards: Sequence[int], playouts: int, seed: int, slip: float,
                  record: Any = None) -> Any:
    """What the maximising side of ``play`` takes from here to the end in ``playouts`` careful
    playouts after each of ``cards`` (the seat to move's), as an array of ``len(cards)`` rows;
    ``seed`` seeds the draws. ``record``, an int64 array of a row per playout (cards, then
    playouts) and a column per card left, gets the cards each playout played."""
    worth, strength, stronger = _tables(tuple(play.chains), tuple(play.values))
    hands = np.array(play.hands, np.int64)
    trick = np.zeros(_SEATS, np.int64)
    trick[:len(play.trick)] = play.trick
    team = np.array(play.team, np.bool_)
    gains = np.empty((len(cards), playouts), np.int64)
    rng = np.array([seed], np.uint64)
    _playouts(hands, trick, len(play.trick), play.leader, np.array(cards, np.int64), playouts, team, worth,
              strength, stronger, _SUIT_MASKS, play.last_bonus, rng, slip, gains,
              np.zeros((0, 0), np.int64) if record is None else record, np.empty(_SEATS, np.int64),
              np.empty(_SEATS, np.int64))
    return gains
