"""The ``osteria`` command: play a game, replay a record, measure speed."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NoReturn

from osteria.engine import Option, RulesError
from osteria.i18n import DEFAULT_LANGUAGE, LANGUAGES
from osteria.records import RecordError, load, replay
from osteria.rules import GAMES

if TYPE_CHECKING:
    from osteria.arena.duplicate import Backend
    from osteria.arena.protocol import TimeControl


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


def games_help() -> str:
    """Each game with its numbers of players and its rules options, their values and defaults."""
    lines = []
    for name, game in GAMES.items():
        counts = ", ".join(map(str, game.seat_counts))
        players = f"{counts} players" + (f", {game.default_seats} by default" if len(game.seat_counts) > 1 else "")
        lines.append(f"{name} ({players})")
        for spec in game.option_specs:
            kind = "SEATS" if isinstance(spec.default, list) else "N" if isinstance(spec.default, int) else "WORD"
            values = "|".join(_value_word(c) for c in spec.choices) if spec.choices else kind
            doc = f": {spec.doc}" if spec.doc else ""
            lines.append(f"  --{spec.name.replace('_', '-')} {values} (default {_value_word(spec.default)}){doc}")
    return "\n".join(lines)


def _value_word(value: object) -> str:
    """A value as typed on the command line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(map(str, value)) or "none"
    return str(value)


class CommandParser(argparse.ArgumentParser):
    """argparse's parser, but a command line it cannot read exits with status 1, as every other
    bad input does (argparse's own is 2); its commands' parsers are of this class too, and so are
    the parsers of the benchmarks' and examples' scripts."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(1, f"{self.prog}: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    from osteria import __version__
    from osteria.bots import BOTS

    bots = ", ".join(BOTS)
    parser = CommandParser(prog="osteria", description="Italy's regional trick-taking card games.")
    parser.add_argument("--version", action="version", version=f"osteria {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = sub.add_parser("play", help="play a game in the terminal against bots",
                          formatter_class=argparse.RawDescriptionHelpFormatter,
                          description="Play against bots. Rules options follow the game: "
                                      "osteria play tressette --target 41 --segni sud",
                          epilog="the games and their rules options:\n" + games_help())
    play.add_argument("game", nargs="?", choices=list(GAMES), metavar="GAME",
                      help=f"the game: {', '.join(GAMES)} (none with --load)")
    play.add_argument("--lang", choices=LANGUAGES, default=DEFAULT_LANGUAGE,
                      help=f"language of the table, one of its catalogs ({DEFAULT_LANGUAGE})")
    play.add_argument("--seed", type=int, help="deal reproducibly from this seed")
    play.add_argument("--players", type=int, help="number of players, where the game allows several")
    play.add_argument("--seat", type=int, default=0, help="your seat (0)")
    play.add_argument("--save", metavar="FILE", help="save the record of the match to FILE")
    play.add_argument("--level", default="medio",
                      help=f"the bots' level: facile, medio (default), difficile, maestro; or any bot: {bots}; "
                      "or an outside engine in every bot's seat, cmd:COMMAND or cmd:COMMAND?NAME=VALUE&...")
    play.add_argument("--plain", action="store_true", help="plain lines of text, for scripts and screen readers")
    play.add_argument("--load", metavar="FILE", help="resume the unfinished match saved in FILE")
    play.add_argument("--open", metavar="RECORD", help="step through a record, as osteria view does")
    play.add_argument("--delay", type=float, default=0.7, help="seconds before a bot's card lands (0.7)")
    play.add_argument("--trick-pause", type=float, default=1.5,
                      help="seconds a trick just taken stays in the middle, its taker named (1.5; a key goes on)")
    play.add_argument("--hint-time", type=float, default=1.0, help="the maestro's seconds per hint (1)")
    play.add_argument("--analysis-time", type=float, default=0.2,
                      help="the maestro's seconds per choice in the analysis after each deal (0.2)")
    play.add_argument("--no-analysis", action="store_true", help="no analysis after each deal")
    _engine_arguments(play)

    view = sub.add_parser("view", help="step through a record trick by trick, every hand in view")
    view.add_argument("record", help="the record file (osteria/1 JSON), as --save writes it")
    view.add_argument("--lang", choices=LANGUAGES, default=DEFAULT_LANGUAGE,
                      help=f"language of the table, one of its catalogs ({DEFAULT_LANGUAGE})")
    view.add_argument("--seat", type=int, default=0,
                      help="the seat whose hand shows in a deal still in progress (0)")

    rep = sub.add_parser("replay", help="check a record and print its result")
    rep.add_argument("file", help="the record file (osteria/1 JSON)")
    rep.add_argument("--json", action="store_true", help="print the result as JSON")

    bench = sub.add_parser("bench", help="random-playout speed of every game")
    bench.add_argument("--seconds", type=float, default=2.0, help="CPU time per measurement (2)")
    bench.add_argument("--rounds", type=int, default=5,
                       help="turns each playout takes, alternating with the others; the median is given (5)")
    bench.add_argument("--playouts-only", action="store_true",
                       help="only the random playouts, not sampling, the solver and the environments")
    bench.add_argument("--game", action="append", choices=list(GAMES), help="only this game (repeatable)")
    bench.add_argument("--no-reference", action="store_true", help="skip OpenSpiel's reference games")
    bench.add_argument("--solver", action="store_true", help="only the double-dummy solver's times")
    bench.add_argument("--batched", action="store_true",
                       help="only the batched compiled engine (the games it plays, or --game) against hearts")

    arena = sub.add_parser("arena", help="measure bots by duplicate deals",
                           description="Duplicate deals with every seat rotation; rules options follow the game.")
    arena.add_argument("game", choices=list(GAMES), metavar="GAME", help=f"the game: {', '.join(GAMES)}")
    arena.add_argument("--players", required=True, help=f"comma-separated bots: {bots}; the cheating bounds "
                       "oracle (it sees every hand) and oracle-play (in the card play alone); or outside engines: "
                       "cmd:COMMAND, cmd:COMMAND?NAME=VALUE&... with the engine's options")
    arena.add_argument("--deals", type=int, default=100, help="boards (deals) to play (100)")
    arena.add_argument("--seed", type=int, default=0, help="seed of the boards (0)")
    arena.add_argument("--seats", type=int, help="number of seats, where the game allows several")
    arena.add_argument("--workers", type=int, default=0, help="processes (0: one per core)")
    _engine_arguments(arena)
    arena.add_argument("--results", metavar="FILE", help="JSON-lines file of boards; an interrupted run resumes")
    arena.add_argument("--matches", type=int, default=0, help="also play this many whole matches for win rates")
    arena.add_argument("--chart", metavar="PNG", help="draw the advantages with their intervals (needs matplotlib)")
    arena.add_argument("--records", metavar="FILE", help="write the osteria/1 record of every deal played, "
                       "one per line (JSON lines)")
    arena.add_argument("--json", action="store_true", help="print the summary as JSON")
    _backend_arguments(arena)

    selfplay = sub.add_parser("selfplay", help="let bots play and write their records (and a dataset)",
                              description="Bots play the arena's boards, seats taking the players in turn, "
                                          "and the record of every game is written; rules options follow the game.")
    selfplay.add_argument("game", choices=list(GAMES), metavar="GAME", help=f"the game: {', '.join(GAMES)}")
    selfplay.add_argument("--players", required=True, help=f"comma-separated bots, seated in turn: {bots}")
    selfplay.add_argument("--deals", type=int, default=100, help="boards (deals) to play (100)")
    selfplay.add_argument("--matches", type=int, default=0, help="also play this many whole matches")
    selfplay.add_argument("--rotate", action="store_true", help="play every seat rotation, as the arena does")
    selfplay.add_argument("--seed", type=int, default=0, help="seed of the boards (0)")
    selfplay.add_argument("--seats", type=int, help="number of seats, where the game allows several")
    selfplay.add_argument("--workers", type=int, default=0, help="processes (0: one per core)")
    _engine_arguments(selfplay)
    selfplay.add_argument("--records", metavar="FILE", required=True, help="the records, one per line (JSON lines)")
    selfplay.add_argument("--dataset", metavar="FILE", help="also the dataset of every decision (.jsonl or .parquet)")
    _backend_arguments(selfplay)

    dataset = sub.add_parser("dataset", help="turn records into a dataset of decisions for learning",
                             description="One row per decision: the observation tensor, the legal actions (indices), "
                                         "the action taken and the deal's reward for that seat.")
    dataset.add_argument("records", nargs="+", help="record files: one record, or JSON lines of records")
    dataset.add_argument("--out", required=True, help="the dataset: FILE.jsonl or FILE.parquet")

    bot = sub.add_parser("bot", help="serve one of osteria's bots over the bot protocol (docs/protocol.md)")
    bot.add_argument("name", help=f"the bot: {bots}")
    bot.add_argument("--stdio", action="store_true", required=True, help="speak JSON lines on stdin/stdout")
    bot.add_argument("--game", choices=list(GAMES), default="tressette",
                     help="the game it plays until a new_match names one (tressette)")
    bot.add_argument("--seed", type=int, help="its seed until a new_match gives one")

    serve = sub.add_parser("serve", help="run the online osteria: tables in the browser with friends and bots")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (8000)")
    serve.add_argument("--data", default="osteria-data", help="folder of the SQLite database (osteria-data)")
    serve.add_argument("--database", metavar="URL", help="a PostgreSQL database instead: postgresql://...")
    serve.add_argument("--stand-in-after", type=float, default=60.0,
                       help="seconds a player may take before a bot plays for him until he is back (60)")
    serve.add_argument("--bot-delay", type=float, default=0.6, help="the least seconds a bot takes for a move (0.6)")
    serve.add_argument("--openapi", action="store_true",
                       help="also serve the API's schema and documentation: /openapi.json, /docs, /redoc")
    serve.add_argument("--allowed-origin", action="append", default=[], metavar="ORIGIN",
                       help="also admit pages of this origin, as a reverse proxy's https://osteria.example "
                       "(repeatable); the server's own always")
    serve.add_argument("--sockets-per-address", type=int, default=32, metavar="N",
                       help="live WebSocket connections one address may hold, all tables together (32)")
    serve.add_argument("--sockets-per-table", type=int, default=200, metavar="N",
                       help="live WebSocket connections at one table, players and spectators (200)")
    serve.add_argument("--chat-per-minute", type=float, default=30.0, metavar="N",
                       help="chat lines one address may send to one table a minute, after 5 at once (30)")

    verify = sub.add_parser("verify", help="check a record's deals against their revealed seeds")
    verify.add_argument("file", help="the record file (osteria/1 JSON) of a match played online")

    sub.add_parser("games", help="list the games, their numbers of players and their rules options")
    return parser


def _engine_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--time-limit", type=float, metavar="SECONDS",
                        help="an outside engine's time for each move (1)")
    parser.add_argument("--deal-time", metavar="SECONDS[+INCREMENT]",
                        help="instead, an outside engine's clock for each deal, gaining INCREMENT before each "
                        "move: 30+0.5")
    parser.add_argument("--start-limit", type=float, metavar="SECONDS",
                        help="the time an outside engine has to start and answer the handshake (10)")


def _engine_time(args: argparse.Namespace) -> tuple[TimeControl, float]:
    """The outside engines' time control and start-up limit the command line gives."""
    from osteria.arena.protocol import START_LIMIT, TimeControl

    start_limit = START_LIMIT if args.start_limit is None else args.start_limit
    if start_limit <= 0:
        raise UsageError(f"--start-limit must be positive, not {start_limit}")
    if args.deal_time is not None and args.time_limit is not None:
        raise UsageError("--time-limit (per move) and --deal-time (per deal) are two time controls: give one")
    try:
        if args.deal_time is not None:
            return TimeControl.per_deal_from(args.deal_time), start_limit
        return (TimeControl() if args.time_limit is None else TimeControl(args.time_limit)), start_limit
    except ValueError as exc:
        raise UsageError(f"--{'deal-time' if args.deal_time is not None else 'time-limit'}: {exc}") from None


def _check_engines(players: Sequence[str], start_limit: float) -> None:
    """Start each outside engine once, before any work, to report one that cannot play."""
    from osteria.arena.protocol import check_engine

    for spec in dict.fromkeys(p for p in players if p.startswith("cmd:")):
        check_engine(spec, start_limit=start_limit)


def _backend_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--backend", choices=["multiprocessing", "ray"], default="multiprocessing",
                        help="where the deals are played: this machine's processes (default) or Ray")
    parser.add_argument("--address", help="with --backend ray: a cluster's address (ray://HOST:10001, auto); "
                        "local or none starts a Ray here with --workers CPUs")


@contextmanager
def _backend(args: argparse.Namespace) -> Iterator[Backend]:
    """The backend the command line asks for, closed (a Ray started here stopped) afterwards."""
    if args.workers < 0:
        raise UsageError(f"--workers is 0 (one per core) or more, not {args.workers}")
    if args.backend == "ray":
        from osteria.arena.ray_backend import RayBackend

        with RayBackend(args.address, workers=args.workers or None) as ray:
            yield ray
        return
    if args.address:
        raise UsageError("--address is for --backend ray")
    from osteria.arena.duplicate import ProcessBackend

    yield ProcessBackend(args.workers or os.cpu_count() or 1)


def _players(text: str, game: str) -> tuple[str, ...]:
    """The players named on the command line, each checked, our bots to play ``game``."""
    from osteria.arena.players import PLAYERS
    from osteria.arena.protocol import parse_engine
    from osteria.bots import BOTS, refusal

    players = tuple(p.strip() for p in text.split(",") if p.strip())
    for p in players:
        if p.startswith("cmd:"):
            parse_engine(p)
        elif p not in BOTS and p not in PLAYERS:
            raise UsageError(f"unknown player {p!r}; players: {', '.join((*BOTS, *PLAYERS))}, or cmd:COMMAND")
        elif p in BOTS and (why := refusal(p, game)) is not None:
            raise UsageError(why)
    return players


def _selfplay(args: argparse.Namespace, options: dict[str, Any]) -> int:
    from pathlib import Path

    from osteria.arena import Config
    from osteria.arena.selfplay import selfplay

    players = _players(args.players, args.game)
    if not players:
        raise UsageError("--players needs at least one bot, as heuristic")
    if args.deals < 0 or args.matches < 0 or args.deals + args.matches == 0:
        raise UsageError("nothing to play: give --deals or --matches a positive number")
    time_control, start_limit = _engine_time(args)
    config = Config(args.game, players, args.deals, seed=args.seed, seats=args.seats, options=options,
                    time_control=time_control, start_limit=start_limit, matches=args.matches)
    GAMES[args.game](args.seats, **options)  # bad options are reported before any work
    _check_engines(players, start_limit)
    _check_writable(args.records, args.dataset)
    with _backend(args) as backend:
        written = selfplay(config, Path(args.records), rotate=args.rotate, backend=backend, progress=_progress_bar())
    print(f"{written} records written to {args.records}")
    if args.dataset:
        return _dataset([args.records], args.dataset)
    return 0


def _dataset(files: Sequence[str], out: str) -> int:
    from pathlib import Path

    from osteria.datasets import export, records_in

    records: list[dict[str, Any]] = []
    origins: list[str] = []  # where each record comes from, for messages
    for name in files:
        try:
            found = records_in(Path(name))
        except OSError as exc:
            raise UsageError(f"cannot read {name}: {exc.strerror}") from None
        except RecordError as exc:
            raise UsageError(f"{name}: {exc}") from None
        origins.extend(f"{name}: records[{i}]" for i in range(len(found)))
        records.extend(found)
    try:
        count = export(records, Path(out))
    except RecordError as exc:  # its place is records[i]...: said as the file and the record in it
        number, _, rest = exc.where.removeprefix("records[").partition("]")
        raise UsageError(f"{origins[int(number)]}{rest}: {exc.reason}") from None
    except OSError as exc:
        raise UsageError(f"cannot write {out}: {exc.strerror}") from None
    print(f"{count} decisions written to {out}")
    return 0


def _print_result(result: dict[str, Any]) -> None:
    played = len(result["deals"])
    print(f"{result['game']}: {played} {'deal' if played == 1 else 'deals'}")
    for i, deal in enumerate(result["deals"], 1):
        print(f"  deal {i}: {deal['outcome']:16} points {deal['points']}  delta {deal['delta']}")
    print(f"totals {result['totals']}")
    if result["finished"]:
        print(f"finished; winners: seats {', '.join(map(str, result['winners']))}")
    else:
        print("not finished")


def _check_writable(*paths: str | None) -> None:
    """UsageError, saying why, for a file given that cannot be written: before any work, so that
    a run is not lost at its end. A file that was not there is not left behind."""
    for path in paths:
        if path is None:
            continue
        existed = os.path.lexists(path)
        try:
            open(path, "a").close()
        except OSError as exc:
            raise UsageError(f"cannot write {path}: {exc.strerror}") from None
        if not existed:
            os.remove(path)


def _arena(args: argparse.Namespace, options: dict[str, Any]) -> int:
    from pathlib import Path

    from osteria.arena import Config, run

    players = _players(args.players, args.game)
    if len(players) < 2:
        raise UsageError("--players needs at least two players, as random,random")
    if args.deals < 2:
        raise UsageError("--deals needs at least 2 boards for a confidence interval")
    time_control, start_limit = _engine_time(args)
    config = Config(args.game, players, args.deals, seed=args.seed, seats=args.seats, options=options,
                    time_control=time_control, start_limit=start_limit, matches=args.matches,
                    keep_records=bool(args.records))
    GAMES[args.game](args.seats, **options)  # bad options are reported before any work
    _check_engines(players, start_limit)
    _check_writable(args.results, args.records, args.chart)
    with _backend(args) as backend:
        report = run(config, results=Path(args.results) if args.results else None, progress=_progress_bar(),
                     backend=backend)
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
    for name, moves, forfeits in zip(players, summary.get("moves", []), summary.get("forfeits", []), strict=False):
        if forfeits:
            _print_forfeits(name, moves, forfeits)
    return 0


FORFEITS_SHOWN = 5  # the first forfeited moves the summary names; --json has them all


def _print_forfeits(name: str, moves: int, forfeits: Sequence[dict[str, Any]]) -> None:
    """A player's forfeited moves: how many of its moves, of which kinds, and the first of them."""
    kinds: dict[str, int] = {}
    for forfeit in forfeits:
        kinds[forfeit["kind"]] = kinds.get(forfeit["kind"], 0) + 1
    print(f"{name} forfeited {len(forfeits)} of its {moves} moves: "
          + ", ".join(f"{count} {kind}" for kind, count in kinds.items()))
    for forfeit in forfeits[:FORFEITS_SHOWN]:
        where = f"board {forfeit['board']}" if "board" in forfeit else f"match {forfeit['match']}"
        print(f"  {where}, rotation {forfeit['rotation']}, seat {forfeit['seat']}, deal {forfeit['deal']}, "
              f"move {forfeit['move']}: {forfeit['reason']}")


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


def _play(args: argparse.Namespace, extra: Sequence[str]) -> int:
    """The table: full-screen at a terminal; plain lines with --plain, or when input or output is
    not a terminal (a script)."""
    if args.open:
        from osteria.tui.viewer import view

        return view(args.open, lang=args.lang, seat=args.seat)
    if args.game is None and args.load is None:
        raise UsageError("name the game to play, or --load FILE to resume a saved match")
    if args.game is not None and args.load is not None:
        raise UsageError("--load resumes the game saved in its file: name no game with it")
    if extra and args.game is None:
        raise UsageError(f"unrecognized arguments: {' '.join(extra)} (the rules options are in the saved match)")
    options = game_options(args.game, extra) if args.game is not None else {}
    time_control, start_limit = _engine_time(args)
    for option, seconds, zero in (("--delay", args.delay, True), ("--trick-pause", args.trick_pause, True),
                                  ("--hint-time", args.hint_time, False),
                                  ("--analysis-time", args.analysis_time, False)):
        if not (math.isfinite(seconds) and (seconds >= 0 if zero else seconds > 0)):
            raise UsageError(f"{option} is seconds, {'0 or more' if zero else 'more than 0'}, not {seconds:g}")
    if args.plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
        from osteria.tui import PlainTable, play

        if args.load is None:
            return play(args.game, lang=args.lang, seed=args.seed, seats=args.players, human_seat=args.seat,
                        save=args.save, options=options, level=args.level, review=not args.no_analysis,
                        time_control=time_control, start_limit=start_limit)
        from osteria.tui.plain import close_bots, table_match

        match, bots = table_match(None, lang=args.lang, seed=args.seed, seats=None, human_seat=args.seat,
                                  options=None, level=args.level, load=args.load, time_control=time_control,
                                  start_limit=start_limit)
        try:
            return PlainTable(match, human_seat=args.seat, lang=args.lang, bots=bots, save=args.save or args.load,
                              review=not args.no_analysis, hint_time=args.hint_time,
                              review_time=args.analysis_time, resumed_from=args.load).run()
        finally:
            close_bots(bots)
    from osteria.tui.app import play as play_table

    return play_table(args.game, lang=args.lang, seed=args.seed, seats=args.players, human_seat=args.seat,
                      save=args.save, options=options, level=args.level, load=args.load, delay=args.delay,
                      hint_time=args.hint_time, analysis=not args.no_analysis, analysis_time=args.analysis_time,
                      time_control=time_control, start_limit=start_limit, trick_pause=args.trick_pause)


def _serve(args: argparse.Namespace) -> int:
    try:
        from osteria.server.app import allowed_origin, serve
        from osteria.server.store import StoreError
        from osteria.server.tables import Settings
    except ImportError as exc:
        raise UsageError(f"the server needs the server extra (pip install 'osteria[server]'): {exc}") from None
    if not 0 < args.port < 65536:
        raise UsageError(f"--port must be from 1 to 65535, not {args.port}")
    if args.stand_in_after <= 0 or args.bot_delay < 0:
        raise UsageError("--stand-in-after must be positive and --bot-delay not negative")
    if args.sockets_per_address < 1 or args.sockets_per_table < 1 or args.chat_per_minute <= 0:
        raise UsageError("--sockets-per-address and --sockets-per-table must be 1 or more, --chat-per-minute positive")
    for text in args.allowed_origin:
        try:
            allowed_origin(text)
        except ValueError as exc:
            raise UsageError(f"--allowed-origin: {exc}") from None
    try:
        serve(args.host, args.port, args.data, args.database,
              Settings(stand_in_after=args.stand_in_after, bot_delay=args.bot_delay,
                       sockets_per_address=args.sockets_per_address, sockets_per_table=args.sockets_per_table,
                       chat_per_minute=args.chat_per_minute), openapi=args.openapi,
              allowed_origins=args.allowed_origin)
    except StoreError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot listen at {args.host}:{args.port}: {exc.strerror or exc}") from None
    return 0


def _verify(path: str) -> int:
    from osteria.server.fair import verify_record

    try:
        checks = verify_record(load(path))
    except RecordError as exc:
        raise UsageError(f"{path}: {exc}") from None
    for check in checks:
        print(f"deal {check.deal_index + 1}: {'ok' if check.ok else 'FAILED'}: {check.message}")
    failed = [c for c in checks if not c.ok]
    if failed or not checks:
        problem = f"deal {failed[0].deal_index + 1}: {failed[0].message}" if failed else "the record has no deal"
        raise UsageError(f"{path}: {problem}")
    print(f"{path}: every deal was fixed by its published seed")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args, extra = parser.parse_known_args(argv)
    try:
        if args.command == "play":
            return _play(args, extra)
        if args.command == "view":
            from osteria.tui.viewer import view

            return view(args.record, lang=args.lang, seat=args.seat)
        options = game_options(args.game, extra) if args.command in ("arena", "selfplay") else {}
        if extra and args.command not in ("arena", "selfplay"):
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        if args.command == "replay":
            match = replay(load(args.file))
            if args.json:
                print(json.dumps(match.result()))
            else:
                _print_result(match.result())
            return 0
        if args.command == "bench":
            from osteria.bench import batched_speeds, run, solver_speeds

            if args.rounds < 1 or args.seconds <= 0:
                raise UsageError("--rounds must be 1 or more and --seconds positive")
            if args.solver:
                solver_speeds(args.game, args.seconds)
            elif args.batched:
                from osteria.rules import batched_games

                playable = batched_games()
                unplayed = [game for game in args.game or () if game not in playable]
                if unplayed:
                    raise UsageError(f"--batched: the batched engine does not play {', '.join(unplayed)}; "
                                     f"it plays {', '.join(playable)}")
                batched_speeds(args.seconds, args.rounds, games=args.game)
            else:
                run(args.game, seconds=args.seconds, reference=not args.no_reference, rounds=args.rounds,
                    playouts_only=args.playouts_only)
            return 0
        if args.command == "arena":
            return _arena(args, options)
        if args.command == "selfplay":
            return _selfplay(args, options)
        if args.command == "dataset":
            return _dataset(args.records, args.out)
        if args.command == "bot":
            from osteria.arena.protocol import serve

            return serve(args.name, game=args.game, seed=args.seed, stdin=sys.stdin, stdout=sys.stdout)
        if args.command == "serve":
            return _serve(args)
        if args.command == "verify":
            return _verify(args.file)
        print(games_help())
        return 0
    except RecordError as exc:  # before ValueError, which it is: it says which file
        where = f"{args.file}: " if isinstance(getattr(args, "file", None), str) else ""
        print(f"osteria {args.command}: {where}{exc}", file=sys.stderr)
        return 1
    except (UsageError, RulesError, ValueError) as exc:
        print(f"osteria {args.command}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
