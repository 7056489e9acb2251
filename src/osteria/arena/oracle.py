"""The arena's oracle: it CHEATS, seeing every hand and the shuffles to come, to mark the ceiling
that honest play is measured against. It is handed the match itself, which no bot ever is, and
is never a bot for people or tables. ``oracle-play`` cheats in the card play alone (every other
decision the rule-based player's): beside the oracle's own line, it tells how much of the
oracle's lead is its card play and how much the rest (bids, calls, discards, call-outs).

It values every option of a decision on the true deal, in the unit the arena scores a board in
(the seat's deltas over the board's deals: a deal, or a Sancagna smazzata), and plays the best,
``Game.sense`` deciding which way is best:

- a decision of the card play that offers only cards (a lead signal is its card), where the deal
  has two sides: in the card play's own terms, exactly by the double-dummy solver from the first
  card, and by many random playouts where a solve exceeds its budget (``PimcBot.solved_values``,
  ``PimcBot.playout_values``);
- where each plays for himself (Traversone), every card by its continuation with every later
  decision the rule-based player's (as below, with no solve). The rule-based player is
  deterministic, so that is each card's exact outcome against rule-based opponents. The solver's
  view there has all the others play against the seat, which judged worse: 300 boards against
  the rule-based player gave the oracle +0.430 +- 0.208 points a deal with random playouts and
  the solver's endings, and +1.537 +- 0.182 with continuations (+0.388 +- 0.228 with the
  solver's endings after them);
- every other decision (bids, calls, cedo, discards, sola, sulità, aiuto, tutità, fuori or
  avanti, a turn that offers an accuso or a cenno beside its cards) by its continuation: the
  option applied to a copy of the match, the match played on to the end of the board, and the
  seat's deltas summed. In the continuation every card of the card play is the solver's: where
  the solver counts the result itself (``Game.solver_unit`` is None) one solve of the card play
  gives the deal's delta; elsewhere (Sancagna's card points) each card is
  the solver's best for the seat that plays it, the deal played out card by card and the board
  on to its end (the next deal of a smazzata is the true one). Every decision of the
  continuation that is not the solver's (bids, discards, fuori, and the accusi and cenni the
  solver leaves aside) is the rule-based player's, from the deciding seat's observation, the
  oracle's own later ones included: recursing would multiply the solves by the options of every
  later decision (a call's cedo and discard: 12 x 1,365), and since the rule-based player's
  choice is always among the options the oracle weighs, the oracle's later choice is valued at
  least as high as the one its earlier decision was valued with.

Bounds: a decision weighs the rule-based player's choice and at most ``BREADTH - 1`` others,
one of each other kind first (passing, calling, playing alone...), the best the rule rates of
its kind, then those it rates next to its choice (``Bot.runners_up``: at Calabresella's scarto
its discard with one card swapped, at Quattrigghiu's call each suit's best call and sulità),
then any drawn at random (Calabresella's 1,365 discards: 40 of them), never the lot; it stops
weighing further options once ``DECISION_SECONDS`` have passed (the rule-based player's choice
is weighed first), and each solve has a node budget, ``MAX_NODES``. Where a solve does not
finish within it, the decision values all its options again by playouts in which the
rule-based player plays every seat to the board's end, so that its values stay comparable. A
turn with a single legal action is played at once. Where a game has no rule-based player, every
decision is the card play's.
"""

from __future__ import annotations

import random
import time
from typing import Any

from osteria.bots import HEURISTICS, Bot
from osteria.bots.hybrid import candidates
from osteria.bots.pimc import WIDEST, PimcBot
from osteria.bots.solver import Solver
from osteria.engine import Deal, Match
from osteria.rules import GAMES

# The most options one decision weighs.
BREADTH = WIDEST
# Past this many seconds a decision weighs no further option.
DECISION_SECONDS = 3.0
# The node budget of each solve in a continuation, and of the card play's own decisions, which
# the solver values from the first card (a whole Tressette deal takes it tens of milliseconds).
# A decision beyond it is valued by random playouts.
MAX_NODES = 2_000_000


class OraclePlayer:
    """CHEATS: it sees every hand. The arena's upper bound, never a bot for people or tables.
    ``card_play_only``: it cheats in the card play alone and makes every other decision as the
    rule-based player does (``oracle-play``)."""

    def __init__(self, game: str, *, card_play_only: bool = False) -> None:
        self.name = "oracle-play" if card_play_only else "oracle"
        self.card_play_only = card_play_only
        self.heuristic: Bot | None = HEURISTICS[game]() if game in HEURISTICS else None
        self.deck_size = len(GAMES[game].deck.cards)
        self.valuer: PimcBot | None = None
        self.rng = random.Random()
        self.solver = Solver(MAX_NODES)

    def begin_match(self, seat: int, seed: str) -> None:
        self.valuer = PimcBot(seed, max_nodes=MAX_NODES, solve_cards=self.deck_size, playouts=24)
        self.rng = random.Random(seed)

    def choose(self, match: Match, seat: int) -> str:
        deal = match.deal
        assert deal is not None and deal.to_move is not None
        assert self.valuer is not None
        actions = {deal.action_str(a): a for a in deal.legal()}
        if len(actions) == 1:
            return next(iter(actions))
        sense = match.game.sense
        if self.heuristic is not None and not self.card_play_choice(deal, actions):
            if self.card_play_only:
                return self.rule_choice(match, seat)
            values = self.option_values(match, seat, actions)
            return max(values, key=lambda text: sense * values[text])
        if len(actions) > WIDEST:
            actions = dict(self.valuer.rng.sample(sorted(actions.items()), WIDEST))
        if self.heuristic is not None and not two_sides(deal, deal.to_move):
            values = {text: self.playout(match, seat, a) for text, a in actions.items()}
        else:
            values = (self.valuer.solved_values(deal, actions, deal.to_move)
                      or self.valuer.playout_values(deal, actions, deal.to_move))
        return max(values, key=lambda text: sense * values[text])

    @staticmethod
    def card_play_choice(deal: Deal, actions: dict[str, int]) -> bool:
        """Whether a decision is one of cards alone, in the card play, with no stake beyond it."""
        return (deal.in_card_play and not deal.stake_beyond_play()
                and all(deal.card_of(a) is not None for a in actions.values()))

    def option_values(self, match: Match, seat: int, actions: dict[str, int]) -> dict[str, float]:
        """The value for ``seat`` of the options it weighs (see the module's docstring): by the
        solver's continuations, or, where a solve does not finish, by the rule-based player's."""
        assert self.heuristic is not None
        observation = match.observation(seat)
        legal = observation["legal_actions"]
        proposal = self.heuristic.act(observation, legal)
        # The options the rule rates next to its own come before any drawn at random: where the
        # options are many (Calabresella's discards), those are the ones worth weighing.
        weighed = candidates(proposal, list(actions), BREADTH, self.rng,
                             self.heuristic.runners_up(observation, legal, proposal))
        deadline = time.perf_counter() + DECISION_SECONDS
        values: dict[str, float] = {}
        for text in weighed:
            if values and time.perf_counter() > deadline:
                break
            value = self.continuation(match, seat, actions[text], solve=True)
            if value is None:  # beyond the solver's budget: the options reached, by playouts instead
                return {t: self.playout(match, seat, actions[t]) for t in weighed[:len(values) + 1]}
            values[text] = value
        return values

    def rule_choice(self, match: Match, seat: int) -> str:
        """What the rule-based player chooses for ``seat`` from its own observation of ``match``."""
        assert self.heuristic is not None
        observation = match.observation(seat)
        return self.heuristic.act(observation, observation["legal_actions"])

    def playout(self, match: Match, seat: int, action: int) -> float:
        """The seat's deltas to the end of the board, ``action`` played on a copy of the match and
        every later decision the rule-based player's."""
        value = self.continuation(match, seat, action, solve=False)
        assert value is not None  # nothing to solve, nothing unfinished
        return value

    def continuation(self, match: Match, seat: int, action: int, *, solve: bool) -> float | None:
        """The seat's deltas from the current deal to the end of the board, ``action`` played on
        a copy of the match and the rest as the module's docstring says (``solve`` false: every
        decision the rule-based player's); None where a solve did not finish."""
        assert self.heuristic is not None
        board = match.copy()
        first = len(board.results)
        board.apply(action)
        over = board.game.board_over
        solver_counts_result = board.game.solver_unit is None
        while True:
            if board.deal_due:
                if board.finished or over(board.results):
                    return sum(r.delta[seat] for r in board.results[first:])
                board.begin_deal()
            deal = board.deal
            assert deal is not None and deal.to_move is not None
            if solve and deal.in_card_play and not deal.stake_beyond_play():
                solution = self.solver.solve(deal, seat if solver_counts_result else deal.to_move)
                if not solution.exact:
                    return None
                if solver_counts_result:
                    return solution.value + sum(r.delta[seat] for r in board.results[first:])
                plays = [a for a in deal.legal() if deal.card_of(a) == solution.best]
                if plays:  # the bare card: the lowest of its actions (a signal adds to it)
                    board.apply(min(plays))
                    continue
            decider = board.decider
            assert decider is not None
            board.play(self.rule_choice(board, decider))

    def end_match(self) -> list[dict[str, Any]]:
        return []

    def close(self) -> None:
        pass


def two_sides(deal: Deal, seat: int) -> bool:
    """Whether the seats other than ``seat``'s side play for one side."""
    others = [s for s in range(deal.seats) if not deal.same_side(seat, s)]
    return not others or all(deal.same_side(others[0], s) for s in others[1:])
