"""Properties over thousands of random matches of every game: they end, they replay, they score."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import osteria
from osteria.cards import CARD_STRINGS, ITALIAN_40
from osteria.rules.tressette import SIGNAL_STRIDE

from helpers import play_random_action, play_randomly

SEEDS = st.integers(min_value=0, max_value=2**64)


@pytest.mark.parametrize("game", osteria.games())
@settings(max_examples=150, deadline=None)
@given(seed=SEEDS)
def test_every_match_ends_replays_and_its_totals_add_up(game: str, seed: int) -> None:
    match = osteria.new_match(game, seed=seed)
    play_randomly(match, random.Random(seed))
    result = match.result()
    assert result["finished"] and result["winners"]
    assert result["totals"] == [sum(d["delta"][s] for d in result["deals"]) for s in range(len(result["totals"]))]
    record = json.loads(json.dumps(match.record()))  # a record survives JSON
    replayed = osteria.replay(record)
    assert replayed.result() == result
    assert replayed.record() == record


@pytest.mark.parametrize("game", osteria.games())
def test_a_record_of_a_match_in_progress_replays_to_the_same_position(game: str) -> None:
    rng = random.Random(5)
    match = osteria.new_match(game, seed=5)
    for _ in range(rng.randrange(30, 90)):
        play_random_action(match, rng)
    replayed = osteria.replay(match.record())
    assert replayed.to_move == match.to_move
    assert replayed.legal_actions() == match.legal_actions()
    assert all(replayed.observation(s) == match.observation(s) for s in range(len(match.players)))


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
@given(seed=SEEDS, faliante=st.booleans(), morto=st.sampled_from([[], [2], [1], [2, 3]]))
def test_tressette_cards_are_conserved_and_no_observation_reveals_a_hidden_card(
        seed: int, faliante: bool, morto: list[int]) -> None:
    rng = random.Random(seed)
    match = osteria.new_match("tressette", seed=seed, faliante=faliante, morto=morto)
    for _ in range(rng.randrange(1, 120)):
        if match.finished:
            break
        play_random_action(match, rng)
    deal = match.deal
    assert deal is not None
    played = [a % SIGNAL_STRIDE for _, a in deal.history if a < 2048]
    held = [c for h in deal.hands for c in ITALIAN_40.cards if h >> c & 1]  # type: ignore[attr-defined]
    assert sorted(played + held) == sorted(ITALIAN_40.cards)  # none lost, none twice
    for seat in range(4):
        obs = match.observation(seat)
        known = set(obs["hand"]) | set(obs["played"])
        for s in morto:
            known |= set(obs["hands"][s])
        for _, declared in obs["accusi"]:
            known |= set(declared.split()[1:])  # what an accuso shows is known to all
        words = set(json.dumps(obs).replace('"', " ").replace(",", " ").replace("[", " ").replace("]", " ").split())
        assert words & set(CARD_STRINGS) <= known, f"seat {seat} sees {sorted((words & set(CARD_STRINGS)) - known)}"
        if not faliante:
            for s, declared in obs["accusi"]:
                shown = declared.split()[1:]
                if s != seat:  # a three of a kind shows its rank, never its cards
                    assert not (len(shown) == 3 and len({c[0] for c in shown}) == 1), declared
