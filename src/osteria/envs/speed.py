"""The cost of each layer: the same random deals played on the raw engine, through the
PettingZoo environment and through the OpenSpiel game, in decisions per second (an
environment's decision may take several steps: a scarto's four cards, a card and its signal).

Each layer does what a learner needs at every step: the engine lists the legal actions and
applies one (``Deal.legal``, ``Deal.apply``); PettingZoo encodes the observation and the action
mask (``env.last()``) and steps; OpenSpiel lists the legal actions, encodes the observation
tensor and applies the action, after dealing the cards through its chance nodes. The deals and
the actions are recorded once from random play and replayed on every layer.

Time is CPU time, and the layers take turns, a slice each per round, each figure the median
of its rounds (as in :mod:`osteria.bench`), so a change of the machine's load falls on all of
them alike.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from osteria.cards import make_rng
from osteria.engine import Match
from osteria.rules import GAMES

if TYPE_CHECKING:
    from osteria.envs.actions import ActionSpace


# What the one-table PettingZoo layer aims at: at most this many times the engine's time a decision.
PETTINGZOO_GOAL = 5.0


@dataclass
class Played:
    """A deal played at random: its seed (for the PettingZoo environment), the engine's match,
    and the actions as engine integers and as words."""

    seed: int
    match: Match
    actions: list[int]
    words: list[str]


@dataclass
class LayerSpeed:
    layer: str
    steps: int
    seconds: float

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds


def play_random_deals(game: str, seats: int | None, count: int, seed: int = 0) -> list[Played]:
    """``count`` first deals of matches, played by uniformly random choices. A deal's match is
    seeded as the PettingZoo environment seeds its own on ``reset(seed=...)``."""
    rules = GAMES[game](seats)
    played = []
    for k in range(count):
        episode_seed = seed + k
        match = Match(rules, seed=make_rng(episode_seed).getrandbits(64))
        deal = match.begin_deal()
        rng = random.Random(episode_seed)
        while not deal.over:
            match.apply(rng.choice(deal.legal()))
        played.append(Played(episode_seed, match, [a for _, a in deal.history],
                             [deal.action_str(a) for _, a in deal.history]))
    return played


Replay = Callable[[Played], int]  # plays one recorded deal on a layer; returns its decisions


def _timed(layer: str, deals: list[Played], replay: Replay, seconds: float) -> LayerSpeed:
    """Replay the deals in turn until ``seconds`` are spent (every deal at least once)."""
    steps = replays = 0
    start = time.process_time()
    while True:
        steps += replay(deals[replays % len(deals)])
        replays += 1
        elapsed = time.process_time() - start
        if replays >= len(deals) and elapsed >= seconds:
            return LayerSpeed(layer, steps, elapsed)


def engine_replay(game: str, deals: list[Played]) -> Replay:
    rules = deals[0].match.game

    def replay(played: Played) -> int:
        record = played.match.deals[0]
        deal = rules.new_deal(0, record.dealer, record.hands, record.stock, [])
        for action in played.actions:
            deal.legal()
            deal.apply(action)
        return len(played.actions)

    return replay


def spelled(played: Played, space: ActionSpace) -> list[int]:
    """The steps of an action space that play a played deal's actions."""
    record = played.match.deals[0]
    deal = played.match.game.new_deal(0, record.dealer, record.hands, record.stock, [])
    steps = []
    for action, word in zip(played.actions, played.words, strict=True):
        steps += space.steps_of(word, [deal.action_str(a) for a in deal.legal()])
        deal.apply(action)
    return steps


def pettingzoo_replay(game: str, deals: list[Played]) -> Replay:
    from osteria.envs.pettingzoo import OsteriaEnv

    rules = deals[0].match.game
    env = OsteriaEnv(game, rules.seats, **rules.options)
    scripts = {played.seed: spelled(played, env.actions) for played in deals}

    def replay(played: Played) -> int:
        env.reset(seed=played.seed)
        for step in scripts[played.seed]:
            env.last()
            env.step(step)
        return len(played.words)

    return replay


def chance_outcomes(played: Played) -> list[int]:
    """The chance outcomes that deal a played deal in the OpenSpiel game."""
    from osteria.envs.openspiel import deal_outcomes

    record = played.match.deals[0]
    return deal_outcomes(played.match.game, record.dealer, record.hands, record.stock)


def openspiel_replay(game: str, deals: list[Played]) -> Replay:
    import pyspiel  # type: ignore[import-not-found, unused-ignore]

    from osteria.envs.actions import action_space
    from osteria.envs.encoding import encoding
    from osteria.envs.openspiel import short_name

    rules = deals[0].match.game
    loaded = pyspiel.load_game(short_name(game), {"players": rules.seats})
    space = action_space(encoding(game, rules.seats, **rules.options))
    scripts = {played.seed: (chance_outcomes(played), spelled(played, space)) for played in deals}

    def replay(played: Played) -> int:
        chance, steps = scripts[played.seed]
        state = loaded.new_initial_state()
        for outcome in chance:
            state.apply_action(outcome)
        for step in steps:
            player = state.current_player()
            state.legal_actions(player)
            state.observation_tensor(player)
            state.apply_action(step)
        return len(played.words)

    return replay


def layer_speeds(game: str, seats: int | None = None, seconds: float = 1.0, deals: int = 20,
                 seed: int = 0, rounds: int = 5) -> list[LayerSpeed]:
    """Decisions per second of each layer on the same random deals, about ``seconds`` of CPU
    time each, in ``rounds`` turns: each layer's median round. A layer whose framework is not
    installed is left out."""
    played = play_random_deals(game, seats, deals, seed)
    layers = [("engine", engine_replay(game, played))]
    for name, replayer in (("pettingzoo", pettingzoo_replay), ("openspiel", openspiel_replay)):
        try:
            layers.append((name, replayer(game, played)))
        except ImportError:  # the framework is not installed
            continue
    timed: dict[str, list[LayerSpeed]] = {name: [] for name, _ in layers}
    for _ in range(rounds):
        for name, replay in layers:
            timed[name].append(_timed(name, played, replay, seconds / rounds))
    return [_median(timed[name]) for name, _ in layers]


def _median(speeds: list[LayerSpeed]) -> LayerSpeed:
    """The round of the median speed (the lower middle one of an even count)."""
    middle = statistics.median_low(s.steps_per_s for s in speeds)
    return next(s for s in speeds if s.steps_per_s == middle)


def report(games: Iterable[str] | None = None, seconds: float = 1.0, out: Callable[[str], None] = print) -> None:
    """A table of each game's layers, with each layer's overhead as a ratio to the engine, then
    the PettingZoo layer's against its goal."""
    out(f"{'decisions, same random deals':38} {'decisions/s':>11} {'engine/layer':>13}")
    overheads: dict[str, float] = {}
    for game in games or GAMES:
        speeds = layer_speeds(game, seconds=seconds)
        engine = speeds[0].steps_per_s
        for s in speeds:
            out(f"{game + ' ' + s.layer:38} {s.steps_per_s:11.0f} {engine / s.steps_per_s:12.1f}x")
            if s.layer == "pettingzoo":
                overheads[game] = engine / s.steps_per_s
    if overheads:
        out("goal, the PettingZoo layer's time a decision against the engine's in this run:")
        for game, overhead in overheads.items():
            verdict = "met" if overhead <= PETTINGZOO_GOAL else "not met"
            out(f"  {game + ' pettingzoo':36} {overhead:5.1f}x, goal at most {PETTINGZOO_GOAL:g}x: {verdict}")
