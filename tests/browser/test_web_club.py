"""The club in the page: signing up, out and in again in the lobby, then a rated match on the ladder."""

from __future__ import annotations

import random
from pathlib import Path

from browser_harness import Clicker, serve, wait_for_table
from playwright.sync_api import Browser, Page, expect
from test_web_table import new_page


def test_sign_up_sign_in_and_the_ladder(browser: Browser, tmp_path: Path) -> None:
    with serve(tmp_path) as server:
        context, page = new_page(browser)
        page.goto(f"{server.base}/?lang=en")
        account(page, "sign-up", "Lucia", "sette bello")
        expect(page.locator("#account-who")).to_have_text("You are Lucia.")
        page.click("#sign-out")
        expect(page.locator("#signed-out")).to_be_visible()
        account(page, "sign-in", "Lucia", "sette bellO")
        expect(page.locator("#account-error")).to_contain_text("wrong name or password")
        account(page, "sign-in", "Lucia", "sette bello")
        expect(page.locator("#account-who")).to_have_text("You are Lucia.")
        cookie = next(c for c in context.cookies() if c["name"] == "osteria_account")
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
        assert page.evaluate("document.cookie") == ""  # the page's scripts never see the sign-in

        # A match of hers (the browser's sign-in goes with the request), played by clicks.
        created = page.request.post(f"{server.base}/api/tables", data={
            "game": "traversone", "options": {"target": 1},
            "players": [{"kind": "human"}, {"kind": "bot", "level": "facile"}, {"kind": "bot", "level": "facile"}]})
        assert created.status == 201, created.text()
        page.goto(server.base + created.json()["link"])
        wait_for_table(page)
        Clicker(page, random.Random(5)).play_deals(1)
        expect(page.locator("#table-view")).to_have_attribute("data-status", "finished")

        page.goto(f"{server.base}/?lang=en")
        expect(page.locator("#account-who")).to_have_text("You are Lucia.")  # still signed in
        page.select_option("#ladder-game", "traversone")
        expect(page.locator("#ladder-list li")).to_have_count(2)  # Lucia and the level of the bots
        players = page.locator("#ladder-list li").evaluate_all("items => items.map(i => i.dataset.player)")
        assert sorted(players) == ["Lucia", "bot:facile"]
        assert players == [row["player"] for row in server.get("/api/ladder/traversone")["ladder"]]
        expect(page.locator('#ladder-list li[data-player="Lucia"]')).to_contain_text("(1 match)")
        expect(page.locator('#ladder-list li[data-player="bot:facile"] a')).to_have_count(0)
        page.select_option("#ladder-game", "tressette")
        expect(page.locator("#ladder-none")).to_be_visible()
        page.select_option("#ladder-game", "traversone")
        page.locator('#ladder-list li[data-player="Lucia"] a').click()  # her name leads to her matches
        page.wait_for_url(f"{server.base}/players/Lucia")
        context.close()


def test_the_lobby_says_its_refusals_in_its_own_language(browser: Browser, tmp_path: Path) -> None:
    with serve(tmp_path) as server:
        context, page = new_page(browser)
        try:
            page.goto(f"{server.base}/?lang=it")
            account(page, "sign-up", "x", "sette bello")
            expect(page.locator("#account-error")).to_have_text(
                "Errore: un nome ha da 2 a 32 lettere, cifre, spazi o . ' - _, e comincia con una lettera o una cifra")
            account(page, "sign-up", "Lucia", "sette")
            expect(page.locator("#account-error")).to_have_text("Errore: una parola d'ordine ha da 8 a 128 caratteri")
            account(page, "sign-up", "Lucia", "sette bello")
            expect(page.locator("#account-who")).to_have_text("Sei Lucia.")
            page.click("#sign-out")
            account(page, "sign-in", "Lucia", "sette bellO")
            expect(page.locator("#account-error")).to_have_text("Errore: nome o parola d'ordine sbagliati")
            # The same refusal in English on the English page.
            page.goto(f"{server.base}/?lang=en")
            account(page, "sign-up", "Lucia", "sette bello")
            expect(page.locator("#account-error")).to_have_text("Error: that name is taken: choose another")
        finally:
            context.close()


def account(page: Page, button: str, name: str, password: str) -> None:
    """The lobby's account form filled and sent by one of its buttons (sign-up, sign-in)."""
    page.fill("#account-name", name)
    page.fill("#account-password", password)
    page.click(f"#{button}")
