"""After the match and during it, by clicks: the rematch moves the page to its own seat at a new
table; a player who leaves goes back to the lobby, and the others read who left and see a bot in
his seat; the table says who watches."""

from __future__ import annotations

import random
import re
import time

from browser_harness import Clicker, Server, table_state, wait_for_table
from playwright.sync_api import Browser, expect
from test_web_table import new_page

ONE_DEAL = {"target": 1}  # a Traversone match of one deal


def test_a_rematch_by_a_click_moves_the_page_to_its_seat_at_a_new_table(server: Server, browser: Browser) -> None:
    players = [{"kind": "human", "name": "Anna"}, {"kind": "bot", "level": "facile"},
               {"kind": "bot", "level": "facile"}]
    created = server.create("traversone", players, options=ONE_DEAL)
    old = created["table_id"]
    context, page = new_page(browser)
    watcher_context, watcher = new_page(browser)
    try:
        page.goto(f"{server.base}{created['link']}&lang=en")
        wait_for_table(page)
        expect(page.locator("#rematch-button")).to_be_hidden()  # not while the match is played
        Clicker(page, random.Random(3)).play_deals(1)
        expect(page.locator("#table-view")).to_have_attribute("data-status", "finished")
        watcher.goto(f"{server.base}/t/{old}?lang=en")
        wait_for_table(watcher)
        expect(watcher.locator("#rematch-button")).to_be_hidden()
        expect(page.locator("#watchers")).to_have_text("Watching: a guest")
        button = page.locator("#rematch-button")
        expect(button).to_have_text("Rematch")
        button.click()  # alone with bots: the rematch is made at once
        page.wait_for_url(re.compile(r"/t/(?!" + re.escape(old) + r")[^/?]+"))
        wait_for_table(page)
        new = page.url.split("/t/")[1].split("?")[0]
        assert table_state(page)["seat"] == "0" and table_state(page)["status"] == "playing"
        assert "token=" not in page.url  # traded for the new table's cookie, as any seat's link
        state = server.get(f"/api/tables/{new}")
        assert [p["name"] for p in state["players"]] == [p["name"] for p in server.get(f"/api/tables/{old}")["players"]]
        # The watcher is offered to follow, to watch only.
        follow = watcher.locator("#banner .banner-action")
        expect(follow).to_have_text("Watch the rematch")
        follow.click()
        watcher.wait_for_url(re.compile(re.escape(f"/t/{new}")))
        wait_for_table(watcher)
        assert table_state(watcher)["seat"] == "null"
    finally:
        watcher_context.close()
        context.close()


def test_a_player_leaves_and_the_other_reads_it(server: Server, browser: Browser) -> None:
    players = [{"kind": "human", "name": "Anna"}, {"kind": "human", "name": "Bruno"},
               {"kind": "bot", "level": "facile"}]
    created = server.create("traversone", players)
    table_id = created["table_id"]
    anna_context, anna = new_page(browser)
    bruno_context, bruno = new_page(browser)
    try:
        anna.goto(f"{server.base}{created['link']}&lang=it")
        bruno.goto(f"{server.base}{server.seat_link(created, 1)}&lang=en")
        wait_for_table(anna)
        wait_for_table(bruno)
        expect(anna.locator("#table-view")).to_have_attribute("data-status", "playing")
        leave = bruno.locator("#leave-button")
        expect(leave).to_have_text("Leave the table")
        leave.click()  # a first press asks
        expect(leave).to_have_text("Confirm: a bot takes your seat")
        leave.click()
        bruno.wait_for_url(f"{server.base}/?lang=en")  # back in the lobby, in his language
        expect(bruno.locator("#lobby")).to_be_visible()
        line = anna.locator("#chat-log .notice")
        expect(line).to_contain_text("Bruno ha lasciato il tavolo: al suo posto gioca")
        seat = server.get(f"/api/tables/{table_id}")["players"][1]
        assert seat["stand_in"] and not seat["taken"] and seat["name"] != "Bruno"
        expect(anna.locator('#felt .seat[data-seat="1"]')).to_contain_text(seat["name"])
        # His page's seat is gone: coming back to the table, he only watches.
        bruno.goto(f"{server.base}/t/{table_id}?lang=en")
        wait_for_table(bruno)
        assert table_state(bruno)["seat"] == "null"
        expect(anna.locator("#watchers")).to_have_text("Guardano: un ospite")
    finally:
        bruno_context.close()
        anna_context.close()


def test_two_players_agree_to_a_rematch(server: Server, browser: Browser) -> None:
    players = [{"kind": "human", "name": "Anna"}, {"kind": "human", "name": "Bruno"},
               {"kind": "bot", "level": "facile"}]
    created = server.create("traversone", players, options=ONE_DEAL)
    old = created["table_id"]
    anna_context, anna = new_page(browser)
    bruno_context, bruno = new_page(browser)
    try:
        anna.goto(f"{server.base}{created['link']}&lang=en")
        bruno.goto(f"{server.base}{server.seat_link(created, 1)}&lang=it")
        wait_for_table(anna)
        wait_for_table(bruno)
        clickers = [Clicker(anna, random.Random(1)), Clicker(bruno, random.Random(2))]
        deadline = time.monotonic() + 90
        while table_state(anna)["status"] != "finished":
            assert time.monotonic() < deadline, "the match did not end"
            ready = [c for c in clickers if table_state(c.page)["mine"]]
            if ready:
                ready[0].click_once()
            else:
                anna.wait_for_timeout(30)
        expect(bruno.locator("#table-view")).to_have_attribute("data-status", "finished")
        anna.click("#rematch-button")
        expect(anna.locator("#rematch-button")).to_be_hidden()
        expect(anna.locator("#banner")).to_contain_text("Rematch asked for: waiting for Bruno.")
        expect(bruno.locator("#banner")).to_contain_text("Anna chiede la rivincita.")
        assert f"/t/{old}" in anna.url  # nothing is made until Bruno asks too
        bruno.click("#rematch-button")
        moved = re.compile(r"/t/(?!" + re.escape(old) + r")[^/?]+")
        anna.wait_for_url(moved)
        bruno.wait_for_url(moved)
        wait_for_table(anna)
        wait_for_table(bruno)
        assert anna.url.split("/t/")[1].split("?")[0] == bruno.url.split("/t/")[1].split("?")[0]
        assert anna.url.endswith("?lang=en") and bruno.url.endswith("?lang=it")  # each in his language
        assert (table_state(anna)["seat"], table_state(bruno)["seat"]) == ("0", "1")
    finally:
        bruno_context.close()
        anna_context.close()
