"""Fixtures of the browser tests: Debian's Chromium driven by Playwright, and `osteria serve`
started as a subprocess on a free loopback port with a temporary data folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

playwright_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the browser extra")

from browser_harness import Server, chromium_path, launch, serve  # noqa: E402
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize  # noqa: E402

DESKTOP: ViewportSize = {"width": 1280, "height": 860}


# Per module, not per session: the sync API keeps an event loop running while it is open,
# and the other tests' asyncio.run() must find none.
@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    executable = chromium_path()
    if executable is None:
        pytest.skip("Chromium is not installed (apt-get install chromium; see .ci/chromium.sh)")
    with playwright_api.sync_playwright() as playwright:
        browser = launch(playwright, executable)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data: Path = tmp_path_factory.mktemp("osteria-data")
    with serve(data) as running:
        yield running


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport=DESKTOP)
    yield context
    context.close()


@pytest.fixture
def page(context: BrowserContext) -> Iterator[Page]:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    assert not errors, f"the page's script failed: {errors}"
