"""The server's limits, with a real server and real WebSocket clients: sockets per address and
per table, one chat budget per address at a table (spectators share it), and a socket that
flooded once and then stopped is forgiven."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
import websockets

from server_helpers import connect, create, quick_settings, receive, served, until, ws_url


async def close_code(ws: Any) -> int | None:
    """The code a socket is closed with, reading whatever comes before."""
    with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
        while True:
            await receive(ws)
    return None if closed.value.rcvd is None else closed.value.rcvd.code


def test_an_address_holds_at_most_its_sockets_and_gets_one_back_when_it_closes_one(tmp_path: Path) -> None:
    with served(tmp_path, quick_settings(sockets_per_address=3)) as base:
        first, second = create(base, game="tressette"), create(base, game="traversone")

        async def scenario() -> tuple[int | None, str]:
            held = [await connect(ws_url(base, first["table_id"])) for _ in range(2)]
            held.append(await connect(ws_url(base, second["table_id"])))  # the budget spans tables
            async with connect(ws_url(base, second["table_id"])) as over:
                refused = await close_code(over)
            await held.pop().close()
            async with connect(ws_url(base, first["table_id"])) as again:
                state = await until(again, "state")
            for ws in held:
                await ws.close()
            return refused, state["type"]

        refused, answered = asyncio.run(scenario())
    assert refused == 4429 and answered == "state"


def test_a_table_holds_at_most_its_sockets(tmp_path: Path) -> None:
    with served(tmp_path, quick_settings(sockets_per_table=2)) as base:
        created = create(base, game="tressette")
        other = create(base, game="tressette")

        async def scenario() -> tuple[int | None, str]:
            held = [await connect(ws_url(base, created["table_id"])) for _ in range(2)]
            async with connect(ws_url(base, created["table_id"])) as over:
                refused = await close_code(over)
            async with connect(ws_url(base, other["table_id"])) as elsewhere:
                state = await until(elsewhere, "state")
            for ws in held:
                await ws.close()
            return refused, state["type"]

        refused, answered = asyncio.run(scenario())
    assert refused == 4429 and answered == "state"


def test_spectators_of_one_address_share_one_chat_budget(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        created = create(base, game="tressette")
        table_id = created["table_id"]

        async def scenario() -> tuple[list[str], dict[str, Any]]:
            async with connect(ws_url(base, table_id)) as a, connect(ws_url(base, table_id)) as b:
                for i in range(5):  # the burst, from one socket
                    await a.send(json.dumps({"type": "chat", "text": f"a {i}"}))
                heard = [(await until(a, "chat"))["text"] for _ in range(5)]
                await b.send(json.dumps({"type": "chat", "text": "b"}))  # another socket, the same address
                return heard, await until(b, "error")

        heard, refused = asyncio.run(scenario())
    assert heard == [f"a {i}" for i in range(5)]
    assert refused["code"] == "rate_limited" and "address" in refused["message"]


def test_a_socket_that_flooded_once_and_stopped_is_forgiven(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        created = create(base, game="tressette")

        async def flood(ws: Any) -> None:
            for _ in range(120):  # 40 answered at once, about 80 over the limit
                await ws.send(json.dumps({"type": "ping"}))
            errors = 0
            while errors < 60:
                if (await receive(ws))["type"] == "error":
                    errors += 1

        async def scenario() -> str:
            async with connect(ws_url(base, created["table_id"], created["token"]), max_queue=None) as ws:
                await flood(ws)
                await asyncio.sleep(11)
                await flood(ws)  # counted afresh: the first flood was forgiven meanwhile
                await asyncio.sleep(2.5)
                await ws.send(json.dumps({"type": "ping"}))
                return (await until(ws, "pong"))["type"]

        assert asyncio.run(scenario()) == "pong"
