"""The turn clock and coming back from a stand-in, over real WebSockets: the state tells every
page when a bot will play for the player to move, a ping does not give a seat back, and
"back" (like any action of the player) does."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx

from server_helpers import connect, create, quick_settings, served, until, ws_url

ONE_PLAYER = [{"kind": "human", "name": "Anna"}] + [{"kind": "bot", "level": "facile"}] * 3


async def state_where(ws: Any, holds: Any) -> dict[str, Any]:
    """The next state message for which ``holds(state)``."""
    while True:
        state = await until(ws, "state")
        if holds(state):
            return state


def test_the_state_carries_the_clock_of_the_player_to_move(tmp_path: Path) -> None:
    with served(tmp_path, quick_settings(stand_in_after=30.0)) as base:
        created = create(base, game="tressette", players=ONE_PLAYER)

        async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
            async with connect(ws_url(base, created["table_id"], created["token"])) as ws:
                mine = await state_where(ws, lambda s: s["table"]["status"] == "playing" and s["legal"])
                # A bot's turn runs no clock: the state sent while a bot thinks has none. Anna
                # plays on while the move stays hers (an accuso comes before her card, a trick
                # she takes last gives her the lead).
                theirs = mine
                while theirs["view"]["to_move"] == 0:
                    await ws.send(json.dumps({"type": "play", "action": theirs["legal"][0]["action"]}))
                    theirs = await state_where(ws, lambda s: s["view"]["to_move"] != 0 or bool(s["legal"]))
                return mine, theirs

        mine, theirs = asyncio.run(scenario())
        clock = mine["table"]["clock"]
        assert clock["seat"] == 0 and clock["limit"] == 30.0
        assert 0 < clock["seconds"] <= 30.0
        assert theirs["table"]["clock"] is None
        listed = httpx.get(f"{base}/api/tables/{created['table_id']}").json()
        assert listed["clock"] is None or listed["clock"]["seat"] == 0


def test_a_ping_keeps_the_stand_in_and_back_ends_it(tmp_path: Path) -> None:
    with served(tmp_path, quick_settings(stand_in_after=0.3)) as base:
        created = create(base, game="tressette", players=ONE_PLAYER)
        table_id = created["table_id"]

        def stood_in() -> bool:
            players = httpx.get(f"{base}/api/tables/{table_id}").json()["players"]
            return bool(players[0]["stand_in"])

        async def scenario() -> dict[str, Any]:
            async with connect(ws_url(base, table_id, created["token"])) as ws:
                # Anna leaves her page open and does nothing: the stand-in plays for her.
                await state_where(ws, lambda s: s["table"]["players"][0]["stand_in"])
                await ws.send(json.dumps({"type": "ping"}))
                await until(ws, "pong")
                assert stood_in(), "a ping is the page's, not the player's: the bot plays on"
                await ws.send(json.dumps({"type": "back"}))
                return await state_where(ws, lambda s: not s["table"]["players"][0]["stand_in"])

        back = asyncio.run(scenario())
        assert back["seat"] == 0


def test_a_chat_line_gives_the_seat_back(tmp_path: Path) -> None:
    with served(tmp_path, quick_settings(stand_in_after=0.3)) as base:
        created = create(base, game="tressette", players=ONE_PLAYER)

        async def scenario() -> dict[str, Any]:
            async with connect(ws_url(base, created["table_id"], created["token"])) as ws:
                await state_where(ws, lambda s: s["table"]["players"][0]["stand_in"])
                await ws.send(json.dumps({"type": "chat", "text": "eccomi"}))
                return await state_where(ws, lambda s: not s["table"]["players"][0]["stand_in"])

        assert asyncio.run(scenario())["table"]["players"][0]["name"] == "Anna"
