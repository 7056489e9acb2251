"""How a seat's Tressette table is drawn: what only Tressette has, in its own words."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from osteria.rules.tressette import accuso_named
from osteria.views.table import FamilyView, Observation, PartnershipView, TableView, thirds_text


class TressetteView(PartnershipView, FamilyView):
    """Tressette: two sides, points in thirds during the deal, accusi, the target."""

    handled = TableView.handled | {"thirds", "accusi", "segni", "morto", "leader", "tricks_played"}
    declarations_key = "accusi"

    def scores(self, obs: Observation) -> list[str]:
        totals = obs.get("totals")
        if not isinstance(totals, list):
            return []
        line = self.say("score", scores=self.by_side([str(totals[side]) for side in (0, 1)]))
        target = obs.get("options", {}).get("target")
        return [f"{line} ({self.say('target', target=target)})" if target else line]

    def taken(self, obs: Observation) -> list[str]:
        """The points each side has taken in the deal so far: they change at every trick."""
        thirds = obs.get("thirds")
        if not isinstance(thirds, list) or not isinstance(obs.get("totals"), list):
            return []
        return [self.say("taken", sides=self.by_side([thirds_text(t) for t in thirds], members=False))]

    def sections(self) -> list[Callable[[Observation], list[str]]]:
        return [self.scores, self.taken, self.match_notes, self.status]

    def side_result(self, points: int, accusi: int) -> str:
        """A side's result: its total, and what came of cards and of accusi where it declared any."""
        return self.say("side_result", total=points + accusi, points=points, accusi=accusi) if accusi else str(points)

    def action(self, text: str, *, explain: bool = False) -> str:
        """An action; an accuso with what it is and what it is worth (tre tre: 3 punti)."""
        said = super().action(text, explain=explain)
        accuso = accuso_named(text)
        if accuso is None:
            return said
        name = (self.say("accuso_napoletana") if accuso.kind == "napoletana"
                else self.say(f"accuso_{accuso.kind}", rank=self.say(f"ranks_{accuso.rank}")))
        return f"{said} ({self.say('accuso_worth', name=name, n=accuso.points)})"

    def deal_result(self, index: int, result: Observation, totals: Sequence[int]) -> list[str]:
        points, delta = result["points"], result["delta"]
        # delta is per seat: a side's points plus its accusi; seats 0 and 1 stand for the sides.
        sides = [self.side_result(points[side], delta[side] - points[side]) for side in (0, 1)]
        return [self.say(self.over_key, n=index + 1, outcome=self.outcome(str(result["outcome"]))),
                self.say("deal_points", points=self.by_side(sides, members=False)),
                *self.scores({"totals": list(totals)})]
