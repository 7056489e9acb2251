"""Helpers of the server tests: a server on a loopback port, and players over WebSockets."""

from __future__ import annotations

import asyncio
import json
import random
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn
import websockets
from fastapi import FastAPI
from websockets.typing import Origin

from osteria.server.app import create_app
from osteria.server.tables import Client, Settings, Table, Tables

TIMEOUT = 30.0  # seconds a test waits for a message before it fails


def quick_settings(**changes: Any) -> Settings:
    """Bots move at once; nobody is stood in for unless a test says so."""
    return Settings(**{"stand_in_after": 600.0, "bot_delay": 0.0, **changes})


@contextmanager
def running(app: FastAPI) -> Iterator[str]:
    """Serve ``app`` on a free loopback port in a thread; its base address (http://...)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws_max_size=16384, lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + TIMEOUT
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(TIMEOUT)
        sock.close()


@contextmanager
def served(data: Path, settings: Settings | None = None, database: str | None = None) -> Iterator[str]:
    with running(create_app(data, database, settings or quick_settings())) as base:
        yield base


def create(base: str, **body: Any) -> dict[str, Any]:
    """A new table on the server at ``base``, as the server describes it."""
    response = httpx.post(base + "/api/tables", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def seat_tokens(base: str, created: dict[str, Any]) -> list[str | None]:
    """Each seat's token of a table just created: the creator's from the create answer, every other
    human seat's from joining it by the invite, as friends do; None for a bot's."""
    tokens: list[str | None] = [None] * len(created["seats"])
    tokens[created["seat"]] = created["token"]
    for s in created["seats"]:
        if s["kind"] == "human" and s["seat"] != created["seat"]:
            joined = httpx.post(f"{base}/api/tables/{created['table_id']}/join",
                                json={"invite": created["invite"], "seat": s["seat"]})
            assert joined.status_code == 200, joined.text
            tokens[s["seat"]] = joined.json()["token"]
    return tokens


def ws_url(base: str, table_id: str, token: str | None = None) -> str:
    url = base.replace("http://", "ws://") + f"/ws/{table_id}"
    return url + (f"?token={token}" if token else "")


def connect(url: str, **options: Any) -> websockets.asyncio.client.connect:
    """A WebSocket to ``url`` (ws://...), opened as the server's own page opens it: with the
    server's origin, which the server asks of every WebSocket."""
    own = "http" + url.removeprefix("ws").split("/ws/", 1)[0]
    return websockets.connect(url, origin=Origin(own), **options)


async def receive(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
    return message


async def play_seat(url: str, rng: random.Random, deals: int = 1,
                    log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Play random legal actions for the seat of ``url`` until ``deals`` deals are over; the last
    state. Any error message fails."""
    async with connect(url) as ws:
        acted = -1
        while True:
            message = await receive(ws)
            if log is not None:
                log.append(message)
            assert message["type"] != "error", message
            if message["type"] != "state":
                continue
            table = message["table"]
            if len(table["result"]["deals"]) >= deals or table["status"] == "finished":
                return message
            if message["legal"] and table["move"] != acted:
                acted = table["move"]
                choice = rng.choice(message["legal"])["action"]
                await ws.send(json.dumps({"type": "play", "action": choice, "move": acted}))


async def until(ws: Any, wanted: str, log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The next message of type ``wanted``, keeping the others in ``log``."""
    while True:
        message = await receive(ws)
        if message["type"] == wanted:
            return message
        if log is not None:
            log.append(message)


async def finished_table_of_three(tables: Tables) -> tuple[Table, list[str]]:
    """A finished one-deal Traversone table of three people (each seat's first legal action); the
    seats' tokens."""
    people: list[tuple[str, str | None, str | None]] = [("human", None, name) for name in ("Anna", "Bruno", "Carla")]
    table = tables.create("traversone", None, {"target": 1}, people, "facile")
    assert table.seats[0].token is not None
    tokens = [table.seats[0].token] + [table.join(table.row.invite, None, seat)[1] for seat in (1, 2)]
    creator = Client(0)
    table.connect(creator)  # the creator came once: every seat is taken, play begins
    table.disconnect(creator)
    while not table.match.finished:
        seat = table.match.decider
        assert seat is not None
        table.play(seat, table.match.observation(seat)["legal_actions"][0])
    return table, tokens
