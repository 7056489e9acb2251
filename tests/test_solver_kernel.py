"""The compiled solver kernel against the pure-Python reference: the same values, everywhere."""

from __future__ import annotations

import functools
import random
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import osteria
from osteria.bots import solver
from osteria.cards import ITALIAN_40, cards_of, parse_card
from osteria.engine import Deal
from osteria.rules import quattrigghiu
from osteria.rules.traversone import TraversoneDeal
from osteria.rules.tressette import TRICKS, TressetteDeal
from test_solver import brute_force, ending

pytest.importorskip("numba")  # the kernel is the fast extra's
import numpy as np

from osteria.bots import solver_kernel


def played_to(seed: int, tricks_left: int, extra_cards: int = 0, **options: object) -> TressetteDeal:
    """A Tressette deal played at random (accusi and signals included) until ``tricks_left``
    tricks remain, then ``extra_cards`` cards into the next trick."""
    rng = random.Random(seed)
    deal = osteria.new_match("tressette", seed=seed, **options).deal  # type: ignore[arg-type]
    assert isinstance(deal, TressetteDeal)
    while deal.tricks_done < TRICKS - tricks_left or len(deal.trick) < extra_cards:
        deal.apply(rng.choice(deal.legal()))
    return deal


def agree(deal: Deal, seat: int) -> None:
    """The kernel and the reference give the same value, the same value to every card, and a
    best card that is worth the value."""
    kernel, pure = solver.Solver().solve(deal, seat), solver.Solver(compiled=False).solve(deal, seat)
    assert kernel.exact and pure.exact
    assert kernel.value == pure.value
    if seat == deal.to_move:
        kernel_values, _ = solver.Solver().move_values(deal)
        pure_values, _ = solver.Solver(compiled=False).move_values(deal)
        assert kernel_values == pure_values
        assert kernel_values[kernel.best] == kernel.value


@pytest.mark.parametrize("options", [{}, {"segni": "sud"}, {"segni": "muto"}, {"morto": [2]}])
def test_the_kernel_agrees_with_the_reference_on_tressette_endings(options: dict[str, object]) -> None:
    for seed in range(40):
        deal = played_to(seed, 2 + seed % 4, seed % 4, **options)
        assert solver.ending(deal, 0).compiled
        seat = deal.to_move
        assert seat is not None
        agree(deal, seat)
        agree(deal, (seat + 1) % 4)


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_the_kernel_agrees_with_the_reference_in_calabresella(seats: int) -> None:
    rng = random.Random(seats)
    for _ in range(40):
        deal = ending("calabresella", rng, 4, seats=seats)
        assert solver.ending(deal, 0).compiled
        seat = deal.to_move
        assert seat is not None
        agree(deal, seat)
        agree(deal, (seat + 1) % seats)


@pytest.mark.parametrize("options", [{}, {"tavola": True}])
def test_the_kernel_agrees_with_the_reference_in_sancagna(options: dict[str, object]) -> None:
    # Trumps: a void hand must trump, and the highest trump takes; trumps are worth up to 8.
    rng = random.Random(f"sancagna{options}")
    for k in range(40):
        deal = ending("sancagna", rng, 3 + k % 3, **options)
        assert solver.ending(deal, 0).compiled
        seat = deal.to_move
        assert seat is not None
        agree(deal, seat)
        agree(deal, (seat + 1) % 4)


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_the_kernel_agrees_with_the_reference_in_traversone(seats: int) -> None:
    # Points are poison: the seat's side is itself, and what counts is what the others take.
    rng = random.Random(f"traversone{seats}")
    for _ in range(30):
        deal = ending("traversone", rng, 3 if seats == 6 else 4, seats=seats)
        assert solver.ending(deal, 0).compiled
        seat = deal.to_move
        assert seat is not None
        agree(deal, seat)
        agree(deal, (seat + 1) % seats)


QUATTRIGGHIU_OPTIONS = [{}, {"matador": False}, {"aiuto_volontario": True}]


@pytest.mark.parametrize("options", QUATTRIGGHIU_OPTIONS)
def test_the_kernel_agrees_with_the_reference_in_quattrigghiu(options: dict[str, object]) -> None:
    # Basi count, not cards; the spatigghia and the bastu answer a trunfu lead; under the matador
    # privilege a hand whose only trunfi are battittura may keep them.
    rng = random.Random(f"quattrigghiu{options}")
    for k in range(24):
        deal = ending("quattrigghiu", rng, 2 + k % 4, **options)
        assert solver.ending(deal, 0).compiled
        seat = deal.to_move
        assert seat is not None
        agree(deal, seat)
        agree(deal, (seat + 1) % 4)


def test_the_kernel_agrees_with_the_reference_where_the_matador_privilege_decides() -> None:
    # Random endings where the privilege changes the value: without it the seat's value differs.
    rng = random.Random(11)
    decided = 0
    while decided < 8:
        deal = ending("quattrigghiu", rng, 3 + decided % 3)
        assert isinstance(deal, quattrigghiu.QuattrigghiuDeal)
        seat = deal.to_move
        assert seat is not None
        plain = deal.copy()
        plain.matador = False
        pure = solver.Solver(compiled=False)
        if pure.solve(plain, seat).value == pure.solve(deal, seat).value:
            continue
        decided += 1
        agree(deal, seat)
        agree(plain, seat)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(QUATTRIGGHIU_OPTIONS), st.integers(1, 3))
def test_the_kernel_values_quattrigghiu_endings_as_brute_force_does(seed: int, options: dict[str, object],
                                                                   tricks: int) -> None:
    deal = ending("quattrigghiu", random.Random(seed), tricks, **options)
    seat = deal.to_move
    assert seat is not None
    for who in (seat, (seat + 1) % 4):
        assert solver.ending(deal, who).compiled
        assert solver.Solver().solve(deal, who).value == brute_force(deal, who)


def quattrigghiu_rules(trump: int, matador: bool) -> tuple[Any, Any, tuple[int, ...]]:
    """Quattrigghiu's strength and suit tables as the kernel takes them, and the kernel's numbers."""
    strength = quattrigghiu.STRENGTH[trump]
    chains = [sorted(cards_of(quattrigghiu.FOLLOW[trump][s]), key=lambda c: strength[c]) for s in range(4)]
    numbers = solver_kernel.kernel_numbers(tuple(tuple(chain) for chain in chains))
    renumbered = [[numbers[c] for c in chain] for chain in chains]
    privileged = sum(1 << numbers[c] for c in cards_of(quattrigghiu.MATADORS[trump])) if matador else 0
    return (solver_kernel.strength_table(renumbered), solver_kernel.suit_table(trump, False, privileged),
            numbers)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 3), st.booleans(), st.sets(st.sampled_from(ITALIAN_40.cards), min_size=1, max_size=10),
       st.sampled_from(ITALIAN_40.cards), st.booleans())
def test_the_kernel_s_quattrigghiu_follows_are_the_rules_own(trump: int, matador: bool, hand: set[int], led: int,
                                                             battittura_only: bool) -> None:
    if battittura_only:  # the hands where the privilege decides: trunfi, if any, are battittura
        matadors = quattrigghiu.MATADORS[trump]
        hand = {c for c in hand if not quattrigghiu.TRUMP_MASK[trump] >> c & 1 or matadors >> c & 1}
        hand.add(cards_of(matadors)[led % 3])
    hand.discard(led)
    if not hand:
        return
    deal = osteria.new_match("quattrigghiu", seed=0, matador=matador).deal
    assert isinstance(deal, quattrigghiu.QuattrigghiuDeal)
    deal.trump, deal.trick, deal.hands[0] = trump, [led], sum(1 << c for c in hand)
    strength, suits, numbers = quattrigghiu_rules(trump, matador)
    follows = solver_kernel._follows(sum(1 << numbers[c] for c in hand), numbers[led], suits, strength)
    assert follows == sum(1 << numbers[c] for c in cards_of(deal.playable(0)))


def test_the_kernel_numbers_each_follow_class_within_its_own_block() -> None:
    for trump in range(4):
        _, _, numbers = quattrigghiu_rules(trump, True)
        for s in range(4):
            for c in cards_of(quattrigghiu.FOLLOW[trump][s]):
                assert numbers[c] // 13 == s  # the spatigghia and the bastu among the trunfi
        deck = [numbers[c] for c in ITALIAN_40.cards]
        assert len(set(deck)) == 40 and min(deck) >= 0
    suits = tuple(tuple(c for c in ITALIAN_40.cards if c // 13 == s) for s in range(4))
    assert all(solver_kernel.kernel_numbers(suits)[c] == c for c in ITALIAN_40.cards)
    with pytest.raises(ValueError, match="at most 13"):
        solver_kernel.kernel_numbers((tuple(range(14)), (), (), ()))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([3, 4, 5, 6]), st.integers(1, 3))
def test_the_kernel_values_traversone_endings_as_brute_force_does(seed: int, seats: int, tricks: int) -> None:
    deal = ending("traversone", random.Random(seed), min(tricks, 2) if seats == 6 else tricks, seats=seats)
    seat = deal.to_move
    assert seat is not None
    for who in (seat, (seat + 1) % seats):
        assert solver.ending(deal, who).compiled
        assert solver.Solver().solve(deal, who).value == brute_force(deal, who)


def test_a_traversone_leader_s_winners_bound_nothing() -> None:
    # The leader holds the strongest card of every suit it holds: in a game of points its side
    # would surely take those tricks, but here each costs it, and it leads them only if forced.
    deal = ending("traversone", random.Random(2), 4)
    assert isinstance(deal, TraversoneDeal)
    deal.trick, deal.to_move = [], deal.leader
    leader = deal.leader
    hands = [0] * 4
    for offset, cards in enumerate([["3d", "3c", "2c", "Ab"], ["4d", "4c", "5c", "6c"], ["5d", "7c", "Fc", "Cc"],
                                    ["6d", "Ac", "4b", "5b"]]):
        hands[(leader + offset) % 4] = sum(1 << parse_card(c) for c in cards)
    deal.hands = hands
    for seat in range(4):
        assert solver.ending(deal, seat).compiled
        assert solver.Solver().solve(deal, seat).value == solver.Solver(compiled=False).solve(deal, seat).value


def test_the_kernel_s_sure_gain_under_trumps_is_gained() -> None:
    rng = random.Random(12)
    counted = 0
    for _ in range(120):
        deal = ending("sancagna", rng, 4)
        if deal.trick:  # type: ignore[attr-defined]
            continue
        leader = deal.leader  # type: ignore[attr-defined]
        e = solver.ending(deal, leader, compiled=False)
        hands, values, chains = kernel_arrays(e)
        sure = solver_kernel._sure(hands, leader, e.live, values, chains, kernel_rules(e)[1], e.rest)
        assert sure <= e.search(-1, e.rest + 1)  # the side's exact gain, all hands open
        counted += sure > 0
    assert counted > 10  # the bound does count cashes


def test_the_kernel_agrees_with_the_reference_on_eight_trick_endings() -> None:
    for seed in (2, 11, 16):
        deal = played_to(seed, 8)
        seat = deal.to_move
        assert seat is not None
        kernel, pure = solver.Solver().solve(deal), solver.Solver(compiled=False).solve(deal)
        assert (kernel.value, kernel.nodes > 0) == (pure.value, True)
        after = deal.copy()
        after.apply(kernel.best)
        assert solver.Solver().solve(after, seat).value == kernel.value


def test_the_kernel_serves_where_it_applies_and_the_reference_elsewhere() -> None:
    def compiled(game: str, **options: object) -> bool:
        return solver.ending(ending(game, random.Random(1), 5, **options), 0).compiled

    assert compiled("tressette")
    assert compiled("calabresella", seats=4)
    assert compiled("calabresella", seats=5)
    assert compiled("traversone")
    assert compiled("traversone", seats=6)
    assert not compiled("traversone", asso_bastoni=11)  # the ace of bastoni's 33 thirds: past the table's keys
    assert compiled("quattrigghiu")
    assert compiled("quattrigghiu", matador=False)
    assert compiled("sancagna")
    deal = played_to(0, 4)
    assert not solver.ending(deal, 0, compiled=False).compiled


def test_a_spent_budget_in_the_kernel_gives_an_estimate_and_leaves_the_deal_alone() -> None:
    deal = played_to(3, TRICKS)
    before = deal.copy().__dict__
    e = solver.ending(deal, deal.to_move)  # type: ignore[arg-type]
    e.max_nodes = 500
    hands = list(e.hands)
    with pytest.raises(solver.SearchBudget):
        e.value()
    assert e.nodes == 501 and e.hands == hands
    rough = solver.Solver(max_nodes=500).solve(deal)
    assert not rough.exact
    assert rough.best in deal.legal()
    assert deal.__dict__ == before


def test_without_numba_the_solver_is_pure_python() -> None:
    script = (
        "import sys; sys.modules['numba'] = None\n"
        "import osteria\n"
        "from osteria.bots import solver\n"
        "deal = osteria.new_match('tressette', seed=4).deal\n"
        "while deal.tricks_done < 8: deal.apply(deal.legal()[0])\n"
        "assert solver.kernel_seats() == 0 and not solver.ending(deal, 0).compiled\n"
        "print(solver.Solver().solve(deal).value)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    deal = osteria.new_match("tressette", seed=4).deal
    assert isinstance(deal, TressetteDeal)
    while deal.tricks_done < 8:
        deal.apply(deal.legal()[0])
    assert int(done.stdout) == solver.Solver().solve(deal).value


def trick_starts(seed: int) -> list[Deal]:
    """Positions at the start of a trick, from 1 to 6 tricks left, in Tressette and Calabresella."""
    rng = random.Random(seed)
    found: list[Deal] = []
    for game, options in [("tressette", {}), ("calabresella", {}), ("calabresella", {"seats": 4})]:
        kind: list[Deal] = []
        while len(kind) < 40:
            deal = ending(game, rng, 1 + len(kind) % 6, **options)
            if not deal.trick:  # type: ignore[attr-defined]
                kind.append(deal)
        found += kind
    return found


def kernel_arrays(e: solver.Ending) -> tuple[Any, Any, Any]:
    """The hands, values and chain table of an ending as the kernel takes them."""
    values = np.zeros(64, np.int64)
    values[:len(e.values)] = e.values
    chains = solver_kernel.chain_table([chain for chain, _ in e.chains])
    return np.array(e.hands, np.int64), values, chains


def kernel_team(e: solver.Ending) -> Any:
    """An ending's sides as the kernel takes them: who maximises, then whose takings count."""
    return np.array([*e.team, *e.gains], np.int64)


def kernel_rules(e: solver.Ending) -> tuple[Any, Any]:
    """The strength and suit tables of an ending's trick play as the kernel takes them."""
    assert e.suit_play is not None
    strength = solver_kernel.strength_table([chain for chain, _ in e.chains])
    return strength, solver_kernel.suit_table(e.suit_play.trump, e.suit_play.must_trump)


def test_the_kernel_s_sure_gain_is_the_reference_s() -> None:
    for deal in trick_starts(5):
        leader = deal.leader  # type: ignore[attr-defined]
        e = solver.ending(deal, leader, compiled=False)
        hands, values, chains = kernel_arrays(e)
        sure = solver_kernel._sure(hands, leader, e.live, values, chains, kernel_rules(e)[1], e.rest)
        assert sure == e.sure()


def test_the_crossing_to_a_partner_adds_only_what_the_side_surely_gains() -> None:
    raised = 0
    for deal in trick_starts(7) + trick_starts(8):
        leader = deal.leader  # type: ignore[attr-defined]
        e = solver.ending(deal, leader, compiled=False)
        hands, values, chains = kernel_arrays(e)
        team = kernel_team(e)
        sure = e.sure()
        crossing = solver_kernel._crossing(hands, leader, e.live, values, chains, kernel_rules(e)[1], team,
                                           e.rest - sure)
        assert 0 <= crossing <= e.rest - sure
        assert sure + crossing <= e.search(-1, e.rest + 1)  # the side's exact gain, all hands open
        raised += crossing > 0
    assert raised > 10  # the bound does reach past the leader's own cashes


def test_a_partner_left_with_winners_only_takes_every_trick_for_the_side() -> None:
    # The leader cashes the 3 of denari, its partner follows with the 5 and then holds only the 3
    # of coppe, the strongest of its suit: the leader crosses with the 4 of coppe and the side takes
    # both tricks, which counting the cards of the partner's run alone would not show.
    deal = played_to(0, 2)
    leader = deal.leader
    hands = [0] * 4
    for offset, cards in enumerate([["3d", "4c"], ["2d", "2c"], ["5d", "3c"], ["Ad", "Ac"]]):
        hands[(leader + offset) % 4] = sum(1 << parse_card(c) for c in cards)
    deal.hands = hands
    e = solver.ending(deal, leader, compiled=False)
    arrays, values, chains = kernel_arrays(e)
    sure = e.sure()
    crossing = solver_kernel._crossing(arrays, leader, e.live, values, chains, kernel_rules(e)[1],
                                       kernel_team(e), e.rest - sure)
    assert sure < e.rest
    assert sure + crossing == e.rest == e.search(-1, e.rest + 1)


def test_the_last_two_tricks_counted_directly_are_worth_what_the_search_finds() -> None:
    rng = random.Random(9)
    solved = 0
    # Traversone too, where the seat alone maximises and what the others take is its gain.
    for game, options in [("tressette", {}), ("calabresella", {}), ("calabresella", {"seats": 4}),
                          ("traversone", {}), ("traversone", {"seats": 3})]:
        for _ in range(80):
            deal = ending(game, rng, 2, **options)
            leader = deal.leader  # type: ignore[attr-defined]
            e = solver.ending(deal, leader, compiled=False)
            if deal.trick or e.hands[leader].bit_count() != 2:  # type: ignore[attr-defined]
                continue
            solved += 1
            hands, values, _ = kernel_arrays(e)
            direct = solver_kernel._two_tricks(hands, leader, e.n, kernel_team(e), values,
                                               *kernel_rules(e), e.last_bonus)
            assert direct == e.search(-1, e.rest + 1)
    assert solved > 100


def twin(deal: Deal, rng: random.Random | None) -> Deal:
    """The position with the live cards of each suit swapped, in order of strength, for as many
    other cards of the suit: drawn at random (the cards' values may differ), or without ``rng``
    the weakest that keep the values in the same order. Every seat holds the same places."""
    e = solver.ending(deal, deal.leader, compiled=False)  # type: ignore[attr-defined]
    hands = [0] * e.n
    for chain, _ in e.chains:
        live = [c for c in chain if e.live >> c & 1]
        if rng is None:
            drawn, place = [], 0
            for card in live:
                while e.values[chain[place]] != e.values[card]:
                    place += 1
                drawn.append(place)
                place += 1
        else:
            drawn = sorted(rng.sample(range(len(chain)), len(live)))
        for card, place in zip(live, drawn, strict=True):
            holder = next(s for s in range(e.n) if e.hands[s] >> card & 1)
            hands[holder] |= 1 << chain[place]
    other = deal.copy()
    other.hands = hands  # type: ignore[attr-defined]
    return other


def key_of(e: solver.Ending) -> Any:
    hands, values, chains = kernel_arrays(e)
    key = np.zeros(solver_kernel._KEY, np.int64)
    solver_kernel._key(hands, e.live, e.leader, values, chains, kernel_rules(e)[1], key, 0)
    return key


def test_positions_alike_are_worth_the_same_up_to_the_slack_of_their_values() -> None:
    rng = random.Random(3)
    same = apart = 0
    for deal in trick_starts(6)[::2]:
        leader = deal.leader  # type: ignore[attr-defined]
        e = solver.ending(deal, leader, compiled=False)
        value = e.search(-1, e.rest + 1)
        for draw in (rng, rng, None):
            other = solver.ending(twin(deal, draw), leader, compiled=False)
            stored, key = np.zeros((1, solver_kernel._ROW), np.int64), key_of(other)
            stored[0, solver_kernel._T_KEY:solver_kernel._T_KEY + solver_kernel._KEY] = key_of(e)
            assert solver_kernel._alike(stored, 0, key, 0, solver_kernel._WORTH)  # the same holders
            down, up = solver_kernel._slack(stored, 0, key, 0)
            assert value - down <= other.search(-1, other.rest + 1) <= value + up
            if solver_kernel._alike(stored, 0, key, 0, solver_kernel._KEY):
                assert (down, up) == (0, 0)
                same += other.hands != e.hands
            else:
                assert down + up > 0
                apart += 1
    assert same > 10 and apart > 50  # both kinds of twin were tried


def test_a_card_s_place_is_the_same_card_in_a_position_alike() -> None:
    rng = random.Random(4)
    for deal in trick_starts(6)[1::4]:
        e = solver.ending(deal, deal.leader, compiled=False)  # type: ignore[attr-defined]
        other = solver.ending(twin(deal, rng), deal.leader, compiled=False)  # type: ignore[attr-defined]
        _, _, chains = kernel_arrays(e)
        for chain, _ in e.chains:
            live = [c for c in chain if e.live >> c & 1]
            twins = [c for c in chain if other.live >> c & 1]
            for card, alike in zip(live, twins, strict=True):
                place = solver_kernel._place(card, e.live, chains)
                assert solver_kernel._card(place, other.live, chains) == alike
    assert solver_kernel._place(-1, 0, chains) == solver_kernel._card(-1, 0, chains) == -1


def test_the_kernel_refuses_card_values_its_table_cannot_key() -> None:
    e = solver.ending(played_to(1, 4), 0, compiled=False)
    values = list(e.values)
    values[next(c for c in range(len(values)) if e.live >> c & 1)] = solver_kernel._VALUE_MASK + 1
    chains = [chain for chain, _ in e.chains]
    with pytest.raises(ValueError, match=f"card values from 0 to {solver_kernel._VALUE_MASK}"):
        solver_kernel.Search(e.hands, e.trick, e.leader, e.team, e.gains, values, chains, -1, False, e.last_bonus,
                             e.rest, e.steps())
    solver_kernel.Search(e.hands, e.trick, e.leader, e.team, e.gains, e.values, chains, -1, False, e.last_bonus,
                         e.rest, e.steps())



@functools.cache
def bit_helpers() -> Any:
    """The kernel's public bit helpers, called from compiled code as the batched engine calls them."""
    import numba

    @numba.njit
    def both(bits: int) -> tuple[int, int]:
        return solver_kernel.count_bits(bits), solver_kernel.lowest_bit(bits)

    return both


@settings(deadline=None)
@given(st.integers(1, (1 << 63) - 1))
def test_the_public_bit_helpers_count_and_find_the_lowest_bit(cards: int) -> None:
    assert bit_helpers()(cards) == (cards.bit_count(), (cards & -cards).bit_length() - 1)


@functools.cache
def nth_bit_finders() -> list[Any]:
    """Each way the kernel finds a set bit by its rank that this machine can run, compiled."""
    import numba

    finders = [solver_kernel._nth_bit_walked]
    if solver_kernel._fast_deposit():
        finders.append(solver_kernel._nth_bit_deposited)
    return [numba.njit(lambda bits, k, find=find: find(bits, k)) for find in finders]


@settings(deadline=None)
@given(st.integers(1, (1 << 63) - 1), st.data())
def test_the_k_th_set_bit_is_found_by_its_rank(cards: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, cards.bit_count() - 1))
    places = [p for p in range(63) if cards >> p & 1]
    for find in nth_bit_finders():
        assert find(cards, k) == places[k]


def test_a_table_s_best_lead_is_tried_alone_only_where_it_is_one_of_the_leads() -> None:
    # The search tries the table's best card before it makes the leads: that card must be one
    # the leads would hold (the leader's, one of each run), else a run would be searched twice.
    tried = 0
    for deal in trick_starts(7):
        leader = deal.leader  # type: ignore[attr-defined]
        e = solver.ending(deal, leader, compiled=False)
        hands, values, chains = kernel_arrays(e)
        strength, suits = kernel_rules(e)
        moves = np.zeros((solver_kernel._MAX_PLY, 16), np.int64)
        order = np.zeros((solver_kernel._MAX_PLY, 16), np.int64)
        played = np.zeros(solver_kernel._MAX_PLY, np.int64)
        count = solver_kernel._moves(hands, leader, played, 0, 0, leader, e.live, kernel_team(e), values, strength,
                                     chains, suits, moves, order)
        leads = set(moves[0, :count].tolist())
        assert leads == set(e.moves(leader))
        for card in cards_of(e.live):
            first = solver_kernel._leads_first(e.hands[leader], e.live, card, values, chains)
            assert first == (card in leads)
            tried += first != (e.hands[leader] >> card & 1)
    assert tried > 0  # some of the leader's cards are not leads: their runs' weakest card is
