"""The rule-based Traversone player: only legal actions, and its key decisions."""

from __future__ import annotations

import itertools
import random

import pytest

import osteria
from osteria.arena import Config, run
from osteria.bots import HEURISTICS, RandomBot, play_bots
from osteria.bots.traversone import TraversoneHeuristic
from osteria.engine import Match

from helpers import bot_decision, fill_hands, match_with, play_checked


def decision(match: Match, seat: int) -> str:
    return bot_decision(TraversoneHeuristic(), match, seat)


def first_deal(*hands: str, **options: object) -> Match:
    """A first deal at four where seat i holds ``hands[i]``; the holder of the 4 of denari leads."""
    return match_with("traversone", fill_hands("traversone", hands), **options)


def test_the_heuristic_is_the_games_rule_based_player() -> None:
    assert HEURISTICS["traversone"] is TraversoneHeuristic


@pytest.mark.parametrize(("seats", "asso", "zero"),
                         [(s, a, z) for s, (a, z) in itertools.product((3, 4, 5, 6),
                                                                       [(1, "dieci"), (11, "divide"), (18, "dieci")])])
def test_only_legal_actions_over_many_random_matches(seats: int, asso: int, zero: str) -> None:
    for seed in range(6):
        match = osteria.new_match("traversone", seed=seed, seats=seats, asso_bastoni=asso, zero_punti=zero,
                                  target=21)
        rng = random.Random(seed)
        bots = {seat: TraversoneHeuristic() if rng.random() < 0.6 else RandomBot(seed * 8 + seat)
                for seat in range(seats)}
        play_checked(match, bots)


def test_heuristic_players_finish_matches_among_themselves() -> None:
    for seats in (3, 4, 5, 6):
        match = osteria.new_match("traversone", seed=seats, seats=seats)
        play_bots(match, {seat: TraversoneHeuristic() for seat in range(seats)})
        assert match.finished


def test_ducks_under_the_winning_card_with_its_highest_that_stays_below() -> None:
    match = first_deal("4d Rd", "Fd 7d 3d", zero_punti="divide")
    match.play("Rd")
    assert decision(match, 1) == "Fd"


def test_piombo_throws_the_heavy_ace_of_bastoni_first() -> None:
    # Void in denari, seat 1 throws the ace of bastoni (11 points) before the ace of spade.
    match = first_deal("4d 5d 6d 7d Fd Cd Rd Ad 2d 3d", "As Ab 4s 5s 6s 7s", asso_bastoni=11)
    match.play("4d")
    assert decision(match, 1) == "Ab"


def test_piombo_throws_a_card_that_would_take_later() -> None:
    # Nothing of bastoni can beat the 3; the 4 of spade loses to every other spade.
    match = first_deal("4d 5d 6d 7d Fd Cd Rd Ad 2d 3d", "3b 4s 5s 6s 7s 4c 5c 6c 7c 4b", zero_punti="divide")
    match.play("4d")
    assert decision(match, 1) == "3b"


def test_leads_low_from_its_shortest_suit() -> None:
    match = first_deal("4d 5d 6d 7d 4c 5c 6c 4s 5s 4b", zero_punti="divide")
    assert decision(match, 0) == "4b"


def test_with_no_point_yet_takes_a_cheap_trick_rather_than_score_ten() -> None:
    # Seat 3 plays last to a trick of two thirds: the re takes it, and with it the point whose
    # lack would cost ten. Where a deal without a point is not worth ten, it ducks.
    # Under "divide" a player without a point shares the points of the ace of bastoni's taker:
    # little with an ace worth one, much with one worth eighteen.
    hands = ("4d Fd", "Cd", "6d", "Rd 7d 2c 3c")
    for zero, asso, expected in (("dieci", 1, "Rd"), ("divide", 1, "7d"), ("divide", 18, "Rd")):
        match = first_deal(*hands, zero_punti=zero, asso_bastoni=asso)
        for card in ("Fd", "Cd", "6d"):
            match.play(card)
        assert decision(match, 3) == expected, (zero, asso)


def test_with_no_point_yet_piombo_keeps_the_cards_that_may_take_one() -> None:
    # Void in denari, seat 1 throws its four, which neither scores nor takes; once a deal without
    # a point costs nothing special it throws the three of bastoni, which would take later.
    hands = ("4d 5d 6d 7d Fd Cd Rd Ad 2d 3d", "As 3b 5s 6s 7s 4c 5c 6c 7c Fs")
    for zero, expected in (("dieci", "4c"), ("divide", "3b")):
        match = first_deal(*hands, zero_punti=zero)
        match.play("4d")
        assert decision(match, 1) == expected, zero


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_it_beats_random_play_at_every_seat_count(seats: int) -> None:
    # At five and six seats a player holds few cards and often takes no trick at all: the ten
    # for a deal without a point is the score to avoid there.
    report = run(Config("traversone", ("heuristic", "random"), 120, seed=2026, seats=seats))
    assert report.advantages()[0].low > 0
