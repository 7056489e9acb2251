"""The rule-based Sancagna player: only legal actions, its own count of the tallies, and its key
decisions (cenni, loading the partner's trick, cheap takes, the call-out) in set positions."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import osteria
from osteria.bots import HEURISTICS, RandomBot, make_bot
from osteria.bots.sancagna import SancagnaHeuristic, count_tallies
from osteria.cards import BASTONI, parse_card
from osteria.rules.sancagna import POINTS, Sancagna, SancagnaDeal

BOT = SancagnaHeuristic()


def play_match(seed: int, options: dict[str, Any], mixed: bool) -> None:
    """A whole match where the heuristic holds every seat (or one side, against random), checking
    each of its actions against the legal ones and, a mente, its count against the true tallies."""
    match = osteria.new_match("sancagna", seed=seed, target=3, **options)
    bots = {s: RandomBot(seed * 4 + s) if mixed and s % 2 else BOT for s in range(4)}
    while not match.finished:
        if match.deal_due:
            match.begin_deal()
        seat = match.decider
        assert seat is not None
        obs = match.observation(seat)
        if bots[seat] is BOT and obs["calling"] is not None:
            deal = match.deal
            assert isinstance(deal, SancagnaDeal)
            assert count_tallies(obs) == deal.tally
        action = bots[seat].act(obs, obs["legal_actions"])
        assert action in obs["legal_actions"]
        match.play(action)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), a_mente=st.booleans(), mixed=st.booleans())
def test_only_legal_actions_and_a_true_count_of_the_tallies(seed: int, a_mente: bool, mixed: bool) -> None:
    play_match(seed, {"a_mente": a_mente}, mixed)


def test_under_tavola_it_never_revokes_and_counts_low_when_others_do() -> None:
    for seed in range(12):
        match = osteria.new_match("sancagna", seed=seed, target=2, tavola=True, a_mente=True)
        bots = {s: RandomBot(seed * 4 + s) if s % 2 else BOT for s in range(4)}
        while not match.finished:
            if match.deal_due:
                match.begin_deal()
            seat = match.decider
            assert seat is not None
            obs = match.observation(seat)
            deal = match.deal
            assert isinstance(deal, SancagnaDeal)
            if bots[seat] is BOT and obs["calling"] is not None:
                # a revoke's cost is always counted: the count may err low, never high
                assert all(c <= t for c, t in zip(count_tallies(obs), deal.tally, strict=True))
            match.play(bots[seat].act(obs, obs["legal_actions"]))
            assert all(s % 2 for s, _ in deal.found)


def test_it_takes_more_card_points_than_random_on_the_same_deals() -> None:
    margin = 0
    for board in range(60):
        for side in (0, 1):
            match = osteria.new_match("sancagna", seed=f"board/{board}")
            bots = {s: BOT if s % 2 == side else RandomBot(s) for s in range(4)}
            while not match.results:
                seat = match.decider
                assert seat is not None
                obs = match.observation(seat)
                match.play(bots[seat].act(obs, obs["legal_actions"]))
            points = match.results[0].points
            margin += points[side] - points[1 - side]
    assert margin / 120 > 1.5


def test_registered_as_the_sancagna_heuristic() -> None:
    assert HEURISTICS["sancagna"] is SancagnaHeuristic
    assert isinstance(make_bot("heuristic", game="sancagna"), SancagnaHeuristic)


# -- set positions ------------------------------------------------------------------------------


def deal_of(hands: list[str], turned: str = "9b", bottom: str = "8d", dealer: int = 3,
            tally: tuple[int, int] = (0, 0), **options: Any) -> SancagnaDeal:
    """A deal with the given hands (seat 0 first, cards space-separated); bastoni are trump."""
    cards = [[parse_card(c) for c in hand.split()] for hand in hands]
    return SancagnaDeal(Sancagna(**options), dealer, cards, parse_card(turned), parse_card(bottom), tally)


def act(deal: SancagnaDeal, results: list[dict[str, Any]] | None = None) -> str:
    seat = deal.to_move
    assert seat is not None
    obs = {**deal.observation(seat), "seat": seat, "results": results or []}
    return BOT.act(obs, [deal.action_str(a) for a in deal.legal()])


def play(deal: SancagnaDeal, *actions: str) -> None:
    for text in actions:
        deal.apply(deal.parse_action(text))


def play_card(deal: SancagnaDeal) -> str:
    """The bot's card, after the cenni it makes first."""
    while (action := act(deal)).startswith("cenno "):
        play(deal, action)
    return action


HANDS = ["Rb Fb Xb 3b 2b 4b", "5d 6d 7d 9d 5c Xd", "6c 7c 8c 9c 5s Xc", "6s 7s 8s 9s Fd Xs"]


def test_it_makes_every_true_cenno_before_its_card() -> None:
    deal = deal_of(HANDS)
    made = []
    while (action := act(deal)).startswith("cenno "):
        made.append(action)
        play(deal, action)
    assert sorted(made) == ["cenno comodin", "cenno gnagna", "cenno vecia", "cenno vecion"]
    # the partner reads them: seat 2 sees all four, the opponents none
    assert len(deal.observation(2)["cenni"]) == 4 and deal.observation(1)["cenni"] == []
    assert action in {deal.action_str(a) for a in deal.legal()}


def test_it_leads_a_sure_trump_first() -> None:
    # the re of trumps takes against anything, and the opponents must give up their trumps to it
    assert play_card(deal_of(HANDS)) == "Rb"


def test_it_calls_out_at_21_and_at_42() -> None:
    deal = deal_of(HANDS, tally=(15, 0))
    play(deal, play_card(deal), "5d", "6c", "6s")  # the re takes 8: 23, the opponents could still reach 21
    assert deal.caller == 0 and act(deal) == "fuori"
    deal = deal_of(HANDS, tally=(40, 0))
    play(deal, play_card(deal), "5d", "6c", "6s")
    assert act(deal) == "fuori"


def test_it_waits_for_42_only_when_the_opponents_cannot_reach_21() -> None:
    for theirs, expected in ((0, "avanti"), (1, "fuori")):
        deal = deal_of(HANDS, tally=(20, theirs))
        # seat 0 takes five trump tricks from the bottom up, saying avanti (as scripted) each time
        for lead in ("2b", "3b", "4b", "Xb", "Fb"):
            play(deal, lead)
            for _ in range(3):  # the others throw their cheapest cards
                play(deal, deal.action_str(min((a for a in deal.legal() if a < 52), key=POINTS[BASTONI].__getitem__)))
            if lead != "Fb":
                play(deal, *(["avanti", "avanti"] if deal.caller is not None else []))
        # 41 with the re still to take 8: 42 is sure, and at most the opponents could take the
        # three fours still unseen and the re: 0 + 12 + 8 is below 21, but 1 + 12 + 8 is not
        assert deal.tally[0] == 41 and deal.caller == 0
        assert act(deal) == expected


def test_a_mente_it_counts_and_says_avanti_below_21() -> None:
    deal = deal_of(HANDS, a_mente=True)
    play(deal, play_card(deal), "5d", "6c", "6s")
    assert "tally" not in deal.observation(0) and deal.caller == 0
    assert act(deal) == "avanti"  # 8 points: a call would be wrong
    # with 15 carried from the previous deal of the smazzata (taken there, nobody out) it calls
    earlier = [{"outcome": "continua", "points": [15, 3], "delta": [0, 0, 0, 0]}]
    assert act(deal, earlier) == "fuori"
    # after a fuori the callers keep only what they had beyond 21, the others start from zero
    earlier = [{"outcome": "fuori", "points": [4, 30], "delta": [0, 1, 0, 1]}]
    assert act(deal, earlier) == "avanti"


def test_it_gives_points_to_a_partner_sure_to_take() -> None:
    # seat 3 leads, seat 0 (void in denari) trumps with the re: seat 2 loads the trick
    deal = deal_of(["Rb 5c 6c 7c 8c 9c", "6d 5s 6s 7s 8s 9s", "3d 2d 9d Xs Fs Cs", "5d 7d Ac Ad Xd Fd"],
                   dealer=2)
    play(deal, "5d", "Rb", "6d")
    assert play_card(deal) == "3d"


def test_it_takes_points_cheaply_and_sheds_when_it_cannot() -> None:
    # seat 3 leads the 3 of denari; seat 2, last to play, takes with the four, not the two
    deal = deal_of(["5c 6c 7c 8c 9c Cc", "5d 5s 6s 7s 8s 9s", "4d 2d 9d Xs Fs Cs", "3d 7d Ac Ad Xd Fd"],
                   dealer=2)
    play(deal, "3d", "5c", "5d")
    assert play_card(deal) == "4d"
    # with the 4 gone and the 3 ahead, it keeps its 2 and sheds the scartina
    deal = deal_of(["5c 6c 7c 8c 9c Cc", "3d 5s 6s 7s 8s 9s", "Xc 2d 9d Xs Fs Cs", "4d 7d Ac Ad Xd Fd"],
                   dealer=2)
    play(deal, "4d", "5c", "3d")
    assert play_card(deal) == "9d"


def test_it_trumps_low_when_the_trick_is_poor() -> None:
    # seat 0, void in denari, must trump a scartina: the 5 of trumps, not the re
    deal = deal_of(["Rb 5b 6c 7c 8c 9c", "6d 5s 6s 7s 8s 9s", "3d 2d 9d Xs Fs Cs", "5d 7d Ac Ad Xd Fd"],
                   dealer=2)
    play(deal, "5d")
    assert play_card(deal) == "5b"


def test_it_leads_a_low_trump_to_a_partner_with_the_vecion() -> None:
    hands = ["5b 3b 4c 7c 8c 9c", "6d 5s 6s 7s 8s 9s", "Rb Ac 9d Xs Fs Cs", "5d 7d 2s Ad Xd Fd"]
    deal = deal_of(hands)
    play(deal, play_card(deal), "6d", "cenno vecion", "Ac", "5d")  # seat 2 signals the re of trumps
    assert deal.to_move == 0 and play_card(deal) == "5b"
