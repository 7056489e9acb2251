"""The lobby: a table made by clicks, with its options, people and bots, its invitations, and
a start with bots in the seats nobody took."""

from __future__ import annotations

import json
from pathlib import Path

from browser_harness import Server, serve, table_state, wait_for_table
from playwright.sync_api import Browser, Page, expect
from test_web_table import new_page


def test_a_table_made_in_the_lobby(server: Server, page: Page) -> None:
    page.goto(f"{server.base}/?lang=it")
    page.select_option("#game", "traversone")
    page.select_option("#seats", "5")
    expect(page.locator(".seat-row")).to_have_count(5)
    page.select_option("#option-asso_bastoni", json.dumps(11))
    page.fill('.seat-row[data-seat="0"] [data-name]', "Anna")
    page.select_option('.seat-row[data-seat="2"] [data-kind]', "human")
    page.fill('.seat-row[data-seat="2"] [data-name]', "Carla")
    page.select_option('.seat-row[data-seat="3"] [data-level]', "difficile")
    page.select_option("#stand-in", "facile")
    page.click("#create")

    links = page.locator("#invite-list input")
    # Anna's own seat, the table's invitation (Carla's seat gets its token when she joins), the watchers' link
    expect(links).to_have_count(3)
    addresses = links.evaluate_all("inputs => inputs.map(i => i.value)")
    assert "/t/" in addresses[0] and "seat=0&token=" in addresses[0]
    assert "invite=" in addresses[1] and "token=" not in addresses[1] + addresses[2]
    table_id = addresses[2].rsplit("/t/", 1)[1]
    state = server.get(f"/api/tables/{table_id}")
    assert state["game"] == "traversone" and state["seats"] == 5
    assert state["options"]["asso_bastoni"] == 11
    kinds = [(p["kind"], p["name"] if p["kind"] == "human" else p["level"]) for p in state["players"]]
    assert kinds == [("human", "Anna"), ("bot", "medio"), ("human", "Carla"), ("bot", "difficile"), ("bot", "medio")]

    page.click("#go-to-table")
    wait_for_table(page)
    assert table_state(page)["seat"] == "0"
    expect(page.locator("#table-view")).to_have_attribute("data-status", "waiting")
    expect(page.locator("#banner")).to_contain_text("Carla")
    page.click("#start-button")  # Carla is not coming: a bot takes her seat
    expect(page.locator("#table-view")).to_have_attribute("data-status", "playing")
    expect(page.locator("#record-link")).to_have_attribute("href", f"/api/tables/{table_id}/record")


def test_the_lobby_says_what_the_server_refuses(server: Server, page: Page) -> None:
    page.goto(f"{server.base}/?lang=en")
    page.select_option("#game", "tressette")
    # Partners both dummies: the rules refuse it, and the page says the engine's words.
    page.check('#option-morto input[value="0"]')
    page.check('#option-morto input[value="2"]')
    page.click("#create")
    expect(page.locator("#create-error")).to_contain_text("at most one dummy per side")
    expect(page.locator("#created")).to_be_hidden()


def test_the_open_tables_and_a_quick_game(browser: Browser, tmp_path: Path) -> None:
    # A server of its own: no other test's open table in its lobby.
    with serve(tmp_path) as server:
        anna_context, anna = new_page(browser)
        bruno_context, bruno = new_page(browser)
        try:
            bruno.goto(f"{server.base}/?lang=en")
            expect(bruno.locator("#open-none")).to_have_text("No table is waiting for players.")
            anna.goto(f"{server.base}/?lang=en")
            anna.select_option("#quick-game", "sancagna")
            anna.click("#quick-join")  # no open table: a new one, listed, waiting for the next comers
            wait_for_table(anna)
            assert table_state(anna)["seat"] == "0"
            expect(anna.locator("#table-view")).to_have_attribute("data-status", "waiting")
            # Bruno's lobby follows: the new table is there with its free seats.
            entry = bruno.locator("#open-list li")
            expect(entry).to_have_count(1, timeout=15_000)
            expect(entry).to_contain_text("sancagna")
            expect(entry).to_contain_text("free seats: 3")
            entry.get_by_role("button", name="Sit down").click()
            bruno.fill("#join-name", "Bruno")
            bruno.click("#join-form button[type=submit]")
            wait_for_table(bruno)
            assert table_state(bruno)["seat"] == "1"
            anna.click("#start-button")  # the others are not coming: bots in their seats
            expect(anna.locator("#table-view")).to_have_attribute("data-status", "playing")
            assert server.get("/api/lobby")["tables"] == []
        finally:
            anna_context.close()
            bruno_context.close()


def test_the_lobby_says_the_rules_and_levels_in_the_pages_language(server: Server, page: Page) -> None:
    page.goto(f"{server.base}/?lang=en")
    page.select_option("#game", "tressette")
    expect(page.locator('label[for="option-target"]')).to_have_text("points to win")
    expect(page.locator('label[for="option-morto"]')).to_have_text("morto (dummy)")
    expect(page.locator("#options")).to_contain_text("seats whose hand is played face up by the partner")
    expect(page.locator("#stand-in option")).to_have_text(["easy", "medium", "hard", "maestro"])
    page.select_option("#lang", "it")
    expect(page.locator('label[for="option-target"]')).to_have_text("punti per vincere")
    expect(page.locator("#options")).to_contain_text("i posti la cui mano è scoperta e giocata dal compagno")
    expect(page.locator("#stand-in option")).to_have_text(["facile", "medio", "difficile", "maestro"])
    assert page.locator("#stand-in").input_value() == "medio"  # the level chosen stays as it was
