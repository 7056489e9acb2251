"""A duplicate tournament in the page: created, registered for and started there, its two boards
played by clicks at one table while bots play the other, then its standings and commitments."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

from browser_harness import MOVE_TIMEOUT_MS, Clicker, serve, wait_for_table
from playwright.sync_api import Browser, expect
from test_web_table import new_page


def test_a_tournament_of_two_tables_over_two_boards(browser: Browser, tmp_path: Path) -> None:
    with serve(tmp_path) as server:
        context, page = new_page(browser)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(f"{page.url} {error.stack}"))
        page.goto(f"{server.base}/?lang=en")
        page.click("#tournaments-link")
        page.select_option("#tn-game", "traversone")
        page.select_option("#tn-seats", "3")
        page.fill("#tn-boards", "2")
        page.fill("#tn-tables", "2")
        page.select_option("#tn-level", "facile")
        page.click("#tn-create")
        page.wait_for_url(f"{server.base}/tournaments/*")
        tournament_id = page.url.split("/tournaments/")[1].split("?")[0]
        expect(page.locator("#tn-status")).to_have_text("Registration open")
        hashes = page.locator("#tn-boards-list code.hash").all_text_contents()
        hidden = "seed hidden until every table has played it"
        expect(page.locator("#tn-boards-list li .doc")).to_have_text([hidden, hidden])
        assert len(hashes) == 2 and page.locator("#tn-boards-list code.seed").count() == 0

        page.fill("#tn-name", "Lucia")
        page.click("#tn-register-button")
        expect(page.locator("#tn-place")).to_have_text("Your place: table 1, seat 1.")
        expect(page.locator("#tn-register")).to_be_hidden()
        page.click("#tn-start")
        for board in (1, 2):
            expect(page.locator("#tn-status")).to_have_text(f"Deal {board} is being played",
                                                            timeout=MOVE_TIMEOUT_MS)
            page.click("#tn-play")
            page.wait_for_url(f"{server.base}/t/**")  # the seat's link, traded for its cookie there
            wait_for_table(page)
            Clicker(page, random.Random(board)).play_deals(1)
            expect(page.locator("#table-view")).to_have_attribute("data-status", "finished")
            page.goto(f"{server.base}/tournaments/{tournament_id}?lang=en")

        expect(page.locator("#tn-status")).to_have_text("Tournament over", timeout=MOVE_TIMEOUT_MS)
        rows = page.locator("#tn-standings-body tr")
        expect(rows).to_have_count(6)  # Lucia and five bots
        state = server.get(f"/api/tournaments/{tournament_id}")
        shown = rows.evaluate_all("rows => rows.map(r => r.children[1].textContent)")
        assert shown[0].split(" (")[0] == state["standings"][0]["name"]
        lucia = page.locator("#tn-standings-body tr", has_text="Lucia")
        cells = lucia.locator("td").all_text_contents()
        mine = next(x for x in state["standings"] if x["name"] == "Lucia")
        assert [float(c) for c in cells[3:6]] == [*mine["boards"], mine["matchpoints"]]
        # Each board's seed, revealed now, is the one whose hash the page showed before the start.
        seeds = page.locator("#tn-boards-list code.seed").all_text_contents()
        assert [hashlib.sha256(seed.encode()).hexdigest() for seed in seeds] == hashes
        expect(page.locator('#tn-boards-list li[data-board="0"] a')).to_have_text(["watch table 1", "watch table 2"])

        page.select_option("#lang", "it")
        expect(page.locator("#tn-status")).to_have_text("Torneo finito")
        assert not errors, errors
        context.close()
