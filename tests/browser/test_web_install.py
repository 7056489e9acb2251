"""The page as an installable web app in Chromium: its manifest, its service worker, and a page
that opens again without the network (and says it cannot reach the server)."""

from __future__ import annotations

from browser_harness import Server
from playwright.sync_api import BrowserContext, Page, expect


def test_the_page_names_a_manifest_a_phone_can_install(server: Server, page: Page) -> None:
    page.goto(f"{server.base}/?lang=en")
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    assert href == "/static/manifest.webmanifest"
    manifest = server.get(href)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone" and manifest["name"] == "osteria"
    icon = manifest["icons"][0]
    assert icon["sizes"] == "any" and page.request.get(f"{server.base}{icon['src']}").ok


def test_the_page_opens_again_without_the_network(server: Server, context: BrowserContext, page: Page) -> None:
    page.goto(f"{server.base}/?lang=en")
    expect(page.locator("#create-form")).to_be_visible()
    assert page.evaluate("async () => (await navigator.serviceWorker.ready).active.scriptURL").endswith("/sw.js")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")  # clients.claim()
    context.set_offline(True)
    try:
        page.reload()
        # The page itself came from what the service worker kept; the games list cannot come.
        expect(page.locator("header h1")).to_have_text("osteria")
        expect(page.locator("#fatal")).to_be_visible()
    finally:
        context.set_offline(False)
