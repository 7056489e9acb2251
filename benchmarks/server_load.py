"""Load on the server: simulated players over WebSockets, four to a table.

    python benchmarks/server_load.py --players 1000 --seconds 60
    python benchmarks/server_load.py --players 400 --seconds 30 --servers 2 \
        --database postgresql://osteria:osteria@127.0.0.1:5432/osteria_test

starts ``osteria serve`` on a free loopback port with a fresh database (with ``--servers N``, N
processes sharing a fresh schema of the PostgreSQL database ``--database``, each table opened at
one of them in turn and its players sent there, as a proxy sends a table's requests to the process
that serves it), opens the tables (every
seat a simulated player, so the server's work is the players' own moves), connects the players,
and lets each answer its turns after a think time. It stops by itself after ``--seconds`` of play
and reports the players held to the end, the moves, the round trip of a move (sent to the state
announcing it, on the player's own socket) at p50/p99, the errors, and the servers' processor
time per move: over the whole run (start-up, the tables' opening and the sockets' handshakes
included) and in steady play alone (from ten seconds in to two before the end, every player long
connected). The goal: 1,000 players (250 tables) with p99 under 50 ms and no error.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import resource
import secrets
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.typing import Origin

from osteria.cli import CommandParser
from osteria.server.tables import patched
from osteria_server import Served, free_port, osteria_serve, processor_seconds, serving


@dataclass
class Tally:
    round_trips: list[float] = field(default_factory=list)
    answered: list[float] = field(default_factory=list)  # when each round trip ended (monotonic; then from the start)
    errors: list[str] = field(default_factory=list)
    held: int = 0
    states: int = 0  # the state messages received (whole or as patches), and their characters
    state_chars: int = 0


async def player(url: str, think: float, until: float, rng: random.Random, tally: Tally) -> None:
    try:
        # As the server's own page connects: with its origin, which the server asks of every socket.
        origin = Origin("http" + url.removeprefix("ws").split("/ws/", 1)[0])
        async with websockets.connect(url, open_timeout=60, max_queue=None, origin=origin) as ws:
            sent_at: dict[int, float] = {}
            acted = -1
            state: dict[str, Any] | None = None  # the last state, whole: a patch applies to it
            while time.monotonic() < until:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, until - time.monotonic()))
                except TimeoutError:
                    break
                message: dict[str, Any] = json.loads(raw)
                if message["type"] == "error":
                    tally.errors.append(message["message"])
                if message["type"] == "patch" and state is not None:
                    message = patched(state, message)
                if message["type"] != "state":
                    continue
                state = message
                tally.states += 1
                tally.state_chars += len(raw)
                last = message.get("last")
                if last is not None and last["move"] in sent_at:
                    now = time.monotonic()
                    tally.round_trips.append(now - sent_at.pop(last["move"]))
                    tally.answered.append(now)
                table = message["table"]
                if table["status"] == "finished" or not message["legal"] or table["move"] == acted:
                    continue
                acted = table["move"]
                await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                choice = rng.choice(message["legal"])["action"]
                sent_at[acted + 1] = time.monotonic()
                await ws.send(json.dumps({"type": "play", "action": choice, "move": acted}))
            tally.held += 1
    except (OSError, websockets.exceptions.WebSocketException, TimeoutError) as exc:
        tally.errors.append(f"{type(exc).__name__}: {exc}")


async def relay_player(url: str, seat: int, think: float, until: float, rng: random.Random, tally: Tally) -> None:
    """A player at the reference relay (``relay_server.py``): he answers each move that is his
    after his think time, as :func:`player` does at osteria's tables."""
    try:
        async with websockets.connect(url, open_timeout=60, max_queue=None) as ws:
            sent_at: dict[int, float] = {}
            while time.monotonic() < until:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, until - time.monotonic()))
                except TimeoutError:
                    break
                move = json.loads(raw)["move"]
                if move in sent_at:
                    now = time.monotonic()
                    tally.round_trips.append(now - sent_at.pop(move))
                    tally.answered.append(now)
                if move % 4 == seat:
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                    sent_at[move + 1] = time.monotonic()
                    await ws.send(json.dumps({"move": move}))
            tally.held += 1
    except (OSError, websockets.exceptions.WebSocketException, TimeoutError) as exc:
        tally.errors.append(f"{type(exc).__name__}: {exc}")


def open_tables(base: str, players: int, game: str, patches: bool = True) -> list[str]:
    """Tables of four simulated players: the WebSocket address of every seat, asking for patches
    as the page does unless ``patches`` is false."""
    urls = []
    with httpx.Client(base_url=base, timeout=60) as http:
        for _ in range(players // 4):
            response = http.post("/api/tables", json={"game": game, "players": [{"kind": "human"}] * 4})
            response.raise_for_status()
            table = response.json()
            # The creator's token comes with the table; each other player takes his seat by the invite.
            tokens = {table["seat"]: table["token"]}
            for seat in table["seats"]:
                if seat["seat"] not in tokens:
                    joined = http.post(f"/api/tables/{table['table_id']}/join",
                                       json={"invite": table["invite"], "seat": seat["seat"]})
                    joined.raise_for_status()
                    tokens[seat["seat"]] = joined.json()["token"]
            # With its language, as the page connects: its states carry the lines of that one.
            urls += [f"{base.replace('http://', 'ws://')}/ws/{table['table_id']}?token={token}&lang=it"
                     f"{'&patches=1' if patches else ''}" for _, token in sorted(tokens.items())]
    return urls


@contextmanager
def fresh_schema(database: str) -> Iterator[str]:
    """The URL of a schema of its own in the PostgreSQL ``database``, dropped afterwards."""
    import psycopg

    schema = f"osteria_load_{secrets.token_hex(4)}"
    with psycopg.connect(database, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        # Named after the schema too, so that its connections are told from any other's.
        yield f"{database}{'&' if '?' in database else '?'}options=-csearch_path%3D{schema}&application_name={schema}"
    finally:
        with psycopg.connect(database, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def database_cpu(url: str) -> float:
    """The processor time (s) so far of the PostgreSQL processes that serve the connections made
    with ``url`` (its application name), read from /proc: for a database on this machine only,
    0 for one elsewhere."""
    import psycopg

    with psycopg.connect(url) as conn:
        pids = [r[0] for r in conn.execute("SELECT pid FROM pg_stat_activity WHERE application_name = "
                                           "current_setting('application_name') AND pid <> pg_backend_pid()")]
    used = 0.0
    for pid in pids:
        try:
            used += processor_seconds(pid)
        except OSError:
            continue  # on another machine, or gone
    return used


def sample_at(instants: tuple[float, float], served: list[Served], into: list[float]) -> None:
    """The servers' processor time, summed, at each of the two monotonic ``instants``."""
    for instant in instants:
        time.sleep(max(0.0, instant - time.monotonic()))
        into.append(sum(s.processor_seconds() for s in served))


def play_part(urls: list[str], seconds: float, think: float, seed: int, relay: bool) -> Tally:
    """Some of the players, in this process, for ``seconds`` (``relay``: at the reference relay,
    where each address ends in ``seat=`` and its seat)."""
    tally = Tally()
    rng = random.Random(seed)

    async def everyone() -> None:
        until = time.monotonic() + seconds
        await asyncio.gather(*(relay_player(url, int(url.rsplit("=", 1)[1]), think, until, random.Random(rng.random()),
                                            tally) if relay else
                               player(url, think, until, random.Random(rng.random()), tally) for url in urls))

    asyncio.run(everyone())
    return tally


@dataclass
class Played:
    """A run of the players: what they measured, its length, and the servers' processor time at
    the two ends of its steady part (its window, in seconds from the start)."""

    tally: Tally
    elapsed: float
    window: tuple[float, float]
    cpu: list[float]

    def moves_in_window(self) -> int:
        return sum(1 for t in self.tally.answered if self.window[0] <= t < self.window[1])

    def per_move(self) -> float:
        """The servers' processor seconds a move in steady play (0: not measured)."""
        return (self.cpu[1] - self.cpu[0]) / max(1, self.moves_in_window()) if len(self.cpu) == 2 else 0.0

    def steady(self) -> str:
        if len(self.cpu) != 2:
            return "not measured: the run ended first"
        return (f"({self.window[0]:.0f} s to {self.window[1]:.0f} s in): {self.moves_in_window()} moves, "
                f"server processor time {self.cpu[1] - self.cpu[0]:.1f} s ({self.per_move() * 1000:.2f} ms a move)")


def play(urls: list[str], served: list[Served], args: argparse.Namespace, relay: bool) -> Played:
    """The players of ``urls`` for ``--seconds``, and the processor time of the servers ``served``
    in steady play: from when every player has long been connected (a socket's opening and its
    first state are not a move's work) to near the end."""
    started = time.monotonic()
    window = (started + min(10.0, args.seconds / 4), started + args.seconds - min(2.0, args.seconds / 10))
    cpu: list[float] = []
    steady = threading.Thread(target=sample_at, args=(window, served, cpu), daemon=True)
    steady.start()
    parts = [urls[i::args.client_processes] for i in range(args.client_processes)]
    with multiprocessing.Pool(args.client_processes) as pool:
        tallies = pool.starmap(play_part, [(part, args.seconds, args.think, args.seed * 1000 + i, relay)
                                           for i, part in enumerate(parts)])
    elapsed = time.monotonic() - started
    steady.join()
    tally = Tally([t for part in tallies for t in part.round_trips], [t for part in tallies for t in part.answered],
                  [e for part in tallies for e in part.errors], sum(part.held for part in tallies),
                  sum(part.states for part in tallies), sum(part.state_chars for part in tallies))
    # Answered times as seconds from the start, as the window is.
    tally.answered = [t - started for t in tally.answered]
    return Played(tally, elapsed, (window[0] - started, window[1] - started), cpu)


def main() -> int:
    parser = CommandParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=1000, help="simulated players, four to a table (1000)")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds of play (60)")
    parser.add_argument("--think", type=float, default=1.0, help="a player's mean think time in seconds (1)")
    parser.add_argument("--game", default="tressette", help="the game of every table (tressette)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--client-processes", type=int, default=1,
                        help="processes the simulated players run in, so that they do not starve the server (1)")
    parser.add_argument("--servers", type=int, default=1,
                        help="server processes sharing the PostgreSQL database of --database (1)")
    parser.add_argument("--database", help="a PostgreSQL database (URL) in which the servers share a fresh "
                                           "schema; without it, one server in SQLite")
    parser.add_argument("--whole", action="store_true",
                        help="the players ask for no patches: every state comes whole")
    parser.add_argument("--reference", action="store_true",
                        help="then the same players at a bare relay on the same web stack (relay_server.py), "
                             "for the ratio of the processor time a move in steady play")
    args = parser.parse_args()
    if not 4 <= args.players <= 20_000 or not 0 < args.seconds <= 3600 or not 1 <= args.client_processes <= 64:
        parser.error("--players from 4 to 20000, --seconds up to 3600, --client-processes from 1 to 64")
    if not 1 <= args.servers <= 16 or (args.servers > 1 and not args.database):
        parser.error("--servers from 1 to 16; more than one share a PostgreSQL database: give --database")
    with ExitStack() as servers:
        database = None if args.database is None else servers.enter_context(fresh_schema(args.database))
        shared = () if database is None else ("--database", database)
        # Every simulated player comes from this one loopback address.
        served = [servers.enter_context(osteria_serve("--sockets-per-address", str(args.players + 10), *shared))
                  for _ in range(args.servers)]
        # Each table at one server in turn, its players at the server that made it, which serves it.
        tables = args.players // 4
        urls = [url for i, s in enumerate(served)
                for url in open_tables(s.base, 4 * len(range(i, tables, len(served))), args.game, not args.whole)]
        database_before = None if database is None else database_cpu(database)
        run = play(urls, served, args, relay=False)
        database_used = None if database is None or database_before is None \
            else database_cpu(database) - database_before
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # The servers are the only children reaped since: their processor time, tables' opening included.
    server_cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    tally = run.tally
    trips = sorted(tally.round_trips)
    wanted = args.players // 4 * 4
    print(f"{wanted} players at {wanted // 4} tables of {args.game}, think {args.think} s, {run.elapsed:.0f} s in all, "
          f"{args.servers} server process{'es' if args.servers > 1 else ''} "
          f"({'PostgreSQL' if args.database else 'SQLite'})")
    print(f"players held to the end: {tally.held}/{wanted}")
    if trips:
        p50 = statistics.median(trips) * 1000
        p99 = trips[min(len(trips) - 1, int(len(trips) * 0.99))] * 1000
        print(f"moves: {len(trips)} ({len(trips) / args.seconds:.0f} a second); round trip p50 {p50:.1f} ms, "
              f"p99 {p99:.1f} ms, max {trips[-1] * 1000:.1f} ms")
    print(f"server processor time: {server_cpu:.1f} s ({server_cpu / max(1, len(trips)) * 1000:.2f} ms a move, "
          f"{server_cpu / run.elapsed:.0%} of one core)")
    print(f"in steady play {run.steady()}")
    if database_used is not None:
        print(f"PostgreSQL's processor time for the servers' connections: {database_used:.1f} s "
              f"({database_used / max(1, len(trips)) * 1000:.2f} ms a move)")
    if args.reference:
        # As long as osteria's state messages were, on average.
        chars = tally.state_chars // max(1, tally.states)
        port = free_port()
        with serving([sys.executable, str(Path(__file__).with_name("relay_server.py")), "--port", str(port),
                      "--message-chars", str(chars)], port) as relay:
            relay_urls = [f"{relay.base.replace('http://', 'ws://')}/ws/{i // 4}?seat={i % 4}" for i in range(wanted)]
            reference = play(relay_urls, [relay], args, relay=True)
        print(f"the reference relay ({chars} characters a message), in steady play {reference.steady()}")
        if reference.per_move() > 0:
            print(f"osteria's server against the relay, in steady play: {run.per_move() / reference.per_move():.2f}x "
                  f"the processor time a move")
        tally.errors += [f"relay: {e}" for e in reference.tally.errors]
    print(f"errors: {len(tally.errors)}" + (f" (first: {tally.errors[0]})" if tally.errors else ""))
    return 0 if not tally.errors and tally.held == wanted else 1


if __name__ == "__main__":
    sys.exit(main())
