"""The ``osteria`` command: play a game, replay a record, measure speed."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from osteria.engine import Option, RulesError
from osteria.records import RecordError, load, replay
from osteria.rules import GAMES


class UsageError(Exception):
    """A bad command line: reported in one line, exit status 1."""


def option_value(game: str, spec: Option, text: str) -> Any:
    """A command-line word as an option's value, typed like the option's default."""
    default = spec.default
    if isinstance(default, bool):
        words = {"true": True, "si": True, "sì": True, "yes": True, "on": True,
                 "false": False, "no": False, "off": False}
        if text.lower() not in words:
            raise UsageError(f"{game}: --{spec.name} takes true or false, not {text!r}")
        return words[text.lower()]
    if isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            raise UsageError(f"{game}: --{spec.name} takes a number, not {text!r}") from None
    if isinstance(default, list):
        try:
            return [int(w) for w in text.replace(",", " ").split()]
        except ValueError:
            raise UsageError(f"{game}: --{spec.name} takes seat numbers such as 2 or 1,3, not {text!r}") from None
    return text


def game_options(game: str, words: Sequence[str]) -> dict[str, Any]:
    """Rules options given as ``--name value`` or ``--name=value`` after the game's name."""
    specs = {spec.name: spec for spec in GAMES[game].option_specs}
    options: dict[str, Any] = {}
    items = list(words)
    while items:
        word = items.pop(0)
        if not word.startswith("--"):
            raise UsageError(f"unexpected {word!r}")
        name, _, value = word[2:].partition("=")
        name = name.replace("-", "_")
        if name not in specs:
            known = ", ".join(f"--{n}" for n in specs) or "none"
            raise UsageError(f"{game} has no option --{name}; its rules options: {known}")
        if not value:
            if not items:
                raise UsageError(f"--{name} needs a value")
            value = items.pop(0)
        options[name] = option_value(game, specs[name], value)
    return options


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="osteria", description="Italy's regional trick-taking card games.")
    sub = parser.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play a game in the terminal against bots",
                          description="Play against bots. Rules options follow the game: "
                                      "osteria play tressette --target 41 --segni sud")
    play.add_argument("game", choices=list(GAMES))
    play.add_argument("--lang", choices=["it", "en"], default="it", help="language of the table (it)")
    play.add_argument("--seed", type=int, help="deal reproducibly from this seed")
    play.add_argument("--players", type=int, help="number of players, where the game allows several")
    play.add_argument("--seat", type=int, default=0, help="your seat (0)")
    play.add_argument("--save", metavar="FILE", help="save the record of the match to FILE")
    play.add_argument("--level", default="medio",
                      help="the bots' level: facile, medio (default), difficile, maestro; or random")

    rep = sub.add_parser("replay", help="check a record and print its result")
    rep.add_argument("file")
    rep.add_argument("--json", action="store_true", help="print the result as JSON")

    bench = sub.add_parser("bench", help="random-playout speed of every game")
    bench.add_argument("--seconds", type=float, default=2.0, help="time per measurement (2)")
    bench.add_argument("--game", action="append", choices=list(GAMES), help="only this game (repeatable)")
    bench.add_argument("--no-reference", action="store_true", help="skip OpenSpiel's reference games")

    arena = sub.add_parser("arena", help="measure bots by duplicate deals",
                           description="Duplicate deals with every seat rotation; rules options follow the game.")
    arena.add_argument("game", choices=list(GAMES))
    arena.add_argument("--players", required=True, help="comma-separated bots: random, ..., or cmd:COMMAND")
    arena.add_argument("--deals", type=int, default=100, help="boards (deals) to play (100)")
    arena.add_argument("--seed", type=int, default=0, help="seed of the boards (0)")
    arena.add_argument("--seats", type=int, help="number of seats, where the game allows several")
    arena.add_argument("--workers", type=int, default=0, help="processes (0: one per core)")
    arena.add_argument("--time-limit", type=float, default=1.0, help="seconds per move of an outside engine (1)")
    arena.add_argument("--results", metavar="FILE", help="JSON-lines file of boards; an interrupted run resumes")
    arena.add_argument("--matches", type=int, default=0, help="also play this many whole matches for win rates")
    arena.add_argument("--chart", metavar="PNG", help="draw the advantages with their intervals (needs matplotlib)")
    arena.add_argument("--records", metavar="FILE", help="write the osteria/1 record of every deal played, "
                       "one per line (JSON lines)")
    arena.add_argument("--json", action="store_true", help="print the summary as JSON")

    bot = sub.add_parser("bot", help="serve one of osteria's bots over the bot protocol")
    bot.add_argument("name", help="the bot: random, ...")
    bot.add_argument("--stdio", action="store_true", required=True, help="speak JSON lines on stdin/stdout")
    bot.add_argument("--game", choices=list(GAMES), default="tressette", help="the game it plays")
    bot.add_argument("--seed", type=int)

    sub.add_parser("games", help="list the games")
    return parser


def _print_result(result: dict[str, Any]) -> None:
    print(f"{result['game']}: {len(result['deals'])} deals")
    for i, deal in enumerate(result["deals"], 1):
        print(f"  deal {i}: {deal['outcome']:16} points {deal['points']}  delta {deal['delta']}")
    print(f"totals {result['totals']}")
    if result["finished"]:
        print(f"finished; winners: seats {', '.join(map(str, result['winners']))}")
    else:
        print("not finished")


def _arena(args: argparse.Namespace, options: dict[str, Any]) -> int:
    import os
    from pathlib import Path

    from osteria.arena import Config, run
    from osteria.arena.players import PLAYERS
    from osteria.bots import BOTS

    players = tuple(p.strip() for p in args.players.split(",") if p.strip())
    for p in players:
        if not p.startswith("cmd:") and p not in BOTS and p not in PLAYERS:
            raise UsageError(f"unknown player {p!r}; players: {', '.join((*BOTS, *PLAYERS))}, or cmd:COMMAND")
    if len(players) < 2:
        raise UsageError("--players needs at least two players, as random,random")
    if args.deals < 2:
        raise UsageError("--deals needs at least 2 boards for a confidence interval")
    config = Config(args.game, players, args.deals, seed=args.seed, seats=args.seats, options=options,
                    time_limit=args.time_limit, matches=args.matches, keep_records=bool(args.records))
    GAMES[args.game](args.seats, **options)  # bad options are reported before any work
    report = run(config, workers=args.workers or os.cpu_count() or 1,
                 results=Path(args.results) if args.results else None, progress=_progress_bar())
    if args.records:
        with Path(args.records).open("w", encoding="utf-8") as out:
            for board in report.boards:
                for played in board["deals"]:
                    if "record" in played:
                        out.write(json.dumps(played["record"], ensure_ascii=False) + "\n")
    if args.chart:
        from osteria.arena.chart import save_chart

        save_chart(report, Path(args.chart))
    if args.json:
        print(json.dumps(report.as_json()))
        return 0
    summary = report.as_json()
    better = "lower scores are better; " if summary["lower_is_better"] else ""
    print(f"{args.game}: {len(report.boards)} duplicate boards, every seat rotation, seed {args.seed} "
          f"({better}95% intervals)")
    width = max(8, *map(len, players)) + 2
    print(f"{'player':{width}} {'score per deal':>18} {'advantage':>18}", end="")
    print(f" {'matches won':>18}" if report.matches else "", end="")
    print(f" {'openskill':>10}" if "openskill" in summary else "")
    rates = report.win_rates() or []
    for p, (name, score, advantage) in enumerate(zip(players, report.scores(), report.advantages(), strict=True)):
        print(f"{name:{width}} {score!s:>18} {advantage!s:>18}", end="")
        print(f" {rates[p].mean:10.1%} ± {rates[p].half_width:5.1%}" if rates else "", end="")
        print(f" {summary['openskill'][p]['ordinal']:10.2f}" if "openskill" in summary else "")
    for name, count, examples in zip(players, summary.get("forfeited_moves", []), summary.get("faults", []),
                                     strict=False):
        if count:
            print(f"{name} forfeited {count} moves, for example: {'; '.join(examples[:3])}")
    return 0


def _progress_bar() -> Callable[[int, int], None]:
    """A one-line progress bar on the terminal (nothing when stderr is not a terminal)."""
    import time

    start = time.monotonic()

    def show(done: int, total: int) -> None:
        if not sys.stderr.isatty():
            return
        width = 30
        filled = width * done // max(total, 1)
        elapsed = time.monotonic() - start
        eta = f"{elapsed / done * (total - done):5.0f}s left" if done else ""
        end = "\n" if done >= total else ""
        print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {eta}", end=end, file=sys.stderr, flush=True)

    return show


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args, extra = parser.parse_known_args(argv)
    try:
        if args.command == "play":
            from osteria.tui import play

            return play(args.game, lang=args.lang, seed=args.seed, seats=args.players, human_seat=args.seat,
                        save=args.save, options=game_options(args.game, extra), level=args.level)
        options = game_options(args.game, extra) if args.command == "arena" else {}
        if extra and args.command != "arena":
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        if args.command == "replay":
            match = replay(load(args.file))
            if args.json:
                print(json.dumps(match.result()))
            else:
                _print_result(match.result())
            return 0
        if args.command == "bench":
            from osteria.bench import run

            run(args.game, seconds=args.seconds, reference=not args.no_reference)
            return 0
        if args.command == "arena":
            return _arena(args, options)
        if args.command == "bot":
            from osteria.arena.protocol import serve
            from osteria.bots import make_bot

            return serve(make_bot(args.name, game=args.game, seed=args.seed), sys.stdin, sys.stdout)
        for name in GAMES:
            print(name)
        return 0
    except (UsageError, RulesError, ValueError) as exc:
        print(f"osteria {args.command}: {exc}", file=sys.stderr)
        return 1
    except RecordError as exc:
        print(f"osteria replay: {args.file}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
