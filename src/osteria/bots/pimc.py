"""Perfect Information Monte Carlo (as GIB plays bridge and Kermit plays Skat).

For each decision the bot deals the cards it cannot see anew, many times, consistently with
everything its observation shows (``Game.sample_deal``), values every legal action in each of
those open-handed deals, and plays the action with the best mean. A deal's value is exact
where the double-dummy solver finishes within its node budget (the card play near the end);
elsewhere, and for decisions before the card play (bidding, discards) or about calling oneself
out, it is the mean result of playouts (random, unless the game plays them otherwise:
``Deal.playout_action``; compiled where the game's open play says they are the careful
player's card play, ``osteria.bots.playout_kernel``). One decision uses one of the two, never
a mix, so its values stay comparable. In the card play an action is valued by the card it plays: a signal with it (or
none) changes neither the solver's values nor a playout's, so every way of playing one card
shares one value, and the card is weighed once. Where actions tie, the game's rule-based player
chooses among them where its choice is one of them, else it chooses among the ways of playing
the first: the cenno it would make before the card, the signal it would give with it; the
search cannot value what they tell the partner. The bot reads nothing but the observation.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from osteria.bots.base import Bot, Evaluation
from osteria.bots.search import Decision, EvaluatingBot
from osteria.bots.solver import SearchBudget, Solver, ending
from osteria.engine import Deal

# Past this many actions (Calabresella's 1,820 discards) a decision weighs a random subset.
WIDEST = 40


class PimcBot(EvaluatingBot):
    name = "pimc"

    def __init__(self, seed: int | str | None = None, *, time_limit: float | None = 0.1,
                 samples: int | None = None, max_nodes: int = 5_000, solve_cards: int = 24,
                 playouts: int = 2, model: Bot | None = None, rule: Bot | None = None) -> None:
        """``samples`` deals per decision (then the time limit is not looked at), else as many
        as ``time_limit`` seconds allow, at least one; the solver is tried where at most
        ``solve_cards`` cards are left in the hands, with ``max_nodes`` per search; elsewhere
        ``playouts`` per action and deal. ``model``, the game's rule-based player, weighs the
        sampled deals by how well they explain the others' play (``SearchBot``); ``rule``, the
        same player, chooses among the actions that tie (else the first of them)."""
        super().__init__(seed, time_limit=time_limit, samples=samples, model=model)
        self.max_nodes = max_nodes
        self.solve_cards = solve_cards
        self.playouts = playouts
        self.rule = rule

    @classmethod
    def guided(cls, rule: Bot, seed: int | str | None = None, *, read_play: bool | None = None,
               **options: Any) -> PimcBot:
        """PIMC with the game's rule-based player ``rule`` choosing among the actions that tie and,
        with ``read_play``, reading the others' play by it. By default (None) it reads where
        ``rule`` counts a sampled deal's surprises at once (``Bot.counts_surprises``): there the
        reading costs the search little, and it pays (docs/ai.md)."""
        reads = rule.counts_surprises if read_play is None else read_play
        return cls(seed, rule=rule, model=rule if reads else None, **options)

    def evaluate(self, observation: Mapping[str, Any], legal_actions: list[str]) -> Evaluation:
        decision = Decision.of(observation)
        weighed = legal_actions if len(legal_actions) <= WIDEST else self.rng.sample(legal_actions, WIDEST)
        wanted = set(weighed)
        totals = dict.fromkeys(weighed, 0.0)
        counts = dict.fromkeys(weighed, 0)
        solve = True  # until a deal proves too big for the budget
        done = 0
        stand_in: dict[str, str] = {}  # each action weighed: the one whose value it shares
        for deal in self.deals(decision):
            actions = {deal.action_str(a): a for a in deal.legal()}
            if not stand_in:
                stand_in = same_play(deal, {text: a for text, a in actions.items() if text in wanted})
            chosen = {text: actions[text] for text in dict.fromkeys(stand_in.values())}
            values = self.solved_values(deal, chosen, decision.seat) if solve else None
            if values is None:
                if solve and done:  # earlier deals were solved: start again on one footing
                    totals, counts = dict.fromkeys(weighed, 0.0), dict.fromkeys(weighed, 0)
                solve = False
                values = self.playout_values(deal, chosen, decision.seat)
            for text, stood in stand_in.items():
                totals[text] += decision.sense * values[stood]
                counts[text] += 1
            done += 1
        means = {text: totals[text] / counts[text] for text in weighed if counts[text]}
        best = max(means.values())
        tied = [text for text in means if means[text] == best]
        choice = tied[0]
        if self.rule is not None and len(tied) > 1:
            # Asked as it is always asked, with every legal action; where it would play another
            # card, it is asked only how it plays this one, among all the ways of playing it.
            ruled = self.rule.act(observation, legal_actions)
            ways = [text for text in tied if stand_in[text] == stand_in[choice]]
            if ruled not in tied and len(ways) > 1:
                ruled = self.rule.act(observation, ways)
            choice = ruled if ruled in tied else choice
        return Evaluation(choice, means, done)

    def solved_values(self, deal: Deal, actions: dict[str, int], seat: int) -> dict[str, float] | None:
        """Every action's exact value in this deal, or None if the solver cannot serve here."""
        if deal.over or deal.stake_beyond_play():
            return None  # a call-out to weigh: its stake is in circles, not card points
        by_card: dict[int, int] = {}
        if deal.in_card_play:
            if deal.cards_in_hands > self.solve_cards:
                return None  # too far from the end for the budget: the first search would be wasted
            try:
                e = ending(deal, seat)
                e.max_nodes = self.max_nodes
                by_card = e.move_values()
            except (ValueError, SearchBudget):  # a game without a solver, or a deal too big
                return None
        elif deal.open_choices() is None:
            return None  # bidding, exchanges, discards: before the card play
        solver = Solver(self.max_nodes)
        values: dict[str, float] = {}
        for text, a in actions.items():
            c = deal.card_of(a)
            if c is not None and c in by_card:
                values[text] = by_card[c]
                continue
            child = deal.copy()
            child.apply(a)
            solution = solver.solve(child, seat)
            if not solution.exact:
                return None
            values[text] = solution.value
        return values

    def playout_values(self, deal: Deal, actions: dict[str, int], seat: int) -> dict[str, float]:
        """Every action's mean result over playouts of this deal (``Deal.playout_action``: random
        unless the game plays them otherwise), compiled where they can be."""
        compiled = self.compiled_playout_values(deal, actions, seat)
        if compiled is not None:
            return compiled
        rng = self.rng
        values: dict[str, float] = {}
        for text, a in actions.items():
            total = 0
            for _ in range(self.playouts):
                rollout = deal.copy()
                rollout.apply(a)
                while rollout.to_move is not None:
                    rollout.apply(rollout.playout_action(rng))
                total += rollout.result().delta[seat]
            values[text] = total / self.playouts
        return values

    def compiled_playout_values(self, deal: Deal, actions: dict[str, int], seat: int) -> dict[str, float] | None:
        """What ``playout_values`` gives, from playouts that the compiled kernel plays where the deal's
        playouts are the careful player's card play (``OpenPlay.playout_slip``); None elsewhere."""
        kernel = playout_kernel()
        if kernel is None or not deal.in_card_play or deal.over:
            return None
        try:
            play = deal.open_play(seat)
        except ValueError:
            return None
        cards = [deal.card_of(a) for a in actions.values()]
        if play.playout_slip is None or None in cards:
            return None
        gains = kernel.careful_gains(play, cards, self.playouts, self.rng.getrandbits(63), play.playout_slip)
        finished: dict[int, int] = {}
        values: dict[str, float] = {}
        for text, row in zip(actions, gains.tolist(), strict=True):
            total = 0
            for gained in row:
                if gained not in finished:
                    finished[gained] = play.finish(gained)
                total += finished[gained]
            values[text] = total / self.playouts
        return values


@functools.cache
def playout_kernel() -> ModuleType | None:
    """The compiled playouts (``osteria.bots.playout_kernel``), or None without numba."""
    try:
        from osteria.bots import playout_kernel as kernel
    except ImportError:
        return None
    return kernel


def same_play(deal: Deal, actions: Mapping[str, int]) -> dict[str, str]:
    """Each of ``actions`` (legal in ``deal``: text to action) mapped to the first of them that
    plays the same card, in the card play; any other action to itself."""
    first: dict[int, str] = {}
    stand_in: dict[str, str] = {}
    for text, action in actions.items():
        card = deal.card_of(action) if deal.in_card_play else None
        stand_in[text] = text if card is None else first.setdefault(card, text)
    return stand_in
