"""Shared helpers of the environments' tests: the reference they are held to."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, TypeVar

from osteria.engine import Deal, Match
from osteria.envs.actions import ActionSpace


def observe_seat(space: ActionSpace, match: Match, seat: int, chosen: list[str] | None = None) -> dict[str, Any]:
    """A seat's vector and action mask encoded from its JSON observation (the mask all zeros
    unless the seat decides now), with the words it has chosen so far of its action."""
    view = match.observation(seat)
    chosen = chosen or []
    return {"observation": space.observe(view, chosen), "action_mask": space.mask(view["legal_actions"], chosen)}


class RulesStep(Protocol):
    """A deal of the rules module that takes a batched deal's actions by their numbers."""

    deal: Deal

    def legal(self) -> list[int]: ...

    def apply(self, a: int) -> None: ...


Step = TypeVar("Step", bound=RulesStep)


def replay_checked(step: Step, history: Iterable[int]) -> Step:
    """A finished batched deal's actions (``-1`` past its end) played again on the rules
    module, each checked legal there, to the deal's end."""
    for a in history:
        if a < 0:
            break
        assert a in step.legal()
        step.apply(int(a))
    assert step.deal.over
    return step
