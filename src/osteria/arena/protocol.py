"""The osteria bot protocol: an engine in any language plays through JSON lines on stdin/stdout.

One JSON object per line, UTF-8, in both directions (see docs/protocol.md):

- osteria -> engine ``{"type": "act", "observation": {...}, "legal_actions": [...], "time_limit": 1.0}``;
  the engine answers ``{"action": "3d"}`` within the time limit.
- osteria -> engine ``{"type": "bye"}`` when it needs the engine no more; the engine exits.

A reply that is late, not JSON, not an object with a legal ``action``, or missing because the
engine died forfeits the move: osteria plays a fallback action chosen at random, records what
went wrong in ``EngineBot.faults``, and goes on. Nothing an engine sends can stop the table.
"""

from __future__ import annotations

import contextlib
import json
import queue
import random
import shlex
import subprocess
import threading
from collections.abc import Mapping
from typing import IO, Any

from osteria.bots.base import Bot

PROTOCOL = "osteria-bot/1"
MAX_LINE = 1 << 20  # a reply longer than this is garbage, not a move


class EngineBot(Bot):
    """A bot played by an outside program over the protocol."""

    def __init__(self, command: str, *, time_limit: float = 1.0, seed: int | str | None = None) -> None:
        self.command = command
        self.name = f"cmd:{command}"
        self.time_limit = time_limit
        self.rng = random.Random(seed)
        self.faults: list[str] = []
        self.lines: queue.Queue[str | None] = queue.Queue()
        try:
            self.process: subprocess.Popen[str] | None = subprocess.Popen(
                shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                text=True, encoding="utf-8", errors="replace", bufsize=1)
        except (OSError, ValueError) as exc:
            self.process = None
            self.faults.append(f"cannot start {command!r}: {exc}")
            return
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()

    def _read(self, stream: IO[str] | None) -> None:
        assert stream is not None
        try:
            while line := stream.readline(MAX_LINE):
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        self.lines.put(None)  # the engine has gone

    def _send(self, message: dict[str, Any]) -> bool:
        if self.process is None or self.process.stdin is None:
            return False
        try:
            self.process.stdin.write(json.dumps(message) + "\n")
            self.process.stdin.flush()
            return True
        except (OSError, ValueError):
            return False

    def act(self, observation: Mapping[str, Any], legal_actions: list[str]) -> str:
        reply = self._ask(observation, legal_actions)
        if reply in legal_actions:
            return reply
        self.faults.append(reply)
        return self.rng.choice(legal_actions)

    def _ask(self, observation: Mapping[str, Any], legal_actions: list[str]) -> str:
        """The engine's action, or the description of what went wrong (not a legal action)."""
        # Lines left over from an earlier, late reply belong to an earlier question.
        while True:
            try:
                stale = self.lines.get_nowait()
            except queue.Empty:
                break
            if stale is None:
                self.lines.put(None)
                break
        if not self._send({"type": "act", "observation": observation, "legal_actions": legal_actions,
                           "time_limit": self.time_limit}):
            return "the engine is not running"
        try:
            line = self.lines.get(timeout=self.time_limit)
        except queue.Empty:
            return f"no reply within {self.time_limit} s"
        if line is None:
            self.lines.put(None)
            return "the engine has exited"
        try:
            reply = json.loads(line)
        except json.JSONDecodeError:
            return f"not JSON: {line[:80]!r}"
        action = reply.get("action") if isinstance(reply, dict) else None
        if not isinstance(action, str):
            return f"no action in the reply: {line[:80]!r}"
        if action not in legal_actions:
            return f"illegal action {action[:80]!r}"
        return action

    def close(self) -> None:
        if self.process is None:
            return
        self._send({"type": "bye"})
        # End of input too, for an engine that does not understand bye.
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        try:
            self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout is not None:
            with contextlib.suppress(OSError):
                self.process.stdout.close()
        self.process = None


def serve(bot: Bot, stdin: IO[str], stdout: IO[str]) -> int:
    """Play ``bot`` over the protocol until ``bye`` or the end of input; malformed requests get
    ``{"error": ...}`` and the loop goes on."""
    for line in stdin:
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            message = None
        if not isinstance(message, dict) or message.get("type") not in ("act", "bye"):
            print(json.dumps({"error": "expected {\"type\": \"act\" | \"bye\", ...}"}), file=stdout, flush=True)
            continue
        if message["type"] == "bye":
            break
        legal = message.get("legal_actions")
        observation = message.get("observation")
        if not (isinstance(legal, list) and legal and all(isinstance(a, str) for a in legal)
                and isinstance(observation, dict)):
            print(json.dumps({"error": "an act needs an observation object and a non-empty legal_actions list"}),
                  file=stdout, flush=True)
            continue
        print(json.dumps({"action": bot.act(observation, legal)}), file=stdout, flush=True)
    return 0
