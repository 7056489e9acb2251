"""The arena's oracle: every decision valued on the true deal, bids and calls included."""

from __future__ import annotations

import math

import pytest

import osteria
import osteria.arena.oracle as oracle_module
from osteria.arena import Config, run
from osteria.arena.oracle import OraclePlayer
from osteria.bots import HEURISTICS
from osteria.bots.solver import Solver
from osteria.engine import Match


@pytest.fixture
def narrow(monkeypatch: pytest.MonkeyPatch) -> None:
    """A few options a decision and no clock: quick, and the same on a busy machine."""
    monkeypatch.setattr(oracle_module, "BREADTH", 4)
    monkeypatch.setattr(oracle_module, "DECISION_SECONDS", math.inf)


def first_decision(game: str, seed: str) -> tuple[Match, int, OraclePlayer]:
    match = osteria.new_match(game, seed=seed)
    seat = match.decider
    assert seat is not None
    oracle = OraclePlayer(game)
    oracle.begin_match(seat, "oracle")
    return match, seat, oracle


def heuristic_choice(match: Match, seat: int) -> str:
    observation = match.observation(seat)
    return HEURISTICS[match.game.name]().act(observation, observation["legal_actions"])


def value_of(oracle: OraclePlayer, match: Match, seat: int, action: str) -> float:
    deal = match.deal
    assert deal is not None
    value = oracle.continuation(match, seat, deal.parse_action(action), solve=True)
    assert value is not None
    return value


def test_the_oracle_calls_a_hand_that_wins_where_the_rule_passes_and_loses(monkeypatch: pytest.MonkeyPatch) -> None:
    # Found by searching seeds: the rule-based player passes this hand and the deal costs it two
    # stakes; called (chiamo 3s), the hand wins two on the true cards.
    monkeypatch.setattr(oracle_module, "DECISION_SECONDS", math.inf)
    match, seat, oracle = first_decision("calabresella", "oracle/7")
    proposal = heuristic_choice(match, seat)
    assert proposal == "passo"
    assert value_of(oracle, match, seat, proposal) == -2
    assert value_of(oracle, match, seat, "chiamo 3s") == 2
    chosen = oracle.choose(match, seat)
    assert chosen.startswith("chiamo")
    assert value_of(oracle, match, seat, chosen) == 2


@pytest.mark.parametrize("seed", ["oracle/6", "oracle/8", "oracle/9"])
def test_the_oracles_bid_is_worth_at_least_the_rules_on_the_true_deal(narrow: None, seed: str) -> None:
    match, seat, oracle = first_decision("calabresella", seed)
    chosen = oracle.choose(match, seat)
    assert value_of(oracle, match, seat, chosen) >= value_of(oracle, match, seat, heuristic_choice(match, seat))


def test_a_solve_beyond_its_budget_values_every_option_by_the_rules_playouts(narrow: None) -> None:
    match, seat, oracle = first_decision("calabresella", "oracle/7")
    oracle.solver = Solver(max_nodes=1)  # no solve finishes
    deal = match.deal
    assert deal is not None
    actions = {deal.action_str(a): a for a in deal.legal()}
    values = oracle.option_values(match, seat, actions)
    assert heuristic_choice(match, seat) in values
    assert values == {text: oracle.playout(match, seat, actions[text]) for text in values}


def test_a_single_legal_action_is_played_without_valuing(monkeypatch: pytest.MonkeyPatch) -> None:
    match, _, oracle = first_decision("calabresella", "oracle/7")
    match.play("chiamo 3s")
    while len(match.legal_actions()) != 1:
        match.play(match.legal_actions()[0])
    monkeypatch.setattr(OraclePlayer, "option_values", lambda *args: pytest.fail("a forced move valued"))
    monkeypatch.setattr(Solver, "solve", lambda *args: pytest.fail("a forced move solved"))
    seat = match.decider
    assert seat is not None
    assert oracle.choose(match, seat) == match.legal_actions()[0]


@pytest.mark.parametrize("game", ["calabresella", "sancagna"])
def test_reading_a_match_never_changes_it(narrow: None, game: str) -> None:
    """The oracle reads one match at every decision, its twin is only played: both stay alike,
    the deals to come included (a Sancagna smazzata spans deals, which the oracle looks into)."""
    read, played = (osteria.new_match(game, seed="twins") for _ in range(2))
    oracles = {seat: OraclePlayer(game) for seat in range(read.game.seats)}
    for seat, oracle in oracles.items():
        oracle.begin_match(seat, f"twins/{seat}")
    while len(read.results) < 2 and not read.finished:
        if read.deal_due:
            read.begin_deal()
            played.begin_deal()
        seat = read.decider
        assert seat is not None
        action = oracles[seat].choose(read, seat)
        assert read.record() == played.record()
        assert [read.observation(s) for s in range(read.game.seats)] == \
               [played.observation(s) for s in range(read.game.seats)]
        read.play(action)
        played.play(action)
    assert read.record() == played.record()


def test_a_copy_of_a_match_is_played_apart_and_deals_the_same_cards() -> None:
    match = osteria.new_match("sancagna", seed=5)
    copy = match.copy()
    while not copy.deal_due:
        copy.play(copy.legal_actions()[0])
    copy.begin_deal()
    assert match.record()["deals"][0]["actions"] == []
    while not match.deal_due:
        match.play(match.legal_actions()[0])
    match.begin_deal()
    assert match.record() == copy.record()


@pytest.mark.parametrize("game", osteria.games())
def test_the_oracle_plays_every_game_to_the_end_in_the_arena(narrow: None, game: str) -> None:
    report = run(Config(game, ("oracle", "heuristic"), deals=2, seed=11))
    summary = report.as_json()
    assert summary["boards"] == 2
    assert "forfeits" not in summary
    assert all(len(board["deals"]) == len(report.config.rotations(len(board["deals"][0]["delta"])))
               for board in report.boards)


def early_decision(game: str) -> tuple[Match, int, OraclePlayer]:
    """The oracle to play with 36 cards in the hands and more than one legal."""
    import random

    match, _, oracle = first_decision(game, "oracle/early")
    rng = random.Random(1)
    while match.deal is not None and (match.deal.cards_in_hands > 36 or len(match.legal_actions()) == 1):
        match.play(rng.choice(match.legal_actions()))
    seat = match.decider
    assert seat is not None
    oracle.begin_match(seat, "oracle")
    return match, seat, oracle


def no_random_playouts(monkeypatch: pytest.MonkeyPatch) -> None:
    from osteria.bots.pimc import PimcBot

    def refused(*args: object) -> dict[str, float]:
        raise AssertionError("valued by random playouts")

    monkeypatch.setattr(PimcBot, "playout_values", refused)


def test_the_oracle_solves_the_early_cards_where_the_deal_has_two_sides(monkeypatch: pytest.MonkeyPatch) -> None:
    """With 36 cards in the hands the oracle's card is the solver's exact best (Tressette)."""
    from osteria.bots.solver import ending

    no_random_playouts(monkeypatch)
    match, seat, oracle = early_decision("tressette")
    deal = match.deal
    assert deal is not None
    chosen = oracle.choose(match, seat)
    values = ending(deal, seat).move_values()
    assert values[deal.card_of(deal.parse_action(chosen))] == max(values.values())


@pytest.mark.parametrize("cards_left", [36, 16])
def test_where_each_plays_for_himself_the_oracle_plays_the_card_of_the_best_continuation(
        monkeypatch: pytest.MonkeyPatch, cards_left: int) -> None:
    """In Traversone each card is valued by the deal played on by the rule-based player at every
    seat, early and in the ending alike: neither random playouts nor the solver, whose view has
    all the others play against the seat."""
    import random

    def refused(*args: object) -> object:
        raise AssertionError("valued by the solver")

    no_random_playouts(monkeypatch)
    monkeypatch.setattr(Solver, "solve", refused)
    monkeypatch.setattr("osteria.bots.pimc.ending", refused)
    match, seat, oracle = early_decision("traversone")
    rng = random.Random(2)
    deal = match.deal
    assert deal is not None
    while True:  # on to a decision from ``cards_left`` on where the cards' outcomes differ
        seat = match.decider
        assert seat is not None
        values = {text: oracle.playout(match, seat, deal.parse_action(text)) for text in match.legal_actions()}
        if deal.cards_in_hands <= cards_left and len(set(values.values())) > 1:
            break
        match.play(rng.choice(match.legal_actions()))
    chosen = oracle.choose(match, seat)
    assert values[chosen] == min(values.values())  # points are poison


@pytest.mark.parametrize("game", ["calabresella", "quattrigghiu", "sancagna"])
def test_the_card_play_oracle_decides_all_but_the_cards_as_the_rule_does(game: str) -> None:
    """``oracle-play`` cheats in the card play alone: every other decision is the rule-based
    player's own, and its cards are the full oracle's."""
    import random

    match = osteria.new_match(game, seed="oracle/split")
    full, split = OraclePlayer(game), OraclePlayer(game, card_play_only=True)
    for oracle in (full, split):
        oracle.begin_match(0, "oracle")
    rng = random.Random(3)
    other_kinds = cards = 0
    while not match.deal_due and (other_kinds < 3 or cards < 3):
        seat = match.decider
        assert seat is not None
        deal = match.deal
        assert deal is not None
        actions = {deal.action_str(a): a for a in deal.legal()}
        if len(actions) > 1:
            if OraclePlayer.card_play_choice(deal, actions):
                cards += 1
                assert split.choose(match, seat) == full.choose(match, seat)
            else:
                other_kinds += 1
                assert split.choose(match, seat) == heuristic_choice(match, seat)
        match.play(rng.choice(match.legal_actions()))
    assert cards and other_kinds


def test_the_arena_seats_the_card_play_oracle_by_name() -> None:
    report = run(Config("calabresella", ("oracle-play", "heuristic"), deals=1, seed=11))
    assert report.as_json()["boards"] == 1


def test_at_the_scarto_the_oracle_weighs_the_discards_the_rule_rates_next(narrow: None,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # Of the 1,365 discards, the rule's own and those it would make next (one card swapped),
    # before any drawn at random.
    match = osteria.new_match("calabresella", seed="oracle/0")  # its first deal is called
    while (seat := match.decider) is not None and match.observation(seat)["phase"] != "scarto":
        match.play(heuristic_choice(match, seat))  # the bids and the cedo, the rule's
    assert seat is not None
    oracle = OraclePlayer("calabresella")
    oracle.begin_match(seat, "oracle")
    deal = match.deal
    assert deal is not None
    weighed: list[str] = []

    def recorded(self: OraclePlayer, match: Match, seat: int, action: int, *, solve: bool) -> float:
        weighed.append(deal.action_str(action))
        return 0.0

    monkeypatch.setattr(OraclePlayer, "continuation", recorded)
    oracle.option_values(match, seat, {deal.action_str(a): a for a in deal.legal()})
    observation = match.observation(seat)
    heuristic = HEURISTICS["calabresella"]()
    choice = heuristic.act(observation, observation["legal_actions"])
    runners_up = heuristic.runners_up(observation, observation["legal_actions"], choice)
    assert len(weighed) == 4 and weighed == [choice, *runners_up[:3]]
