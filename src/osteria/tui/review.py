"""The words of the maestro's hints and of the analysis of a finished deal, for every table.

Both tables, the plain and the full-screen one, show the same lines: they differ in how they
print them, not in what they say.
"""

from __future__ import annotations

from osteria.analysis import NEGLIGIBLE, DealAnalysis, Hint, Step
from osteria.views import TableView

# The mistakes an analysis lists before going through the deal trick by trick.
MISTAKES_SHOWN = 5
# The actions a hint lists, the maestro's choice among them, unless all are asked for (the
# 1,820 discards of Calabresella for three).
HINT_SHOWN = 12


class ReviewWords:
    """Hints and analyses in the words of a table's ``view``: its language, seats and game terms."""

    def __init__(self, view: TableView) -> None:
        self.view = view
        self.lang = view.lang

    def number(self, value: float, *, signed: bool = False) -> str:
        """A value as a person reads it: whole numbers without decimals, others with two, in the
        language's decimal mark."""
        if abs(value - round(value)) < NEGLIGIBLE:
            text = f"{round(value):+d}" if signed else f"{round(value):d}"
        else:
            text = f"{value:+.2f}" if signed else f"{value:.2f}"
        return text.replace(".", ",") if self.lang == "it" else text

    def unit(self, unit: str) -> str:
        """A unit of value (``points``, ``stakes``, ``circles``) in the table's language."""
        return self.view.say(f"unit_{unit}")

    def hint_lines(self, hint: Hint, *, everything: bool = False) -> list[str]:
        """The maestro's choice, then the actions it weighed with their values: its choice first
        and marked, then the others, the best first; the best few only, unless ``everything``."""
        view = self.view
        lines = [view.say("hint", action=view.action(hint.action, explain=True))]
        if not hint.values:
            return [*lines, view.say("hint_forced")]
        if hint.outvalued():
            lines.append(view.say("hint_not_top"))
        lines.append(view.say("hint_values", unit=self.unit(hint.unit), samples=hint.samples))
        ranked = hint.ranked()
        shown = ranked if everything else ranked[:HINT_SHOWN]
        for action, value in shown:
            mark = "→" if action == hint.action else " "
            worth = "—" if value is None else self.number(value, signed=True)  # the maestro weighed it not
            lines.append(f"  {mark} {worth:>8}  {view.action(action)}")
        if len(shown) < len(ranked):
            lines.append(view.say("hint_more", n=len(ranked) - len(shown)))
        return lines

    def hidden_in_hint(self, hint: Hint) -> int:
        """How many actions the hint's lines leave out, unless all are asked for."""
        return max(0, len(hint.ranked()) - HINT_SHOWN) if hint.values else 0

    def review_lines(self, analysis: DealAnalysis, index: int) -> list[str]:
        """The analysis of deal ``index``: the biggest mistakes against the maestro, what each
        player lost, then the deal action by action, trick by trick."""
        say = self.view.say
        unit = self.unit(analysis.unit)
        lines = [say("review_header", n=index + 1), say("review_explain", unit=unit)]
        if analysis.open_play:
            lines.append(say("review_explain_open", unit=unit))
        mistakes = analysis.mistakes(MISTAKES_SHOWN)
        lines.append(say("review_mistakes") if mistakes else say("review_no_mistakes"))
        for step in mistakes:
            where = (say("review_where_trick", n=step.trick) if step.trick is not None
                     else say("review_where_other", n=step.index + 1))
            lines.append(f"  {where}, {self.step_text(step, open_play=analysis.open_play)}")
        lines.append(say("review_lost", items=self.players_lost(analysis.lost_by_player())))
        if analysis.open_play:
            lines.append(say("review_lost_open", items=self.players_lost(analysis.lost_by_player(against_open=True))))
        trick = 0
        for step in analysis.steps:
            if step.trick is not None and step.trick != trick:
                trick = step.trick
                lines.append(say("review_trick", n=trick))
            elif step.trick is None and trick == 0 and step is analysis.steps[0]:
                lines.append(say("review_before"))
            lines.append(f"  {self.step_text(step, open_play=analysis.open_play)}")
        return lines

    def players_lost(self, lost: dict[int, float]) -> str:
        """What each player lost, in the order of the seats (a dummy, who chose nothing, is not one)."""
        return " · ".join(f"{self.view.name(seat)} {self.number(lost[seat])}" for seat in sorted(lost))

    def step_text(self, step: Step, *, open_play: bool) -> str:
        """One action as played, against open-hand play (card plays, where the analysis weighed
        them so) and against the maestro."""
        view, say = self.view, self.view.say
        who = (view.name(step.seat) if step.player == step.seat
               else say("review_for", player=view.name(step.player), seat=view.name(step.seat)))
        parts = [f"{who}: {view.action(step.action)}"]
        if open_play and step.trick is not None:
            if step.cost_open is None or step.best is None:
                parts.append(say("review_open_unknown"))
            elif step.cost_open <= NEGLIGIBLE:
                parts.append(say("review_open_best"))
            else:
                parts.append(say("review_open_worse", best=view.action(step.best),
                                 cost=self.number(-step.cost_open, signed=True)))
        if step.honest is not None:
            if step.honest == step.action:
                parts.append(say("review_honest_same"))
            elif step.cost_honest is None:
                parts.append(say("review_honest_unknown", honest=view.action(step.honest)))
            elif step.cost_honest <= NEGLIGIBLE:
                parts.append(say("review_honest_equal", honest=view.action(step.honest)))
            else:
                parts.append(say("review_honest_other", honest=view.action(step.honest),
                                 cost=self.number(-step.cost_honest, signed=True)))
        return " · ".join(parts)
