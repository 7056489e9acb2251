"""The reduced games for exact methods: their rules, their OpenSpiel games, and CFR+ on them."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import TypeVar

import pyspiel
import pytest
from open_spiel.python.algorithms import cfr, exploitability

from osteria.cards import CARD_STRINGS, cards_of, parse_card
from osteria.engine import Deal, IllegalAction, RulesError
from osteria.envs.reduced import ReducedState, efg, register
from osteria.rules.reduced import Hands, MiniSancagna, MiniTressette
from osteria.rules.sancagna import card_points
from osteria.rules.tressette_family import THIRDS

# Small enough for Python's CFR+ in a test: 6 cards, 2 in each hand, 90 deals.
TINY = {"suits": 3, "ranks": "A3", "hand": 2}
# 6 cards, 2 in each hand and one turned: 180 deals.
TINY_SANCAGNA = {"suits": 2, "ranks": "34R", "hand": 2}
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


# -- the OpenSpiel games ----------------------------------------------------------------------

def test_the_reduced_games_are_registered() -> None:
    assert set(register()) <= set(pyspiel.registered_names())


@pytest.mark.parametrize(("name", "options"), [
    ("osteria_mini_tressette", {}), ("osteria_mini_tressette", TINY),
    ("osteria_mini_tressette", {"suits": 2, "ranks": "4A3", "hand": 2}),
    ("osteria_mini_sancagna", {}), ("osteria_mini_sancagna", TINY_SANCAGNA),
])
def test_openspiels_random_simulation_test_passes(name: str, options: dict[str, object]) -> None:
    game = pyspiel.load_game(name, options)
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


@pytest.mark.parametrize(("name", "options", "shown"), [
    ("osteria_mini_tressette", TINY, lambda hands: hands[0]),
    ("osteria_mini_sancagna", TINY_SANCAGNA, lambda hands: (*hands[0], *hands[2])),  # and the turned card
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


def test_cfr_plus_lowers_the_exploitability_of_mini_sancagna() -> None:
    tree = pyspiel.load_efg_game(efg(pyspiel.load_game("osteria_mini_sancagna", TINY_SANCAGNA)))
    solver = pyspiel.CFRPlusSolver(tree)
    curve = []
    for _ in range(3):
        for _ in range(10):
            solver.evaluate_and_update_policy()
        curve.append(pyspiel.exploitability(tree, solver.average_policy()))
    assert curve[0] > curve[1] > curve[2]


@pytest.mark.parametrize(("name", "options", "deals", "infosets"), [
    ("osteria_mini_tressette", TINY, 90, [159, 324]),
    ("osteria_mini_tressette", {"suits": 3, "ranks": "A23", "hand": 2}, 756, [855, 2313]),
    ("osteria_mini_sancagna", TINY_SANCAGNA, 180, [456, 576]),
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
