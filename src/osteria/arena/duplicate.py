"""Duplicate play: the same deals played with every rotation of the players around the table.

A *board* is one deal, fixed by the run's seed and the board's number. It is played once per
rotation, each time as the first deal of a fresh match, so every player meets the same cards in
every seat and the luck of the deal cancels out. A player's score on a board is its seats'
mean deal delta, averaged over the rotations; boards are independent, which gives the
confidence intervals.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import osteria
from osteria.arena.players import make_player
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
    time_limit: float = 1.0

    def key(self) -> dict[str, Any]:
        """What a resumed run must share with the run it continues."""
        data = asdict(self)
        data.pop("deals")
        data["players"] = list(self.players)
        return data


def rotations(seats: int, players: int) -> list[tuple[int, ...]]:
    """For each rotation, the player of each seat: players take seats in turn (0, 1, 0, 1...)
    and the pattern turns one seat at a time; identical rotations are played once."""
    pattern = [seat % players for seat in range(seats)]
    seen: dict[tuple[int, ...], None] = {}
    for shift in range(seats):
        seen.setdefault(tuple(pattern[(seat + shift) % seats] for seat in range(seats)))
    return list(seen)


def board_seed(seed: int, board: int) -> str:
    return f"{seed}/{board}"


def new_board_match(config: Config, board: int) -> Match:
    """The match whose first deal is the board: identical for every rotation."""
    match = osteria.new_match(config.game, seed=board_seed(config.seed, board), seats=config.seats,
                              **config.options)
    match.begin_deal()
    return match


def play_board(config: Config, board: int) -> dict[str, Any]:
    """Play one board in every rotation; per player, its mean delta per seat and rotation."""
    probe = new_board_match(config, board)
    seats = len(probe.players)
    table = rotations(seats, len(config.players))
    totals = [0.0] * len(config.players)
    counts = [0] * len(config.players)
    deals = []
    for r, assignment in enumerate(table):
        match = new_board_match(config, board)
        bots = {seat: make_player(config.players[p], game=config.game,
                                  seed=f"{config.seed}/{board}/{r}/{seat}", time_limit=config.time_limit)
                for seat, p in enumerate(assignment)}
        first = match.deals[0]
        while not first.deal.over:
            seat = match.decider
            assert seat is not None
            match.play(bots[seat].choose(match, seat))
        for bot in bots.values():
            bot.close()
        delta = match.results[0].delta
        for seat, p in enumerate(assignment):
            totals[p] += delta[seat]
            counts[p] += 1
        deals.append({"assignment": list(assignment), "delta": list(delta)})
    return {"board": board, "scores": [t / c for t, c in zip(totals, counts, strict=True)], "deals": deals}


@dataclass
class Report:
    config: Config
    boards: list[dict[str, Any]]

    def scores(self) -> list[Estimate]:
        """Each player's mean score per deal, with its 95% interval."""
        return [estimate([b["scores"][p] for b in self.boards]) for p in range(len(self.config.players))]

    def differences(self) -> list[Estimate]:
        """Each player's score minus the mean of the others', board by board (paired)."""
        k = len(self.config.players)
        return [estimate([b["scores"][p] - (sum(b["scores"]) - b["scores"][p]) / (k - 1) for b in self.boards])
                for p in range(k)]

    def as_json(self) -> dict[str, Any]:
        scores, diffs = self.scores(), self.differences()
        return {
            "game": self.config.game,
            "players": list(self.config.players),
            "boards": len(self.boards),
            "seed": self.config.seed,
            "score_per_deal": [s.as_json() for s in scores],
            "versus_others": [d.as_json() for d in diffs],
        }


def _boards(config: Config, todo: Sequence[int], workers: int) -> Iterator[dict[str, Any]]:
    if workers <= 1:
        for board in todo:
            yield play_board(config, board)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(play_board, [config] * len(todo), todo, chunksize=max(1, len(todo) // (workers * 8)))


def run(config: Config, *, workers: int = 1, results: Path | None = None,
        progress: Callable[[int, int], None] | None = None) -> Report:
    """Play every board of the run. With ``results``, each board is appended to that JSON-lines
    file as it finishes, and a run that finds the file continues where it stopped."""
    done: dict[int, dict[str, Any]] = {}
    if results is not None and results.exists():
        lines = results.read_text(encoding="utf-8").splitlines()
        if lines:
            header = json.loads(lines[0])
            if header != config.key():
                raise ValueError(f"{results} holds a different run ({header}); choose another file")
            for line in lines[1:]:
                board = json.loads(line)
                done[board["board"]] = board
    elif results is not None:
        results.write_text(json.dumps(config.key()) + "\n", encoding="utf-8")
    todo = [b for b in range(config.deals) if b not in done]
    if progress:
        progress(len(done), config.deals)
    out = results.open("a", encoding="utf-8") if results is not None else None
    try:
        for board in _boards(config, todo, workers):
            done[board["board"]] = board
            if out is not None:
                out.write(json.dumps(board) + "\n")
                out.flush()
            if progress:
                progress(len(done), config.deals)
    finally:
        if out is not None:
            out.close()
    return Report(config, [done[b] for b in range(config.deals)])

