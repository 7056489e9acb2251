"""Every game on a phone (390x844) in Chromium: the header on one line, and at the player's turn
the hand and every choice on the screen at once, Calabresella's calls included, with nothing to
scroll to."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_harness import bot_players, serve, wait_for_table, wait_for_turn_or_end
from playwright.sync_api import Browser, Page
from test_web_table import PHONE, new_page

# Where the choices and the playable cards lie, and how tall the header is.
MEASURE = """() => {
    const clickable = [...document.querySelectorAll(
        '#choices [data-action], #choices [data-select], #hand .card.playable')].map((e) => e.getBoundingClientRect());
    return {count: clickable.length, bottom: Math.max(...clickable.map((r) => r.bottom)),
            right: Math.max(...clickable.map((r) => r.right)), left: Math.min(...clickable.map((r) => r.left)),
            header: document.querySelector('header.bar').getBoundingClientRect().height,
            width: innerWidth, height: innerHeight};
}"""


def measured(page: Page) -> dict[str, Any]:
    page.evaluate("() => window.scrollTo(0, 0)")
    found: dict[str, Any] = page.evaluate(MEASURE)
    return found


def calls_shown(page: Page) -> int:
    return page.locator("#choices .group [data-action]").count()


@pytest.fixture(scope="module")
def phone_server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with serve(tmp_path_factory.mktemp("phone"), bot_delay=0.0) as server:
        yield server


@pytest.mark.parametrize(("game", "seats"), [("tressette", 4), ("traversone", 6), ("quattrigghiu", 4),
                                             ("sancagna", 4), ("calabresella", 5)])
def test_the_hand_and_every_choice_fit_a_phone(phone_server: Any, browser: Browser, game: str, seats: int) -> None:
    context, page = new_page(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        created = phone_server.create(game, bot_players(seats), seats=seats)
        page.goto(f"{phone_server.base}{created['link']}&lang=en")
        wait_for_table(page)
        wait_for_turn_or_end(page, 1)
        found = measured(page)
        assert found["count"] > 0
        assert found["header"] < 48, "the header takes more than one line"
        assert found["left"] >= 0 and found["right"] <= found["width"]
        assert found["bottom"] <= found["height"], f"{game}: a choice lies below the screen: {found}"
    finally:
        context.close()


def test_calabresellas_calls_fit_a_phone(phone_server: Any, browser: Browser, tmp_path: Path) -> None:
    # The player is asked to bid at some tables only (the bots before him may have called): a
    # few tables, until he is.
    context, page = new_page(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        for _ in range(12):
            created = phone_server.create("calabresella", bot_players(3), seats=3)
            page.goto(f"{phone_server.base}{created['link']}&lang=en")
            wait_for_table(page)
            wait_for_turn_or_end(page, 1)
            if calls_shown(page) > 20:
                break
        else:
            pytest.fail("the player was never asked to bid")
        found = measured(page)
        assert found["header"] < 48
        assert found["right"] <= found["width"]
        assert found["bottom"] <= found["height"], f"the calls run below the screen: {found}"
    finally:
        context.close()


def test_an_open_tables_rules_read_across_a_phone(phone_server: Any, browser: Browser) -> None:
    phone_server.post("/api/tables", {"game": "sancagna", "players": [{"kind": "human"}] * 4, "listed": True})
    context, page = new_page(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page.goto(f"{phone_server.base}/?lang=en")
        entry = page.locator("#open-list li").first
        rules, whole = entry.locator(".muted").bounding_box(), entry.bounding_box()
        assert rules is not None and whole is not None
        assert rules["width"] >= 0.9 * whole["width"], "the rules squeezed into a narrow column"
    finally:
        context.close()
