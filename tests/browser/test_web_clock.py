"""The player's side of a stand-in in Chromium: the turn clock counts down on the player's page
and on the others', "I'm back" gives the seat back, and a socket refused as one too many is not
opened again and again."""

from __future__ import annotations

import re
import time
from pathlib import Path

from browser_harness import bot_players, serve, wait_for_table, wait_for_turn_or_end
from playwright.sync_api import Browser, expect
from test_web_table import new_page
from websockets.sync.client import connect

STAND_IN_AFTER = 8.0  # short enough to wait for, long enough to see the clock before it runs out


def test_the_clock_counts_down_and_i_am_back_takes_the_seat_back(browser: Browser, tmp_path: Path) -> None:
    # Bots at a pace a person can follow: with every seat a bot the deal does not rush to its end.
    with serve(tmp_path, stand_in_after=STAND_IN_AFTER, bot_delay=0.3) as server:
        created = server.create("tressette", bot_players(4))
        seat = created["seat"]
        player_context, player = new_page(browser)
        watcher_context, watcher = new_page(browser)
        try:
            player.goto(f"{server.base}{created['link']}&lang=en")
            watcher.goto(f"{server.base}{created['watch_link']}?lang=en")
            wait_for_table(player)
            wait_for_turn_or_end(player, 1)
            banner = player.locator("#banner")
            expect(banner).to_have_text(re.compile(r"Your turn: in \d s a bot plays for you\."))
            # The others see the seconds on the player's seat.
            expect(watcher.locator(f"#felt .seat[data-seat='{seat}'] .clock")).to_have_text(re.compile(r"⏱ \d"))
            # The player does nothing: the bot plays for him, and his page says so.
            expect(banner).to_contain_text("A bot plays for you until you are back.",
                                           timeout=int(STAND_IN_AFTER * 1000) + 10_000)
            expect(watcher.locator(f"#felt .seat[data-seat='{seat}'] .clock")).to_be_hidden()
            banner.get_by_role("button", name="I'm back").click()
            expect(banner).not_to_contain_text("A bot plays for you")
            players = server.get(f"/api/tables/{created['table_id']}")["players"]
            assert not players[seat]["stand_in"]
        finally:
            player_context.close()
            watcher_context.close()


def test_a_socket_refused_as_one_too_many_waits_for_try_again(browser: Browser, tmp_path: Path) -> None:
    with serve(tmp_path, options=("--sockets-per-address", "2")) as server:
        created = server.create("tressette", bot_players(4))
        url = f"{server.base.replace('http', 'ws')}/ws/{created['table_id']}"
        context, page = new_page(browser)
        opened: list[str] = []
        page.on("websocket", lambda ws: opened.append(ws.url))
        with connect(url, origin=server.base) as first, connect(url, origin=server.base):  # type: ignore[arg-type]
            try:
                page.goto(f"{server.base}{created['link']}&lang=en")
                fatal = page.locator("#fatal")
                expect(fatal).to_contain_text("The server refuses the connection (at most 2 sockets an address)")
                time.sleep(5)  # longer than the page's reconnecting waits add up to
                assert len(opened) == 1, "a refused socket is not opened again by itself"
                first.close()
                fatal.get_by_role("button", name="Try again").click()
                wait_for_table(page)
                expect(page.locator("#banner")).not_to_contain_text("refuses")
                assert len(opened) == 2
            finally:
                context.close()
