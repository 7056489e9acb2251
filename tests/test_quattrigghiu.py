"""Quattrigghiu: the seed's rules and INTERPRETATIONS.md's decisions, sentence by sentence."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import osteria
from osteria.cards import CARD_STRINGS, ITALIAN_40, SUITS, card, parse_card
from osteria.engine import DealResult, Match
from osteria.i18n import meaning
from osteria.rules.quattrigghiu import (
    CARD_ORDERS,
    GLOSSARY,
    STRENGTH,
    TRUMP_MASK,
    Quattrigghiu,
    QuattrigghiuDeal,
    forgotten_basi,
)

from helpers import fill_hands, match_with, play_random_action, play_randomly

EXAMPLES = Path(__file__).resolve().parent / "records"
EXAMPLE = EXAMPLES / "quattrigghiu-05-cavallo-called-tutita-fails"
CARD_RE = re.compile(r"\b[A2-7FCR][dcsb]\b")


def hands_for(*fixed: str) -> list[list[int]]:
    return fill_hands("quattrigghiu", fixed)


def current(match: Match) -> QuattrigghiuDeal:
    deal = match.deal
    assert isinstance(deal, QuattrigghiuDeal)
    return deal


def play(match: Match, *actions: str) -> None:
    for action in actions:
        match.play(action)


def play_out(match: Match, script: dict[int, list[str]]) -> None:
    """Play the deal to its end: scripted seats play their list in order, the others their first
    legal action (tutita when asked, so that an attempt goes on)."""
    deal = current(match)
    while not deal.over:
        seat = match.to_move
        assert seat is not None
        legal = match.legal_actions()
        if "tutita" in legal:
            match.play("tutita")
        elif script.get(seat):
            match.play(script[seat].pop(0))
        else:
            match.play(legal[0])


# -- the cards: the seed's lists ----------------------------------------------------------------
# The seed names the cards; for a trump suit T these words stand for these cards.

SEED_TRUMPS_LONG = "spatigghia manigghia bastu re cavallo donna sette sei cinque quattro tre"
SEED_TRUMPS_SHORT = "spatigghia manigghia bastu puntu re cavallo donna due tre quattro cinque sei"
SEED_PLAIN_LONG = "re cavallo donna sette sei cinque quattro tre due"
SEED_PLAIN_SHORT = "re cavallo donna puntu due tre quattro cinque sei sette"
RANK_WORDS = {"re": "R", "cavallo": "C", "donna": "F", "puntu": "A", "due": "2", "tre": "3", "quattro": "4",
              "cinque": "5", "sei": "6", "sette": "7"}


def seed_cards(words: str, suit: str) -> list[int]:
    long = suit in "sb"
    fixed = {"spatigghia": card("A", "s"), "bastu": card("A", "b"),
             "manigghia": card("2" if long else "7", suit)}
    return [fixed[w] if w in fixed else card(RANK_WORDS[w], suit) for w in words.split()]


def order_of(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


@pytest.mark.parametrize("trump", SUITS)
def test_card_order_tables_are_the_seeds_lists(trump: str) -> None:
    long = trump in "sb"
    table = CARD_ORDERS[trump]
    assert order_of(table["trunfu"]) == seed_cards(SEED_TRUMPS_LONG if long else SEED_TRUMPS_SHORT, trump)
    for suit in SUITS:
        if suit != trump:
            plain = SEED_PLAIN_LONG if suit in "sb" else SEED_PLAIN_SHORT
            assert order_of(table[suit]) == seed_cards(plain, suit)


@pytest.mark.parametrize(("trump", "count"), [("d", 12), ("c", 12), ("s", 11), ("b", 11)])
def test_eleven_trunfi_in_long_suits_twelve_in_short(trump: str, count: int) -> None:
    t = SUITS.index(trump)
    assert TRUMP_MASK[t].bit_count() == count
    # The spatigghia and the bastu are always trunfi, the first and the third.
    assert order_of(CARD_ORDERS[trump]["trunfu"])[0::2][:2] == [card("A", "s"), card("A", "b")]


@pytest.mark.parametrize("t", range(4))
def test_card_order_is_a_total_order_for_every_trump_suit(t: int) -> None:
    # Every card of the deck is in exactly one list of the table.
    listed = [c for text in CARD_ORDERS[SUITS[t]].values() for c in order_of(text)]
    assert sorted(listed) == sorted(ITALIAN_40.cards)
    strength = STRENGTH[t]
    trumps = [c for c in ITALIAN_40.cards if TRUMP_MASK[t] >> c & 1]
    plain = [c for c in ITALIAN_40.cards if not TRUMP_MASK[t] >> c & 1]
    assert len({strength[c] for c in trumps}) == len(trumps)
    assert min(strength[c] for c in trumps) > max(strength[c] for c in plain)
    for s in range(4):
        suit = [c for c in plain if c // 13 == s]
        assert len({strength[c] for c in suit}) == len(suit)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 3), st.sampled_from(ITALIAN_40.cards), st.sampled_from(ITALIAN_40.cards),
       st.sampled_from(ITALIAN_40.cards))
def test_taking_order_is_transitive_and_antisymmetric(t: int, a: int, b: int, c: int) -> None:
    # Against a lead of one suit, "beats" is a strict total order: the key a trick compares by.
    def key(x: int, led: int) -> int:
        trumps = TRUMP_MASK[t]
        led_suit = t if trumps >> led & 1 else led // 13
        return STRENGTH[t][x] if trumps >> x & 1 or x // 13 == led_suit else 0
    ka, kb, kc = key(a, a), key(b, a), key(c, a)
    assert ka > 0
    if ka > kb and kb > kc:
        assert ka > kc
    if a != b and kb > 0:
        assert ka != kb


# -- the call -----------------------------------------------------------------------------------

def test_the_holder_of_the_six_of_denari_speaks_first_in_the_first_deal() -> None:
    match = match_with("quattrigghiu", hands_for("", "", "6d"), dealer=0)
    assert match.to_move == 2
    assert "passu" in match.legal_actions()


def test_later_deals_are_called_first_by_the_dealers_right() -> None:
    match = osteria.new_match("quattrigghiu", seed=5, dealer=1)
    rng = random.Random(5)
    while not match.results:
        play_random_action(match, rng)
    match.begin_deal()
    deal = current(match)
    assert match.to_move == (deal.dealer + 1) % 4
    assert deal.phase == "chiamata"


def test_each_passes_in_turn_and_the_first_call_wins() -> None:
    match = match_with("quattrigghiu", hands_for("6d", "", "", ""), dealer=3)
    play(match, "passu", "passu")
    assert match.to_move == 2
    match.play("sulita b")
    deal = current(match)
    assert (deal.caller, SUITS[deal.trump], deal.phase) == (2, "b", "basi")
    assert match.to_move == 0  # the dealer's right leads


def test_when_all_pass_the_holder_of_the_spatigghia_must_call() -> None:
    match = match_with("quattrigghiu", hands_for("6d", "", "As", ""), dealer=3)
    play(match, "passu", "passu", "passu", "passu")
    assert match.to_move == 2
    assert "passu" not in match.legal_actions()
    assert "sulita d" in match.legal_actions()
    with pytest.raises(osteria.IllegalAction, match="must call"):
        match.play("passu")


def test_one_calls_a_re_one_does_not_hold() -> None:
    match = match_with("quattrigghiu", hands_for("6d Rd Rc"), dealer=3)
    calls = {a for a in match.legal_actions() if a.startswith("chiamu")}
    assert calls == {f"chiamu {t} {r}" for t in SUITS for r in ("Rs", "Rb")}
    with pytest.raises(osteria.IllegalAction, match="cannot call Rd, a card of the own hand"):
        match.play("chiamu s Rd")
    with pytest.raises(osteria.IllegalAction, match="all four re"):
        match.play("chiamu s Cs")


def test_with_all_four_re_one_calls_a_cavallo() -> None:
    match = match_with("quattrigghiu", hands_for("6d Rd Rc Rs Rb Cc"), dealer=3)
    calls = {a for a in match.legal_actions() if a.startswith("chiamu")}
    assert calls == {f"chiamu {t} {c}" for t in SUITS for c in ("Cd", "Cs", "Cb")}


def test_calls_name_a_suit_and_a_re_or_cavallo() -> None:
    match = match_with("quattrigghiu", hands_for("6d"), dealer=3)
    for bad in ("chiamu x Rd", "chiamu s 5d", "sulita", "hello", ""):
        with pytest.raises(osteria.IllegalAction):
            match.play(bad)
    with pytest.raises(osteria.IllegalAction, match="names the trunfu and a re"):
        match.play("chiamu s")


# -- the aiuto: secret until the called card is played ---------------------------------------------

def test_the_aiuto_is_known_only_to_himself_until_the_called_card_is_played() -> None:
    match = match_with("quattrigghiu", hands_for("6d As", "Rd", "", ""), dealer=3)
    match.play("chiamu s Rd")
    assert match.observation(1)["aiuto"] == 1
    assert [current(match).aiuto_known_to(s) for s in range(4)] == [False, True, False, False]
    for seat in (0, 2, 3):
        obs = match.observation(seat)
        assert obs["aiuto"] is None
        assert obs["called_card"] == "Rd"
    play(match, "As")  # seat 0 leads the spatigghia; seat 1 follows with a trunfu or anything
    while "Rd" in match.observation(1)["hand"]:
        seat = match.to_move
        assert seat is not None
        legal = match.legal_actions()
        match.play("Rd" if seat == 1 and "Rd" in legal else next(a for a in legal if a != "Rd"))
    for seat in range(4):
        assert match.observation(seat)["aiuto"] == 1
        assert current(match).aiuto_known_to(seat)


# -- play -----------------------------------------------------------------------------------------

def test_players_follow_suit_and_the_spatigghia_answers_only_trunfu() -> None:
    # trunfu denari: the spatigghia is no spade, so seat 1 with As and 5s must play the 5s.
    match = match_with("quattrigghiu", hands_for("6d Rs", "As 5s Cd", "Ab 7d", "Rd"), dealer=3)
    play(match, "sulita d", "Rs")
    assert match.legal_actions() == ["5s"]
    with pytest.raises(osteria.IllegalAction, match="must follow suit"):
        match.play("As")


def test_a_trunfu_lead_is_answered_with_spatigghia_or_bastu() -> None:
    match = match_with("quattrigghiu", hands_for("6d 5d", "As 5s 6s Rs Cs Fs 7s 4s 3s 2s", "Ab 7d", ""),
                       dealer=3, matador=False)
    play(match, "sulita d", "5d")
    assert match.legal_actions() == ["As"]


def test_a_void_player_may_play_any_card() -> None:
    match = match_with("quattrigghiu", hands_for("6d Rc", "Ad 2d 3d 4d 5d 7d Fd Cd As Ab"), dealer=3)
    play(match, "sulita s", "Rc")
    assert len(match.legal_actions()) == 10


def test_matador_privilege_lets_a_lone_matador_stay_home() -> None:
    fixed = ("6d 5s", "Ab Rc Fc Cc Ac 2c 3c 4c 5c 6c", "As 2s", "3s")
    match = match_with("quattrigghiu", hands_for(*fixed), dealer=3)
    play(match, "sulita s", "5s")
    assert len(match.legal_actions()) == 10  # the bastu need not answer a low trunfu
    no_privilege = match_with("quattrigghiu", hands_for(*fixed), dealer=3, matador=False)
    play(no_privilege, "sulita s", "5s")
    assert no_privilege.legal_actions() == ["Ab"]


def test_a_higher_matador_led_forces_a_lower_one() -> None:
    match = match_with("quattrigghiu", hands_for("6d As", "Ab Rc Fc Cc Ac 2c 3c 4c 5c 6c"), dealer=3)
    play(match, "sulita s", "As")
    assert match.legal_actions() == ["Ab"]
    with pytest.raises(osteria.IllegalAction, match="forces a lower matador"):
        match.play("Rc")


def test_the_highest_trunfu_takes_the_basi_else_the_highest_of_the_suit_led() -> None:
    match = match_with("quattrigghiu", hands_for("6d 3c", "Rc", "2d", "Ad"), dealer=3)
    play(match, "sulita s", "3c", "Rc", "2d", "Ad")  # no trunfu: the re of coppe takes it
    assert match.to_move == 1
    match2 = match_with("quattrigghiu", hands_for("6d 3c", "Rc", "Ab", "Ad"), dealer=3)
    play(match2, "sulita s", "3c", "Rc", "Ab", "Ad")  # the bastu is a trunfu: it takes it
    assert match2.to_move == 2
    assert match2.observation(0)["basi"] == [0, 0, 1, 0]


def test_playing_a_card_not_held_or_out_of_turn_says_why() -> None:
    match = match_with("quattrigghiu", hands_for("6d"), dealer=3)
    with pytest.raises(osteria.IllegalAction, match="no card is played now"):
        match.play("6d")
    match.play("sulita s")
    with pytest.raises(osteria.IllegalAction, match="not in the hand"):
        match.play(next(CARD_STRINGS[c] for c in ITALIAN_40.cards if CARD_STRINGS[c] not in
                        match.observation(0)["hand"]))
    with pytest.raises(osteria.IllegalAction, match="tutita"):
        match.play("tutita")


# -- the end of a deal ------------------------------------------------------------------------------

TOP_SPADE = "As 2s Ab Rs Cs Fs 7s 6s 5s 4s"


def test_six_clean_basi_open_the_tutita_window_and_basta_takes_the_vinta() -> None:
    match = match_with("quattrigghiu", hands_for("6d " + " ".join(TOP_SPADE.split()[:9]), "Rd"), dealer=3)
    match.play("chiamu s Rd")
    for _ in range(6):
        match.play(next(a for a in match.legal_actions() if a != "6d") if match.to_move == 0
                   else match.legal_actions()[0])
        for _ in range(3):
            match.play(match.legal_actions()[0])
    deal = current(match)
    assert deal.phase == "tutita"
    assert match.to_move == 0  # the winner of the sixth basi answers first
    assert match.legal_actions() == ["tutita", "basta"]
    match.play("basta")
    assert match.results[-1].as_json() == {"outcome": "vinta", "points": [6, 0], "delta": [1, 1, -1, -1]}


def test_a_settled_deal_stops_at_once() -> None:
    # A sulità that loses the first basi and then takes six stops at six: the rest is not played.
    match = match_with("quattrigghiu", hands_for("6d 7d As 2s Ab Rs Cs Fs 7s 6s", "Rd"), dealer=3)
    match.play("sulita s")
    play_out(match, {0: ["7d"]})
    result = match.results[-1]
    assert result.outcome == "vinta"
    assert result.points[0] == 6 and 1 <= result.points[1] <= 4
    assert result.delta == [3, -1, -1, -1]
    deal = match.deals[0].deal
    assert isinstance(deal, QuattrigghiuDeal)
    assert len(deal.tricks) == sum(result.points) < 10


def test_tutita_made_doubles_the_stake() -> None:
    match = match_with("quattrigghiu", hands_for("6d " + " ".join(TOP_SPADE.split()[:9]), "Rd"), dealer=3)
    match.play("chiamu s Rd")
    play_out(match, {0: [*TOP_SPADE.split()[:9], "6d"]})
    assert match.results[-1].as_json() == {"outcome": "tutita", "points": [10, 0], "delta": [2, 2, -2, -2]}


def test_the_defenders_may_go_for_tutita_and_double_the_cudigghia() -> None:
    match = match_with("quattrigghiu", hands_for("6d", "As 7d Ab Ad Rd Cd Fd 2d 3d 4d"), dealer=0)
    play(match, "sulita d")
    assert match.to_move == 1
    play_out(match, {})
    assert match.results[-1].as_json() == {"outcome": "tutita", "points": [0, 10], "delta": [-6, 2, 2, 2]}
    # the three defenders were each asked, the winner of the sixth basi first
    window = [s for s, a in match.record()["deals"][0]["actions"] if a == "tutita"]
    assert window == [1, 2, 3]


def test_the_longest_deal_stays_within_the_declared_bound() -> None:
    # Every one passes, the holder of the spatigghia must call, no volunteer helps him, the three
    # defenders take the first six basi and each goes for tutità, and his spatigghia takes the
    # last: four passu, the call, three passu, three tutita and every card, 51 decisions.
    hands = ["6d 2c 3c 4c 5c As 2s 3s 4s 5s", "Ad 2d 3d 4d 5d 7d Fd Cd Rd Ac",
             "6c 7c Fc Cc Rc 6s 7s Fs Cs Rs", "Ab 2b 3b 4b 5b 6b 7b Fb Cb Rb"]
    match = match_with("quattrigghiu", [[parse_card(c) for c in h.split()] for h in hands], dealer=3,
                       aiuto_volontario=True)
    play(match, "passu", "passu", "passu", "passu", "chiamu d", "passu", "passu", "passu")
    basi = ("3s 2d Cs 3b Ad Fc 2b 6d 5d Cc Ab 2c 5b 4c Cd Fs Fd 7s Fb 5c Ac 6c 4b 3c tutita tutita tutita "
            "Rd 6s 7b 2s 4d Rc Cb 5s 3d 7c 6b 4s 7d Rs Rb As")
    play(match, *basi.split())
    deal = current(match)
    assert deal.over and match.results[-1].outcome == "franca"
    assert len(deal.history) == 51 <= match.game.max_decisions()


def test_one_basta_ends_the_asking() -> None:
    match = match_with("quattrigghiu", hands_for("6d", "As 7d Ab Ad Rd Cd Fd 2d 3d 4d"), dealer=0)
    match.play("sulita d")
    for _ in range(24):
        match.play(match.legal_actions()[0])
    play(match, "tutita", "basta")
    assert match.results[-1].as_json() == {"outcome": "cudigghia", "points": [0, 6], "delta": [-3, 1, 1, 1]}


def test_a_failed_tutita_is_franca_as_in_the_example() -> None:
    record = json.loads(EXAMPLE.with_suffix(".json").read_text())
    expected = json.loads(Path(str(EXAMPLE) + ".expected.json").read_text())
    assert osteria.replay(record).result() == expected


def test_five_basi_each_is_a_riposta_and_nothing_is_paid() -> None:
    # The soloist takes five with his trunfi, then can take nothing more.
    hands = hands_for("6d 7d 5d 4d 3d As 2s Ab Rs Cs", "Rd Cd", "Fd Ad", "2d")
    match = match_with("quattrigghiu", hands, dealer=3)
    match.play("sulita s")
    play_out(match, {0: ["As", "2s", "Ab", "Rs", "Cs", "3d"]})
    assert match.results[-1].as_json() == {"outcome": "riposta", "points": [5, 5], "delta": [0, 0, 0, 0]}


def test_after_the_sixth_basi_the_earlier_ones_vanish_from_every_observation() -> None:
    record = json.loads(EXAMPLE.with_suffix(".json").read_text())
    actions = record["deals"][0]["actions"]
    partial = dict(record, deals=[dict(record["deals"][0], actions=actions[:24])])
    before = osteria.replay(partial)
    assert len(before.observation(2)["tricks"]) == 5
    after = osteria.replay(dict(record, deals=[dict(record["deals"][0], actions=actions[:25])]))
    for seat in range(4):
        obs = after.observation(seat)
        assert obs["tricks"] == [] and obs["tricks_played"] == 6
        assert obs["basi"] == [6, 0, 0, 0]
        assert [a for _, a in obs["history"]] == ["chiamu s Cd"]
        # the aiuto has shown himself (he played the cavallo); the cards gone stay gone
        assert obs["aiuto"] == 1


def test_the_first_six_basi_are_forgotten_once_six_are_played() -> None:
    assert [forgotten_basi(n) for n in range(11)] == [0] * 6 + [6] * 5


# -- stakes and the match ---------------------------------------------------------------------------

def expected_delta(outcome: str, points: list[int], caller: int, aiuto: int | None) -> list[int]:
    side = [0 if s in (caller, aiuto) else 1 for s in range(4)]
    stake = [3 if aiuto is None and s == caller else 1 for s in range(4)]
    if outcome in ("riposta", "franca"):
        return [0] * 4
    winner = 0 if points[0] > points[1] else 1
    double = 2 if outcome == "tutita" else 1
    return [double * stake[s] * (1 if side[s] == winner else -1) for s in range(4)]


def check_match(match: Match, rounds: int) -> None:
    """Every deal of a finished match against the seed's scoring and the giro."""
    results, deals = match.results, match.deals
    for rec, result in zip(deals, results, strict=True):
        deal = rec.deal
        assert isinstance(deal, QuattrigghiuDeal)
        carry = result.carry
        assert result.delta == expected_delta(result.outcome, result.points, carry["caller"], carry["aiuto"])
        c, o = result.points
        assert {"vinta": c == 6, "cudigghia": o == 6 and c < 6, "riposta": c == o == 5,
                "tutita": 10 in (c, o), "franca": min(c, o) == 1 and max(c, o) >= 6}[result.outcome]
    # the giro: 4 deals a round, more only after a last riposta or tutità
    base = 4 * rounds
    assert len(results) >= base
    assert all(r.outcome in ("riposta", "tutita") for r in results[base - 1:-1])
    assert results[-1].outcome not in ("riposta", "tutita")
    six = results[0].carry["six_of_denari"]
    dealers = [rec.dealer for rec in deals]
    assert dealers[1:] == [(six + i) % 4 for i in range(len(dealers) - 1)]
    assert dealers[base - 1] == (six + 2) % 4  # the last dealer faces the first holder of the 6 of denari
    first_speakers = [six] + [(d + 1) % 4 for d in dealers[1:base]]
    assert sorted(first_speakers) == sorted(list(range(4)) * rounds)
    totals = match.result()["totals"]
    assert match.result()["winners"] == [s for s in range(4) if totals[s] == max(totals)]


@pytest.mark.parametrize("rounds", [1, 2])
def test_match_length_follows_the_giro(rounds: int) -> None:
    for seed in range(20):
        options = {} if rounds == 1 else {"rounds": rounds}
        match = osteria.new_match("quattrigghiu", seed=seed, **options)
        play_randomly(match, random.Random(seed))
        assert match.finished
        check_match(match, rounds)


def test_a_last_riposta_brings_one_more_deal() -> None:
    game = Quattrigghiu()
    vinta = DealResult("vinta", [6, 2], [1, 1, -1, -1])
    riposta = DealResult("riposta", [5, 5], [0, 0, 0, 0])
    assert game.match_status([vinta] * 3) == (False, None)
    assert game.match_status([vinta] * 4) == (True, [0, 1])
    assert game.match_status([vinta] * 3 + [riposta]) == (False, None)
    assert game.match_status([vinta] * 3 + [riposta, riposta]) == (False, None)
    assert game.match_status([riposta] * 4 + [vinta])[0]


def alone(outcome: str, points: list[int], delta: list[int]) -> DealResult:
    """A deal whose caller, seat 0, played alone."""
    return DealResult(outcome, points, delta, {"caller": 0, "aiuto": None, "trump": "d", "six_of_denari": 0})


def test_with_sulita_si_ioca_a_last_sulita_brings_one_more_deal() -> None:
    # "si può accettare anche se c'è 'na sulità": one more deal, won or lost by the one alone.
    vinta = DealResult("vinta", [6, 2], [1, 1, -1, -1], {"caller": 0, "aiuto": 1})
    sulita = alone("vinta", [6, 1], [3, -1, -1, -1])
    sulita_lost = alone("cudigghia", [2, 6], [-3, 1, 1, 1])
    plain, accepting = Quattrigghiu(), Quattrigghiu(sulita_si_ioca=True)
    for last in (sulita, sulita_lost):
        assert plain.match_status([vinta] * 3 + [last]) == (True, [0] if last is sulita else [1])
        assert accepting.match_status([vinta] * 3 + [last]) == (False, None)
        assert accepting.match_status([vinta] * 3 + [last, last]) == (False, None)  # that one was alone too
        assert accepting.match_status([vinta] * 3 + [last, vinta])[0]
    assert accepting.match_status([sulita] * 3 + [vinta])[0], "only the last deal counts"
    assert accepting.match_status([vinta] * 3)[0] is False


def sulita_in_the_fourth_deal(seed: int, **options: object) -> Match:
    """A match played at random but for the first to speak in the fourth deal, who plays alone;
    left as that deal ends."""
    match = osteria.new_match("quattrigghiu", seed=seed, dealer=0, **options)
    rng = random.Random(seed)
    while len(match.results) < 4 and not match.finished:
        if match.deal_due:
            match.begin_deal()
        legal = match.legal_actions()
        solos = [a for a in legal if a.startswith("sulita ")]
        if len(match.results) == 3 and solos:
            match.play(solos[0])
        else:
            match.play(rng.choice([a for a in legal if a != "tutita"] or legal))
    return match


def test_a_last_deal_played_alone_is_followed_by_one_more_only_with_the_option() -> None:
    seed = next(s for s in range(100) if len(sulita_in_the_fourth_deal(s).results) == 4
                and all(r.outcome not in ("riposta", "tutita") for r in sulita_in_the_fourth_deal(s).results[3:]))
    plain = sulita_in_the_fourth_deal(seed)
    accepting = sulita_in_the_fourth_deal(seed, sulita_si_ioca=True)
    assert plain.results[3].carry["aiuto"] is None and plain.results[3].as_json() == accepting.results[3].as_json()
    assert plain.finished and len(plain.results) == 4
    assert not accepting.finished and accepting.deal_due
    record = json.loads(json.dumps(accepting.record()))
    assert record["options"] == {"sulita_si_ioca": True}
    assert not osteria.replay(record).finished
    play_randomly(accepting, random.Random(seed))
    assert accepting.finished and len(accepting.results) >= 5
    assert osteria.replay(accepting.record()).result() == accepting.result()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.booleans(), st.booleans(), st.integers(0, 3))
def test_random_matches_score_every_deal_and_follow_the_giro(seed: int, matador: bool, volontario: bool,
                                                             dealer: int) -> None:
    match = osteria.new_match("quattrigghiu", seed=seed, dealer=dealer, matador=matador,
                              aiuto_volontario=volontario)
    play_randomly(match, random.Random(seed))
    check_match(match, 1)


# -- observations hide what a seat may not know -----------------------------------------------------

@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6))
def test_observations_keep_the_aiuto_secret_and_forget_the_first_six_basi(seed: int) -> None:
    match = osteria.new_match("quattrigghiu", seed=seed)
    rng = random.Random(seed)
    while not match.finished:
        deal = current(match)
        for seat in range(4):
            obs = match.observation(seat)
            rest = {k: v for k, v in obs.items() if k not in ("hand", "legal_actions")}
            seen = set(CARD_RE.findall(json.dumps(rest)))
            secret = deal.aiuto >= 0 and not deal.over and seat != deal.aiuto and deal.called >= 0 \
                and deal.phase != "tutita" and not any(deal.called in cards for _, cards, _ in deal.tricks) \
                and deal.called not in deal.trick and not deal.attempt >= 0
            assert (obs["aiuto"] is None) == (secret or deal.aiuto < 0)
            if len(deal.tricks) >= 6:
                early = {CARD_STRINGS[c] for _, cards, _ in deal.tricks[:6] for c in cards}
                assert not seen & (early - {obs["called_card"]})
        play_random_action(match, rng)


# -- aiuto_volontario -------------------------------------------------------------------------------

def test_aiuto_volontario_the_first_who_answers_helps_publicly() -> None:
    match = match_with("quattrigghiu", hands_for("6d"), dealer=3, aiuto_volontario=True)
    assert "chiamu s" in match.legal_actions()
    assert not any(a.startswith("chiamu s ") for a in match.legal_actions())
    match.play("chiamu s")
    assert match.to_move == 1
    assert match.legal_actions() == ["aiutu", "passu"]
    play(match, "passu", "aiutu")
    assert all(match.observation(s)["aiuto"] == 2 for s in range(4))
    assert match.to_move == 0  # the dealer's right leads


def test_aiuto_volontario_nobody_helps_and_the_caller_is_alone() -> None:
    match = match_with("quattrigghiu", hands_for("6d"), dealer=3, aiuto_volontario=True)
    play(match, "passu", "chiamu b", "passu", "passu", "passu")
    deal = current(match)
    assert (deal.caller, deal.aiuto, deal.phase) == (1, -1, "basi")
    play_out(match, {})
    result = match.results[-1]
    assert result.delta == expected_delta(result.outcome, result.points, 1, None)


# -- options, records, glossary ---------------------------------------------------------------------

@pytest.mark.parametrize("options", [{"rounds": 0}, {"rounds": True}, {"rounds": "2"}, {"matador": "yes"},
                                     {"aiuto_volontario": 1}, {"bazza": True}])
def test_bad_options_are_rules_errors(options: dict[str, object]) -> None:
    with pytest.raises(osteria.RulesError):
        osteria.new_match("quattrigghiu", seed=1, **options)


def test_the_option_defaults_are_those_of_the_records_page() -> None:
    assert Quattrigghiu().options == {"rounds": 1, "matador": True, "aiuto_volontario": False,
                                      "sulita_si_ioca": False}
    assert osteria.new_match("quattrigghiu", seed=1, rounds=2).record()["options"] == {"rounds": 2}


def test_the_second_deal_is_dealt_by_the_first_holder_of_the_six_of_denari() -> None:
    match = match_with("quattrigghiu", hands_for("", "", "6d"), dealer=0)
    match.play("passu")
    play_out(match, {})
    match.begin_deal()
    assert match.deal is not None and match.deal.dealer == 2


def test_the_glossary_glosses_every_licodian_word_of_the_actions() -> None:
    for word in ("passu", "chiamu", "sulita", "aiutu", "tutita", "basta", "trunfu", "basi", "riposta",
                 "cudigghia", "franca", "spatigghia", "manigghia", "bastu", "puntu"):
        english = GLOSSARY[word].meaning
        assert english and meaning("it", english) != english
