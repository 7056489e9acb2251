"""A rule-based Quattrigghiu player: it always calls, the trunfu and whether alone from the count
of trunfi and battittura, calls a re where its own hand is short, draws trumps with sure ones
when its side chose them, takes basi as cheaply as it can, ruffs what it cannot follow, helps a
partner it knows, and tries the tutità only when it cannot fail.

The figures below (what a card is worth, when to call) were set by playing the bot against
variants of itself over duplicate deals; where a comment says "measured", that is the source.

Quattrigghiu counts basi, not card points, so every base is worth the same: the bot never plays
a high card to a base it cannot keep, and it sheds the cards least likely to take a base later.
It reads only its observation; the card orders per trunfu come from the game's module.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from osteria.bots.base import Bot
from osteria.cards import CARD_STRINGS, ITALIAN_40, SUITS, cards_of, parse_card, suit_of
from osteria.rules.quattrigghiu import (
    CAVALLI,
    MATADORS,
    RE,
    STRENGTH,
    TRUMP_MASK,
    QuattrigghiuMatchObservation,
    led_suit,
)

# The value in basi of a card, as a call is weighed: a battittura is a base; the next two trunfi
# (puntu or re, then re or cavallo) nearly always; a small trunfu takes a base about half the time,
# by ruffing. A plain re takes its base unless it is ruffed, a cavallo behind its re sometimes.
MATADOR_VALUE, HIGH_TRUMP_VALUE, LOW_TRUMP_VALUE = 1.0, 0.8, 0.45
PLAIN_RE_VALUE, GUARDED_CAVALLO_VALUE = 0.7, 0.3
# Long trunfi take the last basi once the others have none: each trunfu past the fourth adds this.
LENGTH_VALUE = 0.3
# Passing leaves the call to a later seat, and the side that calls wins most deals: measured on
# 21,000 deals of rule-based play, each option of the call played out on the true deal, a seat
# that passed lost 0.85 stakes a deal with the weakest hands (worth under 2 basi by this count)
# where calling lost 0.09 to 0.46 with them; and the rule that calls with every hand led the one
# that passed below 2 basi by 0.031 stakes a board over 3,000 duplicate boards. So it always
# calls. Alone, a hand worth under 5.25 does better with an aiutu than with the triple stake of a
# sulità (measured the same way: 5.25 gained 0.012 stakes a call over 5.75, 4.75 lost 0.021).
SULITA_AT = 5.25
# Answering "aiutu" to an open call puts one on the side of a caller strong in his trunfu: measured,
# it beats defending with any hand worth some half a base in his suit.
HELP_AT = 0.5


def _places(trump: int) -> dict[int, int]:
    """Each trunfu's place in its order: 0 for the spatigghia, 1 for the manigghia..."""
    strength = STRENGTH[trump]
    trumps = cards_of(TRUMP_MASK[trump])
    return {c: sum(strength[x] > strength[c] for x in trumps) for c in trumps}


PLACES = tuple(_places(t) for t in range(4))  # PLACES[trump][card], for the trunfi


def estimated_basi(hand: list[int], trump: int) -> float:
    """How many basi ``hand`` should take with ``trump`` as trunfu."""
    trumps = TRUMP_MASK[trump]
    places = [PLACES[trump][c] for c in hand if trumps >> c & 1]
    value = 0.0
    for place in places:
        value += MATADOR_VALUE if place < 3 else HIGH_TRUMP_VALUE if place < 5 else LOW_TRUMP_VALUE
    value += LENGTH_VALUE * max(0, len(places) - 4)
    plain = [c for c in hand if not trumps >> c & 1]
    for c in plain:
        if c in RE:
            value += PLAIN_RE_VALUE
        elif c in CAVALLI and RE[suit_of(c)] in plain:
            value += GUARDED_CAVALLO_VALUE
    return value


class QuattrigghiuHeuristic(Bot):
    name = "heuristic"

    def act(self, observation: Mapping[str, Any], legal_actions: list[str]) -> str:
        if len(legal_actions) == 1:
            return legal_actions[0]
        obs = cast(QuattrigghiuMatchObservation, observation)
        hand = [parse_card(c) for c in obs["hand"]]
        if "tutita" in legal_actions:
            return "tutita" if _sure_of_every_base(hand, obs) else "basta"
        if "aiutu" in legal_actions:
            assert obs["trump"] is not None, "volunteers answer a call"
            trump = SUITS.index(obs["trump"])
            return "aiutu" if estimated_basi(hand, trump) >= HELP_AT else "passu"
        if any(a.startswith(("chiamu", "sulita")) for a in legal_actions):
            return _call(hand, legal_actions)
        return _Play(obs, legal_actions, hand).choose()

    def runners_up(self, observation: Mapping[str, Any], legal_actions: list[str], choice: str) -> list[str]:
        """In the call, the call and the sulità in each suit, the suits by how many basi the hand
        should take with it as trunfu (the re called as the rule would call it), then passing:
        a search weighs the best call of each kind, not any."""
        if not any(a.startswith(("chiamu", "sulita")) for a in legal_actions):
            return []
        hand = [parse_card(c) for c in observation["hand"]]
        ranked = []
        for trump, _ in _by_worth(hand):
            suit = SUITS[trump]
            if f"chiamu {suit}" in legal_actions:
                ranked.append(f"chiamu {suit}")
            elif calls := [a for a in legal_actions if a.startswith(f"chiamu {suit} ")]:
                ranked.append(_re_to_call(hand, trump, calls))
            ranked.append(f"sulita {suit}")
        return [a for a in [*ranked, "passu"] if a in legal_actions and a != choice]


def _by_worth(hand: list[int]) -> list[tuple[int, float]]:
    """Each suit and how many basi ``hand`` should take with it as trunfu, most first; between
    equals, the suit with more trunfi in hand first."""
    value = {t: estimated_basi(hand, t) for t in range(4)}
    order = sorted(range(4), key=lambda t: (-value[t], -sum(TRUMP_MASK[t] >> c & 1 for c in hand)))
    return [(t, value[t]) for t in order]


def _call(hand: list[int], legal: list[str]) -> str:
    """Call the trunfu worth most basi, alone only when very strong, and never pass (above)."""
    trump, worth = _by_worth(hand)[0]
    suit = SUITS[trump]
    if worth >= SULITA_AT or not any(a.startswith("chiamu") for a in legal):
        return f"sulita {suit}"
    if f"chiamu {suit}" in legal:  # aiuto_volontario: the trunfu only
        return f"chiamu {suit}"
    return _re_to_call(hand, trump, [a for a in legal if a.startswith(f"chiamu {suit} ")])


def _re_to_call(hand: list[int], trump: int, calls: list[str]) -> str:
    """Of the ``calls`` in ``trump`` (each naming a re), the one the rule makes. Call a re of a suit
    where the hand is short: the aiutu's re takes a base there that the caller could not, while in
    a long suit of the caller's it would crash with his own cards. A re of trunfu is a high trunfu
    for the aiutu, good too, but only after a void plain suit. (Which re is called changes little
    in play: measured, it is within the noise.)"""

    def shortness(action: str) -> tuple[int, int]:
        c = parse_card(action.split()[2])
        if TRUMP_MASK[trump] >> c & 1 or suit_of(c) == trump:
            return (1, 0)
        held = sum(1 for x in hand if suit_of(x) == suit_of(c) and not TRUMP_MASK[trump] >> x & 1)
        return (0 if held <= 1 else 2, held)

    return min(calls, key=shortness)


def _sure_of_every_base(hand: list[int], obs: QuattrigghiuMatchObservation) -> bool:
    """After six clean basi the earlier ones are forgotten: the tutità is safe only when every
    card left is a trunfu no card out of this hand can beat. Then each base is this hand's, led
    or not (a trunfu is always playable: on a plain lead this hand holds no plain card)."""
    assert obs["trump"] is not None, "the tutità comes after the call"
    trump = SUITS.index(obs["trump"])
    strength, trumps = STRENGTH[trump], TRUMP_MASK[trump]
    gone = _gone(obs)
    outside = [c for c in cards_of(trumps) if c not in hand and c not in gone]
    top = max((strength[c] for c in outside), default=0)
    return all(trumps >> c & 1 and strength[c] > top for c in hand)


def _gone(obs: QuattrigghiuMatchObservation) -> set[int]:
    """The cards this seat still sees played: the remembered basi and the one on the table."""
    seen = [c for t in obs["tricks"] for _, c in t["cards"]] + [c for _, c in obs["trick"]]
    return {parse_card(c) for c in seen}


class _Play:
    """A card to play, worked out from one observation."""

    def __init__(self, obs: QuattrigghiuMatchObservation, legal: list[str], hand: list[int]) -> None:
        self.me: int = obs["seat"]
        # Cards are played after the call, which names the trunfu and its caller.
        assert obs["trump"] is not None and obs["caller"] is not None
        self.trump = SUITS.index(obs["trump"])
        self.strength = STRENGTH[self.trump]
        self.trumps = TRUMP_MASK[self.trump]
        self.hand = hand
        self.cards = [parse_card(a) for a in legal]
        self.trick = [(seat, parse_card(c)) for seat, c in obs["trick"]]
        self.gone = _gone(obs)
        # Cards that may be in another hand (forgotten basi count as such: the bot does not know).
        self.unseen = [c for c in ITALIAN_40.cards if c not in self.gone and c not in hand]
        self.caller = obs["caller"]
        self.friends = self._friends(obs)
        self.voids = self._voids(obs)

    def _friends(self, obs: QuattrigghiuMatchObservation) -> set[int]:
        """The seats known to play on this seat's side."""
        aiuto = obs["aiuto"]
        # Without a called card, an aiutu unknown in play means nobody helps: a sulità, or an
        # open call nobody answered.
        alone = aiuto is None and obs["called_card"] is None
        others = {s for s in range(4) if s != self.me}
        if self.me == self.caller:
            return {aiuto} if aiuto is not None else set()
        if aiuto == self.me:
            return {self.caller}
        if alone:  # the three against the caller
            return others - {self.caller}
        if aiuto is not None:
            return others - {self.caller, aiuto}
        return set()

    def _voids(self, obs: QuattrigghiuMatchObservation) -> dict[int, set[int]]:
        """Per seat, the suits (as led) it has shown it lacks by not answering them."""
        voids: dict[int, set[int]] = {s: set() for s in range(4)}
        for trick in [t["cards"] for t in obs["tricks"]] + [obs["trick"]]:
            if not trick:
                continue
            led = led_suit(self.trump, parse_card(trick[0][1]))
            for seat, text in trick[1:]:
                c = parse_card(text)
                # A matador held back under the privilege is no sign of a void; a plain card is.
                if led_suit(self.trump, c) != led and not (led == self.trump and MATADORS[self.trump] >> c & 1):
                    voids[seat].add(led)
        return voids

    # -- card sense --------------------------------------------------------------------------------

    def is_trump(self, c: int) -> bool:
        return bool(self.trumps >> c & 1)

    def power(self, c: int, led: int) -> int:
        """What c is worth in a base whose led suit is ``led``: nothing off suit and not trunfu."""
        return self.strength[c] if self.is_trump(c) or led_suit(self.trump, c) == led else 0

    def keep_value(self, c: int) -> tuple[int, int, int]:
        """Order to shed by: plain cards before trunfi, low before high, short suits first (to
        make a void to ruff with)."""
        suit_length = sum(1 for x in self.hand if led_suit(self.trump, x) == led_suit(self.trump, c))
        return (self.is_trump(c), self.strength[c], suit_length)

    def beaters(self, c: int, led: int) -> list[int]:
        """Unseen cards that would beat c in a base led in ``led``."""
        mine = self.power(c, led)
        return [u for u in self.unseen if self.power(u, led) > mine]

    def holds(self, c: int, led: int, threats: list[int]) -> bool:
        """Whether c, played now, stays the best card against the seats still to play that may be
        against this seat. A trunfu beats a plain card only from a seat void in the suit: such a
        ruff is feared from a threat that has shown the void (fearing it sooner costs more basi
        than it saves: measured)."""
        if not threats:
            return True
        beaters = self.beaters(c, led)
        if any(not self.is_trump(u) or led == self.trump for u in beaters):
            return False
        return not beaters or not any(led in self.voids[s] for s in threats)

    # -- choosing ----------------------------------------------------------------------------------

    def choose(self) -> str:
        return CARD_STRINGS[self.follow() if self.trick else self.lead()]

    def lead(self) -> int:
        cards = self.cards
        my_trumps = sorted((c for c in cards if self.is_trump(c)), key=lambda c: -self.strength[c])
        out_trumps = [u for u in self.unseen if self.is_trump(u)]
        others = [s for s in range(4) if s != self.me and s not in self.friends]
        attacking = self.me == self.caller or self.caller in self.friends
        # Draw trunfi with sure ones when this side chose the trunfu, so that the others cannot
        # ruff its plain winners. (Leading small trunfi, even when long, gives basi away: measured.)
        if my_trumps and out_trumps and attacking and self.holds(my_trumps[0], self.trump, others):
            return my_trumps[0]
        # A plain card that takes its base.
        winners = [c for c in cards if not self.is_trump(c) and self.holds(c, led_suit(self.trump, c), others)]
        if winners:
            return max(winners, key=lambda c: self.strength[c])
        plain = [c for c in cards if not self.is_trump(c)]
        if not plain:  # only trunfi: the top one if it is sure, else the smallest
            return my_trumps[0] if self.holds(my_trumps[0], self.trump, others) else my_trumps[-1]
        # Nothing sure: a low card of the longest plain suit, keeping the high ones for later.
        length = {s: sum(1 for c in plain if suit_of(c) == s) for s in range(4)}
        return min(plain, key=lambda c: (-length[suit_of(c)], self.strength[c]))

    def follow(self) -> int:
        led = led_suit(self.trump, self.trick[0][1])
        best_seat, best = max(self.trick, key=lambda sc: self.power(sc[1], led))
        after = [(self.trick[0][0] + k) % 4 for k in range(len(self.trick) + 1, 4)]
        threats = [s for s in after if s not in self.friends]
        if best_seat in self.friends and self.holds(best, led, threats):
            return self.shed()
        winners = sorted((c for c in self.cards if self.power(c, led) > self.power(best, led)),
                         key=lambda c: self.strength[c])
        sure = [c for c in winners if self.holds(c, led, threats)]
        if sure:
            return sure[0]
        # A ruff may be overruffed, but a small trunfu risks little; a plain card that can be
        # beaten is kept for a base it can take.
        ruffs = [c for c in winners if self.is_trump(c) and led != self.trump]
        if ruffs and best_seat not in self.friends:
            return ruffs[0]
        return self.shed()

    def shed(self) -> int:
        return min(self.cards, key=self.keep_value)
