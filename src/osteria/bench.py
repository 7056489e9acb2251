"""Speed of random playouts: osteria's fast path, its string API, and OpenSpiel as a reference.

Figures are only comparable within one run on one machine, so every run measures its own
reference (OpenSpiel's C++ games driven from Python, when installed) and prints ratios. Every
playout is driven as a competent user drives it: uniform choices made by an index into the
legal actions as the API returns them, nothing built or weighted that the game does not need.
Time is CPU time (``time.process_time``), so other processes on the machine cost less; the
playouts take turns, a slice each per round, and each figure is the median of its rounds, so
a change of the machine's load falls on all of them alike.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from osteria import engine, game_rules, new_match
from osteria.engine import JSON, Deal, Match
from osteria.rules import GAMES

# OpenSpiel's games to measure against. Each deals all its cards before the first decision, every
# chance node drawing uniformly among its outcomes (a test checks it on random deals), so the
# reference driver draws each by an index, as a user who knows the game would.
REFERENCES = ("hearts", "skat")
# What the fast path and the string API aim at, in decisions per second against hearts.
GOALS = {"fast path": 2.0, "string API": 1.0}
# What the batched compiled engine aims at, on one core, in decisions per second against hearts.
BATCHED_GOAL = 20.0
# Deals the batched engine steps at once in the bench.
BATCHED_DEALS = 1024


@dataclass
class Playout:
    """A playout to time: ``one_deal`` plays one random deal and returns its number of decisions."""

    name: str
    one_deal: Callable[[], int]


@dataclass
class Speed:
    """A playout's rounds: each round's deals, decisions and CPU seconds."""

    name: str
    rounds: list[tuple[int, int, float]] = field(default_factory=list)

    @property
    def deals_per_s(self) -> float:
        return statistics.median(deals / seconds for deals, _, seconds in self.rounds)

    @property
    def decisions_per_s(self) -> float:
        return statistics.median(decisions / seconds for _, decisions, seconds in self.rounds)


def _time_slice(playout: Playout, seconds: float) -> tuple[int, int, float]:
    """Whole deals until ``seconds`` of CPU time are spent: deals, decisions, CPU seconds."""
    one_deal = playout.one_deal
    deals = decisions = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        decisions += one_deal()
        deals += 1
        now = time.process_time()
        if now >= deadline:
            return deals, decisions, now - start


def measure(playouts: list[Playout], seconds: float, rounds: int = 5) -> list[Speed]:
    """Each playout for ``seconds`` of CPU time in all, taking turns: ``rounds`` slices each,
    the order reversed every other round."""
    speeds = [Speed(p.name) for p in playouts]
    order = list(range(len(playouts)))
    for r in range(rounds):
        for i in order if r % 2 == 0 else reversed(order):
            speeds[i].rounds.append(_time_slice(playouts[i], seconds / rounds))
    return speeds


def fast_path(game: str, seed: int = 0) -> Playout:
    """Random deals on the integer API: ``Deal.legal()`` and ``Deal.apply()``."""
    rules = GAMES[game]()
    rng = random.Random(seed)
    rand = rng.random
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
            actions = legal()
            apply(actions[int(rand() * len(actions))])
            n += 1
        return n

    return Playout(f"{game} (fast path)", one_deal)


def string_api(game: str, seed: int = 0) -> Playout:
    """Random deals on the public API: ``Match.legal_actions()`` and ``Match.play()``."""
    rng = random.Random(seed)
    rand = rng.random
    match = Match(GAMES[game](), seed=seed)

    def one_deal() -> int:
        nonlocal match
        if match.finished:
            match = Match(GAMES[game](), seed=rng.getrandbits(64))
        deal = match.begin_deal()
        n = 0
        while not deal.over:
            actions = match.legal_actions()
            match.play(actions[int(rand() * len(actions))])
            n += 1
        return n

    return Playout(f"{game} (string API)", one_deal)


def openspiel(game: str, seed: int = 0) -> Playout | None:
    """Random playouts of one of OpenSpiel's :data:`REFERENCES` (C++ games) driven from Python:
    the deal's chance nodes, then the decisions; None without OpenSpiel."""
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    loaded = pyspiel.load_game(game)
    rand = random.Random(seed).random

    def one_deal() -> int:
        state = loaded.new_initial_state()
        while state.is_chance_node():  # uniform: its legal actions are its outcomes
            outcomes = state.legal_actions()
            state.apply_action(outcomes[int(rand() * len(outcomes))])
        n = 0
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[int(rand() * len(actions))])
            n += 1
        return n

    return Playout(f"openspiel {game}", one_deal)


def batched(seed: int = 0, games: Sequence[str] | None = None) -> list[Playout] | None:
    """The batched compiled engine (:mod:`osteria.envs.batched`) on each game it plays (``games``:
    those of them only), compiled before the clock starts: its own loop, every seat random
    (``playout``), and the Gymnasium VectorEnv's step, the learner's card chosen from the mask by
    numpy (the lowest legal one) and the other seats at random in the compiled loop. Each call
    steps :data:`BATCHED_DEALS` deals and returns the actions taken (decisions, whoever made them).
    None without numba."""
    try:
        from osteria.envs.batched import BatchedGame
    except ImportError:
        return None
    from osteria.rules import batched_games

    playouts = []
    for game in [g for g in batched_games() if games is None or g in games]:
        engine = BatchedGame(game, BATCHED_DEALS, opponents="random", seed=seed)
        engine.playout(1)
        envs = BatchedGame(game, BATCHED_DEALS, opponents="random", seed=seed + 1)
        envs.step(envs.legal_mask.argmax(axis=1))
        playouts += [Playout(f"{game} batched (compiled loop)", _compiled_loop(engine)),
                     Playout(f"{game} batched (env step)", _vector_step(envs))]
    return playouts


def _compiled_loop(engine: Any) -> Callable[[], int]:
    actions = engine.history.shape[1]  # a deal's most actions

    def compiled_loop() -> int:
        engine.playout(actions)
        return BATCHED_DEALS * actions  # type: ignore[no-any-return]

    return compiled_loop


def _vector_step(envs: Any) -> Callable[[], int]:
    mask = envs.legal_mask

    def vector_step() -> int:
        return envs.step(mask.argmax(axis=1))  # type: ignore[no-any-return]

    return vector_step


def batched_speeds(seconds: float = 2.0, rounds: int = 5, out: Callable[[str], None] = print,
                   games: Sequence[str] | None = None) -> list[Speed]:
    """The batched engine's decisions per CPU second on one core beside OpenSpiel's hearts, taking
    turns in the same run, and the ratio against :data:`BATCHED_GOAL`."""
    playouts = batched(games=games)
    hearts = openspiel("hearts")
    if playouts is None or hearts is None:
        out("the batched engine needs numba (pip install 'osteria[fast]') and the reference OpenSpiel "
            "(pip install 'osteria[bench]')")
        return []
    if not playouts:
        out("the batched engine plays none of these games")
        return []
    speeds = measure([hearts, *playouts], seconds, rounds)
    reference = speeds[0].decisions_per_s
    out(f"the batched engine, {BATCHED_DEALS} deals at once, one core, CPU time, median of {rounds} "
        "alternating rounds")
    out(f"{'playout':38} {'decisions/s':>12} {'vs hearts':>10}")
    for s in speeds:
        out(f"{s.name:38} {s.decisions_per_s:12.0f} {s.decisions_per_s / reference:9.1f}x")
    for s in speeds[1:]:
        ratio = s.decisions_per_s / reference
        verdict = "met" if ratio >= BATCHED_GOAL else "not met"
        out(f"  {s.name:36} {ratio:5.1f}x, goal {BATCHED_GOAL:g}x: {verdict}")
    return speeds


def sample_speed(game: str, seconds: float, seed: int = 0) -> float:
    """Hidden-hand samples per second: ``Game.deal_sampler`` of one seat's observation in the
    middle of a deal, drawn many times over (as a searching bot does), on several positions."""
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
        start = time.process_time()
        sample = match.game.deal_sampler(obs)  # as a search draws them: the observation read once
        while True:
            sample(rng)
            samples += 1
            elapsed = time.process_time() - start
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
    SolverCase("traversone", {}, (4, 6, 8, 10)),
    SolverCase("traversone", {"seats": 6}, (3, 4, 6), pure_tricks=3),
    SolverCase("quattrigghiu", {}, (4, 6, 10)),
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
    deadline = time.process_time() + seconds
    while not times or time.process_time() < deadline:
        deal = solver_ending(case, tricks, rng)
        start = time.process_time()
        Solver(compiled=compiled).solve(deal)
        times.append(time.process_time() - start)
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


def engine_compiled() -> bool:
    """Whether the rules engine runs compiled here (built with OSTERIA_COMPILE=1, see setup.py)."""
    return not (engine.__file__ or "").endswith(".py")


def engine_build() -> str:
    """How the rules engine runs here, as the bench's first line says it."""
    return "the engine compiled (mypyc)" if engine_compiled() else "the engine in pure Python"


def run(games: Iterable[str] | None = None, seconds: float = 2.0, reference: bool = True, rounds: int = 5,
        playouts_only: bool = False, out: Callable[[str], None] = print) -> list[Speed]:
    """Measure and print a table: each osteria playout beside OpenSpiel's, as a ratio to hearts
    measured in the same run, and how far each game is from the :data:`GOALS`; then, unless
    ``playouts_only``, the batched engine (Tressette), hidden-hand sampling, the solver and the
    research environments."""
    games = list(games or GAMES)
    playouts: list[Playout] = []
    if reference:
        references = [p for p in map(openspiel, REFERENCES) if p is not None]
        if not references:
            out("OpenSpiel is not installed (pip install 'osteria[bench]'): no reference measured")
        playouts += references
    for game in games:
        playouts += [fast_path(game), string_api(game)]
    speeds = measure(playouts, seconds, rounds)
    by_name = {s.name: s for s in speeds}
    hearts = by_name.get("openspiel hearts")
    out(f"random playouts, CPU time, median of {rounds} alternating rounds; {engine_build()}")
    out(f"{'playout':34} {'deals/s':>10} {'decisions/s':>12} {'vs hearts':>10}")
    for s in speeds:
        against = f"{s.decisions_per_s / hearts.decisions_per_s:9.2f}x" if hearts else "-"
        out(f"{s.name:34} {s.deals_per_s:10.0f} {s.decisions_per_s:12.0f} {against:>10}")
    for game in games:
        fast, api = by_name[f"{game} (fast path)"], by_name[f"{game} (string API)"]
        out(f"{game}: the string API runs at 1/{fast.decisions_per_s / api.decisions_per_s:.2f} of the fast path")
    if hearts:
        out("goals, decisions per second against hearts in this run:")
        for game in games:
            for kind, goal in GOALS.items():
                ratio = by_name[f"{game} ({kind})"].decisions_per_s / hearts.decisions_per_s
                verdict = "met" if ratio >= goal else "not met"
                out(f"  {game + ' ' + kind:32} {ratio:5.2f}x, goal {goal:g}x: {verdict}")
    if playouts_only:
        return speeds
    if reference and "tressette" in games:
        out("")
        batched_speeds(seconds, rounds, out)
    out("")
    out(f"{'hidden-hand sampling, mid-deal':34} {'samples/s':>10}")
    for game in games:
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
