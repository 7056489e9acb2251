"""The learned players of Tressette and Calabresella: each reads what the batched engine's network
was trained on, plays only legal actions from its own observation, and its shipped weights play
well."""

from __future__ import annotations

import random

import numpy as np
import pytest

import osteria
from osteria.arena import Config, run
from osteria.bots import RandomBot, make_bot
from osteria.bots.learned import POSITION, CalabresellaReader, DmcPlayer, TressetteReader, weights_of
from osteria.bots.memory import CARD_OF
from osteria.bots.tressette import TressetteHeuristic
from osteria.cli import main
from osteria.envs.batched import BIDDING, BatchedGame, BatchedTressette
from test_envs_batched_calabresella import following

from helpers import match_with, play_checked


def test_its_observation_is_the_batched_engines_at_every_card() -> None:
    # The same deal in the batched engine and in a match: the vector rebuilt from the seat's
    # observation is the one the network was trained on.
    for seed in range(4):
        env = BatchedTressette(1, outside=(0, 1, 2, 3), seed=seed)
        hands = [env.cards_of(env.hands[0, s]) for s in range(4)]
        match = match_with("tressette", hands)
        rng = random.Random(seed)
        reader = TressetteReader()
        for _ in range(env.cards):
            seat = match.decider
            assert seat == int(env.to_move[0])
            assert np.array_equal(reader.vector(match.observation(seat)), env.observation[0])
            position = rng.choice(np.flatnonzero(env.legal_mask[0]).tolist())
            match.play(env.card_name(position))
            env.step(np.array([position]))
        assert match.results


def test_it_plays_only_legal_actions_with_the_accusi_and_the_signals() -> None:
    for seed in range(3):
        for options in ({}, {"segni": "sud"}, {"morto": [1]}):
            match = osteria.new_match("tressette", seed=seed, target=21, **options)
            players = {seat: DmcPlayer("tressette", TressetteHeuristic()) if seat % 2 == 0 else RandomBot(seed)
                       for seat in range(4)}
            play_checked(match, players)


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_its_calabresella_observation_is_the_batched_engines_at_every_action(seats: int) -> None:
    # Deals of the batched engine followed by the rules module's: at every bid, card given, card
    # laid aside and card played, the vector rebuilt from the seat's observation (with the cards
    # of the scarto laid aside so far) is the engine's.
    reader = CalabresellaReader(seats)
    n = 16
    batch = BatchedGame("calabresella", n, seats=seats, outside=range(seats), seed=7)
    choose = np.random.default_rng(7)
    steps = [following(batch, i) for i in range(n)]
    phases = set()
    for _ in range(3 * batch.history.shape[1]):
        actions = np.empty(n, dtype=np.int64)
        for i, step in enumerate(steps):
            me = step.deal.to_move
            obs = {**step.deal.observation(me), "seat": me}
            pending = frozenset(step.position[c] for c in step.discards)
            assert np.array_equal(reader.vector(obs, pending), batch.observation[i])
            phases.add(int(batch.phase[i]))
            legal = step.legal()
            # Passes often, so that a deal reaches its scarto and play with another caller.
            bidding = batch.phase[i] == BIDDING
            actions[i] = batch.cards if bidding and choose.random() < 0.4 else legal[choose.integers(len(legal))]
            step.apply(int(actions[i]))
        batch.step(actions, strict=True)
        for i in np.flatnonzero(batch.terminated):
            steps[i] = following(batch, i)
    assert len(phases) == {3: 4, 4: 3, 5: 2}[seats]  # a scarto at three alone, a cedo short of five


def test_it_plays_only_legal_calabresella_actions_and_leaves_other_tables_to_the_rule() -> None:
    for seed in range(3):
        for seats in (3, 4, 5):
            match = osteria.new_match("calabresella", seed=seed, seats=seats, rounds=1)
            dmc = make_bot("dmc", game="calabresella")
            play_checked(match, {seat: dmc if seat == 0 else RandomBot(seed) for seat in range(seats)})


def at_a_scarto(seed: int) -> osteria.Match:
    """A Calabresella match for three at the scarto of a caller, the first seat to speak that can call."""
    match = osteria.new_match("calabresella", seed=seed)
    rule = make_bot("heuristic", game="calabresella")
    while match.deal_due or match.observation(match.decider)["phase"] != "scarto":
        if match.deal_due:  # every seat passed: the next deal
            match.begin_deal()
            continue
        legal = match.legal_actions()
        # The first to speak calls, so that the deal comes to its scarto.
        match.play(next((a for a in legal if a.startswith("chiamo")), None) or
                   rule.act(match.observation(match.decider), legal))
    return match


def test_its_scarto_is_four_cards_laid_aside_one_at_a_time() -> None:
    # At a real scarto the player lays aside, one at a time, the card the network values most
    # once the others are laid aside: the scarto it makes is the one these choices make.
    match = at_a_scarto(seed=3)
    dmc = make_bot("dmc", game="calabresella")
    assert isinstance(dmc, DmcPlayer)
    obs = match.observation(match.decider)
    hand = {CARD_OF[text] for text in obs["hand"]}
    laid: frozenset[int] = frozenset()
    for _ in range(4):
        values = dmc.values(obs, laid)
        laid |= {max((POSITION[c] for c in hand if POSITION[c] not in laid), key=lambda p: values[p])}
    chosen = dmc.act(obs, match.legal_actions())
    assert chosen.startswith("scarto ")
    assert {POSITION[CARD_OF[text]] for text in chosen.split()[1:]} == laid


@pytest.mark.parametrize(("game", "seats"), [("tressette", None), ("calabresella", 3), ("calabresella", 4),
                                            ("calabresella", 5)])
def test_the_shipped_weights_beat_random_play(game: str, seats: int | None) -> None:
    assert weights_of(game, seats).exists()
    report = run(Config(game, ("dmc", "random"), 40, seed=2026, seats=seats))
    assert report.advantages()[0].low > 0


def test_it_plays_the_games_it_was_trained_for_alone(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match="dmc plays tressette and calabresella"):
        make_bot("dmc", game="sancagna")
    assert main(["arena", "sancagna", "--players", "dmc,random", "--deals", "2"]) == 1
    assert "dmc plays tressette and calabresella" in capsys.readouterr().err


def test_its_runners_up_are_the_other_cards_by_the_networks_values_each_once() -> None:
    # The hybrid over the learned player weighs these first after its choice: every other card
    # (bare: a signal does not change what the network values), best first.
    dmc = make_bot("dmc", game="tressette")
    assert isinstance(dmc, DmcPlayer)
    rule = TressetteHeuristic()
    match = osteria.new_match("tressette", seed=5)
    checked = 0
    while match.decider is not None and checked < 20:
        obs, legal = match.observation(match.decider), match.legal_actions()
        cards = {CARD_OF[a.split()[0]] for a in legal if a.split()[0] in CARD_OF}
        if len(cards) > 1 and not obs.get("morto"):
            choice = dmc.act(obs, legal)
            ranked = dmc.runners_up(obs, legal, choice)
            assert all(a in legal and len(a.split()) == 1 for a in ranked)
            assert {CARD_OF[a] for a in ranked} == cards - {CARD_OF[choice.split()[0]]}
            values = dmc.values(obs)
            assert [values[POSITION[CARD_OF[a]]] for a in ranked] == sorted(
                (values[POSITION[CARD_OF[a]]] for a in ranked), reverse=True)
            checked += 1
        match.play(rule.act(obs, legal))
    assert checked == 20


def test_at_the_scarto_its_runners_up_are_the_rule_based_players() -> None:
    match = at_a_scarto(seed=3)
    rule = make_bot("heuristic", game="calabresella")
    dmc = make_bot("dmc", game="calabresella")
    obs, legal = match.observation(match.decider), match.legal_actions()
    choice = dmc.act(obs, legal)
    assert dmc.runners_up(obs, legal, choice) == rule.runners_up(obs, legal, choice) != []


def test_the_hybrid_over_it_plays_only_legal_actions() -> None:
    for seats in (3, 4, 5):
        match = osteria.new_match("calabresella", seed=seats, seats=seats, rounds=1)
        hybrid = make_bot("hybrid-dmc", game="calabresella", seed=1)
        play_checked(match, {seat: hybrid if seat == 0 else RandomBot(seats) for seat in range(seats)})
