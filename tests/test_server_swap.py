"""No message the server sends shows a card its receiver may not see: with one hidden card changed,
every message to every other seat and to a watcher stays byte for byte the same."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
from pathlib import Path
from typing import Any

import httpx
import pytest

import osteria
from osteria.cards import CARD_STRINGS, rank_of, suit_of
from osteria.engine import Game
from osteria.server import fair, tables
from server_helpers import connect, create, receive, seat_tokens, served, ws_url

Log = list[dict[str, Any]]


def swappable(hands: list[list[int]], one: int, other: int) -> tuple[int, int]:
    """Two cards of one suit, of the plain ranks 4 to 7 and not the 4 of denari (it names the
    first player), held by seats ``one`` and ``other``: exchanging them changes nothing either
    owner may do early in the deal, only what he holds."""
    plain = {3, 4, 5, 6}
    for a in hands[one]:
        for b in hands[other]:
            if suit_of(a) == suit_of(b) and {rank_of(a), rank_of(b)} <= plain and CARD_STRINGS[a] != "4d" != \
                    CARD_STRINGS[b]:
                return a, b
    raise AssertionError("no two cards to exchange")


def play_table(data: Path, monkeypatch: pytest.MonkeyPatch, game: str, hands: list[list[int]],
               avoid: set[str], actions: list[str] | None) -> tuple[dict[int | None, Log], list[str]]:
    """Four players and a watcher at a table dealt ``hands``; the players play ``actions``, or
    choose each the first legal action naming no card of ``avoid``. Every message each received,
    and the actions played."""
    counter = itertools.count()
    monkeypatch.setattr(tables, "new_token", lambda: f"token{next(counter)}")
    monkeypatch.setattr(tables, "new_table_id", lambda: "table")
    monkeypatch.setattr(tables, "new_first_dealer", lambda seats: 0)
    monkeypatch.setattr(fair, "first_dealer_from_seed", lambda seed, seats: 0)
    monkeypatch.setattr(fair, "new_seed", lambda: "5eed" * 16)
    monkeypatch.setattr(fair, "deal_from_seed", lambda rules, seed: ([list(h) for h in hands], {}))
    logs: dict[int | None, Log] = {}
    played: list[str] = []
    with served(data) as base:
        created = httpx.post(base + "/api/tables", json={"game": game, "players": [{"kind": "human"}] * 4}).json()
        tokens = seat_tokens(base, created)

        async def scenario() -> None:
            watcher = await connect(ws_url(base, "table"), max_queue=None)
            sockets: dict[int | None, Any] = {None: watcher}
            latest: dict[int | None, dict[str, Any]] = {}

            async def catch_up(client: int | None, ready: Any) -> None:
                while client not in latest or not ready(latest[client]):
                    message = await receive(sockets[client])
                    if message["type"] == "state" and message["table"]["clock"] is not None:
                        # The seconds left on the clock are the wall clock's, the same in neither run.
                        message["table"]["clock"]["seconds"] = "left"
                    logs.setdefault(client, []).append(message)
                    assert message["type"] != "error", message
                    if message["type"] == "state":
                        latest[client] = message

            await catch_up(None, lambda m: True)
            for seat in range(4):
                sockets[seat] = await connect(ws_url(base, "table", tokens[seat]),
                                                         max_queue=None)
                # Every client has heard of this arrival before the next one, so that all hear the
                # same things in the same order in both runs.
                for client in sockets:
                    await catch_up(client, lambda m, s=seat: m["table"]["players"][s]["connected"])
            for move in range(12):
                seat = latest[None]["view"]["to_move"]
                legal = [entry["action"] for entry in latest[seat]["legal"]]
                if actions is None:
                    choices = [a for a in legal if not set(a.split()) & avoid]
                    if not choices:
                        break
                    action = choices[0]
                else:
                    if move == len(actions):
                        break
                    action = actions[move]
                played.append(action)
                await sockets[seat].send(json.dumps({"type": "play", "action": action}))
                for client in sockets:
                    await catch_up(client, lambda m, n=move + 1: m["table"]["move"] == n)
            for ws in sockets.values():
                await ws.close()

        asyncio.run(scenario())
    return logs, played


@pytest.mark.parametrize(("game", "owners"), [("tressette", (1, 3)), ("tressette", (0, 2)),
                                              ("traversone", (0, 1))])
def test_a_hidden_card_changed_changes_no_message_to_anyone_else(game: str, owners: tuple[int, int], tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    rules: Game = osteria.game_rules(game, seats=4)
    hands, _ = rules.deal_cards(random.Random(7))
    one, other = owners
    a, b = swappable(hands, one, other)
    swapped = [list(h) for h in hands]
    swapped[one][swapped[one].index(a)], swapped[other][swapped[other].index(b)] = b, a
    avoid = {CARD_STRINGS[a], CARD_STRINGS[b]}
    first, actions = play_table(tmp_path / "a", monkeypatch, game, hands, avoid, None)
    second, again = play_table(tmp_path / "b", monkeypatch, game, [sorted(h) for h in swapped], avoid, actions)
    assert again == actions and len(actions) >= 8
    for client in [*(seat for seat in range(4) if seat not in owners), None]:
        # The states compared carry the table's lines: they too are the same.
        assert all(m["lines"]["it"] and m["lines"]["en"] for m in first[client] if m["type"] == "state")
        assert first[client] == second[client], f"the messages to {client} changed"
    # The owners of the two cards do see the change: the comparison can fail.
    assert first[one] != second[one] and first[other] != second[other]


def test_the_last_action_reaches_each_client_in_its_own_words(tmp_path: Path) -> None:
    # Calabresella for three: the declarer's discard shows its cards to him alone; the others,
    # and a spectator, are not told the cards (their views' history says only "scarto").
    async def run(base: str) -> None:
        table = create(base, game="calabresella", players=[{"kind": "human"}] * 3)
        tid, tokens = table["table_id"], seat_tokens(base, table)
        clients: dict[int | None, Any] = {s: await connect(ws_url(base, tid, tokens[s])) for s in range(3)}
        clients[None] = await connect(ws_url(base, tid))
        latest: dict[int | None, dict[str, Any]] = {}
        discarder, discarded_at = None, -1
        try:
            for _ in range(400):
                for who, ws in clients.items():
                    with contextlib.suppress(TimeoutError):
                        while True:
                            message = json.loads(await asyncio.wait_for(ws.recv(), 0.2))
                            if message["type"] == "state":
                                latest[who] = message
                if discarder is not None:
                    break
                for seat in range(3):
                    state = latest.get(seat)
                    if state and state["legal"]:
                        legal = [entry["action"] for entry in state["legal"]]
                        choice = next((a for a in legal if a.split()[0] in ("chiamo", "cedo", "scarto")), legal[0])
                        await clients[seat].send(json.dumps({"type": "play", "action": choice,
                                                             "move": state["table"]["move"]}))
                        if choice.startswith("scarto"):
                            discarder, discarded_at = seat, state["table"]["move"]
                        break
            assert discarder is not None, "nobody discarded"
            # Every client hears of the discard, however long a loaded machine takes to tell it.
            for who, ws in clients.items():
                while latest[who]["table"]["move"] <= discarded_at:
                    message = await receive(ws)
                    if message["type"] == "state":
                        latest[who] = message
            for who, state in latest.items():
                last = state["last"]
                assert last["seat"] == discarder
                if who == discarder:
                    assert last["action"].startswith("scarto ") and len(last["action"].split()) == 5
                else:
                    assert last["action"] is None, (who, last)
                    if who is not None:
                        assert state["view"]["history"][-1] == [discarder, "scarto"]
        finally:
            for ws in clients.values():
                await ws.close()

    with served(tmp_path) as base:
        asyncio.run(run(base))
