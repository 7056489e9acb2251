"""``osteria serve`` started for a benchmark: a free loopback port, a fresh data folder, bots
that move at once; stopped when the benchmark is done."""

from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def osteria_serve(*options: str) -> Iterator[str]:
    """A server of its own, with ``options`` of ``osteria serve`` besides; its address, once it
    answers."""
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen([sys.executable, "-m", "osteria.cli", "serve", "--port", str(port),
                                   "--data", data, "--bot-delay", "0", *options], stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(300):
                try:
                    httpx.get(base + "/api/games", timeout=1)
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            yield base
        finally:
            server.kill()
            server.wait()
