"""Who holds a seat: a seat's token is minted when its player takes it and told to him alone, so
the table's creator cannot play a friend's seat, an invite never takes a held seat, and each keeps
his own seat across a restart, in a database made before this too; a player may pass his seat on."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.typing import Origin

from osteria.server.store import SeatRow, Store, TableRow
from server_helpers import connect, create, served, until, ws_url

TWO_FRIENDS = [{"kind": "human", "name": "Anna"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]


def secrets_in(value: Any) -> set[str]:
    """Every word of ``value`` that could be a token (URL-safe), links taken apart."""
    return set(re.findall(r"[A-Za-z0-9_-]+", json.dumps(value)))


async def first_state(base: str, table_id: str, token: str) -> dict[str, Any] | int:
    """The first state a WebSocket opened with ``token`` is sent, or the code it is closed with."""
    async with connect(ws_url(base, table_id, token)) as ws:
        try:
            return await until(ws, "state")
        except websockets.exceptions.ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else 1006


def join(base: str, created: dict[str, Any], **body: Any) -> httpx.Response:
    return httpx.post(f"{base}/api/tables/{created['table_id']}/join", json={"invite": created["invite"], **body})


def test_the_creator_can_neither_play_nor_see_a_friends_seat(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        created = create(base, game="tressette", players=TWO_FRIENDS)
        table_id = created["table_id"]
        friend = join(base, created, name="Bruno", seat=1).json()
        assert friend["seat"] == 1 and friend["token"] not in json.dumps(created)
        # Whatever the creator was told, tried as a token, plays his own seat at most.
        seats = set()
        for secret in secrets_in(created):
            state = asyncio.run(first_state(base, table_id, secret))
            seats.add(state if isinstance(state, int) else state["seat"])
        assert 1 not in seats and 0 in seats
        mine = asyncio.run(first_state(base, table_id, created["token"]))
        theirs = asyncio.run(first_state(base, table_id, friend["token"]))
        assert isinstance(mine, dict) and isinstance(theirs, dict)
        assert (mine["seat"], theirs["seat"]) == (0, 1)
        assert not set(mine["view"]["hand"]) & set(theirs["view"]["hand"])


def test_an_early_invite_cannot_take_the_creators_seat(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        created = create(base, game="tressette", players=TWO_FRIENDS)
        assert join(base, created, seat=0).status_code == 409  # held from creation, not yet opened
        friend = join(base, created).json()
        assert friend["seat"] == 1 and friend["token"] != created["token"]
        assert join(base, created).status_code == 409  # no seat left: the creator's is not one
        states = [asyncio.run(first_state(base, created["table_id"], t)) for t in (created["token"], friend["token"])]
        assert [s["seat"] for s in states if isinstance(s, dict)] == [0, 1]
        alone = create(base, game="tressette")
        assert join(base, alone).status_code == 409


def test_after_a_restart_each_keeps_his_own_seat(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        created = create(base, game="tressette", players=TWO_FRIENDS)
        table_id = created["table_id"]
        friend = join(base, created, name="Bruno").json()
        assert friend["seat"] == 1
        before = [asyncio.run(first_state(base, table_id, t)) for t in (created["token"], friend["token"])]
    with served(tmp_path) as base:
        after = [asyncio.run(first_state(base, table_id, t)) for t in (created["token"], friend["token"])]
        assert join(base, created).status_code == 409
    for old, new, seat in zip(before, after, (0, 1), strict=True):
        assert isinstance(old, dict) and isinstance(new, dict)
        assert new["seat"] == old["seat"] == seat and new["view"]["hand"] == old["view"]["hand"]


def test_a_database_made_before_gives_a_free_seat_a_fresh_token(tmp_path: Path) -> None:
    # As tables were stored before: a token for every human seat, each sent to the creator.
    store = Store.open(tmp_path)
    store.create_table(TableRow("old", "tressette", 4, {}, 0, "invite-old", "medio", False, 0.0, [
        SeatRow(0, "human", None, "Anna", "token-anna", False), SeatRow(1, "human", None, "seat 1", "token-1", False),
        SeatRow(2, "bot", "facile", "Nina", None, True), SeatRow(3, "bot", "facile", "Tano", None, True)]))
    store.close()
    with served(tmp_path) as base:
        friend = join(base, {"table_id": "old", "invite": "invite-old"}).json()
        assert friend["seat"] == 1 and friend["token"] != "token-1"
        assert asyncio.run(first_state(base, "old", "token-1")) == 4403
        mine = asyncio.run(first_state(base, "old", "token-anna"))
        assert isinstance(mine, dict) and mine["seat"] == 0


def test_a_seat_passed_on_plays_with_its_new_token_and_not_its_old_one(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        created = create(base, game="tressette", players=TWO_FRIENDS)
        table_id = created["table_id"]
        friend = join(base, created, name="Bruno").json()
        pass_on = f"{base}/api/tables/{table_id}/pass-on"

        async def passed_while_open() -> tuple[dict[str, Any], int | None]:
            # Opened as the server's own page opens it, from the server's origin.
            async with websockets.connect(ws_url(base, table_id, friend["token"]), origin=Origin(base)) as ws:
                await until(ws, "state")
                passed = await asyncio.to_thread(httpx.post, pass_on, json={"token": friend["token"]})
                try:
                    while True:
                        await until(ws, "state")
                except websockets.exceptions.ConnectionClosed as closed:
                    return passed.json(), closed.rcvd.code if closed.rcvd else None

        passed, code = asyncio.run(passed_while_open())
        assert code == 4403  # the socket opened with the old token is closed
        assert passed["seat"] == 1 and passed["token"] != friend["token"]
        assert passed["link"] == f"/t/{table_id}?seat=1&token={passed['token']}"
        assert asyncio.run(first_state(base, table_id, friend["token"])) == 4403
        assert httpx.post(pass_on, json={"token": friend["token"]}).status_code == 403
        assert httpx.post(pass_on, json={}).status_code == 403  # a watcher has no seat to pass on
    with served(tmp_path) as base:  # the new token is stored, the old one stays revoked
        state = asyncio.run(first_state(base, table_id, passed["token"]))
        assert isinstance(state, dict) and state["seat"] == 1
        assert asyncio.run(first_state(base, table_id, friend["token"])) == 4403
        mine = asyncio.run(first_state(base, table_id, created["token"]))
        assert isinstance(mine, dict) and mine["seat"] == 0
