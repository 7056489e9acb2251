"""Learned players: the play of networks trained by Deep Monte-Carlo self-play.

Each network (``examples/train_dmc.py`` trains it on the batched engine) reads the observation of
the seat to move as :mod:`osteria.envs.batched` lays it out (:func:`osteria.envs.layout.observation_layout`),
here rebuilt from the seat's own observation, and values each of the engine's actions (a card by
its deck position, and after the cards the bidding's words) by the margin the seat is expected to
end the deal with; the player takes the legal action it values most. A choice of several cards
(Calabresella's scarto) is made as the engine makes it, a card at a time. The batched engine
knows a game's bidding and card play alone, so what it does not (Tressette's accusi, a table col
morto, a number of seats the network was not trained for) is the rule-based player's, and a card
is played without a signal. The weights ship with the package (``weights/<game>_dmc.npz``, and
``weights/<game>-<seats>_dmc.npz`` at another number of seats than the game's usual one; numpy
arrays of float16).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from math import prod
from pathlib import Path
from typing import Any

from osteria.bots.base import Bot
from osteria.bots.memory import CARD_OF
from osteria.cards import ITALIAN_40
from osteria.envs.layout import BIDDING, CALL_AUCTION_PHASES, DISCARD, EXCHANGE, PLAY, observation_layout, trick_play_of

WEIGHTS = Path(__file__).with_name("weights")
HIDDEN = (512, 256)  # the networks' hidden layers
POSITION = {c: k for k, c in enumerate(ITALIAN_40.cards)}  # a card's deck position


def weights_of(game: str, seats: int | None = None) -> Path:
    """The file of the weights shipped for a game, at a number of seats other than its usual one
    (``seats``) a file of their own."""
    usual = trick_play_of(game).seats
    return WEIGHTS / (f"{game}_dmc.npz" if seats in (None, usual) else f"{game}-{seats}_dmc.npz")


def read_weights(path: Path) -> list[tuple[Any, Any]]:
    """The layers (weights, biases) of a weights file, the arrays w0, b0, w1, b1..., in float32;
    ValueError for a file of other arrays."""
    import numpy as np

    with np.load(path) as arrays:
        layers = len(arrays.files) // 2
        if layers < 1 or set(arrays.files) != {f"{kind}{k}" for kind in "wb" for k in range(layers)}:
            raise ValueError(f"{path}: not the arrays w0, b0, w1, b1...")
        # Stored as float16 to halve the package's file; computed in float32.
        return [(arrays[f"w{k}"].astype(np.float32), arrays[f"b{k}"].astype(np.float32)) for k in range(layers)]


@cache
def _weights(path: Path) -> list[tuple[Any, Any]]:
    return read_weights(path)


def forward(layers: Sequence[tuple[Any, Any]], x: Any) -> Any:
    """The network's values of every action for observations ``x`` (rows), from its layers'
    weights and biases: each hidden layer's ReLU, the last layer's values as they are."""
    import numpy as np

    for k, (w, b) in enumerate(layers):
        x = x @ w.T + b
        if k < len(layers) - 1:
            x = np.maximum(x, 0.0)
    return x


def _card(word: str) -> int | None:
    """The card a word names, None for another word."""
    return CARD_OF.get(word)


class Reader:
    """What a game's network reads and what its outputs mean: a seat's observation written as the
    batched engine writes it, and the engine's actions that each of the game's actions takes.
    The blocks every game shares are here; a game's reader adds its own."""

    game = ""
    units = "thirds"  # the observation's count of what each side (or seat) has taken

    def __init__(self, seats: int | None = None) -> None:
        play = trick_play_of(self.game, seats)
        self.seats = play.seats
        self.cards = play.cards
        self.hand_size = play.hand_size
        self.sides = play.side_count
        self.scale = play.deck_units(0)
        self.weights = weights_of(self.game, self.seats)
        layout = observation_layout(play)
        self.at = {name: offset for name, offset, _, _ in layout}
        _, offset, shape, _ = layout[-1]
        self.size = offset + prod(shape)

    def plays(self, obs: Mapping[str, Any]) -> bool:
        """Whether the network knows this table (else the rule-based player plays)."""
        return True

    def steps(self, action: str) -> frozenset[int] | None:
        """The engine's actions that ``action`` takes (a card, with or without a signal, is its
        deck position); None for one the engine does not know."""
        c = _card(action.split()[0])
        return None if c is None else frozenset((POSITION[c],))

    def vector(self, obs: Mapping[str, Any], pending: frozenset[int] = frozenset()) -> Any:
        """The observation of the seat to move, ``pending`` the engine's actions already taken
        of a choice made a card at a time."""
        import numpy as np

        me, n, cards, at = obs["seat"], self.seats, self.cards, self.at
        row = np.zeros(self.size, np.float32)
        for text in obs["hand"]:
            p = POSITION[CARD_OF[text]]
            if p not in pending:
                row[at["hand"] + p] = 1.0
        for seat, text in obs["trick"]:
            row[at["trick"] + cards * ((seat - me) % n) + POSITION[CARD_OF[text]]] = 1.0
        for seat, action in obs["history"]:
            c = _card(action.split()[0])
            if c is not None:
                row[at["played"] + cards * ((seat - me) % n) + POSITION[c]] = 1.0
        row[at["trick_leader"] + (obs["leader"] - me) % n] = 1.0
        taken = obs[self.units]
        for k in range(self.sides):
            row[at["side_points"] + k] = taken[(me + k) % n % len(taken)] / self.scale
        row[at["tricks_played"]] = obs["tricks_played"] / self.hand_size
        self.bidding(obs, row, pending)
        return row

    def bidding(self, obs: Mapping[str, Any], row: Any, pending: frozenset[int]) -> None:
        """The game's own blocks."""


class TressetteReader(Reader):
    """The classic game of four; a table col morto is the rule-based player's."""

    game = "tressette"

    def plays(self, obs: Mapping[str, Any]) -> bool:
        return not obs.get("morto")


CALABRESELLA_PHASES = {"bidding": BIDDING, "cedo": EXCHANGE, "scarto": DISCARD, "play": PLAY}


class CalabresellaReader(Reader):
    """Calabresella: the bidding's words after the cards (a pass, then alone), a card called or
    given by its position, the scarto's four cards laid aside one at a time; at five the called
    card's holder is the hidden partner, known to himself and to all once shown."""

    game = "calabresella"

    def steps(self, action: str) -> frozenset[int] | None:
        word, *rest = action.split()
        if word == "passo":
            return frozenset((self.cards,))
        if word == "sola":
            return frozenset((self.cards + 1,))
        if word in ("chiamo", "cedo", "scarto"):
            return frozenset(POSITION[CARD_OF[text]] for text in rest)
        return super().steps(action)

    def bidding(self, obs: Mapping[str, Any], row: Any, pending: frozenset[int]) -> None:
        me, n, at = obs["seat"], self.seats, self.at
        row[at["phase"] + CALL_AUCTION_PHASES.index(CALABRESELLA_PHASES[obs["phase"]])] = 1.0
        if obs["contract"] is not None:
            row[at["contract"] + ("chiamata", "sola").index(obs["contract"])] = 1.0
            row[at["caller"] + (obs["caller"] - me) % n] = 1.0
        if obs["called"] is not None:
            row[at["called"] + POSITION[CARD_OF[obs["called"]]]] = 1.0
        holder = obs["called_holder"] if self.seats < 5 else obs["partner"]
        if holder is not None:
            row[at["called_holder"] + (n if holder == "widow" else (int(holder) - me) % n)] = 1.0
        if obs["ceded"] is not None:
            row[at["ceded"] + POSITION[CARD_OF[obs["ceded"]]]] = 1.0
        for text in obs["widow"] or ():
            row[at["widow"] + POSITION[CARD_OF[text]]] = 1.0
        for text in obs["discards"] or ():
            row[at["discards"] + POSITION[CARD_OF[text]]] = 1.0
        for p in pending:  # the cards laid aside so far of a scarto being chosen
            row[at["discards"] + p] = 1.0


# The games a network has been trained for, by name.
READERS: dict[str, type[Reader]] = {"tressette": TressetteReader, "calabresella": CalabresellaReader}


class DmcPlayer(Bot):
    """A game's learned player (``dmc``), the rule-based player ``rule`` playing where the
    network does not (see the module's description)."""

    name = "dmc"

    def __init__(self, game: str, rule: Bot) -> None:
        self.game = game
        self.rule = rule
        self.readers: dict[int, Reader | None] = {}  # by seats: None where no network was trained

    def reader(self, seats: int) -> Reader | None:
        if seats not in self.readers:
            try:
                reader: Reader | None = READERS[self.game](seats)
            except ValueError:  # seats the batched engine does not play (Tressette for two)
                reader = None
            self.readers[seats] = reader if reader is not None and reader.weights.exists() else None
        return self.readers[seats]

    def values(self, obs: Mapping[str, Any], pending: frozenset[int] = frozenset()) -> Any:
        """The network's value of each of the engine's actions for the seat to move."""
        seats = len(obs["hand_sizes"])
        reader = self.reader(seats)
        assert reader is not None, f"no network for {self.game} at {seats} seats"
        return forward(_weights(reader.weights), reader.vector(obs, pending))

    def knows(self, observation: Mapping[str, Any]) -> Reader | None:
        """The reader of the network that plays this table, None where none does (a number of
        seats it was not trained for, a table col morto): there the rule-based player plays."""
        reader = self.reader(len(observation["hand_sizes"]))
        return reader if reader is not None and reader.plays(observation) else None

    def act(self, observation: Mapping[str, Any], legal_actions: list[str]) -> str:
        reader = self.knows(observation)
        if reader is None:
            return self.rule.act(observation, legal_actions)
        steps = {action: reader.steps(action) for action in legal_actions}
        if None in steps.values():
            # An action the engine does not know (an accuso): the rule-based player says whether.
            ruled = self.rule.act(observation, legal_actions)
            if steps[ruled] is None:
                return ruled
        options = {action: s for action, s in steps.items() if s is not None}
        # The engine's actions one at a time, each the best by the values once the others are taken.
        taken: frozenset[int] = frozenset()
        while True:
            live = [action for action, s in options.items() if taken <= s]
            if all(options[action] == taken for action in live):
                # Bare where a card may be played with or without a signal.
                return min(live, key=lambda action: len(action.split()))
            values = self.values(observation, taken)
            best = max({p for action in live for p in options[action] - taken}, key=lambda p: values[p])
            taken |= {best}

    def runners_up(self, observation: Mapping[str, Any], legal_actions: list[str], choice: str) -> list[str]:
        """The other actions of one engine's action each (a card, a bid, a card called) by the
        network's values, best first; the rule-based player's for a choice of several cards (the
        scarto), of which the network values one card at a time, and where it does not play."""
        reader = self.knows(observation)
        if reader is None:
            return self.rule.runners_up(observation, legal_actions, choice)
        chosen = reader.steps(choice)
        single: dict[int, str] = {}  # an engine's action: the barest action taking it alone
        for action in sorted(legal_actions, key=lambda action: -len(action.split())):
            s = reader.steps(action)
            if s is not None and len(s) == 1 and s != chosen:
                single[min(s)] = action
        if not single:
            return self.rule.runners_up(observation, legal_actions, choice)
        values = self.values(observation)
        return [single[p] for p in sorted(single, key=lambda p: -values[p])]
