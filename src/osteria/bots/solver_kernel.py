"""The double-dummy search of the Tressette family's card play, compiled with numba.

It searches what :class:`osteria.bots.solver.Ending` searches in its additive form (follow
suit, the strongest card of the suit led takes the trick, card points and the last trick's
bonus, one side against the other) for three or four seats, and returns the same values: the
pure-Python search stays the reference, and the tests hold the two to agreement. It differs only
in how it runs: positions as int64 bitmasks in flat arrays, the moves of each ply in a
preallocated buffer, and the transposition table as open addressing in numpy arrays, where
each solve stamps its entries so that no table is cleared between solves.

numba is the optional ``fast`` extra, and so is numpy with it: this module needs both, and
the solver imports it only where it can (without them, it stays pure Python).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numba
import numpy as np

from osteria.bots.solver import step_to_test
from osteria.cards import SUIT_MASK
from osteria.rules.tressette_family import STRENGTH

# The most seats the kernel searches: a position's key is four hands and the leader.
MAX_SEATS = 4

_INF = 1 << 20
_PROBES = 4  # table slots tried for a position, from its hash on
_MAX_PLY = 64
# The scalars of a search, in one int64 array: nodes searched, the budget, whether it is spent,
# the stamp of this solve's table entries, the first ply, the best card there, a forced first card.
_NODES, _MAX_NODES, _SPENT, _STAMP, _ROOT, _BEST, _FORCED, _LAST_BONUS = range(8)
_SLOTS = 1 << 20


_step_to_test = numba.njit(cache=True)(step_to_test)


@numba.njit(cache=True)
def _slot(hands: Any, leader: int) -> int:
    h = leader + 0x1E3779B97F4A7C15
    for s in range(hands.shape[0]):
        h = (h ^ hands[s]) * 0x100000001B3
        h ^= h >> 29
    return h


@numba.njit(cache=True)
def _moves(hands: Any, seat: int, played: Any, ply: int, in_trick: int, leader: int, live: int,
           team: Any, values: Any, strength: Any, chains: Any, suit_masks: Any, out: Any, later: Any) -> int:
    """The moves of the seat, one of each run of equivalent cards, in the order to try them,
    written to ``out``; how many. Following, as :meth:`Ending.moves` orders them; leading, the
    partner's strongest cards count too."""
    n = hands.shape[0]
    hand = hands[seat]
    allowed = hand
    if in_trick:
        allowed = hand & suit_masks[played[ply - in_trick] // 13]
        if allowed == 0:
            allowed = hand
    count = 0
    for s in range(4):
        mine = allowed & suit_masks[s]
        if mine == 0:
            continue
        # From the strongest live card down: of a run of ours with one value, keep the weakest.
        top = -1  # the strongest live card of the suit
        first = count
        pending = -1
        for i in range(chains.shape[1] - 1, -1, -1):
            c = chains[s, i]
            if c < 0 or not (live >> c) & 1:
                continue
            if top < 0:
                top = c
            if (mine >> c) & 1:
                if pending >= 0 and values[pending] == values[c]:
                    pending = c
                    continue
                if pending >= 0:
                    out[count] = pending
                    count += 1
                pending = c
            elif pending >= 0:
                out[count] = pending
                count += 1
                pending = -1
        if pending >= 0:
            out[count] = pending
            count += 1
        if not in_trick:
            # Leads: where the seat holds the suit's strongest card, from the strongest down;
            # where its partner does, from the weakest up (the partner takes); then the others,
            # from the weakest up. The order is by ``later``, sorted stably below.
            holder = 0
            while not (hands[holder] >> top) & 1:
                holder += 1
            for i in range(first, count):
                c = out[i]
                if holder == seat:
                    later[i] = 9 - strength[c]
                elif team[holder] == team[seat]:
                    later[i] = 16 + strength[c]
                else:
                    later[i] = 41 + strength[c]
    if in_trick:
        # Following: first the cards that leave the trick to our side, the costliest first;
        # then the cheapest of the others.
        first = ply - in_trick
        led = played[first] // 13
        winning = 0
        for k in range(1, in_trick):
            c = played[first + k]
            if c // 13 == led and strength[c] > strength[played[first + winning]]:
                winning = k
        top_card = played[first + winning]
        ours = team[seat]
        for i in range(count):
            c = out[i]
            takes = c // 13 == led and strength[c] > strength[top_card]
            if takes or team[(leader + winning) % n] == ours:
                later[i] = 64 - values[c]
            else:
                later[i] = 128 + values[c]
    # A stable insertion sort by ``later``.
    for i in range(1, count):
        c = out[i]
        k = later[i]
        j = i - 1
        while j >= 0 and later[j] > k:
            out[j + 1] = out[j]
            later[j + 1] = later[j]
            j -= 1
        out[j + 1] = c
        later[j + 1] = k
    return count


@numba.njit(cache=True)
def _probe(hands: Any, leader: int, scalars: Any, keys: Any, bounds: Any, best_cards: Any, stamps: Any,
           found: Any) -> int:
    """The table slot of a position: its entry if the table holds one (``found[0]`` set to 1,
    its bounds and best card in ``found[1:4]``), else a free or a stale slot to take."""
    n = hands.shape[0]
    size: int = keys.shape[0]
    home = _slot(hands, leader) & (size - 1)
    stamp = scalars[_STAMP]
    free = -1
    for p in range(_PROBES):
        j = (home + p) & (size - 1)
        if stamps[j] != stamp:
            if free < 0:
                free = j
            continue
        same = keys[j, MAX_SEATS] == leader
        for s in range(n):
            if keys[j, s] != hands[s]:
                same = False
        if same:
            found[0] = 1
            found[1] = bounds[j, 0]
            found[2] = bounds[j, 1]
            found[3] = best_cards[j]
            return j
    found[0] = 0
    return home if free < 0 else free


@numba.njit(cache=True)
def _store(hands: Any, leader: int, rest: int, slot: int, value: int, alpha0: int, beta0: int, best: int,
           scalars: Any, keys: Any, bounds: Any, best_cards: Any, stamps: Any) -> None:
    """Tighten the bounds of a position in its slot (taking the slot over if another holds it)."""
    n = hands.shape[0]
    same = stamps[slot] == scalars[_STAMP] and keys[slot, MAX_SEATS] == leader
    for s in range(n):
        if keys[slot, s] != hands[s]:
            same = False
    if not same:
        stamps[slot] = scalars[_STAMP]
        for s in range(n):
            keys[slot, s] = hands[s]
        keys[slot, MAX_SEATS] = leader
        bounds[slot, 0] = 0
        bounds[slot, 1] = rest
    if value <= alpha0:
        bounds[slot, 1] = min(bounds[slot, 1], value)
    elif value >= beta0:
        bounds[slot, 0] = max(bounds[slot, 0], value)
    else:
        bounds[slot, 0] = value
        bounds[slot, 1] = value
    best_cards[slot] = best


@numba.njit(cache=True)
def _shape(hands: Any, live: int, chains: Any, values: Any, shape: Any) -> None:
    """The hands with the live cards of each suit moved, in order, to the weakest cards of the
    suit that carry the same values in the same order (each to the first card of its value
    past the previous one's place), into ``shape``: positions whose live cards have the same
    holders and values in the same order of strength play alike and share a table entry."""
    n = hands.shape[0]
    for s in range(n):
        shape[s] = hands[s]
    for s in range(chains.shape[0]):
        place = 0
        for i in range(chains.shape[1]):
            c = chains[s, i]
            if c < 0:
                break
            if not (live >> c) & 1:
                continue
            while values[chains[s, place]] != values[c]:
                place += 1
            target = chains[s, place]
            place += 1
            if target != c:
                holder = 0
                while not (hands[holder] >> c) & 1:
                    holder += 1
                shape[holder] ^= (1 << c) | (1 << target)


@numba.njit(cache=True)
def _sure(hands: Any, leader: int, live: int, values: Any, chains: Any, rest: int) -> int:
    """What the leader's side surely gains from here: the leader can cash, one after the
    other, the cards of each suit that are its strongest live ones (a card that is the
    strongest of the suit led takes the trick), and every trick it cashes takes what the
    others must play to it: of a suit in which it cashes k cards, a seat holding m cards of
    that suit plays at least min(k, m) of them, so at least the cheapest min(k, m). If the
    cashed cards are the leader's whole hand, it takes every trick, and all that is left."""
    n = hands.shape[0]
    hand = hands[leader]
    cashed = 0
    sure = 0
    for s in range(chains.shape[0]):
        k = 0
        for i in range(chains.shape[1] - 1, -1, -1):
            c = chains[s, i]
            if c < 0 or not (live >> c) & 1:
                continue
            if not (hand >> c) & 1:
                break
            cashed |= 1 << c
            sure += values[c]
            k += 1
        if k == 0:
            continue
        for t in range(n):
            if t == leader:
                continue
            # The cheapest min(k, m) cards of the seat's m in the suit: picked one by one.
            left = 0
            for i in range(chains.shape[1]):
                c = chains[s, i]
                if c >= 0 and (hands[t] >> c) & 1:
                    left |= 1 << c
            for _ in range(k):
                if left == 0:
                    break
                cheapest = -1
                for i in range(chains.shape[1]):
                    c = chains[s, i]
                    if c >= 0 and (left >> c) & 1 and (cheapest < 0 or values[c] < values[cheapest]):
                        cheapest = c
                left ^= 1 << cheapest
                sure += values[cheapest]
    return rest if cashed == hand else sure


# The frame of a ply of the search, a row of int64.
(_F_ALPHA, _F_BETA, _F_ALPHA0, _F_BETA0, _F_VALUE, _F_BEST, _F_COUNT, _F_INDEX, _F_LEADER, _F_IN_TRICK, _F_LIVE,
 _F_REST, _F_SLOT, _F_ADJUST, _F_HAND, _F_SEAT) = range(16)
_FRAME = 16
_ENTER, _NEXT, _RETURN = range(3)


@numba.njit(cache=True)
def _search(hands: Any, played: Any, root: int, in_trick: int, leader: int, live: int, rest: int,
            alpha: int, beta: int, team: Any, values: Any, strength: Any, chains: Any, suit_masks: Any,
            scalars: Any, frames: Any, move_buffer: Any, order_buffer: Any, keys: Any, bounds: Any, best_cards: Any,
            stamps: Any, shapes: Any) -> int:
    """Fail-soft alpha-beta on what the maximising side gains from here, as Ending.search, with
    the plies' frames in ``frames`` instead of the call stack (numba caches no recursive function)."""
    n = hands.shape[0]
    found = np.zeros(4, np.int64)
    ply = root
    state = _ENTER
    v = 0
    while True:
        if state == _ENTER:
            scalars[_NODES] += 1
            if scalars[_NODES] > scalars[_MAX_NODES]:
                scalars[_SPENT] = 1
                for p in range(ply - 1, root - 1, -1):
                    hands[frames[p, _F_SEAT]] = frames[p, _F_HAND]
                return 0
            state = _RETURN
            slot = -1
            table_best = -1
            lead_hand = hands[leader]
            if in_trick == 0 and lead_hand == 0:
                v = 0
            elif in_trick == 0 and lead_hand & (lead_hand - 1) == 0:
                # The last trick: every card is forced.
                winning_card = -1
                taker = leader
                for k in range(n):
                    s = (leader + k) % n
                    h = hands[s]
                    c = 0
                    while (h >> c) & 1 == 0:
                        c += 1
                    if winning_card < 0:
                        winning_card = c
                    elif c // 13 == winning_card // 13 and strength[c] > strength[winning_card]:
                        winning_card = c
                        taker = s
                v = rest if team[taker] else 0
            else:
                state = _NEXT
                # A first card forced at the root makes the root's value that card's, not the position's.
                if in_trick == 0 and not (ply == root and scalars[_FORCED] >= 0):
                    _shape(hands, live, chains, values, shapes[ply])
                    slot = _probe(shapes[ply], leader, scalars, keys, bounds, best_cards, stamps, found)
                    if found[0]:
                        lo, hi = found[1], found[2]
                    else:
                        sure = _sure(hands, leader, live, values, chains, rest)
                        lo, hi = (sure, rest) if team[leader] else (0, rest - sure)
                    table_best = found[3] if found[0] else -1
                    if lo >= beta:
                        v = lo
                        state = _RETURN
                    elif hi <= alpha:
                        v = hi
                        state = _RETURN
                    else:
                        alpha = max(alpha, lo)
                        beta = min(beta, hi)
            if state == _NEXT:
                seat = (leader + in_trick) % n
                out = move_buffer[ply]
                if ply == root and scalars[_FORCED] >= 0:
                    out[0] = scalars[_FORCED]
                    count = 1
                else:
                    count = _moves(hands, seat, played, ply, in_trick, leader, live, team, values, strength, chains,
                                   suit_masks, out, order_buffer[ply])
                    if table_best >= 0:
                        for i in range(count):
                            if out[i] == table_best:
                                for j in range(i, 0, -1):
                                    out[j] = out[j - 1]
                                out[0] = table_best
                                break
                frame = frames[ply]
                frame[_F_ALPHA] = alpha
                frame[_F_BETA] = beta
                frame[_F_ALPHA0] = alpha
                frame[_F_BETA0] = beta
                frame[_F_VALUE] = -_INF if team[seat] else _INF
                frame[_F_BEST] = -1
                frame[_F_COUNT] = count
                frame[_F_INDEX] = 0
                frame[_F_LEADER] = leader
                frame[_F_IN_TRICK] = in_trick
                frame[_F_LIVE] = live
                frame[_F_REST] = rest
                frame[_F_SLOT] = slot
                frame[_F_HAND] = hands[seat]
                frame[_F_SEAT] = seat
        elif state == _RETURN:
            # v is the value of the node at ply: back to its parent.
            if ply == root:
                return v
            ply -= 1
            frame = frames[ply]
            v += frame[_F_ADJUST]
            seat = frame[_F_SEAT]
            hands[seat] = frame[_F_HAND]
            if team[seat]:
                if v > frame[_F_VALUE]:
                    frame[_F_VALUE] = v
                    frame[_F_BEST] = played[ply]
                    frame[_F_ALPHA] = max(frame[_F_ALPHA], v)
            elif v < frame[_F_VALUE]:
                frame[_F_VALUE] = v
                frame[_F_BEST] = played[ply]
                frame[_F_BETA] = min(frame[_F_BETA], v)
            state = _NEXT
        else:
            # The next move of the node at ply, or its value once all are tried or one cuts off.
            frame = frames[ply]
            if frame[_F_INDEX] == frame[_F_COUNT] or frame[_F_ALPHA] >= frame[_F_BETA]:
                v = frame[_F_VALUE]
                if frame[_F_SLOT] >= 0:
                    _store(shapes[ply], frame[_F_LEADER], frame[_F_REST], frame[_F_SLOT], v, frame[_F_ALPHA0],
                           frame[_F_BETA0], frame[_F_BEST], scalars, keys, bounds, best_cards, stamps)
                if ply == root:
                    scalars[_BEST] = frame[_F_BEST]
                state = _RETURN
                continue
            c = move_buffer[ply, frame[_F_INDEX]]
            frame[_F_INDEX] += 1
            hands[frame[_F_SEAT]] = frame[_F_HAND] ^ (1 << c)
            played[ply] = c
            alpha = frame[_F_ALPHA]
            beta = frame[_F_BETA]
            leader = frame[_F_LEADER]
            live = frame[_F_LIVE]
            rest = frame[_F_REST]
            in_trick = frame[_F_IN_TRICK] + 1
            frame[_F_ADJUST] = 0
            if in_trick == n:
                first = ply + 1 - n
                led = played[first] // 13
                winning = 0
                gain = 0
                mask = 0
                for k in range(n):
                    x = played[first + k]
                    gain += values[x]
                    mask |= 1 << x
                    if k and x // 13 == led and strength[x] > strength[played[first + winning]]:
                        winning = k
                leader = (leader + winning) % n
                if hands[leader] == 0:
                    gain += scalars[_LAST_BONUS]
                in_trick = 0
                live ^= mask
                rest -= gain
                if team[leader]:
                    frame[_F_ADJUST] = gain
                    alpha -= gain
                    beta -= gain
            ply += 1
            state = _ENTER


@numba.njit(cache=True)
def _mtdf(hands: Any, played: Any, ply: int, in_trick: int, leader: int, live: int, rest: int, guess: int,
          steps: Any, team: Any, values: Any, strength: Any, chains: Any, suit_masks: Any, scalars: Any,
          frames: Any, move_buffer: Any, order_buffer: Any, keys: Any, bounds: Any, best_cards: Any,
          stamps: Any, shapes: Any) -> tuple[int, int]:
    """The gain to the precision of ``steps``, and a first card that reaches it (-1: any), as
    Ending.mtdf; (-1, -1) once the node budget is spent."""
    lo = 0
    hi = rest
    g = min(max(guess, lo), hi)
    found = -1
    scalars[_ROOT] = ply
    stride = 0
    while steps[lo] != steps[hi]:
        beta = _step_to_test(steps, lo, hi, g, stride)
        scalars[_BEST] = -1
        g = _search(hands, played, ply, in_trick, leader, live, rest, beta - 1, beta, team, values, strength,
                    chains, suit_masks, scalars, frames, move_buffer, order_buffer, keys, bounds, best_cards, stamps,
                    shapes)
        if scalars[_SPENT]:
            return -1, -1
        if g < beta:
            hi = g
            stride = 2 * stride if stride < 0 else -1
        else:
            lo = g
            stride = 2 * stride if stride > 0 else 1
            found = scalars[_BEST]
    return lo, found


# The one table of all solves, and the stamp of the latest.
_tables: dict[str, Any] = {}


def _table() -> dict[str, Any]:
    if not _tables:
        _tables.update(keys=np.zeros((_SLOTS, MAX_SEATS + 1), np.int64), bounds=np.zeros((_SLOTS, 2), np.int16),
                       best=np.zeros(_SLOTS, np.int8), stamps=np.zeros(_SLOTS, np.int32), stamp=0)
    return _tables


_STRENGTH = np.array(STRENGTH, np.int64)
_SUIT_MASKS = np.array(SUIT_MASK, np.int64)


def chain_table(chains: Sequence[Sequence[int]]) -> Any:
    """The cards of each suit from the weakest to the strongest, padded with -1."""
    table = np.full((4, 13), -1, np.int64)
    for s, chain in enumerate(chains):
        table[s, :len(chain)] = chain
    return table


class Search:
    """One open-handed position searched by the kernel: every search of it shares one stamp
    of the table (so what one search learns the next one uses) and one node count."""

    def __init__(self, hands: Sequence[int], trick: Sequence[int], leader: int, team: Sequence[bool],
                 values: Sequence[int], chains: Any, last_bonus: int, rest: int, steps: Sequence[int]) -> None:
        tables = _table()
        tables["stamp"] += 1
        if tables["stamp"] >= 1 << 31:  # the stamps wrap: forget every entry
            tables["stamps"][:] = 0
            tables["stamp"] = 1
        self.tables = tables
        self.hands = np.array(hands, np.int64)
        self.played = np.zeros(_MAX_PLY, np.int64)
        self.played[:len(trick)] = trick
        self.in_trick = len(trick)
        self.leader = leader
        self.live = int(sum(hands)) | sum(1 << c for c in trick)
        self.team = np.array(team, np.int64)
        self.values = np.zeros(64, np.int64)
        self.values[:len(values)] = values
        self.chains = chains
        self.rest = rest
        self.steps = np.array(steps, np.int64)
        self.scalars = np.zeros(8, np.int64)
        self.scalars[_STAMP] = tables["stamp"]
        self.scalars[_LAST_BONUS] = last_bonus
        self.frames = np.zeros((_MAX_PLY, _FRAME), np.int64)
        self.shapes = np.zeros((_MAX_PLY, len(hands)), np.int64)
        self.moves = np.zeros((_MAX_PLY, 16), np.int64)
        self.order = np.zeros((_MAX_PLY, 16), np.int64)
        self.nodes = 0

    def gain(self, guess: int, max_nodes: int, first: int = -1) -> tuple[int, int] | None:
        """The maximising side's gain to the precision of the steps, and a first card that
        reaches it (-1: any card does); with ``first``, after that card. None once the search
        has spent ``max_nodes`` nodes in all."""
        scalars, t = self.scalars, self.tables
        scalars[_NODES] = 0
        scalars[_MAX_NODES] = max_nodes - self.nodes
        scalars[_SPENT] = 0
        scalars[_FORCED] = first
        value, best = _mtdf(self.hands, self.played, self.in_trick, self.in_trick, self.leader, self.live, self.rest,
                            guess, self.steps, self.team, self.values, _STRENGTH, self.chains, _SUIT_MASKS, scalars,
                            self.frames, self.moves, self.order, t["keys"], t["bounds"], t["best"], t["stamps"],
                            self.shapes)
        self.nodes += int(scalars[_NODES])
        if scalars[_SPENT]:
            return None
        return int(value), int(best)
