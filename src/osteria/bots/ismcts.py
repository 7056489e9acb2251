"""Information Set Monte Carlo Tree Search (single-observer ISMCTS, Cowling, Powley and
Whitehouse 2012), for every game.

Each iteration deals the hidden cards anew from the bot's observation (``Game.sample_deal``),
walks the one tree shared by all those deals, choosing among the actions legal in this deal
by UCB weighted by how often each was available, adds one node, plays the deal out (at random,
unless the game plays its playouts otherwise: ``Deal.playout_action``) and credits every node
on the way with the result of the seat that chose it. Partners share a
side's result, so team play needs nothing special. The tree never holds a hidden card: only
what was sampled, and a fresh sample every iteration.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from osteria.bots.base import Evaluation
from osteria.bots.search import Decision, EvaluatingBot
from osteria.engine import Deal


class _Node:
    __slots__ = ("available", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the seat whose choice led here
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.available = 0  # how often this node's action was legal when its parent was passed
        self.total = 0.0


class IsmctsBot(EvaluatingBot):
    name = "ismcts"

    def __init__(self, seed: int | str | None = None, *, time_limit: float = 0.1,
                 iterations: int | None = None, exploration: float = 0.7) -> None:
        """``iterations`` per decision, each on a deal sampled afresh (then the time limit is
        not looked at), else as many as ``time_limit`` seconds allow, at least one."""
        super().__init__(seed, time_limit=time_limit, samples=iterations)
        self.exploration = exploration

    def evaluate(self, observation: Mapping[str, Any], legal_actions: list[str]) -> Evaluation:
        """The decision (the most visited action) and what it rests on: the mean result of each
        action tried at the root, for the seat to move (higher is better, also where points are
        poison), and the iterations, each on a deal sampled afresh."""
        decision = Decision.of(observation)
        root = _Node(-1)
        rng = self.rng
        scale = 1.0  # the largest result seen: UCB's exploration follows the game's scale
        done = 0
        sample: Deal | None = None
        for deal in self.deals(decision):
            sample = deal
            path = [root]
            node = root
            while deal.to_move is not None:
                actions = deal.legal()
                for a in actions:
                    child = node.children.get(a)
                    if child is not None:
                        child.available += 1
                untried = [a for a in actions if a not in node.children]
                if untried:
                    action = rng.choice(untried)
                    child = node.children[action] = _Node(deal.to_move)
                    child.available = 1
                    deal.apply(action)
                    path.append(child)
                    break
                c = self.exploration * scale
                action = max(actions, key=lambda a: _ucb(node.children[a], c))
                node = node.children[action]
                deal.apply(action)
                path.append(node)
            while deal.to_move is not None:
                deal.apply(deal.playout_action(rng))
            delta = deal.result().delta
            scale = max(scale, *(abs(d) for d in delta))
            for n in path:
                n.visits += 1
                if n.mover >= 0:
                    n.total += decision.sense * delta[n.mover]
            done += 1
        assert sample is not None
        wanted = set(legal_actions)
        ranked = sorted(root.children.items(), key=lambda item: -item[1].visits)
        means = {text: node.total / node.visits for text, node in
                 ((sample.action_str(action), node) for action, node in ranked) if text in wanted}
        choice = next(iter(means)) if means else rng.choice(legal_actions)
        return Evaluation(choice, means, done)


def _ucb(node: _Node, c: float) -> float:
    # The parent's count is how often this action was available, not how often the parent was
    # visited, so an action that is rarely legal is not starved of exploration.
    return node.total / node.visits + c * math.sqrt(math.log(node.available) / node.visits)
