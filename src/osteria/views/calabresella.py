"""How a seat's Calabresella table is drawn: what only Calabresella has, in its own words."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from osteria.cards import card_symbol
from osteria.rules import calabresella
from osteria.views.table import FamilyView, Observation, TableView, card_of, thirds_text


class CalabresellaView(FamilyView):
    """Calabresella: the bidding, the caller and the called card, the widow and the discard as the
    seat may see them, points per seat, the stakes."""

    handled = TableView.handled | {"phase", "contract", "caller", "called", "called_holder", "partner", "ceded",
                                   "widow", "discards", "leader", "tricks_played", "thirds"}
    declarations_key = "bids"
    score_key = "stakes"
    bidding_phases = frozenset({"bidding", "cedo", "scarto"})

    def status(self, obs: Observation) -> list[str]:
        lines = []
        phase, contract, caller = obs.get("phase"), obs.get("contract"), obs.get("caller")
        called, holder, ceded = card_of(obs.get("called")), obs.get("called_holder"), card_of(obs.get("ceded"))
        three = len(self.names) == 3
        if contract == "chiamata" and isinstance(caller, int) and called is not None:
            card = card_symbol(called)
            lines.append(self.say("c_call", name=self.name(caller), card=card))
            if holder == "widow":
                lines.append(self.say("c_in_widow", card=card))
            elif isinstance(holder, int):
                name = self.name_object(holder)
                lines.append(self.say("c_ceded", name=name, card=card, ceded=card_symbol(ceded))
                             if ceded is not None else self.say("c_holder", name=name, card=card))
            elif len(self.names) == 5:
                partner = obs.get("partner")
                lines.append(self.say("c_partner", name=self.name(partner))
                             if isinstance(partner, int) else self.say("c_secret", card=card))
        elif contract == "sola" and isinstance(caller, int):
            lines.append(self.say("c_sola", name=self.name(caller), sola=self.term("sola")))
        widow, discards = obs.get("widow"), obs.get("discards")
        if isinstance(widow, list):
            lines.append(self.say("c_widow", cards=self.cards(widow)))
        if isinstance(discards, list):
            lines.append(self.say("c_discards", cards=self.cards(discards)))
        elif three and (phase == "bidding" or contract == "sola"):
            lines.append(self.say("c_widow_hidden", n=calabresella.DISCARDS))
        elif three and contract == "chiamata" and phase == "play":
            lines.append(self.say("c_discards_hidden", n=calabresella.DISCARDS))
        return lines

    def taken(self, obs: Observation) -> list[str]:
        """The points each seat has taken in the play so far: they change at every trick."""
        thirds = obs.get("thirds")
        if obs.get("phase") != "play" or not isinstance(thirds, list):
            return []
        return [self.say("c_taken", items=self.per_seat([thirds_text(t) for t in thirds]),
                         n=calabresella.WINNING_POINTS)]

    def sections(self) -> list[Callable[[Observation], list[str]]]:
        return [*super().sections(), self.taken]

    def deal_result(self, index: int, result: Observation, totals: Sequence[int]) -> list[str]:
        lines = [self.say(self.over_key, n=index + 1, outcome=self.outcome(str(result["outcome"])))]
        if result["outcome"] != "monte":
            points = result["points"]  # the caller's side, the others
            lines += [self.say("c_deal_points", caller=points[0], others=points[1]),
                      self.say("deal_delta", delta=self.per_seat([f"{d:+d}" for d in result["delta"]]))]
        return [*lines, *self.scores({"totals": list(totals)})]
