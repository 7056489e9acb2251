"""Dealing the cards a seat cannot see, uniformly among the deals consistent with what it knows.

A game turns an observation into constraints on where each unseen card may lie: a pool of cards,
holders (the hidden hands, a widow, a discard, an unused stock) that each need so many of them,
the cards each holder may take (a void shown, a card known to be elsewhere), the cards it must
take (an accuso, a cenno seen), and how many cards of a set it holds (a signal that is true by
rule). :func:`sample_hands` draws one assignment of the pool to the holders, every valid one with
the same probability, by counting: the pool falls into groups of cards that the same holders may
take (and the same counted sets), and the number of valid assignments is a sum over how many
cards of each group each holder takes of products of binomials, computed once by dynamic
programming and then followed at random with those weights: exact, nothing drawn and thrown
away. What only a replay of the deal decides (who is on which side, a revoke found, a phase
reached) is checked by :func:`first_showing`, which redraws: a uniform draw conditioned by
rejection stays uniform. Where a rule forbids a seat to look back (Quattrigghiu after the sixth
basi), the draw is conditioned on what the observation still holds, and the game's
``sample_deal`` says exactly what that is.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import lru_cache
from math import comb, factorial, prod
from typing import Any, TypeVar

from osteria.cards import CARD_STRINGS, cards_of, mask_of
from osteria.engine import Deal

CARD_INDEX = {s: c for c, s in enumerate(CARD_STRINGS)}


class Unsatisfiable(ValueError):
    """No assignment of the pool meets the constraints: the observation cannot come from a real deal."""


# A count constraint: holder, set of cards, least and most of them in the holder's final hand.
Count = tuple[int, int, int, int]


def _compositions(total: int, caps: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as a sum of len(caps) parts, part i at most caps[i]."""
    if len(caps) <= 1:
        if not caps and not total:
            yield ()
        elif caps and total <= caps[0]:
            yield (total,)
        return
    rest_cap = sum(caps[1:])
    for k in range(max(0, total - rest_cap), min(caps[0], total) + 1):
        for tail in _compositions(total - k, caps[1:]):
            yield (k, *tail)


# A row's limits: (positions among the row's columns whose sum is limited, least, most).
Limits = tuple[tuple[tuple[int, ...], int, int], ...]


class _Table:
    """The ways to fill a table of counts: rows are handed out one by one (the groups of cards
    to the holders, or the holders their cards from the groups, whichever has fewer states),
    each row's total split among the columns it may use, within what the columns still take
    and the row's limits. Per state, the cumulative weights of the splits of row i, for drawing."""

    def __init__(self, totals: tuple[int, ...], members: tuple[tuple[int, ...], ...], by_group: bool,
                 limits: tuple[Limits, ...]) -> None:
        self.totals, self.members, self.by_group, self.limits = totals, members, by_group, limits
        self.memo: dict[tuple[int, tuple[int, ...]], tuple[list[int], list[tuple[int, ...]]]] = {}

    def count(self, i: int, state: tuple[int, ...]) -> int:
        if i == len(self.totals):
            return 0 if any(state) else 1
        cum = self.splits(i, state)[0]
        return cum[-1] if cum else 0

    def splits(self, i: int, state: tuple[int, ...]) -> tuple[list[int], list[tuple[int, ...]]]:
        key = (i, state)
        found = self.memo.get(key)
        if found is not None:
            return found
        members, limits = self.members[i], self.limits[i]
        cum: list[int] = []
        ks: list[tuple[int, ...]] = []
        total = 0
        for k in _compositions(self.totals[i], [state[col] for col in members]):
            if any(not lo <= sum(k[j] for j in cols) <= hi for cols, lo, hi in limits):
                continue
            rest = list(state)
            if self.by_group:  # the group's cards in these numbers to the holders: a multinomial
                ways = factorial(self.totals[i])
                for col, n in zip(members, k, strict=True):
                    rest[col] -= n
                    ways //= factorial(n)
            else:  # the holder's cards, so many from each group: binomials
                ways = 1
                for col, n in zip(members, k, strict=True):
                    ways *= comb(rest[col], n)
                    rest[col] -= n
            ways *= self.count(i + 1, tuple(rest))
            if ways:
                total += ways
                cum.append(total)
                ks.append(k)
        self.memo[key] = (cum, ks)
        return cum, ks


@lru_cache(maxsize=512)
def _table(totals: tuple[int, ...], members: tuple[tuple[int, ...], ...], by_group: bool,
           limits: tuple[Limits, ...]) -> _Table:
    # A searching bot samples many deals from one observation: the counts are computed once.
    return _Table(totals, members, by_group, limits)


class _Problem:
    """One assignment problem: its number of solutions, and a uniform draw of one."""

    def __init__(self, pool: int, needs: Sequence[int], allowed: Sequence[int], counts: Sequence[Count]) -> None:
        # Cards that the same holders may take and that lie in the same counted sets are alike.
        by_kind: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
        for c in cards_of(pool):
            holders = tuple(h for h, a in enumerate(allowed) if a >> c & 1)
            counted = tuple(j for j, (_, x, _, _) in enumerate(counts) if x >> c & 1)
            by_kind[holders, counted] = by_kind.get((holders, counted), 0) | 1 << c
        if any(not holders for holders, _ in by_kind):
            raise Unsatisfiable("a card that no holder may take")
        kinds = sorted(by_kind.items())
        self.groups = [mask for _, mask in kinds]
        self.holders = len(needs)
        sizes = tuple(mask.bit_count() for mask in self.groups)
        # The states are the columns' remainders: fewer columns with small totals, fewer states.
        # Counts limit a holder's row, so they need the holders as rows.
        if not counts and prod(n + 1 for n in needs) <= prod(n + 1 for n in sizes):
            self.table = _table(sizes, tuple(holders for (holders, _), _ in kinds), True,
                                ((),) * len(kinds))
            self.start = tuple(needs)
        else:
            members = tuple(tuple(g for g, ((holders, _), _) in enumerate(kinds) if h in holders)
                            for h in range(len(needs)))
            limits = tuple(tuple((tuple(p for p, g in enumerate(members[h]) if j in kinds[g][0][1]), lo, hi)
                                 for j, (holder, _, lo, hi) in enumerate(counts) if holder == h)
                           for h in range(len(needs)))
            self.table = _table(tuple(needs), members, False, limits)
            self.start = sizes
        self.ways = self.table.count(0, self.start)

    def draw(self, rng: random.Random) -> list[int]:
        table, state = self.table, self.start
        pools = [cards_of(mask) for mask in self.groups]
        hands = [0] * self.holders
        for i in range(len(table.totals)):
            cum, ks = table.splits(i, state)
            k = ks[bisect_right(cum, rng.randrange(cum[-1]))]
            rest = list(state)
            if table.by_group:  # group i gives so many of its cards to each holder
                cards = pools[i]
                rng.shuffle(cards)
            for col, n in zip(table.members[i], k, strict=True):
                rest[col] -= n
                if table.by_group:
                    hands[col] |= mask_of(cards[:n])
                    del cards[:n]
                else:  # holder i takes n cards of group col
                    group = pools[col]
                    for _ in range(n):
                        hands[i] |= 1 << group.pop(rng.randrange(len(group)))
            state = tuple(rest)
        return hands


def sample_hands(pool: int, needs: Sequence[int], allowed: Sequence[int], rng: random.Random,
                 required: Sequence[int] = (), counts: Sequence[Count] = ()) -> list[int]:
    """Deal the cards of ``pool`` to holders so that holder h ends with ``needs[h]`` cards, all
    in ``allowed[h]``, including ``required[h]`` (which must lie in the pool), and with between
    lo and hi cards of a set X for every count (h, X, lo, hi); every such assignment is equally
    likely. The needs add up to the pool's size. Returns each holder's cards as a mask."""
    return hands_sampler(pool, needs, allowed, required, counts)(rng)


def hands_sampler(pool: int, needs: Sequence[int], allowed: Sequence[int], required: Sequence[int] = (),
                  counts: Sequence[Count] = ()) -> Callable[[random.Random], list[int]]:
    """``sample_hands`` of these constraints, to be drawn many times over: the constraints are
    checked and counted once. Unsatisfiable at once where no assignment meets them."""
    n = len(needs)
    required = list(required) or [0] * n
    needs = list(needs)
    for h in range(n):
        if required[h] & ~pool or required[h] & ~allowed[h] or any(
                required[h] & required[g] for g in range(h)):
            raise Unsatisfiable("a required card is not free to be dealt there")
        pool &= ~required[h]
        needs[h] -= required[h].bit_count()
    if sum(needs) != pool.bit_count() or min(needs, default=0) < 0:
        raise Unsatisfiable("the holders need other than the number of cards in the pool")
    # The counts, made relative to the cards still to be drawn; one holder's on one set merged.
    ranges: dict[tuple[int, int], tuple[int, int]] = {}
    for h, x, lo, hi in counts:
        fixed = (required[h] & x).bit_count()
        x &= pool & allowed[h]
        old = ranges.get((h, x), (0, needs[h]))
        ranges[h, x] = (max(old[0], lo - fixed), min(old[1], hi - fixed))
    limits: list[Count] = []
    for (h, x), (lo, hi) in ranges.items():
        lo, hi = max(lo, 0), min(hi, x.bit_count(), needs[h])
        if lo > hi:
            raise Unsatisfiable("a count cannot be met")
        if lo or hi < min(x.bit_count(), needs[h]):
            limits.append((h, x, lo, hi))
    problem = _problem(pool, tuple(needs), tuple(allowed), tuple(limits))
    if not problem.ways:
        raise Unsatisfiable("no assignment of the hidden cards fits what the seat knows")

    def draw(rng: random.Random) -> list[int]:
        drawn = problem.draw(rng)
        for h in range(n):
            drawn[h] |= required[h]
        return drawn

    return draw


@lru_cache(maxsize=64)
def _problem(pool: int, needs: tuple[int, ...], allowed: tuple[int, ...], counts: tuple[Count, ...]) -> _Problem:
    return _Problem(pool, needs, allowed, counts)


# -- what the games share: the unseen cards, the plays of an observation's history, the check ------

class Unseen:
    """The constraints on the unseen cards, holder by holder, as a game reads them off an observation."""

    def __init__(self, pool: int) -> None:
        self.pool = pool
        self.needs: list[int] = []
        self.allowed: list[int] = []
        self.required: list[int] = []
        self.counts: list[Count] = []

    def holder(self, need: int) -> int:
        """A new holder that needs ``need`` cards of the pool; its index."""
        self.needs.append(need)
        self.allowed.append(self.pool)
        self.required.append(0)
        return len(self.needs) - 1

    def forbid(self, h: int, cards: int) -> None:
        self.allowed[h] &= ~cards

    def require(self, h: int, cards: int) -> None:
        """Holder h holds these cards, those of them that are unseen."""
        self.required[h] |= cards & self.pool

    def only(self, cards: int, holders: Sequence[int]) -> None:
        """These cards lie with one of ``holders``, if they are unseen."""
        for h in range(len(self.needs)):
            if h not in holders:
                self.forbid(h, cards)

    def count(self, h: int, cards: int, lo: int, hi: int) -> None:
        """Holder h holds between lo and hi of these cards."""
        self.counts.append((h, cards, lo, hi))

    def draw(self, rng: random.Random) -> list[int]:
        return self.sampler()(rng)

    def sampler(self) -> Callable[[random.Random], list[int]]:
        """Draws under the constraints as they stand, counted once for them all."""
        return hands_sampler(self.pool, self.needs, self.allowed, self.required, self.counts)


class Play:
    """A card played, as an observation's history shows it."""

    __slots__ = ("card", "index", "led", "position", "seat", "trick", "word")

    def __init__(self, index: int, seat: int, card: int, word: str, trick: int, position: int, led: int) -> None:
        self.index, self.seat, self.card, self.word = index, seat, card, word
        self.trick, self.position = trick, position
        self.led = led  # the card that opened the trick: whether a seat followed is asked of every play


def plays_of(history: Sequence[Sequence[Any]], seats: int, first_trick: int = 0) -> list[Play]:
    """The card plays of a history (the actions whose first word is a card), with their tricks."""
    plays: list[Play] = []
    for i, (seat, text) in enumerate(history):
        first, _, word = text.partition(" ")
        c = CARD_INDEX.get(first)
        if c is not None:
            n = len(plays)
            led = plays[n - n % seats].card if n % seats else c
            plays.append(Play(i, seat, c, word, first_trick + n // seats, n % seats, led))
    return plays


def played_from(plays: Sequence[Play], seats: int) -> list[list[int]]:
    """Per seat, per play of the history: the cards that seat played from that play on, as a mask;
    what a seat held at a moment is its hand now and these."""
    after = [[0] * (len(plays) + 1) for _ in range(seats)]
    for k in range(len(plays) - 1, -1, -1):
        for s in range(seats):
            after[s][k] = after[s][k + 1]
        after[plays[k].seat][k] |= 1 << plays[k].card
    return after


def shows(deal: Deal, observation: Mapping[str, Any]) -> bool:
    """Whether ``deal`` shows the observation's seat exactly what the observation shows."""
    if deal.to_move != observation["to_move"] and not observation.get("finished"):
        return False
    mine = deal.observation(observation["seat"])
    return all(observation.get(key) == value for key, value in mine.items())


D = TypeVar("D", bound=Deal)


def first_showing(make: Callable[[], D | None], observation: Mapping[str, Any], tries: int = 1000) -> D:
    """The first deal made that shows what the observation shows. The games encode what they can
    exactly as constraints, so this catches only what a deal's replay alone decides (which seats
    are on one side, a revoke found, a phase reached), and rejecting keeps the draw uniform."""
    for _ in range(tries):
        deal = make()
        if deal is not None and shows(deal, observation):
            return deal
    raise Unsatisfiable(f"no consistent deal in {tries} draws")
