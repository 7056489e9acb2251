"""Hostile input at every door: deeply nested or odd files, odd tokens and chat lines. Each gets
a clear message (exit status 1 at the command line, an error to the client), never a crash, and
nothing half-written is left behind."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import pytest
import websockets

import osteria
from osteria.cli import main
from osteria.records import RecordError, load
from server_helpers import connect, create, receive, served, ws_url

DEEP = "[" * 100_000 + "]" * 100_000


def test_a_deeply_nested_record_is_a_record_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text(DEEP)
    with pytest.raises(RecordError, match="not a readable record"):
        load(path)


@pytest.mark.parametrize("command", ["replay", "verify", "view"])
def test_commands_refuse_a_deep_file_in_one_line(tmp_path: Path, command: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deep.json"
    path.write_text(DEEP)
    assert main([command, str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"osteria {command}: {path}:") and "\n" not in err and "Traceback" not in err


def test_a_record_without_deals_is_refused_by_the_viewer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "empty.json"
    path.write_text(json.dumps({"format": "osteria/1", "game": "tressette", "deals": []}))
    assert main(["view", str(path)]) == 1
    assert "no deal" in capsys.readouterr().err


def test_a_dataset_that_fails_midway_leaves_no_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = osteria.new_match("tressette", seed=1)
    while not good.results:
        good.play(good.legal_actions()[0])
    bad = dict(good.record(), game="briscola")
    records = tmp_path / "mixed.jsonl"
    records.write_text(json.dumps(good.record()) + "\n" + json.dumps(bad) + "\n")
    out = tmp_path / "rows.jsonl"
    assert main(["dataset", str(records), "--out", str(out)]) == 1
    assert not out.exists()
    assert "briscola" in capsys.readouterr().err


def test_odd_tokens_deep_messages_and_control_characters_get_errors(tmp_path: Path) -> None:
    async def run(base: str) -> None:
        table = create(base, game="tressette", players=[{"kind": "human"}] + [{"kind": "bot"}] * 3)
        tid, token = table["table_id"], table["token"]
        # A non-ASCII invite or token is simply wrong, not a server error.
        assert httpx.post(f"{base}/api/tables/{tid}/join", json={"invite": "é"}).status_code in (403, 404)
        with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
            async with connect(ws_url(base, tid, "%C3%A9")) as ws:
                await receive(ws)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
        assert httpx.post(f"{base}/api/verify", content="[" * 50_000 + "]" * 50_000).status_code == 400
        async with connect(ws_url(base, tid, token)) as ws:
            for text in ("[" * 1500 + "]" * 1500, json.dumps({"type": "chat", "text": "ciao\u0000\u202e"})):
                await ws.send(text)
                while (message := await receive(ws))["type"] != "error":
                    pass
                assert message["code"] == "bad_message"
            await ws.send(json.dumps({"type": "ping"}))  # the seat is still served
            while (await receive(ws))["type"] != "pong":
                pass

    with served(tmp_path) as base:
        asyncio.run(run(base))


@pytest.mark.parametrize("argv", [["arena", "briscola", "--players", "random,random"],
                                  ["play", "tressette", "--seat", "nord"], ["replay"], ["bench", "--seconds", "many"],
                                  ["serve", "--port", "http"], ["replay", "a.json", "--colour"], ["nothing"], []])
def test_a_command_line_it_cannot_read_exits_with_status_1(argv: list[str],
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 1
    err = capsys.readouterr().err
    assert "error: " in err and "usage: osteria" in err and "Traceback" not in err


@pytest.mark.parametrize("option", ["--results", "--records", "--chart"])
def test_the_arena_refuses_a_file_it_cannot_write_before_it_plays(tmp_path: Path, option: str,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    for path in (tmp_path / "no" / "such.jsonl", tmp_path):  # a missing folder, a folder
        argv = ["arena", "tressette", "--players", "random,random", "--deals", "2", option, str(path)]
        assert main(argv) == 1
        err = capsys.readouterr().err.strip()
        assert err.startswith(f"osteria arena: cannot write {path}: ") and "\n" not in err
    assert list(tmp_path.iterdir()) == []


def test_the_arena_refuses_results_that_are_not_an_arena_runs(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    for name, content in (("binary.jsonl", b"\xff\xfe\x00osteria"), ("text.jsonl", b"board 1: +3\n")):
        path = tmp_path / name
        path.write_bytes(content)
        argv = ["arena", "tressette", "--players", "random,random", "--deals", "2", "--results", str(path)]
        assert main(argv) == 1
        assert capsys.readouterr().err.strip() == f"osteria arena: {path} is not the results of an arena run; " \
                                                  "choose another file"
        assert path.read_bytes() == content


def test_selfplay_refuses_a_dataset_it_cannot_write_before_it_plays(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    records, dataset = tmp_path / "records.jsonl", tmp_path / "no" / "rows.jsonl"
    argv = ["selfplay", "tressette", "--players", "random", "--matches", "1", "--records", str(records),
            "--dataset", str(dataset)]
    assert main(argv) == 1
    assert capsys.readouterr().err.strip() == f"osteria selfplay: cannot write {dataset}: No such file or directory"
    assert not records.exists()


@pytest.mark.parametrize("argv, said", [
    (["play", "tressette", "--plain", "--delay", "-1"], "--delay is seconds, 0 or more, not -1"),
    (["play", "tressette", "--plain", "--trick-pause", "nan"], "--trick-pause is seconds, 0 or more, not nan"),
    (["play", "tressette", "--plain", "--hint-time", "0"], "--hint-time is seconds, more than 0, not 0"),
    (["play", "tressette", "--plain", "--analysis-time", "inf"], "--analysis-time is seconds, more than 0, not inf"),
    (["arena", "tressette", "--players", "random,random", "--workers", "-1"],
     "--workers is 0 (one per core) or more, not -1"),
])
def test_odd_numbers_on_the_command_line_are_refused(argv: list[str], said: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 1
    assert capsys.readouterr().err.strip() == f"osteria {argv[0]}: {said}"
