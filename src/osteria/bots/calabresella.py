"""A rule-based Calabresella player that bids and plays the way the seed advises.

It bids from an estimate of the tricks its hand will take with the called card added: it calls
a three, or a two when it holds every three (whichever card completes the most), plays alone
only with ten sure tricks at three players (as many, short of two, with fewer cards), and
passes when weak. At three it keeps its winners and guarded honours and lays aside what would
lose, points first (they come back with the last trick); the card given for the called one is
a small one. In play it remembers every card and the suits each seat has shown it lacks, cashes
its sure winners (the "carta tre"), gives points to a side-mate sure to take, answers a busso,
and uses busso and striscio truthfully. At five it plays with the secret partner once known.
It reads only its observation; the cards' order and points come from the rules' modules.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from math import ceil
from typing import Any, cast

from osteria.bots.base import Bot
from osteria.bots.memory import CARD_OF, TrickMemory
from osteria.cards import CARD_STRINGS, ITALIAN_40, SUIT_MASK, cards_of, mask_of
from osteria.rules.calabresella import DISCARDS, HAND_SIZE, CalabresellaMatchObservation, scarto_str
from osteria.rules.tressette_family import STRENGTH, THIRDS, trick_taker

SUIT_SIZE = 10
# A suit's cards, strongest first.
SUIT_ORDER = [sorted(cards_of(SUIT_MASK[s] & ITALIAN_40.mask), key=lambda c: -STRENGTH[c]) for s in range(4)]

# Estimated tricks (with the called card) from which a call pays, by number of players; measured
# by letting the bot call every hand and play it out against itself: below these it loses.
CALL_TRICKS = {3: 7.0, 4: 6.5, 5: 4.0}
# Sure tricks for a sola: the seed's ten at three, the hand less two with fewer cards.
SOLA_TRICKS = {seats: 10 if seats == 3 else size - 2 for seats, size in HAND_SIZE.items()}


def _suit(c: int) -> int:
    return c // 13


# -- the hand's worth ----------------------------------------------------------------------------------

def _by_suit(hand: Iterable[int]) -> list[list[int]]:
    suits: list[list[int]] = [[] for _ in range(4)]
    for c in sorted(hand, key=lambda c: -STRENGTH[c]):
        suits[_suit(c)].append(c)
    return suits


def _top_run(mine: Sequence[int]) -> int:
    """How many of the suit's best cards one holds without a gap (3, 2, A, ...)."""
    run = 0
    while run < len(mine) and mine[run] == SUIT_ORDER[_suit(mine[0])][run]:
        run += 1
    return run


def _missing_above(c: int, mine: Sequence[int]) -> int:
    """How many cards of c's suit beat it and are not among ``mine``."""
    return sum(1 for x in SUIT_ORDER[_suit(c)] if STRENGTH[x] > STRENGTH[c] and x not in mine)


def estimated_tricks(hand: Iterable[int], opponents: int) -> float:
    """The tricks a hand should take: its unbroken tops, half a trick for an honour guarded
    against the one card above it (a quarter against two), or the length of a long suit once the
    opponents' cards of it are gone, whichever is more."""
    total = 0.0
    for mine in _by_suit(hand):
        if not mine:
            continue
        run = _top_run(mine)
        tricks = float(run)
        for i in range(run, len(mine)):
            missing = _missing_above(mine[i], mine)
            if missing <= len(mine) - 1 - i:
                tricks += {1: 0.5, 2: 0.25}.get(missing, 0.0)
        rounds = ceil((SUIT_SIZE - len(mine)) / opponents) + 1
        total += max(tricks, len(mine) - rounds)
    return total


def sure_tricks(hand: Iterable[int]) -> int:
    """Tricks nobody can stop: the unbroken tops, and a whole suit when they outnumber the
    cards of it that others hold."""
    total = 0
    for mine in _by_suit(hand):
        if mine:
            run = _top_run(mine)
            total += len(mine) if run >= SUIT_SIZE - len(mine) else run
    return total


# How many cards of its suit beat each card.
_BEATEN_BY = {c: order.index(c) for order in SUIT_ORDER for c in order}


def keep_value(c: int, mine: Sequence[int]) -> float:
    """How much the caller wants to keep card ``c``, given the cards of its suit in the hand
    (``mine``, ``c`` among them): sure winners most, then honours guarded by enough small cards
    to outlast the cards above them; of the losers, those of long suits (they may take late)
    before those of short ones, and point cards least, since laid aside they return with the
    last trick while kept they fall to the opponents."""
    strength = STRENGTH[c]
    above = sum(1 for x in mine if STRENGTH[x] > strength)
    missing = _BEATEN_BY[c] - above  # as _missing_above counts them
    lower = len(mine) - 1 - above
    if missing == 0:
        return 100.0 + STRENGTH[c]
    if missing <= lower:
        return 50.0 - 10 * missing + STRENGTH[c]
    return 2.0 * len(mine) - 3 * THIRDS[c] + STRENGTH[c] / 10


def shed_set(hand: Sequence[int], k: int) -> list[int]:
    """The ``k`` cards the caller can best spare, one at a time: each time the card whose loss
    costs the hand least, counting what the others lose with it (a small card guarding an honour):
    the one that leaves the rest of the hand worth most, the sum of their ``keep_value``."""
    kept = list(hand)
    for _ in range(k):
        suits = _by_suit(kept)
        value = {x: keep_value(x, suits[_suit(x)]) for x in kept}
        worths = [_worth_without(c, kept, suits[_suit(c)], value) for c in kept]
        del kept[worths.index(max(worths))]  # the first of the best, as max() takes it
    return [c for c in hand if c not in kept]


def next_best_sheds(hand: Sequence[int], shed: Sequence[int], n: int) -> list[list[int]]:
    """The ``n`` sets of as many cards as ``shed`` (the rule's own, ``shed_set``) that the rule
    would spare next: each swaps one card of it for one kept, and they come by how much the kept
    cards are worth (the sum of their ``keep_value``), most first (ties in the hand's order)."""
    kept = [c for c in hand if c not in shed]

    def worth(cards: list[int]) -> float:
        suits = _by_suit(cards)
        return sum(keep_value(x, suits[_suit(x)]) for x in cards)

    swaps = [(worth([x for x in kept if x != keep] + [out]), [keep if x == out else x for x in shed])
             for out in shed for keep in kept]
    swaps.sort(key=lambda swap: -swap[0])  # stable: equal worths stay in the hand's order
    return [sorted(cards, key=hand.index) for _, cards in swaps[:n]]


def _worth_without(c: int, kept: list[int], mine: list[int], value: dict[int, float]) -> float:
    """What the cards ``kept`` but ``c`` are worth, the sum of their ``keep_value``, given the
    cards of c's suit among them (``mine``) and each card's value with ``c`` kept (``value``).
    A card's value hangs on its own suit alone, so only c's suit is valued again; the sum adds the
    same values in the same order as valuing the whole rest again would, so that equal sums stay
    equal and ties fall on the same card."""
    rest = [x for x in mine if x != c]
    again = {x: keep_value(x, rest) for x in rest}
    return sum(again.get(x, value[x]) for x in kept if x != c)


# -- the bot -----------------------------------------------------------------------------------------

class CalabresellaHeuristic(Bot):
    name = "heuristic"

    def act(self, observation: Mapping[str, Any], legal_actions: list[str]) -> str:
        obs = cast(CalabresellaMatchObservation, observation)
        phase = obs["phase"]
        hand = [CARD_OF[c] for c in obs["hand"]]
        seats = len(obs["hand_sizes"])
        if phase == "bidding":
            return bid(hand, seats)
        if phase == "cedo":
            assert obs["called"] is not None, "the caller cedes a card for the one he called"
            return "cedo " + CARD_STRINGS[cede(hand, CARD_OF[obs["called"]], seats)]
        if phase == "scarto":
            return scarto_str(mask_of(shed_set(hand, DISCARDS)))
        return _Play(obs, legal_actions).choose()

    def runners_up(self, observation: Mapping[str, Any], legal_actions: list[str], choice: str) -> list[str]:
        """At the scarto, the discards next to its own (``next_best_sheds``): of the 1,820, these
        are the ones worth a search's look. None elsewhere."""
        if observation["phase"] != "scarto":
            return []
        hand = [CARD_OF[c] for c in observation["hand"]]
        shed = shed_set(hand, DISCARDS)
        return [scarto_str(mask_of(cards)) for cards in next_best_sheds(hand, shed, len(legal_actions))]


def bid(hand: Sequence[int], seats: int) -> str:
    """Sola with enough sure tricks, else a call when the best card to call makes the hand worth
    it, else passo."""
    if sure_tricks(hand) >= SOLA_TRICKS[seats]:
        return "sola"
    # A three, or a two when one holds every three, and so on down: the highest rank missing.
    held = set(hand)
    missing: list[int] = []
    for place in range(SUIT_SIZE):
        missing = [order[place] for order in SUIT_ORDER if order[place] not in held]
        if missing:
            break
    # At five the called card's holder plays on our side: two against three.
    opponents = 3 if seats == 5 else seats - 1
    best = max(missing, key=lambda c: estimated_tricks([*hand, c], opponents))
    if estimated_tricks([*hand, best], opponents) >= CALL_TRICKS[seats]:
        return "chiamo " + CARD_STRINGS[best]
    return "passo"


def cede(hand: Sequence[int], called: int, seats: int) -> int:
    """The card given face up for the called one: one the caller can spare (at three, among the
    cards he would shed anyway), the smallest of them, since the opponent receiving it could
    win a trick with a higher one, and points given are points lost."""
    after = [*hand, called]
    spare = shed_set(after, DISCARDS + 1 if seats == 3 else 1)
    spare = [c for c in spare if c != called] or list(hand)
    return min(spare, key=lambda c: (THIRDS[c], STRENGTH[c]))


class _Play:
    """The choice of a card, worked out from one observation."""

    def __init__(self, obs: CalabresellaMatchObservation, legal: list[str]) -> None:
        self.legal = legal
        self.me: int = obs["seat"]
        self.seats = n = len(obs["hand_sizes"])
        self.history: list[list[Any]] = obs["history"]
        self.memory = memory = TrickMemory(self.history, n)
        self.hand = [CARD_OF[c] for c in obs["hand"]]
        self.cards = sorted({CARD_OF[a.split()[0]] for a in legal}, key=lambda c: STRENGTH[c])
        self.trick = [(seat, CARD_OF[c.split()[0]]) for seat, c in obs["trick"]]
        self.allies = self._allies(obs)
        # Where a card not yet played is known to be: the called card with the caller, the card
        # he gave with its holder (at three and four, where both are shown).
        self.known: dict[int, int] = {}
        caller, holder = obs["caller"], obs["called_holder"]
        assert caller is not None, "cards are played after a contract"
        if obs["called"] is not None and n < 5:
            self.known[CARD_OF[obs["called"]]] = caller
            if isinstance(holder, int) and obs["ceded"] is not None:
                self.known[CARD_OF[obs["ceded"]]] = holder
        out = set(self.hand) | memory.played | {CARD_OF[c] for c in obs["discards"] or ()}
        self.unseen = [c for c in ITALIAN_40.cards if c not in out]

    def _allies(self, obs: CalabresellaMatchObservation) -> set[int]:
        """The seats known to play on this seat's side, itself included."""
        me, caller, n = self.me, obs["caller"], self.seats
        assert caller is not None, "cards are played after a contract"
        if obs["partner"] is not None:
            partner = obs["partner"]
            side = {caller, partner}
            return side if me in side else set(range(n)) - side
        if n < 5 or obs["contract"] == "sola":
            return {me} if me == caller else set(range(n)) - {caller}
        # At five, before the called card shows: a seat that has shown it lacks the called
        # card's suit cannot be the partner; when one candidate is left, he is.
        assert obs["called"] is not None, "a chiamata calls a card"
        called = CARD_OF[obs["called"]]
        candidates = {s for s in range(n) if s not in (me, caller) and not self.memory.void(s, _suit(called))}
        if me == caller:
            return {me} | (candidates if len(candidates) == 1 else set())
        # A defender: the others that cannot be the partner are with him.
        return {s for s in range(n) if s != caller and s not in candidates} | {me}

    # -- what is known ---------------------------------------------------------------------------

    def beaten(self, c: int, seats: Iterable[int]) -> bool:
        """Whether an opponent among ``seats`` may hold a card that beats c in its suit."""
        threats = [s for s in seats if s not in self.allies]
        free = [s for s in threats if not self.memory.void(s, _suit(c))]
        for x in self.unseen:
            if _suit(x) == _suit(c) and STRENGTH[x] > STRENGTH[c]:
                where = self.known.get(x)
                if (where in threats) if where is not None else bool(free):
                    return True
        return False

    def others(self) -> list[int]:
        return [s for s in range(self.seats) if s != self.me]

    def after_me(self) -> list[int]:
        """The seats still to play to the current trick after this one."""
        return [(self.me + k) % self.seats for k in range(1, self.seats - len(self.trick))]

    def ally_busso_suits(self) -> list[int]:
        """Suits a side-mate led with busso: he wants them back."""
        return [_suit(CARD_OF[text.split()[0]]) for seat, text in self.history
                if seat != self.me and seat in self.allies and text.endswith(" busso")]

    # -- choosing ----------------------------------------------------------------------------------

    def choose(self) -> str:
        return self.lead() if not self.trick else CARD_STRINGS[self.follow()]

    def length(self, suit: int) -> int:
        return sum(1 for c in self.hand if _suit(c) == suit)

    def lead(self) -> str:
        others = self.others()
        for suit in reversed(self.ally_busso_suits()):
            mine = [c for c in self.cards if _suit(c) == suit]
            if mine:
                return self.signal(max(mine, key=lambda c: STRENGTH[c]))
        # The carta tre: a card nobody can beat takes the trick, points first.
        sure = [c for c in self.cards if not self.beaten(c, others)]
        if sure:
            return self.signal(max(sure, key=lambda c: (THIRDS[c], STRENGTH[c])))
        # From the longest suit, a card that gives little away.
        c = min(self.cards, key=lambda c: (-self.length(_suit(c)), THIRDS[c] > 0, STRENGTH[c]))
        return self.signal(c)

    def signal(self, c: int) -> str:
        """The lead, with a truthful signal to side-mates when there are any: busso when one's
        best card of the suit is beaten by a single card, which a side-mate may take with and come
        back (so that the best card then takes); striscio when one holds more of the suit."""
        text = CARD_STRINGS[c]
        if len(self.allies) < 2:
            return text
        mine = [x for x in self.hand if _suit(x) == _suit(c)]
        top = max(mine, key=lambda x: STRENGTH[x])
        above = [x for x in self.unseen if _suit(x) == _suit(c) and STRENGTH[x] > STRENGTH[top]]
        wanted = f"{text} busso" if top != c and len(above) == 1 else f"{text} striscio"
        return wanted if wanted in self.legal else text

    def follow(self) -> int:
        led = _suit(self.trick[0][1])
        best_seat, best = self.trick[trick_taker([c for _, c in self.trick])]
        after = self.after_me()
        if best_seat in self.allies and not self.beaten(best, after):
            return self.give_points()
        points_on_table = sum(THIRDS[c] for _, c in self.trick)
        winners = [c for c in self.cards if _suit(c) == led and STRENGTH[c] > STRENGTH[best]]
        sure = [c for c in winners if not self.beaten(c, after)]
        last = not [s for s in after if s not in self.allies]
        if sure and (points_on_table or any(THIRDS[c] for c in sure) or last):
            return min(sure, key=lambda c: (STRENGTH[c], -THIRDS[c]))
        return self.shed()

    def give_points(self) -> int:
        """A side-mate takes: add the most points that can be spared, keeping sure winners, an
        ace first from the suit where it is least protected."""
        others = self.others()
        return max(self.cards, key=lambda c: (self.beaten(c, others), THIRDS[c], -self.length(_suit(c)),
                                              -STRENGTH[c]))

    def shed(self) -> int:
        """Nothing to gain: the cheapest card, keeping sure winners."""
        others = self.others()
        return min(self.cards, key=lambda c: (THIRDS[c], not self.beaten(c, others), STRENGTH[c]))
