"""Where a game's rule-based player might choose better outside the card play, against itself.

Deals of rule-based play at every seat. At each decision outside the card play that offers
several actions (a bid, a call, a discard, a call-out), the rule's choice and the options the
oracle would weigh beside it (one of each other kind, the kind being a card or else the
action's first word, then the rule's runners-up) are each played out on a copy of the match to
the end of the board, every later decision the rule-based player's, and the deciding seat's
result is kept.

The report gives, for each kind the rule chose, how often it chose it and the seat's mean result,
and for each other kind the mean gain of choosing that kind instead, with its 95% interval. The
option of the other kind is the first of its kind that the rule ranks (``Bot.runners_up``), else
one drawn at random, never the one that did best on the deal: each gain is what a player
changing that one choice would expect against rule-based players, over the deals where the rule
made it. A lead to measure over duplicate boards, not a result.

    python benchmarks/rule_options.py quattrigghiu --deals 2000
    python benchmarks/rule_options.py calabresella --seats 5 --deals 500
    python benchmarks/rule_options.py quattrigghiu --deals 2000 --aiuto-volontario true

Rules options follow, as for ``osteria arena``.
"""

from __future__ import annotations

import json
import random
import statistics
from collections import defaultdict

import osteria
from osteria.arena.oracle import BREADTH, OraclePlayer
from osteria.bots import HEURISTICS
from osteria.bots.hybrid import candidates
from osteria.cli import CommandParser, UsageError, game_options
from osteria.engine import Deal


def kind(deal: Deal, action: int) -> str:
    """An action's kind: a card (however it is played), else its first word."""
    return "a card" if deal.card_of(action) is not None else deal.action_str(action).split()[0]


def main() -> None:
    parser = CommandParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(HEURISTICS))
    parser.add_argument("--seats", type=int, default=None)
    parser.add_argument("--deals", type=int, default=1000, help="first deals of rule-based play (1000)")
    parser.add_argument("--seed", default="options")
    args, words = parser.parse_known_args()
    try:
        options = game_options(args.game, words)
        rules = osteria.game_rules(args.game, seats=args.seats, **options)
    except (UsageError, osteria.RulesError) as exc:
        parser.error(str(exc))
    rule = HEURISTICS[args.game]()
    valuer = OraclePlayer(args.game)
    rng = random.Random(args.seed)
    chosen: dict[str, list[float]] = defaultdict(list)
    gains: dict[tuple[str, str], list[float]] = defaultdict(list)
    for index in range(args.deals):
        match = osteria.new_match(args.game, seed=f"{args.seed}/{index}", seats=args.seats, **options)
        while not match.deal_due:
            deal, seat = match.deal, match.decider
            assert deal is not None and seat is not None
            observation = match.observation(seat)
            legal = observation["legal_actions"]
            choice = rule.act(observation, legal)
            actions = {deal.action_str(a): a for a in deal.legal()}
            if len(actions) > 1 and not valuer.card_play_choice(deal, actions):
                weighed = candidates(choice, legal, BREADTH, rng, rule.runners_up(observation, legal, choice))
                value = valuer.playout(match, seat, actions[choice])
                was = kind(deal, actions[choice])
                chosen[was].append(value)
                firsts: dict[str, str] = {}
                for text in weighed[1:]:
                    firsts.setdefault(kind(deal, actions[text]), text)
                for other, text in firsts.items():
                    if other != was:
                        gains[was, other].append(valuer.playout(match, seat, actions[text]) - value)
            match.play(choice)
    print(f"{args.game}{f' for {args.seats}' if args.seats else ''}"
          f"{''.join(f' --{name} {json.dumps(value)}' for name, value in options.items())}: {args.deals} first deals of"
          f" rule-based play, results in the deciding seat's {rules.unit}")
    for chosen_kind, values in sorted(chosen.items()):
        print(f"the rule chose {chosen_kind!r} {len(values)} times, the seat's mean {statistics.mean(values):+.3f}")
        for (was, other), diffs in sorted(gains.items()):
            if was == chosen_kind and len(diffs) > 1:
                half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
                print(f"  {other!r} instead: {statistics.mean(diffs):+.3f} +- {half:.3f} ({len(diffs)} decisions)")


if __name__ == "__main__":
    main()
