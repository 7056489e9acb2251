"""Arena throughput, in deals per second, with 1 and 2 workers: this machine's processes
(the default backend) and a local Ray.

    python benchmarks/arena_throughput.py [--boards N] [--game GAME] [--players A,B]

(defaults: 1000 boards of tressette, heuristic against random: 2000 deals). Each backend is
warmed up on a few boards first, then each run is timed three times and the fastest counts;
Ray's start-up is reported apart, not counted in its throughput. On a shared machine the
absolute figures move with the load: compare the ratios.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

from osteria.arena import Config, run
from osteria.arena.duplicate import Backend, ProcessBackend
from osteria.cli import CommandParser

REPEATS = 3


def throughput(config: Config, backend: Backend) -> float:
    """Deals per second of an arena run: the fastest of a few, the others slowed by the load."""
    run(Config(config.game, config.players, 8, seed=config.seed + 1), backend=backend)  # warm-up
    rates = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        report = run(config, backend=backend)
        rates.append(sum(len(board["deals"]) for board in report.boards) / (time.perf_counter() - start))
    return max(rates)


def with_ray(config: Config, workers: int) -> tuple[float, float]:
    """Deals per second on a local Ray of ``workers`` CPUs, and the seconds Ray took to start."""
    from osteria.arena.ray_backend import RayBackend

    start = time.perf_counter()
    with RayBackend("local", workers=workers) as backend:
        backend.cpus()  # starts Ray
        started = time.perf_counter() - start
        return throughput(config, backend), started


def main() -> None:
    parser = CommandParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument("--game", default="tressette")
    parser.add_argument("--players", default="heuristic,random")
    args = parser.parse_args()
    game, boards, players = args.game, args.boards, tuple(args.players.split(","))
    config = Config(game, players, boards, seed=2026)
    print(f"{game}, {','.join(players)}: {boards} boards; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")
    runs: dict[str, Callable[[int], float]] = {"multiprocessing": lambda n: throughput(config, ProcessBackend(n))}
    try:
        import ray  # noqa: F401 - only to know whether the Ray rows can be measured

        def ray_run(n: int) -> float:
            rate, started = with_ray(config, n)
            print(f"  (a local Ray of {n} CPUs started in {started:.1f}s)")
            return rate

        runs["ray"] = ray_run
    except ImportError:
        print("Ray is not installed: only the default backend is measured")
    print(f"{'backend':16} {'1 worker':>14} {'2 workers':>14} {'2 vs 1':>8}")
    for name, measure in runs.items():
        one, two = measure(1), measure(2)
        print(f"{name:16} {one:10.0f} d/s {two:10.0f} d/s {two / one:7.2f}x")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
