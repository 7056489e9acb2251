"""The replay of a match as the page steps through it: deal by deal, trick by trick, every hand shown.

A replay is drawn from the table's osteria/1 record alone, which holds only the deals already
over (their seeds are published, their hands shown to everybody at their end), never the deal in
progress: so the replay of a match still being played shows no card a seat may not see yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from osteria.cards import CARD_STRINGS
from osteria.engine import JSON, Match, public_view
from osteria.records import replay
from osteria.server.tables import WATCHER
from osteria.views import TableView, view_for

Message = dict[str, Any]


def match_replay(record: dict[str, JSON], languages: Sequence[str]) -> Message:
    """The replay of ``record`` (the deals it holds, each as a list of positions), its lines in
    ``languages``: see docs/online.md, *Replays*. RecordError for a record that does not replay."""
    played = replay(record)
    game, seats = played.game, played.game.seats
    # Played again from the same hands, so that every seat's view is asked at each position.
    again = Match(game, players=played.players, seed=0, dealer=played.deals[0].dealer if played.deals else None)
    views = {lang: view_for(game, lang, played.players, WATCHER) for lang in languages}

    def position(actions: list[list[JSON]], taken: JSON) -> Message:
        observations = [again.observation(s) for s in range(seats)]
        shown = public_view(observations)
        lines = {}
        for lang, view in views.items():
            view.note(shown)
            lines[lang] = view.beside(shown)
        ordering: TableView = next(iter(views.values()))
        return {"tricks_played": shown.get("tricks_played"), "actions": actions, "taken": taken,
                "trick": shown.get("trick") or [],
                "hands": [ordering.in_order(o.get("hand")) for o in observations],
                "totals": again.totals(), "lines": lines}

    deals = []
    totals = [0] * seats
    for index, dealt in enumerate(played.deals):
        deal = again.begin_deal(dealt.hands, dealt.stock, dealt.dealer)
        positions = [position([], None)]
        since: list[list[JSON]] = []
        on_table: list[list[JSON]] = []  # the cards played since the last trick was taken
        tricks, in_play = 0, deal.in_card_play
        for seat, action in dealt.deal.history:
            since.append([seat, deal.action_str(action)])
            card = deal.card_of(action)
            if card is not None:
                on_table.append([seat, CARD_STRINGS[card]])
            again.apply(action)
            seen = again.observation(seat)
            taken_now = seen.get("tricks_played")
            taken: JSON = None
            if isinstance(taken_now, int) and taken_now > tricks:
                # Who took it: the view's last trick says, where the rules let players look back at
                # it (a game may hide a trick once taken), else the seat that leads now.
                last = seen.get("last_trick")
                taken = {"cards": on_table, "winner": last["winner"] if isinstance(last, dict) else seen.get("leader")}
                on_table, tricks = [], taken_now
            if taken is not None or deal.over or (deal.in_card_play and not in_play):
                positions.append(position(since, taken))
                since = []
            in_play = deal.in_card_play
        result = played.results[index].as_json()
        totals = [t + d for t, d in zip(totals, played.results[index].delta, strict=True)]
        entry = record["deals"][index]
        deals.append({"deal_index": index, "dealer": dealt.dealer, "hands": entry["hands"],
                      "stock": entry.get("stock", {}), "positions": positions, "result": result,
                      "totals": totals,
                      "result_lines": {lang: view.deal_result(index, result, totals) for lang, view in views.items()}})
    return {"game": game.name, "options": game.changed_options(), "players": played.players,
            "seats": seats, "finished": played.finished, "winners": played.winners, "deals": deals,
            "totals": totals}
