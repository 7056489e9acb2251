"""What the rules engine does on fixed random matches of every game and seat count, as one digest
per game: run under the pure engine and under the compiled one (setup.py, OSTERIA_COMPILE=1),
the digests must be equal (test_compiled.py).

    python tests/engine_digest.py [MATCHES]

prints one JSON object: ``compiled`` (whether ``osteria.engine`` is a compiled module) and, by
game, the digest of every step of its matches: the legal actions as strings and integers, every
seat's observation, each deal's result and record, a copy played on beside the original, and
deals sampled from a seat's observation with the cards they were dealt.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

import osteria
from osteria.bench import engine_compiled
from osteria.engine import Match
from osteria.records import replay
from osteria.rules import GAMES


def digest_of_game(game: str, matches: int) -> str:
    steps: list[Any] = []
    for seats in GAMES[game].seat_counts:
        for k in range(matches):
            seed = f"{game}/{seats}/{k}"
            rng = random.Random(seed)
            match = osteria.new_match(game, seed=seed, seats=seats)
            while not match.finished and len(match.results) < 6:
                if match.deal_due:
                    match.begin_deal()
                deal = match.deal
                assert deal is not None
                steps.append([match.legal_actions(), deal.legal(), match.observations()])
                if rng.random() < 0.05:
                    steps.append(sampled(match, rng))
                    copy = deal.copy()
                    while not copy.over:
                        copy.apply(rng.choice(copy.legal()))
                    steps.append([copy.result().as_json(), [list(h) for h in copy.history]])
                match.play(rng.choice(match.legal_actions()))
                if deal.over:
                    steps.append(match.results[-1].as_json())
            record = match.record()
            steps.append(record)
            steps.append(replay(record).record() == record)
    text = json.dumps(steps, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


def sampled(match: Match, rng: random.Random) -> list[Any]:
    """A deal sampled from the observation of the seat to move, and the cards it was dealt."""
    seat = match.decider
    assert seat is not None
    deal = match.game.sample_deal(match.observation(seat), random.Random(rng.random()))
    return [deal.dealt_cards(), [list(h) for h in deal.history], deal.legal()]


def main() -> int:
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    print(json.dumps({"compiled": engine_compiled(), "games": {game: digest_of_game(game, matches) for game in GAMES}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
