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
from osteria.cards import CARD_STRINGS, card_symbol, cards_of
from osteria.engine import Match
from osteria.i18n import MESSAGES, gloss
from osteria.records import load
from osteria.rules.tressette import GLOSSARY, SIGNAL_NAMES
from osteria.tui import PlainTable, play
from osteria.tui.plain import normalise
from osteria.tui.views import TableView, TressetteView, game_terms, thirds_text, view_for


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
        assert prompt == MESSAGES["en"]["prompt"]
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
    assert prompts == [MESSAGES["it"]["prompt"]] * 9


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


def test_the_help_lists_the_glossary_with_a_translation() -> None:
    for lang, napoletana, signal in [("it", "asso, due e tre dello stesso palo", "ho_asso: ho l'asso"),
                                     ("en", "ace, two and three of one suit", "ho_asso: I hold the ace")]:
        view = view_for(osteria.game_rules("tressette"), lang, ["a", "b", "c", "d"], 0)
        lines = view.help()
        assert f"  napoletana: {napoletana}" in lines and f"  {signal}" in lines


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
    lines = view.scores({"totals": [10, 4, 10, 4], "options": {"target": 31}, "thirds": [7, 5]})
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


# A game the table has no view for, from a module without a glossary.
Unknown = type("Unknown", (), {"name": "sconosciuto", "__module__": "osteria.cards"})


def test_a_game_without_a_view_is_drawn_generically() -> None:
    view = view_for(Unknown(), "en", ["you", "ann", "bob"], 0)
    assert type(view) is TableView and game_terms(Unknown()) == ({}, {})
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


def test_both_languages_have_every_message_with_the_same_fields() -> None:
    fields = {lang: {key: set(re.findall(r"{(\w+)}", text)) for key, text in table.items()}
              for lang, table in MESSAGES.items()}
    assert fields["it"] == fields["en"]


def test_glossary_terms_have_both_languages() -> None:
    assert gloss("cappotto", "en", GLOSSARY) == "one side takes every point of the deal"
    assert gloss("volo", "it", SIGNAL_NAMES, GLOSSARY) == "è l'ultima carta di questo palo"
    assert gloss("terza", "it", SIGNAL_NAMES, GLOSSARY) is None


@pytest.mark.parametrize("game", osteria.games())
@pytest.mark.parametrize("lang", ["it", "en"])
def test_every_game_plays_to_the_end_at_the_table(game: str, lang: str) -> None:
    out = io.StringIO()
    assert play(game, seed=1, lang=lang, input_fn=script([]), output=out) == 0
    assert MESSAGES[lang]["match_over"] in out.getvalue()


def test_a_kind_of_action_with_too_many_variants_is_typed_not_numbered() -> None:
    from osteria.tui.plain import MANY, split_choices

    discards = [f"scarto {i}" for i in range(MANY + 1)]
    numbered, typed = split_choices(["3d", "3d busso", *discards])
    assert numbered == ["3d", "3d busso"] and typed == {"scarto": discards}
    numbered, typed = split_choices(["3d", *discards[:MANY]])
    assert typed == {} and len(numbered) == MANY + 1
