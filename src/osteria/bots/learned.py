"""A learned Tressette player: the card play of a network trained by Deep Monte-Carlo self-play.

The network (``examples/train_dmc_tressette.py`` trains it on the batched engine) reads the
observation of the seat to move as :mod:`osteria.envs.batched` lays it out, here rebuilt from
the seat's own observation, and values each card by the margin its side is expected to end the
deal with; the player plays the legal card it values most. The batched engine knows the card play
alone, so what is not a card (the accusi) is the rule-based player's choice, and a card is
played without a signal. It plays the classic game of four (a table col morto is the rule-based
player's). Its weights ship with the package (``weights/tressette_dmc.npz``, numpy arrays of float16); it
needs numpy (``osteria[rl]``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from osteria.bots.base import Bot
from osteria.bots.memory import CARD_OF
from osteria.bots.tressette import TressetteHeuristic
from osteria.cards import ITALIAN_40
from osteria.rules.tressette_family import DEAL_THIRDS

WEIGHTS = Path(__file__).with_name("weights") / "tressette_dmc.npz"
HIDDEN = (512, 256)  # the network's hidden layers
SEATS, CARDS = 4, 40
# The batched engine's observation layout for Tressette (BatchedTressette(n).layout), which the
# tests hold this copy to: numba is not needed to play.
OBS_HAND, OBS_TRICK, OBS_PLAYED, OBS_LEADER, OBS_POINTS, OBS_TRICKS = 0, 40, 200, 360, 364, 366
OBSERVATION_SIZE = 367
POSITION = {c: k for k, c in enumerate(ITALIAN_40.cards)}  # a card's deck position


@cache
def _weights(path: Path) -> list[tuple[Any, Any]]:
    import numpy as np

    with np.load(path) as arrays:
        layers = len(arrays.files) // 2
        # Stored as float16 to halve the package's file; computed in float32.
        return [(arrays[f"w{k}"].astype(np.float32), arrays[f"b{k}"].astype(np.float32)) for k in range(layers)]


def _card(action: str) -> int | None:
    """The card an action plays (a signal after it), None for an action that plays none."""
    return CARD_OF.get(action.split()[0])


def observation_vector(obs: Mapping[str, Any]) -> Any:
    """The batched engine's observation of the seat to move, from its Tressette observation."""
    import numpy as np

    me = obs["seat"]
    row = np.zeros(OBSERVATION_SIZE, np.float32)
    for text in obs["hand"]:
        row[OBS_HAND + POSITION[CARD_OF[text]]] = 1.0
    for seat, text in obs["trick"]:
        row[OBS_TRICK + CARDS * ((seat - me) % SEATS) + POSITION[CARD_OF[text]]] = 1.0
    for seat, action in obs["history"]:
        c = _card(action)
        if c is not None:
            row[OBS_PLAYED + CARDS * ((seat - me) % SEATS) + POSITION[c]] = 1.0
    row[OBS_LEADER + (obs["leader"] - me) % SEATS] = 1.0
    thirds = obs["thirds"]
    row[OBS_POINTS] = thirds[me % 2] / DEAL_THIRDS
    row[OBS_POINTS + 1] = thirds[1 - me % 2] / DEAL_THIRDS
    row[OBS_TRICKS] = obs["tricks_played"] / 10.0
    return row


def forward(layers: Sequence[tuple[Any, Any]], x: Any) -> Any:
    """The network's values of the 40 cards for observations ``x`` (rows), from its layers'
    weights and biases: each hidden layer's ReLU, the last layer's values as they are."""
    import numpy as np

    for k, (w, b) in enumerate(layers):
        x = x @ w.T + b
        if k < len(layers) - 1:
            x = np.maximum(x, 0.0)
    return x


def card_values(obs: Mapping[str, Any], path: Path = WEIGHTS) -> Any:
    """The network's value of each card (by deck position) for the seat to move."""
    return forward(_weights(path), observation_vector(obs))


class DmcTressette(Bot):
    name = "dmc"

    def __init__(self, weights: Path = WEIGHTS) -> None:
        self.weights = weights
        self.rule = TressetteHeuristic()

    def act(self, observation: Mapping[str, Any], legal_actions: list[str]) -> str:
        if observation.get("morto") or len(observation["hand_sizes"]) != SEATS:
            return self.rule.act(observation, legal_actions)
        if any(_card(action) is None for action in legal_actions):
            # An accuso may be declared: the rule-based player says whether, and which.
            ruled = self.rule.act(observation, legal_actions)
            if _card(ruled) is None:
                return ruled
        values = card_values(observation, self.weights)
        # Each legal card once, bare where it may be played without a signal.
        plays: dict[int, str] = {}
        for action in legal_actions:
            c = _card(action)
            if c is not None and (c not in plays or len(action.split()) == 1):
                plays[c] = action
        best = max(plays, key=lambda c: values[POSITION[c]])
        return plays[best]
