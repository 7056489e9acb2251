"""The table in the game's own words: the lines sent with every state and at every deal's end, for
players and watchers, the game's terms and card names in the lobby, the bots' names, and the hand
sent in the order the game ranks its cards."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import osteria
from osteria.cards import CARD_STRINGS, card_symbol, parse_card, suit_of
from osteria.i18n import meaning
from osteria.rules import GAMES, quattrigghiu
from osteria.rules.tressette_family import STRENGTH
from osteria.views import view_for
from server_helpers import connect, create, play_seat, receive, served, until, ws_url

from helpers import words_in

Log = list[dict[str, Any]]
SYMBOL = re.compile("|".join(re.escape(card_symbol(c)) for c in range(40)))
# A word of each game's own lines, as a player and as a watcher read them, in Italian and English.
# Cards the rules themselves name, wherever they lie: the matadors of each trunfu in Quattrigghiu.
RULE_CARDS = {card_symbol(c) for c in (quattrigghiu.SPATIGGHIA, quattrigghiu.BASTU, *quattrigghiu.MANIGGHIA)}
GAME_WORDS = {"tressette": ("Punti presi", "Points taken"), "calabresella": ("Poste", "Stakes"),
              "traversone": ("a perdere", "a perdere"), "sancagna": ("Cerchi", "Circles"),
              "quattrigghiu": ("Poste", "Stakes")}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(tmp_path_factory.mktemp("lines")) as address:
        yield address


def symbols_in_view(view: dict[str, Any]) -> set[str]:
    """The symbols of every card an observation names."""
    return {card_symbol(parse_card(w)) for w in words_in(view) if w in CARD_STRINGS}


async def watch_one_deal(url: str, log: Log) -> None:
    """A watcher's messages until the first deal's end and the state after it."""
    async with connect(url, max_queue=None) as ws:
        ended = False
        while True:
            message = await receive(ws)
            log.append(message)
            ended = ended or message["type"] == "deal_end"
            if ended and message["type"] == "state":
                return


def one_deal_watched(base: str, game: str) -> tuple[Log, Log]:
    """A deal of ``game``: one player (random legal actions) and bots; the player's messages and a watcher's."""
    seats = GAMES[game].default_seats
    created = create(base, game=game, players=[{"kind": "human", "name": "Anna"}]
                     + [{"kind": "bot", "level": "facile"}] * (seats - 1))
    player: Log = []
    watcher: Log = []

    async def both() -> None:
        watching = asyncio.create_task(watch_one_deal(ws_url(base, created["table_id"]), watcher))
        await asyncio.sleep(0.2)  # the watcher is there before play begins
        await play_seat(ws_url(base, created["table_id"], created["token"]), random.Random(5), log=player)
        await watching

    asyncio.run(both())
    return player, watcher


@pytest.fixture(scope="module")
def deals(base: str) -> dict[str, tuple[Log, Log]]:
    return {game: one_deal_watched(base, game) for game in GAMES}


@pytest.mark.parametrize("game", list(GAMES))
def test_every_state_carries_the_tables_lines_in_both_languages(deals: dict[str, tuple[Log, Log]],
                                                                game: str) -> None:
    it_word, en_word = GAME_WORDS[game]
    for log in deals[game]:
        states = [m for m in log if m["type"] == "state"]
        assert states
        for message in states:
            lines = message["lines"]
            assert set(lines) == {"it", "en"}
            assert lines["it"] and all(isinstance(line, str) for line in lines["it"] + lines["en"])
            assert len(lines["it"]) == len(lines["en"]) and lines["it"] != lines["en"]
        assert any(it_word in line for m in states for line in m["lines"]["it"])
        assert any(en_word in line for m in states for line in m["lines"]["en"])


@pytest.mark.parametrize("game", list(GAMES))
def test_the_lines_name_no_card_their_view_does_not_show(deals: dict[str, tuple[Log, Log]], game: str) -> None:
    for log in deals[game]:
        for message in log:
            if message["type"] == "state":
                shown = symbols_in_view(message["view"]) | (RULE_CARDS if game == "quattrigghiu" else set())
                for line in message["lines"]["it"] + message["lines"]["en"]:
                    assert set(SYMBOL.findall(line)) <= shown, (line, message["seat"])


@pytest.mark.parametrize("game", list(GAMES))
def test_the_lines_are_those_the_games_view_draws_from_the_view_sent(deals: dict[str, tuple[Log, Log]],
                                                                     game: str) -> None:
    """Drawn from the message's own view and nothing else: what the terminal table would write for it."""
    rules = osteria.game_rules(game)
    for log in deals[game]:
        for message in log:
            if message["type"] != "state":
                continue
            view, seat = message["view"], message["seat"]
            names = [p["name"] for p in message["table"]["players"]]
            for lang in ("it", "en"):
                drawn = view_for(rules, lang, names, -1 if seat is None else seat)
                drawn.note(view)
                assert message["lines"][lang] == [*drawn.match_and_deal(view),
                                                  *drawn.declarations(view), *drawn.signals(view)]


@pytest.mark.parametrize("game", list(GAMES))
def test_a_deals_end_is_told_in_the_games_words(deals: dict[str, tuple[Log, Log]], game: str) -> None:
    for log in deals[game]:
        ends = [m for m in log if m["type"] == "deal_end"]
        assert len(ends) == 1
        lines = ends[0]["lines"]
        outcome = ends[0]["result"]["outcome"]
        assert lines["it"][0] != lines["en"][0] and outcome in lines["it"][0] and outcome in lines["en"][0]


@pytest.mark.parametrize("game", ["tressette", "sancagna"])
def test_sides_are_we_and_they_to_a_player_and_named_to_a_watcher(deals: dict[str, tuple[Log, Log]],
                                                                  game: str) -> None:
    player, watcher = deals[game]
    names = player[-1]["table"]["players"]
    pair = f"{names[0]['name']}/{names[2]['name']}"
    for log, seated in ((player, True), (watcher, False)):
        said = [line for m in log if m["type"] in ("state", "deal_end") for line in m["lines"]["en"]]
        assert any(" we " in f" {line} " for line in said) == seated
        assert any(pair in line for line in said) != seated


def test_the_player_is_sent_his_hand_in_the_order_of_his_game(deals: dict[str, tuple[Log, Log]]) -> None:
    for game in ("tressette", "calabresella", "traversone"):  # by suit, each from its 4 to its 3
        for m in deals[game][0]:
            if m["type"] == "state" and m["view"]["hand"]:
                order = [(suit_of(c), STRENGTH[c]) for c in map(parse_card, m["view"]["hand"])]
                assert order == sorted(order), m["view"]["hand"]
    trumps_first = 0
    for m in deals["sancagna"][0] + deals["quattrigghiu"][0]:
        view = m["view"] if m["type"] == "state" else {}
        if view.get("trump") and view.get("hand"):
            trump = "dcsb".index(view["trump"])
            if view["game"] == "sancagna":
                is_trump = [suit_of(parse_card(c)) == trump for c in view["hand"]]
            else:
                is_trump = [bool(quattrigghiu.TRUMP_MASK[trump] >> parse_card(c) & 1) for c in view["hand"]]
            assert is_trump == sorted(is_trump, reverse=True), view["hand"]
            trumps_first += any(is_trump) and not all(is_trump)
    assert trumps_first  # some hand mixed trumps and other cards: the check could fail


def test_games_list_card_names_and_each_games_terms(base: str) -> None:
    games = httpx.get(base + "/api/games").json()
    # The page's languages, Italian then English: the names of the cards as they are said.
    assert games["cards"]["suit_names"] == {"it": ["denari", "coppe", "spade", "bastoni"],
                                            "en": ["coins", "cups", "swords", "clubs"]}
    assert games["cards"]["rank_names"]["it"][:3] == ["asso", "due", "tre"]
    assert games["cards"]["rank_names"]["en"][-3:] == ["jack", "knight", "king"]
    for entry in games["games"]:
        rules = osteria.game_rules(entry["name"])
        glossary, signal_names = rules.glossary(), rules.signal_names()
        assert entry["glossary"] == {word: [meaning("it", term.meaning), term.meaning]
                                     for word, term in glossary.items()}
        assert entry["signal_names"] == {word: [meaning("it", term.meaning), term.meaning]
                                         for word, term in signal_names.items()}
    by_name = {g["name"]: g for g in games["games"]}
    assert "busso" in by_name["tressette"]["signal_names"] and "trunfu" in by_name["quattrigghiu"]["glossary"]


def test_bots_have_names_of_their_own(base: str) -> None:
    created = create(base, game="traversone", seats=6,
                     players=[{"kind": "human", "name": "Peppino"}] + [{"kind": "bot"}] * 4 + [{"kind": "human"}])
    table = created["table"]
    names = [p["name"] for p in table["players"]]
    assert len(set(names)) == 6 and names[0] == "Peppino"
    assert not any("medio" in name for name in names)
    # Seats nobody took get bots at the start: named apart from everyone too.
    started = httpx.post(f"{base}/api/tables/{created['table_id']}/start",
                         json={"token": created["token"]}).json()
    names = [p["name"] for p in started["players"]]
    assert len(set(names)) == 6 and started["players"][5]["kind"] == "bot"



def test_a_page_that_says_its_language_is_sent_lines_in_it_alone(base: str) -> None:
    created = create(base, game="tressette")

    async def scenario() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any]]:
        async with connect(ws_url(base, created["table_id"], created["token"]) + "&lang=en") as ws:
            first = await until(ws, "state")
            await ws.send('{"type": "lang", "lang": "it"}')
            switched = await until(ws, "state")
            while "en" in switched["lines"]:  # a state sent before the switch was read
                switched = await until(ws, "state")
            await ws.send('{"type": "lang", "lang": "xx"}')
            refused = await until(ws, "error")
        async with connect(ws_url(base, created["table_id"], created["token"])) as ws:
            unsaid = await until(ws, "state")
        return first, switched, refused, unsaid

    first, switched, refused, unsaid = asyncio.run(scenario())
    assert list(first["lines"]) == ["en"] and first["lines"]["en"]
    assert list(switched["lines"]) == ["it"] and switched["lines"]["it"]
    assert refused["code"] == "bad_message" and "'xx' is not a language" in refused["message"]
    assert set(unsaid["lines"]) == {"it", "en"}  # a client that says nothing gets both
