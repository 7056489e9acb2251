"""The arena: duplicate boards, rotations, intervals, resuming (its outside engines: test_protocol.py)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

import osteria
from osteria.arena import Config, estimate, play_board, rotations, run
from osteria.arena.duplicate import ProcessBackend, new_board_match
from osteria.cli import main


def test_every_player_sits_in_every_seat_over_the_rotations() -> None:
    for seats in range(3, 7):
        for players in range(2, seats + 1):
            table = rotations(seats, players)
            for seat in range(seats):
                assert {assignment[seat] for assignment in table} == set(range(players))


def test_partners_rotate_as_sides_at_a_four_seat_table() -> None:
    assert rotations(4, 2) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert rotations(4, 2, partnership=True) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    # three players in a partnership game: every pair meets, from both sides, never split
    table = rotations(4, 3, partnership=True)
    assert len(table) == 6 and all(a[0] == a[2] and a[1] == a[3] and a[0] != a[1] for a in table)


def test_three_players_get_ratings_and_the_stronger_one_leads() -> None:
    report = run(Config("tressette", ("heuristic", "random", "random"), 30, seed=1))
    summary = report.as_json()
    ordinals = [r["ordinal"] for r in summary["openskill"]]
    assert ordinals[0] == max(ordinals)
    assert report.advantages()[0].low > 0


def test_whole_matches_give_win_rates(tmp_path: Path) -> None:
    report = run(Config("tressette", ("heuristic", "random"), 2, seed=1, matches=3, options={"target": 21}))
    rates = report.win_rates()
    assert rates is not None and len(report.matches) == 3
    assert all(len(m["won"]) == 2 for m in report.matches)  # each match in both rotations
    assert abs(rates[0].mean + rates[1].mean - 1) < 1e-9  # one side wins each match
    from osteria.arena.chart import save_chart

    save_chart(report, tmp_path / "chart.png")
    assert (tmp_path / "chart.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

def test_a_board_deals_the_same_cards_in_every_rotation_and_differs_between_boards() -> None:
    config = Config("tressette", ("random", "random"), 4, seed=3)
    first = new_board_match(config, 0).record()["deals"]
    assert new_board_match(config, 0).record()["deals"] == first
    assert new_board_match(config, 1).record()["deals"] != first
    board = play_board(config, 0)
    assert [d["assignment"] for d in board["deals"]] == [[0, 1, 0, 1], [1, 0, 1, 0]]


def test_results_are_reproducible_from_the_seed() -> None:
    config = Config("tressette", ("random", "random"), 20, seed=8)
    assert run(config).as_json() == run(config).as_json()
    assert run(config).as_json() != run(Config("tressette", ("random", "random"), 20, seed=9)).as_json()


def test_the_interval_narrows_as_the_deals_grow() -> None:
    small = run(Config("tressette", ("random", "random"), 20, seed=1)).advantages()[0]
    large = run(Config("tressette", ("random", "random"), 320, seed=1)).advantages()[0]
    assert large.half_width < small.half_width / 2
    assert large.low < 0 < large.high  # two random bots are equal


def test_an_estimate_holds_the_mean() -> None:
    e = estimate([1.0, 2.0, 3.0, 4.0])
    assert e.mean == 2.5 and e.low < 2.5 < e.high
    assert round(e.half_width, 3) == round(3.182 * 1.2909944 / 2, 3)


def test_an_interrupted_run_resumes_where_it_stopped(tmp_path: Path) -> None:
    results = tmp_path / "boards.jsonl"
    full = run(Config("tressette", ("random", "random"), 12, seed=2)).as_json()
    run(Config("tressette", ("random", "random"), 5, seed=2), results=results)
    assert len(results.read_text().splitlines()) == 1 + 5
    seen: list[int] = []
    resumed = run(Config("tressette", ("random", "random"), 12, seed=2), results=results,
                  progress=lambda done, total: seen.append(done))
    assert seen[0] == 5 and seen[-1] == 12
    assert resumed.as_json() == full
    with pytest.raises(ValueError, match="different run"):
        run(Config("tressette", ("random", "random"), 12, seed=3), results=results)


def test_workers_give_the_same_results_as_one_process() -> None:
    config = Config("tressette", ("random", "random"), 8, seed=4)
    assert run(config, workers=2).as_json() == run(config).as_json()


def _wait_for_the_first_result(task: tuple[Path, int]) -> bool:
    """A board from the eighth on waits until the caller has the first result (a file says so);
    whether it had to give up waiting."""
    folder, item = task
    waited = 0.0
    while item >= 8 and not (folder / "first").exists() and waited < 20:
        time.sleep(0.05)
        waited += 0.05
    return waited >= 20


def test_workers_hand_back_each_result_before_they_take_many_more_boards(tmp_path: Path) -> None:
    # A run of long boards writes each result as the boards before it are done: a worker does
    # not hold a long stretch of boards (an eighth of its share, 25 of 400) before handing any back.
    results = ProcessBackend(2).map(_wait_for_the_first_result, [(tmp_path, k) for k in range(400)])
    first = next(results)
    (tmp_path / "first").touch()
    assert not first and not any(results)


def test_where_points_are_poison_the_advantage_counts_the_right_way() -> None:
    report = run(Config("traversone", ("random", "random"), 6, seed=1))
    assert report.sense == -1
    board = report.boards[0]["scores"]
    expected = -(board[0] - board[1])  # taking fewer points is the advantage
    advantages = [-(b["scores"][0] - b["scores"][1]) for b in report.boards]
    assert advantages[0] == expected
    assert report.advantages()[0].mean == pytest.approx(sum(advantages) / len(advantages))


def test_a_sancagna_board_is_a_whole_smazzata_and_other_boards_one_deal() -> None:
    from osteria.engine import DealResult

    sancagna, tressette = osteria.game_rules("sancagna"), osteria.game_rules("tressette")
    going_on = DealResult("continua", [20, 5], [0, 0, 0, 0])
    called = DealResult("fuori", [9, 5], [1, 0, 1, 0])
    assert not sancagna.board_over([]) and not sancagna.board_over([going_on])
    assert sancagna.board_over([going_on, called]) and sancagna.board_over([going_on] * 8)
    assert tressette.board_over([going_on])
    board = play_board(Config("sancagna", ("random", "random"), 1, seed=2), 0)
    assert all(sum(map(abs, d["delta"])) > 0 for d in board["deals"])  # someone won the smazzata's circles


def test_the_records_of_every_deal_can_be_kept_and_replay_to_the_scores(tmp_path: Path) -> None:
    out = tmp_path / "deals.jsonl"
    assert main(["arena", "tressette", "--players", "heuristic,random", "--deals", "3", "--workers", "1",
                 "--records", str(out), "--json"]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 3 * 2  # every board in both rotations
    for record in records:
        result = osteria.replay(record).result()
        assert len(result["deals"]) == 1


def test_a_run_gives_the_same_results_in_every_process(tmp_path: Path) -> None:
    import os
    import subprocess

    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run([sys.executable, "-m", "osteria.cli", "arena", "tressette", "--players",
                               "heuristic,random", "--deals", "6", "--workers", "1", "--json"],
                              env=env, capture_output=True, text=True, check=True)
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
