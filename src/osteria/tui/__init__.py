"""Tables to play osteria's games at: the plain terminal table, you against bots."""

from osteria.tui.plain import PlainTable, play

__all__ = ["PlainTable", "play"]
