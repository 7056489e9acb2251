"""Patches: a client that asks for them is sent its first state whole and then only what changed;
applied in order, they give every state exactly as a client sent whole states sees it."""

from __future__ import annotations

import asyncio
import json
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from osteria.rules import GAMES
from osteria.server.scheduler import Scheduler
from osteria.server.store import Store
from osteria.server.tables import PATCHED, Client, Settings, Table, patch, patched
from server_helpers import connect, create, receive, seat_tokens, served, ws_url


def as_state(state: dict[str, Any] | None, message: dict[str, Any]) -> dict[str, Any]:
    """A message received after ``state`` (the last state, whole): a patch as the state it makes."""
    if message["type"] != "patch":
        return message
    assert state is not None, "a patch came before any whole state"
    return patched(state, message)


def states_of(client: Client, state: dict[str, Any] | None) -> tuple[list[dict[str, Any]], int]:
    """The states a client's waiting messages make, the first from ``state``, patches applied; and
    the characters they took. The queue is emptied."""
    states, chars = [], 0
    for raw in client._waiting:
        assert isinstance(raw, str)
        message = as_state(state, json.loads(raw))
        if message["type"] == "state":
            state = message
            states.append(message)
            chars += len(raw)
    client._waiting.clear()
    return states, chars


values = st.recursive(st.none() | st.integers() | st.text(max_size=3),
                      lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=2), inner, max_size=3), max_leaves=6)
sections = st.dictionaries(st.sampled_from("abcdef"), values, max_size=6)
states = st.fixed_dictionaries({"type": st.just("state"), "seat": st.none() | st.integers(0, 5), "legal": values,
                                **{key: sections for key in PATCHED}})


@given(before=states, after=states)
def test_a_patch_turns_one_state_into_the_other(before: dict[str, Any], after: dict[str, Any]) -> None:
    """Keys changed, come and gone, in every part; the state before is left as it was."""
    kept = json.dumps(before, sort_keys=True)
    message = json.loads(json.dumps(patch(before, after)))
    assert patched(before, message) == after
    assert json.dumps(before, sort_keys=True) == kept
    if before == after:
        assert message == {"type": "patch", "set": {}}


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32))
def test_patches_give_every_state_a_whole_one_gives(tmp_path: Path, game: str, seed: int) -> None:
    """Over a whole match of random moves, at every state: each seat's page and a spectator's, in
    one language and in both, switching language midway, and a page that comes back late."""
    rng = random.Random(seed)

    async def match() -> tuple[int, int]:
        store = Store.open(tmp_path / str(seed))
        scheduler = Scheduler(ThreadPoolExecutor(1), 1)  # no bot, no hint: it never starts a thread
        table = Table.create(store, scheduler, Settings(stand_in_after=600.0, bot_delay=0.0), game, 4, {},
                             [("human", None, None)] * 4, "medio")
        for s in table.seats:
            if s.token is None:
                table.join(table.row.invite, None, s.seat)
        seats: list[int | None] = [*range(table.game.seats), None]
        pairs = []
        for seat in seats:
            for languages in (("it",), ("it", "en")):
                whole, patches = Client(seat, languages), Client(seat, languages, patches=True)
                pairs.append([whole, patches, None])
                table.connect(whole)
                table.connect(patches)
        for pair in pairs:  # each client's states so far: the whole ones' are told apart by when they came
            pair[0]._waiting.clear()
            pair[2] = states_of(pair[1], None)[0][-1]
        whole_chars = patch_chars = 0
        moves = 0
        while not table.over:
            seat = table.match.decider
            assert seat is not None
            table.play(seat, rng.choice(table.match.observation(seat)["legal_actions"]), move=table.move)
            moves += 1
            if moves == 40:
                for pair in pairs[:2]:  # a page changes its language
                    table.speak(pair[0], "en")
                    table.speak(pair[1], "en")
            for pair in pairs:
                whole, patches, state = pair
                expected, chars = states_of(whole, None)
                got, got_chars = states_of(patches, state)
                assert got == expected, f"move {moves}, seat {whole.seat}, languages {whole.languages}"
                whole_chars += chars
                patch_chars += got_chars
                pair[2] = got[-1] if got else state
            if moves == 60:  # a page that comes (back) late is sent a whole state first
                late = [Client(0, ("it",)), Client(0, ("it",), patches=True), None]
                table.connect(late[0])
                table.connect(late[1])
                late[0]._waiting.clear()
                late[2] = states_of(late[1], None)[0][-1]
                pairs.append(late)
        store.close()
        return whole_chars, patch_chars

    whole_chars, patch_chars = asyncio.run(match())
    assert patch_chars * 2 < whole_chars, "patches should be far smaller than the states they stand for"


@pytest.mark.parametrize("game", ["tressette", "calabresella"])
def test_over_a_websocket_the_patches_give_the_states_a_page_sent_whole_states_gets(tmp_path: Path,
                                                                                    game: str) -> None:
    """Two sockets of one seat against bots, one asking for patches (``?patches=1``, as the page
    does) and one not: its first state comes whole, then patches, and they give the same states."""
    players = [{"kind": "human"}] + [{"kind": "bot", "level": "facile"}] * (GAMES[game].default_seats - 1)
    with served(tmp_path) as base:
        created = create(base, game=game, players=players)
        url = ws_url(base, created["table_id"], seat_tokens(base, created)[0]) + "&lang=it"

        async def both() -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[str]]:
            whole_states: list[dict[str, Any]] = []
            patched_states: list[dict[str, Any]] = []
            kinds: list[str] = []
            rng = random.Random(game)
            async with connect(url) as whole, connect(url + "&patches=1") as patches:
                acted = -1
                while True:  # the seat played on the socket of whole states
                    message = await receive(whole)
                    assert message["type"] != "error", message
                    if message["type"] != "state":
                        continue
                    whole_states.append(message)
                    table = message["table"]
                    if table["result"]["deals"]:
                        break
                    if message["legal"] and table["move"] != acted:
                        acted = table["move"]
                        choice = rng.choice(message["legal"])["action"]
                        await whole.send(json.dumps({"type": "play", "action": choice, "move": acted}))
                state: dict[str, Any] | None = None
                while state is None or state["table"]["move"] != table["move"] or not state["table"]["result"]["deals"]:
                    message = await receive(patches)
                    kinds.append(message["type"])
                    message = as_state(state, message)
                    if message["type"] == "state":
                        state = message
                        patched_states.append(message)
            return whole_states, patched_states, kinds

        whole_states, patched_states, kinds = asyncio.run(both())
    # The socket of patches opened second: its states are the last of the other's.
    assert patched_states == whole_states[len(whole_states) - len(patched_states):]
    told = [kind for kind in kinds if kind in ("state", "patch")]
    assert told[0] == "state" and told.count("state") == 1 and len(told) > 10
