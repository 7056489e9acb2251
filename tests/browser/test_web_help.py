"""The hint at the seat's turn and the analysis after the deal, asked for by clicks."""

from __future__ import annotations

import random

from browser_harness import Clicker, Server, bot_players, wait_for_table, wait_for_turn_or_end
from playwright.sync_api import Page, expect

ANALYSIS_TIMEOUT_MS = 90_000


def test_hint_then_analysis(server: Server, page: Page) -> None:
    created = server.create("sancagna", bot_players(4))
    page.goto(f"{server.base}{created['link']}&lang=en")
    wait_for_table(page)
    wait_for_turn_or_end(page, 1)
    legal = page.locator("#hand .card.playable").count() + page.locator("#choices [data-action]").count()
    page.click("#hint-button")
    expect(page.locator("#hint")).not_to_contain_text("Thinking", timeout=ANALYSIS_TIMEOUT_MS)
    values = page.locator('#hint [data-role="hint-values"] tr')
    if legal == 1:  # a forced action: at once, and said so
        expect(page.locator("#hint")).to_contain_text("It is the only action there is.")
    else:
        # One value per legal action (Sancagna's cards have no signals).
        expect(values.first).to_be_visible()
        assert values.count() == legal
    # The advised action marked where it is clicked.
    expect(page.locator("#hand .card.hinted, #choices .action.hinted")).to_have_count(1)

    Clicker(page, random.Random(5)).play_deals(1)
    page.click('[data-analysis="0"]')
    expect(page.locator("#analysis")).to_contain_text("Points lost against perfect play", timeout=ANALYSIS_TIMEOUT_MS)
    expect(page.locator("#analysis")).to_contain_text("Player 1")
