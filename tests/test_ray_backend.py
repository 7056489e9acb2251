"""The arena and self-play on Ray (a local Ray of 2 CPUs): the same boards, results and records
as on this machine's processes, resumable runs, and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import osteria
from osteria.arena import Config, run
from osteria.arena.duplicate import ProcessBackend
from osteria.arena.ray_backend import RayBackend
from osteria.arena.selfplay import selfplay
from osteria.cli import main

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def backend() -> Iterator[RayBackend]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        with RayBackend(workers=2) as ray_backend:
            yield ray_backend
        assert ray.is_initialized()  # a Ray it did not start is left running
    finally:
        ray.shutdown()


CONFIGS = [
    Config("tressette", ("heuristic", "random"), 12, seed=5, matches=2, options={"target": 21}, keep_records=True),
    Config("traversone", ("heuristic", "random", "random"), 9, seed=2, seats=3),
    Config("sancagna", ("heuristic", "random"), 4, seed=1),
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c.game)
def test_ray_plays_the_same_boards_as_the_processes(backend: RayBackend, config: Config) -> None:
    on_ray = run(config, backend=backend)
    on_processes = run(config, backend=ProcessBackend(2))
    assert on_ray.boards == on_processes.boards  # every rotation's assignment, delta and record
    assert on_ray.matches == on_processes.matches
    assert on_ray.as_json() == on_processes.as_json()
    assert [b["board"] for b in on_ray.boards] == list(range(config.deals))


def test_results_resume_on_ray_where_processes_left_off(backend: RayBackend, tmp_path: Path) -> None:
    config = Config("tressette", ("heuristic", "random"), 16, seed=9)
    results = tmp_path / "results.jsonl"
    whole = run(config, backend=ProcessBackend(2), results=results)
    lines = results.read_text(encoding="utf-8").splitlines()
    results.write_text("\n".join(lines[:7]) + "\n" + lines[7][:20], encoding="utf-8")  # cut short mid-line
    seen: list[tuple[int, int]] = []
    resumed = run(config, backend=backend, results=results, progress=lambda done, total: seen.append((done, total)))
    assert resumed.as_json() == whole.as_json()
    assert seen[0] == (6, 16) and seen[-1] == (16, 16)  # six boards were kept, the cut one played again
    assert len(results.read_text(encoding="utf-8").splitlines()) == 17  # the header and every board once
    with pytest.raises(ValueError, match="different run"):
        run(Config("tressette", ("heuristic", "random"), 16, seed=10), backend=backend, results=results)


def test_selfplay_writes_the_same_records_on_either_backend(backend: RayBackend, tmp_path: Path) -> None:
    config = Config("tressette", ("heuristic", "random"), 10, seed=4, matches=1, options={"target": 21})
    assert selfplay(config, tmp_path / "ray.jsonl", backend=backend) == 11
    assert selfplay(config, tmp_path / "processes.jsonl", backend=ProcessBackend(2)) == 11
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "processes.jsonl").read_bytes()
    records = [json.loads(line) for line in (tmp_path / "ray.jsonl").read_text(encoding="utf-8").splitlines()]
    assert all(r["players"] == ["heuristic", "random", "heuristic", "random"] for r in records)
    assert all(len(r["deals"]) == 1 for r in records[:10])  # a board is one deal
    assert osteria.replay(records[10]).finished  # a whole match is played out


def test_selfplay_in_every_rotation_plays_the_arenas_deals(tmp_path: Path) -> None:
    config = Config("traversone", ("heuristic", "random"), 3, seed=6, seats=3, keep_records=True)
    written = selfplay(config, tmp_path / "records.jsonl", rotate=True)
    records = [json.loads(line) for line in (tmp_path / "records.jsonl").read_text(encoding="utf-8").splitlines()]
    arena = [played for board in run(config).boards for played in board["deals"]]
    assert written == len(arena) == 9  # three boards, three rotations each
    assert [r["deals"] for r in records] == [played["record"]["deals"] for played in arena]
    assert [r["players"] for r in records] == [[config.players[p] for p in played["assignment"]] for played in arena]


def test_the_arena_command_runs_on_ray(backend: RayBackend, capsys: pytest.CaptureFixture[str]) -> None:
    words = ["arena", "tressette", "--players", "heuristic,random", "--deals", "8", "--seed", "3", "--json"]
    assert main([*words, "--backend", "ray", "--workers", "2"]) == 0
    on_ray = json.loads(capsys.readouterr().out)
    assert main([*words, "--workers", "2"]) == 0
    assert on_ray == json.loads(capsys.readouterr().out)
    assert on_ray["boards"] == 8 and on_ray["advantage"][0]["mean"] > 0


def test_selfplay_command_on_ray_writes_records_and_a_dataset(backend: RayBackend, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    records, dataset = tmp_path / "records.jsonl", tmp_path / "data.jsonl"
    assert main(["selfplay", "tressette", "--players", "heuristic", "--deals", "3", "--backend", "ray",
                 "--records", str(records), "--dataset", str(dataset)]) == 0
    out = capsys.readouterr().out
    assert "3 records written" in out
    rows = dataset.read_text(encoding="utf-8").splitlines()
    assert f"{len(rows)} decisions written" in out and len(rows) >= 3 * 40  # 40 cards a deal, and any accusi


def test_an_address_without_ray_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "tressette", "--players", "random,random", "--address", "auto"]) == 1
    assert capsys.readouterr().err.strip() == "osteria arena: --address is for --backend ray"


def test_an_unreachable_cluster_is_reported_in_one_line_at_once() -> None:
    done = subprocess.run([sys.executable, "-m", "osteria.cli", "arena", "tressette", "--players", "random,random",
                           "--backend", "ray", "--address", "127.0.0.1:1"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip() == "osteria arena: cannot reach the Ray cluster at 127.0.0.1:1: Connection refused"
