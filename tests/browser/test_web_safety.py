"""The page under its Content-Security-Policy: the lobby and a table load and play with nothing
blocked, no console error and no policy violation."""

from __future__ import annotations

import random

from browser_harness import Clicker, Server, wait_for_table, wait_for_turn_or_end
from playwright.sync_api import Page, expect

# Run before the page's own script (Playwright's init scripts are not subject to the page's policy).
WATCH_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation",
    (event) => window.cspViolations.push(`${event.violatedDirective}: ${event.blockedURI}`));
"""


def test_the_page_runs_under_its_content_security_policy(server: Server, page: Page) -> None:
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text) if message.type == "error" else None)
    page.add_init_script(WATCH_VIOLATIONS)
    response = page.goto(f"{server.base}/?lang=it")
    assert response is not None and "frame-ancestors 'none'" in response.headers["content-security-policy"]
    expect(page.locator("#create-form")).to_be_visible()
    page.select_option("#game", "tressette")
    page.click("#create")  # a table made by the page itself: the lobby's fetch, then its WebSocket
    page.click("#go-to-table")
    wait_for_table(page)
    clicker = Clicker(page, random.Random(5))
    for _ in range(3):
        wait_for_turn_or_end(page, 1)
        clicker.click_once()
    wait_for_turn_or_end(page, 1)
    assert page.locator("#hand .card svg").count() > 0  # the cards' art, drawn by the script
    assert page.evaluate("() => window.cspViolations") == []
    assert console == []
