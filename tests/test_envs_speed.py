"""The layer-speed measurement: every layer replays the same deals, step for step."""

from __future__ import annotations

import pytest

from osteria.envs.speed import layer_speeds, play_random_deals, report


@pytest.mark.parametrize(("game", "seats"), [("calabresella", 3), ("sancagna", 4), ("traversone", 5)])
def test_every_layer_replays_the_same_decisions(game: str, seats: int) -> None:
    deals = play_random_deals(game, seats, 3, seed=1)
    decisions = sum(len(d.actions) for d in deals)
    speeds = layer_speeds(game, seats, seconds=0.0, deals=3, seed=1)
    assert [s.layer for s in speeds] == ["engine", "pettingzoo", "openspiel"]
    # With no time to fill, each layer plays each deal once, and all the same decisions.
    assert all(s.steps == decisions and s.seconds > 0 for s in speeds)


def test_the_same_seed_plays_the_same_deals() -> None:
    first, again = (play_random_deals("tressette", None, 2, seed=4) for _ in range(2))
    assert [d.words for d in first] == [d.words for d in again]
    assert first[0].words != first[1].words


def test_the_report_gives_each_layers_overhead_against_the_engine() -> None:
    lines: list[str] = []
    report(["quattrigghiu"], seconds=0.0, out=lines.append)
    assert [line.split()[:2] for line in lines[1:]] == [["quattrigghiu", layer]
                                                        for layer in ("engine", "pettingzoo", "openspiel")]
    assert lines[1].endswith("1.0x")
