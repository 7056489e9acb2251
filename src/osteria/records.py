"""The osteria/1 game-record format: reading, checking and replaying records.

Writing a record is ``Match.record()``; this module reads one back, checks every deal and every
action against the rules, and reports the first problem with where it is in the file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from osteria.cards import parse_card
from osteria.engine import IllegalAction, Match, RulesError
from osteria.rules import GAMES

FORMAT = "osteria/1"


class RecordError(ValueError):
    """A malformed record, an impossible deal or an illegal action, with where it is."""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
        self.reason = message


def load(path: str | Path) -> dict[str, Any]:
    """Read a record file (UTF-8 JSON); RecordError for an unreadable or malformed file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read the record: {exc}") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except (ValueError, RecursionError) as exc:  # nested too deep, a number too long
        raise RecordError(f"not a readable record: {exc}") from None
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    return record


def save(record: dict[str, Any], path: str | Path) -> None:
    Path(path).write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")


def _expect(value: Any, kind: type | tuple[type, ...], what: str, where: str) -> Any:
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise RecordError(f"{what} must be {_article(names)}, not {json.dumps(value)}", where)
    return value


def _article(names: str) -> str:
    words = {"str": "a string", "int": "an integer", "list": "a list", "dict": "an object"}
    return " or ".join(words.get(n, n) for n in names.split(" or "))


def _cards(value: Any, where: str) -> list[int]:
    _expect(value, list, "a list of cards", where)
    cards = []
    for i, text in enumerate(value):
        _expect(text, str, "a card", f"{where}[{i}]")
        try:
            cards.append(parse_card(text))
        except ValueError as exc:
            raise RecordError(str(exc), f"{where}[{i}]") from None
    return cards


def replay(record: dict[str, Any]) -> Match:
    """The match a record describes, every action checked; RecordError at the first problem."""
    _expect(record, dict, "a record", "record")
    if record.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {json.dumps(record.get('format'))}", "format")
    game_name = record.get("game")
    if game_name not in GAMES:
        raise RecordError(f"unknown game {json.dumps(game_name)}; games: {', '.join(GAMES)}", "game")
    options = _expect(record.get("options", {}), dict, "options", "options")
    deals = _expect(record.get("deals"), list, "deals", "deals")
    seats = None
    if deals:
        first = _expect(deals[0], dict, "a deal", "deals[0]")
        seats = len(_expect(first.get("hands"), list, "hands", "deals[0].hands"))
    elif isinstance(record.get("players"), list):
        seats = len(record["players"])  # a match not dealt yet, or whose first deal is in play
    try:
        game = GAMES[game_name](seats, **options)
    except RulesError as exc:
        raise RecordError(str(exc), "options" if seats is None or seats in GAMES[game_name].seat_counts
                          else "deals[0].hands" if deals else "players") from None
    players = record.get("players")
    if players is not None:
        _expect(players, list, "players", "players")
        for i, name in enumerate(players):
            _expect(name, str, "a player's name", f"players[{i}]")
        if len(players) != game.seats:
            raise RecordError(f"{len(players)} players for {game.seats} hands", "players")
    first_dealer = None
    if deals:
        first_dealer = _expect(deals[0].get("dealer"), int, "the dealer", "deals[0].dealer")
        if not 0 <= first_dealer < game.seats:
            raise RecordError(f"no seat {first_dealer} at a table of {game.seats}", "deals[0].dealer")
    match = Match(game, players=players, dealer=first_dealer)
    declared = _last_round(record.get("last_round"), len(deals))
    for d, entry in enumerate(deals):
        if declared is not None and declared[0] == d:
            _declare(match, declared[1])
        _replay_deal(match, entry, f"deals[{d}]")
    if declared is not None and declared[0] == len(deals):
        _declare(match, declared[1])
    return match


def _last_round(value: Any, deals: int) -> tuple[int, int] | None:
    """A record's declared last round (an addition to version 1): the deal it begins with and the
    seat that declared it, or None where the record has none."""
    if value is None:
        return None
    _expect(value, dict, "the last round", "last_round")
    index = _expect(value.get("deal"), int, "the deal of the last round", "last_round.deal")
    seat = _expect(value.get("seat"), int, "the seat that declared the last round", "last_round.seat")
    if not deals or not 0 <= index <= deals:
        # The deal in progress when it was declared, or the next one if none was (a record saved
        # between deals ends with the deal before it).
        raise RecordError(f"the last round cannot begin with deal {index} of a record of {deals} deals",
                          "last_round")
    return index, seat


def _declare(match: Match, seat: int) -> None:
    try:
        match.declare_last_round(seat)
    except IllegalAction as exc:
        raise RecordError(f"the last round cannot be declared: {exc}", "last_round") from None


def _replay_deal(match: Match, entry: Any, where: str) -> None:
    _expect(entry, dict, "a deal", where)
    if match.finished:
        raise RecordError("the match was already over", where)
    if not match.deal_due:
        raise RecordError("the previous deal is not finished", where)
    dealer = _expect(entry.get("dealer"), int, "the dealer", f"{where}.dealer")
    hands_json = _expect(entry.get("hands"), list, "hands", f"{where}.hands")
    hands = [_cards(h, f"{where}.hands[{s}]") for s, h in enumerate(hands_json)]
    stock_json = _expect(entry.get("stock", {}), dict, "stock", f"{where}.stock")
    # A role of one card (Sancagna's turned card, say) may be written as that card alone.
    stock = {role: _cards([cards] if isinstance(cards, str) else cards, f"{where}.stock.{role}")
             for role, cards in stock_json.items()}
    try:
        match.begin_deal(hands, stock, dealer)
    except RulesError as exc:
        raise RecordError(str(exc), where) from None
    actions = _expect(entry.get("actions"), list, "actions", f"{where}.actions")
    for i, item in enumerate(actions):
        at = f"{where}.actions[{i}]"
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int)
                and not isinstance(item[0], bool) and isinstance(item[1], str)):
            raise RecordError(f"an action is [seat, \"action\"], not {json.dumps(item)}", at)
        seat, action = item
        deal = match.deals[-1].deal
        if deal.over:
            raise RecordError(f"the deal is over: no more actions ({action!r} by seat {seat})", at)
        if seat != deal.to_move:
            raise RecordError(f"seat {deal.to_move} is to move, not seat {seat} ({action!r})", at)
        try:
            match.play(action)
        except IllegalAction as exc:
            raise RecordError(f"illegal action: {exc}", at) from None
