"""The compiled Tressette rule-based player counts a sampled deal's surprises as the player itself
does when asked at each action: the same count on deals sampled mid-play, under every segni and
with accusi, so that reading the play at a search's pace reads it the same way."""

from __future__ import annotations

import random

import pytest

import osteria
from osteria.bots import HEURISTICS
from osteria.bots.inference import asked_surprises
from osteria.bots.search import Decision
from osteria.engine import Match
from osteria.rules.tressette import ACCUSO_BASE, TressetteDeal

from helpers import as_drawn

pytest.importorskip("numba")


def mixed_action(match: Match, rng: random.Random, slip: float) -> str:
    """The rule-based player's action, or a random one in ``slip`` of the turns."""
    legal = match.legal_actions()
    if rng.random() < slip:
        return rng.choice(legal)
    seat = match.decider
    assert seat is not None
    return HEURISTICS["tressette"]().act(match.observation(seat), legal)


@pytest.mark.parametrize(("segni", "morto"), [("nord", []), ("sud", []), ("muto", []), ("nord", [2]), ("sud", [1, 2])])
def test_the_compiled_player_counts_the_surprises_the_player_counts(segni: str, morto: list[int]) -> None:
    rng = random.Random(segni + str(morto))
    model = HEURISTICS["tressette"]()
    compared = surprised = 0
    for seed in range(40):
        match = osteria.new_match("tressette", seed=seed, segni=segni, faliante=seed % 2 == 0, morto=morto)
        slip = rng.choice([0.0, 0.1, 0.4])
        for _ in range(rng.randrange(1, 40)):
            match.play(mixed_action(match, rng, slip))
        deal = match.deal
        assert isinstance(deal, TressetteDeal) and deal.to_move is not None
        decision = Decision.of(match.observation(deal.decider(deal.to_move)))
        drawn = [decision.draw(rng) for _ in range(5)]
        for drawing in [as_drawn(deal), *drawn]:
            counted = model.surprises(drawing, decision.observation)
            assert counted is not None
            assert counted == asked_surprises(decision, drawing.build(), model)
            compared += 1
            surprised += counted > 0
    # Both kinds of deal were met: those the rule explains and those it does not.
    assert compared == 240 and 0 < surprised < compared


@pytest.mark.parametrize("seed", [58, 211, 372, 376])
def test_a_four_of_a_kind_is_declared_as_the_four_not_as_its_tris(seed: int) -> None:
    # In these deals a seat holds four aces, twos or threes: the rule-based player declares the
    # four (and any napoletana), never a tris of the same cards, so its own play surprises no one.
    match = osteria.new_match("tressette", seed=seed)
    rng = random.Random(seed)
    model = HEURISTICS["tressette"]()
    while match.deal is not None and match.deal.tricks_done < 2:
        match.play(mixed_action(match, rng, 0.0))
    deal = match.deal
    assert isinstance(deal, TressetteDeal) and any(action >= ACCUSO_BASE for _, action in deal.history)
    for observer in range(4):
        assert model.surprises(as_drawn(deal), match.observation(observer)) == 0
