#!/usr/bin/env python3
"""Learn a game's play by Deep Monte-Carlo self-play on the batched engine, on the CPU.

    python examples/train_dmc.py [--game tressette] [--seats N] [--minutes 30] [--deals 1024]
                                 [--steps N] [--scale X] [--lr X] [--hidden 512,256] [--out FILE]
                                 [--init FILE]
                                 [--address local|ray://HOST:10001] [--actors N]

Deep Monte-Carlo (DMC, as DouZero learns Dou Dizhu): one network reads the observation of the
seat to move (``BatchedGame(game, n).layout``) and values each of the engine's actions (the
cards, and where the game has a bidding its words), the value being the margin the seat ends the
deal with (its side's points or stake less the others', over ``--scale``). It plays every seat of
``--deals`` deals at once on the batched engine (:class:`osteria.envs.batched.BatchedGame`), each
seat the action best by its own values but for a random legal one now and then (``--epsilon``),
``--steps`` actions a deal's row (a new deal follows the last at once); once a deal is over, each
of its decisions' values is pulled towards the margin its seat made (mean squared error, Adam).
No discount, no bootstrap: the deal's end is the target, which suits a game of forty cards. A deal
still going when the round ends is not learnt from.

Every ``--eval-every`` rounds it plays ``--eval-deals`` deals against the batched engine's
rule-based policy, the network's best actions at every other seat and the rule's at the rest,
then the other way round, and prints the network's mean margin a seat. At the end it writes the
weights (numpy arrays, a few hundred KB) to ``--out``, the file :class:`osteria.bots.learned.DmcPlayer`
plays from; measure it against osteria's rule-based player in the arena with ``osteria arena GAME
--players dmc,heuristic``.

The self-play of a round is split among ``--actors`` tasks, each its own deals with the
network's weights of that round as numpy arrays (an actor needs numpy and numba, not PyTorch).
With ``--address`` they run on Ray (the arena's backend, ``osteria[ray]``): ``local`` starts a
Ray on this machine, a cluster's address spreads them over its nodes, so the same script scales
past one machine; the learner stays here.

It needs PyTorch (the CPU build: ``pip install torch``), numpy and numba (``osteria[fast]``).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from osteria.bots.learned import HIDDEN, forward, read_weights, weights_of
from osteria.cli import CommandParser
from osteria.envs.batched import BatchedGame, history_size
from osteria.envs.layout import trick_play_of


def network(observation_size: int, actions: int, hidden: tuple[int, ...] = HIDDEN) -> nn.Sequential:
    """The value of each action for the seat to move, from its observation."""
    layers: list[nn.Module] = []
    width = observation_size
    for h in hidden:
        layers += [nn.Linear(width, h), nn.ReLU()]
        width = h
    layers.append(nn.Linear(width, actions))
    return nn.Sequential(*layers)


Layers = list[tuple[np.ndarray, np.ndarray]]


def layers_of(net: nn.Sequential) -> Layers:
    """The network's weights and biases as numpy arrays, each layer's out x in and its bias."""
    return [(m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy())
            for m in net if isinstance(m, nn.Linear)]


def choose(layers: Layers, observation: np.ndarray, mask: np.ndarray, epsilon: float,
           rng: np.random.Generator) -> np.ndarray:
    """Each deal's action: the best legal one by the network, a random legal one with ``epsilon``."""
    values = np.where(mask, forward(layers, observation), -np.inf)
    actions = values.argmax(axis=1)
    explore = rng.random(len(actions)) < epsilon
    if explore.any():
        noise = np.where(mask[explore], rng.random((int(explore.sum()), mask.shape[1])), -1.0)
        actions[explore] = noise.argmax(axis=1)
    return actions


def self_play(task: tuple[str, int | None, Layers, int, int, int, float, float]
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An actor's part of a round: ``deals`` rows of ``steps`` actions each (seeded by
    ``seed``), every seat played by the network of ``layers``; each decision of the deals that
    ended, with its action and target (its seat's margin over ``scale``). numpy and the batched
    engine alone: an actor needs no PyTorch."""
    game, seats, layers, deals, steps, seed, epsilon, scale = task
    env = BatchedGame(game, deals, seats=seats, outside=range(trick_play_of(game, seats).seats),
                      reward="margin", seed=seed)
    rng = np.random.default_rng(seed)
    observations = np.empty((steps, deals, env.observation_size), np.float32)
    actions = np.empty((steps, deals), np.int64)
    movers = np.empty((steps, deals), np.int64)
    targets = np.full((steps, deals), np.nan, np.float32)  # NaN: a deal still going at the round's end
    began = np.zeros(deals, np.int64)  # the step each row's deal began at
    for t in range(steps):
        observations[t] = env.observation
        movers[t] = env.to_move
        actions[t] = choose(layers, env.observation, env.legal_mask, epsilon, rng)
        env.step(actions[t])
        for i in np.flatnonzero(env.terminated):
            targets[began[i]:t + 1, i] = env.rewards[i, movers[began[i]:t + 1, i]] / scale
            began[i] = t + 1
    ended = ~np.isnan(targets)
    return observations[ended], actions[ended], targets[ended]


def against_rule(game: str, seats: int | None, layers: Layers, deals: int, seed: int) -> float:
    """The network's mean margin a seat and deal (its best action always) against the rule-based
    policy: at the even seats against the rule's at the odd ones, then the other way round, so
    that what a seat is worth cancels out."""
    n = trick_play_of(game, seats).seats
    margins = []
    for learner in (range(0, n, 2), range(1, n, 2)):
        env = BatchedGame(game, deals, seats=seats, outside=learner, opponents="rule", reward="margin", seed=seed)
        rng = np.random.default_rng(seed)
        total = np.zeros(deals)
        ended = np.zeros(deals, np.bool_)
        while not ended.all():  # each row's first deal
            env.step(choose(layers, env.observation, env.legal_mask, 0.0, rng))
            first = env.terminated & ~ended
            total[first] = env.rewards[first][:, list(learner)].mean(axis=1)
            ended |= env.terminated
        margins.append(total.mean())
    return float(np.mean(margins))


def largest_margin(game: str, seats: int | None, deals: int = 1024) -> float:
    """The largest margin of a seat over ``deals`` deals of random play: the default scale."""
    env = BatchedGame(game, deals, seats=seats, outside=(0,), reward="margin", seed=0)
    largest = 0.0
    for _ in range(3 * history_size(env.trick_play)):
        env.playout(1)
        largest = max(largest, float(np.abs(env.rewards).max()))
    return largest


def save(layers: Layers, path: Path) -> None:
    """The weights as numpy arrays of float16 (half the file, the same actions chosen): w0, b0,
    w1, b1... (each layer's out x in and its bias)."""
    arrays = {}
    for k, (w, b) in enumerate(layers):
        arrays[f"w{k}"], arrays[f"b{k}"] = w.astype(np.float16), b.astype(np.float16)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)


def load(net: nn.Sequential, layers: Layers) -> None:
    """The layers' weights and biases, into the network."""
    for (w, b), layer in zip(layers, (m for m in net if isinstance(m, nn.Linear)), strict=True):
        layer.weight.data, layer.bias.data = torch.from_numpy(w), torch.from_numpy(b)


def main() -> int:
    parser = CommandParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="tressette", help="the game (tressette)")
    parser.add_argument("--seats", type=int, help="its seats (the game's usual number)")
    parser.add_argument("--minutes", type=float, default=30.0, help="training time (30)")
    parser.add_argument("--deals", type=int, default=1024, help="deals played at once a round, by all actors (1024)")
    parser.add_argument("--steps", type=int, help="actions a deal's row takes a round (three deals' most actions)")
    parser.add_argument("--scale", type=float, help="what margins are divided by (the largest margin of "
                                                    "random deals)")
    parser.add_argument("--epsilon", type=float, default=0.05, help="share of random actions while learning (0.05)")
    parser.add_argument("--lr", type=float, default=5e-4, help="Adam's learning rate (5e-4)")
    parser.add_argument("--batch", type=int, default=2048, help="decisions a gradient step (2048)")
    parser.add_argument("--eval-every", type=int, default=25, help="rounds between measures (25)")
    parser.add_argument("--eval-deals", type=int, default=8192, help="deals a measure against the rule (8192)")
    parser.add_argument("--hidden", help="the hidden layers' widths, comma-separated (512,256; with --init, "
                                         "the file's)")
    parser.add_argument("--threads", type=int, default=2, help="PyTorch's threads (2)")
    parser.add_argument("--address", help="self-play on Ray: 'local' starts one on this machine, else a "
                                          "cluster's address as ray.init takes it (ray://HOST:10001)")
    parser.add_argument("--actors", type=int, help="self-play tasks a round (1; with --address, Ray's CPUs)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="the weights' file (the package's for the game)")
    parser.add_argument("--init", type=Path, help="weights to start from (a file --out wrote), to train on")
    args = parser.parse_args()
    if args.minutes <= 0 or args.deals < 1 or args.batch < 1 or args.eval_every < 1 or args.eval_deals < 1 \
            or args.threads < 1 or not 0 <= args.epsilon <= 1 or args.lr <= 0 \
            or (args.steps is not None and args.steps < 1) or (args.scale is not None and args.scale <= 0):
        parser.error("--minutes, --lr and --scale above 0; --deals, --steps, --batch, --eval-every, --eval-deals, "
                     "--threads 1 or more; --epsilon from 0 to 1")
    if args.init is not None and not args.init.is_file():
        parser.error(f"--init {args.init}: no such file")
    try:
        init = None if args.init is None else read_weights(args.init)
    except (OSError, ValueError):  # not a file that --out wrote
        parser.error(f"--init {args.init}: not a weights file (numpy arrays w0, b0, w1, b1...)")
    hidden = HIDDEN if init is None else tuple(len(b) for _, b in init[:-1])
    if args.hidden is not None:
        widths = args.hidden.split(",")
        if not all(w.isdigit() and int(w) > 0 for w in widths):
            parser.error(f"--hidden: widths above 0, comma-separated (512,256), not {args.hidden!r}")
        asked = tuple(map(int, widths))
        if init is not None and asked != hidden:
            parser.error(f"--hidden {args.hidden}: the weights of --init have hidden layers "
                         f"{','.join(map(str, hidden))}")
        hidden = asked
    if args.actors is not None and not 1 <= args.actors <= args.deals:
        parser.error(f"--actors from 1 to --deals ({args.deals}): each actor plays deals of its own")
    try:
        play = trick_play_of(args.game, args.seats)
    except ValueError as exc:  # a game or seats the batched engine does not play: said, no traceback
        parser.error(str(exc))
    probe = BatchedGame(args.game, 1, seats=args.seats)
    steps = args.steps or 3 * history_size(play)
    scale = args.scale or largest_margin(args.game, args.seats)
    out = args.out or weights_of(args.game, args.seats)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    net = network(probe.observation_size, probe.actions, hidden)
    if init is not None:
        if (init[0][0].shape[1], len(init[-1][1])) != (probe.observation_size, probe.actions):
            parser.error(f"--init {args.init}: weights for {init[0][0].shape[1]} numbers observed and "
                         f"{len(init[-1][1])} actions, where {args.game} has {probe.observation_size} and "
                         f"{probe.actions}")
        load(net, init)
    optimiser = torch.optim.Adam(net.parameters(), lr=args.lr)
    with ExitStack() as stack:
        mapper: Callable[..., Iterable[Any]] = map
        actors = args.actors or 1
        if args.address:
            from osteria.arena.ray_backend import RayBackend

            backend = stack.enter_context(RayBackend(args.address))
            try:
                mapper, actors = backend.map, args.actors or min(backend.cpus(), args.deals)
            except ValueError as exc:  # no Ray, or none at that address: said, no traceback
                parser.error(str(exc))
        started, wall = time.process_time(), time.monotonic()
        rounds = decisions = 0
        print(f"{args.game}: {probe.observation_size} numbers observed, {probe.actions} actions, margins over "
              f"{scale:g}, {steps} actions a row a round; {actors} actor(s) a round", flush=True)
        print(f"before learning: {against_rule(args.game, args.seats, layers_of(net), args.eval_deals, 1):+.3f} "
              f"a deal against the rule", flush=True)
        while time.monotonic() - wall < args.minutes * 60:
            layers = layers_of(net)
            tasks = [(args.game, args.seats, layers, args.deals // actors, steps,
                      args.seed * 1_000_003 + rounds * actors + k, args.epsilon, scale) for k in range(actors)]
            parts = list(mapper(self_play, tasks))
            observations, actions, targets = (np.concatenate(arrays) for arrays in zip(*parts, strict=True))
            order = rng.permutation(len(actions))
            for start in range(0, len(order), args.batch):
                pick = order[start:start + args.batch]
                values = net(torch.from_numpy(observations[pick]))
                chosen = values.gather(1, torch.from_numpy(actions[pick])[:, None])[:, 0]
                loss = ((chosen - torch.from_numpy(targets[pick])) ** 2).mean()
                optimiser.zero_grad()
                loss.backward()
                optimiser.step()
            rounds += 1
            decisions += len(actions)
            if rounds % args.eval_every == 0:
                margin = against_rule(args.game, args.seats, layers_of(net), args.eval_deals, 1 + rounds)
                print(f"round {rounds}: {decisions:,} decisions, loss {loss.item():.4f}, {margin:+.3f} a deal "
                      f"against the rule, {time.process_time() - started:.0f} s CPU here", flush=True)
                save(layers_of(net), out)  # a run stopped early keeps what it learnt
    save(layers_of(net), out)
    print(f"{decisions:,} decisions in {rounds} rounds; weights in {out}")
    last = against_rule(args.game, args.seats, layers_of(net), args.eval_deals, 10**6)
    print(f"last measure: {last:+.3f} a deal against the rule")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
