"""The Gymnasium environment: one learning seat against osteria bots."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from osteria.engine import RulesError
from osteria.envs.actions import DONE
from osteria.envs.encoding import encoding
from osteria.envs.gym import OsteriaGymEnv, env_id
from osteria.rules import GAMES

from env_helpers import observe_seat

SETUPS = [(game, seats) for game, cls in GAMES.items() for seats in cls.seat_counts]


@pytest.mark.parametrize(("game", "seats"), SETUPS)
def test_gymnasiums_env_checker_passes(game: str, seats: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning of the checker fails the test too
        warnings.filterwarnings("ignore", message=".*render.*")
        check_env(OsteriaGymEnv(game, seats, seat=seats - 1, opponents="random"), skip_render_check=True)


def play(env: OsteriaGymEnv, seed: int) -> tuple[float, list[int]]:
    """Random legal steps of the learner to the end of the episode: its reward and steps."""
    observation, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps, done = 0.0, [], False
    while not done:
        step = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        steps.append(step)
        observation, reward, done, truncated, info = env.step(step)
        assert not truncated and not info
        total += float(reward)
    return total, steps


@pytest.mark.parametrize(("game", "opponents"), [("tressette", "facile"), ("traversone", "medio"),
                                                 ("quattrigghiu", "heuristic"), ("calabresella", "random")])
def test_the_learner_gets_its_own_deal_delta_against_the_bots(game: str, opponents: str) -> None:
    env = OsteriaGymEnv(game, seat=1, opponents=opponents)
    observation, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    total, spelled, words, done = 0.0, [], [], False
    while not done:
        step = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, done, _, _ = env.step(step)
        total += float(reward)
        words += [env.actions.step_word(step)] if env.actions.step_word(step) != DONE else []
        if not env.chosen:  # an action spelled whole
            spelled.append(sorted(words))
            words = []
    assert env.match is not None and len(env.match.results) == 1
    sign = -1 if GAMES[game].lower_wins else 1
    assert total == sign * env.match.results[0].delta[1]
    # The learner's steps spell exactly seat 1's actions; the bots played every other seat.
    deal = env.match.deals[0].deal
    assert spelled == [sorted(deal.action_str(a).split()) for s, a in deal.history if s == 1]


@pytest.mark.parametrize(("game", "seats"), SETUPS)
@pytest.mark.parametrize("actions", ["steps", "whole"])
def test_every_observation_is_what_the_learners_own_observation_encodes(game: str, seats: int, actions: str) -> None:
    if actions == "whole" and game == "calabresella" and seats == 3:
        pytest.skip("the whole scarto space is 91,390 actions: the steps cover the same words")
    env = OsteriaGymEnv(game, seats, seat=seats - 1, opponents="random", actions=actions, episode="match")
    observation, _ = env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(150):
        assert env.match is not None
        expected = observe_seat(env.actions, env.match, env.seat, env.chosen)
        assert np.array_equal(expected["observation"], observation["observation"])
        assert np.array_equal(expected["action_mask"], observation["action_mask"])
        observation, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        if done:
            break


def test_the_learner_may_play_whole_actions() -> None:
    env = OsteriaGymEnv("tressette", seat=1, opponents="random", actions="whole")
    assert env.action_space.n == encoding("tressette").action_size
    _, actions = play(env, 3)
    assert env.match is not None
    deal = env.match.deals[0].deal
    assert [env.encoding.action_word(a) for a in actions] == [deal.action_str(a) for s, a in deal.history if s == 1]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(OsteriaGymEnv("calabresella", 3, opponents="random", actions="whole"), skip_render_check=True)


def test_the_margin_reward_is_the_learners_points_less_the_other_sides() -> None:
    points = OsteriaGymEnv("tressette", seat=1, opponents="random")
    margin = OsteriaGymEnv("tressette", seat=1, opponents="random", reward="margin")
    raw, _ = play(points, 11)
    total, _ = play(margin, 11)
    assert margin.match is not None
    delta = margin.match.results[0].delta
    assert raw == delta[1] and total == delta[1] - delta[0]


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
    assert f"{env.actions.step_word(illegal)!r} (step {illegal}) leads to no legal action" in info["illegal_action"]


def test_bad_settings_are_refused() -> None:
    with pytest.raises(RulesError, match="seat must be"):
        OsteriaGymEnv("tressette", seat=4)
    with pytest.raises(RulesError, match="dummy"):
        OsteriaGymEnv("tressette", seat=2, morto=[2])
    with pytest.raises(ValueError, match="unknown bot"):
        OsteriaGymEnv("tressette", opponents="genius")


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_is_registered_for_gymnasium_make(game: str) -> None:
    made = gymnasium.make(env_id(game), opponents="random", render_mode="ansi")
    assert isinstance(made.unwrapped, OsteriaGymEnv) and made.unwrapped.rules.name == game
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(made.unwrapped)  # the render check included
    observation, _ = made.reset(seed=0)
    assert observation["action_mask"].any()
    assert isinstance(made.render(), str)


def test_make_passes_seats_and_options() -> None:
    made = gymnasium.make("osteria/Traversone-v0", seats=5, opponents="random", asso_bastoni=11)
    assert made.unwrapped.rules.seats == 5 and made.unwrapped.rules.options["asso_bastoni"] == 11


def test_human_rendering_prints_what_the_learner_sees(capsys: pytest.CaptureFixture[str]) -> None:
    env = OsteriaGymEnv("tressette", seat=1, opponents="random", render_mode="human")
    observation, _ = env.reset(seed=4)
    assert env.render() is None
    hand = env.match.observation(1)["hand"] if env.match else []
    assert capsys.readouterr().out.count(f"seat_1: hand {' '.join(hand)}") == 2  # on reset and on render
    env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert "seat_1: hand" in capsys.readouterr().out
    with pytest.raises(RulesError, match="render_mode"):
        OsteriaGymEnv("tressette", render_mode="rgb_array")


def test_a_terminal_observation_carries_the_next_episodes_mask() -> None:
    env = OsteriaGymEnv("quattrigghiu", seat=2, opponents="random")
    observation, _ = env.reset(seed=8)
    rng = np.random.default_rng(8)
    for _ in range(3):
        done = False
        while not done:
            observation, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        mask = observation["action_mask"]
        assert mask.any()
        observation, _ = env.reset()
        assert (observation["action_mask"] == mask).all()


def test_the_episode_dealt_at_the_end_is_the_one_reset_would_deal() -> None:
    played, skipped = OsteriaGymEnv("sancagna", opponents="random"), OsteriaGymEnv("sancagna", opponents="random")
    play(played, 6)
    skipped.reset(seed=6)
    for env in (played, skipped):
        env.reset()
    assert played.match is not None and skipped.match is not None
    assert played.match.record() == skipped.match.record()
    # A seed deals anew, whatever was dealt at the end of the last episode.
    fresh = OsteriaGymEnv("sancagna", opponents="random")
    for env in (played, fresh):
        env.reset(seed=6)
    assert played.match.record() == fresh.match.record()


@pytest.mark.parametrize("mode", [gymnasium.vector.AutoresetMode.NEXT_STEP, gymnasium.vector.AutoresetMode.SAME_STEP])
def test_vector_env_autoreset_acts_on_valid_masks(mode: gymnasium.vector.AutoresetMode) -> None:
    envs = gymnasium.vector.SyncVectorEnv(
        [lambda: OsteriaGymEnv("traversone", seat=0, opponents="random") for _ in range(3)],
        autoreset_mode=mode)
    observations, _ = envs.reset(seed=1)
    rng = np.random.default_rng(1)
    ends = 0
    for _ in range(60):
        masks = observations["action_mask"]
        assert masks.any(axis=1).all(), "a row with no legal action"
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        observations, _, terminated, _, _ = envs.step(actions)
        ends += int(terminated.sum())
    assert ends >= 3
