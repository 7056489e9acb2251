"""Tressette: the seed's rules and INTERPRETATIONS.md's decisions, scenario by scenario."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import osteria
from osteria.cards import ITALIAN_40, card, parse_card
from osteria.engine import DealResult
from osteria.rules.tressette import Tressette
from osteria.rules.tressette_family import STRENGTH, THIRDS

from helpers import NoSlip, fill_hands, match_with, play_random_action, play_randomly

EXAMPLES = Path(__file__).resolve().parent / "records"


def hands_for(*fixed: str) -> list[list[int]]:
    return fill_hands("tressette", fixed)


# -- cards ------------------------------------------------------------------------------------

def test_taking_order_is_three_two_ace_re_cavallo_fante_then_seven_down_to_four() -> None:
    order = [card(r, "c") for r in "32ARCF7654"]
    assert [STRENGTH[c] for c in order] == sorted((STRENGTH[c] for c in order), reverse=True)
    assert len({STRENGTH[c] for c in order}) == 10


def test_deck_holds_ten_points_and_two_thirds_and_the_last_trick_one_more() -> None:
    assert sum(THIRDS[c] for c in ITALIAN_40.cards) == 32  # 10 and 2/3
    assert THIRDS[parse_card("Ab")] == 3
    assert [THIRDS[parse_card(c)] for c in ("2b", "3b", "Fb", "Cb", "Rb")] == [1] * 5
    assert [THIRDS[parse_card(c)] for c in ("4b", "5b", "6b", "7b")] == [0] * 4


# -- leading and following ----------------------------------------------------------------------

def test_the_holder_of_the_four_of_denari_leads_the_first_deal() -> None:
    match = match_with("tressette", hands_for("", "", "4d"), dealer=0)
    assert match.to_move == 2


def test_later_deals_are_led_by_the_dealers_right() -> None:
    match = osteria.new_match("tressette", seed=3, dealer=1)
    rng = random.Random(0)
    while len(match.results) < 1:
        play_random_action(match, rng)
    assert match.deal_due and match.deal is not None and match.deal.over  # on view until dealt anew
    match.begin_deal()
    assert match.deal.dealer == 2
    assert match.to_move == 3


def test_a_player_must_follow_suit_and_a_void_player_may_play_anything() -> None:
    match = match_with("tressette", hands_for("4d", "5d 6c", "As Ac", "Rb 7b"), dealer=3)
    match.play("4d")
    assert match.legal_actions() == ["5d"]
    with pytest.raises(osteria.IllegalAction, match="must follow suit"):
        match.play("6c")
    match.play("5d")
    # seat 2 holds no denari: any card
    assert {"As", "Ac"} <= set(match.legal_actions())


def test_the_highest_card_of_the_suit_led_takes_the_trick() -> None:
    match = match_with("tressette", hands_for("4d", "3c", "Rd", "2d"), dealer=3, segni="muto")
    for action in ("4d", "3c", "Rd", "2d"):
        match.play(action)
    assert match.to_move == 3  # the 2 beats the re; the 3 of coppe is off suit
    obs = match.observation(0)
    assert obs["last_trick"]["winner"] == 3
    assert obs["thirds"] == [0, 3]  # the three, the re and the two: a third each


def test_playing_a_card_not_held_says_so() -> None:
    match = match_with("tressette", hands_for("4d"), dealer=3)
    with pytest.raises(osteria.IllegalAction, match="cannot play Rb: it is not in the hand"):
        match.play("Rb")
    with pytest.raises(osteria.IllegalAction, match="not a tressette action"):
        match.play("Zz")


# -- points -------------------------------------------------------------------------------------

def test_every_deal_gives_out_eleven_points() -> None:
    rng = random.Random(7)
    for _ in range(30):
        match = osteria.new_match("tressette", seed=rng.random().hex())
        play_randomly(match, rng)
        assert all(sum(r.points) == 11 for r in match.results)


def test_the_last_trick_is_worth_a_point() -> None:
    match = osteria.replay(json.loads((EXAMPLES / "tressette-01-accusi-and-cappotto.json").read_text()))
    deal = match.deals[1].deal
    # deal 2 of the example: side {0, 2} takes every trick: 32 thirds of cards and 3 of the last
    assert deal.thirds == [35, 0]  # type: ignore[attr-defined]


def test_cappotto_is_a_deal_where_one_side_takes_every_point() -> None:
    result = osteria.replay(json.loads((EXAMPLES / "tressette-01-accusi-and-cappotto.json").read_text())).result()
    assert [d["outcome"] for d in result["deals"]] == ["giocata", "cappotto"]


# -- accusi -------------------------------------------------------------------------------------

def accusi_of(match: osteria.Match) -> set[str]:
    return {a for a in match.legal_actions() if a.startswith("accuso")}


def test_three_of_a_kind_and_four_of_a_kind_and_napoletana_are_offered() -> None:
    hands = hands_for("4d Ad Ac As 2d 2c 2s 2b 3d", "", "", "")
    match = match_with("tressette", hands, dealer=3)
    assert accusi_of(match) == {"accuso Ad Ac As", "accuso 2d 2c 2s 2b", "accuso Ad 2d 3d"}


def test_four_of_a_kind_is_declared_as_the_four_not_as_a_three() -> None:
    match = match_with("tressette", hands_for("4d 3d 3c 3s 3b"), dealer=3)
    assert accusi_of(match) == {"accuso 3d 3c 3s 3b", "accuso Ad 2d 3d"}
    with pytest.raises(osteria.IllegalAction, match="declared as the four"):
        match.play("accuso 3d 3c 3s")


def test_a_card_may_serve_in_two_accusi_and_the_points_add_up() -> None:
    # napoletana of denari plus three threes: 6 points, even with no card point taken
    match = match_with("tressette", hands_for("4d Ad 2d 3d 3c 3s"), dealer=3)
    match.play("accuso Ad 2d 3d")
    match.play("accuso 3d 3c 3s")
    assert accusi_of(match) == set()
    deal = match.deal
    assert deal is not None
    rng = random.Random(1)
    while len(match.results) < 1:
        play_random_action(match, rng)
    result = match.results[0]
    assert result.delta[0] - result.points[0] == 6
    assert result.delta[1] == result.points[1]


def test_accusi_count_even_for_a_side_without_card_points() -> None:
    match = osteria.replay(json.loads((EXAMPLES / "tressette-01-accusi-and-cappotto.json").read_text()))
    assert match.results[1].points == [11, 0] and match.results[1].delta == [14, 0, 14, 0]
    # and the other way round: the side that declares may take no card point
    record = match.record()
    deal = record["deals"][1]
    del deal["actions"][0]  # no accuso by seat 2 ...
    deal["actions"].insert(1, [3, "accuso Ab 2b 3b"])  # ... but one by seat 3
    replayed = osteria.replay(record).result()["deals"][1]
    assert replayed["points"] == [11, 0] and replayed["delta"] == [11, 3, 11, 3]


def test_accusi_are_declared_only_at_ones_turn_in_the_first_trick_before_ones_card() -> None:
    match = match_with("tressette", hands_for("4d 5d", "Ad Ac As", "", ""), dealer=3)
    assert "accuso Ad Ac As" not in match.legal_actions()  # not seat 1's turn
    with pytest.raises(osteria.IllegalAction):
        match.play("accuso Ad Ac As")
    match.play("4d")
    assert "accuso Ad Ac As" in match.legal_actions()
    match.play("Ad")
    assert match.to_move == 2
    for _ in range(2):
        match.play(match.legal_actions()[0])
    # second trick: no accuso any more
    assert not accusi_of(match)


def test_an_accuso_is_declared_once() -> None:
    match = match_with("tressette", hands_for("4d Ad Ac As"), dealer=3)
    match.play("accuso Ad Ac As")
    with pytest.raises(osteria.IllegalAction, match="cannot declare it twice"):
        match.play("accuso As Ad Ac")  # any order names the same accuso


def test_the_faliante_is_shown_by_default_and_hidden_with_the_option() -> None:
    for faliante, seen in ((True, "accuso Ad Ac As"), (False, "accuso tris A")):
        match = match_with("tressette", hands_for("4d Ad Ac As"), dealer=3, faliante=faliante)
        match.play("accuso Ad Ac As")
        assert match.observation(1)["accusi"] == [[0, seen]]
        assert match.observation(0)["accusi"] == [[0, "accuso Ad Ac As"]]
        assert "Ac" not in json.dumps(match.observation(1)) or faliante
        assert match.record()["deals"][0]["actions"][0] == [0, "accuso Ad Ac As"]


# -- signals ------------------------------------------------------------------------------------

def test_nord_signals_are_true_ones_only_and_only_from_the_leader() -> None:
    match = match_with("tressette", hands_for("4d 5d Ac", "6d"), dealer=3)
    legal = set(match.legal_actions())
    assert {"4d", "4d busso", "4d striscio", "Ac", "Ac busso", "Ac volo"} <= legal
    assert "4d volo" not in legal and "Ac striscio" not in legal
    with pytest.raises(osteria.IllegalAction, match="not be true"):
        match.play("4d volo")
    match.play("4d striscio")
    with pytest.raises(osteria.IllegalAction, match="only the leader"):
        match.play("6d busso")


def test_segni_muto_has_no_signals() -> None:
    match = match_with("tressette", hands_for("4d 5d Ac"), dealer=3, segni="muto")
    assert all(" " not in a for a in match.legal_actions() if not a.startswith("accuso"))
    with pytest.raises(osteria.IllegalAction, match="muto"):
        match.play("4d busso")


def test_segni_sud_describe_a_new_suit_truly() -> None:
    hands = hands_for("4d Ac 2c 3c Rs 6s 7s 5s Fb", "Ad 2d 3d 5d 6d 7d Fd Cd Rd")
    match = match_with("tressette", hands, dealer=3, segni="sud")
    legal = set(match.legal_actions())
    assert {"Ac napoli", "Rs quarta", "Fb volo", "4d volo"} <= legal
    assert "Rs terza" not in legal and "Ac voglio_tre" not in legal and "Rs busso" not in legal
    match.play("Rs quarta")
    for _ in range(3):
        match.play(match.legal_actions()[0])
    if match.to_move == 0:  # a suit already led: no statement about it any more
        assert not any(a.startswith("6s ") for a in match.legal_actions())


def test_sud_voglio_and_ho_follow_the_carichi_held() -> None:
    match = match_with("tressette", hands_for("4d Ac 2c 6c 3s", "", "", ""), dealer=3, segni="sud")
    legal = set(match.legal_actions())
    assert {"Ac voglio_tre", "6c voglio_tre", "3s ho_tre", "3s volo"} <= legal
    assert "Ac ho_asso" not in legal


# -- the match ------------------------------------------------------------------------------------

def status(totals: tuple[int, int], target: int = 31) -> tuple[bool, list[int] | None]:
    rules = Tressette(target=target)
    delta = [totals[0], totals[1], totals[0], totals[1]]
    return rules.match_status([DealResult("giocata", [0, 0], delta)])


def test_the_first_side_to_the_target_wins() -> None:
    assert status((31, 20)) == (True, [0, 2])
    assert status((30, 20)) == (False, None)
    assert status((12, 41), target=41) == (True, [1, 3])
    assert status((21, 3), target=21) == (True, [0, 2])


def test_both_sides_past_the_target_the_higher_wins_and_a_tie_plays_on() -> None:
    assert status((33, 35)) == (True, [1, 3])
    assert status((34, 34)) == (False, None)


def test_the_target_is_21_31_or_41() -> None:
    with pytest.raises(osteria.RulesError, match="target"):
        osteria.new_match("tressette", target=30)


# -- col morto ------------------------------------------------------------------------------------

def test_the_dummys_hand_is_seen_by_everyone_and_played_by_its_partner() -> None:
    match = match_with("tressette", hands_for("4d", "", "Ad"), dealer=3, morto=[2])
    assert match.observation(1)["hands"][2] == match.observation(2)["hand"]
    assert match.observation(1)["hands"][0] is None and match.observation(1)["hands"][3] is None
    match.play("4d")
    match.play(match.legal_actions()[0])
    assert match.to_move == 2 and match.decider == 0
    assert match.observation(0)["legal_actions"] and not match.observation(2)["legal_actions"]


def test_two_players_play_with_two_dummies_and_a_side_keeps_a_player() -> None:
    match = osteria.new_match("tressette", seed=1, morto=[2, 3])
    deciders = set()
    rng = random.Random(2)
    while not match.finished:
        if match.deal_due:
            match.begin_deal()
        deciders.add(match.decider)
        play_random_action(match, rng)
    assert deciders == {0, 1}
    with pytest.raises(osteria.RulesError, match="one dummy per side"):
        osteria.new_match("tressette", morto=[1, 3])
    with pytest.raises(osteria.RulesError, match="morto"):
        osteria.new_match("tressette", morto=[4])


# -- reproducibility ------------------------------------------------------------------------------

def test_a_seed_deals_the_same_cards_everywhere() -> None:
    a, b = osteria.new_match("tressette", seed=1), osteria.new_match("tressette", seed=1)
    a.legal_actions(), b.legal_actions()  # the first deal is dealt when first needed
    assert a.record() == b.record()
    # pinned: the same seed must deal these cards on every platform and Python version
    assert a.record()["deals"][0]["hands"][0] == ["2d", "3d", "6d", "7d", "Rd", "2c", "Fc", "Fs", "3b", "Cb"]


def test_without_a_seed_the_deal_comes_from_the_cryptographic_generator() -> None:
    deals = []
    for _ in range(2):
        match = osteria.new_match("tressette")
        assert isinstance(match._rng, random.SystemRandom)
        match.legal_actions()
        deals.append(match.record()["deals"][0]["hands"])
    assert deals[0] != deals[1]


# -- quick simulations ------------------------------------------------------------------------------

FIRST_HANDS = ["4d 6d 7d Fd Cd Rd 4c 5c 6c 7c", "3d 2d 5d 4s 5s 6s 7s Fs Cs Rs", "Ad"]


def playout_card(match: osteria.Match) -> str:
    deal = match.deal
    assert deal is not None
    return deal.action_str(deal.playout_action(NoSlip(0))).split()[0]


def test_a_playout_leads_low_from_its_longest_suit_when_no_card_surely_takes_points() -> None:
    match = match_with("tressette", hands_for(*FIRST_HANDS), dealer=3)
    assert playout_card(match) == "4d"


def test_a_playout_leads_a_card_sure_to_take_points() -> None:
    match = match_with("tressette", hands_for("4d 5d 6d 7d Fd Cd 3c Rc 4s 5s"), dealer=3)
    assert playout_card(match) == "3c"  # the re may meet the ace, two or three of coppe


def test_a_playout_takes_with_its_weakest_card_sure_to_take() -> None:
    match = match_with("tressette", hands_for(*FIRST_HANDS), dealer=3)
    match.play("4d")
    assert playout_card(match) == "2d"  # the 5 would take, but the ace comes after it


def test_a_playout_declares_its_accuso_then_gives_most_to_a_partner_sure_to_take() -> None:
    match = match_with("tressette", hands_for(*FIRST_HANDS), dealer=3)
    for action in ("4d", "3d", "Ad"):
        match.play(action)
    # Seat 3 holds every bastoni, the napoletana among them; its partner's three takes surely.
    assert playout_card(match) == "accuso"
    match.play(match.deal.action_str(match.deal.playout_action(NoSlip(0))))
    assert playout_card(match) == "Ab"


def test_a_playout_sheds_its_least_card_when_the_other_side_takes() -> None:
    match = match_with("tressette", hands_for(*FIRST_HANDS), dealer=3)
    for action in ("4d", "5d", "Ad"):
        match.play(action)
    match.play(match.deal.action_str(match.deal.playout_action(NoSlip(0))))  # the accuso
    assert playout_card(match) == "4b"


def test_playouts_play_legal_actions_to_the_end_of_the_deal() -> None:
    for seed in range(20):
        match = osteria.new_match("tressette", seed=seed)
        deal = match.deal
        assert deal is not None
        rng = random.Random(seed)
        while deal.to_move is not None:
            action = deal.playout_action(rng)
            assert action in deal.legal()
            deal.apply(action)
        assert sum(deal.result().delta) >= 11
