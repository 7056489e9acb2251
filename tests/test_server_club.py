"""The club over real HTTP and WebSockets: accounts (sign-up, sign-in, sign-out, refusals that
say nothing of which part was wrong, a limit on attempts), a signed-in player's finished match
rated with the bots it met, the ladder, the player's history, and ratings kept across a restart."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from osteria.server.club import PASSWORD_LENGTH
from osteria.server.store import Store
from server_helpers import TIMEOUT, create, play_seat, quick_settings, served, ws_url


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    with served(tmp_path) as address:
        yield address


def sign_up(client: httpx.Client, name: str, password: str = "una briscola") -> httpx.Response:
    return client.post("/api/sign-up", json={"name": name, "password": password})


def test_sign_up_sign_in_and_sign_out(base: str, tmp_path: Path) -> None:
    with httpx.Client(base_url=base) as anna:
        signed_up = sign_up(anna, "Anna")
        assert signed_up.status_code == 201 and signed_up.json() == {"name": "Anna"}
        cookie = signed_up.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=strict" in cookie and "secure" not in cookie  # plain http here
        assert anna.get("/api/me").json() == {"name": "Anna"}
        assert anna.post("/api/sign-out").json() == {"name": None}
        assert anna.get("/api/me").json() == {"name": None}
        signed_in = anna.post("/api/sign-in", json={"name": "anna", "password": "una briscola"})
        assert signed_in.status_code == 200 and signed_in.json() == {"name": "Anna"}  # the name as signed up
        assert anna.get("/api/me").json() == {"name": "Anna"}
    with httpx.Client(base_url=base) as stranger:
        assert stranger.get("/api/me").json() == {"name": None}
    # The password is kept hashed, and the session only as a hash of its token.
    store = Store.open(tmp_path)
    try:
        account = store.account("Anna")
        assert account is not None and account.password_hash.startswith("$argon2id$")
        assert "una briscola" not in (tmp_path / "osteria.sqlite3").read_bytes().decode("latin-1")
    finally:
        store.close()


def test_a_signed_out_token_signs_in_no_more(base: str) -> None:
    with httpx.Client(base_url=base) as anna:
        sign_up(anna, "Anna")
        token = anna.cookies["osteria_account"]
        anna.post("/api/sign-out")
    assert httpx.get(base + "/api/me", cookies={"osteria_account": token}).json() == {"name": None}


def test_refusals_say_nothing_of_which_part_was_wrong(base: str) -> None:
    with httpx.Client(base_url=base) as client:
        sign_up(client, "Anna")
        wrong_password = client.post("/api/sign-in", json={"name": "Anna", "password": "un tressette"})
        unknown_name = client.post("/api/sign-in", json={"name": "Zorro", "password": "una briscola"})
        assert wrong_password.status_code == unknown_name.status_code == 401
        assert wrong_password.json() == unknown_name.json() == {"detail": "wrong name or password",
                                                                 "code": "wrong_password"}
        assert "set-cookie" not in wrong_password.headers
        # Each refusal with the code of its kind, by which a page says it in its own language.
        taken = sign_up(client, "ANNA")
        assert taken.status_code == 409 and "taken" in taken.json()["detail"] and taken.json()["code"] == "name_taken"
        bot_name = sign_up(client, "bot:maestro")  # no account is called as a bot is
        assert bot_name.status_code == 422 and bot_name.json()["code"] == "bad_name"
        assert "2 to 32" in bot_name.json()["detail"]
        short = sign_up(client, "Bruno", "short")
        low, high = PASSWORD_LENGTH
        assert short.status_code == 422 and short.json() == {"detail": f"a password is {low} to {high} characters",
                                                             "code": "bad_password",
                                                             "values": {"low": low, "high": high}}


def test_sign_in_attempts_are_limited_per_address(tmp_path: Path) -> None:
    with served(tmp_path, quick_settings(sign_ins_per_minute=0.001)) as base, httpx.Client(base_url=base) as client:
        answers = [client.post("/api/sign-in", json={"name": "Anna", "password": f"guess {i}"})
                   for i in range(11)]
    assert [a.status_code for a in answers] == [401] * 10 + [429]
    assert answers[-1].json()["code"] == "rate_limited"


def finish_a_match(base: str, player: httpx.Client) -> str:
    """A one-deal Traversone match the signed-in ``player`` plays against two bots; its table."""
    created = player.post("/api/tables", json={
        "game": "traversone", "options": {"target": 1},
        "players": [{"kind": "human"}, {"kind": "bot", "level": "facile"}, {"kind": "bot", "level": "medio"}]})
    assert created.status_code == 201, created.text
    table = created.json()
    final = asyncio.run(play_seat(ws_url(base, table["table_id"], table["token"]), random.Random(7)))
    assert final["table"]["status"] == "finished"
    return str(table["table_id"])


def ladder(base: str, game: str) -> list[dict[str, Any]]:
    response = httpx.get(f"{base}/api/ladder/{game}")
    assert response.status_code == 200, response.text
    rows: list[dict[str, Any]] = response.json()["ladder"]
    return rows


def test_a_finished_match_rates_its_player_and_the_bots_once(tmp_path: Path) -> None:
    with served(tmp_path) as base, httpx.Client(base_url=base, timeout=TIMEOUT) as anna:
        sign_up(anna, "Anna")
        table_id = finish_a_match(base, anna)
        rows = ladder(base, "traversone")
        assert {r["player"] for r in rows} == {"Anna", "bot:facile", "bot:medio"}
        assert [r["place"] for r in rows] == [1, 2, 3]
        assert [r["ordinal"] for r in rows] == sorted((r["ordinal"] for r in rows), reverse=True)
        assert all(r["matches"] == 1 and r["sigma"] < 25 / 3 for r in rows)  # each learnt from the match
        assert [r["bot"] for r in rows if r["player"] == "Anna"] == [False]
        profile = httpx.get(f"{base}/api/players/anna").json()
        assert profile["name"] == "Anna" and profile["games"] == {"traversone": 1}
        assert [r["player"] for r in profile["ratings"]] == ["Anna"]
        (match,) = profile["matches"]
        assert match["table_id"] == table_id and match["seat"] == 0 and match["game"] == "traversone"
        # The lowest total wins Traversone: her place is her total's among the three.
        totals = match["totals"]
        assert match["place"] == 1 + sum(t < totals[0] for t in totals)
        assert match["won"] == (match["place"] == 1)
        first, last = (next(r for r in rows if r["player"] == ("Anna", "bot:facile", "bot:medio")[seat])
                       for seat in (totals.index(min(totals)), totals.index(max(totals))))
        assert first["mu"] > last["mu"]
        record = httpx.get(base + match["record"])
        assert record.status_code == 200 and record.json()["game"] == "traversone"
    with served(tmp_path) as base:  # a restart rates nothing again
        assert ladder(base, "traversone") == rows
        assert httpx.get(f"{base}/api/players/Anna").json() == profile


def test_a_guest_match_rates_only_the_bots(base: str) -> None:
    created = create(base, game="traversone", options={"target": 1},
                     players=[{"kind": "human"}, {"kind": "bot", "level": "facile"}, {"kind": "bot", "level": "medio"}])
    asyncio.run(play_seat(ws_url(base, created["table_id"], created["token"]), random.Random(3)))
    assert {r["player"] for r in ladder(base, "traversone")} == {"bot:facile", "bot:medio"}


def test_a_joining_player_holds_his_seat(base: str) -> None:
    people = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "facile"}]
    created = create(base, game="traversone", options={"target": 1}, players=people)
    with httpx.Client(base_url=base, timeout=TIMEOUT) as bruno:
        sign_up(bruno, "Bruno")
        joined = bruno.post(f"/api/tables/{created['table_id']}/join", json={"invite": created["invite"]})
        assert joined.status_code == 200, joined.text

    async def both() -> None:
        await asyncio.gather(
            play_seat(ws_url(base, created["table_id"], created["token"]), random.Random(1)),
            play_seat(ws_url(base, created["table_id"], joined.json()["token"]), random.Random(2)))

    asyncio.run(both())
    matches = httpx.get(f"{base}/api/players/Bruno").json()["matches"]
    assert [(m["table_id"], m["seat"]) for m in matches] == [(created["table_id"], 1)]


def test_unknown_games_and_players_are_refused(base: str) -> None:
    assert httpx.get(f"{base}/api/ladder/poker").status_code == 404
    missing = httpx.get(f"{base}/api/players/Nessuno")
    assert missing.status_code == 404 and "Nessuno" in missing.json()["detail"]
    assert ladder(base, "tressette") == []


def test_a_signed_in_player_who_gives_no_name_sits_under_his_accounts(base: str) -> None:
    people = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "facile"}]
    with httpx.Client(base_url=base, timeout=TIMEOUT) as anna, httpx.Client(base_url=base, timeout=TIMEOUT) as bruno:
        sign_up(anna, "Anna")
        sign_up(bruno, "Bruno")
        created = anna.post("/api/tables", json={"game": "traversone", "players": people}).json()
        joined = bruno.post(f"/api/tables/{created['table_id']}/join", json={"invite": created["invite"]})
        assert joined.status_code == 200, joined.text
        named = anna.post("/api/tables", json={"game": "traversone", "players": [{"kind": "human", "name": "Zia"},
                                                                                 *people[1:]]}).json()
    names = [p["name"] for p in created["table"]["players"]]
    assert names[0] == "Anna"
    assert httpx.get(f"{base}/api/tables/{created['table_id']}").json()["players"][1]["name"] == "Bruno"
    assert named["table"]["players"][0]["name"] == "Zia"  # a name given is the one used
