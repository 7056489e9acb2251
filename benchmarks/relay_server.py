"""The least a WebSocket server on osteria's web stack can do for a move: the reference that
``server_load.py --reference`` measures beside ``osteria serve``.

    python benchmarks/relay_server.py --port 8001 --message-chars 2900

serves, with the same stack and settings as ``osteria serve`` (Starlette's WebSocket on uvicorn,
its default WebSocket implementation and event loop, permessage-deflate on), tables of four
sockets at ``/ws/{table}``: when the socket whose turn it is sends ``{"move": m}``, every socket of
its table is sent one message of ``--message-chars`` characters saying the next move, ``m + 1``
(move ``n`` is seat ``n % 4``'s; the first, 0, is said once the four sockets are in), through a
queue and a writer task per socket as osteria's are. No game, no store, no view: what is left is
the sockets' own work, a floor under any server built on this stack.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from contextlib import suppress

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from osteria.cli import CommandParser


def relay_app(message_chars: int) -> Starlette:
    tables: dict[str, list[asyncio.Queue[str]]] = {}
    # Padded to the size of osteria's state messages, the move's number filled in for each move.
    padding = "x" * max(0, message_chars - len('{"move": 0000, "pad": ""}'))

    async def relay(websocket: WebSocket) -> None:
        await websocket.accept()
        table = tables.setdefault(websocket.path_params["table"], [])
        queue: asyncio.Queue[str] = asyncio.Queue()
        table.append(queue)
        if len(table) == 4:  # all seated: the first move is seat 0's
            for seat in table:
                seat.put_nowait(json.dumps({"move": 0, "pad": padding}))

        async def write() -> None:
            while True:
                await websocket.send_text(await queue.get())

        writer = asyncio.create_task(write())
        with suppress(WebSocketDisconnect):
            while True:
                move = json.loads(await websocket.receive_text())["move"]
                message = json.dumps({"move": move + 1, "pad": padding})
                for seat in table:
                    seat.put_nowait(message)
        writer.cancel()
        table.remove(queue)

    async def games(request: Request) -> JSONResponse:  # answered once the server is up
        return JSONResponse([])

    return Starlette(routes=[WebSocketRoute("/ws/{table}", relay), Route("/api/games", games)])


def main() -> int:
    parser = CommandParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--message-chars", type=int, default=2900, help="characters of each message (2900)")
    args = parser.parse_args()
    uvicorn.run(relay_app(args.message_chars), host="127.0.0.1", port=args.port, log_level="warning")
    return 0


if __name__ == "__main__":
    sys.exit(main())
