"""Cards, suits, ranks and decks, with the two-character notation of the osteria/1 format.

A card is a small integer: ``suit * 13 + rank``, where ``rank`` indexes the thirteen ranks of
the 52-card deck (``A 2 3 4 5 6 7 8 9 X F C R``). The 40-card Italian deck is the same numbering
without 8, 9 and X, so one numbering, one notation and one canonical order (suits ``d c s b``,
ranks ``A`` to ``R``) serve every game. A set of cards is an integer bitmask with bit ``card``
set, which makes hands, played cards and suits cheap to copy, intersect and count.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

Card = int
"""A card: 13 times its suit's index in SUITS plus its rank's index in RANKS."""
CardMask = int
"""A set of cards, card c as bit c."""

# Module constants here and in the rules modules are Final: the compiled engine (setup.py)
# reads a Final constant directly instead of by its name at each use.
SUITS: Final = "dcsb"
RANKS: Final = "A23456789XFCR"
RANKS_40 = "A234567FCR"

DENARI, COPPE, SPADE, BASTONI = range(4)

# The French suits that Italian players themselves use as equivalents: they render in any terminal.
SUIT_SYMBOLS = ("♦", "♥", "♠", "♣")

SUIT_MASK: Final = tuple(0x1FFF << (13 * s) for s in range(4))


def card(rank: str, suit: str) -> Card:
    """The card of a rank letter and a suit letter: ``card("3", "d")``."""
    return SUITS.index(suit) * 13 + RANKS.index(rank)


def suit_of(c: Card) -> int:
    return c // 13


def rank_of(c: Card) -> int:
    return c % 13


def _rank_tables() -> tuple[tuple[int, ...], ...]:
    """For each 13-bit value, the rank indices of its set bits, lowest first."""
    table: list[tuple[int, ...]] = [()]
    for value in range(1, 1 << 13):
        low = value & -value
        table.append((low.bit_length() - 1, *table[value ^ low]))
    return tuple(table)


_RANKS_OF_BITS = _rank_tables()
# Per suit, per 13-bit value: the cards as a tuple, so listing a hand is four lookups.
_SUIT_CARDS: Final = tuple(
    tuple(tuple(s * 13 + r for r in ranks) for ranks in _RANKS_OF_BITS) for s in range(4)
)
_D: Final = _SUIT_CARDS[0]
_C: Final = _SUIT_CARDS[1]
_S: Final = _SUIT_CARDS[2]
_B: Final = _SUIT_CARDS[3]


def cards_of(mask: int) -> list[int]:
    """The cards of a bitmask in canonical order."""
    return [*_D[mask & 0x1FFF], *_C[(mask >> 13) & 0x1FFF], *_S[(mask >> 26) & 0x1FFF],
            *_B[(mask >> 39) & 0x1FFF]]


def suit_cards(mask: int, suit: int) -> tuple[int, ...]:
    """The cards of one suit in a bitmask, in canonical order."""
    return _SUIT_CARDS[suit][(mask >> (13 * suit)) & 0x1FFF]


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def count(mask: int) -> int:
    return mask.bit_count()


def card_str(c: int) -> str:
    """The notation of a card: rank then suit, ``3d``."""
    return RANKS[c % 13] + SUITS[c // 13]


CARD_STRINGS: Final = tuple(card_str(c) for c in range(52))
_PARSE: Final = {s: c for c, s in enumerate(CARD_STRINGS)}


def card_named(text: object) -> int | None:
    """The card a string names, or None when it names none (or is no string)."""
    return _PARSE.get(text) if isinstance(text, str) else None


def parse_card(text: str) -> int:
    """The card of its notation; ValueError, saying what is wrong, for anything else."""
    c = _PARSE.get(text)
    if c is None:
        raise ValueError(f"{text!r} is not a card: expected a rank of {RANKS} and a suit of {SUITS}, "
                         "as in 3d or Rb")
    return c


def card_symbol(c: int) -> str:
    """A compact display form: ``3♦``."""
    return RANKS[c % 13] + SUIT_SYMBOLS[c // 13]


def sorted_cards(cards: Iterable[int]) -> list[int]:
    """Cards in canonical order (suits d c s b, ranks A to R): the order records use."""
    return sorted(cards)


@dataclass(frozen=True)
class Deck:
    name: str
    cards: tuple[int, ...]

    @property
    def mask(self) -> int:
        return mask_of(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, c: object) -> bool:
        return c in self.cards


ITALIAN_40: Final = Deck("italiana-40", tuple(card(r, s) for s in SUITS for r in RANKS_40))
VENETA_52: Final = Deck("veneta-52", tuple(range(52)))


def make_rng(seed: int | str | None) -> random.Random:
    """A reproducible generator for a seed; the operating system's cryptographic one without."""
    if seed is None:
        return random.SystemRandom()
    if not isinstance(seed, (int, str)) or isinstance(seed, bool):
        raise TypeError(f"a seed is an integer or a string, not {type(seed).__name__}")
    return random.Random(seed)


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """``rng.shuffle(cards)`` draw for draw, so that every seed deals what it dealt (a test holds
    them equal): written out, it runs compiled with the engine (setup.py) instead of in the
    interpreter, where a deal's shuffle took a quarter of a random Tressette deal's time."""
    if type(rng) not in (random.Random, random.SystemRandom):
        rng.shuffle(cards)  # a generator of its own may draw its shuffle otherwise
        return
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        bits = n.bit_length()
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


def deal(rng: random.Random, deck: Deck, sizes: Sequence[int]) -> tuple[list[list[int]], list[int]]:
    """Shuffle the deck and hand out packets of the given sizes; the rest is returned in order."""
    cards = list(deck.cards)
    shuffle(rng, cards)
    hands, start = [], 0
    for size in sizes:
        hands.append(sorted(cards[start:start + size]))
        start += size
    return hands, cards[start:]
