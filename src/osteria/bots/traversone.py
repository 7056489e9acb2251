"""A rule-based Traversone player: points are poison, so it takes as few as it can.

As the seed advises, it tries to get void ("piombo") in a suit and then throws its dangerous
cards onto the tricks that others take: the ace of bastoni first when it is heavy, then points
and the high cards that would take tricks later. Following suit it ducks under the card that
is winning with its highest card that stays below; leading, it plays a low card that others can
beat, from its shortest suit, to get void. It takes a trick when forced, and on purpose while
it has no point and a deal without one would cost more than a point or two (ten under
``zero_punti dieci``; under ``divide`` a share of the points of a heavy ace of bastoni's taker):
then it takes every trick it surely can, and void it keeps the points and the cards that take
tricks, since a deal without a point costs more than a trick; at five and six seats, where a
player holds few cards and often takes no trick at all, this matters most. It remembers every
card and the suits each player has shown it lacks, and reads only its observation; the card
points come from the rules' module.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from osteria.bots.base import Bot
from osteria.bots.memory import CARD_OF, TrickMemory
from osteria.cards import CARD_STRINGS, ITALIAN_40
from osteria.rules.traversone import ZERO_POINTS, TraversoneMatchObservation, card_thirds
from osteria.rules.tressette_family import STRENGTH


def _suit(c: int) -> int:
    return c // 13


class TraversoneHeuristic(Bot):
    name = "heuristic"

    def act(self, observation: Mapping[str, Any], legal_actions: list[str]) -> str:
        return CARD_STRINGS[_Play(cast(TraversoneMatchObservation, observation), legal_actions).choose()]


class _Play:
    """The choice of a card, worked out from one observation."""

    def __init__(self, obs: TraversoneMatchObservation, legal: list[str]) -> None:
        self.me: int = obs["seat"]
        self.seats = n = len(obs["hand_sizes"])
        self.thirds = card_thirds(obs["options"]["asso_bastoni"])
        self.memory = memory = TrickMemory(obs["history"], n)
        self.hand = [CARD_OF[c] for c in obs["hand"]]
        self.cards = sorted((CARD_OF[a] for a in legal), key=lambda c: STRENGTH[c])
        self.trick = [(seat, CARD_OF[c]) for seat, c in obs["trick"]]
        out = set(self.hand) | memory.played
        self.unseen = [c for c in ITALIAN_40.cards if c not in out]
        # What a deal without a point costs: ten under zero_punti "dieci"; under "divide" a share
        # of the ace of bastoni's taker's points, at least half the ace's. Dearer than a point
        # or two, a point is worth taking.
        options = obs["options"]
        asso = options["asso_bastoni"]
        self.zero_cost = ZERO_POINTS if options["zero_punti"] == "dieci" else -(-asso // 2)
        self.wants_a_point = self.zero_cost > 2 and obs["thirds"][self.me] < 3

    # -- what is known ---------------------------------------------------------------------------

    def holders(self, suit: int, seats: list[int]) -> list[int]:
        """The seats among ``seats`` that may still hold cards of the suit."""
        return [s for s in seats if not self.memory.void(s, suit)]

    def others(self) -> list[int]:
        return [s for s in range(self.seats) if s != self.me]

    def after_me(self) -> list[int]:
        return [(self.me + k) % self.seats for k in range(1, self.seats - len(self.trick))]

    def unseen_above(self, c: int) -> int:
        return sum(1 for x in self.unseen if _suit(x) == _suit(c) and STRENGTH[x] > STRENGTH[c])

    def unseen_below(self, c: int) -> int:
        return sum(1 for x in self.unseen if _suit(x) == _suit(c) and STRENGTH[x] < STRENGTH[c])

    def length(self, suit: int) -> int:
        return sum(1 for c in self.hand if _suit(c) == suit)

    def danger(self, c: int) -> float:
        """What keeping card c may cost: its points, and more for a card that others' cards of
        its suit cannot beat, since it will take a trick when that suit is played."""
        above, below = self.unseen_above(c), self.unseen_below(c)
        takes = below / (above + below + 1) if above < 2 else 0.0
        lone = 0.5 if self.length(_suit(c)) == 1 else 0.0  # throwing it makes one piombo there
        return self.thirds[c] + 3 * takes + lone

    # -- choosing ----------------------------------------------------------------------------------

    def choose(self) -> int:
        if len(self.cards) == 1:
            return self.cards[0]
        return self.lead() if not self.trick else self.follow()

    def lead(self) -> int:
        others = self.others()

        def beaten(c: int) -> bool:
            return bool(self.unseen_above(c)) and bool(self.holders(_suit(c), others))

        if self.wants_a_point:
            # A card nobody can beat, of a suit others must follow: a trick of their cards.
            # Else the card likeliest to take.
            takers = [c for c in self.cards if not beaten(c) and self.holders(_suit(c), others)]
            return min(self.cards, key=lambda c: (c not in takers, self.unseen_above(c), self.thirds[c],
                                                  -self.unseen_below(c)))
        # A card others can beat, the safer the more cards above it, from the shortest suit.
        return min(self.cards, key=lambda c: (not beaten(c), self.unseen_above(c) < 2, self.length(_suit(c)),
                                              self.thirds[c], STRENGTH[c]))

    def follow(self) -> int:
        led = _suit(self.trick[0][1])
        best = max((c for _, c in self.trick if _suit(c) == led), key=lambda c: STRENGTH[c])
        following = [c for c in self.cards if _suit(c) == led]
        if not following:
            return self.throw_away()
        after = self.after_me()
        # Sure to take with c: nobody after can still play a card of the suit above it.
        sure = [c for c in following if STRENGTH[c] > STRENGTH[best]
                and not (self.unseen_above(c) and self.holders(led, after))]
        if self.wants_a_point:
            # A deal without a point costs more than the trick: take it with the lowest card that
            # surely does, else try with the best we hold.
            if sure:
                return sure[0]
            over = [c for c in following if STRENGTH[c] > STRENGTH[best]]
            if over:
                return over[-1]
        under = [c for c in following if STRENGTH[c] < STRENGTH[best]]
        if under:
            return max(under, key=lambda c: (STRENGTH[c], self.thirds[c]))
        if len(sure) == len(following):
            # The trick is ours whatever we play: spend the card most likely to take later,
            # sparing a heavy one whose points come with it now.
            return max(following, key=lambda c: (-self.thirds[c] if self.thirds[c] > 3 else 0, STRENGTH[c]))
        # Someone after may still take it: give him the best chance with our lowest card.
        return min(following, key=lambda c: (STRENGTH[c], self.thirds[c]))

    def throw_away(self) -> int:
        """Piombo in the suit led: throw the most dangerous card onto someone else's trick; but
        a player still without a point keeps the cards that may take one (points, and cards
        that take tricks) and throws the least dangerous."""
        # A card dearer than a deal without a point goes all the same (a heavy ace of bastoni).
        if self.wants_a_point and not any(self.thirds[c] > 3 * self.zero_cost for c in self.cards):
            return min(self.cards, key=lambda c: (self.danger(c), STRENGTH[c]))
        return max(self.cards, key=lambda c: (self.danger(c), STRENGTH[c]))
