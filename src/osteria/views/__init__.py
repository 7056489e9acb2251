"""What a seat's table shows, in lines of text and in the game's own words, for every surface.

The terminal tables (:mod:`osteria.tui`) print these lines; the server (:mod:`osteria.server`)
sends them to the browser with every state and at every deal's end, and lists the hand and the
legal actions in the order a view sorts them. A view draws from an observation alone, so it
tells nothing the seat may not know, and it needs neither a terminal nor a bot to do so.

:mod:`osteria.views.table` holds the generic :class:`TableView`, which draws any game, and the
bases the games share; each game with words of its own has its view in a module named after it.
"""

from __future__ import annotations

from collections.abc import Sequence

from osteria.engine import Game
from osteria.views.calabresella import CalabresellaView
from osteria.views.quattrigghiu import QuattrigghiuView
from osteria.views.sancagna import SancagnaView
from osteria.views.table import TableView, card_of, seat_cards, taken_trick, thirds_text
from osteria.views.traversone import TraversoneView
from osteria.views.tressette import TressetteView

# The per-game views; a game without one is drawn by TableView.
VIEWS: dict[str, type[TableView]] = {
    "tressette": TressetteView, "quattrigghiu": QuattrigghiuView, "sancagna": SancagnaView,
    "calabresella": CalabresellaView, "traversone": TraversoneView,
}


def view_for(game: Game, lang: str, names: Sequence[str], seat: int) -> TableView:
    """The view of a game's rules object (its ``name`` picks the view) for one seat, in the
    game's own words."""
    labels = {spec.name: spec.label for spec in type(game).option_specs if spec.label}
    return VIEWS.get(game.name, TableView)(lang, names, seat, game.glossary(), game.signals_in_play(), labels)


__all__ = ["VIEWS", "CalabresellaView", "QuattrigghiuView", "SancagnaView", "TableView", "TraversoneView",
           "TressetteView", "card_of", "seat_cards", "taken_trick", "thirds_text", "view_for"]
