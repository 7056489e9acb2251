"""The server's defences in a browser's world: the security headers on every answer, no API
schema unless asked for, and no seat, hand or change for another site's page."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from websockets.typing import Origin

from osteria.cli import main
from osteria.server.app import create_app, origin
from server_helpers import connect, create, quick_settings, receive, running, served, until, ws_url


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(tmp_path_factory.mktemp("server")) as address:
        yield address


@pytest.mark.parametrize("method,path", [("GET", "/"), ("GET", "/t/abc"), ("GET", "/static/app.js"),
                                         ("GET", "/static/style.css"), ("GET", "/api/games"),
                                         ("GET", "/api/tables/nosuchtable"), ("GET", "/static/nosuchfile"),
                                         ("POST", "/api/tables"), ("GET", "/tournaments/abc"),
                                         ("POST", "/api/tournaments")])
def test_every_answer_carries_the_security_headers(base: str, method: str, path: str) -> None:
    response = httpx.request(method, base + path, json={"game": "nosuchgame"} if method == "POST" else None)
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "'unsafe-inline'" not in policy
    assert "frame-ancestors 'none'" in policy
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"


def test_head_of_the_page_answers_200(base: str) -> None:
    response = httpx.head(base + "/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")


@pytest.mark.parametrize("path", ["/openapi.json", "/docs", "/redoc"])
def test_no_api_schema_or_docs_unless_asked_for(base: str, path: str) -> None:
    assert httpx.get(base + path).status_code == 404


def test_the_api_schema_and_docs_when_asked_for(tmp_path: Path) -> None:
    with running(create_app(tmp_path, settings=quick_settings(), openapi=True)) as address:
        assert "/api/tables" in httpx.get(address + "/openapi.json").json()["paths"]
        assert httpx.get(address + "/docs").status_code == 200
        create(address, game="tressette")


# -- origins -----------------------------------------------------------------------------------------


def other_port(base: str) -> str:
    """The same host on another port: another origin, as another program's page on this machine."""
    host, port = base.rsplit(":", 1)
    return f"{host}:{int(port) + 1}"


def joined_table(base: str) -> tuple[str, str]:
    """A table with a seat taken by invite: its id and the seat's token, also its cookie's value."""
    created = create(base, game="tressette", players=[{"kind": "human"}, {"kind": "human"},
                                                       {"kind": "bot"}, {"kind": "bot"}])
    joined = httpx.post(f"{base}/api/tables/{created['table_id']}/join", json={"invite": created["invite"]})
    assert joined.status_code == 200, joined.text
    return created["table_id"], joined.json()["token"]


async def refusal(url: str, **options: Any) -> tuple[int, str, list[dict[str, Any]]]:
    """The close code and reason of a socket the server refuses, and every message it sent first."""
    heard: list[dict[str, Any]] = []
    async with websockets.connect(url, **options) as ws:
        with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
            while True:
                heard.append(await receive(ws))
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code, closed.value.rcvd.reason, heard


def test_another_origins_page_gets_no_seat_and_no_hand(base: str) -> None:
    table_id, token = joined_table(base)
    cookie = {"Cookie": f"osteria_{table_id}={token}"}
    code, reason, heard = asyncio.run(refusal(ws_url(base, table_id, token), origin=Origin(other_port(base)),
                                              additional_headers=cookie))
    assert (code, heard) == (4403, [])
    assert "origin" in reason and other_port(base) in reason


def test_a_socket_without_an_origin_is_refused(base: str) -> None:
    table_id, token = joined_table(base)
    code, reason, heard = asyncio.run(refusal(ws_url(base, table_id, token)))
    assert (code, heard) == (4403, []) and "Origin" in reason


def test_the_servers_own_origin_gets_its_seat(base: str) -> None:
    table_id, token = joined_table(base)

    async def scenario() -> dict[str, Any]:
        async with connect(ws_url(base, table_id, token)) as ws:
            return await until(ws, "state")

    state = asyncio.run(scenario())
    assert state["seat"] == 1 and state["view"]["hand"]


def test_a_change_from_another_origin_is_refused(base: str) -> None:
    body = {"game": "tressette"}
    refused = httpx.post(base + "/api/tables", json=body, headers={"Origin": other_port(base)})
    assert refused.status_code == 403
    assert "origin" in refused.json()["detail"] and other_port(base) in refused.json()["detail"]
    assert httpx.post(base + "/api/tables", json=body, headers={"Origin": "null"}).status_code == 403
    table_id, token = joined_table(base)
    start = httpx.post(f"{base}/api/tables/{table_id}/start", json={"token": token},
                       headers={"Origin": other_port(base)})
    assert start.status_code == 403
    assert httpx.get(f"{base}/api/tables/{table_id}").json()["status"] == "waiting"
    # The server's own origin, and a program that sends none (no other site can drive it).
    assert httpx.post(base + "/api/tables", json=body, headers={"Origin": base}).status_code == 201
    assert httpx.post(base + "/api/tables", json=body).status_code == 201


def test_an_allowed_origin_is_admitted(tmp_path: Path) -> None:
    proxy = "https://osteria.example"
    with running(create_app(tmp_path, settings=quick_settings(), allowed_origins=[proxy + "/"])) as address:
        assert httpx.post(address + "/api/tables", json={"game": "tressette"},
                          headers={"Origin": "https://OSTERIA.example:443"}).status_code == 201
        assert httpx.post(address + "/api/tables", json={"game": "tressette"},
                          headers={"Origin": "http://osteria.example"}).status_code == 403
        table_id, token = joined_table(address)

        async def scenario() -> dict[str, Any]:
            async with websockets.connect(ws_url(address, table_id, token), origin=Origin(proxy)) as ws:
                return await until(ws, "state")

        assert asyncio.run(scenario())["seat"] == 1


def test_the_join_cookie_is_strict_and_secure_over_https(base: str) -> None:
    created = create(base, game="tressette", players=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"},
                                                       {"kind": "bot"}])
    join = f"{base}/api/tables/{created['table_id']}/join"
    plain = httpx.post(join, json={"invite": created["invite"]}).headers["set-cookie"].lower()
    assert "samesite=strict" in plain and "httponly" in plain and "secure" not in plain
    # Behind a proxy on this machine (uvicorn trusts its X-Forwarded-Proto), reached over HTTPS.
    proxied = httpx.post(join, json={"invite": created["invite"]}, headers={"X-Forwarded-Proto": "https"})
    assert "samesite=strict" in proxied.headers["set-cookie"].lower()
    assert "secure" in proxied.headers["set-cookie"].lower()


def test_origins_compare_by_scheme_host_and_port() -> None:
    assert origin("http://127.0.0.1:8000") == origin("HTTP://127.0.0.1:8000/")
    assert origin("https://example.org") == origin("https://example.org:443") == "https://example.org:443"
    assert origin("http://[::1]:8000") == "http://[::1]:8000"
    assert origin("null") is None and origin("ftp://example.org") is None and origin("http://x:99999") is None


def test_serve_refuses_a_bad_allowed_origin(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--allowed-origin", "osteria.example"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("osteria serve: ") and "--allowed-origin" in err and err.count("\n") == 1
