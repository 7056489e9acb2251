"""Hidden-hand sampling: from one observation, deals consistent with all the seat knows, uniform."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import osteria
from osteria.bots import make_bot
from osteria.cards import CARD_STRINGS, ITALIAN_40, cards_of, mask_of, parse_card
from osteria.engine import Deal, Match
from osteria.rules.quattrigghiu import Quattrigghiu, QuattrigghiuDeal
from osteria.sampling import Unsatisfiable, sample_hands, shows

from helpers import play_random_action

VARIANTS = [
    ("tressette", {}),
    ("tressette", {"segni": "sud", "faliante": False}),
    ("tressette", {"segni": "muto", "morto": [2]}),
    ("calabresella", {"seats": 3}),
    ("calabresella", {"seats": 4}),
    ("calabresella", {"seats": 5}),
    ("traversone", {"seats": 3}),
    ("traversone", {"seats": 6}),
    ("quattrigghiu", {}),
    ("quattrigghiu", {"aiuto_volontario": True, "matador": False}),
    ("sancagna", {}),
    ("sancagna", {"a_mente": True}),
    ("sancagna", {"tavola": True}),
]


@contextmanager
def legal_replays(deal_type: type[Deal]) -> Iterator[None]:
    """While sampling, every action a sampled deal replays must be legal in it (a void kept,
    a signal true, an accuso held): the sampler's replay itself does not check."""
    apply = deal_type.apply

    def checked(self: Any, action: int) -> None:
        if getattr(self, "phase", "") != "scarto":  # 1,820 discards: the observation check covers it
            assert action in self.legal(), self.action_str(action)
        apply(self, action)

    deal_type.apply = checked  # type: ignore[method-assign]
    try:
        yield
    finally:
        deal_type.apply = apply  # type: ignore[method-assign]


def positions(game: str, options: dict[str, Any], seed: int, count: int) -> Iterator[tuple[Match, int]]:
    """Positions of random play, each with a random seat."""
    rng = random.Random(seed)
    match = osteria.new_match(game, seed=seed, **options)
    n = 0
    while n < count:
        if match.finished:
            match = osteria.new_match(game, seed=rng.getrandbits(32), **options)
        yield match, rng.randrange(match.game.seats)
        n += 1
        play_random_action(match, rng)


@pytest.mark.parametrize(("game", "options"), VARIANTS)
def test_a_sampled_deal_shows_the_seat_what_it_saw(game: str, options: dict[str, Any]) -> None:
    rng = random.Random(3)
    differs = 0
    for match, seat in positions(game, options, seed=11, count=120):
        real = match.deal
        assert real is not None
        obs = json.loads(json.dumps(match.observation(seat)))  # only what a bot receives
        with legal_replays(type(real)):
            deal = match.game.sample_deal(obs, rng)
        mine = deal.observation(seat)
        # Every key, the history, hands and tricks included, is what the seat sees in the real deal.
        assert mine == {key: obs[key] for key in mine}
        assert deal.to_move == obs["to_move"]
        assert deal.hands[seat] == real.hands[seat]  # type: ignore[attr-defined]
        if obs["legal_actions"]:
            assert [deal.action_str(a) for a in deal.legal()] == obs["legal_actions"]
        differs += deal.hands != real.hands  # type: ignore[attr-defined]
    assert differs  # the hidden cards are dealt anew, not copied


@pytest.mark.parametrize(("game", "options"), VARIANTS)
def test_a_seat_shown_void_is_void_in_every_sample(game: str, options: dict[str, Any]) -> None:
    rng = random.Random(4)
    for match, seat in positions(game, options, seed=12, count=60):
        real = match.deal
        assert real is not None
        # What the real deal proves void now (in the seat's own hand aside) stays void: the suits
        # of the real hands that a sampled deal of the same history never shows.
        obs = match.observation(seat)
        samples = [match.game.sample_deal(obs, rng) for _ in range(5)]
        for other in range(match.game.seats):
            if other == seat or (game == "sancagna" and options.get("tavola")):
                continue
            for suit in range(4):
                suit_mask = 0x1FFF << (13 * suit)
                if any(s.hands[other] & suit_mask for s in samples):  # type: ignore[attr-defined]
                    # a sample holds the suit: then the seat's history must not show a void in it
                    assert not _shown_void(obs, other, suit, game)


def _shown_void(obs: dict[str, Any], seat: int, suit: int, game: str) -> bool:
    """Whether the seat's history shows ``seat`` not following ``suit`` in a trick of plain suits."""
    if game in ("quattrigghiu",):
        return False  # trumps change what follows; checked by the legal replays
    plays = [(s, t.split()[0]) for s, t in obs["history"] if t.split()[0][:1] in "A23456789XFCR"
             and len(t.split()[0]) == 2 and t.split()[0][1] in "dcsb"]
    n = len(obs["players"])
    for i in range(0, len(plays), n):
        trick = plays[i:i + n]
        led = "dcsb".index(trick[0][1][1])
        if led == suit and any(s == seat and "dcsb".index(c[1]) != suit for s, c in trick[1:]):
            return True
    return False


def test_the_sampler_is_reproducible_and_gets_nothing_but_the_observation() -> None:
    match = osteria.new_match("tressette", seed=8)
    rng = random.Random(8)
    for _ in range(17):
        play_random_action(match, rng)
    obs = json.loads(json.dumps(match.observation(1)))
    one = match.game.sample_deal(obs, random.Random(5))
    two = osteria.game_rules("tressette").sample_deal(obs, random.Random(5))
    assert one.hands == two.hands  # type: ignore[attr-defined]


@pytest.mark.parametrize(("game", "options"), VARIANTS)
def test_a_prepared_sampler_draws_the_deals_sample_deal_draws(game: str, options: dict[str, Any]) -> None:
    # A search reads the observation once and draws from it many times (Game.deal_sampler): each
    # draw is the deal sample_deal gives from the same generator.
    for match, seat in positions(game, options, 21, 12):
        if match.deal is None or match.deal.over:
            continue
        obs = match.observation(seat)
        sample = match.game.deal_sampler(obs)
        drawn, asked = random.Random(seat), random.Random(seat)
        for _ in range(3):
            one, two = sample(drawn), match.game.sample_deal(obs, asked)
            assert (one.hands, one.history) == (two.hands, two.history)
        assert drawn.getstate() == asked.getstate()


# -- uniformity -------------------------------------------------------------------------------------

def _chi_square_ok(counts: Counter[Any], support: list[Any], draws: int) -> bool:
    assert set(counts) <= set(support)
    expected = draws / len(support)
    chi2 = sum((counts[k] - expected) ** 2 / expected for k in support)
    df = len(support) - 1
    return chi2 < df + 5 * math.sqrt(2 * df) + 10  # far beyond the 99.9th percentile


def test_sample_hands_is_uniform_against_enumeration() -> None:
    pool = mask_of(range(9))
    needs = [3, 3, 3]
    allowed = [pool & ~0b111, pool, pool & ~0b1000]
    required = [1 << 5, 0, 0]
    counts = [(1, 0b111111, 2, 2), (2, 0b11000000, 1, 2)]

    def valid(hands: tuple[int, ...]) -> bool:
        return (all(h & ~a == 0 for h, a in zip(hands, allowed, strict=True)) and hands[0] >> 5 & 1 == 1
                and (hands[1] & 0b111111).bit_count() == 2 and 1 <= (hands[2] & 0b11000000).bit_count() <= 2)

    support = []
    for perm in itertools.permutations(range(9)):
        hands = (mask_of(perm[:3]), mask_of(perm[3:6]), mask_of(perm[6:]))
        if valid(hands) and hands not in support:
            support.append(hands)
    rng = random.Random(1)
    draws = 60 * len(support)
    seen = Counter(tuple(sample_hands(pool, needs, allowed, rng, required, counts)) for _ in range(draws))
    assert _chi_square_ok(seen, support, draws)


def test_sample_hands_says_when_nothing_fits() -> None:
    with pytest.raises(Unsatisfiable):
        sample_hands(0b111, [2, 1], [0b1, 0b111], random.Random(0))


def _late_position(game: str, options: dict[str, Any], seed: int, left: int) -> tuple[Match, int]:
    rng = random.Random(seed)
    match = osteria.new_match(game, seed=seed, **options)
    deal = match.deal
    assert deal is not None
    while sum(h.bit_count() for h in deal.hands) > left:  # type: ignore[attr-defined]
        play_random_action(match, rng)
    return match, rng.randrange(match.game.seats)


def _consistent_deals(match: Match, seat: int) -> list[tuple[int, ...]]:
    """Every assignment of the unseen cards that a replay with legal actions shows as the seat saw it."""
    deal = match.deal
    obs = match.observation(seat)
    hidden = [s for s in range(match.game.seats) if s != seat and obs.get("hands", [None] * 8)[s] is None]
    pool = cards_of(sum(deal.hands[s] for s in hidden))  # type: ignore[attr-defined]
    sizes = [deal.hands[s].bit_count() for s in hidden]  # type: ignore[attr-defined]
    played = [0] * match.game.seats
    for s, a in deal.history:
        if a < 52 or (match.game.name == "tressette" and a < 2048):
            played[s] |= 1 << (a % 64)
    found = []
    for perm in set(itertools.permutations(pool)):
        hands = list(deal.hands)  # type: ignore[attr-defined]
        start = 0
        for s, n in zip(hidden, sizes, strict=True):
            hands[s] = mask_of(perm[start:start + n])
            start += n
        key = tuple(hands[s] for s in hidden)
        if key in found:
            continue
        dealt = [cards_of(hands[s] | played[s]) for s in range(match.game.seats)]
        fresh = match.game.new_deal(obs["deal_index"], obs["dealer"], dealt, {}, [])
        ok = True
        for s, a in deal.history:
            if fresh.to_move != s or a not in fresh.legal():
                ok = False
                break
            fresh.apply(a)
        mine = fresh.observation(seat) if ok else {}
        if ok and mine == {k: obs[k] for k in mine}:
            found.append(key)
    return found


@pytest.mark.parametrize(("game", "options", "seed"), [
    ("tressette", {}, 21), ("tressette", {"segni": "sud"}, 22), ("traversone", {"seats": 4}, 23),
])
def test_sampled_deals_are_uniform_among_the_consistent_ones(game: str, options: dict[str, Any], seed: int) -> None:
    match, seat = _late_position(game, options, seed, left=10)
    support = _consistent_deals(match, seat)
    assert len(support) > 1
    obs = match.observation(seat)
    hidden = [s for s in range(match.game.seats) if s != seat and obs.get("hands", [None] * 8)[s] is None]
    rng = random.Random(seed)
    draws = 80 * len(support)
    deals = (match.game.sample_deal(obs, rng) for _ in range(draws))
    seen = Counter(tuple(deal.hands[s] for s in hidden) for deal in deals)  # type: ignore[attr-defined]
    assert _chi_square_ok(seen, support, draws)


# -- Quattrigghiu: the call, the aiutu, and the first six basi forgotten ------------------------------

def _heuristic_position(seed: int, tricks: int, seat: int) -> tuple[Match, dict[str, Any]]:
    """Heuristic play of the first deal of match ``seed`` up to the first decision after ``tricks``
    basi, and ``seat``'s observation there."""
    match = osteria.new_match("quattrigghiu", seed=seed)
    bots = [make_bot("heuristic", game="quattrigghiu", seed=seed + s) for s in range(4)]
    while match.observation(seat)["tricks_played"] < tricks:
        decider = match.decider
        assert decider is not None
        obs = match.observation(decider)
        match.play(bots[decider].act(obs, obs["legal_actions"]))
    return match, json.loads(json.dumps(match.observation(seat)))


@pytest.mark.parametrize(("seed", "tricks", "seat"), [(0, 6, 3), (1, 6, 0), (0, 7, 2)])
def test_quattrigghiu_observations_that_used_to_fail_are_sampled_at_the_first_draw(
        seed: int, tricks: int, seat: int) -> None:
    # Rebuilding the forgotten basi by search failed on most draws here, and the aiutu's seat
    # was left to the replay: the sampler ran out of its 1000 draws in an arena match.
    match, obs = _heuristic_position(seed, tricks, seat)
    game = match.game
    assert isinstance(game, Quattrigghiu)
    rng = random.Random(seed)
    for _ in range(100):
        deal = game._sample(obs, rng)  # one draw, no rejection
        assert deal is not None and shows(deal, obs)


# Seat 2's observation at board 116 of `osteria arena quattrigghiu --players hybrid,heuristic --seed 2026`:
# the aiutu (seat 3) took none of the six forgotten basi, and the search that made them up again
# found them on no draw of a thousand.
ARENA_OBSERVATION = json.loads(
    '{"game": "quattrigghiu", "options": {"rounds": 1, "matador": true, "aiuto_volontario": false}, '
    '"players": ["seat 0", "seat 1", "seat 2", "seat 3"], "seat": 2, "deal_index": 0, "results": [], '
    '"totals": [0, 0, 0, 0], "finished": false, "dealer": 1, "phase": "basi", "hand": ["Ab", "6b", "Fb"], '
    '"hand_sizes": [2, 2, 3, 2], "caller": 2, "trump": "b", "called_card": "Rc", "aiuto": 3, "leader": 3, '
    '"trick": [[3, "As"], [0, "Cb"], [1, "3d"]], "last_trick": {"leader": 0, "cards": [[0, "2c"], [1, '
    '"4c"], [2, "5b"], [3, "7b"]], "winner": 3}, "tricks": [{"leader": 0, "cards": [[0, "2c"], [1, "4c"], '
    '[2, "5b"], [3, "7b"]], "winner": 3}], "tricks_played": 7, "basi": [1, 2, 3, 1], "tutita": false, '
    '"history": [[2, "chiamu b Rc"], [0, "2c"], [1, "4c"], [2, "5b"], [3, "7b"], [3, "As"], [0, "Cb"], [1, '
    '"3d"]], "to_move": 2, "legal_actions": ["Ab", "6b", "Fb"]}'
)


def test_quattrigghiu_the_arena_observation_that_ran_out_of_draws_is_sampled() -> None:
    game = osteria.game_rules("quattrigghiu")
    assert isinstance(game, Quattrigghiu)
    rng = random.Random(116)
    for _ in range(100):
        deal = game._sample(ARENA_OBSERVATION, rng)
        assert deal is not None and shows(deal, ARENA_OBSERVATION)
        assert deal.hands[2] == mask_of(parse_card(c) for c in ARENA_OBSERVATION["hand"])
        assert deal.aiuto == 3 and deal.basi == [1, 2, 3, 1]
        assert not any(hand >> parse_card("Rc") & 1 for hand in deal.hands)  # shown, so played


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.booleans(), st.integers(0, 3))
def test_quattrigghiu_sampling_never_fails_and_shows_the_observation(seed: int, volontario: bool,
                                                                     deals: int) -> None:
    rng = random.Random(seed)
    match = osteria.new_match("quattrigghiu", seed=seed, aiuto_volontario=volontario, matador=seed % 3 > 0)
    while not match.finished and len(match.results) < deals:  # later deals: no 6 of denari told
        play_random_action(match, rng)
    stop = rng.randrange(70)  # from the call to past the sixth basi
    game = match.game
    assert isinstance(game, Quattrigghiu)
    real = match.deal
    assert isinstance(real, QuattrigghiuDeal)
    for step in range(stop + 1):
        if match.finished or match.deal is not real:
            break
        for seat in range(4):
            obs = json.loads(json.dumps(match.observation(seat)))
            with legal_replays(QuattrigghiuDeal):
                deal = game._sample(obs, rng)
            assert deal is not None and shows(deal, obs), (step, seat)  # at the first draw: no rejection
            assert deal.hands[seat] == real.hands[seat]
        play_random_action(match, rng)


def _quattrigghiu_ending(seed: int) -> tuple[Match, int]:
    """A position in the last base, two cards played, seen by one of the two who played them."""
    rng = random.Random(seed)
    while True:
        match = osteria.new_match("quattrigghiu", seed=rng.getrandbits(32))
        deal = match.deal
        assert isinstance(deal, QuattrigghiuDeal)
        while match.deal is deal and not match.finished and not (len(deal.tricks) == 9 and len(deal.trick) == 2):
            play_random_action(match, rng)
        if match.deal is deal and not match.finished and deal.aiuto >= 0:
            return match, deal.leader


@pytest.mark.parametrize("seed", [1, 2])  # 1: the callers took the first six and go for the tutità
def test_quattrigghiu_after_the_sixth_basi_is_uniform_among_the_consistent_placements(seed: int) -> None:
    match, seat = _quattrigghiu_ending(seed)
    real = match.deal
    game = match.game
    assert isinstance(real, QuattrigghiuDeal) and isinstance(game, Quattrigghiu)
    obs = json.loads(json.dumps(match.observation(seat)))
    hidden = [s for s in range(4) if s != seat and real.hands[s]]
    assert len(hidden) == 2
    seen = {parse_card(c) for c in obs["hand"]} | {parse_card(t.split()[0]) for _, t in obs["history"]
                                                    if t.split()[0] in CARD_STRINGS}
    pool = [c for c in ITALIAN_40.cards if c not in seen]
    # Every placement of two unseen cards in the two hidden hands (the rest in the forgotten basi)
    # that a replay shows as the seat saw it: the call and the plays since the sixth base legal.
    owner = game._first_holders(obs)
    # The forgotten basi went after the call, before anything said or played after the sixth.
    cut = next(i for i, (_, t) in enumerate(obs["history"]) if t.split()[0] in (*CARD_STRINGS, "tutita", "basta"))
    support = []
    for a, b in itertools.permutations(pool, 2):
        current = {seat: 0, hidden[0]: 1 << a, hidden[1]: 1 << b}
        for s in range(4):
            current.setdefault(s, 0)
        lost = mask_of(pool) & ~(1 << a | 1 << b)
        if any(lost >> c & 1 and sum(1 for x, o in owner.items() if o == s and lost >> x & 1) > 6
               for c, s in owner.items()):
            continue
        shares = game._shares(lost, owner, random.Random(0))
        later = [0] * 4
        for s, t in obs["history"][cut:]:
            if t.split()[0] in CARD_STRINGS:
                later[s] |= 1 << parse_card(t.split()[0])
        fresh = game.new_deal(0, obs["dealer"], [cards_of(current[s] | later[s] | shares[s]) for s in range(4)],
                              {}, [])
        ok = True
        for i, (s, t) in enumerate(obs["history"]):
            if i == cut:
                game._forget(fresh, shares, obs)
            action = fresh.parse_action(t)
            if fresh.to_move != s or action not in fresh.legal():
                ok = False
                break
            fresh.apply(action)
        if ok and shows(fresh, obs):
            support.append((1 << a, 1 << b))
    assert 1 < len(support) < len(pool) * (len(pool) - 1)  # the plays since the sixth base told something
    rng = random.Random(seed)
    draws = 60 * len(support)
    deals = (game.sample_deal(obs, rng) for _ in range(draws))
    counts = Counter((deal.hands[hidden[0]], deal.hands[hidden[1]]) for deal in deals)
    assert _chi_square_ok(counts, support, draws)
