"""Speed of random playouts: osteria's fast path, its string API, and OpenSpiel as a reference.

Figures are only comparable within one run on one machine, so every run measures its own
reference (OpenSpiel's C++ games driven from Python, when installed) and prints ratios.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from osteria.engine import Match
from osteria.rules import GAMES


@dataclass
class Speed:
    name: str
    deals: int
    decisions: int
    seconds: float

    @property
    def deals_per_s(self) -> float:
        return self.deals / self.seconds

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds


def _measure(name: str, one_deal: Callable[[], int], seconds: float) -> Speed:
    """Run whole deals until the time is spent; ``one_deal`` returns its number of decisions."""
    deals = decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        decisions += one_deal()
        deals += 1
        now = time.perf_counter()
        if now >= deadline:
            return Speed(name, deals, decisions, now - start)


def fast_path(game: str, seconds: float, seed: int = 0) -> Speed:
    """Random deals on the integer API: ``Deal.legal()`` and ``Deal.apply()``."""
    rules = GAMES[game]()
    rng = random.Random(seed)
    choice = rng.choice
    index = 0

    def one_deal() -> int:
        nonlocal index
        hands, stock = rules.deal_cards(rng)
        # Alternate first and later deals so game-specific first-deal rules are exercised.
        deal = rules.new_deal(index & 1, rng.randrange(rules.seats), hands, stock, [])
        index += 1
        legal, apply = deal.legal, deal.apply
        n = 0
        while deal.to_move is not None:
            apply(choice(legal()))
            n += 1
        return n

    return _measure(f"{game} (fast path)", one_deal, seconds)


def string_api(game: str, seconds: float, seed: int = 0) -> Speed:
    """Random deals on the public API: ``Match.legal_actions()`` and ``Match.play()``."""
    rng = random.Random(seed)
    match = Match(GAMES[game](), seed=seed)

    def one_deal() -> int:
        nonlocal match
        if match.finished:
            match = Match(GAMES[game](), seed=rng.getrandbits(64))
        deal = match.deal  # deals the next one
        assert deal is not None
        n = 0
        while not deal.over:
            match.play(rng.choice(match.legal_actions()))
            n += 1
        return n

    return _measure(f"{game} (string API)", one_deal, seconds)


def openspiel(game: str, seconds: float, seed: int = 0) -> Speed | None:
    """Random playouts of an OpenSpiel game driven from Python; None without OpenSpiel."""
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    loaded = pyspiel.load_game(game)
    rng = random.Random(seed)

    def one_deal() -> int:
        state = loaded.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                n += 1
        return n

    return _measure(f"openspiel {game}", one_deal, seconds)


def run(games: Iterable[str] | None = None, seconds: float = 2.0, reference: bool = True,
        out: Callable[[str], None] = print) -> list[Speed]:
    """Measure and print a table; each osteria figure is also given as a ratio to OpenSpiel's hearts."""
    speeds: list[Speed] = []
    ref = openspiel("hearts", seconds) if reference else None
    if reference:
        if ref is None:
            out("OpenSpiel is not installed (pip install 'osteria[bench]'): no reference measured")
        else:
            speeds.append(ref)
            skat = openspiel("skat", seconds)
            if skat is not None:
                speeds.append(skat)
    for game in games or GAMES:
        speeds.append(fast_path(game, seconds))
        speeds.append(string_api(game, seconds))
    out(f"{'playout':34} {'deals/s':>10} {'decisions/s':>12} {'vs hearts':>10}")
    for s in speeds:
        ratio = f"{s.decisions_per_s / ref.decisions_per_s:9.2f}x" if ref else "-"
        out(f"{s.name:34} {s.deals_per_s:10.0f} {s.decisions_per_s:12.0f} {ratio:>10}")
    by_name = {s.name: s for s in speeds}
    for game in games or GAMES:
        fast, api = by_name[f"{game} (fast path)"], by_name[f"{game} (string API)"]
        out(f"{game}: the string API runs at 1/{fast.decisions_per_s / api.decisions_per_s:.2f} of the fast path")
    return speeds
