"""The batched engine's observation layout and the card plays it knows, without numba.

:mod:`osteria.envs.batched` writes its observations in this layout; a player that reads a seat's
own observation into the same numbers (:mod:`osteria.bots.learned`) needs numpy alone.
"""

from __future__ import annotations

from math import prod

from osteria.engine import JSON, RulesError
from osteria.rules import GAMES, batched_games
from osteria.trickplay import TrickPlay, TrumpCall

MAX_SEATS = 6
PLAY, BIDDING, EXCHANGE, DISCARD, FORCED, VOLUNTEERS, WINDOW = range(7)
PHASE_NAMES = ("card play", "bidding", "exchange", "discard", "forced call", "volunteers", "tutita")
CALL_AUCTION_PHASES = (PLAY, BIDDING, EXCHANGE, DISCARD)
TRUMP_CALL_PHASES = (PLAY, BIDDING, FORCED, VOLUNTEERS, WINDOW)


def trick_play_of(game: str, seats: int | None = None, options: dict[str, JSON] | None = None) -> TrickPlay:
    """The card play of a game the batched engine plays, by its name, seats and options; a
    RulesError says why not for another."""
    games = batched_games()
    playable = ", ".join(games)
    if game not in GAMES:
        raise RulesError(f"unknown game {game!r}; the batched engine plays {playable}")
    if game not in games:
        raise RulesError(f"the batched engine does not play {game}; it plays {playable}")
    play = GAMES[game](seats, **(options or {})).trick_play()
    if play is None:
        raise RulesError(f"the batched engine cannot play {game} with these options; it plays the card play "
                         f"of {playable}")
    if play.seats > MAX_SEATS or any(side != seat % play.side_count for seat, side in enumerate(play.sides)):
        raise RulesError(f"{game}: the batched engine seats at most {MAX_SEATS}, a side every so many seats")
    return play


def observation_layout(play: TrickPlay) -> tuple[tuple[str, int, tuple[int, ...], str], ...]:
    """The blocks of a game's observation: (name, offset, shape, meaning), seats counted from
    the seat to move (position k: k places after it), and so its side and the others."""
    n, cards, sides = play.seats, play.cards, play.side_count
    blocks: list[tuple[str, tuple[int, ...], str]] = [
        ("hand", (cards,), "the cards in the seat's hand"),
        ("trick", (n, cards), "the current trick: the card each seat has put on it"),
        ("played", (n, cards), "the cards each seat has played in this deal, this trick's included" + (
            f" (after the first {play.forgotten} tricks, those since)" if play.forgotten else "")),
        ("trick_leader", (n,), "who led the current trick"),
        ("side_points", (sides,), "units taken so far by the seat's side and the others, divided by "
                                  "the deck's (the last trick's bonus included)"),
        ("tricks_played", (1,), f"tricks played, divided by {play.tricks}"),
    ]
    if len(play.trumps) > 1:
        blocks.append(("trump", (4,), "the trump suit"))
    if play.shown:
        blocks.append(("shown", (cards,), "the cards set aside that every seat sees"))
    if isinstance(play.auction, TrumpCall):
        blocks += [
            ("phase", (len(TRUMP_CALL_PHASES),), "the phase: " + ", ".join(PHASE_NAMES[p] for p in TRUMP_CALL_PHASES)),
            ("contract", (2,), "the contract: with a partner (called, or a volunteer), alone (so far)"),
            ("caller", (n,), "who called the trump"),
            ("called", (cards,), "the card whose holder is the caller's partner"),
            ("aiuto", (n,), "the caller's partner, where the seat knows him"),
            ("tutita", (1,), "a side goes for all the tricks"),
        ]
    elif play.auction is not None:
        blocks += [
            ("phase", (len(CALL_AUCTION_PHASES),), "the phase: " + ", ".join(PHASE_NAMES[p]
                                                                              for p in CALL_AUCTION_PHASES)),
            ("contract", (2,), "the contract: a called card, alone"),
            ("caller", (n,), "who took the contract"),
            ("called", (cards,), "the called card"),
            ("called_holder", (n + 1,), "who was dealt the called card (the last place: it lay set aside), where "
                                        "the seat knows"),
            ("ceded", (cards,), "the card the caller gave for the called one"),
            ("widow", (cards,), "the cards set aside as dealt, to the caller who took them"),
            ("discards", (cards,), "the cards the caller laid aside, to himself"),
        ]
    layout = []
    offset = 0
    for name, shape, meaning in blocks:
        layout.append((name, offset, shape, meaning))
        offset += prod(shape)
    return tuple(layout)
