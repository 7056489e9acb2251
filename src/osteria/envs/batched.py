"""Thousands of deals of Tressette's card play stepped at once, compiled with numba.

A :class:`BatchedTressette` holds N deals as numpy arrays (hands as int64 bitmasks over the
deck's 40 cards, the trick, the leader, the seat to move, each side's thirds) and steps all of
them with one call into compiled code: ``step(actions)`` plays each deal's card for the seat to
move, then lets the seats played by a built-in policy (``random`` or ``rule``) play, inside the
same compiled loop, until an outside seat is to move again. A finished deal is scored (each
seat's points, or its side's margin), kept for inspection (``finished_hands``,
``finished_history``) and replaced at once by a new one, shuffled by that deal's own generator
(seeded from ``reset(seed)``), so every deal always has a seat to move.

The legal mask, the observation of the seat to move and the rewards are arrays the compiled code
writes in place: reading them copies nothing, and the next ``step`` overwrites them.

This engine plays the card play alone: follow suit, the strongest card of the suit led takes the
trick, points counted in thirds with a point for the last trick, the four of denari leading (every
deal is the first of a match, as in the environments' one-deal episodes). Accusi and signals are
left out: they are the rules module's (:mod:`osteria.rules.tressette`), and the tests hold this
engine to it on the card play, deal by deal. The cards' strength and points come from the rules
(:mod:`osteria.rules.tressette_family`), renumbered by deck position.

numba and numpy are the optional ``fast`` extra: this module needs both.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numba
import numpy as np

from osteria.bots.solver_kernel import count_bits as _count
from osteria.bots.solver_kernel import lowest_bit as _lowest
from osteria.cards import CARD_STRINGS, ITALIAN_40
from osteria.engine import RulesError
from osteria.rules.tressette import FOUR_OF_DENARI, TRICKS
from osteria.rules.tressette_family import DEAL_THIRDS, LAST_TRICK_THIRDS, STRENGTH, THIRDS

SEATS = 4
CARDS = 40
HAND = CARDS // SEATS
# The cards by deck position (the encoding's numbering): the rules' card, its strength, its thirds.
DECK = np.array(ITALIAN_40.cards, dtype=np.int64)
STRENGTHS = np.array([STRENGTH[c] for c in ITALIAN_40.cards], dtype=np.int64)
POINTS = np.array([THIRDS[c] for c in ITALIAN_40.cards], dtype=np.int64)
SUIT_BITS = np.array([((1 << HAND) - 1) << (HAND * s) for s in range(4)], dtype=np.int64)
FIRST_LEADER_CARD = ITALIAN_40.cards.index(FOUR_OF_DENARI)
_LAST_TRICK = LAST_TRICK_THIRDS
_DEAL_THIRDS = float(DEAL_THIRDS)
_TRICKS = TRICKS

# Who plays a seat: an outside caller through ``step``, or a policy inside the compiled loop.
OUTSIDE, RANDOM, RULE = 0, 1, 2
POLICIES = {"random": RANDOM, "rule": RULE}
REWARDS = ("points", "margin")

# The columns of the state matrix, one row per deal.
HANDS = 0  # 4 columns: each seat's hand
PLAYED = 4  # 4 columns: the cards each seat has played in this deal, the current trick included
TRICK = 8  # 4 columns: each seat's card on the current trick, -1 where it has none
LEADER, TO_MOVE, ON_TRICK, TRICKS_DONE, THIRDS0, THIRDS1 = 12, 13, 14, 15, 16, 17
DEALT_HANDS = 18  # 4 columns: the hands as dealt
COLUMNS = 22

# The observation of the seat to move, seats relative to it (position k: k places after it).
OBS_HAND, OBS_TRICK, OBS_PLAYED, OBS_LEADER, OBS_POINTS, OBS_TRICKS = 0, 40, 200, 360, 364, 366
OBSERVATION_SIZE = 367
OBSERVATION_LAYOUT = (
    ("hand", OBS_HAND, (CARDS,), "the cards in the seat's hand"),
    ("trick", OBS_TRICK, (SEATS, CARDS), "the current trick: the card each seat has put on it"),
    ("played", OBS_PLAYED, (SEATS, CARDS), "the cards each seat has played in this deal, this trick's included"),
    ("trick_leader", OBS_LEADER, (SEATS,), "who led the current trick"),
    ("side_points", OBS_POINTS, (2,), "thirds taken so far, the seat's side and the other, divided by 35 "
     "(a deal's thirds, the last trick's point included)"),
    ("tricks_played", OBS_TRICKS, (1,), "tricks played, divided by 10"),
)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)

_jit = numba.njit(cache=True)
_inline = numba.njit(cache=True, inline="always")


@_inline
def _next_random(rng: Any, i: int) -> Any:
    """The next 64 bits of deal ``i``'s generator (splitmix64)."""
    z = rng[i] + _GOLDEN
    rng[i] = z
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@_inline
def _below(rng: Any, i: int, n: int) -> int:
    """A uniform integer from 0 to ``n`` - 1 from deal ``i``'s generator."""
    return np.int64(((_next_random(rng, i) >> _S32) * np.uint64(n)) >> _S32)  # type: ignore[return-value]


@_inline
def _nth_card(cards: int, k: int) -> int:
    """The ``k``-th card (from 0, in deck order) of a set."""
    for _ in range(k):
        cards &= cards - 1
    return _lowest(cards)


@_inline
def _legal(state: Any, i: int) -> int:
    """The cards the seat to move in deal ``i`` may play: the suit led while it holds any."""
    hand = state[i, HANDS + state[i, TO_MOVE]]
    if state[i, ON_TRICK] == 0:
        return hand  # type: ignore[no-any-return]
    follow = hand & SUIT_BITS[state[i, TRICK + state[i, LEADER]] // HAND]
    return follow if follow else hand  # type: ignore[no-any-return]


@_inline
def _taker(state: Any, i: int) -> int:
    """The seat whose card takes the trick so far: the strongest of the suit led."""
    leader = state[i, LEADER]
    best = leader
    suit = state[i, TRICK + leader] // HAND
    for k in range(1, state[i, ON_TRICK]):
        seat = (leader + k) % SEATS
        c = state[i, TRICK + seat]
        if c // HAND == suit and STRENGTHS[c] > STRENGTHS[state[i, TRICK + best]]:
            best = seat
    return best  # type: ignore[no-any-return]


@_jit
def _deal(state: Any, rng: Any, i: int, deck: Any) -> None:
    """A new deal in row ``i``: the cards shuffled by its generator, ten to a seat."""
    for k in range(CARDS):
        deck[k] = k
    for k in range(CARDS - 1, 0, -1):
        j = _below(rng, i, k + 1)
        deck[k], deck[j] = deck[j], deck[k]
    for seat in range(SEATS):
        hand = 0
        for k in range(HAND * seat, HAND * seat + HAND):
            hand |= 1 << deck[k]
        state[i, HANDS + seat] = hand
        state[i, DEALT_HANDS + seat] = hand
        state[i, PLAYED + seat] = 0
        state[i, TRICK + seat] = -1
        if hand >> FIRST_LEADER_CARD & 1:
            state[i, LEADER] = seat
            state[i, TO_MOVE] = seat
    state[i, ON_TRICK] = 0
    state[i, TRICKS_DONE] = 0
    state[i, THIRDS0] = 0
    state[i, THIRDS1] = 0


@_inline
def _play(state: Any, history: Any, i: int, c: int) -> bool:
    """The seat to move in deal ``i`` plays card ``c``; whether that ended the deal."""
    seat = state[i, TO_MOVE]
    state[i, HANDS + seat] ^= 1 << c
    state[i, PLAYED + seat] |= 1 << c
    state[i, TRICK + seat] = c
    history[i, SEATS * state[i, TRICKS_DONE] + state[i, ON_TRICK]] = c
    state[i, ON_TRICK] += 1
    if state[i, ON_TRICK] < SEATS:
        state[i, TO_MOVE] = (seat + 1) % SEATS
        return False
    winner = _taker(state, i)
    gained = 0
    for s in range(SEATS):
        gained += POINTS[state[i, TRICK + s]]
        state[i, TRICK + s] = -1
    state[i, ON_TRICK] = 0
    state[i, TRICKS_DONE] += 1
    if state[i, TRICKS_DONE] == _TRICKS:
        gained += _LAST_TRICK
    state[i, THIRDS0 + winner % 2] += gained
    state[i, LEADER] = winner
    state[i, TO_MOVE] = winner
    return state[i, TRICKS_DONE] == _TRICKS  # type: ignore[no-any-return]


@_inline
def _key(c: int) -> int:
    """A card's order for the rule-based player: its points first, then its strength."""
    return POINTS[c] * 16 + STRENGTHS[c]  # type: ignore[no-any-return]


@_inline
def _extreme(cards: int, highest: bool) -> int:
    """The card of a set with the most (or the fewest) points, then the strongest (or weakest)."""
    best = _lowest(cards)
    cards &= cards - 1
    while cards:
        c = _lowest(cards)
        cards &= cards - 1
        if (_key(c) > _key(best)) if highest else (_key(c) < _key(best)):
            best = c
    return best


@_inline
def _rule_card(state: Any, i: int, legal: int) -> int:
    """The rule-based player's card: lead the cheapest card of its longest suit; load the
    partner's trick with its best points; take a trick worth taking (or when last) with the
    weakest card that takes it; else give the fewest points."""
    seat = state[i, TO_MOVE]
    if state[i, ON_TRICK] == 0:
        longest = 0
        for s in range(4):
            if _count(legal & SUIT_BITS[s]) > _count(legal & SUIT_BITS[longest]):
                longest = s
        return _extreme(legal & SUIT_BITS[longest], False)
    leader = state[i, LEADER]
    if legal & SUIT_BITS[state[i, TRICK + leader] // HAND] == 0:
        return _extreme(legal, False)  # not following: discard the least
    taker = _taker(state, i)
    if (taker - seat) % 2 == 0:
        return _extreme(legal, True)
    strongest = STRENGTHS[state[i, TRICK + taker]]
    worth = 0
    for k in range(state[i, ON_TRICK]):
        worth += POINTS[state[i, TRICK + (leader + k) % SEATS]]
    takers = 0
    cards = legal
    while cards:
        c = _lowest(cards)
        cards &= cards - 1
        if STRENGTHS[c] > strongest:
            takers |= 1 << c
    if takers and (worth > 0 or state[i, ON_TRICK] == SEATS - 1):
        weakest = _lowest(takers)
        rest = takers & (takers - 1)
        while rest:
            c = _lowest(rest)
            rest &= rest - 1
            if STRENGTHS[c] < STRENGTHS[weakest]:
                weakest = c
        return weakest
    return _extreme(legal, False)


@_inline
def _policy_card(state: Any, rng: Any, i: int, policy: int) -> int:
    legal = _legal(state, i)
    if policy == RULE:
        return _rule_card(state, i, legal)
    return _nth_card(legal, _below(rng, i, _count(legal)))


@_inline
def _end_deal(state: Any, rng: Any, history: Any, finished: Any, finished_history: Any, rewards: Any,
              terminated: Any, i: int, margin: bool, deck: Any) -> None:
    """Score deal ``i``, keep it in the finished arrays, and deal the next one."""
    points0 = state[i, THIRDS0] // 3
    points1 = state[i, THIRDS1] // 3
    for seat in range(SEATS):
        own, other = (points0, points1) if seat % 2 == 0 else (points1, points0)
        rewards[i, seat] = own - other if margin else own
        finished[i, seat] = state[i, DEALT_HANDS + seat]
    for k in range(CARDS):
        finished_history[i, k] = history[i, k]
    terminated[i] = True
    _deal(state, rng, i, deck)


@_inline
def _run_policies(state: Any, rng: Any, history: Any, finished: Any, finished_history: Any, rewards: Any,
                  terminated: Any, i: int, policies: Any, margin: bool, deck: Any) -> int:
    """The built-in policies play deal ``i`` until an outside seat is to move (dealing anew when a
    deal ends); the cards they played."""
    played = 0
    while policies[state[i, TO_MOVE]] != OUTSIDE:
        played += 1
        if _play(state, history, i, _policy_card(state, rng, i, policies[state[i, TO_MOVE]])):
            _end_deal(state, rng, history, finished, finished_history, rewards, terminated, i, margin, deck)
    return played


@_inline
def _observe(state: Any, i: int, observation: Any, mask: Any) -> None:
    """Write deal ``i``'s legal mask and the observation of its seat to move."""
    me = state[i, TO_MOVE]
    row = observation[i]
    row[:] = 0.0
    legal = _legal(state, i)
    for c in range(CARDS):
        mask[i, c] = legal >> c & 1 == 1
    hand = state[i, HANDS + me]
    while hand:
        c = _lowest(hand)
        hand &= hand - 1
        row[OBS_HAND + c] = 1.0
    for k in range(SEATS):
        seat = (me + k) % SEATS
        c = state[i, TRICK + seat]
        if c >= 0:
            row[OBS_TRICK + CARDS * k + c] = 1.0
        cards = state[i, PLAYED + seat]
        while cards:
            c = _lowest(cards)
            cards &= cards - 1
            row[OBS_PLAYED + CARDS * k + c] = 1.0
    row[OBS_LEADER + (state[i, LEADER] - me) % SEATS] = 1.0
    row[OBS_POINTS] = state[i, THIRDS0 + me % 2] / _DEAL_THIRDS
    row[OBS_POINTS + 1] = state[i, THIRDS0 + 1 - me % 2] / _DEAL_THIRDS
    row[OBS_TRICKS] = state[i, TRICKS_DONE] / 10.0


@_jit
def _reset(state: Any, rng: Any, history: Any, finished: Any, finished_history: Any, rewards: Any,
           terminated: Any, policies: Any, margin: bool, observation: Any, mask: Any) -> None:
    deck = np.empty(CARDS, dtype=np.int64)
    for i in range(state.shape[0]):
        _deal(state, rng, i, deck)
        _run_policies(state, rng, history, finished, finished_history, rewards, terminated, i, policies,
                      margin, deck)
        _observe(state, i, observation, mask)


@_jit
def _observe_all(state: Any, observation: Any, mask: Any) -> None:
    for i in range(state.shape[0]):
        _observe(state, i, observation, mask)


@_jit
def _first_illegal(state: Any, actions: Any) -> int:
    """The first deal whose action is not a legal card, or -1."""
    for i in range(state.shape[0]):
        c = actions[i]
        if c < 0 or c >= CARDS or not (_legal(state, i) >> c) & 1:
            return i
    return -1


@_jit
def _step(state: Any, rng: Any, history: Any, finished: Any, finished_history: Any, rewards: Any,
          terminated: Any, illegal: Any, policies: Any, margin: bool, illegal_reward: float, actions: Any,
          observation: Any, mask: Any) -> int:
    """Every deal plays its action, then its built-in policies; the cards played in all. An
    illegal action ends its deal with ``illegal_reward`` for the seat that chose it."""
    deck = np.empty(CARDS, dtype=np.int64)
    played = 0
    for i in range(state.shape[0]):
        terminated[i] = False
        illegal[i] = False
        for seat in range(SEATS):
            rewards[i, seat] = 0.0
        c = actions[i]
        if c < 0 or c >= CARDS or not (_legal(state, i) >> c) & 1:
            illegal[i] = True
            terminated[i] = True
            rewards[i, state[i, TO_MOVE]] = illegal_reward
            for k in range(CARDS):
                finished_history[i, k] = -1
            for seat in range(SEATS):
                finished[i, seat] = state[i, DEALT_HANDS + seat]
            _deal(state, rng, i, deck)
        else:
            played += 1
            if _play(state, history, i, c):
                _end_deal(state, rng, history, finished, finished_history, rewards, terminated, i, margin, deck)
        played += _run_policies(state, rng, history, finished, finished_history, rewards, terminated, i, policies,
                                margin, deck)
        _observe(state, i, observation, mask)
    return played


@_jit
def _playout(state: Any, rng: Any, history: Any, finished: Any, finished_history: Any, rewards: Any,
             terminated: Any, every_seat: Any, policies: Any, margin: bool, cards: int, observation: Any,
             mask: Any) -> None:
    """``cards`` cards of every deal played by the policies ``every_seat`` of all four seats;
    then the deal's own policies play up to an outside seat, whose observation is written."""
    deck = np.empty(CARDS, dtype=np.int64)
    for i in range(state.shape[0]):
        terminated[i] = False
        for _ in range(cards):
            if _play(state, history, i, _policy_card(state, rng, i, every_seat[state[i, TO_MOVE]])):
                _end_deal(state, rng, history, finished, finished_history, rewards, terminated, i, margin, deck)
        _run_policies(state, rng, history, finished, finished_history, rewards, terminated, i, policies,
                      margin, deck)
        _observe(state, i, observation, mask)


def _policies(opponents: str | Sequence[str | None], outside: Sequence[int]) -> np.ndarray:
    """Each seat's player: outside for the seats in ``outside``, else its policy by name (one
    for all, or one per seat)."""
    names = [opponents] * SEATS if isinstance(opponents, str) else list(opponents)
    if len(names) != SEATS:
        raise RulesError(f"opponents: one policy name or one per seat ({SEATS}), not {len(names)}")
    policies = np.zeros(SEATS, dtype=np.int64)
    for seat, name in enumerate(names):
        if seat in outside:
            continue
        if name not in POLICIES:
            raise RulesError(f"opponents: seat {seat} has {name!r}, not one of {', '.join(POLICIES)}")
        policies[seat] = POLICIES[name]
    return policies


class BatchedTressette:
    """N deals of Tressette's card play, stepped together.

    ``outside`` are the seats whose cards come through :meth:`step` (the learner's; all four for
    self-play); the others are played by ``opponents``: ``"random"`` (a uniform legal card) or
    ``"rule"`` (a rule-based player), one name for all or one per seat. ``reward`` is
    ``"points"`` (each seat's side's card points of the deal, 0 to 11) or ``"margin"`` (its side's
    points less the other's).

    Arrays, one row per deal, all written in place (read them, copy what must outlive a step):
    ``observation`` (N, 367) float32 and ``legal_mask`` (N, 40) bool for the seat to move,
    ``to_move``, ``leader`` (N,), ``hands``, ``played`` (N, 4) int64 bitmasks (bit c: the card at
    deck position c), ``trick`` (N, 4) (each seat's card on the trick, -1 for none), ``thirds`` (N, 2),
    ``rewards`` (N, 4) float32 (nonzero only in the step a deal ended), ``terminated`` and
    ``illegal`` (N,) bool, and the deals that ended in the last step: ``finished_hands`` (N, 4) as
    dealt and ``finished_history`` (N, 40), their cards in playing order (all -1 for a deal that
    an illegal card ended).
    """

    def __init__(self, num_deals: int, *, outside: Sequence[int] = (0,),
                 opponents: str | Sequence[str | None] = "random", reward: str = "points",
                 illegal_reward: float = -10.0, seed: int | None = None) -> None:
        if not isinstance(num_deals, int) or isinstance(num_deals, bool) or num_deals < 1:
            raise RulesError(f"num_deals must be a positive whole number, not {num_deals!r}")
        if not outside or any(not isinstance(s, int) or not 0 <= s < SEATS for s in outside):
            raise RulesError(f"outside: one or more seats from 0 to {SEATS - 1}, not {list(outside)!r}")
        if reward not in REWARDS:
            raise RulesError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        self.num_deals = num_deals
        self.outside = tuple(sorted(set(outside)))
        self.policies = _policies(opponents, self.outside)
        self.margin = reward == "margin"
        self.illegal_reward = float(illegal_reward)
        self.state = np.zeros((num_deals, COLUMNS), dtype=np.int64)
        self.rng = np.zeros(num_deals, dtype=np.uint64)
        self.history = np.full((num_deals, CARDS), -1, dtype=np.int64)
        self.finished_hands = np.zeros((num_deals, SEATS), dtype=np.int64)
        self.finished_history = np.full((num_deals, CARDS), -1, dtype=np.int64)
        self.rewards = np.zeros((num_deals, SEATS), dtype=np.float32)
        self.terminated = np.zeros(num_deals, dtype=np.bool_)
        self.illegal = np.zeros(num_deals, dtype=np.bool_)
        self.observation = np.zeros((num_deals, OBSERVATION_SIZE), dtype=np.float32)
        self.legal_mask = np.zeros((num_deals, CARDS), dtype=np.bool_)
        # Views of the state matrix: reading them copies nothing.
        self.hands = self.state[:, HANDS:HANDS + SEATS]
        self.played = self.state[:, PLAYED:PLAYED + SEATS]
        self.trick = self.state[:, TRICK:TRICK + SEATS]
        self.leader = self.state[:, LEADER]
        self.to_move = self.state[:, TO_MOVE]
        self.thirds = self.state[:, THIRDS0:THIRDS1 + 1]
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """Deal every row anew; each deal's generator comes from ``seed`` (None: the system's)."""
        states = np.random.SeedSequence(seed).generate_state(self.num_deals, dtype=np.uint64)
        self.rng[:] = states
        self.rewards[:] = 0.0
        self.terminated[:] = False
        self.illegal[:] = False
        _reset(self.state, self.rng, self.history, self.finished_hands, self.finished_history, self.rewards,
               self.terminated, self.policies, self.margin, self.observation, self.legal_mask)

    def step(self, actions: np.ndarray, *, strict: bool = False) -> int:
        """Each deal's seat to move plays ``actions[i]`` (a deck position, 0 to 39), then the
        built-in policies play; the cards played in all. A card outside the mask ends its deal
        with ``illegal_reward`` and ``illegal[i]``; with ``strict``, nothing is played and a
        ``ValueError`` says which deal, which card and what was legal."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_deals,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions: one whole number per deal, shape ({self.num_deals},), "
                             f"not {actions.dtype} of shape {actions.shape}")
        actions = actions.astype(np.int64, copy=False)
        if strict:
            i = _first_illegal(self.state, actions)
            if i >= 0:
                raise ValueError(self.illegal_message(i, int(actions[i])))
        played: int = _step(self.state, self.rng, self.history, self.finished_hands, self.finished_history,
                            self.rewards, self.terminated, self.illegal, self.policies, self.margin,
                            self.illegal_reward, actions, self.observation, self.legal_mask)
        return played

    def observe(self) -> None:
        """Write the observations and masks anew from the state (after changing it by hand)."""
        _observe_all(self.state, self.observation, self.legal_mask)

    def illegal_message(self, i: int, action: int) -> str:
        seat = int(self.to_move[i])
        legal = " ".join(card_name(int(c)) for c in np.flatnonzero(self.legal_mask[i]))
        chosen = card_name(action) if 0 <= action < CARDS else f"{action} (not a card: 0 to {CARDS - 1})"
        return f"deal {i}: seat {seat} may not play {chosen}; legal: {legal}"

    def playout(self, cards: int) -> None:
        """``cards`` cards of every deal played by built-in policies only, the outside seats
        included (they play at random): the engine's speed with no caller in the loop."""
        every_seat = np.where(self.policies == OUTSIDE, RANDOM, self.policies)
        _playout(self.state, self.rng, self.history, self.finished_hands, self.finished_history, self.rewards,
                 self.terminated, every_seat, self.policies, self.margin, cards, self.observation, self.legal_mask)


def card_name(position: int) -> str:
    """The osteria/1 notation of the card at a deck position: ``card_name(0)`` is ``Ad``."""
    return CARD_STRINGS[int(DECK[position])]
