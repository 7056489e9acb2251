"""Speed of random playouts: osteria's fast path, its string API, and OpenSpiel as a reference.

Figures are only comparable within one run on one machine, so every run measures its own
reference (OpenSpiel's C++ games driven from Python, when installed) and prints ratios.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from osteria import game_rules, new_match
from osteria.engine import JSON, Deal, Match
from osteria.rules import GAMES


@dataclass
class Speed:
    name: str
    deals: int
    decisions: int
    seconds: float

    @property
    def deals_per_s(self) -> float:
        return self.deals / self.seconds

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds


def _measure(name: str, one_deal: Callable[[], int], seconds: float) -> Speed:
    """Run whole deals until the time is spent; ``one_deal`` returns its number of decisions."""
    deals = decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        decisions += one_deal()
        deals += 1
        now = time.perf_counter()
        if now >= deadline:
            return Speed(name, deals, decisions, now - start)


def fast_path(game: str, seconds: float, seed: int = 0) -> Speed:
    """Random deals on the integer API: ``Deal.legal()`` and ``Deal.apply()``."""
    rules = GAMES[game]()
    rng = random.Random(seed)
    choice = rng.choice
    index = 0

    def one_deal() -> int:
        nonlocal index
        hands, stock = rules.deal_cards(rng)
        # Alternate first and later deals so game-specific first-deal rules are exercised.
        deal = rules.new_deal(index & 1, rng.randrange(rules.seats), hands, stock, [])
        index += 1
        legal, apply = deal.legal, deal.apply
        n = 0
        while deal.to_move is not None:
            apply(choice(legal()))
            n += 1
        return n

    return _measure(f"{game} (fast path)", one_deal, seconds)


def string_api(game: str, seconds: float, seed: int = 0) -> Speed:
    """Random deals on the public API: ``Match.legal_actions()`` and ``Match.play()``."""
    rng = random.Random(seed)
    match = Match(GAMES[game](), seed=seed)

    def one_deal() -> int:
        nonlocal match
        if match.finished:
            match = Match(GAMES[game](), seed=rng.getrandbits(64))
        deal = match.begin_deal()
        n = 0
        while not deal.over:
            match.play(rng.choice(match.legal_actions()))
            n += 1
        return n

    return _measure(f"{game} (string API)", one_deal, seconds)


def openspiel(game: str, seconds: float, seed: int = 0) -> Speed | None:
    """Random playouts of an OpenSpiel game driven from Python; None without OpenSpiel."""
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    loaded = pyspiel.load_game(game)
    rng = random.Random(seed)

    def one_deal() -> int:
        state = loaded.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                n += 1
        return n

    return _measure(f"openspiel {game}", one_deal, seconds)


def sample_speed(game: str, seconds: float, seed: int = 0) -> float:
    """Hidden-hand samples per second: ``Game.sample_deal`` from one seat's observation in the
    middle of a deal, many times over (as a searching bot does), on several positions."""
    rng = random.Random(seed)
    samples = 0
    spent = 0.0
    per_position = max(seconds / 8, 0.01)
    while spent < seconds:
        match = Match(GAMES[game](), seed=rng.getrandbits(32))
        deal = match.begin_deal()
        # Half of a random deal, for a position with cards played and cards still hidden.
        length = _deal_length(game, rng.getrandbits(32))
        while len(deal.history) < length // 2:
            match.play(rng.choice(match.legal_actions()))
        obs = match.observation(rng.randrange(match.game.seats))
        start = time.perf_counter()
        while True:
            match.game.sample_deal(obs, rng)
            samples += 1
            elapsed = time.perf_counter() - start
            if elapsed >= per_position:
                break
        spent += elapsed
    return samples / spent


def _deal_length(game: str, seed: int) -> int:
    rules = GAMES[game]()
    rng = random.Random(seed)
    hands, stock = rules.deal_cards(rng)
    deal = rules.new_deal(0, 0, hands, stock, [])
    while deal.to_move is not None:
        deal.apply(rng.choice(deal.legal()))
    return len(deal.history)


@dataclass
class SolveTimes:
    tricks: int
    seconds: list[float]  # one per ending, sorted

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def p99(self) -> float:
        return self.seconds[min(len(self.seconds) - 1, round(0.99 * (len(self.seconds) - 1)))]


@dataclass(frozen=True)
class SolverCase:
    """A game whose solver the bench times, with its options, and the endings it times: their
    lengths in tricks (one past the hands is the whole deal), the pure-Python reference only up
    to ``pure_tricks`` (longer ones take it seconds each)."""

    game: str
    options: Mapping[str, JSON]
    lengths: tuple[int, ...]
    pure_tricks: int = 6

    @property
    def name(self) -> str:
        seats = self.options.get("seats")
        return self.game if seats is None else f"{self.game} for {seats}"


SOLVER_CASES = (
    SolverCase("tressette", {}, (4, 6, 8, 10)),
    SolverCase("calabresella", {"seats": 3}, (4, 6, 8, 12)),
    SolverCase("calabresella", {"seats": 4}, (4, 6, 10)),
    SolverCase("calabresella", {"seats": 5}, (4, 6, 8)),
    SolverCase("sancagna", {}, (4, 6)),
    # No kernel yet for these two: the reference alone, on the endings it solves in seconds at
    # most (Traversone's, each for himself, key every seat's points and search far more nodes).
    SolverCase("traversone", {}, (4,)),
    SolverCase("quattrigghiu", {}, (4, 6)),
)


def solver_ending(case: SolverCase, tricks: int, rng: random.Random) -> Deal:
    """A deal of the case's game played at random into its card play, to the start of a trick
    with at most ``tricks`` tricks left (the first trick where the hands hold fewer cards)."""
    while True:
        deal = new_match(case.game, seed=rng.getrandbits(32), **case.options).deal
        assert deal is not None
        while not deal.over:
            seat = deal.to_move
            if seat is not None and deal.in_card_play and not deal.stake_beyond_play():
                play = deal.open_play(seat)
                if not play.trick and play.hands[play.leader].bit_count() <= tricks:
                    return deal
            deal.apply(rng.choice(deal.legal()))


def kernel_applies(case: SolverCase) -> bool:
    """Whether the compiled kernel searches the case's game (and numba is installed)."""
    from osteria.bots.solver import ending

    deal = solver_ending(case, 2, random.Random(0))
    assert deal.to_move is not None
    return ending(deal, deal.to_move).compiled


def solver_times(case: SolverCase, tricks: int, seconds: float, seed: int = 0, compiled: bool = True) -> SolveTimes:
    """The double-dummy solver's time on endings of ``tricks`` tricks of the case's game, each
    reached by random play from a random deal: as many as ``seconds`` allow, at least one. With
    ``compiled``, the compiled kernel where it applies (loaded before the clock starts), else
    the pure-Python reference."""
    from osteria.bots.solver import Solver

    rng = random.Random(seed)
    if compiled:
        Solver().solve(solver_ending(case, 2, random.Random(seed)))
    times: list[float] = []
    deadline = time.perf_counter() + seconds
    while not times or time.perf_counter() < deadline:
        deal = solver_ending(case, tricks, rng)
        start = time.perf_counter()
        Solver(compiled=compiled).solve(deal)
        times.append(time.perf_counter() - start)
    return SolveTimes(tricks, sorted(times))


def solver_speeds(games: Iterable[str] | None, seconds: float, out: Callable[[str], None] = print) -> None:
    """The solver's median and 99th-percentile times per game, by the pure-Python reference and
    by the compiled kernel where it applies, with how many times faster the kernel's median is
    than the reference's on endings of the same length."""
    out(f"{'double-dummy solver':46} {'endings':>8} {'median ms':>10} {'p99 ms':>10} {'vs pure':>8}")
    chosen = set(games or GAMES)
    for case in SOLVER_CASES:
        if case.game not in chosen:
            continue
        whole = game_rules(case.game, **case.options).hand_sizes()[0]
        kinds = [(False, "pure", [t for t in case.lengths if t <= case.pure_tricks])]
        if kernel_applies(case):
            kinds.append((True, "compiled", list(case.lengths)))
        pure: dict[int, float] = {}
        for compiled, kind, lengths in kinds:
            for tricks in lengths:
                t = solver_times(case, tricks, seconds, compiled=compiled)
                length = "whole deal" if tricks >= whole else f"{tricks}-trick ending"
                ratio = f"{pure[tricks] / t.median:7.1f}x" if compiled and tricks in pure else "-"
                if not compiled:
                    pure[tricks] = t.median
                label = f"{case.name}, {length}, {kind}"
                out(f"{label:46} {len(t.seconds):8} {1000 * t.median:10.2f} {1000 * t.p99:10.1f} {ratio:>8}")


def run(games: Iterable[str] | None = None, seconds: float = 2.0, reference: bool = True,
        out: Callable[[str], None] = print) -> list[Speed]:
    """Measure and print a table; each osteria figure is also given as a ratio to OpenSpiel's hearts."""
    speeds: list[Speed] = []
    ref = openspiel("hearts", seconds) if reference else None
    if reference:
        if ref is None:
            out("OpenSpiel is not installed (pip install 'osteria[bench]'): no reference measured")
        else:
            speeds.append(ref)
            skat = openspiel("skat", seconds)
            if skat is not None:
                speeds.append(skat)
    for game in games or GAMES:
        speeds.append(fast_path(game, seconds))
        speeds.append(string_api(game, seconds))
    out(f"{'playout':34} {'deals/s':>10} {'decisions/s':>12} {'vs hearts':>10}")
    for s in speeds:
        ratio = f"{s.decisions_per_s / ref.decisions_per_s:9.2f}x" if ref else "-"
        out(f"{s.name:34} {s.deals_per_s:10.0f} {s.decisions_per_s:12.0f} {ratio:>10}")
    by_name = {s.name: s for s in speeds}
    for game in games or GAMES:
        fast, api = by_name[f"{game} (fast path)"], by_name[f"{game} (string API)"]
        out(f"{game}: the string API runs at 1/{fast.decisions_per_s / api.decisions_per_s:.2f} of the fast path")
    out("")
    out(f"{'hidden-hand sampling, mid-deal':34} {'samples/s':>10}")
    for game in games or GAMES:
        out(f"{game:34} {sample_speed(game, seconds):10.0f}")
    out("")
    solver_speeds(games, seconds, out)
    out("")
    environment_speeds(games, seconds, out)
    return speeds


def environment_speeds(games: Iterable[str] | None, seconds: float, out: Callable[[str], None] = print) -> None:
    """The research environments' steps per second beside the engine's, and each layer's overhead
    (a layer whose framework is not installed is left out)."""
    from osteria.envs.speed import report

    report(games, seconds, out)
