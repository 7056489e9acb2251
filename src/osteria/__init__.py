"""osteria: Italy's regional trick-taking card games, with an exact rules engine.

The public API::

    import osteria
    osteria.games()                                 # ['tressette', ...]
    match = osteria.new_match("tressette", seed=1, target=21)   # its first deal dealt
    while not match.finished:
        if match.deal_due:
            match.begin_deal()                      # the next deal: looking never deals
        match.play(match.legal_actions()[0])
    match.result(); match.record()
    osteria.replay(match.record())
"""

from __future__ import annotations

from collections.abc import Sequence

from osteria.engine import JSON, Deal, DealResult, Game, IllegalAction, Match, RulesError
from osteria.records import RecordError, replay
from osteria.rules import GAMES

__version__ = "0.1.0"


def games() -> list[str]:
    """The names of the games osteria plays."""
    return list(GAMES)


def game_rules(game: str, *, seats: int | None = None, **options: JSON) -> Game:
    """A game's rules with its options checked; RulesError for an unknown game or option."""
    if game not in GAMES:
        raise RulesError(f"unknown game {game!r}; games: {', '.join(GAMES)}")
    return GAMES[game](seats, **options)


def new_match(game: str, *, seed: int | str | None = None, seats: int | None = None,
              players: Sequence[str] | None = None, dealer: int | None = None, **options: JSON) -> Match:
    """A new match with its first deal dealt. With a seed, the deals are reproducible; without,
    they come from the operating system's cryptographic generator. ``seats`` defaults to the
    number of players named, else the game's usual number; ``dealer`` is the first dealer (drawn
    when omitted). Each later deal is dealt by ``Match.begin_deal()`` once ``deal_due``."""
    if seats is None and players is not None:
        seats = len(players)
    match = Match(game_rules(game, seats=seats, **options), players=players, seed=seed, dealer=dealer)
    match.begin_deal()
    return match


__all__ = ["Deal", "DealResult", "Game", "IllegalAction", "Match", "RecordError", "RulesError",
           "game_rules", "games", "new_match", "replay"]
