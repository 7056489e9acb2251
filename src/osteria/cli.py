"""The ``osteria`` command: play a game, replay a record, measure speed."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
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

    rep = sub.add_parser("replay", help="check a record and print its result")
    rep.add_argument("file")
    rep.add_argument("--json", action="store_true", help="print the result as JSON")

    bench = sub.add_parser("bench", help="random-playout speed of every game")
    bench.add_argument("--seconds", type=float, default=2.0, help="time per measurement (2)")
    bench.add_argument("--game", action="append", choices=list(GAMES), help="only this game (repeatable)")
    bench.add_argument("--no-reference", action="store_true", help="skip OpenSpiel's reference games")

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


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args, extra = parser.parse_known_args(argv)
    try:
        if args.command == "play":
            from osteria.tui import play

            return play(args.game, lang=args.lang, seed=args.seed, seats=args.players, human_seat=args.seat,
                        save=args.save, options=game_options(args.game, extra))
        if extra:
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
        for name in GAMES:
            print(name)
        return 0
    except (UsageError, RulesError) as exc:
        print(f"osteria {args.command}: {exc}", file=sys.stderr)
        return 1
    except RecordError as exc:
        print(f"osteria replay: {args.file}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
