"""A duplicate tournament in the page: created, registered for and started there, its two boards
played by clicks at one table while bots play the other, then its standings and commitments."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from browser_harness import MOVE_TIMEOUT_MS, Clicker, serve, wait_for_table
from playwright.sync_api import Browser, Route, expect
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


def test_between_two_rounds_the_page_says_the_next_is_coming_and_a_failed_poll_is_no_lasting_error(
        browser: Browser, tmp_path: Path) -> None:
    """The state between two rounds (the first done at every table, the second not open yet) is
    no error and offers no seat; a poll that failed is said, and said no more once one succeeds."""
    with serve(tmp_path) as server:
        created = server.post("/api/tournaments", {"game": "traversone", "seats": 3, "boards": 2, "tables": 2,
                                                   "level": "facile"})
        tournament_id = created["tournament_id"]
        registered = server.post(f"/api/tournaments/{tournament_id}/register", {"name": "Lucia"})
        between = {**created["tournament"], "status": "playing", "board": None,
                   "rounds": [{"board": 0, "done": True, "scores": [[0, 0, 0], [0, 0, 0]], "tables": []}]}
        answers = iter([(200, created["tournament"]), (500, {"detail": "the database is busy"})])

        def answer(route: Route) -> None:
            status, body = next(answers, (200, between))
            route.fulfill(status=status, content_type="application/json", body=json.dumps(body))

        context, page = new_page(browser)
        page.add_init_script(
            f"localStorage.setItem('osteria_tournament_{tournament_id}', '{json.dumps(registered)}')")
        page.route(f"**/api/tournaments/{tournament_id}", answer)
        page.goto(f"{server.base}/tournaments/{tournament_id}?lang=en")
        expect(page.locator("#tn-error")).to_have_text("Error: the database is busy", timeout=MOVE_TIMEOUT_MS)
        expect(page.locator("#tn-status")).to_have_text("Deal 1 is over at every table: the next is about to begin",
                                                        timeout=MOVE_TIMEOUT_MS)
        expect(page.locator("#tn-error")).to_have_text("")
        expect(page.locator("#tn-play")).to_be_hidden()
        page.select_option("#lang", "it")
        expect(page.locator("#tn-status")).to_have_text(
            "Smazzata 1 finita a tutti i tavoli: la prossima sta per cominciare")
        context.close()
