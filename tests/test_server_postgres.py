"""The server on PostgreSQL: the same schema as SQLite, tables stored and resumed alike (a seat left, a rematch too).

The database is ``OSTERIA_TEST_POSTGRES`` (default: the one .ci/postgres.sh prepares); where none
answers, a private server is started from the installed PostgreSQL binaries; the test is skipped,
saying why, only where neither is possible."""

from __future__ import annotations

import asyncio
import glob
import json
import os
import random
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from osteria.server.store import SCHEMA, Store
from server_helpers import connect, play_seat, served, until, ws_url
from test_server_rematch import finish, message_of, two_friends

psycopg = pytest.importorskip("psycopg")

DEFAULT_URL = "postgresql://osteria:osteria@127.0.0.1:5432/osteria_test"


def _answers(url: str) -> bool:
    try:
        psycopg.connect(url, connect_timeout=3).close()
        return True
    except psycopg.Error:
        return False


def _private_server() -> Iterator[str]:
    """A throwaway PostgreSQL server on a free loopback port, run by the postgres user when the
    tests run as root (PostgreSQL refuses root)."""
    binaries = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb")) or [shutil.which("initdb") or ""]
    initdb = binaries[-1]
    if not initdb:
        pytest.skip(f"no PostgreSQL server answers at {os.environ.get('OSTERIA_TEST_POSTGRES', DEFAULT_URL)} "
                    "and no PostgreSQL is installed to start one (.ci/postgres.sh installs it)")
    as_user: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("runuser") is None or subprocess.run(["id", "postgres"], capture_output=True).returncode:
            pytest.skip("running as root without a postgres user: PostgreSQL cannot be started here")
        as_user = ["runuser", "-u", "postgres", "--"]
    folder = Path(tempfile.mkdtemp(prefix="osteria-pg-"))
    if as_user:
        shutil.chown(folder, "postgres")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    bindir = Path(initdb).parent
    data = folder / "data"
    try:
        subprocess.run([*as_user, initdb, "-D", str(data), "-U", "osteria", "--auth=trust"], check=True,
                       capture_output=True)
        subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-w", "-l", str(folder / "log"),
                        "-o", f"-p {port} -k {folder} -c listen_addresses=127.0.0.1", "start"],
                       check=True, capture_output=True)
    except (subprocess.CalledProcessError, OSError) as exc:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip(f"PostgreSQL could not be started here: {exc}")
    try:
        yield f"postgresql://osteria@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    with postgres_schema() as url:
        yield url


@contextmanager
def postgres_schema() -> Iterator[str]:
    """A URL of a schema of its own in a PostgreSQL database, dropped afterwards; the test is
    skipped, saying why, where there is no PostgreSQL."""
    url = os.environ.get("OSTERIA_TEST_POSTGRES", DEFAULT_URL)
    servers = iter([url]) if _answers(url) else _private_server()
    server = next(servers)
    schema = f"osteria_test_{secrets.token_hex(4)}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        joiner = "&" if "?" in server else "?"
        yield f"{server}{joiner}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
        next(servers, None)


def test_postgres_holds_the_schema_of_sqlite(postgres: str, tmp_path: Path) -> None:
    Store.open(database=postgres).close()
    Store.open(tmp_path).close()
    with psycopg.connect(postgres) as conn:
        pg = {(table, column) for table, column in conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()")}
    import sqlite3

    with sqlite3.connect(tmp_path / "osteria.sqlite3") as conn:
        lite = {(table, row[1]) for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                for row in conn.execute(f"PRAGMA table_info({table})")}
    assert pg == lite and len({t for t, _ in pg}) == len(SCHEMA)


def test_the_store_does_not_wait_for_the_disk_at_each_commit(postgres: str) -> None:
    # A synced commit holds every table of the process while the disk syncs; a killed server
    # process loses nothing without it, as with SQLite's synchronous=NORMAL.
    store = Store.open(database=postgres)
    try:
        store.open_listed()  # a transaction, committed: the setting is the session's, not its
        assert store._conn.execute("SHOW synchronous_commit").fetchone() == ("off",)
    finally:
        store.close()


def test_a_table_on_postgres_is_played_and_resumed(postgres: str, tmp_path: Path) -> None:
    with served(tmp_path, database=postgres) as base:
        created = httpx.post(base + "/api/tables", json={"game": "sancagna"}).json()
        url = ws_url(base, created["table_id"], created["token"])
        played = asyncio.run(play_seat(url, random.Random(4)))
        record = httpx.get(f"{base}/api/tables/{created['table_id']}/record").json()
        assert len(record["deals"]) == 1
        last = None
        # The bots play on to the player's next turn; his clock alone then changes.
        while (now := httpx.get(f"{base}/api/tables/{created['table_id']}").json() | {"clock": None}) != last:
            last = now
            time.sleep(0.2)
    with served(tmp_path, database=postgres) as base:
        state = httpx.get(f"{base}/api/tables/{created['table_id']}").json()
        assert state["move"] == last["move"] > played["table"]["move"] - 1
        assert state["deals"] == last["deals"] and state["deals"][0] == played["table"]["deals"][0]
        assert httpx.get(f"{base}/api/tables/{created['table_id']}/record").json() == record


def test_a_seat_left_and_a_rematch_on_postgres_outlive_a_restart(postgres: str, tmp_path: Path) -> None:
    with served(tmp_path, database=postgres) as base:
        created, bruno = two_friends(base)
        old, anna = created["table_id"], created["token"]
        finish(base, old, [anna, bruno])
        assert httpx.post(f"{base}/api/tables/{old}/leave", json={"token": bruno}).status_code == 200

        async def ask() -> dict[str, Any]:
            async with connect(ws_url(base, old, anna)) as ws:
                await ws.send(json.dumps({"type": "rematch"}))
                return await until(ws, "rematch")

        moved = asyncio.run(ask())
    with served(tmp_path, database=postgres) as base:
        assert not httpx.get(f"{base}/api/tables/{old}").json()["players"][1]["taken"]
        assert asyncio.run(message_of(base, old, anna, "rematch")) == moved
        rematch = httpx.get(f"{base}/api/tables/{moved['table_id']}").json()
        assert [p["taken"] for p in rematch["players"]] == [True, False, True]  # Bruno's seat is free there
