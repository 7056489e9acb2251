"""Actions spelled a word a step: small masks, and the steps compose exactly the engine's legal
actions, no more and no fewer."""

from __future__ import annotations

import random
from itertools import combinations
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import osteria
from osteria.engine import Deal, Match, RulesError
from osteria.envs import actions as actions_module
from osteria.envs.actions import (
    ACTION_SPACES,
    DONE,
    CardSetChoice,
    Choice,
    OneStepChoice,
    SpelledChoice,
    Spelling,
    StepActions,
    WholeActions,
    action_space,
)
from osteria.envs.encoding import encoding
from osteria.rules import GAMES

SETUPS = [(game, seats) for game, cls in GAMES.items() for seats in cls.seat_counts]
# Every game, and the options that add actions: signals after the card (segni sud), the call
# of a suit alone (aiuto_volontario).
VARIANTS = [(game, seats, {}) for game, seats in SETUPS] + [
    ("tressette", 4, {"segni": "sud", "morto": [2]}), ("quattrigghiu", 4, {"aiuto_volontario": True})]
# The widths docs/research.md states: the space of steps, and the whole actions'.
WIDTHS = {("tressette", 4): (61, 819), ("calabresella", 3): (48, 91_592), ("calabresella", 4): (47, 202),
          ("calabresella", 5): (47, 202), ("traversone", 3): (41, 40), ("traversone", 4): (41, 40),
          ("traversone", 5): (41, 40), ("traversone", 6): (41, 40), ("sancagna", 4): (60, 58),
          ("quattrigghiu", 4): (51, 84)}


@pytest.mark.parametrize(("game", "seats"), SETUPS)
def test_every_games_steps_are_a_narrow_space(game: str, seats: int) -> None:
    steps, whole = action_space(encoding(game, seats)), action_space(encoding(game, seats), "whole")
    assert isinstance(steps, StepActions) and isinstance(whole, WholeActions)
    assert (steps.size, whole.size) == WIDTHS[game, seats]
    assert steps.size <= 300
    assert steps.words[-1] == DONE and len(set(steps.words)) == steps.size
    # The cards first, at their deck index, as everywhere in the encoding.
    assert steps.words[:steps.encoding.deck_size] == list(steps.encoding.card_index)


def spellable(space: StepActions, legal: list[str]) -> set[str]:
    """Every action some path of allowed steps completes, walking the choices (the cards of a run
    chosen in any order reach the same choice, so each choice is walked once)."""
    done, seen, stack = set(), set(), [()]
    while stack:
        chosen = list(stack.pop())
        mask = space.mask(legal, chosen)
        assert mask.any(), f"a dead end after {chosen}"
        for step in np.flatnonzero(mask):
            after, action = space.choose(legal, chosen, int(step))
            if action is not None:
                assert after == []
                done.add(action)
            elif tuple(after) not in seen:
                seen.add(tuple(after))
                stack.append(tuple(after))
    return done


def decisions(game: str, seats: int, options: dict, seed: int) -> list[list[str]]:
    """The legal actions at each decision of a random deal."""
    match = osteria.new_match(game, seats=seats, seed=seed, **options)
    rng = random.Random(seed)
    found = []
    while match.decider is not None and not match.results:
        found.append(match.legal_actions())
        match.play(rng.choice(found[-1]))
    return found


@settings(max_examples=12, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32))
def test_the_steps_compose_exactly_the_engines_legal_actions(variant: tuple[str, int, dict], seed: int) -> None:
    game, seats, options = variant
    space = StepActions(encoding(game, seats, **options))
    for legal in decisions(game, seats, options, seed):
        if any(action.startswith("scarto") for action in legal):
            continue  # 1,820 discards: their own test below
        assert spellable(space, legal) == set(legal)
        for action in legal:  # and each is spelled in its own notation's order, done where it must be
            chosen: list[str] = []
            steps = space.steps_of(action, legal)
            for step in steps:
                assert space.mask(legal, chosen)[step] == 1
                chosen, done = space.choose(legal, chosen, step)
            assert done == action and len(steps) == len(action.split()) + (space.step_word(steps[-1]) == DONE)


@settings(max_examples=10, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32))
def test_random_steps_along_the_mask_always_end_in_a_legal_action(variant: tuple[str, int, dict], seed: int) -> None:
    game, seats, options = variant
    space = StepActions(encoding(game, seats, **options))
    rng = random.Random(seed)
    for legal in decisions(game, seats, options, seed):
        chosen: list[str] = []
        for _ in range(space.longest):
            chosen, action = space.choose(legal, chosen, int(rng.choice(np.flatnonzero(space.mask(legal, chosen)))))
            if action is not None:
                assert action in legal
                break
        else:
            pytest.fail(f"no action after {space.longest} steps: {chosen}")


@settings(max_examples=10, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32), actions=st.sampled_from(ACTION_SPACES))
def test_a_decision_on_the_engines_integers_walks_as_its_words_do(variant: tuple[str, int, dict], seed: int,
                                                                   actions: str) -> None:
    game, seats, options = variant
    space = action_space(encoding(game, seats, **options), actions)
    match = osteria.new_match(game, seats=seats, seed=seed, **options)
    rng = random.Random(seed)
    while match.decider is not None and not match.results:
        deal, legal = match.deal, match.legal_actions()
        assert deal is not None
        choice, chosen = space.decision(deal), []
        while True:
            mask = space.mask(legal, chosen)
            assert np.array_equal(choice.mask(), mask), chosen
            step = int(rng.choice(np.flatnonzero(mask)))
            chosen, word = space.choose(legal, chosen, step)
            after = choice.choose(step, chosen)
            if word is not None:
                assert not isinstance(after, Choice) and deal.action_str(after) == word
                break
            assert isinstance(after, Choice)
            choice = after
        match.play(word)


def caller_at_scarto(seed: int) -> Match:
    """A Calabresella at three whose caller is to discard."""
    for s in range(seed, seed + 200):
        match = osteria.new_match("calabresella", seats=3, seed=s)
        rng = random.Random(s)
        while match.decider is not None and not match.results:
            legal = match.legal_actions()
            if legal[0].startswith("scarto"):
                return match
            bids = [a for a in legal if a.startswith(("chiamo", "cedo"))]
            match.play(rng.choice(bids or legal))
    raise AssertionError("no scarto in 200 deals")


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**20), order=st.randoms(use_true_random=False))
def test_a_scarto_is_four_cards_of_the_hand_in_any_order(seed: int, order: random.Random) -> None:
    match = caller_at_scarto(seed)
    legal = match.legal_actions()
    space = StepActions(encoding("calabresella", 3))
    hand = match.observation(match.decider)["hand"]
    assert len(legal) == comb(len(hand), 4)
    allowed = lambda chosen: [space.words[i] for i in np.flatnonzero(space.mask(legal, chosen))]  # noqa: E731
    assert allowed([]) == ["scarto"]
    cards = order.sample(hand, 4)
    chosen = ["scarto"]
    for k, card in enumerate(cards):
        # Any card of the hand not yet chosen, never "done": a scarto is four cards.
        assert sorted(allowed(chosen)) == sorted(c for c in hand if c not in chosen)
        chosen, action = space.choose(legal, chosen, space.step_index(card))
        if k < 3:
            assert action is None and sorted(chosen[1:]) == sorted(cards[:k + 1])
    assert action is not None and action in legal and sorted(action.split()[1:]) == sorted(cards)
    assert chosen == []


def test_a_card_that_may_take_a_signal_waits_for_it_or_done() -> None:
    space = StepActions(encoding("tressette"))
    legal = ["3d", "3d busso", "3d volo", "Ac", "Ac busso"]
    chosen, action = space.choose(legal, [], space.step_index("3d"))
    assert (chosen, action) == (["3d"], None)
    assert {space.words[i] for i in np.flatnonzero(space.mask(legal, chosen))} == {"busso", "volo", DONE}
    assert space.choose(legal, chosen, space.step_index(DONE)) == ([], "3d")
    assert space.choose(legal, chosen, space.step_index("volo")) == ([], "3d volo")
    # A tris that may become a quadro: done, or its fourth card.
    legal = ["accuso 2d 2c 2s 2b", "accuso 2c 2s 2b", "accuso 2d 2s 2b", "Ad"]
    chosen = ["accuso", "2s", "2c", "2b"]
    assert {space.words[i] for i in np.flatnonzero(space.mask(legal, chosen))} == {"2d", DONE}
    assert space.choose(legal, chosen, space.step_index(DONE)) == ([], "accuso 2c 2s 2b")
    assert space.choose(legal, chosen, space.step_index("2d")) == ([], "accuso 2d 2c 2s 2b")
    assert space.choose(legal, ["accuso", "2b"], space.step_index("2s")) == (["accuso", "2s", "2b"], None)


def test_a_step_outside_the_mask_is_refused_saying_what_and_after_what() -> None:
    space = StepActions(encoding("tressette"))
    legal = ["3d", "accuso 2c 2s 2b"]
    with pytest.raises(ValueError, match=r"'Ad' \(step 0\) after 'accuso' leads to no legal action"):
        space.choose(legal, ["accuso"], space.step_index("Ad"))
    with pytest.raises(ValueError, match="'done'"):
        space.choose(legal, [], space.step_index(DONE))
    with pytest.raises(ValueError, match=r"outside the action space 0\.\.60"):
        space.choose(legal, [], 61)
    with pytest.raises(ValueError, match="no step"):
        space.step_index("scarto")
    with pytest.raises(ValueError, match=r"'Ad' \(step 0\) leads to no legal action"):
        WholeActions(encoding("tressette")).choose(legal, [], 0)
    with pytest.raises(RulesError, match="actions must be one of steps, whole, not 'cards'"):
        action_space(encoding("tressette"), "cards")


def test_the_choosing_block_shows_the_words_chosen_so_far() -> None:
    match = caller_at_scarto(1)
    seat = match.decider
    assert seat is not None
    space = StepActions(encoding("calabresella", 3))
    view = match.observation(seat)
    hand = view["hand"]
    before, after = space.observe(view), space.observe(view, ["scarto", hand[0], hand[5]])
    size = space.encoding.observation_size
    assert before.shape == after.shape == (space.observation_size,) == (size + space.size - 1,)
    assert np.array_equal(before[:size], after[:size]) and not before[size:].any()
    assert {space.words[i] for i in np.flatnonzero(after[size:])} == {"scarto", hand[0], hand[5]}
    assert (space.low <= after).all() and (after <= space.high).all()


def test_the_seat_choosing_sees_no_hidden_card_through_its_choice() -> None:
    # Another seat's hidden cards dealt anew: the vector, with the words chosen so far, is the same.
    match = caller_at_scarto(2)
    seat = match.decider
    assert seat is not None
    space = StepActions(encoding("calabresella", 3))
    view = match.observation(seat)
    chosen = ["scarto", view["hand"][3]]
    rng = random.Random(0)
    redealt = 0
    for _ in range(5):
        other = match.game.sample_deal(view, rng)
        assert np.array_equal(space.observe(view, chosen), space.observe({**view, **other.observation(seat)}, chosen))
        redealt += other.observation((seat + 1) % 3)["hand"] != match.observation((seat + 1) % 3)["hand"]
    assert redealt


def test_the_spellings_kept_stay_bounded_and_the_choice_right(monkeypatch: pytest.MonkeyPatch) -> None:
    # A scarto offers 1,820 discards: with room for 100 spellings the kept ones are dropped
    # as they fill, and the choice is still the words' own.
    monkeypatch.setattr(actions_module, "KEPT_SPELLINGS", 100)
    match = caller_at_scarto(3)
    deal, legal = match.deal, match.legal_actions()
    assert deal is not None and len(legal) == comb(16, 4)
    space = StepActions(encoding("calabresella", 3))
    choice = space.decision(deal)
    assert np.array_equal(choice.mask(), space.mask(legal, []))
    assert len(space._start_of_action) <= 100 and len(space._spellings) <= 100
    chosen: list[str] = []
    for word in ("scarto", *legal[7].split()[1:]):
        step = space.step_index(word)
        after = choice.choose(step, chosen)
        chosen, whole = space.choose(legal, chosen, step)
        if whole is not None:
            assert after == deal.parse_action(whole) and whole == legal[7]
            return
        assert isinstance(after, Choice)
        choice = after
    pytest.fail("the scarto was not whole after its four cards")


def spelled_choices(space: StepActions, deal: Deal, actions: list[int]) -> list[tuple[Spelling, int]]:
    return [(space.spelling(deal.action_str(a)), a) for a in actions]


def walk_alike(first: Choice, second: Choice, rng: random.Random, words: list[str]) -> int:
    """Walk two choices by the same random steps, allowed and refused, checking they agree at
    each; the action they end in."""
    chosen: list[str] = []
    while True:
        assert np.array_equal(first.mask(), second.mask()) and first.steps() == second.steps()
        assert first.actions() == second.actions()
        refused = next(i for i in rng.sample(range(len(words)), len(words)) if i not in first.steps())
        with pytest.raises(ValueError) as one:
            first.choose(refused, chosen)
        with pytest.raises(ValueError) as other:
            second.choose(refused, chosen)
        assert str(one.value) == str(other.value)
        step = rng.choice(first.steps())
        after, also = first.choose(step, chosen), second.choose(step, chosen)
        if not isinstance(after, Choice):
            assert after == also
            return after
        assert isinstance(also, Choice)
        first, second, chosen = after, also, [*chosen, words[step]]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**20), rng=st.randoms(use_true_random=False))
def test_a_scarto_chosen_by_its_set_walks_as_its_spellings_do(seed: int, rng: random.Random) -> None:
    # Every scarto of the hand is one set of four cards: the choice made on the sets gives the
    # masks, the refusals and the action that narrowing every spelling gives.
    match = caller_at_scarto(seed)
    deal = match.deal
    assert deal is not None
    space = StepActions(encoding("calabresella", 3))
    spellings = spelled_choices(space, deal, deal.legal())
    by_set = Choice.of(space, spellings)
    assert isinstance(by_set, CardSetChoice)
    spelled = SpelledChoice(space, [(s, a, 0, s[0]) for s, a in spellings], [])
    assert walk_alike(by_set, spelled, rng, space.words) in deal.legal()


def test_a_choice_lacking_some_sets_is_narrowed_on_its_spellings() -> None:
    # Leave one scarto out (as a rule forbidding some would): the sets no longer tell the
    # allowed cards, and the choice falls back to the spellings.
    match = caller_at_scarto(5)
    deal = match.deal
    assert deal is not None
    space = StepActions(encoding("calabresella", 3))
    spellings = spelled_choices(space, deal, deal.legal()[1:])
    choice = Choice.of(space, spellings)
    assert isinstance(choice, SpelledChoice)
    left_out = deal.action_str(deal.legal()[0]).split()[1:]
    after = choice.after(["scarto", *left_out[:3]])
    assert space.step_index(left_out[3]) not in after.steps(), "the scarto left out cannot be completed"


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**20), rng=st.randoms(use_true_random=False))
def test_a_decision_offered_by_card_sets_walks_as_its_spellings_do(seed: int, rng: random.Random) -> None:
    # The environments' scarto is never listed: the deal names the cards and how many, and the
    # choice on them gives the masks, the refusals, the reachable actions and the action that
    # narrowing every listed scarto's spelling gives.
    match = caller_at_scarto(seed)
    deal = match.deal
    assert deal is not None and deal.card_sets() is not None
    space = StepActions(encoding("calabresella", 3))
    offered = space.decision(deal)
    assert isinstance(offered, CardSetChoice)
    spellings = spelled_choices(space, deal, deal.legal())
    spelled = SpelledChoice(space, [(s, a, 0, s[0]) for s, a in spellings], [])
    assert walk_alike(offered, spelled, rng, space.words) in deal.legal()
    assert not space._start_of_action, "no scarto was spelled"


@pytest.mark.parametrize(("game", "seats"), SETUPS)
def test_a_deals_card_sets_are_its_legal_actions(game: str, seats: int) -> None:
    # Where a deal offers its decision as sets of cards, those sets are exactly its legal
    # actions, one each; everywhere else it offers none.
    offered = 0
    for seed in range(6):
        match = osteria.new_match(game, seats=seats, seed=seed)
        rng = random.Random(seed)
        deal = match.deal
        assert deal is not None
        while not deal.over:
            sets = deal.card_sets()
            if sets is not None:
                offered += 1
                cards = [1 << c for c in range(64) if sets.cards >> c & 1]
                actions = [sets.action(sum(chosen)) for chosen in combinations(cards, sets.size)]
                assert sorted(actions) == sorted(deal.legal()) and len(set(actions)) == len(actions)
                assert all(deal.action_str(a).split()[0] == sets.word for a in actions)
            legal = deal.legal()
            bids = [a for a in legal if deal.action_str(a).startswith(("chiamo", "cedo"))]
            match.apply(rng.choice(bids or legal))
    assert offered or game != "calabresella" or seats != 3, "no scarto was met"


@settings(max_examples=10, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32), rng=st.randoms(use_true_random=False))
def test_a_decision_of_one_step_actions_walks_as_its_spellings_do(variant: tuple[str, int, dict], seed: int,
                                                                    rng: random.Random) -> None:
    # Where every legal action is one step (a card), the step names the action: the masks, the
    # refusals and the actions are those of narrowing the spellings.
    game, seats, options = variant
    space = StepActions(encoding(game, seats, **options))
    match = osteria.new_match(game, seats=seats, seed=seed, **options)
    walked = 0
    while match.decider is not None and not match.results:
        deal = match.deal
        assert deal is not None
        legal = deal.legal()
        choice = space.decision(deal)
        if isinstance(choice, OneStepChoice):
            spellings = spelled_choices(space, deal, legal)
            spelled = SpelledChoice(space, [(s, a, 0, s[0]) for s, a in spellings], [])
            assert walk_alike(choice, spelled, rng, space.words) in legal
            walked += 1
        else:
            spellings = [space.spelling(deal.action_str(a)) for a in legal]
            assert any(len(s) > 1 or len(s[0]) > 1 for s in spellings), "a decision of one-step actions"
        bids = [a for a in legal if deal.action_str(a).startswith(("chiamo", "cedo"))]
        match.apply(rng.choice(bids or legal))
    assert walked
