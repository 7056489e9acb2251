"""The web application: HTTP endpoints, the WebSocket of the live table, the browser's files.

The protocol is docs/online.md. Every field a client sends is checked here (pydantic models, size
and rate limits) before a table sees it; a refused message gets an ``error`` message, and only
the client that sent it hears of it.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import sys
import time
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from fastapi import FastAPI, HTTPException, Request, Response, WebSocket, WebSocketDisconnect
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator
from starlette.datastructures import Headers
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.types import Message as ASGIMessage

from osteria.bots.levels import LEVELS
from osteria.cards import RANKS, SUITS
from osteria.engine import Game
from osteria.i18n import meaning, message
from osteria.records import RecordError
from osteria.rules import GAMES
from osteria.server import club, fair, lobby, replays
from osteria.server.scheduler import Scheduler
from osteria.server.store import RELEASE_CHANNEL, SEAT_CHANNEL, TOURNAMENT_CHANNEL, RatingRow, Store
from osteria.server.tables import (
    LANGUAGES,
    Client,
    Message,
    Settings,
    Table,
    TableError,
    Tables,
    encode,
    log,
    seat_link,
)
from osteria.server.tournament import MOST_BOARDS, MOST_TABLES, Tournament, Tournaments

STATIC = Path(__file__).parent / "static"
MAX_MESSAGE_BYTES = 4096
MAX_BODY_BYTES = {"/api/verify": 4 * 1024 * 1024}  # a record of a long match is large
MAX_OTHER_BODY_BYTES = 16 * 1024
CHAT_LENGTH = 280
# Analyses asked over HTTP by one address: a minute's worth, after a first burst. Each takes
# seconds of a core; over a socket they are bounded by the socket's own message budget.
ANALYSES_PER_MINUTE, ANALYSES_BURST = 10.0, 5
REPLAYS_KEPT = 32  # replays kept drawn, the last asked for
# The page runs only its own files: no inline script or style, no other site's, never in a frame.
CONTENT_SECURITY_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                           "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; "
                           "frame-ancestors 'none'")
SECURITY_HEADERS = [(b"content-security-policy", CONTENT_SECURITY_POLICY.encode()), (b"x-frame-options", b"DENY"),
                    (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer")]


def _plain_name(name: str | None) -> str | None:
    if name is None:
        return None
    name = " ".join(name.split())
    if any(not ch.isprintable() for ch in name):
        raise ValueError("a name holds printable characters only")
    return name or None


def _language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"{lang!r} is not a language of the table: one of {', '.join(LANGUAGES)}")
    return lang


def _plain_text(text: str) -> str:
    """A chat line: printable characters and spaces only (no control or direction marks)."""
    if any(not ch.isprintable() for ch in text):
        raise ValueError("a chat line holds printable characters only")
    return text


Name = Annotated[str | None, Field(default=None, max_length=32)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class PlayerSpec(Strict):
    kind: Literal["human", "bot"]
    level: Literal["facile", "medio", "difficile", "maestro"] = "medio"
    name: Name = None

    _name = field_validator("name")(classmethod(lambda cls, v: _plain_name(v)))


class CreateTable(Strict):
    game: str = Field(max_length=40)
    seats: int | None = Field(default=None, ge=1, le=16)
    options: dict[str, Any] = Field(default_factory=dict, max_length=20)
    players: list[PlayerSpec] = Field(default_factory=list, max_length=16)
    stand_in_level: Literal["facile", "medio", "difficile", "maestro"] = "medio"
    listed: bool = False  # shown in the lobby, where anyone may take a free seat


class CreateTournament(Strict):
    game: str = Field(max_length=40)
    seats: int | None = Field(default=None, ge=1, le=16)
    options: dict[str, Any] = Field(default_factory=dict, max_length=20)
    boards: int = Field(ge=1, le=MOST_BOARDS)
    tables: int = Field(ge=2, le=MOST_TABLES)
    level: Literal["facile", "medio", "difficile", "maestro"] = "medio"  # the bots'


class Register(Strict):
    name: Name = None

    _name = field_validator("name")(classmethod(lambda cls, v: _plain_name(v)))


class QuickJoin(Strict):
    game: str = Field(max_length=40)
    name: Name = None

    _name = field_validator("name")(classmethod(lambda cls, v: _plain_name(v)))


class Join(Strict):
    invite: str = Field(max_length=64)
    name: Name = None
    seat: int | None = Field(default=None, ge=0, le=15)

    _name = field_validator("name")(classmethod(lambda cls, v: _plain_name(v)))


class Start(Strict):
    token: str = Field(max_length=64)


class Session(Strict):
    token: str = Field(max_length=64)


class SignUp(Strict):
    # What a name and a password may be is checked by the sign-up itself, whose refusals say it
    # with their own codes (``bad_name``, ``bad_password``).
    name: str = Field(max_length=64)
    password: str = Field(max_length=club.PASSWORD_LENGTH[1])


class SignIn(Strict):
    # Checked no further than their size: a refusal says nothing of which one was wrong.
    name: str = Field(max_length=64)
    password: str = Field(max_length=club.PASSWORD_LENGTH[1])


class OwnSeat(Strict):
    """The caller's own seat, to pass on or to leave."""

    token: str | None = Field(default=None, max_length=64)  # None: the seat the join cookie holds


class PlayMessage(Strict):
    type: Literal["play"]
    action: str = Field(min_length=1, max_length=100)
    move: int | None = Field(default=None, ge=0)


class ChatMessage(Strict):
    type: Literal["chat"]
    text: str = Field(min_length=1, max_length=CHAT_LENGTH)

    _text = field_validator("text")(classmethod(lambda cls, v: _plain_text(v)))


class HintMessage(Strict):
    type: Literal["hint"]


class AnalysisMessage(Strict):
    type: Literal["analysis"]
    deal_index: int = Field(ge=0, le=100_000)


class StartMessage(Strict):
    type: Literal["start"]


class PingMessage(Strict):
    type: Literal["ping"]


class LastRoundMessage(Strict):
    type: Literal["last_round"]


class LangMessage(Strict):
    """The page's language changed: its lines come in that language alone from now on."""

    type: Literal["lang"]
    lang: str = Field(max_length=8)

    _lang = field_validator("lang")(classmethod(lambda cls, v: _language(v)))


class RematchMessage(Strict):
    """The player asks for a rematch of the finished match, in the same seats."""

    type: Literal["rematch"]


class BackMessage(Strict):
    """"I'm back": the player takes his seat back from the stand-in bot."""

    type: Literal["back"]


Incoming = Annotated[PlayMessage | ChatMessage | HintMessage | AnalysisMessage | StartMessage | PingMessage
                     | LastRoundMessage | BackMessage | LangMessage | RematchMessage, Field(discriminator="type")]
INCOMING: TypeAdapter[Incoming] = TypeAdapter(Incoming)


class Bucket:
    """A token bucket: ``rate`` a second, up to ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def _take_from(budgets: dict[str, Bucket], request: Request, rate: float, burst: float) -> bool:
    """Whether the request's address may go on: one taken from its bucket in ``budgets`` (made
    at ``rate`` a second, up to ``burst``, for an address not seen yet)."""
    address = request.client.host if request.client else "?"
    if address not in budgets:
        if len(budgets) > 100_000:
            budgets.clear()  # forget old addresses rather than grow without end
        budgets[address] = Bucket(rate, burst)
    return budgets[address].take()


def _seat_cookie(table_id: str) -> str:
    """The cookie that holds a browser's seat at a table."""
    return f"osteria_{table_id}"


def _keep_seat(request: Request, response: Response, table_id: str, token: str) -> None:
    """Let the browser keep its seat's token in the cookie; Strict, so no other site's link or
    page carries it along."""
    response.set_cookie(_seat_cookie(table_id), token, httponly=True, samesite="strict", path="/",
                        secure=request.url.scheme == "https")


def _forget_seat(request: Request, response: Response, table_id: str) -> None:
    """Clear the cookie of a seat the browser holds no more."""
    response.delete_cookie(_seat_cookie(table_id), httponly=True, samesite="strict", path="/",
                           secure=request.url.scheme == "https")


ACCOUNT_COOKIE = "osteria_account"  # a table's id is 8 characters, so no seat's cookie is called so


def _keep_sign_in(request: Request, response: Response, token: str) -> None:
    response.set_cookie(ACCOUNT_COOKIE, token, max_age=club.SESSION_DAYS * 86400, httponly=True,
                        samesite="strict", path="/", secure=request.url.scheme == "https")


class Refusal(HTTPException):
    """An HTTP request refused, with the ``code`` of its kind (docs/online.md) beside the message,
    by which a page says it in its own language (and ``values`` its words may name)."""

    def __init__(self, status: int, code: str, message: str, **values: int | str) -> None:
        super().__init__(status, message)
        self.code, self.values = code, values


def refused(exc: TableError, status: int | None = None) -> Refusal:
    """A table's refusal, as the HTTP answer."""
    return Refusal(exc.status if status is None else status, exc.code, exc.message)


def _refusal_body(message: str, code: str, values: dict[str, int | str] | None = None) -> dict[str, Any]:
    return {"detail": message, "code": code, **({"values": values} if values else {})}


def _error(code: str, message: str, move: int | None = None) -> Message:
    return {"type": "error", "code": code, "message": message, "move": move}


def _validation_message(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "message"
    return f"{where}: {first['msg']}"


def origin(url: str) -> str | None:
    """The origin of an http(s) address as ``scheme://host:port``, in lower case and with the
    scheme's default port written out, so that equal origins compare equal; None for anything else."""
    parts = urlsplit(url.strip())
    try:
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}:{port or (443 if parts.scheme == 'https' else 80)}"


def allowed_origin(text: str) -> str:
    """``text`` as an origin to admit (see ``origin``); ValueError for anything but scheme://host[:port]."""
    allowed = origin(text)
    if allowed is None or urlsplit(text.strip()).path not in ("", "/"):
        raise ValueError(f"{text!r} is not an origin: scheme://host[:port], as https://osteria.example")
    return allowed


def foreign_origin(scope: Scope, headers: Headers, allowed: frozenset[str], required: bool) -> str | None:
    """Why a request's Origin is not to be served, or None if it is: the server's own origin (the
    scheme, host and port the request reached it at, after a trusted proxy's X-Forwarded-Proto) and
    the ``allowed`` ones are. Without an Origin: refused when ``required``."""
    sent = headers.get("origin")
    if sent is None:
        return "a request from a browser page needs its Origin header" if required else None
    secure = scope["scheme"] in ("https", "wss")
    own = origin(f"{'https' if secure else 'http'}://{headers.get('host', '')}")
    if origin(sent) in {own, *allowed} - {None}:
        return None
    shown = sent[:50].encode("ascii", "replace").decode()  # a close reason is at most 123 bytes
    return f"{shown} is not this server's origin (see osteria serve --allowed-origin)"


class SecurityHeaders:
    """Adds SECURITY_HEADERS to every HTTP answer: the page, its files, the API, the errors. The
    pages under ``unconfined`` (FastAPI's API documentation, which loads its scripts from a CDN and
    starts them inline) get all but the Content-Security-Policy."""

    def __init__(self, app: ASGIApp, unconfined: tuple[str, ...] = ()) -> None:
        self.app = app
        self.unconfined = unconfined

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = SECURITY_HEADERS[1:] if scope["path"].startswith(self.unconfined) else SECURITY_HEADERS

        async def send_with_headers(message: ASGIMessage) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *headers]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(data: str | Path = "osteria-data", database: str | None = None,
               settings: Settings | None = None, openapi: bool = False,
               allowed_origins: Iterable[str] = ()) -> FastAPI:
    """The application; the store opens, and every stored table resumes, when it starts.
    ``openapi``: also serve the API's schema and its documentation pages (/openapi.json, /docs,
    /redoc), off by default so that a public server shows no more than its page.
    ``allowed_origins``: origins besides the server's own whose pages may open its WebSocket and
    send it changes (a reverse proxy's, https://osteria.example); ValueError for one that is not
    an http(s) origin."""
    settings = settings or Settings()
    allowed = frozenset(allowed_origin(o) for o in allowed_origins)
    state: dict[str, Any] = {}
    # Live sockets by address, and each address's chat budget at each table: spectators who
    # open many sockets share one budget, so none can flood the chat a player reads.
    sockets: Counter[str] = Counter()
    chat_budgets: dict[tuple[str, str], Bucket] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store.open(data, database)
        workers = max(2, os.cpu_count() or 2)
        executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="osteria-bot")
        scheduler = Scheduler(executor, workers)
        tables = Tables(store, scheduler, settings)
        state["tables"] = tables
        state["tournaments"] = Tournaments(tables)  # before play resumes: their tables keep their boards secret
        tables.resume_all()
        state["tournaments"].resume_all()
        shared = [asyncio.create_task(_claim_free(tables)),
                  asyncio.create_task(_hear_others(tables, state["tournaments"]))] if store.shared else []
        chores = [asyncio.create_task(_drop_idle(tables)), *shared]
        try:
            yield
        finally:
            for task in chores:
                task.cancel()
            for table in tables.tables.values():
                for client in list(table.clients):
                    client.close()
            scheduler.close()
            executor.shutdown(wait=False, cancel_futures=True)
            store.close()

    app = FastAPI(title="osteria", lifespan=lifespan, openapi_url="/openapi.json" if openapi else None,
                  docs_url="/docs" if openapi else None, redoc_url="/redoc" if openapi else None)
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")

    @app.exception_handler(Refusal)
    async def refusal(request: Request, exc: Refusal) -> Response:
        return JSONResponse(_refusal_body(exc.detail, exc.code, exc.values), status_code=exc.status_code)

    def tables() -> Tables:
        found: Tables = state["tables"]
        return found

    def tournaments() -> Tournaments:
        found: Tournaments = state["tournaments"]
        return found

    def tournament_of(tournament_id: str) -> Tournament:
        try:
            return tournaments().get(tournament_id)
        except TableError as exc:
            raise refused(exc) from None

    def seat_of(table: Table, token: str | None) -> int | None:
        """The seat ``token`` holds (``Table.seat_of_token``); with a shared database, a token
        that holds none here may have been minted by another process a moment ago (a quick join
        there, a tournament's seat): the table's seats are read again before it is refused."""
        try:
            return table.seat_of_token(token)
        except TableError:
            if not tables().store.shared:
                raise
        table.reload_seats()
        return table.seat_of_token(token)

    def table_of(table_id: str) -> Table:
        try:
            return tables().get(table_id)
        except TableError as exc:
            raise refused(exc) from None

    @app.middleware("http")
    async def limit_body(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        if request.method == "POST":
            limit = MAX_BODY_BYTES.get(request.url.path, MAX_OTHER_BODY_BYTES)
            length = request.headers.get("content-length")
            if length is None or not length.isdigit():
                return JSONResponse(_refusal_body("a request body needs its Content-Length", "bad_request"),
                                    status_code=411)
            if int(length) > limit:
                return JSONResponse(_refusal_body(f"the body is larger than {limit} bytes", "too_large"),
                                    status_code=413)
        return await call_next(request)

    @app.middleware("http")
    async def check_origin(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        # A change another site's page sends: refused. Browsers send Origin with every such request,
        # so one without it comes from a program (curl, a script), which no other site can drive.
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            refusal = foreign_origin(request.scope, request.headers, allowed, required=False)
            if refusal is not None:
                return JSONResponse(_refusal_body(f"refused: {refusal}", "forbidden"), status_code=403)
        return await call_next(request)

    # Added last, so outermost: the refusals above get the headers too.
    app.add_middleware(SecurityHeaders, unconfined=("/docs", "/redoc") if openapi else ())

    def page(name: str = "index.html") -> Response:
        index = STATIC / name
        if not index.is_file():
            return JSONResponse(_refusal_body("the browser table is not installed", "not_found"), status_code=404)
        return FileResponse(index, media_type="text/html")

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def home() -> Response:
        return page()

    @app.api_route("/t/{table_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        return page()

    # A match's replay and a player's history: a page of their own, beside the table's.
    @app.api_route("/replay/{table_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def replay_page(table_id: str) -> Response:
        return page("replay.html")

    @app.api_route("/players/{name}", methods=["GET", "HEAD"], include_in_schema=False)
    async def player_page(name: str) -> Response:
        return page("replay.html")

    @app.api_route("/tournaments", methods=["GET", "HEAD"], include_in_schema=False)
    @app.api_route("/tournaments/{tournament_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def tournament_page(tournament_id: str | None = None) -> Response:
        return FileResponse(STATIC / "tournament.html", media_type="text/html")

    # At the root, since a service worker serves only the pages under its own address.
    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        return FileResponse(STATIC / "sw.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    def game_entry(name: str, rules: type[Game]) -> dict[str, Any]:
        game = rules()
        glossary, signal_names = game.glossary(), game.signal_names()
        return {"name": name, "seat_counts": list(rules.seat_counts), "default_seats": rules.default_seats,
                "options": [{"name": o.name, "default": o.default,
                             "choices": None if o.choices is None else list(o.choices), "doc": o.doc,
                             "label": {lang: meaning(lang, o.label) if o.label else o.name for lang in LANGUAGES},
                             "docs": {lang: meaning(lang, o.doc) for lang in LANGUAGES}}
                            for o in rules.option_specs],
                # Each term's meaning in the page's languages, in their order (Italian, English).
                "glossary": {word: [meaning(lang, term.meaning) for lang in LANGUAGES]
                             for word, term in glossary.items()},
                "signal_names": {word: [meaning(lang, term.meaning) for lang in LANGUAGES]
                                 for word, term in signal_names.items()}}

    games = {"games": [game_entry(name, rules) for name, rules in GAMES.items()], "levels": list(LEVELS),
             "cards": {"suit_names": {lang: [message(lang, f"suit_{s}") for s in SUITS] for lang in LANGUAGES},
                       "rank_names": {lang: [message(lang, f"rank_{r}") for r in RANKS] for lang in LANGUAGES}}}

    @app.get("/api/games")
    async def list_games() -> dict[str, Any]:
        return games

    openers: dict[str, Bucket] = {}

    def may_open_table(request: Request) -> None:
        """Refusal 429 when the request's address has opened its share of tables."""
        if not _take_from(openers, request, settings.tables_per_minute / 60, settings.tables_burst):
            raise Refusal(429, "rate_limited", "too many tables opened from this address: wait a minute")

    def signed_in(request: HTTPConnection) -> str | None:
        """The account the request's (or WebSocket's) sign-in cookie holds, if any."""
        token = request.cookies.get(ACCOUNT_COOKIE)
        if not token:
            return None
        return tables().store.signed_in(club.session_key(token), time.time() - club.SESSION_DAYS * 86400)

    def hold(request: Request, table_id: str, seat: int) -> None:
        """A signed-in player is the seat's holder: the match is his (whichever process serves it)."""
        account = signed_in(request)
        if account is not None:
            lobby.hold(tables(), table_id, seat, account)

    sign_in_budgets: dict[str, Bucket] = {}

    def may_try_sign_in(request: Request) -> None:
        """Refusal 429 when the request's address has tried its share of sign-ins (and
        sign-ups): a password is not to be guessed by trying many."""
        if not _take_from(sign_in_budgets, request, settings.sign_ins_per_minute / 60, 10):
            raise Refusal(429, "rate_limited", "too many sign-in attempts from this address: wait a minute")

    async def begin_session(request: Request, response: Response, account: str) -> dict[str, Any]:
        token = club.new_session_token()
        tables().store.add_sign_in(club.session_key(token), account, time.time())
        _keep_sign_in(request, response, token)
        return {"name": account}

    @app.post("/api/sign-up", status_code=201)
    async def sign_up(body: SignUp, request: Request, response: Response) -> dict[str, Any]:
        may_try_sign_in(request)
        try:
            name = club.account_name(body.name)
        except ValueError as exc:
            low, high = club.NAME_LENGTH
            raise Refusal(422, "bad_name", str(exc), low=low, high=high) from None
        try:
            club.password(body.password)
        except ValueError as exc:
            low, high = club.PASSWORD_LENGTH
            raise Refusal(422, "bad_password", str(exc), low=low, high=high) from None
        # Hashing is slow on purpose (tens of milliseconds of a core): not on the event loop.
        hashed = await asyncio.to_thread(club.hash_password, body.password)
        if not tables().store.add_account(name, hashed, time.time()):
            raise Refusal(409, "name_taken", f"the name {name!r} is taken: choose another")
        return await begin_session(request, response, name)

    @app.post("/api/sign-in")
    async def sign_in(body: SignIn, request: Request, response: Response) -> dict[str, Any]:
        may_try_sign_in(request)
        account = tables().store.account(body.name)
        if not await asyncio.to_thread(club.password_matches, account.password_hash if account else None,
                                      body.password):
            raise Refusal(401, "wrong_password", "wrong name or password")
        assert account is not None
        return await begin_session(request, response, account.name)

    @app.post("/api/sign-out")
    async def sign_out(request: Request, response: Response) -> dict[str, Any]:
        token = request.cookies.get(ACCOUNT_COOKIE)
        if token:
            tables().store.drop_sign_in(club.session_key(token))
        response.delete_cookie(ACCOUNT_COOKIE, httponly=True, samesite="strict", path="/",
                               secure=request.url.scheme == "https")
        return {"name": None}

    @app.get("/api/me")
    async def me(request: Request) -> dict[str, Any]:
        return {"name": signed_in(request)}

    def rating_entry(row: RatingRow) -> dict[str, Any]:
        return {"game": row.game, "player": row.player, "bot": row.player.startswith(club.BOT_PREFIX),
                "mu": round(row.mu, 3), "sigma": round(row.sigma, 3),
                "ordinal": round(club.ordinal((row.mu, row.sigma)), 3), "matches": row.matches}

    @app.get("/api/ladder/{game}")
    async def ladder(game: str) -> dict[str, Any]:
        if game not in GAMES:
            raise Refusal(404, "not_found", f"unknown game {game!r}; games: {', '.join(GAMES)}")
        rows = sorted(tables().store.ratings(game=game), key=lambda r: -club.ordinal((r.mu, r.sigma)))
        return {"game": game, "ladder": [{"place": place, **rating_entry(row)} for place, row in enumerate(rows, 1)]}

    @app.get("/api/players/{name}")
    async def player(name: str) -> dict[str, Any]:
        store = tables().store
        account = store.account(name)
        if account is None:
            raise Refusal(404, "no_player", f"no player {name!r}", name=name)
        matches = store.matches_of(account.name)
        return {"name": account.name, "created": account.created,
                "games": dict(Counter(m.game for m in matches)),
                "ratings": [rating_entry(r) for r in store.ratings(player=account.name)],
                "matches": [{"table_id": m.table_id, "game": m.game, "at": m.at, "seat": m.seat,
                             "players": m.result["players"], "totals": m.result["totals"],
                             "place": m.result["places"][m.seat], "won": m.seat in (m.result["winners"] or ()),
                             "record": f"/api/tables/{m.table_id}/record"} for m in matches]}

    # -- history and replays ------------------------------------------------------------------

    @app.get("/api/players/{name}/history")
    async def history(name: str, request: Request) -> dict[str, Any]:
        store = tables().store
        account = store.account(name)
        if account is None:
            raise Refusal(404, "no_player", f"no player {name!r}", name=name)
        # A match still being played is listed to its own player alone: nobody else learns where
        # to find him at a table now.
        own = signed_in(request) == account.name
        matches = []
        for held in store.tables_of(account.name):
            if held.result is not None:
                result = held.result
                entry = {"status": "finished", "at": held.finished_at, "players": result["players"],
                         "totals": result["totals"], "place": result["places"][held.seat],
                         "won": held.seat in (result["winners"] or ())}
            elif own and (table := tables().served(held.table_id)) is not None:
                # (one the rules could not rebuild is closed: not listed)
                entry = {"status": table.status, "at": held.created, "players": [s.name for s in table.seats],
                         "totals": table.match.totals(), "place": None, "won": None}
            else:
                continue
            matches.append({"table_id": held.table_id, "game": held.game, "seat": held.seat, **entry,
                            "replay": f"/replay/{held.table_id}", "record": f"/api/tables/{held.table_id}/record"})
        return {"name": account.name, "matches": matches}

    # The last replays drawn, by table and deals over: a long match's takes a core half a second,
    # and it changes only when a deal ends.
    replays_kept: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()

    @app.get("/api/tables/{table_id}/replay")
    async def match_replay(table_id: str) -> dict[str, Any]:
        table = table_of(table_id)
        key = (table.id, len(table.match.results))
        if key in replays_kept:
            replays_kept.move_to_end(key)
        else:
            # Drawn from the record, which holds the deals already over and never the one in play.
            replays_kept[key] = await asyncio.to_thread(replays.match_replay, table.record(), LANGUAGES)
            while len(replays_kept) > REPLAYS_KEPT:
                replays_kept.popitem(last=False)
        return {"table_id": table.id, "status": table.status, **replays_kept[key],
                "record": f"/api/tables/{table.id}/record"}

    analysis_budgets: dict[str, Bucket] = {}

    @app.get("/api/tables/{table_id}/analysis/{deal_index}")
    async def deal_analysis(table_id: str, deal_index: Annotated[int, PathParam(ge=0, le=100_000)],
                            request: Request) -> dict[str, Any]:
        if not _take_from(analysis_budgets, request, ANALYSES_PER_MINUTE / 60, ANALYSES_BURST):
            raise Refusal(429, "rate_limited", "too many analyses asked from this address: wait a minute")
        table = table_of(table_id)
        try:
            return await table.analysis(deal_index, lambda message: None)
        except TableError as exc:
            raise refused(exc, 409 if exc.code == "busy" else None) from None

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        may_open_table(request)
        players: list[tuple[str, str | None, str | None]] = [(p.kind, p.level, p.name) for p in body.players]
        # A signed-in creator who gave no name sits under his account's.
        creator = next((seat for seat, (kind, _, _) in enumerate(players) if kind == "human"), None)
        if creator is not None and players[creator][2] is None:
            players[creator] = ("human", None, signed_in(request))
        try:
            table = tables().create(body.game, body.seats, body.options, players, body.stand_in_level, body.listed)
        except TableError as exc:
            raise refused(exc) from None
        base = f"/t/{table.id}"
        # The creator is told his own seat's token and nothing that plays another seat: a friend's
        # token is minted when he joins with the invite. At a table of bots he only watches.
        mine = next((s for s in table.seats if s.token is not None), None)
        if mine is not None:
            hold(request, table.id, mine.seat)
        return {"table_id": table.id, "invite": table.row.invite, "invite_link": f"{base}?invite={table.row.invite}",
                "watch_link": base,
                "seat": None if mine is None else mine.seat, "token": None if mine is None else mine.token,
                "link": None if mine is None else seat_link(table.id, mine.seat, mine.token),
                "seats": [{"seat": s.seat, "kind": s.kind, "level": s.level} for s in table.seats],
                "table": table.state()}

    @app.get("/api/lobby")
    async def open_tables(game: str | None = None) -> dict[str, Any]:
        return {"tables": lobby.open_tables(tables(), game)}

    @app.post("/api/quick-join")
    async def quick_join(body: QuickJoin, request: Request, response: Response) -> dict[str, Any]:
        try:
            # A new table counts against the address's budget.
            seated = lobby.quick_join(tables(), body.game, body.name or signed_in(request),
                                      lambda: may_open_table(request))
        except TableError as exc:
            raise refused(exc) from None
        hold(request, seated.table_id, seated.seat)
        _keep_seat(request, response, seated.table_id, seated.token)
        return {"table_id": seated.table_id, "seat": seated.seat, "token": seated.token,
                "link": seat_link(seated.table_id, seated.seat, seated.token), "new": seated.new}

    @app.get("/api/tables/{table_id}")
    async def table_state(table_id: str) -> dict[str, Any]:
        return table_of(table_id).public_state()

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: Join, request: Request, response: Response) -> dict[str, Any]:
        table = table_of(table_id)
        try:
            seat, token = table.join(body.invite, body.name or signed_in(request), body.seat)
        except TableError as exc:
            raise refused(exc) from None
        hold(request, table.id, seat)
        _keep_seat(request, response, table_id, token)
        return {"seat": seat, "token": token, "link": seat_link(table_id, seat, token)}

    @app.post("/api/tables/{table_id}/session")
    async def session(table_id: str, body: Session, request: Request, response: Response) -> dict[str, Any]:
        # The page trades the token of a seat's link for the join cookie, so that neither its
        # address bar nor its WebSocket's address (which proxies log) keeps carrying the token.
        table = table_of(table_id)
        try:
            seat = seat_of(table, body.token)
        except TableError as exc:
            raise refused(exc) from None
        _keep_seat(request, response, table_id, body.token)
        return {"seat": seat}

    @app.post("/api/tables/{table_id}/pass-on")
    async def pass_on(table_id: str, body: OwnSeat, request: Request, response: Response) -> dict[str, Any]:
        table = table_of(table_id)
        try:
            seat = table.seat_of_token(body.token or request.cookies.get(_seat_cookie(table_id)))
            token = table.pass_on(seat)
        except TableError as exc:
            raise refused(exc) from None
        assert seat is not None  # pass_on refuses a spectator
        table.hold(seat, None)  # whoever takes the seat now plays it as his own
        _forget_seat(request, response, table_id)
        return {"seat": seat, "token": token, "link": seat_link(table_id, seat, token)}

    @app.post("/api/tables/{table_id}/leave")
    async def leave(table_id: str, body: OwnSeat, request: Request, response: Response) -> dict[str, Any]:
        table = table_of(table_id)
        try:
            seat = table.seat_of_token(body.token or request.cookies.get(_seat_cookie(table_id)))
            table.leave(seat)
        except TableError as exc:
            raise refused(exc) from None
        # The others may all have asked for a rematch already: the one who left is not waited for.
        tables().rematch(table)
        _forget_seat(request, response, table_id)
        return {"seat": seat}

    @app.post("/api/tables/{table_id}/start")
    async def start(table_id: str, body: Start) -> dict[str, Any]:
        table = table_of(table_id)
        try:
            table.start(table.seat_of_token(body.token))
        except TableError as exc:
            raise refused(exc) from None
        return table.state()

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> dict[str, Any]:
        try:
            return table_of(table_id).record()
        except TableError as exc:
            raise refused(exc) from None

    @app.post("/api/tournaments", status_code=201)
    async def create_tournament(body: CreateTournament, request: Request) -> dict[str, Any]:
        may_open_table(request)
        try:
            tournament = tournaments().create(body.game, body.seats, body.options, body.boards, body.tables,
                                              body.level)
        except TableError as exc:
            raise refused(exc) from None
        # The organiser's token starts it: told to the creator alone.
        return {"tournament_id": tournament.id, "organiser": tournament.row.organiser,
                "link": f"/tournaments/{tournament.id}", "tournament": tournament.state()}

    @app.get("/api/tournaments/{tournament_id}")
    async def tournament_state(tournament_id: str) -> dict[str, Any]:
        return tournament_of(tournament_id).state()

    @app.post("/api/tournaments/{tournament_id}/register")
    async def register(tournament_id: str, body: Register, request: Request) -> dict[str, Any]:
        tournament = tournament_of(tournament_id)
        try:
            entry, token = tournament.register(body.name or signed_in(request))
        except TableError as exc:
            raise refused(exc) from None
        table, seat = tournament.place(entry)
        return {"entry": entry, "table": table, "seat": seat, "token": token}

    @app.post("/api/tournaments/{tournament_id}/start")
    async def start_tournament(tournament_id: str, body: Start) -> dict[str, Any]:
        tournament = tournament_of(tournament_id)
        try:
            tournament.start(body.token)
        except TableError as exc:
            raise refused(exc) from None
        return tournament.state()

    @app.post("/api/tournaments/{tournament_id}/seat")
    async def tournament_seat(tournament_id: str, body: Session, request: Request,
                              response: Response) -> dict[str, Any]:
        """An entry's seat at the table of the round now: the link that plays it."""
        tournament = tournament_of(tournament_id)
        try:
            table_id, seat, token = tournament.seat_of(body.token)
        except TableError as exc:
            raise refused(exc) from None
        hold(request, table_id, seat)
        _keep_seat(request, response, table_id, token)
        return {"board": tournament.current_board(), "table_id": table_id, "seat": seat, "token": token,
                "link": seat_link(table_id, seat, token)}

    @app.post("/api/verify")
    async def verify(request: Request) -> dict[str, Any]:
        body = await request.body()
        # Parsing a body of megabytes and replaying a long record take a while: not on the event loop.
        checks = await asyncio.get_running_loop().run_in_executor(None, _verify_body, body)
        return {"ok": all(c.ok for c in checks), "deals": [c.as_json() for c in checks]}

    @app.websocket("/ws/{table_id}")
    async def live(websocket: WebSocket, table_id: str, token: str | None = None, lang: str | None = None,
                   patches: bool = False) -> None:
        # Accepted before any refusal, so that the client learns why from the close code.
        await websocket.accept()
        # Another site's page must not play with the seat its visitor's cookie holds.
        refusal = foreign_origin(websocket.scope, websocket.headers, allowed, required=True)
        if refusal is not None:
            await websocket.close(code=4403, reason=refusal)
            return
        try:
            table = tables().get(table_id)
            seat = seat_of(table, token)
        except TableError as exc:
            # 1013 "try again later": another process serves the table (the page comes back).
            code = {404: 4404, 503: 1013}.get(exc.status, 4403)
            await websocket.close(code=code, reason=exc.message[:120])
            return
        address = websocket.client.host if websocket.client else "?"
        if sockets[address] >= settings.sockets_per_address:
            await websocket.close(code=4429, reason=f"at most {settings.sockets_per_address} sockets an address")
            return
        if len(table.clients) >= settings.sockets_per_table:
            await websocket.close(code=4429, reason=f"at most {settings.sockets_per_table} sockets a table")
            return
        chat = chat_budgets.setdefault((table_id, address), Bucket(settings.chat_per_minute / 60, 5))
        cookie = websocket.cookies.get(_seat_cookie(table_id))
        if seat is None and cookie is not None:
            with suppress(TableError):
                seat = seat_of(table, cookie)
        if seat is None and table.secret:
            # What a watcher sees of a board is what the players of the same board at the other
            # tables must not: the cards played.
            await websocket.close(code=4403, reason="this board is still being played at other tables")
            return
        # A page says its language (?lang=it): its states carry the lines of that one alone.
        # A signed-in spectator is named in the table's list of watchers. ``?patches=1``: after the
        # first state, what changed (see ``tables.patch``), as the page asks.
        client = Client(seat, (lang,) if lang in LANGUAGES else LANGUAGES, signed_in(websocket), patches)
        rematch = tables().rematch_for(table, seat)
        if rematch is not None:  # the match had its rematch while this player was away: before all else
            client.send(rematch)
        writer = asyncio.create_task(_write(websocket, client))
        table.connect(client)
        sockets[address] += 1
        try:
            await _read(websocket, tables(), table, client, chat)
        except WebSocketDisconnect:
            pass
        finally:
            sockets[address] -= 1
            table.disconnect(client)
            # The writer sends the closing code (4429 for a flood) and stops.
            with suppress(TimeoutError):
                await asyncio.wait_for(writer, timeout=5)

    return app


async def _drop_idle(tables: Tables) -> None:
    """Let the tables whose play is over go from memory once nobody uses them (``Tables.drop_idle``)."""
    while True:
        await asyncio.sleep(tables.settings.keep_over / 2)
        try:
            tables.drop_idle()
        except Exception:
            log.exception("the tables whose play is over could not be let go")


async def _claim_free(tables: Tables) -> None:
    """Serve, from now on, the tables of the shared database whose process stopped."""
    while True:
        await asyncio.sleep(tables.settings.claim_every)
        try:
            tables.claim_free()
        except Exception:
            log.exception("the tables that no process serves could not be claimed")


async def _hear_others(tables: Tables, tournaments: Tournaments) -> None:
    """What the other processes of the shared database tell: let a table go that one asks for,
    read again the seats of a table served here that one gave a seat of, show the end of a
    tournament's round that one found done."""
    while True:
        try:
            async for channel, payload in tables.store.notices():
                if channel == RELEASE_CHANNEL:
                    tables.release(payload)
                elif channel == SEAT_CHANNEL and payload in tables.tables:
                    tables.tables[payload].reload_seats()
                elif channel == TOURNAMENT_CHANNEL:
                    tournaments.heard(payload)
        except Exception:
            log.exception("what the other processes tell could not be heard")
        await asyncio.sleep(tables.settings.claim_every)


def _verify_body(body: bytes) -> list[fair.DealCheck]:
    """The checks of the record a request's body holds; Refusal 400 saying what is wrong."""
    try:
        record = json.loads(body)
    except (ValueError, RecursionError) as exc:  # not JSON, not UTF-8, nested or numbers too deep
        raise Refusal(400, "bad_request", f"not a JSON record: {exc}") from None
    if not isinstance(record, dict):
        raise Refusal(400, "bad_request", "a record is a JSON object")
    try:
        return fair.verify_record(record)
    except RecordError as exc:
        raise Refusal(400, "bad_request", str(exc)) from None


async def _write(websocket: WebSocket, client: Client) -> None:
    with suppress(WebSocketDisconnect, RuntimeError, OSError):
        while messages := await client.next_messages():
            for message in messages:
                await websocket.send_text(message if isinstance(message, str) else encode(message))
        await websocket.close(code=client.close_code)


async def _read(websocket: WebSocket, tables: Tables, table: Table, client: Client, chat: Bucket) -> None:
    """Answer one socket's messages; ``chat`` is its address's chat budget at this table."""
    messages = Bucket(20, 40)
    # Messages over the limit are forgiven at ten a second: a socket that flooded once and then
    # stopped is not closed for it later; one far over the limit, on and on, is not a person.
    forgiven = Bucket(10, 100)
    background: set[asyncio.Task[None]] = set()
    while not client.closed:
        received = await websocket.receive()
        if received["type"] == "websocket.disconnect" or client.closed:
            return  # closed meanwhile (its table served elsewhere now, a flood): nothing more is done
        text = received.get("text")
        if not messages.take():
            if not forgiven.take():
                client.close(4429)
                return
            client.send(_error("rate_limited", "too many messages: at most 20 a second"))
            continue
        if text is None:
            client.send(_error("bad_message", "messages are JSON text, not binary"))
            continue
        if len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
            client.send(_error("too_large", f"a message is at most {MAX_MESSAGE_BYTES} bytes"))
            continue
        try:
            message = INCOMING.validate_python(json.loads(text))
        except json.JSONDecodeError as exc:
            client.send(_error("bad_message", f"not JSON: {exc.msg}"))
            continue
        except ValidationError as exc:
            client.send(_error("bad_message", _validation_message(exc)))
            continue
        except (ValueError, RecursionError) as exc:  # nested too deep, a number too long
            client.send(_error("bad_message", f"not a message: {exc}"))
            continue
        # Whatever a player does gives him his seat back ("back" says only that); a ping is the
        # page's, not his, so a page left open does not keep a seat from its stand-in.
        if client.seat is not None and not isinstance(message, PingMessage):
            table.came_back(client.seat)
        try:
            if isinstance(message, PingMessage):
                client.send({"type": "pong"})
            elif isinstance(message, BackMessage):
                continue
            elif isinstance(message, LangMessage):
                table.speak(client, message.lang)
            elif isinstance(message, ChatMessage):
                if not chat.take():
                    client.send(_error("rate_limited", "too many chat lines from this address: wait a little"))
                else:
                    table.say(client.seat, " ".join(message.text.split()) or "…")
            elif isinstance(message, PlayMessage):
                if client.seat is None:
                    raise TableError("spectator", "a spectator does not play")
                table.play(client.seat, message.action, move=message.move)
            elif isinstance(message, StartMessage):
                table.start(client.seat)
            elif isinstance(message, LastRoundMessage):
                table.declare_last_round(client.seat)
            elif isinstance(message, RematchMessage):
                tables.agree_rematch(table, client.seat)
            else:
                task = asyncio.create_task(_answer(table, client, message))
                background.add(task)
                task.add_done_callback(background.discard)
        except TableError as exc:
            client.send(_table_error(table, client, exc))


def _table_error(table: Table, client: Client, exc: TableError) -> Message:
    """A table's refusal as the client's error message: where the rules refused an action, with
    ``says``, why in each of the client's languages, as its seat's view puts it."""
    message = _error(exc.code, exc.message, table.move)
    if exc.reason is not None:
        message["says"] = {lang: table.table_view(lang, client.seat).reason(exc.reason) for lang in client.languages}
    return message


async def _answer(table: Table, client: Client, message: HintMessage | AnalysisMessage) -> None:
    """A hint or an analysis, computed off the event loop, for the asking client only."""
    try:
        if isinstance(message, HintMessage):
            client.send(await table.hint(client.seat))
        else:
            client.send(await table.analysis(message.deal_index, client.send))
    except TableError as exc:
        client.send(_table_error(table, client, exc))


def serve(host: str = "127.0.0.1", port: int = 8000, data: str | Path = "osteria-data",
          database: str | None = None, settings: Settings | None = None, openapi: bool = False,
          allowed_origins: Iterable[str] = ()) -> None:
    """Run the server until interrupted; StoreError for a database that cannot be opened, OSError
    when it cannot listen at ``host:port``."""
    import socket

    import uvicorn

    Store.open(data, database).close()  # a database that cannot be opened is said before anything starts
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError:
        listener.close()
        raise
    config = uvicorn.Config(create_app(data, database, settings, openapi, allowed_origins),
                            ws_max_size=4 * MAX_MESSAGE_BYTES, log_level="warning")
    print(f"osteria: http://{host}:{port}", file=sys.stderr)
    tune_collector()
    uvicorn.Server(config).run(sockets=[listener])


def tune_collector() -> None:
    """Set the garbage collector as a serving process runs it, once start-up is done."""
    # Under load the collector's full passes over every object stalled the event loop, and so
    # every table, for 100 to 400 ms: what start-up made (the modules, above all) is frozen out
    # of them, and collections come less often.
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
