"""Every game against the engine's contract, through random play, game by game, at every number
of seats and under every option that changes the play.

The checks ask nothing of a game by its name or class: only the public API (``Match``, ``Deal``,
``Game``), the record format, and the fields that every game's observation has in common
(``hand``, ``hand_sizes``, ``trick``, ``last_trick``, ``tricks_played``). A failure names the
configuration and the seed, which replay it exactly.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

import osteria
from osteria.cards import CARD_STRINGS, cards_of, suit_of
from osteria.engine import Deal, Game, Match, partner_of
from osteria.i18n import meaning
from osteria.rules import GAMES

from helpers import cards_shown, varied_choice, words_in

# Options that set only how long a match lasts, held at one value: random matches of a few deals.
LENGTH: dict[str, dict[str, Any]] = {
    "tressette": {"target": 21},
    "calabresella": {"rounds": 2},
    "traversone": {"target": 31},
    "sancagna": {"target": 2},
    "quattrigghiu": {"rounds": 1},
}
# The values tried of the options that change the play but list no choices.
VALUES: dict[tuple[str, str], list[Any]] = {
    ("tressette", "morto"): [[2], [1, 2]],
}
# Option values under which a table playing at random never finishes a match: under Sancagna's
# tavola any card may be played and each revoke found costs 3 circles, so random players lose
# circles faster than they win them. Those matches are played for a number of deals instead.
UNENDING: list[tuple[str, str, Any]] = [("sancagna", "tavola", True)]

MAX_DEALS = 60  # more than any of these random matches takes (the longest seen take about 12)


@dataclass
class Config:
    game: str
    seats: int
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def ends(self) -> bool:
        """Whether random play finishes a match under these options."""
        return not any((self.game, name, value) in UNENDING for name, value in self.options.items())

    def rules(self) -> Game:
        return osteria.game_rules(self.game, seats=self.seats, **self.options)

    def match(self, seed: int | str) -> Match:
        return osteria.new_match(self.game, seed=seed, seats=self.seats, **self.options)

    def seeds(self, check: str, count: int) -> Iterator[str]:
        """Seeds of this check's random matches: each gives the match's deals and its actions."""
        for k in range(count):
            yield f"{check}/{self}/{k}"

    def __str__(self) -> str:
        options = ",".join(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in self.options.items())
        return f"{self.game}-{self.seats}-{options}"


def _variants(name: str) -> list[dict[str, Any]]:
    """The options at their defaults, each changed value of an option that changes the play on its
    own, and all the changes together."""
    variants: list[dict[str, Any]] = [{}]
    for spec in GAMES[name].option_specs:
        if spec.name in LENGTH.get(name, {}):
            continue
        values = ([c for c in spec.choices if c != spec.default] if spec.choices is not None
                  else VALUES.get((name, spec.name), []))
        variants += [{spec.name: value} for value in values]
    together = {k: v for variant in variants[1:] for k, v in variant.items()}
    if len(variants) > 2:
        variants.append(together)
    return variants


CONFIGS = [Config(name, seats, {**LENGTH.get(name, {}), **variant})
           for name in osteria.games() for seats in GAMES[name].seat_counts for variant in _variants(name)]
every_config = pytest.mark.parametrize("config", CONFIGS, ids=str)


def test_every_option_of_every_game_is_tried() -> None:
    for name in osteria.games():
        for spec in GAMES[name].option_specs:
            assert spec.choices is not None or spec.name in LENGTH.get(name, {}) or (name, spec.name) in VALUES, \
                f"{name}: the suite tries no value of the option {spec.name!r}"
    assert {c.game for c in CONFIGS} == set(osteria.games())


def deck_strings(rules: Game) -> set[str]:
    return {CARD_STRINGS[c] for c in rules.deck.cards}


def observations(match: Match) -> list[dict[str, Any]]:
    return [match.observation(s) for s in range(match.game.seats)]


def trick_cards(entries: list[list[Any]] | None) -> list[str]:
    return [c for _, c in entries or []]


def stock_cards(deal_record: Mapping[str, Any]) -> list[str]:
    cards: list[str] = []
    for value in deal_record.get("stock", {}).values():
        cards += [value] if isinstance(value, str) else value
    return cards


def maybe_declare_last_round(match: Match, rng: random.Random) -> int | None:
    """Now and then a seat declares the last round, where the game lets it (a control of the
    table, not a move of the deal): the seat that declared it, or None."""
    if rng.random() > 0.02:
        return None
    seat = rng.randrange(match.game.seats)
    if not match.may_declare_last_round(seat):
        with pytest.raises(osteria.IllegalAction):
            match.declare_last_round(seat)
        return None
    match.declare_last_round(seat)
    return seat


def random_play(match: Match, rng: random.Random, deals: int = MAX_DEALS) -> Iterator[int | None]:
    """Play random actions until ``deals`` deals are over or the match is, a last round declared
    now and then. Yields None when a deal has been dealt (the first one too), and after each
    action the seat that played it."""
    yield None
    while not match.finished and len(match.results) < deals:
        if match.deal_due:
            maybe_declare_last_round(match, rng)
            match.begin_deal()
            yield None
        maybe_declare_last_round(match, rng)
        mover = match.to_move
        assert mover is not None
        match.play(varied_choice(match.legal_actions(), rng))
        yield mover


def where(seed: str, match: Match) -> str:
    deal = match.deal
    return f"{seed}, deal {len(match.deals) - 1}, action {len(deal.history) if deal else 0}"


# -- 1. cards are conserved ---------------------------------------------------------------------

class Ledger:
    """Where every card of the deal in progress lies, as the observations of all the seats show
    it: in one hand, in the played cards (the trick, and the tricks before it), or in the rest
    (the stock, the widow, the discards: the deck less the others)."""

    def __init__(self, match: Match, at: str) -> None:
        self.seats = match.game.seats
        self.deck = deck_strings(match.game)
        self.where = at
        dealt = match.record()["deals"][-1]
        self.table, self.hands = self.look(match)
        assert [sorted(h) for h in self.hands] == [sorted(h) for h in dealt["hands"]], at
        stock = stock_cards(dealt)
        assert sorted(stock + [c for h in dealt["hands"] for c in h]) == sorted(self.deck), at
        self.played: list[str] = []  # in the order played
        self.check()

    def look(self, match: Match) -> tuple[dict[str, Any], list[set[str]]]:
        """What every seat sees of the table, which must be the same for all, and each hand."""
        deal = match.deal
        assert deal is not None
        obs = observations(match)
        sizes = obs[0]["hand_sizes"]
        hands = []
        for seat, o in enumerate(obs):
            for key in ("hand_sizes", "trick", "last_trick", "tricks_played"):
                assert o[key] == obs[0][key], f"{self.where}: seats see {key} differently"
            assert o["hand"] == [CARD_STRINGS[c] for c in cards_of(deal.hands[seat])], self.where
            assert len(o["hand"]) == len(set(o["hand"])) == sizes[seat], self.where
            hands.append(set(o["hand"]))
        held = set().union(*hands)
        assert len(held) == sum(sizes), f"{self.where}: a card is in two hands"
        assert held <= self.deck, self.where
        return obs[0], hands

    def check(self) -> None:
        o = self.table
        trick, where = o["trick"], self.where
        assert not set(self.played) & set().union(*self.hands), f"{where}: a played card is back in a hand"
        assert set(self.played) <= self.deck and len(set(self.played)) == len(self.played), where
        assert len(self.played) == o["tricks_played"] * self.seats + len(trick), \
            f"{where}: {len(self.played)} cards played, the table shows {o['tricks_played']} tricks and {trick}"
        assert trick_cards(trick) == self.played[len(self.played) - len(trick):], where
        if o["last_trick"] is not None:
            done = o["tricks_played"] * self.seats
            assert trick_cards(o["last_trick"]["cards"]) == self.played[done - self.seats:done], where
            assert o["last_trick"]["winner"] in range(self.seats), where
        if "played" in o:
            assert o["played"] == self.played, where

    def step(self, match: Match) -> None:
        """After an action: the card it plays (``Deal.card_of``) went from its seat's hand to the
        trick, and nothing else moved; an action that plays no card left the table as it was, and
        laid aside no card, or as many as the game's discard."""
        deal = match.deal
        assert deal is not None
        mover, action = deal.history[-1]
        card = deal.card_of(action)
        table, before = self.table, self.hands
        self.table, self.hands = self.look(match)
        o, at = self.table, f"{self.where}: {deal.action_str(action)!r} of seat {mover}"
        count = o["tricks_played"] * self.seats + len(o["trick"])
        if card is None:
            assert count == len(self.played), f"{at} plays no card, yet the table shows one more"
            assert (o["trick"], o["last_trick"]) == (table["trick"], table["last_trick"]), at
            laid = set().union(*before) - set().union(*self.hands)
            assert len(laid) in (0, match.game.discard_size()), f"{at} laid aside {sorted(laid)}"
            return self.check()
        card = CARD_STRINGS[card]
        assert count == len(self.played) + 1, f"{at}: the table shows {count - len(self.played)} cards played"
        assert before[mover] - self.hands[mover] == {card} and self.hands[mover] <= before[mover], \
            f"{at}: its hand went from {sorted(before[mover])} to {sorted(self.hands[mover])}"
        assert all(self.hands[s] == before[s] for s in range(self.seats) if s != mover), at
        shown = o["trick"][-1] if o["trick"] else o["last_trick"]["cards"][-1] if o["last_trick"] else None
        if shown is not None:  # (a game may take a finished trick off the table)
            assert shown == [mover, card], f"{at}: the table shows {shown}"
        self.played.append(card)
        self.check()


@every_config
def test_every_card_is_in_one_place_at_every_step(config: Config) -> None:
    for seed in config.seeds("cards", 6):
        match = config.match(seed)
        for mover in random_play(match, random.Random(seed), 4):
            if mover is None:
                ledger = Ledger(match, where(seed, match))
            else:
                ledger.where = where(seed, match)
                ledger.step(match)


# -- 2. deals and matches end, and their scores add up ------------------------------------------

def check_scores(match: Match, seed: str) -> None:
    rules, n = match.game, match.game.seats
    result = match.result()
    assert result["deals"] == [r.as_json() for r in match.results], seed
    totals = [sum(r.delta[s] for r in match.results) for s in range(n)]
    assert result["totals"] == match.totals() == totals, seed
    low, high = rules.score_bounds()
    for i, r in enumerate(match.results):
        at = f"{seed}, deal {i}: {r.as_json()}"
        assert len(r.delta) == n and all(type(d) is int for d in r.delta), at
        assert all(type(p) is int for p in r.points), at
        assert all(low <= d <= high for d in r.delta), f"{at}: beyond {low, high}"
        if rules.zero_sum:  # what one seat wins, the others pay
            assert sum(r.delta) == 0, at
        if rules.partnership:
            assert all(r.delta[s] == r.delta[partner_of(s)] for s in range(n)), at
    assert result["finished"] == match.finished, seed
    declared = match.last_round
    if declared is not None:  # the match ends with the round declared last, if not before
        assert declared["deal"] <= declared["last_deal"], seed
        assert len(match.results) <= declared["last_deal"] + 1, seed
        if len(match.results) == declared["last_deal"] + 1:
            assert match.finished, f"{seed}: the declared last round is over, the match not"
    if not match.finished:
        assert result["winners"] is None, seed
        return
    best = (min if rules.lower_wins else max)(totals)
    assert result["winners"] == [s for s in range(n) if totals[s] == best], seed
    if rules.partnership:
        assert {partner_of(s) for s in result["winners"]} == set(result["winners"]), seed


@every_config
def test_every_deal_and_every_match_ends_and_the_scores_add_up(config: Config) -> None:
    bound = config.rules().max_decisions()
    for seed in config.seeds("ends", 6):
        match = config.match(seed)
        for mover in random_play(match, random.Random(seed), MAX_DEALS if config.ends else 8):
            deal = match.deal
            assert deal is not None
            assert len(deal.history) <= bound, f"{where(seed, match)}: the deal goes on past {bound} actions"
            if mover is not None and deal.over:
                assert match.results[-1].as_json() == deal.result().as_json(), where(seed, match)
        assert match.finished or not config.ends, f"{seed}: no end after {len(match.results)} deals"
        assert all(rec.deal.over for rec in match.deals), seed
        check_scores(match, seed)
        if match.finished:
            assert not match.deal_due and match.to_move is None and match.legal_actions() == []
            with pytest.raises(osteria.IllegalAction):
                match.play(CARD_STRINGS[match.game.deck.cards[0]])
            with pytest.raises(osteria.RulesError):
                match.begin_deal()


# -- 3. no observation shows a card its seat may not see ------------------------------------------

@every_config
def test_no_seat_sees_a_card_that_is_neither_its_own_nor_shown_to_all(config: Config) -> None:
    """A card that a seat's observation names (outside its hand and its legal actions) is one the
    seat has held in this deal, or one named to every seat: played, declared, called, a dummy's."""
    for seed in config.seeds("hidden", 6):
        match = config.match(seed)
        held: list[set[str]] = []
        for mover in random_play(match, random.Random(seed), 4):
            if mover is None:
                held = [set() for _ in range(config.seats)]
            obs = observations(match)
            shown = [cards_shown(o) for o in obs]
            public = set.intersection(*shown)
            for seat, o in enumerate(obs):
                assert json.loads(json.dumps(o)) == o, f"{where(seed, match)}: not plain JSON"
                held[seat] |= set(o["hand"])
                hidden = shown[seat] - public - held[seat]
                assert not hidden, f"{where(seed, match)}: seat {seat} is shown {sorted(hidden)}"


def swapped(hands: list[list[int]], stock: dict[str, list[int]], a: int, b: int
            ) -> tuple[list[list[int]], dict[str, list[int]]]:
    """The deal with cards a and b, in two different places, changing places."""
    def swap(cards: list[int]) -> list[int]:
        return sorted(b if c == a else a if c == b else c for c in cards)
    return [swap(h) for h in hands], {role: swap(cards) for role, cards in stock.items()}


@every_config
def test_a_seat_sees_the_same_whichever_of_two_hidden_cards_lies_where(config: Config) -> None:
    """Two cards of one suit that a seat cannot see change places between two other hands, or a
    hand and the stock: the seat's observations are the same, action for action, until one of
    them is played or shown, or the rules give a turn to whoever holds one (the four of denari
    leads, say). Cards of one suit, so that every seat can follow the same suits in both deals."""
    rules = config.rules()
    compared = 0
    for seed in config.seeds("swap", 12):
        rng = random.Random(seed)
        hands, stock = rules.deal_cards(rng)
        dealer = rng.randrange(config.seats)
        seat = rng.randrange(config.seats)
        first = Match(rules, seed=0, dealer=dealer)
        first.begin_deal(hands, stock, dealer)
        start = first.observation(seat)
        seen = cards_shown(start) | set(start["hand"])
        places = [cards for s, cards in enumerate(hands) if s != seat] + list(stock.values())
        pairs = [(a, b) for i, p in enumerate(places) for q in places[i + 1:] for a in p for b in q
                 if suit_of(a) == suit_of(b) and not {CARD_STRINGS[a], CARD_STRINGS[b]} & seen]
        if not pairs:
            continue
        a, b = rng.choice(pairs)
        second = Match(rules, seed=0, dealer=dealer)
        second.begin_deal(*swapped(hands, stock, a, b), dealer)
        pair = {CARD_STRINGS[a], CARD_STRINGS[b]}
        deal = first.deal
        assert deal is not None
        while not deal.over:
            one, two = first.observation(seat), second.observation(seat)
            if first.to_move != second.to_move:
                break
            if pair & {w for k, v in one.items() if k != "legal_actions" for w in words_in(v)} or \
                    pair & {w for k, v in two.items() if k != "legal_actions" for w in words_in(v)}:
                break
            assert one == two, f"{seed}: seat {seat} tells {sorted(pair)} apart, action {len(deal.history)}: " \
                f"{ {k: (v, two.get(k)) for k, v in one.items() if two.get(k) != v} }"
            compared += 1
            action = varied_choice(first.legal_actions(), rng)
            if action not in second.legal_actions():
                break
            first.play(action)
            second.play(action)
    # Every game hides some cards from every seat: a suite that found none to swap checked nothing.
    assert compared >= 24, f"{config}: only {compared} positions compared"


# -- 4. a record replays to the same match ------------------------------------------------------------

def check_replay(match: Match, at: str) -> None:
    record = match.record()
    text = json.dumps(record)
    assert json.loads(text) == record, f"{at}: the record does not survive JSON"
    for again in (osteria.replay(record), osteria.replay(json.loads(text))):
        assert again.record() == record, at
        assert again.result() == match.result(), at
        assert (again.finished, again.deal_due, again.to_move, again.decider, again.last_round) == \
            (match.finished, match.deal_due, match.to_move, match.decider, match.last_round), at
        assert again.legal_actions() == match.legal_actions(), at
        assert observations(again) == observations(match), at


@every_config
def test_a_record_replays_to_the_same_match_mid_deal_between_deals_and_at_the_end(config: Config) -> None:
    for seed in config.seeds("replay", 6):
        match = config.match(seed)
        rng = random.Random(seed)
        cuts = 0
        for mover in random_play(match, random.Random(seed), 6):
            deal = match.deal
            if mover is not None and deal is not None and (deal.over or rng.random() < 0.03):
                check_replay(match, where(seed, match))
                cuts += 1
        check_replay(match, where(seed, match))
        assert cuts


# -- 5. a copy of a deal plays on alone ---------------------------------------------------------------

def deal_view(deal: Deal) -> Any:
    """All that the deal shows: its legal actions, every seat's observation, its history."""
    return (deal.to_move, deal.legal(), [deal.observation(s) for s in range(deal.seats)], list(deal.history),
            deal.result().as_json() if deal.over else None)


def play_out(deal: Deal, rng: random.Random) -> None:
    while not deal.over:
        deal.apply(rng.choice(deal.legal()))


@every_config
def test_a_copied_deal_and_its_original_play_on_without_touching_each_other(config: Config) -> None:
    for seed in config.seeds("copy", 10):
        match = config.match(seed)
        rng = random.Random(seed)
        copy: Deal | None = None
        for mover in random_play(match, random.Random(seed), 4):
            deal = match.deal
            assert deal is not None
            if mover is None or (copy is None and rng.random() < 0.1):
                # Playing on a copy leaves the original as it was...
                before = deal_view(deal)
                played = deal.copy()
                play_out(played, rng)
                assert deal_view(deal) == before, f"{where(seed, match)}: playing on a copy changed the original"
                # ...and playing on the original leaves a copy as it was.
                copy, view, start = deal.copy(), before, len(deal.history)
            if deal.over and copy is not None:
                assert deal_view(copy) == view, f"{where(seed, match)}: playing on the original changed a copy"
                for _, action in deal.history[start:]:
                    copy.apply(action)
                assert deal_view(copy) == deal_view(deal), f"{where(seed, match)}: a copy plays differently"
                copy = None


@every_config
def test_a_deal_tells_the_cards_it_was_dealt_as_the_game_dealt_them(config: Config) -> None:
    rules = config.rules()
    for seed in config.seeds("dealt", 5):
        rng = random.Random(seed)
        hands, stock = rules.deal_cards(rng)
        deal = rules.new_deal(0, rng.randrange(rules.seats), hands, stock, [])
        play_out(deal, rng)  # what it was dealt stays, whatever was played and exchanged since
        told_hands, told_stock = deal.dealt_cards()
        assert [sorted(h) for h in told_hands] == [sorted(h) for h in hands], seed
        assert {r: sorted(c) for r, c in told_stock.items() if c} == {r: sorted(c) for r, c in stock.items() if c}


# -- 6. a deal sampled from an observation shows the seat the same ------------------------------------

@every_config
def test_a_deal_sampled_from_a_seats_observation_shows_that_seat_the_same(config: Config) -> None:
    rules = config.rules()
    differ = 0
    for seed in config.seeds("sample", 6):
        match = config.match(seed)
        rng = random.Random(seed)
        for _ in random_play(match, random.Random(seed), 3):
            deal = match.deal
            assert deal is not None
            if deal.over or rng.random() > 0.12:  # a deal in progress, as sample_deal says
                continue
            seat = rng.randrange(config.seats)
            at = f"{where(seed, match)}, seat {seat}"
            sample = rules.sample_deal(match.observation(seat), rng)
            assert sample.observation(seat) == deal.observation(seat), at
            assert sample.to_move == deal.to_move, at
            if match.decider == seat:
                assert [sample.action_str(a) for a in sample.legal()] == match.legal_actions(), at
            hands = [sample.observation(s)["hand"] for s in range(config.seats)]
            assert len({c for h in hands for c in h}) == sum(map(len, hands)), f"{at}: a card in two sampled hands"
            assert [len(h) for h in hands] == deal.observation(seat)["hand_sizes"], at
            differ += hands != [deal.observation(s)["hand"] for s in range(config.seats)]
            play_out(sample, rng)
    # A sample deals the cards the seat cannot see at random: not, every time, as they lie.
    assert differ, f"{config}: every sample dealt the hidden cards as they are"


# -- 7. looking at a match changes nothing ------------------------------------------------------------

def look(match: Match) -> None:
    """Everything one may ask of a match, as a player, a view or a bot would."""
    for seat in range(match.game.seats):
        match.observation(seat)
        for index in range(len(match.deals)):
            match.observation(seat, deal=index)
    match.legal_actions()
    _ = match.to_move, match.decider, match.deal, match.deal_due, match.finished
    match.result()
    match.record()
    match.totals()
    _ = match.last_round
    for seat in range(match.game.seats):
        match.may_declare_last_round(seat)
        match.last_deal_if_declared(seat)
    deal = match.deal
    if deal is not None:
        deal.legal()
        for seat in range(deal.seats):
            deal.observation(seat)
        if deal.over:
            deal.result()


def check_on_view(match: Match, at: str) -> None:
    """A finished deal stays on view, its result shown, until the next one is dealt."""
    deal = match.deal
    assert deal is not None and deal.over, f"{at}: the finished deal is gone from view, a new one dealt"
    assert match.deal_due == (not match.finished), at
    assert match.legal_actions() == [] and match.decider is None and match.to_move is None, at
    for seat in range(match.game.seats):
        obs = match.observation(seat)
        assert obs["result"] == match.results[-1].as_json(), at
        assert obs["legal_actions"] == [] and obs["to_move"] is None, at
        assert obs["deal_index"] == len(match.deals) - 1 == len(match.results) - 1, at


@every_config
def test_looking_at_a_match_deals_nothing_and_draws_nothing(config: Config) -> None:
    """A match looked at all the time and its twin, never looked at, played with the same
    actions: the same records throughout, the same cards dealt, the same generator at the end."""
    between = 0
    for seed in config.seeds("look", 6):
        looked, twin = config.match(seed), config.match(seed)
        rng, when = random.Random(seed), random.Random(f"{seed}/look")
        while not looked.finished and len(looked.results) < 6:
            if looked.deal_due:
                between += 1
                look(looked)
                check_on_view(looked, where(seed, looked))
                look(looked)
                declared = maybe_declare_last_round(looked, rng)
                if declared is not None:
                    twin.declare_last_round(declared)
                looked.begin_deal()
                twin.begin_deal()
                assert looked.record() == twin.record(), f"{where(seed, looked)}: the next deal differs"
            if when.random() < 0.3:
                look(looked)
            declared = maybe_declare_last_round(looked, rng)
            if declared is not None:
                twin.declare_last_round(declared)
            action = varied_choice(looked.legal_actions(), rng)
            looked.play(action)
            twin.play(action)
        look(looked)
        check_on_view(looked, where(seed, looked))
        look(looked)
        assert looked.record() == twin.record(), seed
        assert looked.result() == twin.result(), seed
        # What the generator draws next: the cards the next deal would get.
        assert looked._rng.getstate() == twin._rng.getstate(), f"{seed}: looking drew from the generator"
        if not looked.finished:
            looked.begin_deal()
            twin.begin_deal()
            assert looked.record() == twin.record(), f"{where(seed, looked)}: the next deal differs"
    assert between, f"{config}: no match was looked at between two deals"


@pytest.mark.parametrize("game", list(GAMES))
def test_every_rules_option_is_named_and_explained_in_italian_and_english(game: str) -> None:
    # The lobby and the command line say each option in the table's language, never its identifier.
    for option in GAMES[game].option_specs:
        italian, english = meaning("it", option.label), option.label
        assert english and option.doc and meaning("it", option.doc) != option.doc, f"{game}: option {option.name!r}"
        assert "_" not in italian + english
