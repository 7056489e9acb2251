"""Duplicate play: the same deals played with every rotation of the players around the table.

A *board* is one deal, fixed by the run's seed and the board's number. It is played once per
rotation, each time as the first deal of a fresh match, so every player meets the same cards in
every seat and the luck of the deal cancels out. A player's score on a board is its seats'
mean deal delta, averaged over the rotations; boards are independent, which gives the
confidence intervals. Whole matches, when asked for, are played the same way (the same
shuffles in every rotation) to count who wins them.

Each process that plays a run's tasks seats its players once for the whole run (players.Seating):
an outside engine is one program per seat of each rotation per process, closed when the run
ends, when the process ends (a pool's worker), or when the process begins another run's tasks
(a Ray worker).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from functools import partial
from multiprocessing.util import Finalize
from pathlib import Path
from typing import Any, Protocol, TypeVar

import osteria
from osteria.arena.players import Seating
from osteria.arena.protocol import START_LIMIT, TimeControl
from osteria.arena.stats import Estimate, estimate
from osteria.engine import Match


@dataclass(frozen=True)
class Config:
    game: str
    players: tuple[str, ...]
    deals: int
    seed: int = 0
    seats: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    time_control: TimeControl = field(default_factory=TimeControl)  # an outside engine's
    start_limit: float = START_LIMIT  # seconds an outside engine has to start and shake hands
    matches: int = 0
    keep_records: bool = False  # the osteria/1 record of every deal played, in the results

    def key(self) -> dict[str, Any]:
        """What a resumed run must share with the run it continues."""
        data = asdict(self)
        for grows in ("deals", "matches", "keep_records"):
            data.pop(grows)
        data["players"] = list(self.players)
        return data

    def new_match(self, seed: str) -> Match:
        return osteria.new_match(self.game, seed=seed, seats=self.seats, **self.options)

    def rotations(self, seats: int) -> list[tuple[int, ...]]:
        return rotations(seats, len(self.players), osteria.game_rules(self.game).partnership)

    def seating(self) -> Seating:
        return Seating(self.players, self.game, time_control=self.time_control, start_limit=self.start_limit)


def rotations(seats: int, players: int, partnership: bool = False) -> list[tuple[int, ...]]:
    """For each rotation, the player of each seat. Players take seats in turn (0, 1, 0, 1...)
    and the pattern turns one seat at a time; identical rotations are played once. In a
    partnership game a player holds both seats of a side: with more than two players, every
    pair of players meets on every board, each pair from both sides."""
    if partnership and players > 2:
        return [tuple(a if seat % 2 == 0 else b for seat in range(seats))
                for a in range(players) for b in range(players) if a != b]
    pattern = [seat % players for seat in range(seats)]
    seen: dict[tuple[int, ...], None] = {}
    for shift in range(seats):
        seen.setdefault(tuple(pattern[(seat + shift) % seats] for seat in range(seats)))
    return list(seen)


def new_board_match(config: Config, board: int) -> Match:
    """The match whose first deal is the board: identical for every rotation."""
    return config.new_match(f"{config.seed}/{board}")


@dataclass
class Played:
    """What the players did over a task's rotations, under each player's index: how many
    moves each made, and the moves each forfeited (where and why)."""

    moves: dict[str, int] = field(default_factory=dict)
    faults: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


def player_seed(seed: str, seat: int) -> str:
    """The seed of a seat's player for a match: drawn one way (SHA-256) from the rotation's seed,
    which names the run's seed and the board and so the deals: an outside engine is told it, and
    must not be able to work the other hands out of it."""
    return hashlib.sha256(f"{seed}/{seat}".encode()).hexdigest()[:16]


def _play(seating: Seating, match: Match, assignment: Sequence[int], rotation: int, seed: str,
          until: Callable[[], bool], played: Played) -> None:
    """Seat the players of ``rotation`` as ``assignment`` says, each seeded from ``seed`` and
    its seat, and play until ``until()``; what they did is added to ``played``."""
    players = {seat: seating.player(p, rotation, seat) for seat, p in enumerate(assignment)}
    for seat, player in players.items():
        player.begin_match(seat, player_seed(seed, seat))
    try:
        while not until():
            if match.deal_due:
                match.begin_deal()
            decider = match.decider
            assert decider is not None
            index = str(assignment[decider])
            played.moves[index] = played.moves.get(index, 0) + 1
            match.play(players[decider].choose(match, decider))
    finally:
        for seat, player in players.items():
            if forfeits := player.end_match():
                played.faults.setdefault(str(assignment[seat]), []).extend(
                    {"rotation": rotation, **forfeit} for forfeit in forfeits)


# This process's seating of the run whose tasks it plays, by the run's token, with the finalizer
# that closes it: a pool's workers end by os._exit, which skips atexit, but not multiprocessing's
# own finalizers.
_seatings: dict[str, tuple[Seating, Finalize]] = {}


def run_seating(config: Config, run: str) -> Seating:
    """The players of run ``run`` in this process, seated at its first task here."""
    if run not in _seatings:
        close_seatings()  # a process plays one run at a time: an earlier run's engines go
        seating = config.seating()
        _seatings[run] = seating, Finalize(None, seating.close, exitpriority=0)
    return _seatings[run][0]


def close_seatings() -> None:
    """Close the players this process holds for a run (its outside engines end)."""
    while _seatings:
        _, (_, finalizer) = _seatings.popitem()
        finalizer()


@contextmanager
def _seated(config: Config, seating: Seating | None) -> Iterator[Seating]:
    """``seating``, or one for this task alone, closed after it."""
    if seating is not None:
        yield seating
        return
    own = config.seating()
    try:
        yield own
    finally:
        own.close()


def play_board(config: Config, board: int, seating: Seating | None = None) -> dict[str, Any]:
    """Play one board in every rotation; per player, its mean delta per seat and rotation. A
    board is one deal, or the few deals that make the game's unit of score (a Sancagna smazzata).
    The players are ``seating``'s (a run's), or seated for this board alone."""
    seats = len(new_board_match(config, board).players)
    totals = [0.0] * len(config.players)
    counts = [0] * len(config.players)
    deals: list[dict[str, Any]] = []
    played = Played()
    with _seated(config, seating) as players:
        for r, assignment in enumerate(config.rotations(seats)):
            match = new_board_match(config, board)
            over = match.game.board_over
            _play(players, match, assignment, r, f"{config.seed}/{board}/{r}",
                  lambda: match.finished or over(match.results), played)  # noqa: B023
            delta = [sum(result.delta[seat] for result in match.results) for seat in range(seats)]
            for seat, p in enumerate(assignment):
                totals[p] += delta[seat]
                counts[p] += 1
            deals.append({"assignment": list(assignment), "delta": list(delta)})
            if config.keep_records:
                deals[-1]["record"] = match.record()
    return {"board": board, "scores": [t / c for t, c in zip(totals, counts, strict=True)], "deals": deals,
            "faults": played.faults, "moves": played.moves}


def play_match(config: Config, index: int, seating: Seating | None = None) -> dict[str, Any]:
    """Play whole match ``index`` in every rotation, the same shuffles each time; per rotation,
    the players that won (a player wins when one of its seats is among the winners)."""
    seed = f"{config.seed}/match/{index}"
    seats = len(config.new_match(seed).players)
    won = []
    played = Played()
    with _seated(config, seating) as players:
        for r, assignment in enumerate(config.rotations(seats)):
            match = config.new_match(seed)
            _play(players, match, assignment, r, f"{seed}/{r}", lambda: match.finished, played)  # noqa: B023
            won.append(sorted({assignment[seat] for seat in match.result()["winners"]}))
    return {"match": index, "won": won, "faults": played.faults, "moves": played.moves}


@dataclass
class Report:
    config: Config
    boards: list[dict[str, Any]]
    matches: list[dict[str, Any]] = field(default_factory=list)

    @property
    def sense(self) -> int:
        """+1 where a higher score is better, -1 where points are poison."""
        return osteria.game_rules(self.config.game, seats=self.config.seats, **self.config.options).sense

    def scores(self) -> list[Estimate]:
        """Each player's mean score per deal, with its 95% interval."""
        return [estimate([b["scores"][p] for b in self.boards]) for p in range(len(self.config.players))]

    def advantages(self) -> list[Estimate]:
        """How much better each player did than the mean of the others, board by board (paired);
        positive is better, whichever way the game counts."""
        k, sense = len(self.config.players), self.sense
        return [estimate([sense * (b["scores"][p] - (sum(b["scores"]) - b["scores"][p]) / (k - 1))
                          for b in self.boards]) for p in range(k)]

    def win_rates(self) -> list[Estimate] | None:
        """Each player's share of the matches it won (1 a win, 0 otherwise, per rotation)."""
        if not self.matches:
            return None
        return [estimate([float(p in won) for m in self.matches for won in m["won"]])
                for p in range(len(self.config.players))]

    def ratings(self) -> list[dict[str, float]] | None:
        """OpenSkill (Plackett-Luce) ratings from each board's ranking; None without openskill."""
        try:
            from openskill.models import PlackettLuce
        except ImportError:
            return None
        model = PlackettLuce()
        ratings = [model.rating(name=name) for name in self.config.players]
        for board in self.boards:
            scores = [self.sense * s for s in board["scores"]]
            ranks = [1 + sum(other > mine for other in scores) for mine in scores]
            ratings = [team[0] for team in model.rate([[r] for r in ratings], ranks=ranks)]
        return [{"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for r in ratings]

    def faults(self) -> list[list[dict[str, Any]]]:
        """Per player, every move it forfeited: where (board or match, rotation, seat, deal,
        move: the action's place in the deal's record) and why (kind, reason)."""
        found: list[list[dict[str, Any]]] = [[] for _ in self.config.players]
        for item in (*self.boards, *self.matches):
            where = {"board": item["board"]} if "board" in item else {"match": item["match"]}
            for p, forfeits in item.get("faults", {}).items():
                found[int(p)].extend({**where, **forfeit} for forfeit in forfeits)
        return found

    def moves(self) -> list[int]:
        """Per player, the moves it was asked for."""
        return [sum(item.get("moves", {}).get(str(p), 0) for item in (*self.boards, *self.matches))
                for p in range(len(self.config.players))]

    def as_json(self) -> dict[str, Any]:
        summary: dict[str, Any] = {
            "game": self.config.game,
            "players": list(self.config.players),
            "options": dict(self.config.options),
            "seed": self.config.seed,
            "boards": len(self.boards),
            "lower_is_better": self.sense < 0,
            "score_per_deal": [s.as_json() for s in self.scores()],
            "advantage": [d.as_json() for d in self.advantages()],
        }
        faults = self.faults()
        if any(faults):
            summary["moves"] = self.moves()
            summary["forfeited_moves"] = [len(f) for f in faults]
            summary["faults"] = [sorted({f["reason"] for f in found})[:10] for found in faults]
            summary["forfeits"] = faults
        rates = self.win_rates()
        if rates is not None:
            summary["matches"] = len(self.matches)
            summary["match_win_rate"] = [r.as_json() for r in rates]
        ratings = self.ratings()
        if ratings is not None and len(self.config.players) > 2:
            summary["openskill"] = ratings
        return summary


def _task(config: Config, run: str, task: tuple[str, int]) -> dict[str, Any]:
    kind, index = task
    seating = run_seating(config, run)
    return play_board(config, index, seating) if kind == "board" else play_match(config, index, seating)


Item = TypeVar("Item")
Result = TypeVar("Result")


class Backend(Protocol):
    """Where the tasks of a run are played. ``map`` yields ``function(item)`` for every item as
    it finishes, in any order (a task's result says which task it is); ``function`` is a
    module-level function or a partial of one, so that it can travel to other processes."""

    def map(self, function: Callable[[Item], Result], items: Sequence[Item]) -> Iterator[Result]: ...


# The most items a worker takes at a time: results reach the caller (the results file, the
# progress line) as soon as the items before them are done, which matters where a board takes a
# minute; a few at a time still spare cheap boards most of the round trips.
CHUNK = 4


class ProcessBackend:
    """This machine's cores: a pool of ``workers`` processes, or this process alone for one."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers

    def map(self, function: Callable[[Item], Result], items: Sequence[Item]) -> Iterator[Result]:
        if self.workers <= 1:
            yield from map(function, items)
            return
        with ProcessPoolExecutor(max_workers=self.workers) as pool:
            yield from pool.map(function, items, chunksize=max(1, min(CHUNK, len(items) // (self.workers * 8))))


def run(config: Config, *, workers: int = 1, results: Path | None = None,
        progress: Callable[[int, int], None] | None = None, backend: Backend | None = None) -> Report:
    """Play every board (and match) of the run, on ``backend`` (by default ``workers``
    processes of this machine). With ``results``, each is appended to that JSON-lines file as
    it finishes, and a run that finds the file continues where it stopped."""
    done: dict[tuple[str, int], dict[str, Any]] = {}
    if results is not None and results.exists() and results.stat().st_size:
        try:
            lines = results.read_text(encoding="utf-8").splitlines()
            header = json.loads(lines[0])
        except ValueError:  # not text, or its first line not JSON
            raise ValueError(f"{results} is not the results of an arena run; choose another file") from None
        if header != config.key():
            raise ValueError(f"{results} holds a different run ({header}); choose another file")
        for line in lines[1:]:
            try:
                item = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short by the interruption: that task is played again
            done[("board", item["board"]) if "board" in item else ("match", item["match"])] = item
    elif results is not None:
        results.write_text(json.dumps(config.key()) + "\n", encoding="utf-8")
    tasks = [("board", b) for b in range(config.deals)] + [("match", m) for m in range(config.matches)]
    todo = [t for t in tasks if t not in done]
    if progress:
        progress(len(tasks) - len(todo), len(tasks))
    out = results.open("a", encoding="utf-8") if results is not None else None
    try:
        for item in (backend or ProcessBackend(workers)).map(partial(_task, config, uuid.uuid4().hex), todo):
            done[("board", item["board"]) if "board" in item else ("match", item["match"])] = item
            if out is not None:
                out.write(json.dumps(item) + "\n")
                out.flush()
            if progress:
                progress(len(done), len(tasks))
    finally:
        close_seatings()  # the players this process seated (one process: all of them)
        if out is not None:
            out.close()
    return Report(config, [done[("board", b)] for b in range(config.deals)],
                  [done[("match", m)] for m in range(config.matches)])
