"""Load on one server process: simulated players over WebSockets, four to a table.

    python benchmarks/server_load.py --players 1000 --seconds 60

starts ``osteria serve`` on a free loopback port with a fresh database, opens the tables (every
seat a simulated player, so the server's work is the players' own moves), connects the players,
and lets each answer its turns after a think time. It stops by itself after ``--seconds`` of play
and reports the players held to the end, the moves, the round trip of a move (sent to the state
announcing it, on the player's own socket) at p50/p99, and the errors. The goal: 1,000 players
(250 tables) with p99 under 50 ms and no error.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import resource
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets
from websockets.typing import Origin

from osteria_server import osteria_serve


@dataclass
class Tally:
    round_trips: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    held: int = 0


async def player(url: str, think: float, until: float, rng: random.Random, tally: Tally) -> None:
    try:
        # As the server's own page connects: with its origin, which the server asks of every socket.
        origin = Origin("http" + url.removeprefix("ws").split("/ws/", 1)[0])
        async with websockets.connect(url, open_timeout=60, max_queue=None, origin=origin) as ws:
            sent_at: dict[int, float] = {}
            acted = -1
            while time.monotonic() < until:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, until - time.monotonic()))
                except TimeoutError:
                    break
                message: dict[str, Any] = json.loads(raw)
                if message["type"] == "error":
                    tally.errors.append(message["message"])
                if message["type"] != "state":
                    continue
                last = message.get("last")
                if last is not None and last["move"] in sent_at:
                    tally.round_trips.append(time.monotonic() - sent_at.pop(last["move"]))
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


def open_tables(base: str, players: int, game: str) -> list[str]:
    """Tables of four simulated players: the WebSocket address of every seat."""
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
                     for _, token in sorted(tokens.items())]
    return urls


def play_part(urls: list[str], seconds: float, think: float, seed: int) -> Tally:
    """Some of the players, in this process, for ``seconds``."""
    tally = Tally()
    rng = random.Random(seed)

    async def everyone() -> None:
        until = time.monotonic() + seconds
        await asyncio.gather(*(player(url, think, until, random.Random(rng.random()), tally) for url in urls))

    asyncio.run(everyone())
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=1000, help="simulated players, four to a table (1000)")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds of play (60)")
    parser.add_argument("--think", type=float, default=1.0, help="a player's mean think time in seconds (1)")
    parser.add_argument("--game", default="tressette", help="the game of every table (tressette)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--client-processes", type=int, default=1,
                        help="processes the simulated players run in, so that they do not starve the server (1)")
    args = parser.parse_args()
    if not 4 <= args.players <= 20_000 or not 0 < args.seconds <= 3600 or not 1 <= args.client_processes <= 64:
        parser.error("--players from 4 to 20000, --seconds up to 3600, --client-processes from 1 to 64")
    # Every simulated player comes from this one loopback address.
    with osteria_serve("--sockets-per-address", str(args.players + 10)) as base:
        urls = open_tables(base, args.players, args.game)
        started = time.monotonic()
        parts = [urls[i::args.client_processes] for i in range(args.client_processes)]
        with multiprocessing.Pool(args.client_processes) as pool:
            tallies = pool.starmap(play_part, [(part, args.seconds, args.think, args.seed * 1000 + i)
                                               for i, part in enumerate(parts)])
        elapsed = time.monotonic() - started
        tally = Tally([t for part in tallies for t in part.round_trips],
                      [e for part in tallies for e in part.errors], sum(part.held for part in tallies))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # The server is the only child reaped since: its processor time, tables' opening included.
    server_cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    trips = sorted(tally.round_trips)
    wanted = args.players // 4 * 4
    print(f"{wanted} players at {wanted // 4} tables of {args.game}, think {args.think} s, {elapsed:.0f} s in all")
    print(f"players held to the end: {tally.held}/{wanted}")
    if trips:
        p50 = statistics.median(trips) * 1000
        p99 = trips[min(len(trips) - 1, int(len(trips) * 0.99))] * 1000
        print(f"moves: {len(trips)} ({len(trips) / args.seconds:.0f} a second); round trip p50 {p50:.1f} ms, "
              f"p99 {p99:.1f} ms, max {trips[-1] * 1000:.1f} ms")
    print(f"server processor time: {server_cpu:.1f} s ({server_cpu / max(1, len(trips)) * 1000:.2f} ms a move, "
          f"{server_cpu / elapsed:.0%} of one core)")
    print(f"errors: {len(tally.errors)}" + (f" (first: {tally.errors[0]})" if tally.errors else ""))
    return 0 if not tally.errors and tally.held == wanted else 1


if __name__ == "__main__":
    sys.exit(main())
