"""The osteria bot protocol: an engine in any language plays a seat through JSON lines on its
standard input and output (docs/protocol.md).

Version 2 (``osteria-bot/2``): every request carries an ``id`` that its reply echoes, so a reply
that comes after its time limit is known for what it is and discarded, never played. The engine
is started once and kept for every match it plays: a handshake with a time limit of its own
(``hello``, answered with its name, author, options and whether it wants its forced moves;
``options``; ``ping``, answered ``ready``), then a ``new_match`` and ``new_deal`` notice as they
begin, and ``act`` requests that state the time control, until ``bye``.

Version 1 (``osteria-bot/1``): an engine that does not answer the hello as version 2 within its
start-up limit is started afresh and spoken to as before (``act`` and ``bye``, no ids), a new
process for each match, and its first reply may take the start-up limit on top of its time.

Nothing an engine sends can stop the table: a move it does not answer in time with a legal
action forfeits; osteria plays a random legal action instead and records a :class:`Fault`.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import queue
import random
import shlex
import subprocess
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import IO, Any

from osteria.bots import make_bot
from osteria.bots.base import Bot

PROTOCOL = "osteria-bot/2"
PROTOCOL_V1 = "osteria-bot/1"
MAX_LINE = 1 << 20  # a line longer than this is garbage, not a message
START_LIMIT = 10.0  # seconds an engine has to start and finish the handshake, by default
CLOSE_WAIT = 1.0  # seconds an engine has to exit after bye and the end of its input
OPTION_TYPES = ("int", "float", "bool", "choice", "string")
TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")


class EngineError(ValueError):
    """A player ``cmd:...`` that cannot play: a bad spec, a program that does not start, an
    option its engine does not offer or a value that does not fit the option."""


@dataclass(frozen=True)
class TimeControl:
    """How long an engine may take. Per move: ``seconds`` for each reply. Per deal: a clock
    that holds ``seconds`` when a deal begins and gains ``increment`` before each move; each
    reply's time is taken off it, and a reply must come before it runs out."""

    seconds: float = 1.0
    per_deal: bool = False
    increment: float = 0.0

    def __post_init__(self) -> None:
        if not self.seconds > 0:
            raise ValueError(f"an engine's time must be positive, not {self.seconds}")
        if self.increment < 0:
            raise ValueError(f"an increment must not be negative, not {self.increment}")
        if self.increment and not self.per_deal:
            raise ValueError("an increment is for a clock per deal")

    @classmethod
    def per_deal_from(cls, text: str) -> TimeControl:
        """A clock per deal written ``SECONDS`` or ``SECONDS+INCREMENT`` (``30+0.5``)."""
        seconds, _, increment = text.partition("+")
        try:
            numbers = float(seconds), float(increment or 0)
        except ValueError:
            raise ValueError(f"a clock per deal is SECONDS or SECONDS+INCREMENT, as 30+0.5, not {text!r}") from None
        return cls(numbers[0], per_deal=True, increment=numbers[1])

    def as_json(self) -> dict[str, float]:
        """As an ``act`` request states it: ``{"move": 1.0}``, ``{"deal": 30.0, "increment": 0.5}``."""
        return {"deal": self.seconds, "increment": self.increment} if self.per_deal else {"move": self.seconds}


@dataclass(frozen=True)
class EngineInfo:
    """What an engine says of itself in the handshake; a version-1 engine says nothing but its
    version. ``options`` maps each option it offers to its description (``type``, ``default``,
    ``min``, ``max``, ``choices``), as the engine sent it."""

    protocol: str
    name: str = ""
    author: str = ""
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    forced_moves: bool = True  # whether it is asked for a move when only one action is legal

    @classmethod
    def from_hello(cls, reply: Mapping[str, Any]) -> EngineInfo:
        options = reply.get("options")
        offered = {str(name): spec if isinstance(spec, dict) else {}
                   for name, spec in (options.items() if isinstance(options, dict) else ())}
        return cls(PROTOCOL, name=_text(reply.get("name")), author=_text(reply.get("author")), options=offered,
                   forced_moves=reply.get("forced_moves") is not False)


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


@dataclass(frozen=True)
class Fault:
    """A forfeited move: its ``kind`` (late, out of time, unreadable, illegal, exited, not
    started) and what happened."""

    kind: str
    reason: str


def parse_engine(spec: str) -> tuple[str, dict[str, str]]:
    """The command and the options of a player ``cmd:COMMAND`` or ``cmd:COMMAND?NAME=VALUE&...``
    (the options follow the first ``?``); EngineError saying what is wrong."""
    if not spec.startswith("cmd:"):
        raise EngineError(f"{spec!r} is not an outside engine, which is written cmd:COMMAND")
    command, question, query = spec[4:].partition("?")
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise EngineError(f"{spec}: {exc}") from None
    if not words:
        raise EngineError(f"{spec}: no command after cmd:")
    options: dict[str, str] = {}
    for item in query.split("&") if question else ():
        name, equals, value = item.partition("=")
        if not equals or not name:
            raise EngineError(f"{spec}: an engine option is NAME=VALUE, not {item!r}")
        if name in options:
            raise EngineError(f"{spec}: option {name} given twice")
        options[name] = value
    return command, options


def option_value(engine: str, name: str, offer: Mapping[str, Any], text: str) -> Any:
    """An option's value as typed on a command line, converted to the option's type as the
    engine describes it; EngineError for a value that does not fit."""
    kind = offer.get("type", "string")
    if kind == "string":
        return text
    if kind == "bool":
        if text.lower() not in (*TRUE_WORDS, *FALSE_WORDS):
            raise EngineError(f"{engine}: option {name} takes true or false, not {text!r}")
        return text.lower() in TRUE_WORDS
    if kind == "choice":
        choices = offer.get("choices")
        allowed = [c for c in choices if isinstance(c, str)] if isinstance(choices, list) else []
        if text not in allowed:
            raise EngineError(f"{engine}: option {name} takes one of {', '.join(allowed) or 'nothing'}, not {text!r}")
        return text
    if kind in ("int", "float"):
        number: int | float
        try:
            number = int(text) if kind == "int" else float(text)
        except ValueError:
            raise EngineError(f"{engine}: option {name} takes {'a whole number' if kind == 'int' else 'a number'}, "
                              f"not {text!r}") from None
        low, high = offer.get("min"), offer.get("max")
        if (isinstance(low, int | float) and number < low) or (isinstance(high, int | float) and number > high):
            raise EngineError(f"{engine}: option {name} takes a number from {low} to {high}, not {text}")
        return number
    raise EngineError(f"{engine}: option {name} is of a type osteria does not know, {kind!r} "
                      f"(it knows {', '.join(OPTION_TYPES)})")


class Event(Enum):
    """What the engine's output gave instead of a line."""

    EXITED = "the engine has exited"
    TOO_LONG = "a line longer than 1 MiB"


class _Program:
    """An engine's running program: its input, and the lines of its output as they come, read
    by a thread so that a silent engine cannot hold osteria up."""

    def __init__(self, words: list[str]) -> None:
        self.started = time.monotonic()
        self.process = subprocess.Popen(words, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, encoding="utf-8", errors="replace",
                                        bufsize=1)
        self.lines: queue.Queue[str | Event] = queue.Queue()
        self.exited = False
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()

    def _read(self, stream: IO[str] | None) -> None:
        assert stream is not None
        try:
            while line := stream.readline(MAX_LINE):
                if len(line) == MAX_LINE and not line.endswith("\n"):
                    while (rest := stream.readline(MAX_LINE)) and not rest.endswith("\n"):
                        pass  # the rest of an overlong line is no message either
                    self.lines.put(Event.TOO_LONG)
                else:
                    self.lines.put(line)
        except (OSError, ValueError):
            pass
        self.lines.put(Event.EXITED)

    @property
    def running(self) -> bool:
        return not self.exited and self.process.poll() is None

    def send(self, message: Mapping[str, Any]) -> bool:
        if self.process.stdin is None:
            return False
        try:
            self.process.stdin.write(json.dumps(message) + "\n")
            self.process.stdin.flush()
            return True
        except (OSError, ValueError):
            return False

    def next_line(self, deadline: float) -> str | Event | None:
        """The next line of output, or what came instead; None if nothing came before
        ``deadline`` (a ``time.monotonic()`` time)."""
        if self.exited:
            return Event.EXITED
        try:
            item = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return None
        self.exited = item is Event.EXITED
        return item

    def drop_waiting_lines(self) -> None:
        """Forget the lines that came and were not read (version 1: they answer earlier requests)."""
        while self.next_line(0.0) not in (None, Event.EXITED):
            pass

    def close(self, goodbye: Mapping[str, Any]) -> None:
        self.send(goodbye)
        # The end of input too, for an engine that does not understand bye.
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        try:
            self.process.wait(timeout=CLOSE_WAIT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout is not None:
            with contextlib.suppress(OSError):
                self.process.stdout.close()


def _id_of(message: Mapping[str, Any]) -> int | None:
    ident = message.get("id")
    return ident if isinstance(ident, int) and not isinstance(ident, bool) else None


class EngineBot(Bot):
    """A seat played by an outside program: ``command`` (a program and its arguments, as a shell
    would split them), given ``options`` (checked against those it offers). One program plays
    every match ``new_match`` begins, unless it speaks version 1 (then one program a match) or
    has exited (then it is started again for the next match). ``seed`` seeds the random actions
    played for forfeited moves and is the seed of a match ``act`` begins by itself; ``known_v1``
    skips the handshake of an engine known to speak version 1."""

    def __init__(self, command: str, *, options: Mapping[str, str] | None = None,
                 time_control: TimeControl = TimeControl(), start_limit: float = START_LIMIT,
                 seed: int | str | None = None, known_v1: bool = False) -> None:
        self.command = command
        self.name = f"cmd:{command}"
        self.options = dict(options or {})
        self.time_control = time_control
        self.start_limit = start_limit
        self.seed = seed
        self.rng = random.Random(seed)
        self.faults: list[Fault] = []
        self.info: EngineInfo | None = EngineInfo(PROTOCOL_V1) if known_v1 else None  # known after the handshake
        self._ids = itertools.count(1)
        self._program: _Program | None = None
        self._start_error = ""
        self._greeting: int | None = None  # the id of a hello whose handshake is not over
        self._unused = False  # a program that no match has had yet
        self._in_match = False
        self._deal: object = None  # the observation's deal_index of the deal under way
        self._clock = 0.0  # seconds left in the deal, with a clock per deal
        self._replied = False  # whether this program has replied to an act (version 1's start-up allowance)
        self._start()

    @property
    def v2(self) -> bool:
        return self.info is not None and self.info.protocol == PROTOCOL

    def _start(self) -> None:
        """Start the program and, unless it is known to speak version 1, say hello; the
        handshake is finished later (``_settle``), so that engines can start up side by side."""
        try:
            self._program = _Program(shlex.split(self.command))
        except (OSError, ValueError) as exc:
            self._program = None
            self._start_error = f"cannot start: {exc}"
            return
        self._unused = True
        self._replied = False
        if self.info is None or self.v2:
            self._greeting = next(self._ids)
            self._program.send({"type": "hello", "id": self._greeting, "protocol": PROTOCOL})

    def _settle(self) -> None:
        """Finish a handshake under way: a version-2 engine gets its options and a ping; an
        engine that answers otherwise, or not within the start-up limit, is taken for a
        version-1 engine and started afresh, since the hello may have upset it."""
        if self._greeting is None or self._program is None:
            return
        program, greeting = self._program, self._greeting
        self._greeting = None
        deadline = program.started + self.start_limit
        hello = self._hello_reply(greeting, deadline)
        if hello is not None:
            self.info = EngineInfo.from_hello(hello)
            values = {name: option_value(self.name, name, self._offer(name), text)
                      for name, text in self.options.items()}
            if values:
                program.send({"type": "options", "id": next(self._ids), "options": values})
            self._ping(deadline)
            return
        self.info = EngineInfo(PROTOCOL_V1)
        if self.options:
            raise EngineError(f"{self.name}: the engine speaks {PROTOCOL_V1}, which has no options")
        program.close({"type": "bye"})
        self._start()

    def _offer(self, name: str) -> Mapping[str, Any]:
        assert self.info is not None
        if name not in self.info.options:
            offered = ", ".join(self.info.options) or "none"
            raise EngineError(f"{self.name}: the engine offers no option {name!r}; its options: {offered}")
        return self.info.options[name]

    def _hello_reply(self, greeting: int, deadline: float) -> dict[str, Any] | None:
        """The engine's version-2 answer to the hello, or None: no answer in time, or a JSON
        answer of another kind. Lines that are not JSON (a banner) are passed over."""
        assert self._program is not None
        while isinstance(line := self._program.next_line(deadline), str):
            try:
                reply = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(reply, dict) and _id_of(reply) == greeting and reply.get("protocol") == PROTOCOL:
                return reply
            return None
        return None

    def _ping(self, deadline: float) -> bool:
        """Ping the engine and wait until it is ready, or until ``deadline``."""
        assert self._program is not None
        ident = next(self._ids)
        if not self._program.send({"type": "ping", "id": ident}):
            return False
        while isinstance(line := self._program.next_line(deadline), str):
            with contextlib.suppress(json.JSONDecodeError):
                reply = json.loads(line)
                if isinstance(reply, dict) and _id_of(reply) == ident:
                    return True
        return False

    def ready(self) -> EngineInfo:
        """Finish starting the engine and return what it says of itself; EngineError if its
        program cannot start, for an option it does not offer or a value that does not fit."""
        self._settle()
        if self._program is None:
            raise EngineError(f"{self.name}: {self._start_error}")
        assert self.info is not None
        return self.info

    def new_match(self, *, game: str, seat: int, seed: int | str | None = None) -> None:
        """A match (an arena board) begins, this bot playing ``seat``. ``seed`` makes the random
        actions of forfeited moves repeat, and is the engine's to use the same way."""
        self._settle()
        self.rng = random.Random(seed)
        self._deal = None
        self._in_match = True
        if self._program is None or not self._program.running or (not self.v2 and not self._unused):
            if self._program is not None:
                self._program.close(self._goodbye())
            self._start()
            self._settle()
        self._unused = False
        if self.v2 and self._program is not None:
            self._program.send({"type": "new_match", "id": next(self._ids), "game": game, "seat": seat, "seed": seed})
            self._ping(time.monotonic() + self.start_limit)

    def act(self, observation: Mapping[str, Any], legal_actions: list[str]) -> str:
        if not self._in_match:
            self.new_match(game=str(observation.get("game", "")), seat=int(observation.get("seat", 0)),
                           seed=self.seed)
        deal = observation.get("deal_index", 0)
        if deal != self._deal:
            self._deal = deal
            self._clock = self.time_control.seconds
            if self.v2 and self._program is not None:
                self._program.send({"type": "new_deal", "id": next(self._ids), "deal": deal})
        if len(legal_actions) == 1 and self.info is not None and not self.info.forced_moves:
            return legal_actions[0]
        answer = self._ask(observation, legal_actions)
        if isinstance(answer, Fault):
            self.faults.append(answer)
            return self.rng.choice(legal_actions)
        return answer

    def _limit(self) -> float:
        """The seconds the next reply may take; with a clock per deal, the increment is added first."""
        control = self.time_control
        if not control.per_deal:
            return control.seconds
        self._clock += control.increment
        return self._clock

    def _ask(self, observation: Mapping[str, Any], legal_actions: list[str]) -> str | Fault:
        """The engine's action, or the fault that forfeits the move."""
        program = self._program
        if program is None:
            return Fault("not started", self._start_error)
        limit = round(self._limit(), 3)
        if limit <= 0:
            return Fault("out of time", "its clock for the deal has run out")
        request: dict[str, Any] = {"type": "act", "observation": observation, "legal_actions": legal_actions,
                                   "time_limit": limit}
        if self.v2:
            ident: int | None = next(self._ids)
            request = {"type": "act", "id": ident, **request, "time_control": self.time_control.as_json()}
            start_up = 0.0
        else:
            ident = None
            program.drop_waiting_lines()
            # A version-1 engine cannot say when it has started: its first reply may take that time too.
            start_up = 0.0 if self._replied else max(0.0, program.started + self.start_limit - time.monotonic())
        sent = time.monotonic()
        if not program.send(request):
            return Fault("exited", Event.EXITED.value)
        reply = self._reply(program, ident, sent + limit + start_up)
        if self.time_control.per_deal:
            self._clock = max(0.0, self._clock - (time.monotonic() - sent))
        if reply is None:
            return Fault("late", f"no reply within {round(limit + start_up, 3):g} s")
        if isinstance(reply, Fault):
            return reply
        self._replied = True
        action = reply.get("action")
        if not isinstance(action, str):
            return Fault("unreadable", f"no action in the reply: {json.dumps(reply)[:80]!r}")
        if action not in legal_actions:
            return Fault("illegal", f"illegal action {action[:80]!r}")
        return action

    @staticmethod
    def _reply(program: _Program, ident: int | None, deadline: float) -> dict[str, Any] | Fault | None:
        """The reply to request ``ident`` (version 1, None: the next line), a fault, or None
        if it did not come before ``deadline``. Replies to earlier requests, come too late,
        are passed over."""
        while True:
            line = program.next_line(deadline)
            if line is None:
                return None
            if isinstance(line, Event):
                return Fault("exited" if line is Event.EXITED else "unreadable", line.value)
            try:
                reply = json.loads(line)
            except json.JSONDecodeError:
                return Fault("unreadable", f"not JSON: {line[:80]!r}")
            if not isinstance(reply, dict):
                return Fault("unreadable", f"not a JSON object: {line[:80]!r}")
            if ident is None or _id_of(reply) == ident:
                return reply
            if _id_of(reply) is None:
                return Fault("unreadable", f"a reply without an id: {line[:80]!r}")

    def _goodbye(self) -> dict[str, Any]:
        return {"type": "bye", "id": next(self._ids)} if self.v2 else {"type": "bye"}

    def close(self) -> None:
        if self._program is not None:
            self._program.close(self._goodbye())
            self._program = None


def engine_bot(spec: str, *, time_control: TimeControl = TimeControl(), start_limit: float = START_LIMIT,
               seed: int | str | None = None, known_v1: bool = False) -> EngineBot:
    """The bot of a player ``cmd:COMMAND?NAME=VALUE&...``; EngineError for a bad spec."""
    command, options = parse_engine(spec)
    return EngineBot(command, options=options, time_control=time_control, start_limit=start_limit, seed=seed,
                     known_v1=known_v1)


def check_engine(spec: str, *, start_limit: float = START_LIMIT) -> EngineInfo:
    """Start the engine of a player ``cmd:...``, shake hands and close it: what it says of
    itself, or EngineError saying why it cannot play."""
    bot = engine_bot(spec, start_limit=start_limit)
    try:
        return bot.ready()
    finally:
        bot.close()


def serve(name: str, *, game: str, seed: int | str | None, stdin: IO[str], stdout: IO[str]) -> int:
    """Play osteria's bot ``name`` over the protocol, version 2 or 1 as the requests come, until
    ``bye`` or the end of input. Each ``new_match`` makes the bot afresh with the match's game
    and seed (``seed`` when it gives none), so that it plays as the same bot in-process would.
    Malformed requests get ``{"error": ...}`` and the loop goes on; ValueError for an unknown bot."""
    bot = make_bot(name, game=game, seed=seed)

    def reply(request: Mapping[str, Any], **fields: Any) -> None:
        ident = {"id": request["id"]} if "id" in request else {}
        print(json.dumps({**ident, **fields}), file=stdout, flush=True)

    for line in stdin:
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            message = None
        if not isinstance(message, dict):
            print(json.dumps({"error": "expected a JSON object with a type"}), file=stdout, flush=True)
            continue
        kind = message.get("type")
        if kind == "bye":
            break
        if kind == "hello":
            reply(message, type="hello", protocol=PROTOCOL, name=f"osteria {name}", author="osteria", options={},
                  forced_moves=True)  # asked every move, the bot draws its random numbers as in-process
        elif kind == "ping":
            reply(message, type="ready")
        elif kind == "new_match":
            match_game, match_seed = message.get("game", game), message.get("seed")
            if not isinstance(match_game, str) or not isinstance(match_seed, int | str | None):
                reply(message, error="a new_match has a game name and a seed that is a number, a string or null")
                continue
            try:
                fresh = make_bot(name, game=match_game, seed=seed if match_seed is None else match_seed)
            except ValueError as exc:
                reply(message, error=str(exc))
                continue
            bot.close()
            bot = fresh
        elif kind == "act":
            legal, observation = message.get("legal_actions"), message.get("observation")
            if not (isinstance(legal, list) and legal and all(isinstance(a, str) for a in legal)
                    and isinstance(observation, dict)):
                reply(message, error="an act needs an observation object and a non-empty legal_actions list")
                continue
            reply(message, type="action", action=bot.act(observation, legal))
        elif kind not in ("options", "new_deal"):  # it offers no options; a new deal changes nothing
            reply(message, error=f"unknown message type {kind!r}")
    bot.close()
    return 0
