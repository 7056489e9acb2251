"""How a seat's Traversone table is drawn: what only Traversone has, in its own words."""

from __future__ import annotations

from collections.abc import Sequence

from osteria.cards import card_symbol
from osteria.rules.traversone import ACE_OF_BASTONI
from osteria.views.table import FamilyView, Observation, TableView, thirds_text


class TraversoneView(FamilyView):
    """Traversone: everyone for himself, points taken are poison, the lowest total wins."""

    handled = TableView.handled | {"leftover", "leader", "tricks_played", "thirds"}

    def scores(self, obs: Observation) -> list[str]:
        totals = obs.get("totals")
        if not isinstance(totals, list):
            return []
        line = self.say("t_score", scores=self.per_seat(totals))
        target = obs.get("options", {}).get("target")
        return [f"{line} ({self.say('t_target', target=target)})" if target else line]

    def status(self, obs: Observation) -> list[str]:
        lines = []
        ace = obs.get("options", {}).get("asso_bastoni")
        if isinstance(ace, int) and ace != 1:  # worth more than its usual point
            lines.append(self.say("t_ace", card=card_symbol(ACE_OF_BASTONI), n=ace))
        thirds = obs.get("thirds")
        if isinstance(thirds, list):
            lines.append(self.say("t_taken", items=self.per_seat([thirds_text(t) for t in thirds])))
        leftover = obs.get("leftover")
        if isinstance(leftover, int) and leftover:
            lines.append(self.say("t_leftover_one" if leftover == 1 else "t_leftover", n=leftover))
        return lines

    def deal_result(self, index: int, result: Observation, totals: Sequence[int]) -> list[str]:
        return [self.say(self.over_key, n=index + 1, outcome=self.outcome(str(result["outcome"]))),
                self.say("t_deal_points", items=self.per_seat(result["points"])),
                self.say("t_deal_scored", items=self.per_seat(result["delta"])),
                *self.scores({"totals": list(totals)})]
