"""The browser table with people: two browsers at one table, coming back after a reload, and
what a page may show: never a card another seat holds unseen."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from browser_harness import (
    MOVE_TIMEOUT_MS,
    Clicker,
    Server,
    actions_of,
    bot_players,
    free_port,
    same_action,
    serve,
    table_state,
    wait_for_table,
    wait_for_turn_or_end,
)
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, WebSocketRoute, expect

from osteria.cards import CARD_STRINGS, SUIT_SYMBOLS, SUITS, card_symbol, parse_card
from osteria.rules import quattrigghiu

DESKTOP: ViewportSize = {"width": 1280, "height": 860}
PHONE: ViewportSize = {"width": 390, "height": 844}
# A card written with its suit's symbol, as the game's text lines write it: 3♦.
SYMBOL_CARD = re.compile(r"(10|[A2-9XFCR])([" + "".join(SUIT_SYMBOLS) + "])")


def new_page(browser: Browser, **options: Any) -> tuple[BrowserContext, Page]:
    context = browser.new_context(**{"viewport": DESKTOP, **options})
    return context, context.new_page()


def test_a_move_the_rules_refuse_is_said_in_the_pages_language(server: Server, page: Page) -> None:
    # The page offers only legal moves: its socket goes through a route that swaps the card it
    # sends for one its hand lacks, as a page that misread its hand would send.
    swap: list[str] = []

    def route(socket: WebSocketRoute) -> None:
        upstream = socket.connect_to_server()

        def to_server(message: str | bytes) -> None:
            sent = json.loads(message) if isinstance(message, str) and swap else {}
            upstream.send(json.dumps({**sent, "action": swap.pop()}) if sent.get("type") == "play" else message)

        socket.on_message(to_server)

    page.route_web_socket(re.compile(r"/ws/"), route)
    created = server.create("traversone", bot_players(4))
    page.goto(f"{server.base}{created['link']}&lang=it")
    wait_for_table(page)
    wait_for_turn_or_end(page, 1)
    hand = page.locator("#hand .card").evaluate_all("(cards) => cards.map((card) => card.dataset.card)")
    stranger = next(c for c in CARD_STRINGS[:40] if c not in hand)
    swap.append(stranger)
    page.locator("#hand .card.playable").first.click()
    drawn = card_symbol(parse_card(stranger))  # as the page draws its cards
    expect(page.locator("#prompt .error")).to_contain_text(f"{drawn} non si può giocare: non è in mano a te")
    assert table_state(page)["mine"]  # still his turn, to play a card he holds


def test_two_browsers_play_at_one_table(server: Server, browser: Browser) -> None:
    players = [{"kind": "human", "name": "Anna"}, {"kind": "human"},
               {"kind": "bot", "level": "facile"}, {"kind": "bot", "level": "facile"}]
    created = server.create("tressette", players)
    table_id = created["table_id"]
    anna_context, anna = new_page(browser)
    bruno_context, bruno = new_page(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        anna.goto(f"{server.base}{created['link']}&lang=it")
        wait_for_table(anna)
        expect(anna.locator("#banner")).to_be_visible()  # waiting for the second person
        # Bruno comes with the table's invitation, gives his name and gets the free seat.
        bruno.goto(f"{server.base}{created['invite_link']}&lang=en")
        bruno.fill("#join-name", "Bruno")
        bruno.click("#join-form button[type=submit]")
        wait_for_table(bruno)
        assert table_state(bruno)["seat"] == "1"
        assert bruno.url.endswith(f"/t/{table_id}?lang=en")  # the table's address, not the seat's token
        expect(anna.locator('#felt .seat[data-seat="1"]')).to_contain_text("Bruno")
        expect(bruno.locator('#felt .seat[data-seat="0"]')).to_contain_text("Anna")
        expect(anna.locator("#table-view")).to_have_attribute("data-status", "playing")

        anna.fill("#chat-text", "ciao Bruno")
        anna.click("#chat-form button")
        expect(bruno.locator("#chat-log")).to_contain_text("Anna: ciao Bruno")

        clickers = [Clicker(anna, random.Random(1)), Clicker(bruno, random.Random(2))]
        deadline = time.monotonic() + 90
        while not any(table_state(c.page)["deals"] for c in clickers):
            assert time.monotonic() < deadline, "the deal did not end"
            ready = [c for c in clickers if table_state(c.page)["mine"]]
            if ready:
                ready[0].click_once()
            else:
                anna.wait_for_timeout(30)
        record = server.record(table_id)
        for seat, clicker in enumerate(clickers):
            recorded = actions_of(record, 0, seat)
            assert len(recorded) == len(clicker.played)
            assert all(same_action(a, b) for a, b in zip(clicker.played, recorded, strict=True))

        # Without the token in the address or the browser's storage, the join cookie still holds the seat.
        bruno.evaluate("localStorage.clear()")
        bruno.goto(f"{server.base}/t/{table_id}")
        wait_for_table(bruno)
        assert table_state(bruno)["seat"] == "1"
    finally:
        anna_context.close()
        bruno_context.close()


def test_a_reload_resumes_the_seat(server: Server, browser: Browser) -> None:
    created = server.create("traversone", bot_players(4))
    table_id = created["table_id"]
    context, page = new_page(browser)
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    try:
        page.goto(f"{server.base}{created['link']}&lang=it")
        wait_for_table(page)
        # The page keeps the token: the address bar shows the table's address and the language only.
        assert page.url == f"{server.base}/t/{table_id}?lang=it"
        clicker = Clicker(page, random.Random(3))
        for _ in range(2):
            wait_for_turn_or_end(page, 1)
            clicker.click_once()
        wait_for_turn_or_end(page, 1)
        hand = sorted(page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)"))
        assert len(hand) == 8  # 10 dealt, 2 played

        page.reload()
        wait_for_table(page)
        wait_for_turn_or_end(page, 1)
        assert table_state(page)["seat"] == "0"
        assert sorted(page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)")) == hand
        clicker.click_once()
        assert "token=" not in page.url

        # The bare table address in the same browser: the seat again (the page kept its token).
        page.goto(f"{server.base}/t/{table_id}")
        wait_for_table(page)
        assert table_state(page)["seat"] == "0"
        expect(page.locator("#hand .card")).to_have_count(7)
        # The sockets went with the join cookie, never with the token in their address.
        assert len(sockets) >= 3
        assert not [url for url in sockets if "token" in url]
    finally:
        context.close()
    # Another browser with the bare address only watches: no hand, no hint, nothing to play.
    context, watcher = new_page(browser)
    try:
        watcher.goto(f"{server.base}/t/{table_id}")
        wait_for_table(watcher)
        assert table_state(watcher)["seat"] == "null"
        expect(watcher.locator("#hand .card")).to_have_count(0)
        expect(watcher.locator("#hint-button")).to_be_hidden()
        expect(watcher.locator("#banner")).to_be_visible()
    finally:
        context.close()


def cards_shown(page: Page) -> dict[str, Any]:
    """The table's version and every card the page draws or writes, read at one moment; but the
    choices offered (a call names a card to ask for, which shows nobody's hand)."""
    shown: dict[str, Any] = page.evaluate("""() => {
        const page = document.body.cloneNode(true);
        page.querySelectorAll("#choices, #variants").forEach((e) => e.remove());
        return {
            move: Number(document.getElementById("table-view").dataset.move),
            cards: [...page.querySelectorAll("[data-card]")].map((e) => e.dataset.card),
            text: page.textContent,
        };
    }""")
    for rank, symbol in SYMBOL_CARD.findall(shown["text"]):
        shown["cards"].append(("X" if rank == "10" else rank) + SUITS[SUIT_SYMBOLS.index(symbol)])
    return shown


# Cards a game's rules name wherever they lie (the table's lines say them): Quattrigghiu's matadors.
RULE_CARDS = {"quattrigghiu": {CARD_STRINGS[c] for c in (quattrigghiu.SPATIGGHIA, quattrigghiu.BASTU,
                                                         *quattrigghiu.MANIGGHIA)}}


def named_cards(actions: list[list[Any]]) -> set[str]:
    return {word for _, action in actions for word in action.split() if word in CARD_STRINGS}


# Each game, and the cards of its stock shown to everybody (Sancagna's turned and bottom cards).
@pytest.mark.parametrize(("game", "shown_stock"), [("tressette", ()), ("quattrigghiu", ()),
                                                   ("sancagna", ("turned", "bottom"))])
def test_no_page_shows_a_hidden_card(server: Server, browser: Browser, game: str, shown_stock: tuple[str, ...]) -> None:
    """At every turn of a deal, the player's page shows only his hand, the cards the actions so
    far have shown to all and the stock's open cards; a spectator's page all that but the hand."""
    created = server.create(game, bot_players(4))
    table_id = created["table_id"]
    context, page = new_page(browser)
    watch_context, watcher = new_page(browser)
    try:
        page.goto(f"{server.base}{created['link']}")
        watcher.goto(f"{server.base}/t/{table_id}")
        wait_for_table(page)
        wait_for_table(watcher)
        clicker = Clicker(page, random.Random(game))
        seen: list[tuple[str, dict[str, Any]]] = []
        while True:
            wait_for_turn_or_end(page, 1)
            if table_state(page)["deals"]:
                break
            move = table_state(page)["move"]
            watcher.wait_for_function(f"() => Number(document.getElementById('table-view').dataset.move) >= {move}",
                                      timeout=MOVE_TIMEOUT_MS)
            seen += [("player", cards_shown(page)), ("spectator", cards_shown(watcher))]
            clicker.click_once()
    finally:
        context.close()
        watch_context.close()
    deal = server.record(table_id)["deals"][0]
    hand = set(deal["hands"][0])
    assert len(seen) >= 2 * 2
    stock = {deal["stock"][role] for role in shown_stock}
    for who, shown in seen:
        public = named_cards(deal["actions"][:shown["move"]]) | stock | RULE_CARDS.get(game, set())
        allowed = public | hand if who == "player" else public
        hidden = set(shown["cards"]) - allowed
        assert not hidden, f"the {who}'s page showed {sorted(hidden)} at move {shown['move']}"
    assert any(set(shown["cards"]) & hand for who, shown in seen if who == "player")


def test_the_page_comes_back_after_the_server_is_killed(browser: Browser, tmp_path: Path) -> None:
    port = free_port()
    context, page = new_page(browser)
    try:
        with serve(tmp_path, port=port) as server:
            created = server.create("tressette", bot_players(4))
            page.goto(f"{server.base}{created['link']}")
            wait_for_table(page)
            clicker = Clicker(page, random.Random(4))
            wait_for_turn_or_end(page, 1)
            clicker.click_once()
            wait_for_turn_or_end(page, 1)
            move = table_state(page)["move"]
            hand = page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)")
            server.process.kill()  # as kill -9: nothing is flushed, nothing said to the page
            expect(page.locator("#banner")).to_have_class("banner warn")
        with serve(tmp_path, port=port):
            # The page reconnects by itself and finds its seat, its hand and the table as they were.
            expect(page.locator("#banner")).to_be_hidden(timeout=MOVE_TIMEOUT_MS)
            wait_for_turn_or_end(page, 1)
            assert table_state(page)["move"] == move
            assert page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)") == hand
            clicker.click_once()
    finally:
        context.close()


def test_what_is_clicked_while_the_connection_is_down_is_refused_and_said(browser: Browser, tmp_path: Path) -> None:
    port = free_port()
    context, page = new_page(browser)
    hand_of = "cards => cards.map(c => c.dataset.card)"
    try:
        with serve(tmp_path, port=port) as server:
            created = server.create("tressette", bot_players(4))
            table_id = created["table_id"]
            page.goto(f"{server.base}{created['link']}&lang=en")
            wait_for_table(page)
            wait_for_turn_or_end(page, 1)
            move = table_state(page)["move"]
            hand = page.locator("#hand .card").evaluate_all(hand_of)
        banner = page.locator("#banner")
        expect(banner).to_have_text("Connection lost: reconnecting…")
        # A card clicked now cannot reach the server: refused, said, and still in the hand to play.
        page.locator("#hand .card.playable").first.click()
        if page.locator("#variants").is_visible():
            page.locator("#variants [data-action]").first.click()
        expect(banner).to_have_text("Connection lost: nothing was sent. Reconnecting… play again once it is back.")
        expect(banner).to_have_class("banner warn")
        page.select_option("#lang", "it")
        expect(banner).to_have_text("Connessione persa: non è partito nulla. Riconnessione… rigioca quando torna.")
        assert page.locator("#hand .card").evaluate_all(hand_of) == hand
        assert page.locator("#hand .card.playable").count() > 0
        page.fill("#chat-text", "still there?")
        page.click("#chat-form button")
        expect(page.locator("#chat-text")).to_have_value("still there?")  # kept, to send again
        with serve(tmp_path, port=port) as server:
            expect(banner).to_be_hidden(timeout=MOVE_TIMEOUT_MS)
            wait_for_turn_or_end(page, 1)
            # Back as it was: nothing was played for the seat while it was away, and it plays on.
            assert table_state(page)["move"] == move
            assert page.locator("#hand .card").evaluate_all(hand_of) == hand
            Clicker(page, random.Random(6)).click_once()
            assert server.get(f"/api/tables/{table_id}")["move"] > move
    finally:
        context.close()


def test_the_dealer_calls_the_last_round_with_two_presses(server: Server, browser: Browser) -> None:
    created = server.create("calabresella", [{"kind": "human"}] * 3)
    table_id = created["table_id"]
    dealer = server.get(f"/api/tables/{table_id}")["deals"][0]["dealer"]
    context, page = new_page(browser)
    try:
        page.goto(f"{server.base}{server.seat_link(created, dealer)}&lang=it")
        wait_for_table(page)
        page.click("#start-button")  # bots take the two free seats
        button = page.locator("#last-round-button")
        expect(button).to_be_visible()
        expect(button).to_have_text("Ultimo giro (mano)")
        button.click()  # a first press asks
        expect(button).to_contain_text("la partita finisce con la smazzata 3")
        assert server.get(f"/api/tables/{table_id}")["last_round"] is None
        button.click()
        expect(button).to_be_hidden()
        expect(page.locator("#info")).to_contain_text("Ultimo giro, chiamato da te: "
                                                      "la partita finisce con la smazzata 3.")
        Clicker(page, random.Random(5)).play_deals(deals=99, max_clicks=400)
        expect(page.locator("#table-view")).to_have_attribute("data-status", "finished")
        assert table_state(page)["deals"] == 3  # not the six of two rounds
    finally:
        context.close()
    record = server.record(table_id)
    assert record["last_round"] == {"deal": 0, "seat": dealer}
