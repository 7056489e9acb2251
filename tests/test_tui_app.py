"""The full-screen table, driven headless by key presses and clicks: whole deals of every game,
the hint, the analysis, saving and resuming, the record viewer, and what the screen shows."""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button, Static

import osteria
from osteria.bots import Bot, make_bot, play_bots
from osteria.cards import SUIT_SYMBOLS, SUITS, card_symbol, parse_card
from osteria.cli import main
from osteria.i18n import MESSAGES, template
from osteria.records import load
from osteria.rules import quattrigghiu
from osteria.tui.app import (
    CARD_TEXT,
    CardFace,
    ChoiceGrid,
    DealScreen,
    Dialog,
    HintScreen,
    SeatBox,
    TableApp,
    TextScreen,
)
from osteria.tui.plain import table_match
from osteria.tui.viewer import RecordViewer, frames_of
from osteria.tui.words import APP_MESSAGES, say
from osteria.views import card_of

from helpers import fill_hands, words_in
from table_helpers import SIZE, new_app, screen_text, settle


def shown_cards(app: TableApp) -> set[int]:
    """Every card the screen shows: as text in the lines drawn, or as a card face."""
    cards = {parse_card(found.group()[0] + SUITS[SUIT_SYMBOLS.index(found.group()[1])])
             for found in CARD_TEXT.finditer(screen_text(app))}
    return cards | {parse_card(face.card) for face in app.query(CardFace).results(CardFace)}


def check_nothing_hidden_shown(app: TableApp) -> None:
    """No card held by another seat shows, except those its own observation reveals (a dummy's
    open hand, a card played, a card called)."""
    match = app.match
    seen = match.observation(0)
    revealed = {c for c in map(card_of, words_in(seen)) if c is not None}
    if match.game.name == "quattrigghiu":  # the matadors are named by the rules, whoever holds them
        revealed |= {quattrigghiu.SPATIGGHIA, quattrigghiu.BASTU, *quattrigghiu.MANIGGHIA}
    hidden = {parse_card(card) for seat in range(1, match.game.seats)
              for card in match.observation(seat).get("hand", [])} - revealed
    leaked = shown_cards(app) & hidden
    assert not leaked, f"the screen shows hidden cards: {sorted(card_symbol(c) for c in leaked)}"


def kind(action: str) -> str:
    """What kind of action a string is: its word, a card with its signal, or a plain card."""
    words = action.split()
    if card_of(words[0]) is not None:
        return f"card {words[1]}" if len(words) > 1 else "card"
    return words[0]


async def choose(pilot: Any, app: TableApp, action: str) -> None:
    """Choose an action as a person would: a discard by picking its cards then Enter, a card by
    clicking it (then its way of being played by number, where it has several), anything else by
    typing its number."""
    words = action.split()
    if words[0] in app.typed:
        for card in words[1:]:
            await pilot.click(f"#card-{card}")
        await pilot.press("enter")
        return
    if card_of(words[0]) is not None:
        variants = [a for a in app.observation["legal_actions"] if a.split()[0] == words[0]]
        await pilot.click(f"#card-{words[0]}")
        if len(variants) == 1:
            return
        await pilot.pause()
    await type_number(pilot, app, app.choices.index(action) + 1)


async def type_number(pilot: Any, app: TableApp, number: int) -> None:
    """Type a choice's number, then Enter where a further digit could follow (the number waits for it)."""
    for digit in str(number):
        await pilot.press(digit)
    if number * 10 <= len(app.choices):
        await pilot.press("enter")


Chooser = Callable[[TableApp, list[str]], str]


def novelty(seen: set[str], rng: random.Random, wanted: frozenset[str] = frozenset()) -> Chooser:
    """A person who tries a kind of action not yet tried whenever there is one, the ``wanted``
    kinds first."""
    def pick(app: TableApp, legal: list[str]) -> str:
        new = [a for a in legal if kind(a) not in seen]
        action = rng.choice([a for a in new if kind(a) in wanted] or new or legal)
        seen.add(kind(action))
        return action
    return pick


async def play_deal(app: TableApp, pick: Chooser, *, check_screen: bool = True) -> list[str]:
    """Play the first deal through the table, ``pick`` choosing for the person; the actions chosen."""
    chosen: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        while True:
            await settle(pilot, app)
            if isinstance(app.screen, DealScreen):
                break
            legal = app.observation["legal_actions"]
            # A card of the hand stands for each of its ways of being played.
            listed = [way for choice in app.choices for way in
                      ([a for a in legal if a.split()[0] == choice] if card_of(choice) is not None else [choice])]
            listed += [a for group in app.typed.values() for a in group]
            assert sorted(listed) == sorted(legal), "every legal action is a choice, and only those"
            if check_screen:
                check_nothing_hidden_shown(app)
            action = pick(app, legal)
            before = len(app.match.deals[0].deal.history)
            await choose(pilot, app, action)
            await pilot.pause()
            chosen.append(action)
            played = app.match.record()["deals"][0]["actions"][before]
            assert played[1] == action, f"chose {action!r}, the match played {played!r}"
        assert app.match.results, "the deal is over"
        text = screen_text(app)
        assert template("it", "deal_over").split("{")[0].strip() in text or "Fine della mano" in text
    return chosen


CONFIGS = [
    ("tressette", None, {"morto": [2]}), ("calabresella", 4, {}), ("calabresella", 5, {}),
    ("traversone", 3, {}), ("traversone", 6, {}), ("quattrigghiu", None, {"aiuto_volontario": True}),
    ("sancagna", None, {}),
]


@pytest.mark.parametrize(("game", "seats", "options"), CONFIGS)
def test_a_whole_deal_through_the_table(game: str, seats: int | None, options: dict[str, Any]) -> None:
    seen: set[str] = set()
    app = new_app(game, seats=seats, options=options, seed=7)
    chosen = asyncio.run(play_deal(app, novelty(seen, random.Random(7))))
    assert chosen
    if options.get("morto"):
        # The dummy's cards were played from the table by the person.
        actions = app.match.record()["deals"][0]["actions"]
        assert sum(1 for seat, _ in actions if seat == 2) == 10
        assert sum(1 for seat, _ in actions if seat in (0, 2)) == len(chosen)


# Deals dealt so that the person meets the rarer actions: an accuso; a call followed by the
# discard; a call and the cedo of a card for the called one; the call of the trunfu; a pass; a
# cenno and the call-out.
ACTION_DEALS = [
    ("tressette", None, {}, ["Ad 2d 3d Ac 2c 3c As 4b 5b 6b"], 3, {"accuso", "card busso", "card"}),
    ("calabresella", 3, {}, ["Ad 2d 3d Ac 2c 3c As 2s 3s Ab 4d 5d"], 2, {"chiamo", "scarto", "card"}),
    ("calabresella", 4, {}, ["Ad 2d Ac 2c 3c As 2s 3s Ab 2b"], 3, {"chiamo", "cedo", "card"}),
    ("quattrigghiu", None, {}, ["Ad 2d 3d Rd Cd 6d 7d As 7s Ab"], 3, {"chiamu", "card"}),
    ("quattrigghiu", None, {"aiuto_volontario": True},
     ["6d Ac 2c 3c Rc Cc Fc 7c 6c Rd", "4d 5d 7d Fd 4s 5s 4b 5b 6b 7b"], 3, {"passu", "card"}),
    ("sancagna", None, {}, ["3d 3c 3s 3b Ad 4c", "", "Ac As Ab Rd Rc Rs"], 3, {"cenno", "fuori", "card"}),
]


@pytest.mark.parametrize(("game", "seats", "options", "fixed", "dealer", "kinds"), ACTION_DEALS)
def test_every_kind_of_action_can_be_chosen(game: str, seats: int | None, options: dict[str, Any], fixed: list[str],
                                            dealer: int, kinds: set[str]) -> None:
    seen: set[str] = set()
    app = new_app(game, seats=seats, options=options, hands=fill_hands(game, fixed, seats=seats, **options),
                  dealer=dealer)
    asyncio.run(play_deal(app, novelty(seen, random.Random(3), frozenset(kinds - {"card"})), check_screen=False))
    assert kinds <= seen, f"never offered: {kinds - seen}"


class ScriptedBot(Bot):
    """Plays the actions of its script in order, then as the bot ``then`` plays."""

    def __init__(self, script: Sequence[str], then: Bot) -> None:
        self.script, self.then = list(script), then

    def act(self, observation: Mapping[str, Any], legal_actions: list[str]) -> str:
        return self.script.pop(0) if self.script else self.then.act(observation, legal_actions)


def first_card(app: TableApp) -> str:
    return next(a for a in app.choices if card_of(a.split()[0]) is not None)


async def choose_when_offered(pilot: Any, app: TableApp, wanted: str, pick: Callable[[TableApp], str]) -> None:
    """Let ``pick`` choose for the person until ``wanted`` is one of the choices, then choose it
    through the table and check that the match played it for the person's seat."""
    for _ in range(60):
        await settle(pilot, app)
        assert not isinstance(app.screen, DealScreen), f"the deal ended before {wanted!r} was offered"
        if wanted in app.observation["legal_actions"]:
            break
        await choose(pilot, app, pick(app))
    else:
        raise AssertionError(f"{wanted!r} was never offered")
    assert app.view.action(wanted) in app.query_one(ChoiceGrid).labels, "the choice is listed in the game's words"
    before = len(app.match.deals[0].deal.history)
    await choose(pilot, app, wanted)
    await pilot.pause()
    assert app.match.record()["deals"][0]["actions"][before] == [0, wanted]


def test_answering_aiutu_to_an_open_call() -> None:
    # Seat 3 holds the six of denari, so it speaks first, and calls coppe for anyone to help.
    hands = fill_hands("quattrigghiu", ["", "", "", "6d"], aiuto_volontario=True)
    caller = ScriptedBot(["chiamu c"], make_bot("facile", game="quattrigghiu", seed=3))
    app = new_app("quattrigghiu", options={"aiuto_volontario": True}, hands=hands, seated={3: caller})

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await choose_when_offered(pilot, app, "aiutu", first_card)
            await settle(pilot, app)
            seen = app.match.observation(0)
            assert (seen["caller"], seen["aiuto"], seen["trump"]) == (3, 0, "c")

    asyncio.run(run())


def test_bidding_sola_at_calabresella() -> None:
    app = new_app("calabresella", seats=3, hands=fill_hands("calabresella", [], seats=3), dealer=2)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await choose_when_offered(pilot, app, "sola", first_card)
            await settle(pilot, app)
            seen = app.match.observation(0)
            assert (seen["contract"], seen["caller"]) == ("sola", 0)
            assert app.human_turn() and all(card_of(a) is not None for a in app.choices), "the soloist leads"

    asyncio.run(run())


def test_saying_avanti_after_a_trick_at_sancagna() -> None:
    # A mente, the side that took a trick is asked every time whether it calls itself out.
    hands = fill_hands("sancagna", ["Rd Rc Rs Rb 4d 4c", "", "Xd Xc Xs Xb 3d 3c"])
    app = new_app("sancagna", options={"a_mente": True}, hands=hands)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await choose_when_offered(pilot, app, "avanti", first_card)

    asyncio.run(run())


# All the person's cards are trunfi of denari, the six strongest first, in the order they are
# played: alone (sulità), the person takes every basi, and is asked after the sixth.
TRUNFI = "As 7d Ab Ad Rd Cd Fd 2d 3d 6d"


@pytest.mark.parametrize(("answer", "outcome"), [("tutita", "tutita"), ("basta", "vinta")])
def test_after_six_clean_basi_tutita_or_basta(answer: str, outcome: str) -> None:
    app = new_app("quattrigghiu", hands=fill_hands("quattrigghiu", [TRUNFI]), dealer=3)
    cards = iter(TRUNFI.split())

    def pick(app: TableApp) -> str:
        return "sulita d" if "sulita d" in app.choices else next(cards)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await choose_when_offered(pilot, app, answer, pick)
            while not isinstance(app.screen, DealScreen):
                await settle(pilot, app)
                if app.human_turn():
                    await choose(pilot, app, pick(app))

    asyncio.run(run())
    assert app.match.results[0].outcome == outcome


def test_the_hint_shows_every_choice_with_its_value_and_plays_the_maestros() -> None:
    app = new_app("traversone", seed=2, hint_time=0.05)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            legal = list(app.observation["legal_actions"])
            before = len(app.match.deals[0].deal.history)
            await pilot.click("#button-hint")
            await settle(pilot, app)
            assert isinstance(app.screen, HintScreen)
            hint = app.screen.hint
            assert set(hint.values) == set(legal) and hint.action in legal
            text = screen_text(app)
            assert "Il maestro giocherebbe" in text
            assert all(app.words.number(v, signed=True) in text for v in hint.values.values())
            # The maestro has done thinking: the line below the table says whose turn it is again.
            assert say(app.lang, "hint_wait") not in text and say(app.lang, "your_turn") in text
            await pilot.press("enter")  # plays the maestro's choice
            await pilot.pause()
            assert app.match.record()["deals"][0]["actions"][before] == [0, hint.action]

    asyncio.run(run())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_hint_leaves_the_seats_the_trick_and_the_hand_in_view(size: tuple[int, int]) -> None:
    app = new_app("tressette", seed=3, hint_time=0.05)

    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            await pilot.press("h")
            await settle(pilot, app)
            assert isinstance(app.screen, HintScreen)
            hint_region = app.screen.query_one(".dialog").region
            table = app.screen_stack[0]
            for part in ("#hand", "#trick", "#previous", "#taken", "#top", SeatBox):
                for widget in table.query(part):
                    assert not hint_region.overlaps(widget.region), f"the hint hides {part}"
            shown = [line for line in app.words.hint_lines(app.screen.hint) if line.startswith("  ")]
            assert shown[0].startswith("  →")
            if app.words.hidden_in_hint(app.screen.hint):
                await pilot.press("a")  # every action, not only the best few
                await pilot.pause()
                text = str(app.screen.query_one("#text", Static).content)
                assert text.count("\n") + 1 == len(app.words.hint_lines(app.screen.hint, everything=True))

    asyncio.run(run())


def test_after_a_deal_its_result_and_analysis_trick_by_trick() -> None:
    app = new_app("traversone", seats=6, seed=4, lang="en", analysis=True, analysis_time=0.01, analysis_nodes=3000)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            while not isinstance(app.screen, DealScreen):
                await settle(pilot, app)
                if app.human_turn():
                    await choose(pilot, app, app.choices[0])
            screen = app.screen
            assert isinstance(screen, DealScreen)
            loop = asyncio.get_running_loop()
            end = loop.time() + 30
            while screen.analysis is None and loop.time() < end:
                await pilot.pause(0.05)
            assert screen.analysis is not None, "the analysis ends"
            assert "End of deal 1" in screen_text(app)
            text = str(screen.query_one("#analysis", Static).content)  # all of it, seen or scrolled
            assert "Analysis of deal 1" in text and all(f"Trick {n}:" in text for n in range(1, 7))
            tricks = {step.trick for step in screen.analysis.steps}
            assert tricks == set(range(1, 7))  # six cards each, six tricks
            assert len(screen.analysis.steps) == 36
            mistakes = screen.analysis.mistakes(limit=5)
            assert ("The biggest mistakes" if mistakes else "No action lost any value") in text
            await pilot.press("enter")
            await pilot.pause()
            assert not isinstance(app.screen, DealScreen)
            assert app.match.deals[-1].deal.history == [] or len(app.match.deals) == 2

    asyncio.run(run())


def test_saving_then_loading_resumes_the_same_position(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    app = new_app("sancagna", seed=5, save_path=str(path))

    async def play_some() -> dict[str, Any]:
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(3):
                await settle(pilot, app)
                await choose(pilot, app, app.choices[-1])
            await settle(pilot, app)
            await pilot.press("s")
            await pilot.pause()
            return app.match.observation(0)

    seen = asyncio.run(play_some())
    assert load(path) == app.match.record()
    match, bots = table_match(None, lang="it", seed=None, seats=None, human_seat=0, options=None, level="facile",
                              load=str(path))
    assert match.observation(0) == seen and set(bots) == {1, 2, 3}
    resumed = TableApp(match, bots=bots, delay=0.0, analysis=False)

    async def resume() -> None:
        async with resumed.run_test(size=SIZE) as pilot:
            await settle(pilot, resumed)
            assert resumed.observation["hand"] == seen["hand"]
            shown = {face.card for face in resumed.query("#hand CardFace").results(CardFace)}
            assert shown == set(seen["hand"])
            await choose(pilot, resumed, resumed.choices[0])
            await settle(pilot, resumed)
            assert len(match.deals[0].deal.history) > len(seen["history"])

    asyncio.run(resume())


def test_quitting_asks_to_save(tmp_path: Path) -> None:
    path = tmp_path / "left.json"
    app = new_app("tressette", seed=9, save_path=str(path))

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("q")
            await pilot.pause()
            await pilot.click("#save")
            await pilot.pause()

    asyncio.run(run())
    assert osteria.replay(load(path)).observation(0)["hand"] == app.match.observation(0)["hand"]


def finished_record(game: str, seed: int, **options: Any) -> dict[str, Any]:
    match = osteria.new_match(game, seed=seed, **options)
    play_bots(match, {s: make_bot("facile", game=game, seed=s) for s in range(match.game.seats)})
    return match.record()


def test_the_viewer_steps_trick_by_trick_showing_every_hand() -> None:
    record = finished_record("calabresella", 3, rounds=1)
    _, frames = frames_of(record)
    # Every action is in exactly one step; a step ends with a trick taken or an action that is no card.
    assert [a for f in frames for _, a in f.actions] == [a for deal in record["deals"] for _, a in deal["actions"]]
    viewer = RecordViewer(record, lang="en")

    async def run() -> None:
        async with viewer.run_test(size=SIZE) as pilot:
            first = screen_text(viewer)
            assert "Step 1 of" in first and "The cards as dealt" in first
            for hand in record["deals"][0]["hands"]:  # every hand is shown
                assert all(card_symbol(parse_card(c)) in first for c in hand)
            await pilot.press("right")
            assert viewer.position == 1 and "Played:" in screen_text(viewer)
            await pilot.press("left")
            assert viewer.position == 0
            await pilot.press("pagedown")
            assert viewer.frames[viewer.position].deal == 1 and not viewer.frames[viewer.position].actions
            await pilot.press("end")
            assert "Result:" in screen_text(viewer)

    asyncio.run(run())


def test_the_viewer_hides_the_hands_of_a_deal_in_progress() -> None:
    match = osteria.new_match("tressette", seed=1)
    for _ in range(5):
        match.play(match.legal_actions()[0])
    viewer = RecordViewer(match.record(), seat=1)
    text = "\n".join(viewer.lines())
    own = [card_symbol(parse_card(c)) for c in match.observation(1)["hand"]]
    others = [card_symbol(parse_card(c)) for s in (0, 2, 3) for c in match.observation(s)["hand"]]
    assert all(card in text for card in own)
    assert not any(re.search(rf"(?<!\w){re.escape(card)}(?!\w)", text) for card in others)


def test_without_a_terminal_play_keeps_to_plain_lines() -> None:
    done = subprocess.run([sys.executable, "-m", "osteria.cli", "play", "traversone", "--seed", "1", "--lang", "en"],
                          input="q\n", capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "Your choices:" in done.stdout and "Goodbye." in done.stdout


def test_bad_files_are_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    finished = tmp_path / "done.json"
    finished.write_text(json.dumps(finished_record("traversone", 1, target=1)), encoding="utf-8")
    missing = str(tmp_path / "missing.json")
    for argv in (["view", str(bad)], ["play", "--load", str(bad), "--plain"], ["play", "--load", str(finished)],
                 ["play", "--open", missing], ["play"], ["play", "tressette", "--load", str(bad)]):
        assert main(argv) == 1, argv
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "Traceback" not in err, err


def test_no_word_of_the_table_is_written_twice() -> None:
    assert not set(APP_MESSAGES) & set(MESSAGES), "a word of the plain table is not said twice"


def test_help_lists_the_keys_and_the_glossary() -> None:
    app = new_app("sancagna", lang="en")

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, TextScreen)
            text = screen_text(app)
            assert "the maestro's hint" in text and "Glossary" in text and "gnagna" in text
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is app.screen_stack[0]

    asyncio.run(run())


def test_arrows_and_enter_play_a_card_and_p_shows_the_previous_trick() -> None:
    app = new_app("traversone", seed=6, lang="en")

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("p")  # no trick taken yet: nothing to look back at
            assert not app.show_previous and "No previous trick" in screen_text(app)
            hand = [face.card for face in app.query("#hand CardFace").results(CardFace)]
            playable = {a.split()[0] for a in app.observation["legal_actions"]}
            target = next(i for i, card in enumerate(hand) if card in playable)
            for _ in range(target + 1):
                await pilot.press("right")
            assert isinstance(app.focused, CardFace) and app.focused.card == hand[target]
            await pilot.press("enter")
            await pilot.pause()
            assert [0, hand[target]] in app.match.record()["deals"][0]["actions"]
            await settle(pilot, app)
            await pilot.press("p")
            assert app.show_previous and "Previous trick:" in screen_text(app)

    asyncio.run(run())


def test_the_dealer_calls_mano_with_m_and_the_match_ends_after_that_round(tmp_path: Path) -> None:
    path = tmp_path / "mano.json"
    app = new_app("calabresella", seats=3, dealer=0, hands=fill_hands("calabresella", [], seats=3),
                  save_path=str(path))

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            button = app.query_one("#button-last_round")
            assert button.display, "the dealer is offered the last round"
            await pilot.press("m")
            await pilot.pause()
            assert isinstance(app.screen, Dialog)
            assert "smazzata 3" in screen_text(app)
            await pilot.press("escape")  # not yet
            await pilot.pause()
            assert app.match.last_round is None and app.screen is app.screen_stack[0]
            await pilot.click("#button-last_round")
            await pilot.pause()
            await pilot.click("#yes")
            await pilot.pause()
            assert app.match.last_round == {"deal": 0, "seat": 0, "last_deal": 2}
            assert "Ultimo giro, chiamato da te: la partita finisce con la smazzata 3." in screen_text(app)
            assert not button.display
            await pilot.press("m")  # once is enough
            await pilot.pause()
            assert app.screen is app.screen_stack[0]
            assert "Ora non puoi chiamare l'ultimo giro" in screen_text(app)
            for _ in range(200):
                await settle(pilot, app)
                if isinstance(app.screen, TextScreen):
                    break
                if isinstance(app.screen, DealScreen):
                    await pilot.press("enter")
                    continue
                await app.choose(app.observation["legal_actions"][0])
            assert isinstance(app.screen, TextScreen) and "Partita finita" in screen_text(app)

    asyncio.run(run())
    assert app.match.finished and len(app.match.results) == 3
    assert load(str(path))["last_round"] == {"deal": 0, "seat": 0}


def test_m_is_refused_to_a_seat_that_is_not_the_dealer() -> None:
    app = new_app("calabresella", seats=3, dealer=1, hands=fill_hands("calabresella", [], seats=3), lang="en")

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            assert not app.query_one("#button-last_round").display
            await pilot.press("m")
            await pilot.pause()
            assert app.screen is app.screen_stack[0] and app.match.last_round is None
            # The refusal names the dealer by his name at this table, the person as "you".
            dealer = app.view.name(1)
            assert f"only the dealer, {dealer}, may call mano" in screen_text(app)

    asyncio.run(run())


# -- the table fits the terminal ---------------------------------------------------------------


def on_screen(app: TableApp, widget: Any) -> bool:
    """Whether a widget is drawn whole within the screen, not scrolled away nor cut."""
    region = widget.region
    return widget.display and region.width > 0 and app.screen.region.contains_region(region) \
        and app.screen.find_widget(widget) is not None


@pytest.mark.parametrize(("game", "seats", "options"), CONFIGS)
def test_at_80x24_the_hand_the_trick_every_seat_and_the_score_are_seen_at_once(
        game: str, seats: int | None, options: dict[str, Any]) -> None:
    app = new_app(game, seats=seats, options=options, seed=5)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(80):  # to the person's turn with cards on the table
                await settle(pilot, app)
                if app.screen is not app.screen_stack[0]:
                    await pilot.press("enter")
                    continue
                if app.observation.get("trick") and app.choices:
                    break
                await choose(pilot, app, app.choices[0] if app.choices else next(iter(app.typed.values()))[0])
            text = screen_text(app)
            assert all(app.view.name(seat) in text for seat in range(app.match.game.seats)), "every seat is named"
            faces = list(app.query(CardFace).results(CardFace))
            assert faces and all(on_screen(app, face) for face in faces), "the hand and the trick are seen"
            assert len([f for f in faces if f.parent is app.query_one("#hand")]) == len(app.hand_cards())
            assert app.view.scores(app.observation)[0].split(":")[0] in text, "the score is seen"
            assert on_screen(app, app.query_one("#toolbar"))
            grid = app.query_one(ChoiceGrid)
            assert not grid.display or on_screen(app, grid)

    asyncio.run(run())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_every_bid_of_calabresella_is_seen_sola_included(size: tuple[int, int]) -> None:
    app = new_app("calabresella", seats=3, hands=fill_hands("calabresella", [], seats=3), dealer=2)

    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            assert len(app.choices) >= 30 and "sola" in app.choices
            grid = app.query_one(ChoiceGrid)
            assert on_screen(app, grid) and grid.region.height == len(grid.rows(grid.content_size.width)) + 2
            text = screen_text(app)
            assert all(re.search(rf"(?<!\d){n} ", text) for n in range(1, len(app.choices) + 1))
            assert "sola" in text

    asyncio.run(run())


def test_six_at_traversone_fit_80_columns() -> None:
    app = new_app("traversone", seats=6, seed=3, trick_pause=600.0)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            while app.beat is None:  # to a trick of six cards, just taken
                await settle(pilot, app)
                if app.human_turn():
                    await choose(pilot, app, app.choices[0])
            boxes = [box for box in app.query(SeatBox).results(SeatBox) if on_screen(app, box)]
            assert sorted(box.seat for box in boxes) == [1, 2, 3, 4, 5], "every other seat has its box"
            trick = [face for face in app.query("#trick CardFace").results(CardFace)]
            assert len(trick) == 6 and all(on_screen(app, face) for face in trick)

    asyncio.run(run())


def test_the_dummy_says_whose_turn_it_is_at_80x24() -> None:
    app = new_app("tressette", options={"morto": [2]}, seed=7)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(40):
                await settle(pilot, app)
                if app.deciding_for() == 2:
                    break
                await choose(pilot, app, app.choices[0])
            dummy = next(box for box in app.query(SeatBox).results(SeatBox) if box.seat == 2 and box.display
                         and on_screen(app, box))
            assert dummy.has_class("to-move") and dummy.border_title.startswith("▶")
            assert "giochi tu per lui" in screen_text(app)

    asyncio.run(run())


# -- a trick taken, and where the seats sit ----------------------------------------------------


def test_a_trick_taken_stays_in_the_middle_with_its_taker_until_a_key() -> None:
    app = new_app("tressette", seed=4, trick_pause=600.0)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            while app.beat is None:
                await settle(pilot, app)
                if app.human_turn():
                    await choose(pilot, app, app.choices[0])
            last = app.match.observation(0)["last_trick"]
            shown = [face.card for face in app.query("#trick CardFace").results(CardFace)]
            assert shown == [card for _, card in last["cards"]], "the trick's four cards, the last one landed"
            assert f"Presa da {app.view.name_object(last['winner'])}" in screen_text(app)
            assert not app.human_turn(), "nothing is played while the trick is on show"
            await pilot.press("space")
            await pilot.pause()
            await settle(pilot, app)
            shown = [face.card for face in app.query("#trick CardFace").results(CardFace)]
            assert app.beat is None and shown == [card for _, card in app.observation["trick"]], "the next trick"
            assert "Presa da" not in screen_text(app)

    asyncio.run(run())


@pytest.mark.parametrize(("size", "seats"), [((120, 40), 4), ((80, 24), 4), ((80, 24), 6)])
def test_the_seats_sit_counter_clockwise_in_the_order_play_goes_round(size: tuple[int, int], seats: int) -> None:
    game = "tressette" if seats == 4 else "traversone"
    app = new_app(game, seats=None if seats == 4 else seats)

    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            boxes = {box.seat: box.region for box in app.query(SeatBox).results(SeatBox) if on_screen(app, box)}
            assert sorted(boxes) == list(range(1, seats))
            if size[0] >= 110:  # seat 1, who plays after the person, sits at the right; the last at the left
                center = app.query_one("#center").region
                assert boxes[1].x >= center.right and boxes[seats - 1].right <= center.x
            # Across the top, play runs from right to left.
            top = sorted((s for s in boxes if boxes[s].y == min(r.y for r in boxes.values())), key=lambda s: boxes[s].x)
            assert top == sorted(top, reverse=True)

    asyncio.run(run())


# -- saving, dialogs and typed numbers ---------------------------------------------------------


def focused_button(app: TableApp) -> str | None:
    return app.focused.id if isinstance(app.focused, Button) else None


def test_the_quit_dialog_starts_on_cancel_and_the_arrows_move_between_its_buttons(tmp_path: Path) -> None:
    path = tmp_path / "kept.json"
    app = new_app("tressette", seed=9, save_path=str(path))

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("q")
            await pilot.pause()
            assert isinstance(app.screen, Dialog) and focused_button(app) == "stay"
            await pilot.press("left")
            assert focused_button(app) == "quit"
            await pilot.press("left")
            assert focused_button(app) == "save"
            await pilot.press("right", "right")
            assert focused_button(app) == "stay"
            await pilot.press("enter")  # stays: nothing saved, the match goes on
            await pilot.pause()
            assert app.screen is app.screen_stack[0] and app.is_running and not path.exists()

    asyncio.run(run())


def test_each_match_is_saved_under_a_name_of_its_own_in_the_data_folder(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    first, second = new_app("sancagna", seed=1), new_app("sancagna", seed=2)
    assert first.save_path != second.save_path
    assert Path(first.save_path).parent == tmp_path / "osteria" / "matches"
    assert "sancagna" in Path(first.save_path).name and "seed1" in Path(first.save_path).name

    async def run() -> None:
        async with first.run_test(size=(80, 24)) as pilot:
            await settle(pilot, first)
            await pilot.press("s")
            await pilot.pause()

    asyncio.run(run())
    assert load(first.save_path) == first.match.record()


def test_saving_over_another_file_asks_first_and_keeps_it_by_default(tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text("another match", encoding="utf-8")
    app = new_app("traversone", seed=3, save_path=str(path))

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("s")
            await pilot.pause()
            assert isinstance(app.screen, Dialog) and focused_button(app) == "keep"
            await pilot.press("enter")
            await pilot.pause()
            assert path.read_text(encoding="utf-8") == "another match"
            await pilot.press("s")
            await pilot.pause()
            await pilot.click("#replace")
            await pilot.pause()
            assert load(path) == app.match.record()
            await pilot.press("s")  # the file now holds this match: saved again without asking
            await pilot.pause()
            assert app.screen is app.screen_stack[0]

    asyncio.run(run())


def test_a_number_that_could_grow_waits_for_enter_and_no_key_carries_into_the_next_choice() -> None:
    # The guard long enough that the Enter falls within it even when a loaded machine takes its
    # time to draw the next choice (a person's Enter comes at once; 0.4 s is the table's own).
    app = new_app("calabresella", seats=3, hands=fill_hands("calabresella", [], seats=3), dealer=2, key_guard=3.0)

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            assert len(app.choices) >= 30
            await pilot.press("1")  # 10 to 19 could follow: it waits, however long
            await pilot.pause(1.0)
            assert app.match.deals[0].deal.history == [] and "Invio" in screen_text(app)
            await pilot.press("escape")  # forgets it
            fourth = app.choices[3]
            await pilot.press("4")  # no 40 in the list: taken at once
            played = len(app.match.deals[0].deal.history)
            await pilot.press("enter")  # meant for the 4, not for the next choice
            await settle(pilot, app)
            history = app.match.record()["deals"][0]["actions"]
            assert played == 1 and history[0] == [0, fourth]
            assert sum(1 for seat, _ in history if seat == 0) == 1, "the Enter chose nothing more"

    asyncio.run(run())


# -- the end of a match, and the record viewer -------------------------------------------------


def test_the_end_of_a_match_gives_the_final_score_and_each_deal_once() -> None:
    app = new_app("traversone", seats=3, seed=2, options={"target": 1})

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(200):
                await settle(pilot, app)
                if isinstance(app.screen, DealScreen):
                    await pilot.press("enter")
                elif isinstance(app.screen, TextScreen):
                    break
                else:
                    await choose(pilot, app, app.choices[0])
            assert app.match.finished and isinstance(app.screen, TextScreen)
            text = screen_text(app)
            assert text.count("Partita finita") == 1
            totals = app.match.totals()
            assert app.view.scores({"totals": totals})[0].split(":")[0] in text
            assert all(f"Smazzata {n}:" in text for n in range(1, len(app.match.results) + 1))

    asyncio.run(run())


def test_the_viewer_names_each_deal_who_took_each_trick_and_the_running_score() -> None:
    record = finished_record("tressette", 5, target=21)
    viewer = RecordViewer(record)
    assert len(viewer.match.results) >= 2
    second = next(i for i, frame in enumerate(viewer.frames) if frame.deal == 1)
    viewer.position = second
    text = "\n".join(viewer.lines())
    assert "Smazzata 2 · tressette · mazziere: " in text and "?" not in text
    totals = viewer.match.results[0].delta
    assert f"noi ({viewer.view.name(0)}, {viewer.view.name(2)}) {totals[0]}" in text, "the score after deal 1"
    viewer.position = second + 1  # the first trick of deal 2
    frame = viewer.frames[viewer.position]
    text = "\n".join(viewer.lines())
    assert frame.taker is not None and f"Presa da {viewer.view.name(frame.taker)}" in text


# -- the command line ---------------------------------------------------------------------------


def test_every_command_and_argument_says_what_it_is(capsys: pytest.CaptureFixture[str]) -> None:
    from osteria.cli import _parser

    parser = _parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helped = {choice.dest for choice in commands._choices_actions if choice.help}
    assert helped == set(commands.choices), "every command has a line of help"
    for name, command in commands.choices.items():
        silent = [a.dest for a in command._actions if not a.help]
        assert not silent, f"osteria {name}: {silent} have no help"
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.strip() == f"osteria {osteria.__version__}"
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    shown = capsys.readouterr().out
    assert "--segni nord|sud|muto" in shown and "--asso-bastoni 1|11|18" in shown
    assert "random, heuristic, ismcts, pimc" in shown and "random, ..." not in shown
    assert main(["games"]) == 0
    assert "traversone (3, 4, 5, 6 players, 4 by default)" in capsys.readouterr().out


def test_python_dash_m_osteria_is_the_osteria_command(tmp_path: Path) -> None:
    shown = subprocess.run([sys.executable, "-m", "osteria", "--version"], capture_output=True, text=True)
    assert shown.returncode == 0 and shown.stdout.strip() == f"osteria {osteria.__version__}"
    broken = tmp_path / "broken.jsonl"
    broken.write_text("not a record\n", encoding="utf-8")
    refused = subprocess.run([sys.executable, "-m", "osteria", "replay", str(broken)], capture_output=True, text=True)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr and "broken.jsonl" in refused.stderr
