"""Where tables live between restarts: SQLite (WAL) in a data folder, or PostgreSQL.

Both keep the same schema. An action is appended in its own committed transaction before it is
announced, so a table is rebuilt after any stop (even ``kill -9``) by replaying its stored
actions through the rules engine.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS tables (
        id TEXT PRIMARY KEY, game TEXT NOT NULL, seats INTEGER NOT NULL, options TEXT NOT NULL,
        first_dealer INTEGER NOT NULL, invite TEXT NOT NULL, stand_in_level TEXT NOT NULL,
        started INTEGER NOT NULL, created DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS seats (
        table_id TEXT NOT NULL, seat INTEGER NOT NULL, kind TEXT NOT NULL, level TEXT, name TEXT NOT NULL,
        token TEXT, taken INTEGER NOT NULL, PRIMARY KEY (table_id, seat))""",
    """CREATE TABLE IF NOT EXISTS deals (
        table_id TEXT NOT NULL, deal_index INTEGER NOT NULL, dealer INTEGER NOT NULL, seed TEXT NOT NULL,
        seed_hash TEXT NOT NULL, PRIMARY KEY (table_id, deal_index))""",
    """CREATE TABLE IF NOT EXISTS actions (
        table_id TEXT NOT NULL, deal_index INTEGER NOT NULL, action_index INTEGER NOT NULL, seat INTEGER NOT NULL,
        action TEXT NOT NULL, by_bot INTEGER NOT NULL, PRIMARY KEY (table_id, deal_index, action_index))""",
    """CREATE TABLE IF NOT EXISTS chat (
        table_id TEXT NOT NULL, line INTEGER NOT NULL, seat INTEGER, name TEXT NOT NULL, text TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL, PRIMARY KEY (table_id, line))""",
    # A last round declared at the table: the deal it begins with, and the seat that declared it.
    # A table of its own, so that a database made before it opens as it is.
    """CREATE TABLE IF NOT EXISTS last_rounds (
        table_id TEXT PRIMARY KEY, deal_index INTEGER NOT NULL, seat INTEGER NOT NULL)""",
    # The tables shown in the lobby (their creator chose so); the others are reached by link only.
    """CREATE TABLE IF NOT EXISTS listed (table_id TEXT PRIMARY KEY)""",
    # The club: accounts (name_key: the name case-folded, so that "anna" cannot sign up beside
    # "Anna"), sign-ins (only a hash of each session's token), the account that holds a seat.
    """CREATE TABLE IF NOT EXISTS accounts (
        name_key TEXT PRIMARY KEY, name TEXT NOT NULL, password_hash TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS sign_ins (
        token_hash TEXT PRIMARY KEY, account TEXT NOT NULL, created DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS holders (
        table_id TEXT NOT NULL, seat INTEGER NOT NULL, account TEXT NOT NULL, PRIMARY KEY (table_id, seat))""",
    # A finished match, written with the ratings it changed in one transaction, so that a match
    # is rated once whatever stops the server.
    """CREATE TABLE IF NOT EXISTS finished (
        table_id TEXT PRIMARY KEY, game TEXT NOT NULL, at DOUBLE PRECISION NOT NULL, result TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS ratings (
        game TEXT NOT NULL, player TEXT NOT NULL, mu DOUBLE PRECISION NOT NULL, sigma DOUBLE PRECISION NOT NULL,
        matches INTEGER NOT NULL, PRIMARY KEY (game, player))""",
    # A finished table's rematch: per person's seat, the new table and the token minted there for
    # him, so that the old seat's holder is moved to it (only while that token still holds it).
    """CREATE TABLE IF NOT EXISTS rematches (
        table_id TEXT NOT NULL, seat INTEGER NOT NULL, rematch_id TEXT NOT NULL, token TEXT NOT NULL,
        PRIMARY KEY (table_id, seat))""",
    # The seats whose players asked for a rematch of a finished table, until it is made.
    """CREATE TABLE IF NOT EXISTS rematch_asks (table_id TEXT NOT NULL, seat INTEGER NOT NULL,
        PRIMARY KEY (table_id, seat))""",
    # Duplicate tournaments (tournament.py): the tournament, its boards' secret seeds (their hashes
    # published from its creation), its entries in the order of their places, and the table that
    # plays each board at each of its tables. Tables of their own, so that an older database
    # opens as it is.
    """CREATE TABLE IF NOT EXISTS tournaments (
        id TEXT PRIMARY KEY, game TEXT NOT NULL, seats INTEGER NOT NULL, options TEXT NOT NULL,
        boards INTEGER NOT NULL, tables INTEGER NOT NULL, level TEXT NOT NULL, organiser TEXT NOT NULL,
        started INTEGER NOT NULL, created DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS tournament_boards (
        tournament_id TEXT NOT NULL, board INTEGER NOT NULL, seed TEXT NOT NULL, seed_hash TEXT NOT NULL,
        PRIMARY KEY (tournament_id, board))""",
    """CREATE TABLE IF NOT EXISTS tournament_entries (
        tournament_id TEXT NOT NULL, entry INTEGER NOT NULL, kind TEXT NOT NULL, level TEXT, name TEXT NOT NULL,
        token TEXT, PRIMARY KEY (tournament_id, entry))""",
    """CREATE TABLE IF NOT EXISTS tournament_tables (
        table_id TEXT PRIMARY KEY, tournament_id TEXT NOT NULL, board INTEGER NOT NULL, table_no INTEGER NOT NULL)""",
    # The listed tables whose match is not finished: what the lobby reads, apart from `listed`
    # (every listed table, for ever), so that its query does not grow with the tables of the past.
    """CREATE TABLE IF NOT EXISTS lobby (table_id TEXT PRIMARY KEY)""",
    # A tournament's table that finished its board: per seat, its deltas over the board, so that
    # any process tells whether a round is done, and its scores, whichever process served it.
    """CREATE TABLE IF NOT EXISTS board_results (
        table_id TEXT PRIMARY KEY, tournament_id TEXT NOT NULL, board INTEGER NOT NULL, scores TEXT NOT NULL)""",
    # The tables whose play is over (the match, or a tournament's board): a server starts without
    # them and rebuilds one only when it is asked for, so that its start and its memory do not
    # grow with the club's past. A database made before it marks each as it is first rebuilt.
    """CREATE TABLE IF NOT EXISTS ended (table_id TEXT PRIMARY KEY)""",
)

CHAT_KEPT = 50  # chat lines a table sends to a newcomer
# The first key of every table's advisory lock in PostgreSQL ("oste"), the second the hash of its
# id: so that other programs' advisory locks in the same database are not taken for tables.
CLAIM_SPACE = 0x6F737465
# The first key of every tournament's advisory lock ("tour"): one process at a time changes it.
TOURNAMENT_SPACE = 0x746F7572
# The PostgreSQL channels on which a process asks the one that serves a table to let it go, tells
# it that a seat of the table was taken (or its holder changed) elsewhere, and tells every process
# that a round of a tournament is done.
RELEASE_CHANNEL = "osteria_release"
SEAT_CHANNEL = "osteria_seat"
TOURNAMENT_CHANNEL = "osteria_tournament"
CHANNELS = (RELEASE_CHANNEL, SEAT_CHANNEL, TOURNAMENT_CHANNEL)


@dataclass
class SeatRow:
    seat: int
    kind: str  # "human" or "bot"
    level: str | None
    name: str
    token: str | None
    taken: bool


@dataclass
class ChatLine:
    line: int
    seat: int | None
    name: str
    text: str
    at: float

    def as_json(self) -> dict[str, Any]:
        return {"type": "chat", "seat": self.seat, "name": self.name, "text": self.text, "at": self.at}


@dataclass
class TableRow:
    id: str
    game: str
    seats: int
    options: dict[str, Any]
    first_dealer: int
    invite: str
    stand_in_level: str
    started: bool
    created: float
    players: list[SeatRow] = field(default_factory=list)
    # per deal: (dealer, seed, seed_hash), then its actions as (seat, action, by_bot)
    deals: list[tuple[int, str, str]] = field(default_factory=list)
    actions: list[list[tuple[int, str, bool]]] = field(default_factory=list)
    chat: list[ChatLine] = field(default_factory=list)
    last_round: tuple[int, int] | None = None  # (deal index, seat) of a declared last round
    listed: bool = False  # shown in the lobby, its invite with it
    holders: dict[int, str] = field(default_factory=dict)  # seat: the account that holds it
    rematch: str | None = None  # the table of the rematch, once made
    rematch_tokens: dict[int, str] = field(default_factory=dict)  # seat: its token at the rematch
    rematch_asked: set[int] = field(default_factory=set)  # the seats that asked for a rematch
    board_seed: str | None = None  # a tournament's table: the seed of the board it plays
    board_of: tuple[str, int] | None = None  # a tournament's table: the tournament and the board
    ended: bool = False  # stored as over (see ``Store.end_table``)


@dataclass
class EntryRow:
    """One entry of a tournament: a player who registered (his token) or a bot that fills a seat."""

    entry: int  # its place: table entry // seats, seat entry % seats
    kind: str  # "human" or "bot"
    level: str | None
    name: str
    token: str | None


@dataclass
class TournamentRow:
    id: str
    game: str
    seats: int
    options: dict[str, Any]
    boards: int
    tables: int
    level: str  # the bots' level
    organiser: str  # the token that starts it
    started: bool
    created: float
    seeds: list[tuple[str, str]] = field(default_factory=list)  # per board: (seed, seed_hash)
    entries: list[EntryRow] = field(default_factory=list)
    played: dict[tuple[int, int], str] = field(default_factory=dict)  # (board, table number): table id


@dataclass
class Account:
    name: str
    password_hash: str
    created: float


@dataclass
class RatingRow:
    game: str
    player: str
    mu: float
    sigma: float
    matches: int


@dataclass
class FinishedMatch:
    table_id: str
    game: str
    at: float
    result: dict[str, Any]  # players, totals, winners, places
    seat: int  # the seat the account asked about held


@dataclass
class HeldTable:
    """A table at which an account held a seat, finished or not."""

    table_id: str
    game: str
    created: float
    seat: int
    finished_at: float | None  # None: not finished (or not stored as finished yet)
    result: dict[str, Any] | None  # a finished match's players, totals, winners, places


class StoreError(Exception):
    """A database that cannot be opened."""


class Store:
    """The database: one connection, used under a lock; every write is committed at once.

    With PostgreSQL several processes may share the database: each table is served by one of
    them at a time, the one that holds the table's advisory lock (see ``claim``)."""

    def __init__(self, connection: Any, placeholder: str, claims: Any = None, database: str | None = None) -> None:
        self._conn = connection
        self._placeholder = placeholder
        self._lock = threading.Lock()
        # PostgreSQL's: the connection that holds this process's tables' advisory locks, in
        # autocommit, so that no transaction of the other one ever waits on it or ends them.
        self._claims = claims
        self._database = database  # PostgreSQL's URL, for the connection that listens
        with self._transaction() as cur:
            for statement in SCHEMA:
                cur.execute(statement)
            # A database made before the lobby's table: its listed tables not finished go in.
            cur.execute("INSERT INTO lobby SELECT l.table_id FROM listed l WHERE NOT EXISTS "
                        "(SELECT 1 FROM finished f WHERE f.table_id = l.table_id) ON CONFLICT DO NOTHING")

    @classmethod
    def open(cls, data: str | Path = "osteria-data", database: str | None = None) -> Store:
        """PostgreSQL at ``database`` when given, else SQLite in WAL mode in the folder ``data``;
        StoreError, saying why, when it cannot be opened."""
        if database:
            import psycopg

            try:
                connection = psycopg.connect(database, connect_timeout=10)
                # As SQLite's synchronous=NORMAL: a commit is not waited on until it is on disk,
                # so that no move holds every table of the process while the disk syncs (tens of
                # ms at times). A killed server process loses nothing; a crash of the database's
                # machine could lose its last commits, never the database's consistency.
                connection.execute("SET synchronous_commit = off")
                connection.commit()
                return cls(connection, "%s", psycopg.connect(database, connect_timeout=10, autocommit=True), database)
            except psycopg.Error as exc:
                raise StoreError(f"cannot open the database: {' '.join(str(exc).split())}") from None
        folder = Path(data)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(folder / "osteria.sqlite3", check_same_thread=False, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            # A committed transaction survives the process being killed; only a power cut could lose
            # the last ones (FULL would guard against that too, at a cost on every action).
            conn.execute("PRAGMA synchronous=NORMAL")
            return cls(conn, "?")
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the database in {folder}: {exc}") from None

    @property
    def shared(self) -> bool:
        """Whether other processes may serve tables of this database too (PostgreSQL)."""
        return self._claims is not None

    def close(self) -> None:
        with self._lock:
            self._conn.close()
            if self._claims is not None:
                self._claims.close()  # and with it go this process's claims on its tables

    def claim(self, table_id: str) -> bool:
        """Whether this process may serve the table from now on. Always with SQLite, whose data
        folder is one process's; with PostgreSQL, when it takes the table's advisory lock, which no
        other process holds then: the lock is held for the process's session, and PostgreSQL lets
        it go when that session's connection closes, even when the process is killed, so that
        another process may claim the table and rebuild it from its stored actions."""
        if self._claims is None:
            return True
        with self._lock:
            found = self._claims.execute("SELECT pg_try_advisory_lock(%s, hashtext(%s))",
                                         (CLAIM_SPACE, table_id)).fetchone()
        return bool(found[0])

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        with self._lock:
            cur = self._conn.cursor()
            if self._placeholder == "?":
                cur.execute("BEGIN")
            try:
                yield _Cursor(cur, self._placeholder)
            except BaseException:
                self._conn.rollback()
                raise
            self._conn.commit()

    def _write(self, sql: str, params: Sequence[Any]) -> None:
        """One statement as a transaction of its own. SQLite, in autocommit, makes a lone statement
        one by itself: no BEGIN and COMMIT to send around it, which would cost a move's write as
        much again as its INSERT. PostgreSQL's goes through a transaction as any other write."""
        if self._placeholder != "?":
            with self._transaction() as cur:
                cur.execute(sql, params)
            return
        with self._lock:
            self._conn.execute(sql, params)

    # -- writes ------------------------------------------------------------------------------

    def create_table(self, row: TableRow, rematch_of: str | None = None) -> None:
        """A new table with its seats and holders; ``rematch_of``: the finished table it is the
        rematch of, whose seats' holders are given the tokens of the new seats."""
        self._claim_new(row.id)
        with self._transaction() as cur:
            _insert_table(cur, row)
            if rematch_of is not None:
                for p in row.players:
                    if p.token is not None:
                        cur.execute("INSERT INTO rematches VALUES (?, ?, ?, ?)", (rematch_of, p.seat, row.id, p.token))

    def _claim_new(self, table_id: str) -> None:
        """A new table is claimed before it is stored, so that no other process claims it first."""
        if not self.claim(table_id):
            raise StoreError(f"the new table {table_id!r} is claimed by another process already")

    def create_tournament(self, row: TournamentRow) -> None:
        with self._transaction() as cur:
            cur.execute("INSERT INTO tournaments VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (row.id, row.game, row.seats, json.dumps(row.options), row.boards, row.tables, row.level,
                         row.organiser, int(row.started), row.created))
            for board, (seed, published) in enumerate(row.seeds):
                cur.execute("INSERT INTO tournament_boards VALUES (?, ?, ?, ?)", (row.id, board, seed, published))

    def add_entry(self, tournament_id: str, entry: EntryRow) -> None:
        self._write("INSERT INTO tournament_entries VALUES (?, ?, ?, ?, ?, ?)",
                    (tournament_id, entry.entry, entry.kind, entry.level, entry.name, entry.token))

    def start_tournament(self, tournament_id: str, bots: Sequence[EntryRow]) -> None:
        """Play begins; ``bots`` fill the places nobody registered for."""
        with self._transaction() as cur:
            for entry in bots:
                cur.execute("INSERT INTO tournament_entries VALUES (?, ?, ?, ?, ?, ?)",
                            (tournament_id, entry.entry, entry.kind, entry.level, entry.name, entry.token))
            cur.execute("UPDATE tournaments SET started = 1 WHERE id = ?", (tournament_id,))

    def create_board_table(self, row: TableRow, tournament_id: str, board: int, table_no: int) -> None:
        """A table that plays a tournament's board, stored with the board and table it is."""
        self._claim_new(row.id)
        with self._transaction() as cur:
            _insert_table(cur, row)
            cur.execute("INSERT INTO tournament_tables VALUES (?, ?, ?, ?)", (row.id, tournament_id, board, table_no))

    def take_seat(self, table_id: str, seat: int, name: str, token: str | None = None) -> None:
        """The seat is taken; ``token``, minted for a player who joins, replaces the seat's (None
        keeps it: the holder of a seat's token arrived)."""
        self._write("UPDATE seats SET taken = 1, name = ?, token = COALESCE(?, token) "
                    "WHERE table_id = ? AND seat = ?", (name, token, table_id, seat))

    def take_free_seat(self, table_id: str, seat: int, name: str, token: str) -> str | None:
        """A player takes a free human seat (nobody took it, no token holds it) under ``name``,
        with the ``token`` minted for him; None once taken, else why not: ``taken`` (the seat is
        not free) or ``name_taken`` (another seat has the name, in any case). In one transaction
        that locks the table's seats first, so that of two processes giving seats of one table
        at once the second sees what the first gave: no seat is given twice, no name sits twice."""
        with self._transaction() as cur:
            table = self._locked_seats(cur, table_id)
            if not any(p.seat == seat and free_seat(p) for p in table.players):
                return "taken"
            if any(p.name.casefold() == name.casefold() for p in table.players if p.seat != seat):
                return "name_taken"
            cur.execute("UPDATE seats SET taken = 1, name = ?, token = ? WHERE table_id = ? AND seat = ?",
                        (name, token, table_id, seat))
        return None

    def _locked_seats(self, cur: _Cursor, table_id: str) -> TableRow:
        """The table's seats as stored, locked until the transaction ends (SQLite's transaction
        holds the whole database already), so that what is given of them is decided on what
        others gave before."""
        lock = " FOR UPDATE" if self.shared else ""
        table = TableRow(table_id, "", 0, {}, 0, "", "", False, 0.0, [
            SeatRow(r[0], r[1], r[2], r[3], r[4], bool(r[5])) for r in cur.fetchall(
                f"SELECT seat, kind, level, name, token, taken FROM seats WHERE table_id = ? ORDER BY seat{lock}",
                (table_id,))])
        _free_unheld_seats(table)  # as the table is loaded: a free seat of an older database is free
        return table

    def set_token(self, table_id: str, seat: int, token: str) -> None:
        self._write("UPDATE seats SET token = ? WHERE table_id = ? AND seat = ?", (token, table_id, seat))

    def leave_seat(self, table_id: str, seat: int, name: str, started: bool) -> None:
        """Its player left the seat: no token holds it, no account; it is free, under ``name``.
        ``started``: play had begun, and goes on (a bot plays the seat until someone takes it)."""
        with self._transaction() as cur:
            cur.execute("UPDATE seats SET taken = 0, token = NULL, name = ? WHERE table_id = ? AND seat = ?",
                        (name, table_id, seat))
            cur.execute("DELETE FROM holders WHERE table_id = ? AND seat = ?", (table_id, seat))
            cur.execute("DELETE FROM rematch_asks WHERE table_id = ? AND seat = ?", (table_id, seat))
            if started:
                cur.execute("UPDATE tables SET started = 1 WHERE id = ?", (table_id,))

    def ask_rematch(self, table_id: str, seat: int) -> None:
        self._write("INSERT INTO rematch_asks VALUES (?, ?)", (table_id, seat))

    def start(self, table_id: str, bots: Sequence[tuple[int, str, str]]) -> list[int]:
        """Play begins; the seats in ``bots`` (seat, level, name) that nobody took yet are a bot's
        from now on, and their numbers are returned. In one transaction that locks the table's
        seats first, as ``take_free_seat`` does: a seat another process gave a moment ago, which
        the caller did not know of yet, stays its player's."""
        with self._transaction() as cur:
            free = {p.seat for p in self._locked_seats(cur, table_id).players if p.kind == "human" and not p.taken}
            made: list[int] = []
            for seat, level, name in bots:
                if seat in free:
                    cur.execute("UPDATE seats SET kind = 'bot', level = ?, name = ?, token = NULL "
                                "WHERE table_id = ? AND seat = ?", (level, name, table_id, seat))
                    made.append(seat)
            cur.execute("UPDATE tables SET started = 1 WHERE id = ?", (table_id,))
        return made

    def add_deal(self, table_id: str, deal_index: int, dealer: int, seed: str, seed_hash: str) -> None:
        self._write("INSERT INTO deals VALUES (?, ?, ?, ?, ?)", (table_id, deal_index, dealer, seed, seed_hash))

    def add_action(self, table_id: str, deal_index: int, action_index: int, seat: int, action: str,
                   by_bot: bool) -> None:
        self._write("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?)",
                    (table_id, deal_index, action_index, seat, action, int(by_bot)))

    def declare_last_round(self, table_id: str, deal_index: int, seat: int) -> None:
        self._write("INSERT INTO last_rounds VALUES (?, ?, ?)", (table_id, deal_index, seat))

    def add_chat(self, table_id: str, line: ChatLine) -> None:
        self._write("INSERT INTO chat VALUES (?, ?, ?, ?, ?, ?)",
                    (table_id, line.line, line.seat, line.name, line.text, line.at))

    def hold_seat(self, table_id: str, seat: int, account: str | None) -> None:
        """``account`` holds the seat from now on (None: no account does)."""
        with self._transaction() as cur:
            cur.execute("DELETE FROM holders WHERE table_id = ? AND seat = ?", (table_id, seat))
            if account is not None:
                cur.execute("INSERT INTO holders VALUES (?, ?, ?)", (table_id, seat, account))

    def end_table(self, table_id: str) -> None:
        """The table's play is over: a server starts without it from now on (see ``load_current``)."""
        self._write("INSERT INTO ended VALUES (?) ON CONFLICT DO NOTHING", (table_id,))

    def add_board_result(self, table_id: str, tournament_id: str, board: int, scores: Sequence[float]) -> None:
        """The table finished its board with these deltas per seat (kept as first written)."""
        self._write("INSERT INTO board_results VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (table_id, tournament_id, board, json.dumps(list(scores))))

    def add_account(self, name: str, password_hash: str, created: float) -> bool:
        """A new account; False, and nothing written, when its name (in any case) is taken."""
        with self._transaction() as cur:
            if cur.fetchall("SELECT 1 FROM accounts WHERE name_key = ?", (name.casefold(),)):
                return False
            cur.execute("INSERT INTO accounts VALUES (?, ?, ?, ?)", (name.casefold(), name, password_hash, created))
        return True

    def add_sign_in(self, token_hash: str, account: str, created: float) -> None:
        self._write("INSERT INTO sign_ins VALUES (?, ?, ?)", (token_hash, account, created))

    def drop_sign_in(self, token_hash: str) -> None:
        self._write("DELETE FROM sign_ins WHERE token_hash = ?", (token_hash,))

    def finish_match(self, table_id: str, game: str, at: float, result: dict[str, Any], players: Sequence[str | None],
                     rate: Callable[[list[tuple[float, float] | None]], list[tuple[float, float]]]) -> bool:
        """Store a finished match and, in the same transaction, the ratings of its ``players`` (per
        seat, the rated name, None for a guest) that ``rate`` makes of their ratings before (None:
        not rated yet). A name seated twice (two bots of a level) gets the mean of its seats'.
        False, and nothing written, when the match was stored already."""
        with self._transaction() as cur:
            if cur.fetchall("SELECT 1 FROM finished WHERE table_id = ?", (table_id,)):
                return False
            cur.execute("INSERT INTO finished VALUES (?, ?, ?, ?)", (table_id, game, at, json.dumps(result)))
            cur.execute("DELETE FROM lobby WHERE table_id = ?", (table_id,))
            known = {r[0]: (r[1], r[2], r[3]) for r in cur.fetchall(
                "SELECT player, mu, sigma, matches FROM ratings WHERE game = ?", (game,))}
            after = rate([None if p is None or p not in known else known[p][:2] for p in players])
            for name in {p for p in players if p is not None}:
                seats = [r for p, r in zip(players, after, strict=True) if p == name]
                mu, sigma = (sum(r[i] for r in seats) / len(seats) for i in (0, 1))
                cur.execute("DELETE FROM ratings WHERE game = ? AND player = ?", (game, name))
                cur.execute("INSERT INTO ratings VALUES (?, ?, ?, ?, ?)",
                            (game, name, mu, sigma, known.get(name, (0, 0, 0))[2] + 1))
        return True

    # -- reads -------------------------------------------------------------------------------

    def load_current(self) -> list[TableRow]:
        """Every table whose play is not stored as over (``end_table``), with its seats, deals,
        actions and last chat lines, oldest table first."""
        return self._load(None)

    def load_one(self, table_id: str) -> TableRow | None:
        """The table ``table_id`` as ``load_current`` reads it, over or not; None when there is none."""
        found = self._load(table_id)
        return found[0] if found else None

    def release(self, table_id: str) -> None:
        """This process serves the table no more: another may claim it."""
        if self._claims is not None:
            with self._lock:
                self._claims.execute("SELECT pg_advisory_unlock(%s, hashtext(%s))", (CLAIM_SPACE, table_id))

    def ask_release(self, table_id: str) -> None:
        """Ask the process that serves the table to let it go (see ``notices``)."""
        self.tell(RELEASE_CHANNEL, table_id)

    def tell(self, channel: str, payload: str) -> None:
        """Tell the other processes of the shared database (``notices``); nothing with SQLite."""
        if self._claims is not None:
            with self._lock:
                self._claims.execute("SELECT pg_notify(%s, %s)", (channel, payload))

    async def notices(self) -> AsyncIterator[tuple[str, str]]:
        """What other processes tell, as they do, by channel (one of CHANNELS) and payload
        (PostgreSQL's LISTEN, on a connection of its own); nothing with SQLite. Ends when that
        connection is lost."""
        if self._database is None:
            return
        import psycopg

        async with await psycopg.AsyncConnection.connect(self._database, connect_timeout=10,
                                                         autocommit=True) as conn:
            for channel in CHANNELS:
                await conn.execute(f"LISTEN {channel}")
            async for notice in conn.notifies():
                yield notice.channel, notice.payload

    @contextmanager
    def tournament_lock(self, tournament_id: str) -> Iterator[None]:
        """Held while this process changes the tournament (its entries, its rounds), so that no
        other process of the shared database does at the same time; nothing to hold with SQLite."""
        if self._claims is None:
            yield
            return
        with self._lock:
            self._claims.execute("SELECT pg_advisory_lock(%s, hashtext(%s))", (TOURNAMENT_SPACE, tournament_id))
        try:
            yield
        finally:
            with self._lock:
                self._claims.execute("SELECT pg_advisory_unlock(%s, hashtext(%s))",
                                     (TOURNAMENT_SPACE, tournament_id))

    def claim_free(self, held: Collection[str]) -> list[str]:
        """The stored tables whose play is not over, but those in ``held``, that this process may
        serve from now on (see ``claim``), claimed together: with PostgreSQL, those no process serves
        now. One whose play is over is claimed when asked for (``claim``)."""
        current = "SELECT id FROM tables WHERE NOT EXISTS (SELECT 1 FROM ended e WHERE e.table_id = tables.id)"
        if self._claims is None:
            with self._transaction() as cur:
                return [r[0] for r in cur.fetchall(current) if r[0] not in held]
        with self._lock:
            # CASE, so that a table held already is never locked once more (its lock would be
            # held twice, and a session's lock goes only when released as often as taken).
            found = self._claims.execute(
                f"{current} AND CASE WHEN id = ANY(%s) THEN false "
                "ELSE pg_try_advisory_lock(%s, hashtext(id)) END", (list(held), CLAIM_SPACE)).fetchall()
        return [r[0] for r in found]

    def has_table(self, table_id: str) -> bool:
        with self._transaction() as cur:
            return bool(cur.fetchall("SELECT 1 FROM tables WHERE id = ?", (table_id,)))

    def open_listed(self, game: str | None = None, playing: bool = False) -> list[TableRow]:
        """The listed tables of every process (of ``game``, if given) with a free human seat, not
        finished, oldest first, with their seats alone: those waiting for players, and with
        ``playing`` those in play too. What the lobby shows, in one query over the tables of the lobby's
        own table (those listed, not finished), on their keys."""
        where, params = ("", ()) if game is None else (" WHERE t.game = ?", (game,))
        with self._transaction() as cur:
            found = cur.fetchall(
                "SELECT t.id, t.game, t.seats, t.options, t.first_dealer, t.invite, t.stand_in_level, t.started, "
                "t.created, s.seat, s.kind, s.level, s.name, s.token, s.taken FROM lobby l "
                f"JOIN tables t ON t.id = l.table_id JOIN seats s ON s.table_id = t.id{where} "
                "ORDER BY t.created, t.id, s.seat", params)
        tables: dict[str, TableRow] = {}
        for r in found:
            if r[0] not in tables:
                tables[r[0]] = TableRow(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5], r[6], bool(r[7]), r[8],
                                        listed=True)
            tables[r[0]].players.append(SeatRow(r[9], r[10], r[11], r[12], r[13], bool(r[14])))
        open_rows = []
        for table in tables.values():
            _free_unheld_seats(table)
            started = table.started or all(p.taken for p in table.players)
            if (playing or not started) and any(free_seat(p) for p in table.players):
                open_rows.append(table)
        return open_rows

    def seat_rows(self, table_id: str) -> tuple[list[SeatRow], dict[int, str]]:
        """The table's seats as stored now, and the accounts that hold them."""
        with self._transaction() as cur:
            seats = [SeatRow(r[0], r[1], r[2], r[3], r[4], bool(r[5])) for r in cur.fetchall(
                "SELECT seat, kind, level, name, token, taken FROM seats WHERE table_id = ? ORDER BY seat",
                (table_id,))]
            holders = {r[0]: r[1] for r in cur.fetchall("SELECT seat, account FROM holders WHERE table_id = ?",
                                                        (table_id,))}
        table = TableRow(table_id, "", len(seats), {}, 0, "", "", False, 0.0, seats)
        _free_unheld_seats(table)
        return table.players, holders

    def board_results(self, tournament_id: str) -> dict[str, list[float]]:
        """The deltas per seat of each table (by id) that finished its board of the tournament."""
        with self._transaction() as cur:
            return {r[0]: json.loads(r[1]) for r in cur.fetchall(
                "SELECT table_id, scores FROM board_results WHERE tournament_id = ?", (tournament_id,))}

    def _load(self, only: str | None) -> list[TableRow]:
        """The tables with all they hold: only the one called ``only``, when given, else those
        whose play is not over."""

        def of(column: str) -> tuple[str, tuple[str, ...]]:
            if only is None:
                return f" WHERE {column} NOT IN (SELECT table_id FROM ended)", ()
            return f" WHERE {column} = ?", (only,)

        with self._transaction() as cur:
            where, params = of("id")
            tables = {r[0]: TableRow(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5], r[6], bool(r[7]), r[8])
                      for r in cur.fetchall("SELECT id, game, seats, options, first_dealer, invite, stand_in_level, "
                                            f"started, created FROM tables{where} ORDER BY created, id", params)}
            where, params = of("table_id")
            for r in cur.fetchall(f"SELECT table_id, seat, kind, level, name, token, taken FROM seats{where} "
                                  "ORDER BY table_id, seat", params):
                tables[r[0]].players.append(SeatRow(r[1], r[2], r[3], r[4], r[5], bool(r[6])))
            for table in tables.values():
                _free_unheld_seats(table)
            for r in cur.fetchall(f"SELECT table_id, deal_index, dealer, seed, seed_hash FROM deals{where} "
                                  "ORDER BY table_id, deal_index", params):
                table = tables[r[0]]
                assert r[1] == len(table.deals), f"table {r[0]}: deal {r[1]} stored without the ones before"
                table.deals.append((r[2], r[3], r[4]))
                table.actions.append([])
            for r in cur.fetchall(f"SELECT table_id, deal_index, action_index, seat, action, by_bot FROM actions"
                                  f"{where} ORDER BY table_id, deal_index, action_index", params):
                played = tables[r[0]].actions[r[1]]
                assert r[2] == len(played), f"table {r[0]}: action {r[1]}.{r[2]} stored without the ones before"
                played.append((r[3], r[4], bool(r[5])))
            for r in cur.fetchall(f"SELECT table_id, deal_index, seat FROM last_rounds{where}", params):
                tables[r[0]].last_round = (r[1], r[2])
            for (table_id,) in cur.fetchall(f"SELECT table_id FROM listed{where}", params):
                tables[table_id].listed = True
            for (table_id,) in cur.fetchall(f"SELECT table_id FROM ended{where}", params):
                tables[table_id].ended = True
            for table_id, seat, account in cur.fetchall(f"SELECT table_id, seat, account FROM holders{where}",
                                                        params):
                tables[table_id].holders[seat] = account
            for table_id, seat, rematch_id, token in cur.fetchall(
                    f"SELECT table_id, seat, rematch_id, token FROM rematches{where}", params):
                tables[table_id].rematch = rematch_id
                tables[table_id].rematch_tokens[seat] = token
            for table_id, seat in cur.fetchall(f"SELECT table_id, seat FROM rematch_asks{where}", params):
                tables[table_id].rematch_asked.add(seat)
            joined, params = of("t.table_id")
            for table_id, seed, tournament_id, board in cur.fetchall(
                    "SELECT t.table_id, b.seed, t.tournament_id, t.board FROM tournament_tables t "
                    "JOIN tournament_boards b ON b.tournament_id = t.tournament_id "
                    f"AND b.board = t.board{joined}", params):
                tables[table_id].board_seed = seed
                tables[table_id].board_of = (tournament_id, board)
            where, params = of("table_id")
            for r in cur.fetchall(f"SELECT table_id, line, seat, name, text, at FROM chat{where} "
                                  "ORDER BY table_id, line", params):
                lines = tables[r[0]].chat
                lines.append(ChatLine(r[1], r[2], r[3], r[4], r[5]))
                del lines[:-CHAT_KEPT]
        return list(tables.values())

    def load_tournaments(self, only: str | None = None) -> list[TournamentRow]:
        """Every tournament (only the one called ``only``, when given) with its boards' seeds, its
        entries and its tables, oldest first."""
        def of(column: str) -> tuple[str, tuple[str, ...]]:
            return ("", ()) if only is None else (f" WHERE {column} = ?", (only,))

        with self._transaction() as cur:
            where, params = of("id")
            found = {r[0]: TournamentRow(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5], r[6], r[7], bool(r[8]), r[9])
                     for r in cur.fetchall("SELECT id, game, seats, options, boards, tables, level, organiser, "
                                           f"started, created FROM tournaments{where} ORDER BY created, id", params)}
            where, params = of("tournament_id")
            for r in cur.fetchall(f"SELECT tournament_id, board, seed, seed_hash FROM tournament_boards{where} "
                                  "ORDER BY tournament_id, board", params):
                found[r[0]].seeds.append((r[2], r[3]))
            for r in cur.fetchall("SELECT tournament_id, entry, kind, level, name, token FROM tournament_entries"
                                  f"{where} ORDER BY tournament_id, entry", params):
                found[r[0]].entries.append(EntryRow(r[1], r[2], r[3], r[4], r[5]))
            for r in cur.fetchall(f"SELECT tournament_id, board, table_no, table_id FROM tournament_tables{where}",
                                  params):
                found[r[0]].played[(r[1], r[2])] = r[3]
        return list(found.values())

    def account(self, name: str) -> Account | None:
        """The account called ``name``, in any case."""
        with self._transaction() as cur:
            found = cur.fetchall("SELECT name, password_hash, created FROM accounts WHERE name_key = ?",
                                 (name.casefold(),))
        return Account(*found[0]) if found else None

    def signed_in(self, token_hash: str, since: float) -> str | None:
        """The account a sign-in made after ``since`` holds, if any."""
        with self._transaction() as cur:
            found = cur.fetchall("SELECT account FROM sign_ins WHERE token_hash = ? AND created > ?",
                                 (token_hash, since))
        return str(found[0][0]) if found else None

    def ratings(self, game: str | None = None, player: str | None = None) -> list[RatingRow]:
        """The ratings of ``game`` or of ``player`` (every one without either)."""
        where = " AND ".join(w for w, v in (("game = ?", game), ("player = ?", player)) if v is not None)
        with self._transaction() as cur:
            found = cur.fetchall(f"SELECT game, player, mu, sigma, matches FROM ratings {'WHERE ' if where else ''}"
                                 f"{where} ORDER BY game, player",
                                 [v for v in (game, player) if v is not None])
        return [RatingRow(*r) for r in found]

    def matches_of(self, account: str) -> list[FinishedMatch]:
        """The finished matches in which ``account`` held a seat, the latest first."""
        with self._transaction() as cur:
            found = cur.fetchall("SELECT f.table_id, f.game, f.at, f.result, h.seat FROM finished f "
                                 "JOIN holders h ON h.table_id = f.table_id WHERE h.account = ? "
                                 "ORDER BY f.at DESC, f.table_id", (account,))
        return [FinishedMatch(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in found]

    def tables_of(self, account: str) -> list[HeldTable]:
        """Every table at which ``account`` holds a seat, finished or not, the latest first (a
        finished match by when it ended, another by when its table was made)."""
        with self._transaction() as cur:
            found = cur.fetchall("SELECT t.id, t.game, t.created, h.seat, f.at, f.result FROM holders h "
                                 "JOIN tables t ON t.id = h.table_id LEFT JOIN finished f ON f.table_id = h.table_id "
                                 "WHERE h.account = ? ORDER BY COALESCE(f.at, t.created) DESC, t.id, h.seat",
                                 (account,))
        return [HeldTable(r[0], r[1], r[2], r[3], r[4], None if r[5] is None else json.loads(r[5])) for r in found]


def _insert_table(cur: _Cursor, row: TableRow) -> None:
    cur.execute("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (row.id, row.game, row.seats, json.dumps(row.options), row.first_dealer, row.invite,
                 row.stand_in_level, int(row.started), row.created))
    for p in row.players:
        cur.execute("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (row.id, p.seat, p.kind, p.level, p.name, p.token, int(p.taken)))
    if row.listed:
        cur.execute("INSERT INTO listed VALUES (?)", (row.id,))
        cur.execute("INSERT INTO lobby VALUES (?)", (row.id,))
    for seat, account in row.holders.items():
        cur.execute("INSERT INTO holders VALUES (?, ?, ?)", (row.id, seat, account))


def free_seat(seat: SeatRow) -> bool:
    """Whether an invite may take the seat: a human one that nobody took and no token holds."""
    return seat.kind == "human" and not seat.taken and seat.token is None


def _free_unheld_seats(table: TableRow) -> None:
    """A database made before a seat's token was minted on taking it holds a token for every human
    seat, all of them sent to the table's creator: the token of a seat nobody took yet, other than
    the creator's own (the first human seat), is dropped, so that the invite gives that seat a
    fresh one. Nothing else holds such a token, so this changes no table stored since."""
    humans = [p for p in table.players if p.kind == "human"]
    for p in humans[1:]:
        if not p.taken:
            p.token = None


class _Cursor:
    """A cursor that takes ``?`` placeholders whatever the database's own are."""

    def __init__(self, cursor: Any, placeholder: str) -> None:
        self._cursor = cursor
        self._placeholder = placeholder

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        self._cursor.execute(sql.replace("?", self._placeholder), tuple(params))

    def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        self.execute(sql, params)
        return list(self._cursor.fetchall())
