"""Calabresella (tressette a chiamare): one against the rest, for three, four or five players.

Read top to bottom, this module is the rules: the bidding, the called card and the widow, the
play of the tricks (Tressette's, shared with the family), the stakes and the match in rounds.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Final

from osteria.cards import CARD_STRINGS, ITALIAN_40, SUIT_MASK, cards_of, mask_of, parse_card
from osteria.engine import (
    JSON,
    CardSets,
    DealResult,
    Game,
    IllegalAction,
    MatchObservation,
    Option,
    SearchHints,
    SeatAction,
    Terms,
    parse_cards,
)
from osteria.i18n import N_, AtSeat, Reason, Term
from osteria.openplay import OpenPlay, SuitPlay
from osteria.rules import tressette
from osteria.rules.tressette import SIGNAL_INDEX, SIGNAL_STRIDE
from osteria.rules.tressette_family import (
    DEAL_THIRDS,
    FAMILY_CHAINS,
    LAST_TRICK_THIRDS,
    THIRDS,
    PlayObservation,
    TrickDeal,
    family_trick_play,
    playable,
    rounded_points,
    thirds_of,
    trick_taker,
)
from osteria.sampling import Unseen, first_showing, played_from, plays_of
from osteria.trickplay import CallAuction, TrickPlay

# -- the deal --------------------------------------------------------------------------------------
# Three players hold 12 cards and four lie face down (the widow); four hold 10, five hold 8.
HAND_SIZE: Final = {3: 12, 4: 10, 5: 8}
DISCARDS: Final = 4  # what the caller lays aside at three, after taking the widow
WINNING_POINTS: Final = 6

# -- the actions -----------------------------------------------------------------------------------
# A card, alone or with a lead signal, is card + SIGNAL_STRIDE * signal (Tressette's numbering);
# the bidding and the exchange come after every card action; a discard is a flag and its cards.
BUSSO, STRISCIO = SIGNAL_INDEX["busso"], SIGNAL_INDEX["striscio"]
PASSO: Final = 256
SOLA: Final = 257
CHIAMO: Final = 320  # + the called card
CEDO: Final = 384  # + the card the caller gives for the called one
SCARTO: Final = 1 << 52  # | the bitmask of the four discarded cards


def _action_strings() -> dict[int, str]:
    strings = {PASSO: "passo", SOLA: "sola"}
    for c in ITALIAN_40.cards:
        strings[c] = CARD_STRINGS[c]
        strings[c + SIGNAL_STRIDE * BUSSO] = f"{CARD_STRINGS[c]} busso"
        strings[c + SIGNAL_STRIDE * STRISCIO] = f"{CARD_STRINGS[c]} striscio"
        strings[CHIAMO + c] = f"chiamo {CARD_STRINGS[c]}"
        strings[CEDO + c] = f"cedo {CARD_STRINGS[c]}"
    return strings


ACTION_STRINGS: Final = _action_strings()
ACTION_OF: Final = {s: a for a, s in ACTION_STRINGS.items()}


# The names of every two cards of the deck, the lower first, by their mask. A scarto's four cards
# are two such pairs, so its string takes two lookups: the string API and the environments
# spell all 1,820 scarti of a hand at once.
PAIR_NAMES: Final = {1 << a | 1 << b: f"{CARD_STRINGS[a]} {CARD_STRINGS[b]}"
              for a, b in combinations(sorted(ITALIAN_40.cards), 2)}


def scarto_str(mask: int) -> str:
    """The string of a scarto of four cards, by the bitmask of its cards."""
    low = mask & -mask
    rest = mask ^ low
    low |= rest & -rest
    return f"scarto {PAIR_NAMES[low]} {PAIR_NAMES[mask ^ low]}"


def scarti(hand: int) -> list[int]:
    """Every scarto of four cards of ``hand``, as SCARTO | their mask, in the order of
    ``itertools.combinations`` over the hand's cards: each two cards in turn, then every pair
    after them (built once, so that no card is added to a scarto more than twice)."""
    bits = [1 << c for c in cards_of(hand)]
    n = len(bits)
    pairs_from: list[list[int]] = [[] for _ in range(n + 1)]  # the pairs of the k-th card and after
    for k in range(n - 2, -1, -1):
        pairs_from[k] = [bits[k] | b for b in bits[k + 1:]] + pairs_from[k + 1]
    actions: list[int] = []
    for i in range(n - 3):
        first = SCARTO | bits[i]
        for j in range(i + 1, n - 2):
            head = first | bits[j]
            actions += [head | pair for pair in pairs_from[j + 1]]
    return actions


# -- the stakes ------------------------------------------------------------------------------------
# The seed's two tables, row by row: what the caller and (at five) his partner win, and what each
# opponent pays, when the caller's side wins. When it loses, every sign turns. The winner gets as
# many units as he has opponents; cappotto doubles, a sola doubles, a sola with cappotto quadruples.
STAKES: Final[dict[tuple[str, bool], dict[int, tuple[int, int, int]]]] = {
    # (contract, cappotto): {seats: (caller, partner, each opponent)}
    ("chiamata", False): {3: (2, 0, 1), 4: (3, 0, 1), 5: (2, 1, 1)},
    ("chiamata", True): {3: (4, 0, 2), 4: (6, 0, 2), 5: (4, 2, 2)},
    ("sola", False): {3: (4, 0, 2), 4: (6, 0, 2), 5: (8, 0, 2)},
    ("sola", True): {3: (8, 0, 4), 4: (12, 0, 4), 5: (16, 0, 4)},
}


class CalabresellaObservation(PlayObservation):
    """What a seat may know of a deal of Calabresella (``CalabresellaDeal.observation``)."""

    dealer: int
    phase: str  # "bidding", "cedo", "scarto", "play" or "over"
    contract: str | None  # "chiamata" or "sola"
    caller: int | None
    called: str | None
    called_holder: int | str | None  # a seat, or "widow"; None where it is not shown
    partner: int | None  # the secret partner at five, once known to this seat
    ceded: str | None
    widow: list[str] | None
    discards: list[str] | None
    hand: list[str]
    played: list[str]
    history: list[SeatAction]


class CalabresellaMatchObservation(CalabresellaObservation, MatchObservation):
    """What a Calabresella player reads: ``Match.observation(seat)`` while a deal is on."""


class CalabresellaDeal(TrickDeal):
    """One deal: the bidding, then the exchange and the discard where they apply, then the tricks."""

    action_strings = ACTION_STRINGS
    action_numbers = ACTION_OF

    def __init__(self, game: Calabresella, dealer: int, hands: Sequence[Sequence[int]],
                 widow: Sequence[int]) -> None:
        n = self.seats = game.seats
        self.dealer = dealer
        self.hands = [mask_of(h) for h in hands]
        self.card_thirds = THIRDS
        self.widow = mask_of(widow)
        self.dealt = (game, tuple(self.hands), self.widow)
        # The dealer's right speaks first and, unless a sola is asked, leads the first trick.
        self.setup_play((dealer + 1) % n, self.widow)
        self.phase = "bidding"  # then "cedo", "scarto", "play", "over"
        self.passes = 0
        self.contract: str | None = None  # "chiamata" or "sola"
        self.caller: int | None = None
        self.called: int | None = None
        self.holder: int | None = None  # who was dealt the called card; None: the widow
        self.ceded: int | None = None
        self.history: list[tuple[int, int]] = []

    def dealt_cards(self) -> tuple[list[list[int]], dict[str, list[int]]]:
        _, hands, widow = self.dealt
        return [cards_of(h) for h in hands], {"widow": cards_of(widow)}

    def as_dealt(self) -> CalabresellaDeal:
        game, hands, widow = self.dealt
        return CalabresellaDeal(game, self.dealer, [cards_of(h) for h in hands], cards_of(widow))

    @property
    def partner(self) -> int | None:
        """The caller's secret partner at five: the holder of the called card."""
        return self.holder if self.seats == 5 and self.contract == "chiamata" else None

    def side(self) -> set[int]:
        """The caller's side."""
        assert self.caller is not None
        partner = self.partner
        return {self.caller} if partner is None else {self.caller, partner}

    @property
    def in_card_play(self) -> bool:
        return self.phase in ("play", "over")

    def card_of(self, action: int) -> int | None:
        return action % SIGNAL_STRIDE if action < PASSO else None

    def same_side(self, a: int, b: int) -> bool:
        if self.caller is None:  # before the bidding ends every seat plays for itself
            return a == b
        side = self.side()
        return (a in side) == (b in side)

    # -- legal actions ---------------------------------------------------------------------------

    def legal(self) -> list[int]:
        seat = self.to_move
        if seat is None:
            return []
        hand = self.hands[seat]
        if self.phase == "bidding":
            return [PASSO, *(CHIAMO + c for c in cards_of(ITALIAN_40.mask & ~hand)), SOLA]
        if self.phase == "cedo":
            return [CEDO + c for c in cards_of(hand)]
        if self.phase == "scarto":
            return scarti(hand)
        if self.trick:
            return self.playable_cards()
        return self._leads(hand)

    def _leads(self, hand: int) -> list[int]:
        # Signals only from the second trick on: busso always, striscio while the suit goes on.
        if self.tricks_done == 0:
            return cards_of(hand)
        actions: list[int] = []
        for c in cards_of(hand):
            actions += (c, c + SIGNAL_STRIDE * BUSSO)
            if hand & SUIT_MASK[c // 13] & ~(1 << c):
                actions.append(c + SIGNAL_STRIDE * STRISCIO)
        return actions

    def card_sets(self) -> CardSets | None:
        # The scarto, as legal() lists it: any four cards of the hand.
        if self.phase != "scarto" or self.to_move is None:
            return None
        return CardSets("scarto", self.hands[self.to_move], DISCARDS, SCARTO.__or__)

    def why_illegal(self, action: int) -> Reason:
        seat = self.to_move
        if seat is None:
            return Reason("the deal is over")
        text, who = self.action_str(action), AtSeat(seat)
        hand = self.hands[seat]
        if self.phase == "bidding":
            if CHIAMO <= action < CEDO:
                return Reason("{action!r}: {who} cannot call a card of the own hand; "
                              "one calls a card one does not hold", action=text, who=who)
            return Reason("{action!r}: {who} must bid now: passo, chiamo and a card, or sola", action=text, who=who)
        if self.phase == "cedo":
            if CEDO <= action < SCARTO:
                return Reason("{action!r}: {who} cannot give a card that is not in the hand", action=text, who=who)
            return Reason("{action!r}: {who} must first give a card for the called one: cedo and a card",
                          action=text, who=who)
        if self.phase == "scarto":
            if action & SCARTO:
                return Reason("{action!r}: {who} cannot discard cards that are not in the hand", action=text, who=who)
            return Reason("{action!r}: {who} must first discard four cards: scarto and four cards",
                          action=text, who=who)
        if action >= PASSO:
            return Reason("{action!r}: the bidding is over; the cards are being played", action=text)
        c, signal = action % SIGNAL_STRIDE, action // SIGNAL_STRIDE
        problem = self.card_problem(c)
        if problem:
            return problem
        if self.trick:
            return Reason("{action!r}: only the leader of a trick signals", action=text)
        if self.tricks_done == 0:
            return Reason("{action!r}: no signals in the first trick", action=text)
        if signal == STRISCIO and not hand & SUIT_MASK[c // 13] & ~(1 << c):
            return Reason("{action!r}: {who} cannot say striscio, which says one holds more of the suit",
                          action=text, who=who)
        return Reason("{action!r}: the only signals are busso and striscio", action=text)

    # -- playing -----------------------------------------------------------------------------------

    def perform(self, seat: int, action: int) -> None:
        if action < PASSO:
            self.play_card(action % SIGNAL_STRIDE)
            if self.to_move is None:
                self.phase = "over"
        elif action == PASSO:
            self.passes += 1
            if self.passes == self.seats:  # all pass: the deal is void (a monte)
                self.phase = "over"
                self.to_move = None
            else:
                self.to_move = (seat + 1) % self.seats
        elif action == SOLA:
            # The soloist plays with the cards he was dealt, the widow unseen, and leads.
            self.contract, self.caller = "sola", seat
            self._begin_play(seat)
        elif action < CEDO:
            self._call(seat, action - CHIAMO)
        elif action < SCARTO:
            self._exchange(action - CEDO)
        else:
            mask = action ^ SCARTO
            self.hands[seat] ^= mask
            self.set_aside = mask  # the discards go to the taker of the last trick
            self._begin_play(self.leader)

    def _call(self, seat: int, called: int) -> None:
        self.contract, self.caller, self.called = "chiamata", seat, called
        self.holder = next((s for s in range(self.seats) if self.hands[s] >> called & 1), None)
        if self.seats == 3:
            self.hands[seat] |= self.widow  # the caller takes the widow
            self.set_aside = 0
        if self.seats == 5:  # the holder says nothing: he is the secret partner
            self._begin_play(self.leader)
        elif self.holder is not None:
            self.phase = "cedo"
        else:
            self.phase = "scarto"

    def _exchange(self, given: int) -> None:
        assert self.caller is not None and self.called is not None and self.holder is not None
        swap = 1 << given | 1 << self.called
        self.hands[self.caller] ^= swap
        self.hands[self.holder] ^= swap
        self.ceded = given
        if self.seats == 3:
            self.phase = "scarto"
        else:
            self._begin_play(self.leader)

    def _begin_play(self, leader: int) -> None:
        self.phase = "play"
        self.leader = self.to_move = leader

    # -- strings -----------------------------------------------------------------------------------

    def action_str(self, action: int) -> str:
        if action & SCARTO:
            return scarto_str(action ^ SCARTO)
        return ACTION_STRINGS[action]

    def unlisted_action(self, text: str) -> int:
        words = text.split()
        if words and words[0] == "scarto":
            cards = parse_cards(words[1:], text)
            if len(cards) != DISCARDS or len(set(cards)) != DISCARDS or not all(c in ITALIAN_40 for c in cards):
                raise IllegalAction(Reason("{action!r}: scarto names four different cards of the 40-card deck",
                                           action=text))
            return SCARTO | mask_of(cards)
        if words and words[0] in ("chiamo", "cedo") and len(words) == 2:
            card = parse_cards(words[1:], text)[0]
            raise IllegalAction(Reason("{action!r}: {card} is not a card of the 40-card deck",
                                       action=text, card=CARD_STRINGS[card]))
        raise IllegalAction(Reason("{action!r} is not a calabresella action: passo, chiamo CARD, sola, cedo CARD, "
                                   "scarto and four cards, a card, or a card with busso or striscio", action=text))

    # -- what a seat may see -----------------------------------------------------------------------

    def seen_action(self, seat: int, actor: int, action: int) -> str:
        """An action as ``seat`` saw it: another seat's scarto without its cards."""
        return "scarto" if action & SCARTO and actor != seat else self.action_str(action)

    def holder_shown(self) -> bool:
        """Whether all see who was dealt the called card: at three and four the holder hands it
        over at once, for all to see; at five he is known to himself alone."""
        return self.called is not None and self.seats < 5

    def partner_known_to(self, seat: int) -> bool:
        """Whether ``seat`` knows the secret partner at five: he knows himself, and all know him
        once the called card is played. At five nothing but its play takes a card from a hand,
        so the called card is out once its holder no longer holds it."""
        partner, called = self.partner, self.called
        if partner is None or called is None:
            return False
        return seat == partner or not self.hands[partner] >> called & 1

    def widow_seen_by(self, seat: int) -> bool:
        """Whether ``seat`` saw the widow: the caller at three, who takes it in a chiamata."""
        return seat == self.caller and self.seats == 3 and self.contract == "chiamata"

    def discards_seen_by(self, seat: int) -> bool:
        """Whether ``seat`` knows the four cards laid aside: the caller who took the widow, once
        he has discarded them."""
        return self.widow_seen_by(seat) and self.phase in ("play", "over")

    def observation(self, seat: int) -> CalabresellaObservation:
        called = self.called
        holder: int | str | None = None
        if self.holder_shown():
            holder = "widow" if self.holder is None else self.holder
        obs: CalabresellaObservation = {
            "dealer": self.dealer,
            "phase": self.phase,
            "contract": self.contract,
            "caller": self.caller,
            "called": None if called is None else CARD_STRINGS[called],
            "called_holder": holder,
            "partner": None,
            "ceded": None if self.ceded is None else CARD_STRINGS[self.ceded],
            "widow": None,
            "discards": None,
            "hand": [],
            "played": [CARD_STRINGS[a % SIGNAL_STRIDE] for _, a in self.history if a < PASSO],
            "history": self._history_seen(seat),
            **self.play_observation(),
        }
        self._see_own(obs, seat)
        return obs

    def _see_own(self, obs: CalabresellaObservation, seat: int) -> None:
        """What ``seat`` alone may see, into ``obs``: its hand, the widow and the discards (the
        caller's at three), the secret partner at five (known to himself)."""
        obs["partner"] = self.partner if self.partner_known_to(seat) else None
        obs["widow"] = [CARD_STRINGS[c] for c in cards_of(self.widow)] if self.widow_seen_by(seat) else None
        obs["discards"] = [CARD_STRINGS[c] for c in cards_of(self.set_aside)] if self.discards_seen_by(seat) else None
        obs["hand"] = [CARD_STRINGS[c] for c in cards_of(self.hands[seat])]

    def _history_seen(self, seat: int) -> list[SeatAction]:
        return [[s, self.seen_action(seat, s, a)] for s, a in self.history]

    def observations(self) -> Sequence[CalabresellaObservation]:
        # The seats see alike all but what each sees alone, and a scarto's cards (its maker's).
        first = self.observation(0)
        seen = [first]
        hidden = any(a & SCARTO for _, a in self.history)
        for seat in range(1, self.seats):
            obs = first.copy()
            self._see_own(obs, seat)
            if hidden:
                obs["history"] = self._history_seen(seat)
            seen.append(obs)
        return seen

    # -- scoring -----------------------------------------------------------------------------------

    def result(self) -> DealResult:
        n = self.seats
        if self.contract is None:
            return DealResult("monte", [0, 0], [0] * n)
        side = self.side()
        thirds = self.final_thirds()
        assert self.last_taker is not None
        side_thirds = [sum(thirds[s] for s in side), sum(thirds[s] for s in range(n) if s not in side)]
        return self.stakes(side_thirds, self.last_taker in side)

    def stakes(self, side_thirds: Sequence[int], caller_took_last: bool) -> DealResult:
        """The result of the contract played out, from the thirds of the caller's side and of
        the others (the last trick's point and the set-aside cards included), and whether the
        caller's side took the last trick."""
        n = self.seats
        assert self.contract is not None and self.caller is not None
        points = rounded_points(side_thirds, 0 if caller_took_last else 1)
        won = points[0] >= WINNING_POINTS
        cappotto = points[1 if won else 0] == 0
        caller_stake, partner_stake, opponent_stake = STAKES[self.contract, cappotto][n]
        sign = 1 if won else -1
        delta = [-sign * opponent_stake] * n
        delta[self.caller] = sign * caller_stake
        if self.partner is not None:
            delta[self.partner] = sign * partner_stake
        outcome = "cappotto" if cappotto else "vinta" if won else "persa"
        return DealResult(outcome, points, delta)

    # -- the open-handed play, for the solver --------------------------------------------------------

    def open_play(self, seat: int) -> OpenPlay:
        # The solver counts the thirds of the seat's side; the result is a monotone step of them.
        n = self.seats
        callers = self.side()
        ours = callers if seat in callers else set(range(n)) - callers
        last_bonus = LAST_TRICK_THIRDS + thirds_of(self.set_aside)
        taken = sum(self.taken[s] for s in ours)

        def finish(gained: int) -> int:
            mine = taken + gained
            # A side that gained less than the last trick's bonus cannot have taken that trick.
            we_took_last = mine >= last_bonus
            if ours is callers:
                return self.stakes([mine, DEAL_THIRDS - mine], we_took_last).delta[seat]
            return self.stakes([DEAL_THIRDS - mine, mine], not we_took_last).delta[seat]

        return OpenPlay(hands=self.hands, trick=self.trick, leader=self.leader, team=[s in ours for s in range(n)],
                        values=THIRDS, chains=FAMILY_CHAINS, follow=playable, taker=trick_taker, finish=finish,
                        last_bonus=last_bonus, cashes=True, suit_play=SuitPlay())


def _check_rounds(value: JSON) -> str | None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        return "a whole number of rounds, 1 or more"
    return None


def _mask(cards: Sequence[str]) -> int:
    return mask_of(parse_card(c) for c in cards)


class Calabresella(Game):
    name = "calabresella"
    unit = "stakes"
    zero_sum = True
    deck = ITALIAN_40
    seat_counts = (3, 4, 5)
    default_seats = 3
    # From how many cards left the solver values a sampled deal's every action well within a
    # 0.1 s decision (solver times measured by ``osteria bench``).
    search_hints = SearchHints(solve_cards=18)
    stock_roles = ("widow",)
    option_specs = (
        Option("rounds", 2, check=_check_rounds, doc=N_("full rounds of deals: every seat deals this many times"),
               label=N_("rounds")),
    )

    def trick_play(self) -> TrickPlay:
        # The bidding as above: at three the caller takes the widow, at three and four the holder
        # of the called card hands it over, at five he is the secret partner. Signals are left out.
        n = self.seats
        stakes = tuple(STAKES[contract, cappotto][n] for contract in ("chiamata", "sola") for cappotto in (False, True))
        auction = CallAuction(caller_takes_rest=n == 3, exchange=n < 5, hidden_partner=n == 5,
                              winning_points=WINNING_POINTS, stakes=stakes, words=("passo", "sola"))
        return family_trick_play(range(n), lead_card=None, hand_size=HAND_SIZE[n], auction=auction)

    def hand_sizes(self) -> list[int]:
        return [HAND_SIZE[self.seats]] * self.seats

    def score_bounds(self) -> tuple[int, int]:
        top = max(max(stakes[self.seats][0], stakes[self.seats][2]) for stakes in STAKES.values())
        return -top, top

    def max_decisions(self) -> int:
        return self.seats * HAND_SIZE[self.seats] + self.seats + 3  # the cards, the bidding, cedo, scarto

    def discard_size(self) -> int:
        return DISCARDS if self.seats == 3 else 0

    def glossary(self) -> Terms:
        return GLOSSARY

    def signal_names(self) -> Terms:
        return SIGNAL_NAMES

    def stock_from_rest(self, rest: list[int]) -> dict[str, list[int]]:
        return {"widow": sorted(rest)} if rest else {}

    def new_deal(self, index: int, dealer: int, hands: Sequence[Sequence[int]],
                 stock: Mapping[str, Sequence[int]], previous: Sequence[DealResult]) -> CalabresellaDeal:
        return CalabresellaDeal(self, dealer, hands, stock.get("widow", ()))

    def sample_deal(self, observation: Mapping[str, JSON], rng: random.Random) -> CalabresellaDeal:
        return first_showing(lambda: self._sample(observation, rng), observation)

    def _sample(self, obs: Mapping[str, JSON], rng: random.Random) -> CalabresellaDeal:
        n, seat, history = self.seats, obs["seat"], obs["history"]
        caller, contract = obs["caller"], obs["contract"]
        called = None if obs["called"] is None else parse_card(obs["called"])
        ceded = None if obs["ceded"] is None else parse_card(obs["ceded"])
        holder_of_called = obs["called_holder"]
        plays = plays_of(history, n)
        after = played_from(plays, n)
        hand = _mask(obs["hand"])
        widow, discards = _mask(obs["widow"] or ()), _mask(obs["discards"] or ())
        # A caller who saw the widow knows where its cards are, but for the one he gave away.
        seen = hand | mask_of(p.card for p in plays) | widow & ~(0 if ceded is None else 1 << ceded) | discards
        unseen = Unseen(ITALIAN_40.mask & ~seen)
        holder = {s: unseen.holder(obs["hand_sizes"][s]) for s in range(n) if s != seat}
        widow_apart = n == 3 and contract != "chiamata"  # the widow lies unseen, apart (sola, bidding)
        taken = n == 3 and contract == "chiamata"  # the caller took the widow
        hidden_discard = taken and seat != caller and obs["phase"] in ("play", "over")
        extra = unseen.holder(DISCARDS) if widow_apart or hidden_discard else None
        if called is not None:
            if ceded is not None:  # the exchange is made: the called card is the caller's now
                if holder_of_called in holder:
                    unseen.require(holder[holder_of_called], 1 << ceded & ~after[holder_of_called][0])
                places = [holder[caller]] if caller in holder else []
                unseen.only(1 << called, places + ([extra] if hidden_discard and extra is not None else []))
            elif holder_of_called == "widow" and caller in holder:  # taken by the caller, who may have laid it aside
                unseen.only(1 << called, [holder[caller]] + ([extra] if extra is not None else []))
            elif isinstance(holder_of_called, int) and holder_of_called in holder:
                unseen.require(holder[holder_of_called], 1 << called)
            elif n == 5:  # the secret partner holds it, if the seat does not know who he is
                partner = obs["partner"]
                unseen.only(1 << called, [holder[partner]] if partner in holder else
                            [h for s, h in holder.items() if s != caller])
        for k, p in enumerate(plays):
            h = holder.get(p.seat)
            if h is None:
                continue
            led = p.led // 13
            if p.card // 13 != led:
                unseen.forbid(h, SUIT_MASK[led])  # not following shows a void
            elif p.word == "striscio":  # at least one more card of the suit
                cards = SUIT_MASK[led]
                unseen.count(h, cards, 1 - (after[p.seat][k + 1] & cards).bit_count(), HAND_SIZE[3] + DISCARDS)
        hands = unseen.draw(rng)
        full = [(hand if s == seat else hands[holder[s]]) | after[s][0] for s in range(n)]
        put_aside = hands[extra] if extra is not None else 0
        stock_widow = put_aside if widow_apart else 0
        if taken:
            discards = put_aside if hidden_discard else discards
            full[caller] |= discards
        if ceded is not None and called is not None:  # undo the exchange
            swap = 1 << ceded | 1 << called
            full[caller] ^= swap
            full[holder_of_called] ^= swap
        if taken:
            assert called is not None
            # The caller's cards and the widow, split at random (the same number of ways for every
            # draw); a called card that lay in the widow stays there.
            if seat == caller:
                stock_widow = widow
            else:
                pool = cards_of(full[caller] & ~(1 << called if holder_of_called == "widow" else 0))
                stock_widow = mask_of(rng.sample(pool, DISCARDS - (holder_of_called == "widow")))
                if holder_of_called == "widow":
                    stock_widow |= 1 << called
            full[caller] &= ~stock_widow
        deal = self.new_deal(obs["deal_index"], obs["dealer"], [cards_of(h) for h in full],
                             {"widow": cards_of(stock_widow)} if stock_widow else {}, [])
        for s, text in history:
            if deal.to_move != s:
                break  # not the history seen: the check rejects it
            deal.apply(SCARTO | discards if text == "scarto" else deal.parse_action(text))
        return deal

    def match_status(self, results: Sequence[DealResult]) -> tuple[bool, list[int] | None]:
        # A void deal counts as its dealer's deal: the match is a number of deals.
        if len(results) < self.options["rounds"] * self.seats:
            return False, None
        return True, self.best_totals(results)

    def last_round_end(self, index: int, dealer: int, seat: int) -> int:
        # "Chiamare mano": at any point of the match the dealer ("chi fa le carte") may end it
        # after the player before him has dealt, so each seat deals once more, from the dealer on.
        # The seed gives it to the dealer alone: the other seats cannot.
        if seat != dealer:
            raise IllegalAction(Reason("only the dealer, {dealer}, may call mano (the last round), not {who}",
                                       dealer=AtSeat(dealer), who=AtSeat(seat)))
        last = index + self.seats - 1
        if last >= self.options["rounds"] * self.seats - 1:
            raise IllegalAction(Reason("the match ends with this round anyway: calling mano would not shorten it"))
        return last


GLOSSARY: Final = {
    "vinta": Term("the caller's side made 6 points or more"),
    "persa": Term("the caller's side made fewer than 6 points"),
    "chiamata": Term("the caller asks for a card he does not hold"),
    "chiamante": Term("the player who calls and plays against the rest"),
    "passo": Term("no call: the next player speaks"),
    "sola": Term("playing alone without a call, for double the stake"),
    "cedo": Term("the card given face up in exchange for the called one"),
    "scarto": Term("the four cards the caller lays aside at three players"),
    "monte": Term("everyone passes: the deal is void"),
    "compagno": Term("at five, the holder of the called card, the caller's secret partner"),
    "busso": Term("take with your best and come back to this suit"),
    "striscio": Term("I hold more cards of this suit"),
    "cappotto": Term("one side makes no point at all"),
    "sotto di mano": Term("the player at the dealer's right"),
    "mano": Term("a trick; also the end of the match called by the dealer"),
}

SIGNAL_NAMES: Final = {word: tressette.SIGNAL_NAMES[word] for word in ("busso", "striscio")}
