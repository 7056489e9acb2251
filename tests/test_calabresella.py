"""Calabresella: the seed's rules, its two stake tables and INTERPRETATIONS.md's decisions."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import osteria
from osteria.cards import CARD_STRINGS, ITALIAN_40, parse_card
from osteria.engine import IllegalAction, Match, RulesError
from osteria.rules.calabresella import SCARTO, CalabresellaDeal, scarti, scarto_str

from helpers import fill_hands, finish_deal, play_random_action, undealt

EXAMPLES = Path(__file__).resolve().parent / "records"

# The seed's tables as printed: (caller, partner, each opponent) when the caller's side wins;
# a loss turns every sign. Three and four players: one table; five players: the other.
SEED_TABLES = {
    3: {("chiamata", "vinta"): (2, 0, 1), ("chiamata", "cappotto"): (4, 0, 2),
        ("sola", "vinta"): (4, 0, 2), ("sola", "cappotto"): (8, 0, 4)},
    4: {("chiamata", "vinta"): (3, 0, 1), ("chiamata", "cappotto"): (6, 0, 2),
        ("sola", "vinta"): (6, 0, 2), ("sola", "cappotto"): (12, 0, 4)},
    5: {("chiamata", "vinta"): (2, 1, 1), ("chiamata", "cappotto"): (4, 2, 2),
        ("sola", "vinta"): (8, 0, 2), ("sola", "cappotto"): (16, 0, 4)},
}


def expected_delta(seats: int, contract: str, row: str, won: bool, caller: int, partner: int | None) -> list[int]:
    caller_stake, partner_stake, opponent_stake = SEED_TABLES[seats][contract, row]
    sign = 1 if won else -1
    delta = [-sign * opponent_stake] * seats
    delta[caller] = sign * caller_stake
    if partner is not None:
        delta[partner] = sign * partner_stake
    return delta


def start(fixed: Sequence[str], seats: int, dealer: int = 0, widow: str = "", **options: Any) -> Match:
    """A match whose first deal gives seat i the cards of fixed[i] (the rest filled in order)."""
    widow_cards = [parse_card(c) for c in widow.split()]
    hands = fill_hands("calabresella", [*fixed, *[""] * (seats - len(fixed))], seats=seats,
                       **options) if not widow_cards else _hands_around(fixed, seats, widow_cards)
    used = {c for h in hands for c in h}
    rest = [c for c in ITALIAN_40.cards if c not in used]
    match = undealt("calabresella", seed=0, seats=seats, dealer=dealer, **options)
    match.begin_deal(hands, {"widow": rest} if rest else {}, dealer)
    return match


def _hands_around(fixed: Sequence[str], seats: int, widow: list[int]) -> list[list[int]]:
    hands = [[parse_card(c) for c in (fixed[s].split() if s < len(fixed) else [])] for s in range(seats)]
    used = {c for h in hands for c in h} | set(widow)
    rest = [c for c in ITALIAN_40.cards if c not in used]
    for hand in hands:
        while len(hand) < 12:
            hand.append(rest.pop(0))
    return [sorted(h) for h in hands]


def deal_of(match: Match) -> CalabresellaDeal:
    deal = match.deals[-1].deal
    assert isinstance(deal, CalabresellaDeal)
    return deal



def cards(text: str) -> list[str]:
    return text.split()


# -- the example ---------------------------------------------------------------------------------

def test_the_example_record_replays_to_its_expected_output() -> None:
    record = json.loads((EXAMPLES / "calabresella-02-4p-cappotto-both-ways.json").read_text())
    expected = json.loads((EXAMPLES / "calabresella-02-4p-cappotto-both-ways.expected.json").read_text())
    match = osteria.replay(record)
    assert match.result() == expected
    assert osteria.replay(match.record()).result() == expected


# -- the deal and the bidding --------------------------------------------------------------------

@pytest.mark.parametrize(("seats", "size", "widow"), [(3, 12, 4), (4, 10, 0), (5, 8, 0)])
def test_hands_and_widow_by_number_of_players(seats: int, size: int, widow: int) -> None:
    match = osteria.new_match("calabresella", seed=1, seats=seats)
    assert match.deal is not None
    record = match.deals[-1]
    assert [len(h) for h in record.hands] == [size] * seats
    assert len(record.stock.get("widow", [])) == widow


def test_bidding_starts_at_the_dealers_right_and_offers_pass_call_and_sola() -> None:
    match = start([], 4, dealer=2)
    assert match.to_move == 3
    legal = match.legal_actions()
    held = {CARD_STRINGS[c] for c in match.deals[-1].hands[3]}
    assert legal[0] == "passo" and legal[-1] == "sola"
    called = {a.split()[1] for a in legal if a.startswith("chiamo")}
    assert called == {CARD_STRINGS[c] for c in ITALIAN_40.cards} - held
    with pytest.raises(IllegalAction, match="one calls a card one does not hold"):
        match.play(f"chiamo {sorted(held)[0]}")


def test_all_pass_is_a_monte_and_the_next_seat_deals() -> None:
    match = start([], 3, dealer=1)
    for _ in range(3):
        match.play("passo")
    assert match.results[-1].as_json() == {"outcome": "monte", "points": [0, 0], "delta": [0, 0, 0]}
    match.begin_deal()
    assert match.deal is not None and match.deal.dealer == 2
    assert match.to_move == 0


def test_the_first_call_ends_the_bidding() -> None:
    match = start(["3d"], 5, dealer=0)
    match.play("passo")
    match.play("chiamo 3d")
    deal = deal_of(match)
    assert deal.phase == "play" and deal.caller == 2
    assert match.to_move == 1  # the dealer's right leads a called game


# -- three players: the widow, the exchange and the discard -------------------------------------

def test_called_card_in_the_widow_no_exchange_then_four_cards_discarded_face_down() -> None:
    match = start(["", "Ad 2d", ""], 3, dealer=0, widow="3d 4b 5b 6b")
    match.play("chiamo 3d")
    deal = deal_of(match)
    assert deal.phase == "scarto" and deal.hands[1].bit_count() == 16
    assert match.to_move == 1
    assert all(a.startswith("scarto ") for a in match.legal_actions())
    assert len(match.legal_actions()) == 1820  # four of sixteen
    for seat in (0, 2):
        assert match.observation(seat)["called_holder"] == "widow"
        assert match.observation(seat)["widow"] is None
    assert match.observation(1)["widow"] == ["3d", "4b", "5b", "6b"]
    match.play("scarto 6b 5b 4b Ad")  # any order; written canonically
    assert deal.hands[1].bit_count() == 12
    assert match.record()["deals"][0]["actions"][-1] == [1, "scarto Ad 4b 5b 6b"]
    for seat in (0, 2):
        obs = match.observation(seat)
        assert obs["discards"] is None
        assert [1, "scarto"] in obs["history"]
        assert "Ad" not in json.dumps(obs) and "4b" not in json.dumps(obs)
    assert match.observation(1)["discards"] == ["Ad", "4b", "5b", "6b"]
    assert match.to_move == 1  # the dealer's right leads
    result = finish_deal(match)
    assert sum(result["points"]) == 11


def test_a_playout_draws_the_scarto_uniformly_without_listing_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # A search's playouts play many scarti: each is drawn as four cards of the hand, every set as
    # likely as in a choice among the 1,820 listed, and the listing (most of a playout's time) spared.
    match = start(["", "Ad 2d", ""], 3, dealer=0, widow="3d 4b 5b 6b")
    match.play("chiamo 3d")
    deal = deal_of(match)
    legal = set(deal.legal())
    hand = deal.hands[1]

    def unlisted() -> list[int]:
        raise AssertionError("the scarto was listed")

    monkeypatch.setattr(deal, "legal", unlisted)
    rng = random.Random(7)
    counts = dict.fromkeys(range(40), 0)
    draws = 4000
    for _ in range(draws):
        action = deal.playout_action(rng)
        assert action in legal
        for card in range(40):
            counts[card] += action >> card & 1
    # Each of the sixteen cards is in a quarter of the scarti; the widest of 16 binomials of
    # 4,000 draws at p = 1/4 strays some 0.02 from it.
    assert all(abs(counts[c] / draws - 0.25) < 0.04 for c in range(40) if hand >> c & 1)
    assert all(counts[c] == 0 for c in range(40) if not hand >> c & 1)


def test_called_card_in_a_hand_is_exchanged_for_a_card_shown_to_all() -> None:
    match = start(["3d", "Ad 2d", ""], 3, dealer=0, widow="4b 5b 6b 7b")
    match.play("chiamo 3d")
    deal = deal_of(match)
    assert deal.phase == "cedo" and match.to_move == 1
    for seat in range(3):
        assert match.observation(seat)["called_holder"] == 0
    match.play("cedo 7b")
    assert deal.hands[0] >> parse_card("7b") & 1 and deal.hands[1] >> parse_card("3d") & 1
    assert deal.hands[1].bit_count() == 16
    for seat in range(3):
        assert match.observation(seat)["ceded"] == "7b"
    assert deal.phase == "scarto"


def test_sola_at_three_leaves_the_widow_unseen_the_soloist_leads_and_the_last_trick_takes_it() -> None:
    match = start([], 3, dealer=0, widow="Ab 2b 3b Rb")
    match.play("passo")
    match.play("sola")
    deal = deal_of(match)
    assert match.to_move == 2 and deal.hands[2].bit_count() == 12
    for seat in range(3):
        assert match.observation(seat)["widow"] is None
        assert "Ab" not in json.dumps(match.observation(seat))
    finish_deal(match)
    thirds = deal.final_thirds()
    assert sum(thirds) == 35
    assert deal.last_taker is not None
    assert thirds[deal.last_taker] == deal.taken[deal.last_taker] + 3 + 6  # the last trick, Ab, three figures


def test_exchange_at_four_then_the_dealers_right_leads() -> None:
    match = start(["", "Ad", "3c"], 4, dealer=3)
    match.play("passo")
    match.play("chiamo 3c")
    assert match.to_move == 1
    with pytest.raises(IllegalAction, match="cedo"):
        match.play("Ad")
    match.play("cedo Ad")
    assert match.observation(3)["ceded"] == "Ad"
    assert match.to_move == 0


# -- signals -------------------------------------------------------------------------------------

def test_no_signals_in_the_first_trick_then_busso_and_a_true_striscio_for_the_leader() -> None:
    match = start(["4d 5d 6d 7d 4c 5c 6c 7c 4s 5s", "3d 2d Ad Rd Cd Fd 3c 2c Ac Rc"], 4, dealer=0)
    match.play("sola")  # seat 1 leads
    assert not any(" " in a for a in match.legal_actions())
    with pytest.raises(IllegalAction, match="no signals in the first trick"):
        match.play("3d busso")
    match.play("3d")
    for _ in range(3):
        match.play(match.legal_actions()[0])
    assert match.to_move == 1
    legal = match.legal_actions()
    assert "2d busso" in legal and "2d striscio" in legal
    assert "Rc striscio" in legal and "volo" not in " ".join(legal)
    with pytest.raises(IllegalAction):
        match.play("2d volo")
    match.play("2d striscio")
    assert not any(" " in a for a in match.legal_actions())
    with pytest.raises(IllegalAction, match="only the leader"):
        match.play(match.legal_actions()[0] + " busso")


def test_striscio_is_offered_only_with_another_card_of_the_suit() -> None:
    match = start(["4d 5d 6d 7d 4c 5c 6c 7c 4s 5s", "3d 2d Ad Rd Cd Fd 7b 2c Ac Rc"], 4, dealer=0)
    match.play("sola")
    match.play("3d")
    for _ in range(3):
        match.play(match.legal_actions()[0])
    legal = match.legal_actions()
    assert "7b busso" in legal and "7b striscio" not in legal
    with pytest.raises(IllegalAction, match="cannot say striscio"):
        match.play("7b striscio")


# -- five players: the secret partner ------------------------------------------------------------

def test_the_secret_partner_is_known_only_to_himself_until_the_called_card_is_played() -> None:
    match = start(["", "3d 2d Ad Rd Cd Fd 7d 6d", "", "3c"], 5, dealer=0)
    match.play("chiamo 3c")
    assert match.to_move == 1  # no exchange at five
    assert match.observation(3)["partner"] == 3
    deal = deal_of(match)
    assert not deal.holder_shown()
    for seat in (0, 1, 2, 4):
        obs = match.observation(seat)
        assert obs["partner"] is None and obs["called_holder"] is None
    rng = random.Random(2)
    while "3c" not in match.observation(0)["played"]:
        assert match.observation(1)["partner"] is None
        assert [deal.partner_known_to(s) for s in range(5)] == [False, False, False, True, False]
        play_random_action(match, rng)
    for seat in range(5):
        assert match.observation(seat)["partner"] == 3
        assert deal.partner_known_to(seat)


def test_the_caller_alone_sees_the_widow_he_takes_and_the_cards_he_lays_aside() -> None:
    match = start(["", "Ad 2d", ""], 3, dealer=0, widow="3d 4b 5b 6b")
    match.play("chiamo 3d")
    deal = deal_of(match)
    assert deal.holder_shown()
    assert [deal.widow_seen_by(s) for s in range(3)] == [False, True, False]
    assert not any(deal.discards_seen_by(s) for s in range(3))  # not laid aside yet
    match.play("scarto 6b 5b 4b Ad")
    scarto = deal.history[-1][1]
    assert [deal.discards_seen_by(s) for s in range(3)] == [False, True, False]
    assert [deal.seen_action(s, 1, scarto) for s in range(3)] == ["scarto", "scarto Ad 4b 5b 6b", "scarto"]
    assert not any(deal.partner_known_to(s) for s in range(3))  # a partner only at five


def test_a_sola_shows_the_widow_to_nobody() -> None:
    match = start([], 3, dealer=0, widow="Ab 2b 3b Rb")
    match.play("sola")
    deal = deal_of(match)
    assert not any(deal.widow_seen_by(s) or deal.discards_seen_by(s) for s in range(3))
    assert not deal.holder_shown()


# -- the stakes: every cell of both tables -------------------------------------------------------
# Hands where the result cannot depend on the play: a whole suit led by the caller takes every
# trick; cartine alone, without the lead, take none.

FORCED: list[tuple[int, list[str], str, list[str], bool]] = [
    # seats, hands (from seat 0; dealer 0), widow, scripted actions, caller's side wins
    (3, ["", "Ad 2d 3d 4d 5d 6d 7d Fd Cd Rd 3c 2c"], "Ac 4c 5c 6c", ["sola"], True),
    (3, ["", "4d 5d 6d 7d 4c 5c 6c 7c 4s 5s 6s 7s"], "4b 5b 6b 7b", ["sola"], False),
    (3, ["", "Ad 2d 3d 4d 5d 6d 7d Fd Cd Rd 3c 2c"], "Ac 4c 5c 6c",
     ["chiamo Ab", "cedo 4c", "scarto Ac 5c 6c Ab"], True),
    (3, ["", "", "4d 5d 6d 7d 4c 5c 6c 7c 4s 5s 6s 7s"], "4b 5b 6b 7b",
     ["passo", "chiamo Fb", "cedo 4b", "scarto 5b 6b 7b Fb"], False),
    (4, ["", "Ad 2d 3d 4d 5d 6d 7d Fd Cd Rd"], "", ["sola"], True),
    (4, ["", "4d 5d 6d 7d 4c 5c 6c 7c 4s 5s"], "", ["sola"], False),
    (4, ["", "Ad 2d 3d 5d 6d 7d Fd Cd Rd 4c"], "", ["chiamo 4d", "cedo 4c"], True),
    (4, ["", "", "4d 5d 6d 7d 4c 5c 6c 7c 5s 6s"], "", ["passo", "chiamo 4s", "cedo 7d"], False),
    (5, ["", "Ad 2d 3d 6d 7d Fd Cd Rd"], "", ["sola"], True),
    (5, ["", "4d 5d 6d 7d 4c 5c 6c 7c"], "", ["sola"], False),
    (5, ["", "Ad 2d 3d 6d 7d Fd Cd Rd", "", "3c"], "", ["chiamo 3c"], True),
    (5, ["", "", "4d 5d 6d 7d 4c 5c 6c 7c", "4s 5s 6s 7s 4b 5b 6b 7b"], "", ["passo", "chiamo 4s"], False),
]


@pytest.mark.parametrize(("seats", "fixed", "widow", "script", "won"), FORCED)
def test_cappotto_cells_of_the_stake_tables(seats: int, fixed: list[str], widow: str, script: list[str],
                                            won: bool) -> None:
    for seed in range(3):
        match = start(fixed, seats, widow=widow)
        for action in script:
            match.play(action)
        deal = deal_of(match)
        contract, caller, partner = deal.contract, deal.caller, deal.partner
        assert contract is not None and caller is not None
        result = finish_deal(match, seed)
        assert result["outcome"] == "cappotto"
        assert result["points"] == ([11, 0] if won else [0, 11])
        assert result["delta"] == expected_delta(seats, contract, "cappotto", won, caller, partner)
        assert sum(result["delta"]) == 0


def _bid(match: Match, contract: str, rng: random.Random) -> None:
    legal = match.legal_actions()
    if contract == "sola":
        match.play("sola")
    else:
        match.play(rng.choice([a for a in legal if a.startswith("chiamo")]))


@pytest.mark.parametrize("seats", [3, 4, 5])
@pytest.mark.parametrize("contract", ["chiamata", "sola"])
def test_won_and_lost_cells_of_the_stake_tables(seats: int, contract: str) -> None:
    seen = set()
    for seed in range(200):
        rng = random.Random(seed)
        match = osteria.new_match("calabresella", seed=seed, seats=seats, dealer=0)
        assert match.deal is not None
        _bid(match, contract, rng)
        deal = deal_of(match)
        caller, partner = deal.caller, deal.partner
        assert caller is not None
        result = finish_deal(match, seed)
        points = result["points"]
        won = points[0] >= 6
        row = "cappotto" if min(points) == 0 else "vinta"
        assert result["outcome"] == ("cappotto" if row == "cappotto" else "vinta" if won else "persa")
        assert result["delta"] == expected_delta(seats, contract, row, won, caller, partner)
        seen.add(result["outcome"])
        if {"vinta", "persa"} <= seen:
            break
    assert {"vinta", "persa"} <= seen


def test_one_or_two_thirds_are_no_point_so_still_cappotto() -> None:
    for seed in range(200):
        rng = random.Random(seed)
        match = osteria.new_match("calabresella", seed=seed, seats=4, dealer=0)
        _bid(match, "chiamata", rng)
        result = finish_deal(match, seed)
        deal = deal_of(match)
        thirds = deal.final_thirds()
        side = deal.side()
        side_thirds = [sum(thirds[s] for s in side), sum(thirds[s] for s in range(4) if s not in side)]
        assert sum(side_thirds) == 35
        if min(side_thirds) in (1, 2):
            assert result["outcome"] == "cappotto" and min(result["points"]) == 0
            assert sorted(result["points"]) == [0, 11]
            return
    pytest.fail("no deal where a side took only one or two thirds")


# -- the match -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("seats", "rounds"), [(3, 1), (4, 2), (5, 1)])
def test_the_match_lasts_its_rounds_and_the_highest_total_wins(seats: int, rounds: int) -> None:
    match = osteria.new_match("calabresella", seed=seats, seats=seats, rounds=rounds)
    rng = random.Random(seats)
    while not match.finished:
        play_random_action(match, rng)
    assert len(match.results) == rounds * seats
    result = match.result()
    best = max(result["totals"])
    assert result["winners"] == [s for s in range(seats) if result["totals"][s] == best]
    assert osteria.replay(match.record()).result() == result


# The seed's "chiamare mano": the dealer may end the match after the player before him has dealt.

def play_deals(match: Match, rng: random.Random, deals: int) -> None:
    """Play on until ``deals`` deals are over (or the match is), leaving the last on view."""
    while len(match.results) < deals and not match.finished:
        play_random_action(match, rng)


def test_the_dealer_calls_mano_and_the_match_ends_once_the_seat_before_him_has_dealt() -> None:
    match = osteria.new_match("calabresella", seed=7, seats=3, dealer=0, rounds=3)
    rng = random.Random(7)
    play_deals(match, rng, 1)
    match.begin_deal()  # deal 2, dealt by seat 1
    assert match.may_declare_last_round(1)
    match.declare_last_round(1)
    assert match.last_round == {"deal": 1, "seat": 1, "last_deal": 3}
    for seat in range(3):  # every seat sees it
        assert match.observation(seat)["last_round"] == {"deal": 1, "seat": 1, "last_deal": 3}
    play_deals(match, rng, 3)
    assert not match.finished and match.deal_due
    play_deals(match, rng, 4)
    assert match.finished, "the round from seat 1 on is over: seats 1, 2 and 0 have dealt"
    assert [d.dealer for d in match.deals] == [0, 1, 2, 0]
    result = match.result()
    best = max(result["totals"])
    assert result["winners"] == [s for s in range(3) if result["totals"][s] == best]
    record = match.record()
    assert record["last_round"] == {"deal": 1, "seat": 1}
    again = osteria.replay(json.loads(json.dumps(record)))
    assert again.result() == result and again.finished
    assert again.record() == record


def test_mano_called_between_deals_is_the_next_dealers_and_a_saved_match_keeps_it() -> None:
    match = osteria.new_match("calabresella", seed=3, seats=4, dealer=2, rounds=2)
    rng = random.Random(3)
    play_deals(match, rng, 2)  # seats 2 and 3 have dealt; seat 0 deals next
    assert match.deal_due
    assert not match.may_declare_last_round(3) and match.may_declare_last_round(0)
    match.declare_last_round(0)
    assert match.last_round == {"deal": 2, "seat": 0, "last_deal": 5}
    saved = match.record()  # saved before the next deal is dealt
    assert saved["last_round"] == {"deal": 2, "seat": 0} and len(saved["deals"]) == 2
    resumed = osteria.replay(saved)
    assert resumed.last_round == match.last_round
    for table in (match, resumed):
        play_deals(table, random.Random(4), 6)
        assert table.finished and len(table.results) == 6  # not the 8 deals of two rounds
        assert table.deals[-1].dealer == 3  # the seat before seat 0
    # a match saved in the middle of the last round resumes with it too
    partway = osteria.replay({**match.record(), "deals": match.record()["deals"][:4]})
    assert partway.last_round == match.last_round and not partway.finished


def test_mano_is_refused_to_anyone_but_the_dealer_twice_in_the_last_round_and_once_over() -> None:
    match = osteria.new_match("calabresella", seed=5, seats=3, dealer=1, rounds=2)
    for seat in (0, 2):
        assert not match.may_declare_last_round(seat)
        with pytest.raises(IllegalAction, match="only the dealer, seat 1, may call mano"):
            match.declare_last_round(seat)
    with pytest.raises(IllegalAction, match="no seat 3"):
        match.declare_last_round(3)
    match.declare_last_round(1)
    with pytest.raises(IllegalAction, match="already declared, by seat 1 in deal 1"):
        match.declare_last_round(1)
    # In the match's last round calling mano would change nothing.
    late = osteria.new_match("calabresella", seed=5, seats=3, dealer=1, rounds=2)
    rng = random.Random(5)
    play_deals(late, rng, 3)
    late.begin_deal()  # deal 4, the first of the last round
    with pytest.raises(IllegalAction, match="would not shorten it"):
        late.declare_last_round(late.deals[-1].dealer)
    play_deals(late, rng, 6)
    assert late.finished
    with pytest.raises(IllegalAction, match="the match is over"):
        late.declare_last_round(0)
    assert "last_round" not in late.record()


@pytest.mark.parametrize("game", ["tressette", "traversone", "quattrigghiu", "sancagna"])
def test_the_other_games_have_no_declared_last_round(game: str) -> None:
    match = osteria.new_match(game, seed=0, dealer=0)
    assert not any(match.may_declare_last_round(seat) for seat in range(match.game.seats))
    with pytest.raises(IllegalAction, match=f"{game} has no declared last round"):
        match.declare_last_round(0)


@pytest.mark.parametrize(("last_round", "says"), [
    ({"deal": 0, "seat": 1}, "only the dealer, seat 0"),
    ({"deal": 5, "seat": 0}, "cannot begin with deal 5 of a record of 1 deals"),
    ({"deal": "0", "seat": 0}, "last_round.deal: the deal of the last round must be an integer"),
    ({"deal": 0}, "last_round.seat"),
    ([0, 0], "last_round: the last round must be an object"),
])
def test_a_record_with_a_wrong_last_round_is_refused(last_round: Any, says: str) -> None:
    match = osteria.new_match("calabresella", seed=1, seats=3, dealer=0)
    record = {**match.record(), "last_round": last_round}
    with pytest.raises(osteria.RecordError, match=says):
        osteria.replay(record)


@pytest.mark.parametrize("options", [{"rounds": 0}, {"rounds": "2"}, {"rounds": True}, {"target": 31}])
def test_bad_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(RulesError):
        osteria.new_match("calabresella", seed=0, **options)


@pytest.mark.parametrize("seats", [2, 6])
def test_three_to_five_players_only(seats: int) -> None:
    with pytest.raises(RulesError, match="3, 4, 5"):
        osteria.new_match("calabresella", seed=0, seats=seats)


@pytest.mark.parametrize("text", ["scarto Ad", "chiamo 8d", "Xd", "3d volo", "", "cedo"])
def test_malformed_actions_say_why(text: str) -> None:
    match = start([], 3)
    with pytest.raises(IllegalAction):
        match.play(text)


# -- properties over random matches --------------------------------------------------------------



def _check_position(match: Match) -> None:
    deal = deal_of(match)
    for seat in range(deal.seats):
        obs = match.observation(seat)
        if deal.partner is not None and seat != deal.partner and obs["partner"] is not None:
            assert obs["called"] in obs["played"]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), seats=st.sampled_from([3, 4, 5]))
def test_random_matches_keep_the_partner_secret_and_give_out_eleven_points(seed: int, seats: int) -> None:
    rng = random.Random(seed)
    match = osteria.new_match("calabresella", seed=seed, seats=seats, rounds=1)
    while not match.finished:
        if match.deal_due:
            match.begin_deal()
        legal = match.legal_actions()
        # passing more often than at random, so that monte deals happen too
        action = "passo" if "passo" in legal and rng.random() < 0.6 else rng.choice(legal)
        match.play(action)
        _check_position(match)
    for r in match.results:
        assert sum(r.points) == (0 if r.outcome == "monte" else 11)


@settings(max_examples=200)
@given(hand=st.lists(st.sampled_from(ITALIAN_40.cards), min_size=4, max_size=16, unique=True))
def test_the_scarti_of_a_hand_are_every_four_of_its_cards_in_order_and_spelt_as_named(hand: list[int]) -> None:
    """A hand's scarti come as itertools.combinations gives them (bots and replays pick them by
    their place), and each one's string names its cards lowest first."""
    from itertools import combinations

    mask = sum(1 << c for c in hand)
    expected = [SCARTO | sum(1 << c for c in four) for four in combinations(sorted(hand), 4)]
    assert scarti(mask) == expected
    for action in expected[:: max(1, len(expected) // 20)]:
        four = [c for c in sorted(hand) if action >> c & 1]
        assert scarto_str(action ^ SCARTO) == "scarto " + " ".join(CARD_STRINGS[c] for c in four)
