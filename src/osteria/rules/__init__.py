"""The games, one module each, registered by name."""

from osteria.engine import Game
from osteria.rules.calabresella import Calabresella
from osteria.rules.quattrigghiu import Quattrigghiu
from osteria.rules.sancagna import Sancagna
from osteria.rules.traversone import Traversone
from osteria.rules.tressette import Tressette

GAMES: dict[str, type[Game]] = {cls.name: cls for cls in (Tressette, Calabresella, Traversone, Sancagna, Quattrigghiu)}


def batched_games() -> list[str]:
    """The games whose rules describe their card play as tables (``Game.trick_play``, with the
    default options): those the batched compiled engine plays."""
    return [name for name, game in GAMES.items() if game().trick_play() is not None]
