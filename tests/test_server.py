"""The online server: tables over HTTP and WebSockets, every game played to a deal's end, hostile
messages, seats, stand-ins, chat, records and fair-deal verification."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

import osteria
from osteria.cards import card_symbol, parse_card
from osteria.cli import main
from osteria.rules import GAMES
from osteria.server.fair import seed_hash, verify_record
from osteria.server.tables import public_view
from server_helpers import connect, create, play_seat, quick_settings, receive, seat_tokens, served, until, ws_url

from helpers import words_in


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(tmp_path_factory.mktemp("server")) as address:
        yield address


def two_humans(base: str, game: str) -> dict[str, Any]:
    seats = GAMES[game].default_seats
    players = [{"kind": "human"}, {"kind": "human"}] + [{"kind": "bot", "level": "facile"}] * (seats - 2)
    return create(base, game=game, players=players)


def cards_of_view(view: dict[str, Any]) -> set[str]:
    """Every card named anywhere in an observation."""
    return {w for w in words_in(view) if w in osteria.cards.CARD_STRINGS}


def in_deck_order(view: dict[str, Any]) -> dict[str, Any]:
    """An observation sent with its hands in the game's order, with them in the deck's order as the
    engine lists them."""
    def deck_order(cards: Any) -> Any:
        return sorted(cards, key=osteria.cards.parse_card) if isinstance(cards, list) and None not in cards else cards

    ordered = dict(view)
    if "hand" in view:
        ordered["hand"] = deck_order(view["hand"])
    if isinstance(view.get("hands"), list):
        ordered["hands"] = [deck_order(hand) for hand in view["hands"]]
    return ordered


# -- HTTP -------------------------------------------------------------------------------------------


def test_games_lists_every_game_with_its_options(base: str) -> None:
    games = httpx.get(base + "/api/games").json()
    assert [g["name"] for g in games["games"]] == osteria.games()
    tressette = next(g for g in games["games"] if g["name"] == "tressette")
    assert {"name": "target", "default": 31, "choices": [21, 31, 41]}.items() <= tressette["options"][0].items()
    assert games["levels"] == ["facile", "medio", "difficile", "maestro"]


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"game": "scopa"}, 400, "unknown game 'scopa'"),
    ({"game": "tressette", "options": {"target": 25}}, 400, "option 'target' cannot be 25"),
    ({"game": "tressette", "options": {"colour": "red"}}, 400, "unknown option 'colour'"),
    ({"game": "tressette", "seats": 3}, 400, "not 3"),
    ({"game": "tressette", "players": [{"kind": "human"}]}, 400, "not 1"),
    ({"game": "tressette", "seats": 4, "players": [{"kind": "human"}] * 3}, 400, "3 players for 4 seats"),
    ({"game": "tressette", "players": [{"kind": "bot", "level": "genio"}] * 4}, 422, "level"),
    ({"game": "tressette", "stand_in_level": "genio"}, 422, "stand_in_level"),
    ({"game": "tressette", "players": [{"kind": "human", "name": "a\u0007b"}] * 4}, 422, "printable"),
    ({"game": "tressette", "secret": 1}, 422, "secret"),
])
def test_bad_tables_are_refused_with_a_clear_message(base: str, body: dict[str, Any], status: int,
                                                     words: str) -> None:
    response = httpx.post(base + "/api/tables", json=body)
    assert response.status_code == status
    assert words in json.dumps(response.json())


def test_an_oversized_body_is_refused(base: str) -> None:
    response = httpx.post(base + "/api/tables", content=b"{" + b" " * 20_000 + b"}",
                          headers={"content-type": "application/json"})
    assert response.status_code == 413


def test_the_page_is_served_at_the_root_and_at_table_links(base: str) -> None:
    for path in ("/", "/t/abc"):
        response = httpx.get(base + path)
        assert response.status_code == 200
        assert "html" in response.headers["content-type"]


def test_a_new_table_gives_its_creator_his_own_link_and_one_for_the_table(base: str) -> None:
    created = create(base, game="sancagna", players=[{"kind": "human", "name": "Anna"}, {"kind": "bot"},
                                                     {"kind": "human"}, {"kind": "bot", "level": "maestro"}])
    seats = created["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot", "human", "bot"] and seats[3]["level"] == "maestro"
    assert created["seat"] == 0 and created["link"] == f"/t/{created['table_id']}?seat=0&token={created['token']}"
    assert created["token"] != created["invite"]
    assert "token" not in json.dumps(seats)  # no other seat's
    table = httpx.get(base + f"/api/tables/{created['table_id']}").json()
    assert table["status"] == "waiting"
    assert table["players"][0]["name"] == "Anna"
    assert "token" not in json.dumps(table) and created["token"] not in json.dumps(table)
    assert len(table["deals"][0]["seed_hash"]) == 64 and table["deals"][0]["seed"] is None


def test_friends_join_with_the_invite_and_a_seated_player_starts(base: str) -> None:
    created = create(base, game="tressette", players=[{"kind": "human"}] * 3 + [{"kind": "bot"}])
    table_id = created["table_id"]
    join = f"{base}/api/tables/{table_id}/join"
    assert httpx.post(join, json={"invite": "wrong"}).status_code == 403
    joined = httpx.post(join, json={"invite": created["invite"], "name": "Bruno", "seat": 1})
    assert joined.status_code == 200
    assert joined.json()["seat"] == 1 and joined.json()["token"] not in json.dumps(created)
    assert joined.cookies[f"osteria_{table_id}"] == joined.json()["token"]
    assert httpx.post(join, json={"invite": created["invite"], "seat": 1}).status_code == 409
    state = httpx.get(f"{base}/api/tables/{table_id}").json()
    assert state["players"][1]["name"] == "Bruno" and state["status"] == "waiting"
    start = f"{base}/api/tables/{table_id}/start"
    assert httpx.post(start, json={"token": "nobody"}).status_code == 403
    started = httpx.post(start, json={"token": joined.json()["token"]}).json()
    assert started["status"] == "playing"
    # The seats nobody took are the stand-in level's bots now; seat 1 stays Bruno's.
    assert [p["kind"] for p in started["players"]] == ["bot", "human", "bot", "bot"]
    assert httpx.post(join, json={"invite": created["invite"]}).status_code == 409


# -- every game over WebSockets ----------------------------------------------------------------------


@pytest.mark.parametrize("game", list(GAMES))
def test_two_players_and_bots_play_a_whole_deal_of_each_game(base: str, game: str) -> None:
    created = two_humans(base, game)
    table_id, tokens = created["table_id"], seat_tokens(base, created)
    logs: list[list[dict[str, Any]]] = [[], []]

    async def both() -> list[dict[str, Any]]:
        return await asyncio.gather(*(play_seat(ws_url(base, table_id, tokens[s]),
                                                random.Random(s), log=logs[s]) for s in (0, 1)))

    finals = asyncio.run(both())
    assert finals[0]["table"]["result"]["deals"]
    for seat, log in enumerate(logs):
        ends = [m for m in log if m["type"] == "deal_end"]
        assert len(ends) == 1 and ends[0]["seed_hash"] == seed_hash(ends[0]["seed"])
        states = [m for m in log if m["type"] == "state" and m["table"]["status"] == "playing"
                  and m["view"]["deal_index"] == 0]
        assert states
        # Each client is sent exactly the engine's observation of its own seat.
        for message in states[:: max(1, len(states) // 8)]:
            so_far = json.loads(json.dumps(ends[0]["deal"]))
            so_far["actions"] = so_far["actions"][:message["table"]["move"]]
            record = {"format": "osteria/1", "game": game, "players": message["view"]["players"],
                      "options": message["view"]["options"], "deals": [so_far]}
            assert message["seat"] == seat
            assert in_deck_order(message["view"]) == json.loads(json.dumps(osteria.replay(record).observation(seat)))
    record = httpx.get(f"{base}/api/tables/{table_id}/record").json()
    assert len(record["deals"]) == 1
    assert all(c.ok for c in verify_record(record))
    assert osteria.replay(record).result()["deals"] == finals[0]["table"]["result"]["deals"]


# -- hostile and mistaken messages ---------------------------------------------------------------


def test_illegal_and_malformed_messages_get_errors_and_the_table_goes_on(base: str) -> None:
    created = create(base, game="traversone", players=[{"kind": "human"}] * 4)
    table_id, tokens = created["table_id"], seat_tokens(base, created)

    async def scenario() -> None:
        sockets = [await connect(ws_url(base, table_id, t)) for t in tokens]
        watcher = await connect(ws_url(base, table_id))
        try:
            state = await receive(sockets[0])
            while state["table"]["status"] != "playing":
                state = await until(sockets[0], "state")
            mover = state["view"]["to_move"]
            other = (mover + 1) % 4
            ws = sockets[mover]
            state = await until(ws, "state")
            while not state["legal"]:
                state = await until(ws, "state")
            move = state["table"]["move"]
            hand = state["view"]["hand"]
            stranger = next(c for c in osteria.cards.CARD_STRINGS[:40] if c not in hand)
            cases: list[tuple[Any, str, str]] = [
                (sockets[mover], "not json", "bad_message"),
                (sockets[mover], json.dumps({"type": "dance"}), "bad_message"),
                (sockets[mover], json.dumps({"type": "play"}), "bad_message"),
                (sockets[mover], json.dumps({"type": "play", "action": 3}), "bad_message"),
                (sockets[mover], json.dumps({"type": "play", "action": "4d", "cheat": True}), "bad_message"),
                (sockets[mover], json.dumps({"type": "chat", "text": "x" * 281}), "bad_message"),
                (sockets[mover], json.dumps({"type": "play", "action": "x" * 5000}), "too_large"),
                (sockets[mover], b"\x00binary", "bad_message"),
                (sockets[mover], json.dumps({"type": "play", "action": "Zz"}), "illegal"),
                (sockets[mover], json.dumps({"type": "play", "action": stranger}), "illegal"),
                (sockets[mover], json.dumps({"type": "play", "action": hand[0], "move": move + 5}), "stale"),
                (sockets[other], json.dumps({"type": "play", "action": hand[0]}), "not_your_turn"),
                (watcher, json.dumps({"type": "play", "action": hand[0]}), "spectator"),
                (watcher, json.dumps({"type": "hint"}), "spectator"),
                (sockets[other], json.dumps({"type": "hint"}), "not_your_turn"),
                (sockets[mover], json.dumps({"type": "analysis", "deal_index": 0}), "unavailable"),
            ]
            for sender, text, code in cases:
                await sender.send(text)
                error = await until(sender, "error")
                assert error["code"] == code, (text[:40], error)
                assert error["message"]
                # Why the rules refuse an action is said in each of the page's languages too.
                assert ("says" in error) == (code == "illegal")
            await ws.send(json.dumps({"type": "play", "action": stranger}))
            drawn = card_symbol(parse_card(stranger))  # the card as the table draws it: 2♦, not 2d
            assert (await until(ws, "error"))["says"] == {
                "it": f"{drawn} non si può giocare: non è in mano a te",
                "en": f"you cannot play {drawn}: it is not in the hand"}
            # The mover's errors reached him only; his seat still plays.
            await ws.send(json.dumps({"type": "ping"}))
            assert (await until(ws, "pong"))["type"] == "pong"
            await ws.send(json.dumps({"type": "play", "action": state["legal"][0]["action"], "move": move}))
            after = await until(ws, "state")
            assert after["table"]["move"] == move + 1 and after["last"]["seat"] == mover
        finally:
            for s in [*sockets, watcher]:
                await s.close()

    asyncio.run(scenario())


def test_wrong_tokens_and_unknown_tables_are_turned_away(base: str) -> None:
    created = create(base, game="tressette")

    async def close_code(url: str) -> int | None:
        async with connect(url) as ws:
            with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
                await receive(ws)
        return None if closed.value.rcvd is None else closed.value.rcvd.code

    assert asyncio.run(close_code(ws_url(base, created["table_id"], "forged"))) == 4403
    assert asyncio.run(close_code(ws_url(base, "nothere"))) == 4404


def test_a_flood_is_rate_limited(base: str) -> None:
    created = create(base, game="tressette")

    async def scenario() -> list[str]:
        url = ws_url(base, created["table_id"], created["token"])
        async with connect(url, max_queue=None) as ws:  # unread answers must not stall the close
            for i in range(8):
                await ws.send(json.dumps({"type": "chat", "text": f"line {i}"}))
            for _ in range(60):
                await ws.send(json.dumps({"type": "ping"}))
            codes = []
            while len(codes) < 3 + 20:
                message = await receive(ws)
                if message["type"] == "error":
                    codes.append(message["code"])
                if message["type"] == "pong":
                    codes.append("pong")
            return codes

    codes = asyncio.run(scenario())
    assert "rate_limited" in codes
    assert codes.count("pong") <= 40


def test_a_socket_that_floods_on_and_on_is_closed(base: str) -> None:
    created = create(base, game="tressette")

    async def scenario() -> int | None:
        url = ws_url(base, created["table_id"], created["token"])
        async with connect(url, max_queue=None) as ws:
            with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
                for _ in range(1000):
                    await ws.send(json.dumps({"type": "ping"}))
                while True:
                    await receive(ws)
        return None if closed.value.rcvd is None else closed.value.rcvd.code

    assert asyncio.run(scenario()) == 4429


def test_chat_reaches_everyone_and_newcomers_get_the_last_lines(base: str) -> None:
    created = create(base, game="tressette")
    table_id, token = created["table_id"], created["token"]

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with connect(ws_url(base, table_id)) as watcher, \
                connect(ws_url(base, table_id, token)) as player:
            await player.send(json.dumps({"type": "chat", "text": "  bella   mano! "}))
            heard = await until(watcher, "chat")
        async with connect(ws_url(base, table_id)) as late:
            return heard, await until(late, "chat")

    heard, replayed = asyncio.run(scenario())
    assert heard["text"] == "bella mano!" and heard["seat"] == 0 and heard["name"] == "seat 0"
    assert replayed == heard


# -- seats ------------------------------------------------------------------------------------------


def test_an_absent_player_is_stood_in_for_until_he_returns(tmp_path: Path) -> None:
    with served(tmp_path, quick_settings(stand_in_after=0.3)) as address:
        created = create(address, game="traversone", players=[{"kind": "human"}] * 3)
        table_id, tokens = created["table_id"], seat_tokens(address, created)

        async def scenario() -> None:
            sockets = [await connect(ws_url(address, table_id, t)) for t in tokens]
            watcher = await connect(ws_url(address, table_id))
            for ws in sockets:
                await ws.close()
            # Nobody moves: after a while bots play for everyone, and the watcher sees it.
            state = await until(watcher, "state")
            while state["table"]["move"] < 4:
                state = await until(watcher, "state")
            assert all(p["stand_in"] for p in state["table"]["players"])
            async with connect(ws_url(address, table_id, tokens[0])) as back:
                state = await until(back, "state")
                assert not state["table"]["players"][0]["stand_in"]
                assert state["table"]["players"][1]["stand_in"]
            await watcher.close()

        asyncio.run(scenario())


def test_a_cookie_resumes_a_seat(base: str) -> None:
    created = create(base, game="tressette", players=[{"kind": "human"}, {"kind": "human"},
                                                       {"kind": "bot"}, {"kind": "bot"}])
    table_id = created["table_id"]
    joined = httpx.post(f"{base}/api/tables/{table_id}/join", json={"invite": created["invite"], "name": "Carla"})

    async def scenario() -> dict[str, Any]:
        headers = {"Cookie": f"osteria_{table_id}={joined.json()['token']}"}
        async with connect(ws_url(base, table_id), additional_headers=headers) as ws:
            return await until(ws, "state")

    state = asyncio.run(scenario())
    seat = joined.json()["seat"]
    assert state["seat"] == seat and state["view"]["seat"] == seat and state["view"]["hand"]


# -- spectators and records -------------------------------------------------------------------------


def test_the_public_view_keeps_only_what_every_seat_sees() -> None:
    match = osteria.new_match("tressette", seed=3)
    for _ in range(6):
        match.play(match.legal_actions()[0])
    observations = [match.observation(s) for s in range(4)]
    view = public_view(observations)
    assert view["seat"] is None and view["legal_actions"] == []
    assert view["history"] == observations[0]["history"]
    assert view["trick"] == observations[0]["trick"]
    assert not any(view["hand"] or []) and not any(view["hands"] or [])
    dealt = {c for hand in match.record()["deals"][0]["hands"] for c in hand}
    played = set(cards_of_view({"h": view["history"]}))
    assert cards_of_view(view) & dealt <= played


def test_a_record_downloaded_mid_deal_shows_no_hand_of_the_deal_in_progress(base: str) -> None:
    created = create(base, game="calabresella", players=[{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}])
    table_id, token = created["table_id"], created["token"]
    record = httpx.get(f"{base}/api/tables/{table_id}/record").json()
    assert record["deals"] == [] and record["game"] == "calabresella"
    asyncio.run(play_seat(ws_url(base, table_id, token), random.Random(5)))
    record = httpx.get(f"{base}/api/tables/{table_id}/record").json()
    assert len(record["deals"]) == 1  # the second deal, already dealt, is not in it
    state = httpx.get(f"{base}/api/tables/{table_id}").json()
    assert len(state["deals"]) == 2 and state["deals"][1]["seed"] is None
    assert state["deals"][0]["seed"] == record["deals"][0]["seed"]


# -- verification -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def finished_record(base: str) -> dict[str, Any]:
    created = create(base, game="traversone", players=[{"kind": "human"}] + [{"kind": "bot"}] * 3)
    asyncio.run(play_seat(ws_url(base, created["table_id"], created["token"]), random.Random(1)))
    record: dict[str, Any] = httpx.get(f"{base}/api/tables/{created['table_id']}/record").json()
    return record


def test_verify_accepts_an_honest_record(finished_record: dict[str, Any], tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str], base: str) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(finished_record))
    assert main(["verify", str(path)]) == 0
    assert "deal 1: ok" in capsys.readouterr().out
    answer = httpx.post(base + "/api/verify", json=finished_record).json()
    assert answer["ok"] and answer["deals"][0]["ok"]


def tampered(record: dict[str, Any], how: str) -> dict[str, Any]:
    record = json.loads(json.dumps(record))
    deal = record["deals"][0]
    if how == "seed":
        deal["seed"] = "0" * 64
    elif how == "hash":
        deal["seed_hash"] = seed_hash("another")
    elif how == "hands":
        # Another deal whose seed and hash are honest: the hands are not the ones it deals.
        deal["seed"] = "1" * 64
        deal["seed_hash"] = seed_hash(deal["seed"])
    elif how == "dealer":
        # The first deal alone, dealt by another seat: its cards and its play stay legal, but
        # the seed drew its dealer.
        record["deals"] = record["deals"][:1]
        deal["dealer"] = (deal["dealer"] + 1) % len(deal["hands"])
    else:
        del deal["seed"]
    return record


@pytest.mark.parametrize(("how", "words"), [
    ("seed", "does not hash"), ("hash", "does not hash"), ("hands", "hand is not the one the seed deals"),
    ("dealer", "whom the seed draws"), ("missing", "cannot be checked"),
])
def test_verify_refuses_a_tampered_record(finished_record: dict[str, Any], tmp_path: Path, how: str, words: str,
                                          capsys: pytest.CaptureFixture[str], base: str) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(tampered(finished_record, how)))
    assert main(["verify", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "deal 1" in err and words in err and "Traceback" not in err
    answer = httpx.post(base + "/api/verify", json=tampered(finished_record, how)).json()
    assert not answer["ok"] and words in answer["deals"][0]["message"]


def test_verify_reports_a_malformed_record_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "osteria/1", "game": "tressette", "deals": [{"dealer": 9}]}')
    assert main(["verify", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("osteria verify: ") and "deals[0]" in err and err.count("\n") == 1


# -- hints and analysis -----------------------------------------------------------------------------


def test_hints_for_the_own_turn_and_the_analysis_of_a_finished_deal(tmp_path: Path) -> None:
    settings = quick_settings(hint_time=0.05, analysis_time=0.01, analysis_nodes=2000)
    with served(tmp_path, settings) as address:
        created = create(address, game="traversone", players=[{"kind": "human"}] + [{"kind": "bot"}] * 3)
        url = ws_url(address, created["table_id"], created["token"])
        asyncio.run(play_seat(url, random.Random(3)))

        async def scenario() -> tuple[dict[str, Any], list[str], dict[str, Any], dict[str, Any], dict[str, Any]]:
            async with connect(url) as ws, connect(ws_url(address, created["table_id"])) as eye:
                state = await until(ws, "state")
                # A hint weighs the choices of a turn that has some: a forced card is played.
                while len(state["legal"]) < 2:
                    if state["legal"]:
                        await ws.send(json.dumps({"type": "play", "action": state["legal"][0]["action"],
                                                  "move": state["table"]["move"]}))
                    state = await until(ws, "state")
                await ws.send(json.dumps({"type": "hint"}))
                hint = await until(ws, "hint")
                await eye.send(json.dumps({"type": "analysis", "deal_index": 0}))
                seen = []
                while (message := await receive(eye))["type"] != "analysis":
                    seen.append(message["type"])
                await ws.send(json.dumps({"type": "analysis", "deal_index": 0}))
                return hint, seen, message, await until(ws, "analysis"), state

        hint, seen, analysis, again, state = asyncio.run(scenario())
        deal = httpx.get(f"{address}/api/tables/{created['table_id']}/record").json()["deals"][0]
    assert hint["action"] in [entry["action"] for entry in state["legal"]]
    assert hint["move"] == state["table"]["move"] and hint["unit"] and hint["samples"] > 0
    assert set(hint["values"]) <= {entry["action"] for entry in state["legal"]}
    values = hint["values"]
    assert hint["outvalued"] == bool(values and (hint["action"] not in values
                                                 or max(values.values()) > values[hint["action"]]))
    assert "analysis_pending" in seen and "analysis_progress" in seen
    assert [[s["seat"], s["action"]] for s in analysis["steps"]] == deal["actions"]
    assert len(analysis["lost_by_seat"]) == 4 and again == analysis


def test_one_address_cannot_open_tables_without_end(tmp_path: Path) -> None:
    with served(tmp_path, quick_settings(tables_burst=2, tables_per_minute=0.01)) as address:
        codes = [httpx.post(address + "/api/tables", json={"game": "tressette"}).status_code for _ in range(3)]
    assert codes == [201, 201, 429]


def test_a_table_the_rules_cannot_rebuild_keeps_no_other_table_closed(tmp_path: Path) -> None:
    import sqlite3

    with served(tmp_path) as address:
        good, bad = (create(address, game="traversone", players=[{"kind": "human"}] + [{"kind": "bot"}] * 3)
                     for _ in range(2))
        for table in (good, bad):
            asyncio.run(play_seat(ws_url(address, table["table_id"], table["token"]), random.Random(0)))
    with sqlite3.connect(tmp_path / "osteria.sqlite3") as db:
        db.execute("UPDATE actions SET action = 'Zz' WHERE table_id = ? AND action_index = 3", (bad["table_id"],))
    with served(tmp_path) as address:
        assert httpx.get(f"{address}/api/tables/{bad['table_id']}").status_code == 404
        assert httpx.get(f"{address}/api/tables/{good['table_id']}").json()["move"] >= 40


@pytest.mark.parametrize(("argv", "words"), [
    (["serve", "--port", "70000"], "--port must be from 1 to 65535"),
    (["serve", "--database", "postgresql://nobody@127.0.0.1:1/none"], "cannot open the database"),
])
def test_serve_reports_bad_settings_in_one_line(argv: list[str], words: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("osteria serve: ") and words in err and err.count("\n") == 1


# -- the last round -----------------------------------------------------------------------------------


def test_the_dealer_calls_mano_over_the_websocket_and_it_outlives_a_restart(tmp_path: Path) -> None:
    async def state_where(ws: Any, wanted: Any) -> dict[str, Any]:
        while True:
            message = await until(ws, "state")
            if wanted(message):
                return message

    with served(tmp_path) as base:
        created = create(base, game="calabresella", players=[{"kind": "human"}] * 3)
        table_id, tokens = created["table_id"], seat_tokens(base, created)
        urls = [ws_url(base, table_id, token) for token in tokens]

        async def declare() -> list[dict[str, Any]]:
            sockets = [await connect(url) for url in urls]
            try:
                playing = [await state_where(ws, lambda m: m["table"]["status"] == "playing") for ws in sockets]
                dealer = playing[0]["table"]["deals"][0]["dealer"]
                for seat, state in enumerate(playing):
                    assert state["last_round_offer"] == ({"last_deal": 2} if seat == dealer else None)
                    assert state["table"]["last_round"] is None
                other = (dealer + 1) % 3
                await sockets[other].send(json.dumps({"type": "last_round"}))
                error = await until(sockets[other], "error")
                assert error["code"] == "illegal" and f"only the dealer, seat {dealer}" in error["message"]
                await sockets[dealer].send(json.dumps({"type": "last_round"}))
                return [await state_where(ws, lambda m: m["table"]["last_round"] is not None) for ws in sockets]
            finally:
                for ws in sockets:
                    await ws.close()

        declared = asyncio.run(declare())
        dealer = declared[0]["table"]["deals"][0]["dealer"]
        for state in declared:
            assert state["table"]["last_round"] == {"deal": 0, "seat": dealer, "last_deal": 2}
            assert state["last_round_offer"] is None
            assert state["view"]["last_round"] == state["table"]["last_round"]
            assert any(line.startswith("Ultimo giro, chiamato da") for line in state["lines"]["it"])
            assert any("the match ends with deal 3" in line for line in state["lines"]["en"])
    with served(tmp_path) as base:  # the server starts again: the table remembers
        assert httpx.get(f"{base}/api/tables/{table_id}").json()["last_round"]["seat"] == dealer

        urls = [ws_url(base, table_id, token) for token in tokens]  # the new address

        async def everyone() -> list[dict[str, Any]]:
            return await asyncio.gather(*(play_seat(url, random.Random(s), deals=99) for s, url in enumerate(urls)))

        finals = asyncio.run(everyone())
        table = httpx.get(f"{base}/api/tables/{table_id}").json()
        assert table["status"] == "finished" and len(table["result"]["deals"]) == 3  # not six
        assert all(final["table"]["status"] == "finished" for final in finals)
        record = httpx.get(f"{base}/api/tables/{table_id}/record").json()
        assert record["last_round"] == {"deal": 0, "seat": dealer}
        assert osteria.replay(record).result() == table["result"]
        assert all(c.ok for c in verify_record(record))


def test_spectators_and_games_without_a_last_round_are_refused(base: str) -> None:
    created = create(base, game="tressette", players=[{"kind": "human"}] + [{"kind": "bot"}] * 3)

    async def run() -> tuple[dict[str, Any], dict[str, Any]]:
        async with connect(ws_url(base, created["table_id"], created["token"])) as ws:
            state = await until(ws, "state")
            assert state["last_round_offer"] is None
            await ws.send(json.dumps({"type": "last_round"}))
            seated = await until(ws, "error")
        async with connect(ws_url(base, created["table_id"])) as ws:
            await ws.send(json.dumps({"type": "last_round"}))
            watching = await until(ws, "error")
        return seated, watching

    seated, watching = asyncio.run(run())
    assert seated["code"] == "illegal" and "tressette has no declared last round" in seated["message"]
    assert watching["code"] == "spectator"
