"""The benchmark's drivers: what they play, not how fast."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from osteria.bench import (
    BATCHED_DEALS,
    REFERENCES,
    Playout,
    batched,
    batched_speeds,
    fast_path,
    measure,
    openspiel,
    run,
    string_api,
)


@pytest.mark.parametrize("game", REFERENCES)
def test_the_reference_driver_meets_every_chance_node_as_it_assumes(game: str) -> None:
    """The driver draws the deal's chance nodes by an index into ``legal_actions()`` before
    the first decision: every chance node of the game must come first and be uniform over
    exactly those outcomes. A walk with the driver's own random draws checks each node and
    counts the decisions the driver reports."""
    pyspiel = pytest.importorskip("pyspiel")
    loaded = pyspiel.load_game(game)
    driver = openspiel(game, seed=7)
    assert driver is not None
    rand = random.Random(7).random
    for _ in range(30):
        state = loaded.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            actions = state.legal_actions()
            if state.is_chance_node():
                assert decisions == 0, "a chance node after a decision"
                outcomes = state.chance_outcomes()
                assert [a for a, _ in outcomes] == actions
                assert all(p == pytest.approx(1 / len(actions)) for _, p in outcomes)
            else:
                decisions += 1
            state.apply_action(actions[int(rand() * len(actions))])
        assert driver.one_deal() == decisions > 0


@pytest.mark.parametrize("make", [fast_path, string_api])
def test_osteria_playouts_play_whole_deals(make: Callable[[str, int], Playout]) -> None:
    playout = make("traversone", 3)
    assert [playout.one_deal() for _ in range(3)] == [40, 40, 40]  # four seats, ten cards each


def test_measure_gives_every_playout_its_rounds() -> None:
    counts = {"a": 0, "b": 0}

    def playout(name: str) -> Playout:
        def one_deal() -> int:
            counts[name] += 1
            return 2
        return Playout(name, one_deal)

    speeds = measure([playout("a"), playout("b")], seconds=0.01, rounds=3)
    assert [s.name for s in speeds] == ["a", "b"]
    assert all(len(s.rounds) == 3 for s in speeds)
    assert all(decisions == 2 * deals for s in speeds for deals, decisions, _ in s.rounds)
    assert sum(deals for s in speeds for deals, _, _ in s.rounds) == counts["a"] + counts["b"]


def test_the_report_states_each_goal_against_hearts() -> None:
    pytest.importorskip("pyspiel")
    lines: list[str] = []
    run(["traversone"], seconds=0.05, rounds=1, playouts_only=True, out=lines.append)
    goals = [line for line in lines if "goal" in line and "x:" in line]
    assert len(goals) == 2
    assert any("traversone fast path" in line and "goal 2x" in line for line in goals)
    assert any("traversone string API" in line and "goal 1x" in line for line in goals)


def test_the_batched_playouts_count_every_card_played() -> None:
    pytest.importorskip("numba")
    playouts = batched(games=["tressette"])
    assert playouts is not None
    loop, step = playouts
    assert loop.one_deal() == BATCHED_DEALS * 40
    # the learner's card in every deal, the others' up to its next turn (in a new deal, if its
    # card or theirs ended one): four cards a step on average, at most seven
    counts = [step.one_deal() for _ in range(40)]
    assert all(BATCHED_DEALS <= n <= 7 * BATCHED_DEALS for n in counts)
    assert 3.9 < sum(counts) / (40 * BATCHED_DEALS) < 4.1


def test_the_batched_report_states_its_goal_against_hearts() -> None:
    pytest.importorskip("numba")
    pytest.importorskip("pyspiel")
    lines: list[str] = []
    speeds = batched_speeds(seconds=0.05, rounds=1, out=lines.append)
    assert [s.name for s in speeds] == ["openspiel hearts", *(f"{game} batched ({way})"
                                        for game in ("tressette", "calabresella", "traversone", "sancagna",
                                                     "quattrigghiu")
                                        for way in ("compiled loop", "env step"))]
    goals = [line for line in lines if "goal 20x" in line]
    assert len(goals) == 10 and all(line.endswith(("met", "not met")) for line in goals)


@pytest.fixture
def quattrigghiu_without_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game's rules give their card play as tables: a game whose rules gave none is
    Quattrigghiu's rules without them."""
    from osteria.rules.quattrigghiu import Quattrigghiu

    monkeypatch.setattr(Quattrigghiu, "trick_play", lambda self: None)


@pytest.mark.usefixtures("quattrigghiu_without_tables")
def test_the_batched_report_says_when_it_plays_none_of_the_games() -> None:
    lines: list[str] = []
    assert batched_speeds(seconds=0.05, rounds=1, out=lines.append, games=["quattrigghiu"]) == []
    assert lines == ["the batched engine plays none of these games"]


@pytest.mark.usefixtures("quattrigghiu_without_tables")
def test_the_command_refuses_a_batched_bench_of_a_game_the_engine_does_not_play(
        capsys: pytest.CaptureFixture[str]) -> None:
    from osteria.cli import main

    assert main(["bench", "--batched", "--game", "quattrigghiu", "--seconds", "0.01", "--rounds", "1"]) == 1
    err = capsys.readouterr().err.strip()
    assert err == ("osteria bench: --batched: the batched engine does not play quattrigghiu; it plays tressette, "
                   "calabresella, traversone, sancagna")
