"""The OpenSpiel games: OpenSpiel's random simulation test, its search bots, and the deal."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

from osteria.bots import HEURISTICS, Bot
from osteria.bots.hybrid import HybridBot
from osteria.bots.ismcts import IsmctsBot
from osteria.bots.pimc import PimcBot
from osteria.envs.actions import DONE
from osteria.envs.openspiel import OsteriaBot, register, short_name
from osteria.envs.speed import chance_outcomes, play_random_deals
from osteria.rules import GAMES

SETUPS = [(game, seats) for game, cls in GAMES.items() for seats in cls.seat_counts]


def test_every_game_is_registered() -> None:
    assert register() == [short_name(game) for game in GAMES]
    assert set(register()) <= set(pyspiel.registered_names())


@pytest.mark.parametrize(("game", "seats"), SETUPS)
def test_openspiels_random_simulation_test_passes(game: str, seats: int) -> None:
    loaded = pyspiel.load_game(short_name(game), {"players": seats})
    assert loaded.num_players() == seats
    pyspiel.random_sim_test(loaded, num_sims=3, serialize=False, verbose=False)


@pytest.mark.parametrize(("game", "seats"), SETUPS)
def test_replayed_engine_deals_end_with_the_engines_result(game: str, seats: int) -> None:
    loaded = pyspiel.load_game(short_name(game), {"players": seats})
    for played in play_random_deals(game, seats, 3, seed=20):
        state = loaded.new_initial_state()
        for outcome in chance_outcomes(played):
            assert state.is_chance_node()
            state.apply_action(outcome)
        for word in played.words:  # spelled a word a step
            player = state.current_player()
            for part in word.split():
                state.apply_action(next(a for a in state.legal_actions() if state.action_to_string(player, a) == part))
            if state.chosen:  # spelled whole, but a longer action goes on from it: done
                assert state.action_to_string(player, state.legal_actions()[-1]) == DONE
                state.apply_action(state.legal_actions()[-1])
        assert state.is_terminal()
        sign = -1 if GAMES[game].lower_wins else 1
        assert state.returns() == [sign * d for d in played.match.results[0].delta]


def test_the_deal_is_uniform_card_by_card() -> None:
    state = pyspiel.load_game("osteria_sancagna").new_initial_state()
    assert state.chance_outcomes() == [(s, 0.25) for s in range(4)]
    state.apply_action(0)
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 52 and all(p == pytest.approx(1 / 52) for _, p in outcomes)
    state.apply_action(5)
    assert [a for a, _ in state.chance_outcomes()] == [a for a in range(52) if a != 5]


def decision_state(game: str, seed: int) -> pyspiel.State:
    """A state after the deal and a few random decisions."""
    rng = np.random.default_rng(seed)
    state = pyspiel.load_game(short_name(game)).new_initial_state()
    while state.is_chance_node() or state.move_number() < 60:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_strings_and_tensors_show_the_seat_alone() -> None:
    state = decision_state("tressette", 1)
    player = state.current_player()
    view = json.loads(state.information_state_string(player))
    assert view["seat"] == player and view["hands"][player] == view["hand"]
    assert all(hand is None for seat, hand in enumerate(view["hands"]) if seat != player)
    assert "history" in view and "history" not in json.loads(state.observation_string(player))
    observation, info = state.observation_tensor(player), state.information_state_tensor(player)
    assert info[:len(observation)] == observation and any(info[len(observation):])


@pytest.mark.parametrize("game", list(GAMES))
def test_resampling_keeps_what_the_player_knows_and_redeals_the_rest(game: str) -> None:
    state = decision_state(game, 2)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    samples = [state.resample_from_infostate(player, sampler) for _ in range(5)]
    for sample in samples:
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.legal_actions() == state.legal_actions()
    others = [p for p in range(state.num_players()) if p != player]
    assert any(sample.information_state_string(p) != state.information_state_string(p)
               for sample in samples for p in others)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_resampled_state_is_whole_and_made_of_the_players_view_alone(game: str) -> None:
    state = decision_state(game, 3)
    player = state.current_player()
    sample = state.resample_from_infostate(player, random.Random(1).random)
    if game != "quattrigghiu":  # where the first basi are forgotten by rule, no history leads there
        # Its history is complete: the chance nodes of its own deal, then every action.
        assert len(sample.history()) == len(state.history())
        assert sample.move_number() == state.move_number()
    assert sample.information_state_string(player) == state.information_state_string(player)
    # Nothing of the true deal: a state with other hidden cards, the same to the player, gives
    # the same sample from the same draws.
    players = range(state.num_players())
    other = state.resample_from_infostate(player, random.Random(2).random)
    assert [other.information_state_string(p) for p in players] != [state.information_state_string(p) for p in players]
    again = other.resample_from_infostate(player, random.Random(1).random)
    assert again.history() == sample.history() and str(again) == str(sample)
    assert [again.information_state_string(p) for p in players] == [sample.information_state_string(p) for p in players]
    # It plays on to the end like any state.
    rng = np.random.default_rng(0)
    while not sample.is_terminal():
        sample.apply_action(int(rng.choice(sample.legal_actions())))


@pytest.mark.parametrize(("game", "seats"), SETUPS)
def test_distinct_information_states_have_distinct_tensors(game: str, seats: int) -> None:
    """Perfect recall: the tensor keeps the order of every action seen (accusi, cenni, bids)."""
    loaded = pyspiel.load_game(short_name(game), {"players": seats})
    rng = np.random.default_rng(seats)
    seen: dict[bytes, str] = {}
    for _ in range(6):
        state = loaded.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node():
                for player in range(seats):
                    tensor = np.asarray(state.information_state_tensor(player), np.float32)
                    assert tensor.shape == (loaded.information_state_tensor_size(),)
                    text = state.information_state_string(player)
                    assert seen.setdefault(tensor.tobytes(), text) == text
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert len(seen) > 100


def play_with(game: str, bot: pyspiel.Bot, seed: int) -> list[float]:
    """A deal with ``bot`` at seat 0 and random players elsewhere; every bot move checked legal."""
    rng = np.random.default_rng(seed)
    state = pyspiel.load_game(short_name(game)).new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            moves += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert moves > 0
    return state.returns()


@pytest.mark.parametrize("game", ["tressette", "calabresella", "quattrigghiu"])
def test_openspiels_ismcts_plays_a_deal_on_osteria_samples(game: str) -> None:
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(pyspiel.load_game(short_name(game)), mcts.RandomRolloutEvaluator(1, rs),
                           uct_c=2.0, max_simulations=10, random_state=rs)
    returns = play_with(game, bot, 1)
    assert len(returns) == GAMES[game]().seats


class SampledMCTS(pyspiel.Bot):  # type: ignore[misc]
    """OpenSpiel's MCTS searching a state sampled from the player's information, not the true one."""

    def __init__(self, game: pyspiel.Game, player: int, seed: int) -> None:
        pyspiel.Bot.__init__(self)
        rs = np.random.RandomState(seed)
        self.player, self.draw = player, random.Random(seed).random
        self.mcts = mcts.MCTSBot(game, 2.0, 10, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)

    def step(self, state: pyspiel.State) -> int:
        action: int = self.mcts.step(state.resample_from_infostate(self.player, self.draw))
        return action


def test_openspiels_mcts_plays_a_deal_on_sampled_states() -> None:
    game = pyspiel.load_game("osteria_traversone")
    returns = play_with("traversone", SampledMCTS(game, 0, 2), 2)
    assert all(game.min_utility() <= r <= game.max_utility() for r in returns)


@pytest.mark.parametrize(("game", "name"), [("tressette", "pimc"), ("sancagna", "ismcts"), ("quattrigghiu", "hybrid")])
def test_osteria_bots_play_as_openspiel_bots(game: str, name: str) -> None:
    bot = OsteriaBot(pyspiel.load_game(short_name(game)), 0, name, seed=1)
    assert isinstance(bot, pyspiel.Bot)
    returns = play_with(game, bot, 3)
    assert len(returns) == GAMES[game]().seats


def test_options_are_game_parameters() -> None:
    game = pyspiel.load_game("osteria_tressette", {"segni": "muto", "target": 21})
    assert game.get_parameters()["segni"] == "muto"
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    # Without signals, a lead is a bare card.
    assert all(" " not in state.action_to_string(state.current_player(), a) for a in state.legal_actions()
               if not state.action_to_string(state.current_player(), a).startswith("accuso"))
    with pytest.raises(ValueError, match="segni"):
        pyspiel.load_game("osteria_tressette", {"segni": "est"})
    with pytest.raises(ValueError, match="played by"):
        pyspiel.load_game("osteria_traversone", {"players": 7})


@pytest.mark.parametrize("game", list(GAMES))
def test_a_resampled_state_holds_the_information_state_it_was_sampled_from(game: str) -> None:
    # What ISMCTS asks of every sample: the player cannot tell it from the true state, also once
    # he has forgotten tricks by rule (Quattrigghiu's first six basi).
    loaded = pyspiel.load_game(short_name(game))
    rng = random.Random(3)
    for _ in range(4):
        state = loaded.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            player = state.current_player()
            sample = state.resample_from_infostate(player, rng.random)
            assert sample.information_state_string(player) == state.information_state_string(player)
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("game", "seats"), SETUPS)
def test_actions_are_spelled_a_word_a_step_in_a_narrow_space(game: str, seats: int) -> None:
    loaded = pyspiel.load_game(short_name(game), {"players": seats})
    assert loaded.num_distinct_actions() <= 300
    assert loaded.get_parameters()["actions"] == "steps"


def test_whole_actions_are_a_parameter() -> None:
    loaded = pyspiel.load_game("osteria_calabresella", {"players": 3, "actions": "whole"})
    assert loaded.num_distinct_actions() == 91_592
    pyspiel.random_sim_test(loaded, num_sims=1, serialize=False, verbose=False)
    with pytest.raises(ValueError, match="actions must be one of steps, whole"):
        pyspiel.load_game("osteria_calabresella", {"actions": "cards"})


def test_the_choice_so_far_is_in_the_choosers_information_state_alone() -> None:
    loaded = pyspiel.load_game("osteria_calabresella", {"players": 3})
    rng = random.Random(4)
    for _ in range(100):
        state = loaded.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            player = state.current_player()
            words = [state.action_to_string(player, a) for a in state.legal_actions()]
            if words == ["scarto"]:
                break
            calls = [a for a, w in zip(state.legal_actions(), words, strict=True) if w in ("chiamo", "cedo")]
            state.apply_action(rng.choice(calls or state.legal_actions()))
        else:
            continue
        others = [p for p in range(3) if p != player]
        seen = {p: (state.information_state_string(p), state.information_state_tensor(p)) for p in others}
        size = len(state.observation_tensor(player))
        own = [state.information_state_tensor(player)[:size]]
        for _ in range(4):
            state.apply_action(rng.choice(state.legal_actions()))
            assert state.current_player() == player and state.chosen
            assert json.loads(state.information_state_string(player))["choosing"] == state.chosen
            own.append(state.information_state_tensor(player)[:size])
            assert {p: (state.information_state_string(p), state.information_state_tensor(p)) for p in others} == seen
            # The player's resampled states hold its choice so far.
            sample = state.resample_from_infostate(player, rng.random)
            assert sample.chosen == state.chosen and sample.legal_actions() == state.legal_actions()
        assert len({tuple(t) for t in own}) == 5
        return
    pytest.fail("no scarto in 100 deals")


@pytest.mark.parametrize(("game", "name"), [("traversone", "pimc"), ("calabresella", "pimc"), ("tressette", "ismcts"),
                                            ("quattrigghiu", "ismcts"), ("sancagna", "hybrid"),
                                            ("calabresella", "hybrid")])
def test_osteria_bots_play_openspiels_evaluate_bots(game: str, name: str) -> None:
    loaded = pyspiel.load_game(short_name(game))
    seats = loaded.num_players()
    for deal in range(2):
        seat = deal % seats
        bots = [OsteriaBot(loaded, p, name, seed=deal) if p == seat else pyspiel.make_uniform_random_bot(p, deal)
                for p in range(seats)]
        returns = evaluate_bots.evaluate_bots(loaded.new_initial_state(), bots, np.random.RandomState(deal))
        assert len(returns) == seats and all(loaded.min_utility() <= r <= loaded.max_utility() for r in returns)


SEARCHERS: dict[str, Callable[[str], Bot]] = {  # with a fixed budget, not a time limit: the same choice each time
    "pimc": lambda game: PimcBot(7, samples=8),
    "ismcts": lambda game: IsmctsBot(7, iterations=60),
    "hybrid": lambda game: HybridBot(HEURISTICS[game](), 7, samples=8),
}


@pytest.mark.parametrize(("game", "name"), [("tressette", "pimc"), ("calabresella", "ismcts"), ("sancagna", "hybrid"),
                                            ("quattrigghiu", "pimc"), ("traversone", "ismcts")])
def test_osteria_bots_choose_alike_on_every_state_their_player_cannot_tell_apart(game: str, name: str) -> None:
    # They do not peek: on a state with the hidden cards dealt anew, the same bot chooses the same.
    loaded = pyspiel.load_game(short_name(game))
    rng = random.Random(5)
    compared = 0
    for seed in range(4):
        state = decision_state(game, seed)
        player = state.current_player()
        chosen = OsteriaBot(loaded, player, SEARCHERS[name](game)).step(state)
        for _ in range(2):
            sample = state.resample_from_infostate(player, rng.random)
            assert OsteriaBot(loaded, player, SEARCHERS[name](game)).step(sample) == chosen
            compared += 1
    assert compared == 8


@pytest.mark.parametrize(("game", "seats"), SETUPS)
def test_the_observation_tensor_is_the_players_view_encoded(game: str, seats: int) -> None:
    # The tensor is written live from the state; the views encoded are the reference. Two
    # states played in turn (one a clone of the other) make the observer follow each afresh.
    loaded = pyspiel.load_game(short_name(game), {"players": seats})
    observer = loaded.make_py_observer()
    rng = random.Random(seats)
    state = loaded.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    states = [state, state.clone()]
    for step in range(120):
        state = states[step % 2]
        if state.is_terminal():
            break
        for player in range(seats):
            expected = observer._vector(state.view(player), player)
            assert np.array_equal(np.asarray(state.observation_tensor(player), np.float32), expected), (step, player)
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("game", list(GAMES))
def test_a_dealt_states_observation_tensor_reads_no_view(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # OpenSpiel writes a first chance node's tensor for the size of every tensor it hands out:
    # that one is the same every time, and a dealt state's own is written live, so asking a
    # dealt state's tensor builds no view, and the first chance node's still reads as one built.
    from osteria.envs.openspiel import OsteriaState

    loaded = pyspiel.load_game(short_name(game))
    first = loaded.new_initial_state()
    expected = [np.asarray(first.observation_tensor(p), np.float32) for p in range(loaded.num_players())]
    state = loaded.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    state.observation_tensor(state.current_player())
    views: list[int] = []
    viewed = OsteriaState.view
    monkeypatch.setattr(OsteriaState, "view", lambda self, seat: views.append(seat) or viewed(self, seat))
    for _ in range(5):
        state.observation_tensor(state.current_player())
        state.apply_action(rng.choice(state.legal_actions()))
    assert views == []
    assert all(np.array_equal(np.asarray(loaded.new_initial_state().observation_tensor(p), np.float32), tensor)
               for p, tensor in enumerate(expected))
