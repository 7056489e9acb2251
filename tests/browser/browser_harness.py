"""What the browser tests and the screenshot script share: `osteria serve` in a subprocess on a
free loopback port, tables made over HTTP, and a player that plays the page by clicks.

The player clicks only what a person can click: the playable cards of the hand, the action
buttons, the variants of a card played with a signal, the cards of a discard and its confirm
button. It never reads the page's script state: the table's version (``data-move``) and status
come from attributes the page sets on its table element.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, Playwright

CHROMIUM_PATHS = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
START_TIMEOUT = 30.0  # seconds the server may take to answer
MOVE_TIMEOUT_MS = 20_000  # what one click may wait for the table to move on


def chromium_path() -> str | None:
    """Debian's Chromium, if installed (never a browser downloaded by Playwright)."""
    for path in (os.environ.get("OSTERIA_CHROMIUM"), *CHROMIUM_PATHS, shutil.which("chromium")):
        if path and Path(path).is_file():
            return path
    return None


def launch(playwright: Playwright, executable: str) -> Browser:
    # As root (containers, CI) Chromium runs only without its sandbox.
    args = ["--no-sandbox"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    return playwright.chromium.launch(executable_path=executable, args=args)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Server:
    """A running `osteria serve`."""

    base: str
    data: Path
    process: subprocess.Popen[bytes]

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=10) as response:
            return json.load(response)

    def post(self, path: str, body: object) -> Any:
        request = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)

    def create(self, game: str, players: list[dict[str, Any]], seats: int | None = None,
               options: dict[str, Any] | None = None) -> dict[str, Any]:
        """A new table (POST /api/tables): its table id, invitation, watchers' link and the creator's own
        seat's link."""
        body: dict[str, Any] = {"game": game, "players": players, "options": options or {}}
        if seats is not None:
            body["seats"] = seats
        created: dict[str, Any] = self.post("/api/tables", body)
        return created

    def seat_link(self, created: dict[str, Any], seat: int) -> str:
        """The link of ``seat`` of a table just created: the creator's own, or the one a friend gets by
        joining it by the invite."""
        if seat == created["seat"]:
            link: str = created["link"]
            return link
        joined: dict[str, Any] = self.post(f"/api/tables/{created['table_id']}/join",
                                           {"invite": created["invite"], "seat": seat})
        link = joined["link"]
        return link

    def record(self, table_id: str) -> dict[str, Any]:
        record: dict[str, Any] = self.get(f"/api/tables/{table_id}/record")
        return record


@contextmanager
def serve(data: Path, *, bot_delay: float = 0.0, port: int | None = None, stand_in_after: float = 600.0,
          options: tuple[str, ...] = ()) -> Iterator[Server]:
    """`osteria serve` on a port (a free one by default) with its database in ``data``, stopped
    afterwards; ``options``: more of its options."""
    port = port or free_port()
    command = [sys.executable, "-c", "import sys; from osteria.cli import main; sys.exit(main())", "serve",
               "--port", str(port), "--data", str(data), "--bot-delay", str(bot_delay),
               "--stand-in-after", str(stand_in_after), *options]
    log = open(data / "server.log", "wb")  # noqa: SIM115 - closed below, after the process
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    server = Server(f"http://127.0.0.1:{port}", data, process)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                server.get("/api/games")
                break
            except (urllib.error.URLError, ConnectionError):
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("osteria serve did not start: "
                                       + (data / "server.log").read_text(errors="replace")) from None
                time.sleep(0.1)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def bot_players(seats: int, humans: int = 1, level: str = "facile") -> list[dict[str, Any]]:
    """The first ``humans`` seats people, the others bots of a level."""
    return [{"kind": "human", "name": f"Player {s + 1}"} if s < humans else {"kind": "bot", "level": level}
            for s in range(seats)]


def table_state(page: Page) -> dict[str, Any]:
    """The table's version, status, the page's seat and the number of finished deals, as the page shows them."""
    state: dict[str, Any] = page.evaluate("""() => {
        const view = document.getElementById("table-view");
        const prompt = document.getElementById("prompt");
        return {move: Number(view.dataset.move ?? -1), status: view.dataset.status ?? "",
                seat: view.dataset.seat ?? "", deals: Number(view.dataset.deals ?? 0),
                mine: prompt.dataset.turn === "mine", error: prompt.querySelector(".error")?.textContent ?? ""};
    }""")
    return state


def wait_for_table(page: Page) -> None:
    page.wait_for_function("() => document.getElementById('table-view').dataset.move !== undefined",
                           timeout=MOVE_TIMEOUT_MS)


def wait_for_turn_or_end(page: Page, deals: int) -> None:
    """Until the page's seat is to choose, or ``deals`` deals are over, or the match is."""
    page.wait_for_function(
        """(deals) => {
            const view = document.getElementById("table-view");
            const prompt = document.getElementById("prompt");
            return prompt.dataset.turn === "mine" || Number(view.dataset.deals) >= deals
                || view.dataset.status === "finished";
        }""", arg=deals, timeout=MOVE_TIMEOUT_MS)


@dataclass
class Clicker:
    """Plays a page's seat by clicks, choosing at random among what can be clicked."""

    page: Page
    rng: random.Random
    played: list[str] = field(default_factory=list)  # the actions clicked, as sent

    def click_once(self) -> str:
        """One action by clicks (a card, maybe its signal; a button; a discard): the action."""
        page = self.page
        before = table_state(page)["move"]
        cards = page.locator("#hand .card.playable")
        buttons = page.locator("#choices [data-action], #choices [data-select]")
        options = [("card", i) for i in range(cards.count())] + [("button", i) for i in range(buttons.count())]
        assert options, "the page says it is our turn but offers nothing to click"
        kind, index = self.rng.choice(options)
        if kind == "card":
            card = cards.nth(index)
            action = card.get_attribute("data-card") or ""
            card.click()
            variants = page.locator("#variants [data-action]")
            if page.locator("#variants").is_visible():
                choice = variants.nth(self.rng.randrange(variants.count()))
                action = choice.get_attribute("data-action") or ""
                choice.click()
        else:
            button = buttons.nth(index)
            if button.get_attribute("data-select") is not None:
                action = self.discard(int(button.get_attribute("data-need") or 0), button)
            else:
                action = button.get_attribute("data-action") or ""
                button.click()
        page.wait_for_function(
            """(before) => Number(document.getElementById("table-view").dataset.move) !== before
                || document.querySelector("#prompt .error") !== null""", arg=before, timeout=MOVE_TIMEOUT_MS)
        error = table_state(page)["error"]
        assert not error, f"the server refused {action!r}: {error}"
        self.played.append(action)
        return action

    def discard(self, need: int, button: Any) -> str:
        """A kind of action chosen by picking cards in the hand (Calabresella's scarto)."""
        word = button.get_attribute("data-select")
        button.click()
        hand = self.page.locator("#hand .card.selectable")
        picked = self.rng.sample(range(hand.count()), need)
        cards = [hand.nth(i).get_attribute("data-card") or "" for i in picked]
        for i in picked:
            hand.nth(i).click()
        confirm = self.page.locator("#choices [data-confirm]")
        assert confirm.is_enabled(), f"{word} {' '.join(cards)} cannot be confirmed"
        confirm.click()
        return f"{word} {' '.join(sorted(cards))}"

    def play_deals(self, deals: int = 1, max_clicks: int = 200) -> None:
        """Click until ``deals`` deals of the match are over (or the match is)."""
        for _ in range(max_clicks):
            wait_for_turn_or_end(self.page, deals)
            state = table_state(self.page)
            if state["deals"] >= deals or state["status"] == "finished":
                return
            self.click_once()
        raise AssertionError(f"{deals} deal(s) not over after {max_clicks} clicks")


def actions_of(record: dict[str, Any], deal: int, seat: int) -> list[str]:
    return [action for s, action in record["deals"][deal]["actions"] if s == seat]


def same_action(clicked: str, recorded: str) -> bool:
    """Whether a clicked action is the recorded one (the cards of a discard in any order)."""
    return sorted(clicked.split()) == sorted(recorded.split())
