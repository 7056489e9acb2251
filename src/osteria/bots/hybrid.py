"""A fast player, overruled by search where the search sees clearly further.

Every decision starts from the choice of the player it is built on (its base: the game's
rule-based player, or in ``hybrid-dmc`` the learned one). Search may overrule it,
and only on a clear margin, measured on the same sampled deals for every action:

- in the card play, once few enough cards are left for the double-dummy solver to value every
  action of a sampled deal exactly within the budget, it plays PIMC: the action with the best
  mean exact value over deals sampled from the observation, when that mean beats the
  base's by more than ``margin`` (in the solver's unit) and, where the game asks it
  (``Game.search_hints``), by that many standard errors of the paired differences;
- every other decision (bids, calls, discards, Quattrigghiu's tutita, Sancagna's fuori or
  avanti, and the card play where the game's search hints ask) is simulated: each
  candidate action is played on sampled deals and the deal finished by the base player at
  every seat, each seeing only its own observation of that sampled deal; an action replaces
  the base's when its mean result is higher by more than ``confidence`` standard errors of
  the paired differences.

Early in the card play a sampled deal's outcome swings too much for a few samples to overrule
a sound rule, so there the base's choice is taken as it is, except where the game asks for a
simulation. Where it agrees with its base, duplicate play scores the two alike: the
arena measures exactly the decisions that search overruled. The bot reads nothing but its
observation.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping, Sequence
from itertools import chain, islice
from typing import Any

from osteria.bots.base import Bot
from osteria.bots.pimc import WIDEST, PimcBot
from osteria.bots.search import Decision, SearchBot
from osteria.engine import Deal
from osteria.sampling import Unsatisfiable

# The fewest sampled deals on which a simulated action may overrule the base player.
MIN_SAMPLES = 8
# Sampled deals past which a solved decision stops early: its mean no longer moves.
ENOUGH_SOLVED = 64
# How many times the node budget a solve has where the player solves deeper (a second a move).
DEEPER_BUDGET = 10
# More cards than any deal holds.
MAX_CARDS = 1 << 10


class HybridBot(SearchBot):
    name = "hybrid"

    def __init__(self, base: Bot, seed: int | str | None = None, *, time_limit: float | None = 0.1,
                 samples: int | None = None, solve_cards: int | None = None, margin: float = 0.0,
                 solved_confidence: float | None = None, confidence: float = 2.0, breadth: int = 3,
                 simulate_cards: int | None = None, max_nodes: int = 20_000, read_play: bool = False,
                 deeper: bool = False) -> None:
        """``base`` is the player it starts from, the game's rule-based or learned one (it must
        hold no state between decisions, as it also plays the sampled deals out). ``samples`` deals per decision
        (then the time limit is not looked at), else as many as ``time_limit`` seconds allow;
        ``solve_cards`` and ``simulate_cards`` override the game's ``search_hints``;
        a simulated decision before the card play weighs the base's action against at most
        ``breadth - 1`` others. With ``read_play`` the sampled deals are weighed by how well they
        explain the others' play, the base player as their model (``SearchBot``). ``deeper``: it
        solves from the game's ``deeper_solve_cards`` where it has one, with ten times the node
        budget (for a second a move)."""
        super().__init__(seed, time_limit=time_limit, samples=samples, model=base if read_play else None)
        self.base = base
        self.solve_cards = solve_cards
        self.margin = margin
        self.solved_confidence = solved_confidence
        self.confidence = confidence
        self.breadth = breadth
        self.simulate_cards = simulate_cards
        self.deeper = deeper
        # It decides itself where to solve: its valuer never declines a deal for its cards.
        self.valuer = PimcBot(seed, max_nodes=max_nodes * (DEEPER_BUDGET if deeper else 1), solve_cards=MAX_CARDS)

    def act(self, observation: Mapping[str, Any], legal_actions: list[str]) -> str:
        proposal = self.base.act(observation, legal_actions)
        if len(legal_actions) == 1:
            return proposal
        decision = Decision.of(observation)
        deals = self.deals(decision)
        try:
            first = next(deals)
        except Unsatisfiable:  # the sampler found no deal in its tries: keep to the rule
            return proposal
        hints = decision.rules.search_hints
        cards_left = first.cards_in_hands
        if self.solve_cards is not None:
            solve_cards = self.solve_cards
        else:
            solve_cards = (self.deeper and hints.deeper_solve_cards) or hints.solve_cards
        simulate_cards = hints.simulate_cards if self.simulate_cards is None else self.simulate_cards
        in_play = first.in_card_play and not first.stake_beyond_play()
        solvable = in_play and cards_left <= solve_cards
        if not solvable and in_play and cards_left > simulate_cards:
            return proposal
        # A bid's playouts are whole deals, and costly: few candidates; a card's are short.
        width = WIDEST if first.in_card_play else self.breadth
        ranked = self.base.runners_up(observation, legal_actions, proposal)
        candidates = self.candidates(proposal, legal_actions, width, ranked)
        values: dict[str, list[float]] = {a: [] for a in candidates}
        sampled: Iterator[Deal] = chain((first,), deals)
        if solvable and not self.samples:  # time to spare: a solved mean has settled by then
            sampled = islice(sampled, ENOUGH_SOLVED)
        for deal in sampled:
            actions = {deal.action_str(a): a for a in deal.legal()}
            chosen = {text: actions[text] for text in candidates}
            found = self.valuer.solved_values(deal, chosen, decision.seat) if solvable else None
            if found is None:
                if solvable:  # beyond the solver's budget: not comparable with the solved deals
                    return proposal
                found = self.simulated_values(decision, deal, chosen)
            for text, v in found.items():
                values[text].append(decision.sense * v)
        best = max(candidates, key=lambda a: sum(values[a]))
        if best == proposal:
            return proposal
        gains = [b - p for b, p in zip(values[best], values[proposal], strict=True)]
        n = len(gains)
        mean = sum(gains) / n
        if solvable:
            confidence = hints.solved_confidence if self.solved_confidence is None else self.solved_confidence
            fewest = 1
        else:
            confidence, fewest = self.confidence, MIN_SAMPLES
        if n < fewest:
            return proposal
        spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1)) if n > 1 else 0.0
        return best if mean > max(self.margin, confidence * spread / math.sqrt(n)) else proposal

    def candidates(self, proposal: str, legal_actions: list[str], width: int, ranked: Sequence[str] = ()) -> list[str]:
        """The base's action and at most ``width - 1`` others (``candidates``), its runners-up
        ``ranked`` before any drawn at random. A simulation pays a playout for each."""
        return candidates(proposal, legal_actions, width, self.rng, ranked)

    def simulated_values(self, decision: Decision, deal: Deal, actions: dict[str, int]) -> dict[str, float]:
        """Each action's result for the seat to move when the base player plays the rest of this
        deal at every seat, from that seat's observation of it."""
        values: dict[str, float] = {}
        for text, a in actions.items():
            rollout = deal.copy()
            rollout.apply(a)
            while rollout.to_move is not None:
                seen, legal = decision.seen_in(rollout)
                rollout.apply(rollout.parse_action(self.base.act(seen, legal)))
            values[text] = rollout.result().delta[decision.seat]
        return values


def candidates(proposal: str, legal_actions: list[str], width: int, rng: random.Random,
               ranked: Sequence[str] = ()) -> list[str]:
    """The proposed action and at most ``width - 1`` others: first one of each other kind (the
    action's first word: passing, calling, playing alone...), for those are the choices that move
    the stakes, then those ``ranked`` next to the proposal (best first, legal ones), then any,
    drawn at random by ``rng``."""
    others = [a for a in legal_actions if a != proposal]
    rng.shuffle(others)
    rank = {a: i for i, a in enumerate(ranked)}
    others.sort(key=lambda a: rank.get(a, len(rank)))
    kinds = {proposal.split()[0]}
    first_of_kind = []
    for a in others:
        if a.split()[0] not in kinds:
            kinds.add(a.split()[0])
            first_of_kind.append(a)
    rest = [a for a in others if a not in first_of_kind]
    return [proposal, *(first_of_kind + rest)[:width - 1]]
