"""The server's processor time per move, in-process: a table of four players, each with a page open.

    python benchmarks/server_move_cpu.py --moves 2000 --runs 5
    python benchmarks/server_move_cpu.py --moves 100000 --runs 1 --tables 250

plays whole matches at tables of ``--game`` whose four seats are people (each seat one client, as
a page is, with the lines of one language), every move a random legal action sent as a page
sends it, through :meth:`Table.play`: the engine's move, the store's write (SQLite in a fresh
folder, as ``osteria serve`` keeps it), and the messages every client is sent, with the garbage
collector set as ``osteria serve`` sets it (its collections are part of a move's cost). It reports the
processor time per move (``time.process_time``) of each run and their median; no socket, no
simulated player's work, so the figure is the server's own work per move, which
``server_load.py`` measures from outside (with the sockets' work besides). With ``--tables N``
the moves go to N tables open at once, each move at one drawn at random, as a busy server's
tables interleave: each then finds less of its own in the processor's caches. Give enough moves
that each table plays through several matches (400 a table), or the moves are mostly of first
deals, whose messages are smaller.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from osteria.cli import CommandParser
from osteria.server.app import tune_collector
from osteria.server.scheduler import Scheduler
from osteria.server.store import Store
from osteria.server.tables import Client, Settings, Table


def new_table(store: Store, game: str, spectators: int, patches: bool = True) -> tuple[Table, list[Client]]:
    """A table of ``game`` whose every seat a person took, each with a page open, and
    ``spectators`` watchers' pages; each page asks for patches, as the server's own does, unless
    ``patches`` is false (every state whole)."""
    settings = Settings(stand_in_after=600.0, bot_delay=0.0)
    scheduler = Scheduler(ThreadPoolExecutor(1), 1)  # no bot, no hint: it never starts a thread
    table = Table.create(store, scheduler, settings, game, 4, {}, [("human", None, None)] * 4, "medio")
    for s in table.seats:
        if s.token is None:
            table.join(table.row.invite, None, s.seat)
    clients = [Client(s.seat, ("it",), patches=patches) for s in table.seats] + \
        [Client(None, ("it",), patches=patches) for _ in range(spectators)]
    for client in clients:
        table.connect(client)
    return table, clients


def drain(clients: list[Client]) -> int:
    """What the sockets would send, taken from the clients' queues: its size in characters."""
    sent = 0
    for client in clients:
        sent += sum(len(m) if isinstance(m, str) else 0 for m in client._waiting)
        client._waiting.clear()
        client._ready.clear()
    return sent


async def one_run(store: Store, game: str, moves: int, spectators: int, rng: random.Random,
                  tables: int = 1, patches: bool = True) -> tuple[float, int]:
    """Processor seconds per move over ``moves`` moves, and the characters sent per move; each move
    at one of ``tables`` tables drawn at random, as a server's tables take their turns."""
    open_tables = [new_table(store, game, spectators, patches) for _ in range(tables)]
    for _, clients in open_tables:
        drain(clients)
    spent, sent = 0.0, 0
    for _ in range(moves):
        at = rng.randrange(tables) if tables > 1 else 0  # one table: the same moves as before there were more
        if open_tables[at][0].over:
            open_tables[at] = new_table(store, game, spectators, patches)
            drain(open_tables[at][1])
        table, clients = open_tables[at]
        seat = table.match.decider
        assert seat is not None
        action = rng.choice(table.match.observation(seat)["legal_actions"])
        started = time.process_time()
        table.play(seat, action, move=table.move)
        sent += drain(clients)
        spent += time.process_time() - started
        # The event loop turns between moves, as a server's does between its messages: there it
        # drops the turn clocks a move cancelled, which would otherwise pile up for their ten minutes.
        await asyncio.sleep(0)
    return spent / moves, sent // moves


def main() -> int:
    parser = CommandParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=2000, help="moves per run (2000)")
    parser.add_argument("--runs", type=int, default=5, help="runs, of which the median is reported (5)")
    parser.add_argument("--game", default="tressette", help="the game of every table (tressette)")
    parser.add_argument("--spectators", type=int, default=0, help="watchers' pages at each table (0)")
    parser.add_argument("--tables", type=int, default=1,
                        help="tables open at once, each move at one of them drawn at random (1); many tables "
                             "at once, as a busy server has them, share the processor's caches")
    parser.add_argument("--whole", action="store_true",
                        help="every state sent whole, as to a client that asks for no patches")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if not 1 <= args.moves <= 1_000_000 or not 1 <= args.runs <= 100 or not 0 <= args.spectators <= 100 \
            or not 1 <= args.tables <= 10_000:
        parser.error("--moves from 1 to 1000000, --runs from 1 to 100, --spectators from 0 to 100, "
                     "--tables from 1 to 10000")
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as data:
        store = Store.open(data)
        tune_collector()  # as `osteria serve` runs it
        try:
            results = [asyncio.run(one_run(store, args.game, args.moves, args.spectators, rng, args.tables,
                                         not args.whole))
                       for _ in range(args.runs)]
        finally:
            store.close()
    per_move = [seconds * 1000 for seconds, _ in results]
    print(f"{args.game}, four players and {args.spectators} spectators a table, {args.tables} "
          f"table{'s' if args.tables > 1 else ''} at once, {args.moves} moves a run, "
          f"{'whole states' if args.whole else 'patches'}")
    print("runs: " + ", ".join(f"{ms:.3f}" for ms in per_move) + " ms a move")
    print(f"server processor time: {statistics.median(per_move):.3f} ms a move (median of {args.runs}), "
          f"{results[0][1]} characters sent a move")
    return 0


if __name__ == "__main__":
    sys.exit(main())
