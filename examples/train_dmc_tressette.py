#!/usr/bin/env python3
"""Learn Tressette's card play by Deep Monte-Carlo self-play on the batched engine, on the CPU.

    python examples/train_dmc_tressette.py [--minutes 30] [--deals 1024] [--out FILE]
                                           [--address local|ray://HOST:10001] [--actors N]

Deep Monte-Carlo (DMC, as DouZero learns Dou Dizhu): one network reads the observation of the
seat to move (``BatchedTressette(n).layout``, 367 numbers) and values each of
the 40 cards, the value being the margin its side ends the deal with (points, its side's less
the other's, over 11). It plays every seat of ``--deals`` deals at once on the batched engine
(:class:`osteria.envs.batched.BatchedTressette`), the best legal card by its own values but for
a random legal one now and then (``--epsilon``); once the deals are over, every decision's value
is pulled towards the margin its side actually made (mean squared error, Adam). No discount, no
bootstrap: the deal's end is the target, which suits a game of forty cards.

Every ``--eval-every`` rounds it plays ``--eval-deals`` deals against the batched engine's
rule-based policy (its cards at seats 0 and 2, the rule's at 1 and 3) and prints the mean
margin. At the end it writes the weights (numpy arrays, a few hundred KB) to ``--out``, the
file :class:`osteria.bots.learned.DmcTressette` plays from; measure it against osteria's
rule-based player in the arena with ``osteria arena tressette --players dmc,heuristic``.

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

from osteria.bots.learned import HIDDEN, WEIGHTS, forward
from osteria.envs.batched import BatchedTressette

CARDS, OBSERVATION_SIZE = 40, 367  # Tressette's cards and observation (BatchedTressette(n).layout)
DEAL_CARDS = CARDS  # every seat is the learner's: one decision per card
MARGIN_SCALE = 11.0  # a deal's points: the margin over this lies in [-1, 1]


def network(hidden: tuple[int, ...] = HIDDEN) -> nn.Sequential:
    """The value of each card for the seat to move, from its observation."""
    layers: list[nn.Module] = []
    width = OBSERVATION_SIZE
    for h in hidden:
        layers += [nn.Linear(width, h), nn.ReLU()]
        width = h
    layers.append(nn.Linear(width, CARDS))
    return nn.Sequential(*layers)


Layers = list[tuple[np.ndarray, np.ndarray]]


def layers_of(net: nn.Sequential) -> Layers:
    """The network's weights and biases as numpy arrays, each layer's out x in and its bias."""
    return [(m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy())
            for m in net if isinstance(m, nn.Linear)]


def choose(layers: Layers, observation: np.ndarray, mask: np.ndarray, epsilon: float,
           rng: np.random.Generator) -> np.ndarray:
    """Each deal's card: the best legal one by the network, a random legal one with ``epsilon``."""
    values = np.where(mask, forward(layers, observation), -np.inf)
    cards = values.argmax(axis=1)
    explore = rng.random(len(cards)) < epsilon
    if explore.any():
        noise = np.where(mask[explore], rng.random((int(explore.sum()), CARDS)), -1.0)
        cards[explore] = noise.argmax(axis=1)
    return cards


def self_play(task: tuple[Layers, int, int, float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An actor's part of a round: ``deals`` deals (seeded by ``seed``), every seat played by the
    network of ``layers``; each decision's observation, card and target (its side's margin).
    All deals begin together and take forty cards, so they end together. numpy and the batched
    engine alone: an actor needs no PyTorch."""
    layers, deals, seed, epsilon = task
    env = BatchedTressette(deals, outside=(0, 1, 2, 3), reward="margin", seed=seed)
    rng = np.random.default_rng(seed)
    observations = np.empty((DEAL_CARDS, deals, OBSERVATION_SIZE), np.float32)
    cards = np.empty((DEAL_CARDS, deals), np.int64)
    seats = np.empty((DEAL_CARDS, deals), np.int64)
    for t in range(DEAL_CARDS):
        observations[t] = env.observation
        seats[t] = env.to_move
        cards[t] = choose(layers, env.observation, env.legal_mask, epsilon, rng)
        env.step(cards[t])
    assert env.terminated.all(), "every deal ends at its fortieth card"
    margins = env.rewards[np.arange(deals)[None, :], seats] / MARGIN_SCALE
    return observations.reshape(-1, OBSERVATION_SIZE), cards.reshape(-1), margins.reshape(-1).astype(np.float32)


def against_rule(layers: Layers, deals: int, seed: int) -> float:
    """The mean margin, in points a deal, of the network's side (seats 0 and 2, best card always)
    against the rule-based policy (seats 1 and 3)."""
    env = BatchedTressette(deals, outside=(0, 2), opponents="rule", reward="margin", seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(DEAL_CARDS // 2):
        env.step(choose(layers, env.observation, env.legal_mask, 0.0, rng))
    assert env.terminated.all()
    return float(env.rewards[:, 0].mean())


def save(layers: Layers, path: Path) -> None:
    """The weights as numpy arrays of float16 (half the file, the same cards chosen): w0, b0,
    w1, b1... (each layer's out x in and its bias)."""
    arrays = {}
    for k, (w, b) in enumerate(layers):
        arrays[f"w{k}"], arrays[f"b{k}"] = w.astype(np.float16), b.astype(np.float16)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=30.0, help="training time (30)")
    parser.add_argument("--deals", type=int, default=1024, help="deals played a round, by all actors (1024)")
    parser.add_argument("--epsilon", type=float, default=0.05, help="share of random cards while learning (0.05)")
    parser.add_argument("--lr", type=float, default=5e-4, help="Adam's learning rate (5e-4)")
    parser.add_argument("--batch", type=int, default=2048, help="decisions a gradient step (2048)")
    parser.add_argument("--eval-every", type=int, default=25, help="rounds between measures (25)")
    parser.add_argument("--eval-deals", type=int, default=8192, help="deals a measure against the rule (8192)")
    parser.add_argument("--threads", type=int, default=2, help="PyTorch's threads (2)")
    parser.add_argument("--address", help="self-play on Ray: 'local' starts one on this machine, else a "
                                          "cluster's address as ray.init takes it (ray://HOST:10001)")
    parser.add_argument("--actors", type=int, help="self-play tasks a round (1; with --address, Ray's CPUs)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=WEIGHTS, help=f"the weights' file ({WEIGHTS.name})")
    args = parser.parse_args()
    if args.minutes <= 0 or args.deals < 1 or args.batch < 1 or args.eval_every < 1 or args.eval_deals < 1 \
            or args.threads < 1 or not 0 <= args.epsilon <= 1 or args.lr <= 0:
        parser.error("--minutes and --lr above 0; --deals, --batch, --eval-every, --eval-deals, --threads "
                     "1 or more; --epsilon from 0 to 1")
    if args.actors is not None and not 1 <= args.actors <= args.deals:
        parser.error(f"--actors from 1 to --deals ({args.deals}): each actor plays deals of its own")
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    net = network()
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
        print(f"before learning: {against_rule(layers_of(net), args.eval_deals, 1):+.3f} points a deal "
              f"against the rule; {actors} actor(s) a round", flush=True)
        while time.monotonic() - wall < args.minutes * 60:
            layers = layers_of(net)
            tasks = [(layers, args.deals // actors, args.seed * 1_000_003 + rounds * actors + k, args.epsilon)
                     for k in range(actors)]
            parts = list(mapper(self_play, tasks))
            observations, cards, targets = (np.concatenate(arrays) for arrays in zip(*parts, strict=True))
            order = rng.permutation(len(cards))
            for start in range(0, len(order), args.batch):
                pick = order[start:start + args.batch]
                values = net(torch.from_numpy(observations[pick]))
                chosen = values.gather(1, torch.from_numpy(cards[pick])[:, None])[:, 0]
                loss = ((chosen - torch.from_numpy(targets[pick])) ** 2).mean()
                optimiser.zero_grad()
                loss.backward()
                optimiser.step()
            rounds += 1
            decisions += len(cards)
            if rounds % args.eval_every == 0:
                margin = against_rule(layers_of(net), args.eval_deals, 1 + rounds)
                print(f"round {rounds}: {decisions:,} decisions, loss {loss.item():.4f}, {margin:+.3f} points a "
                      f"deal against the rule, {time.process_time() - started:.0f} s CPU here", flush=True)
    save(layers_of(net), args.out)
    print(f"{decisions:,} decisions in {rounds} rounds; weights in {args.out}")
    print(f"last measure: {against_rule(layers_of(net), args.eval_deals, 10**6):+.3f} points a deal against the rule")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
