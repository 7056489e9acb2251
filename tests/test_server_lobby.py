"""The lobby over real HTTP and WebSockets: listed tables waiting for players are shown with their
free seats and invite, private ones are not, and a quick join fills the oldest open table of the
game or opens a new listed one."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from osteria.server.store import SeatRow, Store, TableRow
from server_helpers import connect, create, quick_settings, served, until, ws_url


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    with served(tmp_path) as address:
        yield address


def lobby(base: str, game: str | None = None) -> list[dict[str, Any]]:
    response = httpx.get(f"{base}/api/lobby", params={} if game is None else {"game": game})
    assert response.status_code == 200
    tables: list[dict[str, Any]] = response.json()["tables"]
    return tables


def quick_join(base: str, game: str, name: str | None = None) -> dict[str, Any]:
    response = httpx.post(f"{base}/api/quick-join", json={"game": game, **({"name": name} if name else {})})
    assert response.status_code == 200, response.text
    joined: dict[str, Any] = response.json()
    return joined


def test_a_listed_table_is_in_the_lobby_until_its_seats_are_taken(base: str) -> None:
    people = [{"kind": "human", "name": "Anna"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]
    listed = create(base, game="tressette", players=people, listed=True)
    create(base, game="tressette", players=people)  # private: reached by its link only
    shown = lobby(base)
    assert [t["table_id"] for t in shown] == [listed["table_id"]]
    entry = shown[0]
    assert entry["free"] == 1 and entry["invite_link"] == listed["invite_link"]
    assert [p["name"] for p in entry["players"]][:2] == [None, None]  # Anna has not sat down yet
    assert "token" not in str(entry) and listed["token"] not in str(entry)
    assert lobby(base, "sancagna") == []
    joined = httpx.post(f"{base}/api/tables/{listed['table_id']}/join", json={"invite": listed["invite"]})
    assert joined.status_code == 200
    assert lobby(base) == []  # no free seat left


def test_a_quick_join_takes_the_free_seat_of_the_oldest_open_table(base: str) -> None:
    people = [{"kind": "human", "name": "Anna"}, {"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]
    older = create(base, game="tressette", players=people, listed=True)
    create(base, game="tressette", players=people, listed=True)
    first = quick_join(base, "tressette", "Bruno")
    second = quick_join(base, "tressette", "Carla")
    assert first["table_id"] == second["table_id"] == older["table_id"] and not first["new"]
    assert {first["seat"], second["seat"]} == {1, 2}

    async def seated() -> dict[str, Any]:
        async with connect(ws_url(base, first["table_id"], first["token"])) as ws:
            return await until(ws, "state")

    state = asyncio.run(seated())
    assert state["seat"] == first["seat"] and state["table"]["players"][first["seat"]]["name"] == "Bruno"


def test_a_quick_join_with_no_open_table_opens_a_listed_one_for_the_next_comers(base: str) -> None:
    opened = quick_join(base, "sancagna", "Anna")
    assert opened["new"] and opened["seat"] == 0
    shown = lobby(base, "sancagna")
    assert [t["table_id"] for t in shown] == [opened["table_id"]]
    assert shown[0]["free"] == shown[0]["seats"] - 1
    joined = quick_join(base, "sancagna", "Bruno")
    assert joined["table_id"] == opened["table_id"] and joined["seat"] == 1


def test_a_quick_join_for_no_game_is_refused_with_its_reason(base: str) -> None:
    response = httpx.post(f"{base}/api/quick-join", json={"game": "scopa"})
    assert response.status_code == 400 and "unknown game 'scopa'" in response.json()["detail"]


def test_a_listed_table_stays_listed_after_a_restart(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        listed = create(base, game="tressette", players=[{"kind": "human"}, {"kind": "human"}] * 2, listed=True)
    with served(tmp_path) as base:
        assert [t["table_id"] for t in lobby(base)] == [listed["table_id"]]


def test_a_quick_join_counts_against_the_address_only_when_it_opens_a_table(tmp_path: Path) -> None:
    with served(tmp_path, quick_settings(tables_burst=1, tables_per_minute=0.01)) as base:
        opened = quick_join(base, "tressette", "Anna")
        assert opened["new"]
        # The three seats left are taken without opening a table; a fifth player needs a new one.
        for name in ("Bruno", "Carla", "Dino"):
            assert quick_join(base, "tressette", name)["table_id"] == opened["table_id"]
        refused = httpx.post(f"{base}/api/quick-join", json={"game": "tressette", "name": "Elsa"})
        assert refused.status_code == 429 and "too many tables" in refused.json()["detail"]


def test_the_lobby_reads_the_listed_tables_not_finished_in_a_database_made_before_it_too(tmp_path: Path) -> None:
    import sqlite3

    store = Store.open(tmp_path)
    for table_id in ("done", "open", "private"):
        store.create_table(TableRow(table_id, "sancagna", 2, {}, 0, "invite", "medio", False, 0.0,
                                    [SeatRow(0, "human", None, "Anna", "token", True),
                                     SeatRow(1, "human", None, "seat 1", None, False)],
                                    listed=table_id != "private"))
    store.finish_match("done", "sancagna", 1.0, {}, [None, None], lambda before: [(25.0, 8.0)] * 2)
    assert [row.id for row in store.open_listed()] == ["open"]
    store.close()
    with sqlite3.connect(tmp_path / "osteria.sqlite3") as db:
        db.execute("DROP TABLE lobby")  # as a database made before the lobby had a table of its own
    store = Store.open(tmp_path)
    assert [row.id for row in store.open_listed()] == ["open"]
    assert [row.id for row in store.open_listed("tressette")] == []
    store.close()


def test_a_seat_given_elsewhere_just_before_the_start_stays_its_player(tmp_path: Path) -> None:
    """A quick join at another process of a shared database takes a seat in the store while the
    table's own process, not told yet, starts the play: the seat stays the newcomer's, only the
    seats still free get bots, and his token plays it."""
    from concurrent.futures import ThreadPoolExecutor

    from osteria.server.scheduler import Scheduler
    from osteria.server.tables import Client, Tables

    async def scenario() -> None:
        table = tables.create("tressette", None, {}, [("human", None, "Anna")] + [("human", None, None)] * 3,
                              "facile", listed=True)
        creator = Client(0)
        table.connect(creator)  # Anna came: her seat is taken
        assert store.take_free_seat(table.id, 2, "Bruno", "bruno's token") is None  # as the other process does
        table.start(0)
        assert [(s.kind, s.name) for s in table.seats][2] == ("human", "Bruno")
        assert table.seat_of_token("bruno's token") == 2
        assert [s.kind for s in table.seats] == ["human", "bot", "human", "bot"]
        stored, _ = store.seat_rows(table.id)
        assert [(s.kind, s.token) for s in stored][2] == ("human", "bruno's token")

    store = Store.open(tmp_path)
    executor = ThreadPoolExecutor(max_workers=1)
    tables = Tables(store, Scheduler(executor, 1), quick_settings())
    try:
        asyncio.run(scenario())
    finally:
        executor.shutdown(wait=False, cancel_futures=True)
        store.close()
