"""The Gymnasium environment: one learning seat against osteria bots."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from osteria.engine import RulesError
from osteria.envs.gym import OsteriaGymEnv
from osteria.rules import GAMES

SETUPS = [(game, seats) for game, cls in GAMES.items() for seats in cls.seat_counts]


@pytest.mark.parametrize(("game", "seats"), SETUPS)
def test_gymnasiums_env_checker_passes(game: str, seats: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning of the checker fails the test too
        warnings.filterwarnings("ignore", message=".*render.*")
        check_env(OsteriaGymEnv(game, seats, seat=seats - 1, opponents="random"), skip_render_check=True)


def play(env: OsteriaGymEnv, seed: int) -> tuple[float, list[int]]:
    """Random legal actions of the learner to the end of the episode: its reward and actions."""
    observation, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, actions, done = 0.0, [], False
    while not done:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        actions.append(action)
        observation, reward, done, truncated, info = env.step(action)
        assert not truncated and not info
        total += float(reward)
    return total, actions


@pytest.mark.parametrize(("game", "opponents"), [("tressette", "facile"), ("traversone", "medio"),
                                                 ("quattrigghiu", "heuristic"), ("calabresella", "random")])
def test_the_learner_gets_its_own_deal_delta_against_the_bots(game: str, opponents: str) -> None:
    env = OsteriaGymEnv(game, seat=1, opponents=opponents)
    total, actions = play(env, 3)
    assert env.match is not None and len(env.match.results) == 1
    sign = -1 if GAMES[game].lower_wins else 1
    assert total == sign * env.match.results[0].delta[1]
    # The learner's actions are exactly seat 1's; the bots played every other seat.
    deal = env.match.deals[0].deal
    assert [env.encoding.action_word(a) for a in actions] == [deal.action_str(a) for s, a in deal.history if s == 1]


def test_a_seed_fixes_the_episode() -> None:
    a, b = OsteriaGymEnv("sancagna", opponents="facile"), OsteriaGymEnv("sancagna", opponents="facile")
    assert play(a, 9) == play(b, 9)
    assert a.match is not None and b.match is not None and a.match.record() == b.match.record()


def test_a_whole_match_episode_sums_the_deals() -> None:
    env = OsteriaGymEnv("sancagna", opponents="random", episode="match", target=1)
    total, _ = play(env, 5)
    assert env.match is not None and env.match.finished
    assert total == env.match.totals()[0]


def test_an_action_outside_the_mask_ends_the_episode_with_the_penalty() -> None:
    env = OsteriaGymEnv("traversone", opponents="random", illegal_reward=-3.0)
    observation, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated) == (-3.0, True)
    assert info["illegal_action"] == env.encoding.action_word(illegal)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(RulesError, match="seat must be"):
        OsteriaGymEnv("tressette", seat=4)
    with pytest.raises(RulesError, match="dummy"):
        OsteriaGymEnv("tressette", seat=2, morto=[2])
    with pytest.raises(ValueError, match="unknown bot"):
        OsteriaGymEnv("tressette", opponents="genius")
