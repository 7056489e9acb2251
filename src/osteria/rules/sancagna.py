"""Sancagna, the fishermen's game of Burano: two against two, on the 52-card Venetian deck.

Read top to bottom, this module is the rules: the two card orders and their points, the deal
with the turned card and the "bacio della tavola", the play, the silent cenni between partners,
the call-out ("chiamarsi fuori") that ends a smazzata, the revoke under option ``tavola`` and
the match to a number of circles.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Final, NotRequired, TypedDict

from osteria.cards import CARD_STRINGS, RANKS, SUIT_MASK, SUITS, VENETA_52, card, cards_of, suit_of
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
    partner_of,
    side_of,
)
from osteria.i18n import N_, AtSeat, OfCard, OfSuit, Reason, Term
from osteria.openplay import OpenPlay, SuitPlay, suit_chains
from osteria.sampling import Unseen, first_showing, played_from, plays_of
from osteria.trickplay import TrickPlay

# -- the cards -----------------------------------------------------------------------------------
# The order is upside down: in trump the re rules, in the other suits the four. Both orders are
# written lowest first; the points are the seed's two tables (30 in trump, 14 in each other suit).

TRUMP_ORDER: Final = "56789CA234XFR"
PLAIN_ORDER: Final = "56789XFCRA234"
TRUMP_POINTS: Final = {"R": 8, "F": 6, "X": 5, "4": 4, "3": 3, "2": 2, "A": 1, "C": 1}
PLAIN_POINTS: Final = {"4": 4, "3": 3, "2": 2, "A": 1, "R": 1, "C": 1, "F": 1, "X": 1}
DECK_POINTS: Final = 72
HAND_SIZE: Final = 6
TRICKS: Final = 6


def _tables() -> tuple[list[list[int]], list[list[int]]]:
    """Per trump suit, each card's points and its taking key (any trump above any other card)."""
    points, keys = [], []
    for trump in range(4):
        p, k = [0] * 52, [0] * 52
        for c in VENETA_52.cards:
            rank = RANKS[c % 13]
            if c // 13 == trump:
                p[c], k[c] = TRUMP_POINTS.get(rank, 0), 100 + TRUMP_ORDER.index(rank)
            else:
                p[c], k[c] = PLAIN_POINTS.get(rank, 0), PLAIN_ORDER.index(rank)
        points.append(p)
        keys.append(k)
    return points, keys


POINTS, KEY = _tables()


def card_points(c: int, trump: int) -> int:
    """A card's points when ``trump`` is the trump suit."""
    return POINTS[trump][c]


def trick_winner(cards: Sequence[int], trump: int) -> int:
    """The index in ``cards`` (in play order) of the card that takes the trick: the highest trump,
    else the highest card of the suit led; a card of any other suit never takes."""
    key, led = KEY[trump], cards[0] // 13
    best = 0
    for i in range(1, len(cards)):
        c = cards[i]
        if c // 13 in (led, trump) and key[c] > key[cards[best]]:
            best = i
    return best


def required(hand: int, led: int, trump: int) -> int:
    """The cards a player must choose from: the suit led, else trump, else any ("rispondi o taglia")."""
    return hand & SUIT_MASK[led] or hand & SUIT_MASK[trump] or hand


def card_refusal(hand: int, seat: int, card: int, led: int, trump: int) -> Reason:
    """Why ``seat`` may not play ``card`` to a trick led in ``led``: not held, or against
    "rispondi o taglia"."""
    named, who = OfCard(card), AtSeat(seat)
    if not hand >> card & 1:
        return Reason("{who} cannot play {card}: it is not in the hand", who=who, card=named)
    if hand & SUIT_MASK[led]:
        return Reason("{who} must answer the suit led: {card} is not {suit}", who=who, card=named, suit=OfSuit(led))
    return Reason("{who} must trump with {trump}, having no {suit}", who=who, suit=OfSuit(led), trump=OfSuit(trump))


def suits_lacked(led: int, c: int, trump: int) -> int:
    """The suits (a bitmask, suit s as 1 << s) that a player who keeps to the rule shows he
    lacks by playing card ``c`` to a trick led in ``led``: not answering shows a void in the
    suit led, and not trumping then a void in trump too."""
    if suit_of(c) == led:
        return 0
    return 1 << led | (1 << trump if suit_of(c) != trump else 0)


# -- the smazzata and the call-out ----------------------------------------------------------------
# Card points add up across deals until a side calls itself out right after a trick it took:
# with 21 one circle, with 42 two, and what lies beyond carries into the next smazzata.

ONE_CIRCLE: Final = 21
TWO_CIRCLES: Final = 42

def reckoned_tally(results: Sequence[Mapping[str, JSON]], *, revokes_cost: bool) -> list[int]:
    """Both sides' tallies carried into the next deal, as a player keeps them in his head
    (a mente) from the replay results of the deals before: each deal's points go on while nobody
    calls out; a call-out leaves the caller what lies beyond his circles and the others nothing;
    a wrong call leaves both nothing. With ``revokes_cost``, a revoke found (3 circles off a side's
    delta) is taken as costing its 9 points whenever it was found, so the count can only err low."""
    tally = [0, 0]
    for result in results:
        points, delta, outcome = result["points"], result["delta"], result["outcome"]
        total = [tally[side] + points[side] for side in (0, 1)]
        # A side gains 0, 1 or 2 circles and loses 3 a revoke, so the gain is the delta mod 3.
        gains = [delta[side] % 3 for side in (0, 1)]
        if outcome == "continua":
            tally = total
        elif outcome in ("fuori", "fuori-doppio"):
            caller = 0 if gains[0] else 1
            threshold = TWO_CIRCLES if outcome == "fuori-doppio" else ONE_CIRCLE
            tally = [total[side] - threshold if side == caller else 0 for side in (0, 1)]
        else:
            tally = [0, 0]
        if revokes_cost:
            tally = [tally[side] - REVOKE_POINTS * (gains[side] - delta[side]) // 3 for side in (0, 1)]
    return tally


# -- the cenni ----------------------------------------------------------------------------------
# A player shows his partner, silently and truly, that he holds the re, fante or dieci of trump
# ("vecion", "vecia", "comodin") or a four ("gnagnà"): each once a deal, before one of his cards.

CENNI: Final = ("vecion", "vecia", "comodin", "gnagna")
FOURS: Final = sum(1 << card("4", s) for s in SUITS)


def cenno_cards(kind: int, trump: int) -> int:
    """The cards whose holding makes cenno ``kind`` true."""
    return CENNO_CARDS[trump][kind]


# By trump, each cenno's cards: asked at every turn of the card play.
CENNO_CARDS: Final = tuple(tuple(FOURS if word == "gnagna" else 1 << (trump * 13 + RANKS.index("RFX"[kind]))
                          for kind, word in enumerate(CENNI)) for trump in range(len(SUITS)))


# -- the revoke (option tavola) --------------------------------------------------------------------
# At a real table a wrong card can be played; it is found as soon as the cards prove it (the
# player later plays a card he should have played then, or shows it when the deal ends), and it
# costs the guilty side 3 circles and 9 points.

REVOKE_CIRCLES: Final = 3
REVOKE_POINTS: Final = 9

# -- the action strings ---------------------------------------------------------------------------

CENNO_BASE: Final = 52
FUORI: Final = CENNO_BASE + len(CENNI)
AVANTI: Final = FUORI + 1
ACTION_STRINGS: Final = (*CARD_STRINGS, *(f"cenno {word}" for word in CENNI), "fuori", "avanti")
ACTION_OF: Final = {s: a for a, s in enumerate(ACTION_STRINGS)}


class SancagnaObservation(TypedDict):
    """What a seat may know of a deal of Sancagna (``SancagnaDeal.observation``)."""

    dealer: int
    trump: str
    turned: str
    bottom: str  # the bacio della tavola
    hand: list[str]
    hand_sizes: list[int]
    leader: int
    trick: list[SeatCard]
    last_trick: TakenTrick | None
    tricks_played: int
    played: list[str]
    calling: int | None  # the seat that may call its side out now
    cenni: list[SeatAction]  # [seat, word], those this seat sees
    revokes: list[list[int]]  # [seat, trick] of each revoke found
    history: list[SeatAction]
    points: NotRequired[list[int]]  # per side, unless the tallies are kept a mente
    tally: NotRequired[list[int]]  # likewise


class SancagnaMatchObservation(SancagnaObservation, MatchObservation):
    """What a Sancagna player reads: ``Match.observation(seat)`` while a deal is on."""


class SancagnaDeal(Deal):
    """One deal of at most six tricks, part of a smazzata that may span several deals."""

    action_strings = ACTION_STRINGS
    action_numbers = ACTION_OF

    def __init__(self, game: Sancagna, dealer: int, hands: Sequence[Sequence[int]],
                 turned: int, bottom: int, tally: Sequence[int]) -> None:
        self.seats = 4
        self.dealer = dealer
        # What was dealt, for a search that replays a sampled deal from its start (``as_dealt``).
        self.dealt = (game, tuple(tuple(hand) for hand in hands), turned, bottom, tuple(tally))
        self.a_mente: bool = game.options["a_mente"]
        self.tavola: bool = game.options["tavola"]
        self.hands = [sum(1 << c for c in hand) for hand in hands]
        self.turned, self.bottom = turned, bottom
        self.trump = turned // 13
        self.leader = (dealer + 1) % 4  # of the current trick
        self.to_move: int | None = self.leader
        self.trick: list[int] = []
        self.tricks_done = 0
        self.points = [0, 0]  # card points of this deal
        self.tally = list(tally)  # the smazzata's running tallies, carry-over included
        self.caller: int | None = None  # the trick's winner while his side may call itself out
        self.cenni = [0, 0, 0, 0]  # per seat, a bitmask of the cenni made in this deal
        self.revokes: list[tuple[int, int, int]] = []  # not yet found: seat, trick, proving cards
        self.found: list[tuple[int, int]] = []  # revokes found: seat, trick
        self.circles = [0, 0]
        self.outcome: str | None = None
        self.carry = [0, 0]
        self.last_trick: tuple[int, tuple[int, ...], int] | None = None  # leader, cards, winner
        self.history: list[tuple[int, int]] = []

    def dealt_cards(self) -> tuple[list[list[int]], dict[str, list[int]]]:
        _, hands, turned, bottom, _ = self.dealt
        dealt = sum(1 << c for hand in hands for c in hand) | 1 << turned | 1 << bottom
        return [list(hand) for hand in hands], {"turned": [turned], "bottom": [bottom],
                                                "rest": cards_of(VENETA_52.mask & ~dealt)}

    def as_dealt(self) -> SancagnaDeal:
        game, hands, turned, bottom, tally = self.dealt
        return SancagnaDeal(game, self.dealer, hands, turned, bottom, tally)

    # -- legal actions --------------------------------------------------------------------------

    def same_side(self, a: int, b: int) -> bool:
        return side_of(a) == side_of(b)

    def stake_beyond_play(self) -> bool:
        return self.caller is not None  # fuori or avanti: the stake is the tally's circle

    def open_choices(self) -> list[int] | None:
        # Fuori or avanti is the player's: the play of the open cards is valued as if avanti.
        return [AVANTI] if self.caller is not None else None

    def play_value(self, seat: int) -> int:
        return self.points[side_of(seat)]

    def open_play(self, seat: int) -> OpenPlay:
        # The card points the seat's side takes, the deal played out as if every call were
        # avanti: by the rules (answer the suit, else trump) also under tavola, where a revoke
        # can only cost.
        side = side_of(seat)
        trump = self.trump
        taken = self.points[side]

        def follow(hand: int, trick: list[int]) -> int:
            return required(hand, trick[0] // 13, trump) if trick else hand

        return OpenPlay(hands=self.hands, trick=self.trick, leader=self.leader,
                        team=[side_of(s) == side for s in range(4)], values=POINTS[trump],
                        chains=suit_chains(KEY[trump], (1 << 52) - 1), follow=follow,
                        taker=lambda trick: trick_winner(trick, trump), finish=lambda gained: taken + gained,
                        suit_play=SuitPlay(trump=trump, must_trump=True))

    def legal(self) -> list[int]:
        seat = self.to_move
        if seat is None:
            return []
        if self.caller is not None:
            return [FUORI, AVANTI]
        hand = self.hands[seat]
        if self.trick and not self.tavola:
            actions = cards_of(required(hand, self.trick[0] // 13, self.trump))
        else:
            actions = cards_of(hand)
        return actions + self._cenni(seat)

    def _cenni(self, seat: int) -> list[int]:
        hand, made = self.hands[seat], self.cenni[seat]
        return [CENNO_BASE + k for k, cards in enumerate(CENNO_CARDS[self.trump]) if not made >> k & 1 and hand & cards]

    def why_illegal(self, action: int) -> Reason:
        seat = self.to_move
        if seat is None:
            return Reason("the deal is over")
        who = AtSeat(seat)
        if action in (FUORI, AVANTI):
            word, tally = ACTION_STRINGS[action], self.tally[side_of(seat)]
            taken = not self.trick and self.last_trick is not None and side_of(self.last_trick[2]) == side_of(seat)
            if taken and not self.a_mente and tally < ONE_CIRCLE:
                return Reason("{word!r}: {who} cannot call the side out with {tally} points; it takes {needed}",
                              word=word, who=who, tally=tally, needed=ONE_CIRCLE)
            return Reason("{word!r}: one says it only right after a trick one's side took", word=word)
        if self.caller is not None:
            return Reason("{who} must first say fuori or avanti", who=who)
        if action >= CENNO_BASE:
            word = CENNI[action - CENNO_BASE]
            if self.cenni[seat] >> (action - CENNO_BASE) & 1:
                return Reason("cenno {word!r}: {who} cannot make it twice in one deal", word=word, who=who)
            return Reason("cenno {word!r}: it would not be true: {who} cannot make it without the card",
                          word=word, who=who)
        led = self.trick[0] // 13 if self.trick else action // 13
        return card_refusal(self.hands[seat], seat, action, led, self.trump)

    # -- playing ---------------------------------------------------------------------------------

    def perform(self, seat: int, action: int) -> None:
        if action == FUORI:
            self._call_out(side_of(seat))
        elif action == AVANTI:
            self._avanti(seat)
        elif action >= CENNO_BASE:
            self.cenni[seat] |= 1 << (action - CENNO_BASE)
        else:
            self._play(seat, action)

    def _play(self, seat: int, c: int) -> None:
        trick = self.trick
        if self.tavola:
            self._check_revoke(seat, c)
        self.hands[seat] ^= 1 << c
        trick.append(c)
        if len(trick) < 4:
            self.to_move = (seat + 1) % 4
            return
        winner = (self.leader + trick_winner(trick, self.trump)) % 4
        side = side_of(winner)
        taken = sum(POINTS[self.trump][x] for x in trick)
        self.points[side] += taken
        self.tally[side] += taken
        self.last_trick = (self.leader, tuple(trick), winner)
        self.trick = []
        self.tricks_done += 1
        self.leader = winner
        # By default the call is offered only when it would be right; a mente, after every trick taken.
        if self.a_mente or self.tally[side] >= ONE_CIRCLE:
            self.caller = self.to_move = winner
        else:
            self._next_trick()

    def _next_trick(self) -> None:
        if self.tricks_done == TRICKS:
            self._finish("continua")
        else:
            self.to_move = self.leader

    def _avanti(self, seat: int) -> None:
        if seat == self.caller:
            self.to_move = partner_of(seat)
        else:
            self.caller = None
            self._next_trick()

    def _call_out(self, side: int) -> None:
        tally = self.tally[side]
        if tally >= TWO_CIRCLES:
            self.circles[side] += 2
            self.carry[side] = tally - TWO_CIRCLES
            self._finish("fuori-doppio")
        elif tally >= ONE_CIRCLE:
            self.circles[side] += 1
            self.carry[side] = tally - ONE_CIRCLE
            self._finish("fuori")
        else:
            self.circles[1 - side] += 1
            self._finish("chiamata-errata")

    def _finish(self, outcome: str) -> None:
        self.outcome = outcome
        self.caller = self.to_move = None
        if outcome == "continua":
            self.carry = self.tally[:]
        # The cards left in the hands are shown: a revoke not yet found is found now, and its
        # points come off what the guilty side takes into the next deal.
        for seat, trick, _ in self.revokes:
            self._penalise(seat, trick, self.carry)
        self.revokes = []

    def _check_revoke(self, seat: int, c: int) -> None:
        """Under tavola: find the earlier revokes this card proves (led or not), and record a wrong card."""
        proved = [r for r in self.revokes if r[0] == seat and r[2] >> c & 1]
        for revoke in proved:
            self.revokes.remove(revoke)
            self._penalise(seat, revoke[1], self.tally)
        if self.trick:
            should = required(self.hands[seat], self.trick[0] // 13, self.trump)
            if not should >> c & 1:
                self.revokes.append((seat, self.tricks_done, should))

    def _penalise(self, seat: int, trick: int, tally: list[int]) -> None:
        side = side_of(seat)
        self.found.append((seat, trick))
        self.circles[side] -= REVOKE_CIRCLES
        tally[side] -= REVOKE_POINTS

    # -- strings ---------------------------------------------------------------------------------

    def unlisted_action(self, text: str) -> int:
        raise IllegalAction(Reason("{action!r} is not a sancagna action: a card (as 4c or Xd), "
                                   "cenno vecion|vecia|comodin|gnagna, fuori or avanti", action=text))

    # -- what a seat may see ---------------------------------------------------------------------

    def seen(self, seat: int, actor: int, action: int) -> bool:
        """A cenno is seen by the partner alone (and known to its maker); all else is public."""
        return not CENNO_BASE <= action < FUORI or side_of(actor) == side_of(seat)

    def seen_action(self, seat: int, actor: int, action: int) -> str | None:
        """An action as it is, where ``seat`` saw it; None for the other side's cenno."""
        return ACTION_STRINGS[action] if self.seen(seat, actor, action) else None

    def observation(self, seat: int) -> SancagnaObservation:
        history = [(s, a) for s, a in self.history if self.seen(seat, s, a)]
        obs: SancagnaObservation = {
            "dealer": self.dealer,
            "trump": SUITS[self.trump],
            "turned": CARD_STRINGS[self.turned],
            "bottom": CARD_STRINGS[self.bottom],
            "hand": [CARD_STRINGS[c] for c in cards_of(self.hands[seat])],
            "hand_sizes": [h.bit_count() for h in self.hands],
            "leader": self.leader,
            "trick": [[(self.leader + i) % 4, CARD_STRINGS[c]] for i, c in enumerate(self.trick)],
            "last_trick": None,
            "tricks_played": self.tricks_done,
            "played": [CARD_STRINGS[a] for _, a in self.history if a < CENNO_BASE],
            "calling": self.caller,
            "cenni": [[s, CENNI[a - CENNO_BASE]] for s, a in history if CENNO_BASE <= a < FUORI],
            "revokes": [[s, t] for s, t in self.found],
            "history": [[s, ACTION_STRINGS[a]] for s, a in history],
        }
        if not self.a_mente:
            obs["points"] = list(self.points)
            obs["tally"] = list(self.tally)
        if self.last_trick is not None:
            leader, cards, winner = self.last_trick
            obs["last_trick"] = {"cards": [[(leader + i) % 4, CARD_STRINGS[c]] for i, c in enumerate(cards)],
                                 "winner": winner}
        return obs

    def observations(self) -> Sequence[SancagnaObservation]:
        # Partners see alike all but their hands: a cenno is seen by its side alone.
        sides = [self.observation(0), self.observation(1)]
        seen = list(sides)
        for seat in range(2, 4):
            obs = sides[side_of(seat)].copy()
            obs["hand"] = [CARD_STRINGS[c] for c in cards_of(self.hands[seat])]
            seen.append(obs)
        return seen

    # -- scoring ---------------------------------------------------------------------------------

    def result(self) -> DealResult:
        assert self.outcome is not None, "the deal is not over"
        delta = [self.circles[side_of(s)] for s in range(4)]
        return DealResult(self.outcome, list(self.points), delta, {"tally": list(self.carry)})


def _check_target(value: JSON) -> str | None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        return "a whole number of circles, 1 or more"
    return None


class Sancagna(Game):
    name = "sancagna"
    unit = "circles"
    partnership = True
    deck = VENETA_52
    seat_counts = (4,)
    default_seats = 4
    # The solver counts card points: calling out hangs on the tally, which it cannot see.
    solver_unit = "points"
    # The whole card play (24 cards) is simulated, its playouts counted in circles, call-outs
    # included; the solver is not asked, its points being no measure of reaching a circle first.
    search_hints = SearchHints(simulate_cards=24)
    option_specs = (
        Option("target", 5, check=_check_target, doc=N_("circles that win the match"),
               label=N_("circles to win")),
        Option("a_mente", False, (True, False),
               doc=N_("tallies are kept in one's head: hidden, and a wrong call-out is possible"),
               label=N_("a mente (by heart)")),
        Option("tavola", False, (True, False),
               doc=N_("as at a real table: wrong cards are accepted, a revoke found costs 3 circles and 9 points"),
               label=N_("tavola (a real table)")),
    )
    stock_roles = ("turned", "bottom", "rest")
    single_card_roles = ("turned", "bottom")

    def board_over(self, results: Sequence[DealResult]) -> bool:
        # Circles are won by whole smazzate: a deal that nobody called out is only part of one.
        # A smazzata lasts 1.4 deals on average; eight is a bound that play never reaches.
        return bool(results) and (results[-1].outcome != "continua" or len(results) >= 8)

    def trick_play(self) -> TrickPlay | None:
        if self.options["tavola"]:
            return None  # a wrong card accepted, found later: more than the tables hold
        # The turned card, the first after the hands, names the trump; it and the last card are shown.
        deck = VENETA_52.cards
        return TrickPlay(seats=4, deck=deck, hand_size=HAND_SIZE, suits=tuple(c // 13 for c in deck),
                         values=tuple(tuple(POINTS[t][c] for c in deck) for t in range(4)),
                         strengths=tuple(tuple(KEY[t][c] for c in deck) for t in range(4)), trumps=(0, 1, 2, 3),
                         sides=(0, 1, 0, 1), must_trump=True, turned_trump=True,
                         shown=(0, len(deck) - 4 * HAND_SIZE - 1))

    def hand_sizes(self) -> list[int]:
        return [HAND_SIZE] * 4

    def score_bounds(self) -> tuple[int, int]:
        # Two circles at most; under tavola each revoke found costs 3, at most 12 a side.
        return (-36 if self.options["tavola"] else 0), 2

    def max_decisions(self) -> int:
        return 4 * HAND_SIZE + 4 * 4 + 2 * 6  # the cards, cenni, fuori or avanti twice after each trick

    def glossary(self) -> Terms:
        return GLOSSARY

    def signal_names(self) -> Terms:
        return SIGNAL_NAMES

    def stock_from_rest(self, rest: list[int]) -> dict[str, list[int]]:
        # The card after the hands is turned; the last one "kisses the table"; the rest is unused.
        return {"turned": rest[:1], "bottom": rest[-1:], "rest": sorted(rest[1:-1])}

    def check_stock(self, hands: Sequence[Sequence[int]], stock: Mapping[str, Sequence[int]],
                    seen: set[int]) -> None:
        for role in ("turned", "bottom"):
            if len(stock.get(role, ())) != 1:
                raise RulesError(f"the stock's {role!r} must be one card")
        # The unused rest of the stock may be left out; when given, the deal holds the whole deck.
        if "rest" in stock:
            super().check_stock(hands, stock, seen)

    def new_deal(self, index: int, dealer: int, hands: Sequence[Sequence[int]],
                 stock: Mapping[str, Sequence[int]], previous: Sequence[DealResult]) -> SancagnaDeal:
        tally = previous[-1].carry["tally"] if previous else [0, 0]
        return SancagnaDeal(self, dealer, hands, stock["turned"][0], stock["bottom"][0], tally)

    def sample_deal(self, observation: Mapping[str, JSON], rng: random.Random) -> SancagnaDeal:
        # The opponents' cenni that the seat did not see are left out: cenni are never due, so a
        # deal without them is consistent, and they change no card.
        return first_showing(lambda: self._sample(observation, rng), observation)

    def _sample(self, obs: Mapping[str, JSON], rng: random.Random) -> SancagnaDeal:
        seat, history, trump = obs["seat"], obs["history"], SUITS.index(obs["trump"])
        plays = plays_of(history, 4)
        after = played_from(plays, 4)
        hand = sum(1 << ACTION_OF[c] for c in obs["hand"])
        turned, bottom = ACTION_OF[obs["turned"]], ACTION_OF[obs["bottom"]]
        unseen = Unseen(VENETA_52.mask & ~hand & ~sum(1 << p.card for p in plays) & ~(1 << turned | 1 << bottom))
        holder = {s: unseen.holder(obs["hand_sizes"][s]) for s in range(4) if s != seat}
        unseen.holder(len(VENETA_52) - 4 * HAND_SIZE - 2)  # the unused rest of the stock
        for p in plays:
            # At a real table (tavola) a wrong card proves nothing, and the revokes found are checked.
            lacked = suits_lacked(suit_of(p.led), p.card, trump)
            if p.seat in holder and not self.options["tavola"] and lacked:
                unseen.forbid(holder[p.seat], sum(SUIT_MASK[s] for s in range(4) if lacked >> s & 1))
        partner = partner_of(seat)
        for i, (s, text) in enumerate(history):
            if s == partner and text.startswith("cenno"):  # true by rule when the partner made it
                later = after[s][sum(p.index < i for p in plays)]
                cards = cenno_cards(CENNI.index(text.split()[1]), trump)
                unseen.count(holder[s], cards, 1 - (later & cards).bit_count(), HAND_SIZE)
        hands = unseen.draw(rng)
        dealt = [cards_of((hand if s == seat else hands[holder[s]]) | after[s][0]) for s in range(4)]
        stock = {"turned": [turned], "bottom": [bottom], "rest": cards_of(hands[-1])}
        start = DealResult("continua", [0, 0], [0] * 4, {"tally": self._tally_at_start(obs)})
        deal = self.new_deal(obs["deal_index"], obs["dealer"], dealt, stock, [start])
        for s, text in history:
            if deal.to_move != s:
                break  # not the history seen: the check rejects it
            deal.apply(ACTION_OF[text])
        return deal

    def _tally_at_start(self, obs: Mapping[str, JSON]) -> list[int]:
        """The tallies carried into the deal: shown, less this deal's points and revokes found; a
        mente, counted from the deals before, each player's own reckoning (a revoke found at the
        end of a deal, which a mente only shifts a tally, is not counted)."""
        if "tally" in obs:
            found = [sum(side_of(s) == side for s, _ in obs["revokes"]) for side in (0, 1)]
            return [obs["tally"][side] - obs["points"][side] + REVOKE_POINTS * found[side] for side in (0, 1)]
        return reckoned_tally(obs["results"], revokes_cost=False)

    def match_status(self, results: Sequence[DealResult]) -> tuple[bool, list[int] | None]:
        circles = [sum(r.delta[s] for r in results) for s in (0, 1)]
        for side in (0, 1):
            # Only one side gains circles in a deal, so two sides never reach the target together.
            if circles[side] >= self.options["target"]:
                return True, [side, side + 2]
        return False, None


# Game terms as (italiano, English); the keys include the ASCII words of the actions and outcomes.
GLOSSARY: Final = {
    "vecion": Term("the king of trumps, the highest card"),
    "vecia": Term("the jack of trumps, the second card"),
    "comodin": Term("the ten of trumps, the third card"),
    "gnagnà": Term("a four: the highest card in a plain suit"),
    "gnagna": Term("gnagnà, a four"),
    "scartine": Term("nines to fives: no points"),
    "briscola": Term("trumps: the suit of the turned card"),
    "bacio della tavola": Term("the bottom card of the stock, shown to all and out of play"),
    "rispondi o taglia": Term("follow suit, else trump"),
    "scarto": Term("any card, when void in the suit led and in trumps"),
    "cenno": Term("a silent signal to one's partner: vecion, vecia, comodin or gnagnà"),
    "capitano": Term("the player who leads a pair's signalling"),
    "smazzata": Term("the deals played until a side calls itself out"),
    "chiamarsi fuori": Term("to claim 21 points after a trick: the smazzata ends"),
    "fuori": Term("we call ourselves out: 21 points, one circle"),
    "fuori-doppio": Term("out with 42 points: two circles"),
    "avanti": Term("not to call oneself out: play on"),
    "continua": Term("nobody called out: the points go on into the next deal"),
    "rinvio": Term("waiting for 42 points and two circles"),
    "cerchio": Term("a smazzata won, marked on the slate"),
    "chiamata-errata": Term("a call-out without 21 points: the smazzata goes to the opponents"),
    "a mente": Term("the points are counted in one's head"),
    "revoca": Term("failing to follow suit (or to trump) when able: 3 circles and 9 points off"),
}

SIGNAL_NAMES: Final = {
    "vecion": Term("I hold the king of trumps"),
    "vecia": Term("I hold the jack of trumps"),
    "comodin": Term("I hold the ten of trumps"),
    "gnagna": Term("I hold a four"),
}
