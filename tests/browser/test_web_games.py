"""A full deal of each game played by clicks in Chromium against bots."""

from __future__ import annotations

import random

import pytest
from browser_harness import Clicker, Server, actions_of, bot_players, same_action, wait_for_table
from playwright.sync_api import Page, expect

from osteria.cards import CARD_STRINGS

# Each game at a player count, in one of the two languages.
GAMES = [("tressette", 4, "it"), ("calabresella", 3, "en"), ("traversone", 4, "it"), ("quattrigghiu", 4, "en"),
         ("sancagna", 4, "it")]


@pytest.mark.parametrize(("game", "seats", "lang"), GAMES)
def test_a_deal_played_by_clicks(server: Server, page: Page, game: str, seats: int, lang: str) -> None:
    created = server.create(game, bot_players(seats), seats=seats)
    table_id = created["table_id"]
    page.goto(f"{server.base}{created['link']}&lang={lang}")
    wait_for_table(page)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("#felt .seat")).to_have_count(seats)

    clicker = Clicker(page, random.Random(f"{game}-{seats}"))
    clicker.play_deals(1)

    record = server.record(table_id)
    recorded = actions_of(record, 0, 0)
    assert clicker.played, "no action was clicked in a whole deal"
    assert len(recorded) == len(clicker.played)
    for clicked, kept in zip(clicker.played, recorded, strict=True):
        assert same_action(clicked, kept), (clicked, kept)
    # The deal's result and its revealed seed are on the page.
    outcome = server.get(f"/api/tables/{table_id}")["result"]["deals"][0]["outcome"]
    expect(page.locator("#result-panel")).to_contain_text(outcome)
    expect(page.locator('#fair [data-deal="0"]')).to_contain_text(record["deals"][0]["seed"])


def test_a_dummy_is_played_by_its_partner(server: Server, page: Page) -> None:
    """Tressette with a morto opposite: its hand lies open and the page's player chooses its cards."""
    created = server.create("tressette", bot_players(4), options={"morto": [2]})
    page.goto(f"{server.base}{created['link']}&lang=en")
    wait_for_table(page)
    expect(page.locator('#felt .seat[data-seat="2"] .open-hand .card')).to_have_count(10)
    clicker = Clicker(page, random.Random("morto"))
    clicker.play_deals(1)
    record = server.record(created["table_id"])
    ours = [action for seat, action in record["deals"][0]["actions"] if seat in (0, 2)]
    assert len(ours) == len(clicker.played)
    assert sum(action.split()[0] in CARD_STRINGS for action in ours) == 20  # every card of both hands
    assert all(same_action(a, b) for a, b in zip(clicker.played, ours, strict=True))


def test_the_fair_deal_panel_breaks_its_words_only_between_them(server: Server, page: Page) -> None:
    """The hashes and seeds break anywhere to fit the narrow panel; the sentence above them
    only between its words."""
    created = server.create("tressette", bot_players(4))
    page.goto(f"{server.base}{created['link']}&lang=it")
    wait_for_table(page)
    expect(page.locator("#fair .notice")).to_be_visible()
    broken = page.evaluate("""() => {
        const text = document.querySelector("#fair .notice").firstChild;
        const words = [];
        for (const found of text.textContent.matchAll(/\\S+/g)) {
            const range = document.createRange();
            range.setStart(text, found.index);
            range.setEnd(text, found.index + found[0].length);
            const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            if (lines.size > 1) words.push(found[0]);
        }
        return words;
    }""")
    assert broken == []
