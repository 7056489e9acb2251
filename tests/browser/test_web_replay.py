"""A player's history and a match's replay in the page: signed up, a match played by clicks and a
table not begun yet, then his history (the table with its link back), the replay of the match
stepped through by keys and buttons, every hand, the trick and the score as the server's replay
has them, and the deal's analysis beside it."""

from __future__ import annotations

import random
from pathlib import Path

from browser_harness import Clicker, Server, serve, wait_for_table
from playwright.sync_api import Browser, Page, expect
from test_web_table import new_page


def shown_hands(page: Page) -> list[list[str]]:
    hands: list[list[str]] = page.locator("#replay-seats .replay-seat").evaluate_all(
        "rows => rows.map(r => [...r.querySelectorAll('.open-hand .card')].map(c => c.dataset.card))")
    return hands


def test_a_players_history_and_the_replay_of_his_match(browser: Browser, tmp_path: Path) -> None:
    with serve(tmp_path) as server:
        context, page = new_page(browser)
        page.goto(f"{server.base}/?lang=en")
        page.fill("#account-name", "Lucia")
        page.fill("#account-password", "sette bello")
        page.click("#sign-up")
        expect(page.locator("#account-who")).to_have_text("You are Lucia.")
        created = page.request.post(f"{server.base}/api/tables", data={
            "game": "traversone", "options": {"target": 1},
            "players": [{"kind": "human"}, {"kind": "bot", "level": "facile"}, {"kind": "bot", "level": "facile"}]})
        assert created.status == 201, created.text()
        table_id = created.json()["table_id"]
        page.goto(server.base + created.json()["link"])
        wait_for_table(page)
        expect(page.locator("#replay-link")).to_have_attribute("href", f"/replay/{table_id}")
        Clicker(page, random.Random(5)).play_deals(1)
        expect(page.locator("#table-view")).to_have_attribute("data-status", "finished")

        # A table of hers not begun yet, then her history, from the lobby's account panel.
        waiting = page.request.post(f"{server.base}/api/tables", data={
            "game": "tressette", "players": [{"kind": "human"}] + [{"kind": "bot", "level": "facile"}] * 3})
        assert waiting.status == 201, waiting.text()
        page.goto(f"{server.base}/?lang=en")
        page.click("#my-history")
        expect(page).to_have_url(f"{server.base}/players/Lucia")
        expect(page.locator("#history-title")).to_have_text("Lucia's matches")
        expect(page.locator("#history-list li")).to_have_count(2)
        later = page.locator("#history-list li").first
        expect(later).to_have_attribute("data-status", "waiting")
        expect(later).to_contain_text("waiting for players")
        expect(later.locator("a[data-role=table]")).to_have_attribute("href", f"/t/{waiting.json()['table_id']}")
        item = page.locator("#history-list li").last
        expect(item).to_have_attribute("data-status", "finished")
        expect(item.locator("a[data-role=table]")).to_have_count(0)
        expect(item).to_contain_text("traversone")
        expect(item).to_contain_text("with Peppino, Totò")
        expect(page.locator("#history-ratings li")).to_have_text(["traversone: " + next(
            f"{r['ordinal']:.1f} (1 matches)" for r in server.get("/api/ladder/traversone")["ladder"]
            if r["player"] == "Lucia")])
        item.locator("a[data-role=replay]").click()

        # The replay: the hands as dealt, then trick by trick as the server's replay has them.
        expect(page).to_have_url(f"{server.base}/replay/{table_id}")
        expected = server.get(f"/api/tables/{table_id}/replay")
        record = server.record(table_id)
        (deal,) = expected["deals"]
        expect(page.locator("#replay-at")).to_have_text("Deal 1 of 1 · as dealt")
        assert [sorted(h) for h in shown_hands(page)] == [sorted(h) for h in record["deals"][0]["hands"]]
        expect(page.locator("#replay-unfinished")).to_be_hidden()
        expect(page.locator("#back")).to_be_disabled()
        for at, position in enumerate(deal["positions"][1:], 1):
            if at % 2:
                page.keyboard.press("ArrowRight")
            else:
                page.click("#forward")
            expect(page.locator("#replay-view")).to_have_attribute("data-at", str(at))
            assert shown_hands(page) == position["hands"]
            trick = page.locator("#replay-trick .trick-card").evaluate_all(
                "cards => cards.map(c => [Number(c.dataset.seat), c.querySelector('.card').dataset.card])")
            assert trick == position["taken"]["cards"]
            winner = position["taken"]["winner"]
            expect(page.locator("#replay-trick .trick-card.winner")).to_have_attribute("data-seat", str(winner))
            expect(page.locator(f'.replay-seat[data-seat="{winner}"]')).to_have_class("replay-seat took")
            expect(page.locator("#replay-tricks li")).to_have_count(at)
            scores = page.locator("#replay-scores td.num").all_text_contents()
            assert scores == [str(total) for total in position["totals"]]
        expect(page.locator("#replay-at")).to_contain_text("end of the deal")
        expect(page.locator("#forward")).to_be_disabled()
        expect(page.locator("#replay-result-lines")).to_contain_text("End of deal 1")
        winners = ", ".join(expected["players"][seat] for seat in expected["winners"])
        expect(page.locator("#replay-result-lines li").last).to_have_text(f"The match is over. Winners: {winners}.")
        assert page.locator("#replay-scores td.num").all_text_contents() == [str(t) for t in expected["totals"]]
        page.keyboard.press("ArrowLeft")
        expect(page.locator("#replay-view")).to_have_attribute("data-at", str(len(deal["positions"]) - 2))
        expect(page.locator("#replay-result")).to_be_hidden()
        expect(page.locator("#replay-record")).to_have_attribute("href", f"/api/tables/{table_id}/record")

        # In Italian, and the deal's analysis beside it, as the table shows it after a deal.
        page.select_option("#lang", "it")
        expect(page.locator("#forward")).to_have_text("Avanti →")
        expect(page.locator("#replay-at")).to_contain_text("Smazzata 1 di 1")
        page.click("#replay-analysis [data-analysis='0']")
        expect(page.locator("#replay-analysis h3")).to_have_text("Analisi (punti)", timeout=120_000)
        expect(page.locator("#replay-analysis")).to_contain_text("Punti persi rispetto al gioco perfetto")
        context.close()


def test_every_word_of_the_page_is_in_italian_and_in_english(server: Server, page: Page) -> None:
    page.goto(f"{server.base}/players/Nessuno")
    expect(page.locator("#fatal")).to_contain_text("no player is called 'Nessuno'")
    keys = page.evaluate("""async () => {
        const { UI } = await import("/static/words.js");
        return { it: Object.keys(UI.it).sort(), en: Object.keys(UI.en).sort() };
    }""")
    assert keys["it"] == keys["en"] and "replay" in keys["it"]
