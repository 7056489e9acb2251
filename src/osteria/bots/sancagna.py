"""A rule-based Sancagna player that plays the way the seed and the tables of Burano advise.

It makes every cenno that is true at its first turn and reads its partner's; it remembers the
cards played, the turned card and the bacio della tavola, and works out who may still hold what
(voids shown by not following, honours the partner signalled). With that it takes points when it
can do so cheaply, loads a trick its partner is sure to take, sheds scartine otherwise, trumps
high only when the trick is worth it, leads trump toward a partner who holds the vecion, and calls
itself out at 21 unless waiting for 42 cannot cost the smazzata. Under ``a_mente`` it keeps its own
count of both tallies from what it has seen. It reads only its observation; the cards' order and
points, and the call-out thresholds, come from the game's module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from osteria.bots.base import Bot
from osteria.cards import CARD_STRINGS, SUIT_MASK, SUITS, VENETA_52, cards_of, parse_card, suit_of
from osteria.engine import partner_of, side_of
from osteria.rules.sancagna import (
    ACTION_OF,
    CENNI,
    CENNO_BASE,
    KEY,
    ONE_CIRCLE,
    POINTS,
    REVOKE_POINTS,
    TRICKS,
    TWO_CIRCLES,
    SancagnaMatchObservation,
    cenno_cards,
    reckoned_tally,
    required,
    suits_lacked,
    trick_winner,
)

# A card that an opponent beats with at most this probability counts as sure to take.
SURE = 0.1
# What the other three cards of a trick bring on average: 24 cards in play share about 33 points,
# and the side that loses a trick sheds its cheapest, so a little over one point.
FOLLOWERS = 1.0
# Leading a trump spends the power to ruff later, more for a high one: only a good lead is worth it.
TRUMP_SPEND = 2.0


class SancagnaHeuristic(Bot):
    name = "heuristic"

    def act(self, observation: Mapping[str, Any], legal_actions: list[str]) -> str:
        # Only true cenni are offered and only the partner sees them: each one helps him, so all
        # are made at the first turn, before the card (that is also what lets him read a silence).
        cenni = [a for a in legal_actions if a.startswith("cenno ")]
        if cenni:
            return cenni[0]
        view = _View(cast(SancagnaMatchObservation, observation))
        if "fuori" in legal_actions:
            return "fuori" if view.should_call_out() else "avanti"
        cards = [ACTION_OF[a] for a in legal_actions]
        return CARD_STRINGS[view.choose(cards)]


def count_tallies(observation: SancagnaMatchObservation) -> list[int]:
    """Both sides' running tallies as a player keeps them in his head (option a_mente): the
    smazzata's carry worked out from the match's earlier results, plus this deal's tricks.

    A revoke is taken as costing its 9 points whenever it was found, so the count can only err
    low (a revoke found in play against a side whose tally was then reset cost nothing)."""
    tally = reckoned_tally(observation["results"], revokes_cost=True)
    trump = SUITS.index(observation["trump"])
    for trick in _tricks(observation["history"]):
        if len(trick) == 4:
            cards = [c for _, c in trick]
            winner = trick[trick_winner(cards, trump)][0]
            tally[side_of(winner)] += sum(POINTS[trump][c] for c in cards)
    for seat, _ in observation["revokes"]:
        tally[side_of(seat)] -= REVOKE_POINTS
    return tally


def _tricks(history: Sequence[Sequence[Any]]) -> list[list[tuple[int, int]]]:
    """The deal's tricks so far, each as (seat, card) in play order, from its public history."""
    plays = [(seat, ACTION_OF[text]) for seat, text in history if ACTION_OF[text] < CENNO_BASE]
    return [plays[i:i + 4] for i in range(0, len(plays), 4)]


class _View:
    """One seat's knowledge of the deal, worked out from its observation."""

    def __init__(self, obs: SancagnaMatchObservation) -> None:
        self.obs = obs
        self.me: int = obs["seat"]
        self.partner = partner_of(self.me)
        self.trump = SUITS.index(obs["trump"])
        self.points = POINTS[self.trump]
        self.key = KEY[self.trump]
        self.hand = sum(1 << parse_card(c) for c in obs["hand"])
        self.sizes: list[int] = obs["hand_sizes"]
        self.trick = [(seat, parse_card(c)) for seat, c in obs["trick"]]
        played = sum(1 << parse_card(c) for c in obs["played"])
        # The turned card and the bacio della tavola are out of play and known to all.
        out = 1 << parse_card(obs["turned"]) | 1 << parse_card(obs["bottom"])
        self.unseen = VENETA_52.mask & ~(self.hand | played | out)
        self.voids = [0, 0, 0, 0]  # per seat, a bitmask of the suits it has shown it lacks
        tricks = _tricks(obs["history"])
        for trick in tricks:
            led = suit_of(trick[0][1])
            for seat, c in trick[1:]:
                self.voids[seat] |= suits_lacked(led, c, self.trump)
        self._read_partner(obs["cenni"], any(seat == self.partner for trick in tricks for seat, _ in trick))
        # What p_holds weighs, the same for every card: each seat's share of the cards no signal
        # placed, and the fours still out.
        pool = (self.unseen & ~self.partner_holds).bit_count()
        free = [size - (self.partner_holds.bit_count() if seat == self.partner else 0)
                for seat, size in enumerate(self.sizes)]
        self._share = [f / pool if pool else 0.0 for f in free]
        self._fours = cenno_cards(CENNI.index("gnagna"), self.trump) & self.unseen
        self._higher: dict[int, int] = {}
        self._any: dict[tuple[int, int], float] = {}

    def _read_partner(self, cenni: Sequence[Sequence[Any]], has_played: bool) -> None:
        """What the partner's cenni, and his silences, say he holds. Our convention is to make every
        true cenno at one's first turn, so a partner who has played a card without signalling the
        vecion does not hold it."""
        made = {CENNI.index(word) for seat, word in cenni if seat == self.partner}
        self.partner_holds = 0  # trump honours he signalled and still holds
        self.partner_lacks = 0
        for kind in range(len(CENNI)):
            cards = cenno_cards(kind, self.trump) & self.unseen
            if CENNI[kind] == "gnagna":
                continue
            if kind in made:
                self.partner_holds |= cards
            elif has_played:
                self.partner_lacks |= cards
        gnagna = CENNI.index("gnagna")
        self.partner_four = gnagna in made
        if has_played and gnagna not in made:
            self.partner_lacks |= cenno_cards(gnagna, self.trump) & self.unseen

    # -- who may hold what ------------------------------------------------------------------------

    def p_holds(self, seat: int, c: int) -> float:
        """The chance that ``seat`` (not this one) holds card ``c`` now."""
        if not self.unseen >> c & 1 or self.voids[seat] >> suit_of(c) & 1:
            return 0.0
        if seat == self.partner:
            if self.partner_holds >> c & 1:
                return 1.0
            if self.partner_lacks >> c & 1:
                return 0.0
        elif self.partner_holds >> c & 1:
            return 0.0
        p = self._share[seat]
        fours = self._fours
        if seat == self.partner and self.partner_four and fours >> c & 1:
            p = max(p, 1 / fours.bit_count())  # he holds one of the fours still out
        return min(p, 1.0)

    def p_any(self, seat: int, cards: int) -> float:
        """The chance that ``seat`` holds any of ``cards`` (asked again and again of one view:
        each answer is kept)."""
        key = (seat, cards & self.unseen)
        if key not in self._any:
            miss = 1.0
            for c in cards_of(key[1]):
                miss *= 1 - self.p_holds(seat, c)
            self._any[key] = 1 - miss
        return self._any[key]

    def p_void(self, seat: int, suit: int) -> float:
        return 1 - self.p_any(seat, SUIT_MASK[suit])

    def higher(self, c: int) -> int:
        """The unseen cards that beat ``c`` when it is winning a trick."""
        if c not in self._higher:
            above = sum(1 << x for x in cards_of(SUIT_MASK[suit_of(c)] & self.unseen) if self.key[x] > self.key[c])
            self._higher[c] = above if suit_of(c) == self.trump else above | SUIT_MASK[self.trump] & self.unseen
        return self._higher[c]

    def p_beats(self, seat: int, best: int, led: int) -> float:
        """The chance that ``seat``, still to play, can beat ``best`` in a trick led in ``led``."""
        trumps = SUIT_MASK[self.trump]
        over = self.higher(best)
        if led == self.trump:
            return self.p_any(seat, over)
        if suit_of(best) == self.trump:  # a ruff: only a player void in the suit led can overruff
            return self.p_void(seat, led) * self.p_any(seat, over)
        return self.p_any(seat, over & ~trumps) + self.p_void(seat, led) * self.p_any(seat, over & trumps)

    def p_lost(self, best: int, led: int, after: Sequence[int]) -> float:
        """The chance that an opponent among ``after`` takes the trick from ``best``."""
        keep = 1.0
        for seat in after:
            if side_of(seat) != side_of(self.me):
                keep *= 1 - self.p_beats(seat, best, led)
        return 1 - keep

    def sure(self, c: int) -> bool:
        """Whether ``c`` led now would take against any two opponents."""
        return self.p_lost(c, suit_of(c), self.after(0)) <= SURE

    def after(self, played: int) -> list[int]:
        """The seats still to play once ``played`` cards of the trick are down and this seat's is."""
        leader = (self.me - played) % 4
        return [(leader + i) % 4 for i in range(played + 1, 4)]

    def spend(self, c: int) -> float:
        """What playing ``c`` now gives up besides its points: a trump's power to take later."""
        if suit_of(c) != self.trump:
            return 0.0
        return TRUMP_SPEND * (1 + (self.key[c] - 100) / 6)

    # -- choosing a card ----------------------------------------------------------------------------

    def choose(self, legal: list[int]) -> int:
        if not self.trick:
            return self.lead(legal)
        # Under option tavola every card is offered; this player never revokes.
        must = required(self.hand, suit_of(self.trick[0][1]), self.trump)
        return self.follow([c for c in legal if must >> c & 1])

    def lead(self, cards: list[int]) -> int:
        trumps = [c for c in cards if suit_of(c) == self.trump]
        # A partner who signalled the vecion (or the best trump left) takes any trump trick: a low
        # trump led to him makes the opponents give up their trumps to it.
        master = self.master_trump()
        if master is not None and self.partner_holds >> master & 1 and trumps:
            low = min(trumps, key=lambda c: self.key[c])
            if self.points[low] <= 4 or self.sure(low):
                return low
        # Sure winners with points first, trumps before the fours: drawing trumps makes fours safe.
        sure = [c for c in cards if self.sure(c) and (self.points[c] or suit_of(c) == self.trump)]
        if sure:
            return max(sure, key=lambda c: (suit_of(c) == self.trump, self.points[c], self.key[c]))
        # Otherwise the card whose lead brings most, less the trump it spends: a likely winner, or
        # a cheap card.
        return max(cards, key=lambda c: (self.kept(c) - self.spend(c), -self.key[c]))

    def follow(self, cards: list[int]) -> int:
        """The card whose points this trick most exceed what it would bring if kept. A card that
        takes (or goes to a partner sure to take) adds its points to ours; one that loses gives
        them away; and a strong card kept would take its points and a trick later anyway, so it
        is not spent on a poor trick, while a card that would be lost later is loaded or shed now."""
        led = suit_of(self.trick[0][1])
        order = [c for _, c in self.trick]
        winner, best = self.trick[trick_winner(order, self.trump)]
        after = self.after(len(self.trick))
        on_table = sum(self.points[c] for c in order)
        partner_takes = self.partner_sure_to_take(led, best, after)
        partner_winning = side_of(winner) == side_of(self.me)

        def value(c: int) -> float:
            if partner_takes:
                ours = 1.0
            elif self.beats(c, best):
                ours = 1 - self.p_lost(c, led, after)
            elif partner_winning:
                ours = 1 - self.p_lost(best, led, after)
            else:
                ours = 0.0
            return (2 * ours - 1) * (on_table + self.points[c]) - self.kept(c)
        return max(cards, key=lambda c: (value(c), -self.key[c]))

    def kept(self, c: int) -> float:
        """What ``c`` is worth kept for a later lead: it takes its points and the followers', or
        gives them away."""
        lost = self.p_lost(c, suit_of(c), self.after(0))
        return (1 - 2 * lost) * (self.points[c] + FOLLOWERS)

    def beats(self, c: int, best: int) -> bool:
        """Whether ``c`` takes a trick that ``best`` is winning."""
        if suit_of(c) == suit_of(best):
            return self.key[c] > self.key[best]
        return suit_of(c) == self.trump

    def partner_sure_to_take(self, led: int, best: int, after: list[int]) -> bool:
        """Whether the partner, still to play, holds the best trump left and may play it."""
        master = self.master_trump()
        if self.partner not in after or master is None or not self.partner_holds >> master & 1:
            return False
        can_trump = led == self.trump or self.voids[self.partner] >> led & 1
        return bool(can_trump) and self.key[master] > self.key[best]

    def master_trump(self) -> int | None:
        """The highest trump still in play, wherever it is."""
        trumps = cards_of((self.unseen | self.hand) & SUIT_MASK[self.trump])
        return max(trumps, key=lambda c: self.key[c]) if trumps else None

    # -- the call-out ---------------------------------------------------------------------------------

    def should_call_out(self) -> bool:
        tally: list[int] = self.obs["tally"] if "tally" in self.obs else count_tallies(self.obs)
        ours, theirs = tally[side_of(self.me)], tally[1 - side_of(self.me)]
        if ours < ONE_CIRCLE:
            return False  # a call now would be wrong and give the smazzata away
        if ours >= TWO_CIRCLES:
            return True
        return not self.rinvio_is_safe(ours, theirs)

    def rinvio_is_safe(self, ours: int, theirs: int) -> bool:
        """Waiting for 42 is safe only if the opponents cannot reach 21 before the deal ends, and the
        42 is in sight with what this seat holds: it takes the rest of the deal, no later one."""
        tricks_left: int = TRICKS - self.obs["tricks_played"]
        if not tricks_left:
            return False
        mine = sum(self.points[c] for c in cards_of(self.hand))
        others = sum(self.sizes) - self.hand.bit_count()
        still_out = sorted((self.points[c] for c in cards_of(self.unseen)), reverse=True)[:others]
        if theirs + mine + sum(still_out) >= ONE_CIRCLE:
            return False
        sure = sum(self.points[c] for c in cards_of(self.hand) if self.sure(c))
        return ours + sure + FOLLOWERS * tricks_left >= TWO_CIRCLES
