"""What a seat's table shows, in lines of text and in the game's own words, for every surface.

The terminal tables (:mod:`osteria.tui`) print these lines; the server (:mod:`osteria.server`)
sends them to the browser with every state and at every deal's end, and lists the hand and the
legal actions in the order a view sorts them. A view draws from an observation alone, so it
tells nothing the seat may not know, and it needs neither a terminal nor a bot to do so.
"""

from osteria.views.table import (
    VIEWS,
    CalabresellaView,
    QuattrigghiuView,
    SancagnaView,
    TableView,
    TraversoneView,
    TressetteView,
    card_of,
    game_terms,
    seat_cards,
    thirds_text,
    view_for,
)

__all__ = ["VIEWS", "CalabresellaView", "QuattrigghiuView", "SancagnaView", "TableView", "TraversoneView",
           "TressetteView", "card_of", "game_terms", "seat_cards", "thirds_text", "view_for"]
