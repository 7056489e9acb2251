"""The tables of the online osteria: the truth of each match, its seats, bots and watchers.

A :class:`Table` owns one :class:`~osteria.engine.Match`; every action goes through the engine,
is stored, and only then announced. Each client is sent what its seat may see (the engine's
observation of that seat) and a watcher what every seat sees alike (:func:`public_view`). Bots
think in a thread pool, never on the event loop, in the turns the scheduler gives each table (a
person's table first), and see only their seat's observation.
Everything that touches a match runs on the event loop's thread, so no two changes interleave.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import orjson

from osteria.bots import Bot, make_bot
from osteria.bots.levels import LEVELS
from osteria.engine import JSON, Game, IllegalAction, Match, RulesError, public_view
from osteria.i18n import Reason
from osteria.records import replay
from osteria.rules import GAMES
from osteria.server import club, fair
from osteria.server.scheduler import Scheduler
from osteria.server.store import CHAT_KEPT, ChatLine, SeatRow, Store, TableRow, free_seat
from osteria.views import TableView, view_for

Message = dict[str, Any]
Observations = dict[int, dict[str, JSON]]  # the views of one state, by seat (WATCHER: a watcher's)
log = logging.getLogger("osteria.server")

LANGUAGES = ("it", "en")  # the languages of the lines sent with every state, unless a client asks for one
WATCHER = -1  # the seat a watcher's view is drawn for: none, so no side is called "we"
# The bots' names, regulars of an osteria: distinct, so the table's lines tell the bots apart (the
# page shows each bot's level beside its name).
BOT_NAMES = ("Peppino", "Totò", "Nina", "Ciccio", "Rosina", "Tano", "Mimì", "Saro")


def encode(message: Message) -> str:
    # orjson: a move is announced in a message to every client, and the standard library's
    # encoder took a sixth of the server's time under load.
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


# The parts of a state (each an object) that a patch changes key by key; the state's other keys
# it replaces whole.
PATCHED = ("table", "view", "lines")
_ABSENT = object()


def changes(before: Message, after: Message, skip: tuple[str, ...] = ()) -> tuple[Message, list[str]]:
    """What differs from ``before`` in ``after``, but for the keys in ``skip``: the keys whose
    values changed or came, with their values, and the keys gone. Values are compared as they
    are: a state's parts are made anew or, where cached, replaced, and never changed in place once
    sent (the tests hold every patch to the whole state it stands for)."""
    get = before.get
    # A value kept from one state to the next (the match's keys, a cached part) is the same
    # object, alike without being compared.
    changed = {key: value for key, value in after.items()
               if key not in skip and (old := get(key, _ABSENT)) is not value and old != value}
    return changed, [key for key in before if key not in after and key not in skip]


def patch(before: Message, after: Message, table: tuple[Message, list[str]] | None = None) -> Message:
    """The ``patch`` message that turns the state ``before`` into the state ``after``: under
    ``set`` the keys that changed, but for ``table``, ``view`` and ``lines``, which list only their
    own keys that changed, and under ``drop`` those of their keys that are gone. ``table``: the
    changes of the table's part, where already made."""
    # Every state has the same keys at its top (``state_message``): none is ever gone there.
    message: Message = {"type": "patch", "set": changes(before, after, PATCHED)[0]}
    dropped: Message = {}
    for key in PATCHED:
        changed, gone = table if key == "table" and table is not None else changes(before[key], after[key])
        if changed:
            message[key] = changed
        if gone:
            dropped[key] = gone
    if dropped:
        message["drop"] = dropped
    return message


def patched(state: Message, message: Message) -> Message:
    """``state`` with a ``patch`` message applied, as a new state (``state`` is left as it was):
    what a client that asked for patches does with each (the page does the same in its script)."""
    state = {**state, **message["set"], "type": "state"}
    dropped = message.get("drop", {})
    for key in PATCHED:
        if key in message or key in dropped:
            part = {**state[key], **message.get(key, {})}
            for gone in dropped.get(key, ()):
                del part[gone]
            state[key] = part
    return state


class TableState:
    """The table's state in a broadcast, the same in every client's: encoded once, and its changes
    from a state before made once."""

    def __init__(self, state: Message) -> None:
        self.state = state
        # By the id of the table's state a client was last sent: that state (kept, so that no
        # other object takes its id meanwhile) and the changes from it.
        self._changes: dict[int, tuple[Message, tuple[Message, list[str]]]] = {}

    @functools.cached_property
    def text(self) -> orjson.Fragment:
        return orjson.Fragment(orjson.dumps(self.state, option=orjson.OPT_NON_STR_KEYS))

    def changes_from(self, before: Message) -> tuple[Message, list[str]]:
        made = self._changes.get(id(before))
        if made is None:
            made = self._changes[id(before)] = (before, changes(before, self.state))
        return made[1]


class Outgoing:
    """A state on its way to the clients alike (one seat, one language): encoded whole, and as a
    patch from each state they were last sent, each made once however many clients get it."""

    def __init__(self, message: Message, table: TableState) -> None:
        self.message, self.table = message, table
        # By the id of the state a client was last sent: that state (kept, as above) and the
        # patch from it, encoded.
        self._patches: dict[int, tuple[Message, str]] = {}

    @functools.cached_property
    def text(self) -> str:
        return encode({**self.message, "table": self.table.text})

    def send(self, client: Client) -> None:
        before = client.sent if client.patches else None
        if before is None:
            client.send(self.text)
        else:
            made = self._patches.get(id(before))
            if made is None:
                text = encode(patch(before, self.message, self.table.changes_from(before["table"])))
                made = self._patches[id(before)] = (before, text)
            client.send(made[1])
        if client.patches:
            client.sent = self.message


def new_token() -> str:
    """A secret: a seat's token or a table's invite."""
    return secrets.token_urlsafe(16)


def new_table_id() -> str:
    return secrets.token_urlsafe(6)


def new_bot_seed() -> int:
    return secrets.randbits(63)


def new_first_dealer(seats: int) -> int:
    return secrets.randbelow(seats)


def bot_name(seat: int, taken: Sequence[str]) -> str:
    """A name for a bot that no other seat has."""
    return next((name for name in BOT_NAMES if name not in taken), f"bot {seat}")


def seat_link(table_id: str, seat: int | None, token: str | None) -> str:
    """The link that plays a seat (a seat the caller knows is held by ``token``): for its player alone."""
    return f"/t/{table_id}?seat={seat}&token={token}"


def same_name(a: str, b: str) -> bool:
    """Whether two names would be told apart by nobody at the table: "anna" is "Anna"."""
    return a.casefold() == b.casefold()


def lobby_entry(row: TableRow, game: Game, seats: Sequence[SeatRow], status: str) -> Message:
    """A table as the lobby lists it (``game``: its rules; ``seats`` as they are now): the game,
    its rules, who sits where, the free seats and the invite to take one (a listed table's invite
    is public); no token."""
    return {"table_id": row.id, "game": game.name, "seats": game.seats,
            "options": dict(game.options), "stand_in_level": row.stand_in_level,
            "players": [{"seat": s.seat, "name": s.name if s.taken else None, "kind": s.kind,
                         "level": s.level, "taken": s.taken} for s in seats],
            "status": status, "free": sum(1 for s in seats if free_seat(s)),
            "invite_link": f"/t/{row.id}?invite={row.invite}",
            "created": row.created}


class TableError(Exception):
    """A request the table refuses: ``code`` names the kind (see docs/online.md), ``status``
    is the HTTP status when it came over HTTP; ``reason``, where the rules refused an action,
    says why in a way each client's view puts in its own language."""

    def __init__(self, code: str, message: str, status: int = 400, reason: Reason | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.status, self.reason = code, message, status, reason


@dataclass
class Board:
    """What makes a table one board of a duplicate tournament (see tournament.py): its deals come
    from the board's committed seed, the same at every table of the round, and play ends with the
    board. While other tables still play the board, its seeds and hands are kept from everyone
    (``secret``: until its tournament says otherwise, they are); ``ended`` is told whenever a
    deal ends here."""

    seed: str
    secret: Callable[[], bool] = lambda: True
    ended: Callable[[], None] = lambda: None


@dataclass
class Seat(SeatRow):
    """A seat as stored, with what play adds to it."""

    bot: Bot | None = None  # the seat's own bot, or the stand-in of an absent player once needed
    stand_in: bool = False  # a bot plays for the absent player
    connections: int = 0


class Client:
    """One WebSocket: its seat (None: a watcher), the account it is signed in with (None: a guest)
    and the messages waiting to be sent to it."""

    most_waiting = 1000  # messages a client may leave unread before it is dropped

    def __init__(self, seat: int | None, languages: tuple[str, ...] = LANGUAGES, account: str | None = None,
                 patches: bool = False) -> None:
        self.seat = seat
        self.account = account
        # The languages of the lines it is sent: drawing them is most of a state's cost, and a page
        # shows one at a time.
        self.languages = languages
        # A client that asks for patches is sent a whole state first, then what changed (see
        # ``patch``): most of a state is the same from one move to the next, and its bytes cost
        # the socket's compression and frames.
        self.patches = patches
        self.sent: Message | None = None  # the last state it was sent
        self.closed = False
        self.close_code = 1000
        self._waiting: deque[Message | str] = deque()
        self._ready = asyncio.Event()

    def send(self, message: Message | str) -> None:
        """Queue a message: a JSON object, or one already encoded (sent to many, encoded once)."""
        if self.closed:
            return
        if len(self._waiting) >= self.most_waiting:
            self.close(4429)  # it reads nothing: drop it rather than let its messages pile up
            return
        self._waiting.append(message)
        self._ready.set()

    def close(self, code: int = 1000) -> None:
        """Stop sending; the socket closes with ``code`` (4429: a client over the limits)."""
        if not self.closed:
            self.close_code = code
        self.closed = True
        self._waiting.clear()
        self._ready.set()

    async def next_messages(self) -> list[Message | str]:
        """The messages waiting, once there are some; an empty list once the client is closed."""
        await self._ready.wait()
        self._ready.clear()
        if self.closed:
            return []
        messages = list(self._waiting)
        self._waiting.clear()
        return messages


@dataclass
class Settings:
    stand_in_after: float = 60.0  # seconds a player may take before a bot plays for him
    bot_delay: float = 0.6  # the least time a bot takes for a move
    hint_time: float = 1.0  # seconds of search for a hint
    analysis_time: float = 0.2  # seconds of honest search per step of an analysis
    analysis_nodes: int | None = None  # the solver's budget per position of an analysis (None: the default)
    tables_per_minute: float = 60.0  # tables one address may open, after a first burst
    tables_burst: int = 300
    sockets_per_address: int = 32  # live sockets one address may hold, at all tables together
    sockets_per_table: int = 200  # live sockets at one table, players and spectators
    chat_per_minute: float = 30.0  # chat lines one address may send to one table, after a burst of 5
    sign_ins_per_minute: float = 6.0  # sign-ups and sign-ins one address may try, after a burst of 10
    # Seconds between two looks, on a database that several processes share, for the tables that
    # no process serves any more (the one that did stopped), to serve them here.
    claim_every: float = 5.0
    # Seconds a table whose play is over stays in memory after its last client left or it was
    # last asked for; then it lives in the store alone until asked for again (``Tables.drop_idle``).
    keep_over: float = 600.0


class Table:
    """One table: a match, its seats and its clients."""

    def __init__(self, row: TableRow, store: Store, scheduler: Scheduler, settings: Settings) -> None:
        self.id = row.id
        self.row = row
        self.store = store
        self.scheduler = scheduler
        self.settings = settings
        self.game: Game = GAMES[row.game](row.seats, **row.options)
        self.seats = [Seat(p.seat, p.kind, p.level, p.name, p.token, p.taken) for p in row.players]
        # Once dealt, the first deal's dealer is the one its seed drew.
        first_dealer = row.deals[0][0] if row.deals else row.first_dealer
        self.match = Match(self.game, players=[s.name for s in self.seats], dealer=first_dealer)
        self.seeds: list[tuple[str, str]] = []  # per deal: (seed, seed_hash)
        self.board = None if row.board_seed is None else Board(row.board_seed)
        self.chat: list[ChatLine] = list(row.chat)
        self.chat_lines = row.chat[-1].line + 1 if row.chat else 0
        self.clients: set[Client] = set()
        self.move = 0
        self.last: Message | None = None
        self._views: dict[tuple[str, int], TableView] = {}  # by language and seat (WATCHER for watchers)
        self._words: dict[str, dict[str, str]] = {}
        self._told: tuple[tuple[int, int, bool], list[Message], Message] | None = None  # see _deals_told
        self._bot_task: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._timer_for: tuple[int, int] | None = None  # the (seat, move) the stand-in timer waits on
        self._hinting: set[int] = set()
        self._analyses: dict[int, Message] = {}
        self._analysing = False
        self.touched = time.monotonic()  # when it was last asked for, or its last client left
        self.rematch_agreed = set(row.rematch_asked)  # the seats whose players asked for a rematch
        for deal_index, (dealer, seed, published) in enumerate(row.deals):
            if row.last_round is not None and row.last_round[0] == deal_index:
                self.match.declare_last_round(row.last_round[1])
            hands, stock = fair.deal_from_seed(self.game, seed)
            self.match.begin_deal(hands, stock, dealer)
            self.seeds.append((seed, published))
            for seat, action, _by_bot in row.actions[deal_index]:
                assert self.match.to_move == seat, f"table {self.id}: stored action {action!r} out of turn"
                self.match.play(action)
                self.move += 1
        if row.last_round is not None and row.last_round[0] == len(row.deals):  # declared between deals
            self.match.declare_last_round(row.last_round[1])
        for s in self.seats:
            if s.kind == "bot":
                s.bot = make_bot(s.level or "medio", game=self.game.name, seed=new_bot_seed())
            elif self.row.started and not s.taken and s.token is None:
                # Its player left during play (his token went with him): a bot plays it until
                # someone takes it. A tournament's seat, not taken yet, keeps its player's token.
                s.stand_in = True
        # The server deals from its own committed seeds, never from the match's generator.
        self._ensure_deal()

    # -- creating ------------------------------------------------------------------------------

    @classmethod
    def create(cls, store: Store, scheduler: Scheduler, settings: Settings, game: str, seats: int | None,
               options: dict[str, JSON], players: Sequence[tuple[str, str | None, str | None]],
               stand_in_level: str, listed: bool = False) -> Table:
        """A new table; RulesError (or ValueError) for a bad game, seat count, option or level.
        ``players``: per seat (kind, level, name); empty for the usual ones. ``seats`` defaults to
        the number of players given, else the game's usual number. ``listed``: shown in the lobby."""
        if game not in GAMES:
            raise RulesError(f"unknown game {game!r}; games: {', '.join(GAMES)}")
        rules = GAMES[game](len(players) if seats is None and players else seats, **options)
        if not players:
            players = [("human", None, None)] + [("bot", "medio", None)] * (rules.seats - 1)
        if len(players) != rules.seats:
            raise RulesError(f"{game}: {len(players)} players for {rules.seats} seats")
        for level in [stand_in_level, *(level for kind, level, _ in players if kind == "bot")]:
            if level not in LEVELS:
                raise RulesError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
        names: list[str] = [name or "" for _, _, name in players]
        for seat, (kind, _, name) in enumerate(players):
            names[seat] = name or (bot_name(seat, names) if kind == "bot" else f"seat {seat}")
        for seat, name in enumerate(names):
            if any(same_name(name, other) for other in names[:seat]):
                raise RulesError(f"two seats are named {name!r}: a name is one seat's at a table")
        # Only the creator's seat (the first human one) gets its token now: a friend's is minted
        # when he joins, so that nobody ever holds the token of a seat he did not take.
        creator = next((seat for seat, (kind, _, _) in enumerate(players) if kind == "human"), None)
        rows = [SeatRow(seat, kind, level if kind == "bot" else None, names[seat],
                        new_token() if seat == creator else None, kind == "bot")
                for seat, (kind, level, _) in enumerate(players)]
        row = TableRow(new_table_id(), game, rules.seats, rules.changed_options(),
                       new_first_dealer(rules.seats), new_token(), stand_in_level, False, time.time(), rows,
                       listed=listed)
        store.create_table(row)
        table = cls(row, store, scheduler, settings)
        table.resume()
        return table

    # -- state -----------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """The match is finished, or, at a tournament's table, its board is."""
        return self.match.finished or (self.board is not None and self.game.board_over(self.match.results))

    @property
    def secret(self) -> bool:
        """Whether the seeds and hands of the deals played here are still to be kept from everyone."""
        return self.board is not None and self.board.secret()

    @property
    def status(self) -> str:
        if self.over:
            return "finished"
        return "playing" if self.started else "waiting"

    @property
    def started(self) -> bool:
        return self.row.started or all(s.taken for s in self.seats)

    def state(self) -> Message:
        """The table as everybody may see it: seats, deals' seed hashes, scores; no card."""
        deals, result = self._deals_told()
        return {
            "table_id": self.id, "game": self.game.name, "seats": self.game.seats,
            "options": dict(self.game.options), "status": self.status,
            "players": [{"seat": s.seat, "name": s.name, "kind": s.kind, "level": s.level, "taken": s.taken,
                         "connected": s.connections > 0, "stand_in": s.stand_in} for s in self.seats],
            "spectators": sum(1 for c in self.clients if c.seat is None),
            "watchers": self.watchers(),
            "move": self.move, "deal_index": len(self.match.deals) - 1,
            "deals": deals,
            "result": result,
            "last_round": self.match.last_round,
            "clock": self.clock(),
            # A tournament's board has no rematch: its next board is the tournament's to deal.
            "rematch": None if not self.match.finished or self.board is not None else {
                "agreed": sorted(self.rematch_agreed), "table_id": self.row.rematch},
        }

    def _deals_told(self) -> tuple[list[Message], Message]:
        """The deals as the table's state lists them (each seed once its deal is over, unless it
        is still secret) and the match's result: made again only when a deal begins or ends, or
        the seeds' secret ends, since every move's state tells them."""
        over, secret = len(self.match.results), self.secret
        key = (len(self.match.deals), over, secret)
        if self._told is None or self._told[0] != key:
            deals: list[Message] = [{"deal_index": i, "dealer": d.dealer, "seed_hash": self.seeds[i][1],
                                     "seed": self.seeds[i][0] if i < over and not secret else None}
                                    for i, d in enumerate(self.match.deals)]
            self._told = key, deals, self.match.result()
        return self._told[1], self._told[2]

    def watchers(self) -> Message:
        """Who watches: the accounts signed in among the spectators (each once, however many pages
        it has open), and how many spectators' pages are a guest's."""
        watching = [c for c in self.clients if c.seat is None]
        return {"names": sorted({c.account for c in watching if c.account is not None}, key=str.casefold),
                "guests": sum(1 for c in watching if c.account is None)}

    def public_state(self) -> Message:
        """The state as anyone may ask for it: while the board is played at other tables of its
        tournament, without the results, which tell those tables' players how the cards went."""
        state = self.state()
        if self.secret:
            state["result"] = None
        return state

    def clock(self) -> Message | None:
        """The turn clock while a player's stand-in waits: his seat, the seconds left before a bot
        plays for him and the stand-in time, so that the pages count down (None: no clock runs)."""
        if self._timer is None or self._timer_for != (self.match.decider, self.move):
            return None
        left = max(0.0, self._timer.when() - asyncio.get_running_loop().time())
        return {"seat": self._timer_for[0], "seconds": round(left, 1), "limit": self.settings.stand_in_after}

    def record(self) -> dict[str, JSON]:
        """The osteria/1 record up to the last finished deal, with each deal's seed and hash: the
        deal in progress is left out, since a record shows every hand as dealt. TableError while
        the board is played at other tables of its tournament."""
        if self.secret:
            raise TableError("secret", "this board is still being played at other tables of the tournament", 403)
        record = self.match.record()
        finished = record["deals"][:len(self.match.results)]
        record["deals"] = [self.seeded(entry, index) for index, entry in enumerate(finished)]
        return record

    def seeded(self, entry: dict[str, JSON], index: int) -> dict[str, JSON]:
        """A record's entry of deal ``index``, with the deal's seed and its hash."""
        entry["seed"], entry["seed_hash"] = self.seeds[index]
        return entry

    def table_view(self, lang: str, seat: int | None) -> TableView:
        """The game's view for ``seat`` (None: a watcher), which draws the table in the game's words."""
        key = (lang, WATCHER if seat is None else seat)
        if key not in self._views:
            self._views[key] = view_for(self.game, lang, self.match.players, key[1])
        return self._views[key]

    def words(self, action: str) -> dict[str, str]:
        """An action with its words at the table, Italian and English, as a state lists it (one
        dict for the action at every state: it is only encoded)."""
        if action not in self._words:
            self._words[action] = {"action": action, **{lang: self.table_view(lang, None).action(action, explain=True)
                                                        for lang in LANGUAGES}}
        return self._words[action]

    def lines(self, seat: int | None, view: dict[str, JSON], languages: tuple[str, ...]) -> dict[str, list[str]]:
        """The table's information in the game's words, per language, drawn from ``view`` alone (what
        the client of ``seat`` is sent), so they tell nothing the view does not."""
        said = {}
        for lang in languages:
            drawn = self.table_view(lang, seat)
            drawn.note(view)
            said[lang] = drawn.beside(view)
        return said

    def announce_deal_end(self, deal_index: int) -> None:
        """Tell every client a deal is over: its result, its seed, its hands, and the result in the
        game's words as the client's seat says it (a side is "we" to its own players)."""
        result = self.match.results[deal_index].as_json()
        totals = self.match.totals()
        # A board still played elsewhere: its seed and hands wait for the tournament's round to end.
        message = {"type": "deal_end", "deal_index": deal_index, "result": result,
                   "seed": None if self.secret else self.seeds[deal_index][0], "seed_hash": self.seeds[deal_index][1],
                   "deal": None if self.secret else self.seeded(self.match.deal_record(deal_index), deal_index)}
        told: dict[int | None, str] = {}
        for client in list(self.clients):
            if client.seat not in told:
                told[client.seat] = encode({**message, "lines": {
                    lang: self.table_view(lang, client.seat).deal_result(deal_index, result, totals)
                    for lang in LANGUAGES}})
            client.send(told[client.seat])

    def view(self, seat: int | None, deal: int | None = None, seen: Observations | None = None) -> dict[str, JSON]:
        """What ``seat`` sees (None: a watcher) of the current deal, or of deal ``deal``; ``seen``:
        the views of the current deal made for this state (every seat's, and a watcher's as seat
        WATCHER once made), which it makes when they are not yet."""
        if deal is not None or seen is None:
            if seat is not None:
                return self.match.observation(seat, deal)
            return public_view([self.match.observation(s, deal) for s in range(self.game.seats)])
        if not seen:
            seen.update(enumerate(self.match.observations()))
        if seat is None and WATCHER not in seen:
            seen[WATCHER] = public_view([seen[s] for s in range(self.game.seats)])
        # A copy: the state message sets some of its keys, and other messages share the observation.
        return dict(seen[WATCHER if seat is None else seat])

    def state_message(self, seat: int | None, table: Message | None = None,
                      languages: tuple[str, ...] = LANGUAGES, seen: Observations | None = None) -> Message:
        """What a client of ``seat`` is sent (``table``: the table's state, if already made), its
        lines in ``languages``; ``seen``: the views made for this state so far (see ``view``)."""
        view = self.view(seat, seen=seen)
        started = self.started
        if not started:
            view["legal_actions"] = []  # nobody moves before play begins
        lines = self.lines(seat, view, languages)
        drawn = self.table_view(languages[0], seat)  # noted by lines(): it orders cards as the game does
        hand = view.get("hand")
        view["hand"] = drawn.in_order(hand)
        if isinstance(view.get("hands"), list):  # the seat's own hand among them, sorted once
            view["hands"] = [view["hand"] if cards == hand else drawn.in_order(cards) for cards in view["hands"]]
        legal = drawn.ordered(view["legal_actions"])
        # The seat that may declare the last round now (Calabresella's dealer) is told so.
        last_deal = None if seat is None or not started else self.match.last_deal_if_declared(seat)
        return {"type": "state", "table": table or self.state(), "seat": seat, "view": view,
                "legal": [self.words(a) for a in legal], "last": self.last_seen(seat), "lines": lines,
                "last_round_offer": None if last_deal is None else {"last_deal": last_deal}}

    def last_seen(self, seat: int | None) -> Message | None:
        """The last action as ``seat`` may know it: whole where every other seat's view shows it
        whole, else only to the actor (an action can hide a part from the others: a discard,
        the suit an accuso leaves out, a cenno), the others getting null."""
        if self.last is None:
            return None
        shown = self.last["public"] or seat == self.last["seat"]
        return {"seat": self.last["seat"], "action": self.last["action"] if shown else None, "move": self.last["move"]}

    def broadcast_state(self, seen: Observations | None = None) -> None:
        """Send every client the state as its seat sees it, whole or as a patch (see ``patch``);
        ``seen``: the seats' observations of the current deal as they are now, where the caller has
        made some already."""
        table = TableState(self.state())
        seen = {} if seen is None else seen
        states: dict[tuple[int | None, tuple[str, ...]], Outgoing] = {}
        for client in list(self.clients):
            told = (client.seat, client.languages)
            if told not in states:
                states[told] = Outgoing(self.state_message(client.seat, table.state, client.languages, seen), table)
            states[told].send(client)

    def speak(self, client: Client, lang: str) -> None:
        """From now on ``client`` is sent the lines of ``lang`` alone, beginning with a whole state now."""
        client.languages = (lang,)
        client.sent = None
        table = TableState(self.state())
        Outgoing(self.state_message(client.seat, table.state, client.languages), table).send(client)

    def send_all(self, message: Message) -> None:
        text = encode(message)
        for client in list(self.clients):
            client.send(text)

    # -- clients -------------------------------------------------------------------------------

    def free_seats(self) -> list[Seat]:
        """The human seats an invite may still take: nobody took them, and no token holds them."""
        return [s for s in self.seats if free_seat(s)]

    def lobby_entry(self) -> Message:
        return lobby_entry(self.row, self.game, self.seats, self.status)

    def seat_of_token(self, token: str | None) -> int | None:
        """The seat a token holds; None for no token (a watcher); TableError for a wrong one."""
        if token is None:
            return None
        for s in self.seats:
            if s.token is not None and secrets.compare_digest(s.token.encode(), token.encode()):
                return s.seat
        raise TableError("forbidden", "this token holds no seat at this table", 403)

    def connect(self, client: Client) -> None:
        self.clients.add(client)
        if client.seat is not None:
            s = self.seats[client.seat]
            s.connections += 1
            if not s.taken:
                self.store.take_seat(self.id, s.seat, s.name)
                s.taken = True
            self.came_back(client.seat)
        for line in self.chat[-CHAT_KEPT:]:
            client.send(line.as_json())
        self.resume()
        self.broadcast_state()

    def disconnect(self, client: Client) -> None:
        self.clients.discard(client)
        self.touched = time.monotonic()
        client.close()
        if client.seat is not None:
            self.seats[client.seat].connections -= 1
        self.broadcast_state()

    def join(self, invite: str, name: str | None, seat: int | None) -> tuple[int, str]:
        """Take a free human seat with the table's invite: the seat and its token, minted now and
        told to this player alone. A seat that holds a token (the creator's, from creation) is
        never free."""
        if not secrets.compare_digest(invite.encode(), self.row.invite.encode()):
            raise TableError("forbidden", "this invite is not the table's", 403)
        free = self.free_seats()
        if seat is not None:
            free = [s for s in free if s.seat == seat]
        if not free:
            raise TableError("taken", "no free seat" if seat is None else f"seat {seat} is not free", 409)
        chosen = free[0]
        # Refused rather than changed to "Anna 2": the chat, the scores and the turn say who is
        # who by name, and the player himself chooses how he is to be told apart.
        if name and any(same_name(name, s.name) for s in self.seats if s is not chosen):
            raise TableError("name_taken", f"the name {name!r} is taken at this table: choose another", 409)
        token = new_token()
        refused = self.store.take_free_seat(self.id, chosen.seat, name or chosen.name, token)
        if refused is not None:
            # Another process of the shared database gave the seat (or the name) a moment ago.
            self.reload_seats()
            raise TableError(refused, "the seat was just taken" if refused == "taken" else
                             f"the name {name!r} is taken at this table: choose another", 409)
        if name:
            chosen.name = name
            self.match.players[chosen.seat] = name
            self._views.clear()
        chosen.taken, chosen.token = True, token
        self.resume()
        self.broadcast_state()
        return chosen.seat, token

    def reload_seats(self) -> None:
        """Another process of the shared database changed the table's seats in the store (a player
        took one there, an account holds one): the seats and holders are read again, and the
        table goes on as they say."""
        stored, self.row.holders = self.store.seat_rows(self.id)
        changed = False
        for s, row in zip(self.seats, stored, strict=True):
            if (s.name, s.token, s.taken) != (row.name, row.token, row.taken):
                s.name, s.token, s.taken = row.name, row.token, row.taken
                self.match.players[s.seat] = s.name
                changed = True
        if changed:
            self._views.clear()
            self.resume()
            self.broadcast_state()

    def pass_on(self, seat: int | None) -> str:
        """A fresh token for ``seat``, to hand the seat to someone else; the old one plays no more
        and the clients that came with it are closed (4403, as for a wrong token)."""
        if seat is None:
            raise TableError("spectator", "a spectator holds no seat to pass on", 403)
        token = new_token()
        self.store.set_token(self.id, seat, token)
        self.seats[seat].token = token
        for client in [c for c in self.clients if c.seat == seat]:
            client.close(4403)
        return token

    def leave(self, seat: int | None) -> None:
        """The player of ``seat`` leaves the table: his token holds the seat no more (the clients
        that came with it are closed, 4403) and no account holds it; the seat is free for the
        invite. In play a bot of the stand-in level plays it at once, under a bot's name, until
        someone takes it; a finished match keeps his name, which its record and result say.
        Everybody is told who left (``left``)."""
        if seat is None:
            raise TableError("spectator", "a spectator holds no seat to leave", 403)
        s = self.seats[seat]
        left = s.name
        started, playing = self.started, self.status == "playing"
        if playing:
            s.name = bot_name(seat, [o.name for o in self.seats if o is not s])
        elif not started:
            s.name = f"seat {seat}"
        self.store.leave_seat(self.id, seat, s.name, started)
        self.row.started = started
        self.row.holders.pop(seat, None)
        s.token, s.taken = None, False
        s.stand_in = playing
        self.match.players[seat] = s.name
        self._views.clear()
        self.rematch_agreed.discard(seat)
        if self._timer is not None and self._timer_for is not None and self._timer_for[0] == seat:
            self._timer.cancel()  # no clock for a seat a bot plays
            self._timer = None
        for client in [c for c in self.clients if c.seat == seat]:
            client.close(4403)
        self.send_all({"type": "left", "seat": seat, "name": left, "now": s.name})
        self.resume()
        self.broadcast_state()

    def people(self) -> list[int]:
        """The seats a person holds now (by his token)."""
        return [s.seat for s in self.seats if s.kind == "human" and s.token is not None]

    def agree_rematch(self, seat: int | None) -> None:
        """The player of ``seat`` asks for a rematch of the finished match (see Tables.rematch)."""
        if seat is None:
            raise TableError("spectator", "a spectator does not ask for a rematch", 403)
        if self.board is not None:
            raise TableError("tournament", "a tournament's board has no rematch: the tournament deals the next")
        if not self.match.finished:
            raise TableError("not_finished", "a rematch is for a finished match")
        if self.row.rematch is None and seat not in self.rematch_agreed:
            self.store.ask_rematch(self.id, seat)
            self.rematch_agreed.add(seat)
            self.broadcast_state()

    def rematch_due(self) -> bool:
        """Whether every person seated has asked for a rematch, and none was made yet."""
        people = self.people()
        return self.row.rematch is None and bool(people) and set(people) <= self.rematch_agreed

    def start(self, seat: int | None) -> None:
        """A seated player starts the play: seats nobody took get a bot of the stand-in level."""
        if seat is None:
            raise TableError("spectator", "only a seated player may start the play", 403)
        if self.started:
            return
        level = self.row.stand_in_level
        empty = [s for s in self.seats if not s.taken]
        names = [s.name if s.taken else "" for s in self.seats]
        for s in empty:
            names[s.seat] = bot_name(s.seat, names)
        made = self.store.start(self.id, [(s.seat, level, names[s.seat]) for s in empty])
        if len(made) < len(empty):
            # Another process of the shared database gave a seat a moment ago: its player keeps it.
            self.reload_seats()
        for s in (self.seats[seat] for seat in made):
            s.kind, s.level, s.name, s.token, s.taken = "bot", level, names[s.seat], None, True
            s.bot = make_bot(level, game=self.game.name, seed=new_bot_seed())
            self.match.players[s.seat] = s.name
        self.row.started = True
        self._views.clear()
        self.resume()
        self.broadcast_state()

    def came_back(self, seat: int) -> None:
        """A player is here (he connected or sent something): his stand-in steps aside."""
        s = self.seats[seat]
        if s.stand_in:
            s.stand_in = False
            self.resume()
            self.broadcast_state()

    # -- play ----------------------------------------------------------------------------------

    def attended(self) -> bool:
        """Whether a person plays here now (a human seat connected): the scheduler serves his
        table's bots before those of tables that only bots play."""
        return any(s.kind == "human" and s.connections > 0 for s in self.seats)

    def resume(self) -> None:
        """Deal when a deal is due and let whoever must move next do so (a bot now, a player
        within the stand-in time)."""
        if not self.started:
            return
        self._ensure_deal()  # none once the match (or the board) is over
        seat = self.match.decider
        # A clock that is not this turn's stops, the last move's too once nobody moves any more.
        if self._timer is not None and self._timer_for != (seat, self.move):
            self._timer.cancel()
            self._timer = None
        if self.over or seat is None or self._bot_task is not None:
            return
        s = self.seats[seat]
        if s.kind == "bot" or s.stand_in:
            self._bot_task = asyncio.get_running_loop().create_task(self._bot_move(seat, self.move))
        elif self._timer is None:
            self._timer_for = (seat, self.move)
            self._timer = asyncio.get_running_loop().call_later(
                self.settings.stand_in_after, self._stand_in, seat, self.move)

    def idle_over(self, since: float) -> bool:
        """Whether the table may leave memory: its play is over, nobody is here or works for it,
        and nobody asked for it after ``since`` (a ``time.monotonic()``)."""
        return (self.over and not self.clients and self._bot_task is None and not self._analysing
                and not self._hinting and self.touched <= since)

    def close(self, code: int) -> None:
        """This process serves the table no more: nothing moves here any more (its bot and its
        stand-in's clock are stopped) and its clients are closed with ``code``."""
        if self._bot_task is not None:
            self._bot_task.cancel()
            self._bot_task = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for client in list(self.clients):
            client.close(code)

    def _ensure_deal(self) -> list[Message]:
        """Begin the next deal from a fresh secret seed, stored before anyone sees a card; the
        messages that announce it (none when no deal was due)."""
        if not self.match.deal_due or self.over:
            return []
        index = len(self.match.deals)
        seed = fair.new_seed() if self.board is None else fair.board_deal_seed(self.board.seed, index)
        published = fair.seed_hash(seed)
        hands, stock = fair.deal_from_seed(self.game, seed)
        # The first deal's seed draws the first dealer too, so its hash commits to him.
        dealer = None if self.match.deals else fair.first_dealer_from_seed(seed, self.game.seats)
        deal = self.match.begin_deal(hands, stock, dealer)
        try:
            self.store.add_deal(self.id, index, deal.dealer, seed, published)
        except Exception:
            self.match.deals.pop()  # not stored: it never happened
            raise
        self.seeds.append((seed, published))
        return [{"type": "deal_start", "deal_index": index, "dealer": deal.dealer, "seed_hash": published}]

    def _stand_in(self, seat: int, move: int) -> None:
        self._timer = None
        if self.move == move and self.match.decider == seat and self.seats[seat].kind == "human":
            self.seats[seat].stand_in = True
            self.resume()
            self.broadcast_state()

    async def _bot_move(self, seat: int, move: int) -> None:
        try:
            s = self.seats[seat]
            if s.bot is None:
                s.bot = make_bot(self.row.stand_in_level, game=self.game.name, seed=new_bot_seed())
            observation = self.match.observation(seat)
            legal = list(observation["legal_actions"])
            started = time.monotonic()
            bot = s.bot
            try:
                action = await self.scheduler.run(self.id, lambda: bot.act(observation, legal), self.attended)
            except Exception:
                log.exception("table %s: the bot of seat %d failed; it plays its first legal action", self.id, seat)
                action = legal[0]
            if action not in legal:
                log.error("table %s: the bot of seat %d chose %r, not a legal action", self.id, seat, action)
                action = legal[0]
            wait = self.settings.bot_delay - (time.monotonic() - started)
            if wait > 0:
                await asyncio.sleep(wait)
        finally:
            self._bot_task = None
        # The player may have come back and moved meanwhile. Playing resumes the table before it
        # announces the move, so the state sent already holds the next player's clock.
        if self.move == move and (s.kind == "bot" or s.stand_in):
            self.play(seat, action, by_bot=True)
        else:
            self.resume()

    def play(self, seat: int, action: str, *, by_bot: bool = False, move: int | None = None) -> None:
        """Play an action of ``seat``: checked by the engine, stored, then announced.
        TableError for anything refused."""
        if self.over:
            raise TableError("finished", "the match is over")
        if not self.started:
            raise TableError("waiting", "play has not begun: seats are still free")
        if move is not None and move != self.move:
            raise TableError("stale", f"play has moved on (move {self.move}, not {move})")
        if self.match.decider != seat:
            raise TableError("not_your_turn", f"it is seat {self.match.decider}'s turn, not yours")
        deal_index = len(self.match.deals) - 1
        try:
            self.match.play(action)
        except IllegalAction as exc:
            raise TableError("illegal", str(exc), reason=exc.reason) from None
        deal = self.match.deals[deal_index].deal
        actor, played = deal.history[-1]
        canonical = deal.action_str(played)
        try:
            self.store.add_action(self.id, deal_index, len(deal.history) - 1, actor, canonical, by_bot)
        except Exception:
            self._rebuild()  # the action was not stored: it never happened
            raise
        self.move += 1
        # The current deal is this one, ended or not, until the next is dealt; its observations
        # serve the state sent below, unless a new deal begins.
        seen: Observations = dict(enumerate(self.match.observations()))
        public = all(seen[s]["history"][-1:] == [[actor, canonical]] for s in range(self.game.seats) if s != actor)
        self.last = {"seat": actor, "action": canonical, "public": public, "move": self.move}
        if deal.over:
            seen = {}
            self.store_over()  # when the deal ended the match or the board
            self.announce_deal_end(deal_index)
            for message in self._ensure_deal():
                self.send_all(message)
            if self.board is not None:
                self.board.ended()
        self.resume()  # first, so that the state sent says when the next player's clock runs out
        self.broadcast_state(seen)

    def store_over(self) -> None:
        """Once play is over, what the store keeps of it, once: a finished match that people
        played, with the ratings it changes (the seat holders': a guest, who has no account, plays
        as a newcomer and is not rated; the bots', by level); then that the table ended
        (``mark_ended``), where its board's result is not still to be stored (a tournament's
        table is marked by its tournament, ``Tournament.store_result``)."""
        if not self.over:
            return
        if self.match.finished and any(s.kind == "human" for s in self.seats):
            totals, winners = self.match.totals(), self.match.winners
            places = club.ranks(totals, winners, self.game.sense)
            rated = [self.row.holders.get(s.seat) if s.kind == "human" else club.bot_player(s.level or "medio")
                     for s in self.seats]
            summary = {"players": [s.name for s in self.seats], "totals": totals, "winners": winners,
                       "places": places}
            try:
                self.store.finish_match(self.id, self.game.name, time.time(), summary, rated,
                                        lambda before: club.rate([b or club.default_rating() for b in before], places))
            except Exception:
                # The match is over whatever happens to its ratings; the next start rates it.
                log.exception("table %s: the finished match could not be stored with its ratings", self.id)
                return
        if self.board is None:
            self.mark_ended()

    def mark_ended(self) -> None:
        """The store is told that the table's play is over, so that a server starts without it
        (see ``Tables.drop_idle``): the last of what its end stores, since a start rebuilds only
        the tables not marked, and so stores again whatever a stop kept from being stored."""
        if self.row.ended:
            return
        try:
            self.store.end_table(self.id)
            self.row.ended = True
        except Exception:
            log.exception("table %s: its end could not be stored; the next start rebuilds it", self.id)

    def hold(self, seat: int, account: str | None) -> None:
        """``account`` holds the seat from now on, so that its match is his (None: no account)."""
        self.store.hold_seat(self.id, seat, account)
        if account is None:
            self.row.holders.pop(seat, None)
        else:
            self.row.holders[seat] = account

    def declare_last_round(self, seat: int | None) -> None:
        """A control of the table, not a move: ``seat`` declares the match's last round, where the
        game lets that seat do it now (in Calabresella only the dealer may: the seed gives "chiamare
        mano" to whoever deals). Checked by the engine, stored, then announced; TableError for
        anything refused."""
        if seat is None:
            raise TableError("spectator", "a spectator does not declare the last round", 403)
        if self.over:
            raise TableError("finished", "the match is over")
        if not self.started:
            raise TableError("waiting", "play has not begun: seats are still free")
        try:
            self.match.declare_last_round(seat)
        except IllegalAction as exc:
            raise TableError("illegal", str(exc), reason=exc.reason) from None
        declared = self.match.last_round
        assert declared is not None
        try:
            self.store.declare_last_round(self.id, declared["deal"], seat)
        except Exception:
            self._rebuild()  # not stored: it never happened
            raise
        self.broadcast_state()

    def _rebuild(self) -> None:
        """Back to what the database holds (after a write failed)."""
        stored = self.store.load_one(self.id)
        assert stored is not None, f"table {self.id} is not in the database"
        fresh = Table(stored, self.store, self.scheduler, self.settings)
        self.match, self.seeds, self.move = fresh.match, fresh.seeds, fresh.move
        self._told = None

    # -- chat, hints, analysis -------------------------------------------------------------

    def say(self, seat: int | None, text: str) -> None:
        name = "spectator" if seat is None else self.seats[seat].name
        line = ChatLine(self.chat_lines, seat, name, text, round(time.time(), 3))
        self.store.add_chat(self.id, line)
        self.chat_lines += 1
        self.chat.append(line)
        del self.chat[:-CHAT_KEPT]
        self.send_all(line.as_json())

    async def hint(self, seat: int | None) -> Message:
        """A hint for ``seat`` from its own observation only."""
        if seat is None:
            raise TableError("spectator", "a spectator gets no hints")
        if self.over or not self.started or self.match.decider != seat:
            raise TableError("not_your_turn", "a hint is for your own turn")
        if seat in self._hinting:
            raise TableError("busy", "a hint is already being computed")
        try:
            from osteria.analysis import hint
        except ImportError:
            raise TableError("unavailable", "hints are not available on this server") from None
        observation = self.match.observation(seat)
        move = self.move
        self._hinting.add(seat)
        try:
            found = await self.scheduler.run(  # a person waits on it, at whatever table
                self.id, lambda: hint(observation, time_limit=self.settings.hint_time), lambda: True)
        except ValueError as exc:
            raise TableError("unavailable", str(exc)) from None
        finally:
            self._hinting.discard(seat)
        return {"type": "hint", "move": move, "action": found.action, "values": dict(found.values),
                "unit": found.unit, "samples": found.samples, "outvalued": found.outvalued()}

    async def analysis(self, deal_index: int, send: Callable[[Message], None]) -> Message:
        """The analysis of a finished deal, computed once, on a replayed copy of the finished deals;
        ``send`` hears how far it has got."""
        if deal_index in self._analyses:
            return self._analyses[deal_index]
        if deal_index >= len(self.match.results):
            raise TableError("unavailable", f"deal {deal_index} is not finished")
        if self._analysing:
            raise TableError("busy", "an analysis is already being computed at this table")
        try:
            from osteria.analysis import analyse_deal
        except ImportError:
            raise TableError("unavailable", "analysis is not available on this server") from None
        finished = replay(self.record())
        loop = asyncio.get_running_loop()

        def progress(done: int, total: int) -> None:
            loop.call_soon_threadsafe(send, {"type": "analysis_progress", "deal_index": deal_index,
                                             "done": done, "total": total})

        send({"type": "analysis_pending", "deal_index": deal_index})
        self._analysing = True
        try:
            budget = {} if self.settings.analysis_nodes is None else {"max_nodes": self.settings.analysis_nodes}
            result = await self.scheduler.run(self.id, lambda: analyse_deal(
                finished, deal_index, honest_time=self.settings.analysis_time, progress=progress, **budget),
                self.attended)
        finally:
            self._analysing = False
        lost = result.lost_by_player(against_open=True)
        message = {"type": "analysis", "deal_index": deal_index, "game": result.game, "unit": result.unit,
                   "honest_unit": result.unit,
                   "steps": [asdict(s) for s in result.steps], "mistakes": [asdict(s) for s in result.mistakes(5)],
                   "lost_by_seat": [lost.get(seat, 0.0) for seat in range(self.game.seats)]}
        self._analyses[deal_index] = message
        return message


class Tables:
    """The tables this process serves: every stored one whose play is not over, loaded at start,
    and one whose play is over while it is asked for (``drop_idle`` lets it go); with a database
    that other processes share (PostgreSQL), those it claimed: at start, on being asked for one
    that no process serves, and every ``Settings.claim_every`` seconds (see app.py)."""

    def __init__(self, store: Store, scheduler: Scheduler, settings: Settings) -> None:
        self.store, self.scheduler, self.settings = store, scheduler, settings
        self.tables: dict[str, Table] = {}
        self._unbuilt: set[str] = set()  # tables claimed here that the rules cannot rebuild
        # Told of each tournament's table opened here from the store (tournament.py makes it one
        # of its board's).
        self.board_opened: Callable[[Table], None] = lambda table: None
        claimed = set(store.claim_free(()))
        for row in store.load_current():
            if row.id in claimed:
                self._open(row)

    def _open(self, row: TableRow) -> Table | None:
        """The table of a row claimed by this process, rebuilt from its stored actions; None
        (logged) for one the rules cannot rebuild."""
        try:
            table = Table(row, self.store, self.scheduler, self.settings)
        except (RulesError, IllegalAction, AssertionError, KeyError):
            # A table the rules cannot rebuild (its stored actions edited by hand, a game's rules
            # changed) must not keep every other table from opening.
            log.exception("table %s cannot be rebuilt from the database; it stays closed", row.id)
            self._unbuilt.add(row.id)
            return None
        self.tables[row.id] = table
        table.store_over()  # in case the process that served it stopped before it could
        if row.board_of is not None:
            self.board_opened(table)
        return table

    def resume_all(self) -> None:
        for table in self.tables.values():
            table.resume()

    def take_over(self, table_ids: Sequence[str]) -> None:
        """The tables of ``table_ids``, just claimed by this process (the one that served them
        stopped, or let them go), are rebuilt from what is stored now and resumed."""
        for table_id in table_ids:
            row = self.store.load_one(table_id)
            table = None if row is None else self._open(row)
            if table is not None:
                table.resume()

    def release(self, table_id: str) -> None:
        """Another process asked for the table (where a proxy sends its players now): its clients
        here are closed with 1012 ("service restart", so that their pages come back, and are
        sent there), its bots and clock stopped, and its claim let go."""
        table = self.tables.pop(table_id, None)
        if table is not None:
            table.close(1012)
            self.store.release(table_id)

    def claim_free(self) -> None:
        """The stored tables that no process serves any more are served by this one from now on."""
        self.take_over(self.store.claim_free({*self.tables, *self._unbuilt}))

    def served(self, table_id: str) -> Table | None:
        """The table, if this process serves it: a stored one that no process serves now (its
        play over and let go from memory, or, with a shared database, its process stopped) is
        claimed and rebuilt first. None: none is stored, or another process serves it."""
        table = self.tables.get(table_id)
        if table is None and table_id not in self._unbuilt and self.store.has_table(table_id) \
                and self.store.claim(table_id):
            self.take_over([table_id])
            table = self.tables.get(table_id)
        if table is not None:
            table.touched = time.monotonic()
        return table

    def get(self, table_id: str) -> Table:
        """The table, served here (see ``served``). TableError: none is stored (404), or another
        process serves it (503)."""
        table = self.served(table_id)
        if table is not None:
            return table
        if table_id not in self._unbuilt and self.store.shared and self.store.has_table(table_id):
            self.store.ask_release(table_id)  # the table comes here, for the next try
            raise TableError("elsewhere", f"table {table_id!r} is served by another process of this server: "
                             "try again (see docs/online.md, several processes)", 503)
        raise TableError("not_found", f"no table {table_id!r}", 404)

    def drop_idle(self) -> list[str]:
        """The tables whose play is over and that nobody asked for or left in the last
        ``Settings.keep_over`` seconds leave memory and their claim is let go: a club's past
        stays in the store, and ``served`` rebuilds a table of it when asked. The ids dropped."""
        since = time.monotonic() - self.settings.keep_over
        dropped = [table_id for table_id, table in self.tables.items() if table.idle_over(since)]
        for table_id in dropped:
            del self.tables[table_id]
            self.store.release(table_id)
        return dropped

    def create(self, game: str, seats: int | None, options: dict[str, JSON],
               players: Sequence[tuple[str, str | None, str | None]], stand_in_level: str,
               listed: bool = False) -> Table:
        try:
            table = Table.create(self.store, self.scheduler, self.settings, game, seats, options, players,
                                 stand_in_level, listed)
        except (RulesError, ValueError, TypeError) as exc:
            raise TableError("bad_request", str(exc)) from None
        self.tables[table.id] = table
        return table

    def open_tables(self, game: str | None = None, playing: bool = False) -> list[Table]:
        """The listed tables waiting for players (of ``game``, if given), oldest first: those a
        quick join fills. ``playing``: those in play whose player left a seat too, which the lobby
        also shows (a bot plays the seat until someone takes it)."""
        statuses = ("waiting", "playing") if playing else ("waiting",)
        return [t for t in self.tables.values()
                if t.row.listed and t.status in statuses and t.free_seats() and game in (None, t.game.name)]

    def agree_rematch(self, table: Table, seat: int | None) -> None:
        """The player of ``seat`` asks for a rematch of ``table``'s finished match; once every
        person seated has, it is made (see ``rematch``)."""
        table.agree_rematch(seat)
        self.rematch(table)

    def rematch(self, table: Table) -> Table | None:
        """The rematch of a finished table, once every person seated there asked for it (None
        before): a new table of the same game, rules, stand-in level and listing, each person in
        his own seat with a token of the new table minted for him (and his account holding it),
        each bot in its own seat; a seat its player left is free there. Each person's pages are
        told their own link (``rematch``); everybody sees the new table's id in the state."""
        if not table.rematch_due():
            return None
        rows = []
        for s in table.seats:
            if s.kind == "bot":
                rows.append(SeatRow(s.seat, "bot", s.level, s.name, None, True))
            elif s.token is not None:
                rows.append(SeatRow(s.seat, "human", None, s.name, new_token(), True))
            else:
                rows.append(SeatRow(s.seat, "human", None, f"seat {s.seat}", None, False))
        holders = {p.seat: table.row.holders[p.seat] for p in rows
                   if p.token is not None and p.seat in table.row.holders}
        row = TableRow(new_table_id(), table.game.name, table.game.seats, dict(table.row.options),
                       new_first_dealer(table.game.seats), new_token(), table.row.stand_in_level, False, time.time(),
                       rows, listed=table.row.listed, holders=holders)
        self.store.create_table(row, rematch_of=table.id)
        rematch = Table(row, self.store, self.scheduler, self.settings)
        self.tables[rematch.id] = rematch
        rematch.resume()
        table.row.rematch = rematch.id
        table.row.rematch_tokens = {p.seat: p.token for p in rows if p.token is not None}
        for client in list(table.clients):
            told = self.rematch_for(table, client.seat)
            if told is not None:
                client.send(told)
        table.broadcast_state()
        return rematch

    def rematch_for(self, table: Table, seat: int | None) -> Message | None:
        """The message that moves the player of ``seat`` at ``table`` to his seat at its rematch,
        with its link: only while the token minted for him there still holds that seat (he did
        not leave it or pass it on); None for anyone else."""
        if seat is None or table.row.rematch is None or seat not in table.row.rematch_tokens:
            return None
        rematch = self.served(table.row.rematch)
        token = table.row.rematch_tokens[seat]
        held = None if rematch is None else rematch.seats[seat].token
        if rematch is None or held is None or not secrets.compare_digest(held.encode(), token.encode()):
            return None
        return {"type": "rematch", "table_id": rematch.id, "seat": seat, "link": seat_link(rematch.id, seat, token)}

    def quick_join(self, game: str, name: str | None) -> tuple[Table, int, str, bool]:
        """A seat for a player who just wants to play ``game``: the first free one at the oldest open
        table of that game, else the first seat of a new listed table whose other seats wait for
        the next comers (its player may start at once, bots in the free seats). The table, the
        seat, its token, and whether the table is new."""
        for table in self.open_tables(game):
            try:
                seat, token = table.join(table.row.invite, name, None)
            except TableError:
                continue  # the name is taken there: another table, or a new one
            return table, seat, token, False
        if game not in GAMES:
            raise TableError("bad_request", f"unknown game {game!r}; games: {', '.join(GAMES)}")
        seats = GAMES[game].default_seats
        table = self.create(game, seats, {}, [("human", None, name)] + [("human", None, None)] * (seats - 1),
                            "medio", listed=True)
        creator = table.seats[0]
        assert creator.token is not None
        return table, creator.seat, creator.token, True
