"""The PettingZoo environments: PettingZoo's own API and seed tests, and the rewards."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from osteria.engine import RulesError
from osteria.envs.pettingzoo import OsteriaEnv, env
from osteria.envs.speed import play_random_deals, spelled
from osteria.rules import GAMES

SETUPS = [(game, seats) for game, cls in GAMES.items() for seats in cls.seat_counts]


@pytest.fixture(autouse=True)
def _quiet() -> None:
    # PettingZoo warns that a dict observation (vector and action mask) is not a plain array:
    # the dict is the convention it recommends for masks.
    warnings.filterwarnings("ignore", message=".*(NumPy array|gymnasium.spaces.box|render).*")


@pytest.mark.parametrize(("game", "seats"), SETUPS)
def test_pettingzoos_api_and_seed_tests_pass(game: str, seats: int) -> None:
    api_test(env(game, seats), num_cycles=100)
    seed_test(lambda: env(game, seats), num_cycles=100)


@pytest.mark.parametrize(("game", "seats", "options"), [("tressette", 4, {"target": 21, "morto": [3]}),
                                                        ("calabresella", 3, {"rounds": 1}),
                                                        ("sancagna", 4, {"target": 1})])
def test_whole_match_episodes_pass_the_api_test(game: str, seats: int, options: dict) -> None:
    api_test(env(game, seats, episode="match", **options), num_cycles=2000)


def play_episode(e: OsteriaEnv, seed: int) -> dict[str, float]:
    """Random legal actions to the end of the episode; the rewards each agent collected."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    collected = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _ = e.last()
        collected[agent] += reward
        action = None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"])))
        e.step(action)
    return collected


@pytest.mark.parametrize(("game", "seats"), SETUPS)
def test_rewards_are_the_deals_deltas_partners_sharing_them(game: str, seats: int) -> None:
    e = env(game, seats)
    for seed in range(3):
        collected = play_episode(e, seed)
        assert e.match is not None and len(e.match.results) == 1
        delta = e.match.results[0].delta
        sign = -1 if GAMES[game].lower_wins else 1
        assert [collected[f"seat_{s}"] for s in range(seats)] == [sign * d for d in delta]
        if GAMES[game].partnership:
            assert collected["seat_0"] == collected["seat_2"] and collected["seat_1"] == collected["seat_3"]


def test_a_match_episode_collects_every_deals_reward() -> None:
    e = env("sancagna", episode="match", target=1)
    collected = play_episode(e, 4)
    assert e.match is not None and e.match.finished and len(e.match.results) >= 1
    assert [collected[f"seat_{s}"] for s in range(4)] == e.match.totals()


def test_a_deals_rewards_are_handed_out_at_the_step_that_ends_it_alone() -> None:
    # A match episode of several deals: the rewards of the step that ends a deal are its
    # deltas, and every other step's, the next deal's first among them, are zero.
    e = env("traversone", episode="match", target=21)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    assert e.match is not None
    ended = 0
    for agent in e.agent_iter():
        observation, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        deals = len(e.match.results)
        e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        if len(e.match.results) > deals:
            ended += 1
            assert [e.rewards[f"seat_{s}"] for s in range(4)] == [-d for d in e.match.results[-1].delta]
        else:
            assert set(e.rewards.values()) == {0.0}, agent
    assert ended >= 2, "the match lasted several deals"


def test_only_the_deciding_seat_has_legal_actions_and_a_dummy_never_decides() -> None:
    e = env("tressette", morto=[1])
    e.reset(seed=2)
    seen = set()
    for agent in e.agent_iter():
        observation, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        seen.add(agent)
        for other in e.agents:
            if other != agent:
                assert not e.observe(other)["action_mask"].any()
        e.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert "seat_1" not in seen and "seat_3" in seen


@pytest.mark.parametrize("game", ["traversone", "tressette", "calabresella"])
def test_an_illegal_action_is_refused_with_the_reason(game: str) -> None:
    e = env(game)
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    word = e.actions.step_word(illegal)
    reason = rf"seat_\d cannot play that: '{word}' \(step {illegal}\) leads to no legal action"
    with pytest.raises(ValueError, match=reason):
        e.step(illegal)
    size = e.actions.size
    with pytest.raises(ValueError, match=rf"step {size} is outside the action space 0\.\.{size - 1}"):
        e.step(size)
    assert not e.match.deal.history  # nothing was played


@pytest.mark.parametrize(("game", "seats"), SETUPS)
@pytest.mark.parametrize("actions", ["steps", "whole"])
def test_the_steps_that_spell_each_action_play_that_action(game: str, seats: int, actions: str) -> None:
    if actions == "whole" and game == "calabresella" and seats == 3:
        pytest.skip("the whole scarto space is 91,390 actions: the steps cover the same words")
    e = env(game, seats, actions=actions)
    for played in play_random_deals(game, seats, 4, seed=11):
        e.reset(seed=played.seed)
        for step in spelled(played, e.actions):
            assert e.observe(e.agent_selection)["action_mask"][step] == 1
            e.step(step)
        assert e.match is not None
        assert e.match.deals[0].deal.history == played.match.deals[0].deal.history


@pytest.mark.parametrize(("game", "seats"), SETUPS)
def test_margin_rewards_add_up_to_zero(game: str, seats: int) -> None:
    points, margins = env(game, seats), env(game, seats, reward="margin")
    api_test(env(game, seats, reward="margin"), num_cycles=50)
    for seed in range(3):
        raw, margin = play_episode(points, seed), play_episode(margins, seed)
        assert sum(margin.values()) == pytest.approx(0.0, abs=1e-9)
        if GAMES[game].zero_sum:
            assert margin == raw
        elif GAMES[game].partnership:  # a side's points less the other side's
            assert margin["seat_0"] == raw["seat_0"] - raw["seat_1"] == -margin["seat_1"]
        else:  # each plays alone: its points less the mean of the others'
            others = [raw[a] for a in raw if a != "seat_0"]
            assert margin["seat_0"] == pytest.approx(raw["seat_0"] - sum(others) / len(others))


def test_human_rendering_prints_the_deciding_seats_view(capsys: pytest.CaptureFixture[str]) -> None:
    e = env("quattrigghiu", render_mode="human")
    e.reset(seed=3)
    assert capsys.readouterr().out.startswith(f"{e.agent_selection}: hand ")
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert e.render() is None and "trick" in capsys.readouterr().out
    assert env("quattrigghiu", render_mode="ansi").render() is None  # nothing before reset()


def test_bad_environment_settings_are_refused() -> None:
    with pytest.raises(RulesError, match="episode"):
        env("tressette", episode="season")
    with pytest.raises(RulesError, match="reward"):
        env("tressette", reward="glory")
    with pytest.raises(RulesError, match="played by"):
        env("quattrigghiu", 5)


def test_whole_actions_pass_the_api_test() -> None:
    e = env("calabresella", 3, actions="whole")
    assert e.action_space("seat_0").n == 91_592
    api_test(e, num_cycles=100)


def test_a_scarto_is_four_steps_of_the_caller_that_no_other_seat_sees() -> None:
    for seed in range(100):
        e = env("calabresella", 3)
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while e.match is not None and not e.match.results:
            steps = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
            words = [e.actions.step_word(int(s)) for s in steps]
            if words == ["scarto"]:
                break
            calls = [s for s, w in zip(steps, words, strict=True) if w in ("chiamo", "cedo")]
            e.step(int(rng.choice(calls or steps)))
        else:
            continue
        caller = e.agent_selection
        others = {agent: e.observe(agent) for agent in e.agents if agent != caller}
        deal = e.match.deals[0].deal
        e.step(e.actions.step_index("scarto"))
        chosen = []
        for k in range(4):
            assert e.agent_selection == caller and sorted(e.chosen) == sorted(["scarto", *chosen])
            for agent, seen in others.items():  # the caller's choice so far is its own
                assert all(np.array_equal(seen[key], e.observe(agent)[key]) for key in seen)
            card = int(rng.choice(np.flatnonzero(e.observe(caller)["action_mask"])))
            chosen.append(e.actions.step_word(card))
            before = len(deal.history)
            e.step(card)
            assert len(deal.history) == before + (k == 3)  # nothing played until the fourth card
        assert e.chosen == []
        assert sorted(deal.action_str(deal.history[-1][1]).split()) == sorted(["scarto", *chosen])
        return
    pytest.fail("no scarto in 100 deals")
