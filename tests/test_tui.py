"""The plain terminal table: whole matches from scripted input, in both languages."""

from __future__ import annotations

import io
import itertools
import json
import random
import re
import string
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import osteria
from osteria.bots import RandomBot
from osteria.cards import CARD_STRINGS, SUIT_SYMBOLS, SUITS, card_symbol, cards_of, parse_card
from osteria.engine import Match
from osteria.i18n import gloss, message, template
from osteria.records import load
from osteria.rules import calabresella, quattrigghiu, sancagna, traversone
from osteria.rules.tressette import GLOSSARY, SIGNAL_NAMES
from osteria.tui import PlainTable, play
from osteria.tui.plain import normalise
from osteria.tui.review import ReviewWords
from osteria.tui.words import level_name
from osteria.views import (
    VIEWS,
    CalabresellaView,
    QuattrigghiuView,
    SancagnaView,
    TableView,
    TraversoneView,
    TressetteView,
    thirds_text,
    view_for,
)


def script(lines: Iterable[str], then: str | None = "1") -> Callable[[str], str]:
    """An input function that answers with these lines, then with ``then`` forever (EOF if None)."""
    answers = iter(itertools.chain(lines, itertools.repeat(then) if then is not None else ()))

    def answer(prompt: str) -> str:
        line = next(answers, None)
        if line is None:
            raise EOFError
        return line

    return answer


def table_for(match: Match, input_fn: Callable[[str], str], lang: str = "it", save: str | None = None,
              seed: int = 0) -> tuple[PlainTable, io.StringIO]:
    out = io.StringIO()
    bots = {s: RandomBot(seed + s) for s in range(4) if s != 0 and s not in match.game.options["morto"]}
    return PlainTable(match, lang=lang, bots=bots, save=save, input_fn=input_fn, output=out), out


# -- whole matches ------------------------------------------------------------------------------

def test_a_whole_match_in_italian_by_numbers_is_saved_and_replays(tmp_path: Path) -> None:
    path = tmp_path / "partita.json"
    out = io.StringIO()
    status = play("tressette", seed=7, save=str(path), options={"target": 21}, input_fn=script([]), output=out)
    text = out.getvalue()
    assert status == 0
    assert "── Smazzata 1 · tressette" in text and "Fine della smazzata 1:" in text
    assert "La tua mano:" in text and "In tavola:" in text and "Presa precedente:" in text
    assert "Partita finita." in text and ("Hai vinto!" in text or "Hai perso." in text)
    assert f"Partita salvata in {path}." in text
    replayed = osteria.replay(load(path))
    result = replayed.result()
    assert result["finished"] and result["winners"] in ([0, 2], [1, 3])
    assert replayed.players == ["tu", "bot 1", "bot 2", "bot 3"]
    winners = ", ".join(replayed.players[s] for s in result["winners"])
    assert f"Vincono: {winners}." in text
    # The deal results the table printed are the record's.
    assert text.count("Fine della smazzata") == len(result["deals"])
    totals = result["totals"]
    assert f"Punteggio: noi (tu, bot 2) {totals[0]} · loro (bot 1, bot 3) {totals[1]}" in text


def test_the_same_seed_and_choices_play_the_same_match() -> None:
    outputs = []
    for _ in range(2):
        out = io.StringIO()
        play("tressette", seed=11, options={"target": 21}, input_fn=script([]), output=out)
        outputs.append(out.getvalue())
    assert outputs[0] == outputs[1]


def test_a_whole_match_in_english_typing_the_actions(tmp_path: Path) -> None:
    rng = random.Random(3)
    match = osteria.new_match("tressette", seed=3, target=21, players=["you", "bot 1", "bot 2", "bot 3"])

    def typed(prompt: str) -> str:
        assert prompt == template("en", "prompt")
        action = rng.choice(match.legal_actions())
        # Typed loosely: upper case, suit symbols, extra spaces.
        return rng.choice([action, action.upper(), f"  {action}  ", re.sub(r"d\b", "♦", action)])

    path = tmp_path / "match.json"
    table, out = table_for(match, typed, lang="en", save=str(path))
    assert table.run() == 0
    text = out.getvalue()
    assert "── Deal 1 · tressette" in text and "Your hand:" in text and "On the table:" in text
    assert "The match is over." in text and "Winners:" in text and "Not allowed" not in text
    assert "busso: take and come back to this suit" in text
    assert match.finished
    assert osteria.replay(load(path)).result() == match.result()
    assert osteria.replay(match.record()).result() == match.result()


def test_the_human_plays_the_dummy_partner_too() -> None:
    match = osteria.new_match("tressette", seed=5, target=21, morto=[2], players=["you", "bot 1", "bot 2", "bot 3"])
    prompts_for: list[int | None] = []

    def choose(prompt: str) -> str:
        prompts_for.append(match.to_move)
        return "1"

    table, out = table_for(match, choose, lang="en")
    assert table.run() == 0
    text = out.getvalue()
    assert "bot 2 to move: you play for them." in text and "bot 2's open hand:" in text
    assert set(prompts_for) == {0, 2}
    for deal in match.record()["deals"]:
        assert sum(1 for seat, _ in deal["actions"] if seat == 2 and not _.startswith("accuso")) == 10


# -- input --------------------------------------------------------------------------------------

def test_bad_input_gets_a_clear_message_and_a_new_prompt() -> None:
    prompts: list[str] = []
    answers = script(["", "zz", "0", "99", "Ad Ad", "3d nonsense", "²", "?", "q"], then=None)

    def recording(prompt: str) -> str:
        prompts.append(prompt)
        return answers(prompt)

    out = io.StringIO()
    assert play("tressette", seed=2, input_fn=recording, output=out) == 0
    text = out.getvalue()
    assert "Scrivi il numero di una mossa" in text
    assert "Non c'è la mossa numero 0" in text and "Non c'è la mossa numero 99" in text
    assert text.count("Mossa non valida:") == 4
    assert "Glossario:" in text and "Arrivederci." in text
    assert "Traceback" not in text
    assert prompts[:9] == [template("it", "prompt")] * 9
    assert prompts[9].startswith("Salvare la partita in ") and len(prompts) == 10, "q offers to save"


def test_eof_leaves_cleanly_and_saves_the_match_so_far(tmp_path: Path) -> None:
    path = tmp_path / "so-far.json"
    out = io.StringIO()
    assert play("tressette", seed=4, save=str(path), input_fn=script(["1", "1"], then=None), output=out) == 0
    text = out.getvalue()
    assert "Arrivederci." in text and "Partita salvata" in text
    record = json.loads(path.read_text(encoding="utf-8"))
    replayed = osteria.replay(record)
    assert not replayed.finished and replayed.to_move == 0
    assert sum(1 for seat, _ in record["deals"][0]["actions"] if seat == 0) == 2


def test_eof_without_a_file_just_leaves() -> None:
    out = io.StringIO()
    assert play("tressette", seed=4, input_fn=script([], then=None), output=out) == 0
    assert out.getvalue().rstrip().endswith("Arrivederci.")


@pytest.mark.parametrize(("answer", "saved"), [("", True), ("s", True), ("n", False), ("No", False), (None, True)])
def test_quit_offers_to_save(tmp_path: Path, answer: str | None, saved: bool) -> None:
    """q asks whether to save; yes is the default, and so is a closed input (None)."""
    path = tmp_path / "q.json"
    out = io.StringIO()
    prompts: list[str] = []
    answers = script(["q"] if answer is None else ["q", answer], then=None)

    def recording(prompt: str) -> str:
        prompts.append(prompt)
        return answers(prompt)

    assert play("tressette", seed=1, save=str(path), input_fn=recording, output=out) == 0
    assert prompts[-1] == f"Salvare la partita in {path}? [S/n] "
    assert path.exists() is saved
    if saved:
        osteria.replay(load(path))


@pytest.mark.parametrize(("answer", "saved"), [("s", True), ("", False), (None, False)])
def test_quit_without_a_file_offers_to_save_under_a_name_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                     answer: str | None, saved: bool) -> None:
    """Without --save, q offers the data folder; only a yes saves there."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    prompts: list[str] = []
    answers = script(["q"] if answer is None else ["q", answer], then=None)

    def recording(prompt: str) -> str:
        prompts.append(prompt)
        return answers(prompt)

    assert play("tressette", seed=1, input_fn=recording, output=io.StringIO()) == 0
    folder = tmp_path / "osteria" / "matches"
    assert prompts[-1].startswith(f"Salvare la partita in {folder}/tressette-") and prompts[-1].endswith(
        "-seed1.json? [s/N] ")
    files = list(folder.glob("tressette-*-seed1.json"))
    assert len(files) == saved
    if saved:
        osteria.replay(load(files[0]))


def test_saving_over_a_file_of_another_match_asks_first(tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text("another match", encoding="utf-8")
    prompts: list[str] = []

    def answering(*lines: str) -> Callable[[str], str]:
        answers = script(lines, then=None)

        def recording(prompt: str) -> str:
            prompts.append(prompt)
            return answers(prompt)
        return recording

    out = io.StringIO()
    assert play("tressette", seed=1, save=str(path), input_fn=answering("q", "s", "n"), output=out) == 1
    assert path.read_text(encoding="utf-8") == "another match" and "Partita non salvata." in out.getvalue()
    assert prompts[-1] == f"{path} esiste già: sostituirlo? [s/N] "
    assert play("tressette", seed=1, save=str(path), input_fn=answering("q", "s", "s"), output=out) == 0
    osteria.replay(load(path))


def test_a_file_that_cannot_be_written_is_reported(tmp_path: Path) -> None:
    out = io.StringIO()
    path = tmp_path / "missing" / "dir" / "x.json"
    status = play("tressette", seed=1, lang="en", save=str(path), input_fn=script([], then=None), output=out)
    assert status == 1 and f"Cannot save to {path}" in out.getvalue()


@pytest.mark.parametrize(("typed", "action"), [
    ("3D  VOLO", "3d volo"), ("a♦", "Ad"), ("accuso ad 2D 3d", "accuso Ad 2d 3d"), ("Rb Busso", "Rb busso"),
    ("4♣ striscio", "4b striscio"),
])
def test_typed_actions_are_made_canonical(typed: str, action: str) -> None:
    assert normalise(typed) == action


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), noise=st.lists(st.text(string.printable + "♦♥♠♣", max_size=8), max_size=20))
def test_any_input_plays_on_to_the_end(seed: int, noise: list[str]) -> None:
    """Whatever is typed, the table answers without an exception, and numbers finish the match."""
    rng = random.Random(seed)
    lines = [*noise, *(str(rng.randint(1, 3)) for _ in range(2000))]
    lines = [line for line in lines if line.strip().lower() not in {"q", "quit", "esci", "exit"}]
    out = io.StringIO()
    status = play("tressette", seed=seed, options={"target": 21}, input_fn=script(lines, then="1"), output=out)
    assert status == 0 and "Partita finita." in out.getvalue()


# -- what the table shows -----------------------------------------------------------------------

@pytest.mark.parametrize("options", [{}, {"morto": [2]}, {"faliante": False, "segni": "sud"}])
def test_the_table_shows_nothing_the_seat_may_not_see(options: dict[str, object]) -> None:
    match = osteria.new_match("tressette", seed=9, target=21, **options)  # type: ignore[arg-type]
    checked = 0

    def check(prompt: str) -> str:
        nonlocal checked
        text = out.getvalue()
        shown = text[text.rfind("Punteggio:"):]  # the table drawn for this prompt
        observation = match.observation(0)
        declared = {w for _, a in observation["accusi"] for w in a.split()[1:]}
        deal = match.deal
        assert deal is not None
        for seat in (1, 2, 3):
            if observation["hands"][seat] is not None:  # a dummy's open hand
                continue
            for c in cards_of(deal.hands[seat]):  # type: ignore[attr-defined]
                if CARD_STRINGS[c] not in declared:
                    assert card_symbol(c) not in shown
                    checked += 1
        return "1"

    table, out = table_for(match, check)
    assert table.run() == 0
    assert checked > 100


def signals(help_lines: list[str]) -> list[str]:
    """The signals a help lists, after its heading."""
    heading = next((i for i, line in enumerate(help_lines) if line in ("Segni:", "Signals:")), len(help_lines))
    return help_lines[heading + 1:]


def test_the_help_lists_the_glossary_and_the_signals_of_the_rules_in_play() -> None:
    for lang, napoletana, signal in [("it", "asso, due e tre dello stesso palo", "ho l'asso (si scrive ho_asso)"),
                                     ("en", "ace, two and three of one suit",
                                      "ho l'asso (typed ho_asso): I hold the ace")]:
        sud = view_for(osteria.game_rules("tressette", segni="sud"), lang, ["a", "b", "c", "d"], 0).help()
        assert f"  napoletana: {napoletana}" in sud and f"  {signal}" in sud
        assert not any(line.startswith("  striscio") for line in signals(sud))
        nord = view_for(osteria.game_rules("tressette"), lang, ["a", "b", "c", "d"], 0).help()
        assert not any("ho_asso" in line or "seconda" in line for line in nord)
        assert any(line.startswith("  striscio") for line in signals(nord))
        muto = view_for(osteria.game_rules("tressette", segni="muto"), lang, ["a", "b", "c", "d"], 0).help()
        assert not signals(muto)
        # The commands are the table's own: the plain table's are not the full-screen table's keys.
        assert not any("consiglio" in line or "hint" in line for line in nord)


def test_the_english_table_says_its_words_in_english() -> None:
    view = view_for(osteria.game_rules("tressette"), "en", ["you", "bot 1", "bot 2", "bot 3"], 0)
    key = view.help()[0]
    assert "c coppe (cups)" in key and "b bastoni (clubs)" in key  # the letter is the Italian suit's
    result = view.deal_result(0, {"outcome": "giocata", "points": [2, 9], "delta": [2, 15]}, [2, 15])
    assert result[0] == "End of deal 1: giocata (a deal played out with no cappotto)."
    assert result[1] == "Points of the deal: we 2 · they 15 (9 in cards, 6 in accusi)"
    assert view.action("accuso 3d 3s 3b") == "accuso 3♦ 3♠ 3♣ (three threes: 3 points)"
    assert view.action("accuso Ad As Ab Ac") == "accuso A♦ A♠ A♣ A♥ (four aces: 4 points)"
    italian = view_for(osteria.game_rules("tressette"), "it", ["tu", "bot 1", "bot 2", "bot 3"], 0)
    assert italian.action("accuso 3d 3s 3b") == "accuso 3♦ 3♠ 3♣ (tre tre: 3 punti)"
    assert italian.action("accuso tris 2") == "accuso tris 2 (tre due: 3 punti)"
    traversone = view_for(osteria.game_rules("traversone"), "it", ["tu", "bot 1", "bot 2"], 0)
    assert "Una carta avanzata, coperta: va a chi fa l'ultima presa." in traversone.match_and_deal({"leftover": 1})
    assert level_name("en", "medio") == "medium" and level_name("it", "medio") == "medio"
    assert level_name("en", "random") == "random"


def test_the_hand_is_sorted_by_suit_and_by_the_game_rank() -> None:
    hand = ["3d", "Ad", "4d", "Rc", "2d"]
    tressette = TressetteView("it", ["tu", "b1", "b2", "b3"], 0, GLOSSARY, SIGNAL_NAMES)
    generic = TableView("it", ["tu", "b1", "b2", "b3"], 0, {}, {})
    assert tressette.cards(hand) == "4♦ A♦ 2♦ 3♦   R♥"
    assert generic.cards(hand) == "A♦ 2♦ 3♦ 4♦   R♥"


def test_choices_list_declarations_first_then_cards_as_the_hand_is_sorted() -> None:
    view = TressetteView("en", ["you", "b1", "b2", "b3"], 0, GLOSSARY, SIGNAL_NAMES)
    legal = ["Ad", "Ad busso", "3d", "4d", "Rc", "accuso Ad 2d 3d"]
    assert view.ordered(legal) == ["accuso Ad 2d 3d", "4d", "Ad", "Ad busso", "3d", "Rc"]
    lines = view.choices(view.ordered(legal))
    assert lines[0].startswith(" 1) accuso A♦ 2♦ 3♦") and " 4) A♦ busso" in lines[0]
    legend = [line.strip() for line in lines if line.startswith("   ")]
    assert " ".join(legend) == ("accuso: a declaration of a scoring set in the first "
                                                            "trick; busso: take and come back to this suit")


def test_points_taken_are_shown_in_thirds_and_scores_by_side() -> None:
    assert [thirds_text(t) for t in (0, 1, 2, 3, 7, 8, 33)] == ["0", "⅓", "⅔", "1", "2⅓", "2⅔", "11"]
    view = TressetteView("en", ["you", "b1", "b2", "b3"], 1, GLOSSARY, SIGNAL_NAMES)
    lines = view.match_and_deal({"totals": [10, 4, 10, 4], "options": {"target": 31}, "thirds": [7, 5]})
    assert lines == ["Score: we (b1, b3) 4 · they (you, b2) 10 (playing to 31)",
                     "Points taken this deal: we 1⅔ · they 2⅓"]


def test_cards_on_the_table_show_who_played_them_and_the_signal() -> None:
    view = TressetteView("it", ["tu", "bot 1", "bot 2", "bot 3"], 0, GLOSSARY, SIGNAL_NAMES)
    obs = {"trick": [[1, "3s"], [2, "4s"]], "last_trick": {"cards": [[0, "4d"], [1, "7d"], [2, "Rd"], [3, "5d"]],
                                                           "winner": 0},
           "history": [[0, "4d busso"], [1, "7d"], [2, "Rd"], [3, "5d"], [0, "Ab"], [1, "3s striscio"], [2, "4s"]],
           "accusi": [[3, "accuso tris A"]]}
    assert view.trick(obs) == ["In tavola: bot 1 3♠ striscio · bot 2 4♠"]
    assert view.last_trick(obs) == ["Presa precedente: tu 4♦ busso · bot 1 7♦ · bot 2 R♦ · bot 3 5♦ → presa da te"]
    assert view.signals(obs) == ["Segni: tu 4♦ busso, bot 1 3♠ striscio"]


# A game the table has no view for, and no words of its own.
Unknown = type("Unknown", (), {"name": "sconosciuto", "glossary": lambda self: {}, "signals_in_play": lambda self: {},
                           "option_specs": ()})


def test_a_game_without_a_view_is_drawn_generically() -> None:
    view = view_for(Unknown(), "en", ["you", "ann", "bob"], 0)
    assert type(view) is TableView
    obs = {"game": "sconosciuto", "dealer": 2, "hand": ["Rb", "Ad"], "hands": [["Rb", "Ad"], None, ["3c"]],
           "trick": [[1, "7s"]], "history": [[1, "chiamo Ad"], [1, "7s"]], "totals": [1, 2, 3],
           "briscola": "5c", "bids": [[1, "chiamo Ad"]], "tally": {"ann": 3}, "passed": None,
           "tricks": [{"winner": 1, "cards": ["7s"]}]}
    assert view.deal_header(obs) + view.table(obs) == [
        "── Deal 1 · sconosciuto · dealer: bob ──",
        "Score: you 1 · ann 2 · bob 3",
        "Declarations: ann: chiamo A♦",
        "On the table: ann 7♠",
        "briscola: 5♥", "bids: [[1, chiamo A♦]]", "tally: ann=3", "passed: -", "tricks: [{winner=1, cards=[7♠]}]",
        "bob's open hand: 3♥",
        "Your hand: A♦   R♣",
    ]


# -- arguments and words ------------------------------------------------------------------------

@pytest.mark.parametrize(("game", "kwargs", "says"), [
    ("briscola", {}, "unknown game"),
    ("tressette", {"options": {"target": 22}}, "cannot be 22"),
    ("tressette", {"options": {"colour": 1}}, "unknown option"),
    ("tressette", {"lang": "fr"}, "unknown language"),
    ("tressette", {"human_seat": 4}, "non c'è il posto 4"),
    ("tressette", {"options": {"morto": [0]}}, "il posto 0 è un morto"),
])
def test_bad_arguments_say_what_is_wrong(game: str, kwargs: dict[str, object], says: str) -> None:
    out = io.StringIO()
    assert play(game, input_fn=script([]), output=out, **kwargs) == 1  # type: ignore[arg-type]
    assert says in out.getvalue()


def test_glossary_terms_have_both_languages() -> None:
    assert gloss("cappotto", "en", GLOSSARY) == "one side takes every point of the deal"
    assert gloss("volo", "it", SIGNAL_NAMES, GLOSSARY) == "è la mia ultima carta di questo palo"
    assert gloss("terza", "it", SIGNAL_NAMES, GLOSSARY) == "3 carte di questo palo"
    # A signal whose explanation is the way it is said says nothing more.
    assert gloss("ho_asso", "it", SIGNAL_NAMES) is None


@pytest.mark.parametrize("game", osteria.games())
@pytest.mark.parametrize("lang", ["it", "en"])
def test_every_game_plays_to_the_end_at_the_table(game: str, lang: str) -> None:
    out = io.StringIO()
    assert play(game, seed=1, lang=lang, input_fn=script([]), output=out) == 0
    assert template(lang, "match_over") in out.getvalue()


def test_a_kind_of_action_with_too_many_variants_is_typed_not_numbered() -> None:
    from osteria.tui.plain import MANY, split_choices

    discards = [f"scarto {i}" for i in range(MANY + 1)]
    numbered, typed = split_choices(["3d", "3d busso", *discards])
    assert numbered == ["3d", "3d busso"] and typed == {"scarto": discards}
    numbered, typed = split_choices(["3d", *discards[:MANY]])
    assert typed == {} and len(numbered) == MANY + 1


# -- the views of the other games ----------------------------------------------------------------

# Short matches of every game with a view of its own, in seat counts and options that change
# what is drawn (the widow at three, the secret partner at five, tallies kept a mente...).
GAME_TABLES = [
    ("quattrigghiu", None, {}),
    ("quattrigghiu", None, {"aiuto_volontario": True}),
    ("sancagna", None, {"target": 2}),
    ("sancagna", None, {"target": 2, "a_mente": True}),
    ("calabresella", 3, {"rounds": 1}),
    ("calabresella", 4, {"rounds": 1}),
    ("calabresella", 5, {"rounds": 1}),
    ("traversone", 3, {"target": 12, "asso_bastoni": 11}),
    ("traversone", 6, {"target": 12}),
]


def hidden_cards(match: Match, seat: int, observation: dict[str, object]) -> set[str]:
    """The cards ``seat`` may not know of now: the others' hands and the widow or discards it has
    not seen, less any card the actions named aloud (a called card, a card given in exchange)."""
    deal = match.deal
    assert deal is not None
    hidden = 0
    for other, hand in enumerate(deal.hands):  # type: ignore[attr-defined]
        if other != seat:
            hidden |= hand
    if observation.get("widow", []) is None:
        hidden |= deal.widow  # type: ignore[attr-defined]
    if observation.get("discards", []) is None:
        hidden |= deal.set_aside  # type: ignore[attr-defined]
    named = {w for _, action in observation["history"] for w in action.split()}  # type: ignore[attr-defined]
    named |= {observation.get("called"), observation.get("called_card"), observation.get("ceded")}
    return {CARD_STRINGS[c] for c in cards_of(hidden)} - named


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize(("game", "seats", "options"), GAME_TABLES)
def test_each_game_is_drawn_in_its_own_words_and_hides_what_the_seat_may_not_see(
        game: str, seats: int | None, options: dict[str, object], lang: str) -> None:
    match = osteria.new_match(game, seed=5, seats=seats, **options)  # type: ignore[arg-type]
    view = view_for(match.game, lang, match.players, 0)
    assert type(view) is VIEWS[game] and type(view) is not TableView
    rng = random.Random(5)
    out = io.StringIO()
    drawn = checked = 0

    def check(prompt: str) -> str:
        nonlocal drawn, checked
        text = out.getvalue()
        # The table drawn for this prompt: the block of lines that ends with the choices.
        end = text.rfind(template(lang, "choices"))
        shown = text[text.rfind("\n\n", 0, end):end]
        observation = match.observation(0)
        lines = shown.splitlines()
        assert not [line for line in lines if any(line.startswith(f"{key}:") for key in observation)]
        # The trunfu's line names the battittura, wherever they are.
        named = "\n".join(line for line in lines if not line.startswith(view.term("trunfu").capitalize()))
        for c in hidden_cards(match, 0, observation):
            assert card_symbol(parse_card(c)) not in named, (c, shown)
            checked += 1
        trump = observation.get("trump")
        if isinstance(trump, str):  # the trump by name and symbol
            i = "dcsb".index(trump)
            assert f"{message(lang, 'suit_' + SUITS[i])} {SUIT_SYMBOLS[i]}" in shown
        for key in ("turned", "bottom", "called", "called_card"):  # the cards that make the deal
            if isinstance(observation.get(key), str):
                assert card_symbol(parse_card(observation[key])) in shown
        caller = observation.get("caller")
        if isinstance(caller, int) and observation.get("phase") not in ("aiutu",):
            assert any(template(lang, "c_call").split("{")[0] in line and match.players[caller] in line
                       for line in lines)
        drawn += 1
        return rng.choice(match.legal_actions())

    table = PlainTable(match, lang=lang, bots={s: RandomBot(s) for s in range(1, match.game.seats)},
                       input_fn=check, output=out)
    assert table.run() == 0 and match.finished
    assert drawn > 3 and checked > 50
    text = out.getvalue()
    assert "Traceback" not in text and template(lang, "match_over") in text


def quattrigghiu_view(lang: str = "it", seat: int = 0) -> QuattrigghiuView:
    return QuattrigghiuView(lang, ["tu", "b1", "b2", "b3"], seat, quattrigghiu.GLOSSARY, {})


def test_quattrigghiu_orders_the_hand_by_the_trunfu_called() -> None:
    view = quattrigghiu_view()
    hand = ["Ab", "Rd", "7d", "Ad", "2s", "Rs", "As", "3s", "7c", "Ac"]
    # Before the call the spatigghia and the bastu are trunfi already; each suit in its plain order.
    assert view.cards(hand) == "A♣ A♠   7♦ A♦ R♦   7♥ A♥   2♠ 3♠ R♠"
    view.note({"trump": "d"})  # a short suit: the seven is manigghia, the ace 'u puntu
    assert view.cards(hand) == "R♦ A♦ A♣ 7♦ A♠   7♥ A♥   2♠ 3♠ R♠"
    view.note({"trump": "s"})  # a long suit: the two is manigghia
    assert view.cards(hand) == "3♠ R♠ A♣ 2♠ A♠   7♦ A♦ R♦   7♥ A♥"
    assert view.ordered(["2s", "As", "passu", "3s"]) == ["passu", "3s", "2s", "As"]


def test_quattrigghiu_says_the_call_the_trunfu_and_the_secret_aiutu() -> None:
    view = quattrigghiu_view("en", seat=2)
    obs = {"phase": "basi", "caller": 1, "trump": "c", "called_card": "Rb", "aiuto": None, "basi": [1, 0, 2, 0],
           "tricks_played": 3, "tutita": False, "history": [[0, "passu"], [1, "chiamu c Rb"]], "trick": []}
    assert view.table(obs)[:5] == [
        "Trunfu (trumps): cups ♥ · spatigghia A♠, manigghia 7♥, bastu A♣",
        "Caller: b1 · cu' m'aiuta? (who will help me?) R♣",
        "The aiutu (the caller's partner) is secret: whoever holds R♣",
        "Basi (tricks): tu 1 · b1 0 · b2 2 · b3 0",
        "Calls: tu: passu, b1: chiamu ♥ R♣",
    ]
    # Once the called card is out, the sides are known and the basi are counted by side.
    lines = view.match_and_deal({**obs, "aiuto": 3})
    assert "Aiutu (the caller's partner): b3" in lines
    assert "Basi (tricks): callers (b1, b3) 0 · defenders (tu, b2) 3" in lines
    italian = quattrigghiu_view()
    assert italian.match_and_deal({**obs, "called_card": None, "history": [[1, "sulita c"]]})[1:3] == [
        "Il chiamante: b1, da solo contro tre.", "Basi: chiamanti (b1) 0 · avversari (tu, b2, b3) 3"]
    assert italian.match_and_deal({"phase": "chiamata_obbligata", "caller": None, "trump": None}) == [
        "Tutti hanno detto passu: chiama per forza chi ha la spatigghia A♠."]
    window = italian.match_and_deal({**obs, "phase": "tutita", "aiuto": 3, "tricks_played": 6})
    assert "Sei basi pulite: si tenta la tutità (tutita) o ci si ferma (basta)?" in window
    assert "Le prime sei basi non si possono più guardare." in window
    assert "Si tenta la tutità: tutte le basi, o è franca." in italian.match_and_deal({**obs, "tutita": True})
    cudigghia = {"outcome": "cudigghia", "points": [3, 6], "delta": [1, -3, 1, 1]}
    assert italian.deal_result(0, cudigghia, [1, -3, 1, 1]) == [
        "Fine della smazzata 1: cudigghia (gli avversari fanno sei basi).", "Basi: chiamanti 3 · avversari 6",
        "Guadagno: tu +1 · b1 -3 · b2 +1 · b3 +1", "Poste: tu 1 · b1 -3 · b2 1 · b3 1"]


def test_sancagna_shows_the_briscola_the_bacio_della_tavola_the_tallies_and_the_cenni() -> None:
    view = SancagnaView("en", ["you", "b1", "b2", "b3"], 0, sancagna.GLOSSARY, sancagna.SIGNAL_NAMES)
    obs = {"totals": [1, 0, 1, 0], "options": {"target": 5}, "trump": "b", "turned": "6b", "bottom": "Xs",
           "tally": [23, 9], "points": [8, 2], "cenni": [[2, "vecion"], [0, "gnagna"]], "calling": 2,
           "revokes": [[3, 1]], "hand": ["Rb", "5b", "4d", "Rd", "3c"],
           "history": [[2, "cenno vecion"], [0, "cenno gnagna"], [2, "avanti"]]}
    lines = view.table(obs)
    assert lines == [
        "Circles: we (you, b2) 1 · they (b1, b3) 0 (playing to 5)",
        "Briscola (trumps: the suit of the turned card): clubs ♣, turned card 6♣",
        "Bacio della tavola (the bottom card of the stock, shown to all and out of play): X♠",
        "Points until a side calls out: we 23 · they 9 (this deal: we 8 · they 2)",
        "Cenni (silent signals) seen: b2 vecion (I hold the king of trumps), you gnagnà (I hold a four)",
        "Trick to b2: call the side out (fuori) or play on (avanti)?",
        "Revokes found: b3 at trick 2",
        "Calls: b2: avanti",
        "Your hand: 5♣ R♣   R♦ 4♦   3♥",  # trumps first, the re highest; the four rules the others
    ]
    italian = SancagnaView("it", ["tu", "b1", "b2", "b3"], 0, sancagna.GLOSSARY, sancagna.SIGNAL_NAMES)
    a_mente = italian.match_and_deal({"trump": "b", "turned": "6b", "bottom": "Xs", "cenni": [], "calling": 0})
    assert a_mente == ["Briscola: bastoni ♣, girata 6♣", "Bacio della tavola: X♠",
                       "Punti della smazzata: si contano a mente.",
                       "La presa è andata a te: ci si chiama fuori (fuori) o si va avanti (avanti)?"]
    assert italian.deal_header({"deal_index": 1, "game": "sancagna", "dealer": 2}) == [
        "── Mano 2 · sancagna · mazziere: b2 ──"]


def test_calabresella_shows_the_call_the_exchange_and_the_widow_as_the_seat_may_see_them() -> None:
    names = ["tu", "b1", "b2"]
    caller = CalabresellaView("it", names, 1, calabresella.GLOSSARY, calabresella.SIGNAL_NAMES)
    other = CalabresellaView("en", ["you", "b1", "b2"], 0, calabresella.GLOSSARY, calabresella.SIGNAL_NAMES)
    obs = {"phase": "scarto", "contract": "chiamata", "caller": 1, "called": "3d", "called_holder": 0,
           "partner": None, "ceded": "5c", "widow": ["Ab", "4s", "7c", "Rd"], "discards": None, "thirds": [0, 0, 0]}
    assert caller.match_and_deal(obs) == ["Il chiamante: b1 · chiama 3♦",
                                          "3♦: da tu al chiamante, in cambio di 5♥ (cedo).",
                                          "Tallone: R♦   7♥   4♠   A♣"]
    seen = {**obs, "phase": "play", "widow": None, "thirds": [4, 0, 3]}
    assert other.match_and_deal(seen) == [
        "Caller: b1 · calls 3♦", "3♦: from you to the caller, for 5♥ (cedo).",
        "The caller's discards: 4 cards face down, to the taker of the last trick.",
        "Points taken: you 1⅓ · b1 0 · b2 1 (the caller's side wins with 6)"]
    assert other.match_and_deal({"phase": "bidding", "contract": None, "caller": None, "widow": None}) == [
        "Widow: 4 cards face down, unseen."]
    five = CalabresellaView("en", ["you", "b1", "b2", "b3", "b4"], 0, calabresella.GLOSSARY, {})
    secret = {"phase": "play", "contract": "chiamata", "caller": 2, "called": "Ac", "called_holder": None,
              "partner": None}
    assert five.match_and_deal(secret)[1] == "The compagno (the caller's partner) is secret: whoever holds A♥"
    assert five.match_and_deal({**secret, "partner": 0})[1] == "Compagno (the caller's partner): you"
    assert five.match_and_deal({"phase": "play", "contract": "sola", "caller": 3}) == [
        "Caller: b3 · plays sola (playing alone without a call, for double the stake)."]
    assert five.deal_result(0, {"outcome": "monte", "points": [0, 0], "delta": [0] * 5}, [0] * 5) == [
        "End of deal 1: monte (everyone passes: the deal is void).", "Stakes: you 0 · b1 0 · b2 0 · b3 0 · b4 0"]


def test_traversone_says_the_lowest_score_wins() -> None:
    view = TraversoneView("en", ["you", "b1", "b2"], 0, traversone.GLOSSARY, {})
    obs = {"totals": [3, 10, 7], "options": {"target": 31, "asso_bastoni": 18}, "thirds": [2, 6, 4], "leftover": 1,
           "hand": ["3d", "4d", "Rd"]}
    assert view.table(obs) == [
        "Score (a perdere: the lowest wins): you 3 · b1 10 · b2 7 (the match ends at 31)",
        "The ace of bastoni A♣ is worth 18 points.",
        "Points taken this deal: you ⅔ · b1 2 · b2 1⅓",
        "One card left over, face down: it goes to the taker of the last trick.",
        "Your hand: 4♦ R♦ 3♦",
    ]
    assert view.deal_result(2, {"outcome": "giocata", "points": [0, 5, 6], "delta": [10, 5, 6]}, [13, 15, 13])[1:3] == [
        "Points taken: you 0 · b1 5 · b2 6", "Points scored: you 10 · b1 5 · b2 6"]


def test_values_are_written_as_a_person_reads_them() -> None:
    italian = ReviewWords(view_for(osteria.game_rules("tressette"), "it", ["tu", "b1", "b2", "b3"], 0))
    english = ReviewWords(view_for(osteria.game_rules("tressette"), "en", ["you", "b1", "b2", "b3"], 0))
    assert [italian.number(v) for v in (2.0, 1.25, -0.5, 1e-12)] == ["2", "1,25", "-0,50", "0"]
    assert [english.number(v, signed=True) for v in (2.0, 1.25, -0.5, 0.0)] == ["+2", "+1.25", "-0.50", "+0"]
    assert (italian.unit("stakes"), english.unit("circles")) == ("poste", "circles")


def test_the_end_of_the_match_names_the_winners_for_the_persons_seat() -> None:
    view = view_for(osteria.game_rules("traversone", seats=3), "en", ["you", "b1", "b2"], 0)
    assert view.match_over([1, 2]) == [template("en", "match_over"), "Winners: b1, b2.", template("en", "you_lost")]
    assert view.match_over([0])[-1] == template("en", "you_won")
    assert view.match_over([]) == [template("en", "match_over"), template("en", "no_winner")]


def test_the_dealer_types_mano_and_the_match_ends_after_that_round(tmp_path: Path) -> None:
    path = tmp_path / "mano.json"
    match = osteria.new_match("calabresella", seed=2, seats=3, dealer=0, players=["tu", "b1", "b2"])
    out = io.StringIO()
    # Seat 0 deals the first deal: it calls mano (and says yes); later "mano" is refused.
    table = PlainTable(match, bots={1: RandomBot(1), 2: RandomBot(2)}, save=str(path),
                       input_fn=script(["mano", "s", "mano"]), output=out)
    assert table.run() == 0
    text = out.getvalue()
    assert "mano: chiami l'ultimo giro, e la partita finisce con la smazzata 3." in text
    assert "Ultimo giro, chiamato da te: la partita finisce con la smazzata 3." in text
    assert "Ora non puoi chiamare l'ultimo giro: l'ultimo giro è già stato chiamato, da te nella smazzata 1" in text
    assert match.finished and len(match.results) == 3  # not the six deals of two rounds
    record = load(path)
    assert record["last_round"] == {"deal": 0, "seat": 0}
    assert osteria.replay(record).result() == match.result()


def test_mano_is_offered_only_to_the_dealer_and_refused_to_the_others() -> None:
    match = osteria.new_match("calabresella", seed=2, seats=3, dealer=1, players=["you", "b1", "b2"])
    out = io.StringIO()
    table = PlainTable(match, lang="en", bots={1: RandomBot(1), 2: RandomBot(2)},
                       input_fn=script(["last"], then=None), output=out)
    table.run()
    text = out.getvalue()
    assert "You cannot declare the last round now: only the dealer, b1, may call mano (the last round), not you" in text
    assert "mano (or last): declare the last round" not in text
    assert match.last_round is None


def test_the_rules_line_names_each_option_in_the_tables_language() -> None:
    game = osteria.game_rules("tressette")
    obs = {"deal_index": 0, "game": "tressette", "dealer": 1,
           "options": {"target": 31, "segni": "nord", "faliante": True, "morto": []}}
    italian = view_for(game, "it", ["tu", "b1", "b2", "b3"], 0).deal_header(obs)[1]
    assert italian == "Regole: punti per vincere 31 · segni nord · faliante sì · morto nessuno"
    english = view_for(game, "en", ["you", "b1", "b2", "b3"], 0).deal_header(obs)[1]
    assert english == ("Rules: points to win 31 · segni (signals) nord · faliante (the missing suit) yes · "
                       "morto (dummy) none")
