"""The PIMC bot: legal, honest (observations only), reproducible, and it finds the sure play."""

from __future__ import annotations

import json
import random

import pytest

import osteria
from osteria.bots import BOTS, make_bot
from osteria.bots.pimc import PimcBot
from osteria.bots.solver import Solver

from helpers import play_deal, play_random_action

GAMES = ["tressette", "calabresella", "traversone", "quattrigghiu", "sancagna"]


@pytest.mark.parametrize("game", GAMES)
def test_pimc_plays_only_legal_actions(game: str) -> None:
    match = osteria.new_match(game, seed=11)
    bots = {0: PimcBot(1, samples=3, max_nodes=3000, playouts=1)}
    play_deal(match, bots, random.Random(2))


def test_pimc_is_registered() -> None:
    assert "pimc" in BOTS
    assert isinstance(make_bot("pimc", game="tressette", seed=1), PimcBot)


def test_pimc_needs_only_the_observation_and_is_reproducible() -> None:
    # Handed a JSON copy of its observation, with no match anywhere, it plays the same: the
    # same seed, the same choices.
    rng = random.Random(5)
    match = osteria.new_match("tressette", seed=21)
    deal = match.deal
    assert deal is not None
    for _ in range(22):
        play_random_action(match, rng)
    seat = match.decider
    assert seat is not None
    obs = match.observation(seat)
    copy = json.loads(json.dumps(obs))
    first = PimcBot(9, samples=4).act(obs, obs["legal_actions"])
    assert PimcBot(9, samples=4).act(copy, copy["legal_actions"]) == first
    assert first in obs["legal_actions"]


def test_pimc_finds_the_play_that_is_best_whatever_the_hidden_cards() -> None:
    # Endings where one card is best in every deal the seat's observation allows: the
    # solver, given the true deal and many sampled ones, says so; the bot must find it.
    rng = random.Random(3)
    found = 0
    while found < 3:
        match = osteria.new_match("tressette", seed=rng.getrandbits(32))
        deal = match.deal
        assert deal is not None
        while deal.tricks_done < 7 or len(deal.trick) != 3:  # type: ignore[attr-defined]
            play_random_action(match, rng)
            if deal.over:
                break
        if deal.over:
            continue
        seat = match.decider
        assert seat is not None
        obs = match.observation(seat)
        rules = match.game
        best_everywhere: set[int] | None = None
        for k in range(30):
            sample = deal if k == 0 else rules.sample_deal(obs, random.Random(k))
            values, exact = Solver().move_values(sample)
            assert exact
            top = max(values.values())
            best = {c for c, v in values.items() if v == top}
            best_everywhere = best if best_everywhere is None else best_everywhere & best
        assert best_everywhere is not None
        if len({deal.card_of(a) for a in deal.legal()}) < 2 or len(best_everywhere) != 1:
            continue
        found += 1
        action = PimcBot(found, samples=8).act(obs, obs["legal_actions"])
        assert deal.card_of(deal.parse_action(action)) in best_everywhere
