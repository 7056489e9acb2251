"""The full-screen terminal table: one person against bots, at a card table drawn with Textual.

Like the plain table, the app knows no game: it drives a :class:`~osteria.engine.Match` through
the decider of each action and the observation of the person's seat, and draws what the game's
view (:mod:`osteria.views`) draws, in the game's own words. The bots, the maestro's hint and
the analysis of a finished deal think in worker threads, so the table stays responsive; a bot is
handed only its seat's observation.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.console import Group
from rich.text import Text
from textual import events, work
from textual.actions import SkipAction
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Region, Size
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Button, ProgressBar, Static

from osteria.bots import Bot
from osteria.cards import CARD_STRINGS, RANKS, SUIT_SYMBOLS, SUITS, card_symbol, suit_of
from osteria.engine import IllegalAction, Match
from osteria.tui.plain import close_bots, default_save_path, save_match, split_choices, table_match
from osteria.tui.review import ReviewWords
from osteria.tui.words import level_name, say
from osteria.views import card_of, seat_cards, taken_trick, view_for

if TYPE_CHECKING:
    from osteria.analysis import DealAnalysis, Hint
    from osteria.arena.protocol import TimeControl

Observation = Mapping[str, Any]

# The suits' colours, as the Italian packs print them: gold denari, red coppe, blue spade, green bastoni.
SUIT_COLOURS = ("#b8860b", "#c0392b", "#1f4e9c", "#2e7d32")
CARD_PAPER = "#fbf6e9"
# A card as the views write it: its rank and its suit's symbol, as a word of its own.
CARD_TEXT = re.compile(rf"(?<!\w)[{re.escape(RANKS)}][{''.join(SUIT_SYMBOLS)}](?!\w)")


def coloured(text: str) -> Text:
    """A line of a view with its cards printed as small cards in their suits' colours."""
    line = Text(text)
    for found in CARD_TEXT.finditer(text):
        suit = SUIT_SYMBOLS.index(found.group()[-1])
        line.stylize(f"bold {SUIT_COLOURS[suit]} on {CARD_PAPER}", found.start(), found.end())
    return line


def lines_text(lines: Sequence[str]) -> Text:
    return Text("\n").join(coloured(line) for line in lines)


class CardFace(Static):
    """One card, face up: its rank and suit symbol in the suit's colour, and the number that
    chooses it where it is a choice, below them; in a short terminal the card is one line,
    ``4♦``. Clicking it (or Enter on it) chooses it."""

    class Chosen(Message):
        def __init__(self, card: str) -> None:
            super().__init__()
            self.card = card

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("enter,space", "choose", show=False)]

    def __init__(self, card: str, *, playable: bool = False, picked: bool = False, focusable: bool = False,
                 number: int | None = None, id: str | None = None) -> None:
        self.card = card
        self.number = number
        self.can_focus = focusable
        c = card_of(card)
        suit = SUITS[suit_of(c)] if c is not None else "d"
        marks = [mark for mark, on in (("playable", playable), ("picked", picked)) if on]
        classes = " ".join(["card", f"suit-{suit}", *marks])
        super().__init__(id=id, classes=classes)

    def render(self) -> Text:
        c = card_of(self.card)
        if c is None:
            return Text(self.card)
        symbol = card_symbol(c)
        rank, suit = symbol[0], symbol[1:]
        if self.content_size.height < 2:
            return Text(f"{rank}{suit}", justify="center")
        number = "" if self.number is None else str(self.number)
        if self.styles.border_top[0] in ("", "none"):  # the short form: its number below it
            return Text(f"{rank}{suit}\n") + Text(number, style="not bold #123f26", justify="center")
        face = Text(f"{rank}\n{suit}", justify="center")
        return face + Text(f"\n{number}", style="not bold #5b5440") if self.content_size.height >= 3 else face

    def on_click(self) -> None:
        self.post_message(self.Chosen(self.card))

    def action_choose(self) -> None:
        self.post_message(self.Chosen(self.card))


class SeatBox(Static):
    """A seat at the table: its name in the box's edge (marked ▶ when it is to move), its bot
    level, the dealer's mark, and its cards: face down, or face up where the rules show them (a
    dummy). A seat beside the middle has a second box in the top row, shown instead of it when
    the terminal is too narrow for the side panels."""

    def __init__(self, seat: int, *, classes: str = "") -> None:
        super().__init__(classes=f"seat seat-{seat} {classes}".strip())
        self.seat = seat


# Choices that begin with the same word, at least this many, are listed once under that word
# (the 32 calls of Calabresella: chiamo A♦ 2♦ 5♦ …).
GROUPED = 6


class ChoiceGrid(Widget, can_focus=True):
    """The choices that are not a card of the hand (bids, calls, declarations, a card's ways of
    being played), numbered, in as many columns as the width holds, so that a long list (the 32
    calls of Calabresella) is seen whole: choices that begin with the same word are listed under
    that word, once. The arrows move over them; Enter or a click takes one."""

    class Selected(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("up", "move(-1, 0)", show=False), Binding("down", "move(1, 0)", show=False),
        Binding("left", "move(0, -1)", show=False), Binding("right", "move(0, 1)", show=False),
        Binding("enter,space", "select", show=False)]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.labels: list[str] = []
        self.numbers: list[int] = []
        self.cursor = 0

    def show(self, labels: Sequence[str], numbers: Sequence[int], cursor: int = 0) -> None:
        self.labels, self.numbers = list(labels), list(numbers)
        self.cursor = min(cursor, max(0, len(self.labels) - 1))
        self.refresh(layout=True)

    def groups(self) -> list[tuple[str, list[int]]]:
        """The choices in runs: a word said once and the choices under it, or ("", one choice)."""
        runs: list[tuple[str, list[int]]] = []
        for i, label in enumerate(self.labels):
            word = label.split(" ", 1)[0] if " " in label else ""
            if runs and word and runs[-1][0] == word:
                runs[-1][1].append(i)
            else:
                runs.append((word, [i]))
        grouped: list[tuple[str, list[int]]] = []
        for word, members in runs:
            if word and len(members) >= GROUPED:
                grouped.append((word, members))
            else:
                grouped += [("", [i]) for i in members]
        return grouped

    def entry(self, index: int, word: str) -> str:
        """A choice as listed: its number, and its words (without the word of its group)."""
        digits = len(str(max(self.numbers, default=1)))
        label = self.labels[index].split(" ", 1)[1] if word else self.labels[index]
        return f"{self.numbers[index]:>{digits}} {label}"

    def rows(self, width: int) -> list[list[tuple[int, int, str]]]:
        """The choices placed in rows: (index, column where it starts, its text); each group
        starts a row, its word first."""
        rows: list[list[tuple[int, int, str]]] = []
        loose = [i for word, members in self.groups() if not word for i in members]
        loose_cell = max((len(self.entry(i, "")) for i in loose), default=0) + 2
        row: list[tuple[int, int, str]] = []
        x = 0
        for word, members in self.groups():
            if word:
                if row:
                    rows.append(row)
                cell = max(len(self.entry(i, word)) for i in members) + 2
                indent = len(word) + 1
                row, x = [], indent
                for i in members:
                    if x + cell > width and row:
                        rows.append(row)
                        row, x = [], indent
                    row.append((i, x, self.entry(i, word)))
                    x += cell
                rows.append(row)
                row, x = [], 0
            else:
                (i,) = members
                if x + loose_cell > width and row:
                    rows.append(row)
                    row, x = [], 0
                row.append((i, x, self.entry(i, "")))
                x += loose_cell
        if row:
            rows.append(row)
        return rows

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.rows(width))

    def render(self) -> Text:
        words = {members[0]: word for word, members in self.groups() if word}
        lines = []
        for row in self.rows(self.content_size.width):
            line = Text()
            first = row[0][0]
            if first in words:
                line.append(words[first] + " ", style="bold")
            for index, x, text in row:
                line.pad_right(x - line.cell_len)
                number, _, said = text.partition(" ")
                entry = Text(number + " ", style="bold #ffd75e") + coloured(said)
                if index == self.cursor and self.has_focus:
                    entry.stylize("reverse")
                line.append_text(entry)
            lines.append(line)
        return Text("\n").join(lines)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def place(self, index: int) -> tuple[int, int]:
        """The row of a choice and its place in the row."""
        for r, row in enumerate(self.rows(self.content_size.width)):
            for k, (i, _, _) in enumerate(row):
                if i == index:
                    return r, k
        return 0, 0

    def action_move(self, rows: int, columns: int) -> None:
        """Left and right go through the choices in order; up and down to the choice above or below."""
        if not self.labels:
            return
        if columns:
            self.cursor = max(0, min(len(self.labels) - 1, self.cursor + columns))
        else:
            grid = self.rows(self.content_size.width)
            r, k = self.place(self.cursor)
            if 0 <= r + rows < len(grid):
                x = grid[r][k][1]
                self.cursor = min(grid[r + rows], key=lambda cell: abs(cell[1] - x))[0]
        self.refresh()

    def action_select(self) -> None:
        if self.labels:
            self.post_message(self.Selected(self.cursor))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        grid = self.rows(self.content_size.width)
        if offset is None or not 0 <= offset.y < len(grid):
            return
        for index, x, text in grid[offset.y]:
            if x <= offset.x < x + len(text) + 1:
                self.cursor = index
                self.focus()
                self.post_message(self.Selected(index))
                return


# -- screens over the table ----------------------------------------------------------------------


class TextScreen(ModalScreen[None]):
    """Lines of text in a box, closed by Escape, Enter or the button."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("escape,enter,q,question_mark", "close", show=False)]

    def __init__(self, title: str, lines: Sequence[str], lang: str) -> None:
        super().__init__()
        self.title_text, self.lines, self.lang = title, list(lines), lang

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(self.title_text, style="bold"), classes="dialog-title")
            with VerticalScroll(classes="dialog-body"):
                yield Static(lines_text(self.lines), id="text")
            yield Button(say(self.lang, "close"), id="close", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


class HintScreen(ModalScreen[str | None]):
    """The maestro's choice and the value of the best few actions (of all of them, once asked),
    laid over the table's notes (the region ``over``), so that the seats, the trick and the hand
    stay in view; its choice can be played from here."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("escape,q", "close", show=False), Binding("enter", "play", show=False),
        Binding("a", "everything", show=False)]

    def __init__(self, hint: Hint, words: ReviewWords, over: Region) -> None:
        super().__init__()
        self.hint, self.words, self.over = hint, words, over
        self.view, self.lang = words.view, words.lang

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as dialog:
            dialog.styles.offset = (self.over.x, self.over.y)
            dialog.styles.width = self.over.width
            dialog.styles.height = self.over.height
            yield Static(Text(say(self.lang, "hint_title"), style="bold"), classes="dialog-title")
            with VerticalScroll(classes="dialog-body"):
                yield Static(lines_text(self.words.hint_lines(self.hint)), id="text")
            with Horizontal(classes="buttons"):
                yield Button(say(self.lang, "hint_play", action=self.view.action(self.hint.action)), id="play",
                             variant="primary")
                if self.words.hidden_in_hint(self.hint):
                    yield Button(say(self.lang, "hint_everything"), id="everything")
                yield Button(say(self.lang, "close"), id="close")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "everything":
            self.action_everything()
            return
        self.dismiss(self.hint.action if event.button.id == "play" else None)

    def action_everything(self) -> None:
        """Every action the maestro weighed, not only the best few."""
        self.query_one("#text", Static).update(lines_text(self.words.hint_lines(self.hint, everything=True)))
        for button in self.query("#everything").results(Button):
            button.remove()

    def action_play(self) -> None:
        self.dismiss(self.hint.action)

    def action_close(self) -> None:
        self.dismiss(None)


class AnalysisStopped(Exception):
    """Raised through the analysis's progress callback when the person moves on before it ends."""


class DealScreen(Screen[None]):
    """After a deal: its last trick and result, then the analysis of every choice made in it."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("enter,escape,space", "close", show=False)]

    def __init__(self, table: TableApp, index: int) -> None:
        super().__init__()
        self.table, self.index = table, index
        self.lang = table.lang
        self.stopped = False
        self.analysis: DealAnalysis | None = None

    def compose(self) -> ComposeResult:
        table, index = self.table, self.index
        match = table.match
        final = match.observation(table.human, deal=index)
        result = table.view.deal_result(index, match.results[index].as_json(), table.totals_after(index))
        with Vertical(classes="page"):
            yield Static(lines_text([*table.view.last_trick(final), *result]), id="result")
            yield Static(Text(say(self.lang, "analysis_title"), style="bold"), classes="dialog-title")
            yield ProgressBar(id="progress", show_eta=False)
            with VerticalScroll(id="analysis-body"):
                yield Static(say(self.lang, "review_wait", n=self.index + 1) if table.analysis
                             else say(self.lang, "analysis_off"), id="analysis")
            yield Button(say(self.lang, "continue"), id="continue", variant="primary")

    def on_mount(self) -> None:
        if self.table.analysis:
            self.analyse()
        else:
            self.query_one(ProgressBar).display = False
            self.query_one("#analysis-body").styles.height = "auto"

    @work(thread=True, exclusive=True, group="analysis")
    def analyse(self) -> None:
        from osteria.analysis import analyse_deal

        def progress(done: int, total: int) -> None:
            if self.stopped:
                raise AnalysisStopped
            self.app.call_from_thread(self.query_one(ProgressBar).update, total=total, progress=done)

        try:
            analysis = analyse_deal(self.table.match, self.index, honest_time=self.table.analysis_time,
                                    max_nodes=self.table.analysis_nodes, progress=progress)
        except AnalysisStopped:
            return
        except Exception as exc:  # any failure is shown, and the table goes on
            self.app.call_from_thread(self.show_lines, [say(self.lang, "analysis_failed", error=exc)])
            return
        self.app.call_from_thread(self.show_analysis, analysis)

    def show_lines(self, lines: Sequence[str]) -> None:
        if not self.stopped:
            self.query_one("#analysis", Static).update(lines_text(lines))
            self.query_one(ProgressBar).display = False

    def show_analysis(self, analysis: DealAnalysis) -> None:
        self.analysis = analysis
        self.show_lines(self.table.words.review_lines(analysis, self.index))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_close()

    def action_close(self) -> None:
        self.stopped = True
        self.dismiss(None)


class Dialog(ModalScreen[str]):
    """A question over the table, answered by one of its buttons: ← and → (or Tab) move between
    them, Enter presses the one in focus, which is at first the one that changes nothing; Escape
    answers it too. Each answer is the id of its button."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("left", "app.focus_previous", show=False), Binding("right", "app.focus_next", show=False)]

    def __init__(self, title: str, body: str, buttons: Sequence[tuple[str, str]], *, safe: str,
                 keys: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.title_text, self.body, self.buttons, self.safe = title, body, list(buttons), safe
        self.keys = dict(keys or {})

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(self.title_text, style="bold"), classes="dialog-title")
            if self.body:
                yield Static(self.body, id="text")
            with Horizontal(classes="buttons"):
                for answer, label in self.buttons:
                    yield Button(label, id=answer, variant="error" if answer == "quit" else "default")

    def on_mount(self) -> None:
        self.query_one(f"#{self.safe}", Button).focus()

    def on_key(self, event: events.Key) -> None:
        answer = self.safe if event.key == "escape" else self.keys.get(event.character or "")
        if answer is not None:
            event.stop()
            event.prevent_default()
            self.dismiss(answer)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or self.safe)


def quit_dialog(lang: str, path: str) -> Dialog:
    """Leaving before the end: save and quit, quit, or stay, which has the focus."""
    return Dialog(say(lang, "quit_title"), say(lang, "save_where", path=path),
                  [("save", say(lang, "save_quit")), ("quit", say(lang, "quit_no_save")),
                   ("stay", say(lang, "cancel"))], safe="stay", keys={"y": "save", "s": "save", "n": "quit"})


def replace_dialog(lang: str, path: str) -> Dialog:
    """Saving over a file that does not hold this match: only if the person says so."""
    return Dialog(say(lang, "replace_title"), path,
                  [("replace", say(lang, "replace")), ("keep", say(lang, "keep_file"))], safe="keep")


def last_round_dialog(lang: str, last_deal: int) -> Dialog:
    """Declaring the match's last round: the deal it would end with, then yes or cancel."""
    return Dialog(say(lang, "last_round_title"), say(lang, "last_round_body", n=last_deal + 1),
                  [("yes", say(lang, "last_round_yes")), ("no", say(lang, "cancel"))],
                  safe="no", keys={"y": "yes", "s": "yes", "n": "no"})


# -- the table -----------------------------------------------------------------------------------

TABLE_CSS = """
Screen { background: #0f4d2a; color: #f3ecd6; overflow: hidden; }
#top { height: auto; align-horizontal: center; }
#middle { height: 1fr; min-height: 6; }
.seat { border: round #c8b273; border-title-style: bold; border-title-color: #f3ecd6;
        border-subtitle-color: #d9d2b8; padding: 0 1; height: auto; min-height: 3; width: 1fr; }
.seat.to-move { border: heavy #ffd75e; border-title-color: #ffd75e; background: #16603a; }
#top .seat { max-width: 40; }
#middle .seat { width: 24; }
Screen.-narrow #middle .side { display: none; }
Screen.-wide #top .side { display: none; }
#center { border: double #c8b273; width: 1fr; height: 1fr; padding: 0 1; }
#status-box { height: 1fr; min-height: 1; }
#status, #previous, #taken { height: auto; }
#previous { color: #d9d2b8; }
#taken { text-align: center; text-style: bold; color: #ffd75e; }
#trick { height: auto; align-horizontal: center; }
.played { width: 12; height: auto; margin: 0 1; align-horizontal: center; }
Screen.-narrow .played { width: 10; margin: 0; }
.played Static.label { width: 100%; text-align: center; text-style: bold; }
.card { width: 5; height: 4; border: round #8a7a50; background: #fbf6e9; content-align: center middle;
        text-style: bold; margin: 0 1 0 0; }
.card.suit-d { color: #b8860b; }
.card.suit-c { color: #c0392b; }
.card.suit-s { color: #1f4e9c; }
.card.suit-b { color: #2e7d32; }
#hand .card { height: 5; background: #b9b29d; border: round #6d6650; }
#hand .card.playable { background: #fbf6e9; border: round #c79a00; }
#hand .card.picked { border: heavy #e8603c; offset: 0 -1; }
#hand .card:focus { border: heavy #1f6fd1; }
#hand { height: 6; align-horizontal: center; padding-top: 1; }
Screen.-short .card { width: 3; height: 1; border: none; margin: 0 1 0 0; }
Screen.-short .played .card { margin: 0; }
Screen.-short #hand { height: 2; padding-top: 0; }
Screen.-short #hand .card { height: 2; border: none; }
Screen.-short #hand .card.playable { border: none; }
Screen.-short #hand .card.picked { border: none; offset: 0 0; background: #f2a58e; }
Screen.-short #hand .card:focus { border: none; background: #9cc3f2; }
#own-row { height: auto; }
#own { height: 1; width: auto; padding: 0 1; }
#message { height: auto; width: 1fr; padding: 0 1; color: #ffd75e; }
#choices { height: auto; max-height: 16; background: #123f26; border: round #c8b273; padding: 0 1; }
#choices:focus { border: round #ffd75e; }
#legend { height: auto; padding: 0 1; color: #d9d2b8; }
#toolbar { height: 1; }
#toolbar Button { height: 1; min-width: 0; width: auto; border: none; margin: 0 1 0 0; padding: 0; line-pad: 1; }
.dialog { width: 90%; max-width: 110; height: auto; max-height: 90%; border: thick #c8b273; background: #123f26;
          padding: 1 2; }
Screen.-short .dialog { width: 100%; max-height: 100%; padding: 0 1; }
ModalScreen { align: center middle; }
HintScreen { align: left top; background: transparent; }
HintScreen .dialog { max-width: 100%; border: round #c8b273; padding: 0 1; }
HintScreen .dialog-title { padding: 0; }
HintScreen .dialog-body { height: 1fr; max-height: 100%; }
HintScreen .buttons { padding: 0; }
HintScreen.-short Button { height: 1; min-width: 0; border: none; }
.dialog-title { height: auto; padding-bottom: 1; }
.dialog-body { height: auto; max-height: 30; }
Screen.-short .dialog-body { max-height: 16; }
.buttons { height: auto; padding-top: 1; }
.buttons Button { margin-right: 2; }
.page { padding: 1 2; }
Screen.-short .page { padding: 0 1; }
#analysis-body { height: 1fr; border: round #c8b273; }
"""


class TableApp(App[int]):
    """A match at the full-screen table: the person decides for ``human_seat`` (and for any seat it
    decides for, such as its dummy); ``bots`` decide for the others, ``delay`` seconds after
    making up their minds, so that their cards can be followed; a trick taken stays in the middle
    ``trick_pause`` seconds (any key or click goes on at once).

    - ``analysis``: analyse each finished deal (``analysis_time`` seconds per honest choice,
      ``analysis_nodes`` nodes per open-card solve); ``hint_time``: the maestro's seconds per hint.
    - ``save_path``: where ``s`` saves the match's osteria/1 record, and where it is saved when the
      match ends; without one, ``s`` saves it in the user's data folder under a name of its own.
      A file that does not hold this match (``resumed_from``, or one saved by this table) is
      replaced only once the person says so.
    - ``key_guard``: the seconds after the person's choice during which Enter and digits are
      ignored, so that a key meant for it (Enter after a number taken at once) does not choose
      in the next decision."""

    CSS = TABLE_CSS
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("h", "hint", show=False), Binding("p", "previous", show=False),
        Binding("s", "save", show=False), Binding("question_mark,f1", "help", show=False),
        Binding("m", "last_round", show=False),
        Binding("q", "quit_table", show=False), Binding("escape", "unpick", show=False),
        Binding("left", "hand_focus(-1)", show=False), Binding("right", "hand_focus(1)", show=False),
        Binding("enter", "take_number", show=False, priority=True),
    ]

    def __init__(self, match: Match, *, human_seat: int = 0, lang: str = "it", bots: Mapping[int, Bot],
                 levels: Mapping[int, str] | None = None, delay: float = 0.7, save_path: str | None = None,
                 analysis: bool = True, analysis_time: float = 0.2, analysis_nodes: int = 200_000,
                 hint_time: float = 1.0, seed: int | None = None, trick_pause: float = 1.5,
                 key_guard: float = 0.4, resumed_from: str | None = None) -> None:
        super().__init__()
        # The side panels fold into the top row below 110 columns; below 34 lines the cards are drawn in one line.
        self.HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
        self.VERTICAL_BREAKPOINTS = [(0, "-short"), (34, "-tall")]
        self.match = match
        self.human = human_seat
        self.lang = lang
        self.bots = dict(bots)
        self.levels = dict(levels or {})
        self.delay = delay
        self.trick_pause = trick_pause
        self.key_guard = key_guard
        self.decided_at = -key_guard  # when the person last chose
        self.beat: Timer | None = None  # while a trick just taken stays in the middle
        self.save_path = save_path or default_save_path(match.game.name, seed)
        self.save_given = save_path is not None
        self.own_files = {resumed_from} - {None}  # files that hold this match: replaced without asking
        self.analysis, self.analysis_time, self.analysis_nodes = analysis, analysis_time, analysis_nodes
        self.hint_time = hint_time
        self.seed = seed
        self.view = view_for(match.game, lang, match.players, human_seat)
        self.words = ReviewWords(self.view)  # of hints and analyses
        self.results_shown = len(match.results)
        self.choices: list[str] = []  # the legal actions listed, in the list's order
        self.typed: dict[str, list[str]] = {}  # kinds of action chosen by picking cards (discards)
        self.picked: list[str] = []
        self.card_filter: str | None = None
        self.show_previous = False
        self.digits = ""  # a number typed, waiting for Enter or its next digit
        self.busy = False  # a bot is thinking, or a screen over the table waits for the person
        self.turn = 0  # counts actions played, so a late bot or hint cannot play into a later turn
        self.observation: dict[str, Any] = {}
        self.trick_drawn: list[tuple[int, str]] | None = None  # what the table shows, not to draw it twice
        self.hand_drawn: list[tuple[str, bool, bool, int | None]] | None = None

    # -- layout --------------------------------------------------------------------------------

    def places(self) -> tuple[int | None, list[int], int | None]:
        """Where the other seats sit around the person, who sits at the bottom. Play goes round
        counter-clockwise: the next seat sits at the person's right, the one before at the left,
        and those between across the top, from right to left; on screen play runs as at a table."""
        seats = self.match.game.seats
        order = [(self.human + k) % seats for k in range(1, seats)]
        if len(order) < 2:
            return None, order, None
        return order[-1], list(reversed(order[1:-1])), order[0]

    def compose(self) -> ComposeResult:
        left, across, right = self.places()
        with Horizontal(id="top"):
            # The seats beside the middle sit here too, shown when the terminal is too narrow for them.
            if left is not None:
                yield SeatBox(left, classes="side")
            for seat in across:
                yield SeatBox(seat)
            if right is not None:
                yield SeatBox(right, classes="side")
        with Horizontal(id="middle"):
            if left is not None:
                yield SeatBox(left, classes="side")
            with Vertical(id="center"):
                with VerticalScroll(id="status-box"):
                    yield Static(id="status")
                yield Static(id="previous")
                yield Horizontal(id="trick")
                yield Static(id="taken")
            if right is not None:
                yield SeatBox(right, classes="side")
        with Horizontal(id="own-row"):
            yield Static(id="own")
            yield Static(id="message")
        yield Horizontal(id="hand")
        yield ChoiceGrid(id="choices")
        yield Static(id="legend")
        with Horizontal(id="toolbar"):
            for key, action in (("button_hint", "hint"), ("button_previous", "previous"), ("button_save", "save"),
                                ("button_last_round", "last_round"), ("button_help", "help"),
                                ("button_quit", "quit_table")):
                yield Button(say(self.lang, key), id=f"button-{action}")

    async def on_mount(self) -> None:
        self.title = say(self.lang, "title", game=self.match.game.name)
        await self.redraw()
        self.advance()

    # -- drawing -------------------------------------------------------------------------------

    def level_of(self, seat: int) -> str | None:
        """The level of a seat's bot in the table's language (any other bot by its own name)."""
        level = self.levels.get(seat)
        return None if level is None else level_name(self.lang, level)

    async def redraw(self) -> None:
        """Draw the table as the person's seat sees it now."""
        match = self.match
        obs = self.observation = match.observation(self.human)
        view = self.view
        view.note(obs)  # what orders the cards (a trump just called), before they are sorted
        for box in self.query(SeatBox).results(SeatBox):
            self.draw_seat(box, obs)
        status = [*view.match_and_deal(obs), *view.declarations(obs), *view.signals(obs), *view.extras(obs)]
        self.query_one("#status", Static).update(lines_text(status))
        # Offered only to the seat that may declare it now (Calabresella's dealer).
        self.query_one("#button-last_round", Button).display = match.may_declare_last_round(self.human)
        previous = view.last_trick(obs) if self.show_previous else []
        self.query_one("#previous", Static).update(lines_text(previous))
        await self.draw_trick(seat_cards(obs.get("trick")) or [] if obs.get("phase") not in view.bidding_phases
                              else [], obs)
        self.list_choices(obs)
        await self.draw_hand(obs)
        self.draw_choices(obs)

    def draw_seat(self, box: SeatBox, obs: Observation) -> None:
        seat, view = box.seat, self.view
        to_move = obs.get("to_move")
        hands = obs.get("hands") if isinstance(obs.get("hands"), list) else None
        sizes = obs.get("hand_sizes") if isinstance(obs.get("hand_sizes"), list) else None
        box.border_title = ("▶ " if seat == to_move else "") + view.name(seat)
        box.border_subtitle = self.level_of(seat) or ""
        lines = []
        open_hand = hands[seat] if hands is not None else None
        if isinstance(open_hand, list):
            lines += [Text(say(self.lang, "dummy_mark"), style="italic"), coloured(view.cards(open_hand))]
        elif sizes is not None:
            lines.append(Text(say(self.lang, "cards_left", n=sizes[seat]) + " " + "▮" * sizes[seat],
                              style="#d9d2b8", no_wrap=True, overflow="crop"))
        if seat == obs.get("dealer"):
            lines.append(Text(say(self.lang, "dealer_mark"), style="#ffd75e"))
        box.update(Group(*lines))
        box.set_class(seat == to_move, "to-move")

    async def draw_trick(self, pairs: list[tuple[int, str]], obs: Observation, taker: int | None = None) -> None:
        """The cards in the middle, each with who played it and what was said with it; a trick
        just taken stays there a moment, its ``taker`` named."""
        self.query_one("#taken", Static).update(
            "" if taker is None else say(self.lang, "trick_taken", name=self.view.name_object(taker)))
        trick = self.query_one("#trick", Horizontal)
        if pairs == self.trick_drawn:
            return
        self.trick_drawn = pairs
        await trick.remove_children()
        said = {a.split()[0]: a for _, a in self.view.history(obs) if a.split()}
        played = []
        for seat, card in pairs:
            words = said.get(card, card).split()[1:]
            label = self.view.name(seat) + (" " + " ".join(words) if words else "")
            played.append(Vertical(CardFace(card), Static(label, classes="label"), classes="played"))
        if played:
            await trick.mount(*played)

    def deciding_for(self) -> int | None:
        """The seat whose cards the person plays now when it is not the person's own (a dummy)."""
        to_move = self.observation.get("to_move")
        if isinstance(to_move, int) and to_move != self.human and self.match.decider == self.human:
            return to_move
        return None

    def hand_cards(self) -> list[str]:
        """The cards shown as the hand: the person's, or those of the dummy the person plays for."""
        obs = self.observation
        dummy = self.deciding_for()
        hands = obs.get("hands")
        cards = hands[dummy] if dummy is not None and isinstance(hands, list) else obs.get("hand", [])
        known = [c for c in (card_of(text) for text in cards or []) if c is not None]
        ordered = sorted(known, key=lambda c: (self.view.group_of(c), self.view.rank_key(c)))
        return [CARD_STRINGS[c] for c in ordered]

    async def draw_hand(self, obs: Observation) -> None:
        hand = self.query_one("#hand", Horizontal)
        focused = self.focused.card if isinstance(self.focused, CardFace) and self.focused.parent is hand else None
        legal = obs.get("legal_actions") or []
        playable = {a.split()[0] for a in legal if a.split()} if not self.typed else set()
        picking = bool(self.typed)
        numbers = {action: n for n, action in enumerate(self.choices, 1) if card_of(action.split()[0]) is not None
                   and self.card_filter is None}
        shown = [(card, picking or card in playable, card in self.picked, numbers.get(card))
                 for card in self.hand_cards()]
        if shown != self.hand_drawn:  # a hand is drawn anew only when it changes
            self.hand_drawn = shown
            await hand.remove_children()
            faces = [CardFace(card, playable=playable, picked=picked, focusable=True, number=number,
                              id=f"card-{card}") for card, playable, picked, number in shown]
            if faces:
                await hand.mount(*faces)
        dummy = self.deciding_for()
        own = [say(self.lang, "your_dummy", name=self.view.name(dummy)) if dummy is not None
               else say(self.lang, "hand_title")]
        if obs.get("dealer") == self.human:
            own.append(say(self.lang, "dealer_mark"))
        line = Text(" · ".join(own), style="bold")
        if dummy is not None and isinstance(obs.get("hand"), list):  # the person's own cards, while playing the dummy's
            line += Text("   ") + coloured(say(self.lang, "your_hand", cards=self.view.cards(obs["hand"])))
        self.query_one("#own", Static).update(line)
        if focused is not None and hand.query(f"#card-{focused}"):
            hand.query_one(f"#card-{focused}", CardFace).focus()

    def list_choices(self, obs: Observation) -> None:
        """The choices, numbered from 1: those that play no card of the hand first, then the hand's
        playable cards, each standing for every way of playing it; once a card with several ways
        is picked, just its ways. The kinds of action too many to list are chosen by picking cards."""
        listed, self.typed = split_choices(self.view.ordered(obs.get("legal_actions") or []))
        ways = [a for a in listed if a.split()[0] == self.card_filter]
        if ways:
            self.choices = ways
            return
        self.card_filter = None
        plays_card = [card_of(a.split()[0]) is not None for a in listed]
        cards = list(dict.fromkeys(a.split()[0] for a, card in zip(listed, plays_card, strict=True) if card))
        self.choices = [a for a, card in zip(listed, plays_card, strict=True) if not card] + cards

    def draw_choices(self, obs: Observation) -> None:
        grid = self.query_one(ChoiceGrid)
        legal = obs.get("legal_actions") or []
        listed = [(n, action) for n, action in enumerate(self.choices, 1)
                  if self.card_filter is not None or card_of(action.split()[0]) is None]
        grid.show([self.view.action(action) for _, action in listed], [n for n, _ in listed])
        grid.display = bool(listed)
        notes = []
        meanings = self.view.legend([action for _, action in listed])
        if meanings:
            notes.append(meanings)
        for word, group in self.typed.items():
            needed = len(group[0].split()) - 1
            picked = " " + say(self.lang, "picked", cards=self.view.cards(self.picked)) if self.picked else ""
            notes.append(f"✎ {self.view.term(word)}: {say(self.lang, 'pick_cards', n=needed)}{picked}")
        self.query_one("#legend", Static).update(lines_text(notes))
        self.prompt(bool(legal))

    def prompt(self, to_choose: bool) -> None:
        """The message line at the person's turn (``to_choose``), else none."""
        if not to_choose:
            self.set_message("")
        elif self.deciding_for() is None:
            self.set_message(say(self.lang, "your_turn"))
        else:
            self.set_message(say(self.lang, "play_for", name=self.view.name(self.deciding_for())))

    def set_message(self, text: str) -> None:
        self.query_one("#message", Static).update(coloured(text))

    # -- the flow of the match -------------------------------------------------------------------

    def advance(self) -> None:
        """After every action: a finished deal's screen, the match's end, a bot's turn, or the person's."""
        match = self.match
        if self.results_shown < len(match.results):
            index = self.results_shown
            self.results_shown += 1
            self.busy = True
            self.push_screen(DealScreen(self, index), self.after_screen)
            return
        if match.finished:
            self.busy = True
            self.match_over()
            return
        seat = match.decider
        assert seat is not None
        bot = self.bots.get(seat)
        if bot is None:
            self.busy = False
            self.focus_choices()
            return
        self.busy = True
        self.set_message(say(self.lang, "waiting", name=self.view.name(seat)))
        # The bot sees its seat's observation and nothing else.
        self.think(bot, match.observation(seat), self.turn)

    def after_screen(self, _: object = None) -> None:
        self.call_after_refresh(self.continue_after_screen)

    async def continue_after_screen(self) -> None:
        if self.match.deal_due:  # the person has seen the deal end: the next one
            self.match.begin_deal()
        await self.redraw()
        self.advance()

    @work(thread=True, group="bots")
    def think(self, bot: Bot, observation: dict[str, Any], turn: int) -> None:
        started = time.monotonic()
        action = bot.act(observation, list(observation["legal_actions"]))
        time.sleep(max(0.0, self.delay - (time.monotonic() - started)))
        self.call_from_thread(self.bot_played, action, turn)

    def bot_played(self, action: str, turn: int) -> None:
        if turn == self.turn:
            self.call_later(self.play_action, action)

    async def play_action(self, action: str) -> None:
        """Play an action for the seat to move, then draw the table and go on; a trick it ends
        stays in the middle a moment, its taker named."""
        seat = self.match.to_move
        before = self.match.observation(self.human)
        deals_over = len(self.match.results)
        try:
            self.match.play(action)
        except IllegalAction as exc:
            self.set_message(say(self.lang, "not_allowed", why=self.view.reason(exc.reason)))
            return
        self.turn += 1
        self.picked, self.card_filter, self.digits = [], None, ""
        ended = len(self.match.results) > deals_over
        after = self.match.observation(self.human, deal=deals_over) if ended else self.match.observation(self.human)
        taken = taken_trick(before, seat, action, after) if seat is not None else None
        if taken is not None and self.trick_pause > 0:
            self.busy = True
            await self.redraw()
            await self.draw_trick(taken[0], after, taken[1])
            self.beat = self.set_timer(self.trick_pause, self.end_beat)
            return
        # Bots that play at once are not drawn card by card: the table is drawn for the person.
        if self.delay > 0 or self.match.decider not in self.bots or len(self.match.results) > self.results_shown:
            await self.redraw()
        self.advance()

    async def end_beat(self) -> None:
        """The trick taken leaves the middle, and play goes on."""
        if self.beat is None:
            return
        self.beat.stop()
        self.beat = None
        self.busy = False
        await self.redraw()
        self.advance()

    def human_turn(self) -> bool:
        return not self.busy and not self.match.finished and self.match.decider == self.human \
            and self.screen is self.screen_stack[0]

    async def choose(self, action: str) -> None:
        """The person chooses an action (from the list, a card, a typed number or the hint)."""
        if not self.human_turn():
            self.set_message(say(self.lang, "not_yours"))
            return
        self.decided_at = time.monotonic()
        await self.play_action(action)

    def just_chosen(self) -> bool:
        """Whether the person chose a moment ago: a key then was meant for that choice."""
        return time.monotonic() - self.decided_at < self.key_guard

    def focus_choices(self) -> None:
        """The choices take the keys where there are any; the hand's cards take ← and → anyway."""
        grid = self.query_one(ChoiceGrid)
        if grid.display:
            grid.focus()
            return
        if not isinstance(self.focused, CardFace):  # no card is played by an Enter meant for something else
            self.set_focus(None)

    # -- the person's input ----------------------------------------------------------------------

    async def on_choice_grid_selected(self, event: ChoiceGrid.Selected) -> None:
        numbers = [n for n, action in enumerate(self.choices, 1)
                   if self.card_filter is not None or card_of(action.split()[0]) is None]
        await self.take_choice(numbers[event.index])

    async def take_choice(self, number: int) -> None:
        """The person takes choice ``number``: a card of the hand is played as if clicked."""
        if not self.human_turn():
            self.set_message(say(self.lang, "not_yours"))
            return
        action = self.choices[number - 1]
        if self.card_filter is None and card_of(action.split()[0]) is not None:
            await self.pick_card(action)
        else:
            await self.choose(action)

    async def play_picked(self, word: str) -> None:
        """Play the kind of action ``word`` with the picked cards, if they make a legal one."""
        group = self.typed[word]
        needed = len(group[0].split()) - 1
        if len(self.picked) != needed:
            self.set_message(say(self.lang, "pick_more", n=needed - len(self.picked), word=word))
            return
        wanted = set(self.picked)
        action = next((a for a in group if set(a.split()[1:]) == wanted), None)
        if action is None:
            self.set_message(say(self.lang, "no_such_pick", word=word))
            return
        await self.choose(action)

    async def on_card_face_chosen(self, event: CardFace.Chosen) -> None:
        if self.beat is not None:  # a click ends the pause after a trick, and plays nothing
            await self.end_beat()
            return
        if not self.human_turn():
            self.set_message(say(self.lang, "not_yours"))
            return
        await self.pick_card(event.card)

    async def pick_card(self, card: str) -> None:
        """A card of the hand chosen: picked for a discard, played, or its ways of playing listed."""
        if self.typed:
            if card in self.picked:
                self.picked.remove(card)
            else:
                self.picked.append(card)
            await self.draw_hand(self.observation)
            self.draw_choices(self.observation)
            self.query_one(f"#card-{card}", CardFace).focus()
            return
        variants = [a for a in self.view.ordered(self.observation.get("legal_actions") or []) if a.split()[0] == card]
        if not variants:
            self.set_message(say(self.lang, "not_playable", card=self.view.action(card)))
        elif len(variants) == 1:
            await self.choose(variants[0])
        else:
            self.card_filter = card
            self.list_choices(self.observation)
            await self.draw_hand(self.observation)
            self.draw_choices(self.observation)
            self.set_message(say(self.lang, "variants", card=self.view.action(card)))
            self.focus_choices()

    async def on_key(self, event: events.Key) -> None:
        if self.beat is not None and self.screen is self.screen_stack[0]:  # any key ends the pause after a trick
            event.stop()
            event.prevent_default()
            await self.end_beat()
            return
        if event.character is None or not event.character.isdecimal() or not self.human_turn():
            return
        event.stop()
        if self.just_chosen():
            return
        self.digits += event.character
        if int(self.digits) * 10 > len(self.choices):  # no further digit can make a listed number
            await self.take_number()
        else:  # a longer number could follow: it waits for Enter, or for its next digit
            self.set_message(say(self.lang, "number_wait", n=self.digits))

    async def action_take_number(self) -> None:
        """Enter takes typed digits, or confirms a discard whose cards are all picked; otherwise
        Enter does what it does where it is. An Enter just after a choice was meant for it, and is
        dropped."""
        if self.just_chosen():
            return
        if self.digits:
            await self.take_number()
            return
        complete = [word for word, group in self.typed.items() if len(self.picked) == len(group[0].split()) - 1]
        if not complete or not self.human_turn():
            raise SkipAction
        await self.play_picked(complete[0])

    async def take_number(self) -> None:
        text, self.digits = self.digits, ""
        if not text or not self.human_turn():
            return
        n = int(text)
        if 1 <= n <= len(self.choices):
            await self.take_choice(n)
        else:
            self.set_message(say(self.lang, "bad_number", n=n, last=len(self.choices)))

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        button = event.button.id or ""
        if button.startswith("button-"):
            await self.run_action(button.removeprefix("button-"))

    async def action_unpick(self) -> None:
        self.picked, self.card_filter, self.digits = [], None, ""
        await self.redraw()

    def action_hand_focus(self, step: int) -> None:
        faces = list(self.query("#hand CardFace").results(CardFace))
        if not faces:
            return
        current = faces.index(self.focused) if isinstance(self.focused, CardFace) and self.focused in faces else -1
        faces[(current + step) % len(faces) if current >= 0 else (0 if step > 0 else -1)].focus()

    async def action_previous(self) -> None:
        """Show or hide the previous trick, while the rules let the seat look at it."""
        self.show_previous = not self.show_previous and bool(self.observation.get("last_trick"))
        await self.redraw()
        if not self.show_previous:
            self.set_message(say(self.lang, "previous_off" if self.observation.get("last_trick") else "no_previous"))

    def action_help(self) -> None:
        self.push_screen(TextScreen(say(self.lang, "help_title"), [say(self.lang, "keys_help"), *self.view.help()],
                                    self.lang))

    def action_save(self) -> None:
        self.save_then(None)

    def action_last_round(self) -> None:
        """Declare the match's last round, a control of the table and not a move: where the game
        lets the person's seat do it now, once the person confirms."""
        match = self.match
        last = match.last_deal_if_declared(self.human)
        if last is None:
            try:
                match.declare_last_round(self.human)  # refused: the engine says why
            except IllegalAction as exc:
                why = say(self.lang, "last_round_none", why=self.view.reason(exc.reason))
                if self.screen is self.screen_stack[0]:
                    self.set_message(why)
                else:
                    self.notify(why)
            return

        async def chosen(answer: str | None) -> None:
            if answer != "yes" or match.last_deal_if_declared(self.human) is None:
                return
            match.declare_last_round(self.human)
            lines = self.view.match_notes(match.observation(self.human))
            self.notify(" ".join(lines))
            if self.screen is self.screen_stack[0]:  # under a deal's screen, the table is drawn on leaving it
                await self.redraw()
                self.set_message(" ".join(lines))

        self.push_screen(last_round_dialog(self.lang, last), chosen)

    def save_then(self, then: Callable[[], object] | None) -> None:
        """Save the match, asking first where that would replace a file that does not hold it,
        then do ``then`` (only if it was saved)."""
        path = self.save_path

        def write() -> None:
            saved, said = save_match(self.match, path, self.lang, make_folder=not self.save_given)
            self.notify(said, severity="information" if saved else "error")
            if saved:
                self.own_files.add(path)
                if then is not None:
                    then()

        def answered(answer: str | None) -> None:
            if answer == "replace":
                write()
            else:
                self.notify(say(self.lang, "not_saved"))

        if Path(path).exists() and path not in self.own_files:
            self.push_screen(replace_dialog(self.lang, path), answered)
        else:
            write()

    def action_quit_table(self) -> None:
        if self.match.finished:
            self.exit(0)
            return

        def chosen(choice: str | None) -> None:
            if choice == "save":
                self.save_then(lambda: self.exit(0))
            elif choice == "quit":
                self.exit(0)

        self.push_screen(quit_dialog(self.lang, self.save_path), chosen)

    # -- the maestro's hint ------------------------------------------------------------------------

    def action_hint(self) -> None:
        if not self.human_turn():
            self.set_message(say(self.lang, "not_yours"))
            return
        self.set_message(say(self.lang, "hint_wait"))
        self.busy = True
        self.find_hint(self.match.observation(self.human), self.turn)

    @work(thread=True, exclusive=True, group="hint")
    def find_hint(self, observation: dict[str, Any], turn: int) -> None:
        from osteria.analysis import hint

        try:
            found = hint(observation, time_limit=self.hint_time, seed=self.seed)
        except Exception as exc:  # a failed hint is reported, and the table goes on
            self.call_from_thread(self.hint_failed, str(exc))
            return
        self.call_from_thread(self.show_hint, found, turn)

    def hint_failed(self, error: str) -> None:
        self.busy = False
        self.set_message(say(self.lang, "hint_none", why=error))

    def show_hint(self, found: Hint, turn: int) -> None:
        async def chosen(action: str | None) -> None:
            self.busy = False
            if action is not None and turn == self.turn:
                await self.choose(action)
            else:
                self.focus_choices()

        self.prompt(turn == self.turn)  # the maestro thinks no more
        self.push_screen(HintScreen(found, self.words, self.query_one("#status-box").region), chosen)

    # -- the end ---------------------------------------------------------------------------------

    def totals_after(self, index: int) -> list[int]:
        totals = [0] * self.match.game.seats
        for result in self.match.results[:index + 1]:
            totals = [t + d for t, d in zip(totals, result.delta, strict=True)]
        return totals

    def match_over(self) -> None:
        lines = self.view.match_end([r.as_json() for r in self.match.results], self.match.result()["winners"] or [])
        if self.save_given:
            lines.append(save_match(self.match, self.save_path, self.lang)[1])
        self.push_screen(TextScreen(say(self.lang, "match_over_title"), lines, self.lang),
                         lambda _: self.exit(0))


def play(game: str | None, *, lang: str = "it", seed: int | None = None, seats: int | None = None,
         human_seat: int = 0, save: str | None = None, options: Mapping[str, Any] | None = None,
         level: str = "medio", load: str | None = None, delay: float = 0.7, hint_time: float = 1.0,
         analysis: bool = True, analysis_time: float = 0.2, time_control: TimeControl | None = None,
         start_limit: float | None = None, trick_pause: float = 1.5) -> int:
    """Play a match at the full-screen table: a new match of ``game``, or the unfinished match of
    the record file ``load``, resumed where it stopped. The options are those of
    :func:`osteria.tui.plain.play`, and ``delay`` (a bot's seconds before its card lands),
    ``hint_time`` (the maestro's seconds per hint), ``analysis`` and ``analysis_time`` (each
    finished deal analysed, with that many seconds per honest choice) and ``trick_pause`` (a
    trick's seconds in the middle once taken). Returns the exit status:
    1, after a one-line message, for a bad game, option, seat, level, engine or record."""
    try:
        match, bots = table_match(game, lang=lang, seed=seed, seats=seats, human_seat=human_seat,
                                  options=options, level=level, load=load, time_control=time_control,
                                  start_limit=start_limit)
    except ValueError as exc:  # RulesError, RecordError
        print(say(lang, "error", error=exc), file=sys.stderr)
        return 1
    app = TableApp(match, human_seat=human_seat, lang=lang, bots=bots, levels=dict.fromkeys(bots, level),
                   delay=delay, save_path=save or load, resumed_from=load, analysis=analysis,
                   analysis_time=analysis_time, hint_time=hint_time, seed=seed, trick_pause=trick_pause)
    try:
        return app.run() or 0
    finally:
        close_bots(bots)

