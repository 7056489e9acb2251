"""Reading the others' play: a sampled deal is weighted by how many of the other seats' actions
the rule-based player would not have chosen, and a search that reads the play meets the true
hands more often than one that samples uniformly."""

from __future__ import annotations

import json
import random

import pytest

import osteria
from osteria.bots import HEURISTICS
from osteria.bots.hybrid import HybridBot
from osteria.bots.inference import BATCH, MISREAD, weight
from osteria.bots.pimc import PimcBot
from osteria.bots.search import Decision
from osteria.engine import Deal, Drawing, Match
from osteria.rules.tressette import TressetteDeal
from osteria.sampling import Unsatisfiable, shows

from helpers import as_drawn, play_deal, play_random_action


def heuristic_action(match: Match) -> str:
    seat = match.decider
    assert seat is not None
    obs = match.observation(seat)
    return HEURISTICS["tressette"]().act(obs, obs["legal_actions"])


@pytest.mark.parametrize(("game", "seats"), [("tressette", 4), ("calabresella", 3), ("calabresella", 5),
                                           ("sancagna", 4)])
def test_a_deal_as_dealt_replays_to_the_same_deal(game: str, seats: int) -> None:
    rng = random.Random(4)
    for seed in range(30):
        match = osteria.new_match(game, seats=seats, seed=seed)
        for _ in range(rng.randrange(60)):
            if match.deal is None or match.deal.over:
                break
            play_random_action(match, rng)
        deal = match.deal
        assert deal is not None
        replay = deal.as_dealt()
        assert replay is not None and replay.history == [] and replay.to_move is not None
        for _, action in deal.history:
            replay.apply(action)
        assert replay.__dict__ == deal.__dict__


def test_the_true_deal_of_rule_based_play_explains_it_fully() -> None:
    match = osteria.new_match("tressette", seed=8)
    model = HEURISTICS["tressette"]()
    for _ in range(30):
        match.play(heuristic_action(match))
        deal = match.deal
        assert deal is not None
        decision = Decision.of(match.observation(deal.to_move))
        assert weight(decision, Drawing.of(deal.copy()), model) == 1.0
        if isinstance(deal, TressetteDeal):  # handed out as dealt: read from the hands drawn
            assert weight(decision, as_drawn(deal), model) == 1.0


def test_each_action_the_model_would_not_choose_costs_the_deal_misread() -> None:
    # Seat 2 plays a card the rule-based player would not, twice; the others play by the rule.
    match = osteria.new_match("tressette", seed=8)
    model = HEURISTICS["tressette"]()
    surprises = 0
    while len(match.deal.history) < 24:
        choice = heuristic_action(match)
        if match.decider == 2 and surprises < 2:
            others = sorted({a.split()[0] for a in match.legal_actions()} - {choice.split()[0]})
            if others:
                choice = next(a for a in match.legal_actions() if a.split()[0] == others[0])
                surprises += 1
        match.play(choice)
    assert surprises == 2
    deal = match.deal
    assert deal is not None and deal.to_move is not None
    # Whoever decides now reads seat 2's two surprises, unless it is seat 2 itself.
    decider = deal.to_move
    decision = Decision.of(match.observation(decider))
    expected = 1.0 if decider == 2 else MISREAD ** 2
    assert weight(decision, Drawing.of(deal.copy()), model) == expected
    assert isinstance(deal, TressetteDeal)
    assert weight(decision, as_drawn(deal), model) == expected


def test_a_game_that_cannot_replay_its_deals_is_not_weighted() -> None:
    match = osteria.new_match("quattrigghiu", seed=3)
    deal = match.deal
    assert deal is not None and deal.as_dealt() is None
    decision = Decision.of(match.observation(deal.decider(deal.to_move)))
    assert weight(decision, Drawing.of(deal.copy()), HEURISTICS["quattrigghiu"]()) is None


def as_seen(deal: Deal, seat: int) -> Deal:
    """``deal`` as a search from ``seat``'s observation samples it: the true hands, and the
    history's actions that the seat saw."""
    seen = deal.as_dealt()
    assert seen is not None
    for actor, action in deal.history:
        if deal.seen_action(seat, actor, action) is not None:
            seen.apply(action)
    return seen


def test_the_other_sides_unseen_cenni_are_no_surprise() -> None:
    # In Sancagna a cenno is seen by the partner alone. Read from an opponent's seat, a deal the
    # rule-based players played, every true cenno made at its maker's first turn, is explained
    # in full by the true hands: the model makes the cenno the reader did not see, then plays
    # the card seen.
    model = HEURISTICS["sancagna"]()
    unseen_cenni = 0
    for seed in range(4):
        match = osteria.new_match("sancagna", seed=seed)
        while not match.deal_due:
            seat = match.decider
            assert seat is not None
            deal = match.deal
            assert deal is not None
            unseen_cenni += sum(deal.seen_action(seat, s, a) is None for s, a in deal.history)
            decision = Decision.of(match.observation(seat))
            assert weight(decision, Drawing.of(as_seen(deal, seat)), model) == 1.0
            obs = match.observation(seat)
            match.play(model.act(obs, obs["legal_actions"]))
    assert unseen_cenni


def hidden_cards_placed(decision: Decision, sampled: TressetteDeal, truth: TressetteDeal) -> int:
    return sum((sampled.hands[s] & truth.hands[s]).bit_count() for s in range(4) if s != decision.seat)


def test_reading_the_play_places_the_hidden_cards_better_than_uniform_sampling() -> None:
    # Late in deals played by the rule-based player, the deals a reading search draws hold more
    # of the true hidden cards where they truly lie than uniformly sampled deals do.
    read, uniform = 0, 0
    for seed in range(6):
        match = osteria.new_match("tressette", seed=100 + seed)
        for _ in range(24):
            match.play(heuristic_action(match))
        truth = match.deal
        assert isinstance(truth, TressetteDeal)
        decision = Decision.of(match.observation(truth.to_move))
        reader = PimcBot(seed, samples=40, model=HEURISTICS["tressette"]())
        plain = PimcBot(seed, samples=40)
        read += sum(hidden_cards_placed(decision, d, truth) for d in reader.deals(decision))
        uniform += sum(hidden_cards_placed(decision, d, truth) for d in plain.deals(decision))
    assert read > uniform * 1.05


def test_a_reading_search_needs_only_the_observation_and_is_reproducible() -> None:
    # Handed a JSON copy of its observation, with no match anywhere, it plays the same: the
    # weights read the observation and the sampled deals, nothing else.
    match = osteria.new_match("tressette", seed=13)
    for _ in range(21):
        match.play(heuristic_action(match))
    seat = match.decider
    assert seat is not None
    obs = match.observation(seat)
    copy = json.loads(json.dumps(obs))
    model = HEURISTICS["tressette"]()
    first = PimcBot(9, samples=6, model=model).act(obs, obs["legal_actions"])
    assert PimcBot(9, samples=6, model=model).act(copy, copy["legal_actions"]) == first


def test_a_hybrid_reading_the_play_plays_a_calabresella_deal_legally() -> None:
    model = HEURISTICS["calabresella"]()
    bot = HybridBot(model, 3, samples=4, read_play=True)
    assert bot.model is model
    play_deal(osteria.new_match("calabresella", seed=5), {0: bot}, random.Random(6))


def reading_decision(seed: int) -> Decision:
    match = osteria.new_match("tressette", seed=seed)
    for _ in range(17):
        match.play(heuristic_action(match))
    seat = match.decider
    assert seat is not None
    return Decision.of(match.observation(seat))


def test_a_reading_search_builds_only_the_deals_it_keeps() -> None:
    # Each batch is weighed from the hands drawn: of its BATCH drawings one deal is built.
    decision = reading_decision(21)
    draw = decision.draw
    drawn, built = [], []

    def counted(rng: random.Random) -> Drawing:
        drawing = draw(rng)
        drawn.append(drawing)
        return Drawing(drawing.hands, drawing.actions, lambda: built.append(1) or drawing.build())

    decision.__dict__["draw"] = counted  # the decision's drawer, counted
    deals = list(PimcBot(3, samples=10, model=HEURISTICS["tressette"]()).deals(decision))
    assert len(deals) == 10 and len(drawn) == 10 * BATCH
    if HEURISTICS["tressette"]().counts_surprises:
        assert len(built) == 10


def test_a_reading_search_never_searches_a_drawing_that_does_not_show_the_observation() -> None:
    # Every other drawing builds into a deal of another match: whatever its weight, it is dropped
    # when picked, and the search meets only deals that show its seat what it was shown.
    decision = reading_decision(22)
    draw, other = decision.draw, reading_decision(23).draw
    turn = iter(range(10**6))

    def mixed(rng: random.Random) -> Drawing:
        drawing = draw(rng)
        if next(turn) % 2:
            return Drawing(drawing.hands, drawing.actions, lambda: other(rng).build())
        return drawing

    decision.__dict__["draw"] = mixed
    deals = list(PimcBot(4, samples=30, model=HEURISTICS["tressette"]()).deals(decision))
    assert len(deals) == 30
    assert all(shows(deal, decision.observation) for deal in deals)


def test_a_reading_search_whose_drawings_never_show_the_observation_says_so() -> None:
    decision = reading_decision(24)
    draw, other = decision.draw, reading_decision(25).draw

    def elsewhere(rng: random.Random) -> Drawing:
        drawing = draw(rng)
        return Drawing(drawing.hands, drawing.actions, lambda: other(rng).build())

    decision.__dict__["draw"] = elsewhere
    with pytest.raises(Unsatisfiable, match="showed the observation"):
        next(PimcBot(5, samples=3, model=HEURISTICS["tressette"]()).deals(decision))
