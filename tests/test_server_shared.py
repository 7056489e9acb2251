"""Several ``osteria serve`` processes on one PostgreSQL database: each table is served by one of
them at a time, the one holding its advisory lock; when that process is killed, another claims the
table and plays on from the stored actions, none lost and none played twice."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import websockets

from osteria.server.fair import verify_record
from osteria.server.store import CLAIM_SPACE, SeatRow, Store, TableRow
from server_helpers import TIMEOUT, connect, create, play_seat, quick_settings, receive, served, until, ws_url
from test_server_postgres import postgres_schema
from test_server_restart import free_port, server_process


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    with postgres_schema() as url:
        yield url

def claim_holder(postgres: str, table_id: str) -> int | None:
    """The server process (its connection's pid in PostgreSQL) that holds the table's claim, if any."""
    with psycopg.connect(postgres) as conn:
        found = conn.execute("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = %s "
                             "AND objid = (hashtext(%s)::bigint & 4294967295) AND objsubid = 2 AND granted",
                             (CLAIM_SPACE, table_id)).fetchone()
    return None if found is None else int(found[0])


def test_a_table_is_claimed_by_one_process_at_a_time(postgres: str, tmp_path: Path) -> None:
    first, second = Store.open(database=postgres), Store.open(database=postgres)
    table_id = f"claim-{os.getpid()}"
    first.create_table(TableRow(table_id, "sancagna", 2, {}, 0, "invite", "medio", False, 0.0,
                                [SeatRow(0, "human", None, "Anna", "token", True),
                                 SeatRow(1, "bot", "medio", "Peppino", None, True)]))
    assert first.has_table(table_id) and second.has_table(table_id)
    assert not second.claim(table_id) and table_id not in second.claim_free(())
    # Its maker holds it already: a second look claims it no more (it would hold the lock twice).
    assert table_id not in first.claim_free({table_id})
    first.release(table_id)
    assert table_id in second.claim_free(()) and not first.claim(table_id)
    second.close()  # as when its process is killed: PostgreSQL lets its locks go, once it has seen it
    deadline = time.monotonic() + TIMEOUT
    while not first.claim(table_id):
        assert time.monotonic() < deadline, "the lock of a closed connection was never let go"
        time.sleep(0.05)
    first.close()
    # SQLite's one process serves every table.
    lite = Store.open(tmp_path)
    assert lite.claim("any") and not lite.shared and lite.claim_free(()) == []
    lite.close()


def test_a_free_seat_is_given_once_whichever_process_gives_it(postgres: str) -> None:
    stores = [Store.open(database=postgres) for _ in range(4)]
    table_id = f"seat-{os.getpid()}"
    stores[0].create_table(TableRow(table_id, "tressette", 4, {}, 0, "invite", "medio", False, 0.0,
                                    [SeatRow(0, "human", None, "Anna", "token", True),
                                     *(SeatRow(s, "human", None, f"seat {s}", None, False) for s in (1, 2)),
                                     SeatRow(3, "bot", "medio", "Peppino", None, True)]))
    try:
        # Four processes at once ask for seat 1, each for its own player.
        with ThreadPoolExecutor(4) as pool:
            refusals = list(pool.map(lambda i: stores[i].take_free_seat(table_id, 1, f"player {i}", f"token {i}"),
                                     range(4)))
        assert sorted(refusals, key=str) == [None, "taken", "taken", "taken"]
        winner = refusals.index(None)
        seats, _ = stores[1].seat_rows(table_id)
        assert (seats[1].name, seats[1].token, seats[1].taken) == (f"player {winner}", f"token {winner}", True)
        # A name is one seat's, in any case; a bot's seat and the creator's are nobody's to take.
        assert stores[2].take_free_seat(table_id, 2, f"PLAYER {winner}", "t") == "name_taken"
        assert stores[2].take_free_seat(table_id, 3, "Bruno", "t") == "taken"
        assert stores[2].take_free_seat(table_id, 0, "Bruno", "t") == "taken"
        assert stores[3].take_free_seat(table_id, 2, "Bruno", "t") is None
    finally:
        for store in stores:
            store.close()


async def play_turns(url: str, rng: random.Random, seen: list[dict[str, Any]], turns: int | None,
                     watch: bool = False) -> dict[str, Any]:
    """Play random legal actions for the seat of ``url``: ``turns`` of them (then the one after is
    sent and the socket left at once), or, for None, to the end of the first deal; the last state.
    Every state goes into ``seen``. A socket refused because another process serves
    the table (1013) is opened again, until the table is served here. ``watch``: the first state
    is returned (a spectator's)."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        try:
            async with connect(url) as ws:
                acted = -1
                while True:
                    message = await receive(ws)
                    assert message["type"] != "error", message
                    if message["type"] != "state":
                        continue
                    seen.append(message)
                    table = message["table"]
                    if watch:
                        return message
                    if turns is None and len(table["result"]["deals"]) >= 1:
                        return message
                    if message["legal"] and table["move"] != acted:
                        acted = table["move"]
                        await ws.send(json.dumps({"type": "play", "move": acted,
                                                  "action": rng.choice(message["legal"])["action"]}))
                        if turns is not None:
                            if turns == 0:
                                return message  # the action sent may be caught by the kill, or not
                            turns -= 1
        except websockets.ConnectionClosedError as exc:
            assert exc.rcvd is not None and exc.rcvd.code == 1013, exc
            assert time.monotonic() < deadline, "the table was never served here"
            await asyncio.sleep(0.1)


def test_a_table_plays_on_through_another_process_when_its_own_is_killed(postgres: str, tmp_path: Path) -> None:
    port_a, port_b = free_port(), free_port()
    a, b = f"http://127.0.0.1:{port_a}", f"http://127.0.0.1:{port_b}"
    rng = random.Random(7)
    seen: list[dict[str, Any]] = []
    with server_process(tmp_path / "a", port_a, "--database", postgres) as first, \
            server_process(tmp_path / "b", port_b, "--database", postgres):
        created = httpx.post(a + "/api/tables", json={"game": "tressette"}).json()
        table_id = created["table_id"]
        # While the process that made it lives, it alone serves the table.
        refused = httpx.get(f"{b}/api/tables/{table_id}")
        assert refused.status_code == 503 and "another process" in refused.json()["detail"]
        asyncio.run(play_turns(ws_url(a, table_id, created["token"]), rng, seen, turns=4))
        os.kill(first.pid, signal.SIGKILL)  # mid-deal, maybe with the last action sent on its way
        first.wait()
        before = seen[-1]["table"]["move"]
        assert 4 <= before < 40  # the deal was under way
        moved = len(seen)
        final = asyncio.run(play_turns(ws_url(b, table_id, created["token"]), rng, seen, turns=None))
        assert seen[moved]["table"]["move"] >= before  # nothing announced before the kill was lost
        assert_played_once(b, table_id, seen, final)


def assert_played_once(base: str, table_id: str, seen: list[dict[str, Any]], final: dict[str, Any]) -> None:
    """The first deal of the Tressette table is over and stored, every action legal and in turn,
    once; every action that any state in ``seen`` told of is the one stored at its place."""
    record = httpx.get(f"{base}/api/tables/{table_id}/record").json()
    assert record["deals"]  # a record holds the finished deals only
    assert all(check.ok for check in verify_record(record))  # replayed: every action legal and in turn
    actions = record["deals"][0]["actions"]
    told = [state["last"] for state in seen if state["last"] is not None]
    assert len(told) > 20
    for last in told:
        if last["move"] <= len(actions):
            assert actions[last["move"] - 1] == [last["seat"], last["action"]]
    assert final["table"]["move"] >= len(actions)
    assert final["table"]["deals"][0]["seed_hash"] == record["deals"][0]["seed_hash"]


def test_a_table_moves_to_the_process_asked_for_it_while_its_own_lives(postgres: str, tmp_path: Path) -> None:
    """Where a proxy sends a table's players to another process (the one that served it came back
    after a stop, say), that process asks for the table: the one serving it lets it go, closing its
    sockets with 1012 so that their pages come back, and play goes on there."""
    port_a, port_b = free_port(), free_port()
    a, b = f"http://127.0.0.1:{port_a}", f"http://127.0.0.1:{port_b}"
    rng = random.Random(8)
    seen: list[dict[str, Any]] = []
    with server_process(tmp_path / "a", port_a, "--database", postgres), \
            server_process(tmp_path / "b", port_b, "--database", postgres):
        created = httpx.post(a + "/api/tables", json={"game": "tressette"}).json()
        table_id, token = created["table_id"], created["token"]
        asyncio.run(play_turns(ws_url(a, table_id, token), rng, seen, turns=3))

        async def move_while_connected() -> int | None:
            async with connect(ws_url(a, table_id, token)) as player:
                await until(player, "state")
                await play_turns(ws_url(b, table_id), rng, seen, turns=None, watch=True)
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    while True:
                        await receive(player)
                return None if closed.value.rcvd is None else closed.value.rcvd.code

        assert asyncio.run(move_while_connected()) == 1012
        assert httpx.get(f"{b}/api/tables/{table_id}").status_code == 200
        assert httpx.get(f"{a}/api/tables/{table_id}").status_code == 503
        final = asyncio.run(play_turns(ws_url(b, table_id, token), rng, seen, turns=None))
        assert_played_once(b, table_id, seen, final)


def test_the_tables_of_a_killed_process_are_claimed_by_another_unasked(postgres: str, tmp_path: Path) -> None:
    port_a, port_b = free_port(), free_port()
    a, b = f"http://127.0.0.1:{port_a}", f"http://127.0.0.1:{port_b}"
    with server_process(tmp_path / "a", port_a, "--database", postgres) as first, \
            server_process(tmp_path / "b", port_b, "--database", postgres):
        created = httpx.post(a + "/api/tables", json={"game": "tressette", "listed": True, "players": [
            {"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]}).json()

        held_by = claim_holder(postgres, created["table_id"])
        assert held_by is not None
        os.kill(first.pid, signal.SIGKILL)
        first.wait()
        deadline = time.monotonic() + TIMEOUT
        # Nobody asked B for the table: B looked for it.
        while claim_holder(postgres, created["table_id"]) in (None, held_by):
            assert time.monotonic() < deadline, "the table of the killed process was never claimed"
            time.sleep(0.2)
        joined = httpx.post(f"{b}/api/tables/{created['table_id']}/join", json={"invite": created["invite"]})
        assert joined.status_code == 200 and joined.json()["seat"] == 1


def lobby_of(base: str) -> list[dict[str, Any]]:
    response = httpx.get(base + "/api/lobby")
    assert response.status_code == 200, response.text
    tables: list[dict[str, Any]] = response.json()["tables"]
    return tables


def quick_join(base: str, name: str) -> dict[str, Any]:
    response = httpx.post(base + "/api/quick-join", json={"game": "tressette", "name": name}, timeout=TIMEOUT)
    assert response.status_code == 200, response.text
    joined: dict[str, Any] = response.json()
    return joined


def test_every_process_lists_every_open_table_and_a_quick_join_fills_another_process_table(
        postgres: str, tmp_path: Path) -> None:
    port_a, port_b = free_port(), free_port()
    a, b = f"http://127.0.0.1:{port_a}", f"http://127.0.0.1:{port_b}"
    with server_process(tmp_path / "a", port_a, "--database", postgres), \
            server_process(tmp_path / "b", port_b, "--database", postgres):
        created = httpx.post(a + "/api/tables", json={"game": "tressette", "listed": True, "players": [
            {"kind": "human", "name": "Anna"}, {"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]}).json()
        table_id = created["table_id"]
        hidden = httpx.post(a + "/api/tables", json={"game": "tressette", "players": [
            {"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]}).json()
        # B, which does not serve it, lists it as A does, read from the database; a table not
        # listed is in neither lobby.
        shown_a, shown_b = lobby_of(a), lobby_of(b)
        assert [t["table_id"] for t in shown_b] == [t["table_id"] for t in shown_a] == [table_id]
        assert shown_b == shown_a and shown_b[0]["free"] == 2 and shown_b[0]["status"] == "waiting"
        assert hidden["table_id"] not in str(shown_b) and "token" not in str(shown_b)
        assert httpx.get(f"{b}/api/lobby", params={"game": "sancagna"}).json()["tables"] == []

        async def seats_given() -> None:
            async with connect(ws_url(a, table_id, created["token"])) as anna:
                await until(anna, "state")
                # Four players ask at once, two through each process: the table's two free seats
                # go to two of them, each once; the others sit at a new table.
                joins = await asyncio.gather(*(asyncio.to_thread(quick_join, base, name) for base, name in
                                               ((b, "Bruno"), (a, "Carla"), (b, "Dino"), (a, "Elsa"))))
                at_table = [j for j in joins if j["table_id"] == table_id]
                assert sorted(j["seat"] for j in at_table) == [1, 2] and not any(j["new"] for j in at_table)
                assert len({(j["table_id"], j["seat"]) for j in joins}) == 4
                assert len({j["token"] for j in joins}) == 4
                names = {j["seat"]: name for j, name in zip(joins, ("Bruno", "Carla", "Dino", "Elsa"), strict=True)
                         if j["table_id"] == table_id}
                # A, which serves the table, learns of the seats given through B: its players see
                # them taken, under their players' names, and play begins (every seat taken).
                deadline = time.monotonic() + TIMEOUT
                while True:
                    state = await until(anna, "state")
                    players = state["table"]["players"]
                    if all(players[seat]["taken"] and players[seat]["name"] == name for seat, name in names.items()):
                        break
                    assert time.monotonic() < deadline, players
                assert state["table"]["status"] == "playing"
                for j in at_table:  # each token plays its own seat, at the process that serves the table
                    async with connect(ws_url(a, table_id, j["token"])) as player:
                        mine = await until(player, "state")
                        assert mine["seat"] == j["seat"]

        asyncio.run(seats_given())
        # Its seats all taken, the table is in nobody's lobby; the new one is in both.
        assert table_id not in str(lobby_of(a)) and table_id not in str(lobby_of(b))
        assert [t["table_id"] for t in lobby_of(a)] == [t["table_id"] for t in lobby_of(b)] != []


def test_a_tournament_made_in_one_process_is_joined_and_played_through_another(postgres: str,
                                                                              tmp_path: Path) -> None:
    port_a, port_b = free_port(), free_port()
    a, b = f"http://127.0.0.1:{port_a}", f"http://127.0.0.1:{port_b}"
    rng = random.Random(9)
    with server_process(tmp_path / "a", port_a, "--database", postgres), \
            server_process(tmp_path / "b", port_b, "--database", postgres):
        created = httpx.post(a + "/api/tournaments", json={"game": "traversone", "seats": 3, "boards": 2,
                                                           "tables": 2, "level": "facile"}).json()
        tid = created["tournament_id"]
        assert httpx.get(f"{b}/api/tournaments/{tid}").json()["commitments"] == created["tournament"]["commitments"]
        anna = httpx.post(f"{b}/api/tournaments/{tid}/register", json={"name": "Anna"}).json()
        bruno = httpx.post(f"{a}/api/tournaments/{tid}/register", json={"name": "anna"})
        assert bruno.status_code == 409  # A sees the entry made through B
        assert anna["entry"] == 0
        started = httpx.post(f"{a}/api/tournaments/{tid}/start", json={"token": created["organiser"]})
        assert started.status_code == 200, started.text
        for board in range(2):
            deadline = time.monotonic() + 3 * TIMEOUT
            while httpx.get(f"{b}/api/tournaments/{tid}").json()["board"] != board:
                assert time.monotonic() < deadline, f"board {board} never came"
                time.sleep(0.1)
            seat = httpx.post(f"{b}/api/tournaments/{tid}/seat", json={"token": anna["token"]}).json()
            assert seat["board"] == board and seat["seat"] == 0
            final = asyncio.run(play_turns(ws_url(b, seat["table_id"], seat["token"]), rng, [], turns=None))
            assert final["seat"] == 0 and final["table"]["status"] == "finished"
        deadline = time.monotonic() + 3 * TIMEOUT
        while (state := httpx.get(f"{b}/api/tournaments/{tid}").json())["status"] != "finished":
            assert time.monotonic() < deadline, state
            time.sleep(0.1)
        assert httpx.get(f"{a}/api/tournaments/{tid}").json() == state  # both processes tell the same
        assert state["entries"][0]["name"] == "Anna" and len(state["standings"]) == 6
        assert all(c["seed"] is not None for c in state["commitments"])
        assert all(r["done"] and len(r["scores"]) == 2 for r in state["rounds"])
        # Two tables: on each board each seat's entries share one matchpoint between them.
        assert sum(x["matchpoints"] for x in state["standings"]) == 2 * 3
        assert {t["status"] for r in state["rounds"] for t in r["tables"]} == {"finished"}


def test_a_finished_table_let_go_by_its_process_is_served_by_the_next_one_asked(postgres: str,
                                                                                tmp_path: Path) -> None:
    """A table whose play is over leaves its process's memory with its claim (see
    ``Tables.drop_idle``): whichever process is asked for it next claims it and rebuilds it."""
    settings = quick_settings(keep_over=0.05)
    with served(tmp_path / "a", settings, postgres) as a, served(tmp_path / "b", settings, postgres) as b:
        created = create(a, game="traversone", options={"target": 1},
                         players=[{"kind": "human"}, {"kind": "bot", "level": "facile"}, {"kind": "bot"}])
        table_id = created["table_id"]
        final = asyncio.run(play_seat(ws_url(a, table_id, created["token"]), random.Random(3)))
        assert final["table"]["status"] == "finished"
        record = httpx.get(f"{a}/api/tables/{table_id}/record").json()
        deadline = time.monotonic() + TIMEOUT
        while claim_holder(postgres, table_id) is not None:
            assert time.monotonic() < deadline, "the finished table was never let go"
            time.sleep(0.05)
        assert httpx.get(f"{b}/api/tables/{table_id}/record").json() == record
        assert claim_holder(postgres, table_id) is not None  # b's now
