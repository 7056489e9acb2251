"""Thousands of deals of a game's card play stepped at once, compiled with numba.

A :class:`BatchedGame` holds N deals of one game as numpy arrays (hands as int64 bitmasks over the
deck's cards, the trick, the leader, the seat to move, each side's units taken) and steps all of
them with one call into compiled code: ``step(actions)`` takes each deal's action for the seat to
move, then lets the seats played by a built-in policy (``random`` or ``rule``) play, inside the
same compiled loop, until an outside seat is to move again. A finished deal is scored (each
seat's side's points or its stake, or its margin), kept for inspection (``finished_hands``,
``finished_history``) and replaced at once by a new one, shuffled by that deal's own generator
(seeded from ``reset(seed)``), so every deal always has a seat to move.

The legal mask, the observation of the seat to move and the rewards are arrays the compiled code
writes in place: reading them copies nothing, and the next ``step`` overwrites them.

What it plays is the game's card play as its rules module describes it in tables
(:meth:`osteria.engine.Game.trick_play`, :mod:`osteria.trickplay`), with the bidding that puts
one seat against the others where the game has one: Tressette, Traversone for three to six,
Sancagna, Calabresella for three to five, and Quattrigghiu (Ombre's call of the trump, scored in
basi, with the early stop and the tutità). Every deal is the first of a match, as in the
environments' one-deal episodes. What else a game adds to its card play (accusi, signals,
cenni, the call-out) is its rules module's alone and left out here; the tests hold this engine
to the rules modules, deal by deal.

numba and numpy are the optional ``fast`` extra: this module needs both.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numba
import numpy as np

from osteria.bots.solver_kernel import compiled
from osteria.bots.solver_kernel import count_bits as _count
from osteria.bots.solver_kernel import lowest_bit as _lowest
from osteria.bots.solver_kernel import nth_bit as _nth_card
from osteria.bots.solver_kernel import random_below as _below
from osteria.cards import CARD_STRINGS, SUITS
from osteria.engine import JSON, RulesError
from osteria.envs.layout import (
    BIDDING,
    CALL_AUCTION_PHASES,
    DISCARD,
    EXCHANGE,
    FORCED,
    MAX_SEATS,
    PHASE_NAMES,
    PLAY,
    TRUMP_CALL_PHASES,
    VOLUNTEERS,
    WINDOW,
    observation_layout,
    trick_play_of,
)
from osteria.rules import GAMES, batched_games
from osteria.trickplay import CallAuction, TrickPlay, TrumpCall

# Who plays a seat: an outside caller through ``step``, or a policy inside the compiled loop.
OUTSIDE, RANDOM, RULE = 0, 1, 2
POLICIES = {"random": RANDOM, "rule": RULE}
REWARDS = ("points", "margin")

# The columns of the state matrix, one row per deal; a block of MAX_SEATS columns per seat (or side).
HANDS = 0  # each seat's hand
PLAYED = HANDS + MAX_SEATS  # the cards each seat has played in this deal, the current trick included
TRICK = PLAYED + MAX_SEATS  # each seat's card on the current trick, -1 where it has none
DEALT_HANDS = TRICK + MAX_SEATS  # the hands as dealt
TAKEN = DEALT_HANDS + MAX_SEATS  # each side's units taken so far
LEADER, TO_MOVE, ON_TRICK, TRICKS_DONE = range(TAKEN + MAX_SEATS, TAKEN + MAX_SEATS + 4)
VARIANT = TRICKS_DONE + 1  # the row of the card tables: the trump suit where it changes by deal
DEALER = VARIANT + 1  # -1 where it was not drawn, changing nothing (every card dealt, one leads)
REST = DEALER + 1  # the cards set aside
SHOWN = REST + 1  # those of them every seat sees
TURNED = SHOWN + 1  # the turned card (the first set aside) where it names the trump, else -1
WIDOW = TURNED + 1  # the cards set aside as dealt (``REST`` changes where a caller takes them)
DECISIONS = WIDOW + 1  # the actions of the deal so far (the places of ``history`` written)
# The bidding, where the game has one (``CallAuction``): its phase, the contract, its caller, the
# called card and who was dealt it (-1: it lay set aside), the card given for it, how many cards
# the caller has still to lay aside, and the passes so far.
PHASE, CONTRACT, CALLER, CALLED, HOLDER, CEDED, TO_DISCARD, PASSES = range(DECISIONS + 1, DECISIONS + 9)
# Whether every seat knows the caller's partner (he played the called card, or said he helps, or
# the tutità was asked); with a trump call, the side going for the tutità (0 the caller's, 1 the
# others, -1 none) and the seats still to answer (a bit each: the volunteers, the tutità's askees);
# the cards of the tricks gone from the table (``TrickPlay.forgotten``).
KNOWN, ATTEMPT, ASKING, GONE = range(PASSES + 1, PASSES + 5)
COLUMNS = GONE + 1

# The phases of a deal, and the contracts: a called card (or a volunteer) or alone.
PHASE_VERBS = ("play", "bid", "give", "lay aside", "call", "answer", "answer")  # what an action does in each
NO_CONTRACT, CALL, ALONE = range(3)
# The kinds of bidding: none, a card called (CallAuction), Ombre's trump call (TrumpCall).
NO_AUCTION, CALL_AUCTION, TRUMP_CALL = range(3)
# The phases each kind of bidding goes through, in the order of the observation's phase block.
# A trump call's actions follow the cards: per trump suit a call of each partner card (the four
# ``partner_cards``, then the four ``instead``), per trump alone, per trump a call of volunteers,
# then a pass, help, tutità and stop. A mask of them is bits from the first (``_first_choice``).
W_CALL, W_ALONE, W_OPEN, W_PASS, W_HELP, W_ON, W_STOP = 0, 32, 36, 40, 41, 42, 43
TRUMP_CALL_WORDS = 44

# A game's scalars and tables are one row of int64 (see ``_tables``); the rows of every game, seat
# count and choice of options are one module-level array, ``_TABLES``, which numba compiles in as
# a constant. The compiled code reads it by the row of its game (``tab``) as it would its own
# constants: arrays passed in would be read again after every write to the state, which might
# alias them, and a tuple of arrays costs a reference count at every read.

# The game's scalars, by place in its row.
(P_SEATS, P_CARDS, P_HAND, P_SIDES, P_UNIT, P_LAST_BONUS, P_MUST_TRUMP, P_LOWER_WINS, P_LEAD_CARD,
 P_REST_TO_LAST, P_TURNED_TRUMP, P_SHOWN, P_VARIANTS, P_MARGIN, P_ACTIONS,
 P_AUCTION, P_TAKES_REST, P_EXCHANGE, P_HIDDEN_PARTNER, P_WINNING,
 P_OBS_HAND, P_OBS_TRICK, P_OBS_PLAYED, P_OBS_LEADER, P_OBS_POINTS, P_OBS_TRICKS, P_OBS_TRUMP, P_OBS_SHOWN,
 P_OBS_PHASE, P_OBS_CONTRACT, P_OBS_CALLER, P_OBS_CALLED, P_OBS_HOLDER, P_OBS_CEDED, P_OBS_WIDOW, P_OBS_DISCARDS,
 P_FIRST_SPEAKER, P_FORCED, P_VOLUNTEERS, P_TUTITA, P_FORGET, P_FLAT, P_OBS_AIUTO, P_OBS_ATTEMPT,
 ) = range(44)

# Its tables follow at fixed places. Per card tables take STRIDE places (a deck's most cards) per variant.
STRIDE = 52
SUIT_SIZE = 13  # a suit's most cards
G_SUITS = 64  # per variant and card, the suit it follows as
G_SUIT_BITS = G_SUITS + 4 * STRIDE  # per variant and suit, the cards that follow as it
G_PRIVILEGED = G_SUIT_BITS + 16  # per variant, the trumps with the matador privilege (TrickPlay.privileged)
G_PHASE_PLACE = G_PRIVILEGED + 4  # per phase, its place in the observation's phase block
G_PARTNER = G_PHASE_PLACE + len(PHASE_NAMES)  # a trump call's partner cards, then those called instead
G_TRUMPS = G_PARTNER + 8  # per variant, its trump suit or -1
G_SIDES = G_TRUMPS + 4  # per seat, its side
G_VALUES = G_SIDES + MAX_SEATS  # per variant and card, what taking it counts
G_STRENGTHS = G_VALUES + 4 * STRIDE  # per variant and card
G_SCALES = G_STRENGTHS + 4 * STRIDE  # per variant, the deck's units (what taken units are divided by)
G_STAKES = G_SCALES + 4  # the auction's stakes, three per contract and cappotto (CallAuction.stakes)
G_ORDER = G_STAKES + 12  # per suit, its cards strongest first (in the first variant), -1 after the last
G_SIZE = G_ORDER + 4 * SUIT_SIZE


# Compiled without numba's reference counting, as the solver's kernel is (see there): the
# arrays are the caller's and the compiled code makes none, so counting would only add atomic
# updates at every row it views and every call it passes an array to, a quarter of a step.
_jit = compiled()
_inline = compiled("always")


@_inline
def _value(tab: int, v: int, c: int) -> int:
    """What taking card ``c`` counts, in variant ``v``."""
    return _TABLES[tab, G_VALUES + STRIDE * v + c]  # type: ignore[no-any-return]


@_inline
def _strength(tab: int, v: int, c: int) -> int:
    return _TABLES[tab, G_STRENGTHS + STRIDE * v + c]  # type: ignore[no-any-return]


@_inline
def _suit(tab: int, v: int, c: int) -> int:
    """The suit card ``c`` follows as in variant ``v``."""
    return _TABLES[tab, G_SUITS + STRIDE * v + c]  # type: ignore[no-any-return]


@_inline
def _suit_bits(tab: int, v: int, s: int) -> int:
    """The cards that follow as suit ``s`` in variant ``v``."""
    return _TABLES[tab, G_SUIT_BITS + 4 * v + s]  # type: ignore[no-any-return]


@_inline
def _after(seat: int, k: int, seats: int) -> int:
    """The seat ``k`` places after ``seat`` (0 <= k < seats): a compare, not a division."""
    s = seat + k
    return s - seats if s >= seats else s


@_inline
def _legal(tab: int, state: Any, i: int) -> int:
    """The cards the seat to move in deal ``i`` may play: the suit led while it holds any (but
    for the matador privilege), else a trump where it must trump, else any."""
    hand = state[i, HANDS + state[i, TO_MOVE]]
    if state[i, ON_TRICK] == 0:
        return hand  # type: ignore[no-any-return]
    v = state[i, VARIANT]
    trump = _TABLES[tab, G_TRUMPS + v]
    led = state[i, TRICK + state[i, LEADER]]
    suit = _suit(tab, v, led)
    follow = hand & _suit_bits(tab, v, suit)
    if follow:
        privileged = _TABLES[tab, G_PRIVILEGED + v]
        if suit == trump and follow & ~privileged == 0 and not _forced_out(tab, v, follow, led, privileged):
            return hand  # type: ignore[no-any-return]
        return follow  # type: ignore[no-any-return]
    if _TABLES[tab, P_MUST_TRUMP] and trump >= 0 and hand & _suit_bits(tab, v, trump):
        return hand & _suit_bits(tab, v, trump)  # type: ignore[no-any-return]
    return hand  # type: ignore[no-any-return]


@_inline
def _forced_out(tab: int, v: int, held: int, led: int, privileged: int) -> bool:
    """Whether a privileged trump led forces out the privileged ``held``: one of them is weaker."""
    if not privileged >> led & 1:
        return False
    while held:
        if _strength(tab, v, _lowest(held)) < _strength(tab, v, led):
            return True
        held &= held - 1
    return False


@_inline
def _beats(tab: int, v: int, c: int, best: int, led: int) -> bool:
    """Whether card ``c`` takes the trick from ``best`` (a card of the suit led or a trump):
    only those two suits can take, and a trump's strength is above every other card's."""
    s = _suit(tab, v, c)
    return (s == led or s == _TABLES[tab, G_TRUMPS + v]) and _strength(tab, v, c) > _strength(tab, v, best)


@_inline
def _taker(tab: int, state: Any, i: int) -> int:
    """The seat whose card takes the trick so far."""
    seats = _TABLES[tab, P_SEATS]
    v = state[i, VARIANT]
    leader = state[i, LEADER]
    best = leader
    led = _suit(tab, v, state[i, TRICK + leader])
    for k in range(1, state[i, ON_TRICK]):
        seat = _after(leader, k, seats)
        if _beats(tab, v, state[i, TRICK + seat], state[i, TRICK + best], led):
            best = seat
    return best  # type: ignore[no-any-return]


@_jit
def _deal(tab: int, state: Any, rng: Any, i: int, deck: Any) -> None:
    """A new deal in row ``i``: the cards shuffled by its generator, the hands dealt in turn, the
    rest set aside; the trump turned where the game turns it (none yet where it is called), the
    first leader, and the first to speak where there is a bidding."""
    seats, cards, hand_size = _TABLES[tab, P_SEATS], _TABLES[tab, P_CARDS], _TABLES[tab, P_HAND]
    for k in range(cards):
        deck[k] = k
    for k in range(cards - 1, 0, -1):
        j = _below(rng, i, k + 1)
        deck[k], deck[j] = deck[j], deck[k]
    leader = speaker = -1
    for seat in range(seats):
        hand = 0
        for k in range(hand_size * seat, hand_size * seat + hand_size):
            hand |= 1 << deck[k]
        state[i, HANDS + seat] = hand
        state[i, DEALT_HANDS + seat] = hand
        state[i, PLAYED + seat] = 0
        state[i, TRICK + seat] = -1
        if _TABLES[tab, P_LEAD_CARD] >= 0 and hand >> _TABLES[tab, P_LEAD_CARD] & 1:
            leader = seat
        if _TABLES[tab, P_FIRST_SPEAKER] >= 0 and hand >> _TABLES[tab, P_FIRST_SPEAKER] & 1:
            speaker = seat
    dealt = seats * hand_size
    rest = shown = 0
    for k in range(dealt, cards):
        rest |= 1 << deck[k]
        if _TABLES[tab, P_SHOWN] >> (k - dealt) & 1:
            shown |= 1 << deck[k]
    state[i, REST] = rest
    state[i, SHOWN] = shown
    state[i, TURNED] = deck[dealt] if _TABLES[tab, P_TURNED_TRUMP] else -1
    state[i, VARIANT] = _suit(tab, 0, deck[dealt]) if _TABLES[tab, P_TURNED_TRUMP] else \
        -1 if _TABLES[tab, P_AUCTION] == TRUMP_CALL else 0
    # The dealer is drawn only where the deal can need him: every card dealt and one of them
    # leading, it changes nothing (and the deals of those games stay as they were).
    state[i, DEALER] = -1
    if leader < 0 or rest:
        state[i, DEALER] = _below(rng, i, seats)
        if leader < 0:
            leader = _after(state[i, DEALER], 1, seats)
    state[i, LEADER] = leader
    state[i, TO_MOVE] = leader if speaker < 0 else speaker
    state[i, ON_TRICK] = 0
    state[i, TRICKS_DONE] = 0
    for side in range(_TABLES[tab, P_SIDES]):
        state[i, TAKEN + side] = 0
    state[i, WIDOW] = rest
    state[i, DECISIONS] = 0
    state[i, PHASE] = BIDDING if _TABLES[tab, P_AUCTION] else PLAY
    state[i, CONTRACT] = NO_CONTRACT
    state[i, CALLER] = state[i, CALLED] = state[i, HOLDER] = state[i, CEDED] = -1
    state[i, TO_DISCARD] = state[i, PASSES] = state[i, KNOWN] = state[i, ASKING] = state[i, GONE] = 0
    state[i, ATTEMPT] = -1


@_inline
def _record(state: Any, history: Any, i: int, action: int) -> None:
    history[i, state[i, DECISIONS]] = action
    state[i, DECISIONS] += 1


@_inline
def _play(tab: int, state: Any, history: Any, i: int, c: int) -> bool:
    """The seat to move in deal ``i`` plays card ``c``; whether that ended the deal."""
    seats = _TABLES[tab, P_SEATS]
    seat = state[i, TO_MOVE]
    state[i, HANDS + seat] ^= 1 << c
    state[i, PLAYED + seat] |= 1 << c
    state[i, TRICK + seat] = c
    if c == state[i, CALLED]:
        state[i, KNOWN] = 1
    _record(state, history, i, c)
    state[i, ON_TRICK] += 1
    if state[i, ON_TRICK] < seats:
        state[i, TO_MOVE] = _after(seat, 1, seats)
        return False
    v = state[i, VARIANT]
    winner = _taker(tab, state, i)
    gained = 0
    for s in range(seats):
        gained += _value(tab, v, state[i, TRICK + s])
        state[i, TRICK + s] = -1
    state[i, ON_TRICK] = 0
    state[i, TRICKS_DONE] += 1
    last = state[i, TRICKS_DONE] == _TABLES[tab, P_HAND]
    if last:
        gained += _TABLES[tab, P_LAST_BONUS]
        if _TABLES[tab, P_REST_TO_LAST]:
            rest = state[i, REST]
            while rest:
                gained += _value(tab, v, _lowest(rest))
                rest &= rest - 1
    state[i, TAKEN + _TABLES[tab, G_SIDES + winner]] += gained
    state[i, LEADER] = winner
    state[i, TO_MOVE] = winner
    if state[i, TRICKS_DONE] == _TABLES[tab, P_FORGET]:
        for s in range(seats):
            state[i, GONE] |= state[i, PLAYED + s]
    if _TABLES[tab, P_AUCTION] == TRUMP_CALL:
        return _after_base(tab, state, i, winner)
    return last  # type: ignore[no-any-return]


@_inline
def _side_basi(tab: int, state: Any, i: int) -> tuple[int, int]:
    """The basi (tricks) the caller's side and the others have taken: each card counts a share."""
    ours = theirs = 0
    caller, partner = state[i, CALLER], state[i, HOLDER]
    for seat in range(_TABLES[tab, P_SEATS]):
        basi = state[i, TAKEN + seat] // _TABLES[tab, P_UNIT]
        if seat in (caller, partner):
            ours += basi
        else:
            theirs += basi
    return ours, theirs


@_inline
def _after_base(tab: int, state: Any, i: int, winner: int) -> bool:
    """After a base of a trump call: whether the deal ends (a side has its winning basi, or the
    tutità tried is made or lost, or the last base is played); a side that took each of the first
    winning basi, with basi left, is asked for the tutità, its members from the winner on."""
    caller, partner = state[i, CALLER], state[i, HOLDER]
    side = 0 if winner in (caller, partner) else 1
    ours, theirs = _side_basi(tab, state, i)
    done, tricks, winning = ours + theirs, _TABLES[tab, P_HAND], _TABLES[tab, P_WINNING]
    if state[i, ATTEMPT] >= 0:
        return side != state[i, ATTEMPT] or done == tricks  # type: ignore[no-any-return]
    if (ours if side == 0 else theirs) == winning:
        if done == winning < tricks:
            # Being asked shows everyone who is on which side.
            state[i, PHASE] = WINDOW
            state[i, KNOWN] = 1
            asking = 0
            for seat in range(_TABLES[tab, P_SEATS]):
                if seat != winner and (seat in (caller, partner)) == (side == 0):
                    asking |= 1 << seat
            state[i, ASKING] = asking
            return False
        return True
    return done == tricks  # type: ignore[no-any-return]


@_inline
def _first_choice(tab: int, state: Any, i: int) -> int:
    """The action that bit 0 of ``_choices`` stands for: a trump call's words come after the cards."""
    if state[i, PHASE] != PLAY and _TABLES[tab, P_AUCTION] == TRUMP_CALL:
        return _TABLES[tab, P_CARDS]  # type: ignore[no-any-return]
    return 0


@_inline
def _choices(tab: int, state: Any, i: int) -> int:
    """The actions open to the seat to move in deal ``i``, bit a for action ``_first_choice`` +
    a: in the card play its legal cards; in a card-calling bidding a call of any card it does not
    hold, a pass (the action after the cards) and alone (the next); in the exchange and the
    discard any card of its hand; in a trump call, its words (``_trump_call_words``)."""
    phase = state[i, PHASE]
    if phase == PLAY:
        return _legal(tab, state, i)
    hand = state[i, HANDS + state[i, TO_MOVE]]
    if _TABLES[tab, P_AUCTION] == TRUMP_CALL:
        return _trump_call_words(tab, phase, hand)
    if phase == BIDDING:
        cards = _TABLES[tab, P_CARDS]
        return (1 << cards) - 1 & ~hand | 3 << cards  # type: ignore[no-any-return]
    return hand  # type: ignore[no-any-return]


@_inline
def _trump_call_words(tab: int, phase: int, hand: int) -> int:
    """A trump call's words open to a hand: in the bidding a pass, a call and alone, each trump;
    a call names a partner card the hand does not hold (one called instead, holding them all), or
    with volunteers the trump alone; forced, the same less the pass; a volunteer helps or passes;
    asked for the tutità, one goes for it or stops."""
    if phase == VOLUNTEERS:
        return 1 << W_PASS | 1 << W_HELP
    if phase == WINDOW:
        return 1 << W_ON | 1 << W_STOP
    words = 15 << W_ALONE | (1 << W_PASS if phase == BIDDING else 0)
    if _TABLES[tab, P_VOLUNTEERS]:
        return words | 15 << W_OPEN
    all_four = True
    for k in range(4):
        all_four = all_four and hand >> _TABLES[tab, G_PARTNER + k] & 1 == 1
    called = 0
    for k in range(8):
        if (k >= 4) == all_four and not hand >> _TABLES[tab, G_PARTNER + k] & 1:
            called |= 1 << k
    for t in range(4):
        words |= called << (W_CALL + 8 * t)
    return words


@_inline
def _ask_next(state: Any, i: int, seats: int) -> None:
    """The next seat still to answer, in playing order from the seat to move."""
    for k in range(1, seats):
        seat = _after(state[i, TO_MOVE], k, seats)
        if state[i, ASKING] >> seat & 1:
            state[i, ASKING] ^= 1 << seat
            state[i, TO_MOVE] = seat
            return


@_inline
def _trump_call(tab: int, state: Any, i: int, w: int) -> bool:
    """The seat to move says word ``w`` of a trump call; whether that ended the deal (a side that
    took the first basi stopped there)."""
    seats = _TABLES[tab, P_SEATS]
    seat = state[i, TO_MOVE]
    phase = state[i, PHASE]
    if w == W_PASS and phase == VOLUNTEERS:
        if state[i, ASKING]:
            _ask_next(state, i, seats)
        else:  # nobody helps: the caller plays alone
            _begin_play(state, i)
    elif w == W_PASS:
        state[i, PASSES] += 1
        if state[i, PASSES] < seats:
            state[i, TO_MOVE] = _after(seat, 1, seats)
        else:  # all passed: the holder of the forced card must call
            state[i, PHASE] = FORCED
            for s in range(seats):
                if state[i, HANDS + s] >> _TABLES[tab, P_FORCED] & 1:
                    state[i, TO_MOVE] = s
    elif w < W_ALONE:  # the trump and a partner card: its holder is the partner
        state[i, CALLER], state[i, CONTRACT], state[i, VARIANT] = seat, CALL, w // 8
        state[i, CALLED] = _TABLES[tab, G_PARTNER + w % 8]
        for s in range(seats):
            if state[i, HANDS + s] >> state[i, CALLED] & 1:
                state[i, HOLDER] = s
        _begin_play(state, i)
    elif w < W_OPEN:
        state[i, CALLER], state[i, CONTRACT], state[i, VARIANT] = seat, ALONE, w - W_ALONE
        _begin_play(state, i)
    elif w < W_PASS:  # the trump only: the others answer in turn from the caller's right
        state[i, CALLER], state[i, CONTRACT], state[i, VARIANT] = seat, ALONE, w - W_OPEN
        state[i, PHASE] = VOLUNTEERS
        state[i, ASKING] = 1 << _after(seat, 2, seats) | 1 << _after(seat, 3, seats)
        state[i, TO_MOVE] = _after(seat, 1, seats)
    elif w == W_HELP:
        state[i, HOLDER], state[i, CONTRACT], state[i, KNOWN] = seat, CALL, 1
        _begin_play(state, i)
    elif w == W_ON:
        if state[i, ASKING]:
            _ask_next(state, i, seats)
        else:  # the whole side goes for the tutità
            state[i, ATTEMPT] = 0 if seat in (state[i, CALLER], state[i, HOLDER]) else 1
            _begin_play(state, i)
    else:  # stop: the side keeps its win
        return True
    return False


@_inline
def _begin_play(state: Any, i: int) -> None:
    state[i, PHASE] = PLAY
    state[i, TO_MOVE] = state[i, LEADER]


@_inline
def _bid(tab: int, state: Any, i: int, a: int) -> bool:
    """The seat to move bids ``a``; whether every seat has passed (the deal is void)."""
    seats, cards = _TABLES[tab, P_SEATS], _TABLES[tab, P_CARDS]
    seat = state[i, TO_MOVE]
    if a == cards:
        state[i, PASSES] += 1
        state[i, TO_MOVE] = _after(seat, 1, seats)
        return state[i, PASSES] == seats  # type: ignore[no-any-return]
    state[i, CALLER] = seat
    if a == cards + 1:  # alone: with the cards dealt, leading
        state[i, CONTRACT] = ALONE
        state[i, LEADER] = seat
        _begin_play(state, i)
        return False
    state[i, CONTRACT] = CALL
    state[i, CALLED] = a
    for s in range(seats):
        if state[i, HANDS + s] >> a & 1:
            state[i, HOLDER] = s
    if _TABLES[tab, P_TAKES_REST]:
        state[i, HANDS + seat] |= state[i, REST]
        state[i, TO_DISCARD] = _count(state[i, REST])
        state[i, REST] = 0
    if _TABLES[tab, P_EXCHANGE] and state[i, HOLDER] >= 0:
        state[i, PHASE] = EXCHANGE
    else:
        _discard_or_play(state, i)
    return False


@_inline
def _discard_or_play(state: Any, i: int) -> None:
    """On to the discard while the caller has cards to lay aside, else to the card play."""
    if state[i, TO_DISCARD]:
        state[i, PHASE] = DISCARD
    else:
        _begin_play(state, i)


@_inline
def _act(tab: int, state: Any, history: Any, i: int, a: int) -> bool:
    """The seat to move in deal ``i`` takes action ``a`` (a legal one); whether that ended the deal."""
    phase = state[i, PHASE]
    if phase == PLAY:
        return _play(tab, state, history, i, a)
    _record(state, history, i, a)
    if _TABLES[tab, P_AUCTION] == TRUMP_CALL:
        return _trump_call(tab, state, i, a - _TABLES[tab, P_CARDS])
    if phase == BIDDING:
        return _bid(tab, state, i, a)
    seat = state[i, TO_MOVE]
    if phase == EXCHANGE:  # the caller gives card a for the called one, both face up
        swap = 1 << a | 1 << state[i, CALLED]
        state[i, HANDS + seat] ^= swap
        state[i, HANDS + state[i, HOLDER]] ^= swap
        state[i, CEDED] = a
    else:  # the caller lays card a aside
        state[i, HANDS + seat] ^= 1 << a
        state[i, REST] |= 1 << a
        state[i, TO_DISCARD] -= 1
    _discard_or_play(state, i)
    return False


@_inline
def _partner(tab: int, state: Any, i: int) -> int:
    """The caller's partner where he is unknown at first (hidden, or a volunteer yet to answer), or
    -1 for none."""
    if _TABLES[tab, P_HIDDEN_PARTNER] and state[i, CONTRACT] == CALL:
        return state[i, HOLDER]  # type: ignore[no-any-return]
    return -1


@_inline
def _partner_known_to(tab: int, state: Any, i: int, seat: int) -> bool:
    """Whether ``seat`` knows who the hidden partner is: he knows himself, and all know him once
    he has played the called card (or answered that he helps, or the tutità was asked)."""
    partner = _partner(tab, state, i)
    return partner < 0 or seat == partner or state[i, KNOWN] == 1


@_inline
def _allied(tab: int, state: Any, i: int, seat: int, other: int) -> bool:
    """Whether ``seat`` knows ``other`` to play on its side: by the sides of the card play, or
    by the contract (where the partner is hidden from ``seat``, it counts on no one)."""
    if not _TABLES[tab, P_AUCTION]:
        return _TABLES[tab, G_SIDES + seat] == _TABLES[tab, G_SIDES + other]  # type: ignore[no-any-return]
    if seat == other:
        return True
    if not _partner_known_to(tab, state, i, seat):
        return False
    caller, partner = state[i, CALLER], _partner(tab, state, i)
    return (seat in (caller, partner)) == (other in (caller, partner))


@_inline
def _order(tab: int, v: int, c: int, valued: bool) -> int:
    """A card's order for the rule-based player: by its value first, then its strength, or by
    its strength alone."""
    return _value(tab, v, c) * 256 + _strength(tab, v, c) if valued else _strength(tab, v, c)


@_inline
def _extreme(tab: int, v: int, cards: int, highest: bool, valued: bool) -> int:
    """The card of a set first (or last) in that order: with ``valued``, the most (or the least)
    value, then the strongest (or weakest); without, the strongest (or weakest)."""
    best = _lowest(cards)
    cards &= cards - 1
    while cards:
        c = _lowest(cards)
        cards &= cards - 1
        key, best_key = _order(tab, v, c, valued), _order(tab, v, best, valued)
        if key > best_key if highest else key < best_key:
            best = c
    return best


@_inline
def _rule_card(tab: int, state: Any, i: int, legal: int) -> int:
    """The rule-based player's card.

    Where points are wanted: lead the cheapest card of the longest suit; not following and
    unable to take, give the least; load a partner's trick with the best points (where every card
    counts alike, give it the least); take a trick worth taking (or when last) with the weakest
    card that takes it; else give the least.
    Where points are poison: lead the least; not following, throw the most; under the taker,
    play the strongest card that stays under; forced to take, take with the strongest when last
    (the trick is lost anyway), else with the weakest (someone may still go over)."""
    v = state[i, VARIANT]
    seat = state[i, TO_MOVE]
    lower = _TABLES[tab, P_LOWER_WINS]
    if state[i, ON_TRICK] == 0:
        if lower:
            return _extreme(tab, v, legal, False, True)
        longest = 0
        for s in range(4):
            if _count(legal & _suit_bits(tab, v, s)) > _count(legal & _suit_bits(tab, v, longest)):
                longest = s
        return _extreme(tab, v, legal & _suit_bits(tab, v, longest), False, True)
    leader = state[i, LEADER]
    led = _suit(tab, v, state[i, TRICK + leader])
    taker = _taker(tab, state, i)
    best = state[i, TRICK + taker]
    takers = 0
    cards = legal
    while cards:
        c = _lowest(cards)
        cards &= cards - 1
        if _beats(tab, v, c, best, led):
            takers |= 1 << c
    following = legal & _suit_bits(tab, v, led) != 0
    last = state[i, ON_TRICK] == _TABLES[tab, P_SEATS] - 1
    if lower:
        if not following and takers == 0:
            return _extreme(tab, v, legal, True, True)
        under = legal & ~takers
        if under:
            return _extreme(tab, v, under, True, False)
        return _extreme(tab, v, legal, True, True) if last else _extreme(tab, v, takers, False, False)
    if not following and takers == 0:
        return _extreme(tab, v, legal, False, True)
    if _allied(tab, state, i, seat, taker):
        return _extreme(tab, v, legal, not _TABLES[tab, P_FLAT], True)
    worth = 0
    for k in range(state[i, ON_TRICK]):
        worth += _value(tab, v, state[i, TRICK + _after(leader, k, _TABLES[tab, P_SEATS])])
    if takers and (worth > 0 or last):
        return _extreme(tab, v, takers, False, False)
    return _extreme(tab, v, legal, False, True)


@_inline
def _suit_run(tab: int, hand: int, s: int) -> int:
    """How many of suit ``s``'s best cards the hand holds without a gap."""
    run = 0
    while run < SUIT_SIZE and _TABLES[tab, G_ORDER + SUIT_SIZE * s + run] >= 0 and \
            hand >> _TABLES[tab, G_ORDER + SUIT_SIZE * s + run] & 1:
        run += 1
    return run


@_inline
def _estimated_tricks(tab: int, hand: int, opponents: int) -> float:
    """The tricks a hand should take, suit by suit: its unbroken tops, half a trick for a card
    guarded against the one card above it (a quarter against two), or the length of a long suit
    once the opponents' cards of it are gone, whichever is more."""
    total = 0.0
    for s in range(4):
        suit = _suit_bits(tab, 0, s)
        length = _count(hand & suit)
        if length == 0:
            continue
        run = _suit_run(tab, hand, s)
        tricks = float(run)
        held = missing = 0
        for place in range(_count(suit)):
            if hand >> _TABLES[tab, G_ORDER + SUIT_SIZE * s + place] & 1:
                if held >= run and missing <= length - 1 - held:
                    tricks += 0.5 if missing == 1 else 0.25 if missing == 2 else 0.0
                held += 1
            else:
                missing += 1
        rounds = (_count(suit) - length + opponents - 1) // opponents + 1
        total += max(tricks, float(length - rounds))
    return total


@_inline
def _rule_bid(tab: int, state: Any, i: int, hand: int) -> int:
    """The rule-based bid: alone with all but two tricks sure; else a call of the best card of
    the highest rank it lacks, where the hand with it should take the tricks' share that the
    winning points are of the deal's; else a pass."""
    seats, cards, tricks = _TABLES[tab, P_SEATS], _TABLES[tab, P_CARDS], _TABLES[tab, P_HAND]
    sure = 0
    for s in range(4):
        length, run = _count(hand & _suit_bits(tab, 0, s)), _suit_run(tab, hand, s)
        sure += length if run >= _count(_suit_bits(tab, 0, s)) - length else run
    if sure >= tricks - 2:
        return cards + 1  # type: ignore[no-any-return]
    opponents = seats - 2 if _TABLES[tab, P_HIDDEN_PARTNER] else seats - 1
    best, best_tricks = -1, -1.0
    for place in range(SUIT_SIZE):
        for s in range(4):
            c = _TABLES[tab, G_ORDER + SUIT_SIZE * s + place]
            if c >= 0 and not hand >> c & 1:
                estimate = _estimated_tricks(tab, hand | 1 << c, opponents)
                if estimate > best_tricks:
                    best, best_tricks = c, estimate
        if best >= 0:
            break
    points = _TABLES[tab, G_SCALES] // _TABLES[tab, P_UNIT]
    if best_tricks * points >= _TABLES[tab, P_WINNING] * tricks:
        return best
    return cards  # type: ignore[no-any-return]


@_inline
def _rule_discard(tab: int, hand: int) -> int:
    """The card the caller can best spare: never a sure winner, rather a loser than a guarded
    honour; of the losers one of a short suit and with points (laid aside, they come back with
    the last trick), the weakest."""
    best, best_key = -1, 0
    cards = hand
    while cards:
        c = _lowest(cards)
        cards &= cards - 1
        s = _suit(tab, 0, c)
        missing = lower = 0
        for place in range(_count(_suit_bits(tab, 0, s))):
            x = _TABLES[tab, G_ORDER + SUIT_SIZE * s + place]
            if _strength(tab, 0, x) > _strength(tab, 0, c) and not hand >> x & 1:
                missing += 1
            elif _strength(tab, 0, x) < _strength(tab, 0, c) and hand >> x & 1:
                lower += 1
        if missing == 0:
            worth = 100
        elif missing <= lower:
            worth = 50 - 10 * missing
        else:
            worth = 2 * _count(hand & _suit_bits(tab, 0, s)) - 3 * _value(tab, 0, c)
        key = worth * 1024 + _strength(tab, 0, c)
        if best < 0 or key < best_key:
            best, best_key = c, key
    return best


@_inline
def _trump_strength(tab: int, hand: int, v: int) -> float:
    """What a hand is worth with trump variant ``v``, in basi roughly: a trump one each among the
    three best, three quarters among the next three, a half below; a plain suit's best card
    three quarters, its second a third where guarded."""
    trump = _TABLES[tab, G_TRUMPS + v]
    worth = 0.0
    cards = hand
    while cards:
        c = _lowest(cards)
        cards &= cards - 1
        s = _suit(tab, v, c)
        above = 0
        suit = _suit_bits(tab, v, s)
        while suit:
            x = _lowest(suit)
            suit &= suit - 1
            if _strength(tab, v, x) > _strength(tab, v, c):
                above += 1
        if s == trump:
            worth += 1.0 if above < 3 else 0.75 if above < 6 else 0.5
        elif above == 0:
            worth += 0.75
        elif above == 1 and _count(hand & _suit_bits(tab, v, s)) >= 2:
            worth += 0.33
    return worth


@_inline
def _rule_trump_call(tab: int, state: Any, i: int, hand: int, legal: int) -> int:
    """The rule-based trump call, as a word: alone with a hand worth seven basi; a call (of the
    best trump) with one worth four, or when forced (alone where no card is left to call); the
    partner card called is of the suit the hand holds most of. A volunteer helps with a hand
    worth three in the trump; asked for the tutità, it stops."""
    phase = state[i, PHASE]
    if phase == VOLUNTEERS:
        return W_HELP if _trump_strength(tab, hand, state[i, VARIANT]) >= 3.0 else W_PASS
    if phase == WINDOW:
        return W_STOP
    best, worth = 0, -1.0
    for v in range(4):
        w = _trump_strength(tab, hand, v)
        if w > worth:
            best, worth = v, w
    if worth >= 7.0:
        return W_ALONE + best
    if worth < 4.0 and phase == BIDDING:
        return W_PASS
    if _TABLES[tab, P_VOLUNTEERS]:
        return W_OPEN + best
    word, most = -1, -1
    for k in range(8):
        if legal >> (W_CALL + 8 * best + k) & 1:
            c = _TABLES[tab, G_PARTNER + k]
            held = _count(hand & _suit_bits(tab, best, _suit(tab, best, c)))
            if held > most:
                word, most = W_CALL + 8 * best + k, held
    return word if word >= 0 else W_ALONE + best  # holding every card one may call: alone


@_inline
def _policy_action(tab: int, state: Any, rng: Any, i: int, policy: int) -> int:
    legal = _choices(tab, state, i)
    if policy == RULE:
        phase = state[i, PHASE]
        if phase == PLAY:
            return _rule_card(tab, state, i, legal)
        hand = state[i, HANDS + state[i, TO_MOVE]]
        if _TABLES[tab, P_AUCTION] == TRUMP_CALL:
            return _TABLES[tab, P_CARDS] + _rule_trump_call(tab, state, i, hand, legal)  # type: ignore[no-any-return]
        if phase == BIDDING:
            return _rule_bid(tab, state, i, hand)
        if phase == EXCHANGE:  # the least card, by points then strength
            return _extreme(tab, 0, hand, False, True)
        return _rule_discard(tab, hand)
    return _first_choice(tab, state, i) + _nth_card(legal, _below(rng, i, _count(legal)))


@_inline
def _end_deal(tab: int, state: Any, rng: Any, history: Any, finished: Any, finished_history: Any, rewards: Any,
              terminated: Any, i: int, deck: Any) -> None:
    """Score deal ``i``, keep it in the finished arrays, and deal the next one.

    Each side keeps its whole points, and the rounding's remainder goes to the side that took
    the last trick, so no whole point of the deal is lost. A margin is the side's points less
    the other sides' mean (the other way round where points are poison). Where the deal had a
    bidding, each seat gets its stake (:func:`_stakes`, :func:`_trump_call_stakes`)."""
    if _TABLES[tab, P_AUCTION] == TRUMP_CALL:
        _trump_call_stakes(tab, state, i, rewards)
    elif _TABLES[tab, P_AUCTION]:
        _stakes(tab, state, i, rewards)
    else:
        _side_points(tab, state, i, rewards)
    _keep_finished(tab, state, i, finished)
    for k in range(history.shape[1]):
        finished_history[i, k] = history[i, k] if k < state[i, DECISIONS] else -1
    terminated[i] = True
    _deal(tab, state, rng, i, deck)


@_inline
def _side_points(tab: int, state: Any, i: int, rewards: Any) -> None:
    sides, unit = _TABLES[tab, P_SIDES], _TABLES[tab, P_UNIT]
    total = whole = 0
    for side in range(sides):
        total += state[i, TAKEN + side]
        whole += state[i, TAKEN + side] // unit
    all_points = total // unit
    last_side = _TABLES[tab, G_SIDES + state[i, LEADER]]
    for seat in range(_TABLES[tab, P_SEATS]):
        side = _TABLES[tab, G_SIDES + seat]
        own = state[i, TAKEN + side] // unit + (all_points - whole if side == last_side else 0)
        if _TABLES[tab, P_MARGIN]:
            margin = own - (all_points - own) / (sides - 1)
            rewards[i, seat] = -margin if _TABLES[tab, P_LOWER_WINS] else margin
        else:
            rewards[i, seat] = own


@_inline
def _stakes(tab: int, state: Any, i: int, rewards: Any) -> None:
    """Each seat's stake of a deal with a contract (nothing where all passed): the caller's
    side's whole points, with the rounding's remainder where the last trick went, win at the
    winning points; the stakes by the contract and cappotto, their signs turned when it lost.
    A margin is the stake less the other seats' mean."""
    seats, unit = _TABLES[tab, P_SEATS], _TABLES[tab, P_UNIT]
    contract = state[i, CONTRACT]
    if contract == NO_CONTRACT:
        for seat in range(seats):
            rewards[i, seat] = 0.0
        return
    caller, partner = state[i, CALLER], _partner(tab, state, i)
    ours = total = 0
    for seat in range(seats):
        total += state[i, TAKEN + seat]
        if seat in (caller, partner):
            ours += state[i, TAKEN + seat]
    ours_points, theirs_points = ours // unit, (total - ours) // unit
    left = total // unit - ours_points - theirs_points
    if state[i, LEADER] == caller or state[i, LEADER] == partner:  # the last trick's taker
        ours_points += left
    else:
        theirs_points += left
    won = ours_points >= _TABLES[tab, P_WINNING]
    cappotto = (theirs_points if won else ours_points) == 0
    at = G_STAKES + 3 * (2 * (contract == ALONE) + cappotto)
    sign = 1 if won else -1
    stake_sum = 0
    for seat in range(seats):
        if seat == caller:
            stake = sign * _TABLES[tab, at]
        elif seat == partner:
            stake = sign * _TABLES[tab, at + 1]
        else:
            stake = -sign * _TABLES[tab, at + 2]
        rewards[i, seat] = stake
        stake_sum += stake
    if _TABLES[tab, P_MARGIN]:
        for seat in range(seats):
            rewards[i, seat] -= (stake_sum - rewards[i, seat]) / (seats - 1)


@_inline
def _trump_call_stakes(tab: int, state: Any, i: int, rewards: Any) -> None:
    """Each seat's stake of a trump call: the side with its winning basi wins, a tutità tried is
    made with all of them (else nothing is paid), and all of them pay the tutità's times; five
    each pay nothing. The stakes by the contract, their signs turned when the caller's side lost.
    A margin is the stake less the other seats' mean."""
    seats, tricks, winning = _TABLES[tab, P_SEATS], _TABLES[tab, P_HAND], _TABLES[tab, P_WINNING]
    ours, theirs = _side_basi(tab, state, i)
    attempt = state[i, ATTEMPT]
    if attempt >= 0:
        won = attempt if (ours if attempt == 0 else theirs) == tricks else -1
    else:
        won = 0 if ours >= winning else 1 if theirs >= winning else -1
    times = _TABLES[tab, P_TUTITA] if max(ours, theirs) == tricks else 1
    caller, partner = state[i, CALLER], state[i, HOLDER]
    at = G_STAKES + (3 if partner < 0 else 0)
    sign = 1 if won == 0 else -1
    for seat in range(seats):
        if won < 0:
            stake = 0
        elif seat == caller:
            stake = sign * _TABLES[tab, at]
        elif seat == partner:
            stake = sign * _TABLES[tab, at + 1]
        else:
            stake = -sign * _TABLES[tab, at + 2]
        rewards[i, seat] = times * stake
    if _TABLES[tab, P_MARGIN]:
        total = 0.0
        for seat in range(seats):
            total += rewards[i, seat]
        for seat in range(seats):
            rewards[i, seat] -= (total - rewards[i, seat]) / (seats - 1)


@_inline
def _keep_finished(tab: int, state: Any, i: int, finished: Any) -> None:
    """Keep how deal ``i`` was dealt: the hands, then its dealer, its cards set aside and its
    turned card (the columns of ``finished``)."""
    seats = _TABLES[tab, P_SEATS]
    for seat in range(seats):
        finished[i, seat] = state[i, DEALT_HANDS + seat]
    finished[i, seats] = state[i, DEALER]
    finished[i, seats + 1] = state[i, WIDOW]
    finished[i, seats + 2] = state[i, TURNED]


@_inline
def _run_policies(tab: int, state: Any, rng: Any, history: Any, finished: Any, finished_history: Any,
                  rewards: Any, terminated: Any, i: int, policies: Any, deck: Any) -> int:
    """The built-in policies play deal ``i`` until an outside seat is to move (dealing anew when a
    deal ends); the actions they took."""
    played = 0
    while policies[state[i, TO_MOVE]] != OUTSIDE:
        played += 1
        if _act(tab, state, history, i, _policy_action(tab, state, rng, i, policies[state[i, TO_MOVE]])):
            _end_deal(tab, state, rng, history, finished, finished_history, rewards, terminated, i, deck)
    return played


@_inline
def _observe(tab: int, state: Any, i: int, observation: Any, mask: Any) -> None:
    """Write deal ``i``'s legal mask and the observation of its seat to move, seats (and sides)
    counted from it."""
    seats, cards = _TABLES[tab, P_SEATS], _TABLES[tab, P_CARDS]
    me = state[i, TO_MOVE]
    v = state[i, VARIANT]  # -1 while the trump is yet to be called
    # The offsets read once: the compiled code cannot know that writing the row leaves them be.
    at_hand, at_trick, at_played = _TABLES[tab, P_OBS_HAND], _TABLES[tab, P_OBS_TRICK], _TABLES[tab, P_OBS_PLAYED]
    row = observation[i]
    row[:] = 0.0
    legal = _choices(tab, state, i)
    first = _first_choice(tab, state, i)
    mask[i, :] = False
    while legal:
        mask[i, first + _lowest(legal)] = True
        legal &= legal - 1
    _mark(row, at_hand, state[i, HANDS + me])
    for k in range(seats):
        seat = _after(me, k, seats)
        c = state[i, TRICK + seat]
        if c >= 0:
            row[at_trick + cards * k + c] = 1.0
        _mark(row, at_played + cards * k, state[i, PLAYED + seat] & ~state[i, GONE])
    row[_TABLES[tab, P_OBS_LEADER] + _after(state[i, LEADER], seats - me, seats)] = 1.0
    scale = _TABLES[tab, G_SCALES + max(v, 0)]
    for k in range(_TABLES[tab, P_SIDES]):
        side = _TABLES[tab, G_SIDES + _after(me, k, seats)]
        row[_TABLES[tab, P_OBS_POINTS] + k] = state[i, TAKEN + side] / scale
    row[_TABLES[tab, P_OBS_TRICKS]] = state[i, TRICKS_DONE] / _TABLES[tab, P_HAND]
    if _TABLES[tab, P_OBS_TRUMP] >= 0 and v >= 0:
        row[_TABLES[tab, P_OBS_TRUMP] + _TABLES[tab, G_TRUMPS + v]] = 1.0
    if _TABLES[tab, P_OBS_SHOWN] >= 0:
        _mark(row, _TABLES[tab, P_OBS_SHOWN], state[i, SHOWN])
    if _TABLES[tab, P_AUCTION] == TRUMP_CALL:
        _observe_trump_call(tab, state, i, row, me)
    elif _TABLES[tab, P_AUCTION]:
        _observe_auction(tab, state, i, row, me)


@_inline
def _mark(row: Any, at: int, cards: int) -> None:
    """Set the places ``at`` + c of the cards c of a set."""
    while cards:
        row[at + _lowest(cards)] = 1.0
        cards &= cards - 1


@_inline
def _observe_auction(tab: int, state: Any, i: int, row: Any, me: int) -> None:
    """The bidding as seat ``me`` sees it: the phase, the contract and its caller, the called card,
    who held it where all saw (or ``me`` knows: the hidden partner himself, and all once he
    played it), the card given for it; the cards set aside as dealt and those laid aside, to the
    caller who took them alone."""
    seats = _TABLES[tab, P_SEATS]
    row[_TABLES[tab, P_OBS_PHASE] + _TABLES[tab, G_PHASE_PLACE + state[i, PHASE]]] = 1.0
    contract = state[i, CONTRACT]
    if contract == NO_CONTRACT:
        return
    row[_TABLES[tab, P_OBS_CONTRACT] + contract - 1] = 1.0
    caller = state[i, CALLER]
    row[_TABLES[tab, P_OBS_CALLER] + _after(caller, seats - me, seats)] = 1.0
    called = state[i, CALLED]
    if called < 0:
        return
    row[_TABLES[tab, P_OBS_CALLED] + called] = 1.0
    holder = state[i, HOLDER]
    if not _TABLES[tab, P_HIDDEN_PARTNER] or _partner_known_to(tab, state, i, me):
        row[_TABLES[tab, P_OBS_HOLDER] + (seats if holder < 0 else _after(holder, seats - me, seats))] = 1.0
    if state[i, CEDED] >= 0:
        row[_TABLES[tab, P_OBS_CEDED] + state[i, CEDED]] = 1.0
    if _TABLES[tab, P_TAKES_REST] and me == caller:
        _mark(row, _TABLES[tab, P_OBS_WIDOW], state[i, WIDOW])
        _mark(row, _TABLES[tab, P_OBS_DISCARDS], state[i, REST])


@_inline
def _observe_trump_call(tab: int, state: Any, i: int, row: Any, me: int) -> None:
    """A trump call as seat ``me`` sees it: the phase, the contract, its caller (the trump is its
    own block), the partner card called, the partner where ``me`` knows him (himself, and all once
    he is shown), and whether a side goes for the tutità."""
    seats = _TABLES[tab, P_SEATS]
    row[_TABLES[tab, P_OBS_PHASE] + _TABLES[tab, G_PHASE_PLACE + state[i, PHASE]]] = 1.0
    contract = state[i, CONTRACT]
    if contract == NO_CONTRACT:
        return
    row[_TABLES[tab, P_OBS_CONTRACT] + contract - 1] = 1.0
    row[_TABLES[tab, P_OBS_CALLER] + _after(state[i, CALLER], seats - me, seats)] = 1.0
    if state[i, CALLED] >= 0:
        row[_TABLES[tab, P_OBS_CALLED] + state[i, CALLED]] = 1.0
    partner = state[i, HOLDER]
    if partner >= 0 and _partner_known_to(tab, state, i, me):
        row[_TABLES[tab, P_OBS_AIUTO] + _after(partner, seats - me, seats)] = 1.0
    if state[i, ATTEMPT] >= 0:
        row[_TABLES[tab, P_OBS_ATTEMPT]] = 1.0


@_jit
def _reset(tab: int, state: Any, rng: Any, history: Any, finished: Any, finished_history: Any, rewards: Any,
           terminated: Any, policies: Any, observation: Any, mask: Any, deck: Any) -> None:
    for i in range(state.shape[0]):
        _deal(tab, state, rng, i, deck)
        _run_policies(tab, state, rng, history, finished, finished_history, rewards, terminated, i, policies, deck)
        _observe(tab, state, i, observation, mask)


@_jit
def _observe_all(tab: int, state: Any, observation: Any, mask: Any) -> None:
    for i in range(state.shape[0]):
        _observe(tab, state, i, observation, mask)


@_inline
def _is_legal(tab: int, state: Any, i: int, a: int) -> bool:
    bit = a - _first_choice(tab, state, i)
    return 0 <= bit < 64 and a < _TABLES[tab, P_ACTIONS] and (_choices(tab, state, i) >> bit) & 1 == 1


@_jit
def _first_illegal(tab: int, state: Any, actions: Any) -> int:
    """The first deal whose action is not a legal card, or -1."""
    for i in range(state.shape[0]):
        if not _is_legal(tab, state, i, actions[i]):
            return i
    return -1


@_jit
def _step(tab: int, state: Any, rng: Any, history: Any, finished: Any, finished_history: Any, rewards: Any,
          terminated: Any, illegal: Any, policies: Any, illegal_reward: float, actions: Any,
          observation: Any, mask: Any, deck: Any) -> int:
    """Every deal plays its action, then its built-in policies; the actions taken in all. An
    illegal action ends its deal with ``illegal_reward`` for the seat that chose it."""
    seats = _TABLES[tab, P_SEATS]
    played = 0
    for i in range(state.shape[0]):
        terminated[i] = False
        illegal[i] = False
        for seat in range(seats):
            rewards[i, seat] = 0.0
        c = actions[i]
        if not _is_legal(tab, state, i, c):
            illegal[i] = True
            terminated[i] = True
            rewards[i, state[i, TO_MOVE]] = illegal_reward
            for k in range(history.shape[1]):
                finished_history[i, k] = -1
            _keep_finished(tab, state, i, finished)
            _deal(tab, state, rng, i, deck)
        else:
            played += 1
            if _act(tab, state, history, i, c):
                _end_deal(tab, state, rng, history, finished, finished_history, rewards, terminated, i, deck)
        played += _run_policies(tab, state, rng, history, finished, finished_history, rewards, terminated, i,
                                policies, deck)
        _observe(tab, state, i, observation, mask)
    return played


@_jit
def _playout(tab: int, state: Any, rng: Any, history: Any, finished: Any, finished_history: Any, rewards: Any,
             terminated: Any, every_seat: Any, policies: Any, actions: int, observation: Any, mask: Any,
             deck: Any) -> None:
    """``actions`` actions of every deal taken by the policies ``every_seat`` of all the seats;
    then the deal's own policies play up to an outside seat, whose observation is written."""
    for i in range(state.shape[0]):
        terminated[i] = False
        for _ in range(actions):
            if _act(tab, state, history, i, _policy_action(tab, state, rng, i, every_seat[state[i, TO_MOVE]])):
                _end_deal(tab, state, rng, history, finished, finished_history, rewards, terminated, i, deck)
        _run_policies(tab, state, rng, history, finished, finished_history, rewards, terminated, i, policies, deck)
        _observe(tab, state, i, observation, mask)


def _tables(play: TrickPlay, margin: bool) -> np.ndarray:
    """The game's scalars and tables in the one array the compiled code reads."""
    layout = {name: offset for name, offset, _, _ in observation_layout(play)}
    g = np.full(G_SIZE, -1, dtype=np.int64)
    g[P_SEATS], g[P_CARDS], g[P_HAND] = play.seats, play.cards, play.hand_size
    g[P_SIDES], g[P_UNIT], g[P_LAST_BONUS] = play.side_count, play.unit, play.last_bonus
    g[P_MUST_TRUMP], g[P_LOWER_WINS] = play.must_trump, play.lower_wins
    g[P_LEAD_CARD], g[P_REST_TO_LAST] = play.lead_card, play.rest_to_last_taker
    g[P_TURNED_TRUMP], g[P_SHOWN] = play.turned_trump, sum(1 << k for k in play.shown)
    g[P_VARIANTS], g[P_MARGIN] = len(play.trumps), margin
    g[P_ACTIONS] = action_count(play)
    auction = play.auction
    g[P_AUCTION] = NO_AUCTION
    g[P_FIRST_SPEAKER] = g[P_FORCED] = -1
    g[P_VOLUNTEERS] = g[P_TUTITA] = 0
    g[P_FORGET] = play.forgotten
    g[P_FLAT] = all(len(set(values)) == 1 for values in play.values)
    if isinstance(auction, CallAuction):
        g[P_AUCTION] = CALL_AUCTION
        g[P_TAKES_REST], g[P_EXCHANGE] = auction.caller_takes_rest, auction.exchange
        g[P_HIDDEN_PARTNER], g[P_WINNING] = auction.hidden_partner, auction.winning_points
        g[G_STAKES:G_STAKES + 12] = [stake for stakes in auction.stakes for stake in stakes]
        g[G_PHASE_PLACE + np.array(CALL_AUCTION_PHASES)] = range(len(CALL_AUCTION_PHASES))
    elif isinstance(auction, TrumpCall):
        g[P_AUCTION] = TRUMP_CALL
        g[P_FIRST_SPEAKER], g[P_FORCED] = auction.first_speaker, auction.forced
        g[P_HIDDEN_PARTNER] = True  # the called card's holder, known to himself until he is shown
        g[P_VOLUNTEERS], g[P_TUTITA], g[P_WINNING] = auction.volunteers, auction.tutita, auction.winning
        g[G_PARTNER:G_PARTNER + 8] = auction.partner_cards + auction.instead
        g[G_STAKES:G_STAKES + 6] = [stake for stakes in auction.stakes for stake in stakes]
        g[G_PHASE_PLACE + np.array(TRUMP_CALL_PHASES)] = range(len(TRUMP_CALL_PHASES))
    for name, index in (("hand", P_OBS_HAND), ("trick", P_OBS_TRICK), ("played", P_OBS_PLAYED),
                        ("trick_leader", P_OBS_LEADER), ("side_points", P_OBS_POINTS),
                        ("tricks_played", P_OBS_TRICKS), ("trump", P_OBS_TRUMP), ("shown", P_OBS_SHOWN),
                        ("phase", P_OBS_PHASE), ("contract", P_OBS_CONTRACT), ("caller", P_OBS_CALLER),
                        ("called", P_OBS_CALLED), ("called_holder", P_OBS_HOLDER), ("ceded", P_OBS_CEDED),
                        ("widow", P_OBS_WIDOW), ("discards", P_OBS_DISCARDS), ("aiuto", P_OBS_AIUTO),
                        ("tutita", P_OBS_ATTEMPT)):
        g[index] = layout.get(name, -1)
    for v, trump in enumerate(play.trumps):
        suits = play.follow_suits(v)
        g[G_SUITS + STRIDE * v:G_SUITS + STRIDE * v + play.cards] = suits
        for suit in range(4):
            g[G_SUIT_BITS + 4 * v + suit] = sum(1 << c for c in range(play.cards) if suits[c] == suit)
        g[G_PRIVILEGED + v] = play.privileged[v] if play.privileged else 0
        g[G_TRUMPS + v] = trump
        g[G_VALUES + STRIDE * v:G_VALUES + STRIDE * v + play.cards] = play.values[v]
        g[G_STRENGTHS + STRIDE * v:G_STRENGTHS + STRIDE * v + play.cards] = play.strengths[v]
        g[G_SCALES + v] = play.deck_units(v)
    g[G_SIDES:G_SIDES + play.seats] = play.sides
    for suit in range(4):
        order = sorted((c for c in range(play.cards) if play.suits[c] == suit), key=lambda c: -play.strengths[0][c])
        g[G_ORDER + SUIT_SIZE * suit:G_ORDER + SUIT_SIZE * suit + len(order)] = order
    return g


def action_count(play: TrickPlay) -> int:
    """The actions of a game: its cards (by deck position), and after them, where it has a
    bidding, a pass and alone (``CallAuction.words``), or a trump call's words (``W_CALL`` on)."""
    if isinstance(play.auction, TrumpCall):
        return play.cards + TRUMP_CALL_WORDS
    return play.cards + (2 if play.auction is not None else 0)


def history_size(play: TrickPlay) -> int:
    """The most actions of a deal: its cards, and where it has a bidding a bid a seat, the card
    given for the called one and the cards laid aside; in a trump call a pass a seat and the
    forced call, the volunteers' answers and those of a side of all but one asked for the tutità."""
    dealt = play.seats * play.hand_size
    if isinstance(play.auction, TrumpCall):
        return dealt + play.seats + 1 + 2 * (play.seats - 1)
    return dealt + (play.seats + 1 + play.cards - dealt if play.auction is not None else 0)


def _every_table() -> np.ndarray:
    """The rows of every game the engine plays, at every seat count, with every choice of the
    options that have choices (the others at their defaults), with and without margins: each
    distinct row once."""
    rows: dict[bytes, np.ndarray] = {}
    for name in batched_games():
        game = GAMES[name]
        chosen = [spec for spec in game.option_specs if spec.choices is not None]
        for seats in game.seat_counts:
            for values in itertools.product(*(spec.choices or () for spec in chosen)):
                options = {spec.name: value for spec, value in zip(chosen, values, strict=True)}
                play = game(seats, **options).trick_play()
                if play is not None:
                    for margin in (False, True):
                        row = _tables(play, margin)
                        rows.setdefault(row.tobytes(), row)
    return np.stack(list(rows.values()))


_TABLES = _every_table()
_ROWS = {row.tobytes(): k for k, row in enumerate(_TABLES)}


@numba.njit(cache=True)  # it makes an array: with the counting
def _compiled_tables() -> Any:
    """The tables as the compiled code holds them (numba's cache may hold older ones)."""
    return _TABLES.copy()


_checked = False


def _row_of(tables: np.ndarray) -> int:
    """The row of these tables in ``_TABLES``. Where the compiled code holds other tables (a cache
    compiled before the rules changed) or lacks these (an option without choices that changes
    the tables), it is compiled anew with the tables as they are."""
    global _TABLES, _checked
    key = tables.tobytes()
    stale = not _checked and not np.array_equal(_compiled_tables(), _TABLES)
    _checked = True
    if key not in _ROWS:
        _ROWS[key] = len(_TABLES)
        _TABLES = np.vstack([_TABLES, tables])
        stale = True
    if stale:
        # The callees first: a caller compiles against the callee's code as it is then.
        dispatchers: tuple[Any, ...] = (_compiled_tables, _deal, _reset, _observe_all, _first_illegal, _step, _playout)
        for function in dispatchers:
            function.recompile()
    return _ROWS[key]


class BatchedGame:
    """N deals of a game's card play, and of its bidding where it has one, stepped together.

    ``game``, ``seats`` and ``options`` are as for a match (:func:`osteria.new_match`).
    ``outside`` are the seats whose actions come through :meth:`step` (the learner's; every seat
    for self-play); the others are played by ``opponents``: ``"random"`` (a uniform legal action)
    or ``"rule"`` (a rule-based player), one name for all or one per seat. ``reward`` is
    ``"points"`` (each seat's side's card points of the deal, poison where the game says so; in
    a game with a bidding, the seat's stake) or ``"margin"`` (that less the other sides' or
    seats' mean, turned round where points are poison: more is better).

    Actions are deck positions, and where the game has a bidding (:class:`osteria.trickplay.CallAuction`) two
    more: a pass (``cards``) and alone (``cards + 1``). A card means what the phase makes of it:
    the card called in the bidding, given for the called one in the exchange, laid aside (one at
    a time) in the discard, played in the card play. Signals are left out. A trump call
    (:class:`osteria.trickplay.TrumpCall`) has 44 words after the cards, named as the rules name
    them (``action_name``): per trump suit a call of each re (each cavallo, for the holder of the
    four re), then alone per trump, the call of volunteers per trump, then a pass, help, tutità
    and stop.

    Arrays, one row per deal, all written in place (read them, copy what must outlive a step):
    ``observation`` (N, ``observation_size``) float32 (``layout`` lists its blocks) and
    ``legal_mask`` (N, ``actions``) bool for the seat to move, ``to_move``, ``leader`` (N,),
    ``hands``, ``played`` (N, seats) int64 bitmasks (bit c: the card at deck position c),
    ``trick`` (N, seats) (each seat's card on the trick, -1 for none), ``taken`` (N, sides) in the
    game's units (thirds in the Tressette family), ``trump`` (N,) (the suit, -1 for none),
    ``dealer`` (N,) (-1 where none was drawn: every card dealt and one of them leading, the
    dealer changes nothing), ``rest`` and ``shown`` (N,) bitmasks of the cards set aside (those
    the caller laid aside, once he took them) and of those of them every seat sees, ``widow``
    (N,) the cards set aside as dealt, ``turned`` (N,) the card that turned the trump (-1 for
    none); with a bidding ``phase`` (N,) (an index of
    ``PHASE_NAMES``), ``contract`` (0 none yet, 1 a called card, 2 alone), ``caller``, ``called``,
    ``holder`` (who was dealt the called card) and ``ceded`` (the card given for it), -1 for
    none (in a trump call ``holder`` is the caller's partner, called or volunteered, and ``trump``
    is -1 until the call); ``rewards`` (N, seats) float32 (nonzero only in the step a deal ended),
    ``terminated`` and ``illegal`` (N,) bool, and the deals that ended in the last step:
    ``finished_hands`` (N, seats) as dealt, ``finished_dealer``, ``finished_rest`` (as dealt),
    ``finished_turned`` and ``finished_history`` (N, a deal's most actions), their actions in
    order and -1 after the last (all -1 for a deal that an illegal action ended).
    """

    def __init__(self, game: str, num_deals: int, *, seats: int | None = None, options: dict[str, JSON] | None = None,
                 outside: Sequence[int] = (0,), opponents: str | Sequence[str | None] = "random",
                 reward: str = "points", illegal_reward: float = -10.0, seed: int | None = None) -> None:
        play = trick_play_of(game, seats, options)
        n = play.seats
        if not isinstance(num_deals, int) or isinstance(num_deals, bool) or num_deals < 1:
            raise RulesError(f"num_deals must be a positive whole number, not {num_deals!r}")
        if not outside or any(not isinstance(s, int) or not 0 <= s < n for s in outside):
            raise RulesError(f"outside: one or more seats from 0 to {n - 1}, not {list(outside)!r}")
        if reward not in REWARDS:
            raise RulesError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        self.game = game
        self.trick_play = play
        self.seats = n
        self.cards = play.cards
        self.actions = action_count(play)
        self.deck = play.deck
        self.layout = observation_layout(play)
        _, offset, shape, _ = self.layout[-1]
        self.observation_size = offset + int(np.prod(shape))
        self.num_deals = num_deals
        self.outside = tuple(sorted(set(outside)))
        self.policies = _policies(opponents, self.outside, n)
        self.margin = reward == "margin"
        self.illegal_reward = float(illegal_reward)
        self.tables = _tables(play, self.margin)
        self.tab = _row_of(self.tables)
        deal_actions = history_size(play)
        self.state = np.zeros((num_deals, COLUMNS), dtype=np.int64)
        self.rng = np.zeros(num_deals, dtype=np.uint64)
        self._deck = np.empty(self.cards, dtype=np.int64)  # where a deal is shuffled
        self.history = np.full((num_deals, deal_actions), -1, dtype=np.int64)
        self.finished = np.zeros((num_deals, n + 3), dtype=np.int64)
        self.finished_history = np.full((num_deals, deal_actions), -1, dtype=np.int64)
        self.rewards = np.zeros((num_deals, n), dtype=np.float32)
        self.terminated = np.zeros(num_deals, dtype=np.bool_)
        self.illegal = np.zeros(num_deals, dtype=np.bool_)
        self.observation = np.zeros((num_deals, self.observation_size), dtype=np.float32)
        self.legal_mask = np.zeros((num_deals, self.actions), dtype=np.bool_)
        # Views of the state matrix: reading them copies nothing.
        self.hands = self.state[:, HANDS:HANDS + n]
        self.played = self.state[:, PLAYED:PLAYED + n]
        self.trick = self.state[:, TRICK:TRICK + n]
        self.leader = self.state[:, LEADER]
        self.to_move = self.state[:, TO_MOVE]
        self.taken = self.state[:, TAKEN:TAKEN + play.side_count]
        self.dealer = self.state[:, DEALER]
        self.shown = self.state[:, SHOWN]
        self.rest = self.state[:, REST]
        self.turned = self.state[:, TURNED]
        self.widow = self.state[:, WIDOW]
        self.phase = self.state[:, PHASE]
        self.contract = self.state[:, CONTRACT]
        self.caller = self.state[:, CALLER]
        self.called = self.state[:, CALLED]
        self.holder = self.state[:, HOLDER]
        self.ceded = self.state[:, CEDED]
        self.finished_hands = self.finished[:, :n]
        self.finished_dealer = self.finished[:, n]
        self.finished_rest = self.finished[:, n + 1]
        self.finished_turned = self.finished[:, n + 2]
        self.reset(seed)

    @property
    def trump(self) -> np.ndarray:
        """Each deal's trump suit, -1 for none (or none called yet) (a new array)."""
        variant = self.state[:, VARIANT]
        trumps: np.ndarray = np.where(variant < 0, -1, self.tables[G_TRUMPS + np.maximum(variant, 0)])
        return trumps

    def reset(self, seed: int | None = None) -> None:
        """Deal every row anew; each deal's generator comes from ``seed`` (None: the system's)."""
        states = np.random.SeedSequence(seed).generate_state(self.num_deals, dtype=np.uint64)
        self.rng[:] = states
        self.rewards[:] = 0.0
        self.terminated[:] = False
        self.illegal[:] = False
        _reset(self.tab, self.state, self.rng, self.history, self.finished, self.finished_history,
               self.rewards, self.terminated, self.policies, self.observation, self.legal_mask, self._deck)

    def step(self, actions: np.ndarray, *, strict: bool = False) -> int:
        """Each deal's seat to move takes ``actions[i]`` (a deck position, or a bid), then the
        built-in policies play; the actions taken in all. An action outside the mask ends its
        deal with ``illegal_reward`` and ``illegal[i]``; with ``strict``, nothing is played and a
        ``ValueError`` says which deal, which action and what was legal."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_deals,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions: one whole number per deal, shape ({self.num_deals},), "
                             f"not {actions.dtype} of shape {actions.shape}")
        actions = actions.astype(np.int64, copy=False)
        if strict:
            i = _first_illegal(self.tab, self.state, actions)
            if i >= 0:
                raise ValueError(self.illegal_message(i, int(actions[i])))
        played: int = _step(self.tab, self.state, self.rng, self.history, self.finished,
                            self.finished_history, self.rewards, self.terminated, self.illegal, self.policies,
                            self.illegal_reward, actions, self.observation, self.legal_mask, self._deck)
        return played

    def observe(self) -> None:
        """Write the observations and masks anew from the state (after changing it by hand)."""
        _observe_all(self.tab, self.state, self.observation, self.legal_mask)

    def illegal_message(self, i: int, action: int) -> str:
        seat = int(self.to_move[i])
        legal = " ".join(self.action_name(int(a)) for a in np.flatnonzero(self.legal_mask[i]))
        chosen = (self.action_name(action) if 0 <= action < self.actions
                  else f"{action} (not an action: 0 to {self.actions - 1})")
        return f"deal {i}: seat {seat} may not {PHASE_VERBS[self.phase[i]]} {chosen}; legal: {legal}"

    def action_name(self, action: int) -> str:
        """An action's name: a card's notation, or the bidding's word for a pass and for alone; in a
        trump call, its words with the trump suit's letter and the partner card, as the rules name
        them (``chiamu d Rc``, ``sulita b``, ``passu``)."""
        if action < self.cards:
            return self.card_name(action)
        auction = self.trick_play.auction
        assert auction is not None, "only a bidding has actions beyond the cards"
        w = action - self.cards
        if isinstance(auction, CallAuction):
            return auction.words[w]
        call, alone, *answers = auction.words
        if w < W_ALONE:
            return f"{call} {SUITS[w // 8]} {self.card_name((auction.partner_cards + auction.instead)[w % 8])}"
        if w < W_OPEN:
            return f"{alone} {SUITS[w - W_ALONE]}"
        if w < W_PASS:
            return f"{call} {SUITS[w - W_OPEN]}"
        return answers[w - W_PASS]

    def playout(self, actions: int) -> None:
        """``actions`` actions of every deal taken by built-in policies only, the outside seats
        included (they play at random): the engine's speed with no caller in the loop."""
        every_seat = np.where(self.policies == OUTSIDE, RANDOM, self.policies)
        _playout(self.tab, self.state, self.rng, self.history, self.finished, self.finished_history,
                 self.rewards, self.terminated, every_seat, self.policies, actions, self.observation,
                 self.legal_mask, self._deck)

    def card_name(self, position: int) -> str:
        """The osteria/1 notation of the card at a deck position: ``card_name(0)`` is ``Ad``."""
        return CARD_STRINGS[self.deck[int(position)]]

    def cards_of(self, cards: int) -> list[int]:
        """The rules' cards of a bitmask over deck positions (a hand, a trick's card as ``1 << c``)."""
        return [self.deck[p] for p in range(self.cards) if int(cards) >> p & 1]


class BatchedTressette(BatchedGame):
    """N deals of Tressette's card play (:class:`BatchedGame` for ``"tressette"``): 40 cards, the
    four of denari leading, points in thirds (``thirds``: the sides' thirds taken)."""

    def __init__(self, num_deals: int, **settings: Any) -> None:
        super().__init__("tressette", num_deals, **settings)
        self.thirds = self.taken


def _policies(opponents: str | Sequence[str | None], outside: Sequence[int], seats: int) -> np.ndarray:
    """Each seat's player: outside for the seats in ``outside``, else its policy by name (one
    for all, or one per seat)."""
    names = [opponents] * seats if isinstance(opponents, str) else list(opponents)
    if len(names) != seats:
        raise RulesError(f"opponents: one policy name or one per seat ({seats}), not {len(names)}")
    policies = np.zeros(seats, dtype=np.int64)
    for seat, name in enumerate(names):
        if seat in outside:
            continue
        if name not in POLICIES:
            raise RulesError(f"opponents: seat {seat} has {name!r}, not one of {', '.join(POLICIES)}")
        policies[seat] = POLICIES[name]
    return policies
