"""The double-dummy solver against plain minimax over the games' own deals, in every game."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import osteria
from osteria import bench
from osteria.bots import solver
from osteria.engine import Deal, side_of
from osteria.rules import quattrigghiu, sancagna
from osteria.rules.calabresella import CalabresellaDeal
from osteria.rules.traversone import TraversoneDeal
from osteria.rules.tressette import TressetteDeal


def same_side(deal: Deal, a: int, b: int) -> bool:
    if isinstance(deal, TraversoneDeal):
        return a == b  # paranoid: everyone else plays against the seat
    if isinstance(deal, CalabresellaDeal):
        return (a in deal.side()) == (b in deal.side())
    if isinstance(deal, quattrigghiu.QuattrigghiuDeal):
        return deal.side_of(a) == deal.side_of(b)
    return side_of(a) == side_of(b)


def sense(deal: Deal) -> int:
    """+1 where the seat wants a high value, -1 where points are poison."""
    return -1 if isinstance(deal, TraversoneDeal) else 1


def brute_force(deal: Deal, seat: int) -> int:
    """Minimax over every card (a signal dropped) with the deal's own apply() and result()."""
    if deal.over:
        return deal.play_value(seat)
    mover = deal.to_move
    assert mover is not None
    if isinstance(deal, sancagna.SancagnaDeal) and deal.caller is not None:
        actions = [sancagna.AVANTI]  # the solver plays the deal out
    else:
        cards: dict[int, int] = {}
        for a in deal.legal():
            c = deal.card_of(a)
            if c is not None:
                cards.setdefault(c, a)
        if isinstance(deal, sancagna.SancagnaDeal) and deal.trick:  # by the rules, also under tavola
            must = sancagna.required(deal.hands[mover], deal.trick[0] // 13, deal.trump)
            cards = {c: a for c, a in cards.items() if must >> c & 1}
        actions = list(cards.values()) or deal.legal()  # no card: tutita or basta
    direction = sense(deal)
    values = []
    for a in actions:
        child = deal.copy()
        child.apply(a)
        values.append(direction * brute_force(child, seat))
    return direction * (max(values) if same_side(deal, mover, seat) else min(values))


def ending(game: str, rng: random.Random, tricks: int, **options: object) -> Deal:
    """A deal played at random into its card play, stopped at most ``tricks`` tricks from the
    end, at the start of a trick or within one."""
    while True:
        deal = osteria.new_match(game, seed=rng.getrandbits(32), **options).deal  # type: ignore[arg-type]
        assert deal is not None
        while not deal.over:
            playing = deal.in_card_play and not deal.stake_beyond_play()
            if playing and deal.hands[deal.to_move].bit_count() <= tricks and rng.random() < 0.4:  # type: ignore[attr-defined,index]
                return deal
            deal.apply(rng.choice(deal.legal()))


CASES = [
    ("tressette", {}), ("tressette", {"segni": "sud"}),
    ("calabresella", {}), ("calabresella", {"seats": 4}), ("calabresella", {"seats": 5}),
    ("traversone", {}), ("traversone", {"seats": 3}), ("traversone", {"seats": 6}),
    ("traversone", {"zero_punti": "divide", "asso_bastoni": 11}),
    ("quattrigghiu", {}), ("quattrigghiu", {"matador": False}),
    ("sancagna", {}), ("sancagna", {"tavola": True}),
]


@pytest.mark.parametrize(("game", "options"), CASES)
def test_solver_agrees_with_brute_force_on_small_endings(game: str, options: dict[str, object]) -> None:
    rng = random.Random(f"{game}{options}")
    small = options.get("seats") == 6  # six hands: two tricks are 12 cards already
    for k in range(150):
        deal = ending(game, rng, 2 if small or k < 130 else 3, **options)
        seat = deal.to_move
        assert seat is not None
        for who in {seat, (seat + 1) % deal.seats}:
            exact = brute_force(deal, who)
            assert solver.Solver(compiled=False).solve(deal, who).value == exact, (game, k)
            assert solver.Solver().solve(deal, who).value == exact, (game, k)  # the kernel where it applies


@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.parametrize(("game", "options"), CASES[::2])
def test_every_card_is_valued_as_brute_force_values_it(game: str, options: dict[str, object], compiled: bool) -> None:
    rng = random.Random(game)
    for _ in range(25):
        deal = ending(game, rng, 3, **options)
        seat = deal.to_move
        assert seat is not None
        values, exact = solver.Solver(compiled=compiled).move_values(deal)
        assert exact
        best = solver.Solver(compiled=compiled).solve(deal)
        for a in deal.legal():
            c = deal.card_of(a)
            if c is None or c not in values:
                continue
            child = deal.copy()
            child.apply(a)
            assert values[c] == brute_force(child, seat)
        pick = max if sense(deal) > 0 else min
        assert best.value == pick(values.values()) == values[best.best]


def test_the_tutita_window_is_the_winning_side_s_choice() -> None:
    # A clean six: the side that took it goes for all ten only where open hands let it.
    rng = random.Random(7)
    found = 0
    while found < 5:
        deal = osteria.new_match("quattrigghiu", seed=rng.getrandbits(32)).deal
        assert isinstance(deal, quattrigghiu.QuattrigghiuDeal)
        while not deal.over and deal.phase != quattrigghiu.WINDOW:
            actions = deal.legal()
            if deal.phase == quattrigghiu.PLAY and deal.trick:
                # The side to lead keeps winning: it plays its strongest, the others their weakest.
                strength = quattrigghiu.STRENGTH[deal.trump]
                ahead = deal.side_of(deal.to_move) == deal.side_of(deal.leader)  # type: ignore[arg-type]
                actions = [(max if ahead else min)(actions, key=lambda c: strength[c])]
            deal.apply(rng.choice(actions))
        if deal.phase != quattrigghiu.WINDOW:
            continue
        found += 1
        seat = deal.to_move
        assert seat is not None
        assert solver.Solver().solve(deal, seat).value == brute_force(deal, seat)


def test_signals_and_accusi_are_not_cards() -> None:
    deal = osteria.new_match("tressette", seed=3).deal
    assert deal is not None
    cards = {deal.card_of(a) for a in deal.legal()} - {None}
    assert cards == set(solver.ending(deal, deal.to_move).moves()) | cards  # type: ignore[arg-type]
    assert all(0 <= c < 52 for c in cards if c is not None)


def test_a_spent_budget_gives_an_estimate_that_says_so() -> None:
    deal = osteria.new_match("tressette", seed=5).deal
    assert deal is not None
    rough = solver.Solver(max_nodes=200).solve(deal)
    assert not rough.exact
    assert 0 <= rough.value <= 11 + 8  # points and accusi of one side
    assert rough.best in deal.legal()


def test_the_solver_does_not_search_the_bidding() -> None:
    deal = osteria.new_match("calabresella", seed=1).deal
    assert deal is not None
    with pytest.raises(ValueError, match="card play"):
        solver.ending(deal, 0)


@given(st.lists(st.booleans(), min_size=2, max_size=40), st.data())
def test_each_test_of_the_search_falls_on_a_step_between_its_bounds(changes: list[bool], data: st.DataObject) -> None:
    steps = [0]
    for change in changes:
        steps.append(steps[-1] + change)
    lo = data.draw(st.integers(0, len(steps) - 2))
    hi = data.draw(st.integers(lo + 1, len(steps) - 1))
    assume(steps[lo] != steps[hi])
    guess = data.draw(st.integers(0, len(steps) - 1))
    stride = data.draw(st.sampled_from([-4, -2, -1, 0, 1, 2, 4]))
    beta = solver.step_to_test(steps, lo, hi, guess, stride)
    assert lo < beta <= hi and steps[beta] != steps[beta - 1]
    boundaries = [x for x in range(lo + 1, hi + 1) if steps[x] != steps[x - 1]]
    if stride > 0:
        assert beta == boundaries[min(stride, len(boundaries)) - 1]
    elif stride < 0:
        assert beta == boundaries[-min(-stride, len(boundaries))]
    else:
        assert abs(beta - guess) == min(abs(x - guess) for x in boundaries)


def thirds_by_brute_force(deal: TressetteDeal, side: int) -> int:
    """The thirds ``side`` holds at the end of the deal, by minimax over every card."""
    if deal.over:
        return deal.thirds[side]
    mover = deal.to_move
    assert mover is not None
    values = []
    for card in {deal.card_of(a) for a in deal.legal()} - {None}:
        child = deal.copy()
        child.apply(card)  # type: ignore[arg-type]
        values.append(thirds_by_brute_force(child, side))
    return max(values) if side_of(mover) == side else min(values)


def test_what_the_leader_surely_cashes_never_passes_what_its_side_gains() -> None:
    rng = random.Random(7)
    checked = cashing = exact = 0
    while checked < 150:
        deal = ending("tressette", rng, 3)
        assert isinstance(deal, TressetteDeal)
        if deal.trick:
            continue
        side = side_of(deal.leader)
        gain = thirds_by_brute_force(deal.copy(), side) - deal.thirds[side]
        sure = solver.ending(deal, deal.leader, compiled=False).sure()
        assert 0 <= sure <= gain
        checked += 1
        cashing += sure > 0
        exact += 0 < sure == gain
    assert cashing > 30 and exact > 5  # the bound is no bare zero


def test_the_bench_times_each_game_s_solver_on_endings_of_the_length_it_says() -> None:
    rng = random.Random(2)
    for case in bench.SOLVER_CASES:
        deal = bench.solver_ending(case, 4, rng)
        play = deal.open_play(deal.to_move)  # type: ignore[arg-type]
        assert not play.trick and play.hands[play.leader].bit_count() <= 4
    lines: list[str] = []
    bench.solver_speeds(["sancagna"], 0, lines.append)
    labels = [line.split("  ")[0] for line in lines[1:]]
    assert labels[:2] == ["sancagna, 4-trick ending, pure", "sancagna, whole deal, pure"]
    if solver.kernel_seats():  # the kernel's lines, each with how many times faster it is
        assert labels[2:] == ["sancagna, 4-trick ending, compiled", "sancagna, whole deal, compiled"]
        assert all(line.endswith("x") for line in lines[3:])
