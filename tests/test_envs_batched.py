"""The batched compiled engine: held to the rules engine deal by deal, its policies, its arrays."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from osteria import game_rules
from osteria.cards import ITALIAN_40
from osteria.engine import RulesError
from osteria.envs.batched import BatchedTressette
from osteria.rules.tressette import ACCUSO_BASE, TressetteDeal

POSITION = {c: p for p, c in enumerate(ITALIAN_40.cards)}
CARDS = 40
DECK = ITALIAN_40.cards
LAYOUT = {name: offset for name, offset, _, _ in BatchedTressette(1).layout}
OBS_HAND, OBS_TRICK, OBS_PLAYED, OBS_POINTS = LAYOUT["hand"], LAYOUT["trick"], LAYOUT["played"], LAYOUT["side_points"]


def engine_deal(hands: np.ndarray) -> TressetteDeal:
    """The rules engine's deal of these hands (deck-position bitmasks), as the first of a match,
    without signals (the batched engine plays the cards alone)."""
    game = game_rules("tressette", segni="muto")
    dealt = [[int(DECK[p]) for p in range(CARDS) if int(h) >> p & 1] for h in hands]
    return game.new_deal(0, 0, dealt, {}, [])


def engine_cards(deal: TressetteDeal) -> list[int]:
    """The cards the engine allows, as deck positions (its accusi left aside)."""
    return sorted(POSITION[a] for a in deal.legal() if a < ACCUSO_BASE)


def side_points(deal: TressetteDeal) -> list[int]:
    assert not deal.accusi
    points = deal.result().points
    return [points[s % 2] for s in range(4)]


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 2**32))
def test_self_play_agrees_with_the_rules_engine_on_every_legal_set_and_the_points(seed: int) -> None:
    """The same deals stepped through both engines: at every step of every deal the same seat to
    move and the same legal cards; at every deal's end the same points."""
    n = 24
    batch = BatchedTressette(n, outside=range(4), seed=seed)
    choose = np.random.default_rng(seed)
    deals = [engine_deal(batch.hands[i]) for i in range(n)]
    ended = 0
    for _ in range(130):  # three deals and more in every row
        actions = np.empty(n, dtype=np.int64)
        for i, deal in enumerate(deals):
            assert deal.to_move == batch.to_move[i]
            legal = engine_cards(deal)
            assert list(np.flatnonzero(batch.legal_mask[i])) == legal
            actions[i] = legal[choose.integers(len(legal))]
        batch.step(actions, strict=True)
        for i, deal in enumerate(deals):
            deal.apply(int(DECK[actions[i]]))
            assert batch.terminated[i] == deal.over
            if deal.over:
                ended += 1
                assert list(batch.rewards[i]) == side_points(deal)
                assert [POSITION[a] for _, a in deal.history] == list(batch.finished_history[i])
                deals[i] = engine_deal(batch.hands[i])
            else:
                assert not batch.rewards[i].any()
    assert ended >= 3 * n


@pytest.mark.parametrize("opponents", ["random", "rule", ["rule", "random", None, "rule"]])
def test_deals_played_inside_the_compiled_loop_replay_on_the_rules_engine(opponents: object) -> None:
    """Each deal the built-in policies played (with the learner's cards) replays on the rules
    engine, every card legal there, to the same points."""
    n = 32
    batch = BatchedTressette(n, outside=(2,), opponents=opponents, seed=5)  # type: ignore[arg-type]
    replayed = 0
    for _ in range(60):
        batch.step(np.argmax(batch.legal_mask, axis=1))
        for i in np.flatnonzero(batch.terminated):
            deal = engine_deal(batch.finished_hands[i])
            for p in batch.finished_history[i]:
                assert p in engine_cards(deal)
                deal.apply(int(DECK[p]))
            assert deal.over
            assert list(batch.rewards[i]) == side_points(deal)
            replayed += 1
    assert replayed >= n * 2


def test_the_learner_is_asked_only_on_its_own_seat() -> None:
    batch = BatchedTressette(64, outside=(1, 3), opponents="rule", seed=2)
    for _ in range(40):
        assert set(batch.to_move) <= {1, 3}
        batch.step(np.argmax(batch.legal_mask, axis=1))


def test_the_rule_based_policy_beats_random_play() -> None:
    """Side 0 (seats 0 and 2) rule-based, side 1 random (seat 1 the caller's random cards):
    over a few hundred deals the rule-based side takes clearly more than half the points (62% over
    many deals; random against random takes half, give or take 1% here)."""
    n = 128
    batch = BatchedTressette(n, outside=(1,), opponents=["rule", None, "rule", "random"], seed=9)
    choose = np.random.default_rng(9)
    points = np.zeros(2)
    deals = 0
    while deals < 600:
        weights = choose.random((n, CARDS)) * batch.legal_mask
        batch.step(np.argmax(weights, axis=1))
        ended = batch.terminated
        deals += int(ended.sum())
        points += batch.rewards[ended][:, :2].sum(axis=0)
    assert points[0] / points.sum() > 0.58


def test_a_seed_fixes_every_deal_and_rows_do_not_depend_on_each_other() -> None:
    a = BatchedTressette(16, seed=3)
    b = BatchedTressette(16, seed=3)
    c = BatchedTressette(16, seed=4)
    assert (a.hands == b.hands).all()
    assert not (a.hands == c.hands).all()
    for _ in range(25):
        actions = np.argmax(a.legal_mask, axis=1)
        a.step(actions)
        b.step(actions)
        assert (a.state == b.state).all() and (a.observation == b.observation).all()
    a.reset(3)
    b.reset(None)
    assert (a.hands == BatchedTressette(16, seed=3).hands).all()
    assert not (a.hands == b.hands).all()


def test_every_deal_deals_ten_cards_to_each_seat_and_the_four_of_denari_leads() -> None:
    batch = BatchedTressette(200, outside=range(4), seed=1)
    hands = [[int(h) for h in row] for row in batch.hands]
    for i, row in enumerate(hands):
        assert [h.bit_count() for h in row] == [10] * 4
        assert sum(row) == (1 << CARDS) - 1  # disjoint and all forty cards
        assert row[batch.to_move[i]] >> POSITION[ITALIAN_40.cards[3]] & 1  # 4d is the fourth card


def test_the_observation_shows_the_seat_its_own_hand_and_nothing_hidden() -> None:
    """The seat to move sees its hand, the trick and what was played; swapping cards between the
    other seats' hands changes none of its observation."""
    batch = BatchedTressette(8, outside=range(4), seed=11)
    for _ in range(27):
        batch.step(np.argmax(batch.legal_mask, axis=1))
    assert batch.thirds.any()
    before = batch.observation.copy()
    for i in range(8):
        me = int(batch.to_move[i])
        row = batch.observation[i]
        assert list(np.flatnonzero(row[OBS_HAND:OBS_HAND + CARDS])) == [
            p for p in range(CARDS) if int(batch.hands[i, me]) >> p & 1]
        assert row[OBS_TRICK:OBS_PLAYED].sum() == sum(batch.trick[i] >= 0)
        ours, theirs = batch.thirds[i, me % 2], batch.thirds[i, 1 - me % 2]
        assert list(row[OBS_POINTS:OBS_POINTS + 2]) == pytest.approx([ours / 35, theirs / 35])
        a, b = [(me + k) % 4 for k in (1, 2)]
        ha, hb = int(batch.hands[i, a]), int(batch.hands[i, b])
        ca, cb = ha & -ha, hb & -hb  # one card of each, exchanged
        batch.hands[i, a], batch.hands[i, b] = ha ^ ca | cb, hb ^ cb | ca
    batch.observe()
    assert (batch.observation == before).all()


def test_the_layout_covers_the_observation() -> None:
    batch = BatchedTressette(1)
    ends = [offset + int(np.prod(shape)) for _, offset, shape, _ in batch.layout]
    starts = [offset for _, offset, _, _ in batch.layout]
    assert starts[1:] == ends[:-1] and starts[0] == 0 and ends[-1] == batch.observation_size == 367


def test_an_illegal_card_ends_its_deal_with_the_penalty_or_is_refused_when_strict() -> None:
    batch = BatchedTressette(4, outside=(0,), opponents="random", seed=6, illegal_reward=-7.0)
    bad = np.argmax(batch.legal_mask, axis=1)
    bad[2] = int(np.flatnonzero(~batch.legal_mask[2])[0])
    state = batch.state.copy()
    with pytest.raises(ValueError, match=rf"deal 2: seat 0 may not play {batch.card_name(int(bad[2]))}; legal: "):
        batch.step(bad, strict=True)
    assert (batch.state == state).all()
    batch.step(bad)
    assert list(batch.illegal) == [False, False, True, False]
    assert batch.terminated[2] and batch.rewards[2, 0] == -7.0
    assert (batch.finished_history[2] == -1).all() and (batch.finished_history[[0, 1, 3]] == -1).all()
    assert [int(h).bit_count() for h in batch.hands[2]] in ([10, 10, 10, 10], [10, 9, 9, 9], [10, 10, 9, 9],
                                                            [10, 10, 10, 9])


@pytest.mark.parametrize(("settings_", "message"), [
    ({"num_deals": 0}, "num_deals must be a positive whole number"),
    ({"outside": (4,)}, "outside: one or more seats from 0 to 3"),
    ({"outside": ()}, "outside: one or more seats"),
    ({"opponents": "heuristic"}, "seat 1 has 'heuristic', not one of random, rule"),
    ({"opponents": ["rule"]}, "one policy name or one per seat"),
    ({"reward": "score"}, "reward must be one of points, margin"),
])
def test_bad_settings_are_refused_with_what_and_where(settings_: dict[str, object], message: str) -> None:
    arguments: dict[str, object] = {"num_deals": 2, **settings_}
    with pytest.raises(RulesError, match=message):
        BatchedTressette(**arguments)  # type: ignore[arg-type]


def test_actions_of_the_wrong_shape_are_refused() -> None:
    batch = BatchedTressette(3, seed=0)
    with pytest.raises(ValueError, match=r"one whole number per deal, shape \(3,\)"):
        batch.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError, match="not float64"):
        batch.step(np.zeros(3))


def test_margin_rewards_are_zero_sum_between_the_sides() -> None:
    batch = BatchedTressette(32, outside=(0,), reward="margin", seed=8)
    seen = 0
    for _ in range(30):
        batch.step(np.argmax(batch.legal_mask, axis=1))
        for i in np.flatnonzero(batch.terminated):
            r = batch.rewards[i]
            assert r[0] == r[2] == -r[1] == -r[3] and abs(r[0]) <= 11 and r[0] % 2 == 1
            seen += 1
    assert seen


def test_a_playout_leaves_every_deal_at_an_outside_seat_with_its_observation() -> None:
    batch = BatchedTressette(16, outside=(3,), opponents="rule", seed=4)
    batch.playout(57)
    assert set(batch.to_move) == {3}
    fresh = batch.observation.copy()
    batch.observe()
    assert (fresh == batch.observation).all()
