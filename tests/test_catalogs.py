"""The catalogs of the tables' words: in step with the sources, complete, compiled, open to a new
language without code, and the only road by which a sentence reaches a player."""

from __future__ import annotations

import asyncio
import gettext
import html
import io
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

import osteria
from osteria import i18n
from osteria.bots import RandomBot
from osteria.cards import CARD_STRINGS, RANKS, SUITS, card_symbol, parse_card
from osteria.engine import IllegalAction
from osteria.i18n import LOCALE_DIR, AtSeat, OfCard, OfSuit, Reason, template
from osteria.rules import GAMES
from osteria.tui import PlainTable
from osteria.views import view_for

from table_helpers import new_app, settle

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = LOCALE_DIR / "osteria.pot"
CATALOG_FILES = sorted(LOCALE_DIR.glob("*/LC_MESSAGES/osteria.po"))
# A placeholder of a sentence: {name}, {name!r}, {name:>3}.
PLACEHOLDER = re.compile(r"{(\w*)(![rsa])?(:[^{}]*)?}")


def read(path: Path) -> Catalog:
    with path.open("rb") as file:
        return read_po(file)


def entries(catalog: Catalog) -> dict[tuple[str | None, str], str]:
    return {(m.context, str(m.id)): str(m.string) for m in catalog if m.id}


def placeholders(text: str) -> list[str]:
    return sorted(m.group(0) for m in PLACEHOLDER.finditer(text))


# -- in step with the sources ---------------------------------------------------------------------

def test_the_template_holds_every_sentence_of_the_sources_and_no_other(tmp_path: Path) -> None:
    # As a translator's tools make it: pybabel with the project's configuration.
    fresh = tmp_path / "osteria.pot"
    CommandLineInterface().run(["pybabel", "-q", "extract", "-F", str(ROOT / "pyproject.toml"),
                                "-o", str(fresh), str(ROOT / "src" / "osteria")])
    made, kept = set(entries(read(fresh))), set(entries(read(TEMPLATE)))
    assert made - kept == set(), "sentences the template lacks: run pybabel extract (docs/translating.md)"
    assert kept - made == set(), "sentences the sources no longer have"


def test_there_is_an_italian_catalog() -> None:
    assert [p.parent.parent.name for p in CATALOG_FILES] == ["it"]
    assert i18n.LANGUAGES[:2] == ("it", "en")


@pytest.mark.parametrize("path", CATALOG_FILES, ids=lambda p: p.parent.parent.name)
def test_a_catalog_translates_every_sentence_keeping_its_placeholders(path: Path) -> None:
    catalog, template = read(path), entries(read(TEMPLATE))
    translated = {(m.context, str(m.id)): m for m in catalog if m.id}
    assert set(translated) == set(template), "msgmerge the catalog with the template"
    for key, message in translated.items():
        where = f"{path.parent.parent.name}: {key}"
        assert message.string and not message.fuzzy, f"{where}: not translated"
        assert placeholders(str(message.string)) == placeholders(key[1]), f"{where}: the placeholders differ"


@pytest.mark.parametrize("path", CATALOG_FILES, ids=lambda p: p.parent.parent.name)
def test_the_compiled_catalog_is_its_source_compiled(path: Path) -> None:
    compiled = io.BytesIO()
    write_mo(compiled, read(path))
    compiled.seek(0)
    with path.with_suffix(".mo").open("rb") as shipped:
        assert gettext.GNUTranslations(shipped)._catalog == gettext.GNUTranslations(compiled)._catalog, \
            "run pybabel compile (docs/translating.md)"


# -- a new language, with the standard tools alone ------------------------------------------------

def pseudo(text: str) -> str:
    """A sentence of a made-up language: each stretch of its words between ⟦ and ⟧, its
    placeholders left out of them, so that what fills them shows whether it came through a catalog."""
    out, at = [], 0
    for found in PLACEHOLDER.finditer(text):
        if found.start() > at:
            out.append(f"⟦{text[at:found.start()]}⟧")
        out.append(found.group(0))
        at = found.end()
    if at < len(text):
        out.append(f"⟦{text[at:]}⟧")
    return "".join(out)


def write_language(folder: Path, lang: str, translate: dict[tuple[str | None, str], str]) -> None:
    catalog = Catalog(locale=None, domain="osteria", fuzzy=False)
    for (context, text), translated in translate.items():
        catalog.add(text, translated, context=context)
    target = folder / lang / "LC_MESSAGES"
    target.mkdir(parents=True)
    with (target / "osteria.mo").open("wb") as file:
        write_mo(file, catalog)


@pytest.fixture(scope="module")
def made_up(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The made-up language ``qps``, loaded as a translator's catalog is: from a folder of its own."""
    folder = tmp_path_factory.mktemp("locale")
    write_language(folder, "qps", {key: pseudo(key[1]) for key in entries(read(TEMPLATE))})
    os.environ["OSTERIA_LOCALE_DIR"] = str(folder)
    try:
        catalogs = i18n._catalogs()
    finally:
        del os.environ["OSTERIA_LOCALE_DIR"]
    i18n.CATALOGS["qps"] = catalogs["qps"]
    yield "qps"
    del i18n.CATALOGS["qps"]


def test_a_translators_catalog_is_a_language_of_the_command_line(tmp_path: Path) -> None:
    # A dialect of Italian, named as gettext names variants: it says only what Italian does not.
    write_language(tmp_path, "it@scn", {("your_turn", "Your turn."): "Tocca a tia."})
    env = {**os.environ, "OSTERIA_LOCALE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "osteria.cli", "play", "tressette", "--plain", "--lang", "it@scn",
                           "--seed", "1", "--level", "random"], input="q\n", capture_output=True, text=True,
                          env=env, timeout=120)
    assert "Tocca a tia." in done.stdout
    # What the dialect's catalog leaves out, its fallback (Italian) says.
    assert "La tua mano:" in done.stdout and "Your hand" not in done.stdout


def test_an_unknown_language_is_refused_with_the_languages_there_are() -> None:
    done = subprocess.run([sys.executable, "-m", "osteria.cli", "play", "tressette", "--plain", "--lang", "xx"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "'it'" in done.stderr and "'en'" in done.stderr


# -- the only road to a player --------------------------------------------------------------------

TOKEN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")


def allowed_words(match: osteria.Match, typed: list[str], offered: set[str]) -> set[str]:
    """What may reach a player without a catalog: the game's own words as it says them (its
    terms, its actions, its options' values), the players' names, the cards and what he typed."""
    rules = match.game
    # The ranks alone too, as a card shows with its suit symbol (F♦), and points in thirds (⅔).
    said = [rules.name, "osteria", RANKS, *RANKS, SUITS, "⅓ ⅔", *CARD_STRINGS, *typed, *offered, *match.players,
            *view_for(rules, "it", match.players, 0).spoken.values()]
    for table in (rules.glossary(), rules.signal_names()):
        said += [*table, *(term.said for term in table.values())]
    for spec in type(rules).option_specs:
        said += [str(c) for c in spec.choices or ()]
    for deal in match.record()["deals"]:
        said += [action for _, action in deal["actions"]]
    words = {w for text in said for w in TOKEN.findall(text)}
    return words | {w.capitalize() for w in words}


def residue(text: str) -> set[str]:
    """The words of a table's output that no catalog put there. The stretches are counted as they
    open and close, since a screen read line by line interleaves the lines of its panels."""
    kept, depth = [], 0
    for char in text:
        if char in "⟦⟧":
            depth = depth + 1 if char == "⟦" else max(0, depth - 1)
            kept.append(" ")
        elif depth == 0:
            kept.append(char)
    return set(TOKEN.findall("".join(kept)))


@pytest.mark.parametrize("game", list(GAMES))
def test_every_sentence_of_the_plain_table_comes_through_the_catalogs(game: str, made_up: str) -> None:
    """A whole match in the made-up language, with help, a wrong card, a bad word, a bad number,
    a hint and the analysis of each deal: every word outside the catalog's stretches is a game's
    word, a card or a name."""
    match = osteria.new_match(game, seed=5)
    bots = {s: RandomBot(s) for s in range(1, match.game.seats)}
    typed = ["?", "zz", "99", "hint"]
    answers = iter(typed)
    wrong: list[str] = []
    offered: set[str] = set()

    reviewed: list[str] = []

    def answer(prompt: str) -> str:
        if prompt.startswith(pseudo(template("en", "review_ask")).split("{")[0]):
            reviewed.append(prompt)
            return "y" if len(reviewed) == 1 else "n"
        legal = match.legal_actions()
        offered.update(legal)
        if not wrong and match.deal is not None and match.deal.in_card_play and len(legal) < 10:
            off = [c for c in match.observation(0)["hand"] if c not in legal]
            if off:
                wrong.append(off[0])
                return off[0]
        return next(answers, "1")

    out = io.StringIO()
    # The analysis says the same sentences in every game but its units: where the open-hand
    # solver is slow (pure Python), one game of the same unit stands for it.
    review = game in ("tressette", "calabresella", "sancagna")
    PlainTable(match, lang=made_up, bots=bots, input_fn=answer, output=out, review=review, hint_time=0.05,
               review_time=0.01).run()
    text = out.getvalue()
    assert wrong and (reviewed or not review), "the match offered no card to play wrongly, or no analysis"
    leaks = residue(text) - allowed_words(match, typed, offered)
    assert not leaks, f"{game}: words outside the catalogs: {sorted(leaks)[:20]}"
    assert "⟦" in text and "Traceback" not in text


def test_a_rule_error_is_said_in_the_tables_language_with_the_seats_names() -> None:
    match = osteria.new_match("tressette", seed=3)
    led = match.legal_actions()[0]
    match.play(led)
    follower = match.deal.to_move  # type: ignore[union-attr]
    hand = match.observation(follower)["hand"]
    off_suit = next((c for c in hand if c[-1] != led[1]), None)
    if off_suit is None or all(c[-1] != led[1] for c in hand):
        pytest.skip("this deal's second hand may play any card")
    with pytest.raises(IllegalAction) as refused:
        match.play(off_suit)
    view = view_for(match.game, "it", ["Anna", "Beppe", "Carla", "Dario"], follower)
    said = view.reason(refused.value.reason)
    assert said.startswith("tocca a te rispondere al palo") and "seat" not in said and "must" not in said
    other = view_for(match.game, "it", ["Anna", "Beppe", "Carla", "Dario"], 0)
    assert f"tocca a {other.name(follower)} rispondere al palo" in other.reason(refused.value.reason)
    english = view_for(match.game, "en", ["Anna", "Beppe", "Carla", "Dario"], follower)
    assert english.reason(refused.value.reason).startswith("you must follow suit")
    # A record's or an engine's error stays English, seats by number.
    assert str(refused.value).startswith(f"seat {follower} must follow suit")


def test_a_reason_names_suits_and_seats_in_each_language() -> None:
    why = Reason("{who} must trump with {trump}, having no {suit}", who=AtSeat(2), trump=OfSuit(2), suit=OfSuit(0))
    assert str(why) == "seat 2 must trump with swords, having no coins"
    assert why.say("it") == "senza denari, tocca a posto 2 tagliare con spade"
    assert why.say("it", {2: "Beppe"}.__getitem__) == "senza denari, tocca a Beppe tagliare con spade"


def test_a_reason_names_its_card_as_each_table_draws_cards() -> None:
    # A record's or an engine's error keeps the notation; a table draws the card as its hand shows it.
    why = Reason("{who} cannot play {card}: it is not in the hand", who=AtSeat(1), card=OfCard(parse_card("Ad")))
    assert str(why) == "seat 1 cannot play Ad: it is not in the hand"
    assert why.say("it", card=card_symbol) == "A♦ non si può giocare: non è in mano a posto 1"
    nested = Reason("{action!r}: {why}", action="Ad", why=why)
    assert nested.say("en", card=card_symbol) == "'Ad': seat 1 cannot play A♦: it is not in the hand"


@pytest.mark.parametrize("game", ["tressette", "calabresella", "quattrigghiu", "sancagna", "traversone"])
def test_every_word_of_the_full_screen_table_comes_through_the_catalogs(game: str, made_up: str) -> None:
    """A deal of the full-screen table in the made-up language: its seats, buttons, hand, trick,
    help screen, hint and the deal's end, read off the screen as drawn."""
    app = new_app(game, lang=made_up, seed=4)
    screens: list[str] = []
    offered: set[str] = set()

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("question_mark")
            await pilot.pause()
            screens.append(app.export_screenshot())
            await pilot.press("escape")
            await settle(pilot, app)
            await pilot.press("h")
            await settle(pilot, app)
            screens.append(app.export_screenshot())
            await pilot.press("escape")
            while not app.match.results:
                await settle(pilot, app)
                if app.screen is not app.screen_stack[0]:
                    screens.append(app.export_screenshot())
                    break
                if app.beat is not None:
                    await pilot.press("space")
                    continue
                screens.append(app.export_screenshot())
                legal = app.observation["legal_actions"]
                offered.update(legal)
                app.call_later(app.play_action, legal[0])
                await pilot.pause()

    asyncio.run(run())
    # The words drawn, from the SVG picture's text (its styles aside), each line's runs in order.
    screens = [" ".join(html.unescape(run) for run in re.findall(r"<text[^>]*>([^<]*)</text>", svg)) for svg in screens]
    allowed = allowed_words(app.match, [], offered) | set(app.match.players)
    leaks = set().union(*(residue(text) for text in screens)) - allowed
    assert not leaks, f"{game}: words outside the catalogs: {sorted(leaks)[:20]}"
