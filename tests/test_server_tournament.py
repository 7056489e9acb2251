"""Duplicate tournaments online: the same boards at every table, committed before the first card,
standings by matchpoints, and nothing of a board shown while another table still plays it."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

import osteria
from osteria.server.fair import board_deal_seed, deal_from_seed, first_dealer_from_seed, seed_hash, verify_record
from osteria.server.store import EntryRow
from osteria.server.tournament import matchpoints, place, standings
from server_helpers import TIMEOUT, connect, play_seat, quick_settings, receive, served, until, ws_url

from helpers import words_in


def create_tournament(base: str, **body: Any) -> dict[str, Any]:
    response = httpx.post(base + "/api/tournaments", json={
        "game": "traversone", "seats": 3, "boards": 2, "tables": 2, "level": "facile", **body})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def tournament(base: str, tournament_id: str) -> dict[str, Any]:
    response = httpx.get(f"{base}/api/tournaments/{tournament_id}")
    assert response.status_code == 200, response.text
    state: dict[str, Any] = response.json()
    return state


def wait_until(base: str, tournament_id: str, done: Any) -> dict[str, Any]:
    deadline = time.monotonic() + 3 * TIMEOUT
    while True:
        state = tournament(base, tournament_id)
        if done(state):
            return state
        assert time.monotonic() < deadline, state
        time.sleep(0.05)


def deltas(base: str, table_id: str) -> list[int]:
    """A finished board table's deltas per seat, summed over its deals, from its public state."""
    result = httpx.get(f"{base}/api/tables/{table_id}").json()["result"]
    return [sum(deal["delta"][seat] for deal in result["deals"]) for seat in range(len(result["deals"][0]["delta"]))]


# -- scoring, by hand ------------------------------------------------------------------------------


def test_matchpoints_count_the_tables_beaten_and_half_the_ties() -> None:
    # Three tables of one board, two seats: seat 0 scored 10, 4 and 10; seat 1 -10, -4 and -10.
    assert matchpoints([[10, -10], [4, -4], [10, -10]]) == [[1.5, 0.5], [0.0, 2.0], [1.5, 0.5]]
    assert matchpoints([[3], [3]]) == [[0.5], [0.5]]


def test_standings_by_hand_where_lower_is_better() -> None:
    # Two tables of two seats, two boards, points poison (sense -1). Board 0: table 0 took 2 and 9,
    # table 1 took 5 and 9; board 1: table 0 took 7 and 1, table 1 took 3 and 1.
    entries = [EntryRow(0, "human", None, "Anna", "t"), EntryRow(1, "bot", "facile", "Peppino", None),
               EntryRow(2, "human", None, "Bruno", "u"), EntryRow(3, "bot", "facile", "Totò", None)]
    found = standings(entries, [[[2, 9], [5, 9]], [[7, 1], [3, 1]]], -1, 2)
    by_name = {x["name"]: x for x in found}
    # Anna beat Bruno on board 0 (2 < 5), Bruno beat her on board 1 (3 < 7): 1 each. The bots tied twice.
    assert by_name["Anna"]["boards"] == [1.0, 0.0] and by_name["Bruno"]["boards"] == [0.0, 1.0]
    assert by_name["Peppino"]["boards"] == [0.5, 0.5] and by_name["Totò"]["boards"] == [0.5, 0.5]
    assert all(x["matchpoints"] == 1.0 and x["percent"] == 50.0 for x in found)
    assert [x["place"] for x in found] == [1, 1, 1, 1]  # all level
    assert by_name["Anna"]["delta"] == 9 and by_name["Bruno"]["delta"] == 8

    won = standings(entries, [[[2, 9], [5, 12]]], -1, 2)
    assert [(x["name"], x["place"], x["percent"]) for x in won] == [
        ("Anna", 1, 100.0), ("Peppino", 1, 100.0), ("Bruno", 3, 0.0), ("Totò", 3, 0.0)]


def test_places_are_taken_table_by_table_partners_one_after_the_other() -> None:
    assert [place(e, 3, False) for e in range(6)] == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    assert [place(e, 4, True) for e in range(8)] == [(0, 0), (0, 2), (0, 1), (0, 3), (1, 0), (1, 2), (1, 1), (1, 3)]


def test_a_board_deals_its_later_deals_from_seeds_its_own_fixes() -> None:
    assert board_deal_seed("abc", 0) == "abc"
    assert board_deal_seed("abc", 1) == board_deal_seed("abc", 1) != board_deal_seed("abc", 2)


# -- on the server -----------------------------------------------------------------------------------


def test_two_tables_of_bots_play_the_same_boards(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        created = create_tournament(base)
        tid = created["tournament_id"]
        before = created["tournament"]
        assert before["status"] == "registering" and before["places"] == 6
        published = [c["seed_hash"] for c in before["commitments"]]
        assert len(published) == 2 and all(c["seed"] is None for c in before["commitments"])
        assert created["organiser"] not in str(tournament(base, tid))  # the organiser's token is his alone

        refused = httpx.post(f"{base}/api/tournaments/{tid}/start", json={"token": "not the organiser"})
        assert refused.status_code == 403 and "organiser" in refused.json()["detail"]
        started = httpx.post(f"{base}/api/tournaments/{tid}/start", json={"token": created["organiser"]})
        assert started.status_code == 200, started.text
        assert [c["seed_hash"] for c in started.json()["commitments"]] == published  # committed before play
        assert [e["kind"] for e in started.json()["entries"]] == ["bot"] * 6

        done = wait_until(base, tid, lambda s: s["status"] == "finished")
        assert [r["board"] for r in done["rounds"]] == [0, 1] and all(r["done"] for r in done["rounds"])
        names = [e["name"] for e in done["entries"]]
        assert len(set(names)) == 6  # every bot told apart in the standings

        game = osteria.game_rules("traversone", seats=3)
        boards = []
        for commitment, played in zip(done["commitments"], done["rounds"], strict=True):
            seed = commitment["seed"]
            assert seed is not None and seed_hash(seed) == commitment["seed_hash"]
            hands, _ = deal_from_seed(game, seed)
            dealt = []
            for entry in played["tables"]:
                record = httpx.get(f"{base}/api/tables/{entry['table_id']}/record").json()
                assert all(check.ok for check in verify_record(record))
                first = record["deals"][0]
                assert first["seed"] == seed and first["seed_hash"] == commitment["seed_hash"]
                assert first["dealer"] == first_dealer_from_seed(seed, 3)
                assert [sorted(h) for h in first["hands"]] == [
                    sorted(osteria.cards.CARD_STRINGS[c] for c in hand) for hand in hands]
                dealt.append(first["hands"])
            assert dealt[0] == dealt[1]  # the same cards in the same seats at both tables
            boards.append([deltas(base, entry["table_id"]) for entry in played["tables"]])
            assert played["scores"] == boards[-1]
        assert tournament_deals_differ(done)

        # The standings, worked out here from the tables' own results: points are poison, so on
        # each board a seat beats the other table's same seat by taking fewer.
        expected: dict[int, float] = {}
        for scores in boards:
            for t in range(2):
                for seat in range(3):
                    mine, other = scores[t][seat], scores[1 - t][seat]
                    expected[3 * t + seat] = expected.get(3 * t + seat, 0.0) + (
                        1.0 if mine < other else 0.5 if mine == other else 0.0)
        assert {x["entry"]: x["matchpoints"] for x in done["standings"]} == expected
        assert [x["matchpoints"] for x in done["standings"]] == sorted(expected.values(), reverse=True)
        assert all(x["percent"] == round(100 * x["matchpoints"] / 2, 1) for x in done["standings"])


def test_a_board_of_several_deals_deals_each_of_them_alike_at_every_table(tmp_path: Path) -> None:
    # A Sancagna board is a whole smazzata: a deal nobody called out continues it with another.
    with served(tmp_path) as base:
        created = create_tournament(base, game="sancagna", seats=4, boards=4)
        tid = created["tournament_id"]
        httpx.post(f"{base}/api/tournaments/{tid}/start", json={"token": created["organiser"]}).raise_for_status()
        done = wait_until(base, tid, lambda s: s["status"] == "finished")
        game = osteria.game_rules("sancagna")
        for commitment, played in zip(done["commitments"], done["rounds"], strict=True):
            for entry in played["tables"]:
                record = httpx.get(f"{base}/api/tables/{entry['table_id']}/record").json()
                assert all(check.ok for check in verify_record(record))
                for k, deal in enumerate(record["deals"]):
                    hands, _ = deal_from_seed(game, board_deal_seed(commitment["seed"], k))
                    assert [sorted(h) for h in deal["hands"]] == [
                        sorted(osteria.cards.CARD_STRINGS[c] for c in hand) for hand in hands]
                results = httpx.get(f"{base}/api/tables/{entry['table_id']}").json()["result"]["deals"]
                # The board, and so the table's play, ended with the smazzata's last deal.
                assert len(results) == len(record["deals"])
                assert all(r["outcome"] == "continua" for r in results[:-1])
                assert results[-1]["outcome"] != "continua" or len(results) == 8


def test_in_a_partnership_game_two_who_register_together_are_partners(tmp_path: Path) -> None:
    # Nobody comes to play: the stand-in bots play for them at once.
    with served(tmp_path, quick_settings(stand_in_after=0.01)) as base:
        created = create_tournament(base, game="tressette", seats=4, boards=1)
        tid = created["tournament_id"]
        places = [httpx.post(f"{base}/api/tournaments/{tid}/register", json={"name": name}).json()
                  for name in ("Anna", "Bruno", "Carla")]
        assert [(p["table"], p["seat"]) for p in places] == [(0, 0), (0, 2), (0, 1)]
        httpx.post(f"{base}/api/tournaments/{tid}/start", json={"token": created["organiser"]}).raise_for_status()
        done = wait_until(base, tid, lambda s: s["status"] == "finished")
        first = httpx.get(f"{base}/api/tables/{done['rounds'][0]['tables'][0]['table_id']}").json()
        assert [p["name"] for p in first["players"]][:3] == ["Anna", "Carla", "Bruno"]
        by_seat = {(x["table"], x["seat"]): x for x in done["standings"]}
        for table in range(2):  # partners score alike: one side, one score
            assert by_seat[(table, 0)]["boards"] == by_seat[(table, 2)]["boards"]
            assert by_seat[(table, 1)]["boards"] == by_seat[(table, 3)]["boards"]
        assert by_seat[(0, 2)]["name"] == "Bruno"


def tournament_deals_differ(state: dict[str, Any]) -> bool:
    """Whether the boards are different deals (each its own seed)."""
    seeds = [c["seed"] for c in state["commitments"]]
    return len(set(seeds)) == len(seeds)


def test_a_player_plays_every_board_and_nothing_of_it_leaks_meanwhile(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        created = create_tournament(base)
        tid = created["tournament_id"]
        joined = httpx.post(f"{base}/api/tournaments/{tid}/register", json={"name": "Anna"})
        assert joined.status_code == 200, joined.text
        assert (joined.json()["table"], joined.json()["seat"]) == (0, 0)
        token = joined.json()["token"]
        again = httpx.post(f"{base}/api/tournaments/{tid}/register", json={"name": "anna"})
        assert again.status_code == 409 and "taken" in again.json()["detail"]
        assert token not in str(tournament(base, tid))
        early = httpx.post(f"{base}/api/tournaments/{tid}/seat", json={"token": token})
        assert early.status_code == 409 and "not begun" in early.json()["detail"]
        httpx.post(f"{base}/api/tournaments/{tid}/start", json={"token": created["organiser"]}).raise_for_status()
        late = httpx.post(f"{base}/api/tournaments/{tid}/register", json={"name": "Bruno"})
        assert late.status_code == 409 and "closed" in late.json()["detail"]
        wrong = httpx.post(f"{base}/api/tournaments/{tid}/seat", json={"token": "nobody's"})
        assert wrong.status_code == 403

        for board in range(2):
            seat = httpx.post(f"{base}/api/tournaments/{tid}/seat", json={"token": token})
            assert seat.status_code == 200, seat.text
            assert seat.json()["board"] == board and seat.json()["seat"] == 0
            # The bots' table finishes the board; Anna's waits for her.
            state = wait_until(base, tid, lambda s: s["rounds"][-1]["tables"][1]["status"] == "finished")
            assert state["board"] == board and state["commitments"][board]["seed"] is None
            assert state["rounds"][board]["scores"] is None  # no table's score until every table is done
            other = state["rounds"][board]["tables"][1]["table_id"]
            hidden = httpx.get(f"{base}/api/tables/{other}/record")
            assert hidden.status_code == 403 and "other tables" in hidden.json()["detail"]
            public = httpx.get(f"{base}/api/tables/{other}").json()
            assert all(d["seed"] is None for d in public["deals"]) and public["result"] is None
            assert not any(w in osteria.cards.CARD_STRINGS for w in words_in(public))
            assert asyncio.run(watcher_refused(ws_url(base, other)))
            asyncio.run(play_seat(ws_url(base, seat.json()["table_id"], seat.json()["token"]),
                                  random.Random(board)))
        done = wait_until(base, tid, lambda s: s["status"] == "finished")
        assert all(c["seed"] for c in done["commitments"])
        assert httpx.get(f"{base}/api/tables/{done['rounds'][0]['tables'][1]['table_id']}/record").status_code == 200
        anna = next(x for x in done["standings"] if x["name"] == "Anna")
        assert anna["kind"] == "human" and len(anna["boards"]) == 2
        over = httpx.post(f"{base}/api/tournaments/{tid}/seat", json={"token": token})
        assert over.status_code == 409 and "over" in over.json()["detail"]
        # A board's table has no rematch: the next board is the tournament's.
        last = done["rounds"][1]["tables"][0]["table_id"]
        assert httpx.get(f"{base}/api/tables/{last}").json()["rematch"] is None
        refused = asyncio.run(rematch_asked(ws_url(base, last, seat.json()["token"])))
        assert refused["type"] == "error" and refused["code"] == "tournament"


async def rematch_asked(url: str) -> dict[str, Any]:
    """Ask for a rematch at the seat of ``url``: the answer."""
    async with connect(url) as ws:
        await until(ws, "state")
        await ws.send(json.dumps({"type": "rematch"}))
        while True:
            message = await receive(ws)
            if message["type"] in ("error", "rematch"):
                return message


async def watcher_refused(url: str) -> bool:
    """Whether a watcher's socket is closed at once with 4403."""
    async with connect(url) as ws:
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), TIMEOUT)
    return closed.value.rcvd is not None and closed.value.rcvd.code == 4403


def test_a_tournament_goes_on_after_a_restart(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        created = create_tournament(base, boards=1)
        tid = created["tournament_id"]
        token = httpx.post(f"{base}/api/tournaments/{tid}/register", json={}).json()["token"]
        httpx.post(f"{base}/api/tournaments/{tid}/start", json={"token": created["organiser"]}).raise_for_status()
        before = tournament(base, tid)
    with served(tmp_path) as base:
        after = tournament(base, tid)
        assert after["commitments"] == before["commitments"] and after["entries"] == before["entries"]
        assert after["entries"][0]["name"] == "player 1"
        seat = httpx.post(f"{base}/api/tournaments/{tid}/seat", json={"token": token}).json()
        other = after["rounds"][0]["tables"][1]["table_id"]
        assert httpx.get(f"{base}/api/tables/{other}/record").status_code == 403  # still secret
        asyncio.run(play_seat(ws_url(base, seat["table_id"], seat["token"]), random.Random(1)))
        done = wait_until(base, tid, lambda s: s["status"] == "finished")
        assert done["commitments"][0]["seed"] is not None


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"game": "scopa"}, 400, "unknown game 'scopa'"),
    ({"tables": 1}, 422, "tables"),
    ({"boards": 0}, 422, "boards"),
    ({"options": {"colour": "red"}}, 400, "unknown option 'colour'"),
    ({"seats": 7}, 400, "not 7"),
    ({"level": "genio"}, 422, "level"),
    ({"secret": 1}, 422, "secret"),
])
def test_a_bad_tournament_is_refused_saying_why(tmp_path: Path, body: dict[str, Any], status: int,
                                                words: str) -> None:
    with served(tmp_path) as base:
        response = httpx.post(base + "/api/tournaments",
                              json={"game": "traversone", "seats": 3, "boards": 2, "tables": 2, **body})
        assert response.status_code == status and words in response.text, response.text
        assert httpx.get(base + "/api/tournaments/nothing").status_code == 404


def test_a_round_whose_opener_died_is_opened_by_the_next_who_asks(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The process that saw a round end dies before it opens the next (here: its opening is
    lost once): the tournament is not stuck, the next request for it opens the round owed, once."""
    from concurrent.futures import ThreadPoolExecutor

    from osteria.server.scheduler import Scheduler
    from osteria.server.store import Store
    from osteria.server.tables import Tables
    from osteria.server.tournament import Tournament, Tournaments

    lost: list[int] = []
    opening = Tournament.open_round

    def dies_before_the_second(self: Tournament, board: int) -> None:
        if board == 1 and not lost:
            lost.append(board)
            return
        opening(self, board)

    async def scenario(tournaments: Tournaments) -> None:
        made = tournaments.create("traversone", 3, {}, 2, 2, "facile")
        made.start(made.row.organiser)
        deadline = time.monotonic() + 3 * TIMEOUT
        while not lost:
            assert time.monotonic() < deadline, made.state()
            await asyncio.sleep(0.02)
        assert made.round_ids(1) == [] and made.current_board() is None  # nobody plays: stuck so far
        state = tournaments.get(made.id).state()
        assert state["board"] == 1 and len(made.round_ids(1)) == 2
        again = made.round_ids(1)
        assert tournaments.get(made.id).round_ids(1) == again  # opened once
        while made.status() != "finished":
            assert time.monotonic() < deadline, made.state()
            await asyncio.sleep(0.02)

    store = Store.open(tmp_path)
    executor = ThreadPoolExecutor(max_workers=1)
    tables = Tables(store, Scheduler(executor, 1), quick_settings())
    monkeypatch.setattr(Tournament, "open_round", dies_before_the_second)
    try:
        asyncio.run(scenario(Tournaments(tables)))
    finally:
        executor.shutdown(wait=False, cancel_futures=True)
        store.close()
