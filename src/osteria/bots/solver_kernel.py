"""The double-dummy search of a suit-following card play, compiled with numba.

It searches what :class:`osteria.bots.solver.Ending` searches where the deal's play is a
:class:`~osteria.openplay.SuitPlay` (answer the class led, a suit or Quattrigghiu's trunfi with
the matadors, else trump where the game says so, and keep the privileged cards where the game
has them; the highest trump takes the trick, else the strongest card of the class led; card
values, each trick's worth and the last trick's bonus, one side against the other, also where
points are poison): the Tressette family's play, Traversone's included, Sancagna's and
Quattrigghiu's, for three to six seats. Each follow class is a block of thirteen card numbers
(``kernel_numbers``), so the class of a card is its number // 13. It returns the
same values as the reference: the pure-Python search stays the reference, and the tests hold the
two to agreement. It differs only in how it runs: positions as int64 bitmasks in flat arrays,
the moves of each ply in a preallocated buffer, and the transposition table as open addressing
in one numpy array, a row a slot, where each solve stamps its entries so that no table is
cleared between solves.
It also searches fewer nodes for the same values: its table keys a trick's start by who holds
each live card in order of strength, so that an entry also bounds the positions alike but for
their cards' values (widened by how much the values differ: payoff similarity, as Furtak and
Buro put it for Skat); its moves are ordered by a greedy forecast of their trick and a killer
lead per ply, and a trick's start tries the table's best card before it makes the other moves
(that card most often cuts off, and the order is a good part of a node's cost); its lower
bound at a trick's start counts a crossing to a partner's winners; and
MTD(f) starts from the value of a greedy playout.

numba is the optional ``fast`` extra, and so is numpy with it: this module needs both, and
the solver imports it only where it can (without them, it stays pure Python).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

import numba
import numpy as np
from llvmlite import binding as llvm  # type: ignore[import-untyped]
from llvmlite import ir
from numba import types
from numba.core.cpu import CPUTargetOptions
from numba.extending import intrinsic

from osteria.bots.solver import step_to_test
from osteria.cards import SUIT_MASK

# The most seats the kernel searches (Traversone's six): a position's key gives each card's
# holder three bits; and the last two tricks are counted directly for three or four seats only
# (see ``_two_tricks``).
MAX_SEATS = 6

_INF = 1 << 20
_PROBES = 4  # table slots tried for a position, from its hash on
_MAX_PLY = 64
# The scalars of a search, in one int64 array: nodes searched, the budget, whether it is spent,
# the stamp of this solve's table entries, the first ply, the best card there, a forced first card,
# the last trick's bonus; then from ``_KILLERS`` on, the killer card of each ply (see ``_search``).
_NODES, _MAX_NODES, _SPENT, _STAMP, _ROOT, _BEST, _FORCED, _LAST_BONUS = range(8)
_KILLERS = 8
# The rows of a suit table (see ``suit_table``): the four follow classes' masks, then the trump
# class's cards (0: no trumps), the cards a hand void in the class led must play if it holds any,
# and the privileged cards (see ``_follows``).
_TRUMPS, _RUFF, _PRIVILEGED = 4, 5, 6
_SLOTS = 1 << 18
# A slot of the table, a row of int64: this solve's stamp, the bounds, the best card (by place,
# see ``_place``), then the key (see ``_key``). A row spans two cache lines, and a probe that
# finds no entry alike reads only the first: the stamp and the holders' words, which are what
# tell whether the slot holds the position or one alike. Where the stamps, keys, bounds and
# best cards lay in arrays of their own, a probe's few slots cost a cache miss in each, and those
# misses were a good part of a trick start's time.
_T_STAMP, _T_LOW, _T_HIGH, _T_BEST, _T_KEY = range(5)
_ROW = 16
# A table key (see ``_key``): a word of holders per suit (three bits a card, then the suit's
# length; the first word also the leader), a word of values per suit (four bits a card:
# Sancagna's trumps are worth up to 8).
_KEY, _WORTH = 8, 4
_HOLDER_BITS, _LENGTH_BITS, _LEADER_SHIFT = 3, 39, 43
# Above the leader, a bit per live card of the class (by its order) that is privileged.
_PRIVILEGED_SHIFT = 46
_VALUE_BITS, _VALUE_MASK = 4, 15
# The highest card value the kernel searches (see ``_key``).
MAX_VALUE = _VALUE_MASK
# ``values[_TRICK_WORTH]``, past every card: what each trick is worth on top of its cards (one
# where tricks count, not cards), read with the cards' values wherever a trick is valued.
_TRICK_WORTH = 63
# Every function's ``team`` holds, per seat, whether it plays for the maximising side; then, from
# seat n on, whether what the seat takes counts to the gain (``OpenPlay.gains``): the seats of
# that side, or where points are poison the seats against it.
# The columns of a suit's row in the chain table (see ``chain_table``).
_LENGTH, _LOW, _HIGH = 16, 17, 17 + 128
_CHAIN_COLUMNS = _HIGH + 64


# Every function of the kernel is compiled without numba's reference counting (it allocates
# nothing; the arrays are the caller's): else each array a function passes on or indexes costs
# atomic count updates, a good part of the time of a node. The search's helpers are inlined
# into it, which also spares the calls that pass each array as seven words. The option that
# turns the counting off (``_nrt``) is not in numba's public documentation: where a numba
# release no longer has it, the kernel compiles with the counting, slower but the same.
_F = TypeVar("_F", bound=Callable[..., Any])
_NO_REFERENCE_COUNTING: dict[str, Any] = {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}


def compiled(inline: str = "never") -> Callable[[_F], _F]:
    options: dict[str, Any] = {"cache": True, "inline": inline, **_NO_REFERENCE_COUNTING}
    return cast(Callable[[_F], _F], numba.njit(**options))


_step_to_test = compiled()(step_to_test)
_helper = compiled("always")


@intrinsic
def _highest_bit(typingctx: Any, bits: Any) -> Any:
    """The place of the highest set bit of ``bits`` (not 0): one instruction, in place of a walk
    along the bits."""
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        zeros = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
        return builder.sub(ir.Constant(ir.IntType(64), 63), zeros)
    return types.int64(types.int64), codegen


@intrinsic
def _lowest_bit(typingctx: Any, bits: Any) -> Any:
    """The place of the lowest set bit of ``bits`` (not 0)."""
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.int64(types.int64), codegen


@intrinsic
def _count_bit(typingctx: Any, bits: Any) -> Any:
    """How many bits of ``bits`` are set."""
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])
    return types.int64(types.int64), codegen


@intrinsic
def _deposit_bits(typingctx: Any, source: Any, mask: Any) -> Any:
    """The low bits of ``source`` laid in order on the set bits of ``mask`` (x86's ``pdep``)."""
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        word, name = ir.IntType(64), "llvm.x86.bmi.pdep.64"
        deposit = builder.module.globals.get(name) or ir.Function(builder.module, ir.FunctionType(word, [word, word]),
                                                                  name)
        return builder.call(deposit, args)
    return types.int64(types.int64, types.int64), codegen


def _fast_deposit() -> bool:
    """Whether the compiled code may use ``pdep``: numba compiles for this machine (no other
    CPU named), whose x86 processor has it as one fast instruction (AMD's first two Zen
    generations microcode it, slower than a walk along the bits)."""
    if getattr(numba.config, "CPU_NAME", None) is not None:
        return False
    return bool(llvm.get_host_cpu_features().get("bmi2")) and llvm.get_host_cpu_name() not in ("znver1", "znver2")


# The intrinsics as the kernel calls them: on one int. ``lowest_bit`` and ``count_bits`` are
# public: other compiled code on card masks (the batched environments) calls them too.
_highest = cast(Callable[[int], int], _highest_bit)
lowest_bit = cast(Callable[[int], int], _lowest_bit)
count_bits = cast(Callable[[int], int], _count_bit)
_deposit = cast(Callable[[int, int], int], _deposit_bits)


@_helper
def _nth_bit_deposited(bits: int, k: int) -> int:
    return lowest_bit(_deposit(1 << k, bits))


@_helper
def _nth_bit_walked(bits: int, k: int) -> int:
    for _ in range(k):
        bits &= bits - 1
    return lowest_bit(bits)


# The place of the ``k``-th set bit of ``bits`` (from 0, the lowest first; k below their count):
# one instruction where the machine has it, else a walk past the k lowest, whose varying
# length the processor mispredicts (an eighth of a batched step, where random seats draw cards).
nth_bit = _nth_bit_deposited if _fast_deposit() else _nth_bit_walked


# A generator of random numbers per row of a uint64 array (splitmix64), for the compiled
# playouts of a search and of the batched engine.
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)


@_helper
def next_random(rng: Any, i: int) -> Any:
    """The next 64 bits of generator ``i`` (``rng[i]``, its state)."""
    z = rng[i] + _GOLDEN
    rng[i] = z
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@_helper
def random_below(rng: Any, i: int, n: int) -> int:
    """A uniform integer from 0 to ``n`` - 1 from generator ``i``."""
    return np.int64(((next_random(rng, i) >> _S32) * np.uint64(n)) >> _S32)  # type: ignore[return-value]


@_helper
def _pattern(cards: int, s: int, chains: Any) -> int:
    """The cards of suit ``s`` among ``cards`` as bits by their place in the suit's chain (bit 0:
    the weakest), by two lookups (see ``chain_table``): the strongest card of a holding is then
    its highest bit, and the live card next below a card the highest live bit below it."""
    shift = 13 * s
    pattern: int = chains[s, _LOW + ((cards >> shift) & 0x7F)] | chains[s, _HIGH + ((cards >> (shift + 7)) & 0x3F)]
    return pattern


@_helper
def _beats(card: int, taking: int, strength: Any, suits: Any) -> bool:
    """Whether ``card``, played to a trick that ``taking`` holds, takes it over: a stronger card of
    the same suit, or a trump on a card that is not one."""
    if card // 13 == taking // 13:
        stronger: bool = strength[card] > strength[taking]
        return stronger
    trumps: int = suits[_TRUMPS]
    return (trumps >> card) & 1 == 1 and (trumps >> taking) & 1 == 0


@_helper
def _follows(hand: int, led: int, suits: Any, strength: Any) -> int:
    """The cards of ``hand`` that may be played to a trick whose first card is ``led``: its
    class, else the trumps where a void hand must trump, else any. A hand whose cards of the
    class are all privileged (Quattrigghiu's matadors, under its privilege) may play any card,
    unless a privileged card stronger than one of them was led."""
    follow: int = hand & suits[led // 13]
    if follow:
        privileged = suits[_PRIVILEGED]
        if follow & ~privileged == 0:
            forced = False
            if (privileged >> led) & 1:
                left = follow
                while left:
                    c = lowest_bit(left)
                    left ^= 1 << c
                    forced = forced or strength[c] < strength[led]
            if not forced:
                return hand
        return follow
    ruff: int = hand & suits[_RUFF]
    return ruff if ruff else hand


@_helper
def _holder(hands: Any, card: int) -> int:
    """The seat whose hand holds ``card`` (a live card)."""
    seat = 0
    while not (hands[seat] >> card) & 1:
        seat += 1
    return seat


@_helper
def _greedy_rest(hands: Any, leader: int, led: int, taking: int, taker: int, done: int, team: Any, values: Any,
                 strength: Any, chains: Any, suits: Any) -> tuple[int, int]:
    """The rest of a trick whose first ``done`` cards are down (led by card ``led``, card ``taking``
    of seat ``taker`` taking it so far), played out greedily by the others, each in turn: a seat
    whose side what the taker takes serves (see ``team``: its partners, or where points are poison
    its opponents) feeds the trick its costliest card (the lowest-numbered of those); any other seat
    takes over with its strongest card of the suit it must play (the suit led, or trump) if that
    does and what it takes serves its side, else plays its cheapest (of that suit, the weakest of
    the cheapest; free to play any, the lowest-numbered). The points these cards add, and the
    seat that takes the trick. One pass over the other hands, no search: cheap enough to order
    moves by."""
    n = hands.shape[0]
    points = 0
    t = leader + done
    if t >= n:
        t -= n
    for _ in range(done, n):
        follow = _follows(hands[t], led, suits, strength)
        play = -1
        if team[n + taker] != team[t]:
            # the one suit the seat must play, if it must
            s = led // 13
            if follow & suits[s] == 0:
                s = lowest_bit(follow) // 13 if follow & ~suits[_TRUMPS] == 0 else -1
            if s >= 0:
                strongest = chains[s, _highest(_pattern(follow, s, chains))]
                if team[n + t] == team[t] and _beats(strongest, taking, strength, suits):
                    play = strongest
                else:
                    # the cheapest of the suit, the weakest of those: the lowest places first
                    left = _pattern(follow, s, chains)
                    while left:
                        i = lowest_bit(left)
                        left ^= 1 << i
                        c = chains[s, i]
                        if play < 0 or values[c] < values[play]:
                            play = c
            else:
                left = follow
                while left:
                    c = lowest_bit(left)
                    left ^= 1 << c
                    if play < 0 or values[c] < values[play]:
                        play = c
        else:
            # the costliest card it may play, the lowest-numbered of those
            left = follow
            while left:
                c = lowest_bit(left)
                left ^= 1 << c
                if play < 0 or values[c] > values[play]:
                    play = c
        points += values[play]
        if _beats(play, taking, strength, suits):
            taking = play
            taker = t
        t = t + 1 if t + 1 < n else 0
    return points, taker


@_helper
def _forecast(points: int, taker: int, seat: int, team: Any) -> int:
    """What a trick of ``points`` that ``taker`` takes brings the side of ``seat``: its points
    where what the taker takes serves that side (see ``team``), and 2 more for the lead where the
    taker is of that side; else minus its points."""
    n = team.shape[0] // 2
    if team[n + taker] != team[seat]:
        return -points
    return points + 2 if team[taker] == team[seat] else points


@_helper
def _trick(played: Any, first: int, n: int, values: Any, strength: Any, suits: Any) -> tuple[int, int, int]:
    """Of the trick of ``n`` cards from ``played[first]`` (all of it, or the cards down so far):
    the place of the card that takes it (0: the lead's), what it is worth (its cards and the
    trick's own worth), and the cards as a mask."""
    winning = 0
    gain = values[_TRICK_WORTH]
    mask = 0
    for k in range(n):
        x = played[first + k]
        gain += values[x]
        mask |= 1 << x
        if k and _beats(x, played[first + winning], strength, suits):
            winning = k
    return winning, gain, mask


@_helper
def _kept(mine: int, alive: int, i: int, s: int, values: Any, chains: Any) -> bool:
    """Whether the card at place ``i`` of suit ``s`` (see ``_pattern``) is the one that ``_moves``
    keeps of its run, among the seat's playable cards ``mine`` and the ``alive`` ones (both by
    place): the next live card below it is not the seat's, or not of its value."""
    below = alive & ((1 << i) - 1)
    if below == 0:
        return True
    j = _highest(below)
    return not ((mine >> j) & 1 and values[chains[s, j]] == values[chains[s, i]])


@_helper
def _moves(hands: Any, seat: int, played: Any, ply: int, in_trick: int, leader: int, live: int,
           team: Any, values: Any, strength: Any, chains: Any, suits: Any, moves: Any, later: Any) -> int:
    """The moves of the seat, one of each run of equivalent cards, in the order to try them, written
    to row ``ply`` of ``moves``; how many. The order is by what the trick would bring the seat's
    side if everyone played it out greedily (``_greedy_rest``): a cut-off comes sooner the sooner
    its move is tried, and a card's own trick is a cheap and good forecast of its worth. Ties keep
    the order of :meth:`Ending.moves` for leads (the partner's strongest cards counting too) and the
    weaker card first for follows; the last card of a trick, which the forecast would only replay,
    keeps :meth:`Ending.moves`' order."""
    n = hands.shape[0]
    hand = hands[seat]
    allowed = hand
    led = -1
    if in_trick:
        led = played[ply - in_trick]
        allowed = _follows(hand, led, suits, strength)
    count = 0
    for s in range(4):
        if allowed & suits[s] == 0:
            continue
        mine = _pattern(allowed, s, chains)
        alive = _pattern(live, s, chains)
        # From the strongest down: of a run of ours with one value (cards next to each other
        # among the live ones), keep the weakest, the one whose next live card below is not
        # ours or not of its value. Privileged cards merge too (the reference keeps them apart):
        # they are the strongest of their class, so a run that mixes them with others has the
        # weakest privileged live card at its foot, whose lead forces none out, and playing the
        # run's weakest card keeps a stronger one that may do all it could and may be kept too.
        first = count
        left = mine
        while left:
            i = _highest(left)
            left ^= 1 << i
            if not _kept(mine, alive, i, s, values, chains):
                continue
            moves[ply, count] = chains[s, i]
            count += 1
        if not in_trick:
            # Leads: by the forecast trick, the best for the seat's side first; on a tie, where
            # the seat holds the suit's strongest card, from the strongest down; where its partner
            # does, from the weakest up (the partner takes); then the others, from the weakest up.
            # The order is by ``later``, sorted stably below (the tie-break is under 64).
            holder = _holder(hands, chains[s, _highest(alive)])
            base = -1 if holder == seat else (16 if team[holder] == team[seat] else 41)
            for i in range(first, count):
                c = moves[ply, i]
                points, taker = _greedy_rest(hands, seat, c, c, seat, 1, team, values, strength, chains, suits)
                forecast = _forecast(values[_TRICK_WORTH] + values[c] + points, taker, seat, team)
                later[ply, i] = 64 * (64 - forecast) + (12 - strength[c] if base < 0 else base + strength[c])
    # A single card needs no order; a follow's order is all its cost (a lead's is made above).
    if in_trick and count > 1:
        first = ply - in_trick
        winning, down, _ = _trick(played, first, in_trick, values, strength, suits)  # the trick so far
        top = played[first + winning]
        holder = leader + winning
        if holder >= n:
            holder -= n
        if in_trick < n - 1:
            # Following with seats still to play: by the forecast trick from this card on, the best
            # for the seat's side first; on a tie, the weaker card first. The rest of the trick
            # after a card that does not take is the same for all such cards: played out once.
            under_points, under_taker = -1, -1
            for i in range(count):
                c = moves[ply, i]
                if _beats(c, top, strength, suits):
                    points, taker = _greedy_rest(hands, leader, led, c, seat, in_trick + 1, team, values, strength,
                                                 chains, suits)
                else:
                    if under_taker < 0:
                        under_points, under_taker = _greedy_rest(hands, leader, led, top, holder, in_trick + 1, team,
                                                                 values, strength, chains, suits)
                    points, taker = under_points, under_taker
                forecast = _forecast(down + values[c] + points, taker, seat, team)
                later[ply, i] = 16 * (64 - forecast) + strength[c]
        else:
            # The last card: first the cards that leave the trick to a seat whose takings serve our
            # side (see ``team``), the costliest first; then the cheapest of the others.
            for i in range(count):
                c = moves[ply, i]
                if team[n + (seat if _beats(c, top, strength, suits) else holder)] == team[seat]:
                    later[ply, i] = 64 - values[c]
                else:
                    later[ply, i] = 128 + values[c]
    # A stable insertion sort by ``later``.
    for i in range(1, count):
        c = moves[ply, i]
        k = later[ply, i]
        j = i - 1
        while j >= 0 and later[ply, j] > k:
            moves[ply, j + 1] = moves[ply, j]
            later[ply, j + 1] = later[ply, j]
            j -= 1
        moves[ply, j + 1] = c
        later[ply, j + 1] = k
    return count


@_helper
def _to_front(moves: Any, ply: int, count: int, card: int) -> None:
    """Move ``card``, if it is among the ``count`` moves of row ``ply``, to the front."""
    for i in range(count):
        if moves[ply, i] == card:
            for j in range(i, 0, -1):
                moves[ply, j] = moves[ply, j - 1]
            moves[ply, 0] = card
            return


@_helper
def _leads_first(hand: int, live: int, card: int, values: Any, chains: Any) -> bool:
    """Whether ``card`` (the table's best card of a position alike) is a lead of ``hand`` that
    ``_moves`` would make: the hand's, and the one it keeps of its run."""
    if not (hand >> card) & 1:
        return False
    s = card // 13
    return _kept(_pattern(hand, s, chains), _pattern(live, s, chains), _highest(_pattern(1 << card, s, chains)), s,
                 values, chains)


@_helper
def _ordered_moves(hands: Any, seat: int, played: Any, ply: int, in_trick: int, leader: int, live: int, team: Any,
                   values: Any, strength: Any, chains: Any, suits: Any, scalars: Any, moves: Any, order: Any) -> int:
    """The moves of a node of the search (``_moves``), and of a lead this ply's killer first (see
    ``_search``); how many."""
    count = _moves(hands, seat, played, ply, in_trick, leader, live, team, values, strength, chains, suits, moves,
                   order)
    if in_trick == 0 and scalars[_KILLERS + ply] >= 0:
        _to_front(moves, ply, count, scalars[_KILLERS + ply])
    return count


@_helper
def _key(hands: Any, live: int, leader: int, values: Any, chains: Any, suits: Any, key: Any, at: int) -> None:
    """The table key of a trick's start, into ``key[at:at + _KEY]``: suit by suit, which seat
    holds each live card in order of strength (three bits a card, and how many), which of them
    are privileged (see ``_follows``), the leader (with the first suit), and the values of those
    cards in the same order. Positions with the same holders in the same order play alike, trick
    for trick, whatever their cards' ranks: their keys differ at most in the values, and by those
    only (see ``_slack``)."""
    privileged = suits[_PRIVILEGED]
    for s in range(4):
        alive = _pattern(live, s, chains)
        k = 0
        code = 0
        value_code = 0
        while alive:
            i = lowest_bit(alive)
            alive ^= 1 << i
            c = chains[s, i]
            code |= _holder(hands, c) << (_HOLDER_BITS * k)
            code |= ((privileged >> c) & 1) << (_PRIVILEGED_SHIFT + k)
            value_code |= values[c] << (_VALUE_BITS * k)
            k += 1
        key[at + s] = code | k << _LENGTH_BITS
        key[at + _WORTH + s] = value_code
    key[at] |= leader << _LEADER_SHIFT


@_helper
def _slot(key: Any, at: int) -> int:
    """The home slot's hash: of the holders and the leader only, so that positions alike but for
    their cards' values probe the same slots."""
    h = 0x1E3779B97F4A7C15
    for w in range(_WORTH):
        h = (h ^ key[at + w]) * 0x100000001B3
        h ^= h >> 29
    return h


@_helper
def _alike(table: Any, slot: int, key: Any, at: int, words: int) -> bool:
    """Whether table slot ``slot``'s key has the first ``words`` words of ``key[at:]``."""
    same: bool = True
    for w in range(words):
        same = same and table[slot, _T_KEY + w] == key[at + w]
    return same


@_helper
def _slack(table: Any, slot: int, key: Any, at: int) -> tuple[int, int]:
    """Of the position keyed in table slot ``slot`` and the one keyed by ``key[at:]``, alike but
    for their cards' values: how much the values of its cards drop, summed over the cards, and
    how much they rise. Every line of play of the one is a line of the other, with the same
    tricks to the same seats; the points of a line move by at most the values' drops down and
    their rises up, and so do the best lines' gains, the positions' values."""
    down = 0
    up = 0
    for w in range(_WORTH, _KEY):
        stored = table[slot, _T_KEY + w]
        mine = key[at + w]
        differ = stored ^ mine
        while differ:
            i = lowest_bit(differ)
            i -= i % _VALUE_BITS
            differ &= ~(_VALUE_MASK << i)
            was = (stored >> i) & _VALUE_MASK
            now = (mine >> i) & _VALUE_MASK
            if was > now:
                down += was - now
            else:
                up += now - was
    return down, up


@_helper
def _place(card: int, live: int, chains: Any) -> int:
    """``card`` as its suit and how many live cards of the suit are weaker (-1 stays -1): the
    same card in every position alike."""
    if card < 0:
        return -1
    s = card // 13
    i = _highest(_pattern(1 << card, s, chains))
    return 16 * s + count_bits(_pattern(live, s, chains) & ((1 << i) - 1))


@_helper
def _card(place: int, live: int, chains: Any) -> int:
    """The live card at ``place`` (see ``_place``), or -1."""
    if place < 0:
        return -1
    s = place // 16
    alive = _pattern(live, s, chains)
    for _ in range(place % 16):
        alive &= alive - 1
    card: int = chains[s, lowest_bit(alive)]
    return card


@_helper
def _probe(key: Any, at: int, rest: int, live: int, chains: Any, stamp: int, table: Any
           ) -> tuple[int, int, int, int]:
    """The table slot of the position keyed by ``key[at:at + _KEY]`` where the table holds it,
    and then its bounds and best card. Else a free or a stale slot to take, and the bounds and a
    best card that the entries of positions alike but for their cards' values give it: their
    bounds widened by the slack of the values (``_slack``), their best card in the same place."""
    size: int = table.shape[0]
    home = _slot(key, at) & (size - 1)
    free = -1
    lo = 0
    hi = rest
    best = -1
    for p in range(_PROBES):
        j = (home + p) & (size - 1)
        if table[j, _T_STAMP] != stamp:
            if free < 0:
                free = j
            continue
        if _alike(table, j, key, at, _WORTH):
            if _alike(table, j, key, at, _KEY):
                return j, table[j, _T_LOW], table[j, _T_HIGH], _card(table[j, _T_BEST], live, chains)
            down, up = _slack(table, j, key, at)
            lo = max(lo, table[j, _T_LOW] - down)
            hi = min(hi, table[j, _T_HIGH] + up)
            if best < 0:
                best = table[j, _T_BEST]
    return (home if free < 0 else free), lo, hi, _card(best, live, chains)


@_helper
def _store(key: Any, at: int, rest: int, live: int, chains: Any, slot: int, value: int, alpha0: int, beta0: int,
           best: int, stamp: int, table: Any) -> None:
    """Tighten the bounds of a position in its slot (taking the slot over if another holds it)."""
    if not (table[slot, _T_STAMP] == stamp and _alike(table, slot, key, at, _KEY)):
        table[slot, _T_STAMP] = stamp
        for w in range(_KEY):
            table[slot, _T_KEY + w] = key[at + w]
        table[slot, _T_LOW] = 0
        table[slot, _T_HIGH] = rest
    if value <= alpha0:
        table[slot, _T_HIGH] = min(table[slot, _T_HIGH], value)
    elif value >= beta0:
        table[slot, _T_LOW] = max(table[slot, _T_LOW], value)
    else:
        table[slot, _T_LOW] = value
        table[slot, _T_HIGH] = value
    table[slot, _T_BEST] = _place(best, live, chains)


@_helper
def _run(cards: int, live: int, s: int, chains: Any) -> int:
    """The cards of suit ``s`` among ``cards`` (a hand) above the strongest live card of the
    others', as bits by place (see ``_pattern``): the cards the hand can cash one after the other."""
    mine = _pattern(cards, s, chains)
    others = _pattern(live, s, chains) & ~mine
    return mine if others == 0 else mine & ~((2 << _highest(others)) - 1)


@_helper
def _cheapest(cards: int, s: int, k: int, values: Any, chains: Any) -> int:
    """The sum of the values of the cheapest ``k`` of ``cards`` in suit ``s`` (all of them if fewer)."""
    left = _pattern(cards, s, chains)
    total = 0
    for _ in range(k):
        if left == 0:
            break
        cheapest = -1
        scan = left
        while scan:
            i = lowest_bit(scan)
            scan ^= 1 << i
            if cheapest < 0 or values[chains[s, i]] < values[chains[s, cheapest]]:
                cheapest = i
        left ^= 1 << cheapest
        total += values[chains[s, cheapest]]
    return total


@_helper
def _cashed(hands: Any, seat: int, run: int, s: int, values: Any, chains: Any, suits: Any) -> int:
    """What the tricks take in which ``seat`` cashes its ``run`` of suit ``s`` (bits by place), one
    card after another: the run's points and the tricks' own worth, and of each other seat's
    cards of the suit at least the cheapest min(k, m), for a run of k, where m counts its cards
    of the suit that are not privileged (it must follow with the suit while it holds one of
    those; left with privileged cards only, it may keep them)."""
    k = count_bits(run)
    taken: int = k * values[_TRICK_WORTH]
    while run:
        i = lowest_bit(run)
        run ^= 1 << i
        taken += values[chains[s, i]]
    for t in range(hands.shape[0]):
        if t != seat:
            forced = min(k, count_bits(hands[t] & suits[s] & ~suits[_PRIVILEGED]))
            taken += _cheapest(hands[t], s, forced, values, chains)
    return taken


@_helper
def _safe(hands: Any, leader: int, s: int, k: int, suits: Any) -> bool:
    """Whether no seat but the leader can trump any of ``k`` cards of suit ``s`` led one after
    the other (see ``_sure``)."""
    trumps = suits[_TRUMPS]
    if trumps == 0 or trumps & suits[s]:
        return True
    for t in range(hands.shape[0]):
        if t != leader and hands[t] & trumps and count_bits(hands[t] & suits[s]) < k:
            return False
    return True


@_helper
def _sure(hands: Any, leader: int, live: int, values: Any, chains: Any, suits: Any, rest: int) -> int:
    """What the leader's side surely gains from here: the leader can cash, one after the
    other, the cards of each suit that are its strongest live ones (a card that is the
    strongest of the suit led takes the trick), and every trick it cashes takes what the
    others must play to it: of a suit in which it cashes k cards, a seat holding m cards of
    that suit plays at least min(k, m) of them, so at least the cheapest min(k, m). If the
    cashed cards are the leader's whole hand, it takes every trick, and all that is left.
    Where there are trumps, a suit's run counts only if no other seat can trump one of its
    cards: it is the trump suit, or every other seat holds no trump or as many cards of the
    suit as the run (it answers every card of it, whatever the order of the cashes)."""
    hand = hands[leader]
    cashed = 0
    sure = 0
    for s in range(4):
        run = _run(hand, live, s, chains)
        if run == 0 or not _safe(hands, leader, s, count_bits(run), suits):
            continue
        cashed += count_bits(run)
        sure += _cashed(hands, leader, run, s, values, chains, suits)
    return rest if cashed == count_bits(hand) else sure


@_helper
def _crossing(hands: Any, leader: int, live: int, values: Any, chains: Any, suits: Any, team: Any, left: int) -> int:
    """What the leader's side surely gains on top of ``_sure`` (which leaves ``left`` unsure)
    through a partner: after its cashes the leader leads a card of a suit it cashed nothing in and
    a partner heads; the partner takes it and cashes its runs in the suits the leader left alone.
    A partner counts only if it holds enough other cards to play to the leader's cashes. Every
    trick of this plan is the side's, so every card played to it counts: each other seat plays
    at least min(r, m) of its m cards of a suit the partner cashes r cards in (what it throws
    away elsewhere lands in the side's tricks too), so at least its cheapest min(r, m). Where the
    partner's other cards are exactly those it plays to the leader's cashes, it is left with
    winners only, and the side takes every trick: all of ``left``. The best of the partners; 0
    where none can take over. Where the partner holds the cashing cards, ``_sure`` alone sees
    nothing, and a raised lower bound cuts the search off earlier. Where there are trumps, a
    trump could break any step of the plan: 0."""
    if suits[_TRUMPS]:
        return 0
    n = hands.shape[0]
    hand = hands[leader]
    cashed_suits = 0
    tricks = 0
    for s in range(4):
        run = _run(hand, live, s, chains)
        if run:
            cashed_suits |= 1 << s
            tricks += count_bits(run)
    best = 0
    for p in range(n):
        if p == leader or team[p] != team[leader]:
            continue
        runs = 0
        entry = False  # whether the leader can lead to one of the partner's runs
        gain = 0
        for s in range(4):
            if (cashed_suits >> s) & 1:
                continue
            run = _run(hands[p], live, s, chains)
            if run == 0:
                continue
            runs += count_bits(run)
            entry = entry or _pattern(hand, s, chains) != 0
            gain += _cashed(hands, p, run, s, values, chains, suits)
        others = count_bits(hands[p]) - runs
        if not entry or others < tricks:
            continue
        if others == tricks:
            return left
        best = max(best, gain)
    return min(best, left)


@_helper
def _last_trick(hands: Any, gone: int, leader: int, n: int, team: Any, values: Any, strength: Any, suits: Any,
                last_bonus: int) -> int:
    """What the maximising side gains from the last trick, led by ``leader``, each seat playing the
    one card of its hand not among ``gone``."""
    taking = lowest_bit(hands[leader] & ~gone)
    taker = leader
    points = values[_TRICK_WORTH] + values[taking]
    t = leader + 1 if leader + 1 < n else 0
    for _ in range(n - 1):
        c = lowest_bit(hands[t] & ~gone)
        points += values[c]
        if _beats(c, taking, strength, suits):
            taking = c
            taker = t
        t = t + 1 if t + 1 < n else 0
    return points + last_bonus if team[n + taker] else 0


@_helper
def _two_tricks(hands: Any, leader: int, n: int, team: Any, values: Any, strength: Any, suits: Any,
                last_bonus: int) -> int:
    """What the maximising side gains from the last two tricks, exactly: each seat has at most two
    cards to choose from in the first, the second is forced, so every line is played out (at most
    sixteen) and the choices folded back seat by seat, in nested loops over three or four seats.
    Near the leaves, where most of a search's nodes lie, this is far cheaper than searching."""
    s1 = leader + 1 if leader + 1 < n else 0
    s2 = s1 + 1 if s1 + 1 < n else 0
    s3 = s2 + 1 if s2 + 1 < n else 0
    best0 = -1
    lead = hands[leader]
    while lead:
        a = lowest_bit(lead)
        lead ^= 1 << a
        best1 = -1
        second = _follows(hands[s1], a, suits, strength)
        while second:
            b = lowest_bit(second)
            second ^= 1 << b
            best2 = -1
            third = _follows(hands[s2], a, suits, strength)
            while third:
                c = lowest_bit(third)
                third ^= 1 << c
                best3 = -1
                fourth = _follows(hands[s3], a, suits, strength) if n == 4 else 1  # one pass for three seats
                while fourth:
                    d = lowest_bit(fourth)
                    fourth ^= 1 << d
                    taking, taker = a, leader
                    points = values[_TRICK_WORTH] + values[a] + values[b] + values[c]
                    gone = (1 << a) | (1 << b) | (1 << c)
                    if _beats(b, taking, strength, suits):
                        taking, taker = b, s1
                    if _beats(c, taking, strength, suits):
                        taking, taker = c, s2
                    if n == 4:
                        points += values[d]
                        gone |= 1 << d
                        if _beats(d, taking, strength, suits):
                            taking, taker = d, s3
                    line = (points if team[n + taker] else 0) + _last_trick(hands, gone, taker, n, team, values,
                                                                             strength, suits, last_bonus)
                    if best3 < 0 or (line > best3 if team[s3] else line < best3):
                        best3 = line
                if best2 < 0 or (best3 > best2 if team[s2] else best3 < best2):
                    best2 = best3
            if best1 < 0 or (best2 > best1 if team[s1] else best2 < best1):
                best1 = best2
        if best0 < 0 or (best1 > best0 if team[leader] else best1 < best0):
            best0 = best1
    return best0


# The frame of a ply of the search, a row of int64.
(_F_ALPHA, _F_BETA, _F_ALPHA0, _F_BETA0, _F_VALUE, _F_BEST, _F_COUNT, _F_INDEX, _F_LEADER, _F_IN_TRICK, _F_LIVE,
 _F_REST, _F_SLOT, _F_ADJUST, _F_HAND, _F_SEAT, _F_PENDING) = range(17)
_FRAME = 17
_ENTER, _NEXT, _RETURN = range(3)


@compiled()
def _search(hands: Any, played: Any, root: int, in_trick: int, leader: int, live: int, rest: int,
            alpha: int, beta: int, team: Any, values: Any, strength: Any, chains: Any, suits: Any,
            scalars: Any, frames: Any, move_buffer: Any, order_buffer: Any, table: Any, position_keys: Any) -> int:
    """Fail-soft alpha-beta on what the maximising side gains from here, as Ending.search, with
    the plies' frames in ``frames`` instead of the call stack (numba caches no recursive function).
    The rows of the 2-D arrays are indexed in place, never taken as views: a view costs two
    reference-count calls."""
    n = hands.shape[0]
    # What the leader surely takes bounds the value only where what each side takes is its
    # gain: not where points are poison, and the leader's cashes would only cost it.
    cashes_bound = True
    for other in range(n):
        cashes_bound = cashes_bound and team[n + other] == team[other]
    stamp = scalars[_STAMP]
    forced = scalars[_FORCED]
    nodes = scalars[_NODES]
    max_nodes = scalars[_MAX_NODES]
    ply = root
    state = _ENTER
    v = 0
    while True:
        if state == _ENTER:
            nodes += 1
            if nodes > max_nodes:
                scalars[_NODES] = nodes
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
                v = _last_trick(hands, 0, leader, n, team, values, strength, suits, scalars[_LAST_BONUS])
            elif in_trick == 0 and count_bits(lead_hand) == 2 and ply != root and n <= 4:
                # (At the root the search must also name a best card.)
                v = _two_tricks(hands, leader, n, team, values, strength, suits, scalars[_LAST_BONUS])
            else:
                state = _NEXT
                # A first card forced at the root makes the root's value that card's, not the position's.
                if in_trick == 0 and not (ply == root and forced >= 0):
                    # The leader's sure gain first: where it cuts off, as it mostly does where it
                    # can, the table's key and probe (and the probe's cache miss) are spared.
                    sure_lo = 0
                    sure_hi = rest
                    if cashes_bound:
                        sure = _sure(hands, leader, live, values, chains, suits, rest)
                        if sure < rest:
                            sure += _crossing(hands, leader, live, values, chains, suits, team, rest - sure)
                        if team[leader]:
                            sure_lo = sure
                        else:
                            sure_hi = rest - sure
                    if sure_lo >= beta or sure_hi <= alpha:
                        lo, hi = sure_lo, sure_hi
                    else:
                        at = ply * _KEY
                        _key(hands, live, leader, values, chains, suits, position_keys, at)
                        slot, lo, hi, table_best = _probe(position_keys, at, rest, live, chains, stamp, table)
                        lo = max(lo, sure_lo)
                        hi = min(hi, sure_hi)
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
                seat = leader + in_trick
                if seat >= n:
                    seat -= n
                pending = 0
                if ply == root and forced >= 0:
                    move_buffer[ply, 0] = forced
                    count = 1
                elif table_best >= 0 and _leads_first(hands[seat], live, table_best, values, chains):
                    # The table's best card alone, the other moves only if it does not cut off (most
                    # often it does): their order, made by playing each trick out, is a good part of
                    # a node's cost.
                    move_buffer[ply, 0] = table_best
                    count = 1
                    pending = 1
                else:
                    count = _ordered_moves(hands, seat, played, ply, in_trick, leader, live, team, values, strength,
                                           chains, suits, scalars, move_buffer, order_buffer)
                frames[ply, _F_ALPHA] = alpha
                frames[ply, _F_BETA] = beta
                frames[ply, _F_ALPHA0] = alpha
                frames[ply, _F_BETA0] = beta
                frames[ply, _F_VALUE] = -_INF if team[seat] else _INF
                frames[ply, _F_BEST] = -1
                frames[ply, _F_COUNT] = count
                frames[ply, _F_INDEX] = 0
                frames[ply, _F_LEADER] = leader
                frames[ply, _F_IN_TRICK] = in_trick
                frames[ply, _F_LIVE] = live
                frames[ply, _F_REST] = rest
                frames[ply, _F_SLOT] = slot
                frames[ply, _F_HAND] = hands[seat]
                frames[ply, _F_SEAT] = seat
                frames[ply, _F_PENDING] = pending
        elif state == _RETURN:
            # v is the value of the node at ply: back to its parent.
            if ply == root:
                scalars[_NODES] = nodes
                return v
            ply -= 1
            v += frames[ply, _F_ADJUST]
            seat = frames[ply, _F_SEAT]
            hands[seat] = frames[ply, _F_HAND]
            if team[seat]:
                if v > frames[ply, _F_VALUE]:
                    frames[ply, _F_VALUE] = v
                    frames[ply, _F_BEST] = played[ply]
                    frames[ply, _F_ALPHA] = max(frames[ply, _F_ALPHA], v)
            elif v < frames[ply, _F_VALUE]:
                frames[ply, _F_VALUE] = v
                frames[ply, _F_BEST] = played[ply]
                frames[ply, _F_BETA] = min(frames[ply, _F_BETA], v)
            state = _NEXT
        else:
            # The next move of the node at ply, or its value once all are tried or one cuts off.
            index = frames[ply, _F_INDEX]
            cut = frames[ply, _F_ALPHA] >= frames[ply, _F_BETA]
            if index == frames[ply, _F_COUNT] and frames[ply, _F_PENDING] and not cut:
                # The table's best card did not cut off: the other moves after it, in their order.
                frames[ply, _F_PENDING] = 0
                tried = move_buffer[ply, 0]
                count = _ordered_moves(hands, frames[ply, _F_SEAT], played, ply, 0, frames[ply, _F_LEADER],
                                       frames[ply, _F_LIVE], team, values, strength, chains, suits, scalars,
                                       move_buffer, order_buffer)
                _to_front(move_buffer, ply, count, tried)
                frames[ply, _F_COUNT] = count
            if index == frames[ply, _F_COUNT] or cut:
                v = frames[ply, _F_VALUE]
                if frames[ply, _F_ALPHA] >= frames[ply, _F_BETA] and frames[ply, _F_IN_TRICK] == 0:
                    # The lead that cut off becomes the killer of its ply: positions at one ply
                    # differ mostly in the order of the tricks before, so a lead that cut off in
                    # one of them often cuts off in its siblings too, and is tried early there.
                    scalars[_KILLERS + ply] = played[ply]
                if frames[ply, _F_SLOT] >= 0:
                    _store(position_keys, ply * _KEY, frames[ply, _F_REST], frames[ply, _F_LIVE], chains,
                           frames[ply, _F_SLOT], v, frames[ply, _F_ALPHA0], frames[ply, _F_BETA0],
                           frames[ply, _F_BEST], stamp, table)
                if ply == root:
                    scalars[_BEST] = frames[ply, _F_BEST]
                state = _RETURN
                continue
            c = move_buffer[ply, index]
            frames[ply, _F_INDEX] = index + 1
            hands[frames[ply, _F_SEAT]] = frames[ply, _F_HAND] ^ (1 << c)
            played[ply] = c
            alpha = frames[ply, _F_ALPHA]
            beta = frames[ply, _F_BETA]
            leader = frames[ply, _F_LEADER]
            live = frames[ply, _F_LIVE]
            rest = frames[ply, _F_REST]
            in_trick = frames[ply, _F_IN_TRICK] + 1
            frames[ply, _F_ADJUST] = 0
            if in_trick == n:
                winning, gain, mask = _trick(played, ply + 1 - n, n, values, strength, suits)
                leader += winning
                if leader >= n:
                    leader -= n
                if hands[leader] == 0:
                    gain += scalars[_LAST_BONUS]
                in_trick = 0
                live ^= mask
                rest -= gain
                if team[n + leader]:
                    frames[ply, _F_ADJUST] = gain
                    alpha -= gain
                    beta -= gain
            ply += 1
            state = _ENTER


@compiled()
def _playout(hands: Any, played: Any, root: int, in_trick: int, leader: int, live: int, team: Any, values: Any,
             strength: Any, chains: Any, suits: Any, last_bonus: int, forced: int, frames: Any,
             move_buffer: Any, order_buffer: Any) -> int:
    """What the maximising side gains if every seat plays the first of its ``_moves`` to the end
    (after the card ``forced``, where it is one): MTD(f)'s first guess, at the cost of one move
    generation per card, near the value (the moves' order is a forecast of each trick), so that
    fewer null-window searches follow. It plays in place, in the search's buffers, and gives the
    hands back as it found them."""
    n = hands.shape[0]
    gained = 0
    ply = root
    while True:
        seat = leader + in_trick
        if seat >= n:
            seat -= n
        if hands[seat] == 0:
            break
        if ply == root and forced >= 0:
            c = forced
        else:
            _moves(hands, seat, played, ply, in_trick, leader, live, team, values, strength, chains, suits,
                   move_buffer, order_buffer)
            c = move_buffer[ply, 0]
        frames[ply, _F_SEAT] = seat
        frames[ply, _F_HAND] = hands[seat]
        hands[seat] ^= 1 << c
        played[ply] = c
        ply += 1
        in_trick += 1
        if in_trick == n:
            winning, gain, mask = _trick(played, ply - n, n, values, strength, suits)
            leader += winning
            if leader >= n:
                leader -= n
            if hands[leader] == 0:
                gain += last_bonus
            if team[n + leader]:
                gained += gain
            live ^= mask
            in_trick = 0
    for p in range(ply - 1, root - 1, -1):
        hands[frames[p, _F_SEAT]] = frames[p, _F_HAND]
    return gained


@compiled()
def _mtdf(hands: Any, played: Any, ply: int, in_trick: int, leader: int, live: int, rest: int,
          steps: Any, team: Any, values: Any, strength: Any, chains: Any, suits: Any, scalars: Any,
          frames: Any, move_buffer: Any, order_buffer: Any, table: Any, position_keys: Any) -> tuple[int, int]:
    """The gain to the precision of ``steps``, and a first card that reaches it (-1: any), as
    Ending.mtdf from the first guess of ``_playout``; (-1, -1) once the node budget is spent."""
    lo = 0
    hi = rest
    guess = _playout(hands, played, ply, in_trick, leader, live, team, values, strength, chains, suits,
                     scalars[_LAST_BONUS], scalars[_FORCED], frames, move_buffer, order_buffer)
    g = min(max(guess, lo), hi)
    found = -1
    scalars[_ROOT] = ply
    stride = 0
    while steps[lo] != steps[hi]:
        beta = _step_to_test(steps, lo, hi, g, stride)
        scalars[_BEST] = -1
        g = _search(hands, played, ply, in_trick, leader, live, rest, beta - 1, beta, team, values, strength,
                    chains, suits, scalars, frames, move_buffer, order_buffer, table, position_keys)
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
        # Rows start at cache lines (see ``_ROW``): a large array is only aligned to 16 bytes.
        words = np.zeros(_SLOTS * _ROW + 8, np.int64)
        start = (-words.ctypes.data % 64) // 8
        _tables.update(table=words[start:start + _SLOTS * _ROW].reshape(_SLOTS, _ROW), stamp=0)
    return _tables


def suit_table(trump: int, must_trump: bool, privileged: int = 0) -> Any:
    """The suit table of a trick play (see ``_TRUMPS``), in the kernel's numbers (see
    ``kernel_numbers``): the four follow classes' masks, the trump class's cards (0 where
    ``trump`` is -1), what a hand void in the class led must play if it can, and the
    privileged cards (see ``_follows``)."""
    return _suit_table(trump, must_trump, privileged)


@functools.cache
def _suit_table(trump: int, must_trump: bool, privileged: int) -> Any:
    trumps = SUIT_MASK[trump] if trump >= 0 else 0
    table = np.array([*SUIT_MASK, trumps, trumps if must_trump else 0, privileged], np.int64)
    table.flags.writeable = False  # shared by every search
    return table


@functools.cache
def kernel_numbers(chains: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """Each card's number in the kernel, which takes a card's follow class for the block of
    thirteen it lies in (``card // 13``): a card of class g keeps its number where that is in
    block g (so suits as classes keep every number), and a card of another suit, such as
    Quattrigghiu's matadors in the trump class, takes a number of block g that no card of the
    class has. -1 for a card in no class."""
    numbers = [-1] * 64
    for g, chain in enumerate(chains):
        own = {c for c in chain if c // 13 == g}
        free = [13 * g + r for r in range(13) if 13 * g + r not in own]
        foreign = [c for c in chain if c // 13 != g]
        if len(foreign) > len(free):
            raise ValueError(f"follow class {g} holds {len(chain)} cards: the kernel searches at most 13 a class")
        for c in own:
            numbers[c] = c
        for c, number in zip(foreign, free, strict=False):
            numbers[c] = number
    return tuple(numbers)


def _renumbered(cards: int, numbers: Sequence[int]) -> int:
    """The mask ``cards`` in the numbers ``numbers`` give them."""
    mask = 0
    while cards:
        c = cards.bit_length() - 1
        cards ^= 1 << c
        mask |= 1 << numbers[c]
    return mask


def strength_table(chains: Sequence[Sequence[int]]) -> Any:
    """Each card's strength in its suit: its place in its chain, from 0 for the weakest."""
    return _strength_table(tuple(tuple(chain) for chain in chains))


@functools.cache
def _strength_table(chains: tuple[tuple[int, ...], ...]) -> Any:
    table = np.zeros(64, np.int64)
    for chain in chains:
        for place, c in enumerate(chain):
            table[c] = place
    table.flags.writeable = False
    return table


def chain_table(chains: Sequence[Sequence[int]]) -> Any:
    """Per suit, a row: its cards from the weakest to the strongest (padded with -1), how many,
    and the lookups of ``_pattern``, which turn a holding's bits of the suit's seven lower ranks
    and six upper ones into bits by place in that order. Built once for each set of chains."""
    return _chain_table(tuple(tuple(chain) for chain in chains))


@functools.cache
def _chain_table(chains: tuple[tuple[int, ...], ...]) -> Any:
    table = np.full((4, _CHAIN_COLUMNS), -1, np.int64)
    for s, chain in enumerate(chains):
        table[s, :len(chain)] = chain
        table[s, _LENGTH] = len(chain)
        for column, first_rank, count in ((_LOW, 0, 128), (_HIGH, 7, 64)):
            for bits in range(count):
                table[s, column + bits] = sum(1 << i for i, c in enumerate(chain)
                                              if c - 13 * s >= first_rank and (bits << first_rank) >> (c - 13 * s) & 1)
    table.flags.writeable = False  # shared by every search
    return table


class Search:
    """One open-handed position searched by the kernel: every search of it shares one stamp
    of the table (so what one search learns the next one uses) and one node count. ``team``,
    ``gains`` and ``trick_bonus`` as in :class:`~osteria.openplay.OpenPlay`;
    ``chains`` are the follow classes, each from its weakest card up; ``trump``, ``must_trump``
    and ``privileged`` as in :class:`~osteria.openplay.SuitPlay`. The cards are given and
    returned in the deal's numbers; inside, the kernel's (``kernel_numbers``)."""

    def __init__(self, hands: Sequence[int], trick: Sequence[int], leader: int, team: Sequence[bool],
                 gains: Sequence[bool], values: Sequence[int], chains: Sequence[Sequence[int]], trump: int,
                 must_trump: bool, last_bonus: int, rest: int, steps: Sequence[int], trick_bonus: int = 0,
                 privileged: int = 0) -> None:
        numbers = kernel_numbers(tuple(tuple(chain) for chain in chains))
        self.numbers = numbers
        self.cards = {number: c for c, number in enumerate(numbers) if number >= 0}  # back to the deal's
        hands = [_renumbered(hand, numbers) for hand in hands]
        trick = [numbers[c] for c in trick]
        chains = [[numbers[c] for c in chain] for chain in chains]
        tables = _table()
        tables["stamp"] += 1
        if tables["stamp"] >= 1 << 31:  # the stamps wrap: forget every entry
            tables["table"][:, _T_STAMP] = 0
            tables["stamp"] = 1
        self.tables = tables
        self.hands = np.array(hands, np.int64)
        self.played = np.zeros(_MAX_PLY, np.int64)
        self.played[:len(trick)] = trick
        self.in_trick = len(trick)
        self.leader = leader
        self.live = int(sum(hands)) | sum(1 << c for c in trick)
        # Per seat whether it plays for the maximising side, then per seat whether what it takes
        # counts to the gain (as ``OpenPlay.gains``): the kernel's functions read both from it.
        self.team = np.array([*team, *gains], np.int64)
        if max(values) > _VALUE_MASK or min(values) < 0:
            raise ValueError(f"the kernel's table keys card values from 0 to {_VALUE_MASK}")
        self.values = np.zeros(64, np.int64)
        for c, value in enumerate(values):
            if numbers[c] >= 0:
                self.values[numbers[c]] = value
        self.values[_TRICK_WORTH] = trick_bonus
        self.chains = chain_table(chains)
        self.strength = strength_table(chains)
        self.suits = suit_table(trump, must_trump, _renumbered(privileged, numbers))
        self.rest = rest
        self.steps = np.array(steps, np.int64)
        self.scalars = np.zeros(_KILLERS + _MAX_PLY, np.int64)
        self.scalars[_KILLERS:] = -1  # no killers yet
        self.scalars[_STAMP] = tables["stamp"]
        self.scalars[_LAST_BONUS] = last_bonus
        self.frames = np.zeros((_MAX_PLY, _FRAME), np.int64)
        self.position_keys = np.zeros(_MAX_PLY * _KEY, np.int64)
        self.moves = np.zeros((_MAX_PLY, 16), np.int64)
        self.order = np.zeros((_MAX_PLY, 16), np.int64)
        self.nodes = 0

    def gain(self, max_nodes: int, first: int = -1) -> tuple[int, int] | None:
        """The maximising side's gain to the precision of the steps, and a first card that
        reaches it (-1: any card does); with ``first``, after that card. None once the search
        has spent ``max_nodes`` nodes in all. MTD(f) starts from the kernel's own playout (see
        ``_playout``)."""
        scalars, t = self.scalars, self.tables
        scalars[_NODES] = 0
        scalars[_MAX_NODES] = max_nodes - self.nodes
        scalars[_SPENT] = 0
        scalars[_FORCED] = self.numbers[first] if first >= 0 else -1
        value, best = _mtdf(self.hands, self.played, self.in_trick, self.in_trick, self.leader, self.live, self.rest,
                            self.steps, self.team, self.values, self.strength, self.chains, self.suits, scalars,
                            self.frames, self.moves, self.order, t["table"], self.position_keys)
        self.nodes += int(scalars[_NODES])
        if scalars[_SPENT]:
            return None
        return int(value), self.cards[int(best)] if best >= 0 else -1
