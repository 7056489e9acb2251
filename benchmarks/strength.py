"""Every player against every other in every game, in the arena; writes docs/strength.md.

    python benchmarks/strength.py [--deals N] [--slow-deals N] [--games g1,g2] [--out docs/strength.md]
                                  [--cache DIR]

Each pair plays N duplicate boards with every seat rotation (fewer, --slow-deals, when a
searching player takes part: they think for a while at every move). The boards of each pair
are kept in --cache as the arena's resumable results, so a second run only plays what is new.
The page lists, for each game and pair, the first player's advantage per board over the
second with its 95% interval, so every figure can be reproduced with the command beside it.
"""

from __future__ import annotations

import argparse
import itertools
import os
import time
from pathlib import Path

import osteria
from osteria.arena import Config, run
from osteria.arena.players import PLAYERS
from osteria.bots import BOTS, HEURISTICS
from osteria.bots.levels import LEVELS

SLOW = {"pimc", "ismcts"}  # they search at every move; the oracle only at its card play
# Strongest first, so that each line reads "stronger against weaker".
ORDER = ("oracle", "ismcts", "pimc", "heuristic", "random")
UNIT = {"tressette": "points", "calabresella": "stakes", "traversone": "points (fewer is better)",
        "quattrigghiu": "stakes", "sancagna": "circles per smazzata"}


def players_for(game: str) -> list[str]:
    # The levels are other players under new names: they are not measured twice.
    names = [n for n in (*BOTS, *PLAYERS) if n not in LEVELS and (n != "heuristic" or game in HEURISTICS)]
    return sorted(names, key=lambda n: ORDER.index(n) if n in ORDER else len(ORDER))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--slow-deals", type=int, default=60)
    parser.add_argument("--games", default=",".join(osteria.games()))
    parser.add_argument("--out", default="docs/strength.md")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cache", default=".strength", help="folder of the arena results per pair")
    args = parser.parse_args()
    workers = os.cpu_count() or 1
    lines = [
        "# How strong are osteria's players?",
        "",
        "Each line is an arena run: the same boards (deals) played with every rotation of the two",
        "players around the table, so the cards' luck cancels out. *Advantage* is the first player's",
        "score per board minus the second's, with its 95% confidence interval; it is positive when",
        "the first player is better, whichever way the game counts. `oracle` cheats (it sees every",
        "hand) and marks how far honest play could go. `pimc` and `ismcts` think 0.1 s a move and",
        "play fewer boards, so their intervals are wider. This page is written by",
        "`python benchmarks/strength.py`; every line gives its own command.",
        "",
    ]
    for game in args.games.split(","):
        lines += [f"## {game}", "", f"Advantage in {UNIT.get(game, 'points')} per board.", "",
                  "| players | boards | advantage (95%) | command |", "| --- | --- | --- | --- |"]
        for a, b in itertools.combinations(players_for(game), 2):
            deals = args.slow_deals if {a, b} & SLOW else args.deals
            started = time.monotonic()
            cache = Path(args.cache)
            cache.mkdir(exist_ok=True)
            report = run(Config(game, (a, b), deals, seed=args.seed), workers=workers,
                         results=cache / f"{game}-{a}-{b}.jsonl")
            advantage = report.advantages()[0]
            command = f"osteria arena {game} --players {a},{b} --deals {deals} --seed {args.seed}"
            lines.append(f"| {a} vs {b} | {deals} | {advantage} | `{command}` |")
            print(f"{game}: {a} vs {b}: {advantage} ({time.monotonic() - started:.0f} s)", flush=True)
        lines.append("")
        Path(args.out).write_text("\n".join(lines), encoding="utf-8")  # each game as soon as it is done


if __name__ == "__main__":
    main()
