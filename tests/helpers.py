"""Shared test helpers: deals built from chosen cards, and random play."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping, Sequence

import osteria
from osteria.bots import Bot
from osteria.cards import CARD_STRINGS, parse_card
from osteria.engine import Drawing, Match
from osteria.rules.tressette import TressetteDeal


def fill_hands(game: str, fixed: Sequence[str], seats: int | None = None, **options: object) -> list[list[int]]:
    """Hands of the game's sizes in which seat i holds the cards of ``fixed[i]`` (space-separated),
    the rest of the deck dealt in canonical order to whoever still has room."""
    rules = osteria.game_rules(game, seats=seats, **options)
    sizes = rules.hand_sizes()
    hands = [[parse_card(c) for c in (fixed[s].split() if s < len(fixed) else [])] for s in range(rules.seats)]
    used = {c for h in hands for c in h}
    rest = [c for c in rules.deck.cards if c not in used]
    for seat, hand in enumerate(hands):
        while len(hand) < sizes[seat]:
            hand.append(rest.pop(0))
    return [sorted(h) for h in hands]


def undealt(game: str, *, seed: int | str = 0, dealer: int | None = None, seats: int | None = None,
            **options: object) -> Match:
    """A new match with no deal dealt yet, for a test to deal the cards it chooses."""
    return Match(osteria.game_rules(game, seats=seats, **options), seed=seed, dealer=dealer)


def match_with(game: str, hands: Sequence[Sequence[int]], dealer: int = 0, **options: object) -> Match:
    """A match whose first deal has these hands."""
    match = undealt(game, dealer=dealer, seats=len(hands), **options)
    match.begin_deal(hands, {}, dealer)
    return match


def names(cards: Sequence[int]) -> list[str]:
    return [CARD_STRINGS[c] for c in cards]


def play_random_action(match: Match, rng: random.Random) -> None:
    """Play one random legal action, dealing the next deal first when it is due."""
    if match.deal_due:
        match.begin_deal()
    match.play(rng.choice(match.legal_actions()))


def play_randomly(match: Match, rng: random.Random, max_actions: int = 100_000) -> int:
    """Play random legal actions to the end of the match; the number of actions played."""
    n = 0
    while not match.finished:
        play_random_action(match, rng)
        n += 1
        assert n < max_actions, "the match does not end"
    return n


def finish_deal(match: Match, seed: int = 0) -> dict[str, object]:
    """Play random legal actions to the end of the deal in progress; its replay result."""
    rng = random.Random(seed)
    n = len(match.results)
    while len(match.results) == n:
        match.play(rng.choice(match.legal_actions()))
    return match.results[-1].as_json()


def bot_decision(bot: Bot, match: Match, seat: int) -> str:
    """What ``bot`` plays for ``seat`` now, shown only a plain-data copy of its observation;
    the action is checked to be legal."""
    observation = json.loads(json.dumps(match.observation(seat)))
    legal = observation["legal_actions"]
    action = bot.act(observation, legal)
    assert action in legal, f"{bot.name} chose {action!r}, not among {legal}"
    return action


def play_checked(match: Match, bots: Mapping[int, Bot]) -> None:
    """Let the bots play the match to its end, every choice checked to be legal."""
    while not match.finished:
        if match.deal_due:
            match.begin_deal()
        seat = match.decider
        assert seat is not None
        match.play(bot_decision(bots[seat], match, seat))


def words_in(value: object) -> Iterator[str]:
    """Every space-separated word of every string in a JSON value: where card names show."""
    if isinstance(value, str):
        yield from value.split()
    elif isinstance(value, dict):
        for v in value.values():
            yield from words_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from words_in(v)


def varied_choice(legal: Sequence[str], rng: random.Random) -> str:
    """A random legal action: first a kind of action drawn uniformly (an action's first word: a
    card, passo, chiamo, accuso...), then one action of that kind, so that the rare kinds (every
    seat passing, a call-out, an accuso) come up about as often as any card."""
    kinds: dict[str, list[str]] = {}
    for action in legal:
        kinds.setdefault(action.split(" ", 1)[0], []).append(action)
    return rng.choice(rng.choice(list(kinds.values())))


def cards_shown(observation: Mapping[str, object]) -> set[str]:
    """The cards that an observation names outside the seat's own hand and legal actions."""
    return {w for key, value in observation.items() if key not in ("hand", "legal_actions")
            for w in words_in(value) if w in _CARD_WORDS}


_CARD_WORDS = frozenset(CARD_STRINGS)


class NoSlip(random.Random):
    """A generator whose draws never fall among a playout's random cards."""

    def random(self) -> float:
        return 0.99


def play_deal(match: Match, bots: Mapping[int, Bot], others: random.Random) -> None:
    """One deal: the bots at their seats, random play at the rest; every bot action checked legal."""
    deal = match.deal
    assert deal is not None
    while not deal.over:
        seat = match.decider
        assert seat is not None
        obs = match.observation(seat)
        legal = obs["legal_actions"]
        action = bots[seat].act(obs, legal) if seat in bots else others.choice(legal)
        assert action in legal
        match.play(action)


def as_drawn(deal: TressetteDeal) -> Drawing:
    """A Tressette deal, as a search that drew its hands would hand it to a reader of the play."""
    return Drawing(deal.dealt[1], tuple(deal.history), deal.copy)
