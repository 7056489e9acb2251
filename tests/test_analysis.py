"""Hints and the analysis of finished deals: legal advice from the observation alone, and the
costs of actions against double-dummy play and against the maestro."""

from __future__ import annotations

import io
import itertools
import json
import time
from collections.abc import Callable

import pytest

import osteria
import osteria.analysis as analysis_module
from osteria.analysis import DealAnalysis, Hint, Step, analyse_deal, hint
from osteria.bots import RandomBot
from osteria.bots.base import Evaluation
from osteria.bots.solver import Solver
from osteria.cards import CARD_STRINGS, parse_card
from osteria.engine import Match
from osteria.i18n import template
from osteria.tui import PlainTable
from osteria.tui.review import HINT_SHOWN, ReviewWords
from osteria.views import view_for

from helpers import fill_hands, finish_deal, match_with

# What each game's deal result counts.
UNITS = {"tressette": "points", "calabresella": "stakes", "traversone": "points", "quattrigghiu": "stakes",
         "sancagna": "circles"}


# Small budgets: the tests check what the analysis says, not how well the maestro plays.
FEW_SAMPLES = {"tressette": 3, "calabresella": 40, "traversone": 40, "quattrigghiu": 40, "sancagna": 40}


def observed(match: Match, seat: int) -> dict[str, object]:
    """The seat's observation as plain data, as a client would send it."""
    return json.loads(json.dumps(match.observation(seat)))  # type: ignore[no-any-return]


# -- hints -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", osteria.games())
def test_the_hint_is_a_legal_action_and_values_every_legal_action(game: str) -> None:
    match = osteria.new_match(game, seed=4)
    seat = match.decider
    assert seat is not None
    observation = observed(match, seat)
    advice = hint(observation, seed=1, samples=FEW_SAMPLES[game])
    legal = observation["legal_actions"]
    assert isinstance(legal, list)
    assert advice.action in legal
    assert set(advice.values) == set(legal)
    if game == "tressette":  # PIMC plays the best mean (ISMCTS the action it tried most)
        assert advice.values[advice.action] == max(advice.values.values())
    assert advice.unit == UNITS[game] and advice.samples == FEW_SAMPLES[game]


def _swapped(game: str, fixed: list[str], dealer: int) -> tuple[Match, Match]:
    """Two matches that differ only in the hands of two seats that do not move first: swapped."""
    hands = fill_hands(game, fixed)
    one = match_with(game, hands, dealer)
    a, b = [seat for seat in range(len(hands)) if seat != one.decider][:2]
    other = list(hands)
    other[a], other[b] = hands[b], hands[a]
    return one, match_with(game, other, dealer)


@pytest.mark.parametrize(("game", "dealer"), [("tressette", 1), ("quattrigghiu", 3)])
def test_the_hint_depends_on_the_observation_only(game: str, dealer: int) -> None:
    one, two = _swapped(game, ["4d 2c 3s 4b 5d 6c 7s Fb Cd Rc"], dealer)
    seat = one.decider
    assert seat is not None and seat == two.decider
    first, second = observed(one, seat), observed(two, seat)
    assert first == second  # the precondition: the hidden hands differ, the observations do not
    assert one.deals[0].hands != two.deals[0].hands
    assert hint(first, seed=7, samples=FEW_SAMPLES[game]) == hint(second, seed=7, samples=FEW_SAMPLES[game])


def test_no_hint_without_an_action_to_choose() -> None:
    match = osteria.new_match("tressette", seed=1, dealer=1)
    waiting = observed(match, 1)  # seat 0 moves first
    assert waiting["legal_actions"] == []
    with pytest.raises(ValueError, match="no action to choose"):
        hint(waiting, samples=1)


def test_a_forced_action_is_the_hint_at_once() -> None:
    match = osteria.new_match("tressette", seed=1)
    assert match.decider is not None
    observation = observed(match, match.decider)
    observation["legal_actions"] = observation["legal_actions"][:1]  # as when one card follows suit
    started = time.perf_counter()
    advice = hint(observation, time_limit=5.0)
    assert time.perf_counter() - started < 0.5
    assert advice.action == observation["legal_actions"][0] and advice.values == {}
    lines = ReviewWords(view_for(match.game, "en", match.players, 0)).hint_lines(advice)
    assert lines[1] == "It is the only action there is."


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_hint_says_why_its_choice_may_not_have_the_top_value(lang: str) -> None:
    # The hybrid maestro's values are a second search's: a card it keeps may be valued below another.
    match = osteria.new_match("quattrigghiu", seed=1)
    words = ReviewWords(view_for(match.game, lang, match.players, 0))
    note = words.view.say("hint_not_top")
    assert note != "hint_not_top" and (lang == "en") == note.startswith("The values")
    kept = Hint("Rc", {"Rc": 0.03, "Rs": 0.17, "7b": 0.09}, "stakes", 500)
    assert kept.outvalued() and words.hint_lines(kept)[1] == note
    unweighed = Hint("Rc", {"Rs": 0.17}, "stakes", 500)
    assert unweighed.outvalued() and note in words.hint_lines(unweighed)
    for best in (Hint("Rs", {"Rc": 0.03, "Rs": 0.17}, "stakes", 500),
                 Hint("Rs", {"Rc": 0.17, "Rs": 0.17}, "stakes", 9)):
        assert not best.outvalued() and note not in words.hint_lines(best)
    assert not Hint("Rs", {}, "stakes", 0).outvalued()


def _discards(n: int) -> list[str]:
    return [f"scarto {' '.join(cards)}" for cards in itertools.islice(
        itertools.combinations(["Ad", "2d", "3d", "4d", "5d", "6d", "7d", "Fd", "Cd", "Rd", "Ac", "2c"], 4), n)]


def test_the_discard_hint_shows_the_maestros_choice_first_and_the_best_few() -> None:
    legal = _discards(400)
    # The maestro's choice is not the best by the search's values, nor among the discards it weighed.
    values = {action: float(i % 7) for i, action in enumerate(legal[:150])}
    advice = Hint(legal[300], values, "stakes", 40)
    match = osteria.new_match("calabresella", seed=1)
    words = ReviewWords(view_for(match.game, "en", match.players, 0))
    lines = words.hint_lines(advice)
    rows = [line for line in lines if line.startswith("  ")]
    assert rows[0].startswith("  →") and rows[0].endswith(words.view.action(legal[300]))
    assert sum("→" in row for row in rows) == 1
    assert len(rows) == HINT_SHOWN
    assert lines[-1] == f"…and {151 - HINT_SHOWN} more actions, worth less."
    assert words.hidden_in_hint(advice) == 151 - HINT_SHOWN
    everything = [line for line in words.hint_lines(advice, everything=True) if line.startswith("  ")]
    assert len(everything) == 151 and everything[0] == rows[0]
    shown = [float(row.split()[0]) for row in everything[1:]]
    assert shown == sorted(shown, reverse=True)


# -- a constructed ending --------------------------------------------------------------------------

# Seat 0 (who leads the first trick, holding 4d) takes the first eight tricks with the top spade
# and bastoni while the others follow or throw their denari and coppe; then it leads the ninth
# trick holding 3c and 4d against
#   seat 1: 4c Ad, seat 2: 5c 5d, seat 3: 6c 6d.
# Leading 3c takes a third and hands seat 1 the last trick with Ad: the ace and the last trick's
# point to the other side. Leading 4d gives up Ad but takes the last trick with 3c: a point more.
ENDING_HANDS = ["3s 2s As Rs 3b 2b Ab Rb 3c 4d", "Cs Fs Cb Fb 2d 3d 7d Fd 4c Ad",
                "7s 6s 7b 6b Cd Rd Ac 2c 5c 5d", "5s 4s 5b 4b 7c Fc Cc Rc 6c 6d"]
FIRST_TRICKS = ["3s Cs 7s 5s", "2s Fs 6s 4s", "As 2d Cd 7c", "Rs 3d Rd Fc",
                "3b Cb 7b 5b", "2b Fb 6b 4b", "Ab 7d Ac Cc", "Rb Fd 2c Rc"]


def _ending(lead: str) -> Match:
    """The deal played to its end, seat 0 leading ``lead`` to the ninth trick."""
    hands = [sorted(parse_card(c) for c in hand.split()) for hand in ENDING_HANDS]
    match = match_with("tressette", hands, dealer=1)
    assert match.to_move == 0
    ninth = {"3c": "3c 4c 5c 6c", "4d": "4d Ad 5d 6d"}[lead]
    for trick in [*FIRST_TRICKS, ninth]:
        for card in trick.split():
            match.play(card)
    while not match.results:  # the last trick: each plays the one card left
        match.play(match.legal_actions()[0])
    return match


@pytest.mark.parametrize(("lead", "cost"), [("3c", 1.0), ("4d", 0.0)])
def test_the_analysis_finds_the_known_mistake_at_its_cost(lead: str, cost: float) -> None:
    match = _ending(lead)
    analysis = analyse_deal(match, 0, honest_samples=2, max_nodes=50_000)
    lead_step = next(step for step in analysis.steps if step.trick == 9 and step.seat == 0)
    assert lead_step.action == lead
    assert lead_step.cost_open == cost
    assert lead_step.best == "4d"
    assert lead_step.open_values is not None and lead_step.open_values["4d"] - lead_step.open_values["3c"] == 1.0
    # Every other card of the last two tricks is forced: it costs nothing.
    for step in analysis.steps:
        if step.trick is not None and step.trick >= 9 and step is not lead_step:
            assert step.cost_open == 0.0 and step.best == step.action
    assert (lead_step in analysis.mistakes()) == bool(cost)
    assert analysis.lost_by_player(against_open=True)[0] >= cost


# -- mistakes and losses ---------------------------------------------------------------------------

def _step(index: int, seat: int, cost_open: float | None, cost_honest: float | None) -> Step:
    return Step(index, index // 4 + 1, seat, f"action {index}", "best", cost_open, "honest", cost_honest)


def test_mistakes_are_what_the_player_lost_against_the_maestro() -> None:
    steps = [_step(0, 0, 0.0, 0.0), _step(1, 1, 1.0, 0.2), _step(2, 2, None, 0.5), _step(3, 3, 2.0, 0.0),
             _step(4, 0, 1.0, 0.7), _step(5, 1, None, None), _step(6, 2, 0.0, 0.5), _step(7, 3, 1.0, 0.2)]
    analysis = DealAnalysis("tressette", "points", steps)
    # The biggest loss against the maestro first, then the biggest open cost; a step that lost
    # nothing against the maestro (3: open play was better, but nobody could have known) is none.
    assert [step.index for step in analysis.mistakes()] == [4, 2, 6, 1, 7]
    assert [step.index for step in analysis.mistakes(limit=2)] == [4, 2]
    assert analysis.lost_by_player() == pytest.approx({0: 0.7, 1: 0.2, 2: 1.0, 3: 0.2})
    assert analysis.lost_by_player(against_open=True) == {0: 1.0, 1: 1.0, 2: 0.0, 3: 3.0}


def _maestro_choosing(pick: Callable[[list[str]], str]) -> Callable[..., Evaluation]:
    """A stand-in for the maestro: it chooses ``pick(legal)``, worth a point more than any other action."""
    def evaluation(game: str, observation: object, legal: list[str], seed: object, **_: object) -> Evaluation:
        choice = pick(legal)
        return Evaluation(choice, {a: float(a == choice) for a in legal}, 1)
    return evaluation


def _accusi_deal() -> Match:
    """Seat 0 declares two accusi, the aces then the threes, and the deal is played out."""
    hands = fill_hands("tressette", ["Ad Ac As 3d 3c 3s 4d 5b 6b 7b"])
    match = match_with("tressette", hands, dealer=1)
    match.play("accuso Ad Ac As")
    match.play("accuso 3d 3c 3s")
    finish_deal(match)
    return match


def test_the_order_of_two_accusi_is_no_mistake(monkeypatch: pytest.MonkeyPatch) -> None:
    # The maestro would declare the threes first: the same two accusi, in the other order.
    monkeypatch.setattr(analysis_module, "maestro_evaluation",
                        _maestro_choosing(lambda legal: next((a for a in legal if a.startswith("accuso 3")), legal[0])))
    analysis = analyse_deal(_accusi_deal(), 0, max_nodes=2_000)
    first = analysis.steps[0]
    assert first.action == "accuso Ad Ac As"
    assert first.honest == first.action and first.cost_honest == 0.0
    assert first not in analysis.mistakes()


def test_the_dummys_actions_are_its_partners(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis_module, "maestro_evaluation", _maestro_choosing(lambda legal: legal[-1]))
    match = osteria.new_match("tressette", seed=3, morto=[2], players=["tu", "bot 1", "bot 2", "bot 3"])
    finish_deal(match)
    analysis = analyse_deal(match, 0, max_nodes=2_000)
    dummy = [step for step in analysis.steps if step.seat == 2]
    assert dummy and all(step.player == 0 for step in dummy)
    assert set(analysis.lost_by_player()) == {0, 1, 3}
    lines = ReviewWords(view_for(match.game, "it", match.players, 0)).review_lines(analysis, 0)
    assert any("tu per bot 2: " in line for line in lines)
    assert not any(line.lstrip().startswith("bot 2: ") for line in lines)
    assert "bot 2 " not in next(line for line in lines if line.startswith("Perso rispetto al maestro"))


def test_sancagna_is_analysed_in_circles_alone() -> None:
    match = osteria.new_match("sancagna", seed=11)
    finish_deal(match, seed=3)
    analysis = analyse_deal(match, 0, honest_samples=4)
    assert analysis.unit == "circles" and not analysis.open_play
    assert all(step.cost_open is None and step.open_values is None for step in analysis.steps)
    text = "\n".join(ReviewWords(view_for(match.game, "en", match.players, 0)).review_lines(analysis, 0))
    assert "circles" in text and "points" not in text and "open" not in text.lower()


# -- every game ------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", osteria.games())
def test_every_game_analyses_a_deal(game: str) -> None:
    match = osteria.new_match(game, seed=11)
    finish_deal(match, seed=3)
    done: list[tuple[int, int]] = []
    analysis = analyse_deal(match, 0, honest_samples=FEW_SAMPLES[game] // 2, max_nodes=20_000,
                            progress=lambda k, n: done.append((k, n)))
    record = match.record()["deals"][0]["actions"]
    assert [[step.seat, step.action] for step in analysis.steps] == record
    assert [step.index for step in analysis.steps] == list(range(len(record)))
    assert done == [(k, len(record)) for k in range(1, len(record) + 1)]
    assert analysis.game == game and analysis.unit == UNITS[game]
    assert analysis.open_play == (match.game.solver_unit is None)
    seats = match.game.seats
    tricks = [step.trick for step in analysis.steps if step.trick is not None]
    assert tricks == sorted(tricks) and all(tricks.count(t) == seats for t in set(tricks))
    deal = match.deals[0].deal
    solved = 0
    for step in analysis.steps:
        assert step.honest is not None
        assert step.cost_honest is None or step.cost_honest >= 0
        if step.trick is None:
            assert step.best is None and step.cost_open is None
        elif step.cost_open is not None:
            assert step.cost_open >= 0 and (step.best == step.action) == (step.cost_open == 0)
        if step.open_values is not None:
            solved += 1
            _check_against_the_solver(match, step)
    last_card = [step for step in analysis.steps if step.trick is not None][-1]
    if analysis.open_play:
        assert solved > 0 and last_card.cost_open is not None  # the end of a deal is within any budget
    assert deal.over


def _check_against_the_solver(match: Match, step: Step) -> None:
    """The open values are the solver's for the seat, turned so that higher is better: the best
    card is the solver's best for the seat (its lowest result where fewer points win)."""
    record = match.record()
    record["deals"][0]["actions"] = record["deals"][0]["actions"][:step.index]
    deal = osteria.replay(record).deals[0].deal
    values, exact = Solver(20_000).move_values(deal)
    assert exact and step.open_values is not None
    raw = {CARD_STRINGS[c]: v for c, v in values.items()}
    pick = min if match.game.lower_wins else max
    played = deal.card_of(deal.parse_action(step.action))
    assert played is not None
    assert step.cost_open == abs(raw[pick(raw, key=lambda c: raw[c])] - raw[CARD_STRINGS[played]])


def test_only_a_finished_deal_is_analysed() -> None:
    match = osteria.new_match("sancagna", seed=2)
    with pytest.raises(ValueError, match="no deal is finished yet"):
        analyse_deal(match, 0)
    finish_deal(match)
    with pytest.raises(ValueError, match="the finished deals are 0 to 0"):
        analyse_deal(match, 1)


# -- at the plain table ----------------------------------------------------------------------------

def script(lang: str, lines: list[str], yes: str) -> Callable[[str], str]:
    """These lines first; then yes to every offer of an analysis and the first action at every turn."""
    answers = iter(lines)
    offer = template(lang, "review_ask").split("{")[0]
    return lambda prompt: next(answers, yes if prompt.startswith(offer) else "1")


@pytest.mark.parametrize(("lang", "hint_word", "yes", "words"), [
    ("it", "consiglio", "s", ["Il maestro giocherebbe:", "── Analisi della smazzata 1 ──", "Presa 1:",
                              "Perso rispetto al maestro:", "(sua stima, in cerchi)"]),
    ("en", "hint", "y", ["The maestro would play:", "── Analysis of deal 1 ──", "Trick 1:",
                         "Lost against the maestro:", "(its estimate, in circles)"]),
])
def test_the_table_gives_hints_and_analyses_deals(lang: str, hint_word: str, yes: str, words: list[str]) -> None:
    match = osteria.new_match("sancagna", seed=5, target=1)
    out = io.StringIO()
    table = PlainTable(match, lang=lang, bots={s: RandomBot(s) for s in (1, 2, 3)}, review=True,
                       input_fn=script(lang, [hint_word, "analisi 7"], yes), output=out,
                       hint_time=0.05, review_time=0.01)
    assert table.run() == 0
    text = out.getvalue()
    for word in words:
        assert word in text
    assert ("Non c'è una smazzata finita numero 7" if lang == "it" else "There is no finished deal number 7") in text
    assert text.count("── Anal") == len(match.results)  # every deal offered, every offer taken


def test_a_hint_says_another_action_is_worth_more_only_where_the_shown_values_say_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The maestro kept its choice by a margin below what two decimals show: no note, equal values.
    def close_values(game: str, observation: object, legal: list[str], seed: object, **_: object) -> Evaluation:
        return Evaluation(legal[0], {legal[0]: 0.4987, legal[1]: 0.5012, **{a: -1.0 for a in legal[2:]}}, 16)

    monkeypatch.setattr(analysis_module, "maestro_evaluation", close_values)
    match = osteria.new_match("tressette", seed=1)
    seat = match.decider
    assert seat is not None
    found = hint(match.observation(seat))
    first, second = match.legal_actions()[:2]
    assert found.values[first] == found.values[second] == 0.5 and not found.outvalued()
    lines = ReviewWords(view_for(match.game, "en", match.players, seat)).hint_lines(found)
    assert sum("+0.50" in line for line in lines) == 2
