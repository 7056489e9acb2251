"""Reading the others' play: how well a sampled deal explains what the other seats did.

``Game.sample_deal`` deals the unseen cards uniformly among the deals that agree with the
observation: every hand that could have played the cards seen counts alike. A player reads
more into the play. A seat that led a low card from a suit, or let a trick go that it could
have taken, more likely holds the hand a sound player would have played that way. The rule-based
player is the model of a sound player: the sampled deal is replayed from its start
(``Deal.as_dealt``), and at each action of another seat the model is asked what it would have
done from that seat's own observation of the sampled deal. Each action it would not have chosen
multiplies the deal's weight by ``MISREAD``, so a deal that explains the play keeps its weight
and one that needs many surprises loses it, but none is ruled out: people, and partners who
search, play otherwise now and then.

A searching player draws deals in batches and keeps one of each batch in proportion to these
weights (sampling importance resampling), so that its search meets deals as often as they
explain the play. Where the model counts from the hands drawn, the batch is weighed before any
of its deals is built (``Drawing``): only the one kept is dealt, replayed and checked. The
weights read nothing but the observation and the drawn hands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from osteria.engine import Action, Deal, Drawing

if TYPE_CHECKING:
    from osteria.bots.base import Bot
    from osteria.bots.search import Decision

# The weight an action the model would not have chosen leaves to a deal, and the deals drawn for
# each one a search keeps: as measured in Tressette (docs/ai.md), where a harder reading (0.1,
# one deal of ten) did no better.
MISREAD = 0.25
BATCH = 6


def weight(decision: Decision, drawing: Drawing, model: Bot, misread: float = MISREAD) -> float | None:
    """How well ``drawing``, drawn for ``decision``, explains the other seats' actions: ``misread``
    to the power of the number of them that ``model`` would have chosen otherwise (a card by its
    card, signals aside); None where the game cannot replay the deal from its start. A model that
    counts them at once from the hands drawn (``Bot.surprises``) does; any other is asked at each
    action of the deal built."""
    counted = model.surprises(drawing, decision.observation)
    if counted is None:
        counted = asked_surprises(decision, drawing.build(), model)
    return None if counted is None else misread ** counted


def asked_surprises(decision: Decision, deal: Deal, model: Bot) -> int | None:
    """How many of the other seats' actions in ``deal`` ``model`` would have chosen otherwise,
    asking it at each from the seat's own view of the deal replayed from its start; None where the
    game cannot replay the deal."""
    replay = deal.as_dealt()
    if replay is None:
        return None
    observer = decision.observation["seat"]
    surprises = 0
    for seat, action in deal.history:
        if replay.decider(seat) != observer:  # its own choices tell the seat nothing
            chosen = asked(decision, replay, model)
            # An action the observer could not have seen (a Sancagna cenno to the other side's
            # partner) is not in the history it saw, yet the seat may have made it: the model
            # makes it, the replay goes on from there, and the model is asked again.
            while chosen is not None and chosen != action and replay.seen_action(observer, seat, chosen) is None:
                replay.apply(chosen)
                chosen = asked(decision, replay, model)
            card = replay.card_of(action)
            if chosen is not None and chosen != action and (card is None or replay.card_of(chosen) != card):
                surprises += 1
        replay.apply(action)
    return surprises


def asked(decision: Decision, replay: Deal, model: Bot) -> Action | None:
    """The action ``model`` chooses for the seat to move in ``replay``, from that seat's own view;
    None where it has no choice."""
    if len(replay.legal()) < 2:
        return None
    seen, legal = decision.seen_in(replay)
    return replay.parse_action(model.act(seen, legal))
