"""ISMCTS: legal, honest, reproducible, and it finds what a search must find."""

from __future__ import annotations

import json
import random

import osteria
from osteria.bots.ismcts import IsmctsBot

from helpers import play_random_action


def positions(game: str, seed: int, count: int) -> list[osteria.Match]:
    """Matches stopped at random points of their first deal."""
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        match = osteria.new_match(game, seed=rng.getrandbits(32))
        for _ in range(rng.randrange(0, 25)):
            if match.results:
                break
            play_random_action(match, rng)
        if not match.results:
            found.append(match)
    return found


def test_it_plays_only_legal_actions_from_a_json_copy_of_the_observation() -> None:
    bot = IsmctsBot(3, iterations=30)
    for match in positions("tressette", 1, 12):
        observation = json.loads(json.dumps(match.observation(match.decider)))
        assert bot.act(observation, observation["legal_actions"]) in match.legal_actions()


def test_it_is_reproducible_with_a_seed_and_an_iteration_budget() -> None:
    match = positions("tressette", 2, 1)[0]
    observation = match.observation(match.decider)
    first = [IsmctsBot(7, iterations=60).act(observation, observation["legal_actions"]) for _ in range(2)]
    assert first[0] == first[1]


def test_it_beats_the_random_player_on_duplicate_deals() -> None:
    from osteria.arena.duplicate import Config, new_board_match
    from osteria.bots import RandomBot

    config = Config("tressette", ("ismcts", "random"), 6, seed=11)
    advantage = 0
    for board in range(config.deals):
        for side in (0, 1):  # the search plays seats 0 and 2, then seats 1 and 3
            match = new_board_match(config, board)
            bots = {seat: IsmctsBot(f"{board}/{seat}", iterations=30) if seat % 2 == side
                    else RandomBot(seat) for seat in range(4)}
            while not match.results:
                seat = match.decider
                assert seat is not None
                observation = match.observation(seat)
                match.play(bots[seat].act(observation, observation["legal_actions"]))
            delta = match.results[0].delta
            advantage += delta[side] - delta[1 - side]
    assert advantage > 2 * config.deals  # random play loses far more than two points a deal


def test_a_playout_plays_a_random_legal_action_unless_the_game_says_otherwise() -> None:
    # The engine's default for a playout's action is the draw the searches always made.
    match = osteria.new_match("quattrigghiu", seed=3)
    deal = match.deal
    assert deal is not None
    for seed in range(20):
        assert deal.playout_action(random.Random(seed)) == random.Random(seed).choice(deal.legal())
