"""The page's session: it trades a seat's token for the join cookie (POST .../session), so that
its WebSocket's address never carries the token."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.typing import Origin

from server_helpers import create, served, until, ws_url

TWO_FRIENDS = [{"kind": "human", "name": "Anna"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]


async def seat_by_cookie(base: str, table_id: str, cookie: str) -> Any:
    """The seat of the first state a WebSocket with no token, only the join cookie, is sent."""
    # The server's own origin, as its page sends it.
    async with websockets.connect(ws_url(base, table_id), origin=Origin(base),
                                  additional_headers={"Cookie": f"osteria_{table_id}={cookie}"}) as ws:
        return (await until(ws, "state"))["seat"]


def test_a_token_is_traded_for_the_join_cookie(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        created = create(base, game="tressette", players=TWO_FRIENDS)
        table_id = created["table_id"]
        answer = httpx.post(f"{base}/api/tables/{table_id}/session", json={"token": created["token"]})
        assert answer.status_code == 200, answer.text
        assert answer.json() == {"seat": 0}
        cookie = answer.cookies[f"osteria_{table_id}"]
        assert cookie == created["token"]
        assert "httponly" in answer.headers["set-cookie"].lower()
        assert "samesite=strict" in answer.headers["set-cookie"].lower()
        assert asyncio.run(seat_by_cookie(base, table_id, cookie)) == 0


def test_a_wrong_token_or_table_sets_no_cookie(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        created = create(base, game="tressette", players=TWO_FRIENDS)
        wrong = httpx.post(f"{base}/api/tables/{created['table_id']}/session", json={"token": "x" * 43})
        assert wrong.status_code == 403 and "set-cookie" not in wrong.headers
        # A friend's seat nobody took yet has no token: the invite is not one.
        invite = httpx.post(f"{base}/api/tables/{created['table_id']}/session", json={"token": created["invite"]})
        assert invite.status_code == 403
        unknown = httpx.post(f"{base}/api/tables/nosuch/session", json={"token": created["token"]})
        assert unknown.status_code == 404 and "set-cookie" not in unknown.headers
