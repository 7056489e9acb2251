"""Every game as an OpenSpiel Python game: ``osteria_tressette``, ``osteria_calabresella``...

Importing this module registers them with ``pyspiel.register_game``; then
``pyspiel.load_game("osteria_traversone", {"players": 5})`` loads one. Parameters: ``players``
and the game's options that are a number, a word or true/false (Tressette's ``morto``, a list,
is not one). An OpenSpiel game is one deal, the first of a match (so the first-deal rules
apply: who holds the 4 of denari leads, in Quattrigghiu the 6 of denari speaks first).

The deal is made of chance nodes: first the dealer (one of the seats, uniformly), then the
cards, one chance node per card of the deck, each drawing uniformly among the cards still in
the pack; the first cards fill the hands in seat order, the rest is the stock as the game
lays it out (a widow, Sancagna's turned and bottom cards). Every deal is thus equally likely,
as at the table. A player's action is spelled a word a step (the parameter ``actions``,
``steps`` by default, :mod:`osteria.envs.actions`: a scarto is four steps of one card), or is
one step of the encoding's flat space with ``actions="whole"``. The observation tensor is the
encoding's vector and the words the player has chosen so far of its action; the
information-state tensor adds every action the seat has seen, in order (perfect recall). The
strings are the seat's observation as JSON (its words chosen so far as ``choosing``): the
information state with the whole history the seat saw, the observation without it.
``resample_from_infostate``
deals the hidden cards with the game's own exact sampler and replays the player's history on
them, so OpenSpiel's ISMCTS (or MCTS on sampled states) can search without peeking;
:class:`OsteriaBot` makes osteria's own bots OpenSpiel bots.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Sequence
from itertools import permutations
from typing import Any, cast

import numpy as np
import pyspiel  # type: ignore[import-not-found, unused-ignore]

from osteria.bots import make_bot
from osteria.cards import CARD_STRINGS
from osteria.engine import JSON, Deal, Game, RulesError
from osteria.envs.actions import ACTION_SPACES, ActionSpace, action_space
from osteria.envs.encoding import Encoding, Vector, encoding
from osteria.rules import GAMES

PREFIX = "osteria_"


def short_name(game: str) -> str:
    return PREFIX + game


# -- what OpenSpiel needs to know of each game ------------------------------------------------------

def _utility_range(rules: Game) -> tuple[float, float]:
    """The lowest and highest reward of one seat in one deal (sign-corrected where lower wins)."""
    low, high = rules.score_bounds()
    return (-float(high), -float(low)) if rules.lower_wins else (float(low), float(high))


def _scalar_options(cls: type[Game]) -> dict[str, JSON]:
    return {spec.name: spec.default for spec in cls.option_specs
            if isinstance(spec.default, (bool, int, float, str))}


def _game_type(name: str, cls: type[Game]) -> Any:
    zero_sum = cls.zero_sum
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"osteria {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(cls.seat_counts),
        min_num_players=min(cls.seat_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": cls.default_seats, "actions": ACTION_SPACES[0], **_scalar_options(cls)},
    )


class _Setup:
    """The rules and encoding of one loaded game: kept out of the states, which OpenSpiel
    deep-copies attribute by attribute on every clone."""

    def __init__(self, rules: Game, actions: str) -> None:
        self.rules = rules
        self.encoding: Encoding = encoding(rules.name, rules.seats, **rules.options)
        self.actions: ActionSpace = action_space(self.encoding, actions)
        self.sign = float(rules.sense)
        self.max_actions = rules.max_decisions()
        # The words a history's actions are made of (cards, signals, accusi, bids, a discard's
        # name): an action seen is the set of its words, which tells every action from another.
        self.history_words = {w: i for i, w in enumerate(self.encoding.parts)}
        # An engine action and its word are the same in every deal: remember them.
        self._word_of: dict[int, str] = {}
        self._engine_of: dict[str, int] = {}

    def word_of(self, deal: Deal, action: int) -> str:
        word = self._word_of.get(action)
        if word is None:
            word = self._word_of[action] = deal.action_str(action)
        return word

    def engine_of(self, deal: Deal, word: str) -> int:
        action = self._engine_of.get(word)
        if action is None:
            action = self._engine_of[word] = deal.parse_action(word)
        return action

    def legal_words(self, deal: Deal) -> list[str]:
        return [self.word_of(deal, a) for a in deal.legal()]


_SETUPS: dict[str, _Setup] = {}


def _setup_of(rules: Game, actions: str) -> str:
    key = json.dumps([rules.name, rules.seats, rules.options, actions], sort_keys=True)
    if key not in _SETUPS:
        _SETUPS[key] = _Setup(rules, actions)
    return key


class OsteriaGame(pyspiel.Game):  # type: ignore[misc]
    """One osteria game with its players and options."""

    game_name = "tressette"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.game_name
        params = dict(params or {})
        cls = GAMES[name]
        seats = int(params.pop("players", cls.default_seats))
        actions = str(params.pop("actions", ACTION_SPACES[0]))
        try:
            rules = cls(seats, **params)
            self.setup_key = _setup_of(rules, actions)
        except RulesError as exc:
            raise ValueError(str(exc)) from None
        setup = _SETUPS[self.setup_key]
        low, high = _utility_range(rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=setup.actions.size,
            max_chance_outcomes=max(len(rules.deck), seats),
            num_players=seats,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if rules.zero_sum else None,
            max_game_length=1 + len(rules.deck) + rules.max_decisions() * setup.actions.longest,
        )
        super().__init__(_game_type(name, cls), info, {"players": seats, "actions": actions, **{
            k: v for k, v in rules.options.items() if k in _scalar_options(cls)}})

    def new_initial_state(self) -> OsteriaState:
        return OsteriaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> OsteriaObserver:
        if params:
            raise ValueError(f"osteria observers take no parameters, not {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("osteria observes a game from one seat: only single-player private information")
        return OsteriaObserver(_SETUPS[self.setup_key], perfect_recall)


class OsteriaState(pyspiel.State):  # type: ignore[misc]
    """A deal in progress: its chance nodes (dealer, then each card), then the play."""

    def __init__(self, game: OsteriaGame) -> None:
        super().__init__(game)
        self.setup_key = game.setup_key
        self.dealer = -1
        self.drawn: list[int] = []  # deck indices, in drawing order
        self.deal: Deal | None = None
        self.chosen: list[str] = []  # the words the player to decide has chosen of its action

    @property
    def _setup(self) -> _Setup:
        return _SETUPS[self.setup_key]

    def current_player(self) -> int:
        deal = self.deal
        if deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        if deal.to_move is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return deal.decider(deal.to_move)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        rules = self._setup.rules
        if self.dealer < 0:
            return [(seat, 1.0 / rules.seats) for seat in range(rules.seats)]
        left = sorted(set(range(len(rules.deck))) - set(self.drawn))
        return [(c, 1.0 / len(left)) for c in left]

    def _legal_actions(self, player: int) -> list[int]:
        deal = self.deal
        assert deal is not None
        setup = self._setup
        return [int(i) for i in np.flatnonzero(setup.actions.mask(setup.legal_words(deal), self.chosen))]

    def _apply_action(self, action: int) -> None:
        deal = self.deal
        if deal is None:
            self._deal_card(action)
            return
        setup = self._setup
        self.chosen, word = setup.actions.choose(setup.legal_words(deal), self.chosen, action)
        if word is not None:
            deal.apply(setup.engine_of(deal, word))

    def _deal_card(self, outcome: int) -> None:
        rules = self._setup.rules
        if self.dealer < 0:
            self.dealer = outcome
            return
        self.drawn.append(outcome)
        if len(self.drawn) < len(rules.deck):
            return
        cards = [rules.deck.cards[i] for i in self.drawn]
        hands, start = [], 0
        for size in rules.hand_sizes():
            hands.append(sorted(cards[start:start + size]))
            start += size
        stock = rules.stock_from_rest(cards[start:])
        rules.check_deal(hands, stock)
        self.deal = rules.new_deal(0, self.dealer, hands, stock, [])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.dealer < 0:
                return f"dealer {action}"
            return f"deal {CARD_STRINGS[self._setup.rules.deck.cards[action]]}"
        return self._setup.actions.step_word(action)

    def is_terminal(self) -> bool:
        return self.deal is not None and self.deal.over

    def returns(self) -> list[float]:
        setup = self._setup
        if not self.is_terminal():
            return [0.0] * setup.rules.seats
        assert self.deal is not None
        return [setup.sign * d for d in self.deal.result().delta]

    def view(self, seat: int) -> dict[str, JSON]:
        """What ``seat`` sees, as ``Match.observation`` gives it in a match's first deal, and
        (``choosing``) the words it has chosen so far of its action, when it decides."""
        deal, rules = self.deal, self._setup.rules
        if deal is None:
            return {"game": rules.name, "seat": seat, "dealing": True}
        view = cast(dict[str, JSON], deal.observation(seat))  # a new dict on each call: extended here
        to_move = deal.to_move
        deciding = to_move is not None and deal.decider(to_move) == seat
        view.update(game=rules.name, options=dict(rules.options), players=[""] * rules.seats, seat=seat,
                    deal_index=0, results=[],
                    totals=[0] * rules.seats, finished=deal.over, to_move=to_move,
                    legal_actions=self._setup.legal_words(deal) if deciding else [],
                    choosing=self._own_choice(seat))
        return view

    def resample_from_infostate(self, player: int, sampler: Callable[[], float]) -> OsteriaState:
        """A state the player cannot tell from this one: the hidden cards dealt anew, uniformly
        among the deals consistent with all the player knows (the game's own sampler), and the
        actions hidden from it filled in. It is built from the player's view alone, through its
        whole history: the chance nodes of the sampled deal, then every action."""
        assert self.deal is not None, "nothing is hidden before the deal"
        rules = self._setup.rules
        deal, (dealer, hands, stock) = _sample_with_start(rules, self.view(player), random.Random(
            int(sampler() * 2**53)))
        new: OsteriaState = self.get_game().new_initial_state()
        seen = self.view(player).get("history")
        if isinstance(seen, list) and len(seen) < len(self.deal.history):
            # The player has forgotten the first tricks by rule (Quattrigghiu's basi): the sampler
            # lays out the position after them, which is not a play of the game, so no chance node
            # or action reaches it; the state holds that position with no history, and nothing of
            # the true deal.
            new.dealer, new.deal = dealer, deal
            new.chosen = self._own_choice(player)
            return new
        for outcome in deal_outcomes(rules, dealer, hands, stock):
            new.apply_action(outcome)
        actions = self._setup.actions
        for _, action in deal.history:
            assert new.deal is not None
            for step in actions.steps_of(deal.action_str(action), self._setup.legal_words(new.deal)):
                new.apply_action(step)
        for word in self._own_choice(player):
            new.apply_action(actions.step_index(word))
        return new

    def _own_choice(self, player: int) -> list[str]:
        """The words the player has chosen so far of its action: its own, hidden from the others."""
        return list(self.chosen) if self.current_player() == player else []

    def __str__(self) -> str:
        if self.deal is None:
            return f"dealing: {len(self.drawn)} cards drawn"
        return json.dumps({"to_move": self.deal.to_move,
                           "history": [[s, self.deal.action_str(a)] for s, a in self.deal.history]})


Start = tuple[int, list[list[int]], dict[str, list[int]]]  # the dealer, the hands, the stock


def _sample_with_start(rules: Game, view: dict[str, JSON], rng: random.Random) -> tuple[Deal, Start]:
    """``rules.sample_deal(view, rng)`` and the cards the sampled deal was dealt with. The game's
    sampler builds its deal with ``new_deal``, then replays the history: a copy of the rules
    whose ``new_deal`` also records its cards hears them (the last deal built is the one kept)."""
    starts: list[Start] = []

    def recording(index: int, dealer: int, hands: Sequence[Sequence[int]], stock: dict[str, Sequence[int]],
                  previous: Sequence[Any]) -> Deal:
        starts.append((dealer, [list(h) for h in hands], {role: list(c) for role, c in stock.items()}))
        return rules.new_deal(index, dealer, hands, stock, previous)

    probe = copy.copy(rules)
    setattr(probe, "new_deal", recording)  # noqa: B010 - mypy refuses to assign a method; the copy's own
    return probe.sample_deal(view, rng), starts[-1]


def deal_outcomes(rules: Game, dealer: int, hands: Sequence[Sequence[int]],
                  stock: dict[str, list[int]]) -> list[int]:
    """The chance outcomes that deal these cards: the dealer, then the cards in drawing order
    (the hands in seat order, then the stock as the game lays it out)."""
    def cards_by_role(stock: dict[str, list[int]]) -> dict[str, list[int]]:  # an empty role is no role
        return {role: sorted(cards) for role, cards in stock.items() if cards}

    position = {c: i for i, c in enumerate(rules.deck.cards)}
    laid_out = cards_by_role(stock)
    # The game decides where each card after the hands goes (a widow, a turned card...): find
    # an order of the stock's roles that it lays out so.
    for roles in permutations(laid_out):
        rest = [c for role in roles for c in stock[role]]
        if cards_by_role(rules.stock_from_rest(rest)) == laid_out:
            return [dealer, *(position[c] for hand in hands for c in hand), *(position[c] for c in rest)]
    raise ValueError(f"{rules.name}: no drawing order lays out the stock {stock}")


class OsteriaObserver:
    """OpenSpiel's PyObserver: a seat's vector (with, for the information state, every action
    the seat has seen, in order) and its observation as JSON."""

    def __init__(self, setup: _Setup, perfect_recall: bool) -> None:
        self.setup = setup
        self.perfect_recall = perfect_recall
        n, size = setup.rules.seats, setup.actions.observation_size
        history = (setup.max_actions, n + len(setup.history_words)) if perfect_recall else (0, 0)
        self.tensor: Vector = np.zeros(size + history[0] * history[1], np.float32)
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {"observation": self.tensor[:size]}
        if perfect_recall:
            self.dict["history"] = self.tensor[size:].reshape(history)

    def set_from(self, state: OsteriaState, player: int) -> None:
        self.tensor.fill(0)
        view = state.view(player)
        if state.deal is None:
            return
        self.dict["observation"][:] = self.setup.actions.observe(view, cast(list[str], view["choosing"]))
        if self.perfect_recall:
            self._fill_history(view["history"], player)

    def _fill_history(self, history: Sequence[Sequence[Any]], player: int) -> None:
        """Row k: the k-th action the seat has seen, its actor's relative seat and its words."""
        n, index = self.setup.rules.seats, self.setup.history_words
        rows = self.dict["history"]
        for k, (seat, text) in enumerate(history):
            rows[k, (seat - player) % n] = 1
            for word in text.split():
                rows[k, n + index[word]] = 1

    def string_from(self, state: OsteriaState, player: int) -> str:
        view = state.view(player)
        if not self.perfect_recall:
            view.pop("history", None)
        return json.dumps(view, sort_keys=True, separators=(",", ":"))


class OsteriaBot(pyspiel.Bot):  # type: ignore[misc]
    """An osteria bot by name (``pimc``, ``ismcts``, ``hybrid``, a level...) as an OpenSpiel bot
    for one player: it is given that player's observation and legal actions, never the state.
    Where an action takes several steps it chooses the whole action at its first step and
    spells it on (among the actions still open, should it find one half chosen)."""

    def __init__(self, game: OsteriaGame, player: int, name: str, seed: int | str | None = None) -> None:
        pyspiel.Bot.__init__(self)
        self.setup = _SETUPS[game.setup_key]
        self.player = player
        self.bot = make_bot(name, game=self.setup.rules.name, seed=seed)
        self.spelling: str | None = None  # the action it is spelling, step by step

    def step(self, state: OsteriaState) -> int:
        view = state.view(self.player)
        actions, chosen = self.setup.actions, cast(list[str], view["choosing"])
        open_actions = actions.reachable(cast(list[str], view["legal_actions"]), chosen)
        if self.spelling not in open_actions or not chosen:
            self.spelling = self.bot.act(view, open_actions)
        return actions.next_step(self.spelling, chosen)

    def restart_at(self, state: OsteriaState) -> None:
        """Nothing to forget but the action being spelled: the bot reads each observation afresh."""
        self.spelling = None


def register() -> list[str]:
    """Register every game with OpenSpiel (once); their short names."""
    registered = set(pyspiel.registered_names())
    for name, cls in GAMES.items():
        if short_name(name) not in registered:
            # A class per game, as OpenSpiel expects of a Python game's factory.
            game_class = type(f"Osteria{name.capitalize()}Game", (OsteriaGame,), {"game_name": name})
            pyspiel.register_game(_game_type(name, cls), game_class)
    return [short_name(name) for name in GAMES]


register()
