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

import osteria
from osteria.cards import cards_of, mask_of
from osteria.engine import Deal, Match
from osteria.sampling import Unsatisfiable, sample_hands

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
        match.play(rng.choice(match.legal_actions()))


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
        match.play(rng.choice(match.legal_actions()))
    obs = json.loads(json.dumps(match.observation(1)))
    one = match.game.sample_deal(obs, random.Random(5))
    two = osteria.game_rules("tressette").sample_deal(obs, random.Random(5))
    assert one.hands == two.hands  # type: ignore[attr-defined]


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
        match.play(rng.choice(match.legal_actions()))
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
