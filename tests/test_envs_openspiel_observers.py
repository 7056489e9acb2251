"""The OpenSpiel games' observers for every IIGObservationType, and their zero-sum returns.

The security property, in OpenSpiel's terms: the public observation is one for every player
and a state that any player cannot tell from the true one (its hidden cards dealt anew) has the
same; a player's own observation is the same on any state it cannot tell from the true one."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import numpy as np
import pyspiel
import pytest
from open_spiel.python.observation import make_observation

from osteria.cards import CARD_STRINGS, cards_of
from osteria.envs.openspiel import OsteriaState, short_name
from osteria.rules import GAMES

SETUPS = [(game, seats) for game, cls in GAMES.items() for seats in cls.seat_counts]
PRIVATE = (pyspiel.PrivateInfoType.NONE, pyspiel.PrivateInfoType.SINGLE_PLAYER, pyspiel.PrivateInfoType.ALL_PLAYERS)
OBS_TYPES = [pyspiel.IIGObservationType(perfect_recall=recall, public_info=public, private_info=private)
             for recall in (False, True) for public in (False, True) for private in PRIVATE]


def observer(game: pyspiel.Game, private: pyspiel.PrivateInfoType, public: bool = True, recall: bool = True):  # type: ignore[no-untyped-def]
    return make_observation(game, pyspiel.IIGObservationType(perfect_recall=recall, public_info=public,
                                                             private_info=private))


def seen(obs, state: pyspiel.State, player: int) -> tuple[bytes, str]:  # type: ignore[no-untyped-def]
    obs.set_from(state, player)
    return obs.tensor.tobytes(), obs.string_from(state, player)


def random_states(game: pyspiel.Game, deals: int, seed: int, every: int = 3) -> Iterator[OsteriaState]:
    """Every ``every``-th decision of random deals (the state goes on after each is looked at)."""
    rng = random.Random(seed)
    for _ in range(deals):
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            if decisions % every == 0:
                yield state
            decisions += 1
            state.apply_action(rng.choice(state.legal_actions()))


def hands(state: OsteriaState) -> list[list[str]]:
    assert state.deal is not None
    return [sorted(CARD_STRINGS[c] for c in cards_of(hand)) for hand in state.deal.hands]


@pytest.mark.parametrize(("game", "seats"), SETUPS)
def test_the_public_observation_is_everyones_and_blind_to_every_hidden_card(game: str, seats: int) -> None:
    loaded = pyspiel.load_game(short_name(game), {"players": seats})
    public = [observer(loaded, pyspiel.PrivateInfoType.NONE, recall=recall) for recall in (False, True)]
    own = [observer(loaded, pyspiel.PrivateInfoType.SINGLE_PLAYER, public=flag) for flag in (False, True)]
    everything = observer(loaded, pyspiel.PrivateInfoType.ALL_PLAYERS)
    rng = random.Random(seats)
    checked = redealt = 0
    for state in random_states(loaded, 2, seed=seats, every=4):
        shown = [seen(obs, state, 0) for obs in public]
        assert all(seen(obs, state, p) == shown[k] for k, obs in enumerate(public) for p in range(seats))
        for player in range(seats):
            # A state the player cannot tell from this one: every card hidden from it dealt anew.
            sample = state.resample_from_infostate(player, rng.random)
            assert [seen(obs, sample, 0) for obs in public] == shown
            assert [seen(obs, sample, player) for obs in own] == [seen(obs, state, player) for obs in own]
            redealt += seen(everything, sample, player) != seen(everything, state, player)
            checked += 1
    assert checked > 20 and redealt > checked // 4  # the samples did deal other cards


@pytest.mark.parametrize(("game", "seats"), SETUPS)
def test_swapping_two_cards_between_hands_changes_no_other_view(game: str, seats: int) -> None:
    loaded = pyspiel.load_game(short_name(game), {"players": seats})
    sizes = GAMES[game](seats).hand_sizes()
    starts = np.cumsum([0, *sizes]).tolist()
    public = observer(loaded, pyspiel.PrivateInfoType.NONE)
    private = observer(loaded, pyspiel.PrivateInfoType.SINGLE_PLAYER, public=False)
    own = observer(loaded, pyspiel.PrivateInfoType.SINGLE_PLAYER)
    rng = random.Random(seats)
    swaps = 0
    for _ in range(30):
        outcomes = [rng.randrange(seats), *rng.sample(range(len(GAMES[game].deck)), len(GAMES[game].deck))]
        a, b = rng.sample(range(seats), 2)
        i, j = 1 + rng.randrange(starts[a], starts[a + 1]), 1 + rng.randrange(starts[b], starts[b + 1])
        swapped = list(outcomes)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        states = []
        for drawn in (outcomes, swapped):
            state = loaded.new_initial_state()
            for outcome in drawn:
                state.apply_action(outcome)
            states.append(state)
        if states[0].current_player() != states[1].current_player():
            continue  # the card that names who speaks first (the 4 of denari...) is no secret
        swaps += 1
        assert seen(public, states[0], a) == seen(public, states[1], b)
        for player in range(seats):
            assert seen(own, states[0], player) != seen(own, states[1], player) or player not in (a, b)
            if player not in (a, b):
                assert seen(own, states[0], player) == seen(own, states[1], player)
                assert seen(private, states[0], player) == seen(private, states[1], player)
    assert swaps > 10


@pytest.mark.parametrize(("game", "seats"), SETUPS)
def test_no_hand_is_public_and_the_all_players_observer_shows_every_hand(game: str, seats: int) -> None:
    loaded = pyspiel.load_game(short_name(game), {"players": seats})
    public = observer(loaded, pyspiel.PrivateInfoType.NONE)
    everything = [observer(loaded, pyspiel.PrivateInfoType.ALL_PLAYERS, public=flag) for flag in (False, True)]
    deck = [CARD_STRINGS[c] for c in GAMES[game].deck.cards]
    for state in random_states(loaded, 2, seed=seats, every=5):
        held = hands(state)
        view = json.loads(seen(public, state, 0)[1])
        public.set_from(state, 0)
        hand_bits = public.dict["observation"][:len(deck)]
        if any(held):
            assert view["hand"] is None or not any(view["hand"])
            assert not hand_bits.any()
        for obs in everything:
            for player in range(seats):
                views = json.loads(seen(obs, state, player)[1])["views"]
                assert [sorted(v["hand"]) for v in views] == held
                for k, block in enumerate(obs.dict["observation"]):
                    shown = [card for card, bit in zip(deck, block[:len(deck)], strict=True) if bit]
                    assert sorted(shown) == held[(player + k) % seats]


def test_every_observation_type_is_an_openspiel_observation() -> None:
    loaded = pyspiel.load_game("osteria_calabresella", {"players": 3})
    state = next(s for s in random_states(loaded, 1, seed=1) if s.move_number() > 50)
    player = state.current_player()
    sizes = {}
    for obs_type in OBS_TYPES:
        obs = make_observation(loaded, obs_type)
        obs.set_from(state, player)
        assert obs.tensor.dtype == np.float32
        # The dict's arrays are pieces of the tensor, not copies.
        assert sum(a.size for a in obs.dict.values()) == obs.tensor.size
        assert all(np.shares_memory(a, obs.tensor) for a in obs.dict.values())
        text = obs.string_from(state, player)
        assert isinstance(text, str) and (text == "") == (obs.tensor.size == 0)
        sizes[(obs_type.perfect_recall, obs_type.public_info, obs_type.private_info)] = obs.tensor.size
    single = pyspiel.PrivateInfoType.SINGLE_PLAYER
    assert sizes[(False, False, pyspiel.PrivateInfoType.NONE)] == 0
    assert sizes[(True, True, pyspiel.PrivateInfoType.ALL_PLAYERS)] == 3 * sizes[(True, True, single)]
    # The default observers are the state's own observation and information state.
    default, info = make_observation(loaded), make_observation(loaded, pyspiel.IIGObservationType(perfect_recall=True))
    default.set_from(state, player)
    info.set_from(state, player)
    assert default.tensor.tolist() == pytest.approx(state.observation_tensor(player))
    assert info.tensor.tolist() == pytest.approx(state.information_state_tensor(player))
    assert default.string_from(state, player) == state.observation_string(player)
    assert info.string_from(state, player) == state.information_state_string(player)
    with pytest.raises(ValueError, match="no parameters"):
        make_observation(loaded, None, {"colour": "red"})


def test_without_public_info_a_player_sees_its_hand_and_its_own_choice_alone() -> None:
    loaded = pyspiel.load_game("osteria_calabresella", {"players": 3})
    private = observer(loaded, pyspiel.PrivateInfoType.SINGLE_PLAYER, public=False, recall=False)
    public = observer(loaded, pyspiel.PrivateInfoType.NONE, recall=False)
    for state in random_states(loaded, 30, seed=5, every=1):
        player = state.current_player()
        if not state.chosen:
            continue
        # A caller spelling its scarto card by card: the words so far are its own.
        view = json.loads(seen(private, state, player)[1])
        assert sorted(view["hand"]) == hands(state)[player] and view["choosing"] == state.chosen
        assert "trick" not in view and "history" not in view
        assert json.loads(seen(public, state, player)[1])["choosing"] == []
        return
    pytest.fail("no action spelled over several steps in 30 deals")


# -- returns ---------------------------------------------------------------------------------------


def play_out(game: pyspiel.Game, seed: int) -> OsteriaState:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(rng.choice(actions))
    return state


@pytest.mark.parametrize(("game", "seats"), SETUPS)
def test_margin_returns_sum_to_zero_and_the_game_says_so(game: str, seats: int) -> None:
    points = pyspiel.load_game(short_name(game), {"players": seats})
    margin = pyspiel.load_game(short_name(game), {"players": seats, "returns": "margin"})
    assert margin.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert margin.utility_sum() == 0 and margin.get_parameters()["returns"] == "margin"
    zero_sum = points.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert zero_sum == GAMES[game].zero_sum
    sums = []
    for seed in range(8):
        raw, deal = play_out(points, seed).returns(), play_out(margin, seed)  # the same deal, the same play
        assert deal.history() == play_out(points, seed).history()
        assert sum(deal.returns()) == pytest.approx(0)
        assert all(margin.min_utility() <= r <= margin.max_utility() for r in deal.returns())
        assert all(points.min_utility() <= r <= points.max_utility() for r in raw)
        sums.append(sum(raw))
        if zero_sum:
            assert deal.returns() == raw  # stakes that one side pays the other are margins already
        else:
            assert deal.deal is not None
            for seat in range(seats):
                others = [raw[s] for s in range(seats) if not deal.deal.same_side(seat, s)]
                assert deal.returns()[seat] == pytest.approx(raw[seat] - sum(others) / len(others))
    # What the default game declares is what its returns do.
    assert all(s == 0 for s in sums) if zero_sum else any(s != 0 for s in sums)


def test_partners_margin_is_their_sides_points_minus_the_others() -> None:
    points = play_out(pyspiel.load_game("osteria_tressette"), 3).returns()
    margin = play_out(pyspiel.load_game("osteria_tressette", {"returns": "margin"}), 3).returns()
    ours, theirs = points[0], points[1]
    assert points == [ours, theirs, ours, theirs] and ours + theirs > 0
    assert margin == [ours - theirs, theirs - ours, ours - theirs, theirs - ours]


def test_an_unknown_kind_of_returns_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="returns must be one of points, margin, not 'profit'"):
        pyspiel.load_game("osteria_sancagna", {"returns": "profit"})
