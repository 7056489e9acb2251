"""The live encoding gives, bit for bit, the vector of the seat's JSON observation, at every
step of random matches of every game; and the PettingZoo environment built on it shows what it
showed when it encoded the JSON observation, mask and chosen words included."""

from __future__ import annotations

import random

import numpy as np
import pytest

from osteria.engine import JSON, Match
from osteria.envs.encoding import Encoding, encoding
from osteria.envs.live import LiveEncoding
from osteria.envs.pettingzoo import OsteriaEnv

from env_helpers import observe_seat

# Each game, with the options that change what a seat sees (a dummy, hidden faliante, a
# tally kept in mind), at each number of seats the encoding knows.
SETUPS: list[tuple[str, int | None, dict[str, JSON]]] = [
    ("tressette", 4, {}),
    ("tressette", 4, {"morto": [3]}),
    ("tressette", 4, {"faliante": False}),
    ("traversone", 4, {}),
    ("traversone", 5, {}),
    ("sancagna", 4, {}),
    ("sancagna", 4, {"a_mente": True}),
    ("quattrigghiu", 4, {}),
    ("calabresella", 3, {}),
    ("calabresella", 4, {}),
    ("calabresella", 5, {}),
]



def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype and bool(np.array_equal(a.view(np.uint32), b.view(np.uint32)))


def random_matches(enc: Encoding, matches: int, deals: int, seed: int):  # type: ignore[no-untyped-def]
    """Every moment of random matches: the match, after each action and once each deal is over."""
    for k in range(matches):
        match = Match(enc.rules, seed=seed + k)
        rng = random.Random(seed + k)
        for _ in range(deals):
            if match.finished:
                break
            deal = match.begin_deal()
            yield match
            while not deal.over:
                match.apply(rng.choice(deal.legal()))
                yield match


def differences(enc: Encoding, expected: np.ndarray, got: np.ndarray) -> list[str]:
    blocks = enc.layout()
    wrong = np.flatnonzero(expected != got)
    return [f"{next(name for name, start, *_ in reversed(blocks) if start <= i)}[{i}]: {expected[i]} != {got[i]}"
            for i in wrong[:5]]


@pytest.mark.parametrize(("game", "seats", "options"), SETUPS)
def test_the_live_vector_is_the_observations_vector_bit_for_bit(game: str, seats: int | None,
                                                                  options: dict[str, JSON]) -> None:
    enc = encoding(game, seats, **options)
    live = LiveEncoding(enc)
    shown = np.zeros(enc.observation_size, bool)  # every place some vector set, to see what was covered
    last: Match | None = None
    for match in random_matches(enc, matches=6, deals=3, seed=11):
        if match is not last:
            live.follow(match)
            last = match
        for seat in range(enc.seats):
            expected = enc.observe(match.observation(seat))
            got = live.vector(seat)
            assert same_bits(expected, got), (game, options, seat, differences(enc, expected, got))
            shown |= expected != 0
    # The blocks that only some moments set were met (a live filler untried there would pass).
    for name in {"tressette": ("accusi", "signals", "last_trick_winner"),
                 "sancagna": ("cenni", "calling", "last_trick_winner"),
                 "quattrigghiu": ("caller", "aiuto", "called_card"),
                 "calabresella": ("caller", "called", "signals")}.get(game, ("played", "trick")):
        start = enc.offsets[name]
        assert shown[start:start + next(b.size for b in enc.blocks if b.name == name)].any(), name


def test_a_history_the_seat_forgets_leaves_the_live_vector_too() -> None:
    # Quattrigghiu: after the sixth basi the first six are gone from every seat's memory.
    enc = encoding("quattrigghiu")
    live = LiveEncoding(enc)
    forgotten = 0
    last: Match | None = None
    for match in random_matches(enc, matches=4, deals=1, seed=3):
        if match is not last:
            live.follow(match)
            last = match
        deal = match.deal
        assert deal is not None
        if len(deal.tricks) == 6 and not deal.trick:
            forgotten += 1
            got = live.vector(0)
            assert same_bits(enc.observe(match.observation(0)), got)
            start = enc.offsets["played"]
            assert not got[start:start + enc.seats * enc.deck_size].any()
    assert forgotten


def test_the_vector_handed_out_is_the_callers_own() -> None:
    enc = encoding("tressette")
    match = Match(enc.rules, seed=5)
    match.begin_deal()
    live = LiveEncoding(enc, match)
    first = live.vector(1)
    first[:] = 7
    assert same_bits(live.vector(1), enc.observe(match.observation(1)))


@pytest.mark.parametrize(("game", "seats", "options"), SETUPS)
@pytest.mark.parametrize("actions", ["steps", "whole"])
def test_the_environment_shows_what_the_observation_encodes(game: str, seats: int | None,
                                                            options: dict[str, JSON], actions: str) -> None:
    if actions == "whole" and game == "calabresella" and seats == 3:
        pytest.skip("the whole scarto space is 91,390 actions: the steps cover the same words")
    env = OsteriaEnv(game, seats, actions=actions, episode="match", **options)
    rng = random.Random(7)
    for episode in range(2):
        env.reset(seed=episode)
        for step, agent in enumerate(env.agent_iter(max_iter=400)):
            assert env.match is not None
            for other in env.possible_agents:
                chosen = env.chosen if other == env.agent_selection else []
                expected = observe_seat(env.actions, env.match, env.possible_agents.index(other), chosen)
                got = env.observe(other)
                assert same_bits(expected["observation"], got["observation"]), (game, step, other)
                assert np.array_equal(expected["action_mask"], got["action_mask"]), (game, step, other)
                assert got["action_mask"].dtype == np.int8
            _, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
            else:
                allowed = np.flatnonzero(env.observe(agent)["action_mask"])
                env.step(int(rng.choice(allowed)))
