"""Hints during play and the analysis of a finished deal.

A **hint** is what the ``maestro`` level would play from a seat's observation, with the value
of each legal action: the mean result, for the seat, over deals whose hidden cards are sampled
consistently with the observation. It sees exactly what the seat sees. The values come from
the game's pure search player with the maestro's thinking time (PIMC in Tressette, where it is
the maestro itself; ISMCTS elsewhere, where the maestro is the hybrid player, which overrules
the rule-based player only where search sees a clear gain and values no action it did not
weigh), so elsewhere the maestro's choice need not be the action of highest value.

The **analysis** of a finished deal, where every card is known, replays its actions and weighs
each one twice:

- *open*: against double-dummy play, every hand open. The solver gives the exact value of each
  card the seat could play; the open cost of the card played is how much less it is worth than
  the best. It measures the play against perfect knowledge, so a sound play may cost something
  the player could not have foreseen. Only card plays are valued this way, and only where the
  solver finishes within its node budget (the last tricks in pure Python); elsewhere it is
  None, not a guess.
- *honest*: against the maestro, given the observation the seat had at that moment; the honest
  cost is how much less the action played is worth than the maestro's choice, by the values
  of the hint (none where the action played is worth more, or where the maestro's choice is one
  the player made anyway, right after: two accusi in the other order).
  Every decision with more than one legal action is weighed so (bids, calls and accusi too).

The mistakes are what the player lost against the maestro, who saw what the player saw: open
play is shown beside each card, never ranks a mistake. A dummy's actions are its partner's,
who chose them. Values are in the game's unit (``Game.unit``) for the acting seat's side,
higher being better also where fewer points win. Where the solver counts something else than
the result (Sancagna's card points, where the result is circles), there is no open value: one
unit per game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from osteria.bots import HEURISTICS
from osteria.bots.base import Evaluation
from osteria.bots.hybrid import HybridBot
from osteria.bots.levels import THINKING, search_bot, strongest_bot
from osteria.bots.solver import Solver
from osteria.cards import CARD_STRINGS
from osteria.engine import Deal, Match
from osteria.rules import GAMES

# The solver's node budget for one position of the analysis: about a second in pure Python.
MAX_NODES = 200_000
# Costs below this are the rounding of float means, not a loss.
NEGLIGIBLE = 1e-9
# The decimals of a hint's values as every table shows them: the values are rounded so, and the
# note that another action is worth more than the advice holds where, and only where, they show it.
HINT_DECIMALS = 2
# An action of a deal with what preceded it: (seat, action, the deal before it, the decider's observation).
Position = tuple[int, int, Deal, dict[str, Any]]


@dataclass(frozen=True)
class Hint:
    """The maestro's advice for one decision."""

    action: str  # the maestro's choice
    # Each legal action the maestro weighed -> its expected value for the seat's side (every legal
    # action, except past 40 of them, as Calabresella's discards, where a sample of them is weighed).
    values: dict[str, float]
    unit: str  # "points", "stakes" or "circles"
    samples: int  # how many sampled deals the values rest on

    def outvalued(self) -> bool:
        """Whether the maestro's choice has no value, or a lower one than another action's: where
        the maestro is the hybrid player the values are a second search's, and the hybrid leaves
        its first choice only on a clear margin of its own (``maestro_evaluation``)."""
        if not self.values:
            return False
        own = self.values.get(self.action)
        return own is None or max(self.values.values()) > own + NEGLIGIBLE

    def ranked(self) -> list[tuple[str, float | None]]:
        """The actions as a player reads them: the maestro's choice first (with its value, None
        where it weighed none), then the others, the best first."""
        others = sorted(((a, v) for a, v in self.values.items() if a != self.action), key=lambda item: -item[1])
        return [(self.action, self.values.get(self.action)), *others]


def hint(observation: Mapping[str, Any], *, time_limit: float = 1.0, seed: int | str | None = None,
         samples: int | None = None) -> Hint:
    """The maestro's choice for the seat of ``observation`` (``Match.observation(seat)`` of the
    seat that decides now) and its value of each legal action; it thinks ``time_limit`` seconds,
    or weighs exactly ``samples`` sampled deals (with ``seed``, the same hint every time). A
    forced action is the hint at once, weighed against nothing. ValueError if the observation
    offers no action to choose."""
    game = observation.get("game")
    if game not in GAMES:
        raise ValueError(f"no hint for an observation of game {game!r}")
    legal = list(observation.get("legal_actions") or [])
    if not legal:
        raise ValueError("no hint: this seat has no action to choose now")
    if len(legal) == 1:
        return Hint(legal[0], {}, GAMES[game].unit, 0)
    evaluation = maestro_evaluation(game, observation, legal, seed, time_limit=time_limit, samples=samples)
    values = {action: round(evaluation.values[action], HINT_DECIMALS) for action in legal
              if action in evaluation.values}
    return Hint(evaluation.choice, values, GAMES[game].unit, evaluation.samples)


def maestro_evaluation(game: str, observation: Mapping[str, Any], legal: list[str], seed: int | str | None, *,
                       time_limit: float, samples: int | None) -> Evaluation:
    """The maestro's choice from ``observation``, with the search player's value of each action:
    the maestro's own values where it is the search player, else a second look by it."""
    maestro = strongest_bot(game, HEURISTICS[game](), seed, time_limit=time_limit, samples=samples,
                            deeper=THINKING["maestro"].solves_deeper)
    if not isinstance(maestro, HybridBot):  # a search player: its values are its choice's own
        return maestro.evaluate(observation, legal)
    evaluation = search_bot(game, seed, time_limit=time_limit, samples=samples).evaluate(observation, legal)
    return Evaluation(maestro.act(observation, legal), evaluation.values, evaluation.samples)


@dataclass(frozen=True)
class Step:
    """One action of the deal, and what it cost."""

    index: int  # position in the deal's action list
    trick: int | None  # 1-based trick number for card plays, None for other actions
    seat: int  # the seat whose action it is
    action: str  # what was played
    best: str | None  # the double-dummy best action (all hands open), None where not computed
    cost_open: float | None  # value lost against double-dummy best play (>= 0), None where not computed
    honest: str | None  # what the maestro would have played from that seat's observation
    cost_honest: float | None  # value lost against the maestro's choice, by its own estimate (>= 0)
    # Each card the seat could play -> its double-dummy value (the card's plain action), where computed.
    open_values: dict[str, float] | None = None
    # Each action the maestro weighed -> its estimate, where it searched (not for a forced action).
    honest_values: dict[str, float] | None = None
    chooser: int | None = None  # the seat that chose the action, where not ``seat`` (a dummy's partner)

    @property
    def player(self) -> int:
        """The seat whose player chose the action: a dummy's partner for the dummy."""
        return self.seat if self.chooser is None else self.chooser

    @property
    def lost(self) -> float:
        """What the action lost against the maestro (0 where not computed)."""
        return self.cost_honest or 0.0


@dataclass(frozen=True)
class DealAnalysis:
    """The analysis of one finished deal, action by action."""

    game: str
    unit: str  # of every value and cost
    steps: list[Step]
    # Whether card plays were weighed against open play: not where the solver counts another unit.
    open_play: bool = True

    def mistakes(self, limit: int | None = None) -> list[Step]:
        """The steps that lost something against the maestro, the biggest loss first, then the
        biggest open cost, then in the order played; at most ``limit`` of them."""
        costly = [step for step in self.steps if step.lost > NEGLIGIBLE]
        costly.sort(key=lambda step: (-step.lost, -(step.cost_open or 0.0), step.index))
        return costly if limit is None else costly[:limit]

    def lost_by_player(self, *, against_open: bool = False) -> dict[int, float]:
        """What each seat's player lost in the deal against the maestro, or against open play;
        a dummy's losses are its partner's."""
        lost: dict[int, float] = {}
        for step in sorted(self.steps, key=lambda step: step.player):
            cost = (step.cost_open or 0.0) if against_open else step.lost
            lost[step.player] = lost.get(step.player, 0.0) + cost
        return lost


def analyse_deal(match: Match, deal_index: int, *, honest_time: float = 0.2, max_nodes: int | None = MAX_NODES,
                 progress: Callable[[int, int], None] | None = None, seed: int | str | None = 0,
                 honest_samples: int | None = None) -> DealAnalysis:
    """Weigh every action of the finished deal ``deal_index`` (0 for the first) of ``match``:
    against double-dummy play, the solver searching at most ``max_nodes`` nodes a position
    (None: no limit), and against the maestro thinking ``honest_time`` seconds a decision (or
    weighing ``honest_samples`` sampled deals, reproducibly with ``seed``). ``progress(done,
    total)`` is called after each action weighed. ValueError for a deal that is not finished."""
    finished = len(match.results)
    if not 0 <= deal_index < finished:
        raise ValueError(f"deal {deal_index} cannot be analysed: the finished deals are 0 to {finished - 1}"
                         if finished else f"deal {deal_index} cannot be analysed: no deal is finished yet")
    rules = match.game
    open_play = rules.solver_unit is None  # the solver's values are in the result's unit
    positions = _positions(match, deal_index)
    tricks = _trick_numbers(positions)
    total = len(positions)
    steps: list[Step] = []
    solvable = open_play  # until a position proves too big for the budget; earlier ones hold more cards
    for done, j in enumerate(reversed(range(total)), 1):
        seat, action, before, observation = positions[j]
        text = before.action_str(action)
        best: str | None = None
        cost_open: float | None = None
        open_values: dict[str, float] | None = None
        card = before.card_of(action)
        if open_play and tricks[j] is not None and card is not None:
            if len({before.card_of(a) for a in before.legal()} - {None}) == 1:
                best, cost_open = text, 0.0  # a forced card costs nothing, whatever it is worth
            elif solvable:
                open_values = _open_values(before, max_nodes, rules.sense)
                solvable = open_values is not None
                if open_values is not None:
                    best, cost_open = _against(open_values, CARD_STRINGS[card], text)
        legal: list[str] = observation["legal_actions"]
        honest: str = text
        cost_honest: float | None = 0.0
        honest_values: dict[str, float] | None = None
        if len(legal) > 1:
            evaluation = maestro_evaluation(rules.name, observation, legal, f"{seed}/{deal_index}/{j}",
                                            time_limit=honest_time, samples=honest_samples)
            honest, honest_values = evaluation.choice, evaluation.values
            if _reordered(positions, j, honest):
                honest, cost_honest = text, 0.0
            else:
                cost_honest = (max(0.0, honest_values[honest] - honest_values[text])
                               if text in honest_values and honest in honest_values else None)
        chooser = before.decider(seat)
        steps.append(Step(j, tricks[j], seat, text, best, cost_open, honest, cost_honest, open_values, honest_values,
                          None if chooser == seat else chooser))
        if progress is not None:
            progress(done, total)
    steps.reverse()
    return DealAnalysis(rules.name, rules.unit, steps, open_play)


def _reordered(positions: list[Position], j: int, choice: str) -> bool:
    """Whether ``choice``, at action ``j``, is only another order of what its seat did: an action
    that plays no card (an accuso), which the seat made itself among the actions that play no
    card it made right after ``j``, no other seat acting between."""
    seat = positions[j][0]
    for later_seat, later_action, later_deal, _ in positions[j:]:
        if later_seat != seat or later_deal.card_of(later_action) is not None:
            return False
        if later_deal.action_str(later_action) == choice:
            return True
    return False


def _positions(match: Match, deal_index: int) -> list[Position]:
    """Each action of the deal with the position before it: (seat, action, a copy of the deal,
    the observation of the seat that decided), replayed by the engine from the match's deals."""
    positions: list[Position] = []
    for index, again, seat, action in match.replay_steps(deal_index + 1):
        deal = again.deal
        if index == deal_index and deal is not None:
            positions.append((seat, action, deal.copy(), again.observation(deal.decider(seat))))
    return positions


def _trick_numbers(positions: list[Position]) -> list[int | None]:
    """The 1-based trick of each card play (every seat plays one card to a trick), None for
    every other action."""
    numbers: list[int | None] = []
    played = 0
    for _, action, deal, _ in positions:
        if deal.in_card_play and deal.card_of(action) is not None:
            numbers.append(played // deal.seats + 1)
            played += 1
        else:
            numbers.append(None)
    return numbers


def _open_values(deal: Deal, max_nodes: int | None, direction: int) -> dict[str, float] | None:
    """The double-dummy value of each card the seat to move may play, higher is better for it
    (``direction`` -1 where points are poison); None if the solver cannot finish within the budget."""
    values, exact = Solver(max_nodes).move_values(deal)
    if not exact:
        return None
    return {CARD_STRINGS[c]: float(direction * v) for c, v in sorted(values.items())}


def _against(values: dict[str, float], card: str, played: str) -> tuple[str, float | None]:
    """The best action of ``values`` (the one played if it is among the best) and what the card
    played lost against it (None if the solver did not value it: a revoke under ``tavola``)."""
    top = max(values.values())
    if card in values and values[card] >= top:
        return played, 0.0
    best = max(values, key=lambda c: values[c])
    return best, (top - values[card]) if card in values else None
