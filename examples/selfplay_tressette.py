#!/usr/bin/env python3
"""Learn to play Tressette by self-play, then measure the learned policy in the arena.

    python examples/selfplay_tressette.py [--deals 1500] [--iterations 3] [--arena-deals 1000]

1. Imitation: the rule-based player plays every seat of ``--deals`` deals (``selfplay``); the
   records become a dataset (``osteria.datasets``: the observation tensor, the legal actions
   and the action of every decision, in Parquet) and a small network (one hidden layer,
   a softmax over the legal actions) learns to choose as it did.
2. Improvement: ``--iterations`` times, the policy plays ``--improve-deals`` boards against the
   rule-based player, both sides of every board, choosing at random by its own probabilities;
   each of its decisions is reinforced by how much its side won the deal by (REINFORCE, the
   mean margin as baseline).
3. The arena: the policy, now choosing its most probable action, plays duplicate deals against
   the rule-based player and against the random one; the advantage is printed with its 95%
   interval (points per deal, positive when the policy is the better).

It needs numpy and pyarrow (``pip install 'osteria[rl,data]'``). The network trains on the CPU
with numpy; where PyTorch finds a CUDA GPU it trains there instead. The policy plays as any bot
does, from its seat's observation only. The default run takes a few minutes on two cores.
"""

from __future__ import annotations

import multiprocessing
import tempfile
import time
import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from osteria.arena import Config, run
from osteria.arena.duplicate import ProcessBackend
from osteria.arena.selfplay import selfplay
from osteria.bots import BOTS, Bot
from osteria.cli import CommandParser
from osteria.datasets import arrays, dense_masks, export, records_in
from osteria.envs.encoding import Encoding, encoding

GAME = "tressette"
LEARNER = "learner"  # the policy's name at the table


class Arrays:
    """The few array operations training needs: numpy on the CPU, or PyTorch on a CUDA GPU."""

    def __init__(self) -> None:
        self.torch: Any = None
        try:
            import torch

            if torch.cuda.is_available():
                self.torch = torch
        except ImportError:
            pass
        self.name = "PyTorch on the GPU" if self.torch is not None else "numpy on the CPU"

    def put(self, array: np.ndarray) -> Any:
        return self.torch.from_numpy(np.ascontiguousarray(array)).cuda() if self.torch is not None else array

    def get(self, array: Any) -> np.ndarray:
        return array.cpu().numpy() if self.torch is not None else array

    def exp(self, array: Any) -> Any:
        return self.torch.exp(array) if self.torch is not None else np.exp(array)

    def log(self, array: Any) -> Any:
        return self.torch.log(array) if self.torch is not None else np.log(array)

    def sqrt(self, array: Any) -> Any:
        return self.torch.sqrt(array) if self.torch is not None else np.sqrt(array)

    def row_max(self, array: Any) -> Any:
        return array.amax(dim=1, keepdim=True) if self.torch is not None else array.max(axis=1, keepdims=True)

    def row_sum(self, array: Any) -> Any:
        return array.sum(dim=1, keepdim=True) if self.torch is not None else array.sum(axis=1, keepdims=True)

    def column_sum(self, array: Any) -> Any:
        return array.sum(dim=0) if self.torch is not None else array.sum(axis=0)


class Network:
    """observation -> hidden ReLU layer -> one logit per action; illegal actions never chosen."""

    def __init__(self, inputs: int, hidden: int, actions: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.params = {
            "w1": (rng.standard_normal((inputs, hidden)) * np.sqrt(2 / inputs)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "w2": (rng.standard_normal((hidden, actions)) * 0.01).astype(np.float32),
            "b2": np.zeros(actions, np.float32),
        }

    def probabilities(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The policy on the CPU, for playing: one row of action probabilities per observation."""
        p = self.params
        hidden = np.maximum(observations @ p["w1"] + p["b1"], 0)
        logits = np.where(masks > 0, hidden @ p["w2"] + p["b2"], -1e9)
        weights = np.exp(logits - logits.max(axis=1, keepdims=True))
        return weights / weights.sum(axis=1, keepdims=True)

    def train(self, xp: Arrays, data: Mapping[str, np.ndarray], weights: np.ndarray, *, epochs: int, lr: float,
              batch: int = 512, seed: int = 0) -> float:
        """Minimise the weighted cross-entropy -weight * log p(action) with Adam: plain imitation
        with weights 1, REINFORCE with the advantages as weights. The mean loss of the last epoch."""
        params = {name: xp.put(value) for name, value in self.params.items()}
        moments = {name: (value * 0, value * 0) for name, value in params.items()}
        x_all, m_all = xp.put(data["observation"]), xp.put(data["mask"].astype(np.float32))
        a_all, w_all = xp.put(data["action"].astype(np.int64)), xp.put(weights.astype(np.float32))
        rng = np.random.default_rng(seed)
        step, loss = 0, 0.0
        for _ in range(epochs):
            order, total = rng.permutation(len(weights)), 0.0
            for start in range(0, len(order), batch):
                chosen = xp.put(order[start:start + batch])
                x, m, a, w = x_all[chosen], m_all[chosen], a_all[chosen], w_all[chosen]
                rows = xp.put(np.arange(len(a)))
                pre = x @ params["w1"] + params["b1"]
                hidden = pre * (pre > 0)
                logits = hidden @ params["w2"] + params["b2"] - (1 - m) * 1e9
                exp = xp.exp(logits - xp.row_max(logits))
                probabilities = exp / xp.row_sum(exp)
                total += float((-w * xp.log(probabilities[rows, a] + 1e-12)).sum())
                # The gradient of the loss with respect to the logits: w * (p - onehot(a)), per row.
                d_logits = probabilities * w[:, None]
                d_logits[rows, a] -= w
                d_logits = d_logits / len(a)
                d_hidden = (d_logits @ params["w2"].T) * (pre > 0)
                grads = {"w2": hidden.T @ d_logits, "b2": xp.column_sum(d_logits),
                         "w1": x.T @ d_hidden, "b1": xp.column_sum(d_hidden)}
                step += 1
                for name, grad in grads.items():  # Adam
                    first, second = moments[name]
                    first = 0.9 * first + 0.1 * grad
                    second = 0.999 * second + 0.001 * grad * grad
                    moments[name] = (first, second)
                    params[name] -= lr * (first / (1 - 0.9 ** step)) / (xp.sqrt(second / (1 - 0.999 ** step)) + 1e-8)
            loss = total / len(weights)
        self.params = {name: xp.get(value) for name, value in params.items()}
        return loss


class PolicyBot(Bot):
    """The learned policy at the table: it sees its seat's observation and the legal actions."""

    name = LEARNER

    def __init__(self, network: Network, code: Encoding, seed: int | str | None, explore: bool) -> None:
        self.network, self.code, self.explore = network, code, explore
        self.rng = np.random.default_rng(zlib.crc32(str(seed).encode()))

    def act(self, observation: Mapping[str, Any], legal_actions: list[str]) -> str:
        if len(legal_actions) == 1:
            return legal_actions[0]
        features = self.code.observe(observation)[None, :]
        probabilities = self.network.probabilities(features, self.code.mask(legal_actions)[None, :])[0]
        if self.explore:
            index = int(self.rng.choice(len(probabilities), p=probabilities / probabilities.sum()))
        else:
            index = int(probabilities.argmax())
        return self.code.action_word(index)


def seat_learner(network: Network, code: Encoding, *, explore: bool) -> None:
    """Make the policy a player the arena and self-play can seat by name. Their worker processes
    are forked from this one, so they see it too."""
    BOTS[LEARNER] = lambda game, seed: PolicyBot(network, code, seed, explore)


def dataset(config: Config, folder: Path, name: str, backend: ProcessBackend) -> dict[str, np.ndarray]:
    """Self-play, its records turned into a Parquet dataset, read back as arrays, with the legal
    actions as dense masks (``mask``) for the network's softmax."""
    records, data = folder / f"{name}.jsonl", folder / f"{name}.parquet"
    selfplay(config, records, rotate=True, backend=backend)
    export(records_in(records), data)
    columns = arrays(data)
    columns["mask"] = dense_masks(columns["legal"], encoding(GAME).action_size)
    return columns


def margins(data: Mapping[str, np.ndarray]) -> np.ndarray:
    """For each row, how much the deciding seat's side won its deal by (its reward minus the
    other side's: in Tressette both sides score, so the difference is what matters)."""
    reward = {(deal, seat): r for deal, seat, r in zip(data["deal_id"], data["seat"], data["reward"], strict=True)}
    return np.array([reward[deal, seat] - reward[deal, (seat + 1) % 4]
                     for deal, seat in zip(data["deal_id"], data["seat"], strict=True)], np.float32)


def measure(opponent: str, deals: int, seed: int, workers: int) -> str:
    report = run(Config(GAME, (LEARNER, opponent), deals, seed=seed), workers=workers)
    return f"{report.advantages()[0]} points per deal (n={deals} boards)"


def main() -> None:
    parser = CommandParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1500, help="deals of the rule-based player to imitate")
    parser.add_argument("--iterations", type=int, default=3, help="rounds of self-play improvement")
    parser.add_argument("--improve-deals", type=int, default=600, help="boards per round of improvement")
    parser.add_argument("--arena-deals", type=int, default=1000, help="boards of each arena measurement")
    parser.add_argument("--hidden", type=int, default=256, help="units of the hidden layer")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--data", metavar="DIR", help="keep the records and datasets in DIR")
    args = parser.parse_args()
    # Self-play and the arena seat the policy by name in forked workers; elsewhere, one process.
    workers = 2 if multiprocessing.get_start_method() == "fork" else 1
    backend = ProcessBackend(workers)
    xp, code = Arrays(), encoding(GAME)
    network = Network(code.observation_size, args.hidden, code.action_size, args.seed)
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(args.data or scratch)
        folder.mkdir(parents=True, exist_ok=True)
        data = dataset(Config(GAME, ("heuristic",), args.deals, seed=args.seed), folder, "imitation", backend)
        choice = data["mask"].sum(axis=1) > 1  # a forced move teaches nothing
        data = {name: column[choice] for name, column in data.items()}
        loss = network.train(xp, data, np.ones(len(data["action"]), np.float32), epochs=4, lr=1e-3, seed=args.seed)
        agree = (network.probabilities(data["observation"], data["mask"]).argmax(axis=1) == data["action"]).mean()
        print(f"imitation: {len(data['action'])} decisions of {args.deals} deals, training on {xp.name}; "
              f"loss {loss:.3f}, chooses as the rule-based player {agree:.1%} of the time "
              f"({time.monotonic() - start:.0f}s)")
        seat_learner(network, code, explore=False)
        print(f"  against the rule-based player: {measure('heuristic', args.arena_deals, 2026, workers)}")
        for iteration in range(1, args.iterations + 1):
            seat_learner(network, code, explore=True)
            config = Config(GAME, (LEARNER, "heuristic"), args.improve_deals, seed=args.seed * 1000 + iteration)
            played = dataset(config, folder, f"improvement{iteration}", backend)
            own = (played["player"] == LEARNER) & (played["mask"].sum(axis=1) > 1)
            margin = margins(played)[own]
            played = {name: column[own] for name, column in played.items()}
            advantage = (margin - margin.mean()) / (margin.std() + 1e-6)
            network.train(xp, played, advantage, epochs=1, lr=2e-4, seed=args.seed + iteration)
            print(f"improvement {iteration}: {len(margin)} decisions, mean margin {margin.mean():+.2f} points "
                  f"per deal against the rule-based player ({time.monotonic() - start:.0f}s)")
    seat_learner(network, code, explore=False)
    print("the arena, the learned policy choosing its most probable action (95% intervals):")
    print(f"  against the rule-based player: {measure('heuristic', args.arena_deals, 2026, workers)}")
    print(f"  against the random player:     {measure('random', args.arena_deals // 4, 2026, workers)}")
    print(f"({time.monotonic() - start:.0f}s in all)")


if __name__ == "__main__":
    main()
