"""The batched compiled engine on Quattrigghiu: the call of the trump with its hidden or volunteer
partner, the sulità and the forced call, the basi with the matador privilege, the early stop and
the tutità, held to the rules module deal by deal; the stakes; what each seat may see."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from osteria import game_rules
from osteria.cards import SUITS
from osteria.envs.batched import (
    ALONE,
    BIDDING,
    CALL,
    FORCED,
    PLAY,
    TRUMP_CALL_PHASES,
    VOLUNTEERS,
    WINDOW,
    BatchedGame,
)
from osteria.rules.quattrigghiu import ACTION_OF, ACTION_STRINGS, QuattrigghiuDeal

from env_helpers import replay_checked

OPTIONS = ({}, {"matador": False}, {"aiuto_volontario": True})
PHASES = {"chiamata": BIDDING, "chiamata_obbligata": FORCED, "aiutu": VOLUNTEERS, "basi": PLAY, "tutita": WINDOW}


class Lockstep:
    """A deal of the rules module that takes the batched deal's actions, by their names."""

    def __init__(self, batch: BatchedGame, options: dict[str, object], hands: list[int], dealer: int) -> None:
        game = game_rules("quattrigghiu", **options)
        deal = game.new_deal(0, dealer, [batch.cards_of(h) for h in hands], {}, [])
        assert isinstance(deal, QuattrigghiuDeal)
        self.deal = deal
        self.batch = batch
        self.position = {c: p for p, c in enumerate(batch.deck)}
        self.word = {batch.action_name(a): a for a in range(batch.cards, batch.actions)}

    def legal(self) -> list[int]:
        return sorted(self.position[a] if a < 52 else self.word[ACTION_STRINGS[a]] for a in self.deal.legal())

    def apply(self, a: int) -> None:
        batch = self.batch
        self.deal.apply(batch.deck[a] if a < batch.cards else ACTION_OF[batch.action_name(a)])


def blocks(batch: BatchedGame, i: int) -> dict[str, np.ndarray]:
    row = batch.observation[i]
    return {name: row[offset:offset + int(np.prod(shape))] for name, offset, shape, _ in batch.layout}


def assert_sees_as_the_rules(batch: BatchedGame, i: int, step: Lockstep) -> None:
    """The observation of the seat to move says what the rules module's observation says: the
    hand, the phase, the caller, the trump, the called card, the aiuto where this seat knows
    him, the tutità, the basi each seat took, and the cards played that are still remembered
    (after the sixth basi, only those since)."""
    deal = step.deal
    me = deal.to_move
    assert me is not None
    obs = deal.observation(me)
    block = blocks(batch, i)

    def seat(s: int | None) -> list[int]:
        return [] if s is None else [(s - me) % 4]

    assert [batch.card_name(p) for p in np.flatnonzero(block["hand"])] == obs["hand"]
    assert list(np.flatnonzero(block["phase"])) == [TRUMP_CALL_PHASES.index(PHASES[obs["phase"]])]
    assert list(np.flatnonzero(block["caller"])) == seat(obs["caller"])
    assert list(np.flatnonzero(block["trump"])) == ([] if obs["trump"] is None else [SUITS.index(obs["trump"])])
    contract = [] if obs["caller"] is None else [0] if deal.aiuto >= 0 else [1]
    assert list(np.flatnonzero(block["contract"])) == contract
    called = [batch.card_name(p) for p in np.flatnonzero(block["called"])]
    assert called == ([] if obs["called_card"] is None else [obs["called_card"]])
    assert list(np.flatnonzero(block["aiuto"])) == seat(obs["aiuto"])
    assert block["tutita"].tolist() == [float(obs["tutita"])]
    assert [round(10 * x) for x in block["side_points"]] == [obs["basi"][(me + k) % 4] for k in range(4)]
    assert round(10 * block["tricks_played"][0]) == obs["tricks_played"]
    seen: list[set[str]] = [set() for _ in range(4)]
    for trick in obs["tricks"]:
        for s, c in trick["cards"]:
            seen[s].add(c)
    for s, c in obs["trick"]:
        seen[s].add(c)
    played = block["played"].reshape(4, batch.cards)
    assert [{batch.card_name(p) for p in np.flatnonzero(played[k])} for k in range(4)] == \
        [seen[(me + k) % 4] for k in range(4)]


def following(batch: BatchedGame, options: dict[str, object], i: int) -> Lockstep:
    return Lockstep(batch, options, [int(h) for h in batch.hands[i]], int(batch.dealer[i]))


def replayed(batch: BatchedGame, options: dict[str, object], i: int) -> Lockstep:
    """The finished deal ``i`` played again on the rules module, each action checked legal there."""
    step = Lockstep(batch, options, [int(h) for h in batch.finished_hands[i]], int(batch.finished_dealer[i]))
    return replay_checked(step, batch.finished_history[i])


def play_in_lockstep(options: dict[str, object], seed: int, n: int, rounds: int,
                     tutita: float) -> tuple[int, set[int], set[str]]:
    """Self-play of ``n`` deals checked against the rules module at every action, every seat
    choosing at random but passing often in the bidding (so that the forced call comes up: a
    uniform bid is nearly always a call) and going for the tutità with chance ``tutita`` when
    asked; the deals ended, the phases met and the outcomes."""
    batch = BatchedGame("quattrigghiu", n, options=options, outside=range(4), seed=seed)
    choose = np.random.default_rng(seed)
    steps = [following(batch, options, i) for i in range(n)]
    ended = 0
    phases: set[int] = set()
    outcomes: set[str] = set()
    for _ in range(rounds):
        actions = np.empty(n, dtype=np.int64)
        for i, step in enumerate(steps):
            legal = step.legal()
            assert step.deal.to_move == batch.to_move[i]
            assert list(np.flatnonzero(batch.legal_mask[i])) == legal
            assert_sees_as_the_rules(batch, i, step)
            phase = int(batch.phase[i])
            phases.add(phase)
            words = {batch.action_name(a): a for a in legal if a >= batch.cards}
            r = choose.random()
            actions[i] = words["passu"] if "passu" in words and phase == BIDDING and r < 0.6 else \
                words["tutita"] if phase == WINDOW and r < tutita else legal[choose.integers(len(legal))]
        batch.step(actions, strict=True)
        for i, step in enumerate(steps):
            step.apply(int(actions[i]))
            assert batch.terminated[i] == step.deal.over
            if step.deal.over:
                ended += 1
                result = step.deal.result()
                outcomes.add(result.outcome)
                assert list(batch.rewards[i]) == result.delta
                assert replayed(batch, options, i).deal.result().delta == result.delta
                steps[i] = following(batch, options, i)
            else:
                assert not batch.rewards[i].any()
    return ended, phases, outcomes


@pytest.mark.parametrize("options", OPTIONS)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_self_play_agrees_with_the_rules_module_at_every_action_and_on_the_stakes(options: dict[str, object],
                                                                                  seed: int) -> None:
    n = 24
    ended, phases, outcomes = play_in_lockstep(options, seed, n, 150, tutita=0.7)
    assert ended >= 2 * n
    assert phases >= {BIDDING, FORCED, PLAY, WINDOW} | ({VOLUNTEERS} if options.get("aiuto_volontario") else set())
    assert outcomes >= {"vinta", "cudigghia"}


def test_a_tutita_tried_is_made_or_lost_as_in_the_rules() -> None:
    """Every side asked goes for all the basi: the doubled stakes of one made and the nothing of
    one lost are the rules' (the lockstep compares them)."""
    _, _, outcomes = play_in_lockstep({}, 3, 64, 300, tutita=1.0)
    assert outcomes >= {"tutita", "franca"}


@pytest.mark.parametrize("options", OPTIONS)
def test_deals_the_built_in_policies_played_replay_on_the_rules_module(options: dict[str, object]) -> None:
    """Seat 0 outside (it passes where it may, and plays its lowest card), the others rule-based:
    every finished deal replays to the same stakes, calls among them."""
    n = 32
    batch = BatchedGame("quattrigghiu", n, options=options, outside=(0,), opponents="rule", seed=5)
    passu = next(a for a in range(batch.cards, batch.actions) if batch.action_name(a) == "passu")
    contracts: set[bool] = set()
    count = 0
    for _ in range(60):
        batch.step(np.where(batch.legal_mask[:, passu], passu, np.argmax(batch.legal_mask, axis=1)))
        for i in np.flatnonzero(batch.terminated):
            deal = replayed(batch, options, i).deal
            assert list(batch.rewards[i]) == deal.result().delta
            contracts.add(deal.aiuto >= 0)
            count += 1
    assert count >= n
    assert True in contracts


def test_the_mask_and_the_words_of_the_call() -> None:
    """The holder of the 6 of denari speaks first: a pass, a call of each trump with a re he does
    not hold (a cavallo where he holds the four), or alone; a card is refused with the verb."""
    batch = BatchedGame("quattrigghiu", 64, outside=range(4), seed=2)
    assert batch.actions == 84 and batch.legal_mask.shape == (64, 84)
    six = batch.deck.index(5)  # the 6 of denari
    for i in range(64):
        me = int(batch.to_move[i])
        hand = int(batch.hands[i, me])
        assert hand >> six & 1 and batch.phase[i] == BIDDING and batch.trump[i] == -1
        names = [batch.action_name(a) for a in np.flatnonzero(batch.legal_mask[i])]
        re = [p for p in range(40) if batch.card_name(p)[0] == "R"]
        kings = [batch.card_name(p) for p in re if not hand >> p & 1] or \
            [batch.card_name(p) for p in range(40) if batch.card_name(p)[0] == "C" and not hand >> p & 1]
        assert names == [f"chiamu {t} {c}" for t in SUITS for c in kings] + \
            [f"sulita {t}" for t in SUITS] + ["passu"]
    with pytest.raises(ValueError, match=r"deal 0: seat \d may not bid 6d; legal: chiamu d .* passu$"):
        batch.step(np.full(64, six), strict=True)


def test_all_passing_the_holder_of_the_spatigghia_must_call() -> None:
    batch = BatchedGame("quattrigghiu", 8, outside=range(4), seed=6)
    passu = batch.cards + 40
    for _ in range(4):
        batch.step(np.full(8, passu), strict=True)
    spatigghia = batch.deck.index(26)  # the ace of spade
    for i in range(8):
        assert batch.phase[i] == FORCED and int(batch.hands[i, batch.to_move[i]]) >> spatigghia & 1
        assert not batch.legal_mask[i, passu]
    with pytest.raises(ValueError, match=r"may not call passu"):
        batch.step(np.full(8, passu), strict=True)


def test_sulita_and_a_called_re_make_the_sides_and_the_trump() -> None:
    batch = BatchedGame("quattrigghiu", 8, outside=range(4), seed=4)
    caller = int(batch.to_move[0])
    words = {batch.action_name(a): a for a in np.flatnonzero(batch.legal_mask[0])}
    call = next(name for name in words if name.startswith("chiamu b "))
    called = next(p for p in range(40) if batch.card_name(p) == call.split()[2])
    holder = next(s for s in range(4) if int(batch.hands[0, s]) >> called & 1)
    actions = np.full(8, batch.cards + 32 + 2)  # sulita s
    actions[0] = words[call]
    batch.step(actions, strict=True)
    assert (batch.phase[0], batch.contract[0], batch.caller[0], batch.holder[0], batch.trump[0]) == \
        (PLAY, CALL, caller, holder, 3)
    assert (batch.contract[1:] == ALONE).all() and (batch.trump[1:] == 2).all()
    assert (batch.to_move == (batch.dealer + 1) % 4).all()  # the dealer's right leads


def test_the_observation_hides_the_other_hands_and_the_hidden_aiuto() -> None:
    """At every action of self-play, swapping cards between two other seats' hands changes
    nothing the seat to move sees, unless a swapped card is the called one; the aiuto is shown to
    himself, and to the others once he played the called card, or the tutità was asked."""
    n = 32
    batch = BatchedGame("quattrigghiu", n, outside=range(4), seed=11)
    layout = {name: (offset, offset + int(np.prod(shape))) for name, offset, shape, _ in batch.layout}
    choose = np.random.default_rng(11)
    checked = hidden = 0
    for _ in range(2 * batch.history.shape[1]):
        before = batch.observation.copy()
        state = batch.state.copy()
        for i in range(n):
            me = int(batch.to_move[i])
            row = batch.observation[i]
            aiuto = row[slice(*layout["aiuto"])]
            if batch.contract[i] == CALL and batch.called[i] >= 0:
                partner = int(batch.holder[i])
                shown = int(batch.played[i, partner]) >> int(batch.called[i]) & 1 or batch.phase[i] == WINDOW
                assert aiuto.any() == (me == partner or bool(shown) or bool(row[layout["tutita"][0]]))
                hidden += not aiuto.any()
            called = 1 << int(batch.called[i]) if batch.called[i] >= 0 else 0
            a, b = [(me + k) % 4 for k in (1, 2)]
            ha, hb = int(batch.hands[i, a]) & ~called, int(batch.hands[i, b]) & ~called
            if not ha or not hb:
                continue
            swap = ha & -ha | hb & -hb
            batch.hands[i, a] ^= swap
            batch.hands[i, b] ^= swap
            checked += 1
        batch.observe()
        assert (batch.observation == before).all()
        batch.state[:] = state
        batch.observe()
        legal = batch.legal_mask
        batch.step(np.argmax(choose.random(legal.shape) * legal, axis=1))
    assert checked >= n * batch.history.shape[1] and hidden > 0


@pytest.mark.parametrize("matador", [True, False])
def test_the_matador_privilege_and_the_higher_matador_that_forces_it_out(matador: bool) -> None:
    """Spade trumps: to a trunfu lead, a hand whose only trunfu is the bastu may keep it (under
    the privilege), unless the spatigghia led forces it out; without the privilege it answers."""
    from osteria.envs import batched as b

    batch = BatchedGame("quattrigghiu", 2, options={"matador": matador}, outside=range(4), seed=1)
    p = {batch.card_name(k): k for k in range(40)}
    hand = sum(1 << p[c] for c in ("Ab", "Rd", "Cd", "2c"))
    for i, led in enumerate(("7s", "As")):
        row = batch.state[i]
        row[b.PHASE], row[b.VARIANT], row[b.CALLER], row[b.CONTRACT] = PLAY, SUITS.index("s"), 0, ALONE
        row[b.LEADER], row[b.TO_MOVE], row[b.ON_TRICK] = 0, 1, 1
        row[b.TRICK:b.TRICK + 4] = [p[led], -1, -1, -1]
        row[b.HANDS + 1] = hand
    batch.observe()
    cards = [[batch.card_name(k) for k in np.flatnonzero(batch.legal_mask[i])] for i in range(2)]
    assert cards[0] == (["Cd", "Rd", "2c", "Ab"] if matador else ["Ab"])
    assert cards[1] == ["Ab"]


def test_who_holds_the_four_re_calls_a_cavallo_and_with_the_four_cavalli_too_plays_alone() -> None:
    """The hands changed by hand before the first word: the first to speak given the four re,
    then the four cavalli too; the calls open to him are the rules' (a cavallo he lacks, then
    none but alone)."""
    batch = BatchedGame("quattrigghiu", 1, outside=range(4), seed=8)
    p = {batch.card_name(k): k for k in range(40)}
    me = int(batch.to_move[0])
    for wanted in (("Rd", "Rc", "Rs", "Rb"), ("Cd", "Cc", "Cs", "Cb")):
        for name in wanted:
            hands = [int(h) for h in batch.hands[0]]
            if hands[me] >> p[name] & 1:
                continue
            holder = next(s for s in range(4) if hands[s] >> p[name] & 1)
            given = next(k for k in range(40) if hands[me] >> k & 1 and batch.card_name(k)[0] not in "RC"
                         and batch.card_name(k) != "6d")
            batch.hands[0, me] ^= 1 << p[name] | 1 << given
            batch.hands[0, holder] ^= 1 << p[name] | 1 << given
        batch.observe()
        step = following(batch, {}, 0)
        assert list(np.flatnonzero(batch.legal_mask[0])) == step.legal()
        calls = {batch.action_name(a).split()[-1] for a in step.legal() if batch.action_name(a).startswith("chiamu")}
        assert calls == ({"Cd", "Cc", "Cs", "Cb"} - {batch.card_name(k) for k in range(40)
                                                     if int(batch.hands[0, me]) >> k & 1})
    assert not calls and batch.action_name(int(np.flatnonzero(batch.legal_mask[0])[0])) == "sulita d"
