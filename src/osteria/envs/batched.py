"""Thousands of deals of a game's card play stepped at once, compiled with numba.

A :class:`BatchedGame` holds N deals of one game as numpy arrays (hands as int64 bitmasks over the
deck's cards, the trick, the leader, the seat to move, each side's units taken) and steps all of
them with one call into compiled code: ``step(actions)`` plays each deal's card for the seat to
move, then lets the seats played by a built-in policy (``random`` or ``rule``) play, inside the
same compiled loop, until an outside seat is to move again. A finished deal is scored (each
seat's side's points, or its margin), kept for inspection (``finished_hands``,
``finished_history``) and replaced at once by a new one, shuffled by that deal's own generator
(seeded from ``reset(seed)``), so every deal always has a seat to move.

The legal mask, the observation of the seat to move and the rewards are arrays the compiled code
writes in place: reading them copies nothing, and the next ``step`` overwrites them.

What it plays is the game's card play as its rules module describes it in tables
(:meth:`osteria.engine.Game.trick_play`, :mod:`osteria.trickplay`): Tressette, Traversone for
three to six and Sancagna. Every deal is the first of a match, as in the environments' one-deal
episodes. What a game adds to its card play (accusi, signals, cenni, the call-out) is its rules
module's alone and left out here; the tests hold this engine to the rules modules on the card
play, deal by deal.

numba and numpy are the optional ``fast`` extra: this module needs both.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numba
import numpy as np

from osteria.bots.solver_kernel import count_bits as _count
from osteria.bots.solver_kernel import lowest_bit as _lowest
from osteria.cards import CARD_STRINGS
from osteria.engine import JSON, RulesError
from osteria.rules import GAMES, batched_games
from osteria.trickplay import TrickPlay

MAX_SEATS = 6

# Who plays a seat: an outside caller through ``step``, or a policy inside the compiled loop.
OUTSIDE, RANDOM, RULE = 0, 1, 2
POLICIES = {"random": RANDOM, "rule": RULE}
REWARDS = ("points", "margin")

# The columns of the state matrix, one row per deal; a block of MAX_SEATS columns per seat (or side).
HANDS = 0  # each seat's hand
PLAYED = HANDS + MAX_SEATS  # the cards each seat has played in this deal, the current trick included
TRICK = PLAYED + MAX_SEATS  # each seat's card on the current trick, -1 where it has none
DEALT_HANDS = TRICK + MAX_SEATS  # the hands as dealt
TAKEN = DEALT_HANDS + MAX_SEATS  # each side's units taken so far
LEADER, TO_MOVE, ON_TRICK, TRICKS_DONE = range(TAKEN + MAX_SEATS, TAKEN + MAX_SEATS + 4)
VARIANT = TRICKS_DONE + 1  # the row of the card tables: the trump suit where it changes by deal
DEALER = VARIANT + 1  # -1 where it was not drawn, changing nothing (every card dealt, one leads)
REST = DEALER + 1  # the cards set aside
SHOWN = REST + 1  # those of them every seat sees
TURNED = SHOWN + 1  # the turned card (the first set aside) where it names the trump, else -1
COLUMNS = TURNED + 1

# A game's scalars and tables are one row of int64 (see ``_tables``); the rows of every game, seat
# count and choice of options are one module-level array, ``_TABLES``, which numba compiles in as
# a constant. The compiled code reads it by the row of its game (``tab``) as it would its own
# constants: arrays passed in would be read again after every write to the state, which might
# alias them, and a tuple of arrays costs a reference count at every read.

# The game's scalars, by place in its row.
(P_SEATS, P_CARDS, P_HAND, P_SIDES, P_UNIT, P_LAST_BONUS, P_MUST_TRUMP, P_LOWER_WINS, P_LEAD_CARD,
 P_REST_TO_LAST, P_TURNED_TRUMP, P_SHOWN, P_VARIANTS, P_MARGIN,
 P_OBS_HAND, P_OBS_TRICK, P_OBS_PLAYED, P_OBS_LEADER, P_OBS_POINTS, P_OBS_TRICKS, P_OBS_TRUMP, P_OBS_SHOWN,
 ) = range(22)

# Its tables follow at fixed places. Per card tables take STRIDE places (a deck's most cards) per variant.
STRIDE = 52
G_SUITS = 32  # per card, its suit
G_SUIT_BITS = G_SUITS + STRIDE  # per suit, its cards
G_TRUMPS = G_SUIT_BITS + 4  # per variant, its trump suit or -1
G_SIDES = G_TRUMPS + 4  # per seat, its side
G_VALUES = G_SIDES + MAX_SEATS  # per variant and card, what taking it counts
G_STRENGTHS = G_VALUES + 4 * STRIDE  # per variant and card
G_SCALES = G_STRENGTHS + 4 * STRIDE  # per variant, the deck's units (what taken units are divided by)
G_SIZE = G_SCALES + 4


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)

_jit = numba.njit(cache=True)
_inline = numba.njit(cache=True, inline="always")


@_inline
def _next_random(rng: Any, i: int) -> Any:
    """The next 64 bits of deal ``i``'s generator (splitmix64)."""
    z = rng[i] + _GOLDEN
    rng[i] = z
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@_inline
def _below(rng: Any, i: int, n: int) -> int:
    """A uniform integer from 0 to ``n`` - 1 from deal ``i``'s generator."""
    return np.int64(((_next_random(rng, i) >> _S32) * np.uint64(n)) >> _S32)  # type: ignore[return-value]


@_inline
def _nth_card(cards: int, k: int) -> int:
    """The ``k``-th card (from 0, in deck order) of a set."""
    for _ in range(k):
        cards &= cards - 1
    return _lowest(cards)


@_inline
def _value(tab: int, v: int, c: int) -> int:
    """What taking card ``c`` counts, in variant ``v``."""
    return _TABLES[tab, G_VALUES + STRIDE * v + c]  # type: ignore[no-any-return]


@_inline
def _strength(tab: int, v: int, c: int) -> int:
    return _TABLES[tab, G_STRENGTHS + STRIDE * v + c]  # type: ignore[no-any-return]


@_inline
def _after(seat: int, k: int, seats: int) -> int:
    """The seat ``k`` places after ``seat`` (0 <= k < seats): a compare, not a division."""
    s = seat + k
    return s - seats if s >= seats else s


@_inline
def _legal(tab: int, state: Any, i: int) -> int:
    """The cards the seat to move in deal ``i`` may play: the suit led while it holds any, else
    a trump where it must trump, else any."""
    hand = state[i, HANDS + state[i, TO_MOVE]]
    if state[i, ON_TRICK] == 0:
        return hand  # type: ignore[no-any-return]
    follow = hand & _TABLES[tab, G_SUIT_BITS + _TABLES[tab, G_SUITS + state[i, TRICK + state[i, LEADER]]]]
    if follow:
        return follow  # type: ignore[no-any-return]
    trump = _TABLES[tab, G_TRUMPS + state[i, VARIANT]]
    if _TABLES[tab, P_MUST_TRUMP] and trump >= 0 and hand & _TABLES[tab, G_SUIT_BITS + trump]:
        return hand & _TABLES[tab, G_SUIT_BITS + trump]  # type: ignore[no-any-return]
    return hand  # type: ignore[no-any-return]


@_inline
def _beats(tab: int, v: int, c: int, best: int, led: int) -> bool:
    """Whether card ``c`` takes the trick from ``best`` (a card of the suit led or a trump):
    only those two suits can take, and a trump's strength is above every other card's."""
    s = _TABLES[tab, G_SUITS + c]
    return (s == led or s == _TABLES[tab, G_TRUMPS + v]) and _strength(tab, v, c) > _strength(tab, v, best)


@_inline
def _taker(tab: int, state: Any, i: int) -> int:
    """The seat whose card takes the trick so far."""
    seats = _TABLES[tab, P_SEATS]
    v = state[i, VARIANT]
    leader = state[i, LEADER]
    best = leader
    led = _TABLES[tab, G_SUITS + state[i, TRICK + leader]]
    for k in range(1, state[i, ON_TRICK]):
        seat = _after(leader, k, seats)
        if _beats(tab, v, state[i, TRICK + seat], state[i, TRICK + best], led):
            best = seat
    return best  # type: ignore[no-any-return]


@_jit
def _deal(tab: int, state: Any, rng: Any, i: int, deck: Any) -> None:
    """A new deal in row ``i``: the cards shuffled by its generator, the hands dealt in turn, the
    rest set aside; the trump turned where the game turns it, and the first leader."""
    seats, cards, hand_size = _TABLES[tab, P_SEATS], _TABLES[tab, P_CARDS], _TABLES[tab, P_HAND]
    for k in range(cards):
        deck[k] = k
    for k in range(cards - 1, 0, -1):
        j = _below(rng, i, k + 1)
        deck[k], deck[j] = deck[j], deck[k]
    leader = -1
    for seat in range(seats):
        hand = 0
        for k in range(hand_size * seat, hand_size * seat + hand_size):
            hand |= 1 << deck[k]
        state[i, HANDS + seat] = hand
        state[i, DEALT_HANDS + seat] = hand
        state[i, PLAYED + seat] = 0
        state[i, TRICK + seat] = -1
        if _TABLES[tab, P_LEAD_CARD] >= 0 and hand >> _TABLES[tab, P_LEAD_CARD] & 1:
            leader = seat
    dealt = seats * hand_size
    rest = shown = 0
    for k in range(dealt, cards):
        rest |= 1 << deck[k]
        if _TABLES[tab, P_SHOWN] >> (k - dealt) & 1:
            shown |= 1 << deck[k]
    state[i, REST] = rest
    state[i, SHOWN] = shown
    state[i, TURNED] = deck[dealt] if _TABLES[tab, P_TURNED_TRUMP] else -1
    state[i, VARIANT] = _TABLES[tab, G_SUITS + deck[dealt]] if _TABLES[tab, P_TURNED_TRUMP] else 0
    # The dealer is drawn only where the deal can need him: every card dealt and one of them
    # leading, it changes nothing (and the deals of those games stay as they were).
    state[i, DEALER] = -1
    if leader < 0 or rest:
        state[i, DEALER] = _below(rng, i, seats)
        if leader < 0:
            leader = _after(state[i, DEALER], 1, seats)
    state[i, LEADER] = leader
    state[i, TO_MOVE] = leader
    state[i, ON_TRICK] = 0
    state[i, TRICKS_DONE] = 0
    for side in range(_TABLES[tab, P_SIDES]):
        state[i, TAKEN + side] = 0


@_inline
def _play(tab: int, state: Any, history: Any, i: int, c: int) -> bool:
    """The seat to move in deal ``i`` plays card ``c``; whether that ended the deal."""
    seats = _TABLES[tab, P_SEATS]
    seat = state[i, TO_MOVE]
    state[i, HANDS + seat] ^= 1 << c
    state[i, PLAYED + seat] |= 1 << c
    state[i, TRICK + seat] = c
    history[i, seats * state[i, TRICKS_DONE] + state[i, ON_TRICK]] = c
    state[i, ON_TRICK] += 1
    if state[i, ON_TRICK] < seats:
        state[i, TO_MOVE] = _after(seat, 1, seats)
        return False
    v = state[i, VARIANT]
    winner = _taker(tab, state, i)
    gained = 0
    for s in range(seats):
        gained += _value(tab, v, state[i, TRICK + s])
        state[i, TRICK + s] = -1
    state[i, ON_TRICK] = 0
    state[i, TRICKS_DONE] += 1
    last = state[i, TRICKS_DONE] == _TABLES[tab, P_HAND]
    if last:
        gained += _TABLES[tab, P_LAST_BONUS]
        if _TABLES[tab, P_REST_TO_LAST]:
            rest = state[i, REST]
            while rest:
                gained += _value(tab, v, _lowest(rest))
                rest &= rest - 1
    state[i, TAKEN + _TABLES[tab, G_SIDES + winner]] += gained
    state[i, LEADER] = winner
    state[i, TO_MOVE] = winner
    return last  # type: ignore[no-any-return]


@_inline
def _order(tab: int, v: int, c: int, valued: bool) -> int:
    """A card's order for the rule-based player: by its value first, then its strength, or by
    its strength alone."""
    return _value(tab, v, c) * 256 + _strength(tab, v, c) if valued else _strength(tab, v, c)


@_inline
def _extreme(tab: int, v: int, cards: int, highest: bool, valued: bool) -> int:
    """The card of a set first (or last) in that order: with ``valued``, the most (or the least)
    value, then the strongest (or weakest); without, the strongest (or weakest)."""
    best = _lowest(cards)
    cards &= cards - 1
    while cards:
        c = _lowest(cards)
        cards &= cards - 1
        key, best_key = _order(tab, v, c, valued), _order(tab, v, best, valued)
        if key > best_key if highest else key < best_key:
            best = c
    return best


@_inline
def _rule_card(tab: int, state: Any, i: int, legal: int) -> int:
    """The rule-based player's card.

    Where points are wanted: lead the cheapest card of the longest suit; not following and
    unable to take, give the least; load a partner's trick with the best points; take a trick
    worth taking (or when last) with the weakest card that takes it; else give the least.
    Where points are poison: lead the least; not following, throw the most; under the taker,
    play the strongest card that stays under; forced to take, take with the strongest when last
    (the trick is lost anyway), else with the weakest (someone may still go over)."""
    v = state[i, VARIANT]
    seat = state[i, TO_MOVE]
    lower = _TABLES[tab, P_LOWER_WINS]
    if state[i, ON_TRICK] == 0:
        if lower:
            return _extreme(tab, v, legal, False, True)
        longest = 0
        for s in range(4):
            if _count(legal & _TABLES[tab, G_SUIT_BITS + s]) > _count(legal & _TABLES[tab, G_SUIT_BITS + longest]):
                longest = s
        return _extreme(tab, v, legal & _TABLES[tab, G_SUIT_BITS + longest], False, True)
    leader = state[i, LEADER]
    led = _TABLES[tab, G_SUITS + state[i, TRICK + leader]]
    taker = _taker(tab, state, i)
    best = state[i, TRICK + taker]
    takers = 0
    cards = legal
    while cards:
        c = _lowest(cards)
        cards &= cards - 1
        if _beats(tab, v, c, best, led):
            takers |= 1 << c
    following = legal & _TABLES[tab, G_SUIT_BITS + led] != 0
    last = state[i, ON_TRICK] == _TABLES[tab, P_SEATS] - 1
    if lower:
        if not following and takers == 0:
            return _extreme(tab, v, legal, True, True)
        under = legal & ~takers
        if under:
            return _extreme(tab, v, under, True, False)
        return _extreme(tab, v, legal, True, True) if last else _extreme(tab, v, takers, False, False)
    if not following and takers == 0:
        return _extreme(tab, v, legal, False, True)
    if _TABLES[tab, G_SIDES + taker] == _TABLES[tab, G_SIDES + seat]:
        return _extreme(tab, v, legal, True, True)
    worth = 0
    for k in range(state[i, ON_TRICK]):
        worth += _value(tab, v, state[i, TRICK + _after(leader, k, _TABLES[tab, P_SEATS])])
    if takers and (worth > 0 or last):
        return _extreme(tab, v, takers, False, False)
    return _extreme(tab, v, legal, False, True)


@_inline
def _policy_card(tab: int, state: Any, rng: Any, i: int, policy: int) -> int:
    legal = _legal(tab, state, i)
    if policy == RULE:
        return _rule_card(tab, state, i, legal)
    return _nth_card(legal, _below(rng, i, _count(legal)))


@_inline
def _end_deal(tab: int, state: Any, rng: Any, history: Any, finished: Any, finished_history: Any, rewards: Any,
              terminated: Any, i: int, deck: Any) -> None:
    """Score deal ``i``, keep it in the finished arrays, and deal the next one.

    Each side keeps its whole points, and the rounding's remainder goes to the side that took
    the last trick, so no whole point of the deal is lost. A margin is the side's points less
    the other sides' mean (the other way round where points are poison)."""
    sides, unit = _TABLES[tab, P_SIDES], _TABLES[tab, P_UNIT]
    total = whole = 0
    for side in range(sides):
        total += state[i, TAKEN + side]
        whole += state[i, TAKEN + side] // unit
    all_points = total // unit
    last_side = _TABLES[tab, G_SIDES + state[i, LEADER]]
    for seat in range(_TABLES[tab, P_SEATS]):
        side = _TABLES[tab, G_SIDES + seat]
        own = state[i, TAKEN + side] // unit + (all_points - whole if side == last_side else 0)
        if _TABLES[tab, P_MARGIN]:
            margin = own - (all_points - own) / (sides - 1)
            rewards[i, seat] = -margin if _TABLES[tab, P_LOWER_WINS] else margin
        else:
            rewards[i, seat] = own
    _keep_finished(tab, state, i, finished)
    for k in range(history.shape[1]):
        finished_history[i, k] = history[i, k]
    terminated[i] = True
    _deal(tab, state, rng, i, deck)


@_inline
def _keep_finished(tab: int, state: Any, i: int, finished: Any) -> None:
    """Keep how deal ``i`` was dealt: the hands, then its dealer, its cards set aside and its
    turned card (the columns of ``finished``)."""
    seats = _TABLES[tab, P_SEATS]
    for seat in range(seats):
        finished[i, seat] = state[i, DEALT_HANDS + seat]
    finished[i, seats] = state[i, DEALER]
    finished[i, seats + 1] = state[i, REST]
    finished[i, seats + 2] = state[i, TURNED]


@_inline
def _run_policies(tab: int, state: Any, rng: Any, history: Any, finished: Any, finished_history: Any,
                  rewards: Any, terminated: Any, i: int, policies: Any, deck: Any) -> int:
    """The built-in policies play deal ``i`` until an outside seat is to move (dealing anew when a
    deal ends); the cards they played."""
    played = 0
    while policies[state[i, TO_MOVE]] != OUTSIDE:
        played += 1
        if _play(tab, state, history, i, _policy_card(tab, state, rng, i, policies[state[i, TO_MOVE]])):
            _end_deal(tab, state, rng, history, finished, finished_history, rewards, terminated, i, deck)
    return played


@_inline
def _observe(tab: int, state: Any, i: int, observation: Any, mask: Any) -> None:
    """Write deal ``i``'s legal mask and the observation of its seat to move, seats (and sides)
    counted from it."""
    seats, cards = _TABLES[tab, P_SEATS], _TABLES[tab, P_CARDS]
    me = state[i, TO_MOVE]
    v = state[i, VARIANT]
    # The offsets read once: the compiled code cannot know that writing the row leaves them be.
    at_hand, at_trick, at_played = _TABLES[tab, P_OBS_HAND], _TABLES[tab, P_OBS_TRICK], _TABLES[tab, P_OBS_PLAYED]
    row = observation[i]
    row[:] = 0.0
    legal = _legal(tab, state, i)
    mask[i, :] = False
    while legal:
        mask[i, _lowest(legal)] = True
        legal &= legal - 1
    hand = state[i, HANDS + me]
    while hand:
        c = _lowest(hand)
        hand &= hand - 1
        row[at_hand + c] = 1.0
    for k in range(seats):
        seat = _after(me, k, seats)
        c = state[i, TRICK + seat]
        if c >= 0:
            row[at_trick + cards * k + c] = 1.0
        played = state[i, PLAYED + seat]
        while played:
            c = _lowest(played)
            played &= played - 1
            row[at_played + cards * k + c] = 1.0
    row[_TABLES[tab, P_OBS_LEADER] + _after(state[i, LEADER], seats - me, seats)] = 1.0
    scale = _TABLES[tab, G_SCALES + v]
    for k in range(_TABLES[tab, P_SIDES]):
        side = _TABLES[tab, G_SIDES + _after(me, k, seats)]
        row[_TABLES[tab, P_OBS_POINTS] + k] = state[i, TAKEN + side] / scale
    row[_TABLES[tab, P_OBS_TRICKS]] = state[i, TRICKS_DONE] / _TABLES[tab, P_HAND]
    if _TABLES[tab, P_OBS_TRUMP] >= 0:
        row[_TABLES[tab, P_OBS_TRUMP] + _TABLES[tab, G_TRUMPS + v]] = 1.0
    if _TABLES[tab, P_OBS_SHOWN] >= 0:
        shown = state[i, SHOWN]
        while shown:
            c = _lowest(shown)
            shown &= shown - 1
            row[_TABLES[tab, P_OBS_SHOWN] + c] = 1.0


@_jit
def _reset(tab: int, state: Any, rng: Any, history: Any, finished: Any, finished_history: Any, rewards: Any,
           terminated: Any, policies: Any, observation: Any, mask: Any) -> None:
    deck = np.empty(_TABLES[tab, P_CARDS], dtype=np.int64)
    for i in range(state.shape[0]):
        _deal(tab, state, rng, i, deck)
        _run_policies(tab, state, rng, history, finished, finished_history, rewards, terminated, i, policies, deck)
        _observe(tab, state, i, observation, mask)


@_jit
def _observe_all(tab: int, state: Any, observation: Any, mask: Any) -> None:
    for i in range(state.shape[0]):
        _observe(tab, state, i, observation, mask)


@_inline
def _is_legal(tab: int, state: Any, i: int, c: int) -> bool:
    return 0 <= c < _TABLES[tab, P_CARDS] and (_legal(tab, state, i) >> c) & 1 == 1


@_jit
def _first_illegal(tab: int, state: Any, actions: Any) -> int:
    """The first deal whose action is not a legal card, or -1."""
    for i in range(state.shape[0]):
        if not _is_legal(tab, state, i, actions[i]):
            return i
    return -1


@_jit
def _step(tab: int, state: Any, rng: Any, history: Any, finished: Any, finished_history: Any, rewards: Any,
          terminated: Any, illegal: Any, policies: Any, illegal_reward: float, actions: Any,
          observation: Any, mask: Any) -> int:
    """Every deal plays its action, then its built-in policies; the cards played in all. An
    illegal action ends its deal with ``illegal_reward`` for the seat that chose it."""
    seats = _TABLES[tab, P_SEATS]
    deck = np.empty(_TABLES[tab, P_CARDS], dtype=np.int64)
    played = 0
    for i in range(state.shape[0]):
        terminated[i] = False
        illegal[i] = False
        for seat in range(seats):
            rewards[i, seat] = 0.0
        c = actions[i]
        if not _is_legal(tab, state, i, c):
            illegal[i] = True
            terminated[i] = True
            rewards[i, state[i, TO_MOVE]] = illegal_reward
            for k in range(history.shape[1]):
                finished_history[i, k] = -1
            _keep_finished(tab, state, i, finished)
            _deal(tab, state, rng, i, deck)
        else:
            played += 1
            if _play(tab, state, history, i, c):
                _end_deal(tab, state, rng, history, finished, finished_history, rewards, terminated, i, deck)
        played += _run_policies(tab, state, rng, history, finished, finished_history, rewards, terminated, i,
                                policies, deck)
        _observe(tab, state, i, observation, mask)
    return played


@_jit
def _playout(tab: int, state: Any, rng: Any, history: Any, finished: Any, finished_history: Any, rewards: Any,
             terminated: Any, every_seat: Any, policies: Any, cards: int, observation: Any, mask: Any) -> None:
    """``cards`` cards of every deal played by the policies ``every_seat`` of all the seats;
    then the deal's own policies play up to an outside seat, whose observation is written."""
    deck = np.empty(_TABLES[tab, P_CARDS], dtype=np.int64)
    for i in range(state.shape[0]):
        terminated[i] = False
        for _ in range(cards):
            if _play(tab, state, history, i, _policy_card(tab, state, rng, i, every_seat[state[i, TO_MOVE]])):
                _end_deal(tab, state, rng, history, finished, finished_history, rewards, terminated, i, deck)
        _run_policies(tab, state, rng, history, finished, finished_history, rewards, terminated, i, policies, deck)
        _observe(tab, state, i, observation, mask)


def observation_layout(play: TrickPlay) -> tuple[tuple[str, int, tuple[int, ...], str], ...]:
    """The blocks of a game's observation: (name, offset, shape, meaning), seats counted from
    the seat to move (position k: k places after it), and so its side and the others."""
    n, cards, sides = play.seats, play.cards, play.side_count
    blocks: list[tuple[str, tuple[int, ...], str]] = [
        ("hand", (cards,), "the cards in the seat's hand"),
        ("trick", (n, cards), "the current trick: the card each seat has put on it"),
        ("played", (n, cards), "the cards each seat has played in this deal, this trick's included"),
        ("trick_leader", (n,), "who led the current trick"),
        ("side_points", (sides,), "units taken so far by the seat's side and the others, divided by "
                                  "the deck's (the last trick's bonus included)"),
        ("tricks_played", (1,), f"tricks played, divided by {play.tricks}"),
    ]
    if len(play.trumps) > 1:
        blocks.append(("trump", (4,), "the trump suit"))
    if play.shown:
        blocks.append(("shown", (cards,), "the cards set aside that every seat sees"))
    layout = []
    offset = 0
    for name, shape, meaning in blocks:
        layout.append((name, offset, shape, meaning))
        offset += int(np.prod(shape))
    return tuple(layout)


def _tables(play: TrickPlay, margin: bool) -> np.ndarray:
    """The game's scalars and tables in the one array the compiled code reads."""
    layout = {name: offset for name, offset, _, _ in observation_layout(play)}
    g = np.full(G_SIZE, -1, dtype=np.int64)
    g[P_SEATS], g[P_CARDS], g[P_HAND] = play.seats, play.cards, play.hand_size
    g[P_SIDES], g[P_UNIT], g[P_LAST_BONUS] = play.side_count, play.unit, play.last_bonus
    g[P_MUST_TRUMP], g[P_LOWER_WINS] = play.must_trump, play.lower_wins
    g[P_LEAD_CARD], g[P_REST_TO_LAST] = play.lead_card, play.rest_to_last_taker
    g[P_TURNED_TRUMP], g[P_SHOWN] = play.turned_trump, sum(1 << k for k in play.shown)
    g[P_VARIANTS], g[P_MARGIN] = len(play.trumps), margin
    for name, index in (("hand", P_OBS_HAND), ("trick", P_OBS_TRICK), ("played", P_OBS_PLAYED),
                        ("trick_leader", P_OBS_LEADER), ("side_points", P_OBS_POINTS),
                        ("tricks_played", P_OBS_TRICKS), ("trump", P_OBS_TRUMP), ("shown", P_OBS_SHOWN)):
        g[index] = layout.get(name, -1)
    g[G_SUITS:G_SUITS + play.cards] = play.suits
    for suit in range(4):
        g[G_SUIT_BITS + suit] = sum(1 << c for c in range(play.cards) if play.suits[c] == suit)
    for v, trump in enumerate(play.trumps):
        g[G_TRUMPS + v] = trump
        g[G_VALUES + STRIDE * v:G_VALUES + STRIDE * v + play.cards] = play.values[v]
        g[G_STRENGTHS + STRIDE * v:G_STRENGTHS + STRIDE * v + play.cards] = play.strengths[v]
        g[G_SCALES + v] = play.deck_units(v)
    g[G_SIDES:G_SIDES + play.seats] = play.sides
    return g


def _every_table() -> np.ndarray:
    """The rows of every game the engine plays, at every seat count, with every choice of the
    options that have choices (the others at their defaults), with and without margins: each
    distinct row once."""
    rows: dict[bytes, np.ndarray] = {}
    for name in batched_games():
        game = GAMES[name]
        chosen = [spec for spec in game.option_specs if spec.choices is not None]
        for seats in game.seat_counts:
            for values in itertools.product(*(spec.choices or () for spec in chosen)):
                options = {spec.name: value for spec, value in zip(chosen, values, strict=True)}
                play = game(seats, **options).trick_play()
                if play is not None:
                    for margin in (False, True):
                        row = _tables(play, margin)
                        rows.setdefault(row.tobytes(), row)
    return np.stack(list(rows.values()))


_TABLES = _every_table()
_ROWS = {row.tobytes(): k for k, row in enumerate(_TABLES)}


@_jit
def _compiled_tables() -> Any:
    """The tables as the compiled code holds them (numba's cache may hold older ones)."""
    return _TABLES.copy()


_checked = False


def _row_of(tables: np.ndarray) -> int:
    """The row of these tables in ``_TABLES``. Where the compiled code holds other tables (a cache
    compiled before the rules changed) or lacks these (an option without choices that changes
    the tables), it is compiled anew with the tables as they are."""
    global _TABLES, _checked
    key = tables.tobytes()
    stale = not _checked and not np.array_equal(_compiled_tables(), _TABLES)
    _checked = True
    if key not in _ROWS:
        _ROWS[key] = len(_TABLES)
        _TABLES = np.vstack([_TABLES, tables])
        stale = True
    if stale:
        # The callees first: a caller compiles against the callee's code as it is then.
        for function in (_compiled_tables, _deal, _reset, _observe_all, _first_illegal, _step, _playout):
            function.recompile()
    return _ROWS[key]


def trick_play_of(game: str, seats: int | None = None, options: dict[str, JSON] | None = None) -> TrickPlay:
    """The card play of a game the batched engine plays, by its name, seats and options; a
    RulesError says why not for another."""
    if game not in GAMES:
        raise RulesError(f"unknown game {game!r}; the batched engine plays {', '.join(batched_games())}")
    play = GAMES[game](seats, **(options or {})).trick_play()
    if play is None:
        raise RulesError(f"the batched engine cannot play {game} with these options; it plays the card play "
                         f"of {', '.join(batched_games())}")
    if play.seats > MAX_SEATS or any(side != seat % play.side_count for seat, side in enumerate(play.sides)):
        raise RulesError(f"{game}: the batched engine seats at most {MAX_SEATS}, a side every so many seats")
    return play


class BatchedGame:
    """N deals of a game's card play, stepped together.

    ``game``, ``seats`` and ``options`` are as for a match (:func:`osteria.new_match`).
    ``outside`` are the seats whose cards come through :meth:`step` (the learner's; every seat
    for self-play); the others are played by ``opponents``: ``"random"`` (a uniform legal card)
    or ``"rule"`` (a rule-based player), one name for all or one per seat. ``reward`` is
    ``"points"`` (each seat's side's card points of the deal, poison where the game says so) or
    ``"margin"`` (its side's points less the other sides' mean, turned round where points are
    poison: more is better).

    Arrays, one row per deal, all written in place (read them, copy what must outlive a step):
    ``observation`` (N, ``observation_size``) float32 (``layout`` lists its blocks) and
    ``legal_mask`` (N, ``cards``) bool for the seat to move, ``to_move``, ``leader`` (N,),
    ``hands``, ``played`` (N, seats) int64 bitmasks (bit c: the card at deck position c),
    ``trick`` (N, seats) (each seat's card on the trick, -1 for none), ``taken`` (N, sides) in the
    game's units (thirds in the Tressette family), ``trump`` (N,) (the suit, -1 for none),
    ``dealer`` (N,) (-1 where none was drawn: every card dealt and one of them leading, the
    dealer changes nothing), ``rest`` and ``shown`` (N,) bitmasks of the cards set aside and of
    those of them every seat sees, ``turned`` (N,) the card that turned the trump (-1 for none),
    ``rewards`` (N, seats) float32 (nonzero only in the step a deal ended), ``terminated`` and
    ``illegal`` (N,) bool, and the deals that ended in the last step: ``finished_hands`` (N,
    seats) as dealt, ``finished_dealer``, ``finished_rest``, ``finished_turned`` and
    ``finished_history`` (N, cards played in a deal), their cards in playing order (all -1 for a
    deal that an illegal card ended).
    """

    def __init__(self, game: str, num_deals: int, *, seats: int | None = None, options: dict[str, JSON] | None = None,
                 outside: Sequence[int] = (0,), opponents: str | Sequence[str | None] = "random",
                 reward: str = "points", illegal_reward: float = -10.0, seed: int | None = None) -> None:
        play = trick_play_of(game, seats, options)
        n = play.seats
        if not isinstance(num_deals, int) or isinstance(num_deals, bool) or num_deals < 1:
            raise RulesError(f"num_deals must be a positive whole number, not {num_deals!r}")
        if not outside or any(not isinstance(s, int) or not 0 <= s < n for s in outside):
            raise RulesError(f"outside: one or more seats from 0 to {n - 1}, not {list(outside)!r}")
        if reward not in REWARDS:
            raise RulesError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        self.game = game
        self.trick_play = play
        self.seats = n
        self.cards = play.cards
        self.deck = play.deck
        self.layout = observation_layout(play)
        _, offset, shape, _ = self.layout[-1]
        self.observation_size = offset + int(np.prod(shape))
        self.num_deals = num_deals
        self.outside = tuple(sorted(set(outside)))
        self.policies = _policies(opponents, self.outside, n)
        self.margin = reward == "margin"
        self.illegal_reward = float(illegal_reward)
        self.tables = _tables(play, self.margin)
        self.tab = _row_of(self.tables)
        deal_cards = n * play.hand_size
        self.state = np.zeros((num_deals, COLUMNS), dtype=np.int64)
        self.rng = np.zeros(num_deals, dtype=np.uint64)
        self.history = np.full((num_deals, deal_cards), -1, dtype=np.int64)
        self.finished = np.zeros((num_deals, n + 3), dtype=np.int64)
        self.finished_history = np.full((num_deals, deal_cards), -1, dtype=np.int64)
        self.rewards = np.zeros((num_deals, n), dtype=np.float32)
        self.terminated = np.zeros(num_deals, dtype=np.bool_)
        self.illegal = np.zeros(num_deals, dtype=np.bool_)
        self.observation = np.zeros((num_deals, self.observation_size), dtype=np.float32)
        self.legal_mask = np.zeros((num_deals, self.cards), dtype=np.bool_)
        # Views of the state matrix: reading them copies nothing.
        self.hands = self.state[:, HANDS:HANDS + n]
        self.played = self.state[:, PLAYED:PLAYED + n]
        self.trick = self.state[:, TRICK:TRICK + n]
        self.leader = self.state[:, LEADER]
        self.to_move = self.state[:, TO_MOVE]
        self.taken = self.state[:, TAKEN:TAKEN + play.side_count]
        self.dealer = self.state[:, DEALER]
        self.shown = self.state[:, SHOWN]
        self.rest = self.state[:, REST]
        self.turned = self.state[:, TURNED]
        self.finished_hands = self.finished[:, :n]
        self.finished_dealer = self.finished[:, n]
        self.finished_rest = self.finished[:, n + 1]
        self.finished_turned = self.finished[:, n + 2]
        self.reset(seed)

    @property
    def trump(self) -> np.ndarray:
        """Each deal's trump suit, -1 for none (a new array)."""
        trumps: np.ndarray = self.tables[G_TRUMPS + self.state[:, VARIANT]]
        return trumps

    def reset(self, seed: int | None = None) -> None:
        """Deal every row anew; each deal's generator comes from ``seed`` (None: the system's)."""
        states = np.random.SeedSequence(seed).generate_state(self.num_deals, dtype=np.uint64)
        self.rng[:] = states
        self.rewards[:] = 0.0
        self.terminated[:] = False
        self.illegal[:] = False
        _reset(self.tab, self.state, self.rng, self.history, self.finished, self.finished_history,
               self.rewards, self.terminated, self.policies, self.observation, self.legal_mask)

    def step(self, actions: np.ndarray, *, strict: bool = False) -> int:
        """Each deal's seat to move plays ``actions[i]`` (a deck position), then the built-in
        policies play; the cards played in all. A card outside the mask ends its deal with
        ``illegal_reward`` and ``illegal[i]``; with ``strict``, nothing is played and a
        ``ValueError`` says which deal, which card and what was legal."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_deals,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions: one whole number per deal, shape ({self.num_deals},), "
                             f"not {actions.dtype} of shape {actions.shape}")
        actions = actions.astype(np.int64, copy=False)
        if strict:
            i = _first_illegal(self.tab, self.state, actions)
            if i >= 0:
                raise ValueError(self.illegal_message(i, int(actions[i])))
        played: int = _step(self.tab, self.state, self.rng, self.history, self.finished,
                            self.finished_history, self.rewards, self.terminated, self.illegal, self.policies,
                            self.illegal_reward, actions, self.observation, self.legal_mask)
        return played

    def observe(self) -> None:
        """Write the observations and masks anew from the state (after changing it by hand)."""
        _observe_all(self.tab, self.state, self.observation, self.legal_mask)

    def illegal_message(self, i: int, action: int) -> str:
        seat = int(self.to_move[i])
        legal = " ".join(self.card_name(int(c)) for c in np.flatnonzero(self.legal_mask[i]))
        chosen = (self.card_name(action) if 0 <= action < self.cards
                  else f"{action} (not a card: 0 to {self.cards - 1})")
        return f"deal {i}: seat {seat} may not play {chosen}; legal: {legal}"

    def playout(self, cards: int) -> None:
        """``cards`` cards of every deal played by built-in policies only, the outside seats
        included (they play at random): the engine's speed with no caller in the loop."""
        every_seat = np.where(self.policies == OUTSIDE, RANDOM, self.policies)
        _playout(self.tab, self.state, self.rng, self.history, self.finished, self.finished_history,
                 self.rewards, self.terminated, every_seat, self.policies, cards, self.observation, self.legal_mask)

    def card_name(self, position: int) -> str:
        """The osteria/1 notation of the card at a deck position: ``card_name(0)`` is ``Ad``."""
        return CARD_STRINGS[self.deck[int(position)]]

    def cards_of(self, cards: int) -> list[int]:
        """The rules' cards of a bitmask over deck positions (a hand, a trick's card as ``1 << c``)."""
        return [self.deck[p] for p in range(self.cards) if int(cards) >> p & 1]


class BatchedTressette(BatchedGame):
    """N deals of Tressette's card play (:class:`BatchedGame` for ``"tressette"``): 40 cards, the
    four of denari leading, points in thirds (``thirds``: the sides' thirds taken)."""

    def __init__(self, num_deals: int, **settings: Any) -> None:
        super().__init__("tressette", num_deals, **settings)
        self.thirds = self.taken


def _policies(opponents: str | Sequence[str | None], outside: Sequence[int], seats: int) -> np.ndarray:
    """Each seat's player: outside for the seats in ``outside``, else its policy by name (one
    for all, or one per seat)."""
    names = [opponents] * seats if isinstance(opponents, str) else list(opponents)
    if len(names) != seats:
        raise RulesError(f"opponents: one policy name or one per seat ({seats}), not {len(names)}")
    policies = np.zeros(seats, dtype=np.int64)
    for seat, name in enumerate(names):
        if seat in outside:
            continue
        if name not in POLICIES:
            raise RulesError(f"opponents: seat {seat} has {name!r}, not one of {', '.join(POLICIES)}")
        policies[seat] = POLICIES[name]
    return policies
