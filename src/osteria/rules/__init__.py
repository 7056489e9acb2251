"""The games, one module each, registered by name."""

from osteria.engine import Game
from osteria.rules.calabresella import Calabresella
from osteria.rules.quattrigghiu import Quattrigghiu
from osteria.rules.sancagna import Sancagna
from osteria.rules.traversone import Traversone
from osteria.rules.tressette import Tressette

GAMES: dict[str, type[Game]] = {cls.name: cls for cls in (Tressette, Calabresella, Traversone, Sancagna, Quattrigghiu)}
