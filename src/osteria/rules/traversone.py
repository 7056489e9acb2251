"""Traversone (tressette a perdere): everyone for himself, and points are poison.

Read top to bottom, this module is the rules: the deal for three to six players, the first
lead, the play of the tricks (Tressette's, shared with the family), the ace of bastoni, the
scores of a deal with its cappotto and zero-point rules, and the end of the match.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Final

from osteria.cards import CARD_STRINGS, ITALIAN_40, SUIT_MASK, card, cards_of, mask_of, parse_card
from osteria.engine import (
    JSON,
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
from osteria.i18n import N_, Reason, Term
from osteria.openplay import OpenPlay, SuitPlay
from osteria.rules.tressette import FOUR_OF_DENARI
from osteria.rules.tressette_family import (
    FAMILY_CHAINS,
    LAST_TRICK_THIRDS,
    PLAYOUT_SLIP,
    STRENGTH,
    THIRDS,
    PlayObservation,
    TrickDeal,
    family_trick_play,
    final_thirds,
    playable,
    rounded_points,
    taker_of,
    thirds_of,
    trick_taker,
)
from osteria.sampling import Unseen, first_showing, played_from, plays_of
from osteria.trickplay import TrickPlay

# -- the cards -----------------------------------------------------------------------------------
# Card points as in Tressette, except that the ace of bastoni may be worth 11 or 18 (option).
ACE_OF_BASTONI: Final = card("A", "b")


def card_thirds(asso_bastoni: int) -> list[int]:
    thirds = list(THIRDS)
    thirds[ACE_OF_BASTONI] = 3 * asso_bastoni
    return thirds


# -- the scores of a deal --------------------------------------------------------------------------
CAPPOTTO_OTHERS: Final = 11  # what every other player scores when one player takes every point
ZERO_POINTS: Final = 10  # what a player who took no point scores (zero_punti "dieci")


# The cards are the actions.
CARD_OF: Final = {CARD_STRINGS[c]: c for c in ITALIAN_40.cards}


class TraversoneObservation(PlayObservation):
    """What a seat may know of a deal of Traversone (``TraversoneDeal.observation``)."""

    dealer: int
    hand: list[str]
    leftover: int  # the cards left over after an even deal, which go with the last trick
    played: list[str]
    history: list[SeatAction]


class TraversoneMatchObservation(TraversoneObservation, MatchObservation):
    """What a Traversone player reads: ``Match.observation(seat)`` while a deal is on."""


class TraversoneDeal(TrickDeal):
    """One deal: as many tricks as each player holds cards."""

    action_strings = CARD_STRINGS
    action_numbers = CARD_OF

    def __init__(self, game: Traversone, dealer: int, hands: Sequence[Sequence[int]],
                 leftover: Sequence[int], first_of_match: bool) -> None:
        n = self.seats = game.seats
        self.dealer = dealer
        self.asso_bastoni: int = game.options["asso_bastoni"]
        self.zero_punti: str = game.options["zero_punti"]
        self.hands = [mask_of(h) for h in hands]
        self.dealt = (tuple(self.hands), mask_of(leftover))
        self.card_thirds = card_thirds(self.asso_bastoni)
        # The first deal is led by the holder of the 4 of denari (the dealer's right if it was
        # left over), every later one by the dealer's right.
        leader = (dealer + 1) % n
        if first_of_match:
            leader = next((s for s in range(n) if self.hands[s] >> FOUR_OF_DENARI & 1), leader)
        # The cards left over after an even deal go, unseen, to the taker of the last trick.
        self.setup_play(leader, mask_of(leftover))
        self.history: list[tuple[int, int]] = []

    def dealt_cards(self) -> tuple[list[list[int]], dict[str, list[int]]]:
        hands, leftover = self.dealt
        return [cards_of(h) for h in hands], {"widow": cards_of(leftover)} if leftover else {}

    def unlisted_action(self, text: str) -> int:
        words = text.split()
        if len(words) != 1:
            raise IllegalAction(Reason("{action!r} is not a traversone action: one card, as 3d", action=text))
        c = parse_cards(words, text)[0]
        if c not in ITALIAN_40:
            raise IllegalAction(Reason("{action!r}: {card} is not a card of the 40-card deck",
                                       action=text, card=words[0]))
        return c

    def observation(self, seat: int) -> TraversoneObservation:
        return {
            "dealer": self.dealer,
            "hand": [CARD_STRINGS[c] for c in cards_of(self.hands[seat])],
            "leftover": self.set_aside.bit_count(),
            "played": [CARD_STRINGS[a] for _, a in self.history],
            "history": [[s, CARD_STRINGS[a]] for s, a in self.history],
            **self.play_observation(),
        }

    def observations(self) -> Sequence[TraversoneObservation]:
        # Every seat sees the same but its hand.
        first = self.observation(0)
        seen = [first]
        for seat in range(1, self.seats):
            obs = first.copy()
            obs["hand"] = [CARD_STRINGS[c] for c in cards_of(self.hands[seat])]
            seen.append(obs)
        return seen

    def result(self) -> DealResult:
        assert self.last_taker is not None
        return self.scores(self.taken, self.won, self.last_taker)

    def scores(self, taken: Sequence[int], won: Sequence[int], last_taker: int) -> DealResult:
        """The result of the deal played out, from the thirds and the cards each seat took in
        tricks and who took the last one."""
        thirds = final_thirds(taken, last_taker, thirds_of(self.set_aside, self.card_thirds))
        points = rounded_points(thirds, last_taker)
        scorers = [s for s in range(self.seats) if points[s]]
        if len(scorers) == 1:
            # Cappotto: the one who took every point scores nothing, everyone else 11.
            delta = [0 if s == scorers[0] else CAPPOTTO_OTHERS for s in range(self.seats)]
            return DealResult("cappotto", points, delta)
        delta = points[:]
        zeros = [s for s in range(self.seats) if not points[s]]
        if zeros and self.zero_punti == "dieci":
            for s in zeros:
                delta[s] = ZERO_POINTS
        elif zeros:
            # "divide": those who took no point share, rounded up, the points of whoever took the
            # ace of bastoni, and so does he.
            ace = taker_of(ACE_OF_BASTONI, won, last_taker)
            sharers = [ace, *zeros]
            share = -(-points[ace] // len(sharers))
            for s in sharers:
                delta[s] = share
        return DealResult("giocata", points, delta)

    # -- quick simulations -----------------------------------------------------------------------------

    def playout_action(self, rng: random.Random) -> int:
        """A playout's card as a careful player plays one at first sight where points are poison:
        low to lead; under the trick's taker with the strongest card that stays under it, or,
        made to take it, the strongest card when last to play (nothing can come over it) and the
        weakest otherwise (someone may); void, the card worth most. While the seat holds less
        than a point and no point would cost it ten, it plays its strongest card to take one. A
        card in five is random, so that the playouts of one sampled deal differ."""
        legal = self.legal()
        if len(legal) == 1 or rng.random() < PLAYOUT_SLIP:
            return rng.choice(legal)
        trick, strength = self.trick, STRENGTH.__getitem__
        if not trick:
            return min(legal, key=strength)
        if legal[0] // 13 != trick[0] // 13:  # void in the suit led
            thirds = self.card_thirds
            return max(legal, key=lambda c: (thirds[c], STRENGTH[c]))
        seat = self.to_move
        assert seat is not None
        if self.zero_punti == "dieci" and self.taken[seat] < 3:
            return max(legal, key=strength)
        taking = STRENGTH[trick[trick_taker(trick)]]
        under = [c for c in legal if STRENGTH[c] < taking]
        if under:
            return max(under, key=strength)
        return max(legal, key=strength) if len(trick) == self.seats - 1 else min(legal, key=strength)

    # -- the open-handed play, for the solver --------------------------------------------------------

    def play_value(self, seat: int) -> int:
        return self.final_thirds()[seat]

    def open_play(self, seat: int) -> OpenPlay:
        # The solver values the play for one seat by the thirds it ends the deal with, everyone
        # else playing to load it with as many as they can (the paranoid reduction: max-n, the
        # exact model of several selfish players, prunes almost nothing, while a side against a
        # side is what alpha-beta, its table and the compiled kernel serve). The thirds are the
        # seat's own card points, the last trick's point and the cards left over, so they add up
        # trick by trick. The deal's score is not searched: rounding gives the remainder to the
        # last trick's taker and cappotto and a zero score turn on every seat's points, so it is
        # a function of every seat's thirds, and neither monotone in the seat's own nor additive.
        last_trick = thirds_of(self.set_aside, self.card_thirds) + LAST_TRICK_THIRDS
        live = sum(self.hands) | mask_of(self.trick)
        mine = self.taken[seat] + thirds_of(live, self.card_thirds) + last_trick
        others = [s != seat for s in range(self.seats)]
        return OpenPlay(hands=self.hands, trick=self.trick, leader=self.leader,
                        team=[s == seat for s in range(self.seats)], gains=others, values=self.card_thirds,
                        chains=FAMILY_CHAINS, follow=playable, taker=trick_taker,
                        finish=lambda theirs: mine - theirs, last_bonus=last_trick, suit_play=SuitPlay())


def _check_target(value: JSON) -> str | None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        return "a whole number of points, 1 or more"
    return None


class Traversone(Game):
    name = "traversone"
    lower_wins = True
    solver_unit = "thirds"  # the seat's own (see ``TraversoneDeal.open_play``), not its score
    deck = ITALIAN_40
    seat_counts = (3, 4, 5, 6)
    default_seats = 4
    # From how many cards left the solver values a sampled deal's every action well within a
    # 0.1 s decision (solver times measured by ``osteria bench``).
    # The solver takes every other player as the seat's enemy (the paranoid reduction), which
    # real opponents are not, and counts the seat's thirds, not its score: a solved action must
    # beat the rule by a clear margin.
    search_hints = SearchHints(solve_cards=16, solved_confidence=1.5)
    stock_roles = ("widow",)
    option_specs = (
        Option("target", 31, check=_check_target, doc=N_("the score that ends the match; the lowest total wins"),
               label=N_("points to end")),
        Option("asso_bastoni", 1, (1, 11, 18), doc=N_("what the ace of bastoni is worth"),
               label=N_("asso di bastoni (ace of clubs)")),
        Option("zero_punti", "dieci", ("dieci", "divide"),
               doc=N_("a player without a point scores 10, or shares the points of the ace of bastoni's taker"),
               label=N_("zero punti (no point taken)")),
    )

    def trick_play(self) -> TrickPlay:
        return family_trick_play(range(self.seats), card_thirds(self.options["asso_bastoni"]),
                                 lead_card=FOUR_OF_DENARI, lower_wins=True)

    def hand_sizes(self) -> list[int]:
        return [len(self.deck) // self.seats] * self.seats

    def score_bounds(self) -> tuple[int, int]:
        deal_points = (sum(card_thirds(self.options["asso_bastoni"])) + LAST_TRICK_THIRDS) // 3
        return 0, max(deal_points, CAPPOTTO_OTHERS, ZERO_POINTS)

    def max_decisions(self) -> int:
        return self.seats * self.hand_sizes()[0]

    def glossary(self) -> Terms:
        return GLOSSARY

    def stock_from_rest(self, rest: list[int]) -> dict[str, list[int]]:
        return {"widow": sorted(rest)} if rest else {}

    def new_deal(self, index: int, dealer: int, hands: Sequence[Sequence[int]],
                 stock: Mapping[str, Sequence[int]], previous: Sequence[DealResult]) -> TraversoneDeal:
        return TraversoneDeal(self, dealer, hands, stock.get("widow", ()), first_of_match=index == 0)

    def sample_deal(self, observation: Mapping[str, JSON], rng: random.Random) -> TraversoneDeal:
        return first_showing(lambda: self._sample(observation, rng), observation)

    def _sample(self, obs: Mapping[str, JSON], rng: random.Random) -> TraversoneDeal:
        n, seat, history = self.seats, obs["seat"], obs["history"]
        plays = plays_of(history, n)
        after = played_from(plays, n)
        hand = mask_of(parse_card(c) for c in obs["hand"])
        unseen = Unseen(ITALIAN_40.mask & ~hand & ~mask_of(p.card for p in plays))
        holder = {s: unseen.holder(obs["hand_sizes"][s]) for s in range(n) if s != seat}
        widow = unseen.holder(obs["leftover"])
        if obs["deal_index"] == 0:
            # The match's first leader held the 4 of denari, or it was left over and he sits at
            # the dealer's right.
            first = history[0][0] if history else obs["to_move"]
            places = [holder[first]] if first in holder else []
            if first == (obs["dealer"] + 1) % n:
                places.append(widow)
            unseen.only(1 << FOUR_OF_DENARI, places)
        for p in plays:
            led = p.led // 13
            if p.seat in holder and p.card // 13 != led:
                unseen.forbid(holder[p.seat], SUIT_MASK[led])  # not following shows a void
        hands = unseen.draw(rng)
        dealt = [cards_of((hand if s == seat else hands[holder[s]]) | after[s][0]) for s in range(n)]
        deal = self.new_deal(obs["deal_index"], obs["dealer"], dealt, {"widow": cards_of(hands[widow])}, [])
        for s, text in history:
            if deal.to_move != s:
                break  # not the history seen: the check rejects it
            deal.apply(parse_card(text))
        return deal

    def match_status(self, results: Sequence[DealResult]) -> tuple[bool, list[int] | None]:
        totals = [sum(r.delta[s] for r in results) for s in range(self.seats)]
        if max(totals) < self.options["target"]:
            return False, None
        return True, self.best_totals(results)


GLOSSARY: Final = {
    "giocata": Term("a deal played out with no cappotto"),
    "a perdere": Term("the aim is to take as few points as possible"),
    "traversone": Term("tressette to lose, everyone for himself"),
    "girellone": Term("the variant with the ace of bastoni worth 11"),
    "asso di bastoni": Term("worth 1, or 11 or 18 as agreed"),
    "cappotto": Term("one player takes every point: every other player scores 11"),
    "piombo": Term("void in a suit: a chance to throw away cards that score"),
    "mano": Term("a trick"),
    "palo": Term("suit"),
}
