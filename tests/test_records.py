"""The osteria/1 format: the example records, round trips, and every kind of bad record."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

import osteria
from osteria.cli import main
from osteria.records import RecordError

EXAMPLES = Path(__file__).resolve().parent / "records"
EXAMPLE_NAMES = sorted(p.name.removesuffix(".expected.json") for p in EXAMPLES.glob("*.expected.json"))


def example(name: str) -> dict[str, Any]:
    return json.loads((EXAMPLES / f"{name}.json").read_text())


@pytest.mark.parametrize("name", [n for n in EXAMPLE_NAMES if n.split("-")[0] in osteria.games()])
def test_each_example_replays_to_its_expected_output(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    expected = json.loads((EXAMPLES / f"{name}.expected.json").read_text())
    assert main(["replay", "--json", str(EXAMPLES / f"{name}.json")]) == 0
    assert json.loads(capsys.readouterr().out) == expected
    # and the record written back is the record read, word for word
    assert osteria.replay(example(name)).record() == example(name)


def test_the_replay_summary_counts_one_deal_in_the_singular(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(EXAMPLES / "calabresella-04-4p-called-won.json")]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "calabresella: 1 deal"
    assert main(["replay", str(EXAMPLES / "sancagna-01-rinvio-doppio-match-to-3.json")]) == 0
    assert re.match(r"sancagna: \d+ deals$", capsys.readouterr().out.splitlines()[0])


TRESSETTE = "tressette-01-accusi-and-cappotto"


def broken(change: Any) -> dict[str, Any]:
    record = copy.deepcopy(example(TRESSETTE))
    change(record)
    return record


BAD_RECORDS = {
    "format": (lambda r: r.update(format="osteria/2"), "format: format must be 'osteria/1'"),
    "game": (lambda r: r.update(game="briscola"), "game: unknown game \"briscola\""),
    "option": (lambda r: r.update(options={"target": 30}), "options: tressette: option 'target' cannot be 30"),
    "unknown option": (lambda r: r.update(options={"trumps": 1}), "unknown option 'trumps'"),
    "players": (lambda r: r.update(players=["A", "B"]), "players: 2 players for 4 hands"),
    "hands": (lambda r: r["deals"][0]["hands"].pop(), "deals[0].hands: tressette is played by 4 players, not 3"),
    "duplicate": (lambda r: r["deals"][0]["hands"][0].__setitem__(0, "Fd"), "deals[0]: Fd is dealt twice"),
    "not a card": (lambda r: r["deals"][0]["hands"][1].__setitem__(2, "8d"), "8d is not in the italiana-40 deck"),
    "bad card": (lambda r: r["deals"][0]["hands"][1].__setitem__(2, "Zq"), "deals[0].hands[1][2]: 'Zq' is not a card"),
    "hand size": (lambda r: r["deals"][0]["hands"][0].pop(), "deals[0]: seat 0 holds 9 cards; 10 expected"),
    "wrong seat": (lambda r: r["deals"][0]["actions"][0].__setitem__(0, 1),
                   "deals[0].actions[0]: seat 2 is to move, not seat 1"),
    "illegal": (lambda r: r["deals"][0]["actions"][1].__setitem__(1, "2c"),
                "deals[0].actions[1]: illegal action: seat 3 must follow suit"),
    "unknown action": (lambda r: r["deals"][0]["actions"][1].__setitem__(1, "bluff"),
                       "deals[0].actions[1]: illegal action: 'bluff' is not a tressette action"),
    "malformed action": (lambda r: r["deals"][0]["actions"].__setitem__(1, "5d"),
                         "deals[0].actions[1]: an action is [seat, \"action\"]"),
    "next dealer": (lambda r: r["deals"][1].update(dealer=3), "deals[1]: seat 1 deals now, not seat 3"),
    "unfinished deal": (lambda r: r["deals"][0]["actions"].pop(), "deals[1]: the previous deal is not finished"),
    "extra action": (lambda r: r["deals"][1]["actions"].append([2, "As"]), "deals[1].actions[41]: the deal is over"),
    "stock": (lambda r: r["deals"][0].update(stock={"widow": []}), "unknown stock role 'widow'"),
}


@pytest.mark.parametrize("case", list(BAD_RECORDS))
def test_a_bad_record_is_reported_with_where_and_why(case: str) -> None:
    change, message = BAD_RECORDS[case]
    with pytest.raises(RecordError) as info:
        osteria.replay(broken(change))
    assert message in str(info.value)


def test_a_deal_after_the_end_of_the_match_is_refused() -> None:
    match = osteria.new_match("tressette", seed=4, target=21)
    import random

    from helpers import play_randomly
    play_randomly(match, random.Random(4))
    record = match.record()
    record["deals"].append(copy.deepcopy(record["deals"][-1]))
    with pytest.raises(RecordError, match=r"deals\[\d+\]: the match was already over"):
        osteria.replay(record)


def test_replay_command_reports_a_bad_record_in_one_line_with_status_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(broken(BAD_RECORDS["illegal"][0])))
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "deals[0].actions[1]: illegal action: seat 3 must follow suit" in err
    path.write_text("{not json")
    assert main(["replay", "--json", str(path)]) == 1
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.json")]) == 1
    assert "cannot read the record" in capsys.readouterr().err


def test_a_record_is_valid_json_in_utf8_and_lists_only_changed_options(tmp_path: Path) -> None:
    from osteria.records import load, save

    match = osteria.new_match("tressette", seed=2, players=["Anna", "Bruno", "Carla", "Dàrio"], target=21)
    match.legal_actions()
    save(match.record(), tmp_path / "m.json")
    assert "Dàrio" in (tmp_path / "m.json").read_text(encoding="utf-8")
    record = load(tmp_path / "m.json")
    assert record["options"] == {"target": 21}
    assert osteria.replay(record).record() == record


def test_a_record_of_no_finished_deal_replays_for_its_own_number_of_players() -> None:
    # A server's record before its first deal ends holds the players and no deal: three players
    # of Traversone, a game of four by default.
    record = {"format": "osteria/1", "game": "traversone", "players": ["Gino", "Lina", "Piero"], "deals": []}
    match = osteria.replay(record)
    assert match.game.seats == 3 and match.players == ["Gino", "Lina", "Piero"] and not match.results
    with pytest.raises(RecordError, match=r"^players: "):
        osteria.replay({**record, "players": [f"p{i}" for i in range(9)]})
