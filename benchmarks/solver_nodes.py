"""Nodes and CPU time of the double-dummy solver on a fixed set of seeded Tressette endings.

Nodes per solve is the measure that does not depend on the machine or its load; CPU time
(``time.process_time``) is given with it. The endings are those of ``osteria bench``: a deal
dealt by ``random.Random(seed)`` and played at random until ``tricks`` tricks remain (10: the
whole deal), solved for the seat to move.

    python benchmarks/solver_nodes.py --tricks 10 --count 20
    python benchmarks/solver_nodes.py --tricks 6 --count 100 --pure
"""

from __future__ import annotations

import random
import statistics
import time

from osteria.bots.solver import Solver
from osteria.cli import CommandParser
from osteria.rules.tressette import TRICKS, Tressette, TressetteDeal


def endings(tricks: int, count: int, seed: int) -> list[TressetteDeal]:
    """``count`` endings of ``tricks`` tricks, the same for the same seed."""
    rules, rng = Tressette(), random.Random(seed)
    out = []
    for _ in range(count):
        hands, stock = rules.deal_cards(rng)
        deal = rules.new_deal(1, rng.randrange(4), hands, stock, [])
        assert isinstance(deal, TressetteDeal)
        while deal.tricks_done < TRICKS - tricks:
            deal.apply(rng.choice(deal.legal()))
        out.append(deal)
    return out


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = CommandParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tricks", type=int, default=10, help="tricks left in each ending (10: whole deals)")
    parser.add_argument("--count", type=int, default=20, help="how many endings")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pure", action="store_true", help="the pure-Python reference, not the compiled kernel")
    parser.add_argument("--verbose", action="store_true", help="a line per ending")
    args = parser.parse_args()
    deals = endings(args.tricks, args.count, args.seed)
    if not args.pure:  # compile (or load) the kernel before the clock starts
        Solver().solve(endings(1, 1, args.seed)[0])
    nodes: list[float] = []
    seconds: list[float] = []
    for i, deal in enumerate(deals):
        start = time.process_time()
        solution = Solver(compiled=not args.pure).solve(deal)
        seconds.append(time.process_time() - start)
        nodes.append(solution.nodes)
        if args.verbose:
            print(f"{i:4} value {solution.value:4} nodes {solution.nodes:12} cpu {1000 * seconds[-1]:10.1f} ms")
    kind = "pure" if args.pure else "compiled"
    print(f"{args.tricks}-trick endings, {kind}, {len(deals)} seeded from {args.seed}: "
          f"nodes median {statistics.median(nodes):.0f} p99 {percentile(nodes, 0.99):.0f} "
          f"mean {statistics.mean(nodes):.0f}; "
          f"cpu median {1000 * statistics.median(seconds):.2f} ms p99 {1000 * percentile(seconds, 0.99):.1f} ms")


if __name__ == "__main__":
    main()
