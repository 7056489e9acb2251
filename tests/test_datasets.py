"""Datasets from records: one row per decision, read back equal from JSON lines and Parquet, with
rewards as the games score the deals, legal actions that hold the action taken, and observations
taken before the action."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import osteria
from osteria.arena import Config
from osteria.arena.selfplay import selfplay
from osteria.cli import main
from osteria.datasets import COLUMNS, arrays, dense_masks, export, read, records_in, rows
from osteria.envs.encoding import encoding

pytest.importorskip("pyarrow")

GAMES = [
    Config("tressette", ("heuristic", "random"), 4, seed=1, options={"morto": [2]}),
    Config("traversone", ("heuristic", "random", "random"), 3, seed=2, seats=3),
    Config("sancagna", ("heuristic", "random"), 3, seed=3),
    Config("calabresella", ("heuristic", "random"), 4, seed=4, seats=4),
    Config("quattrigghiu", ("heuristic", "random"), 3, seed=5),
]


@pytest.fixture(scope="module", params=GAMES, ids=lambda c: c.game)
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Config, Path]:
    config: Config = request.param
    path = tmp_path_factory.mktemp(config.game) / "records.jsonl"
    selfplay(config, path, rotate=True)
    return config, path


def test_rows_read_back_equal_from_json_lines_and_parquet(played: tuple[Config, Path], tmp_path: Path) -> None:
    _, path = played
    expected = [{**row, "observation": row["observation"].tolist(), "legal": row["legal"].tolist()}
                for row in rows(records_in(path))]
    assert export(records_in(path), tmp_path / "data.jsonl") == len(expected)
    assert export(records_in(path), tmp_path / "data.parquet", batch_size=50) == len(expected)
    assert read(tmp_path / "data.jsonl") == expected
    assert read(tmp_path / "data.parquet") == expected
    assert all(tuple(row) == COLUMNS for row in expected)
    from_json, from_parquet = arrays(tmp_path / "data.jsonl"), arrays(tmp_path / "data.parquet")
    for name in COLUMNS:
        if name == "legal":  # one array per row, of its own length
            assert [list(x) for x in from_json[name]] == [list(x) for x in from_parquet[name]] \
                == [row[name] for row in expected]
            assert all(x.dtype == np.int32 for x in from_parquet[name])
        else:
            assert from_json[name].tolist() == from_parquet[name].tolist() == [row[name] for row in expected]
    assert from_parquet["observation"].dtype == np.float32 and from_parquet["observation"].shape[0] == len(expected)


def test_one_row_per_decision_of_every_deal(played: tuple[Config, Path]) -> None:
    _, path = played
    records = records_in(path)
    table = list(rows(records))
    assert len(table) == sum(len(deal["actions"]) for record in records for deal in record["deals"])
    for number, record in enumerate(records):
        for d, deal in enumerate(record["deals"]):
            words = [row["action_word"] for row in table if row["deal_id"] == f"{number}/{d}"]
            assert words == [action for _, action in deal["actions"]]


def test_rewards_are_the_deals_deltas_for_each_seat(played: tuple[Config, Path]) -> None:
    config, path = played
    records = records_in(path)
    sense = -1 if osteria.game_rules(config.game, seats=config.seats).lower_wins else 1
    rewards: dict[str, dict[int, set[float]]] = defaultdict(lambda: defaultdict(set))
    for row in rows(records):
        rewards[row["deal_id"]][row["seat"]].add(row["reward"])
    for number, record in enumerate(records):
        for d, result in enumerate(osteria.replay(record).result()["deals"]):
            for seat, seen in rewards[f"{number}/{d}"].items():
                assert seen == {sense * result["delta"][seat]}  # one reward per seat and deal: its delta
    if config.game == "tressette":  # partners share the deal's score
        assert all(by_seat[1] == by_seat[3] for by_seat in rewards.values())


def test_the_legal_actions_hold_the_action_taken_and_the_words_match_the_encoding(
        played: tuple[Config, Path]) -> None:
    config, path = played
    code = encoding(config.game, config.seats, **config.options)
    for row in rows(records_in(path)):
        assert len(row["observation"]) == code.observation_size
        assert list(row["legal"]) == sorted(set(row["legal"])) and row["action"] in row["legal"]
        assert code.action_word(row["action"]) == row["action_word"]
        assert all(code.action_index(code.action_word(i)) == i for i in row["legal"])


def test_the_legal_actions_are_stored_sparsely_and_make_the_dense_masks(tmp_path: Path) -> None:
    # A scarto at three seats is one of 91,390 indices: a row keeps only the legal ones.
    config = Config("calabresella", ("heuristic",), 2, seed=1, seats=3)  # a deal with a scarto
    selfplay(config, tmp_path / "records.jsonl")
    assert export(records_in(tmp_path / "records.jsonl"), tmp_path / "data.parquet") > 0
    data = arrays(tmp_path / "data.parquet")
    code = encoding("calabresella", 3)
    masks = dense_masks(data["legal"], code.action_size)
    assert masks.shape == (len(data["action"]), code.action_size) and masks.dtype == np.int8
    assert (masks[np.arange(len(masks)), data["action"]] == 1).all()
    assert masks.sum(axis=1).tolist() == [len(x) for x in data["legal"]]
    scarti = [len(legal) for legal, word in zip(data["legal"], data["action_word"], strict=True)
              if word.startswith("scarto")]
    assert scarti and all(n == 1820 for n in scarti)  # C(16, 4): any four of the caller's sixteen cards


def test_the_observation_is_the_deciders_before_its_action(played: tuple[Config, Path]) -> None:
    config, path = played
    code = encoding(config.game, config.seats, **config.options)
    table = list(rows(records_in(path)))
    for row in table:
        card = code.card_word(row["action_word"].split()[0])
        if card is None:
            continue  # a word, not a card played
        if row["to_move"] == row["seat"]:  # the card played is still in the hand it is seen from
            assert row["observation"][code.offsets["hand"] + card] == 1
        else:  # a dummy's card, seen by its partner in the dummy's open hand
            relative = (row["to_move"] - row["seat"]) % code.seats
            assert row["observation"][code.offsets["open_hands"] + (relative - 1) * code.deck_size + card] == 1
    if config.game == "tressette":  # seat 2 is the dummy: its partner, seat 0, chooses for it
        assert {row["seat"] for row in table} == {0, 1, 3}
        assert {row["to_move"] for row in table} == {0, 1, 2, 3}


def test_an_unfinished_deal_gives_no_rows() -> None:
    match = osteria.new_match("tressette", seed=1)
    for _ in range(5):
        match.play(match.legal_actions()[0])
    assert list(rows([match.record()])) == []


def _write_records(path: Path, records: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def test_the_dataset_command_reports_bad_records_in_one_line(played: tuple[Config, Path], tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    _, path = played
    records = records_in(path)
    records[1]["deals"][0]["actions"][2][1] = "accuso"
    _write_records(tmp_path / "bad.jsonl", records)
    assert main(["dataset", str(path), str(tmp_path / "bad.jsonl"), "--out", str(tmp_path / "d.jsonl")]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert error.startswith(f"osteria dataset: {tmp_path / 'bad.jsonl'}: records[1].deals[0].actions[2]: ")
    (tmp_path / "broken.jsonl").write_text(path.read_text(encoding="utf-8") + "{not json\n", encoding="utf-8")
    assert main(["dataset", str(tmp_path / "broken.jsonl"), "--out", str(tmp_path / "d.jsonl")]) == 1
    assert f"line {len(records) + 1}: not valid JSON" in capsys.readouterr().err
    assert main(["dataset", str(path), "--out", str(tmp_path / "d.csv")]) == 1
    assert ".jsonl or .parquet" in capsys.readouterr().err


def test_one_parquet_file_holds_one_encoding(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    selfplay(Config("tressette", ("random",), 1), first)
    selfplay(Config("traversone", ("random",), 1, seats=5), second)
    assert main(["dataset", str(first), str(second), "--out", str(tmp_path / "mixed.parquet")]) == 1
    assert "one encoding" in capsys.readouterr().err
    assert main(["dataset", str(first), str(second), "--out", str(tmp_path / "mixed.jsonl")]) == 0
    assert {row["game"] for row in read(tmp_path / "mixed.jsonl")} == {"tressette", "traversone"}
