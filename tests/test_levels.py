"""The levels people choose at a table."""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from typing import Any

import pytest

import osteria
from osteria.bots import BOTS, HEURISTICS, make_bot, play_bots
from osteria.bots import tressette as tressette_bot
from osteria.bots.hybrid import HybridBot
from osteria.bots.ismcts import IsmctsBot
from osteria.bots.learned import DmcPlayer
from osteria.bots.levels import LEVELS, Careless, LearnedElseSearch, difficile_plays_as
from osteria.bots.pimc import PimcBot
from osteria.engine import Deal
from osteria.tui import play


def test_every_level_is_a_bot_of_every_game() -> None:
    for game in osteria.games():
        for level in LEVELS:
            assert level in BOTS
            bot = make_bot(level, game=game, seed=1)
            if level == "difficile" and game == "tressette":
                # The learned player, a clear step below the maestro; PIMC where it does not play.
                assert isinstance(bot, LearnedElseSearch) and isinstance(bot.learned, DmcPlayer)
                assert isinstance(bot.search, PimcBot)
            elif level == "maestro" and game == "tressette":
                assert isinstance(bot, PimcBot)  # it measured stronger than the hybrid there
            elif level in ("difficile", "maestro") and game == "traversone":
                assert isinstance(bot, IsmctsBot)  # so did ISMCTS there
            elif level in ("difficile", "maestro") and game == "calabresella":
                assert isinstance(bot, HybridBot)  # overruling the learned player, stronger there
                assert isinstance(bot.base, DmcPlayer) and isinstance(bot.base.rule, HEURISTICS[game])
            elif level in ("difficile", "maestro"):
                assert isinstance(bot, HybridBot)
                assert isinstance(bot.base, HEURISTICS[game])
    maestro, difficile = make_bot("maestro", game="tressette"), make_bot("difficile", game="tressette")
    assert isinstance(maestro, PimcBot) and isinstance(difficile, LearnedElseSearch)
    search = difficile.search
    assert isinstance(search, PimcBot)
    assert maestro.time_limit and search.time_limit and maestro.time_limit > search.time_limit
    # The maestro reads the others' play, the difficile's search does not. The arena's pimc reads
    # where it is cheap.
    assert isinstance(maestro.model, HEURISTICS["tressette"]) and search.model is None
    assert isinstance(make_bot("pimc", game="tressette").model, HEURISTICS["tressette"])  # type: ignore[attr-defined]


def test_without_the_compiled_reading_the_levels_read_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    # Without the compiled player (no numba), the rule-based player is asked at each action, some
    # 0.3 to 1 ms a sampled deal: the maestro's second affords it, and the arena's pimc does not read.
    monkeypatch.setattr(tressette_bot, "_reading_kernel", lambda: None)
    maestro, difficile = make_bot("maestro", game="tressette"), make_bot("difficile", game="tressette")
    assert isinstance(maestro, PimcBot) and isinstance(difficile, LearnedElseSearch)
    assert isinstance(maestro.model, HEURISTICS["tressette"]) and difficile.search.model is None  # type: ignore[attr-defined]
    assert make_bot("pimc", game="tressette").model is None  # type: ignore[attr-defined]


def test_the_difficile_plays_as_the_bot_named_for_it() -> None:
    # The strength page takes that bot's line against the rule-based player for the difficile's
    # step over medio: the two must play alike (the same player, time and reading).
    for game in osteria.games():
        name = difficile_plays_as(game)
        difficile, bot = make_bot("difficile", game=game), make_bot(name, game=game)
        if isinstance(difficile, LearnedElseSearch):
            assert game == "tressette" and isinstance(bot, DmcPlayer)
            assert type(difficile.learned.rule) is type(bot.rule)
            continue
        assert type(bot) is type(difficile)
        assert bot.time_limit == difficile.time_limit == 0.1  # type: ignore[attr-defined]
        assert getattr(bot, "model", None) is getattr(difficile, "model", None) is None
        assert getattr(bot, "deeper", False) is getattr(difficile, "deeper", False) is False
        assert type(getattr(bot, "base", None)) is type(getattr(difficile, "base", None))


def test_tressettes_difficile_plays_the_learned_players_cards_and_searches_where_it_has_no_network() -> None:
    learned, difficile = make_bot("dmc", game="tressette"), make_bot("difficile", game="tressette", seed=2)
    assert isinstance(difficile, LearnedElseSearch)
    searched: list[str] = []

    def searching(observation: Mapping[str, Any], legal: list[str]) -> str:
        searched.append(legal[0])
        return legal[0]

    difficile.search.act = searching  # type: ignore[method-assign]
    # At the table the network knows, every decision is the learned player's.
    match = osteria.new_match("tressette", seed=11)
    play_bots(match, {1: make_bot("medio", game="tressette"), 3: make_bot("medio", game="tressette")})
    for _ in range(30):
        if match.finished or match.decider not in (0, 2):
            break
        observation = match.observation(match.decider)
        choice = difficile.act(observation, observation["legal_actions"])
        assert choice == learned.act(observation, observation["legal_actions"])
        match.play(choice)
        play_bots(match, {1: make_bot("medio", game="tressette"), 3: make_bot("medio", game="tressette")})
    assert not searched
    # Col morto the network does not play: the search does (PIMC at a tenth of a second).
    morto = osteria.new_match("tressette", seed=11, morto=[2])
    seat = morto.decider
    assert seat is not None
    observation = morto.observation(seat)
    difficile.act(observation, observation["legal_actions"])
    assert searched


def solving_position(seed: int, cards_left: int) -> tuple[dict[str, object], list[str]]:
    """A Quattrigghiu card-play decision with ``cards_left`` cards in the hands and a choice, reached
    by rule-based play from the match of ``seed``."""
    heuristic = HEURISTICS["quattrigghiu"]()
    match = osteria.new_match("quattrigghiu", seed=seed)
    while True:
        deal = match.deal
        assert deal is not None and match.decider is not None
        observation, legal = match.observation(match.decider), match.legal_actions()
        if deal.in_card_play and deal.cards_in_hands == cards_left and len(legal) > 1:
            return dict(observation), legal
        assert deal.cards_in_hands >= cards_left, "no choice at that point of this deal"
        match.play(heuristic.act(observation, legal))


def test_the_quattrigghiu_maestro_solves_the_last_eight_basi_and_the_difficile_the_last_four() -> None:
    # The maestro's step over the difficile there: a second solves the last 32 cards of sampled
    # deals; the difficile keeps to the rule until 16 are left.
    solved: dict[str, list[int]] = {"maestro": [], "difficile": []}
    for level in solved:
        bot = make_bot(level, game="quattrigghiu", seed=4)
        assert isinstance(bot, HybridBot)
        bot.samples = 3  # a fixed few deals: the test does not hang on the machine's speed
        valuer_solves = bot.valuer.solved_values

        def counting(deal: Deal, actions: dict[str, int], seat: int, level: str = level,
                     solves: Callable[..., dict[str, float] | None] = valuer_solves) -> dict[str, float] | None:
            found = solves(deal, actions, seat)
            solved[level].append(deal.cards_in_hands if found is not None else -1)
            return found

        bot.valuer.solved_values = counting  # type: ignore[method-assign]
        for seed in (1, 2, 3):
            for cards_left in (32, 16):
                observation, legal = solving_position(seed, cards_left)
                assert bot.act(observation, legal) in legal
    # (-1: a deal beyond the node budget, where the decision keeps to the rule)
    assert solved["maestro"].count(32) >= 6 and solved["maestro"].count(16) >= 6
    assert set(solved["difficile"]) <= {16, -1} and solved["difficile"].count(16) >= 6


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
