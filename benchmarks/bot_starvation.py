"""A person's wait at his table while bot-only tables play on the same server.

    python benchmarks/bot_starvation.py --tables 20 --turns 20

starts ``osteria serve`` on a free loopback port with a fresh database and no bot delay, and
seats one simulated person at a table with three maestro bots. His wait is the wall time from
his card sent to the state that gives him his next turn, as his own WebSocket receives it: the
three bots' moves between, and whatever keeps them waiting. It is measured over ``--turns`` of
his turns first with no other table, then at a fresh table of his while ``--tables`` tables of
four maestro bots play (nobody watching them). It prints the median and p90 of both waits and
their ratio. The goal: the ratio at most 3, so that bot-only tables cannot starve a person.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from typing import Any

import httpx
import websockets
from websockets.typing import Origin

from osteria.cli import CommandParser
from osteria_server import osteria_serve

GOAL = 3.0  # the most the loaded median wait may be, in times the quiet one


def open_table(http: httpx.Client, game: str, players: list[dict[str, str]]) -> dict[str, Any]:
    response = http.post("/api/tables", json={"game": game, "players": players})
    response.raise_for_status()
    table: dict[str, Any] = response.json()
    return table


async def person(base: str, table: dict[str, Any], turns: int, rng: random.Random) -> list[float]:
    """Play the person's seat for ``turns`` of his turns (random legal cards, at once); his waits."""
    url = f"{base.replace('http://', 'ws://')}/ws/{table['table_id']}?token={table['token']}"
    waits: list[float] = []
    async with websockets.connect(url, origin=Origin(base), open_timeout=60, max_queue=None) as ws:
        acted, sent = -1, 0.0
        while len(waits) < turns:
            message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout=600))
            if message["type"] == "error":
                raise RuntimeError(message["message"])
            if message["type"] != "state":
                continue
            state = message["table"]
            if state["status"] == "finished":
                break
            if not message["legal"] or state["move"] == acted:
                continue
            if acted >= 0:
                waits.append(time.monotonic() - sent)
            acted = state["move"]
            sent = time.monotonic()
            await ws.send(json.dumps({"type": "play", "action": rng.choice(message["legal"])["action"],
                                      "move": acted}))
    return waits


def summary(waits: list[float]) -> tuple[float, float]:
    ordered = sorted(waits)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]


def main() -> int:
    parser = CommandParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=20, help="bot-only tables of four maestro bots (20)")
    parser.add_argument("--turns", type=int, default=20, help="the person's turns measured each time (20)")
    parser.add_argument("--game", default="tressette", help="the game of every table (tressette)")
    parser.add_argument("--seed", type=int, default=0, help="the person's choices")
    args = parser.parse_args()
    if not 0 <= args.tables <= 200 or not 1 <= args.turns <= 1000:
        parser.error("--tables from 0 to 200, --turns from 1 to 1000")
    mixed = [{"kind": "human"}] + [{"kind": "bot", "level": "maestro"}] * 3
    with osteria_serve() as served, httpx.Client(base_url=served.base, timeout=60) as http:
        base = served.base
        quiet = asyncio.run(person(base, open_table(http, args.game, mixed), args.turns, random.Random(args.seed)))
        for _ in range(args.tables):
            open_table(http, args.game, [{"kind": "bot", "level": "maestro"}] * 4)
        time.sleep(2.0)  # every bot-only table is thinking by now
        loaded = asyncio.run(person(base, open_table(http, args.game, mixed), args.turns, random.Random(args.seed)))
    (quiet_median, quiet_p90), (loaded_median, loaded_p90) = summary(quiet), summary(loaded)
    ratio = loaded_median / quiet_median
    print(f"{args.game}, a person and three maestro bots; his wait from his card to his next turn, "
          f"over {len(quiet)} and {len(loaded)} of his turns (wall time)")
    print(f"alone:                   median {quiet_median:.2f} s, p90 {quiet_p90:.2f} s")
    print(f"with {args.tables} bot-only tables:  median {loaded_median:.2f} s, p90 {loaded_p90:.2f} s")
    print(f"ratio: median {ratio:.2f}, p90 {loaded_p90 / quiet_p90:.2f} (goal: median at most {GOAL:g})")
    return 0 if ratio <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
