"""The batched engine as a Gymnasium VectorEnv and as a PettingZoo-style batched environment."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("gymnasium")

from gymnasium.wrappers.vector import RecordEpisodeStatistics

from osteria.engine import RulesError
from osteria.envs.batched_envs import BatchedTressetteAEC, TressetteVectorEnv


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.argmax(rng.random(mask.shape) * mask, axis=1)


def test_the_vector_env_keeps_to_its_spaces_and_rewards_the_learner_at_each_deals_end() -> None:
    envs = TressetteVectorEnv(16, seat=1, opponents="rule", reward="margin")
    assert envs.metadata["autoreset_mode"].name == "SAME_STEP"
    observations, infos = envs.reset(seed=3)
    assert envs.observation_space.contains(observations) and infos == {}
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(40):
        actions = random_actions(observations["action_mask"], rng)
        assert envs.action_space.contains(actions)
        observations, rewards, terminations, truncations, infos = envs.step(actions)
        assert envs.observation_space.contains(observations)
        assert not truncations.any() and "illegal_action" not in infos
        assert (rewards[~terminations] == 0).all()
        assert (np.abs(rewards[terminations]) % 2 == 1).all()  # margins of 11 points: odd
        assert (rewards == envs.engine.rewards[:, 1]).all()
        ended += int(terminations.sum())
        # same-step autoreset: the next deal's mask is already there, never empty
        assert observations["action_mask"].any(axis=1).all()
        assert (envs.engine.to_move == 1).all()
    assert ended >= 16 * 3


def test_a_seed_fixes_the_vector_envs_deals() -> None:
    a, b = TressetteVectorEnv(8), TressetteVectorEnv(8)
    oa, _ = a.reset(seed=12)
    first = oa["observation"].copy()
    ob, _ = b.reset(seed=12)
    assert (first == ob["observation"]).all()
    oa, _ = a.reset(seed=13)
    assert not (first == oa["observation"]).all()
    with pytest.raises(ValueError, match="seed: one whole number for all the deals"):
        a.reset(seed=[1, 2])


def test_an_action_outside_the_mask_ends_that_deal_with_the_penalty() -> None:
    envs = TressetteVectorEnv(4, illegal_reward=-3.0)
    observations, _ = envs.reset(seed=1)
    actions = np.argmax(observations["action_mask"], axis=1)
    actions[0] = int(np.flatnonzero(observations["action_mask"][0] == 0)[0])
    _, rewards, terminations, _, infos = envs.step(actions)
    assert rewards[0] == -3.0 and terminations[0]
    assert list(infos["illegal_action"]) == [True, False, False, False]


def test_gymnasiums_episode_statistics_wrapper_counts_the_deals() -> None:
    envs = RecordEpisodeStatistics(TressetteVectorEnv(4, opponents="random"))
    observations, _ = envs.reset(seed=2)
    rng = np.random.default_rng(2)
    episodes = []
    for _ in range(30):
        observations, _, _, _, infos = envs.step(random_actions(observations["action_mask"], rng))
        if "episode" in infos:
            episodes += list(infos["episode"]["l"][infos["_episode"]])
    assert episodes and set(episodes) == {10}  # a deal is the learner's ten cards


def test_a_bad_seat_is_refused() -> None:
    with pytest.raises(RulesError, match="seat must be from 0 to 3, not 4"):
        TressetteVectorEnv(2, seat=4)


def test_the_batched_aec_steps_each_deals_selected_agent_and_rewards_every_seat() -> None:
    env = BatchedTressetteAEC(32, seed=7)
    assert env.agents == ["seat_0", "seat_1", "seat_2", "seat_3"]
    assert env.action_space("seat_2").n == 40
    assert env.observation_space("seat_0")["observation"].shape == (367,)
    with pytest.raises(ValueError, match="'seat_4' is no agent"):
        env.action_space("seat_4")
    rng = np.random.default_rng(7)
    totals = np.zeros(4)
    for _ in range(120):
        observation = env.observe()
        before = env.agent_selection.copy()
        actions = random_actions(observation["action_mask"], rng)
        env.step(actions)
        _, rewards, terminations, truncations, _ = env.last()
        assert not truncations.any()
        # the next seat in turn, unless the trick or the deal ended
        moved_on = env.agent_selection == (before + 1) % 4
        assert moved_on.sum() > 0
        totals += rewards.sum(axis=0)
        assert (rewards[terminations].sum(axis=1) == 22).all()  # 11 points each side's two seats
    assert totals[0] == totals[2] and totals[1] == totals[3] and totals.sum() > 0


def test_the_batched_aec_refuses_an_illegal_action_and_plays_nothing() -> None:
    env = BatchedTressetteAEC(3, seed=1)
    observation, *_ = env.last()
    actions = np.argmax(observation["action_mask"], axis=1)
    actions[1] = int(np.flatnonzero(observation["action_mask"][1] == 0)[0])
    state = env.engine.state.copy()
    with pytest.raises(ValueError, match=r"deal 1: seat [0-3] may not play"):
        env.step(actions)
    assert (env.engine.state == state).all()


def test_gymnasium_make_vec_builds_the_batched_card_play_of_each_game() -> None:
    import gymnasium

    from osteria.envs.batched_envs import BatchedVectorEnv
    from osteria.envs.gym import batched_env_id

    for game, settings in (("tressette", {}), ("traversone", {"seats": 5, "options": {"asso_bastoni": 11}}),
                           ("sancagna", {"opponents": "rule"}), ("calabresella", {"seats": 5, "opponents": "rule"}),
                           ("quattrigghiu", {"options": {"aiuto_volontario": True}, "opponents": "rule"})):
        envs = gymnasium.make_vec(batched_env_id(game), num_envs=6, seat=1, **settings)
        assert isinstance(envs, BatchedVectorEnv) and envs.num_envs == 6 and envs.engine.game == game
        observations, _ = envs.reset(seed=2)
        assert envs.observation_space.contains(observations)
        rng = np.random.default_rng(2)
        for _ in range(20):
            observations, *_ = envs.step(random_actions(observations["action_mask"], rng))
        assert (envs.engine.to_move == 1).all()
    assert gymnasium.make_vec("osteria/TraversoneBatched-v0", num_envs=2, seats=6).engine.seats == 6
    with pytest.raises(RulesError, match="cannot play tressette with these options"):
        BatchedVectorEnv("tressette", 2, options={"morto": [1]})
