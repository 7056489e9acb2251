"""The reduced games of :mod:`osteria.rules.reduced` as OpenSpiel games, for exact methods.

Importing this module registers them: ``pyspiel.load_game("osteria_mini_tressette",
{"suits": 3, "ranks": "A23", "hand": 3})``, ``osteria_mini_sancagna``,
``osteria_mini_quattrigghiu``. Unlike the full games' wrapper
(:mod:`osteria.envs.openspiel`), which draws the cards one chance node each, a reduced game is
dealt by one chance node whose outcomes are every deal, each equally likely: a tabular method
walks every chance outcome, and drawing the cards one by one would walk each deal once per
order of its cards. An action is the index of the game's action in ``ReducedGame.actions``.
The information-state string of a seat is its hand as dealt and every action since, all of
them public (perfect recall); the observation string is what the seat sees now. Neither has
a tensor: these games are for tabular methods.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found, unused-ignore]

from osteria.cards import CARD_STRINGS
from osteria.engine import Deal, RulesError
from osteria.rules.reduced import Hands, MiniQuattrigghiu, MiniSancagna, MiniTressette, ReducedGame

Parameters = dict[str, Any]
# Each reduced game: its OpenSpiel name, its default parameters, and its rules from them.
REDUCED: dict[str, tuple[Parameters, Callable[..., ReducedGame]]] = {
    "osteria_mini_tressette": ({"suits": 3, "ranks": "A23", "hand": 3}, MiniTressette),
    "osteria_mini_sancagna": ({"suits": 3, "ranks": "34R", "hand": 2}, MiniSancagna),
    "osteria_mini_quattrigghiu": ({"suits": 3, "ranks": "A2R", "hand": 2, "matador": True}, MiniQuattrigghiu),
}


def _game_type(name: str, defaults: Parameters) -> Any:
    return pyspiel.GameType(
        short_name=name,
        long_name=name.replace("_", " "),
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=defaults,
    )


class ReducedOpenSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A reduced game with its parameters."""

    short_name = "osteria_mini_tressette"

    def __init__(self, params: Parameters | None = None) -> None:
        defaults, make = REDUCED[self.short_name]
        params = {**defaults, **(params or {})}
        try:
            self.rules = make(**params)
        except RulesError as exc:
            raise ValueError(str(exc)) from None
        self.deals: list[Hands] = self.rules.deals()
        self.index_of = {action: i for i, action in enumerate(self.rules.actions)}
        most = self.rules.max_returns()
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.rules.actions),
            max_chance_outcomes=len(self.deals),
            num_players=self.rules.seats,
            min_utility=-most,
            max_utility=most,
            utility_sum=0.0,
            max_game_length=self.rules.max_decisions(),
        )
        super().__init__(_game_type(self.short_name, defaults), info, params)

    def new_initial_state(self) -> ReducedState:
        return ReducedState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Parameters | None = None) -> ReducedObserver:
        if params:
            raise ValueError(f"osteria observers take no parameters, not {params}")
        if iig_obs_type is not None and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("osteria observes a game from one seat: only single-player private information")
        return ReducedObserver(iig_obs_type is None or bool(iig_obs_type.perfect_recall))


class ReducedState(pyspiel.State):  # type: ignore[misc]
    """A deal: the chance node that deals it, then its actions."""

    def __init__(self, game: ReducedOpenSpielGame) -> None:
        super().__init__(game)
        self.deal: Deal | None = None
        self.dealt: list[str] = []  # each seat's view as dealt, as JSON

    def _game(self) -> ReducedOpenSpielGame:
        game: ReducedOpenSpielGame = self.get_game()
        return game

    def current_player(self) -> int:
        if self.deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.deal.to_move is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.deal.to_move

    def chance_outcomes(self) -> list[tuple[int, float]]:
        count = len(self._game().deals)
        return [(i, 1.0 / count) for i in range(count)]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.deal is not None
        index_of = self._game().index_of
        return sorted(index_of[a] for a in self.deal.legal())

    def _apply_action(self, action: int) -> None:
        game = self._game()
        if self.deal is None:
            self.deal = game.rules.new_deal(game.deals[action])
            self.dealt = [json.dumps(self.deal.observation(seat), sort_keys=True) for seat in range(game.rules.seats)]
        else:
            self.deal.apply(game.rules.actions[action])

    def _action_to_string(self, player: int, action: int) -> str:
        game = self._game()
        if player == pyspiel.PlayerId.CHANCE:
            return "deal " + " | ".join(" ".join(CARD_STRINGS[c] for c in hand) for hand in game.deals[action])
        assert self.deal is not None
        return self.deal.action_str(game.rules.actions[action])

    def is_terminal(self) -> bool:
        return self.deal is not None and self.deal.over

    def returns(self) -> list[float]:
        game = self._game()
        if self.deal is None or not self.deal.over:
            return [0.0] * game.rules.seats
        return game.rules.returns(self.deal)

    def information_state(self, seat: int) -> str:
        """The seat's hand as dealt and every action since (all public), in order."""
        if self.deal is None:
            return f"{seat} dealing"
        actions = " ".join(f"{actor}:{self.deal.action_str(a)}" for actor, a in self.deal.history)
        return f"{seat} {self.dealt[seat]} {actions}"

    def observation(self, seat: int) -> str:
        if self.deal is None:
            return f"{seat} dealing"
        return f"{seat} {json.dumps(self.deal.observation(seat), sort_keys=True)}"

    def __str__(self) -> str:
        if self.deal is None:
            return "dealing"
        return json.dumps({"hands": [self.deal.observation(s)["hand"] for s in range(self.deal.seats)],
                           "history": [[s, self.deal.action_str(a)] for s, a in self.deal.history]})


class ReducedObserver:
    """OpenSpiel's PyObserver: a seat's strings, no tensor."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}

    def set_from(self, state: ReducedState, player: int) -> None:
        """No tensor to fill."""

    def string_from(self, state: ReducedState, player: int) -> str:
        return state.information_state(player) if self.perfect_recall else state.observation(player)


def register() -> list[str]:
    """Register every reduced game with OpenSpiel (once); their names."""
    registered = set(pyspiel.registered_names())
    for name, (defaults, _) in REDUCED.items():
        if name not in registered:
            # A class per game, as OpenSpiel expects of a Python game's factory.
            game_class = type(f"Reduced_{name}", (ReducedOpenSpielGame,), {"short_name": name})
            pyspiel.register_game(_game_type(name, defaults), game_class)
    return list(REDUCED)


register()


def efg(game: ReducedOpenSpielGame) -> str:
    """The game's whole tree in Gambit's extensive form, which ``pyspiel.load_efg_game`` loads
    as a C++ game: its information sets are the Python game's information-state strings, so
    OpenSpiel's C++ solvers (``pyspiel.CFRPlusSolver``, ``pyspiel.exploitability``) solve the
    same game at C++ speed."""
    infosets: list[dict[str, int]] = [{} for _ in range(game.num_players())]
    lines = [f'EFG 2 R "{game.get_type().short_name}" {{ "seat 0" "seat 1" }}', ""]
    outcomes = 0

    def walk(state: ReducedState, depth: int) -> None:
        nonlocal outcomes
        indent = "  " * depth
        if state.is_terminal():
            outcomes += 1
            payoffs = " ".join(repr(r) for r in state.returns())
            lines.append(f'{indent}t "" {outcomes} "" {{ {payoffs} }}')
            return
        player = state.current_player()
        actions = state.legal_actions()
        if state.is_chance_node():
            count = len(actions)
            branches = " ".join(f'"{a}" 1/{count}' for a in actions)
            lines.append(f'{indent}c "" 1 "" {{ {branches} }} 0')
        else:
            key = state.information_state_string(player)
            number = infosets[player].setdefault(key, len(infosets[player]) + 1)
            names = " ".join(f'"{state.action_to_string(player, a)}"' for a in actions)
            lines.append(f'{indent}p "" {player + 1} {number} "" {{ {names} }} 0')
        for action in actions:
            walk(state.child(action), depth + 1)

    walk(game.new_initial_state(), 0)
    return "\n".join(lines) + "\n"
