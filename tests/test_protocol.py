"""The bot protocol: engines that misbehave, late, slow to start or crashing; the handshake and its
options; engines kept for the whole run; version 1 still played; osteria's bots over the protocol."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

from osteria.arena import Config, run
from osteria.arena.duplicate import player_seed
from osteria.arena.protocol import EngineBot, EngineError, Fault, TimeControl, check_engine, parse_engine, serve
from osteria.cli import main
from osteria.tui import play

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "first_card_engine.py"

# Version-1 engines, as the protocol's first version had them: they know act and bye, nothing else.
V1_ENGINES = {
    "good": "import json,sys\nfor l in sys.stdin:\n m=json.loads(l)\n if m['type']=='bye': break\n"
            " print(json.dumps({'action': m['legal_actions'][-1]}), flush=True)\n",
    "garbage": "import sys\nfor l in sys.stdin:\n print('}{ not json', flush=True)\n",
    "illegal": "import sys\nfor l in sys.stdin:\n print('{\"action\": \"Xz volo\"}', flush=True)\n",
    "wrong shape": "import sys\nfor l in sys.stdin:\n print('[1, 2, 3]', flush=True)\n",
    "silent": "import sys,time\nfor l in sys.stdin:\n time.sleep(5)\n",
    "crash": "import sys\nsys.stdin.readline()\nraise SystemExit(3)\n",
}

# The start of a version-2 toy engine: it logs what it is told to the file named by its first
# argument (if any), answers the handshake and the pings, and leaves each act to ``answer(m)``.
V2_ENGINE = """\
import json, os, sys, time
LOG = open(sys.argv[1], "a") if len(sys.argv) > 1 else None
OFFERS = {}
FORCED = True

def log(*words):
    if LOG:
        print(*words, file=LOG, flush=True)

def send(m, **fields):
    print(json.dumps({**({"id": m["id"]} if "id" in m else {}), **fields}), flush=True)

def serve(answer):
    log("start")
    for line in sys.stdin:
        m = json.loads(line)
        if m["type"] == "bye":
            log("bye")
            break
        if m["type"] == "hello":
            send(m, type="hello", protocol="osteria-bot/2", name="toy", author="tests", options=OFFERS,
                 forced_moves=FORCED)
        elif m["type"] == "ping":
            send(m, type="ready")
        elif m["type"] == "act":
            answer(m)
        else:
            log(m["type"], json.dumps({k: v for k, v in m.items() if k not in ("type", "id")}))
"""


def v1_engine(tmp_path: Path, kind: str) -> str:
    path = tmp_path / f"v1_{kind.replace(' ', '_')}.py"
    path.write_text(V1_ENGINES[kind])
    return f"{sys.executable} {path}"


def v2_engine(tmp_path: Path, name: str, body: str, log: Path | None = None) -> str:
    """The command of a version-2 toy engine: the preamble, then ``body``, which calls serve()."""
    path = tmp_path / f"{name}.py"
    path.write_text(V2_ENGINE + body)
    return f"{sys.executable} {path}" + (f" {log}" if log is not None else "")


def lines(log: Path, word: str) -> list[str]:
    return [line for line in log.read_text().splitlines() if line.split()[0] == word]


# -- late replies ------------------------------------------------------------------------------

LATE_FIRST_OF_A_DEAL = """
def answer(m):
    # The first answer of each deal (a full hand) comes 1 s after the 0.3 s limit, the others at once.
    if len(m["observation"]["hand"]) == 10:
        time.sleep(1.3)
    send(m, type="action", action=m["legal_actions"][0])

serve(answer)
"""


def test_a_late_reply_is_not_played_as_the_answer_to_a_later_move(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    late = v2_engine(tmp_path, "late", LATE_FIRST_OF_A_DEAL)
    assert main(["arena", "tressette", "--players", f"cmd:{late},random", "--deals", "2", "--workers", "1",
                 "--time-limit", "0.3", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    # Every move forfeited was forfeited for lateness: no late answer was taken for a later move's
    # (it would be illegal there, or played as that move's with no fault at all).
    assert summary["forfeited_moves"][0] > 0
    assert all(reason == "no reply within 0.3 s" for reason in summary["faults"][0])
    # Once caught up, the engine plays its own moves for the rest of the deal.
    assert summary["forfeited_moves"][0] < summary["moves"][0] / 2


LATE_FIRST = """
first = True

def answer(m):
    global first
    if first:  # 1 s past its 0.3 s limit
        first = False
        time.sleep(1.3)
        send(m, type="action", action="3d")
    else:
        send(m, type="action", action="4d")

serve(answer)
"""


def test_a_late_reply_that_would_be_legal_is_never_played(tmp_path: Path) -> None:
    bot = EngineBot(v2_engine(tmp_path, "late_3d", LATE_FIRST), time_control=TimeControl(0.3), seed=1)
    try:
        calls: list[tuple[str, list[Fault]]] = []
        while len(calls) < 30 and (not calls or calls[-1][1]):
            before = len(bot.faults)
            calls.append((bot.act({"seat": 0}, ["3d", "4d"]), bot.faults[before:]))
    finally:
        bot.close()
    # 3d, the late answer to the first request, is legal at every later one: only a forfeited
    # move (a random action, with its fault) may be 3d; the engine's own answers are all 4d.
    assert all(action == "4d" or [f.kind for f in faults] == ["late"] for action, faults in calls)
    assert calls[0][1] and not calls[-1][1]  # the first move forfeited, and the engine caught up


# -- start-up, crashes, one engine per seat ----------------------------------------------------

SLOW_START = """
time.sleep(2)  # a slow start-up, such as a virtual machine's
serve(lambda m: send(m, type="action", action=m["legal_actions"][-1]))
"""


def test_a_slow_start_does_not_cost_the_first_move(tmp_path: Path) -> None:
    bot = EngineBot(v2_engine(tmp_path, "slow", SLOW_START), time_control=TimeControl(0.3), start_limit=10, seed=1)
    try:
        assert [bot.act({"seat": 0}, ["3d", "4d"]) for _ in range(3)] == ["4d"] * 3
        assert bot.info is not None and (bot.info.protocol, bot.info.name) == ("osteria-bot/2", "toy")
    finally:
        bot.close()
    assert bot.faults == []


def test_a_slow_version_1_engine_has_the_start_up_limit_for_its_first_move(tmp_path: Path) -> None:
    slow = tmp_path / "slow_v1.py"
    slow.write_text("import time\ntime.sleep(1.5)\n" + V1_ENGINES["good"])
    bot = EngineBot(f"{sys.executable} {slow}", time_control=TimeControl(0.3), start_limit=10, seed=1)
    try:
        assert [bot.act({"seat": 0}, ["3d", "4d"]) for _ in range(3)] == ["4d"] * 3
        assert bot.info is not None and bot.info.protocol == "osteria-bot/1"
    finally:
        bot.close()
    assert bot.faults == []


ANSWERS_THEN_CRASHES = """
answered = 0

def answer(m):
    global answered
    answered += 1
    if answered > 3:
        raise SystemExit(1)
    send(m, type="action", action=m["legal_actions"][0])

serve(answer)
"""


def test_a_crashed_engine_forfeits_its_moves_and_the_run_finishes(tmp_path: Path) -> None:
    log = tmp_path / "crash.log"
    crashing = v2_engine(tmp_path, "crash", ANSWERS_THEN_CRASHES, log)
    report = run(Config("tressette", (f"cmd:{crashing}", "random"), 2, seed=1, time_control=TimeControl(2)))
    summary = report.as_json()
    assert summary["boards"] == 2
    assert summary["faults"][0] == ["the engine has exited"] and summary["forfeited_moves"][1] == 0
    # Each of its four seats (two seats in each of two rotations) answers 3 moves of each board,
    # being started again for each board after its crash.
    assert summary["moves"][0] - summary["forfeited_moves"][0] == 4 * 2 * 3
    assert len(lines(log, "start")) == 4 * 2


ANSWERS = """
serve(lambda m: send(m, type="action", action=m["legal_actions"][0]))
"""


@pytest.mark.parametrize("workers", [1, 2])
def test_an_engine_is_started_once_per_seat_of_each_rotation_for_the_whole_run(tmp_path: Path, workers: int) -> None:
    log = tmp_path / "starts.log"
    engine = v2_engine(tmp_path, "kept", ANSWERS, log)
    report = run(Config("tressette", (f"cmd:{engine}", "random"), 4, seed=1, matches=1, options={"target": 21}),
                 workers=workers)
    assert report.as_json()["boards"] == 4 and not any(report.faults())
    starts, byes = lines(log, "start"), lines(log, "bye")
    # Two seats in each of two rotations: 4 programs (in each worker process, with workers), not
    # the 4 * 5 that a program per seat of each board and match would take; each is told goodbye.
    assert len(starts) == 4 if workers == 1 else 4 <= len(starts) <= 4 * workers
    assert len(byes) == len(starts)
    # Every board and match is announced to the programs that play it, with its seat and a seed
    # of its player's own, which does not name the run's seed and board (the deals follow from them).
    matches = [json.loads(line.split(" ", 1)[1]) for line in lines(log, "new_match")]
    assert len(matches) == 4 * 5
    assert {"game": "tressette", "seat": 2, "seed": player_seed("1/3/0", 2)} in matches
    assert {"game": "tressette", "seat": 1, "seed": player_seed("1/match/0/1", 1)} in matches
    assert all(re.fullmatch("[0-9a-f]{16}", m["seed"]) for m in matches)
    assert len({m["seed"] for m in matches}) == len(matches)
    assert len(lines(log, "new_deal")) > len(matches)  # the whole match has several deals


def test_a_version_1_engine_plays_a_whole_run_without_a_fault(tmp_path: Path) -> None:
    good = v1_engine(tmp_path, "good")
    summary = run(Config("tressette", (f"cmd:{good}", "random"), 2, seed=1, time_control=TimeControl(5))).as_json()
    assert summary["boards"] == 2 and "forfeited_moves" not in summary


# -- hostile engines -----------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["garbage", "illegal", "wrong shape", "silent", "crash"])
def test_a_hostile_engine_forfeits_its_moves_and_the_arena_goes_on(tmp_path: Path, kind: str) -> None:
    bot = EngineBot(v1_engine(tmp_path, kind), time_control=TimeControl(0.3), start_limit=1, seed=1)
    try:
        for _ in range(3):
            assert bot.act({"seat": 0}, ["3d", "4d"]) in ("3d", "4d")
    finally:
        bot.close()
    assert len(bot.faults) == 3


REPLIES_WITHOUT_ID = """
serve(lambda m: print(json.dumps({"action": m["legal_actions"][0]}), flush=True))
"""


def test_a_version_2_reply_without_its_id_is_not_played(tmp_path: Path) -> None:
    bot = EngineBot(v2_engine(tmp_path, "no_id", REPLIES_WITHOUT_ID), time_control=TimeControl(2), seed=1)
    try:
        bot.act({"seat": 0}, ["3d", "4d"])
    finally:
        bot.close()
    reason = """a reply without an id: '{"action": "3d"}\\n'"""
    assert [(f.kind, f.reason) for f in bot.faults] == [("unreadable", reason)]


def test_a_good_engine_plays_its_own_moves(tmp_path: Path) -> None:
    bot = EngineBot(v1_engine(tmp_path, "good"), time_control=TimeControl(5), seed=1)
    try:
        assert [bot.act({"seat": 0}, ["3d", "4d"]) for _ in range(3)] == ["4d"] * 3
    finally:
        bot.close()
    assert bot.faults == []


def test_a_missing_engine_is_a_fault_not_a_crash_and_a_bad_player_on_the_command_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    bot = EngineBot("/nonexistent/engine --x", time_control=TimeControl(0.2))
    assert bot.act({}, ["3d"]) == "3d"
    assert [f.kind for f in bot.faults] == ["not started"] and "cannot start" in bot.faults[0].reason
    bot.close()
    assert main(["arena", "tressette", "--players", "cmd:/nonexistent/engine,random", "--deals", "2"]) == 1
    assert capsys.readouterr().err.startswith("osteria arena: cmd:/nonexistent/engine: cannot start: ")


def test_an_arena_run_reports_which_moves_an_engine_forfeited_and_why(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    garbage = v1_engine(tmp_path, "garbage")
    config = Config("tressette", (f"cmd:{garbage}", "random"), 2, seed=1, time_control=TimeControl(2), start_limit=1)
    summary = run(config).as_json()
    assert summary["forfeited_moves"][0] == summary["moves"][0] >= 20 and summary["forfeited_moves"][1] == 0
    assert summary["faults"][0] == ["not JSON: '}{ not json\\n'"]
    first = summary["forfeits"][0][0]
    assert first["kind"] == "unreadable" and first["reason"] == "not JSON: '}{ not json\\n'"
    assert {(f["board"], f["rotation"], f["seat"]) for f in summary["forfeits"][0]} == {
        (board, 0, 0) for board in (0, 1)} | {(board, 0, 2) for board in (0, 1)} | {
        (board, 1, 1) for board in (0, 1)} | {(board, 1, 3) for board in (0, 1)}
    # Each forfeited move is the action at its place in the deal's record.
    moves = sorted(f["move"] for f in summary["forfeits"][0] if (f["board"], f["rotation"], f["seat"]) == (0, 0, 0))
    assert moves == sorted(set(moves)) and all(0 <= m < 40 for m in moves) and summary["forfeits"][1] == []
    assert main(["arena", "tressette", "--players", f"cmd:{garbage},random", "--deals", "2", "--workers", "1",
                 "--seed", "1", "--start-limit", "1"]) == 0  # the run above, so the same moves
    text = capsys.readouterr().out
    assert f"cmd:{garbage} forfeited {summary['moves'][0]} of its {summary['moves'][0]} moves: " in text
    assert "  board 0, rotation 0, seat " in text and ": not JSON: " in text


# -- the handshake and the options ---------------------------------------------------------------

OFFERS_OPTIONS = """
OFFERS = {"level": {"type": "int", "default": 1, "min": 1, "max": 5},
          "style": {"type": "choice", "default": "safe", "choices": ["safe", "bold"]},
          "book": {"type": "string", "default": ""}, "ponder": {"type": "bool", "default": False}}
FORCED = False

def answer(m):
    log("act", os.getpid(), len(m["legal_actions"]), m["time_limit"], json.dumps(m["time_control"]))
    send(m, type="action", action=m["legal_actions"][0])

serve(answer)
"""


def test_options_are_checked_against_those_the_engine_offers_and_sent(tmp_path: Path) -> None:
    log = tmp_path / "options.log"
    engine = v2_engine(tmp_path, "options", OFFERS_OPTIONS, log)
    info = check_engine(f"cmd:{engine}?level=3&style=bold&book=a b&ponder=yes")
    assert set(info.options) == {"level", "style", "book", "ponder"} and not info.forced_moves
    sent = {"level": 3, "style": "bold", "book": "a b", "ponder": True}
    assert lines(log, "options") == [f"options {json.dumps({'options': sent})}"]
    for spec, message in [("cmd:{}?levle=3", "no option 'levle'; its options: level, style, book, ponder"),
                          ("cmd:{}?level=9", "option level takes a number from 1 to 5, not 9"),
                          ("cmd:{}?level=x", "option level takes a whole number, not 'x'"),
                          ("cmd:{}?style=wild", "option style takes one of safe, bold, not 'wild'"),
                          ("cmd:{}?ponder=maybe", "option ponder takes true or false, not 'maybe'")]:
        with pytest.raises(EngineError, match=message):
            check_engine(spec.format(engine))


def test_a_bad_engine_option_on_the_command_line_is_one_line_and_status_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    engine = v2_engine(tmp_path, "options", OFFERS_OPTIONS)
    good = v1_engine(tmp_path, "good")
    for players, message in [(f"cmd:{engine}?level=0,random", "option level takes a number from 1 to 5, not 0"),
                             (f"cmd:{good}?level=2,random", "the engine speaks osteria-bot/1, which has no options"),
                             ("cmd:,random", "no command after cmd:"),
                             ("cmd:engine?level,random", "an engine option is NAME=VALUE, not 'level'"),
                             ("cmd:engine?a=1&a=2,random", "option a given twice")]:
        assert main(["arena", "tressette", "--players", players, "--deals", "2"]) == 1
        err = capsys.readouterr().err
        assert err.startswith("osteria arena: ") and message in err and err.count("\n") == 1


def test_the_time_control_is_stated_in_each_request_and_forced_moves_go_unasked(tmp_path: Path) -> None:
    log = tmp_path / "clock.log"
    engine = v2_engine(tmp_path, "clock", OFFERS_OPTIONS, log)
    config = Config("tressette", (f"cmd:{engine}", "random"), 2, seed=1,
                    time_control=TimeControl(30, per_deal=True, increment=0.5))
    summary = run(config).as_json()
    assert "forfeited_moves" not in summary
    acts = [line.split(" ", 4) for line in lines(log, "act")]
    assert all(json.loads(control) == {"deal": 30, "increment": 0.5} for *_, control in acts)
    assert all(int(legal) > 1 for _, _, legal, _, _ in acts)  # the last trick's card, forced, is not asked
    programs: dict[str, list[float]] = {}
    for _, pid, _, limit, _ in acts:
        programs.setdefault(pid, []).append(float(limit))
    assert len(programs) == 4  # two seats in each of two rotations
    for limits in programs.values():
        # A deal's first request has the whole clock and the increment; the next one the increment
        # more, less the little time the reply took.
        assert limits[0] == 30.5 and 30.5 < limits[1] <= 31
        assert limits.count(30.5) == 2  # once a deal: the program plays both boards


SLOW = """
def answer(m):
    time.sleep(1)
    send(m, type="action", action=m["legal_actions"][0])

serve(answer)
"""


def test_a_spent_clock_forfeits_the_rest_of_the_deal_unasked(tmp_path: Path) -> None:
    log = tmp_path / "slow.log"
    bot = EngineBot(v2_engine(tmp_path, "slow", SLOW, log), time_control=TimeControl(0.3, per_deal=True), seed=1)
    try:
        for _ in range(3):
            bot.act({"seat": 0, "deal_index": 0}, ["3d", "4d"])
    finally:
        bot.close()
    assert [f.kind for f in bot.faults] == ["late", "out of time", "out of time"]


# -- osteria's bots over the protocol ------------------------------------------------------------

def test_serve_speaks_version_2_and_version_1() -> None:
    requests = "\n".join([
        json.dumps({"type": "hello", "id": 1, "protocol": "osteria-bot/2"}),
        json.dumps({"type": "ping", "id": 2}),
        json.dumps({"type": "new_match", "id": 3, "game": "tressette", "seat": 0, "seed": "7/0/0/0"}),
        json.dumps({"type": "new_deal", "id": 4, "deal": 0}),
        json.dumps({"type": "act", "id": 5, "observation": {"seat": 0}, "legal_actions": ["3d"]}),
        json.dumps({"type": "act", "observation": {"seat": 0}, "legal_actions": ["4d"]}),  # version 1
        "not json",
        json.dumps({"type": "act", "id": 6, "observation": {}, "legal_actions": []}),
        json.dumps({"type": "new_match", "id": 7, "game": "tressette", "seed": [1]}),
        json.dumps({"type": "bye", "id": 8}),
        json.dumps({"type": "act", "observation": {}, "legal_actions": ["4d"]}),
    ]) + "\n"
    out = io.StringIO()
    assert serve("random", game="tressette", seed=0, stdin=io.StringIO(requests), stdout=out) == 0
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert replies[0] == {"id": 1, "type": "hello", "protocol": "osteria-bot/2", "name": "osteria random",
                          "author": "osteria", "options": {}, "forced_moves": True}
    assert replies[1] == {"id": 2, "type": "ready"}
    assert replies[2] == {"id": 5, "type": "action", "action": "3d"}
    assert replies[3] == {"type": "action", "action": "4d"}
    assert "error" in replies[4] and replies[5]["id"] == 6 and "error" in replies[5]
    assert replies[6]["id"] == 7 and "error" in replies[6]
    assert len(replies) == 7  # nothing after bye


def test_osteria_bots_over_the_protocol_play_the_boards_they_play_in_process() -> None:
    served = tuple(f"cmd:{sys.executable} -m osteria.cli bot {name} --stdio" for name in ("heuristic", "random"))
    over_protocol = run(Config("tressette", served, 3, seed=7, keep_records=True))
    in_process = run(Config("tressette", ("heuristic", "random"), 3, seed=7, keep_records=True))
    assert over_protocol.boards == in_process.boards


def test_the_example_engine_plays_a_whole_run_with_its_option(capsys: pytest.CaptureFixture[str]) -> None:
    for option in ("", "?order=high"):
        assert main(["arena", "tressette", "--players", f"cmd:{sys.executable} {EXAMPLE}{option},random",
                     "--deals", "2", "--workers", "1", "--json", "--time-limit", "10"]) == 0
        summary = json.loads(capsys.readouterr().out)
        assert summary["boards"] == 2 and "forfeited_moves" not in summary


def test_an_engine_plays_the_bots_seats_at_the_table(tmp_path: Path) -> None:
    log = tmp_path / "table.log"
    engine = v2_engine(tmp_path, "table", ANSWERS, log)
    out = io.StringIO()
    assert play("tressette", seed=4, level=f"cmd:{engine}", input_fn=lambda prompt: "1", output=out,
                options={"target": 21}, review=False) == 0
    assert len(lines(log, "start")) == len(lines(log, "bye")) == 3  # one program in each bot's seat
    assert {"game": "tressette", "seat": 1, "seed": "4/1"} in [
        json.loads(line.split(" ", 1)[1]) for line in lines(log, "new_match")]
    out = io.StringIO()
    assert play("tressette", level=f"cmd:{engine}?level=2", input_fn=lambda prompt: "1", output=out) == 1
    assert "the engine offers no option 'level'; its options: none" in out.getvalue()


def test_parse_engine_splits_the_command_from_its_options() -> None:
    assert parse_engine("cmd:java -jar engine.jar?level=3&book=open.bin") == (
        "java -jar engine.jar", {"level": "3", "book": "open.bin"})
    assert parse_engine("cmd:./engine") == ("./engine", {})
    with pytest.raises(EngineError, match="No closing quotation"):
        parse_engine("cmd:'engine")
