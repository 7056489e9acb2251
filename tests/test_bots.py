"""Bots see only their seat's observation and the legal actions."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import osteria
from osteria.bots import Bot, RandomBot, play_bots


class SpyBot(Bot):
    """Plays randomly and keeps what it was shown."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.rng = random.Random(seat)
        self.seen: list[tuple[Mapping[str, Any], list[str]]] = []

    def act(self, observation: Mapping[str, Any], legal_actions: list[str]) -> str:
        self.seen.append((observation, legal_actions))
        return self.rng.choice(legal_actions)


def test_a_bot_is_given_its_own_seats_observation_and_nothing_else() -> None:
    match = osteria.new_match("tressette", seed=9, morto=[2])
    bots = {seat: SpyBot(seat) for seat in (0, 1, 3)}
    play_bots(match, bots)
    assert match.finished
    for seat, bot in bots.items():
        assert bot.seen
        for observation, legal in bot.seen:
            assert observation["seat"] == seat
            json.dumps(observation)  # plain data: no handle on the match
            assert legal == observation["legal_actions"] and legal
    # the dummy's partner chose the dummy's cards: seat 0 saw seat 2 to move
    assert any(obs["to_move"] == 2 for obs, _ in bots[0].seen)


def test_play_bots_stops_where_a_seat_has_no_bot() -> None:
    match = osteria.new_match("tressette", seed=3, dealer=3)
    play_bots(match, {1: RandomBot(1), 2: RandomBot(2), 3: RandomBot(3)})
    assert not match.finished and match.decider == 0
    assert match.observation(0)["legal_actions"] == match.legal_actions()
    assert match.observation(1)["legal_actions"] == []


def test_random_bots_finish_a_match_of_every_game() -> None:
    for game in osteria.games():
        match = osteria.new_match(game, seed=1)
        play_bots(match, {seat: RandomBot(seat) for seat in range(len(match.players))})
        assert match.finished, game
