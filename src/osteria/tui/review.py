"""The words of the maestro's hints and of the analysis of a finished deal, for every table.

Both tables, the plain and the full-screen one, show the same lines: they differ in how they
print them, not in what they say.
"""

from __future__ import annotations

from osteria.analysis import NEGLIGIBLE, DealAnalysis, Hint, Step
from osteria.views import TableView

# The mistakes an analysis lists before going through the deal trick by trick.
MISTAKES_SHOWN = 5


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

    def hint_lines(self, hint: Hint) -> list[str]:
        """The maestro's choice, then every action it weighed with its value, the best first."""
        view = self.view
        lines = [view.say("hint", action=view.action(hint.action, explain=True)),
                 view.say("hint_values", unit=self.unit(hint.unit), samples=hint.samples)]
        # Higher is better, also where fewer points win.
        for action, value in sorted(hint.values.items(), key=lambda item: -item[1]):
            mark = "→" if action == hint.action else " "
            lines.append(f"  {mark} {self.number(value, signed=True):>8}  {view.action(action)}")
        return lines

    def review_lines(self, analysis: DealAnalysis, index: int) -> list[str]:
        """The analysis of deal ``index``: the biggest mistakes, what each seat lost, then the
        deal action by action, trick by trick."""
        view, say = self.view, self.view.say
        lines = [say("review_header", n=index + 1),
                 say("review_explain", unit=self.unit(analysis.unit),
                     honest_unit=self.unit(analysis.honest_unit or analysis.unit))]
        mistakes = analysis.mistakes(MISTAKES_SHOWN)
        lines.append(say("review_mistakes") if mistakes else say("review_no_mistakes"))
        for step in mistakes:
            where = (say("review_where_trick", n=step.trick) if step.trick is not None
                     else say("review_where_other", n=step.index + 1))
            lines.append(f"  {where}, {self.step_text(step)}")
        lost = analysis.lost_by_seat()
        lines.append(say("review_lost", items=view.per_seat(
            [self.number(lost.get(seat, 0.0)) for seat in range(len(view.names))])))
        trick = 0
        for step in analysis.steps:
            if step.trick is not None and step.trick != trick:
                trick = step.trick
                lines.append(say("review_trick", n=trick))
            elif step.trick is None and trick == 0 and step is analysis.steps[0]:
                lines.append(say("review_before"))
            lines.append(f"  {self.step_text(step)}")
        return lines

    def step_text(self, step: Step) -> str:
        """One action as played, against open-hand play (card plays) and against the maestro."""
        view, say = self.view, self.view.say
        parts = [f"{view.name(step.seat)}: {view.action(step.action)}"]
        if step.trick is not None:
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
            else:
                parts.append(say("review_honest_other", honest=view.action(step.honest),
                                 cost=self.number(-step.cost_honest, signed=step.cost_honest > NEGLIGIBLE)))
        return " · ".join(parts)
