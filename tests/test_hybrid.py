"""The hybrid bot: the rule-based player, overruled by search only where search sees further."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

import osteria
from osteria.bots import BOTS, HEURISTICS, Bot, make_bot
from osteria.bots.hybrid import HybridBot
from osteria.bots.solver import Solver
from osteria.engine import Match
from osteria.sampling import Unsatisfiable

from helpers import bot_decision

GAMES = ["tressette", "calabresella", "traversone", "quattrigghiu", "sancagna"]


class FirstLegal(Bot):
    """A poor rule: always the first legal action."""

    def act(self, observation: Mapping[str, Any], legal_actions: list[str]) -> str:
        return legal_actions[0]


class Watching(Bot):
    """The game's heuristic, counting what it is shown: it must only ever get observations."""

    def __init__(self, game: str) -> None:
        self.inner = HEURISTICS[game]()
        self.calls = 0

    def act(self, observation: Mapping[str, Any], legal_actions: list[str]) -> str:
        self.calls += 1
        assert isinstance(observation, dict)
        json.dumps(observation)  # plain data: no deal or match can hide in it
        return self.inner.act(observation, legal_actions)


def positions(game: str, cards_left: int, count: int) -> Iterator[Match]:
    """Matches of Tressette or Calabresella whose first deal is in its card play, a card to
    choose among several, with at most ``cards_left`` cards in the hands, reached by the
    heuristic playing every seat (deals that end before, all passing, are skipped)."""
    heuristic = HEURISTICS[game]()
    found = 0
    for seed in range(1000):
        match = osteria.new_match(game, seed=seed)
        deal = match.deal
        assert deal is not None
        while not deal.over and not (deal.in_card_play and len(match.legal_actions()) > 1
                                     and sum(h.bit_count() for h in deal.hands) <= cards_left):  # type: ignore[attr-defined]
            seat = match.decider
            assert seat is not None
            obs = match.observation(seat)
            match.play(heuristic.act(obs, obs["legal_actions"]))
        if not deal.over:
            yield match
            found += 1
            if found == count:
                return
    raise AssertionError(f"only {found} of {count} {game} positions with at most {cards_left} cards in 1000 deals")


@pytest.mark.parametrize("game", GAMES)
def test_the_hybrid_plays_a_whole_deal_legally_from_observations_only(game: str) -> None:
    match = osteria.new_match(game, seed=4)
    watching = Watching(game)
    hybrid = HybridBot(watching, seed=1, samples=3, breadth=2)
    deals = len(match.results)
    decisions = 0
    while len(match.results) == deals:
        seat = match.decider
        assert seat is not None
        decisions += 1
        match.play(bot_decision(hybrid, match, seat))
    assert watching.calls >= decisions
    if game in ("calabresella", "quattrigghiu", "sancagna"):
        # Its bids or call-outs were simulated: the rule-based player also played out the
        # sampled deals, each time from an observation.
        assert watching.calls > decisions + 20


def test_the_hybrid_is_registered_and_reproducible() -> None:
    assert "hybrid" in BOTS
    assert isinstance(make_bot("hybrid", game="calabresella", seed=1), HybridBot)
    match = next(positions("tressette", 16, 1))
    seat = match.decider
    assert seat is not None
    obs = match.observation(seat)
    copy = json.loads(json.dumps(obs))
    first = HybridBot(FirstLegal(), seed=3, samples=6).act(obs, obs["legal_actions"])
    assert HybridBot(FirstLegal(), seed=3, samples=6).act(copy, copy["legal_actions"]) == first


def test_early_in_the_card_play_it_is_its_heuristic() -> None:
    for seed, match in enumerate(positions("tressette", 36, 5)):
        seat = match.decider
        assert seat is not None
        obs = match.observation(seat)
        hybrid = HybridBot(FirstLegal(), seed=seed, samples=4)
        assert hybrid.act(obs, obs["legal_actions"]) == obs["legal_actions"][0]


@pytest.mark.parametrize("game", ["tressette", "calabresella"])
def test_near_the_end_its_search_overrules_a_poor_rule_to_advantage(game: str) -> None:
    # On the true (hidden) deal, the solver's value of what the hybrid plays is, summed over
    # the positions where it overruled the poor rule, above the value of the rule's choice.
    overruled = gained = 0
    for seed, match in enumerate(positions(game, 12, 24)):
        deal = match.deal
        seat = match.decider
        assert deal is not None and seat is not None
        obs = match.observation(seat)
        legal = obs["legal_actions"]
        chosen = HybridBot(FirstLegal(), seed=seed, samples=12).act(obs, legal)
        if chosen == legal[0]:
            continue
        overruled += 1
        values = []
        for text in (chosen, legal[0]):
            child = deal.copy()
            child.apply(deal.parse_action(text))
            values.append(Solver().solve(child, seat).value)
        gained += values[0] - values[1]
    assert overruled >= 3
    assert gained > 0


def test_a_simulated_decision_weighs_actions_of_every_kind() -> None:
    hybrid = HybridBot(FirstLegal(), seed=2, breadth=3)
    legal = ["passo", "chiamo Ad", "chiamo 2d", "chiamo 3d", "sola"]
    for _ in range(20):
        candidates = hybrid.candidates("chiamo 2d", legal, 3)
        assert candidates[0] == "chiamo 2d"
        assert sorted(c.split()[0] for c in candidates) == ["chiamo", "passo", "sola"]


def test_a_simulated_decision_weighs_the_rules_runners_up_before_random_ones() -> None:
    hybrid = HybridBot(FirstLegal(), seed=2, breadth=3)
    legal = ["passo", "chiamo Ad", "chiamo 2d", "chiamo 3d", "chiamo Rd"]
    ranked = ["chiamo Xx", "chiamo Rd", "chiamo Ad"]  # the rule's runners-up, one of them not legal
    for _ in range(20):
        # One of each other kind first (the best ranked of its kind), then the runners-up, then any.
        chosen = hybrid.candidates("passo", legal, 4, ranked)
        assert chosen[:3] == ["passo", "chiamo Rd", "chiamo Ad"] and chosen[3] in ("chiamo 2d", "chiamo 3d")
        assert hybrid.candidates("chiamo 2d", [*legal, "sola"], 3, ranked)[1:] in (["passo", "sola"], ["sola", "passo"])


def test_bidding_is_simulated_and_a_ruinous_bid_is_overruled() -> None:
    # A rule that plays alone with any hand is overruled by simulating the bids on sampled deals.
    class AlwaysSola(Bot):
        def __init__(self) -> None:
            self.inner = HEURISTICS["calabresella"]()

        def act(self, observation: Mapping[str, Any], legal_actions: list[str]) -> str:
            return "sola" if "sola" in legal_actions else self.inner.act(observation, legal_actions)

    overruled = 0
    for seed in range(3):
        match = osteria.new_match("calabresella", seed=seed)
        seat = match.decider
        assert seat is not None
        obs = match.observation(seat)
        choice = HybridBot(AlwaysSola(), seed=seed, samples=12, breadth=2).act(obs, obs["legal_actions"])
        overruled += choice != "sola"
    assert overruled >= 2



def test_where_no_deal_can_be_sampled_it_keeps_to_its_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    match = next(positions("tressette", 12, 1))
    seat = match.decider
    assert seat is not None
    obs = match.observation(seat)

    def unsatisfiable(self: object, observation: object, rng: object) -> None:
        raise Unsatisfiable("no consistent deal in 1000 draws")

    monkeypatch.setattr(type(match.game), "sample_deal", unsatisfiable)
    assert HybridBot(FirstLegal(), seed=1, samples=8).act(obs, obs["legal_actions"]) == obs["legal_actions"][0]
