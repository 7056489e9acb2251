"""What a bot can remember from its observation's public history, for the trick-taking games
whose tricks follow suit without trumps (the Tressette family)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from osteria.cards import CARD_STRINGS, ITALIAN_40

CARD_OF = {CARD_STRINGS[c]: c for c in ITALIAN_40.cards}


class TrickMemory:
    """What a deal's public history tells: the tricks so far, the cards played, and the suits
    each seat has shown it lacks by not following."""

    def __init__(self, history: Sequence[Sequence[Any]], seats: int) -> None:
        plays = [(seat, CARD_OF[text.split()[0]]) for seat, text in history if text.split()[0] in CARD_OF]
        self.tricks = [plays[i:i + seats] for i in range(0, len(plays), seats)]
        self.played = {c for _, c in plays}
        self.voids = [0] * seats  # per seat, a bitmask of the suits it lacks
        for trick in self.tricks:
            led = trick[0][1] // 13
            for seat, c in trick[1:]:
                if c // 13 != led:
                    self.voids[seat] |= 1 << led

    def void(self, seat: int, suit: int) -> bool:
        return bool(self.voids[seat] >> suit & 1)
