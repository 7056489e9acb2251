"""The batched compiled engine on Calabresella for three, four and five: the bidding, the exchange,
the discard card by card and the card play, held to the rules module deal by deal; the stakes;
what each seat may see."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from osteria import game_rules
from osteria.cards import cards_of, mask_of
from osteria.envs.batched import ALONE, BIDDING, CALL, DISCARD, EXCHANGE, PLAY, BatchedGame
from osteria.rules.calabresella import CEDO, CHIAMO, DISCARDS, PASSO, SCARTO, SOLA, CalabresellaDeal

from env_helpers import replay_checked

SEATS = (3, 4, 5)


class Lockstep:
    """A deal of the rules module that takes the batched deal's actions: a bid, a card given, a
    card laid aside (the rules' scarto, once the four are chosen) or a card played."""

    def __init__(self, batch: BatchedGame, hands: list[int], dealer: int, rest: int) -> None:
        game = game_rules("calabresella", seats=batch.seats)
        dealt = [batch.cards_of(h) for h in hands]
        deal = game.new_deal(0, dealer, dealt, game.stock_from_rest(batch.cards_of(rest)), [])
        assert isinstance(deal, CalabresellaDeal)
        self.deal = deal
        self.batch = batch
        self.position = {c: p for p, c in enumerate(batch.deck)}
        self.discards: list[int] = []

    def legal(self) -> list[int]:
        deal, position, cards = self.deal, self.position, self.batch.cards
        legal = deal.legal()
        if deal.phase == "bidding":
            bids = {PASSO: cards, SOLA: cards + 1}
            return sorted(bids[a] if a in bids else position[a - CHIAMO] for a in legal)
        if deal.phase == "cedo":
            return sorted(position[a - CEDO] for a in legal)
        if deal.phase == "scarto":
            assert deal.to_move is not None
            return sorted(position[c] for c in cards_of(deal.hands[deal.to_move]) if c not in self.discards)
        return sorted(position[a] for a in legal if a in position)  # a card without a signal

    def apply(self, p: int) -> None:
        deal, deck, cards = self.deal, self.batch.deck, self.batch.cards
        if deal.phase == "bidding":
            deal.apply(PASSO if p == cards else SOLA if p == cards + 1 else CHIAMO + deck[p])
        elif deal.phase == "cedo":
            deal.apply(CEDO + deck[p])
        elif deal.phase == "scarto":
            self.discards.append(deck[p])
            if len(self.discards) == DISCARDS:
                deal.apply(SCARTO | mask_of(self.discards))
                self.discards = []
        else:
            deal.apply(deck[p])


def positions(batch: BatchedGame, block: np.ndarray) -> list[str]:
    return [batch.card_name(p) for p in np.flatnonzero(block)]


def assert_sees_as_the_rules(batch: BatchedGame, i: int, step: Lockstep) -> None:
    """The observation of the seat to move says what the rules module's observation says of the
    bidding: the phase, the contract and its caller, the called card and who holds it (where
    that seat knows), the card given for it, the widow and the discards (to the caller)."""
    deal = step.deal
    me = deal.to_move
    assert me is not None
    obs = deal.observation(me)
    row = batch.observation[i]
    block = {name: row[offset:offset + int(np.prod(shape))] for name, offset, shape, _ in batch.layout}
    seats = batch.seats
    hand = positions(batch, block["hand"])
    assert sorted(hand + [batch.card_name(step.position[c]) for c in step.discards]) == sorted(obs["hand"])
    phase = {"bidding": BIDDING, "cedo": EXCHANGE, "scarto": DISCARD, "play": PLAY}[obs["phase"]]
    assert list(np.flatnonzero(block["phase"])) == [phase]
    contract = {None: [], "chiamata": [0], "sola": [1]}[obs["contract"]]
    assert list(np.flatnonzero(block["contract"])) == contract
    caller = [] if obs["caller"] is None else [(obs["caller"] - me) % seats]
    assert list(np.flatnonzero(block["caller"])) == caller
    assert positions(batch, block["called"]) == ([] if obs["called"] is None else [obs["called"]])
    known = obs["called_holder"] if seats < 5 else obs["partner"]
    holder = [] if known is None else [seats] if known == "widow" else [(int(known) - me) % seats]
    assert list(np.flatnonzero(block["called_holder"])) == holder
    assert positions(batch, block["ceded"]) == ([] if obs["ceded"] is None else [obs["ceded"]])
    assert sorted(positions(batch, block["widow"])) == sorted(obs["widow"] or [])
    if phase == PLAY:
        assert sorted(positions(batch, block["discards"])) == sorted(obs["discards"] or [])


def following(batch: BatchedGame, i: int) -> Lockstep:
    return Lockstep(batch, [int(h) for h in batch.hands[i]], int(batch.dealer[i]), int(batch.rest[i]))


def replayed(batch: BatchedGame, i: int) -> Lockstep:
    """The finished deal ``i`` played again on the rules module, each action checked legal there."""
    step = Lockstep(batch, [int(h) for h in batch.finished_hands[i]], int(batch.finished_dealer[i]),
                    int(batch.finished_rest[i]))
    return replay_checked(step, batch.finished_history[i])


@pytest.mark.parametrize("seats", SEATS)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_self_play_agrees_with_the_rules_module_at_every_action_and_on_the_stakes(seats: int, seed: int) -> None:
    n = 12
    batch = BatchedGame("calabresella", n, seats=seats, outside=range(seats), seed=seed)
    choose = np.random.default_rng(seed)
    steps = [following(batch, i) for i in range(n)]
    ended = 0
    phases: set[int] = set()
    contracts: set[int] = set()
    for _ in range(3 * batch.history.shape[1]):
        actions = np.empty(n, dtype=np.int64)
        for i, step in enumerate(steps):
            legal = step.legal()
            assert step.deal.to_move == batch.to_move[i]
            assert list(np.flatnonzero(batch.legal_mask[i])) == legal
            assert_sees_as_the_rules(batch, i, step)
            phases.add(int(batch.phase[i]))
            # Passes and solas often, so that every phase and contract comes up (a uniform bid is
            # nearly always a call).
            r = choose.random()
            bidding = batch.phase[i] == BIDDING
            actions[i] = batch.cards if bidding and r < 0.4 else batch.cards + 1 if bidding and r < 0.5 else \
                legal[choose.integers(len(legal))]
        batch.step(actions, strict=True)
        contracts.update(int(c) for c in batch.contract)
        for i, step in enumerate(steps):
            step.apply(int(actions[i]))
            assert batch.terminated[i] == step.deal.over
            if step.deal.over:
                ended += 1
                assert list(batch.rewards[i]) == step.deal.result().delta
                assert replayed(batch, i).deal.result().delta == step.deal.result().delta
                steps[i] = following(batch, i)
            else:
                assert not batch.rewards[i].any()
    assert ended >= 2 * n
    assert phases >= {BIDDING, PLAY, EXCHANGE if seats < 5 else PLAY, DISCARD if seats == 3 else PLAY}
    assert contracts >= {CALL, ALONE}


@pytest.mark.parametrize("seats", SEATS)
@pytest.mark.parametrize("mixed", [False, True])
def test_deals_the_built_in_policies_played_replay_on_the_rules_module(seats: int, mixed: bool) -> None:
    """Seat 0 outside (it passes, and plays its lowest card), the others rule-based, or
    rule-based and random in turn: every finished deal replays to the same stakes; with the
    rule-based alone, deals that all passed and calls are among them."""
    n = 32
    opponents = ["rule" if s % 2 or not mixed else "random" for s in range(seats)]
    batch = BatchedGame("calabresella", n, seats=seats, outside=(0,), opponents=opponents, seed=5)
    contracts: set[str | None] = set()
    count = 0
    for _ in range(80):
        # Seat 0 passes where it may, and plays its lowest card.
        batch.step(np.where(batch.legal_mask[:, batch.cards], batch.cards, np.argmax(batch.legal_mask, axis=1)))
        for i in np.flatnonzero(batch.terminated):
            deal = replayed(batch, i).deal
            assert list(batch.rewards[i]) == deal.result().delta
            contracts.add(deal.contract)
            count += 1
    assert count >= n
    if not mixed:
        assert contracts >= {None, "chiamata"}


def test_the_mask_and_the_words_of_the_bidding() -> None:
    batch = BatchedGame("calabresella", 4, outside=range(3), seed=2)
    assert batch.actions == 42 and batch.legal_mask.shape == (4, 42)
    for i in range(4):
        me = int(batch.to_move[i])
        assert batch.phase[i] == BIDDING and me == (int(batch.dealer[i]) + 1) % 3
        hand = int(batch.hands[i, me])
        assert list(np.flatnonzero(batch.legal_mask[i])) == [p for p in range(40) if not hand >> p & 1] + [40, 41]
    mine = int(np.flatnonzero(batch.hands[0, batch.to_move[0]] >> np.arange(40) & 1)[0])
    message = rf"deal 0: seat \d may not bid {batch.card_name(mine)}; legal: .* passo sola$"
    with pytest.raises(ValueError, match=message):
        batch.step(np.full(4, mine), strict=True)
    assert [batch.action_name(p) for p in (0, 40, 41)] == ["Ad", "passo", "sola"]


def test_a_call_at_three_takes_the_widow_gives_a_card_and_lays_four_aside_one_at_a_time() -> None:
    batch = BatchedGame("calabresella", 64, outside=range(3), seed=4)
    i = next(i for i in range(64) if batch.rest[i] & ~sum(int(h) for h in batch.hands[i]))
    caller = int(batch.to_move[i])
    widow, hands = int(batch.rest[i]), [int(h) for h in batch.hands[i]]
    called = next(p for p in range(40) if hands[(caller + 1) % 3] >> p & 1)  # a card of the next seat
    actions = np.full(64, 40)  # the others pass
    actions[i] = called
    batch.step(actions, strict=True)
    assert (batch.phase[i], batch.contract[i], batch.caller[i], batch.called[i]) == (EXCHANGE, CALL, caller, called)
    assert batch.holder[i] == (caller + 1) % 3 and batch.rest[i] == 0
    assert int(batch.hands[i, caller]) == hands[caller] | widow
    given = int(np.flatnonzero(batch.legal_mask[i])[0])
    actions[i] = given
    batch.step(actions, strict=True)
    assert batch.phase[i] == DISCARD and batch.ceded[i] == given
    assert int(batch.hands[i, caller]) == (hands[caller] | widow | 1 << called) & ~(1 << given)
    assert int(batch.hands[i, (caller + 1) % 3]) == hands[(caller + 1) % 3] & ~(1 << called) | 1 << given
    for k in range(4):
        assert batch.phase[i] == DISCARD and bin(int(batch.hands[i, caller])).count("1") == 16 - k
        actions[i] = int(np.flatnonzero(batch.legal_mask[i])[-1])
        batch.step(actions, strict=True)
        assert int(batch.rest[i]) >> int(actions[i]) & 1
    assert batch.phase[i] == PLAY and bin(int(batch.rest[i])).count("1") == 4
    assert batch.to_move[i] == (batch.dealer[i] + 1) % 3  # the dealer's right leads


def test_alone_the_taker_leads_with_the_cards_dealt() -> None:
    batch = BatchedGame("calabresella", 8, seats=4, outside=range(4), seed=6)
    hands = [int(h) for h in batch.hands[3]]
    actions = np.full(8, 40)
    batch.step(actions)  # the first seat passes
    seat = int(batch.to_move[3])
    actions[3] = 41
    batch.step(actions, strict=True)
    assert (batch.phase[3], batch.contract[3], batch.caller[3], batch.to_move[3]) == (PLAY, ALONE, seat, seat)
    assert [int(h) for h in batch.hands[3]] == hands


def test_every_seat_passing_voids_the_deal() -> None:
    batch = BatchedGame("calabresella", 4, seats=5, outside=range(5), seed=7)
    for _ in range(4):
        batch.step(np.full(4, 40), strict=True)
        assert not batch.terminated.any()
    batch.step(np.full(4, 40), strict=True)
    assert batch.terminated.all() and not batch.rewards.any()
    assert (batch.finished_history[:, :5] == 40).all() and (batch.finished_history[:, 5:] == -1).all()


def layout_of(batch: BatchedGame) -> dict[str, tuple[int, int]]:
    return {name: (offset, offset + int(np.prod(shape))) for name, offset, shape, _ in batch.layout}


@pytest.mark.parametrize("seats", SEATS)
def test_the_observation_hides_the_other_hands_the_widow_and_the_hidden_partner(seats: int) -> None:
    """At every action of self-play, swapping cards between two other seats' hands (or, before
    the widow is taken, between another hand and the widow) changes nothing the seat to move
    sees, unless a swapped card was shown (the called one, the one given for it). The caller at
    three sees the widow and his discards, no one else does; at five the called card's holder
    is shown to himself alone until he plays it."""
    n = 16
    batch = BatchedGame("calabresella", n, seats=seats, outside=range(seats), seed=11)
    layout = layout_of(batch)
    choose = np.random.default_rng(11)
    checked = 0
    for _ in range(batch.history.shape[1]):
        before = batch.observation.copy()
        state = batch.state.copy()
        for i in range(n):
            me = int(batch.to_move[i])
            row = batch.observation[i]
            widow = row[slice(*layout["widow"])]
            caller = int(batch.caller[i])
            if seats == 3 and batch.contract[i] == CALL and me == caller:
                assert list(np.flatnonzero(widow)) == [p for p in range(40) if int(batch.widow[i]) >> p & 1]
                assert list(np.flatnonzero(row[slice(*layout["discards"])])) == [
                    p for p in range(40) if int(batch.rest[i]) >> p & 1]
            else:
                assert not widow.any() and not row[slice(*layout["discards"])].any()
            holder = row[slice(*layout["called_holder"])]
            if seats == 5 and batch.contract[i] == CALL:
                partner = int(batch.holder[i])
                played = int(batch.played[i, partner]) >> int(batch.called[i]) & 1
                assert holder.any() == (me == partner or bool(played))
            shown = (1 << int(batch.called[i]) if batch.called[i] >= 0 else 0) | \
                (1 << int(batch.ceded[i]) if batch.ceded[i] >= 0 else 0)
            a, b = [(me + k) % seats for k in (1, 2)]
            ha, hb = int(batch.hands[i, a]) & ~shown, int(batch.hands[i, b]) & ~shown
            if batch.phase[i] == BIDDING and seats == 3:
                hb = int(batch.rest[i])  # the widow, unseen in the bidding
            if not ha or not hb:
                continue
            ca, cb = ha & -ha, hb & -hb
            batch.hands[i, a] ^= ca | cb
            if batch.phase[i] == BIDDING and seats == 3:
                batch.rest[i] ^= ca | cb
            else:
                batch.hands[i, b] ^= ca | cb
            checked += 1
        batch.observe()
        assert (batch.observation == before).all()
        batch.state[:] = state
        batch.observe()
        legal = batch.legal_mask
        batch.step(np.argmax(choose.random(legal.shape) * legal, axis=1))
    assert checked >= n * batch.history.shape[1] // 2
