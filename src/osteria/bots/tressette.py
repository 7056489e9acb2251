"""A rule-based Tressette player that plays the way the seed advises good players to.

It remembers every card played, plays the "carta tre" (the highest card of a suit still out)
when it takes points, gives an ace to a partner who is sure to take, answers the partner's
busso by coming back to his suit, leads from long suits, and declares every accuso. It reads
only its observation; the rules' data (card order and points) come from the game's module.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import ModuleType
from typing import Any, cast

from osteria.bots.base import Bot
from osteria.cards import CARD_STRINGS, SUIT_MASK, cards_of, parse_card
from osteria.engine import Drawing
from osteria.rules.tressette import TressetteMatchObservation
from osteria.rules.tressette_family import STRENGTH, THIRDS, trick_taker


def _suit(c: int) -> int:
    return c // 13


class TressetteHeuristic(Bot):
    name = "heuristic"

    def act(self, observation: Mapping[str, Any], legal_actions: list[str]) -> str:
        accusi = [a for a in legal_actions if a.startswith("accuso")]
        if accusi:
            return accusi[0]
        return _Position(cast(TressetteMatchObservation, observation), legal_actions).choose()

    @property
    def counts_surprises(self) -> bool:
        return _reading_kernel() is not None

    def surprises(self, drawing: Drawing, observation: Mapping[str, Any]) -> int | None:
        # Counted by the compiled player where numba is installed.
        kernel = _reading_kernel()
        if kernel is None or not drawing.hands:
            return None
        return int(kernel.surprises(drawing.hands, drawing.actions, observation["seat"], observation["morto"]))


@functools.cache
def _reading_kernel() -> ModuleType | None:
    """The compiled rule-based player (``osteria.bots.tressette_kernel``), or None without numba."""
    try:
        from osteria.bots import tressette_kernel as kernel
    except ImportError:
        return None
    return kernel


class _Position:
    """The decision at hand, worked out from one observation."""

    def __init__(self, obs: TressetteMatchObservation, legal: list[str]) -> None:
        self.legal = legal
        assert obs["to_move"] is not None, "a bot is asked while the deal is on"
        self.me = obs["to_move"]
        seats = len(obs["hand_sizes"])
        self.partner = (self.me + 2) % seats
        own = obs["hand"] if obs["seat"] == self.me else obs["hands"][self.me]
        assert own is not None, "a seat deciding for the dummy sees its hand"
        self.hand = [parse_card(c) for c in own]
        self.trick = [(seat, parse_card(c.split()[0])) for seat, c in obs["trick"]]
        # Cards whose place is known to this seat: gone from play, or in a hand it can see.
        self.gone = {parse_card(c) for c in obs["played"]}
        self.visible = {parse_card(c) for hand in obs["hands"] if hand for c in hand}
        self.seats = seats
        self.history: list[list[Any]] = obs["history"]
        # dict.fromkeys, not a set: a set of strings iterates in a per-process order, and ties
        # of strength between suits would then be broken differently in every run.
        self.options = sorted(dict.fromkeys(a.split()[0] for a in legal if not a.startswith("accuso")),
                              key=lambda text: STRENGTH[parse_card(text)])
        self.cards = [parse_card(text) for text in self.options]

    # -- what is known ---------------------------------------------------------------------------

    def unseen_higher(self, c: int) -> list[int]:
        """Cards of c's suit that beat it and may still be in another hand."""
        suit_cards = cards_of(SUIT_MASK[_suit(c)])
        return [x for x in suit_cards if STRENGTH[x] > STRENGTH[c] and x not in self.gone
                and x not in self.hand and x != c and x not in self.visible]

    def is_sure_winner(self, c: int) -> bool:
        return not self.unseen_higher(c)

    def partner_busso_suits(self) -> list[int]:
        """Suits the partner led with busso: he wants them back."""
        suits = []
        for seat, action in self.history:
            words = action.split()
            if seat == self.partner and len(words) == 2 and words[1] == "busso":
                suits.append(_suit(parse_card(words[0])))
        return suits

    # -- choosing ----------------------------------------------------------------------------------

    def choose(self) -> str:
        card = self.lead() if not self.trick else self.follow()
        return self.with_signal(card)

    def with_signal(self, c: int) -> str:
        """The card, with the informative signal when one is offered (never a busso by default)."""
        text = CARD_STRINGS[c]
        signals = [a for a in self.legal if a.startswith(text + " ") and not a.endswith(" busso")]
        return signals[0] if signals else text

    def lead(self) -> int:
        for suit in reversed(self.partner_busso_suits()):
            mine = [c for c in self.cards if _suit(c) == suit]
            if mine:
                return max(mine, key=lambda c: STRENGTH[c])
        sure = [c for c in self.cards if self.is_sure_winner(c) and THIRDS[c]]
        if sure:
            return max(sure, key=lambda c: (THIRDS[c], STRENGTH[c]))
        # From the longest suit, a card that gives little away.
        length = {s: sum(1 for c in self.cards if _suit(c) == s) for s in range(4)}
        return min(self.cards, key=lambda c: (-length[_suit(c)], THIRDS[c] > 0, STRENGTH[c]))

    def follow(self) -> int:
        led = _suit(self.trick[0][1])
        best_seat, best = self.trick[trick_taker([c for _, c in self.trick])]
        last_to_play = len(self.trick) == self.seats - 1
        points_on_table = sum(THIRDS[c] for _, c in self.trick)
        following = [c for c in self.cards if _suit(c) == led]
        if best_seat == self.partner and (last_to_play or self.is_sure_winner(best)):
            return self.give_points(following)
        winners = [c for c in following if STRENGTH[c] > STRENGTH[best]]
        if winners:
            sure = [c for c in winners if last_to_play or self.is_sure_winner(c)]
            if sure and (points_on_table or any(THIRDS[c] for c in sure) or last_to_play):
                return min(sure, key=lambda c: (STRENGTH[c], -THIRDS[c]))
        return self.shed()

    def give_points(self, following: list[int]) -> int:
        """The partner takes: add the most points that can be spared."""
        pool = following or self.cards
        # An ace from the suit where it is least protected, else the richest card.
        return max(pool, key=lambda c: (THIRDS[c], -sum(1 for x in self.cards if _suit(x) == _suit(c)),
                                        -STRENGTH[c]))

    def shed(self) -> int:
        """Nothing to gain: the cheapest card, keeping strong cards of long suits."""
        return min(self.cards, key=lambda c: (THIRDS[c], STRENGTH[c]))
