"""The rule-based Calabresella player: only legal actions, and its key decisions."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import osteria
from osteria.bots import HEURISTICS, RandomBot, play_bots
from osteria.bots import calabresella as bot
from osteria.bots.calabresella import CalabresellaHeuristic, bid, estimated_tricks, next_best_sheds, shed_set
from osteria.bots.hybrid import HybridBot
from osteria.bots.search import Decision
from osteria.cards import ITALIAN_40, cards_of, parse_card
from osteria.engine import Deal, Match
from osteria.rules.tressette_family import STRENGTH, THIRDS

from helpers import bot_decision, play_checked, undealt


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def decision(match: Match, seat: int) -> str:
    return bot_decision(CalabresellaHeuristic(), match, seat)


def deal(*hands: str, widow: str = "", dealer: int = 0) -> Match:
    """A first deal with these hands (and, at three, this widow); dealer 0, so seat 1 speaks first."""
    match = undealt("calabresella", seed=0, seats=len(hands), dealer=dealer)
    stock = {"widow": cards(widow)} if widow else {}
    match.begin_deal([sorted(cards(h)) for h in hands], stock, dealer)
    return match


def test_the_heuristic_is_the_games_rule_based_player() -> None:
    assert HEURISTICS["calabresella"] is CalabresellaHeuristic


@pytest.mark.parametrize("seats", [3, 4, 5])
@pytest.mark.parametrize("eager", [False, True])
def test_only_legal_actions_over_many_random_matches(seats: int, eager: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if eager:  # call every hand, so that the exchange, the discard and the caller's play are met often
        monkeypatch.setattr(bot, "CALL_TRICKS", dict.fromkeys(bot.CALL_TRICKS, 0.0))
    for seed in range(12):
        match = osteria.new_match("calabresella", seed=seed, seats=seats, rounds=1)
        rng = random.Random(seed)
        bots = {seat: CalabresellaHeuristic() if rng.random() < 0.6 else RandomBot(seed * 8 + seat)
                for seat in range(seats)}
        play_checked(match, bots)
        assert sum(match.totals()) == 0


def test_heuristic_players_finish_matches_among_themselves() -> None:
    for seats in (3, 4, 5):
        match = osteria.new_match("calabresella", seed=seats, seats=seats, rounds=1)
        play_bots(match, {seat: CalabresellaHeuristic() for seat in range(seats)})
        assert match.finished


# -- the bidding ---------------------------------------------------------------------------------

def test_passes_a_weak_hand() -> None:
    assert bid(cards("4d 5d 6d 7d 4c 5c 6c 7c 4s 5s 6s 7s"), 3) == "passo"


def test_calls_the_three_that_completes_the_most() -> None:
    # The 3 of denari makes 3 2 A R of denari sure; the other threes add one trick at most.
    hand = cards("2d Ad Rd 7d 3c 2c Ac Cc 4s 5s 4b 5b")
    assert bid(hand, 3) == "chiamo 3d"
    assert estimated_tricks([*hand, parse_card("3d")], 2) > estimated_tricks([*hand, parse_card("3s")], 2)


def test_holding_every_three_calls_a_two() -> None:
    assert bid(cards("3d 3c 3s 3b Ad Rd Cd Ac Rc 4s 5s 4b"), 3) == "chiamo 2d"


def test_plays_alone_only_with_ten_sure_tricks() -> None:
    assert bid(cards("3d 2d Ad Rd Cd 3c 2c Ac 3s 2s As Rs"), 3) == "sola"
    # Strong, but the denari and coppe are broken: a call, not a sola.
    assert bid(cards("3d 2d Rd Cd 7d 3c 2c Rc 3s 2s As Rs"), 3).startswith("chiamo")


def test_the_first_speaker_bids_from_its_observation() -> None:
    match = deal("4d 5d 6d 7d 4c 5c 6c 7c 4s 5s 6s 7s",
                 "3d 2d Ad Rd Cd 3c 2c Ac 3s 2s As Rs",
                 "Fd Fc Ab Fs Cs 4b 5b 6b 7b Fb Cb Rb", widow="Cc Rc 2b 3b")
    assert decision(match, 1) == "sola"


# -- the exchange and the discard ----------------------------------------------------------------

def test_gives_a_small_card_and_lays_aside_what_would_lose() -> None:
    # Seat 1 calls the 3 of bastoni, which seat 2 holds, and takes the widow.
    match = deal("Fd Cd 7c Fc Cc Rc 6s 7s Fs Cs 4b Rb",
                 "3d 2d Ad Rd 3c 2c Ac 3s 2s As 5b 6b",
                 "4d 5d 6d 7d 4c 5c 6c 4s 5s 3b Ab Fb", widow="Rs 2b 7b Cb")
    match.play("chiamo 3b")
    ceded = decision(match, 1)
    given = parse_card(ceded.split()[1])
    assert THIRDS[given] == 0  # nothing with points goes to an opponent
    match.play(ceded)
    scarto = decision(match, 1)
    laid = cards(scarto.removeprefix("scarto "))
    # Every top card is kept: the 3 2 A of denari, coppe and spade, and the 3 2 of bastoni.
    assert not set(laid) & set(cards("3d 2d Ad 3c 2c Ac 3s 2s As 3b 2b"))
    match.play(scarto)
    assert match.observation(1)["phase"] == "play"


def test_the_discard_keeps_an_honours_guard() -> None:
    # The re of denari, with the ace above it out, stays guarded only while a small denari stays.
    # The bastoni's small cards lose as surely as the 5 of denari, but that one is the re's guard.
    hand = cards("3d 2d Rd 5d 7c 6c 4c 3s 2s As Rs 3b 2b Ab 5b 4b")
    assert sorted(shed_set(hand, 4)) == sorted(cards("7c 6c 4c 4b"))


def test_the_discards_next_to_the_rules_own_swap_a_loser_for_a_loser() -> None:
    # The same hand: the next best discards lay aside the 5 of bastoni in place of one of the
    # rule's four small cards, and only then the re of denari or its guard; never a top card.
    hand = cards("3d 2d Rd 5d 7c 6c 4c 3s 2s As Rs 3b 2b Ab 5b 4b")
    shed = shed_set(hand, 4)
    runners_up = next_best_sheds(hand, shed, 6)
    assert [sorted(s) for s in runners_up[:4]] == [sorted(cards(t)) for t in
                                                  ("7c 6c 4c 5b", "6c 4c 5b 4b", "7c 4c 5b 4b", "7c 6c 5b 4b")]
    assert {c for s in runners_up for c in s} - set(shed) == set(cards("5b Rd 5d"))


@settings(max_examples=100, deadline=None)
@given(st.permutations(cards_of(ITALIAN_40.mask)))
def test_the_next_best_discards_are_the_best_swaps_of_one_card(deck: list[int]) -> None:
    # Every swap of one card of the rule's discard for one kept, ranked by what the kept cards
    # are worth: the runners-up are the best of them, best first, each once.
    hand = deck[:16]
    shed = shed_set(hand, 4)
    kept = [c for c in hand if c not in shed]

    def worth(discard: list[int]) -> float:
        rest = [c for c in hand if c not in discard]
        return sum(whole_hand_keep_value(c, rest) for c in rest)

    runners_up = next_best_sheds(hand, shed, 48)
    assert len(runners_up) == 48
    worths = [worth(s) for s in runners_up]
    assert all(a >= b - 1e-9 for a, b in pairwise(worths))  # the sums may differ in the last bit
    assert {frozenset(s) for s in runners_up} == {frozenset(shed) - {out} | {keep} for out in shed for keep in kept}
    assert next_best_sheds(hand, shed, 3) == runners_up[:3]


def test_at_the_scarto_a_search_weighs_the_next_best_discards() -> None:
    # The hybrid's simulated candidates at the scarto are the rule's discard and its runners-up,
    # not discards drawn at random from the 1,820; elsewhere the rule names none.
    match = deal("Fd Cd 7c Fc Cc Rc 6s 7s Fs Cs 4b Rb",
                 "3d 2d Ad Rd 3c 2c Ac 3s 2s As 5b 6b",
                 "4d 5d 6d 7d 4c 5c 6c 4s 5s 3b Ab Fb", widow="Rs 2b 7b Cb")
    heuristic = CalabresellaHeuristic()
    assert heuristic.runners_up(match.observation(1), match.legal_actions(), "chiamo 3b") == []
    match.play("chiamo 3b")
    match.play(decision(match, 1))
    observation, legal = match.observation(1), match.legal_actions()
    choice = heuristic.act(observation, legal)
    runners_up = heuristic.runners_up(observation, legal, choice)
    assert choice not in runners_up and set(runners_up) <= set(legal) and len(runners_up) == 48
    weighed: list[list[str]] = []

    class Recording(HybridBot):
        def simulated_values(self, decision: Decision, deal: Deal, actions: dict[str, int]) -> dict[str, float]:
            weighed.append(list(actions))
            return super().simulated_values(decision, deal, actions)

    Recording(heuristic, seed=1, samples=2).act(observation, legal)
    assert weighed and all(names == [choice, *runners_up[:2]] for names in weighed)


def whole_hand_keep_value(c: int, hand: list[int]) -> float:
    """The keep value of ``c`` as the rule says it, from the whole hand."""
    mine = [x for x in hand if x // 13 == c // 13]
    missing = sum(1 for x in cards_of(ITALIAN_40.mask) if x // 13 == c // 13 and STRENGTH[x] > STRENGTH[c]
                  and x not in mine)
    lower = sum(1 for x in mine if STRENGTH[x] < STRENGTH[c])
    if missing == 0:
        return 100.0 + STRENGTH[c]
    if missing <= lower:
        return 50.0 - 10 * missing + STRENGTH[c]
    return 2.0 * len(mine) - 3 * THIRDS[c] + STRENGTH[c] / 10


@settings(max_examples=300, deadline=None)
@given(st.permutations(cards_of(ITALIAN_40.mask)), st.sampled_from([8, 10, 13, 16, 17]), st.sampled_from([1, 4, 5]))
def test_the_discard_sheds_what_valuing_the_whole_hand_again_sheds(deck: list[int], size: int, k: int) -> None:
    # Each card shed is the one whose loss leaves the rest of the hand worth most, the rest valued
    # whole again for every card; ties to the first such card in the hand's order.
    hand = deck[:size]
    kept = list(hand)
    for _ in range(k):
        kept.remove(max(kept, key=lambda c: sum(whole_hand_keep_value(x, [y for y in kept if y != c])
                                                   for x in kept if x != c)))
    assert shed_set(hand, k) == [c for c in hand if c not in kept]


# -- the play -----------------------------------------------------------------------------------

def sola_at_three() -> Match:
    """Seat 1 plays a sola and leads; seats 2 and 0 defend together."""
    match = deal("Ab 4b As 4s 5s 6s 7s Fs Cs 4d 5d 6d",
                 "3d 2d Ad 4c 5c 6c 7c Fc Cc Rc 3s 2s",
                 "7d Fd Cd Rd 3c 2c Ac Rs 3b 2b 5b 6b", widow="7b Fb Cb Rb")
    match.play("sola")
    return match


def test_the_soloist_cashes_a_carta_tre_with_its_point() -> None:
    # The ace of denari, under its own three and two, cannot be beaten: the point comes home.
    assert decision(sola_at_three(), 1) == "Ad"


def test_gives_an_ace_to_a_side_mate_sure_to_take() -> None:
    match = sola_at_three()
    match.play("4c")
    match.play("3c")  # seat 2 takes for sure; seat 0, last and void in coppe, adds a point
    # The ace of the suit where it is least protected: bastoni (one small card) before spade.
    assert decision(match, 0) == "Ab"


def test_does_not_feed_the_soloist() -> None:
    match = sola_at_three()
    match.play("3s")
    # Seat 2 has the re of spade and small denari: the soloist takes, seat 2 follows with its re.
    assert decision(match, 2) == "Rs"
    match.play("Rs")
    assert decision(match, 0) == "4s"  # the cheapest spade, never the ace


def test_the_secret_partner_gives_points_to_the_caller() -> None:
    match = deal("4d 5d 6d 7d 4c 5c 6c 7c",
                 "2d Ad Rd 3c 2c Ac 3s 2s",
                 "Fd Cd Fc Cc Rc As Rs Cs",
                 "3d Ab 4b 4s 5s 6s 7s Fs",
                 "2b 3b 5b 6b 7b Fb Cb Rb")
    match.play("chiamo 3d")  # seat 3 holds it: the caller's secret partner
    match.play("3c")
    match.play("Fc")
    observation = match.observation(3)
    assert observation["partner"] == 3 and match.observation(4)["partner"] is None
    # Void in coppe behind the caller's sure three: an ace, keeping the 3d that will take.
    assert decision(match, 3) == "Ab"
    # A defender in the same place would not give the caller a point.
    match.play("Ab")
    assert decision(match, 4) in ("5b", "6b", "7b")
