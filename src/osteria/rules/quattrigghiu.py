"""Quattrigghiu, the Sicilian game of Licodia Eubea (Ombre for four, like Quadrille).

Read top to bottom, this module is the rules: the card orders that change with the trump
suit, the call ("cu' m'aiuta?" or sulità), the play of the basi with the matador privilege,
the early stop and the tutità, the stakes and the length of the match ("giro").
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from osteria.cards import CARD_STRINGS, ITALIAN_40, SUIT_MASK, SUIT_NAMES, SUITS, card, cards_of, mask_of, parse_card
from osteria.engine import JSON, Deal, DealResult, Game, IllegalAction, Option, RulesError
from osteria.sampling import Unseen, first_showing, played_from, plays_of

# -- the cards -----------------------------------------------------------------------------------
# One table per trump suit, every card from the highest down: first the trunfi, then each other
# suit. The spatigghia (ace of spade) and the bastu (ace of bastoni) are always trunfi; the
# manigghia is the two of a long trump suit (spade, bastoni) and the seven of a short one
# (denari, coppe); in a short trump suit the ace ("'u puntu") comes fourth. Out of trump the
# long suits run re to two, the short ones re, cavallo, fante, ace, then two up to seven.

CARD_ORDERS: dict[str, dict[str, str]] = {
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

SPATIGGHIA = card("A", "s")
BASTU = card("A", "b")
SIX_OF_DENARI = card("6", "d")
MANIGGHIA = tuple(card("2" if suit in "sb" else "7", suit) for suit in SUITS)
RE = tuple(card("R", suit) for suit in SUITS)
CAVALLI = tuple(card("C", suit) for suit in SUITS)
RE_MASK = mask_of(RE)
TRICKS = 10
WINNING = 6  # basi that settle a deal; 5 each is a riposta


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


_TABLES = [_strengths(s) for s in SUITS]
STRENGTH = tuple(t[0] for t in _TABLES)  # STRENGTH[trump][card]
TRUMP_MASK = tuple(t[1] for t in _TABLES)  # TRUMP_MASK[trump]: the trunfi
# FOLLOW[trump][suit]: the cards that answer a lead of ``suit`` (the trunfi when it is trump).
FOLLOW = tuple(tuple(TRUMP_MASK[t] if s == t else SUIT_MASK[s] & ~TRUMP_MASK[t] for s in range(4))
               for t in range(4))
# The battittura (Quadrille's matadors): spatigghia, manigghia and bastu.
MATADORS = tuple(mask_of((SPATIGGHIA, MANIGGHIA[t], BASTU)) for t in range(4))


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


# -- the actions -----------------------------------------------------------------------------------
# Cards are their own numbers (below 52); the words follow.

CALL_BASE = 64  # chiamu SUIT CARD: CALL_BASE + 64 * suit + card
SULITA_BASE = CALL_BASE + 64 * 4  # sulita SUIT
OPEN_BASE = SULITA_BASE + 4  # chiamu SUIT, with aiuto_volontario
PASSU = OPEN_BASE + 4
AIUTU = PASSU + 1
TUTITA = PASSU + 2
BASTA = PASSU + 3


def _action_strings() -> dict[int, str]:
    strings = {c: CARD_STRINGS[c] for c in ITALIAN_40.cards}
    for t, suit in enumerate(SUITS):
        for c in RE + CAVALLI:
            strings[CALL_BASE + 64 * t + c] = f"chiamu {suit} {CARD_STRINGS[c]}"
        strings[SULITA_BASE + t] = f"sulita {suit}"
        strings[OPEN_BASE + t] = f"chiamu {suit}"
    strings.update({PASSU: "passu", AIUTU: "aiutu", TUTITA: "tutita", BASTA: "basta"})
    return strings


ACTION_STRINGS = _action_strings()
ACTION_OF = {s: a for a, s in ACTION_STRINGS.items()}

# The phases of a deal, as observations name them.
BIDDING, FORCED, VOLUNTEERS, PLAY, WINDOW, OVER = "chiamata", "chiamata_obbligata", "aiutu", "basi", "tutita", "fine"


class QuattrigghiuDeal(Deal):
    """One deal: the call, then up to ten basi."""

    def __init__(self, game: Quattrigghiu, dealer: int, hands: Sequence[Sequence[int]],
                 first_of_match: bool) -> None:
        self.seats = 4
        self.dealer = dealer
        self.matador: bool = game.options["matador"]
        self.volontario: bool = game.options["aiuto_volontario"]
        self.hands = [mask_of(hand) for hand in hands]
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

    def holder(self, c: int) -> int:
        return next(s for s in range(4) if self.hands[s] >> c & 1)

    def side_of(self, seat: int) -> int:
        """0 for the caller and his aiuto, 1 for the others."""
        return 0 if seat in (self.caller, self.aiuto) else 1

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
        hand = self.hands[seat]
        if not self.trick:
            return hand
        trump, led = self.trump, self.trick[0]
        suit = led_suit(trump, led)
        follow = hand & FOLLOW[trump][suit]
        if not follow:
            return hand
        if self.matador and suit == trump and follow & ~MATADORS[trump] == 0 \
                and not self._matador_forced(follow, led):
            # Matador privilege: a hand whose only trunfi are battittura need not give one up.
            return hand
        return follow

    def _matador_forced(self, matadors: int, led: int) -> bool:
        """A matador led forces out the battittura lower than itself."""
        strength = STRENGTH[self.trump]
        return bool(MATADORS[self.trump] >> led & 1) and any(strength[led] > strength[c] for c in cards_of(matadors))

    def why_illegal(self, action: int) -> str:
        seat = self.to_move
        if seat is None:
            return "the deal is over"
        who = f"seat {seat}"
        text = ACTION_STRINGS[action]
        phase = self.phase
        if action < 52:
            if phase != PLAY:
                return f"{text}: no card is played now: {self._awaited()}"
            if not self.hands[seat] >> action & 1:
                return f"{who} does not hold {text}"
            trump, led = self.trump, self.trick[0]
            suit = led_suit(trump, led)
            if suit == trump:
                trumps = self.hands[seat] & TRUMP_MASK[trump]
                if trumps & ~MATADORS[trump] == 0 and self._matador_forced(trumps, led):
                    return f"{who} must play a trunfu: the {CARD_STRINGS[led]} led forces a lower matador"
                return f"{who} must follow with a trunfu (the spatigghia and the bastu are trunfi)"
            return f"{who} must follow suit: {text} is not {SUIT_NAMES['it'][suit]}"
        if action == PASSU and phase == FORCED:
            return f"all four passed: {who}, who holds the spatigghia, must call"
        if action in (TUTITA, BASTA):
            return f"{text}: only after a side has taken the first six basi, to go for tutità"
        if action == AIUTU or (action == PASSU and phase != BIDDING):
            return f"{text}: {self._awaited()}"
        if phase not in (BIDDING, FORCED):
            return f"{text}: the call is made already; {self._awaited()}"
        if CALL_BASE <= action < SULITA_BASE:
            if self.volontario:
                return f"{text}: with aiuto_volontario the caller names only the trunfu (chiamu SUIT)"
            c = (action - CALL_BASE) % 64
            if self.hands[seat] >> c & 1:
                return f"{text}: {who} holds {CARD_STRINGS[c]}; one calls a card one does not hold"
            return f"{text}: a cavallo is called only by who holds all four re"
        return f"{text}: without aiuto_volontario the call names the trunfu and a re (chiamu SUIT CARD)"

    def _awaited(self) -> str:
        return {
            BIDDING: "each in turn says passu or calls",
            FORCED: "the holder of the spatigghia must call",
            VOLUNTEERS: "the others answer aiutu or passu",
            PLAY: "a card is played",
            WINDOW: "the side that took six basi answers tutita or basta",
        }[self.phase]

    # -- playing ---------------------------------------------------------------------------------

    def apply(self, action: int) -> None:
        seat = self.to_move
        assert seat is not None
        self.history.append((seat, action))
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
            self.end("vinta" if self.side_of(seat) == 0 else "cudigghia", self.side_of(seat))

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
        done = len(self.tricks)
        if self.attempt >= 0:
            if side != self.attempt:
                self.end("franca", -1)
            elif done == TRICKS:
                self.end("tutita", side)
        elif self.side_basi[side] == WINNING:
            if done == WINNING:
                # A clean six: the side may go for tutità, its members asked from the winner on;
                # being asked shows everyone who is on which side.
                self.phase, self.aiuto_public = WINDOW, True
                self.asking = self.members(side, winner)
                self.to_move = self.asking.pop(0)
            else:
                self.end("vinta" if side == 0 else "cudigghia", side)
        elif done == TRICKS:
            self.end("riposta", -1)

    def end(self, outcome: str, winning_side: int) -> None:
        self.outcome, self.winning_side = outcome, winning_side
        self.phase, self.to_move, self.asking = OVER, None, []

    # -- strings ---------------------------------------------------------------------------------

    def action_str(self, action: int) -> str:
        return ACTION_STRINGS[action]

    def parse_action(self, text: str) -> int:
        action = ACTION_OF.get(text)
        if action is not None:
            return action
        words = text.split()
        if not words:
            raise IllegalAction("an empty action")
        if words[0] in ("chiamu", "sulita"):
            if len(words) < 2 or words[1] not in SUITS:
                raise IllegalAction(f"{text!r}: {words[0]} names the trunfu by its suit letter, one of d c s b")
            raise IllegalAction(f"{text!r}: the call is 'chiamu SUIT RE' (a cavallo with all four re), "
                                "'chiamu SUIT' with aiuto_volontario, or 'sulita SUIT'")
        raise IllegalAction(f"{text!r} is not a quattrigghiu action: a card, passu, chiamu, sulita, aiutu, "
                            "tutita or basta")

    # -- what a seat may see ---------------------------------------------------------------------

    def observation(self, seat: int) -> dict[str, JSON]:
        over = self.to_move is None
        aiuto_known = self.aiuto >= 0 and (self.aiuto_public or seat == self.aiuto or over)
        # After the sixth basi the earlier ones are gone from the table, and from memory.
        hidden = 6 if len(self.tricks) >= 6 else 0
        history: list[JSON] = []
        cards_seen = 0
        for s, a in self.history:
            if a < 52:
                cards_seen += 1
                if (cards_seen - 1) // 4 < hidden:
                    continue
            history.append([s, ACTION_STRINGS[a]])
        call = self.caller >= 0
        tricks = [{"leader": leader, "cards": [[(leader + i) % 4, CARD_STRINGS[c]] for i, c in enumerate(cards)],
                   "winner": winner} for leader, cards, winner in self.tricks[hidden:]]
        return {
            "dealer": self.dealer,
            "phase": self.phase,
            "hand": [CARD_STRINGS[c] for c in cards_of(self.hands[seat])],
            "hand_sizes": [h.bit_count() for h in self.hands],
            "caller": self.caller if call else None,
            "trump": SUITS[self.trump] if call else None,
            "called_card": CARD_STRINGS[self.called] if self.called >= 0 else None,
            "aiuto": self.aiuto if aiuto_known else None,
            "leader": self.leader,
            "trick": [[(self.leader + i) % 4, CARD_STRINGS[c]] for i, c in enumerate(self.trick)],
            "last_trick": tricks[-1] if tricks else None,
            "tricks": tricks,
            "tricks_played": len(self.tricks),
            "basi": list(self.basi),
            "tutita": self.attempt >= 0,
            "history": history,
        }

    # -- scoring ---------------------------------------------------------------------------------

    def result(self) -> DealResult:
        # Stakes per seat: one each in two against two; one alone stakes three, against one each.
        alone = 0 if self.aiuto < 0 else -1  # the side of a single player, if any
        stake = [3 if self.side_of(s) == alone else 1 for s in range(4)]
        if self.winning_side < 0:  # riposta, franca
            delta = [0, 0, 0, 0]
        else:
            double = 2 if self.outcome == "tutita" else 1
            delta = [double * stake[s] * (1 if self.side_of(s) == self.winning_side else -1) for s in range(4)]
        carry = {"caller": self.caller, "aiuto": self.aiuto if self.aiuto >= 0 else None,
                 "trump": SUITS[self.trump], "six_of_denari": self.six_of_denari}
        return DealResult(self.outcome, list(self.side_basi), delta, carry)


def _check_rounds(value: JSON) -> str | None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        return "a whole number of rounds, 1 or more"
    return None


class Quattrigghiu(Game):
    name = "quattrigghiu"
    unit = "stakes"
    deck = ITALIAN_40
    seat_counts = (4,)
    default_seats = 4
    option_specs = (
        Option("rounds", 1, check=_check_rounds,
               doc="rounds of four deals, each player having the first right to call once a round"),
        Option("matador", True, (True, False),
               doc="a hand whose only trunfi are battittura need not play one to a trunfu lead"),
        Option("aiuto_volontario", False, (True, False),
               doc="the caller names only the trunfu and the others may answer aiutu, publicly"),
    )

    def hand_sizes(self) -> list[int]:
        return [10] * 4

    def new_deal(self, index: int, dealer: int, hands: Sequence[Sequence[int]],
                 stock: Mapping[str, Sequence[int]], previous: Sequence[DealResult]) -> QuattrigghiuDeal:
        return QuattrigghiuDeal(self, dealer, hands, first_of_match=index == 0)

    def sample_deal(self, observation: Mapping[str, JSON], rng: random.Random) -> QuattrigghiuDeal:
        return first_showing(lambda: self._sample(observation, rng), observation)

    def _sample(self, obs: Mapping[str, JSON], rng: random.Random) -> QuattrigghiuDeal | None:
        seat, history = obs["seat"], obs["history"]
        # After the sixth basi the first six are forgotten, by the seat as by its observation:
        # their 24 cards are unseen, and the tricks are made up again below.
        forgotten = 6 if obs["tricks_played"] >= 6 else 0
        plays = plays_of(history, 4, forgotten)
        after = played_from(plays, 4)
        hand = mask_of(parse_card(c) for c in obs["hand"])
        unseen = Unseen(ITALIAN_40.mask & ~hand & ~mask_of(p.card for p in plays))
        holder = {s: unseen.holder(obs["hand_sizes"][s]) for s in range(4) if s != seat}
        lost = unseen.holder(4 * forgotten)
        owner: dict[int, int] = {}  # cards whose first holder the seat knows
        bids = [(s, text) for s, text in history if text not in ACTION_OF or ACTION_OF[text] >= CALL_BASE]
        calls = [(s, ACTION_OF[text]) for s, text in bids if CALL_BASE <= ACTION_OF[text] < PASSU]
        if obs["deal_index"] == 0:  # the first to speak held the 6 of denari
            owner[SIX_OF_DENARI] = bids[0][0] if bids else obs["to_move"]
        caller = obs["caller"]
        if calls:
            if [text for _, text in bids[:4]] == ["passu"] * 4:  # the call forced on the spatigghia
                owner[SPATIGGHIA] = caller
            action = calls[0][1]
            if action < SULITA_BASE:
                called = (action - CALL_BASE) % 64
                if called in CAVALLI:  # only who holds the four re calls a cavallo
                    owner.update((re, int(caller)) for re in RE)
                if obs["aiuto"] is not None:
                    owner[called] = obs["aiuto"]
                else:  # still in the secret partner's hand: not played, not the caller's
                    unseen.only(1 << called, [h for s, h in holder.items() if s != caller])
        for c, s in owner.items():
            unseen.only(1 << c, [h for h in (holder.get(s), lost) if h is not None])
        trump = SUITS.index(obs["trump"]) if obs["trump"] else -1
        for k, p in enumerate(plays):
            if p.seat in holder and p.position:
                led = plays[k - p.position].card
                unseen.forbid(holder[p.seat], self._not_held(trump, led, p.card))
        hands = unseen.draw(rng)
        current = [hand if s == seat else hands[holder[s]] for s in range(4)]
        early: list[tuple[int, int]] = []
        if forgotten:
            kept = [current[s] | after[s][0] for s in range(4)]  # what each seat held after the sixth basi
            made = self._forgotten_tricks(obs, kept, hands[lost], owner, trump, rng)
            if made is None:
                return None
            early = made
        dealt = [cards_of(current[s] | after[s][0] | mask_of(c for t, c in early if t == s)) for s in range(4)]
        deal = self.new_deal(obs["deal_index"], obs["dealer"], dealt, {}, [])
        # The forgotten cards went after the call and before anything said after the sixth basi.
        cut = next((i for i, (_, text) in enumerate(history) if ACTION_OF[text] < CALL_BASE
                    or ACTION_OF[text] in (TUTITA, BASTA)), len(history))
        for s, a in [*((s, ACTION_OF[t]) for s, t in history[:cut]), *early,
                     *((s, ACTION_OF[t]) for s, t in history[cut:])]:
            if deal.to_move != s:
                break  # not the history seen: the check rejects it
            deal.apply(a)
        return deal

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

    def _forgotten_tricks(self, obs: Mapping[str, JSON], kept: list[int], lost: int,
                          owner: Mapping[int, int], trump: int, rng: random.Random,
                          budget: int = 1000) -> list[tuple[int, int]] | None:
        """Six legal tricks of the ``lost`` cards, six from each seat, led first by the dealer's right,
        each seat taking the basi it took then, the last taken by the leader of the seventh; found by
        a random search of at most ``budget`` cards, None if it finds none. Any such tricks show the
        seat what it sees now; they are a random choice among them, not a uniform one."""
        won = list(obs["basi"])
        for trick in obs["tricks"]:
            won[trick["winner"]] -= 1
        last = obs["tricks"][0]["leader"] if obs["tricks"] else obs["leader"]
        strength, trumps = STRENGTH[trump], TRUMP_MASK[trump]
        barred = [sum(1 << c for c, s in owner.items() if s != seat) for seat in range(4)]
        played: list[tuple[int, int]] = []
        nodes = 0

        def place(cards: int, trick: list[int], leader: int, left: list[int]) -> bool:
            nonlocal nodes
            if len(played) == 24:
                return True
            pos = len(trick)
            if not pos and any((cards & ~barred[s]).bit_count() < (24 - len(played)) // 4 for s in range(4)):
                return False  # a seat could not be given its six cards
            seat = (leader + pos) % 4
            options = cards_of(cards & ~barred[seat])
            rng.shuffle(options)
            for c in options:
                nodes += 1
                if nodes > budget:
                    return False
                bar = self._not_held(trump, trick[0], c) if trick else 0
                if kept[seat] & bar:
                    continue
                saved = barred[seat]
                barred[seat] |= bar
                played.append((seat, c))
                now = [*trick, c]
                ok = False
                if pos < 3:
                    ok = place(cards & ~(1 << c), now, leader, left)
                else:
                    led = led_suit(trump, now[0])
                    power = [strength[x] if trumps >> x & 1 or x // 13 == led else 0 for x in now]
                    winner = (leader + power.index(max(power))) % 4
                    if left[winner] and (len(played) < 24 or winner == last):
                        left[winner] -= 1
                        ok = place(cards & ~(1 << c), [], winner, left)
                        left[winner] += 1
                if ok:
                    return True
                played.pop()
                barred[seat] = saved
            return False

        if sum(won) != 6 or min(won) < 0 or not place(lost, [], (obs["dealer"] + 1) % 4, won):
            return None
        return played

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
        # riposta or tutità is followed by one more, which becomes the last.
        if len(results) < 4 * self.options["rounds"] or results[-1].outcome in ("riposta", "tutita"):
            return False, None
        totals = [sum(r.delta[s] for r in results) for s in range(4)]
        best = max(totals)
        return True, [s for s in range(4) if totals[s] == best]


GLOSSARY = {
    "passu": ("non chiamo, parla il prossimo", "I pass"),
    "chiamu": ("chiamo: dico il trunfu e il re che mi aiuta (cu' m'aiuta?)",
               "I call: I name trumps and the king whose holder will be my partner"),
    "cu' m'aiuta?": ("la formula della chiamata in compagnia", "who will help me? (the partnership call)"),
    "aiutu": ("il compagno del chiamante; o la risposta di chi si offre", "the caller's partner; or: I'll help"),
    "sulita": ("il chiamante gioca da solo contro tre", "a solo: the caller plays alone against three"),
    "trunfu": ("il seme di briscola", "trumps"),
    "palu": ("seme", "suit"),
    "base": ("presa di quattro carte", "a trick"),
    "basi": ("prese", "tricks"),
    "spatigghia": ("l'asso di spade, il trunfu più forte", "the ace of swords, the highest trump"),
    "manigghia": ("il due del trunfu nelle carte lunghe, il sette nelle corte", "the second trump: "
                  "the two of trumps in swords or clubs, the seven in coins or cups"),
    "bastu": ("l'asso di bastoni, sempre terzo trunfu", "the ace of clubs, always the third trump"),
    "puntu": ("l'asso di denari o di coppe", "the ace of coins or cups"),
    "battittura": ("spatigghia, manigghia e bastu", "the matadors: spatigghia, manigghia and bastu"),
    "stuccio": ("tutte e tre le battittura in una mano", "all three matadors in one hand"),
    "carti longhi": ("spade e bastoni", "the long suits: swords and clubs"),
    "carti curti": ("denari e coppe", "the short suits: coins and cups"),
    "vinta": ("il chiamante e l'aiutu fanno sei basi", "the callers take six tricks and win"),
    "riposta": ("cinque basi per parte: pari", "five tricks each: a draw"),
    "cudigghia": ("gli avversari fanno sei basi", "the defenders take six tricks and win"),
    "tutita": ("tutte e dieci le basi: posta doppia", "all ten tricks: double stakes"),
    "basta": ("non si tenta la tutità", "we stop here: no attempt at all ten tricks"),
    "franca": ("tutità tentata e mancata: nessuno paga", "a failed attempt at all ten tricks: nothing is paid"),
    "giro": ("l'ultimo giro di mani della partita", "the last round of deals of the match"),
    "mazziere": ("chi fa le carte", "the dealer"),
}
