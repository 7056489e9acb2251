"""A double-dummy solver: the exact value of the play of the cards with every hand open.

It searches the tricks still to play by alpha-beta (driven by MTD(f): zero-window searches
that close in on the value), with a transposition table of value bounds kept at the start of
each trick, equivalent cards tried once, the best move of an earlier search tried first, and
bounds from the points still at stake. Where the value is a step function of what a side
gains (whole points from thirds), the zero-window searches test only the steps, and stop once
the value is known to that precision. The last trick is counted, not searched.

Tressette, Calabresella (three to five seats), Traversone (three to six), Sancagna and
Quattrigghiu are searched by a compiled kernel (``solver_kernel``, numba) where numba is installed; this module
is its reference, and ``compiled=False`` (to :func:`ending` or :class:`Solver`) forces it.

Only card play is searched: a card with a lead signal is the card (signals do not change what
open hands can do), and accusi, bids and cenni are not the solver's.

What the value is, game by game (always for one seat, in the deal's own terms):

- Tressette, Calabresella: ``result().delta`` of the seat. Both depend on a side's thirds
  through a monotone step (whole points, the win at 6, cappotto), so the search counts thirds
  (card points, the last trick's point and a widow or discard included) and the step is taken
  at the end: the minimax of a monotone function is the function of the minimax.
- Quattrigghiu: ``result().delta`` of the seat. The outcome of a deal played out to ten basi
  is a monotone function of the basi a side takes (six or more wins, five each is a riposta,
  all ten is a tutità), and stopping at six changes none of it, so the search counts basi. The
  tutita / basta window is a choice of the side that took six clean basi, searched as such.
- Traversone: the thirds the seat ends the deal with (its card points, the last trick's point
  and the cards left over, if it takes the last trick), whom everyone else is assumed to play
  against (a paranoid reduction). Max-n, the exact model of several selfish players, prunes
  almost nothing; paranoid search is a two-sided search that alpha-beta, the table and the
  kernel serve fully, and its value is what the seat can guarantee whatever the others do.
  The seat maximises what the others take (``OpenPlay.gains``), which its own thirds are the
  rest of. The deal's score is not the value: rounding gives the remainder to the last
  trick's taker, and cappotto and a zero score turn on every seat's points, so the score is
  neither additive nor a monotone function of the seat's own thirds; searching it would put
  every seat's thirds in each position and leave the kernel out. Where points are poison,
  what the leader can cash bounds nothing (each cash costs it), so that bound is not used.
- Sancagna: the card points the seat's side takes in this deal, the deal played out. Whether
  a side calls itself out depends on the running tally across deals, not on the open cards;
  the solver leaves fuori / avanti to the player and values the play, as if every call were
  "avanti", in the currency the tally counts. Cards are played by the rules (answer the suit,
  else trump) also under ``tavola``, where a revoke can only cost.

A search can be given a node budget. When it is spent the solver falls back to a search two
tricks deep that scores the positions it reaches by sharing the points still out evenly, and
says that the value is an estimate.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from osteria.cards import cards_of
from osteria.engine import Deal
from osteria.openplay import OpenPlay

if TYPE_CHECKING:
    from osteria.bots import solver_kernel

INF = 1 << 20
_T = TypeVar("_T")
# Past a budget, how many tricks the fallback search looks ahead.
FALLBACK_TRICKS = 2


class SearchBudget(Exception):
    """The node budget of a search is spent."""


@dataclass
class Solution:
    """A solved position: its value for the seat, the card that reaches it, whether it is exact."""

    value: int
    best: int
    exact: bool
    nodes: int


def step_to_test(steps: Sequence[int], lo: int, hi: int, guess: int, stride: int) -> int:
    """The gain that the next zero-window search tests, one where ``steps`` changes, in
    (lo, hi]: with ``stride`` 0 the nearest to the guess; above 0 the stride-th from lo up;
    below 0 the (-stride)-th from hi down. The search doubles the stride while the value keeps
    moving one way (a gallop: few tests where the guess was far off, as in a lopsided deal)."""
    found, count = -1, 0
    if stride > 0:
        for x in range(lo + 1, hi + 1):
            if steps[x] != steps[x - 1]:
                found, count = x, count + 1
                if count == stride:
                    break
    elif stride < 0:
        for x in range(hi, lo, -1):
            if steps[x] != steps[x - 1]:
                found, count = x, count + 1
                if count == -stride:
                    break
    else:
        for x in range(lo + 1, hi + 1):
            if steps[x] != steps[x - 1] and (found < 0 or abs(x - guess) < abs(found - guess)):
                found = x
    return found



class Ending:
    """The search of a deal's open-handed trick play (:class:`~osteria.openplay.OpenPlay`, which
    says what each field means) as one side against the other."""

    def __init__(self, play: OpenPlay) -> None:
        hands, trick, leader, values = play.hands, play.trick, play.leader, play.values
        last_bonus, trick_bonus = play.last_bonus, play.trick_bonus
        self.n = len(hands)
        self.hands = list(hands)
        self.trick = list(trick)
        self.leader = leader
        self.team = list(play.team)
        self.gains = list(play.gains) or self.team
        self.values = values
        self.chains = play.chains
        self.follow = play.follow
        self.taker = play.taker
        self.finish = play.finish
        self.last_bonus = last_bonus
        self.trick_bonus = trick_bonus
        self.no_merge = play.no_merge
        # See ``sure``: what the leader can cash bounds the value where no trump takes, and where
        # what a side takes is its gain (not where points are poison).
        self.cashes = play.cashes and self.gains == self.team
        self.suit_play = play.suit_play
        self.live = sum(self.hands) | sum(1 << c for c in self.trick)
        tricks = self.hands[leader].bit_count() + (1 if self.trick else 0)
        # What the tricks still to play hold in all: the most either side can still gain.
        self.rest = sum(values[c] for c in cards_of(self.live)) + last_bonus + trick_bonus * tricks
        # By position: its bounds, the best card found, and the moves of its leader.
        self.table: dict[object, tuple[int, int, int, list[int]]] = {}
        self.nodes = 0
        self.max_nodes = INF * INF
        self.depth_limit = INF
        self.depth = 0
        self.last_best = self.best = -1
        self._steps: list[int] | None = None
        # The moves of a follow class by the cards a seat may play and the live cards in it.
        self._groups: dict[int, tuple[tuple[int, ...], int]] = {}
        # Each card's place in its follow class, from 0 for the weakest.
        self._place = [0] * 64
        for chain, _ in self.chains:
            for i, c in enumerate(chain):
                self._place[c] = i
        # The order of the cards that may follow, by the card that holds the trick and whose it is.
        self._orders: dict[tuple[int, ...], list[int]] = {}
        # What ``sure`` asks of a follow class, by its cards.
        self._runs: dict[int, tuple[int, int, int]] = {}
        self._prefixes: dict[int, list[int]] = {}
        # Whether the compiled kernel searches this ending (see ``ending``), and its search.
        self.compiled = False
        self._kernel: solver_kernel.Search | None = None

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.n

    # -- moves ---------------------------------------------------------------------------------

    def moves(self, seat: int | None = None) -> list[int]:
        """The cards the seat to move may play, one of each set of equivalent cards, in the
        order to try them: leading, the classes whose strongest card is ours first, from the
        strongest down, then those where it is a partner's, from the weakest up (the partner
        takes), then the others; following, first the cards that leave the trick to our side,
        the costliest of them first (points to a partner's trick), then the cheapest of the others."""
        if seat is None:
            seat = self.to_move
        trick = self.trick
        allowed = self.follow(self.hands[seat], trick)
        live, groups = self.live, self._groups
        out: list[int] = []
        low: list[int] = []  # leads from classes whose strongest card is a partner's
        later: list[int] = []  # leads from classes whose strongest card is an opponent's
        for chain, mask in self.chains:
            mine = allowed & mask
            if not mine:
                continue
            key = (live & mask) << 64 | mine  # the follow classes are disjoint: the cards say which
            found = groups.get(key)
            if found is None:
                found = groups[key] = self._group(chain, mine, live)
            group, top = found
            if trick or mine >> top & 1:
                out += group
            elif self.team[self._holder(top)] == self.team[seat]:
                low += group
            else:
                later += group
        if not trick:
            place = self._place
            out.sort(key=place.__getitem__, reverse=True)
            low.sort(key=place.__getitem__)
            later.sort(key=place.__getitem__)
            return out + low + later
        # Whose the trick would be with each card: ours (or our side's), or theirs. A card
        # takes the trick if it beats the card that holds it now, as if that card had been led.
        taker = self.taker
        holds = taker(trick)
        top = trick[holds]
        ours = self.team[(self.leader + holds) % self.n] == self.team[seat]
        situation = (top, ours, *out)
        order = self._orders.get(situation)
        if order is None:
            duel = [top, 0]
            keep: list[int] = []
            give: list[int] = []
            for c in out:
                duel[1] = c
                (keep if ours or taker(duel) == 1 else give).append(c)
            keep.sort(key=self.values.__getitem__, reverse=True)
            give.sort(key=self.values.__getitem__)
            order = self._orders[situation] = keep + give
        return order  # shared: the search copies a list of moves before it reorders one

    def _holder(self, c: int) -> int:
        """The seat that holds card ``c``."""
        hands = self.hands
        seat = 0
        while not hands[seat] >> c & 1:
            seat += 1
        return seat

    def _group(self, chain: tuple[int, ...], mine: int, live: int) -> tuple[tuple[int, ...], int]:
        """One card of each run of equivalent cards of ``mine`` in a follow class, strongest first
        (a run: cards next to each other among the live ones, of the same value, that may be
        merged); and the strongest live card of the class."""
        values, no_merge = self.values, self.no_merge
        group: list[int] = []
        previous = -1  # the value of the previous live card when it is ours and mergeable
        top = -1
        for c in chain:
            bit = 1 << c
            if not live & bit:
                continue
            top = c
            if mine & bit:
                if values[c] != previous or no_merge & bit:
                    group.append(c)
                previous = -1 if no_merge & bit else values[c]
            else:
                previous = -1
        group.reverse()
        return tuple(group), top

    # -- the search ----------------------------------------------------------------------------

    def key(self) -> object:
        """The position at the start of a trick: the hands and the leader (what each side has
        gained so far is not part of it: the search counts gains from here on)."""
        return tuple(self.hands), self.leader

    def search(self, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta: the value if within (alpha, beta), else a bound beyond it."""
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise SearchBudget
        trick, hands, n = self.trick, self.hands, self.n
        start = not trick
        lo, hi, best = -INF, INF, -1
        key: object = None
        moves: list[int] | None = None
        if start:
            hand = hands[self.leader]
            if not hand:
                return 0
            if hand & (hand - 1) == 0:
                return self._last_trick()
            if self.depth >= self.depth_limit:
                return self.estimate()
            key = self.key()
            entry = self.table.get(key)
            if entry is not None:
                lo, hi, best, moves = entry
            elif self.cashes:
                sure = self.sure()
                lo, hi = (sure, self.rest) if self.team[self.leader] else (0, self.rest - sure)
            else:
                lo, hi = 0, self.rest
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
        alpha0, beta0 = alpha, beta
        seat = (self.leader + len(trick)) % n
        hand = hands[seat]
        if moves is None:
            moves = self.moves(seat)
        if best >= 0 and moves[0] != best:
            # The best card first, the others in their order: kept so for the next visit.
            moves = moves[:]
            moves.remove(best)
            moves.insert(0, best)
        maximise = self.team[seat]
        value = -INF if maximise else INF
        completes = len(trick) + 1 == n
        search = self._complete if completes else self.search
        for c in moves:
            hands[seat] = hand ^ (1 << c)
            trick.append(c)
            v = search(alpha, beta)
            trick.pop()
            hands[seat] = hand
            if maximise:
                if v > value:
                    value, best = v, c
                    if v > alpha:
                        alpha = v
            elif v < value:
                value, best = v, c
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        if start:
            if value <= alpha0:
                hi = min(hi, value)
            elif value >= beta0:
                lo = max(lo, value)
            else:
                lo = hi = value
            if self.depth_limit >= INF:
                self.table[key] = (lo, hi, best, moves)
        # The outermost search finishes last: this is then the best card at the root.
        self.last_best = best
        return value

    def sure(self) -> int:
        """What the leader's side surely gains from the start of a trick, where the strongest
        live card of the suit led takes the trick: the leader can cash, one after the other, the
        cards of each suit that are its strongest live ones, and each trick it cashes takes what
        the others must play to it: of a suit in which it cashes k cards, a seat holding m cards
        of the suit plays at least min(k, m) of them, so at least the cheapest min(k, m). If the
        cashed cards are the leader's whole hand, the side takes every trick: all that is left."""
        hands, live, leader = self.hands, self.live, self.leader
        hand = hands[leader]
        cashed = sure = 0
        for i, (_, mask) in enumerate(self.chains):
            mine = hand & mask
            if not mine:
                continue
            run, k, value = self._run(i, live & mask, mine)
            if not k:
                continue
            cashed |= run
            sure += value
            for seat, other in enumerate(hands):
                if seat != leader and other & mask:
                    prefix = self._prefix(other & mask)
                    sure += prefix[min(k, len(prefix) - 1)]
        return self.rest if cashed == hand else sure

    def _run(self, i: int, live: int, mine: int) -> tuple[int, int, int]:
        """Of the cards ``mine`` of follow class ``i``, those that are its strongest ``live``
        ones: as a mask, how many, and their values."""
        key = live << 64 | mine
        found = self._runs.get(key)
        if found is None:
            run = k = value = 0
            for c in reversed(self.chains[i][0]):
                if live >> c & 1:
                    if not mine >> c & 1:
                        break
                    run |= 1 << c
                    k += 1
                    value += self.values[c]
            found = self._runs[key] = (run, k, value)
        return found

    def _prefix(self, cards: int) -> list[int]:
        """The sums of the values of the cheapest 0, 1, 2... of ``cards`` (of one follow class)."""
        found = self._prefixes.get(cards)
        if found is None:
            found = [0]
            for v in sorted(self.values[c] for c in cards_of(cards)):
                found.append(found[-1] + v)
            self._prefixes[cards] = found
        return found

    def _last_trick(self) -> int:
        """What the maximising side gains from the last trick, where every card is forced."""
        n, leader, hands = self.n, self.leader, self.hands
        cards = [hands[(leader + i) % n].bit_length() - 1 for i in range(n)]
        if not self.gains[(leader + self.taker(cards)) % n]:
            return 0
        return self.rest

    def _complete(self, alpha: int, beta: int) -> int:
        """Take the full trick, search on, and put it back."""
        cards = self.trick
        leader = self.leader
        winner = (leader + self.taker(cards)) % self.n
        values = self.values
        gain = self.trick_bonus
        mask = 0
        for c in cards:
            gain += values[c]
            mask |= 1 << c
        hands = self.hands
        after = hands[winner]
        if not after:
            gain += self.last_bonus
        elif not after & (after - 1):
            # One trick left: its cards are forced, and it is counted here (as a node).
            self.nodes += 1
            if self.nodes > self.max_nodes:
                raise SearchBudget
            n = self.n
            last = [hands[(winner + i) % n].bit_length() - 1 for i in range(n)]
            ours = self.gains[(winner + self.taker(last)) % n]
            return (gain if self.gains[winner] else 0) + (self.rest - gain if ours else 0)
        self.trick = []
        self.leader = winner
        self.live ^= mask
        self.rest -= gain
        self.depth += 1
        try:
            v = gain + self.search(alpha - gain, beta - gain) if self.gains[winner] else self.search(alpha, beta)
        finally:
            self.depth -= 1
            self.rest += gain
            self.live ^= mask
            self.leader = leader
            self.trick = cards
        return v

    def estimate(self) -> int:
        """A position's value when the search stops short: the points still out shared evenly."""
        return self.rest // 2

    def mtdf(self, guess: int = 0, search: Callable[[int, int], int] | None = None) -> int:
        """The gain, by zero-window searches that move a bound each time: any gain whose
        ``finish`` is the exact one's (only the steps of ``finish`` are tested, so the search
        stops once the value is known to the seat's precision)."""
        search = search or self.search
        lo, hi = 0, self.rest
        steps = self.steps()
        g = min(max(guess, lo), hi)
        self.best = -1
        stride = 0
        while steps[lo] != steps[hi]:
            beta = step_to_test(steps, lo, hi, g, stride)
            self.last_best = -1
            g = search(beta - 1, beta)
            if g < beta:
                hi = g
                stride = 2 * stride if stride < 0 else -1
            else:
                lo = g
                stride = 2 * stride if stride > 0 else 1
                # A search that fails high has found a card worth at least g.
                self.best = self.last_best
        return lo

    def steps(self) -> list[int]:
        """For every gain the search can return, which step of ``finish`` it is on."""
        if self._steps is None:
            finished = [self.finish(x) for x in range(self.rest + 1)]
            self._steps = [0]
            for x in range(1, self.rest + 1):
                self._steps.append(self._steps[-1] + (finished[x] != finished[x - 1]))
        return self._steps

    def value(self) -> int:
        """The seat's value: exact, or SearchBudget once the budget is spent."""
        if self._uses_kernel():
            return self.finish(self._kernel_gain())
        return self.finish(self.mtdf(self.rest // 2))

    def _uses_kernel(self) -> bool:
        return self.compiled and self.depth_limit >= INF

    def _kernel_gain(self, first: int = -1) -> int:
        """As ``mtdf``, by the compiled kernel: the gain (after card ``first`` if given)."""
        if self._kernel is None:
            from osteria.bots import solver_kernel

            assert self.suit_play is not None
            chains = [chain for chain, _ in self.chains]
            self._kernel = solver_kernel.Search(self.hands, self.trick, self.leader, self.team, self.gains,
                                                self.values, chains, self.suit_play.trump, self.suit_play.must_trump,
                                                self.last_bonus, self.rest, self.steps(), self.trick_bonus,
                                                self.suit_play.privileged)
        found = self._kernel.gain(self.max_nodes, first)
        self.nodes = self._kernel.nodes
        if found is None:
            raise SearchBudget
        gained, best = found
        if first < 0:
            self.best = best
        return gained

    def move_values(self) -> dict[int, int]:
        """The value of each card the seat to move may play (equivalent cards share one)."""
        seat = self.to_move
        hand = self.hands[seat]
        values: dict[int, int] = {}
        representative = {}
        for c in self.moves():
            representative[c] = c
        for c in cards_of(self.follow(hand, self.trick)):
            if c not in representative:
                representative[c] = self._equivalent(c, list(representative))
        guess = self.rest // 2
        for c in dict.fromkeys(representative.values()):
            def after(alpha: int, beta: int, c: int = c) -> int:
                self.hands[seat] = hand ^ (1 << c)
                self.trick.append(c)
                try:
                    return self._complete(alpha, beta) if len(self.trick) == self.n else self.search(alpha, beta)
                finally:
                    self.trick.pop()
                    self.hands[seat] = hand
            guess = self._kernel_gain(c) if self._uses_kernel() else self.mtdf(guess, after)
            values[c] = self.finish(guess)
        return {c: values[r] for c, r in representative.items()}

    def _equivalent(self, c: int, chosen: list[int]) -> int:
        """The chosen card that ``c`` is equivalent to: the nearest weaker one of its chain."""
        for chain, _ in self.chains:
            if c in chain:
                for x in reversed(chain[:chain.index(c)]):
                    if x in chosen:
                        return x
        raise AssertionError("every playable card has an equivalent among the moves")


def ending(deal: Deal, seat: int, compiled: bool = True) -> Ending:
    """The open-handed trick play of a deal in its card play (``Deal.open_play``), valued for
    ``seat``. With ``compiled`` (the default), the compiled kernel searches it where the kernel
    applies (a deal whose play is a ``SuitPlay``, of up to six seats, with card values up to
    what its table keys) and numba is installed; without, the pure-Python reference does."""
    if not deal.in_card_play or deal.over:
        raise ValueError("the solver searches the card play of a deal in progress")
    play = deal.open_play(seat)
    e = Ending(play)
    seats, value = kernel_limits()
    e.compiled = compiled and play.suit_play is not None and e.n <= seats and max(play.values) <= value
    return e


def kernel_seats() -> int:
    """The most seats the compiled kernel searches; 0 where it cannot run (numba, the ``fast``
    extra, is not installed)."""
    return kernel_limits()[0]


@functools.cache
def kernel_limits() -> tuple[int, int]:
    """The most seats and the highest card value the compiled kernel searches; (0, -1) where it
    cannot run."""
    try:
        from osteria.bots import solver_kernel
    except ImportError:
        return 0, -1
    return solver_kernel.MAX_SEATS, solver_kernel.MAX_VALUE


class Solver:
    """Solves deals for one seat; ``max_nodes`` bounds each search, beyond which the value is
    estimated (``Solution.exact`` is then false)."""

    def __init__(self, max_nodes: int | None = None, compiled: bool = True) -> None:
        self.max_nodes = max_nodes
        self.compiled = compiled  # false: the pure-Python reference, also where the kernel applies

    def solve(self, deal: Deal, seat: int | None = None) -> Solution:
        """The value of the deal for ``seat`` (the seat to move by default) and its best card."""
        if seat is None:
            assert deal.to_move is not None
            seat = deal.to_move
        if deal.over:
            return Solution(deal.play_value(seat), -1, True, 0)
        if not deal.in_card_play or deal.stake_beyond_play():
            return self._choice(deal, seat)

        def root(e: Ending) -> tuple[int, int, int]:
            value = e.value()
            best = e.best if e.best >= 0 else e.moves()[0]  # no search failed high: any card will do
            return value, best, e.nodes

        (value, best, nodes), exact = self._run(deal, seat, root)
        return Solution(value, best, exact, nodes)

    def move_values(self, deal: Deal) -> tuple[dict[int, int], bool]:
        """The value of every card the seat to move may play, for that seat; and whether exact."""
        seat = deal.to_move
        assert seat is not None
        return self._run(deal, seat, lambda e: e.move_values())

    def _run(self, deal: Deal, seat: int, search: Callable[[Ending], _T]) -> tuple[_T, bool]:
        """A search within the budget; past it, a fresh one of the limited depth."""
        e = ending(deal, seat, self.compiled)
        if self.max_nodes is not None:
            e.max_nodes = self.max_nodes
        try:
            return search(e), True
        except SearchBudget:
            shallow = ending(deal, seat, self.compiled)
            shallow.depth_limit = FALLBACK_TRICKS
            return search(shallow), False

    def _choice(self, deal: Deal, seat: int) -> Solution:
        """A decision in the card play that is not a card: Quattrigghiu's tutita / basta, searched
        as the deciding side's choice, and Sancagna's fuori / avanti, taken as avanti."""
        mover = deal.to_move
        assert mover is not None
        actions = deal.open_choices()
        if actions is None:
            raise ValueError("the solver searches only the card play")
        ours = deal.same_side(mover, seat)
        best, best_value, exact, nodes = -1, 0, True, 0
        for a in actions:
            child = deal.copy()
            child.apply(a)
            s = self.solve(child, seat)
            exact, nodes = exact and s.exact, nodes + s.nodes
            if best < 0 or (s.value > best_value if ours else s.value < best_value):
                best, best_value = a, s.value
        return Solution(best_value, best, exact, nodes)
