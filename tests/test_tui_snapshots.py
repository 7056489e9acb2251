"""Pictures of the full-screen table (Textual snapshots) of every game, at 80×24 and at 120×40, at
the moments that need the most room: a bid or call with its long list of choices, a card with its
signals, and a trick just taken. Update them with ``pytest tests/test_tui_snapshots.py
--snapshot-update`` after a change to the table's look, and look at what changed."""

from __future__ import annotations

from typing import Any

import pytest

from osteria.tui.app import TableApp
from osteria.views import card_of

from table_helpers import new_app, settle

SIZES = {"80x24": (80, 24), "120x40": (120, 40)}
# game, players, rules options, seed
GAMES: dict[str, tuple[str, int | None, dict[str, Any], int]] = {
    "tressette": ("tressette", None, {}, 3),
    "tressette-morto": ("tressette", None, {"morto": [2]}, 3),
    "calabresella-3": ("calabresella", 3, {}, 3),
    "calabresella-4": ("calabresella", 4, {}, 3),
    "calabresella-5": ("calabresella", 5, {}, 3),
    "traversone-3": ("traversone", 3, {}, 3),
    "traversone-6": ("traversone", 6, {}, 3),
    "quattrigghiu": ("quattrigghiu", None, {}, 2),
    "sancagna": ("sancagna", None, {}, 8),
}
# The moments each game has: its bidding, a card played with a signal, the end of a trick.
MOMENTS = [
    ("tressette", "signal"), ("tressette", "trick-end"), ("tressette-morto", "trick-end"),
    ("calabresella-3", "bidding"), ("calabresella-3", "signal"), ("calabresella-3", "trick-end"),
    ("calabresella-4", "bidding"), ("calabresella-5", "bidding"), ("calabresella-5", "trick-end"),
    ("traversone-3", "trick-end"), ("traversone-6", "trick-end"),
    ("quattrigghiu", "bidding"), ("quattrigghiu", "trick-end"),
    ("sancagna", "signal"), ("sancagna", "trick-end"),
]


def signalled_card(app: TableApp) -> str | None:
    """A card of the person's that can be played in several ways (with a signal)."""
    ways: dict[str, int] = {}
    for action in app.observation.get("legal_actions") or []:
        ways[action.split()[0]] = ways.get(action.split()[0], 0) + 1
    return next((card for card, n in ways.items() if n > 1 and card_of(card) is not None), None)


def at_moment(moment: str) -> Any:
    """Play (the person taking the last choice offered) until the moment comes."""
    async def run_before(pilot: Any) -> None:
        app = pilot.app
        assert isinstance(app, TableApp)
        for _ in range(200):
            await settle(pilot, app)
            if moment == "trick-end" and app.beat is not None:
                return
            if app.beat is not None:
                await app.end_beat()
                continue
            if app.screen is not app.screen_stack[0]:  # a deal's end: on to the next deal
                await pilot.press("enter")
                continue
            legal = app.observation["legal_actions"]
            if moment == "bidding" and any(card_of(a.split()[0]) is None for a in legal) and len(legal) > 6:
                return
            card = signalled_card(app)
            if moment == "signal" and (card is not None or any(a.startswith("cenno") for a in legal)):
                if card is not None:
                    await pilot.click(f"#card-{card}")
                await pilot.pause()
                return
            if not app.choices:  # a discard, chosen by picking cards
                await app.choose(next(iter(app.typed.values()))[0])
            else:
                await app.choose(app.choices[-1] if card_of(app.choices[-1]) is None else app.choices[0])
        raise AssertionError(f"no {moment} came")
    return run_before


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(("name", "moment"), MOMENTS)
def test_the_table_at_its_moments(snap_compare: Any, name: str, moment: str, size: str) -> None:
    game, seats, options, seed = GAMES[name]
    app = new_app(game, seats=seats, options=options, seed=seed, trick_pause=600.0)
    assert snap_compare(app, terminal_size=SIZES[size], run_before=at_moment(moment))
