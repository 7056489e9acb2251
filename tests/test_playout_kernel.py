"""The compiled playouts play Tressette's card play as the rules module's careful player does."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

pytest.importorskip("numba")

import numpy as np

import osteria
from osteria.bots.pimc import PimcBot
from osteria.bots.playout_kernel import careful_gains
from osteria.engine import Deal
from osteria.rules.tressette import ACCUSO_BASE

from helpers import NoSlip, play_random_action

OPTIONS = [{}, {"segni": "muto"}, {"segni": "sud"}, {"morto": [2]}]


def positions(count: int, seed: int) -> Iterator[Deal]:
    """Tressette deals at random points of random play (a sixth of them in the first trick, where
    accusi may still come), under several rules options."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        match = osteria.new_match("tressette", seed=rng.getrandbits(32), **rng.choice(OPTIONS))
        deal = match.deal
        assert deal is not None
        for _ in range(rng.randrange(0, 3) if rng.random() < 1 / 6 else rng.randrange(4, 40)):
            play_random_action(match, rng)
            if deal.over:
                break
        if deal.over:
            continue
        made += 1
        yield deal


def taken(deal: Deal, seat: int) -> int:
    return deal.thirds[seat % 2]  # type: ignore[attr-defined, no-any-return]


def test_without_slips_the_kernel_plays_each_card_as_the_rules_module_does() -> None:
    """Every card of the seat to move played out by both; the open play's ``finish`` of what the
    kernel took is the deal's result, accusi still to come in the first trick included."""
    checked = first_trick = 0
    for deal in positions(300, 1):
        seat = random.Random(checked).randrange(4)
        play = deal.open_play(seat)
        assert play.playout_slip is not None
        legal = [a for a in deal.legal() if deal.card_of(a) is not None]
        cards = [deal.card_of(a) for a in legal]
        gains = careful_gains(play, cards, 1, seed=checked, slip=0.0)
        for action, row in zip(legal, gains.tolist(), strict=True):
            rollout = deal.copy()
            rollout.apply(action)
            while rollout.to_move is not None:
                rollout.apply(rollout.playout_action(NoSlip(0)))
            assert row == [taken(rollout, seat) - taken(deal, seat)]
            assert play.finish(row[0]) == rollout.result().delta[seat]
            checked += 1
            first_trick += not deal.tricks_done  # type: ignore[attr-defined]
    assert checked > 1000 and first_trick > 100


def test_with_slips_every_playout_is_a_legal_play_to_the_end_and_counts_what_it_takes() -> None:
    varied = 0
    for index, deal in enumerate(positions(100, 2)):
        seat = deal.to_move
        assert seat is not None
        play = deal.open_play(seat)
        cards = sorted({c for c in map(deal.card_of, deal.legal()) if c is not None})
        left = deal.cards_in_hands
        record = np.full((len(cards) * 4, left), -1, np.int64)
        gains = careful_gains(play, cards, 4, seed=index, slip=0.2, record=record)
        for k, card in enumerate(cards):
            varied += len(set(gains[k].tolist())) > 1
            for p in range(4):
                played = record[k * 4 + p].tolist()
                assert played[0] == card and -1 not in played
                rollout = deal.copy()
                for c in played:
                    by_card = {rollout.card_of(a): a for a in reversed(rollout.legal())}
                    assert c in by_card, f"{c} is not a legal card"
                    rollout.apply(by_card[c])
                assert rollout.over
                assert gains[k, p] == taken(rollout, seat) - taken(deal, seat)
    assert varied  # a fifth of the cards are random: the playouts of a card differ


def test_pimc_plays_its_playouts_compiled_where_each_action_weighed_is_a_card() -> None:
    for deal in positions(20, 3):
        seat = deal.to_move
        assert seat is not None
        actions = {deal.action_str(a): a for a in deal.legal() if deal.card_of(a) is not None}
        values = PimcBot(1, samples=1).compiled_playout_values(deal, actions, seat)
        assert values is not None and set(values) == set(actions)
    # An accuso to weigh is played out by the rules module, which declares it.
    dealt = (osteria.new_match("tressette", seed=seed).deal for seed in range(50))
    first = next(d for d in dealt if d is not None and any(a >= ACCUSO_BASE for a in d.legal()))
    assert first.to_move is not None
    actions = {first.action_str(a): a for a in first.legal()}
    assert PimcBot(1, samples=1).compiled_playout_values(first, actions, first.to_move) is None
