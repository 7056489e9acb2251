"""Tressette's properties over thousands of random matches: every deal gives out eleven points, and
a three of a kind declared without its faliante hides its cards. What every game owes the engine
(matches end and replay, cards conserved and hidden) is checked in test_conformance.py."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import osteria
from osteria.cards import shuffle

from helpers import play_random_action, play_randomly

SEEDS = st.integers(min_value=0, max_value=2**64)


@settings(max_examples=1000, deadline=None)
@given(seed=SEEDS, target=st.sampled_from([21, 31, 41]), segni=st.sampled_from(["nord", "sud", "muto"]))
def test_tressette_matches_end_and_every_deal_gives_eleven(seed: int, target: int, segni: str) -> None:
    match = osteria.new_match("tressette", seed=seed, target=target, segni=segni)
    play_randomly(match, random.Random(seed))
    for r in match.results:
        assert sum(r.points) == 11
        assert r.delta[0] == r.delta[2] and r.delta[1] == r.delta[3]
        assert r.delta[0] >= r.points[0] and r.delta[1] >= r.points[1]
    assert max(match.totals()) >= target


@settings(max_examples=300, deadline=None)
@given(seed=SEEDS, morto=st.sampled_from([[], [2], [1], [2, 3]]))
def test_tressette_without_the_faliante_a_three_of_a_kind_shows_others_its_rank_alone(
        seed: int, morto: list[int]) -> None:
    rng = random.Random(seed)
    match = osteria.new_match("tressette", seed=seed, faliante=False, morto=morto)
    for _ in range(rng.randrange(1, 120)):
        if match.finished:
            break
        play_random_action(match, rng)
    for seat in range(4):
        obs = match.observation(seat)
        for s, declared in obs["accusi"]:
            shown = declared.split()[1:]
            if s != seat:  # a three of a kind shows its rank, never its cards
                assert not (len(shown) == 3 and len({c[0] for c in shown}) == 1), declared


@settings(max_examples=500, deadline=None)
@given(seed=st.integers(0, 2**64), size=st.integers(0, 52))
def test_the_engines_shuffle_draws_what_pythons_shuffle_draws(seed: int, size: int) -> None:
    # Every seed deals what it dealt when the deck was shuffled by random.shuffle itself.
    ours, theirs = random.Random(seed), random.Random(seed)
    cards, expected = list(range(size)), list(range(size))
    shuffle(ours, cards)
    theirs.shuffle(expected)
    assert cards == expected and ours.getstate() == theirs.getstate()
