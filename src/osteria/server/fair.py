"""Fair deals: each deal is fixed by a secret seed whose hash is published before the first card.

The procedure, the one ``docs/online.md`` documents: the seed is 64 hexadecimal digits from the
operating system's generator; the deal is ``game.deal_cards(random.Random(seed))``; the hash is
the SHA-256 of the seed's UTF-8 text; the first deal's seed also draws the match's first dealer.
Revealing the seed at the deal's end lets anyone check that the cards, and who dealt first,
were fixed in advance. This module needs nothing beyond the engine.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from dataclasses import dataclass
from typing import Any

from osteria.cards import CARD_STRINGS
from osteria.engine import Game
from osteria.records import RecordError, replay


def new_seed() -> str:
    """A fresh secret seed."""
    return secrets.token_hex(32)


def seed_hash(seed: str) -> str:
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def board_deal_seed(board_seed: str, deal_index: int) -> str:
    """The seed of a deal of a duplicate tournament's board: the board's own seed for its first
    deal, and for each later one (a board of several deals, a Sancagna smazzata) the SHA-256 of
    ``{board_seed}/{deal_index}``, so that the board's committed hash covers all of them."""
    return board_seed if deal_index == 0 else hashlib.sha256(f"{board_seed}/{deal_index}".encode()).hexdigest()


def deal_from_seed(game: Game, seed: str) -> tuple[list[list[int]], dict[str, list[int]]]:
    """The hands and stock a seed deals in a game (with its options and seat count)."""
    return game.deal_cards(random.Random(seed))


def first_dealer_from_seed(seed: str, seats: int) -> int:
    """The match's first dealer, drawn by its first deal's seed, so that the commitment covers
    him too: the SHA-256 of the seed's text followed by ``:dealer``, as a number, modulo the
    seats (a generator apart from the cards', which the dealer's draw leaves untouched)."""
    return int(hashlib.sha256(f"{seed}:dealer".encode()).hexdigest(), 16) % seats


@dataclass
class DealCheck:
    deal_index: int
    ok: bool
    message: str

    def as_json(self) -> dict[str, Any]:
        return {"deal_index": self.deal_index, "ok": self.ok, "message": self.message}


def verify_record(record: dict[str, Any]) -> list[DealCheck]:
    """Check every deal of an osteria/1 record against its revealed seed: RecordError for a
    malformed record or an illegal action, else one check per deal."""
    match = replay(record)
    checks = []
    for index, (entry, dealt) in enumerate(zip(record["deals"], match.deals, strict=True)):
        seed, published = entry.get("seed"), entry.get("seed_hash")
        if not isinstance(seed, str) or not isinstance(published, str):
            checks.append(DealCheck(index, False, "no seed and seed_hash: this deal cannot be checked"))
            continue
        if seed_hash(seed) != published:
            checks.append(DealCheck(index, False, "the seed does not hash to the published seed_hash"))
            continue
        hands, stock = deal_from_seed(match.game, seed)
        problem = _difference(hands, stock, dealt.hands, dealt.stock)
        if problem is None and index == 0:
            drawn = first_dealer_from_seed(seed, match.game.seats)
            if dealt.dealer != drawn:
                problem = f"seat {dealt.dealer} deals first, not seat {drawn}, whom the seed draws"
        checks.append(DealCheck(index, problem is None,
                                problem or ("the seed deals exactly these cards, and draws this first dealer"
                                            if index == 0 else "the seed deals exactly these cards")))
    return checks


def _difference(hands: list[list[int]], stock: dict[str, list[int]], recorded_hands: list[list[int]],
                recorded_stock: dict[str, list[int]]) -> str | None:
    for seat, (dealt, recorded) in enumerate(zip(hands, recorded_hands, strict=True)):
        if sorted(dealt) != sorted(recorded):
            return f"seat {seat}'s hand is not the one the seed deals ({_cards(dealt)})"
    for role in sorted(set(stock) | set(recorded_stock)):
        if sorted(stock.get(role, [])) != sorted(recorded_stock.get(role, [])):
            return f"the stock's {role!r} is not the one the seed deals ({_cards(stock.get(role, []))})"
    return None


def _cards(cards: list[int]) -> str:
    return " ".join(CARD_STRINGS[c] for c in sorted(cards)) or "none"


__all__ = ["DealCheck", "RecordError", "board_deal_seed", "deal_from_seed", "first_dealer_from_seed", "new_seed",
           "seed_hash", "verify_record"]
