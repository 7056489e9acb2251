"""The levels people choose at a table."""

from __future__ import annotations

import io

import pytest

import osteria
from osteria.bots import BOTS, HEURISTICS, make_bot, play_bots
from osteria.bots import tressette as tressette_bot
from osteria.bots.hybrid import HybridBot
from osteria.bots.ismcts import IsmctsBot
from osteria.bots.levels import LEVELS, Careless, plays_as
from osteria.bots.pimc import PimcBot
from osteria.tui import play


def test_every_level_is_a_bot_of_every_game() -> None:
    for game in osteria.games():
        for level in LEVELS:
            assert level in BOTS
            bot = make_bot(level, game=game, seed=1)
            if level in ("difficile", "maestro") and game == "tressette":
                assert isinstance(bot, PimcBot)  # it measured stronger than the hybrid there
            elif level in ("difficile", "maestro") and game == "traversone":
                assert isinstance(bot, IsmctsBot)  # so did ISMCTS there
            elif level in ("difficile", "maestro"):
                assert isinstance(bot, HybridBot)
                assert isinstance(bot.heuristic, HEURISTICS[game])
    maestro, difficile = make_bot("maestro", game="tressette"), make_bot("difficile", game="tressette")
    assert isinstance(maestro, PimcBot) and isinstance(difficile, PimcBot)
    assert maestro.time_limit and difficile.time_limit and maestro.time_limit > difficile.time_limit
    # The maestro reads the others' play, the difficile does not: that is the step between them,
    # since a second instead of a tenth buys PIMC little. The arena's pimc reads where it is cheap.
    assert isinstance(maestro.model, HEURISTICS["tressette"]) and difficile.model is None
    assert isinstance(make_bot("pimc", game="tressette").model, HEURISTICS["tressette"])  # type: ignore[attr-defined]


def test_without_the_compiled_reading_the_levels_read_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    # Without the compiled player (no numba), the rule-based player is asked at each action, some
    # 0.3 to 1 ms a sampled deal: the maestro's second affords it, and the arena's pimc does not read.
    monkeypatch.setattr(tressette_bot, "_reading_kernel", lambda: None)
    maestro, difficile = make_bot("maestro", game="tressette"), make_bot("difficile", game="tressette")
    assert isinstance(maestro, PimcBot) and isinstance(difficile, PimcBot)
    assert isinstance(maestro.model, HEURISTICS["tressette"]) and difficile.model is None
    assert make_bot("pimc", game="tressette").model is None  # type: ignore[attr-defined]


def test_the_difficile_plays_as_the_bot_named_for_it() -> None:
    # The strength page takes that bot's line against the rule-based player for the difficile's
    # step over medio: the two must play alike (the same player, time and reading).
    for game in osteria.games():
        name = plays_as("difficile", game)
        difficile = make_bot("difficile", game=game)
        if name is None:
            assert game == "tressette"  # the arena's pimc reads the play there, the difficile does not
            continue
        bot = make_bot(name, game=game)
        assert type(bot) is type(difficile)
        assert bot.time_limit == difficile.time_limit == 0.1  # type: ignore[attr-defined]
        assert getattr(bot, "model", None) is getattr(difficile, "model", None) is None


def test_the_easy_and_middle_levels_finish_matches_of_every_game() -> None:
    for game in osteria.games():
        match = osteria.new_match(game, seed=3)
        seats = len(match.players)
        play_bots(match, {s: make_bot("facile" if s % 2 else "medio", game=game, seed=s) for s in range(seats)})
        assert match.finished, game


def test_facile_slips_now_and_then() -> None:
    class Always(osteria.bots.Bot):
        def act(self, observation: object, legal_actions: list[str]) -> str:
            return legal_actions[0]

    careless = Careless(Always(), 1 / 3, seed=5)
    choices = [careless.act({}, ["a", "b", "c", "d"]) for _ in range(600)]
    assert 0.65 < choices.count("a") / 600 < 0.85  # 2/3 + 1/3 * 1/4 = 0.75


def test_an_unknown_level_is_refused_with_status_1() -> None:
    out = io.StringIO()
    assert play("tressette", level="esperto", input_fn=lambda _: "q", output=out) == 1
    assert "esperto" in out.getvalue()
