"""Shared helpers of the full-screen table's tests: a table against bots that play at once, and
waiting for the person's turn."""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Mapping
from typing import Any

from osteria.bots import Bot
from osteria.tui.app import TableApp
from osteria.tui.plain import table_match

SIZE = (110, 44)


def new_app(game: str, *, seats: int | None = None, seed: int = 1, lang: str = "it",
            options: dict[str, Any] | None = None, hands: list[list[int]] | None = None, dealer: int = 3,
            seated: Mapping[int, Bot] | None = None, **settings: Any) -> TableApp:
    """A table for seat 0 against bots of level facile that play at once, or the bots ``seated``
    at their seats; with ``hands``, the first deal is dealt so."""
    match, bots = table_match(game, lang=lang, seed=seed, seats=seats, human_seat=0, options=options,
                              level="facile", load=None)
    bots.update(seated or {})
    if hands is not None:
        match.deals.clear()
        dealt = {c for hand in hands for c in hand}
        rest = [c for c in match.game.deck.cards if c not in dealt]
        match.begin_deal(hands, match.game.stock_from_rest(rest), dealer % match.game.seats)
    settings = {"delay": 0.0, "analysis": False, "trick_pause": 0.0, "key_guard": 0.0, "seed": seed, **settings}
    return TableApp(match, human_seat=0, lang=lang, bots=bots, levels=dict.fromkeys(bots, "facile"), **settings)


async def settle(pilot: Any, app: TableApp, *, limit: float = 20.0) -> None:
    """Wait until the person is to choose, a screen over the table waits for the person, or a
    trick just taken is on show."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    while loop.time() < end:
        await pilot.pause()
        if app.human_turn() or app.screen is not app.screen_stack[0] or app.beat is not None:
            return
    raise AssertionError("the table never came back to the person")


def screen_text(app: TableApp) -> str:
    """The text of the screen as drawn, from its SVG picture."""
    svg = app.export_screenshot()
    return html.unescape(re.sub(r"<[^>]+>", " ", svg)).replace("\xa0", " ")


