"""Self-play: bots play many deals and whole matches, and the records of what they played are
kept, for learning (``osteria.datasets`` turns them into a dataset).

The deals are the arena's boards (the same cards from the same configuration and seed), played
once with the players taking the seats in turn, or, asked to rotate, in every rotation as the
arena plays them. Each record names the player of each seat. Any backend plays them: this
machine's processes by default, Ray with ``osteria.arena.ray_backend.RayBackend``.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

from osteria.arena.duplicate import (
    Backend,
    Config,
    Played,
    ProcessBackend,
    _play,
    close_seatings,
    new_board_match,
    run_seating,
)
from osteria.engine import Match


def play_task(config: Config, task: tuple[str, int], *, run: str, rotate: bool = False) -> dict[str, Any]:
    """Play board or whole match number ``index`` (``task`` is ``("board", index)`` or
    ``("match", index)``) with the players this process seats for run ``run``; the records of
    the games played, one per rotation played."""
    kind, index = task
    seed = f"{config.seed}/{index}" if kind == "board" else f"{config.seed}/match/{index}"
    seats = len(config.new_match(seed).players)
    rotations = config.rotations(seats)
    seating = run_seating(config, run)
    records = []
    for r, assignment in enumerate(rotations if rotate else rotations[:1]):
        match = new_board_match(config, index) if kind == "board" else config.new_match(seed)
        _play(seating, match, assignment, r, f"{seed}/{r}", partial(_over, match, whole=kind == "match"), Played())
        record = match.record()
        record["players"] = [config.players[p] for p in assignment]
        records.append(record)
    return {kind: index, "records": records}


def _over(match: Match, *, whole: bool) -> bool:
    """Whether a board (a whole match, with ``whole``) has been played out."""
    return match.finished or (not whole and match.game.board_over(match.results))


def _in_order(results: Iterable[dict[str, Any]], tasks: list[tuple[str, int]]) -> Iterator[dict[str, Any]]:
    """The results in the order of the tasks, whatever order they finish in."""
    position = {task: i for i, task in enumerate(tasks)}
    waiting: dict[int, dict[str, Any]] = {}
    due = 0
    for result in results:
        kind = "board" if "board" in result else "match"
        waiting[position[(kind, result[kind])]] = result
        while due in waiting:
            yield waiting.pop(due)
            due += 1


def selfplay(config: Config, out: Path, *, rotate: bool = False, backend: Backend | None = None,
             progress: Callable[[int, int], None] | None = None) -> int:
    """Play ``config.deals`` boards and ``config.matches`` whole matches and write the osteria/1
    record of each game played to ``out``, one per line, in order (boards, then matches);
    the number of records written."""
    tasks = [("board", b) for b in range(config.deals)] + [("match", m) for m in range(config.matches)]
    results = (backend or ProcessBackend()).map(partial(play_task, config, rotate=rotate, run=uuid.uuid4().hex),
                                                tasks)
    written = 0
    try:
        with out.open("w", encoding="utf-8") as file:
            for done, result in enumerate(_in_order(results, tasks), 1):
                for record in result["records"]:
                    file.write(json.dumps(record, ensure_ascii=False) + "\n")
                    written += 1
                if progress:
                    progress(done, len(tasks))
    finally:
        close_seatings()  # the players this process seated (one process: all of them)
    return written
