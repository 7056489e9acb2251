"""Duplicate tournaments: every table plays the same boards, so the luck of the cards cancels.

A tournament of B boards and T tables seats T × seats entries: the players who registered, in
the order they did, table by table (in a partnership game partners one after the other: see
``place``), and bots of the tournament's level in the places left when it starts. Each board is one round: its seed,
drawn at the tournament's creation and published as a hash from then on, deals its first deal at
every table (later deals of a board, where the game's unit of score is several, from seeds the
board's seed fixes: ``fair.board_deal_seed``), so the same seat holds the same cards at every
table, and the first dealer is the same too. A round's tables are fresh matches that end with
the board (``Game.board_over``); the next round opens when every table of this one is done.
While a board is played anywhere, its seed, hands and records stay hidden and its tables take
no spectators; once the round is over the seed is revealed and anyone can check each table's
record against the commitment.

Scoring is by matchpoints, as in duplicate bridge: on each board an entry's score (its seat's
deal deltas, read the way the game counts, lower being better where points are poison) is
compared with the scores of the entries in the same seat at the other tables, who held the same
cards: 1 for each one beaten, ½ for each tie. The standings add each entry's matchpoints over
the boards every table has finished, as a share of the most it could have had.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Sequence
from typing import Any

from osteria.engine import JSON, RulesError
from osteria.rules import GAMES
from osteria.server import fair
from osteria.server.store import TOURNAMENT_CHANNEL, EntryRow, SeatRow, Store, TableRow, TournamentRow
from osteria.server.tables import Message, Table, TableError, Tables, bot_name, new_table_id, new_token, same_name

log = logging.getLogger("osteria.server")

MOST_BOARDS = 32
MOST_TABLES = 16


def new_tournament_id() -> str:
    return secrets.token_urlsafe(6)


def place(entry: int, seats: int, partnership: bool) -> tuple[int, int]:
    """The table and seat of an entry, for the whole tournament. Places are taken table by table;
    in a partnership game (sides {0, 2} and {1, 3}) in the order of seats 0, 2, 1, 3, so that two
    players who register one after the other are partners."""
    table, n = divmod(entry, seats)
    return table, (n % 2) * 2 + n // 2 if partnership else n


def matchpoints(scores: Sequence[Sequence[float]]) -> list[list[float]]:
    """Per table and seat, the matchpoints of a board's scores (``scores[table][seat]``, higher
    is better): against every other table, 1 where the seat's score is higher, ½ where equal."""
    return [[sum(1.0 if mine > other[seat] else 0.5 if mine == other[seat] else 0.0
                 for u, other in enumerate(scores) if u != t)
             for seat, mine in enumerate(row)] for t, row in enumerate(scores)]


def standings(entries: Sequence[EntryRow], boards: Sequence[Sequence[Sequence[float]]], sense: int,
              seats: int, partnership: bool = False) -> list[Message]:
    """The standings after ``boards``, each a board's deltas by table and seat, read with the
    game's ``sense`` (+1: higher is better, -1: lower), the entries seated by ``place``: per
    entry, its matchpoints on each board, their sum, their share of the most it could have had
    (every other table beaten on every board) and its deltas' sum; best first, entries level on
    matchpoints sharing a place."""
    points = [matchpoints([[sense * v for v in row] for row in scores]) for scores in boards]
    most = len(boards) * (len(boards[0]) - 1) if boards else 0
    found: list[Message] = []
    for e in entries:
        t, seat = place(e.entry, seats, partnership)
        on_boards = [board[t][seat] for board in points]
        total = sum(on_boards)
        found.append({"entry": e.entry, "name": e.name, "kind": e.kind, "level": e.level, "table": t, "seat": seat,
                      "boards": on_boards, "matchpoints": total,
                      "percent": round(100 * total / most, 1) if most else None,
                      "delta": sum(scores[t][seat] for scores in boards)})
    found.sort(key=lambda x: (-x["matchpoints"], x["entry"]))
    for rank, x in enumerate(found, 1):
        tied = rank > 1 and x["matchpoints"] == found[rank - 2]["matchpoints"]
        x["place"] = found[rank - 2]["place"] if tied else rank
    return found


class Tournament:
    """One tournament: its entries, its boards and the tables that play them."""

    def __init__(self, row: TournamentRow, tables: Tables) -> None:
        self.row = row
        self.id = row.id
        self.tables = tables
        rules = GAMES[row.game](row.seats, **row.options)
        self.sense, self.partnership = rules.sense, rules.partnership
        self._done: set[int] = set()  # the boards known to be done at every table

    @classmethod
    def create(cls, tables: Tables, game: str, seats: int | None, options: dict[str, JSON], boards: int,
               table_count: int, level: str) -> Tournament:
        """A new tournament, its boards' seeds drawn and committed now; TableError for a bad game,
        seat count, option or size."""
        if game not in GAMES:
            raise TableError("bad_request", f"unknown game {game!r}; games: {', '.join(GAMES)}")
        try:
            rules = GAMES[game](seats, **options)
        except (RulesError, ValueError, TypeError) as exc:
            raise TableError("bad_request", str(exc)) from None
        if not 1 <= boards <= MOST_BOARDS:
            raise TableError("bad_request", f"boards: from 1 to {MOST_BOARDS}, not {boards}")
        if not 2 <= table_count <= MOST_TABLES:
            raise TableError("bad_request", f"tables: from 2 to {MOST_TABLES}, not {table_count} "
                                            "(a board is compared across tables)")
        seeds = [(seed, fair.seed_hash(seed)) for seed in (fair.new_seed() for _ in range(boards))]
        row = TournamentRow(new_tournament_id(), game, rules.seats, rules.changed_options(), boards, table_count,
                            level, new_token(), False, time.time(), seeds)
        tables.store.create_tournament(row)
        return cls(row, tables)

    @property
    def store(self) -> Store:
        return self.tables.store

    @property
    def places(self) -> int:
        return self.row.seats * self.row.tables

    def place(self, entry: int) -> tuple[int, int]:
        """The table and seat of ``entry``."""
        return place(entry, self.row.seats, self.partnership)

    # -- the rounds ------------------------------------------------------------------------------

    def refresh(self) -> None:
        """With a database other processes share, the tournament as stored now: they may have
        registered entries, started it or opened a round."""
        if self.store.shared:
            found = self.store.load_tournaments(self.id)
            if found:
                self.row = found[0]

    def round_ids(self, board: int) -> list[str]:
        """The tables (by id) that play ``board``, by table number (none before its round opens),
        whichever process serves them."""
        return [self.row.played[(board, t)] for t in range(self.row.tables) if (board, t) in self.row.played]

    def round_tables(self, board: int) -> list[Table]:
        """The tables of ``board`` that this process serves."""
        return [self.tables.tables[i] for i in self.round_ids(board) if i in self.tables.tables]

    def results(self) -> dict[str, list[float]]:
        """Per table (by id) that finished its board, its seats' deltas over the board."""
        return self.store.board_results(self.id)

    def board_done(self, board: int, results: dict[str, list[float]] | None = None) -> bool:
        """Whether every table has played ``board`` to its end (``results``: as ``results()``
        says, read again when not given). Once done, a board stays done."""
        if board in self._done:
            return True
        played = self.round_ids(board)
        if len(played) < self.row.tables:
            return False
        results = self.results() if results is None else results
        if all(i in results for i in played):
            self._done.add(board)
        return board in self._done

    def latest_board(self) -> int | None:
        """The board of the latest round opened, played or done; None before the start."""
        return max((b for b, _ in self.row.played), default=None)

    def current_board(self, results: dict[str, list[float]] | None = None) -> int | None:
        """The board being played now; None before the start and once all are done."""
        board = self.latest_board()
        return None if board is None or self.board_done(board, results) else board

    def status(self, results: dict[str, list[float]] | None = None) -> str:
        if not self.row.started:
            return "registering"
        return "finished" if self.board_done(self.row.boards - 1, results) else "playing"

    def attach(self, table: Table, board: int) -> None:
        """Make ``table`` one of ``board``'s: secret while the round lasts (a table still playing
        it, surely), telling us its end. A table that finished it already has its result stored."""
        assert table.board is not None
        table.board.secret = lambda: not (table.over and self.board_done(board))
        table.board.ended = lambda: self.table_ended(table, board)
        if table.over:
            self.store_result(table, board)

    def store_result(self, table: Table, board: int) -> None:
        """The result of a table that finished ``board``, then the table's end (``Table.mark_ended``)."""
        self.store.add_board_result(table.id, self.id, board, [
            float(sum(r.delta[seat] for r in table.match.results)) for seat in range(self.row.seats)])
        table.mark_ended()

    def table_ended(self, table: Table, board: int) -> None:
        """A deal ended at ``table``: once it ends the board, its result is stored and the
        tournament moves on if the round is done."""
        if table.over:
            self.store_result(table, board)
            self.advance()

    def advance(self, announce: bool = True) -> None:
        """Once every table has finished the board of the latest round (wherever it was played),
        the next round opens, by one process alone (the one that holds the tournament's lock and
        finds it still unopened), and the tables of the round show the revealed seed: here, and,
        with ``announce``, at the other processes of a shared database."""
        with self.store.tournament_lock(self.id):
            self.refresh()
            board = self.latest_board()
            if board is None or not self.board_done(board):
                return
            if board + 1 < self.row.boards:
                self.open_round(board + 1)
        if announce:
            self.store.tell(TOURNAMENT_CHANNEL, self.id)
        self.reveal()

    def reveal(self) -> None:
        """The tables served here that finished their board show what the round's end revealed."""
        for table in [t for b in range(self.row.boards) for t in self.round_tables(b)]:
            if table.over:
                table.broadcast_state()

    def open_round(self, board: int) -> None:
        """A fresh table per table number, each dealt from the board's seed, play begun at once (a
        player who does not come is stood in for by a bot after the stand-in time); served by this
        process, until another is asked for one of them."""
        seed = self.row.seeds[board][0]
        seats = self.row.seats
        for t in range(self.row.tables):
            entries = sorted((self.place(e.entry)[1], e) for e in self.row.entries if self.place(e.entry)[0] == t)
            players = [SeatRow(seat, e.kind, e.level, e.name, new_token() if e.kind == "human" else None,
                               e.kind == "bot") for seat, e in entries]
            row = TableRow(new_table_id(), self.row.game, seats, dict(self.row.options),
                           fair.first_dealer_from_seed(seed, seats), new_token(), self.row.level, True, time.time(),
                           players, board_seed=seed, board_of=(self.id, board))
            self.store.create_board_table(row, self.id, board, t)
            table = Table(row, self.store, self.tables.scheduler, self.tables.settings)
            self.row.played[(board, t)] = table.id
            self.tables.tables[table.id] = table
            self.attach(table, board)
        for table in self.round_tables(board):
            table.resume()

    def catch_up(self) -> None:
        """A round owed is opened now: the one before it is done at every table, but the process
        that saw it end died before it opened the next (``advance`` opens it once, whoever asks)."""
        board = self.latest_board()
        if board is not None and board + 1 < self.row.boards and self.board_done(board):
            self.advance()

    def resume(self) -> None:
        """After a restart: a round whose tables all finished while the server stopped moves on
        (the other processes heard of any round's end when it came)."""
        self.advance(announce=False)

    # -- entries -------------------------------------------------------------------------------

    def register(self, name: str | None) -> tuple[int, str]:
        """A place for a player: his entry number and its token, told to him alone."""
        with self.store.tournament_lock(self.id):  # so that no two processes give one place
            self.refresh()
            if self.row.started:
                raise TableError("started", "the tournament has begun: registration is closed", 409)
            if len(self.row.entries) >= self.places:
                raise TableError("full", f"all {self.places} places are taken", 409)
            entry = len(self.row.entries)
            name = name or f"player {entry + 1}"
            if any(same_name(name, e.name) for e in self.row.entries):
                raise TableError("name_taken", f"the name {name!r} is taken in this tournament: choose another", 409)
            row = EntryRow(entry, "human", None, name, new_token())
            self.store.add_entry(self.id, row)
            self.row.entries.append(row)
        assert row.token is not None
        return entry, row.token

    def entry_of_token(self, token: str) -> EntryRow:
        for e in self.row.entries:
            if e.token is not None and secrets.compare_digest(e.token.encode(), token.encode()):
                return e
        raise TableError("forbidden", "this token holds no place in this tournament", 403)

    def start(self, organiser: str) -> None:
        """The organiser starts: bots take the places nobody registered for, the first round opens."""
        if not secrets.compare_digest(organiser.encode(), self.row.organiser.encode()):
            raise TableError("forbidden", "only the tournament's organiser may start it", 403)
        with self.store.tournament_lock(self.id):
            self.refresh()
            if self.row.started:
                return
            bots: list[EntryRow] = []
            for entry in range(len(self.row.entries), self.places):
                # A name no other entry has, in any case, so the standings tell every entry apart.
                taken = [e.name for e in [*self.row.entries, *bots]]
                name = bot_name(entry, taken)
                if any(same_name(name, other) for other in taken):
                    name = f"bot {entry + 1}"
                bots.append(EntryRow(entry, "bot", self.row.level, name, None))
            self.store.start_tournament(self.id, bots)
            self.row.entries.extend(bots)
            self.row.started = True
            self.open_round(0)

    def seat_of(self, token: str) -> tuple[str, int, str]:
        """Where an entry plays the board of the round now: the table's id, the seat and its token
        (the table served here or by another process)."""
        self.refresh()
        entry = self.entry_of_token(token)
        board = self.current_board()
        if board is None:
            if not self.row.started:
                raise TableError("waiting", "the tournament has not begun", 409)
            if self.status() == "finished":
                raise TableError("finished", "the tournament is over", 409)
            # A round is done and the process that saw it so is opening the next, a moment away.
            raise TableError("waiting", "the next round is opening: ask again in a moment", 409)
        at, seat_number = self.place(entry.entry)
        table_id = self.row.played[(board, at)]
        table = self.tables.tables.get(table_id)
        seat = table.seats[seat_number] if table is not None else self.store.seat_rows(table_id)[0][seat_number]
        assert seat.token is not None
        return table_id, seat.seat, seat.token

    # -- scores --------------------------------------------------------------------------------

    def board_scores(self, board: int, results: dict[str, list[float]]) -> list[list[float]] | None:
        """Per table and seat, the seat's deltas on ``board``, once every table has played it."""
        if not self.board_done(board, results):
            return None
        return [results[i] for i in self.round_ids(board)]

    def standings(self, results: dict[str, list[float]]) -> list[Message]:
        """Each entry's matchpoints on every board all the tables have finished, best first."""
        done = [s for b in range(self.row.boards) if (s := self.board_scores(b, results)) is not None]
        return standings(self.row.entries, done, self.sense, self.row.seats, self.partnership)

    def table_status(self, table_id: str, results: dict[str, list[float]]) -> str:
        table = self.tables.tables.get(table_id)
        if table is not None:
            return table.status
        return "finished" if table_id in results else "playing"  # a board's table plays from its opening

    def state(self) -> Message:
        """The tournament as everybody may see it: no token, no seed of a board still in play."""
        seats = self.row.seats
        results = self.results()
        return {
            "tournament_id": self.id, "game": self.row.game, "seats": seats, "options": dict(self.row.options),
            "boards": self.row.boards, "tables": self.row.tables, "level": self.row.level,
            "status": self.status(results), "board": self.current_board(results), "places": self.places,
            "scoring": "matchpoints", "lower_is_better": self.sense < 0,
            "entries": [{"entry": e.entry, "name": e.name, "kind": e.kind, "level": e.level,
                         "table": self.place(e.entry)[0], "seat": self.place(e.entry)[1]}
                        for e in self.row.entries],
            "commitments": [{"board": b, "seed_hash": published,
                             "seed": seed if self.board_done(b, results) else None}
                            for b, (seed, published) in enumerate(self.row.seeds)],
            "rounds": [{"board": b, "done": self.board_done(b, results), "scores": self.board_scores(b, results),
                        "tables": [{"table": t, "table_id": table_id, "status": self.table_status(table_id, results),
                                    "watch_link": f"/t/{table_id}"}
                                   for t, table_id in enumerate(self.round_ids(b))]}
                       for b in range(self.row.boards) if self.round_ids(b)],
            "standings": self.standings(results),
        }


class Tournaments:
    """The tournaments of the server, loaded from the store with the tables that play them; with
    a database that other processes share, also those made elsewhere, when asked for."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.tournaments: dict[str, Tournament] = {}
        for row in tables.store.load_tournaments():
            self._add(row)
        for table in tables.tables.values():
            if table.row.board_of is not None and table.row.board_of[0] in self.tournaments:
                self.tournaments[table.row.board_of[0]].attach(table, table.row.board_of[1])
        tables.board_opened = self.table_opened

    def _add(self, row: TournamentRow) -> Tournament | None:
        try:
            tournament = Tournament(row, self.tables)
        except (RulesError, KeyError, ValueError):
            log.exception("tournament %s cannot be rebuilt from the database; it stays closed", row.id)
            return None
        self.tournaments[row.id] = tournament
        return tournament

    def resume_all(self) -> None:
        for tournament in self.tournaments.values():
            tournament.resume()

    def get(self, tournament_id: str) -> Tournament:
        """The tournament, as stored now, with any round it owes opened; TableError (404) for none."""
        found = self.tournaments.get(tournament_id)
        if found is None and self.tables.store.shared:
            rows = self.tables.store.load_tournaments(tournament_id)
            found = self._add(rows[0]) if rows else None
        elif found is not None:
            found.refresh()
        if found is None:
            raise TableError("not_found", f"no tournament {tournament_id!r}", 404)
        found.catch_up()
        return found

    def table_opened(self, table: Table) -> None:
        """A table of a tournament's board, opened here from the store after the process that
        served it stopped or let it go: one of its board's again, and the tournament moves on if
        that table ended the round."""
        assert table.row.board_of is not None
        tournament_id, board = table.row.board_of
        try:
            tournament = self.get(tournament_id)
        except TableError:
            return
        tournament.attach(table, board)
        if table.over:
            tournament.advance()

    def heard(self, tournament_id: str) -> None:
        """Another process found a round of the tournament done: the tables served here show it."""
        tournament = self.tournaments.get(tournament_id)
        if tournament is not None:
            tournament.refresh()
            tournament.reveal()

    def create(self, game: str, seats: int | None, options: dict[str, Any], boards: int, tables: int,
               level: str) -> Tournament:
        tournament = Tournament.create(self.tables, game, seats, options, boards, tables, level)
        self.tournaments[tournament.id] = tournament
        return tournament
