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
    assert [line.split()[:2] for line in lines[1:4]] == [["quattrigghiu", layer]
                                                         for layer in ("engine", "pettingzoo", "openspiel")]
    assert lines[1].endswith("1.0x")
    # Then the PettingZoo layer against its goal, with the overhead of its line above.
    overhead = lines[2].split()[-1]
    assert lines[4].startswith("goal") and lines[5].split()[:3] == ["quattrigghiu", "pettingzoo", overhead + ","]
    assert lines[5].endswith(("goal at most 5x: met", "goal at most 5x: not met"))


def test_the_layers_take_turns_and_each_gives_its_median_round(monkeypatch: pytest.MonkeyPatch) -> None:
    from osteria.envs import speed

    turns: list[str] = []
    rates = iter([1.0, 10.0, 100.0, 3.0, 30.0, 300.0, 2.0, 20.0, 200.0])

    def timed(layer: str, deals: list[speed.Played], replay: speed.Replay, seconds: float) -> speed.LayerSpeed:
        turns.append(layer)
        return speed.LayerSpeed(layer, int(next(rates) * 10), 10.0)

    monkeypatch.setattr(speed, "_timed", timed)
    speeds = speed.layer_speeds("traversone", 4, seconds=0.0, deals=1, rounds=3)
    assert turns == ["engine", "pettingzoo", "openspiel"] * 3
    assert [s.steps_per_s for s in speeds] == [2.0, 20.0, 200.0]


def test_the_report_judges_the_pettingzoo_layer_against_five_times_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    from osteria.envs import speed

    def layers(game: str, seconds: float) -> list[speed.LayerSpeed]:
        slower = {"calabresella": 4.0, "tressette": 6.0}[game]
        return [speed.LayerSpeed("engine", 600, 1.0), speed.LayerSpeed("pettingzoo", int(600 / slower), 1.0)]

    monkeypatch.setattr(speed, "layer_speeds", layers)
    lines: list[str] = []
    report(["calabresella", "tressette"], seconds=0.0, out=lines.append)
    assert lines[-2].split() == ["calabresella", "pettingzoo", "4.0x,", "goal", "at", "most", "5x:", "met"]
    assert lines[-1].split() == ["tressette", "pettingzoo", "6.0x,", "goal", "at", "most", "5x:", "not", "met"]
