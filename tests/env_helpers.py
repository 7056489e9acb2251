"""Shared helpers of the environments' tests: the reference they are held to."""

from __future__ import annotations

from typing import Any

from osteria.engine import Match
from osteria.envs.actions import ActionSpace


def observe_seat(space: ActionSpace, match: Match, seat: int, chosen: list[str] | None = None) -> dict[str, Any]:
    """A seat's vector and action mask encoded from its JSON observation (the mask all zeros
    unless the seat decides now), with the words it has chosen so far of its action."""
    view = match.observation(seat)
    chosen = chosen or []
    return {"observation": space.observe(view, chosen), "action_mask": space.mask(view["legal_actions"], chosen)}
