"""A table whose play is over leaves the server's memory once nobody uses it, and a server starts
without the tables of the past: their records, rematches and tournaments' standings come back
from the store, as they were, whenever someone asks for them."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx

from osteria.server.scheduler import Scheduler
from osteria.server.store import Store
from osteria.server.tables import Client, Settings, Tables
from osteria.server.tournament import Tournaments
from server_helpers import TIMEOUT, connect, create, finished_table_of_three, quick_settings, served, until, ws_url


@asynccontextmanager
async def tables_of(data: Path, settings: Settings) -> AsyncIterator[Tables]:
    """The tables a server would serve from the store in ``data`` (as at its start)."""
    store = Store.open(data)
    executor = ThreadPoolExecutor(max_workers=1)
    try:
        yield Tables(store, Scheduler(executor, 1), settings)
    finally:
        executor.shutdown(wait=False, cancel_futures=True)
        store.close()


def test_a_finished_table_leaves_memory_when_idle_and_comes_back_as_it_was(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with tables_of(tmp_path, quick_settings(keep_over=0.0)) as tables:
            table, tokens = await finished_table_of_three(tables)
            waiting = tables.create("tressette", None, {}, [], "facile")  # nobody came yet: not over
            record, state = table.record(), table.state()
            watcher = Client(None)
            table.connect(watcher)
            assert tables.drop_idle() == []  # somebody watches it
            table.disconnect(watcher)
            assert tables.drop_idle() == [table.id]
            assert set(tables.tables) == {waiting.id}
            back = tables.get(table.id)
            assert back is not table and back.record() == record and back.state() == state
            assert [back.seat_of_token(t) for t in tokens] == [0, 1, 2]
            tables.settings.keep_over = 60.0
            assert tables.drop_idle() == []  # asked for just now: it stays a while
            assert tables.get(table.id) is back

    asyncio.run(scenario())


def test_a_server_starts_without_the_tables_whose_play_is_over(tmp_path: Path) -> None:
    async def first_run() -> tuple[str, str, dict[str, Any]]:
        async with tables_of(tmp_path, quick_settings()) as tables:
            table, _ = await finished_table_of_three(tables)
            waiting = tables.create("tressette", None, {}, [], "facile")
            return table.id, waiting.id, table.record()

    async def restarted() -> tuple[set[str], dict[str, Any]]:
        async with tables_of(tmp_path, quick_settings()) as tables:
            loaded = set(tables.tables)
            return loaded, tables.get(ended).record()

    ended, waiting, record = asyncio.run(first_run())
    loaded, record_again = asyncio.run(restarted())
    assert loaded == {waiting} and record_again == record

    # A database written before the server stored which tables ended: the first start rebuilds
    # every table, as it did, and marks those whose play is over; the next one leaves them out.
    with sqlite3.connect(tmp_path / "osteria.sqlite3") as db:
        db.execute("DELETE FROM ended")
    assert asyncio.run(restarted())[0] == {waiting, ended}
    assert asyncio.run(restarted())[0] == {waiting}


def test_a_tournaments_tables_leave_memory_and_its_standings_stay(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with tables_of(tmp_path, quick_settings(keep_over=0.0)) as tables:
            tournaments = Tournaments(tables)
            made = tournaments.create("traversone", 3, {}, 2, 2, "facile")
            made.start(made.row.organiser)
            deadline = time.monotonic() + 3 * TIMEOUT
            dropped: list[str] = []
            while made.status() != "finished":  # the bots' tables go as soon as each is over
                assert time.monotonic() < deadline, made.state()
                dropped += tables.drop_idle()
                await asyncio.sleep(0.01)
            dropped += tables.drop_idle()
            played = made.round_ids(0) + made.round_ids(1)
            assert sorted(dropped) == sorted(played) and not tables.tables
            state = tournaments.get(made.id).state()
            assert [t["status"] for r in state["rounds"] for t in r["tables"]] == ["finished"] * 4
            assert all(c["seed"] is not None for c in state["commitments"])
            assert len(state["standings"]) == 6
            table = tables.get(played[0])  # a watcher follows its link: rebuilt, over, its board revealed
            assert table.status == "finished" and not table.secret
            assert tournaments.get(made.id).state() == state

    asyncio.run(scenario())


def test_over_the_wire_a_finished_table_let_go_still_makes_its_rematch(tmp_path: Path) -> None:
    people = [{"kind": "human", "name": "Anna"}, {"kind": "human"}, {"kind": "bot", "level": "facile"}]
    with served(tmp_path, quick_settings(keep_over=0.05)) as base:
        created = create(base, game="traversone", options={"target": 1}, players=people)
        table_id, anna = created["table_id"], created["token"]
        joined = httpx.post(f"{base}/api/tables/{table_id}/join", json={"invite": created["invite"], "name": "Bruno"})
        bruno = joined.json()["token"]

        async def ask_rematch(token: str) -> dict[str, Any]:
            async with connect(ws_url(base, table_id, token)) as ws:
                state = await until(ws, "state")
                if state["table"]["status"] != "finished":  # the first time: the match is played out
                    while state["table"]["status"] != "finished":
                        if state["legal"]:
                            await ws.send(json.dumps({"type": "play", "action": state["legal"][0]["action"],
                                                      "move": state["table"]["move"]}))
                        state = await until(ws, "state")
                    return state
                await ws.send(json.dumps({"type": "rematch"}))
                return await until(ws, "state")

        async def both_play() -> None:
            await asyncio.gather(ask_rematch(anna), ask_rematch(bruno))

        asyncio.run(both_play())
        record = httpx.get(f"{base}/api/tables/{table_id}/record").json()
        time.sleep(0.3)  # let go, then rebuilt by each request below
        asked = asyncio.run(ask_rematch(anna))
        assert asked["table"]["rematch"]["agreed"] == [0]
        time.sleep(0.3)
        assert httpx.get(f"{base}/api/tables/{table_id}/record").json() == record

        async def second_ask_and_return() -> tuple[dict[str, Any], dict[str, Any]]:
            async with connect(ws_url(base, table_id, bruno)) as ws:
                await until(ws, "state")
                await ws.send(json.dumps({"type": "rematch"}))
                theirs = await until(ws, "rematch")
            await asyncio.sleep(0.3)
            async with connect(ws_url(base, table_id, anna)) as ws:  # Anna comes back: sent on
                mine = await until(ws, "rematch")
            return mine, theirs

        mine, theirs = asyncio.run(second_ask_and_return())
        assert mine["table_id"] == theirs["table_id"] != table_id and (mine["seat"], theirs["seat"]) == (0, 1)


def test_a_match_whose_ratings_were_not_stored_is_rebuilt_at_the_next_start_and_rated(tmp_path: Path) -> None:
    def finished_rows() -> list[tuple[str]]:
        with sqlite3.connect(tmp_path / "osteria.sqlite3") as db:
            return db.execute("SELECT table_id FROM finished").fetchall()

    async def first_run() -> str:
        async with tables_of(tmp_path, quick_settings()) as tables:
            def stopped(*args: Any, **kwargs: Any) -> bool:
                raise RuntimeError("the database went away")

            tables.store.finish_match = stopped  # type: ignore[method-assign]
            table, _ = await finished_table_of_three(tables)
            return table.id

    async def restarted() -> set[str]:
        async with tables_of(tmp_path, quick_settings()) as tables:
            return set(tables.tables)

    table_id = asyncio.run(first_run())
    assert finished_rows() == []
    assert asyncio.run(restarted()) == {table_id}  # not marked as ended: rebuilt, and rated now
    assert finished_rows() == [(table_id,)]
    assert asyncio.run(restarted()) == set()


def test_a_board_whose_result_was_not_stored_is_rebuilt_at_the_next_start_and_its_round_ends(
        tmp_path: Path) -> None:
    async def first_run() -> tuple[str, str]:
        async with tables_of(tmp_path, quick_settings()) as tables:
            tournaments = Tournaments(tables)
            made = tournaments.create("traversone", 3, {}, 1, 2, "facile")
            store_result = tables.store.add_board_result
            lost: list[str] = []

            def stops_once(table_id: str, *args: Any) -> None:
                if not lost:  # the process stops before the first table's result is stored
                    lost.append(table_id)
                    raise RuntimeError("the process was killed")
                store_result(table_id, *args)

            tables.store.add_board_result = stops_once  # type: ignore[method-assign]
            made.start(made.row.organiser)
            deadline = time.monotonic() + 3 * TIMEOUT
            while len(lost) == 0 or not all(tables.tables[i].over for i in made.round_ids(0)):
                assert time.monotonic() < deadline, made.state()
                await asyncio.sleep(0.01)
            assert made.status() == "playing"  # the round waits for the lost result
            return made.id, lost[0]

    async def restarted(tournament_id: str) -> tuple[set[str], str]:
        async with tables_of(tmp_path, quick_settings()) as tables:
            tournaments = Tournaments(tables)
            tournaments.resume_all()
            return set(tables.tables), tournaments.get(tournament_id).status()

    tournament_id, lost = asyncio.run(first_run())
    assert asyncio.run(restarted(tournament_id)) == ({lost}, "finished")
    assert asyncio.run(restarted(tournament_id)) == (set(), "finished")
