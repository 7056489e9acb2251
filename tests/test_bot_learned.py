"""The learned Tressette player: it reads what the batched engine's network was trained on, plays
only legal actions from its own observation, and its shipped weights play well."""

from __future__ import annotations

import random

import numpy as np
import pytest

import osteria
from osteria.arena import Config, run
from osteria.bots import RandomBot, make_bot
from osteria.bots.learned import WEIGHTS, DmcTressette, observation_vector
from osteria.cli import main
from osteria.envs.batched import BatchedTressette

from helpers import match_with, play_checked


def test_its_observation_is_the_batched_engines_at_every_card() -> None:
    # The same deal in the batched engine and in a match: the vector rebuilt from the seat's
    # observation is the one the network was trained on.
    for seed in range(4):
        env = BatchedTressette(1, outside=(0, 1, 2, 3), seed=seed)
        hands = [env.cards_of(env.hands[0, s]) for s in range(4)]
        match = match_with("tressette", hands)
        rng = random.Random(seed)
        for _ in range(env.cards):
            seat = match.decider
            assert seat == int(env.to_move[0])
            assert np.array_equal(observation_vector(match.observation(seat)), env.observation[0])
            position = rng.choice(np.flatnonzero(env.legal_mask[0]).tolist())
            match.play(env.card_name(position))
            env.step(np.array([position]))
        assert match.results


def test_it_plays_only_legal_actions_with_the_accusi_and_the_signals() -> None:
    for seed in range(3):
        for options in ({}, {"segni": "sud"}, {"morto": [1]}):
            match = osteria.new_match("tressette", seed=seed, target=21, **options)
            play_checked(match, {seat: DmcTressette() if seat % 2 == 0 else RandomBot(seed) for seat in range(4)})


def test_the_shipped_weights_beat_random_play() -> None:
    assert WEIGHTS.exists()
    report = run(Config("tressette", ("dmc", "random"), 40, seed=2026))
    assert report.advantages()[0].low > 0


def test_it_plays_tressette_alone(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match="dmc plays tressette"):
        make_bot("dmc", game="sancagna")
    assert main(["arena", "sancagna", "--players", "dmc,random", "--deals", "2"]) == 1
    assert "dmc plays tressette" in capsys.readouterr().err
