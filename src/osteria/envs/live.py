"""The encoding of a match in progress, read straight from the engine's state and kept in step
with it: what the environments hand out at every step.

:meth:`osteria.envs.encoding.Encoding.observe` encodes a seat's JSON observation, which the
engine builds afresh (its whole history as strings) at each call. :class:`LiveEncoding` gives
the same vector, bit for bit, at a fraction of the cost: each seat's history-made blocks
(cards played, signals, accusi, words said) take each action once, as the seat sees it, and
the rest is written from the deal's current state. What a seat may see is the rules module's
to say, and the fillers ask it the questions its own ``observation`` asks: each action as the
seat saw it (``Deal.seen_action``), and a game's own conditions (Calabresella's secret partner,
widow and discards, Quattrigghiu's aiuto and forgotten basi). A test compares both encodings at
every step of random matches of every game.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias

import numpy as np

from osteria.cards import cards_of
from osteria.engine import side_of
from osteria.envs import encoding as enc_module
from osteria.envs.encoding import Encoding, Vector
from osteria.rules import quattrigghiu

Deal = Any  # each game's own deal class: the live fillers read its attributes


class Table(Protocol):
    """What the live encoding reads of a match: its deal on view, the seat to move (None once
    the deal or the match is over) and the totals."""

    @property
    def deal(self) -> Deal | None: ...

    @property
    def to_move(self) -> int | None: ...

    def totals(self) -> list[int]: ...


# The most history entries kept a seat (their places in its vector): a game's listed actions
# by its actors are some thousands.
KEPT_ENTRIES = 1 << 15

# A vector being written: float32 items set one by one, several times cheaper than numpy's
# (a seat's state is a few dozen of them), handed out as a numpy array on the same memory.
Planes: TypeAlias = "array[float]"


class SeatPlanes:
    """What is kept of one seat's vector for the deal in progress: the blocks written once a
    deal and those its history makes so far."""

    def __init__(self, deal: Deal, planes: Planes, rel: list[int], sizes: list[float], places: Places) -> None:
        self.deal = deal
        self.planes = planes
        self.view: Vector = np.frombuffer(planes, np.float32)  # the same, for numpy's indexing
        self.rel = rel  # each seat counted from this one
        self.sizes = sizes  # the hand_sizes value of each number of cards
        self.places = places
        self.seen = 0  # history entries taken so far
        self.flags: set[str] = set()  # what a game's filler has noted once (a forgetting done)


class Places:
    """Where the common blocks of one seat's vector put each card and each seat, worked out once:
    a vector is a few dozen of them, each a sum and two lookups less."""

    def __init__(self, e: Encoding, me: int) -> None:
        n, d, o, at = e.seats, e.deck_size, e.offsets, e.deck_position
        cards = range(len(at))
        self.hand = [o["hand"] + at[c] for c in cards]
        # By the absolute seat, as the deal names them.
        self.trick = [[o["trick"] + (seat - me) % n * d + at[c] for c in cards] for seat in range(n)]
        self.trick_leader, self.hand_sizes, self.to_move, self.last_trick_winner = (
            [o[name] + (seat - me) % n for seat in range(n)]
            for name in ("trick_leader", "hand_sizes", "to_move", "last_trick_winner"))
        self.tricks_played = o["tricks_played"]


# The blocks a history entry, as the seat saw it, sets; the blocks of the deal's current state,
# written into a copy of the kept planes; the blocks written once a deal (dealer, options).
Seen = Callable[[Encoding, Vector, int, int, str], None]
State = Callable[[Encoding, Planes, Table, Deal, int, SeatPlanes], None]


@dataclass(frozen=True)
class LiveSpec:
    seen: Seen
    state: State
    constant: Callable[[Encoding, Vector, Deal, int], None]
    # What a game changes in a seat's kept planes or notes in its flags before each vector
    # (blocks the seat stops remembering).
    update: Callable[[Encoding, Vector, Deal, int, SeatPlanes], None] | None = None


class LiveEncoding:
    """Every seat's vector of one match, as ``Encoding.observe(match.observation(seat))``."""

    def __init__(self, encoding: Encoding, match: Table | None = None, room: int = 0) -> None:
        self.encoding = encoding
        self.room = room  # zeros after the encoding's vector, for what a caller adds to it
        self._spec = LIVE_SPECS[encoding.game]
        n = encoding.seats
        self._rel = [[(seat - me) % n for seat in range(n)] for me in range(n)]
        self._sizes = [min(k / encoding.max_hand, 2.0) for k in range(len(encoding.deck_position) + 1)]
        self._places = [Places(encoding, seat) for seat in range(n)]
        self.follow(match)
        # What a history entry sets depends only on the text the seat saw and on who acted,
        # counted from the seat: the places it sets are kept by those two.
        self._marks: dict[tuple[int, str], list[int]] = {}
        # And what a seat sees of an action depends only on the seat, the actor and the action
        # (``Deal.seen_action``): each seat's places are kept by actor and action as well.
        self._seen: list[dict[tuple[int, int], list[int]]] = [{} for _ in range(n)]

    def follow(self, match: Table | None) -> None:
        """Encode another match from now on (the places history entries set are kept)."""
        self.match = match
        self._seats: list[SeatPlanes | None] = [None] * self.encoding.seats

    def _seen_marks(self, deal: Deal, seat: int, entry: tuple[int, int]) -> list[int]:
        """The places a history entry sets in the seat's vector (none where the seat saw nothing
        of it), kept for the next time; a full keep is emptied first (Calabresella's scarti are
        91,390 actions)."""
        actor, action = entry
        words = deal.seen_action(seat, actor, action)
        found: list[int] = []
        if words is not None:
            key = ((actor - seat) % self.encoding.seats, words)
            marks = self._marks.get(key)
            found = self._marks[key] = self._marks_of(*key) if marks is None else marks
        seen = self._seen[seat]
        if len(seen) >= KEPT_ENTRIES:
            seen.clear()
        seen[entry] = found
        return found

    def _marks_of(self, actor: int, text: str) -> list[int]:
        """The places an entry of the history sets, for the seat 0 and an actor counted from it."""
        scratch = np.zeros(self.encoding.observation_size, np.float32)
        enc_module.common_seen(self.encoding, scratch, 0, actor, text)
        self._spec.seen(self.encoding, scratch, 0, actor, text)
        assert set(scratch[scratch != 0]) <= {1.0}, "a history entry sets flags only"
        return [int(i) for i in np.flatnonzero(scratch)]

    def vector(self, seat: int) -> Vector:
        """The seat's vector now (with :attr:`room` zeros after it): a new array, which the
        caller may keep or change."""
        e, spec, match = self.encoding, self._spec, self.match
        assert match is not None, "follow() a match first"
        deal = match.deal
        assert deal is not None, "no deal dealt yet"
        kept = self._seats[seat]
        if kept is None or kept.deal is not deal:
            kept = SeatPlanes(deal, array("f", bytes(4 * (e.observation_size + self.room))), self._rel[seat],
                              self._sizes, self._places[seat])
            self._seats[seat] = kept
            spec.constant(e, kept.view, deal, seat)
            _totals(e, kept.planes, match, kept)  # the totals change only as a deal ends
        history = deal.history
        if kept.seen < len(history):
            seen, planes = self._seen[seat], kept.planes
            for entry in history[kept.seen:]:
                found = seen.get(entry)
                if found is None:
                    found = self._seen_marks(deal, seat, entry)
                for i in found:
                    planes[i] = 1.0
            kept.seen = len(history)
        if spec.update is not None:
            spec.update(e, kept.view, deal, seat, kept)
        v = kept.planes[:]
        spec.state(e, v, match, deal, seat, kept)
        return np.frombuffer(v, np.float32)


# -- what every trick game's state shows -------------------------------------------------------

def _totals(e: Encoding, v: Planes, match: Table, kept: SeatPlanes) -> None:
    base, scale, rel = e.offsets["totals"], e.total_scale, kept.rel
    for seat, total in enumerate(match.totals()):
        v[base + rel[seat]] = min(max(total / scale, -10.0), 10.0)


def _common_state(e: Encoding, v: Planes, match: Table, kept: SeatPlanes, deal: Deal, me: int,
                  last_winner: int | None, tricks: int) -> None:
    """The common blocks but ``played`` and ``dealer``: the seat's hand, the trick and who led
    it, the hand sizes, the seat to move, the last trick's winner, tricks played, and the
    totals once the deal is over (the kept planes have them until then). The seat to move is
    the deal's: a match is over only once a deal is, when no seat is to move."""
    places, hands, leader = kept.places, deal.hands, deal.leader
    at = places.hand
    for c in cards_of(hands[me]):
        v[at[c]] = 1.0
    if leader is not None:
        n, rows = e.seats, places.trick
        for i, c in enumerate(deal.trick):
            v[rows[(leader + i) % n][c]] = 1.0
        v[places.trick_leader[leader]] = 1.0
    at, sizes = places.hand_sizes, kept.sizes
    for seat, h in enumerate(hands):
        v[at[seat]] = sizes[h.bit_count()]
    to_move = deal.to_move
    if to_move is not None:
        v[places.to_move[to_move]] = 1.0
    else:
        _totals(e, v, match, kept)
    if last_winner is not None:
        v[places.last_trick_winner[last_winner]] = 1.0
    v[places.tricks_played] = min(tricks / e.max_tricks, 1.0)


def _dealer(e: Encoding, v: Vector, deal: Deal, me: int) -> None:
    v[e.offsets["dealer"] + (deal.dealer - me) % e.seats] = 1


def _winner(last_trick: tuple[int, tuple[int, ...], int] | None) -> int | None:
    return None if last_trick is None else last_trick[2]


def _nothing_seen(e: Encoding, v: Vector, me: int, actor: int, text: str) -> None:
    """A game whose history makes no block of its own (the common ``played`` aside)."""


# Tressette ---------------------------------------------------------------------------------------

def _tressette_seen(e: Encoding, v: Vector, me: int, actor: int, text: str) -> None:
    if text.startswith("accuso"):
        enc_module.tressette_accuso(e, v, me, actor, text)
    else:
        enc_module.tressette_signal(e, v, me, actor, text)


def _tressette_constant(e: Encoding, v: Vector, deal: Deal, me: int) -> None:
    _dealer(e, v, deal, me)
    enc_module.tressette_options(e, v, me)


def _tressette_state(e: Encoding, v: Planes, match: Table, deal: Deal, me: int,
                  kept: SeatPlanes) -> None:
    n, d, o, at = e.seats, e.deck_size, e.offsets, e.deck_position
    _common_state(e, v, match, kept, deal, me, _winner(deal.last_trick), deal.tricks_done)
    for seat in deal.morto:
        if seat != me:
            row = o["open_hands"] + ((seat - me) % n - 1) * d
            for c in cards_of(deal.hands[seat]):
                v[row + at[c]] = 1.0
    side = side_of(me)
    v[o["side_points"]] = min(deal.thirds[side] / 3 / 11, 2.0)
    v[o["side_points"] + 1] = min(deal.thirds[1 - side] / 3 / 11, 2.0)


# Traversone -------------------------------------------------------------------------------------

def _traversone_constant(e: Encoding, v: Vector, deal: Deal, me: int) -> None:
    _dealer(e, v, deal, me)
    enc_module.traversone_options(e, v)


def _traversone_state(e: Encoding, v: Planes, match: Table, deal: Deal, me: int,
                      kept: SeatPlanes) -> None:
    n, o = e.seats, e.offsets
    _common_state(e, v, match, kept, deal, me, _winner(deal.last_trick), deal.tricks_done)
    base = o["thirds"]
    for seat, thirds in enumerate(deal.taken):
        v[base + (seat - me) % n] = min(thirds / 36, 3.0)
    v[o["leftover"]] = min(deal.set_aside.bit_count() / 4, 1.0)


# Sancagna ---------------------------------------------------------------------------------------

def _sancagna_seen(e: Encoding, v: Vector, me: int, actor: int, text: str) -> None:
    if text.startswith("cenno "):
        enc_module.sancagna_cenno(e, v, me, actor, text[len("cenno "):])


def _sancagna_constant(e: Encoding, v: Vector, deal: Deal, me: int) -> None:
    o, at = e.offsets, e.deck_position
    _dealer(e, v, deal, me)
    v[o["trump"] + deal.trump] = 1
    v[o["turned"] + at[deal.turned]] = 1
    v[o["bottom"] + at[deal.bottom]] = 1
    enc_module.sancagna_options(e, v)


def _thirds_summed(count: int) -> float:
    """A third added ``count`` times in float32, as the observation's encoding sums a seat's revokes."""
    total = np.float32(0)
    for _ in range(count):
        total += np.float32(1 / 3)
    return float(total)


def _sancagna_state(e: Encoding, v: Planes, match: Table, deal: Deal, me: int,
                    kept: SeatPlanes) -> None:
    n, o = e.seats, e.offsets
    _common_state(e, v, match, kept, deal, me, _winner(deal.last_trick), deal.tricks_done)
    if deal.caller is not None:
        v[o["calling"] + (deal.caller - me) % n] = 1.0
    found = [seat for seat, _ in deal.found]
    for seat in set(found):
        v[o["revokes"] + (seat - me) % n] = min(_thirds_summed(found.count(seat)), 2.0)
    if not deal.a_mente:
        side = side_of(me)
        for name, pair, scale, (low, high) in (("points", deal.points, 72, (0.0, 1.0)),
                                               ("tally", deal.tally, 42, (-2.0, 4.0))):
            v[o[name]] = min(max(pair[side] / scale, low), high)
            v[o[name] + 1] = min(max(pair[1 - side] / scale, low), high)


# Quattrigghiu -----------------------------------------------------------------------------------

def _quattrigghiu_seen(e: Encoding, v: Vector, me: int, actor: int, text: str) -> None:
    enc_module.quattrigghiu_word(e, v, me, actor, text)


def _quattrigghiu_constant(e: Encoding, v: Vector, deal: Deal, me: int) -> None:
    _dealer(e, v, deal, me)
    enc_module.quattrigghiu_options(e, v)


def _quattrigghiu_forget(e: Encoding, v: Vector, deal: Deal, me: int, kept: SeatPlanes) -> None:
    forgotten = quattrigghiu.forgotten_basi(len(deal.tricks))
    if forgotten and "forgotten" not in kept.flags:
        n, d, base, at = e.seats, e.deck_size, e.offsets["played"], e.deck_position
        v[[base + (leader + i - me) % n * d + at[c]
           for leader, cards, _ in deal.tricks[:forgotten] for i, c in enumerate(cards)]] = 0
        kept.flags.add("forgotten")


def _quattrigghiu_state(e: Encoding, v: Planes, match: Table, deal: Deal, me: int,
                        kept: SeatPlanes) -> None:
    n, o, at = e.seats, e.offsets, e.deck_position
    tricks = deal.tricks
    shown = tricks[quattrigghiu.forgotten_basi(len(tricks)):]
    _common_state(e, v, match, kept, deal, me, shown[-1][2] if shown else None, len(tricks))
    v[o["phase"] + enc_module.QUATTRIGGHIU_PHASES.index(deal.phase)] = 1.0
    if deal.caller >= 0:
        v[o["caller"] + (deal.caller - me) % n] = 1.0
        v[o["trump"] + deal.trump] = 1.0
    if deal.called >= 0:
        v[o["called_card"] + at[deal.called]] = 1.0
    if deal.aiuto_known_to(me):
        v[o["aiuto"] + (deal.aiuto - me) % n] = 1.0
    base = o["basi"]
    for seat, basi in enumerate(deal.basi):
        v[base + (seat - me) % n] = min(basi / 10, 1.0)
    v[o["tutita"]] = float(deal.attempt >= 0)


# Calabresella -----------------------------------------------------------------------------------

def _calabresella_seen(e: Encoding, v: Vector, me: int, actor: int, text: str) -> None:
    enc_module.calabresella_entry(e, v, me, actor, text)


def _calabresella_state(e: Encoding, v: Planes, match: Table, deal: Deal, me: int,
                        kept: SeatPlanes) -> None:
    n, o, at = e.seats, e.offsets, e.deck_position
    _common_state(e, v, match, kept, deal, me, _winner(deal.last_trick), deal.tricks_done)
    v[o["phase"] + enc_module.CALABRESELLA_PHASES.index(deal.phase)] = 1.0
    if deal.contract is not None:
        v[o["contract"] + ("chiamata", "sola").index(deal.contract)] = 1.0
    if deal.caller is not None:
        v[o["caller"] + (deal.caller - me) % n] = 1.0
    if deal.partner_known_to(me):
        v[o["partner"] + (deal.partner - me) % n] = 1.0
    if deal.called is not None:
        v[o["called"] + at[deal.called]] = 1.0
    if deal.holder_shown():  # n: the widow
        v[o["called_holder"] + (n if deal.holder is None else (deal.holder - me) % n)] = 1.0
    if deal.ceded is not None:
        v[o["ceded"] + at[deal.ceded]] = 1.0
    if deal.widow_seen_by(me):
        for c in cards_of(deal.widow):
            v[o["widow"] + at[c]] = 1.0
    if deal.discards_seen_by(me):
        for c in cards_of(deal.set_aside):
            v[o["discards"] + at[c]] = 1.0
    base = o["thirds"]
    for seat, thirds in enumerate(deal.taken):
        v[base + (seat - me) % n] = min(thirds / 36, 2.0)


LIVE_SPECS: dict[str, LiveSpec] = {
    "tressette": LiveSpec(_tressette_seen, _tressette_state, _tressette_constant),
    "traversone": LiveSpec(_nothing_seen, _traversone_state, _traversone_constant),
    "sancagna": LiveSpec(_sancagna_seen, _sancagna_state, _sancagna_constant),
    "quattrigghiu": LiveSpec(_quattrigghiu_seen, _quattrigghiu_state, _quattrigghiu_constant, _quattrigghiu_forget),
    "calabresella": LiveSpec(_calabresella_seen, _calabresella_state, _dealer),
}
