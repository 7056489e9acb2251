"""Tressette, two against two, with accusi, signals and the dummy ("col morto").

Read top to bottom, this module is the rules: the cards' order and points, the accusi, the
signals, the play of a deal, its scoring and the end of the match.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Final, TypedDict, cast

from osteria.cards import (
    CARD_STRINGS,
    ITALIAN_40,
    SUIT_MASK,
    SUITS,
    card,
    cards_of,
    mask_of,
    suit_cards,
)
from osteria.engine import (
    JSON,
    Deal,
    DealResult,
    Drawing,
    Game,
    IllegalAction,
    MatchObservation,
    Option,
    SearchHints,
    SeatAction,
    SeatCard,
    TakenTrick,
    Terms,
    copy_into,
    parse_cards,
    partner_of,
    side_of,
)
from osteria.i18n import N_, AtSeat, OfCard, OfSuit, Reason, Term
from osteria.openplay import OpenPlay, SuitPlay
from osteria.rules.tressette_family import (
    DEAL_THIRDS,
    FAMILY_CHAINS,
    LAST_TRICK_THIRDS,
    PLAYOUT_SLIP,
    STRENGTH,
    STRONGER,
    THIRDS,
    family_trick_play,
    playable,
    trick_taker,
)
from osteria.sampling import Play, Unseen, first_showing, played_from, plays_of
from osteria.trickplay import TrickPlay

# -- the cards -----------------------------------------------------------------------------------

TRICKS: Final = 10

FOUR_OF_DENARI: Final = card("4", "d")


# -- accusi (bongioco) --------------------------------------------------------------------------
# Three or four aces, twos or threes, and the napoletana (ace, two and three of one suit).
# Four of a kind is declared as the four, never as a three; a card may serve in two accusi.

class Accuso:
    def __init__(self, kind: str, rank: str, cards: tuple[int, ...], points: int) -> None:
        self.kind, self.rank, self.cards, self.points = kind, rank, cards, points
        self.mask = sum(1 << c for c in cards)
        self.text = "accuso " + " ".join(CARD_STRINGS[c] for c in cards)


ACCUSI: list[Accuso] = []
for _r in "A23":
    ACCUSI.append(Accuso("quattro", _r, tuple(card(_r, s) for s in "dcsb"), 4))
    for _missing in "dcsb":
        ACCUSI.append(Accuso("tris", _r, tuple(card(_r, s) for s in "dcsb" if s != _missing), 3))
for _suit in "dcsb":
    ACCUSI.append(Accuso("napoletana", "A", tuple(card(r, _suit) for r in "A23"), 3))
ACCUSO_BY_MASK: Final = {a.mask: i for i, a in enumerate(ACCUSI)}
FOUR_MASK: Final = {a.rank: a.mask for a in ACCUSI if a.kind == "quattro"}


def accuso_named(text: str) -> Accuso | None:
    """The accuso an action string declares, as a seat saw it (``accuso tris 3`` where the faliante
    is hidden: any three of that rank); None for any other action."""
    words = text.split()
    if words[:1] != ["accuso"]:
        return None
    if words[1:2] == ["tris"] and len(words) == 3:
        return next((a for a in ACCUSI if a.kind == "tris" and a.rank == words[2]), None)
    cards = [CARD_OF.get(w) for w in words[1:]]
    mask = sum(1 << c for c in cards if c is not None)
    index = ACCUSO_BY_MASK.get(mask) if None not in cards else None
    return None if index is None else ACCUSI[index]


ACCUSO_CARDS: Final = sum(FOUR_MASK.values())  # the aces, twos and threes
_ACCUSI_OF: dict[int, tuple[int, ...]] = {}  # by a hand's aces, twos and threes; filled as met


def accusi_in(hand: int) -> tuple[int, ...]:
    """The accusi a hand can declare."""
    held = hand & ACCUSO_CARDS
    found = _ACCUSI_OF.get(held)
    if found is None:
        found = _ACCUSI_OF[held] = tuple(
            i for i, a in enumerate(ACCUSI)
            if held & a.mask == a.mask and not (a.kind == "tris" and held & FOUR_MASK[a.rank] == FOUR_MASK[a.rank]))
    return found


# -- signals (segni) ----------------------------------------------------------------------------
# Only the leader of a trick signals, with one word after his card, and only a true one.
# nord: busso (a request, always allowed), striscio (I hold more of this suit), volo (my last).
# sud, only when leading a suit not yet led in the deal, describing the holding of that suit
# as it was led (the led card included): napoli (ace, two and three), voglio_X (the other two
# carichi, not X), ho_X (X, the only carico), seconda...decima (no carico: that many cards),
# volo (the led card is the last of the suit).
NORD = ("busso", "striscio", "volo")
CARICHI = {"asso": "A", "due": "2", "tre": "3"}
ORDINALS = ("seconda", "terza", "quarta", "quinta", "sesta", "settima", "ottava", "nona", "decima")
SUD = ("napoli", *(f"ho_{n}" for n in CARICHI), *(f"voglio_{n}" for n in CARICHI), *ORDINALS, "volo")
SIGNALS = ("", *dict.fromkeys(NORD + SUD))  # index 0: no signal
SIGNAL_INDEX = {word: k for k, word in enumerate(SIGNALS) if word}
SIGNAL_STRIDE: Final = 64
ACCUSO_BASE: Final = SIGNAL_STRIDE * 32
_BUSSO, _STRISCIO, _VOLO = (SIGNAL_INDEX[w] for w in NORD)


def _carichi_held(holding: int, suit: int) -> list[str]:
    return [name for name, r in CARICHI.items() if holding >> card(r, "dcsb"[suit]) & 1]


def sud_statement(holding: int, suit: int) -> int | None:
    """The one statement that describes a suit's holding under the segni sud, if any."""
    held = _carichi_held(holding, suit)
    if len(held) == 3:
        return SIGNAL_INDEX["napoli"]
    if len(held) == 2:
        missing = next(n for n in CARICHI if n not in held)
        return SIGNAL_INDEX[f"voglio_{missing}"]
    if len(held) == 1:
        return SIGNAL_INDEX[f"ho_{held[0]}"]
    n = (holding & SUIT_MASK[suit]).bit_count()
    return SIGNAL_INDEX[ORDINALS[n - 2]] if n >= 2 else None


def _suit_leads(segni: str, holding: int, suit: int) -> tuple[int, ...]:
    """The leads of one suit's holding, each card with the signals it may carry."""
    cards = suit_cards(holding, suit)
    if segni == "nord":
        length = _STRISCIO if len(cards) > 1 else _VOLO
        return tuple(a for c in cards for a in (c, c + SIGNAL_STRIDE * _BUSSO, c + SIGNAL_STRIDE * length))
    words = [w for w in (sud_statement(holding, suit), _VOLO if len(cards) == 1 else None) if w]
    return tuple(a for c in cards for a in (c, *(c + SIGNAL_STRIDE * w for w in words)))


# The leads of each suit's holding, by segni, keyed by suit << 13 | holding; filled as met.
SUIT_LEADS: dict[str, dict[int, tuple[int, ...]]] = {"nord": {}, "sud": {}}


# -- the action strings ---------------------------------------------------------------------------

def _action_strings() -> dict[int, str]:
    strings = {}
    for c in ITALIAN_40.cards:
        for k, word in enumerate(SIGNALS):
            strings[c + SIGNAL_STRIDE * k] = CARD_STRINGS[c] + (f" {word}" if word else "")
    for i, a in enumerate(ACCUSI):
        strings[ACCUSO_BASE + i] = a.text
    return strings


ACTION_STRINGS: Final = _action_strings()
ACTION_OF: Final = {s: a for a, s in ACTION_STRINGS.items()}
CARD_OF: Final = {CARD_STRINGS[c]: c for c in ITALIAN_40.cards}


class TressetteObservation(TypedDict):
    """What a seat may know of a deal of Tressette (``TressetteDeal.observation``)."""

    dealer: int
    segni: str
    morto: list[int]  # the dummies' seats, whose hands all see
    hand: list[str]
    hands: list[list[str] | None]  # None where the seat may not see the hand
    hand_sizes: list[int]
    leader: int
    trick: list[SeatCard]
    last_trick: TakenTrick | None
    tricks_played: int
    thirds: list[int]  # per side
    played: list[str]
    accusi: list[SeatAction]
    history: list[SeatAction]


class TressetteMatchObservation(TressetteObservation, MatchObservation):
    """What a Tressette player reads: ``Match.observation(seat)`` while a deal is on."""


class TressetteDeal(Deal):
    """One deal of ten tricks.

    It plays its tricks itself rather than through the family's ``TrickDeal``: a side's thirds
    are counted by side and a trick of four is summed unrolled, for the engine's fast path that
    ``osteria bench`` measures against OpenSpiel's hearts (the family's trick play counts by
    seat, with the cards each seat took, which Tressette's result never asks).
    """

    action_strings = ACTION_STRINGS
    action_numbers = ACTION_OF

    def __init__(self, game: Tressette, dealer: int, hands: Sequence[Sequence[int]],
                 first_of_match: bool) -> None:
        self.seats = 4
        self.dealer = dealer
        self.segni: str = game.options["segni"]
        self.faliante: bool = game.options["faliante"]
        self.morto: tuple[int, ...] = tuple(game.options["morto"])
        self.hands = [sum(1 << c for c in hand) for hand in hands]
        self.dealt = (game, tuple(self.hands), first_of_match)
        if first_of_match:
            leader = next(s for s in range(4) if self.hands[s] >> FOUR_OF_DENARI & 1)
        else:
            leader = (dealer + 1) % 4
        self.leader = leader  # of the current trick
        self.to_move: int | None = leader
        self.trick: list[int] = []  # cards of the current trick, in play order
        self.tricks_done = 0
        self.thirds = [0, 0]
        self.accusi: list[tuple[int, int]] = []  # (seat, accuso index)
        self.suits_led = 0  # a bitmask of suits led in this deal (segni sud)
        self.last_trick: tuple[int, tuple[int, ...], int] | None = None  # leader, cards, winner
        self.history: list[tuple[int, int]] = []

    def copy(self) -> TressetteDeal:
        new = Deal.__new__(TressetteDeal)
        copy_into(new, self, containers=False)
        new.hands = self.hands[:]
        new.trick = self.trick[:]
        new.thirds = self.thirds[:]
        new.accusi = self.accusi[:]
        new.history = self.history[:]
        return new

    def dealt_cards(self) -> tuple[list[list[int]], dict[str, list[int]]]:
        return [cards_of(h) for h in self.dealt[1]], {}  # every card is dealt

    def as_dealt(self) -> TressetteDeal:
        game, hands, first_of_match = self.dealt
        return TressetteDeal(game, self.dealer, [cards_of(h) for h in hands], first_of_match)

    def decider(self, seat: int) -> int:
        return partner_of(seat) if seat in self.morto else seat

    def card_of(self, action: int) -> int | None:
        return action % SIGNAL_STRIDE if action < ACCUSO_BASE else None

    def same_side(self, a: int, b: int) -> bool:
        return side_of(a) == side_of(b)

    # -- legal actions --------------------------------------------------------------------------

    def legal(self) -> list[int]:
        seat = self.to_move
        if seat is None:
            return []
        hand = self.hands[seat]
        trick = self.trick
        # Following: the suit led while the hand holds it, else any card.
        actions = (list(suit_cards(hand, trick[0] // 13)) or cards_of(hand)) if trick else self._leads(hand)
        if self.tricks_done == 0:
            actions += [ACCUSO_BASE + i for i in self._accusi_to_declare(seat)]
        return actions

    def _accusi_to_declare(self, seat: int) -> list[int]:
        """The accusi (their indexes) the seat's hand holds and it has not declared yet."""
        held = accusi_in(self.hands[seat])
        if not held:
            return []
        declared = {i for s, i in self.accusi if s == seat}
        return [i for i in held if i not in declared]

    def _leads(self, hand: int) -> list[int]:
        segni = self.segni
        if segni == "muto":
            return cards_of(hand)
        # A suit's leads depend on its holding alone, so each holding's are worked out once.
        unled = SUIT_LEADS[segni]
        led = self.suits_led if segni == "sud" else 0  # sud: statements only on a suit not yet led
        actions: list[int] = []
        for suit in range(4):
            holding = (hand >> (13 * suit)) & 0x1FFF
            if not holding:
                continue
            if led >> suit & 1:
                actions += suit_cards(hand, suit)
                continue
            leads = unled.get(suit << 13 | holding)
            if leads is None:
                leads = unled[suit << 13 | holding] = _suit_leads(segni, hand & SUIT_MASK[suit], suit)
            actions += leads
        return actions

    def why_illegal(self, action: int) -> Reason:
        seat = self.to_move
        if seat is None:
            return Reason("the deal is over")
        who = AtSeat(seat)
        if action >= ACCUSO_BASE:
            a = ACCUSI[action - ACCUSO_BASE]
            if self.tricks_done:
                return Reason("{accuso!r}: accusi are declared only in the first trick, before one's card",
                              accuso=a.text)
            if self.hands[seat] & a.mask != a.mask:
                return Reason("{accuso!r}: {who} cannot declare cards that are not in the hand", accuso=a.text, who=who)
            if (seat, action - ACCUSO_BASE) in self.accusi:
                return Reason("{accuso!r}: {who} cannot declare it twice", accuso=a.text, who=who)
            return Reason("{accuso!r}: four of a kind is declared as the four", accuso=a.text)
        c, k = action % SIGNAL_STRIDE, action // SIGNAL_STRIDE
        named = OfCard(c)
        hand = self.hands[seat]
        if not hand >> c & 1:
            return Reason("{who} cannot play {card}: it is not in the hand", who=who, card=named)
        if self.trick:
            led = self.trick[0] // 13
            if c // 13 != led and hand & SUIT_MASK[led]:
                return Reason("{who} must follow suit: {card} is not {suit}", who=who, card=named, suit=OfSuit(led))
            return Reason("{who} may not signal: only the leader of a trick signals", who=who)
        word = SIGNALS[k]
        if self.segni == "muto":
            return Reason("no signals are played (segni muto): {card} {signal!r}", card=named, signal=word)
        if self.segni == "nord" and word not in NORD:
            return Reason("{signal!r} is not a signal of the segni nord (busso, striscio, volo)", signal=word)
        if self.segni == "sud" and word not in SUD:
            return Reason("{signal!r} is not a signal of the segni sud", signal=word)
        if self.segni == "sud" and self.suits_led >> (c // 13) & 1:
            return Reason("{card} {signal!r}: under the segni sud one speaks only on a suit not yet led",
                          card=named, signal=word)
        return Reason("{card} {signal!r}: the signal would not be true", card=named, signal=word)

    # -- playing ---------------------------------------------------------------------------------

    def perform(self, seat: int, action: int) -> None:
        if action >= ACCUSO_BASE:
            self.accusi.append((seat, action - ACCUSO_BASE))
            return
        c = action % SIGNAL_STRIDE
        self.hands[seat] ^= 1 << c
        trick = self.trick
        trick.append(c)
        if len(trick) == 1:
            self.suits_led |= 1 << (c // 13)
        if len(trick) < 4:
            self.to_move = (seat + 1) % 4
            return
        # The trick is complete: the highest card of the suit led takes it.
        winner = (self.leader + trick_taker(trick)) % 4
        side = side_of(winner)
        self.thirds[side] += THIRDS[trick[0]] + THIRDS[trick[1]] + THIRDS[trick[2]] + THIRDS[trick[3]]
        self.last_trick = (self.leader, tuple(trick), winner)
        self.trick = []
        self.tricks_done += 1
        if self.tricks_done == TRICKS:
            self.thirds[side] += LAST_TRICK_THIRDS
            self.to_move = None
        else:
            self.leader = self.to_move = winner

    def playout_action(self, rng: random.Random) -> int:
        """A playout's action as a sound player plays one at first sight, every hand open:
        declare each accuso; lead a card that surely takes points, else a low card of the longest
        suit; follow with the weakest card that surely takes the trick; give the most points to a
        partner sure to take it; else shed the card worth least. A card in five is random, so
        that the playouts of one sampled deal differ."""
        legal = self.legal()
        if len(legal) == 1 or rng.random() < PLAYOUT_SLIP:
            return rng.choice(legal)
        if legal[-1] >= ACCUSO_BASE:
            return legal[-1]  # an accuso only scores
        seat = self.to_move
        assert seat is not None
        hands, trick = self.hands, self.trick
        later = 0  # the cards of the seats still to play to this trick
        for k in range(1, 4 - len(trick)):
            later |= hands[(seat + k) % 4]
        if not trick:
            hand = hands[seat]
            held = cards_of(hand)
            sure = [c for c in held if THIRDS[c] and not STRONGER[c] & later]
            card = (max(sure, key=THIRDS.__getitem__) if sure else
                    min(held, key=lambda c: (-(hand & SUIT_MASK[c // 13]).bit_count(), THIRDS[c] > 0, STRENGTH[c])))
            return next(a for a in legal if a % SIGNAL_STRIDE == card)
        taking = trick_taker(trick)
        best = trick[taking]
        partner_sure = (self.leader + taking) % 2 == seat % 2 and not STRONGER[best] & later
        if partner_sure:
            return max(legal, key=lambda c: (THIRDS[c], -STRENGTH[c]))
        if legal[0] // 13 == trick[0] // 13:
            sure = [c for c in legal if STRENGTH[c] > STRENGTH[best] and not STRONGER[c] & later]
            if sure:
                return min(sure, key=STRENGTH.__getitem__)
        return min(legal, key=lambda c: (THIRDS[c], STRENGTH[c]))

    # -- strings ---------------------------------------------------------------------------------

    def unlisted_action(self, text: str) -> int:
        words = text.split()
        if not words:
            raise IllegalAction(Reason("an empty action"))
        if words[0] == "accuso":
            cards = parse_cards(words[1:], text)
            mask = sum(1 << c for c in cards)
            if len(set(cards)) != len(cards) or mask not in ACCUSO_BY_MASK:
                raise IllegalAction(Reason("{action!r} is no accuso: three or four aces, twos or threes, "
                                           "or ace, two and three of one suit", action=text))
            return ACCUSO_BASE + ACCUSO_BY_MASK[mask]
        c = CARD_OF.get(words[0])
        if c is not None and len(words) == 2 and words[1] in SIGNAL_INDEX:
            return c + SIGNAL_STRIDE * SIGNAL_INDEX[words[1]]
        raise IllegalAction(Reason("{action!r} is not a tressette action: a card of the 40-card deck (3d), a card "
                                   "and a signal (3d volo), or accuso and its cards", action=text))

    def seen_action(self, seat: int, actor: int, action: int) -> str:
        """An action as ``seat`` saw it: an accuso's faliante may be hidden from the others."""
        if action >= ACCUSO_BASE and not self.faliante and seat != actor:
            a = ACCUSI[action - ACCUSO_BASE]
            if a.kind == "tris":
                return f"accuso tris {a.rank}"
        return ACTION_STRINGS[action]

    # -- what a seat may see ---------------------------------------------------------------------

    def _hands_seen(self, seat: int) -> list[list[str] | None]:
        """Every hand as ``seat`` sees it: its own and the dummies'."""
        visible = {seat, *self.morto}
        return [[CARD_STRINGS[c] for c in cards_of(h)] if s in visible else None for s, h in enumerate(self.hands)]

    def _accusi_seen(self, seat: int) -> list[SeatAction]:
        return [[s, self.seen_action(seat, s, ACCUSO_BASE + i)] for s, i in self.accusi]

    def _history_seen(self, seat: int) -> list[SeatAction]:
        # Only an accuso can show a seat less than it is: any other action as it is, at once.
        return [[s, ACTION_STRINGS[a] if a < ACCUSO_BASE else self.seen_action(seat, s, a)] for s, a in self.history]

    def observation(self, seat: int) -> TressetteObservation:
        played = [CARD_STRINGS[a % SIGNAL_STRIDE] for _, a in self.history if a < ACCUSO_BASE]
        obs: TressetteObservation = {
            "dealer": self.dealer,
            "segni": self.segni,
            "morto": list(self.morto),
            "hand": [CARD_STRINGS[c] for c in cards_of(self.hands[seat])],
            "hands": self._hands_seen(seat),
            "hand_sizes": [h.bit_count() for h in self.hands],
            "leader": self.leader,
            "trick": [[(self.leader + i) % 4, CARD_STRINGS[c]] for i, c in enumerate(self.trick)],
            "last_trick": None,
            "tricks_played": self.tricks_done,
            "thirds": list(self.thirds),
            "played": played,
            "accusi": self._accusi_seen(seat),
            "history": self._history_seen(seat),
        }
        if self.last_trick is not None:
            leader, cards, winner = self.last_trick
            obs["last_trick"] = {"cards": [[(leader + i) % 4, CARD_STRINGS[c]] for i, c in enumerate(cards)],
                                 "winner": winner}
        return obs

    def observations(self) -> Sequence[TressetteObservation]:
        # The seats see alike all but their hands, and an accuso whose faliante is hidden.
        first = self.observation(0)
        seen = [first]
        hidden = not self.faliante and any(a >= ACCUSO_BASE for _, a in self.history)
        for seat in range(1, 4):
            obs = first.copy()
            obs["hand"] = [CARD_STRINGS[c] for c in cards_of(self.hands[seat])]
            obs["hands"] = self._hands_seen(seat)
            if hidden:
                obs["accusi"] = self._accusi_seen(seat)
                obs["history"] = self._history_seen(seat)
            seen.append(obs)
        return seen

    # -- scoring ---------------------------------------------------------------------------------

    def result(self) -> DealResult:
        return deal_result(self.thirds, self.accusi_points())

    def accusi_points(self) -> list[int]:
        """The points of each side's accusi."""
        accusi = [0, 0]
        for s, i in self.accusi:
            accusi[side_of(s)] += ACCUSI[i].points
        return accusi

    # -- the open-handed play, for the solver --------------------------------------------------------

    def open_play(self, seat: int) -> OpenPlay:
        # The solver counts thirds; the result is a monotone step of them, taken at the end.
        side = side_of(seat)
        taken, accusi = self.thirds[side], self.accusi_points()
        if not self.tricks_done:
            # Whoever still plays to the first trick after the seat to move declares first what
            # it holds; the seat to move plays a card, and so has declared all it will.
            for later in range(len(self.trick) + 1, 4):
                s = (self.leader + later) % 4
                accusi[side_of(s)] += sum(ACCUSI[i].points for i in self._accusi_to_declare(s))

        def finish(gained: int) -> int:
            thirds = [0, 0]
            thirds[side] = taken + gained
            thirds[1 - side] = DEAL_THIRDS - thirds[side]
            return deal_result(thirds, accusi).delta[seat]

        return OpenPlay(hands=self.hands, trick=self.trick, leader=self.leader,
                        team=[side_of(s) == side for s in range(4)], values=THIRDS, chains=FAMILY_CHAINS,
                        follow=playable, taker=trick_taker, finish=finish, last_bonus=LAST_TRICK_THIRDS,
                        cashes=True, suit_play=SuitPlay(), playout_slip=PLAYOUT_SLIP)


def deal_result(thirds: Sequence[int], accusi: Sequence[int]) -> DealResult:
    """The result of a deal played out, from each side's thirds (the last trick's point
    included) and the points of its accusi."""
    # A side's points are its whole points: the thirds left over are lost, so 11 in all.
    points = [thirds[0] // 3, thirds[1] // 3]
    delta = [points[side_of(s)] + accusi[side_of(s)] for s in range(4)]
    outcome = "cappotto" if min(points) == 0 else "giocata"
    return DealResult(outcome, points, delta)


# -- what a seat can tell of the hands it does not see ---------------------------------------------

def accuso_knowledge(unseen: Unseen, h: int, text: str, later: int) -> None:
    """An accuso declared by holder h, who held then its hand now and ``later``, the cards it
    played since: the cards shown; for a tris, the fourth card was not held (else it is the four);
    for a tris whose faliante is hidden, exactly three of the four."""
    words = text.split()
    if words[1] == "tris":
        four = FOUR_MASK[words[2]]
        held = 3 - (later & four).bit_count()
        unseen.count(h, four, held, held)
        return
    cards = mask_of(CARD_OF[w] for w in words[1:])
    unseen.require(h, cards & ~later)
    rank = words[1][0]
    if len(words) == 4 and all(w[0] == rank for w in words[1:]):
        unseen.forbid(h, FOUR_MASK[rank] & ~cards)


def signal_knowledge(unseen: Unseen, h: int, play: Play, later: int) -> None:
    """A lead signal, true by rule, of holder h, who held then its hand now, the card led and
    ``later``, the cards it played after it."""
    word, suit = play.word, play.card // 13
    cards = SUIT_MASK[suit]
    if word == "volo":
        unseen.forbid(h, cards)
    elif word == "striscio":  # at least one more card of the suit
        unseen.count(h, cards, 1 - (later & cards).bit_count(), TRICKS)
    elif word in SUD:
        carichi = mask_of(card(r, SUITS[suit]) for r in CARICHI.values())
        if word == "napoli":
            held = carichi
        elif word.startswith("ho_"):
            held = 1 << card(CARICHI[word[3:]], SUITS[suit])
        elif word.startswith("voglio_"):
            held = carichi & ~(1 << card(CARICHI[word[7:]], SUITS[suit]))
        else:  # seconda...decima: that many cards with the one led, and no carico
            held = 0
            n = ORDINALS.index(word) + 1 - (later & cards).bit_count()
            unseen.count(h, cards, n, n)
        unseen.require(h, held & ~later)
        unseen.forbid(h, carichi & ~held)


def _check_morto(value: JSON) -> str | None:
    if not isinstance(value, list) or not all(isinstance(s, int) and not isinstance(s, bool) for s in value):
        return "a list of seats, as [2]"
    if any(not 0 <= s < 4 for s in value) or len(set(value)) != len(value):
        return "seats from 0 to 3, each once"
    if len({side_of(s) for s in value}) != len(value):
        return "a side needs one real player: at most one dummy per side"
    return None


class _SeenCards:
    """What an observation tells of the cards its seat cannot see, read once for every deal
    sampled from it: the unseen cards' constraints, the hands seen, the cards each seat has
    played, and the history as actions."""

    def __init__(self, obs: Mapping[str, JSON]) -> None:
        history = cast(list[SeatAction], obs["history"])
        plays = plays_of(history, 4)
        self.after = after = played_from(plays, 4)
        hands_seen = cast(list[list[str] | None], obs["hands"])
        self.known = known = [None if hand is None else mask_of(CARD_OF[c] for c in hand) for hand in hands_seen]
        seen = mask_of(p.card for p in plays) | sum(k for k in known if k is not None)
        self.unseen = unseen = Unseen(ITALIAN_40.mask & ~seen)
        sizes = cast(list[int], obs["hand_sizes"])
        self.holder = holder = {s: unseen.holder(sizes[s]) for s in range(4) if known[s] is None}
        for s, text in history:
            if s in holder and text.startswith("accuso"):
                # Accusi come before a seat's first card: it held then its hand and all it played.
                accuso_knowledge(unseen, holder[s], text, after[s][0])
        if obs["deal_index"] == 0 and history and history[0][0] in holder:
            unseen.require(holder[history[0][0]], 1 << FOUR_OF_DENARI)  # the match's first leader held it
        for k, p in enumerate(plays):
            h = holder.get(p.seat)
            if h is None:
                continue
            led = p.led // 13
            if p.card // 13 != led:
                unseen.forbid(h, SUIT_MASK[led])  # not following shows a void
            elif p.word:
                signal_knowledge(unseen, h, p, after[p.seat][k + 1])
        # Each action with its number, but a three of a kind whose faliante was not shown: its rank,
        # and its number found in the hand drawn.
        self.actions: list[tuple[int, int | None, str]] = [
            (s, None, text[-1]) if text.startswith("accuso tris ") else (s, ACTION_OF[text], "") for s, text in history]
        self.numbered = None if any(a is None for _, a, _ in self.actions) else tuple(
            (s, cast(int, a)) for s, a, _ in self.actions)

    def numbered_in(self, dealt: Sequence[int]) -> tuple[tuple[int, int], ...]:
        """The history's actions, numbered where the hands ``dealt`` hold what they declared."""
        if self.numbered is not None:
            return self.numbered
        return tuple((s, ACCUSO_BASE + next(i for i, a in enumerate(ACCUSI) if a.kind == "tris" and a.rank == rank
                                            and dealt[s] & a.mask == a.mask)) if action is None else (s, action)
                     for s, action, rank in self.actions)


class Tressette(Game):
    name = "tressette"
    partnership = True
    deck = ITALIAN_40
    seat_counts = (4,)
    default_seats = 4
    # From how many cards left the solver values a sampled deal's every action well within a
    # 0.1 s decision (solver times measured by ``osteria bench``).
    search_hints = SearchHints(solve_cards=16)
    option_specs = (
        Option("target", 31, (21, 31, 41), doc=N_("points that win the match"),
               label=N_("points to win")),
        Option("segni", "nord", ("nord", "sud", "muto"), doc=N_("which lead signals are played"),
               label=N_("segni (signals)")),
        Option("faliante", True, (True, False), doc=N_("the missing suit of a three-of-a-kind is shown"),
               label=N_("faliante (the missing suit)")),
        Option("morto", [], check=_check_morto, doc=N_("seats whose hand is played face up by the partner"),
               label=N_("morto (dummy)")),
    )

    def check_options(self) -> None:
        self.options["morto"] = sorted(self.options["morto"])

    def trick_play(self) -> TrickPlay | None:
        if self.options["morto"]:
            return None  # a hand face up on the table is more than the tables show
        return family_trick_play((0, 1, 0, 1), lead_card=FOUR_OF_DENARI)

    def hand_sizes(self) -> list[int]:
        return [10] * 4

    def score_bounds(self) -> tuple[int, int]:
        # 11 points of cards, and a side's accusi: at most a four of each carico and 4 napoletane.
        return 0, 11 + 3 * 4 + 4 * 3

    def max_decisions(self) -> int:
        # The cards, and the accusi: at most three of a kind of three ranks and four napoletane a seat.
        return 40 + 4 * 7

    def glossary(self) -> Terms:
        return GLOSSARY

    def signal_names(self) -> Terms:
        return SIGNAL_NAMES

    def signals_in_play(self) -> Terms:
        """The signals of the table's segni alone: none when muto."""
        words = {"nord": NORD, "sud": SUD}.get(self.options["segni"], ())
        return {word: SIGNAL_NAMES[word] for word in words}

    def new_deal(self, index: int, dealer: int, hands: Sequence[Sequence[int]],
                 stock: Mapping[str, Sequence[int]], previous: Sequence[DealResult]) -> TressetteDeal:
        return TressetteDeal(self, dealer, hands, first_of_match=index == 0)

    def sample_deal(self, observation: Mapping[str, JSON], rng: random.Random) -> TressetteDeal:
        return self.deal_sampler(observation)(rng)

    def deal_sampler(self, observation: Mapping[str, JSON]) -> Callable[[random.Random], TressetteDeal]:
        draw = self.deal_drawer(observation)
        return lambda rng: first_showing(lambda: cast(TressetteDeal, draw(rng).build()), observation)

    def deal_drawer(self, observation: Mapping[str, JSON]) -> Callable[[random.Random], Drawing]:
        seen = _SeenCards(observation)
        index, dealer = cast(int, observation["deal_index"]), cast(int, observation["dealer"])
        draw_hands = seen.unseen.sampler()

        def draw(rng: random.Random) -> Drawing:
            hands = draw_hands(rng)
            dealt = tuple((hands[seen.holder[s]] if current is None else current) | seen.after[s][0]
                          for s, current in enumerate(seen.known))
            actions = seen.numbered_in(dealt)
            return Drawing(dealt, actions, lambda: self._replayed(index, dealer, dealt, actions))

        return draw

    def _replayed(self, index: int, dealer: int, dealt: Sequence[int],
                  actions: Sequence[tuple[int, int]]) -> TressetteDeal:
        deal = self.new_deal(index, dealer, [cards_of(hand) for hand in dealt], {}, [])
        for s, action in actions:
            if deal.to_move != s:
                break  # not the history seen: the check rejects it
            deal.apply(action)
        return deal

    def match_status(self, results: Sequence[DealResult]) -> tuple[bool, list[int] | None]:
        totals = [sum(r.delta[s] for r in results) for s in (0, 1)]
        # Both sides past the target on the same deal: the higher wins; a tie plays on.
        if max(totals) >= self.options["target"] and totals[0] != totals[1]:
            side = 0 if totals[0] > totals[1] else 1
            return True, [side, side + 2]
        return False, None


GLOSSARY = {
    "accuso": Term("a declaration of a scoring set in the first trick"),
    "bongioco": Term("three or four aces, twos or threes, or a napoletana"),
    "napoletana": Term("ace, two and three of one suit"),
    "faliante": Term("the suit missing from a three-of-a-kind"),
    "busso": Term("partner, take with your best and come back to this suit"),
    "striscio": Term("I hold more cards of this suit"),
    "volo": Term("this is my last card of this suit"),
    "piombo": Term("void in a suit"),
    "carico": Term("an ace, two or three"),
    "cappotto": Term("one side takes every point of the deal"),
    "giocata": Term("a deal played out with no cappotto"),
    "morto": Term("a dummy: its hand lies face up and its partner plays it"),
    "mano": Term("a trick"),
    "palo": Term("suit"),
}

SIGNAL_NAMES = {
    "busso": Term("take and come back to this suit"),
    "striscio": Term("I hold more of this suit"),
    "volo": Term("my last card of this suit"),
    "napoli": Term("I hold ace, two and three", said="busso la napoli"),
    "ho_asso": Term("I hold the ace", said="ho l'asso"),
    "ho_due": Term("I hold the two", said="ho il due"),
    "ho_tre": Term("I hold the three", said="ho il tre"),
    "voglio_asso": Term("I want the ace", said="voglio l'asso"),
    "voglio_due": Term("I want the two", said="voglio il due"),
    "voglio_tre": Term("I want the three", said="voglio il tre"),
    "seconda": Term("2 cards of this suit"),
    "terza": Term("3 cards of this suit"),
    "quarta": Term("4 cards of this suit"),
    "quinta": Term("5 cards of this suit"),
    "sesta": Term("6 cards of this suit"),
    "settima": Term("7 cards of this suit"),
    "ottava": Term("8 cards of this suit"),
    "nona": Term("9 cards of this suit"),
    "decima": Term("10 cards of this suit"),
}
