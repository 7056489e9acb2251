"""CFR+ on the reduced games: their sizes and exploitability curves.

Each reduced game is loaded as an OpenSpiel Python game, its tree written in extensive form
(``osteria.envs.reduced.efg``) and loaded as a C++ game, on which OpenSpiel's C++ CFR+ runs;
the exploitability of its average policy (in points per deal) is measured after 1, 2, 5, 10,
20, 50... iterations. It prints a Markdown table, and with ``--chart`` draws the curves with
matplotlib.

    python benchmarks/cfr_small.py --iterations 500
    python benchmarks/cfr_small.py --iterations 500 --chart docs/cfr_small.png
"""

from __future__ import annotations

import re
import time
from typing import Any

import pyspiel

from osteria.cli import CommandParser
from osteria.envs.reduced import efg

# The reduced games measured: a name for the table, the OpenSpiel game and its parameters.
GAMES: list[tuple[str, str, dict[str, Any]]] = [
    ("mini tressette 3×2 ranks, 2 cards", "osteria_mini_tressette", {"suits": 3, "ranks": "A3", "hand": 2}),
    ("mini tressette 3×3 ranks, 2 cards", "osteria_mini_tressette", {"suits": 3, "ranks": "A23", "hand": 2}),
    ("mini tressette 3×3 ranks, 3 cards", "osteria_mini_tressette", {"suits": 3, "ranks": "A23", "hand": 3}),
    ("mini sancagna 2×3 ranks, 2 cards", "osteria_mini_sancagna", {"suits": 2, "ranks": "34R", "hand": 2}),
    ("mini sancagna 3×3 ranks, 2 cards", "osteria_mini_sancagna", {"suits": 3, "ranks": "34R", "hand": 2}),
    ("mini quattrigghiu 2×3 ranks, 2 cards", "osteria_mini_quattrigghiu", {"suits": 2, "ranks": "A2R", "hand": 2}),
    ("mini quattrigghiu 2×4 ranks, 2 cards", "osteria_mini_quattrigghiu", {"suits": 2, "ranks": "A27R", "hand": 2}),
    ("mini quattrigghiu 3×3 ranks, 2 cards", "osteria_mini_quattrigghiu", {"suits": 3, "ranks": "A2R", "hand": 2}),
]
CHECKPOINTS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000)
# How the chart draws each family's curves, whose exploitabilities may all but coincide.
STYLES = {"osteria_mini_tressette": ("o", "-"), "osteria_mini_sancagna": ("s", "--"),
          "osteria_mini_quattrigghiu": ("^", ":")}
# A decision node of the extensive form: its player and its information set's number.
DECISION = re.compile(r'^\s*p "" (\d+) (\d+) ', re.MULTILINE)


def measure(short_name: str, params: dict[str, Any], iterations: int) -> dict[str, Any]:
    """The game's sizes and its exploitability after each checkpoint up to ``iterations``."""
    game = pyspiel.load_game(short_name, params)
    started = time.process_time()
    text = efg(game)
    tree = pyspiel.load_efg_game(text)
    built = time.process_time() - started
    infosets = {(player, number) for player, number in DECISION.findall(text)}
    solver = pyspiel.CFRPlusSolver(tree)
    curve: list[tuple[int, float]] = []
    solving = 0.0
    for i in range(1, iterations + 1):
        started = time.process_time()
        solver.evaluate_and_update_policy()
        solving += time.process_time() - started
        if i in CHECKPOINTS or i == iterations:
            curve.append((i, pyspiel.exploitability(tree, solver.average_policy())))
    return {
        "deals": game.max_chance_outcomes(),
        "histories": text.count("\n") - 2,  # one line a node, after the header and a blank line
        "decisions": len(DECISION.findall(text)),
        "infosets": [sum(1 for p, _ in infosets if p == str(seat + 1)) for seat in range(2)],
        "built_s": built,
        "solve_s": solving,
        "curve": curve,
    }


def main() -> None:
    parser = CommandParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=500)
    parser.add_argument("--chart", help="where to draw the curves (a .png), with matplotlib")
    args = parser.parse_args()
    results = []
    for name, short_name, params in GAMES:
        result = measure(short_name, params, args.iterations)
        results.append((name, short_name, result))
        print(f"{name}: {result['deals']:,} deals, {result['histories']:,} nodes, {result['decisions']:,} decision "
              f"nodes, information states {result['infosets'][0]:,} + {result['infosets'][1]:,}; tree built in "
              f"{result['built_s']:.1f} s, {args.iterations} iterations of CFR+ in {result['solve_s']:.1f} s (CPU)",
              flush=True)
    print()
    print("| iterations | " + " | ".join(name for name, _, _ in results) + " |")
    print("| ---: | " + " | ".join("---:" for _ in results) + " |")
    for row, (iteration, _) in enumerate(results[0][2]["curve"]):
        print(f"| {iteration} | " + " | ".join(f"{r['curve'][row][1]:.2e}" for _, _, r in results) + " |")
    if args.chart:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        figure, axes = plt.subplots(figsize=(7, 5))
        for name, short_name, result in results:
            marker, line = STYLES[short_name]
            axes.plot(*zip(*result["curve"], strict=True), marker=marker, linestyle=line, label=name)
        axes.set(xscale="log", yscale="log", xlabel="CFR+ iterations", ylabel="exploitability (points per deal)",
                 title="CFR+ on the reduced games")
        axes.grid(True, which="both", alpha=0.3)
        axes.legend(fontsize="small")
        figure.tight_layout()
        figure.savefig(args.chart, dpi=100)


if __name__ == "__main__":
    main()
