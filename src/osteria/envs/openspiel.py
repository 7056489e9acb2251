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
``make_py_observer`` serves every ``pyspiel.IIGObservationType`` (:class:`OsteriaObserver`):
the public observation, one for every player and a spectator, and all players' observations,
every hand. The parameter ``returns`` (``points`` by default, or ``margin``) makes the returns
the deal's points or each seat's margin over the other side, a zero-sum game.
``resample_from_infostate`` deals the hidden cards with the game's own exact sampler and replays the player's history on
them, so OpenSpiel's ISMCTS (or MCTS on sampled states) can search without peeking;
:class:`OsteriaBot` makes osteria's own bots OpenSpiel bots.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from itertools import permutations
from typing import Any, cast

import numpy as np
import pyspiel  # type: ignore[import-not-found, unused-ignore]

from osteria.bots import Bot, make_bot
from osteria.cards import CARD_STRINGS
from osteria.engine import JSON, Deal, Game, RulesError, public_view
from osteria.envs.actions import ACTION_SPACES, ActionSpace, Choice, action_space
from osteria.envs.encoding import Encoding, Vector, encoding
from osteria.envs.live import LiveEncoding
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


# What a player's return is: the deal's points (its delta, sign-corrected), or its margin over
# the other side, which sums to zero.
RETURNS = ("points", "margin")


def _game_type(name: str, cls: type[Game], returns: str = RETURNS[0]) -> Any:
    zero_sum = cls.zero_sum or returns == "margin"
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
        parameter_specification={"players": cls.default_seats, "actions": ACTION_SPACES[0], "returns": RETURNS[0],
                                 **_scalar_options(cls)},
    )


class _Setup:
    """The rules and encoding of one loaded game: kept out of the states, which OpenSpiel
    deep-copies attribute by attribute on every clone."""

    def __init__(self, rules: Game, actions: str, returns: str) -> None:
        if returns not in RETURNS:
            raise RulesError(f"returns must be one of {', '.join(RETURNS)}, not {returns!r}")
        self.rules = rules
        self.margin = returns == "margin" and not rules.zero_sum  # a zero-sum deal's points are its margins
        self.encoding: Encoding = encoding(rules.name, rules.seats, **rules.options)
        self.actions: ActionSpace = action_space(self.encoding, actions)
        self.sign = float(rules.sense)
        self.max_actions = rules.max_decisions()
        # The words a history's actions are made of (cards, signals, accusi, bids, a discard's
        # name): an action seen is the set of its words, which tells every action from another.
        self.history_words = {w: i for i, w in enumerate(self.encoding.parts)}
        # An engine action and its word are the same in every deal: remember them.
        self._word_of: dict[int, str] = {}

    def word_of(self, deal: Deal, action: int) -> str:
        word = self._word_of.get(action)
        if word is None:
            word = self._word_of[action] = deal.action_str(action)
        return word

    def legal_words(self, deal: Deal) -> list[str]:
        return [self.word_of(deal, a) for a in deal.legal()]

    def returns(self, deal: Deal) -> list[float]:
        """Each seat's reward for the finished deal: its points, or its margin (its side's
        points, a seat's mean, minus the other seats' mean: the side's minus the other side's
        in a partnership, one's own minus the others' mean where each plays for himself)."""
        points = [self.sign * d for d in deal.result().delta]
        if not self.margin:
            return points
        seats = range(len(points))
        margins = []
        for seat in seats:
            own = [points[s] for s in seats if deal.same_side(seat, s)]
            others = [points[s] for s in seats if not deal.same_side(seat, s)]
            margins.append(sum(own) / len(own) - (sum(others) / len(others) if others else 0.0))
        return margins

    def utility_range(self) -> tuple[float, float]:
        """The lowest and highest reward of one seat in one deal."""
        low, high = _utility_range(self.rules)
        return (low - high, high - low) if self.margin else (low, high)


_SETUPS: dict[str, _Setup] = {}


def _setup_of(rules: Game, actions: str, returns: str) -> str:
    key = json.dumps([rules.name, rules.seats, rules.options, actions, returns], sort_keys=True)
    if key not in _SETUPS:
        _SETUPS[key] = _Setup(rules, actions, returns)
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
        returns = str(params.pop("returns", RETURNS[0]))
        try:
            rules = cls(seats, **params)
            self.setup_key = _setup_of(rules, actions, returns)
        except RulesError as exc:
            raise ValueError(str(exc)) from None
        setup = _SETUPS[self.setup_key]
        low, high = setup.utility_range()
        info = pyspiel.GameInfo(
            num_distinct_actions=setup.actions.size,
            max_chance_outcomes=max(len(rules.deck), seats),
            num_players=seats,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if rules.zero_sum or setup.margin else None,
            max_game_length=1 + len(rules.deck) + rules.max_decisions() * setup.actions.longest,
        )
        options = {k: v for k, v in rules.options.items() if k in _scalar_options(cls)}
        super().__init__(_game_type(name, cls, returns), info,
                         {"players": seats, "actions": actions, "returns": returns, **options})

    def new_initial_state(self) -> OsteriaState:
        return OsteriaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> OsteriaObserver:
        if params:
            raise ValueError(f"osteria observers take no parameters, not {params}")
        return OsteriaObserver(_SETUPS[self.setup_key], iig_obs_type)


class FirstDeal:
    """A state's deal as the live encoding reads a match: the first deal, no totals before it."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self._totals = [0] * deal.seats

    @property
    def to_move(self) -> int | None:
        return self.deal.to_move

    def totals(self) -> list[int]:
        return self._totals


class OsteriaState(pyspiel.State):  # type: ignore[misc]
    """A deal in progress: its chance nodes (dealer, then each card), then the play."""

    def __init__(self, game: OsteriaGame) -> None:
        super().__init__(game)
        self.setup_key = game.setup_key
        self.dealer = -1
        self.drawn: list[int] = []  # deck indices, in drawing order
        self.deal: Deal | None = None
        self.chosen: list[str] = []  # the words the player to decide has chosen of its action
        self._choice: Choice | None = None  # its choice after them, made when first asked

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

    def _decision(self) -> Choice:
        """The player's choice on the engine's integers after its words chosen so far."""
        choice = self._choice
        if choice is None:
            assert self.deal is not None
            choice = self._choice = self._setup.actions.decision(self.deal).after(self.chosen)
        return choice

    def _legal_actions(self, player: int) -> list[int]:
        return self._decision().steps()

    def _apply_action(self, action: int) -> None:
        deal = self.deal
        if deal is None:
            self._deal_card(action)
            return
        after = self._decision().choose(action, self.chosen)
        if isinstance(after, Choice):
            actions = self._setup.actions
            self._choice, self.chosen = after, actions.extended(self.chosen, actions.step_word(action))
        else:
            self._choice, self.chosen = None, []
            deal.apply(after)

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
        return setup.returns(self.deal)

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
    """``rules.sample_deal(view, rng)`` and the cards the sampled deal was dealt with."""
    deal = rules.sample_deal(view, rng)
    hands, stock = deal.dealt_cards()
    return deal, (deal.dealer, hands, stock)


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


Tensor = np.ndarray[Any, np.dtype[np.float32]]


class OsteriaObserver:
    """OpenSpiel's PyObserver, for every ``IIGObservationType``. A seat's vector is the
    encoding's (and the words it has chosen so far of its action), with, under perfect recall,
    every action the seat has seen, in order. What is public is what every seat's vector (or
    view) shows alike; what is private to a seat is the rest of its own. So the observer gives,
    for ``private_info``:

    - ``SINGLE_PLAYER``: the player's vector, or only its private part without public info;
    - ``ALL_PLAYERS``: every seat's vector one after the other (the player's first, then in
      playing order; seats counted from the player), or only their private parts: every hand;
    - ``NONE``: the public vector, its seats counted from seat 0 so that it is one for every
      player (nothing without public info).

    The strings are the views as JSON: the seat's (Match.observation's), the public one (a
    watcher's: :func:`osteria.engine.public_view`), and for all players every seat's in seat
    order; without public info, only the entries that the public view does not show alike."""

    def __init__(self, setup: _Setup, iig_obs_type: Any) -> None:
        self.setup = setup
        if iig_obs_type is None:  # OpenSpiel's default observation
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.public_info = bool(iig_obs_type.public_info)
        self.private_info = iig_obs_type.private_info
        n, size = setup.rules.seats, setup.actions.observation_size
        self.history_shape = (setup.max_actions, n + len(setup.history_words)) if self.perfect_recall else (0, 0)
        self.seat_size = size + self.history_shape[0] * self.history_shape[1]
        self.views = {pyspiel.PrivateInfoType.NONE: 1 if self.public_info else 0,
                      pyspiel.PrivateInfoType.SINGLE_PLAYER: 1,
                      pyspiel.PrivateInfoType.ALL_PLAYERS: n}[self.private_info]
        self.tensor: Tensor = np.zeros(self.views * self.seat_size, np.float32)
        self._live = LiveEncoding(setup.encoding, room=size - setup.encoding.observation_size)
        self._followed: OsteriaState | None = None
        self._first: dict[int, Tensor] = {}  # each player's tensor at the first chance node
        self.dict: dict[str, Tensor] = {}
        if self.views:
            by_seat = self.tensor.reshape(self.views, self.seat_size)
            shape = (n,) if self.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS else ()
            self.dict["observation"] = by_seat[:, :size].reshape(*shape, size)
            if self.perfect_recall:
                self.dict["history"] = by_seat[:, size:].reshape(*shape, *self.history_shape)

    def set_from(self, state: OsteriaState, player: int) -> None:
        if not self.views:
            return
        if state.dealer < 0:
            # The first chance node, nothing dealt: OpenSpiel writes one for every tensor's size,
            # so at every state's observation_tensor(); it is the same every time.
            first = self._first.get(player)
            if first is None:
                self._write(state, player)
                self._first[player] = self.tensor.copy()
            else:
                self.tensor[:] = first
            return
        self._write(state, player)

    def _write(self, state: OsteriaState, player: int) -> None:
        """Write the player's tensor of a state."""
        n, single = self.setup.rules.seats, self.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if single and self.public_info:  # the usual case: no other seat read
            if state.deal is not None and not self.perfect_recall:
                self.tensor[:] = self._live_vector(state, player)
            else:
                self.tensor[:] = self._vector(state.view(player), player)
            return
        frame = 0 if self.private_info == pyspiel.PrivateInfoType.NONE else player
        views = [state.view(seat) for seat in range(n)]
        shared = [self._vector(view, frame) for view in _shared_events(views)]
        public = np.where((np.stack(shared) == shared[0]).all(axis=0), shared[0], 0)
        if self.private_info == pyspiel.PrivateInfoType.NONE:
            self.tensor[:] = public
            return
        seen = [self._vector(views[(player + k) % n], frame) for k in range(1 if single else n)]
        if not self.public_info:
            seen = [np.where(vector == public, 0, vector) for vector in seen]
        self.tensor[:] = np.concatenate(seen)

    def _live_vector(self, state: OsteriaState, player: int) -> Vector:
        """The player's vector, as ``_vector`` encodes its view, written by a live encoding
        that follows the last state asked (a state moves only forward, and its history is taken
        once; another state is followed afresh)."""
        if state is not self._followed:
            assert state.deal is not None
            self._live.follow(FirstDeal(state.deal))
            self._followed = state
        vector = self._live.vector(player)
        if state.current_player() == player:  # its words chosen so far: its own
            self.setup.actions.show_chosen(vector, state.chosen)
        return vector

    def _vector(self, view: dict[str, JSON], frame: int) -> Vector:
        """A seat's vector, its seats counted from ``frame``."""
        vector = np.zeros(self.seat_size, np.float32)
        if view.get("dealing"):
            return vector
        size = self.setup.actions.observation_size
        vector[:size] = self.setup.actions.observe({**view, "seat": frame}, cast(list[str], view["choosing"]))
        if self.perfect_recall:
            self._fill_history(vector[size:].reshape(self.history_shape),
                               cast(list[list[Any]], view["history"]), frame)
        return vector

    def _fill_history(self, rows: Tensor, history: Sequence[Sequence[Any]], frame: int) -> None:
        """Row k: the k-th action seen, its actor's seat counted from ``frame``, and its words."""
        n, index = self.setup.rules.seats, self.setup.history_words
        for k, (seat, text) in enumerate(history):
            rows[k, (seat - frame) % n] = 1
            for word in text.split():
                rows[k, n + index[word]] = 1

    def string_from(self, state: OsteriaState, player: int) -> str:
        if not self.views:
            return ""
        n = self.setup.rules.seats
        if self.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER and self.public_info:
            return _json(self._view(state, player))
        views = [self._view(state, seat) for seat in range(n)]
        public = public_view(_shared_events(views))
        # Whether the player to move has begun spelling an action is its own: nobody else sees it.
        public["choosing"] = []
        if self.private_info == pyspiel.PrivateInfoType.NONE:
            return _json(public)
        if not self.public_info:
            views = [{key: value for key, value in view.items() if public.get(key) != value} for view in views]
        if self.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return _json(views[player])
        return _json({"seat": player, "views": views})

    def _view(self, state: OsteriaState, seat: int) -> dict[str, JSON]:
        view = state.view(seat)
        if not self.perfect_recall:
            view.pop("history", None)
        return view


def _is_events(value: JSON) -> bool:
    """Whether a value is a list of things done by seats, each ``[seat, what]`` (the history, the
    accusi, Sancagna's cenni...)."""
    return isinstance(value, list) and all(
        isinstance(item, list) and len(item) == 2 and isinstance(item[0], int) for item in value)


def _shared_events(views: Sequence[dict[str, JSON]]) -> list[dict[str, JSON]]:
    """The views with each list of events cut to the events that every view shows, in order.
    Compared item by item, two lists would be alike or not as hidden events fall (a side's
    cenni, seen by its partner alone, shift the history of that side's seats only): their
    common events are what every seat sees whatever was hidden."""
    keys = [key for key in views[0] if all(_is_events(view.get(key)) for view in views)]
    shared = [dict(view) for view in views]
    for key in keys:
        common = cast(list[JSON], views[0][key])
        for view in views[1:]:
            common = _common_subsequence(common, cast(list[JSON], view[key]))
        for view in shared:
            view[key] = common
    return shared


def _common_subsequence(a: list[JSON], b: list[JSON]) -> list[JSON]:
    """The longest list of items that both lists hold in this order."""
    if a == b:
        return a
    # lengths[i][j]: the longest common subsequence of a[i:] and b[j:].
    lengths = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) - 1, -1, -1):
        for j in range(len(b) - 1, -1, -1):
            lengths[i][j] = (lengths[i + 1][j + 1] + 1 if a[i] == b[j]
                             else max(lengths[i + 1][j], lengths[i][j + 1]))
    common, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        if a[i] == b[j]:
            common.append(a[i])
            i, j = i + 1, j + 1
        elif lengths[i + 1][j] >= lengths[i][j + 1]:
            i += 1
        else:
            j += 1
    return common


def _json(view: JSON) -> str:
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


class OsteriaBot(pyspiel.Bot):  # type: ignore[misc]
    """An osteria bot, by name (``pimc``, ``ismcts``, ``hybrid``, a level...) or built with its
    own settings (``PimcBot(seed, samples=50)``), as an OpenSpiel bot for one player: it is
    given that player's observation and legal actions, never the state. Where an action takes
    several steps it chooses the whole action at its first step and spells it on (among the
    actions still open, should it find one half chosen)."""

    def __init__(self, game: OsteriaGame, player: int, bot: str | Bot, seed: int | str | None = None) -> None:
        pyspiel.Bot.__init__(self)
        self.setup = _SETUPS[game.setup_key]
        self.player = player
        self.bot = make_bot(bot, game=self.setup.rules.name, seed=seed) if isinstance(bot, str) else bot
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
