"""The arena: bots measured fairly, by duplicate deals with every seat rotation."""

from osteria.arena.duplicate import Config, Report, play_board, rotations, run
from osteria.arena.stats import Estimate, estimate

__all__ = ["Config", "Estimate", "Report", "estimate", "play_board", "rotations", "run"]
