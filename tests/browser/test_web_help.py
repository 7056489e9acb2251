"""The hint at the seat's turn and the analysis after the deal, asked for by clicks, in the
page's language (its words, its units and its decimal mark)."""

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
    if legal > 1:
        check_hint_values(page, "circles", decimal=".")

    Clicker(page, random.Random(5)).play_deals(1)
    page.click('[data-analysis="0"]')
    expect(page.locator("#analysis")).to_contain_text("Points lost against perfect play", timeout=ANALYSIS_TIMEOUT_MS)
    expect(page.locator("#analysis")).to_contain_text("Player 1")
    expect(page.locator("#analysis h3")).to_have_text("Analysis (circles)")


def check_hint_values(page: Page, unit: str, decimal: str) -> None:
    """The hinted action first and marked, the others after it from the best down, each value with
    the page's unit and decimal mark; and the note that the hint is not the best valued where, and
    only where, another action's value is higher."""
    rows = page.locator('#hint [data-role="hint-values"] tr')
    texts = [rows.nth(i).inner_text() for i in range(rows.count())]
    assert "→" in texts[0] and all("→" not in text for text in texts[1:])
    assert page.locator('#hint tr.hinted').count() == 1
    other_mark = "," if decimal == "." else "."
    values = []
    for text in texts:
        *_, number, shown_unit = text.split()
        assert shown_unit == unit and other_mark not in number, text
        values.append(float(number.replace(decimal, ".").replace("—", "nan")))
    others = values[1:]
    assert others == sorted(others, reverse=True)
    outvalued = bool(others) and (values[0] != values[0] or max(others) > values[0])
    assert page.locator("#hint p.notice").count() == int(outvalued)


def test_the_hint_in_italian(server: Server, page: Page) -> None:
    created = server.create("quattrigghiu", bot_players(4))
    page.goto(f"{server.base}{created['link']}&lang=it")
    wait_for_table(page)
    wait_for_turn_or_end(page, 1)
    page.click("#hint-button")
    expect(page.locator("#hint")).not_to_contain_text("Ci penso", timeout=ANALYSIS_TIMEOUT_MS)
    expect(page.locator("#hint")).to_contain_text("Il consiglio")
    if page.locator('#hint [data-role="hint-values"] tr').count():
        check_hint_values(page, "poste", decimal=",")
