"""The fixed-size encoding: sizes, action indices, masks, and that a tensor shows no hidden card."""

from __future__ import annotations

import random
import subprocess
import sys
from itertools import combinations
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import osteria
from osteria.cards import CARD_STRINGS, ITALIAN_40
from osteria.engine import Match, RulesError
from osteria.envs.encoding import encoding
from osteria.rules import GAMES

from helpers import play_random_action

SETUPS = [(game, seats) for game, cls in GAMES.items() for seats in cls.seat_counts]


def random_match(game: str, seats: int, seed: int, actions: int, **options: object) -> Match:
    """A match whose first deal has gone ``actions`` random actions on (or has ended)."""
    match = osteria.new_match(game, seats=seats, seed=seed, **options)
    rng = random.Random(seed)
    deal = match.deal
    assert deal is not None
    while not deal.over and len(deal.history) < actions:
        play_random_action(match, rng)
    return match


@pytest.mark.parametrize(("game", "seats"), SETUPS)
def test_every_action_of_random_play_has_a_fixed_index_and_comes_back(game: str, seats: int) -> None:
    enc = encoding(game, seats)
    match = osteria.new_match(game, seats=seats, seed=7)
    rng = random.Random(7)
    for _ in range(150):
        if match.finished:
            break
        if match.deal_due:
            match.begin_deal()
        legal = match.legal_actions()
        indices = [enc.action_index(word) for word in legal]
        assert len(set(indices)) == len(legal)
        assert all(0 <= i < enc.action_size for i in indices)
        assert [enc.action_word(i) for i in indices] == legal
        mask = enc.mask(legal)
        assert mask.dtype == np.int8 and mask.shape == (enc.action_size,)
        assert sorted(np.flatnonzero(mask)) == sorted(indices)
        match.play(rng.choice(legal))


@pytest.mark.parametrize(("game", "seats"), SETUPS)
def test_observation_vectors_have_the_fixed_size_and_stay_in_bounds(game: str, seats: int) -> None:
    enc = encoding(game, seats)
    assert enc.game == game and enc.seats == seats
    end = 0
    for _, offset, shape, _ in enc.layout():
        assert offset == end
        end += int(np.prod(shape))
    assert end == enc.observation_size
    match = osteria.new_match(game, seats=seats, seed=3)
    rng = random.Random(3)
    for _ in range(60):
        if match.finished:
            break
        for seat in range(seats):
            vector = enc.observe(match.observation(seat))
            assert vector.dtype == np.float32 and vector.shape == (enc.observation_size,)
            assert (vector >= enc.low).all() and (vector <= enc.high).all()
        play_random_action(match, rng)


def test_the_action_space_is_the_same_whatever_the_options() -> None:
    assert encoding("tressette").words == encoding("tressette", segni="muto", morto=[2]).words
    assert encoding("calabresella", 4).action_size == encoding("calabresella", 5).action_size
    # At three the caller discards: every four cards of the deck have an index of their own.
    assert encoding("calabresella", 3).action_size == encoding("calabresella", 4).action_size + comb(40, 4)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(ITALIAN_40.cards), min_size=4, max_size=4, unique=True))
def test_every_discard_of_four_cards_round_trips(cards: list[int]) -> None:
    enc = encoding("calabresella", 3)
    word = "scarto " + " ".join(CARD_STRINGS[c] for c in sorted(cards))
    index = enc.action_index(word)
    assert enc.action_index("scarto " + " ".join(CARD_STRINGS[c] for c in reversed(cards))) == index
    assert enc.action_word(index) == word


def test_discard_indices_fill_their_range_exactly() -> None:
    enc = encoding("calabresella", 3)
    spades = [c for c in ITALIAN_40.cards if CARD_STRINGS[c][1] in "sb"]
    indices = {enc.action_index("scarto " + " ".join(CARD_STRINGS[c] for c in four))
               for four in combinations(spades, 4)}
    assert len(indices) == comb(20, 4)
    assert enc.action_word(enc.action_size - 1) == "scarto 7b Fb Cb Rb"


@pytest.mark.parametrize("bad", ["9d", "scarto Ad 2d 3d", "scarto Ad Ad 2d 3d", "gioco", "accuso Ad"])
def test_unknown_action_words_and_indices_are_refused(bad: str) -> None:
    enc = encoding("calabresella", 3)
    with pytest.raises(ValueError, match="not an action of calabresella"):
        enc.action_index(bad)
    with pytest.raises(ValueError, match="outside"):
        enc.action_word(enc.action_size)


def test_bad_games_seats_and_options_are_refused() -> None:
    with pytest.raises(RulesError, match="unknown game"):
        encoding("scopa")
    with pytest.raises(RulesError, match="played by"):
        encoding("tressette", 3)
    with pytest.raises(RulesError, match="segni"):
        encoding("tressette", segni="est")


def test_the_blocks_say_what_the_seat_sees() -> None:
    enc = encoding("traversone", 4)
    match = osteria.new_match("traversone", seats=4, seed=11, dealer=3)
    first = match.decider
    assert first is not None
    led = match.legal_actions()[0]
    match.play(led)
    # Seen from the next seat, the card led lies in the trick slot of the seat before it (3).
    seat = (first + 1) % 4
    vector = enc.observe(match.observation(seat))
    o, d = enc.offsets, enc.deck_size
    assert vector[o["trick"] + 3 * d + enc.card_index[led]] == 1
    assert vector[o["played"] + 3 * d + enc.card_index[led]] == 1
    assert vector[o["to_move"]] == 1
    assert vector[o["trick_leader"] + 3] == 1
    hand = match.observation(seat)["hand"]
    assert [w for w, i in enc.card_index.items() if vector[o["hand"] + i]] == hand


@pytest.mark.parametrize(("game", "seats", "options"), [(game, seats, {}) for game, seats in SETUPS] + [
    ("tressette", 4, {"morto": [2], "segni": "sud", "faliante": False}), ("sancagna", 4, {"a_mente": True}),
    ("quattrigghiu", 4, {"aiuto_volontario": True})])
def test_another_seats_hidden_cards_never_change_a_seats_tensor(game: str, seats: int, options: dict) -> None:
    enc = encoding(game, seats, **options)
    rng = random.Random(5)
    redealt_hands = 0
    for seed in range(4):
        match = random_match(game, seats, seed, actions=4 + 6 * seed, **options)
        deal = match.deals[0].deal
        if deal.over:
            continue
        for seat in range(seats):
            observation = match.observation(seat)
            # The same deal with every card the seat cannot see dealt anew, consistently with
            # all it knows (the game's own sampler), seen from the same seat.
            other = match.game.sample_deal(observation, rng)
            assert np.array_equal(enc.observe(observation), enc.observe({**observation, **other.observation(seat)}))
            redealt_hands += any(other.observation(s)["hand"] != deal.observation(s)["hand"]
                                 for s in range(seats) if s != seat)
    assert redealt_hands, "the hidden cards were never dealt differently: the test would show nothing"


@pytest.mark.parametrize(("game", "seats"), [("tressette", 4), ("calabresella", 3), ("sancagna", 4)])
def test_a_seats_own_cards_do_change_its_tensor(game: str, seats: int) -> None:
    enc = encoding(game, seats)
    a, b = (osteria.new_match(game, seats=seats, seed=s, dealer=0) for s in (1, 2))
    assert a.observation(1)["hand"] != b.observation(1)["hand"]
    assert not np.array_equal(enc.observe(a.observation(1)), enc.observe(b.observation(1)))


def test_importing_osteria_imports_no_numerical_library() -> None:
    code = "import sys, osteria, osteria.bots, osteria.arena; print(sorted({'numpy', 'pettingzoo', 'pyspiel', " \
           "'gymnasium'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
