"""Every player against every other in every game, in the arena; writes docs/strength.md.

    python benchmarks/strength.py [--deals N] [--slow-deals N] [--games g1,g2] [--out docs/strength.md]
                                  [--cache DIR] [--workers N] [--boards GAME:A,B=N ...]

Each pair plays N duplicate boards with every seat rotation (fewer, --slow-deals, when a
searching player takes part: they think for a while at every move). ``--boards`` gives a
chosen pair more (or fewer) boards, for an edge too small to show on the common number. The
boards of each pair are kept in --cache as the arena's resumable results, so a second run only
plays what is new.
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
from osteria.bots import BOTS, refusal
from osteria.bots.levels import LEVELS, STRONGEST

SLOW = {"pimc", "ismcts", "hybrid"}  # 0.1 s at (nearly) every move; the oracle, the ceiling, gets every board
# Strongest first, so that each line reads "stronger against weaker".
ORDER = ("oracle", "hybrid", "ismcts", "pimc", "dmc", "heuristic", "random")
# The hybrid is measured against the rule-based player it overrules, the bar it must clear, on
# as many boards as its small edge needs (--boards); its other pairings would cost hours.
ONLY_AGAINST = {"hybrid": "heuristic"}
UNIT = {"tressette": "points", "calabresella": "stakes", "traversone": "points (fewer is better)",
        "quattrigghiu": "stakes", "sancagna": "circles per smazzata"}


def players_for(game: str) -> list[str]:
    # The levels are other players under new names: they are not measured twice.
    names = [n for n in (*BOTS, *PLAYERS) if n not in LEVELS and (n in PLAYERS or refusal(n, game) is None)]
    return sorted(names, key=lambda n: ORDER.index(n) if n in ORDER else len(ORDER))


def chosen_boards(specs: list[str]) -> dict[tuple[str, str, str], int]:
    """``GAME:A,B=N`` options as {(game, a, b): N}, the pair in either order."""
    boards: dict[tuple[str, str, str], int] = {}
    for spec in specs:
        try:
            game, rest = spec.split(":", 1)
            pair, count = rest.split("=", 1)
            a, b = pair.split(",")
            boards[game, a, b] = boards[game, b, a] = int(count)
        except ValueError:
            example = "tressette:hybrid,heuristic=400"
            raise SystemExit(f"--boards {spec!r}: expected GAME:A,B=N, for example {example}") from None
    return boards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--slow-deals", type=int, default=60)
    parser.add_argument("--games", default=",".join(osteria.games()))
    parser.add_argument("--out", default="docs/strength.md")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cache", default=".strength", help="folder of the arena results per pair")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--boards", action="append", default=[], metavar="GAME:A,B=N",
                        help="boards for one pair (repeatable)")
    args = parser.parse_args()
    boards = chosen_boards(args.boards)
    lines = [
        "# How strong are osteria's players?",
        "",
        "Each line is an arena run: the same boards (deals) played with every rotation of the two",
        "players around the table, so the cards' luck cancels out. *Advantage* is the first player's",
        "score per board minus the second's, with its 95% confidence interval; it is positive when",
        "the first player is better, whichever way the game counts. `oracle` cheats (it sees every",
        "hand) and marks how far honest play could go. `pimc` and `ismcts` think 0.1 s a move and",
        "play fewer boards, so their intervals are wider. `hybrid` is the rule-based player",
        "overruled by search (0.1 s a move at most) where the search sees clearly further; it plays",
        "against the rule-based player only, on as many boards as its small edge needs",
        "(`--boards GAME:hybrid,heuristic=N`). The last table takes, in each game, the strongest",
        "honest player (the one the `difficile` and `maestro` levels use) and says what share of the",
        "oracle's lead over the rule-based player it wins. This page is written",
        "by `python benchmarks/strength.py`; every line gives its own command. The boards are the",
        "same on every machine, but a player thinking to a time limit searches less on a slower or",
        "busier one, so a rerun agrees within the interval, not to the digit.",
        "",
    ]
    gaps = []
    for game in args.games.split(","):
        advantages = {}
        lines += [f"## {game}", "", f"Advantage in {UNIT.get(game, 'points')} per board.", "",
                  "| players | boards | advantage (95%) | command |", "| --- | --- | --- | --- |"]
        for a, b in itertools.combinations(players_for(game), 2):
            if ONLY_AGAINST.get(a, b) != b or ONLY_AGAINST.get(b, a) != a:
                continue
            deals = boards.get((game, a, b), args.slow_deals if {a, b} & SLOW else args.deals)
            started = time.monotonic()
            cache = Path(args.cache)
            cache.mkdir(exist_ok=True)
            report = run(Config(game, (a, b), deals, seed=args.seed), workers=args.workers,
                         results=cache / f"{game}-{a}-{b}.jsonl")
            advantage = report.advantages()[0]
            advantages[a, b] = (advantage, deals)
            command = f"osteria arena {game} --players {a},{b} --deals {deals} --seed {args.seed}"
            lines.append(f"| {a} vs {b} | {deals} | {advantage} | `{command}` |")
            print(f"{game}: {a} vs {b}: {advantage} ({time.monotonic() - started:.0f} s)", flush=True)
        lines.append("")
        strongest = STRONGEST.get(game, "hybrid")
        if (strongest, "heuristic") in advantages and ("oracle", "heuristic") in advantages:
            (honest, deals), (oracle, _) = advantages[strongest, "heuristic"], advantages["oracle", "heuristic"]
            share = f"{honest.mean / oracle.mean:.0%}" if oracle.mean > 0 else "-"
            gaps.append(f"| {game} | {strongest} | {deals} | {honest} | {oracle} | {share} |")
        Path(args.out).write_text("\n".join(lines), encoding="utf-8")  # each game as soon as it is done
    lines += ["## The strongest honest player against the rule-based one", "",
              "| game | player | boards | its advantage (95%) | the oracle's | share of the oracle's |",
              "| --- | --- | --- | --- | --- | --- |", *gaps, ""]
    Path(args.out).write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main()
