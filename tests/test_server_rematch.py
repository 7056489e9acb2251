"""After the match and during it, over real HTTP and WebSockets: a rematch in the same seats once
every person seated asks for it, each told his own new seat alone; leaving a seat to a bot, the
seat then free for the invite; the list of who watches. A spectator can neither ask for a rematch
nor leave a seat, and no token of one table holds a seat at another."""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from hypothesis import given, settings
from hypothesis import strategies as st

from osteria.server.scheduler import Scheduler
from osteria.server.store import Store
from osteria.server.tables import TableError, Tables
from server_helpers import (
    TIMEOUT,
    connect,
    create,
    finished_table_of_three,
    play_seat,
    quick_settings,
    receive,
    served,
    until,
    ws_url,
)

# Two people and a bot at a one-deal match: over in a few seconds.
TWO_AND_A_BOT = [{"kind": "human", "name": "Anna"}, {"kind": "human"}, {"kind": "bot", "level": "facile"}]
ONE_DEAL = {"target": 1}


def two_friends(base: str, **body: Any) -> tuple[dict[str, Any], str]:
    """A Traversone table of Anna, Bruno (who joins by the invite) and a bot; Bruno's token."""
    created = create(base, game="traversone", options=ONE_DEAL, players=TWO_AND_A_BOT, **body)
    joined = httpx.post(f"{base}/api/tables/{created['table_id']}/join", json={"invite": created["invite"],
                                                                              "name": "Bruno"})
    assert joined.status_code == 200, joined.text
    return created, str(joined.json()["token"])


def finish(base: str, table_id: str, tokens: list[str]) -> None:
    async def all_play() -> None:
        await asyncio.gather(*(play_seat(ws_url(base, table_id, t), random.Random(i)) for i, t in enumerate(tokens)))

    asyncio.run(all_play())


async def closed_with(url: str) -> int:
    """The code a WebSocket opened at ``url`` is closed with (0 if it gets a state instead)."""
    async with connect(url) as ws:
        try:
            await until(ws, "state")
        except websockets.exceptions.ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else 1006
    return 0


async def state_where(ws: Any, wanted: Any, log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The next state whose table satisfies ``wanted``."""
    while True:
        message = await until(ws, "state", log)
        if wanted(message["table"]):
            return message


def test_a_rematch_in_the_same_seats_once_every_person_asks(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        created, bruno = two_friends(base)
        old = created["table_id"]
        anna = created["token"]
        finish(base, old, [anna, bruno])

        async def rematch() -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
            async with connect(ws_url(base, old, anna)) as a, connect(ws_url(base, old, bruno)) as b, \
                    connect(ws_url(base, old)) as watcher:
                first = await until(a, "state")
                assert first["table"]["status"] == "finished"
                assert first["table"]["rematch"] == {"agreed": [], "table_id": None}
                await watcher.send(json.dumps({"type": "rematch"}))
                refused = await until(watcher, "error")
                assert refused["code"] == "spectator"
                await a.send(json.dumps({"type": "rematch"}))
                waiting = await state_where(b, lambda t: t["rematch"]["agreed"] == [0])
                assert waiting["table"]["rematch"]["table_id"] is None  # Bruno is waited for
                await b.send(json.dumps({"type": "rematch"}))
                mine, theirs = await until(a, "rematch"), await until(b, "rematch")
                seen: list[dict[str, Any]] = []
                told = await state_where(watcher, lambda t: t["rematch"]["table_id"] is not None, seen)
                assert told["table"]["rematch"]["table_id"] == mine["table_id"]
                assert all(m["type"] != "rematch" for m in seen)  # the watcher is told no seat's link
                return mine, theirs, seen

        mine, theirs, _ = asyncio.run(rematch())
        new = mine["table_id"]
        assert theirs["table_id"] == new != old and (mine["seat"], theirs["seat"]) == (0, 1)
        new_anna, new_bruno = (m["link"].split("token=")[1] for m in (mine, theirs))
        assert new_anna != new_bruno and {new_anna, new_bruno}.isdisjoint({anna, bruno})
        state = httpx.get(f"{base}/api/tables/{new}").json()
        before = httpx.get(f"{base}/api/tables/{old}").json()
        assert state["game"] == "traversone" and state["options"] == before["options"]
        assert [(p["name"], p["kind"], p["level"]) for p in state["players"]] == \
            [(p["name"], p["kind"], p["level"]) for p in before["players"]]
        assert state["status"] == "playing"  # everyone is seated: play begins at once

        # Each new token plays its own seat there, and no old one holds a seat at the new table.
        assert asyncio.run(closed_with(ws_url(base, new, anna))) == 4403
        assert asyncio.run(closed_with(ws_url(base, new, bruno))) == 4403
        assert httpx.post(f"{base}/api/tables/{new}/session", json={"token": anna}).status_code == 403
        seats = [asyncio.run(first_of(base, new, t)) for t in (new_anna, new_bruno)]
        assert [s["seat"] for s in seats] == [0, 1]
        assert not set(seats[0]["view"]["hand"]) & set(seats[1]["view"]["hand"])

        # Bruno passes his new seat on: his old table's token is no longer told the new one.
        assert httpx.post(f"{base}/api/tables/{new}/pass-on", json={"token": new_bruno}).status_code == 200

    with served(tmp_path) as base:  # a restart keeps the rematch and who is moved to it
        assert httpx.get(f"{base}/api/tables/{old}").json()["rematch"]["table_id"] == new
        again = asyncio.run(message_of(base, old, anna, "rematch"))
        assert again == mine
        assert asyncio.run(message_of(base, old, bruno, "rematch")) is None
        assert asyncio.run(first_of(base, new, new_anna))["seat"] == 0


async def first_of(base: str, table_id: str, token: str) -> dict[str, Any]:
    async with connect(ws_url(base, table_id, token)) as ws:
        return await until(ws, "state")


async def message_of(base: str, table_id: str, token: str, wanted: str) -> dict[str, Any] | None:
    """The message of type ``wanted`` a socket opened with ``token`` is sent before its first state
    (None if none): the server sends it on connecting, before the state."""
    async with connect(ws_url(base, table_id, token)) as ws:
        while True:
            message = await receive(ws)
            if message["type"] == wanted:
                return message
            if message["type"] == "state":
                return None


def test_who_asked_for_a_rematch_is_kept_across_a_restart(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        created, bruno = two_friends(base)
        old, anna = created["table_id"], created["token"]
        finish(base, old, [anna, bruno])

        async def ask(token: str) -> dict[str, Any]:
            async with connect(ws_url(base, old, token)) as ws:
                await ws.send(json.dumps({"type": "rematch"}))
                return await state_where(ws, lambda t: t["rematch"]["agreed"] == [0])

        asyncio.run(ask(anna))
    with served(tmp_path) as base:
        assert httpx.get(f"{base}/api/tables/{old}").json()["rematch"] == {"agreed": [0], "table_id": None}

        async def bruno_asks() -> dict[str, Any]:
            async with connect(ws_url(base, old, bruno)) as ws:
                await ws.send(json.dumps({"type": "rematch"}))
                return await until(ws, "rematch")

        assert asyncio.run(bruno_asks())["seat"] == 1  # Anna's ask of before the restart counts


def test_no_rematch_before_the_end_and_none_twice(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        created = create(base, game="traversone", options=ONE_DEAL,
                         players=[{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}])

        async def early() -> dict[str, Any]:
            async with connect(ws_url(base, created["table_id"], created["token"])) as ws:
                await ws.send(json.dumps({"type": "rematch"}))
                return await until(ws, "error")

        assert asyncio.run(early())["code"] == "not_finished"
        finish(base, created["table_id"], [created["token"]])

        async def twice() -> tuple[dict[str, Any], list[dict[str, Any]]]:
            async with connect(ws_url(base, created["table_id"], created["token"])) as ws:
                await ws.send(json.dumps({"type": "rematch"}))  # alone with bots: made at once
                first = await until(ws, "rematch")
                await ws.send(json.dumps({"type": "rematch"}))
                await ws.send(json.dumps({"type": "ping"}))
                after: list[dict[str, Any]] = []
                await until(ws, "pong", after)
                return first, after

        first, after = asyncio.run(twice())
        assert all(m["type"] != "error" for m in after)
        state = httpx.get(f"{base}/api/tables/{created['table_id']}").json()
        assert state["rematch"]["table_id"] == first["table_id"]
        made = httpx.get(f"{base}/api/tables/{first['table_id']}").json()["players"]
        assert [p["kind"] for p in made] == ["human", "bot", "bot"]


def test_a_player_leaves_and_a_bot_plays_his_seat_until_someone_takes_it(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        created, bruno = two_friends(base, listed=True)
        table_id, anna = created["table_id"], created["token"]

        async def leave() -> tuple[dict[str, Any], dict[str, Any], int]:
            async with connect(ws_url(base, table_id, anna)) as a, connect(ws_url(base, table_id, bruno)) as b:
                await state_where(a, lambda t: t["status"] == "playing" and t["players"][1]["connected"])
                spectator = httpx.post(f"{base}/api/tables/{table_id}/leave", json={})
                assert spectator.status_code == 403, spectator.text
                assert httpx.post(f"{base}/api/tables/{table_id}/leave", json={"token": "nope"}).status_code == 403
                left = httpx.post(f"{base}/api/tables/{table_id}/leave", json={"token": bruno})
                assert left.status_code == 200 and left.json() == {"seat": 1}
                told = await until(a, "left")
                state = await state_where(a, lambda t: not t["players"][1]["taken"])
                await bot_plays_for(a, 1, state)
                try:
                    while True:
                        await asyncio.wait_for(b.recv(), TIMEOUT)
                except websockets.exceptions.ConnectionClosed as closed:
                    code = closed.rcvd.code if closed.rcvd else 1006
                return told, state, code

        told, state, code = asyncio.run(leave())
        assert code == 4403  # his page holds the seat no more
        assert told["seat"] == 1 and told["name"] == "Bruno" and told["now"] not in ("Bruno", "Anna")
        seat = state["table"]["players"][1]
        assert seat["stand_in"] and seat["name"] == told["now"] and seat["kind"] == "human"
        assert asyncio.run(closed_with(ws_url(base, table_id, bruno))) == 4403
        # The lobby shows the seat free at the table in play; a quick join starts a match instead.
        listed = {t["table_id"]: t for t in httpx.get(f"{base}/api/lobby").json()["tables"]}
        assert listed[table_id]["status"] == "playing" and listed[table_id]["free"] == 1
        quick = httpx.post(f"{base}/api/quick-join", json={"game": "traversone"}).json()
        assert quick["table_id"] != table_id and quick["new"]

    with served(tmp_path) as base:  # after a restart the bot still plays the free seat
        # Anna alone plays the match out: the bot plays Bruno's seat, with no clock to wait for.
        finish(base, table_id, [anna])
        assert httpx.get(f"{base}/api/tables/{table_id}").json()["status"] == "finished"
        record = httpx.get(f"{base}/api/tables/{table_id}/record").json()
        assert any(seat == 1 for seat, _ in record["deals"][0]["actions"])


async def bot_plays_for(ws: Any, seat: int, state: dict[str, Any]) -> None:
    """Play the socket's seat (its first legal action) until ``seat`` has moved after ``state``:
    no clock is waited for, since the stand-in time is ten minutes in these tests."""
    since = state["table"]["move"]
    while True:
        last = state["last"]
        if last is not None and last["seat"] == seat and last["move"] > since:
            return
        if state["legal"]:
            await ws.send(json.dumps({"type": "play", "action": state["legal"][0]["action"],
                                      "move": state["table"]["move"]}))
        state = await until(ws, "state")


def test_a_seat_left_in_play_is_taken_with_the_invite(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        created, bruno = two_friends(base)
        table_id = created["table_id"]
        # With the seat's cookie, as the page leaves: the cookie is cleared.
        left = httpx.post(f"{base}/api/tables/{table_id}/leave", json={}, cookies={f"osteria_{table_id}": bruno})
        assert left.status_code == 200 and left.json() == {"seat": 1}
        cleared = left.headers["set-cookie"]
        assert cleared.startswith(f'osteria_{table_id}=""') and "Max-Age=0" in cleared
        joined = httpx.post(f"{base}/api/tables/{table_id}/join", json={"invite": created["invite"], "name": "Carla"})
        assert joined.status_code == 200 and joined.json()["seat"] == 1
        state = asyncio.run(first_of(base, table_id, joined.json()["token"]))
        assert state["seat"] == 1 and state["table"]["players"][1]["name"] == "Carla"
        assert not state["table"]["players"][1]["stand_in"]  # she plays it herself now


def test_leaving_before_play_frees_the_seat_and_play_waits(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        created = create(base, game="traversone", players=[{"kind": "human", "name": "Anna"}, {"kind": "human"},
                                                           {"kind": "human"}])
        table_id = created["table_id"]
        joined = httpx.post(f"{base}/api/tables/{table_id}/join", json={"invite": created["invite"], "name": "Bruno"})
        assert httpx.post(f"{base}/api/tables/{table_id}/leave", json={"token": joined.json()["token"]}).json() \
            == {"seat": 1}
        state = httpx.get(f"{base}/api/tables/{table_id}").json()
        assert state["status"] == "waiting" and not state["players"][1]["taken"]
        assert state["players"][1]["name"] == "seat 1" and not state["players"][1]["stand_in"]


def test_leaving_a_finished_match_keeps_its_record(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        created, bruno = two_friends(base)
        finish(base, created["table_id"], [created["token"], bruno])
        before = httpx.get(f"{base}/api/tables/{created['table_id']}/record").json()
        assert httpx.post(f"{base}/api/tables/{created['table_id']}/leave", json={"token": bruno}).status_code == 200
        after = httpx.get(f"{base}/api/tables/{created['table_id']}/record").json()
        assert after == before and after["players"][1] == "Bruno"
        seat = httpx.get(f"{base}/api/tables/{created['table_id']}").json()["players"][1]
        assert not seat["taken"] and not seat["stand_in"]


def test_the_others_asked_for_a_rematch_and_one_leaves_instead(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        created, bruno = two_friends(base)
        old, anna = created["table_id"], created["token"]
        finish(base, old, [anna, bruno])

        async def anna_asks() -> dict[str, Any]:
            async with connect(ws_url(base, old, anna)) as a:
                await until(a, "state")
                await a.send(json.dumps({"type": "rematch"}))
                await state_where(a, lambda t: t["rematch"]["agreed"] == [0])
                assert httpx.post(f"{base}/api/tables/{old}/leave", json={"token": bruno}).status_code == 200
                return await until(a, "rematch")

        moved = asyncio.run(anna_asks())
        state = httpx.get(f"{base}/api/tables/{moved['table_id']}").json()
        # Bruno's seat is free at the rematch, which waits for someone to take it or to start.
        assert state["status"] == "waiting" and not state["players"][1]["taken"]
        assert [p["kind"] for p in state["players"]] == ["human", "human", "bot"]


def test_the_table_says_who_watches(tmp_path: Path) -> None:
    with served(tmp_path) as base, httpx.Client(base_url=base, timeout=TIMEOUT) as carla:
        assert carla.post("/api/sign-up", json={"name": "Carla", "password": "una briscola"}).status_code == 201
        created = create(base, game="traversone", players=[{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}])
        table_id = created["table_id"]
        signed = {"Cookie": f"osteria_account={carla.cookies['osteria_account']}"}

        async def watch() -> list[dict[str, Any]]:
            seen = []
            async with connect(ws_url(base, table_id, created["token"])) as player:
                async with connect(ws_url(base, table_id), additional_headers=signed), \
                        connect(ws_url(base, table_id), additional_headers=signed):
                    async with connect(ws_url(base, table_id)):
                        seen.append(await state_where(player, lambda t: t["spectators"] == 3))
                    seen.append(await state_where(player, lambda t: t["spectators"] == 2))
                seen.append(await state_where(player, lambda t: t["spectators"] == 0))
            return seen

        three, two, none = (s["table"]["watchers"] for s in asyncio.run(watch()))
        assert three == {"names": ["Carla"], "guests": 1}  # her two pages name her once
        assert two == {"names": ["Carla"], "guests": 0}
        assert none == {"names": [], "guests": 0}


# -- the rule itself, over any order of asking and leaving -------------------------------------

@settings(max_examples=15, deadline=None)
@given(events=st.lists(st.tuples(st.sampled_from(("ask", "leave")), st.integers(0, 2)), max_size=8))
def test_a_rematch_is_made_once_every_person_still_seated_has_asked(events: list[tuple[str, int]]) -> None:
    async def scenario(data: Path) -> None:
        store = Store.open(data)
        executor = ThreadPoolExecutor(max_workers=1)
        tables = Tables(store, Scheduler(executor, 1), quick_settings())
        try:
            table, tokens = await finished_table_of_three(tables)
            seated, asked = {0, 1, 2}, set()
            made: set[int] | None = None  # the seats given a seat at the rematch, once it is made
            for kind, seat in events:
                if seat not in seated:
                    with pytest.raises(TableError):
                        table.seat_of_token(tokens[seat])  # his token holds nothing any more
                    continue
                if kind == "ask":
                    tables.agree_rematch(table, seat)
                    asked.add(seat)
                else:
                    table.leave(seat)
                    tables.rematch(table)
                    seated.discard(seat)
                    asked.discard(seat)
                if made is None and seated and seated <= asked:
                    made = set(seated)
                assert (table.row.rematch is not None) == (made is not None)
            if made is None:
                return
            rematch = tables.tables[table.row.rematch or ""]
            assert [s.seat for s in rematch.seats if s.token is not None] == sorted(made)
            for seat in range(3):
                with pytest.raises(TableError):
                    rematch.seat_of_token(tokens[seat])  # no token of the old table holds a seat there
                told = tables.rematch_for(table, seat)
                if seat in made and rematch.seats[seat].token is not None:
                    assert told is not None and rematch.seat_of_token(told["link"].split("token=")[1]) == seat
                else:
                    assert told is None
        finally:
            executor.shutdown(wait=False, cancel_futures=True)
            store.close()

    with tempfile.TemporaryDirectory() as data:
        asyncio.run(scenario(Path(data)))
