"""Killing the server at any moment loses nothing: ``kill -9`` in the middle of a deal, start it
again, and every table resumes with every action, every seat and the same secret deal."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from osteria.server.fair import verify_record
from server_helpers import TIMEOUT, connect, play_seat, until, ws_url


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def server_process(data: Path, port: int, *options: str) -> Iterator[subprocess.Popen[bytes]]:
    """``osteria serve`` in its own process (with ``options`` too), its bots a little slowed so
    that a table of bots is still playing when it is killed (with SIGKILL, when the block ends,
    unless it is dead already)."""
    process = subprocess.Popen([sys.executable, "-m", "osteria.cli", "serve", "--port", str(port), "--data", str(data),
                                "--bot-delay", "0.02", *options], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + TIMEOUT
        while True:
            assert process.poll() is None, process.stderr.read().decode() if process.stderr else "it stopped"
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.05)
        yield process
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
        process.wait()


def test_a_killed_server_resumes_every_table_with_every_action(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    rng = random.Random(2)

    async def play_some(url: str, moves: int) -> dict[str, Any]:
        """Play ``moves`` of this seat's turns; the state when its next turn comes."""
        async with connect(url) as ws:
            while True:
                state = await until(ws, "state")
                if state["legal"]:
                    if moves == 0:
                        return state
                    moves -= 1
                    await ws.send(json.dumps({"type": "play", "action": rng.choice(state["legal"])["action"],
                                              "move": state["table"]["move"]}))

    async def first_state(url: str) -> dict[str, Any]:
        async with connect(url) as ws:
            return await until(ws, "state")

    with server_process(tmp_path, port):
        tables = [httpx.post(base + "/api/tables", json={"game": game}).json()
                  for game in ("tressette", "sancagna", "quattrigghiu")]
        urls = [ws_url(base, t["table_id"], t["token"]) for t in tables]
        before = [asyncio.run(play_some(url, moves)) for url, moves in zip(urls, (4, 2, 3), strict=True)]
        # A fourth table is killed while its bots are busy: what it stored is what comes back.
        busy = httpx.post(base + "/api/tables", json={"game": "traversone",
                                                      "players": [{"kind": "bot", "level": "facile"}] * 4}).json()
        seen = 0
        while seen < 3:
            seen = httpx.get(f"{base}/api/tables/{busy['table_id']}").json()["move"]
    with server_process(tmp_path, port):
        after = [asyncio.run(first_state(url)) for url in urls]
        for old, new in zip(before, after, strict=True):
            assert new["table"]["move"] == old["table"]["move"] > 0
            assert new["view"] == old["view"]
            assert new["table"]["deals"] == old["table"]["deals"]  # the same secret deal, the same hash
        resumed = httpx.get(f"{base}/api/tables/{busy['table_id']}").json()
        assert resumed["move"] >= seen and resumed["status"] == "playing"
        # Play goes on to the deal's end, and the deal is the one its published hash announced.
        final = asyncio.run(play_seat(urls[0], rng))
        record = httpx.get(f"{base}/api/tables/{tables[0]['table_id']}/record").json()
        assert final["table"]["deals"][0]["seed_hash"] == before[0]["table"]["deals"][0]["seed_hash"]
        assert all(c.ok for c in verify_record(record))
        # The table the kill caught among its bots plays on.
        while httpx.get(f"{base}/api/tables/{busy['table_id']}").json()["move"] == resumed["move"]:
            time.sleep(0.05)
