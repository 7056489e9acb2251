"""How a seat's Sancagna table is drawn: what only Sancagna has, in its own words."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar

from osteria.cards import card_symbol, rank_of, suit_of
from osteria.rules import sancagna
from osteria.views.table import Observation, PartnershipView, TableView, capital, card_of, suit_index


class SancagnaView(PartnershipView):
    """Sancagna: the briscola and the bacio della tavola, tallies across deals, cenni, the call-out."""

    handled = TableView.handled | {"trump", "turned", "bottom", "leader", "tricks_played", "calling", "cenni",
                                   "revokes", "points", "tally"}
    declarations_key = "calls_out"
    header_key, over_key, line_key = "s_deal_header", "s_deal_over", "s_deal_line"
    spoken: ClassVar[Mapping[str, str]] = {"gnagna": "gnagnà"}
    trump: int | None = None

    def note(self, obs: Observation) -> None:
        self.trump = suit_index(obs.get("trump"))

    def ordering(self) -> object:
        return self.trump

    def group_of(self, card: int) -> int:
        return -1 if suit_of(card) == self.trump else suit_of(card)

    def rank_key(self, card: int) -> int:
        return rank_of(card) if self.trump is None else sancagna.KEY[self.trump][card]

    def declared(self, action: str) -> bool:
        return action in ("fuori", "avanti")  # the cenni have a line of their own

    def scores(self, obs: Observation) -> list[str]:
        totals = obs.get("totals")
        if not isinstance(totals, list):
            return []
        line = self.say("circles", sides=self.by_side([str(totals[side]) for side in (0, 1)]))
        target = obs.get("options", {}).get("target")
        return [f"{line} ({self.say('target', target=target)})" if target else line]

    def sections(self) -> list[Callable[[Observation], list[str]]]:
        return [*super().sections(), self.tally, self.calls]

    def status(self, obs: Observation) -> list[str]:
        """The briscola and the bacio della tavola: the deal's."""
        trump, turned, bottom = suit_index(obs.get("trump")), card_of(obs.get("turned")), card_of(obs.get("bottom"))
        if trump is None or turned is None or bottom is None:
            return []
        return [self.say("s_trump", briscola=capital(self.term("briscola")), suit=self.suit(trump),
                         turned=card_symbol(turned)),
                self.say("s_bottom", bacio=capital(self.term("bacio della tavola")), bottom=card_symbol(bottom))]

    def tally(self, obs: Observation) -> list[str]:
        """The tallies and the deal's points, which change at every trick (unless played a mente)."""
        lines = []
        tally, points = obs.get("tally"), obs.get("points")
        if isinstance(tally, list) and isinstance(points, list):
            lines.append(self.say("s_tally", sides=self.by_side([str(t) for t in tally], members=False),
                                  deal=self.by_side([str(p) for p in points], members=False)))
        elif "tally" not in obs:
            lines.append(self.say("s_a_mente", a_mente=self.term("a mente")))
        return lines

    def calls(self, obs: Observation) -> list[str]:
        """The cenni made, who calls out, the revokes found."""
        lines = []
        cenni = obs.get("cenni")
        if isinstance(cenni, list) and cenni:
            items = [f"{self.name(s)} {self.term(w, self.signal_names)}" for s, w in cenni]
            lines.append(self.say("s_cenni", items=", ".join(items)))
        calling = obs.get("calling")
        if isinstance(calling, int):
            lines.append(self.say("s_calling", name=self.name_object(calling)))
        revokes = obs.get("revokes")
        if isinstance(revokes, list) and revokes:
            items = [self.say("s_revoke", name=self.name(s), n=t + 1) for s, t in revokes]
            lines.append(self.say("s_revokes", items=", ".join(items)))
        return lines

    def deal_result(self, index: int, result: Observation, totals: Sequence[int]) -> list[str]:
        points, delta = result["points"], result["delta"]  # points per side, circles per seat
        return [self.say(self.over_key, n=index + 1, outcome=self.outcome(str(result["outcome"]))),
                self.say("s_deal_points", points=self.by_side([str(p) for p in points], members=False)),
                self.say("s_circles_won", sides=self.by_side([f"{delta[side]:+d}" for side in (0, 1)], members=False)),
                *self.scores({"totals": list(totals)})]
