"""How strong each game's players are, measured in the arena; writes docs/strength.md.

    python benchmarks/strength.py [--games g1,g2] [--workers N] [--first N] [--most N]
                                  [--results DIR] [--out FILE] [--held-only] [--untimed-only]
                                  [--only P1,P2]

For every game, each line an arena run of two players on the same duplicate boards:

- the oracle (it sees every hand) against the rule-based player: the ceiling of honest play;
- the oracle in the card play alone (``oracle-play``: every other decision the rule-based
  player's) against the rule-based player: how much of the ceiling is the card play's;
- each honest searching or learned player against the rule-based player, and the share of the
  oracle's lead that it wins;
- the rule-based player against random at every seat count the game allows;
- the level ladder: medio against facile, difficile against medio, maestro against difficile.

A line plays ``--first`` boards, then doubles them until its 95% interval is at most a quarter of
the oracle's lead over the rule-based player (the oracle's own line until its interval is a
quarter of its mean), at most ``--most`` boards; Tressette's oracle and strongest honest player
play at least 1,000, and every line of the ladder at least 800, so that a small step between
two levels can be told from none. The boards of every line are kept as the arena's results in
``--results`` (in the repository), so that a rerun plays only the boards it lacks and the page can grow over
several runs and machines: ``--held-only`` writes the page from the kept boards without playing,
``--untimed-only`` plays only the lines whose players do not think to a time limit at their
moves (their results hardly depend on how fast or busy the machine is: the oracle's bound of a
few seconds a bid is a safeguard it seldom reaches) and writes the others from what is kept;
``--only`` plays only the lines that the players named lead. A line whose interval is still
wider than its goal says so.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

import osteria
from osteria.arena import Config, run
from osteria.arena.duplicate import Report
from osteria.arena.stats import Estimate
from osteria.bots import make_bot, refusal
from osteria.bots.learned import READERS, DmcPlayer
from osteria.bots.levels import STRONGEST, THINKING, difficile_plays_as
from osteria.cli import CommandParser

SEED = 2026
FIRST = 100  # boards a line plays first
# The players that think to a time limit at (nearly) every move: their lines are dear, and what
# they find depends on the machine.
TIMED = {"pimc", "ismcts", "hybrid", "hybrid-dmc", *THINKING}
# The honest players measured against the rule-based player, strongest first where known.
# The maestro is the strongest honest player at a second a move: its line is dear (hours in
# Tressette), so a game shows it only once it was played.
HONEST = ("hybrid", "pimc", "ismcts", "dmc", "hybrid-dmc", "maestro")
# The player a levels' player built on the learned one plays as where it has no network.
UNLEARNED = {"hybrid-dmc": "hybrid"}
LADDER = (("medio", "facile"), ("difficile", "medio"), ("maestro", "difficile"))
UNIT = {"tressette": "points", "calabresella": "stakes", "traversone": "points (fewer is better)",
        "quattrigghiu": "stakes", "sancagna": "circles per smazzata"}
# Boards the lines that make a game's share play at least (the issue of record asks 1,000 in
# Tressette, whose oracle leads by some 4 points a deal).
FLOOR = {"tressette": 1000}
# Boards every line of the level ladder plays at least, fixed beforehand rather than played until
# a verdict shows (which would favour one): a step of a few hundredths of a stake, as the
# searching players' over the rule-based one in the bidding games, needs some 800 boards to be
# told from zero.
LADDER_FLOOR = 800


@dataclass
class Line:
    """One arena run: its players and seats, and, once measured, the first player's advantage."""

    game: str
    players: tuple[str, str]
    seats: int | None = None
    floor: int = 0
    advantage: Estimate | None = None

    @property
    def timed(self) -> bool:
        return bool(TIMED & set(self.players))

    @property
    def name(self) -> str:
        seats = f"-{self.seats}" if self.seats else ""
        return f"{self.game}{seats}-{self.players[0]}-{self.players[1]}"

    def config(self, boards: int) -> Config:
        return Config(self.game, self.players, boards, seed=SEED, seats=self.seats)

    def command(self) -> str:
        seats = f" --seats {self.seats}" if self.seats else ""
        boards = self.advantage.n if self.advantage else max(self.floor, FIRST)
        return f"osteria arena {self.game}{seats} --players {','.join(self.players)} --deals {boards} --seed {SEED}"


def held(path: Path) -> int:
    """How many boards a results file holds, in a row from the first (those a report reads)."""
    if not path.exists():
        return 0
    boards = set()
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        try:
            boards.add(json.loads(line)["board"])
        except (json.JSONDecodeError, KeyError):
            continue  # a line cut short, or a match's
    count = 0
    while count in boards:
        count += 1
    return count


class Measure:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.folder = Path(args.results)
        self.folder.mkdir(parents=True, exist_ok=True)

    def report(self, line: Line, boards: int) -> Report:
        return run(line.config(boards), workers=self.args.workers, results=self.folder / f"{line.name}.jsonl")

    def measure(self, line: Line, goal: float | None) -> Line:
        """Play the line until its interval is within ``goal`` (None: a quarter of its own mean),
        from the boards kept; only read them where this run does not play such a line."""
        path = self.folder / f"{line.name}.jsonl"
        kept = held(path)
        plays = not self.args.held_only and not (self.args.untimed_only and line.timed) \
            and (not self.args.only or line.players[0] in self.args.only.split(","))
        boards = max(kept, line.floor, self.args.first) if plays else kept
        started = time.monotonic()
        while boards:
            line.advantage = self.report(line, boards).advantages()[0]
            want = goal if goal is not None else abs(line.advantage.mean) / 4
            if not plays or line.advantage.half_width <= want or boards >= self.args.most:
                break
            boards = min(2 * boards, self.args.most)
        if line.advantage:
            print(f"{line.name}: {line.advantage} over {line.advantage.n} boards "
                  f"({time.monotonic() - started:.0f} s)", flush=True)
        return line


def strongest_of(lines: list[Line]) -> Line | None:
    """The measured line whose first player leads by the most, None where none is measured."""
    measured = [line for line in lines if line.advantage]
    return max(measured, key=lambda line: line.advantage.mean if line.advantage else 0.0, default=None)


def learned_at(game: str, seats: int) -> bool:
    """Whether the learned player has a network for ``game`` at ``seats`` (elsewhere it plays as
    the rule-based player): as the player itself finds it."""
    return game in READERS and DmcPlayer(game, make_bot("heuristic", game=game)).reader(seats) is not None


def short_of_floor(line: Line) -> str:
    """The mark of a measured line that played fewer boards than its floor asks, else nothing."""
    a = line.advantage
    return f" (fewer than the {line.floor:,} boards asked)" if a is not None and a.n < line.floor else ""


def quarter(oracle: Line) -> float | None:
    """The goal of a line's interval: a quarter of the oracle's lead (None until it is measured)."""
    return abs(oracle.advantage.mean) / 4 if oracle.advantage else None


def boards(line: Line) -> int:
    """The boards a measured line played (0 before): the oracle in the card play alone plays at
    least the oracle's boards, so that the two are compared on the same cards."""
    return line.advantage.n if line.advantage else 0


def cell(line: Line, goal: float | None) -> str:
    if line.advantage is None:
        return "| not measured yet | |"
    a = line.advantage
    mark = "" if goal is None or a.half_width <= goal else " (interval above its goal)"
    return f"| {a.n} | {a}{mark}{short_of_floor(line)} |"


def main() -> None:
    parser = CommandParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=",".join(osteria.games()))
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--first", type=int, default=FIRST, help=f"boards a line plays first ({FIRST})")
    parser.add_argument("--most", type=int, default=2000, help="boards a line plays at most (2000)")
    parser.add_argument("--results", default=str(Path(__file__).with_name("strength")),
                        help="folder of the lines' arena results, kept between runs")
    parser.add_argument("--out", default="docs/strength.md")
    parser.add_argument("--held-only", action="store_true", help="write the page from the kept boards alone")
    parser.add_argument("--only", metavar="P1,P2", help="play only the lines these players lead")
    parser.add_argument("--untimed-only", action="store_true",
                        help="play only the lines of players that do not think to a time limit")
    args = parser.parse_args()
    unknown = set(args.games.split(",")) - set(osteria.games())
    if unknown or args.first < 2 or args.most < args.first:
        parser.error(f"games among {', '.join(osteria.games())}; --first at least 2 and --most at least --first")
    measure = Measure(args)
    lines = [
        "# How strong are osteria's players?",
        "",
        "Each line is an arena run: the same boards (deals) played with every rotation of the two",
        "players around the table, so the cards' luck cancels out. *Advantage* is the first player's",
        "score per board minus the second's, with its 95% confidence interval; it is positive when the",
        "first player is better, whichever way the game counts. `oracle` cheats: it sees every hand,",
        "values each bid, call and discard by solving it on the true deal, and so marks how far honest",
        "play could go; `oracle-play` cheats in the card play alone, and shows how much of that is the",
        "card play's. `dmc` is the learned player, `hybrid-dmc` the hybrid overruling it instead of",
        "the rule-based player. `pimc`, `ismcts`, `hybrid` and `hybrid-dmc` think 0.1 s a move,",
        "`difficile` too and `maestro` 1 s; in Tressette the difficile is `dmc` and `pimc` and the",
        "maestro read the others' play, and in Quattrigghiu the maestro solves the last 32 cards, the",
        "difficile the last 16 (docs/ai.md). Each line plays boards until its interval is at most a",
        "quarter of the",
        "oracle's lead over the rule-based player (Tressette's",
        "oracle and strongest honest player at least 1,000 boards, every line of the level ladder at",
        "least 800, so that a small step between two levels can be told from none), at most 2,000; a",
        "line short of that says so. This page is",
        "written by `python benchmarks/strength.py`, which keeps every board it played in",
        "`benchmarks/strength/` and plays only the boards a line lacks; every line gives its own",
        "command. The boards are the same on every machine, but a player thinking to a time limit",
        "searches less on a slower or busier one, so a rerun agrees within the interval, not to the",
        "digit.",
        "",
    ]
    shares, ladders, splits = [], [], []
    for game in args.games.split(","):
        rules = osteria.game_rules(game)
        floor = FLOOR.get(game, 0)
        strongest = STRONGEST.get(game, "hybrid")
        oracle = measure.measure(Line(game, ("oracle", "heuristic"), floor=floor), None)
        goal = quarter(oracle)
        # Each seat count's oracle, and the oracle in the card play alone there.
        split = [(oracle, measure.measure(Line(game, ("oracle-play", "heuristic"), floor=boards(oracle)), goal))]
        # The difficile against the rule-based player is the line of the honest player it plays as,
        # which plays the boards of a line of the ladder.
        difficile_as = difficile_plays_as(game)
        honest = [measure.measure(Line(game, (p, "heuristic"),
                                       floor=max(floor if p == strongest else 0,
                                                 LADDER_FLOOR if p == difficile_as else 0)), goal)
                  for p in HONEST if refusal(p, game) is None]
        honest = [line for line in honest if line.advantage or line.players[0] != "maestro"]
        over_random = [measure.measure(Line(game, ("heuristic", "random"), seats=n if n != rules.seats else None),
                                       goal) for n in rules.seat_counts]
        ladder = [measure.measure(Line(game, pair, floor=LADDER_FLOOR), goal)
                  for pair in LADDER if pair != ("difficile", "medio")]
        # At every other seat count, the oracle and the strongest honest player: the share asked
        # holds at each one.
        others = []
        for n in rules.seat_counts:
            if n != rules.seats:
                ceiling = measure.measure(Line(game, ("oracle", "heuristic"), seats=n), None)
                # Where no network was trained for n seats, the learned players play as the rule-based one.
                players = (strongest, "dmc") if learned_at(game, n) else (UNLEARNED.get(strongest, strongest),)
                honest_n = [measure.measure(Line(game, (p, "heuristic"), seats=n), quarter(ceiling))
                            for p in dict.fromkeys(players)]
                others.append((ceiling, honest_n))
                split.append((ceiling, measure.measure(Line(game, ("oracle-play", "heuristic"), seats=n,
                                                            floor=boards(ceiling)), quarter(ceiling))))
        aim = f"±{goal:.3f}" if goal is not None else "unknown until the oracle is measured"
        if others:
            aim += (f" ({rules.seats} seats; the oracle and {strongest} at the other seat counts aim at a quarter "
                    f"of the oracle's lead there)")
        lines += [f"## {game}", "", f"Advantage in {UNIT.get(game, 'points')} per board; the goal of each "
                  f"interval: {aim}.",
                  "", "| players | seats | boards | advantage (95%) | command |", "| --- | --- | --- | --- | --- |"]
        # The honest player measured strongest at each seat count, which may be another than the
        # levels' (a learned player).
        best = strongest_of(honest) or next((line for line in honest if line.players[0] == strongest), None)
        pairs = sorted([(oracle, best), *((ceiling, strongest_of(lines)) for ceiling, lines in others)],
                       key=lambda pair: pair[0].seats or rules.seats)
        # Each line's interval aims at a quarter of the oracle's lead at its own seat count where
        # the oracle was measured there, else at the game's.
        rows = [*((line, goal) for line in [oracle, split[0][1], *honest, *over_random, *ladder]),
                *((line, quarter(ceiling))
                  for (ceiling, honest_n), (_, card_play) in zip(others, split[1:], strict=True)
                  for line in (ceiling, card_play, *honest_n))]
        for line, own in rows:
            lines.append(f"| {line.players[0]} vs {line.players[1]} | {line.seats or rules.seats} "
                         f"{cell(line, own)} `{line.command()}` |")
        lines.append("")
        for ceiling, honest_best in pairs:
            seats = ceiling.seats or rules.seats
            player = honest_best.players[0] if honest_best else strongest
            if honest_best and honest_best.advantage and ceiling.advantage:
                a, o = honest_best.advantage, ceiling.advantage
                share = f"{a.mean / o.mean:.0%}" if o.mean > 0 else "-"
                shares.append(f"| {game} | {seats} | {player} | {a.n} | {a} | {o} | {share} |")
            else:
                a = honest_best.advantage if honest_best else None
                shares.append(f"| {game} | {seats} | {player} | {a.n if a else ''} | {a or 'not measured yet'} "
                              f"| {ceiling.advantage or 'not measured yet'} | |")
        for ceiling, card_play in sorted(split, key=lambda pair: pair[0].seats or rules.seats):
            o, c = ceiling.advantage, card_play.advantage
            share = f"{c.mean / o.mean:.0%}" if o and c and o.mean > 0 else ""
            splits.append(f"| {game} | {ceiling.seats or rules.seats} | {o or 'not measured yet'} "
                          f"| {c.n if c else ''} | {c or 'not measured yet'} | {share} |")
        difficile_line = next((line for line in honest if line.players[0] == difficile_as), None)
        steps = {("difficile", "medio"): difficile_line, **{line.players: line for line in ladder}}
        for pair in LADDER:
            step = steps[pair]
            a = step.advantage if step else None
            verdict = "not measured yet" if a is None else "ahead" if a.low > 0 else "not clearly ahead"
            if step is not None:
                verdict += short_of_floor(step)
            ladders.append(f"| {game} | {pair[0]} vs {pair[1]} | {a.n if a else ''} | {a or ''} | {verdict} |")
        Path(args.out).write_text("\n".join(lines), encoding="utf-8")  # each game as soon as it is done
    lines += ["## The strongest honest player against the rule-based one", "",
              "At each seat count, the honest player measured strongest against the rule-based one there:",
              "at 0.1 s a move the player the `difficile` level is, or another honest player (the learned",
              "`dmc`) where it leads by more, and the `maestro` itself, at 1 s, where its line was played.",
              "The share is asked at every seat count a game allows.",
              "", "| game | seats | player | boards | its advantage (95%) | the oracle's | share of the oracle's |",
              "| --- | --- | --- | --- | --- | --- | --- |", *shares, "",
              "## Where the oracle's lead lies", "",
              "The oracle in the card play alone (`oracle-play`: its cards the oracle's, every bid, call,",
              "discard, call-out, accuso and cenno the rule-based player's) against the rule-based player:",
              "the part of the oracle's lead that its card play wins. The rest is what seeing every card",
              "(the widow, the partner's hand, the deals to come) is worth in the other decisions.", "",
              "| game | seats | the oracle's lead | boards | the oracle in the card play alone | its share |",
              "| --- | --- | --- | --- | --- | --- |", *splits, "",
              "## The levels", "",
              "Each level against the one below it. `medio` is the rule-based player and `difficile` the",
              "strongest honest player at 0.1 s a move (in Tressette the learned `dmc`), so their line is",
              "that player's against the rule-based one above; *ahead* where the whole interval is above",
              "zero.", "",
              "| game | levels | boards | advantage (95%) | |", "| --- | --- | --- | --- | --- |", *ladders, ""]
    Path(args.out).write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main()
