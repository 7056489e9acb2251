"""A player's history and a match's replay over real HTTP and WebSockets: the history lists his
finished and unfinished matches (the unfinished to himself alone), the replay of a finished match
shows every hand trick by trick with the running score, and the replay of a match still being
played shows no card of the deal in play to anybody."""

from __future__ import annotations

import asyncio
import random
import re
from itertools import pairwise
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from osteria.cards import CARD_STRINGS
from osteria.engine import Match
from osteria.records import replay
from osteria.rules import GAMES
from osteria.server import fair
from osteria.server.app import ANALYSES_BURST
from osteria.server.replays import match_replay
from osteria.server.store import Store
from server_helpers import TIMEOUT, create, play_seat, quick_settings, served, ws_url
from test_server_club import finish_a_match, sign_up

CARD = re.compile(r'"([A2-9XFCR][dcsb])"')


def history(client: httpx.Client, name: str) -> list[dict[str, Any]]:
    response = client.get(f"/api/players/{name}/history")
    assert response.status_code == 200, response.text
    matches: list[dict[str, Any]] = response.json()["matches"]
    return matches


def test_the_history_lists_finished_and_unfinished_matches_the_unfinished_to_their_player(tmp_path: Path) -> None:
    with (served(tmp_path) as base, httpx.Client(base_url=base, timeout=TIMEOUT) as anna,
          httpx.Client(base_url=base, timeout=TIMEOUT) as stranger):
        sign_up(anna, "Anna")
        finished = finish_a_match(base, anna)
        playing = anna.post("/api/tables", json={"game": "tressette", "players": [{"kind": "human"}] + [
            {"kind": "bot"}] * 3}).json()["table_id"]
        mine = history(anna, "anna")
        assert [(m["table_id"], m["status"]) for m in mine] == [(playing, "waiting"), (finished, "finished")]
        later, done = mine
        assert later["players"][0] == "Anna" and len(later["players"]) == 4 and later["totals"] == [0, 0, 0, 0]
        assert later["place"] is None and later["won"] is None and later["game"] == "tressette"
        assert done["game"] == "traversone" and done["seat"] == 0 and done["players"][0] == "Anna"
        assert done["place"] == 1 + sum(t < done["totals"][0] for t in done["totals"])
        assert done["replay"] == f"/replay/{finished}" and done["record"] == f"/api/tables/{finished}/record"
        assert done["at"] >= later["at"] - 60  # both made now; the finished one sorted by when it ended
        # Anybody sees her finished matches; where she is playing now, only she does.
        assert history(stranger, "Anna") == [done]
        sign_up(stranger, "Bruno")
        assert history(stranger, "Anna") == [done] and history(stranger, "Bruno") == []
        assert stranger.get("/api/players/Nessuno/history").status_code == 404
        # The profile keeps listing her finished matches as before.
        assert [m["table_id"] for m in httpx.get(f"{base}/api/players/Anna").json()["matches"]] == [finished]


def test_a_finished_matchs_replay_shows_every_hand_trick_by_trick_with_the_running_score(tmp_path: Path) -> None:
    with served(tmp_path) as base, httpx.Client(base_url=base, timeout=TIMEOUT) as anna:
        sign_up(anna, "Anna")
        table_id = finish_a_match(base, anna)
        shown = anna.get(f"/api/tables/{table_id}/replay")
        record = anna.get(f"/api/tables/{table_id}/record").json()
        page = anna.get(f"/replay/{table_id}")
    assert shown.status_code == 200, shown.text
    drawn = shown.json()
    match = replay(record)
    assert drawn["status"] == "finished" and drawn["finished"] and drawn["winners"] == match.winners
    assert drawn["players"] == record["players"] and drawn["totals"] == match.totals()
    assert drawn["record"] == f"/api/tables/{table_id}/record"
    assert page.status_code == 200 and 'src="/static/replay.js"' in page.text
    (deal,) = drawn["deals"]
    dealt = record["deals"][0]
    assert deal["hands"] == dealt["hands"] and deal["result"] == match.results[0].as_json()
    first, *after = deal["positions"]
    assert [sorted(h) for h in first["hands"]] == [sorted(h) for h in dealt["hands"]]
    assert first["taken"] is None and first["totals"] == [0, 0, 0]
    # Trick by trick: each position's actions are the trick it shows taken, and the hands hold
    # every card dealt that no trick took yet.
    taken: set[str] = set()
    actions = []
    for before, now in pairwise(deal["positions"]):
        actions += now["actions"]
        assert now["taken"] is not None and now["taken"]["cards"] == now["actions"]
        assert now["taken"]["winner"] in range(3)
        taken |= {card for _, card in now["taken"]["cards"]}
        held = {card for hand in now["hands"] for card in hand}
        assert held == {card for hand in dealt["hands"] for card in hand} - taken
        assert before["tricks_played"] + 1 == now["tricks_played"]
    for now, following in pairwise(after):
        assert following["actions"][0][0] == now["taken"]["winner"]  # who takes a trick leads the next
    assert actions == dealt["actions"]
    assert after[-1]["totals"] == match.totals() and all(p["totals"] == [0, 0, 0] for p in deal["positions"][:-1])
    assert all(p["lines"]["it"] and p["lines"]["en"] for p in deal["positions"])
    assert deal["result_lines"]["en"][0].startswith("End of deal 1")


def test_an_unfinished_matchs_replay_shows_no_card_of_the_deal_in_play(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        created = create(base, game="traversone", players=[{"kind": "human"}] + [{"kind": "bot"}] * 2)
        table_id = created["table_id"]
        url = ws_url(base, table_id, created["token"])
        in_first = httpx.get(f"{base}/api/tables/{table_id}/replay")
        # The first deal in play: no deal is over, so the replay holds no card at all.
        assert in_first.status_code == 200, in_first.text
        assert in_first.json()["deals"] == [] and in_first.json()["status"] == "waiting"
        assert CARD.findall(in_first.text) == []
        asyncio.run(play_seat(url, random.Random(4)))  # the first deal over, the second begun
        in_second = httpx.get(f"{base}/api/tables/{table_id}/replay")
        record = httpx.get(f"{base}/api/tables/{table_id}/record").json()
        store = Store.open(tmp_path)
        try:
            row = store.load_one(table_id)
        finally:
            store.close()
    assert row is not None and len(row.deals) == 2, "the second deal is dealt"
    drawn = in_second.json()
    assert drawn["status"] == "playing" and not drawn["finished"] and len(drawn["deals"]) == 1
    # Only what the public record shows: the deal that is over, published whole at its end.
    assert {k: v for k, v in drawn.items() if k not in ("table_id", "status", "record")} \
        == match_replay(record, ("it", "en"))
    dealt_now = fair.deal_from_seed(replay(record).game, row.deals[1][1])[0]
    hidden = [sorted(CARD_STRINGS[c] for c in hand) for hand in dealt_now]
    shown = [sorted(hand) for deal in drawn["deals"] for p in deal["positions"] for hand in p["hands"]]
    assert not any(hand in shown for hand in hidden)


def test_a_finished_deals_analysis_over_http(tmp_path: Path) -> None:
    quick = quick_settings(analysis_time=0.01, analysis_nodes=2000)
    with served(tmp_path, quick) as base:
        created = create(base, game="traversone", options={"target": 1},
                         players=[{"kind": "human"}] + [{"kind": "bot"}] * 2)
        table_id = created["table_id"]
        asyncio.run(play_seat(ws_url(base, table_id, created["token"]), random.Random(2)))
        found = httpx.get(f"{base}/api/tables/{table_id}/analysis/0", timeout=TIMEOUT)
        unplayed = httpx.get(f"{base}/api/tables/{table_id}/analysis/1")
        negative = httpx.get(f"{base}/api/tables/{table_id}/analysis/-1")
        deal = httpx.get(f"{base}/api/tables/{table_id}/record").json()["deals"][0]
    assert found.status_code == 200, found.text
    analysis = found.json()
    assert analysis["type"] == "analysis" and len(analysis["lost_by_seat"]) == 3
    assert [[s["seat"], s["action"]] for s in analysis["steps"]] == deal["actions"]
    assert unplayed.status_code == 400 and "deal 1 is not finished" in unplayed.json()["detail"]
    assert negative.status_code == 422


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_every_games_replay_takes_each_card_played_in_one_trick_and_ends_at_the_totals(game: str, seed: int) -> None:
    rng = random.Random(seed)
    match = Match(GAMES[game](), seed=seed)
    while not match.finished and len(match.deals) < 3:
        match.begin_deal()
        while match.deal is not None and not match.deal.over:
            match.play(rng.choice(match.legal_actions()))
    record = match.record()
    drawn = match_replay(record, ("it", "en"))
    assert drawn["finished"] == match.finished and len(drawn["deals"]) == len(match.deals)
    totals = [0] * match.game.seats
    for deal, dealt, result in zip(drawn["deals"], record["deals"], match.results, strict=True):
        positions = deal["positions"]
        assert positions[0]["actions"] == [] and positions[0]["taken"] is None
        assert [a for p in positions for a in p["actions"]] == dealt["actions"]
        plays = [[seat, action.split()[0]] for seat, action in dealt["actions"]
                 if action.split()[0] in CARD_STRINGS]
        tricks = [p["taken"] for p in positions if p["taken"] is not None]
        assert [card for trick in tricks for card in trick["cards"]] == plays  # no deal ends within a trick
        for trick, following in pairwise(tricks):
            assert following["cards"][0][0] == trick["winner"]  # who takes a trick leads the next
        totals = [t + d for t, d in zip(totals, result.delta, strict=True)]
        assert positions[-1]["totals"] == deal["totals"] == totals
        assert all(p["lines"]["it"] and p["lines"]["en"] for p in positions)
    assert drawn["totals"] == match.totals()


def test_analyses_over_http_are_limited_per_address(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        table_id = create(base, game="traversone")["table_id"]
        # Deal 0 is in play: each answer is a refusal, and counts all the same.
        codes = [httpx.get(f"{base}/api/tables/{table_id}/analysis/0").status_code for _ in range(ANALYSES_BURST + 1)]
    assert codes == [400] * ANALYSES_BURST + [429]
