"""A fixed-size encoding of every game, for learning: observations as float32 vectors, actions
as indices of a fixed action space.

One :class:`Encoding` serves one game, number of seats and set of options. It reads only a
seat's observation (``Match.observation(seat)``, plain JSON), so a tensor can carry no more
than the seat may know; :mod:`osteria.envs.live` writes the same vectors from the engine's
state for the environments, a test holding the two equal. Seats are encoded relative to
the observing seat: position ``k`` of a per-seat block is the seat ``k`` places after it in
playing order (0: itself). Cards are indexed in the deck's canonical order (suits d c s b,
ranks A to R; 40 or 52 cards).

The action space lists every action word of the game in the order of the rules module's own
action numbering; Calabresella's discards at three ("scarto" and four cards, one of
C(40, 4) = 91,390) follow, numbered by the combinatorial number system over the deck.
``docs/research.md`` lists each game's blocks; :meth:`Encoding.layout` gives them in code.
The environments spell actions a word a step over :attr:`Encoding.parts` by default
(:mod:`osteria.envs.actions`); this flat space is their ``actions="whole"`` and the datasets'.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from math import comb, prod
from typing import Any

import numpy as np
import numpy.typing as npt

from osteria.cards import CARD_STRINGS, SUITS, mask_of
from osteria.engine import JSON, Game, RulesError, side_of
from osteria.rules import GAMES, calabresella, quattrigghiu, sancagna, tressette

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


@dataclass(frozen=True)
class Block:
    """A named part of the observation vector."""

    name: str
    shape: tuple[int, ...]
    meaning: str
    # The range of its values: 0/1 for a flag; a scaled count or score is clipped to its range.
    bounds: tuple[float, float] = (0.0, 1.0)

    @property
    def size(self) -> int:
        return prod(self.shape)


class Encoding:
    """The encoding of one game with its seats and options (build it with :func:`encoding`)."""

    def __init__(self, rules: Game) -> None:
        self.rules = rules
        self.game: str = rules.name
        self.seats: int = rules.seats
        self.deck_size = len(rules.deck)
        self.card_index = {CARD_STRINGS[c]: i for i, c in enumerate(rules.deck.cards)}
        # The deck index of each card number (-1: not in this deck).
        self.deck_position: list[int] = [-1] * len(CARD_STRINGS)
        for i, c in enumerate(rules.deck.cards):
            self.deck_position[c] = i
        self.max_hand = max(rules.hand_sizes())
        self.max_tricks = self.max_hand
        self.total_scale = float(_TOTAL_SCALE[self.game](rules))
        spec = _GAME_SPECS[self.game]
        self.blocks: tuple[Block, ...] = (*self._common_blocks(), *spec.blocks(self))
        self._fill_game = spec.fill
        self.offsets: dict[str, int] = {}
        start = 0
        for block in self.blocks:
            self.offsets[block.name] = start
            start += block.size
        self.observation_size: int = start
        self.words: list[str] = spec.words(rules)
        self._index = {word: i for i, word in enumerate(self.words)}
        self._discard_base = len(self.words)
        # A discard named as one action (Calabresella's scarto at three): one index per set of cards.
        self._discards = rules.discard_size()
        self.action_size: int = self._discard_base + (comb(self.deck_size, self._discards)
                                                      if self._discards else 0)
        # The words actions are made of: the cards in the deck's order, then the game's other
        # words (keywords, signals, bids, suits) in the order they first come in its actions.
        spelled = [word.split() for word in self._all_words()]
        others = dict.fromkeys(w for words in spelled for w in words if w not in self.card_index)
        self.parts: list[str] = [*self.card_index, *others]
        self.longest_action = max(len(words) for words in spelled)  # in words
        self.low: Vector = np.concatenate([np.full(b.size, b.bounds[0], np.float32) for b in self.blocks])
        self.high: Vector = np.concatenate([np.full(b.size, b.bounds[1], np.float32) for b in self.blocks])

    def __repr__(self) -> str:
        return (f"Encoding({self.game!r}, seats={self.seats}, observation_size={self.observation_size}, "
                f"action_size={self.action_size})")

    def _all_words(self) -> list[str]:
        """The game's action words, a discard of cards (named by its first index) included."""
        return [*self.words, *((self.action_word(self._discard_base),) if self._discards else ())]

    def layout(self) -> list[tuple[str, int, tuple[int, ...], str]]:
        """The blocks of the vector: name, offset, shape and meaning."""
        return [(b.name, self.offsets[b.name], b.shape, b.meaning) for b in self.blocks]

    # -- observations ----------------------------------------------------------------------------

    def observe(self, observation: Mapping[str, Any]) -> Vector:
        """The vector of a seat's observation (``Match.observation(seat)``, or of a finished
        deal ``Match.observation(seat, deal=i)``)."""
        vector = np.zeros(self.observation_size, np.float32)
        self._fill_common(vector, observation)
        self._fill_game(self, vector, observation)
        return np.clip(vector, self.low, self.high, out=vector)

    def relative(self, observation: Mapping[str, Any], seat: int) -> int:
        """The position of ``seat`` counted from the observing seat."""
        return (seat - int(observation["seat"])) % self.seats

    def card_word(self, word: str) -> int | None:
        """The deck index of a card's notation, None for any other word."""
        return self.card_index.get(word)

    def _common_blocks(self) -> list[Block]:
        n, d = self.seats, self.deck_size
        return [
            Block("hand", (d,), "the cards in the seat's hand"),
            Block("trick", (n, d), "the current trick: the card each seat has put on it"),
            Block("trick_leader", (n,), "who led the current trick"),
            Block("played", (n, d), "the cards each seat has been seen to play in this deal (as remembered)"),
            Block("hand_sizes", (n,), f"cards in each seat's hand, divided by {self.max_hand}", bounds=(0, 2)),
            Block("to_move", (n,), "the seat to move (none once the deal is over)"),
            Block("dealer", (n,), "the dealer"),
            Block("last_trick_winner", (n,), "who took the last trick"),
            Block("tricks_played", (1,), f"tricks played, divided by {self.max_tricks}", (0, 1)),
            Block("totals", (n,), f"each seat's match total so far, divided by "
                                  f"{self.total_scale:g} (clipped to ±10)", (-10, 10)),
        ]

    def _fill_common(self, v: Vector, obs: Mapping[str, Any]) -> None:
        n, d, o, cards = self.seats, self.deck_size, self.offsets, self.card_index
        me = int(obs["seat"])
        for word in obs["hand"]:
            v[o["hand"] + cards[word]] = 1
        for seat, word in obs["trick"]:
            v[o["trick"] + (seat - me) % n * d + cards[word]] = 1
        if obs.get("leader") is not None:
            v[o["trick_leader"] + (obs["leader"] - me) % n] = 1
        for seat, text in obs["history"]:
            common_seen(self, v, me, seat, text)
        for seat, size in enumerate(obs["hand_sizes"]):
            v[o["hand_sizes"] + (seat - me) % n] = size / self.max_hand
        if obs.get("to_move") is not None:
            v[o["to_move"] + (obs["to_move"] - me) % n] = 1
        v[o["dealer"] + (obs["dealer"] - me) % n] = 1
        if obs.get("last_trick"):
            v[o["last_trick_winner"] + (obs["last_trick"]["winner"] - me) % n] = 1
        v[o["tricks_played"]] = obs["tricks_played"] / self.max_tricks
        for seat, total in enumerate(obs.get("totals") or ()):
            v[o["totals"] + (seat - me) % n] = total / self.total_scale

    # -- actions ---------------------------------------------------------------------------------

    def action_index(self, action: str) -> int:
        """The fixed index of an action word; ValueError for a word that is no action of the game."""
        index = self._index.get(action)
        if index is not None:
            return index
        if self._discards and action.startswith("scarto "):
            positions = sorted(self.card_index.get(w, -1) for w in action.split()[1:])
            if len(positions) == self._discards and positions[0] >= 0 and len(set(positions)) == len(positions):
                return self._discard_base + sum(comb(p, k + 1) for k, p in enumerate(positions))
        raise ValueError(f"{action!r} is not an action of {self.game} at {self.seats}")

    def action_word(self, index: int) -> str:
        """The action word of an index; ValueError outside the action space."""
        if not 0 <= index < self.action_size:
            raise ValueError(f"action index {index} is outside {self.game}'s action space 0..{self.action_size - 1}")
        if index < self._discard_base:
            return self.words[index]
        # The combinatorial number system: the largest position first.
        rest, positions = index - self._discard_base, []
        for k in range(self._discards, 0, -1):
            p = k - 1
            while comb(p + 1, k) <= rest:
                p += 1
            positions.append(p)
            rest -= comb(p, k)
        deck = self.rules.deck.cards
        return calabresella.scarto_str(mask_of(deck[p] for p in positions))

    def mask(self, legal_actions: Sequence[str]) -> Mask:
        """1 at the index of each legal action, 0 elsewhere."""
        mask = np.zeros(self.action_size, np.int8)
        for action in legal_actions:
            mask[self.action_index(action)] = 1
        return mask


def encoding(game: str, seats: int | None = None, **options: JSON) -> Encoding:
    """The encoding of a game, for a number of seats (the game's usual one by default) and
    options; RulesError for an unknown game, seat count or option."""
    if game not in GAMES:
        raise RulesError(f"unknown game {game!r}; games: {', '.join(GAMES)}")
    return Encoding(GAMES[game](seats, **options))


def common_seen(e: Encoding, v: Vector, me: int, seat: int, text: str) -> None:
    """What an entry of the seat's history adds to the common blocks: the card played."""
    c = e.card_index.get(text.split(" ", 1)[0])
    if c is not None:
        v[e.offsets["played"] + (seat - me) % e.seats * e.deck_size + c] = 1


# -- the games ----------------------------------------------------------------------------------------

Filler = Callable[[Encoding, Vector, Mapping[str, Any]], None]


@dataclass(frozen=True)
class GameSpec:
    blocks: Callable[[Encoding], list[Block]]
    fill: Filler
    words: Callable[[Game], list[str]]


def _one_hot(v: Vector, offset: int, choices: Sequence[JSON], value: JSON) -> None:
    if value in choices:
        v[offset + list(choices).index(value)] = 1


def _words_of(strings: Mapping[int, str]) -> list[str]:
    """A rules module's action words in the order of its action numbers."""
    return [strings[a] for a in sorted(strings)]


# Tressette ---------------------------------------------------------------------------------------

_TRESSETTE_SIGNALS = tressette.SIGNALS[1:]
_ACCUSO_INDEX = {a.text: i for i, a in enumerate(tressette.ACCUSI)}
_HIDDEN_TRIS = "A23"  # "accuso tris X": a three of a kind whose missing suit was not shown
_SEGNI = ("nord", "sud", "muto")


def _tressette_blocks(e: Encoding) -> list[Block]:
    n, d = e.seats, e.deck_size
    return [
        Block("open_hands", (n - 1, d), "the hands of the other seats that lie face up (a dummy's)"),
        Block("side_points", (2,), "card points taken so far (thirds / 3): the seat's side, the other; "
                                   "divided by 11", (0, 2)),
        Block("signals", (n, 4, len(_TRESSETTE_SIGNALS)),
              "each seat's lead signals by suit: " + " ".join(_TRESSETTE_SIGNALS)),
        Block("accusi", (n, len(tressette.ACCUSI) + len(_HIDDEN_TRIS)),
              "each seat's accusi, in the rules' order, then a tris of A, 2 or 3 whose faliante was hidden"),
        Block("segni", (3,), "the option segni: nord, sud, muto"),
        Block("faliante", (1,), "the option faliante"),
        Block("morto", (n,), "the dummy seats"),
    ]


def _tressette_fill(e: Encoding, v: Vector, obs: Mapping[str, Any]) -> None:
    n, d, o, me = e.seats, e.deck_size, e.offsets, int(obs["seat"])
    for seat, hand in enumerate(obs["hands"]):
        if hand is not None and seat != me:
            row = o["open_hands"] + ((seat - me) % n - 1) * d
            for word in hand:
                v[row + e.card_index[word]] = 1
    side = side_of(me)
    v[o["side_points"]] = obs["thirds"][side] / 3 / 11
    v[o["side_points"] + 1] = obs["thirds"][1 - side] / 3 / 11
    for seat, text in obs["history"]:
        tressette_signal(e, v, me, seat, text)
    for seat, text in obs["accusi"]:
        tressette_accuso(e, v, me, seat, text)
    tressette_options(e, v, me)


def tressette_signal(e: Encoding, v: Vector, me: int, seat: int, text: str) -> None:
    """A history entry's lead signal, if it has one."""
    words = text.split()
    if len(words) == 2 and words[1] in tressette.SIGNAL_INDEX and words[0] in e.card_index:
        suit = SUITS.index(words[0][1])
        v[e.offsets["signals"] + ((seat - me) % e.seats * 4 + suit) * len(_TRESSETTE_SIGNALS)
          + tressette.SIGNAL_INDEX[words[1]] - 1] = 1


def tressette_accuso(e: Encoding, v: Vector, me: int, seat: int, text: str) -> None:
    """An accuso as the seat saw it."""
    k = _ACCUSO_INDEX.get(text)
    if k is None:  # "accuso tris X"
        k = len(tressette.ACCUSI) + _HIDDEN_TRIS.index(text[-1])
    v[e.offsets["accusi"] + (seat - me) % e.seats * (len(tressette.ACCUSI) + len(_HIDDEN_TRIS)) + k] = 1


def tressette_options(e: Encoding, v: Vector, me: int) -> None:
    o = e.offsets
    _one_hot(v, o["segni"], _SEGNI, e.rules.options["segni"])
    v[o["faliante"]] = e.rules.options["faliante"]
    for seat in e.rules.options["morto"]:
        v[o["morto"] + (seat - me) % e.seats] = 1


# Calabresella -----------------------------------------------------------------------------------

CALABRESELLA_PHASES = ("bidding", "cedo", "scarto", "play", "over")
_CALABRESELLA_SIGNALS = ("busso", "striscio")


def _calabresella_blocks(e: Encoding) -> list[Block]:
    n, d = e.seats, e.deck_size
    return [
        Block("phase", (5,), "the phase: " + ", ".join(CALABRESELLA_PHASES)),
        Block("contract", (2,), "the contract: chiamata, sola"),
        Block("caller", (n,), "the caller"),
        Block("called", (d,), "the called card"),
        Block("called_holder", (n + 1,), "who was dealt the called card, where public: a seat, or the widow"),
        Block("partner", (n,), "the caller's secret partner at five, once the seat knows him"),
        Block("ceded", (d,), "the card the caller gave for the called one"),
        Block("widow", (d,), "the widow, for the caller who took it"),
        Block("discards", (d,), "the caller's own discards"),
        Block("passed", (n,), "the seats that said passo"),
        Block("signals", (n, 4, 2), "each seat's lead signals by suit: busso, striscio"),
        Block("thirds", (n,), "thirds of a point each seat has taken, divided by 36", (0, 2)),
    ]


def _calabresella_fill(e: Encoding, v: Vector, obs: Mapping[str, Any]) -> None:
    n, o, me, cards = e.seats, e.offsets, int(obs["seat"]), e.card_index
    _one_hot(v, o["phase"], CALABRESELLA_PHASES, obs["phase"])
    _one_hot(v, o["contract"], ("chiamata", "sola"), obs["contract"])
    for name in ("caller", "partner"):
        if obs[name] is not None:
            v[o[name] + (obs[name] - me) % n] = 1
    holder = obs["called_holder"]
    if holder == "widow":
        v[o["called_holder"] + n] = 1
    elif holder is not None:
        v[o["called_holder"] + (holder - me) % n] = 1
    for name in ("called", "ceded"):
        if obs[name] is not None:
            v[o[name] + cards[obs[name]]] = 1
    for name in ("widow", "discards"):
        for word in obs[name] or ():
            v[o[name] + cards[word]] = 1
    for seat, text in obs["history"]:
        calabresella_entry(e, v, me, seat, text)
    for seat, thirds in enumerate(obs["thirds"]):
        v[o["thirds"] + (seat - me) % n] = thirds / 36


def calabresella_entry(e: Encoding, v: Vector, me: int, seat: int, text: str) -> None:
    """A history entry's passo or lead signal."""
    n, o = e.seats, e.offsets
    words = text.split()
    if text == "passo":
        v[o["passed"] + (seat - me) % n] = 1
    elif len(words) == 2 and words[1] in _CALABRESELLA_SIGNALS and words[0] in e.card_index:
        suit = SUITS.index(words[0][1])
        v[o["signals"] + ((seat - me) % n * 4 + suit) * 2 + _CALABRESELLA_SIGNALS.index(words[1])] = 1


# Traversone -------------------------------------------------------------------------------------

def _traversone_blocks(e: Encoding) -> list[Block]:
    return [
        Block("thirds", (e.seats,), "thirds of a point each seat has taken, divided by 36", (0, 3)),
        Block("leftover", (1,), "cards left over after the deal, divided by 4", (0, 1)),
        Block("asso_bastoni", (3,), "the option asso_bastoni: 1, 11, 18"),
        Block("zero_punti", (2,), "the option zero_punti: dieci, divide"),
    ]


def _traversone_fill(e: Encoding, v: Vector, obs: Mapping[str, Any]) -> None:
    n, o, me = e.seats, e.offsets, int(obs["seat"])
    for seat, thirds in enumerate(obs["thirds"]):
        v[o["thirds"] + (seat - me) % n] = thirds / 36
    v[o["leftover"]] = obs["leftover"] / 4
    traversone_options(e, v)


def traversone_options(e: Encoding, v: Vector) -> None:
    _one_hot(v, e.offsets["asso_bastoni"], (1, 11, 18), e.rules.options["asso_bastoni"])
    _one_hot(v, e.offsets["zero_punti"], ("dieci", "divide"), e.rules.options["zero_punti"])


# Quattrigghiu -----------------------------------------------------------------------------------

QUATTRIGGHIU_PHASES = (quattrigghiu.BIDDING, quattrigghiu.FORCED, quattrigghiu.VOLUNTEERS, quattrigghiu.PLAY,
                        quattrigghiu.WINDOW, quattrigghiu.OVER)
_QUATTRIGGHIU_WORDS = ("passu", "aiutu", "tutita", "basta")


def _quattrigghiu_blocks(e: Encoding) -> list[Block]:
    n, d = e.seats, e.deck_size
    return [
        Block("phase", (6,), "the phase: " + ", ".join(QUATTRIGGHIU_PHASES)),
        Block("caller", (n,), "the caller"),
        Block("trump", (4,), "the trunfu suit"),
        Block("called_card", (d,), "the called re (or cavallo)"),
        Block("aiuto", (n,), "the caller's aiuto, once the seat knows him"),
        Block("basi", (n,), "basi each seat has taken, divided by 10", (0, 1)),
        Block("tutita", (1,), "a side is going for tutità"),
        Block("words", (n, 4), "what each seat has said: " + ", ".join(_QUATTRIGGHIU_WORDS)),
        Block("matador", (1,), "the option matador"),
        Block("aiuto_volontario", (1,), "the option aiuto_volontario"),
    ]


def _quattrigghiu_fill(e: Encoding, v: Vector, obs: Mapping[str, Any]) -> None:
    n, o, me = e.seats, e.offsets, int(obs["seat"])
    _one_hot(v, o["phase"], QUATTRIGGHIU_PHASES, obs["phase"])
    for name in ("caller", "aiuto"):
        if obs[name] is not None:
            v[o[name] + (obs[name] - me) % n] = 1
    if obs["trump"] is not None:
        v[o["trump"] + SUITS.index(obs["trump"])] = 1
    if obs["called_card"] is not None:
        v[o["called_card"] + e.card_index[obs["called_card"]]] = 1
    for seat, basi in enumerate(obs["basi"]):
        v[o["basi"] + (seat - me) % n] = basi / 10
    v[o["tutita"]] = obs["tutita"]
    for seat, text in obs["history"]:
        quattrigghiu_word(e, v, me, seat, text)
    quattrigghiu_options(e, v)


def quattrigghiu_word(e: Encoding, v: Vector, me: int, seat: int, text: str) -> None:
    """A history entry that is a word said."""
    if text in _QUATTRIGGHIU_WORDS:
        v[e.offsets["words"] + (seat - me) % e.seats * 4 + _QUATTRIGGHIU_WORDS.index(text)] = 1


def quattrigghiu_options(e: Encoding, v: Vector) -> None:
    v[e.offsets["matador"]] = e.rules.options["matador"]
    v[e.offsets["aiuto_volontario"]] = e.rules.options["aiuto_volontario"]


# Sancagna ---------------------------------------------------------------------------------------

def _sancagna_blocks(e: Encoding) -> list[Block]:
    n, d = e.seats, e.deck_size
    return [
        Block("trump", (4,), "the trump suit"),
        Block("turned", (d,), "the turned card"),
        Block("bottom", (d,), "the card at the bottom of the stock"),
        Block("calling", (n,), "the seat whose side may call itself out now"),
        Block("cenni", (n, len(sancagna.CENNI)), "the cenni the seat has seen: " + " ".join(sancagna.CENNI)),
        Block("revokes", (n,), "revokes found against each seat, divided by 3", (0, 2)),
        Block("points", (2,), "card points of this deal, the seat's side and the other, divided by 72 "
                              "(0 under a_mente)", (0, 1)),
        Block("tally", (2,), "the smazzata's tallies, the seat's side and the other, divided by 42 "
                             "(0 under a_mente; clipped to -2..4)", (-2, 4)),
        Block("a_mente", (1,), "the option a_mente"),
        Block("tavola", (1,), "the option tavola"),
    ]


def _sancagna_fill(e: Encoding, v: Vector, obs: Mapping[str, Any]) -> None:
    n, o, me = e.seats, e.offsets, int(obs["seat"])
    v[o["trump"] + SUITS.index(obs["trump"])] = 1
    v[o["turned"] + e.card_index[obs["turned"]]] = 1
    v[o["bottom"] + e.card_index[obs["bottom"]]] = 1
    if obs["calling"] is not None:
        v[o["calling"] + (obs["calling"] - me) % n] = 1
    for seat, word in obs["cenni"]:
        sancagna_cenno(e, v, me, seat, word)
    for seat, _ in obs["revokes"]:
        v[o["revokes"] + (seat - me) % n] += 1 / 3
    side = side_of(me)
    for name, scale in (("points", 72), ("tally", 42)):
        if name in obs:
            v[o[name]] = obs[name][side] / scale
            v[o[name] + 1] = obs[name][1 - side] / scale
    sancagna_options(e, v)


def sancagna_cenno(e: Encoding, v: Vector, me: int, seat: int, word: str) -> None:
    v[e.offsets["cenni"] + (seat - me) % e.seats * len(sancagna.CENNI) + sancagna.CENNI.index(word)] = 1


def sancagna_options(e: Encoding, v: Vector) -> None:
    v[e.offsets["a_mente"]] = e.rules.options["a_mente"]
    v[e.offsets["tavola"]] = e.rules.options["tavola"]


_GAME_SPECS: dict[str, GameSpec] = {
    "tressette": GameSpec(_tressette_blocks, _tressette_fill, lambda _: _words_of(tressette.ACTION_STRINGS)),
    "calabresella": GameSpec(_calabresella_blocks, _calabresella_fill,
                             lambda _: _words_of(calabresella.ACTION_STRINGS)),
    "traversone": GameSpec(_traversone_blocks, _traversone_fill,
                           lambda rules: [CARD_STRINGS[c] for c in rules.deck.cards]),
    "quattrigghiu": GameSpec(_quattrigghiu_blocks, _quattrigghiu_fill,
                             lambda _: _words_of(quattrigghiu.ACTION_STRINGS)),
    "sancagna": GameSpec(_sancagna_blocks, _sancagna_fill, lambda _: list(sancagna.ACTION_STRINGS)),
}

# What match totals are divided by: the target where the game plays to one, else a large stake.
_TOTAL_SCALE: dict[str, Callable[[Game], int]] = {
    "tressette": lambda rules: rules.options["target"],
    "traversone": lambda rules: rules.options["target"],
    "sancagna": lambda rules: rules.options["target"],
    "calabresella": lambda rules: max(stakes[rules.seats][0] for stakes in calabresella.STAKES.values()),
    "quattrigghiu": lambda rules: 6,
}
