"""The lobby and the quick join over every process's tables.

With one process (SQLite) they are the tables it serves. With a PostgreSQL database that several
processes share, the lobby is read from the store, so that any process lists every process's
open tables, and a quick join takes a free seat at a table another process serves through the
store (``Store.take_free_seat``: a transaction that locks the table's seats, so two processes
never give one seat), then tells that process (``SEAT_CHANNEL``) to read the table's seats again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from osteria.engine import RulesError
from osteria.rules import GAMES
from osteria.server.store import SEAT_CHANNEL, TableRow, free_seat
from osteria.server.tables import Message, Table, TableError, Tables, lobby_entry, new_token


@dataclass
class Seated:
    """A seat taken by a quick join: at ``table`` when this process serves it (None: another does)."""

    table_id: str
    seat: int
    token: str
    new: bool
    table: Table | None


def open_tables(tables: Tables, game: str | None = None) -> list[Message]:
    """What the lobby lists: the listed tables waiting for players, and those in play with a seat
    its player left (of ``game``, if given), oldest first, whichever process serves them."""
    here = {t.id: t for t in tables.open_tables(game, playing=True)}
    if not tables.store.shared:
        return [t.lobby_entry() for t in here.values()]
    entries = []
    for row in tables.store.open_listed(game, playing=True):
        if row.id in tables.tables:  # what this process holds of its own is the newest
            if row.id in here:
                entries.append(here[row.id].lobby_entry())
            continue
        entry = _stored_entry(row)
        if entry is not None:
            entries.append(entry)
    return entries


def _stored_entry(row: TableRow) -> Message | None:
    """The lobby's entry of a table another process serves, as stored; None for one whose rules
    this process cannot make (a game it does not have)."""
    try:
        game = GAMES[row.game](row.seats, **row.options)
    except (KeyError, RulesError, ValueError, TypeError):
        return None
    started = row.started or all(p.taken for p in row.players)
    return lobby_entry(row, game, row.players, "playing" if started else "waiting")


def quick_join(tables: Tables, game: str, name: str | None, may_open: Callable[[], None]) -> Seated:
    """A seat for a player who just wants to play ``game`` (see ``Tables.quick_join``): with a
    shared database, the first free one at the oldest table waiting for players that any process
    serves, else a new table here, once ``may_open`` lets it be opened (it raises otherwise)."""
    if tables.store.shared:
        for row in tables.store.open_listed(game):
            table = tables.tables.get(row.id)
            if table is not None:
                try:
                    seat, token = table.join(row.invite, name, None)
                except TableError:
                    continue  # the name is taken there, or the seat was given a moment ago
                return Seated(table.id, seat, token, False, table)
            seated = _take_elsewhere(tables, row, name)
            if seated is not None:
                return seated
    if not tables.open_tables(game):
        may_open()  # a new table is to be opened here
    table, seat, token, new = tables.quick_join(game, name)
    return Seated(table.id, seat, token, new, table)


def _take_elsewhere(tables: Tables, row: TableRow, name: str | None) -> Seated | None:
    """A free seat of a table another process serves (or none does, for now), taken in the store;
    that process is told, and reads the table's seats again. None when none could be taken."""
    for p in filter(free_seat, row.players):
        token = new_token()
        refused = tables.store.take_free_seat(row.id, p.seat, name or p.name, token)
        if refused is None:
            tables.store.tell(SEAT_CHANNEL, row.id)
            return Seated(row.id, p.seat, token, False, None)
        if refused == "name_taken":
            return None
    return None


def hold(tables: Tables, table_id: str, seat: int, account: str) -> None:
    """``account`` holds the seat: at a table served here as ``Table.hold`` says, at another's in
    the store, that process told so."""
    table = tables.tables.get(table_id)
    if table is not None:
        table.hold(seat, account)
    else:
        tables.store.hold_seat(table_id, seat, account)
        tables.store.tell(SEAT_CHANNEL, table_id)
