"""The reduced games for exact methods: their rules, their OpenSpiel games, and CFR+ on them."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from random import Random
from typing import Any, TypeVar

import pyspiel
import pytest
from open_spiel.python.algorithms import cfr, exploitability

from osteria.cards import CARD_STRINGS, cards_of, parse_card
from osteria.engine import Deal, IllegalAction, RulesError
from osteria.envs.reduced import ReducedState, efg, register
from osteria.rules.quattrigghiu import MATADORS, STRENGTH, TRUMP_MASK, led_suit
from osteria.rules.reduced import Hands, MiniQuattrigghiu, MiniQuattrigghiuDeal, MiniSancagna, MiniTressette
from osteria.rules.sancagna import card_points
from osteria.rules.tressette_family import THIRDS

# Small enough for Python's CFR+ in a test: 6 cards, 2 in each hand, 90 deals.
TINY = {"suits": 3, "ranks": "A3", "hand": 2}
# 6 cards, 2 in each hand and one turned: 180 deals.
TINY_SANCAGNA = {"suits": 2, "ranks": "34R", "hand": 2}
# Spade and bastoni of A 2 R, 2 cards each: 90 deals.
TINY_QUATTRIGGHIU = {"suits": 2, "ranks": "A2R", "hand": 2}
D = TypeVar("D", bound=Deal)


def cards(text: str) -> list[int]:
    return [parse_card(word) for word in text.split()]


def every_play(deal: D, trump: int | None = None) -> list[D]:
    """The deal played to its end in every way the rules allow, checking at each card that the
    seat must follow the suit led while it holds it, else (where there is a ``trump``) play a
    trump while it holds one, and may play anything else."""
    if deal.over:
        return [deal]
    assert deal.to_move is not None
    trick: list[int] = getattr(deal, "trick")  # noqa: B009 - both deals have one; Deal does not say
    held = cards_of(deal.hands[deal.to_move])
    led = [c for c in held if trick and c // 13 == trick[0] // 13]
    trumps = [c for c in held if trick and c // 13 == trump]
    assert deal.legal() == (led or trumps or held)
    ends = []
    for action in deal.legal():
        child = deal.copy()
        child.apply(action)
        ends.extend(every_play(child, trump))
    return ends


# -- the rules --------------------------------------------------------------------------------

def test_the_deck_is_the_named_suits_and_ranks_in_canonical_order() -> None:
    rules = MiniTressette(3, "3A2", 3)
    assert [CARD_STRINGS[c] for c in rules.deck] == ["Ad", "2d", "3d", "Ac", "2c", "3c", "As", "2s", "3s"]
    assert rules.taking_order == "A23"
    assert len(rules.deals()) == 84 * 20


@pytest.mark.parametrize(("options", "problem"), [
    ({"suits": 5}, "suits must be from 1 to 4, not 5"),
    ({"ranks": "A8"}, "ranks must be distinct letters of A234567FCR, not 'A8'"),
    ({"ranks": "AA"}, "ranks must be distinct letters"),
    ({"hand": 0}, "hands of 1 to 4 cards (one card at least set aside), not 0"),
    ({"suits": 2, "hand": 3}, "a deck of 6 cards deals hands of 1 to 2 cards"),
])
def test_bad_options_are_refused_saying_which(options: dict[str, object], problem: str) -> None:
    with pytest.raises(RulesError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        MiniTressette(**options)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="mini_tressette: "):
        pyspiel.load_game("osteria_mini_tressette", options)


@pytest.mark.parametrize("options", [TINY, {"suits": 2, "ranks": "4A3", "hand": 2}])
def test_every_play_of_every_deal_follows_suit_counts_every_point_and_ends(options: dict[str, object]) -> None:
    rules = MiniTressette(**options)  # type: ignore[arg-type]
    for hands in rules.deals():
        for deal in every_play(rules.new_deal(hands)):
            assert len(deal.history) == 2 * rules.hand and deal.hands == [0, 0]
            thirds = deal.final_thirds()
            assert sum(thirds) == rules.deal_thirds
            assert sum(rules.returns(deal)) == 0
            assert abs(rules.returns(deal)[0]) <= rules.max_returns()


def test_the_strongest_card_of_the_suit_led_takes_and_the_last_trick_takes_the_set_aside_cards() -> None:
    rules = MiniTressette(3, "A23", 2)
    deal = rules.new_deal([cards("Ad 2c"), cards("3c As")])  # set aside: 2d 3d Ac 2s 3s
    deal.apply(parse_card("Ad"))
    assert deal.legal() == cards("3c As")  # seat 1 holds no denari: any card
    deal.apply(parse_card("As"))  # a spade on a denari lead: the ace of denari takes
    assert deal.to_move == 0
    deal.apply(parse_card("2c"))
    assert deal.legal() == cards("3c")
    deal.apply(parse_card("3c"))  # the 3 takes the 2: seat 1 takes the last trick and the rest
    assert deal.over
    set_aside = sum(THIRDS[c] for c in cards("2d 3d Ac 2s 3s"))
    assert deal.final_thirds() == [3 + 3, 1 + 1 + 3 + set_aside] == [6, 12]
    assert rules.returns(deal) == [-2.0, 2.0]
    assert deal.result().points == [2, 4]


def test_a_card_not_held_or_not_following_suit_is_refused_saying_why() -> None:
    deal = MiniTressette(3, "A23", 2).new_deal([cards("Ad 2c"), cards("3d As")])
    deal.apply(parse_card("Ad"))
    assert deal.legal() == cards("3d")
    assert "must follow suit: As is not" in str(deal.why_illegal(parse_card("As")))
    assert "it is not in the hand" in str(deal.why_illegal(parse_card("2c")))
    with pytest.raises(IllegalAction, match="'5x' is not a card"):
        deal.parse_action("5x")
    with pytest.raises(IllegalAction, match="8d cannot be played now"):
        deal.parse_action("8d")


def test_mini_sancagna_answers_else_trumps_and_counts_every_point_played() -> None:
    rules = MiniSancagna(**TINY_SANCAGNA)  # type: ignore[arg-type]
    assert len(rules.deals()) == 15 * 6 * 2
    for hands in rules.deals():
        trump = hands[2][0] // 13
        for deal in every_play(rules.new_deal(hands), trump):
            assert len(deal.history) == 2 * rules.hand and deal.hands == [0, 0]
            played = [c for _, c in deal.history]
            assert sum(deal.result().points) == sum(card_points(c, trump) for c in played)
            assert sum(rules.returns(deal)) == 0
            assert abs(rules.returns(deal)[0]) <= rules.max_returns()


def test_mini_sancagna_a_seat_holding_the_suit_led_must_answer_it() -> None:
    deal = MiniSancagna(3, "34R", 2).new_deal([cards("4d Rc"), cards("3d 3s"), cards("4s")])
    deal.apply(parse_card("4d"))
    assert deal.legal() == cards("3d")  # the suit led, though a trump is held
    assert "must answer the suit led: 3s is not" in str(deal.why_illegal(parse_card("3s")))


def test_mini_sancagna_a_trump_takes_and_a_void_must_trump() -> None:
    rules = MiniSancagna(3, "34R", 2)
    deal = rules.new_deal([cards("4d Rc"), cards("3c 3s"), cards("4s")])  # spade trumps
    deal.apply(parse_card("4d"))
    assert deal.legal() == cards("3s")  # no denari: a trump
    assert "must trump with" in str(deal.why_illegal(parse_card("3c")))
    deal.apply(parse_card("3s"))  # the trump takes the four, the highest plain card
    assert deal.to_move == 1 and deal.points == [0, card_points(parse_card("4d"), 2) + card_points(parse_card("3s"), 2)]
    deal.apply(parse_card("3c"))
    assert deal.legal() == cards("Rc")
    assert "it is not in the hand" in str(deal.why_illegal(parse_card("4d")))
    deal.apply(parse_card("Rc"))  # in a plain suit the 3 beats the re
    assert deal.over and deal.result().delta == [-11, 11]
    assert rules.returns(deal) == [-11.0, 11.0]


def quattrigghiu_deal(first: str, second: str, *calls: str, rules: MiniQuattrigghiu | None = None
                      ) -> MiniQuattrigghiuDeal:
    deal = (rules or MiniQuattrigghiu(**TINY_QUATTRIGGHIU)).new_deal([cards(first), cards(second)])  # type: ignore[arg-type]
    for text in calls:
        action = deal.parse_action(text)
        assert action in deal.legal(), f"{text} is not legal here"
        deal.apply(action)
    return deal


def strings(actions: list[int]) -> list[str]:
    return [CARD_STRINGS[a] for a in actions]


def test_mini_quattrigghiu_a_hand_of_matadors_alone_need_not_answer_a_trunfu_lead() -> None:
    deal = quattrigghiu_deal("Rs 2b", "As Rb", "sulita s", "Rs")
    assert strings(deal.legal()) == ["As", "Rb"]  # its only trunfu is the spatigghia: privileged
    without = quattrigghiu_deal("Rs 2b", "As Rb", "sulita s", "Rs",
                                rules=MiniQuattrigghiu(matador=False, **TINY_QUATTRIGGHIU))  # type: ignore[arg-type]
    assert strings(without.legal()) == ["As"]
    assert "must follow with a trunfu" in str(without.why_illegal(parse_card("Rb")))
    # A plain trunfu beside the matador: the hand must answer, with either.
    beside = quattrigghiu_deal("Ab 2s Rb", "As Rs 7b", "sulita s", "Ab", rules=MiniQuattrigghiu(2, "A27R", 3))
    assert strings(beside.legal()) == ["As", "Rs"]


def test_mini_quattrigghiu_a_higher_matador_led_forces_out_a_lower_one() -> None:
    # Spade trunfi: As 2s Ab Rs. The manigghia led forces out the bastu, not the spatigghia.
    forced = quattrigghiu_deal("2s Rs", "Ab Rb", "sulita s", "2s")
    assert strings(forced.legal()) == ["Ab"]
    assert "the 2s led forces a lower matador" in str(forced.why_illegal(parse_card("Rb")))
    assert strings(quattrigghiu_deal("2s Rs", "As Rb", "sulita s", "2s").legal()) == ["As", "Rb"]
    # The bastu and the spatigghia are trunfi whatever the trunfu: on a bastoni lead under spade
    # trunfi the bastu does not answer, and the plain 2b must.
    plain = quattrigghiu_deal("Rb Rs", "Ab 2b", "sulita s", "Rb")
    assert strings(plain.legal()) == ["2b"]
    assert "must follow suit: Ab is not" in str(plain.why_illegal(parse_card("Ab")))


def test_mini_quattrigghiu_the_taker_names_the_trunfu_and_a_majority_of_basi_wins() -> None:
    rules = MiniQuattrigghiu(**TINY_QUATTRIGGHIU)  # type: ignore[arg-type]
    deal = quattrigghiu_deal("As Rb", "2s 2b", "sulita b")  # bastoni trunfi: As 2b Ab Rb
    assert deal.observation(1)["trump"] == "b" and deal.observation(1)["taker"] == 0
    for c in ("As", "2b", "Rb", "2s"):
        assert parse_card(c) in deal.legal()
        deal.apply(parse_card(c))
    assert deal.over and deal.result().outcome == "vinta" and rules.returns(deal) == [1.0, -1.0]
    # One base each (the spatigghia kept back by its privilege, then trumping): a riposta.
    split = quattrigghiu_deal("Rs Rb", "As 2b", "sulita s", "Rs", "2b", "Rb", "As")
    assert split.result().outcome == "riposta" and rules.returns(split) == [0.0, 0.0]
    second = quattrigghiu_deal("Rs 2b", "As Rb", "passu", "sulita s", "Rs", "As", "Rb", "2b")
    assert second.result().outcome == "vinta" and rules.returns(second) == [-1.0, 1.0]  # seat 1 took the game
    beaten = quattrigghiu_deal("Rs 2b", "As Rb", "sulita s", "Rs", "As", "Rb", "2b")
    assert beaten.result().outcome == "cudigghia" and rules.returns(beaten) == [-1.0, 1.0]


def test_mini_quattrigghiu_after_two_passes_the_holder_of_the_spatigghia_must_take_the_game() -> None:
    deal = quattrigghiu_deal("Rs 2b", "As Rb", "passu", "passu")
    assert deal.to_move == 1 and deal.legal() == [deal.parse_action("sulita s"), deal.parse_action("sulita b")]
    assert "both passed: seat 1 must take the game" in str(deal.why_illegal(deal.parse_action("passu")))
    # The spatigghia set aside, nobody must: the deal is passed and nothing is paid.
    passed = quattrigghiu_deal("Rs 2b", "Ab Rb", "passu", "passu")
    assert passed.over and passed.result().outcome == "passu" and passed.result().delta == [0, 0]


def test_mini_quattrigghiu_taking_each_of_the_first_basi_of_a_majority_asks_tutita_or_basta() -> None:
    rules = MiniQuattrigghiu(2, "A27R", 3)  # 8 cards, 3 each: two basi of three win
    deal = quattrigghiu_deal("As 2s Rb", "7s 7b 2b", "sulita s", "As", "7s", "2s", "7b", rules=rules)
    assert deal.phase == "tutita" and deal.to_move == 0
    assert deal.legal() == [deal.parse_action("tutita"), deal.parse_action("basta")]
    assert "no card is played now" in str(deal.why_illegal(parse_card("Rb")))
    stopped = deal.copy()
    stopped.apply(stopped.parse_action("basta"))
    assert stopped.result().outcome == "vinta" and rules.returns(stopped) == [1.0, -1.0]
    deal.apply(deal.parse_action("tutita"))
    assert deal.observation(1)["tutita"] is True
    for c in ("Rb", "2b"):
        assert parse_card(c) in deal.legal()
        deal.apply(parse_card(c))
    assert deal.result().outcome == "tutita" and rules.returns(deal) == [2.0, -2.0]
    failed = quattrigghiu_deal("As 2s 7b", "7s Rb 2b", "sulita s", "As", "7s", "2s", "2b", "tutita", "7b", "Rb",
                               rules=rules)
    assert failed.over and failed.result().outcome == "franca" and rules.returns(failed) == [0.0, 0.0]
    playing = quattrigghiu_deal("As 2s Rb", "7s 7b 2b", "sulita s", rules=rules)
    assert "only after one has taken each of the first 2 basi" in str(playing.why_illegal(deal.parse_action("tutita")))
    # Not clean: the second base of the taker is the third played, and no tutità is asked.
    late = quattrigghiu_deal("As 7b Ab", "7s 2s Rs", "sulita s", "As", "7s", "7b", "2s", "Rs", "Ab", rules=rules)
    assert late.over and late.result().outcome == "vinta" and late.basi == [2, 1]


def test_mini_quattrigghiu_refuses_a_wrong_action_saying_why() -> None:
    deal = quattrigghiu_deal("Rs 2b", "As Rb")
    assert "no card is played now" in str(deal.why_illegal(parse_card("Rs")))
    wrong_suit = deal.why_illegal(deal.parse_action("sulita c"))
    assert "the trunfu is one of the suits of the deck: s b" in str(wrong_suit)
    assert "il trunfu è uno dei pali del mazzo: s b" in wrong_suit.say("it")
    with pytest.raises(IllegalAction, match="'chiamu s Rd' is not an action of this game"):
        deal.parse_action("chiamu s Rd")
    deal.apply(deal.parse_action("sulita s"))
    assert "the call is made already" in str(deal.why_illegal(deal.parse_action("sulita b")))
    assert "it is not in the hand" in str(deal.why_illegal(parse_card("As")))


def answers(hand: list[int], trick: list[int], trump: int, matador: bool) -> list[int]:
    """What may answer, from the rules as docs/quattrigghiu.md words them: the trunfi on a trunfu
    lead (the spatigghia and the bastu among them), else the suit led, while the hand holds any;
    a hand whose only trunfi are matadors may play anything on a trunfu lead unless a higher
    matador is led."""
    if not trick:
        return hand
    led = trick[0]
    suit = led_suit(trump, led)
    follow = [c for c in hand if (TRUMP_MASK[trump] >> c & 1 if suit == trump
                                  else c // 13 == suit and not TRUMP_MASK[trump] >> c & 1)]
    matadors_only = suit == trump and all(MATADORS[trump] >> c & 1 for c in follow)
    forced = MATADORS[trump] >> led & 1 and any(STRENGTH[trump][c] < STRENGTH[trump][led] for c in follow)
    if not follow or (matador and matadors_only and not forced):
        return hand
    return follow


def quattrigghiu_ends(rules: MiniQuattrigghiu, deal: MiniQuattrigghiuDeal, rng: Random | None) -> list[
        MiniQuattrigghiuDeal]:
    """The deal played to its end in every way (or with ``rng``, one way at random), checking the
    cards that may be played at each turn against ``answers``."""
    if deal.over:
        return [deal]
    if deal.phase == "basi":
        assert deal.to_move is not None
        assert deal.legal() == sorted(answers(cards_of(deal.hands[deal.to_move]), deal.trick, deal.trump,
                                              rules.matador))
    actions = deal.legal() if rng is None else [rng.choice(deal.legal())]
    ends = []
    for action in actions:
        child = deal.copy()
        child.apply(action)
        ends.extend(quattrigghiu_ends(rules, child, rng))
    return ends


def check_quattrigghiu_end(rules: MiniQuattrigghiu, hands: Hands, deal: MiniQuattrigghiuDeal) -> None:
    played = [a for _, a in deal.history if a < 52]
    # Every card is still in a hand or played once, and only cards of the hands were played.
    assert sorted(played + [c for h in deal.hands for c in cards_of(h)]) == sorted(hands[0] + hands[1])
    assert len(played) == 2 * sum(deal.basi) and not deal.trick
    result, returns = deal.result(), rules.returns(deal)
    assert sum(returns) == 0 and abs(returns[0]) <= rules.max_returns()
    if result.outcome == "passu":
        assert not played and returns == [0.0, 0.0]
        return
    taker, other = deal.basi[deal.taker], deal.basi[1 - deal.taker]
    stake = {"vinta": 1, "cudigghia": -1, "tutita": 2 if taker > other else -2, "riposta": 0, "franca": 0}
    assert returns[deal.taker] == stake[result.outcome]
    assert (result.outcome == "riposta") == (taker == other)
    if result.outcome in ("vinta", "cudigghia"):
        assert max(taker, other) == deal.winning  # the deal stops at a majority
    if result.outcome == "tutita":
        assert max(taker, other) == rules.hand > deal.winning


def test_mini_quattrigghiu_every_play_of_every_deal_answers_as_the_rules_say_and_settles_the_basi() -> None:
    for matador in (True, False):
        rules = MiniQuattrigghiu(matador=matador, **TINY_QUATTRIGGHIU)  # type: ignore[arg-type]
        outcomes = set()
        for hands in rules.deals():
            for deal in quattrigghiu_ends(rules, rules.new_deal(hands), None):
                check_quattrigghiu_end(rules, hands, deal)
                outcomes.add(deal.result().outcome)
        assert outcomes == {"vinta", "cudigghia", "riposta", "passu"}  # no tutità in two basi


@pytest.mark.parametrize("options", [{"suits": 2, "ranks": "A27R", "hand": 3}, {"suits": 3, "ranks": "A2R", "hand": 2},
                                     {"suits": 4, "ranks": "A27FCR", "hand": 5}])
def test_mini_quattrigghiu_random_deals_end_conserving_the_cards_and_paying_as_they_must(
        options: dict[str, object]) -> None:
    rules = MiniQuattrigghiu(**options)  # type: ignore[arg-type]
    rng = Random(7)
    outcomes = set()
    for _ in range(400):
        deck = list(rules.deck)
        rng.shuffle(deck)
        hands = (tuple(sorted(deck[:rules.hand])), tuple(sorted(deck[rules.hand:2 * rules.hand])))
        (deal,) = quattrigghiu_ends(rules, rules.new_deal(hands), rng)
        check_quattrigghiu_end(rules, hands, deal)
        outcomes.add(deal.result().outcome)
    assert {"vinta", "cudigghia"} <= outcomes


# -- the OpenSpiel games ----------------------------------------------------------------------

def test_the_reduced_games_are_registered() -> None:
    assert set(register()) <= set(pyspiel.registered_names())


@pytest.mark.parametrize(("name", "options"), [
    ("osteria_mini_tressette", {}), ("osteria_mini_tressette", TINY),
    ("osteria_mini_tressette", {"suits": 2, "ranks": "4A3", "hand": 2}),
    ("osteria_mini_sancagna", {}), ("osteria_mini_sancagna", TINY_SANCAGNA),
    ("osteria_mini_quattrigghiu", {}), ("osteria_mini_quattrigghiu", TINY_QUATTRIGGHIU),
    ("osteria_mini_quattrigghiu", {"suits": 2, "ranks": "A27R", "hand": 3, "matador": False}),
])
def test_openspiels_random_simulation_test_passes(name: str, options: dict[str, object]) -> None:
    game = pyspiel.load_game(name, options)
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


@pytest.mark.parametrize(("name", "options", "shown"), [
    ("osteria_mini_tressette", TINY, lambda hands: hands[0]),
    ("osteria_mini_sancagna", TINY_SANCAGNA, lambda hands: (*hands[0], *hands[2])),  # and the turned card
    ("osteria_mini_quattrigghiu", TINY_QUATTRIGGHIU, lambda hands: hands[0]),
])
def test_a_seats_information_state_holds_what_it_was_shown_and_the_play_alone(
        name: str, options: dict[str, object], shown: Callable[[Hands], tuple[int, ...]]) -> None:
    game = pyspiel.load_game(name, options)
    by_view: dict[tuple[int, ...], set[str]] = {}
    for index, hands in enumerate(game.deals):
        state: ReducedState = game.new_initial_state()
        state.apply_action(index)
        seen = set(shown(hands))
        while not state.is_terminal():
            text = state.information_state_string(0)
            named = {c for c in game.rules.deck if CARD_STRINGS[c] in text}
            assert named <= seen, "a card seat 0 cannot see is in its information state"
            if not state.history()[1:]:
                by_view.setdefault(shown(hands), set()).add(text)
            action = state.legal_actions()[0]
            seen.add(game.rules.actions[action])
            state.apply_action(action)
    # Every deal that shows seat 0 the same cards looks the same to it before the first card.
    assert all(len(texts) == 1 for texts in by_view.values())


# -- CFR+ -------------------------------------------------------------------------------------

def test_cfr_plus_lowers_the_exploitability_and_the_c_plus_plus_tree_agrees() -> None:
    game = pyspiel.load_game("osteria_mini_tressette", TINY)
    tree = pyspiel.load_efg_game(efg(game))
    # Python's CFR+ on the Python game and the C++ one on its tree take the same steps.
    solver, fast = cfr.CFRPlusSolver(game), pyspiel.CFRPlusSolver(tree)
    for _ in range(2):
        solver.evaluate_and_update_policy()
        fast.evaluate_and_update_policy()
    assert pyspiel.exploitability(tree, fast.average_policy()) == pytest.approx(
        exploitability.exploitability(game, solver.average_policy()), abs=1e-9)
    curve = [pyspiel.exploitability(tree, fast.average_policy())]
    for _ in range(30):
        fast.evaluate_and_update_policy()
        curve.append(pyspiel.exploitability(tree, fast.average_policy()))
    # Not at every step (an average policy may lose a little), but over every ten.
    checkpoints = curve[::10]
    assert all(later < earlier for earlier, later in pairwise(checkpoints)), checkpoints
    assert curve[-1] < curve[0] / 10


@pytest.mark.parametrize(("name", "params"), [("osteria_mini_sancagna", TINY_SANCAGNA),
                                             ("osteria_mini_quattrigghiu", TINY_QUATTRIGGHIU)])
def test_cfr_plus_lowers_the_exploitability_of_each_reduced_game(name: str, params: dict[str, Any]) -> None:
    tree = pyspiel.load_efg_game(efg(pyspiel.load_game(name, params)))
    solver = pyspiel.CFRPlusSolver(tree)
    curve = []
    for _ in range(3):
        for _ in range(10):
            solver.evaluate_and_update_policy()
        curve.append(pyspiel.exploitability(tree, solver.average_policy()))
    assert curve[0] > curve[1] > curve[2]
    assert curve[2] < 0.01  # of a game worth up to a point a deal


@pytest.mark.parametrize(("name", "options", "deals", "infosets"), [
    ("osteria_mini_tressette", TINY, 90, [159, 324]),
    ("osteria_mini_tressette", {"suits": 3, "ranks": "A23", "hand": 2}, 756, [855, 2313]),
    ("osteria_mini_sancagna", TINY_SANCAGNA, 180, [456, 576]),
    ("osteria_mini_quattrigghiu", TINY_QUATTRIGGHIU, 90, [1298, 1460]),
    ("osteria_mini_quattrigghiu", {"suits": 2, "ranks": "A27R", "hand": 2}, 420, [4703, 5249]),
])
def test_the_sizes_docs_research_states(name: str, options: dict[str, object], deals: int,
                                        infosets: list[int]) -> None:
    game = pyspiel.load_game(name, options)
    assert game.max_chance_outcomes() == deals
    seen: list[set[str]] = [set(), set()]

    def walk(state: ReducedState) -> None:
        if state.is_terminal():
            return
        if not state.is_chance_node():
            seen[state.current_player()].add(state.information_state_string())
        for action in state.legal_actions():
            walk(state.child(action))

    walk(game.new_initial_state())
    assert [len(s) for s in seen] == infosets
