"""The work a server does for a move, and that doing less of it changes nothing anybody is sent:
every seat observed at once per move, and a view's lines and hand, drawn again only from what
changed since the last state, alike to those a fresh view draws."""

from __future__ import annotations

import asyncio
import gc
import random
import weakref
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import osteria
from osteria.engine import Match
from osteria.rules import GAMES
from osteria.server.scheduler import Scheduler
from osteria.server.store import Store
from osteria.server.tables import WATCHER, Client, Settings, Table, public_view
from osteria.views import TableView, view_for
from osteria.views.table import Observation

from helpers import play_random_action


def observations_of_a_match(game: str, seed: int, steps: int) -> list[tuple[int, dict[str, Any]]]:
    """Every seat's observation (and a watcher's, as seat WATCHER) after each of ``steps`` random
    actions of a match of ``game``, over as many deals as they reach."""
    match = Match(osteria.game_rules(game), players=[f"p{s}" for s in range(osteria.game_rules(game).seats)])
    rng = random.Random(seed)
    seen = []
    for _ in range(steps):
        if match.finished:
            break
        play_random_action(match, rng)
        observed = [match.observation(s) for s in range(match.game.seats)]
        seen += [*enumerate(observed), (WATCHER, public_view(observed))]
    return seen


@pytest.mark.parametrize("game", list(GAMES))
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32), order=st.randoms(use_true_random=False))
def test_a_view_kept_from_state_to_state_draws_and_orders_as_a_fresh_one_does(game: str, seed: int,
                                                                            order: random.Random) -> None:
    """Its lines and its hand, in the order of play (each seat's history going on from its last),
    and in any order (a history that does not go on from the last one drawn: another deal, a
    state sent again, a trump named since the hand was last ordered)."""
    seen = observations_of_a_match(game, seed, 120)
    names = [f"p{s}" for s in range(osteria.game_rules(game).seats)]
    rules = osteria.game_rules(game)
    for shuffled in (False, True):
        if shuffled:
            order.shuffle(seen)
        kept = {seat: view_for(rules, "en", names, seat) for seat in {seat for seat, _ in seen}}
        for seat, view in seen:
            fresh = view_for(rules, "en", names, seat)
            fresh.note(view)
            kept[seat].note(view)
            assert kept[seat].beside(view) == fresh.beside(view), (seat, view["history"])
            assert kept[seat].in_order(view.get("hand")) == fresh.in_order(view.get("hand")), (seat, view)


@pytest.mark.parametrize(("game", "options"), [*((game, {}) for game in GAMES),
                                               ("tressette", {"faliante": False}),  # an accuso hides its suit
                                               ("calabresella", {"seats": 4}),
                                               ("calabresella", {"seats": 5}),  # a partner known to himself
                                               ("traversone", {"seats": 6})])
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_every_seat_observed_at_once_sees_what_it_sees_alone(game: str, options: dict[str, Any], seed: int) -> None:
    """At every action of a match (its deals' ends and the next deals too), and what the seats
    see alike makes the watcher's view it makes from separate observations."""
    rules = osteria.game_rules(game, **options)
    match = Match(rules, players=[f"p{s}" for s in range(rules.seats)])
    rng = random.Random(seed)
    for _ in range(150):
        if match.finished:
            break
        together = match.observations()
        alone = [match.observation(s) for s in range(rules.seats)]
        assert together == alone
        assert [list(o) for o in together] == [list(o) for o in alone]  # the keys in the same order
        assert public_view(together) == public_view(alone)
        play_random_action(match, rng)


def tressette_of_four_people(store: Store) -> Table:
    """A Tressette table whose four seats people took (called from within an event loop)."""
    table = Table.create(store, Scheduler(ThreadPoolExecutor(1), 1), Settings(stand_in_after=600.0),
                         "tressette", 4, {}, [("human", None, None)] * 4, "medio")
    for s in table.seats:
        if s.token is None:
            table.join(table.row.invite, None, s.seat)
    return table


def test_each_seat_is_observed_once_a_move_for_all_its_clients(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Four players, a watcher, and a second page of one player in the other language: the
    public check of the move, every page's view and the watcher's come from one observation of
    every seat at once."""
    async def play_moves() -> list[list[int | None]]:
        store = Store.open(tmp_path)
        table = tressette_of_four_people(store)
        clients = [Client(s.seat, ("it",)) for s in table.seats] + [Client(None, ("it",)), Client(0, ("en",))]
        for client in clients:
            table.connect(client)
        observed = []
        rng = random.Random(1)
        calls: list[int | None] = []
        observe, observe_all = Match.observation, Match.observations

        def counted(match: Match, seat: int, deal: int | None = None) -> dict[str, Any]:
            calls.append(seat)
            return observe(match, seat, deal)

        def counted_all(match: Match) -> list[dict[str, Any]]:
            calls.append(None)
            return observe_all(match)

        for _ in range(12):  # within the first deal
            seat = table.match.decider
            assert seat is not None
            action = rng.choice(table.match.observation(seat)["legal_actions"])
            calls.clear()
            monkeypatch.setattr(Match, "observation", counted)
            monkeypatch.setattr(Match, "observations", counted_all)
            table.play(seat, action, move=table.move)
            monkeypatch.undo()
            observed.append(calls.copy())
            for client in clients:  # and each was sent the state of this move
                messages = await client.next_messages()
                assert any(isinstance(m, str) and f'"move":{table.move},' in m for m in messages)
        store.close()
        return observed

    assert asyncio.run(play_moves()) == [[None]] * 12  # every seat at once, once


MATCH_KEYS = ("options", "players", "results", "totals")


def test_the_match_keys_seen_alike_are_kept_from_move_to_move_until_a_deal_ends() -> None:
    """A server compares each move's views with the last ones: the match's keys are the same
    objects from one move to the next, and made anew once a deal ends, with its result."""
    match = Match(osteria.game_rules("tressette"), players=["a", "b", "c", "d"])
    rng = random.Random(3)
    play_random_action(match, rng)
    first = match.observations()
    kept = 0
    while len(match.results) < 2:
        before = match.observations()[0]
        ended, dealt = len(match.results), len(match.deals)
        play_random_action(match, rng)
        after = match.observations()
        assert after == [match.observation(s) for s in range(4)]
        if (len(match.results), len(match.deals)) == (ended, dealt):
            assert all(after[0][key] is before[key] for key in MATCH_KEYS)
            kept += 1
        else:
            assert after[0]["results"] is not before["results"] and after[0]["deal_index"] == len(match.deals) - 1
            assert len(after[0]["results"]) == len(match.results) and after[0]["totals"] == match.totals()
    assert kept > 50 and first[0]["results"] == []


def test_a_view_keeps_its_lines_while_a_move_changes_none(tmp_path: Path) -> None:
    """The same list, which a server's comparison with the lines it sent finds alike at once; and
    a view that has drawn a whole match keeps no entry for a card played without a word."""
    match = Match(osteria.game_rules("tressette"), players=["a", "b", "c", "d"])
    view = view_for(match.game, "en", match.players, 0)
    rng = random.Random(5)
    drawn = None
    same = 0
    while not match.finished:
        play_random_action(match, rng)
        obs = match.observations()[0]
        lines = view.beside(obs)
        assert lines == view_for(match.game, "en", match.players, 0).beside(obs)
        if drawn is not None and lines == drawn:
            assert lines is drawn
            same += 1
        drawn = lines
    assert same > 20
    assert view._entries and all(entry != (None, None) for entry in view._entries.values())


def test_a_finished_match_stops_its_clock_and_nothing_holds_its_table(tmp_path: Path) -> None:
    """The last move's stand-in clock is stopped when the match ends: a clock left for its ten
    minutes would keep the whole table (its match, views and states) alive after it is let go."""
    async def play_out() -> tuple[weakref.ref[Table], int]:
        store = Store.open(tmp_path)
        table = tressette_of_four_people(store)
        for s in table.seats:  # each player's page open, as a server's tables have them
            table.connect(Client(s.seat, ("it",)))
        rng = random.Random(2)
        while not table.over:
            seat = table.match.decider
            assert seat is not None
            table.play(seat, rng.choice(table.match.observation(seat)["legal_actions"]), move=table.move)
            await asyncio.sleep(0)
        deals = len(table.match.deals)
        let_go = weakref.ref(table)
        del table
        gc.collect()
        store.close()
        return let_go, deals

    let_go, deals = asyncio.run(play_out())
    assert deals >= 2 and let_go() is None


class Listing(TableView):
    """A view whose status says every key of the observation."""

    def status(self, obs: Observation) -> list[str]:
        return [", ".join(sorted(obs))]


class Flagging(TableView):
    """A view whose status says the value of ``flag``."""

    def status(self, obs: Observation) -> list[str]:
        return [repr(obs.get("flag"))]


def test_lines_drawn_from_the_whole_observation_or_a_value_of_another_type_are_drawn_again() -> None:
    listing = Listing("en", ["a", "b"], 0, {}, {})
    assert listing.beside({"flag": 1}) == ["flag"]
    assert listing.beside({"flag": 1, "more": 2}) == ["flag, more"]  # a key it went through
    flagging = Flagging("en", ["a", "b"], 0, {}, {})
    assert flagging.beside({"flag": 1}) == ["1"]
    assert flagging.beside({"flag": 1, "more": 2}) == ["1"]  # a key it does not read
    assert flagging.beside({"flag": True}) == ["True"]  # equal to 1, not alike
    assert flagging.beside({}) == ["None"]


def test_a_watcher_sees_only_what_every_seat_shows_written_alike() -> None:
    """Equal is not enough: True is 1 to Python, not to a page."""
    one = {"x": 1, "y": [1, 2], "z": "c", "w": [3, 4], "n": [1], "same_object": [[0, "3d"]]}
    other = {"x": True, "y": [1, 2], "z": "c", "w": [3, 5], "n": [True], "same_object": one["same_object"]}
    assert public_view([one, other]) == {"x": None, "y": [1, 2], "z": "c", "w": [3, None], "n": [None],
                                         "same_object": [[0, "3d"]], "seat": None, "legal_actions": []}
