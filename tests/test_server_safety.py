"""The server's defences in a browser's world: the security headers on every answer, no API
schema unless asked for, and (see below) the origin check and the fair-deal commitment."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from osteria.server.app import create_app
from server_helpers import create, quick_settings, running, served


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(tmp_path_factory.mktemp("server")) as address:
        yield address


@pytest.mark.parametrize("method,path", [("GET", "/"), ("GET", "/t/abc"), ("GET", "/static/app.js"),
                                         ("GET", "/static/style.css"), ("GET", "/api/games"),
                                         ("GET", "/api/tables/nosuchtable"), ("GET", "/static/nosuchfile"),
                                         ("POST", "/api/tables")])
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
