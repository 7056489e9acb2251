"""``osteria serve`` started for a benchmark: a free loopback port, a fresh data folder, bots
that move at once; stopped when the benchmark is done."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass(frozen=True)
class Served:
    """A server started for a benchmark: its address and its process."""

    base: str
    pid: int

    def processor_seconds(self) -> float:
        """The server's processor time so far."""
        return processor_seconds(self.pid)


def processor_seconds(pid: int) -> float:
    """The processor time (user and system, in seconds) so far of process ``pid`` of this
    machine, read from /proc; OSError when there is none."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def osteria_serve(*options: str) -> Iterator[Served]:
    """A server of its own, with ``options`` of ``osteria serve`` besides, once it answers."""
    port = free_port()
    with tempfile.TemporaryDirectory() as data, serving([sys.executable, "-m", "osteria.cli", "serve", "--port",
                                                         str(port), "--data", data, "--bot-delay", "0", *options],
                                                        port) as served:
        yield served


@contextmanager
def serving(command: list[str], port: int) -> Iterator[Served]:
    """The server that ``command`` starts on the loopback ``port``, once it answers HTTP;
    killed afterwards."""
    server = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                httpx.get(base + "/api/games", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        yield Served(base, server.pid)
    finally:
        server.kill()
        server.wait()
