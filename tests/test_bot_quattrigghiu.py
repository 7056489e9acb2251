"""The rule-based Quattrigghiu player: only legal actions, and its key decisions."""

from __future__ import annotations

import itertools
import random

import pytest

import osteria
from osteria.bots import HEURISTICS, RandomBot, play_bots
from osteria.bots.hybrid import HybridBot
from osteria.bots.quattrigghiu import QuattrigghiuHeuristic
from osteria.cards import parse_card
from osteria.engine import Match
from osteria.rules.quattrigghiu import TRUMP_MASK

from helpers import bot_decision, fill_hands, match_with, play_checked


def decision(match: Match, seat: int) -> str:
    return bot_decision(QuattrigghiuHeuristic(), match, seat)


def first_deal(*hands: str, dealer: int = 0, **options: object) -> Match:
    """A first deal where seat i holds ``hands[i]``; whoever holds the 6 of denari speaks first."""
    return match_with("quattrigghiu", fill_hands("quattrigghiu", hands), dealer=dealer, **options)


def test_the_heuristic_is_the_games_rule_based_player() -> None:
    assert HEURISTICS["quattrigghiu"] is QuattrigghiuHeuristic


@pytest.mark.parametrize(("matador", "volontario"), list(itertools.product((True, False), repeat=2)))
def test_only_legal_actions_over_many_random_matches(matador: bool, volontario: bool) -> None:
    for seed in range(12):
        match = osteria.new_match("quattrigghiu", seed=seed, matador=matador, aiuto_volontario=volontario)
        rng = random.Random(seed)
        # Heuristic players at a random choice of seats, random players at the others.
        bots = {seat: QuattrigghiuHeuristic() if rng.random() < 0.6 else RandomBot(seed * 4 + seat)
                for seat in range(4)}
        play_checked(match, bots)


def test_heuristic_players_finish_matches_among_themselves() -> None:
    for seed in range(6):
        match = osteria.new_match("quattrigghiu", seed=seed, rounds=2)
        play_bots(match, {seat: QuattrigghiuHeuristic() for seat in range(4)})
        assert match.finished
        assert sum(match.totals()) == 0


# -- the call ------------------------------------------------------------------------------------

def test_calls_the_suit_with_most_trumps_and_the_re_of_a_void_suit() -> None:
    # Bastoni give seven trunfi (with the spatigghia, the manigghia 2b and the re); spade, the
    # only suit the hand lacks out of trunfi, give the re to call.
    match = first_deal("6d 2d As 2b Rb Cb 7b 5b 3c 4c")
    assert decision(match, 0) == "chiamu b Rs"


def test_calls_even_with_a_weak_hand() -> None:
    # Worth 1.45 basi with denari as trunfu, its best suit: passing would leave the call to a
    # later seat, whose side wins more often than a weak caller's loses.
    match = first_deal("6d 7d 2c 3c 3s 4s 5s 3b 4b 5b")
    assert decision(match, 0).startswith("chiamu d ")


def test_plays_alone_only_with_a_very_strong_hand() -> None:
    strong = first_deal("6d As 2s Ab Rs Cs Fs 7s 6s Rc")
    assert decision(strong, 0) == "sulita s"
    # Worth 5.5 basi in spade: alone (from 5.25).
    alone = first_deal("6d 2d As 2s Rs 7s 5s 4s 3s 3c")
    assert decision(alone, 0) == "sulita s"
    # Worth 5.1: with an aiutu.
    good = first_deal("6d 2d As 2s Rs Cs 7s 5s 3c 4c")
    assert decision(good, 0).startswith("chiamu s ")


def test_its_runners_up_in_the_call_are_the_best_call_and_sulita_of_each_suit() -> None:
    # Bastoni are worth most to this hand (5.1 basi), then denari and coppe (2.9 each, denari with
    # more trunfi in hand), then spade (2.0): for each, the call of the re the rule would call
    # there (the re of spade, a suit it lacks) and the sulità.
    match = first_deal("6d 2d As 2b Rb Cb 7b 5b 3c 4c")
    heuristic = QuattrigghiuHeuristic()
    observation, legal = match.observation(0), match.legal_actions()
    choice = heuristic.act(observation, legal)
    assert choice == "chiamu b Rs"
    runners_up = heuristic.runners_up(observation, legal, choice)
    assert runners_up == ["sulita b", "chiamu d Rs", "sulita d", "chiamu c Rs", "sulita c", "chiamu s Rs",
                          "sulita s", "passu"]
    assert set(runners_up) <= set(legal)
    # The hybrid weighs the best of each other kind, not one drawn at random.
    hybrid = HybridBot(heuristic, seed=3)
    for _ in range(10):
        assert hybrid.candidates(choice, legal, 3, runners_up) == [choice, "sulita b", "passu"]
    # In the card play it names none.
    assert heuristic.runners_up({"phase": "play", "hand": []}, ["4c", "3c"], "4c") == []


def test_the_holder_of_the_spatigghia_forced_to_call_picks_the_best_suit() -> None:
    match = first_deal("6d As 3s 4s 5s 6s 2c 3c 3b 4b")
    for _ in range(4):
        match.play("passu")
    assert match.decider == 0 and "passu" not in match.legal_actions()
    action = decision(match, 0)
    assert action.startswith("chiamu s ")


def test_never_calls_a_re_it_holds() -> None:
    for seed in range(40):
        match = osteria.new_match("quattrigghiu", seed=seed)
        while match.decider is not None and match.observation(match.decider)["phase"].startswith("chiamata"):
            seat = match.decider
            action = decision(match, seat)
            if action.startswith("chiamu"):
                assert action.split()[2] not in match.observation(seat)["hand"]
            match.play(action)


def test_answers_aiutu_with_trumps_in_the_callers_suit_and_passes_without() -> None:
    match = first_deal("6d As 2s Ab Rs 3c 4c 5c 3b 4b", "Cs Fs 7s 2d 3d 4d 5d 7d Fd Cd",
                       "Rd 2c 6c 7c Ac Fc Cc Rc 2b 5b", aiuto_volontario=True)
    match.play("chiamu s")
    assert decision(match, 1) == "aiutu"
    weak = first_deal("6d As 2s Ab Rs 3c 4c 5c 3b 4b", "2d 3d 4d 5d 7d Fd Cd 2c 6c 7c",
                      "Cs Fs 7s Rd Ac Fc Cc Rc 2b 5b", aiuto_volontario=True)
    weak.play("chiamu s")
    assert decision(weak, 1) == "passu"


# -- the play --------------------------------------------------------------------------------------

# Seat 0 holds the 6 of denari and calls spade with the re of denari (seat 1 holds it); seat 0
# has no coppe, seat 3 no denari and no coppe but four small trunfi.
HANDS = ("As 2s Ab Rs Cs Fs 7s Rb Fb 6d", "Rd Cd Fd Ad 2d 3d 4d 5d Cc Fc",
         "7d Ac 2c 3c 4c 5c 6c 7c Cb Rc", "6s 5s 4s 3s 2b 3b 4b 5b 6b 7b")


def test_the_caller_draws_trumps_with_the_spatigghia() -> None:
    match = first_deal(*HANDS, dealer=3)  # seat 0 leads
    match.play("chiamu s Rd")
    assert decision(match, 0) == "As"


def test_ruffs_when_void_with_the_smallest_trump() -> None:
    match = first_deal(*HANDS)  # seat 1 leads
    match.play("chiamu s Rd")
    match.play("5d")
    match.play("7d")
    assert decision(match, 3) == "3s"


def test_overruffs_last_with_the_lowest_trump_that_wins() -> None:
    match = first_deal(*HANDS)
    match.play("chiamu s Rd")
    for card in ("Cc", "2c", "3s"):  # seat 3 ruffs the coppe that seat 0 lacks too
        match.play(card)
    assert decision(match, 0) == "7s"


def test_gives_the_cheapest_card_to_a_partner_who_takes() -> None:
    match = first_deal(*HANDS)
    match.play("chiamu s Rd")
    match.play("Rd")  # the called re: seat 1 is the aiutu, and seat 2 knows seat 3 is his partner
    match.play("7d")
    match.play("4b")  # seat 3 sheds; seat 0, the caller, sees his aiutu take with the top denari
    assert decision(match, 0) == "6d"
    match.play("6d")
    # Seat 1 leads again; seat 2, with no denari and no trunfi, sheds his lowest card: out of
    # trunfi the seven is the lowest coppe.
    match.play("Ad")
    assert decision(match, 2) == "7c"


# -- the tutità --------------------------------------------------------------------------------------

def test_tutita_only_when_every_card_left_is_an_unbeatable_trump() -> None:
    # Seat 0 plays alone in spade, takes six basi with plain re and cavalli, and keeps the four
    # highest trunfi: whatever was played before, no card out can beat them.
    match = first_deal("As 2s Ab Rs Rd Cd Rc Cc Rb Cb", dealer=3)
    for _ in range(3):  # a seat holding the 6 of denari speaks first; all pass to seat 0
        match.play("passu")
    match.play("sulita s")
    for lead in ("Rd", "Cd", "Rc", "Cc", "Rb", "Cb"):
        match.play(lead)
        for _ in range(3):  # the others give way, never a trunfu
            rules = match.deals[0].deal
            match.play(next(a for a in match.legal_actions() if not TRUMP_MASK[rules.trump] >> parse_card(a) & 1))
    assert match.observation(0)["phase"] == "tutita"
    assert decision(match, 0) == "tutita"
    play_bots(match, {seat: QuattrigghiuHeuristic() for seat in range(4)})
    assert match.results[0].outcome == "tutita"
    # Strong too, but without the top trunfi the basi left are not sure: basta.
    unsure = first_deal(*HANDS, dealer=3)
    play_bots(unsure, {seat: QuattrigghiuHeuristic() for seat in range(4)})
    result = unsure.results[0]
    assert result.outcome == "vinta" and result.points == [6, 0]
    assert [0, "basta"] in unsure.observation(0, 0)["history"]
