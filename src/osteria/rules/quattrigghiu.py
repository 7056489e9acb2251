"""Quattrigghiu, the Sicilian game of Licodia Eubea (Ombre for four, like Quadrille).

Read top to bottom, this module is the rules: the card orders that change with the trump
suit, the call ("cu' m'aiuta?" or sulità), the play of the basi with the matador privilege,
the early stop and the tutità, the stakes and the length of the match ("giro").
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Final, TypedDict

from osteria.cards import CARD_STRINGS, ITALIAN_40, SUIT_MASK, SUITS, card, cards_of, mask_of, parse_card
from osteria.engine import (
    JSON,
    Deal,
    DealResult,
    Game,
    IllegalAction,
    MatchObservation,
    Option,
    RulesError,
    SearchHints,
    SeatAction,
    SeatCard,
    TakenTrick,
    Terms,
)
from osteria.i18n import N_, AtSeat, OfCard, OfSuit, Reason, Term
from osteria.openplay import OpenPlay, SuitPlay, chains_of
from osteria.sampling import Unseen, first_showing, played_from, plays_of
from osteria.trickplay import TrickPlay, TrumpCall

# -- the cards -----------------------------------------------------------------------------------
# One table per trump suit, every card from the highest down: first the trunfi, then each other
# suit. The spatigghia (ace of spade) and the bastu (ace of bastoni) are always trunfi; the
# manigghia is the two of a long trump suit (spade, bastoni) and the seven of a short one
# (denari, coppe); in a short trump suit the ace ("'u puntu") comes fourth. Out of trump the
# long suits run re to two, the short ones re, cavallo, fante, ace, then two up to seven.

CARD_ORDERS: Final[dict[str, dict[str, str]]] = {
    "d": {"trunfu": "As 7d Ab Ad Rd Cd Fd 2d 3d 4d 5d 6d",
          "c": "Rc Cc Fc Ac 2c 3c 4c 5c 6c 7c",
          "s": "Rs Cs Fs 7s 6s 5s 4s 3s 2s",
          "b": "Rb Cb Fb 7b 6b 5b 4b 3b 2b"},
    "c": {"trunfu": "As 7c Ab Ac Rc Cc Fc 2c 3c 4c 5c 6c",
          "d": "Rd Cd Fd Ad 2d 3d 4d 5d 6d 7d",
          "s": "Rs Cs Fs 7s 6s 5s 4s 3s 2s",
          "b": "Rb Cb Fb 7b 6b 5b 4b 3b 2b"},
    "s": {"trunfu": "As 2s Ab Rs Cs Fs 7s 6s 5s 4s 3s",
          "d": "Rd Cd Fd Ad 2d 3d 4d 5d 6d 7d",
          "c": "Rc Cc Fc Ac 2c 3c 4c 5c 6c 7c",
          "b": "Rb Cb Fb 7b 6b 5b 4b 3b 2b"},
    "b": {"trunfu": "As 2b Ab Rb Cb Fb 7b 6b 5b 4b 3b",
          "d": "Rd Cd Fd Ad 2d 3d 4d 5d 6d 7d",
          "c": "Rc Cc Fc Ac 2c 3c 4c 5c 6c 7c",
          "s": "Rs Cs Fs 7s 6s 5s 4s 3s 2s"},
}

SPATIGGHIA: Final = card("A", "s")
BASTU: Final = card("A", "b")
SIX_OF_DENARI: Final = card("6", "d")
MANIGGHIA: Final = tuple(card("2" if suit in "sb" else "7", suit) for suit in SUITS)
RE: Final = tuple(card("R", suit) for suit in SUITS)
CAVALLI: Final = tuple(card("C", suit) for suit in SUITS)
RE_MASK: Final = mask_of(RE)
TRICKS: Final = 10
WINNING: Final = 6  # basi that settle a deal; 5 each is a riposta


def _strengths(trump: str) -> tuple[list[int], int]:
    """Per card, its strength when ``trump`` is trunfu (a trunfu beats every plain card; plain
    cards compare only within their suit), and the mask of the trunfi."""
    table = CARD_ORDERS[trump]
    strength = [0] * 52
    trumps = [card(c[0], c[1]) for c in table["trunfu"].split()]
    for i, c in enumerate(trumps):
        strength[c] = 100 - i
    for suit in SUITS:
        if suit != trump:
            for i, text in enumerate(table[suit].split()):
                strength[card(text[0], text[1])] = 20 - i
    return strength, mask_of(trumps)


_TABLES: Final = [_strengths(s) for s in SUITS]
STRENGTH: Final = tuple(t[0] for t in _TABLES)  # STRENGTH[trump][card]
TRUMP_MASK: Final = tuple(t[1] for t in _TABLES)  # TRUMP_MASK[trump]: the trunfi
# FOLLOW[trump][suit]: the cards that answer a lead of ``suit`` (the trunfi when it is trump).
FOLLOW: Final = tuple(tuple(TRUMP_MASK[t] if s == t else SUIT_MASK[s] & ~TRUMP_MASK[t] for s in range(4))
               for t in range(4))
# The battittura (Quadrille's matadors): spatigghia, manigghia and bastu.
MATADORS: Final = tuple(mask_of((SPATIGGHIA, MANIGGHIA[t], BASTU)) for t in range(4))


def trumps(trump: int | None) -> int:
    """The trunfi: the called suit's once it is called; before, the spatigghia and the bastu,
    trunfi whatever the call."""
    return mask_of((SPATIGGHIA, BASTU)) if trump is None else TRUMP_MASK[trump]


def settled(side_basi: Sequence[int], attempt: int, tricks: int = TRICKS, winning: int = WINNING) -> tuple[str, int]:
    """The outcome of a deal that its basi settle, and the winning side (-1 for none). A tutità
    tried (by side ``attempt``) is made with all ten basi, else franca; otherwise six basi win, the
    caller's side's vinta or the others' cudigghia, all ten being a tutità, and five each are a
    riposta. Played out to ten basi, as the solver plays, the outcome is the same. A deal of
    fewer basi (the reduced game's) says how many it has and how many win; where a win is all
    of them, no side could have stopped short, and taking them all is no tutità."""
    if attempt >= 0:
        return ("tutita", attempt) if side_basi[attempt] == tricks else ("franca", -1)
    best = max(side_basi)
    winner = list(side_basi).index(best)
    if best == tricks > winning:
        return "tutita", winner
    if best >= winning:
        return ("vinta" if winner == 0 else "cudigghia"), winner
    return "riposta", -1


def after_base(side_basi: Sequence[int], side: int, attempt: int, tricks: int = TRICKS,
               winning: int = WINNING) -> str:
    """What the base just taken by ``side`` does: "end" the deal (a side has its six basi, or
    the tutità tried is made or lost, or the last base is played), open the tutità "window" (a
    side took each of the first six, and basi are left to go for), or play "on"."""
    done = sum(side_basi)
    if attempt >= 0:
        return "end" if side != attempt or done == tricks else "on"
    if side_basi[side] == winning:
        return "window" if done == winning < tricks else "end"
    return "end" if done == tricks else "on"


def trick_taker(trump: int, trick: Sequence[int]) -> int:
    """The position in the trick of the card that takes the basi: the highest trunfu, or
    without one the highest card of the suit led."""
    strength, trumps = STRENGTH[trump], TRUMP_MASK[trump]
    suit = led_suit(trump, trick[0])
    power = [strength[c] if trumps >> c & 1 or c // 13 == suit else 0 for c in trick]
    return power.index(max(power))


def led_suit(trump: int, c: int) -> int:
    """The suit a card leads: the spatigghia and the bastu lead trunfu."""
    return trump if TRUMP_MASK[trump] >> c & 1 else c // 13


def matador_forced(trump: int, matadors: int, led: int) -> bool:
    """Whether a matador led forces out one of ``matadors``: it does the battittura lower than
    itself."""
    strength = STRENGTH[trump]
    return bool(MATADORS[trump] >> led & 1) and any(strength[led] > strength[c] for c in cards_of(matadors))


def playable(hand: int, trick: Sequence[int], trump: int, matador: bool) -> int:
    """The cards of ``hand`` that may go to ``trick``: the suit led (the trunfi on a trunfu lead)
    while the hand holds it, else any card; under the matador privilege (``matador``) a hand
    whose only trunfi are battittura need not give one up to a trunfu lead, unless a higher
    matador led forces it out."""
    if not trick:
        return hand
    led = trick[0]
    suit = led_suit(trump, led)
    follow = hand & FOLLOW[trump][suit]
    if not follow:
        return hand
    if matador and suit == trump and follow & ~MATADORS[trump] == 0 and not matador_forced(trump, follow, led):
        return hand
    return follow


def card_refusal(hand: int, seat: int, c: int, trick: Sequence[int], trump: int) -> Reason:
    """Why ``seat``, holding ``hand``, may not play card ``c`` to ``trick`` (a card that
    ``playable`` refuses)."""
    who, named = AtSeat(seat), OfCard(c)
    if not hand >> c & 1:
        return Reason("{who} cannot play {card}: it is not in the hand", who=who, card=named)
    led = trick[0]
    suit = led_suit(trump, led)
    if suit == trump:
        trumps = hand & TRUMP_MASK[trump]
        if trumps & ~MATADORS[trump] == 0 and matador_forced(trump, trumps, led):
            return Reason("{who} must play a trunfu: the {led} led forces a lower matador",
                          who=who, led=OfCard(led))
        return Reason("{who} must follow with a trunfu (the spatigghia and the bastu are trunfi)", who=who)
    return Reason("{who} must follow suit: {card} is not {suit}", who=who, card=named, suit=OfSuit(suit))


# -- the actions -----------------------------------------------------------------------------------
# Cards are their own numbers (below 52); the words follow.

CALL_BASE: Final = 64  # chiamu SUIT CARD: CALL_BASE + 64 * suit + card
SULITA_BASE: Final = CALL_BASE + 64 * 4  # sulita SUIT
OPEN_BASE: Final = SULITA_BASE + 4  # chiamu SUIT, with aiuto_volontario
PASSU: Final = OPEN_BASE + 4
AIUTU: Final = PASSU + 1
TUTITA: Final = PASSU + 2
BASTA: Final = PASSU + 3


def _action_strings() -> dict[int, str]:
    strings = {c: CARD_STRINGS[c] for c in ITALIAN_40.cards}
    for t, suit in enumerate(SUITS):
        for c in RE + CAVALLI:
            strings[CALL_BASE + 64 * t + c] = f"chiamu {suit} {CARD_STRINGS[c]}"
        strings[SULITA_BASE + t] = f"sulita {suit}"
        strings[OPEN_BASE + t] = f"chiamu {suit}"
    strings.update({PASSU: "passu", AIUTU: "aiutu", TUTITA: "tutita", BASTA: "basta"})
    return strings


ACTION_STRINGS: Final = _action_strings()
ACTION_OF: Final = {s: a for a, s in ACTION_STRINGS.items()}

# The phases of a deal, as observations name them.
BIDDING, FORCED, VOLUNTEERS, PLAY, WINDOW, OVER = "chiamata", "chiamata_obbligata", "aiutu", "basi", "tutita", "fine"


class QuattrigghiuTrick(TakenTrick):
    """A base once taken, as an observation shows it, with the seat that led it."""

    leader: int


class QuattrigghiuObservation(TypedDict):
    """What a seat may know of a deal of Quattrigghiu (``QuattrigghiuDeal.observation``)."""

    dealer: int
    phase: str  # BIDDING, FORCED, VOLUNTEERS, PLAY, WINDOW or OVER
    hand: list[str]
    hand_sizes: list[int]
    caller: int | None
    trump: str | None  # a suit's letter, once called
    called_card: str | None
    aiuto: int | None  # where this seat may know him
    leader: int
    trick: list[SeatCard]
    last_trick: QuattrigghiuTrick | None
    tricks: list[QuattrigghiuTrick]  # the basi still remembered: after the sixth, those from the seventh
    tricks_played: int
    basi: list[int]  # per seat
    tutita: bool
    history: list[SeatAction]


class QuattrigghiuMatchObservation(QuattrigghiuObservation, MatchObservation):
    """What a Quattrigghiu player reads: ``Match.observation(seat)`` while a deal is on."""


class QuattrigghiuDeal(Deal):
    """One deal: the call, then up to ten basi."""

    action_strings = ACTION_STRINGS
    action_numbers = ACTION_OF

    def __init__(self, game: Quattrigghiu, dealer: int, hands: Sequence[Sequence[int]],
                 first_of_match: bool) -> None:
        self.seats = 4
        self.dealer = dealer
        self.matador: bool = game.options["matador"]
        self.volontario: bool = game.options["aiuto_volontario"]
        self.hands = [mask_of(hand) for hand in hands]
        self.dealt = tuple(self.hands)
        self.first_of_match = first_of_match
        # Who held the 6 of denari: he speaks first in the first deal and deals the second.
        self.six_of_denari = self.holder(SIX_OF_DENARI)
        self.phase = BIDDING
        self.to_move: int | None = self.six_of_denari if first_of_match else (dealer + 1) % 4
        self.passes = 0
        self.trump = -1
        self.caller = -1
        self.called = -1  # the card of "cu' m'aiuta?"
        self.aiuto = -1  # -1: the caller plays alone (so far, while volunteers answer)
        self.aiuto_public = False
        self.asking: list[int] = []  # seats still to answer (volunteers, or the tutità window)
        self.attempt = -1  # the side going for tutità: 0 the caller's, 1 the others
        self.leader = (dealer + 1) % 4  # of the current trick; the dealer's right leads the first
        self.trick: list[int] = []
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []  # leader, cards, winner
        self.basi = [0, 0, 0, 0]  # per seat
        self.side_basi = [0, 0]  # the caller's side, the others
        self.outcome = ""
        self.winning_side = -1
        self.history: list[tuple[int, int]] = []

    def dealt_cards(self) -> tuple[list[list[int]], dict[str, list[int]]]:
        return [cards_of(h) for h in self.dealt], {}  # every card is dealt

    def holder(self, c: int) -> int:
        return next(s for s in range(4) if self.hands[s] >> c & 1)

    def side_of(self, seat: int) -> int:
        """0 for the caller and his aiuto, 1 for the others."""
        return 0 if seat in (self.caller, self.aiuto) else 1

    def same_side(self, a: int, b: int) -> bool:
        return self.side_of(a) == self.side_of(b)

    @property
    def in_card_play(self) -> bool:
        return self.phase in (PLAY, OVER)

    def open_choices(self) -> list[int] | None:
        # Tutita or basta: open hands settle what going on would bring.
        return self.legal() if self.phase == WINDOW else None

    def members(self, side: int, first: int) -> list[int]:
        """The seats of a side in playing order from ``first``."""
        return [(first + k) % 4 for k in range(4) if self.side_of((first + k) % 4) == side]

    # -- legal actions ---------------------------------------------------------------------------

    def legal(self) -> list[int]:
        seat = self.to_move
        if seat is None:
            return []
        phase = self.phase
        if phase == PLAY:
            return cards_of(self.playable(seat))
        if phase in (BIDDING, FORCED):
            calls = self._calls(seat)
            return calls if phase == FORCED else [PASSU, *calls]
        if phase == VOLUNTEERS:
            return [AIUTU, PASSU]
        return [TUTITA, BASTA]

    def _calls(self, seat: int) -> list[int]:
        if self.volontario:
            return [*range(OPEN_BASE, OPEN_BASE + 4), *range(SULITA_BASE, SULITA_BASE + 4)]
        # One calls a re one does not hold; holding all four re, a cavallo.
        hand = self.hands[seat]
        callable_cards = [c for c in (CAVALLI if hand & RE_MASK == RE_MASK else RE) if not hand >> c & 1]
        calls = [CALL_BASE + 64 * t + c for t in range(4) for c in callable_cards]
        return [*calls, *range(SULITA_BASE, SULITA_BASE + 4)]

    def playable(self, seat: int) -> int:
        return playable(self.hands[seat], self.trick, self.trump, self.matador)

    def why_illegal(self, action: int) -> Reason:
        seat = self.to_move
        if seat is None:
            return Reason("the deal is over")
        who = AtSeat(seat)
        text = ACTION_STRINGS[action]
        phase = self.phase
        if action < 52:
            if phase != PLAY:
                return Reason("{action!r}: no card is played now: {awaited}", action=text, awaited=self._awaited())
            return card_refusal(self.hands[seat], seat, action, self.trick, self.trump)
        if action == PASSU and phase == FORCED:
            return Reason("all four passed: {who} must call, holding the spatigghia", who=who)
        if action in (TUTITA, BASTA):
            return Reason("{action!r}: only after a side has taken the first six basi, to go for tutità", action=text)
        if action == AIUTU or (action == PASSU and phase != BIDDING):
            return Reason("{action!r}: {awaited}", action=text, awaited=self._awaited())
        if phase not in (BIDDING, FORCED):
            return Reason("{action!r}: the call is made already; {awaited}", action=text, awaited=self._awaited())
        if CALL_BASE <= action < SULITA_BASE:
            if self.volontario:
                return Reason("{action!r}: with aiuto_volontario the caller names only the trunfu (chiamu SUIT)",
                              action=text)
            c = (action - CALL_BASE) % 64
            if self.hands[seat] >> c & 1:
                return Reason("{action!r}: {who} cannot call {card}, a card of the own hand; "
                              "one calls a card one does not hold", action=text, who=who, card=OfCard(c))
            return Reason("{action!r}: a cavallo is called only by who holds all four re", action=text)
        return Reason("{action!r}: without aiuto_volontario the call names the trunfu and a re (chiamu SUIT CARD)",
                      action=text)

    def _awaited(self) -> Reason:
        return {
            BIDDING: Reason("each in turn says passu or calls"),
            FORCED: Reason("the holder of the spatigghia must call"),
            VOLUNTEERS: Reason("the others answer aiutu or passu"),
            PLAY: Reason("a card is played"),
            WINDOW: Reason("the side that took six basi answers tutita or basta"),
        }[self.phase]

    # -- playing ---------------------------------------------------------------------------------

    def perform(self, seat: int, action: int) -> None:
        if action < 52:
            self._play_card(seat, action)
        elif action == PASSU:
            self._pass(seat)
        elif action < SULITA_BASE:
            self.trump, self.called = divmod(action - CALL_BASE, 64)
            self.caller = seat
            self.aiuto = self.holder(self.called)
            self._start_play()
        elif action < OPEN_BASE:
            self.caller, self.trump = seat, action - SULITA_BASE
            self._start_play()
        elif action < PASSU:
            self.caller, self.trump = seat, action - OPEN_BASE
            self.phase = VOLUNTEERS
            self.asking = [(seat + k) % 4 for k in (1, 2, 3)]
            self.to_move = self.asking.pop(0)
        elif action == AIUTU:
            self.aiuto, self.aiuto_public = seat, True
            self._start_play()
        elif action == TUTITA:
            if self.asking:
                self.to_move = self.asking.pop(0)
            else:
                self.attempt = self.side_of(seat)
                self.phase, self.to_move = PLAY, self.leader
        else:  # basta: the side keeps its win
            self.end()

    def _pass(self, seat: int) -> None:
        if self.phase == VOLUNTEERS:
            if self.asking:
                self.to_move = self.asking.pop(0)
            else:  # nobody helps: the caller plays alone
                self._start_play()
            return
        self.passes += 1
        if self.passes < 4:
            self.to_move = (seat + 1) % 4
        else:
            self.phase, self.to_move = FORCED, self.holder(SPATIGGHIA)

    def _start_play(self) -> None:
        self.phase, self.to_move = PLAY, self.leader

    def _play_card(self, seat: int, c: int) -> None:
        self.hands[seat] ^= 1 << c
        if c == self.called:
            self.aiuto_public = True
        trick = self.trick
        trick.append(c)
        if len(trick) < 4:
            self.to_move = (seat + 1) % 4
            return
        winner = (self.leader + trick_taker(self.trump, trick)) % 4
        self.tricks.append((self.leader, tuple(trick), winner))
        self.trick = []
        self.basi[winner] += 1
        side = self.side_of(winner)
        self.side_basi[side] += 1
        self.leader = self.to_move = winner
        verdict = after_base(self.side_basi, side, self.attempt)
        if verdict == "window":
            # A clean six: the side may go for tutità, its members asked from the winner on;
            # being asked shows everyone who is on which side.
            self.phase, self.aiuto_public = WINDOW, True
            self.asking = self.members(side, winner)
            self.to_move = self.asking.pop(0)
        elif verdict == "end":
            self.end()

    def end(self) -> None:
        """The basi taken settle the deal."""
        self.outcome, self.winning_side = settled(self.side_basi, self.attempt)
        self.phase, self.to_move, self.asking = OVER, None, []

    # -- strings ---------------------------------------------------------------------------------

    def unlisted_action(self, text: str) -> int:
        words = text.split()
        if not words:
            raise IllegalAction(Reason("an empty action"))
        if words[0] in ("chiamu", "sulita"):
            if len(words) < 2 or words[1] not in SUITS:
                raise IllegalAction(Reason("{action!r}: {word!r} names the trunfu by its suit letter, one of d c s b",
                                           action=text, word=words[0]))
            raise IllegalAction(Reason("{action!r}: the call is 'chiamu SUIT RE' (a cavallo with all four re), "
                                       "'chiamu SUIT' with aiuto_volontario, or 'sulita SUIT'", action=text))
        raise IllegalAction(Reason("{action!r} is not a quattrigghiu action: a card, passu, chiamu, sulita, aiutu, "
                                   "tutita or basta", action=text))

    # -- what a seat may see ---------------------------------------------------------------------

    def aiuto_known_to(self, seat: int) -> bool:
        """Whether ``seat`` knows the aiuto: he knows himself, and all know him once he is made
        public (the called card played, a volunteer's answer, the tutità window asked) or the deal
        is over."""
        return self.aiuto >= 0 and (self.aiuto_public or seat == self.aiuto or self.to_move is None)

    def observation(self, seat: int) -> QuattrigghiuObservation:
        hidden = forgotten_basi(len(self.tricks))
        history: list[SeatAction] = []
        cards_seen = 0
        for s, a in self.history:
            if a < 52:
                cards_seen += 1
                if (cards_seen - 1) // 4 < hidden:
                    continue
            history.append([s, ACTION_STRINGS[a]])
        call = self.caller >= 0
        tricks: list[QuattrigghiuTrick] = [
            {"leader": leader, "cards": [[(leader + i) % 4, CARD_STRINGS[c]] for i, c in enumerate(cards)],
             "winner": winner} for leader, cards, winner in self.tricks[hidden:]]
        return {
            "dealer": self.dealer,
            "phase": self.phase,
            "hand": [CARD_STRINGS[c] for c in cards_of(self.hands[seat])],
            "hand_sizes": [h.bit_count() for h in self.hands],
            "caller": self.caller if call else None,
            "trump": SUITS[self.trump] if call else None,
            "called_card": CARD_STRINGS[self.called] if self.called >= 0 else None,
            "aiuto": self.aiuto if self.aiuto_known_to(seat) else None,
            "leader": self.leader,
            "trick": [[(self.leader + i) % 4, CARD_STRINGS[c]] for i, c in enumerate(self.trick)],
            "last_trick": tricks[-1] if tricks else None,
            "tricks": tricks,
            "tricks_played": len(self.tricks),
            "basi": list(self.basi),
            "tutita": self.attempt >= 0,
            "history": history,
        }

    def observations(self) -> Sequence[QuattrigghiuObservation]:
        # The seats see alike all but their hands, and the aiuto where it is known to some only.
        first = self.observation(0)
        seen = [first]
        for seat in range(1, 4):
            obs = first.copy()
            obs["hand"] = [CARD_STRINGS[c] for c in cards_of(self.hands[seat])]
            obs["aiuto"] = self.aiuto if self.aiuto_known_to(seat) else None
            seen.append(obs)
        return seen

    # -- scoring ---------------------------------------------------------------------------------

    def stakes(self, outcome: str, winning_side: int) -> list[int]:
        """What each seat wins or pays for an outcome: one each in two against two; one alone
        stakes three, against one each; a tutità doubles, and a riposta or franca pays nothing."""
        if winning_side < 0:
            return [0, 0, 0, 0]
        alone = 0 if self.aiuto < 0 else -1  # the side of a single player, if any
        double = 2 if outcome == "tutita" else 1
        return [double * (3 if self.side_of(s) == alone else 1) * (1 if self.side_of(s) == winning_side else -1)
                for s in range(4)]

    # -- the open-handed play, for the solver --------------------------------------------------------

    def open_play(self, seat: int) -> OpenPlay:
        # The solver counts basi: a deal's outcome is a monotone function of the basi a side
        # takes, played out to ten, and stopping at six changes none of it.
        side = self.side_of(seat)
        trump = self.trump
        strength = STRENGTH[trump]
        left = TRICKS - len(self.tricks)
        basi, attempt = self.side_basi[:], self.attempt
        # The deal's own rule of what may follow, on a copy whose trick is the search's.
        scratch = self.copy()

        def follow(hand: int, trick: list[int]) -> int:
            scratch.hands[0], scratch.trick = hand, trick
            return scratch.playable(0)

        def finish(gained: int) -> int:
            final = basi[:]
            final[side] += gained
            final[1 - side] += left - gained
            return self.stakes(*settled(final, attempt))[seat]

        chains = chains_of([sorted(cards_of(FOLLOW[trump][s]), key=lambda c: strength[c]) for s in range(4)])
        # A base counts one whatever its cards. Under the matador privilege a battittura may be
        # held back where another trunfu may not, so none of them is equivalent to another card.
        # The follow classes are FOLLOW's, the trunfi (the spatigghia and the bastu among them) at
        # the trump's index: the compiled kernel searches them as it does suits.
        privileged = MATADORS[trump] if self.matador else 0
        return OpenPlay(hands=self.hands, trick=self.trick, leader=self.leader,
                        team=[self.side_of(s) == side for s in range(4)], values=[0] * 52, chains=chains,
                        follow=follow, taker=lambda trick: trick_taker(trump, trick), finish=finish, trick_bonus=1,
                        no_merge=privileged, suit_play=SuitPlay(trump=trump, privileged=privileged))

    def result(self) -> DealResult:
        delta = self.stakes(self.outcome, self.winning_side)
        carry = {"caller": self.caller, "aiuto": self.aiuto if self.aiuto >= 0 else None,
                 "trump": SUITS[self.trump], "six_of_denari": self.six_of_denari}
        return DealResult(self.outcome, list(self.side_basi), delta, carry)


def _check_rounds(value: JSON) -> str | None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        return "a whole number of rounds, 1 or more"
    return None


FORGOTTEN: Final = 6  # after the sixth basi the first six may no longer be looked at


def forgotten_basi(tricks_played: int) -> int:
    """How many of the first basi are gone from the table, and from memory, once
    ``tricks_played`` are played: the first six after the sixth, none before."""
    return FORGOTTEN if tricks_played >= FORGOTTEN else 0


def _replay(deal: QuattrigghiuDeal, history: Sequence[JSON]) -> bool:
    """Play the actions of an observation's history; False where one is not the turn it was."""
    for seat, text in history:
        if deal.to_move != seat:
            return False
        deal.apply(ACTION_OF[text])
    return True


class Quattrigghiu(Game):
    name = "quattrigghiu"
    unit = "stakes"
    zero_sum = True
    deck = ITALIAN_40
    seat_counts = (4,)
    default_seats = 4
    # From how many cards left the solver values a sampled deal's every action well within a
    # 0.1 s decision (solver times measured by ``osteria bench``), and within a second (the 32
    # cards of the last eight basi, some 3 ms a deal: the maestro's step over the difficile).
    # PIMC lost to the rule unchecked (measured when its dealing after the sixth trick was still
    # slow: few deals in the time).
    search_hints = SearchHints(solve_cards=16, deeper_solve_cards=32, solved_confidence=1.5)
    option_specs = (
        Option("rounds", 1, check=_check_rounds,
               doc=N_("rounds of four deals, each player having the first right to call once a round"),
               label=N_("rounds")),
        Option("matador", True, (True, False),
               doc=N_("a hand whose only trunfi are battittura need not play one to a trunfu lead"),
               label=N_("matador (privilege)")),
        Option("aiuto_volontario", False, (True, False),
               doc=N_("the caller names only the trunfu and the others may answer aiutu, publicly"),
               label=N_("aiutu volontario (a volunteer partner)")),
        Option("sulita_si_ioca", False, (True, False),
               doc=N_("a last deal played alone (a sulità) is followed by one more, as a riposta or a tutità is"),
               label=N_("sulità si ioca (one more deal)")),
    )

    def trick_play(self) -> TrickPlay:
        # The call and the basi as above. A base counts one whatever its cards: each card counts
        # one, four to a base. The first six basi are forgotten after the sixth.
        deck = ITALIAN_40.cards
        place = {c: p for p, c in enumerate(deck)}
        matador = self.options["matador"]
        call = TrumpCall(first_speaker=place[SIX_OF_DENARI], forced=place[SPATIGGHIA],
                         partner_cards=tuple(place[c] for c in RE), instead=tuple(place[c] for c in CAVALLI),
                         volunteers=self.options["aiuto_volontario"], winning=WINNING,
                         stakes=((1, 1, 1), (3, 0, 1)), tutita=2,
                         words=("chiamu", "sulita", "passu", "aiutu", "tutita", "basta"))
        return TrickPlay(seats=4, deck=deck, hand_size=TRICKS, suits=tuple(c // 13 for c in deck),
                         values=((1,) * len(deck),) * 4, strengths=tuple(tuple(STRENGTH[t][c] for c in deck)
                                                                         for t in range(4)),
                         trumps=(0, 1, 2, 3), sides=(0, 1, 2, 3), unit=4, auction=call,
                         follows=tuple(tuple(led_suit(t, c) for c in deck) for t in range(4)),
                         privileged=tuple(sum(1 << place[c] for c in cards_of(MATADORS[t])) if matador else 0
                                          for t in range(4)),
                         forgotten=FORGOTTEN)

    def hand_sizes(self) -> list[int]:
        return [10] * 4

    def score_bounds(self) -> tuple[int, int]:
        return -6, 6  # one alone stakes three, doubled by tutità

    def max_decisions(self) -> int:
        # The cards, four passu, the forced call, three volunteers declining, and the tutità window,
        # where the side asked is the three defenders of a caller left alone.
        return 40 + 4 + 1 + 3 + 3

    def glossary(self) -> Terms:
        return GLOSSARY

    def new_deal(self, index: int, dealer: int, hands: Sequence[Sequence[int]],
                 stock: Mapping[str, Sequence[int]], previous: Sequence[DealResult]) -> QuattrigghiuDeal:
        return QuattrigghiuDeal(self, dealer, hands, first_of_match=index == 0)

    def sample_deal(self, observation: Mapping[str, JSON], rng: random.Random) -> QuattrigghiuDeal:
        """A deal that shows the seat what ``observation`` shows: the unseen cards placed
        uniformly among the placements that agree with what the seat knows (module
        ``osteria.sampling``), listed here. Before the sixth basi a placement is a whole deal: the
        hidden hands, whose cards with the plays seen make the first hands. After it the first six
        basi are gone from the table and from the observation, so a placement is where each unseen
        card lies now: in a hidden hand, or among the 24 cards of the first six basi. Conditioned on:
        hand sizes; the cards seen played since (all of them, before the sixth basi); the voids
        those plays showed; that the first to speak in the first deal held the 6 of denari, that the
        holder of the spatigghia made a call forced by four passes, that who calls a cavallo held
        the four re; the called card: with the aiutu's seat if he is known, and played already if
        he is known to another seat while the deal goes on and no side took the first six basi
        (the card shows him); else still unplayed and with a seat other than the caller's that
        with the caller has not six basi, nor the other two (the deal would be over, or the sides
        shown by the question of the tutità). Not conditioned on, after the sixth
        basi: that the first six could have been played legally with the winners the table shows,
        which the seat may no longer look back at. The sampled deal's first six basi give each seat
        six of those 24 cards (drawn uniformly among the splits that give each card above to its
        first holder) and each seat the basi it took: they are not a play of the game, and nothing
        that follows depends on their order."""
        return first_showing(lambda: self._sample(observation, rng), observation)

    def _sample(self, obs: Mapping[str, JSON], rng: random.Random) -> QuattrigghiuDeal | None:
        seat, history = obs["seat"], obs["history"]
        forgotten = forgotten_basi(obs["tricks_played"])
        plays = plays_of(history, 4, forgotten)
        after = played_from(plays, 4)
        hand = mask_of(parse_card(c) for c in obs["hand"])
        unseen = Unseen(ITALIAN_40.mask & ~hand & ~mask_of(p.card for p in plays))
        holder = {s: unseen.holder(obs["hand_sizes"][s]) for s in range(4) if s != seat}
        lost = unseen.holder(4 * forgotten)  # the cards of the forgotten basi
        owner = self._first_holders(obs)
        for c, s in owner.items():
            unseen.only(1 << c, [h for h in (holder.get(s), lost) if h is not None])
        caller, called, aiuto = obs["caller"], obs["called_card"], obs["aiuto"]
        if called is not None and aiuto is None:
            # Not yet played (playing it shows the aiutu), and not with a seat that would have six
            # basi with the caller: that ends the deal, or asks for the tutità and shows the sides.
            basi = obs["basi"]
            unseen.only(1 << parse_card(called), [h for s, h in holder.items() if s != caller and max(
                basi[caller] + basi[s], obs["tricks_played"] - basi[caller] - basi[s]) < WINNING])
        elif called is not None and aiuto != seat and obs["phase"] != OVER and not self._clean_six(obs):
            # Shown to another seat while the deal goes on without a clean six: it was played.
            unseen.only(1 << parse_card(called), [lost])
        trump = SUITS.index(obs["trump"]) if obs["trump"] else -1
        for p in plays:
            if p.seat in holder and p.position:
                unseen.forbid(holder[p.seat], self._not_held(trump, p.led, p.card))
        hands = unseen.draw(rng)
        current = [hand if s == seat else hands[holder[s]] for s in range(4)]
        shares = self._shares(hands[lost], owner, rng) if forgotten else [0] * 4
        dealt = [cards_of(current[s] | after[s][0] | shares[s]) for s in range(4)]
        deal = self.new_deal(obs["deal_index"], obs["dealer"], dealt, {}, [])
        # The forgotten basi came after the call and before anything said after the sixth.
        cut = next((i for i, (_, text) in enumerate(history) if ACTION_OF[text] < CALL_BASE
                    or ACTION_OF[text] in (TUTITA, BASTA)), len(history))
        if not _replay(deal, history[:cut]):
            return None
        if forgotten:
            self._forget(deal, shares, obs)
        return deal if _replay(deal, history[cut:]) else None

    @staticmethod
    def _clean_six(obs: Mapping[str, JSON]) -> bool:
        """Whether a side took the first six basi: then it was asked about the tutità."""
        return bool(obs["phase"] == WINDOW or obs["tutita"])

    @staticmethod
    def _first_holders(obs: Mapping[str, JSON]) -> dict[int, int]:
        """The cards whose first holder the call shows: the 6 of denari with the first to speak
        in the first deal, the spatigghia with a caller forced by four passes, the four re with
        the caller of a cavallo, the called card with the aiutu once known."""
        history = obs["history"]
        owner: dict[int, int] = {}
        bids = [(s, text) for s, text in history if ACTION_OF[text] >= CALL_BASE]
        calls = [(s, ACTION_OF[text]) for s, text in bids if CALL_BASE <= ACTION_OF[text] < PASSU]
        if obs["deal_index"] == 0:
            owner[SIX_OF_DENARI] = bids[0][0] if bids else obs["to_move"]
        if calls:
            caller = int(obs["caller"])
            if [text for _, text in bids[:4]] == ["passu"] * 4:
                owner[SPATIGGHIA] = caller
            action = calls[0][1]
            if action < SULITA_BASE:
                called = (action - CALL_BASE) % 64
                if called in CAVALLI:
                    owner.update((re, caller) for re in RE)
                if obs["aiuto"] is not None:
                    owner[called] = obs["aiuto"]
        return owner

    @staticmethod
    def _shares(lost: int, owner: Mapping[int, int], rng: random.Random) -> list[int]:
        """The cards of the forgotten basi split six to a seat, each card whose first holder is
        known to that holder, the others uniformly."""
        shares = [0] * 4
        for c, s in owner.items():
            if lost >> c & 1:
                shares[s] |= 1 << c
        rest = cards_of(lost & ~sum(shares))
        rng.shuffle(rest)
        for s in range(4):
            need = FORGOTTEN - shares[s].bit_count()  # a card to each of the forgotten basi
            shares[s] |= mask_of(rest[:need])
            del rest[:need]
        return shares

    @staticmethod
    def _forget(deal: QuattrigghiuDeal, shares: Sequence[int], obs: Mapping[str, JSON]) -> None:
        """Put ``deal``, just after the call, where the first six basi leave it: each seat has
        played its share and taken the basi the table shows, the last of them by the leader of
        the seventh. The tricks are made up and not checked: the observation no longer holds them."""
        won = list(obs["basi"])
        for trick in obs["tricks"]:
            won[trick["winner"]] -= 1
        last = obs["tricks"][0]["leader"] if obs["tricks"] else obs["leader"]
        winners = [s for s in range(4) for _ in range(won[s] - (s == last))] + [last]
        cards = [cards_of(share) for share in shares]
        leader = deal.leader
        for t, winner in enumerate(winners):
            trick = tuple(cards[(leader + i) % 4][t] for i in range(4))
            deal.history.extend(((leader + i) % 4, c) for i, c in enumerate(trick))
            deal.tricks.append((leader, trick, winner))
            leader = winner
        for s in range(4):
            deal.hands[s] &= ~shares[s]
            deal.basi[s] += won[s]
            deal.side_basi[deal.side_of(s)] += won[s]
        if deal.called >= 0 and any(share >> deal.called & 1 for share in shares):
            deal.aiuto_public = True  # the called card was played
        deal.leader = deal.to_move = last
        side = deal.side_of(last)
        if deal.side_basi[side] == WINNING:  # a clean six: as the sixth base played ends (see _play_card)
            deal.phase, deal.aiuto_public = WINDOW, True
            deal.asking = deal.members(side, last)
            deal.to_move = deal.asking.pop(0)

    def _not_held(self, trump: int, led: int, c: int) -> int:
        """The cards a seat cannot have held when it answered ``led`` with ``c``."""
        suit = led_suit(trump, led)
        follow = FOLLOW[trump][suit]
        if follow >> c & 1:
            return 0
        if suit == trump and self.options["matador"]:
            # Holding only battittura, not forced out by a higher one led, one need not answer.
            strength = STRENGTH[trump]
            forced = [m for m in cards_of(MATADORS[trump]) if MATADORS[trump] >> led & 1
                      and strength[led] > strength[m]]
            return follow & ~MATADORS[trump] | mask_of(forced)
        return follow

    def next_dealer(self, deal: Deal) -> int:
        # The first deal's holder of the 6 of denari deals the second; then the deal moves on.
        if not isinstance(deal, QuattrigghiuDeal):
            raise RulesError("a quattrigghiu match holds only quattrigghiu deals")
        if deal.first_of_match:
            return deal.six_of_denari
        return (deal.dealer + 1) % 4

    def match_status(self, results: Sequence[DealResult]) -> tuple[bool, list[int] | None]:
        # The giro: four deals a round, so each player has the first right to call once a round;
        # the last dealer then faces the first holder of the 6 of denari. A last deal that ends in
        # riposta or tutità is followed by one more, which becomes the last; with sulita_si_ioca,
        # so is a last deal whose caller played alone.
        if len(results) < 4 * self.options["rounds"] or results[-1].outcome in ("riposta", "tutita"):
            return False, None
        if self.options["sulita_si_ioca"] and results[-1].carry.get("aiuto", 0) is None:
            return False, None
        return True, self.best_totals(results)


GLOSSARY: Final = {
    "passu": Term("I pass"),
    "chiamu": Term("I call: I name trumps and the king whose holder will be my partner"),
    "cu' m'aiuta?": Term("who will help me? (the partnership call)"),
    "aiutu": Term("the caller's partner; or: I'll help"),
    "sulita": Term("a solo: the caller plays alone against three"),
    "trunfu": Term("trumps"),
    "palu": Term("suit"),
    "base": Term("a trick of four cards"),
    "basi": Term("tricks"),
    "spatigghia": Term("the ace of swords, the highest trump"),
    "manigghia": Term("the second trump: the two of trumps in swords or clubs, the seven in coins or cups"),
    "bastu": Term("the ace of clubs, always the third trump"),
    "puntu": Term("the ace of coins or cups"),
    "battittura": Term("the matadors: spatigghia, manigghia and bastu"),
    "stuccio": Term("all three matadors in one hand"),
    "carti longhi": Term("the long suits: swords and clubs"),
    "carti curti": Term("the short suits: coins and cups"),
    "vinta": Term("the callers take six tricks and win"),
    "riposta": Term("five tricks each: a draw"),
    "cudigghia": Term("the defenders take six tricks and win"),
    "tutita": Term("all ten tricks: double stakes"),
    "basta": Term("we stop here: no attempt at all ten tricks"),
    "franca": Term("a failed attempt at all ten tricks: nothing is paid"),
    "giro": Term("the last round of deals of the match"),
    "mazziere": Term("the dealer"),
}
