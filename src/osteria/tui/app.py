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
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events, work
from textual.actions import SkipAction
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, OptionList, ProgressBar, Static
from textual.widgets.option_list import Option

from osteria.bots import Bot
from osteria.cards import CARD_STRINGS, RANKS, SUIT_SYMBOLS, SUITS, card_symbol, suit_of
from osteria.engine import IllegalAction, Match
from osteria.tui.plain import close_bots, save_match, split_choices, table_match
from osteria.tui.review import ReviewWords
from osteria.tui.words import say
from osteria.views import card_of, seat_cards, view_for

if TYPE_CHECKING:
    from osteria.analysis import DealAnalysis, Hint
    from osteria.arena.protocol import TimeControl

Observation = Mapping[str, Any]

# The suits' colours, as the Italian packs print them: gold denari, red coppe, blue spade, green bastoni.
SUIT_COLOURS = ("#b8860b", "#c0392b", "#1f4e9c", "#2e7d32")
CARD_PAPER = "#fbf6e9"
# A card as the views write it: its rank and its suit's symbol, as a word of its own.
CARD_TEXT = re.compile(rf"(?<!\w)[{re.escape(RANKS)}][{''.join(SUIT_SYMBOLS)}](?!\w)")
# Seconds to wait for a second digit before a typed number is taken as it is.
DIGIT_WAIT = 0.8


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
    """One card, face up: its rank and suit symbol in the suit's colour. Clicking it (or Enter on
    it) chooses it."""

    class Chosen(Message):
        def __init__(self, card: str) -> None:
            super().__init__()
            self.card = card

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("enter,space", "choose", show=False)]

    def __init__(self, card: str, *, playable: bool = False, picked: bool = False, focusable: bool = False,
                 id: str | None = None) -> None:
        self.card = card
        self.can_focus = focusable
        c = card_of(card)
        suit = SUITS[suit_of(c)] if c is not None else "d"
        marks = [mark for mark, on in (("playable", playable), ("picked", picked)) if on]
        classes = " ".join(["card", f"suit-{suit}", *marks])
        super().__init__(self.face(card), id=id, classes=classes)

    @staticmethod
    def face(card: str) -> Text:
        c = card_of(card)
        if c is None:
            return Text(card)
        symbol = card_symbol(c)
        return Text(f"{symbol[0]}\n{symbol[1]}", justify="center")

    def on_click(self) -> None:
        self.post_message(self.Chosen(self.card))

    def action_choose(self) -> None:
        self.post_message(self.Chosen(self.card))


class SeatBox(Static):
    """A seat at the table: its name, bot level, dealer and turn marks, and its cards: face down,
    or face up where the rules show them (a dummy)."""


class ActionList(OptionList):
    """The choices of the person's turn; a click or Enter plays one."""


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
    """The maestro's choice and the value of every legal action; its choice can be played from here."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("escape,q", "close", show=False), Binding("enter", "play", show=False)]

    def __init__(self, hint: Hint, words: ReviewWords) -> None:
        super().__init__()
        self.hint, self.words = hint, words
        self.view, self.lang = words.view, words.lang

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(say(self.lang, "hint_title"), style="bold"), classes="dialog-title")
            with VerticalScroll(classes="dialog-body"):
                yield Static(lines_text(self.words.hint_lines(self.hint)), id="text")
            with Horizontal(classes="buttons"):
                yield Button(say(self.lang, "hint_play", action=self.view.action(self.hint.action)), id="play",
                             variant="primary")
                yield Button(say(self.lang, "close"), id="close")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(self.hint.action if event.button.id == "play" else None)

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


class QuitScreen(ModalScreen[str]):
    """Leaving before the end: save and quit, quit, or stay."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("escape", "stay", show=False), Binding("y,s", "choose('save')", show=False),
        Binding("n", "choose('quit')", show=False)]

    def __init__(self, lang: str, path: str) -> None:
        super().__init__()
        self.lang, self.path = lang, path

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(say(self.lang, "quit_title"), style="bold"), classes="dialog-title")
            with Horizontal(classes="buttons"):
                yield Button(say(self.lang, "save_quit") + f" ({self.path})", id="save", variant="primary")
                yield Button(say(self.lang, "quit_no_save"), id="quit", variant="error")
                yield Button(say(self.lang, "cancel"), id="stay")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "stay")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)

    def action_stay(self) -> None:
        self.dismiss("stay")


class LastRoundScreen(ModalScreen[bool]):
    """Declaring the match's last round: the deal it would end with, then yes or cancel."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("escape,n", "choose(False)", show=False), Binding("y,s", "choose(True)", show=False)]

    def __init__(self, lang: str, last_deal: int) -> None:
        super().__init__()
        self.lang, self.last_deal = lang, last_deal

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(say(self.lang, "last_round_title"), style="bold"), classes="dialog-title")
            yield Static(say(self.lang, "last_round_body", n=self.last_deal + 1), id="text")
            with Horizontal(classes="buttons"):
                yield Button(say(self.lang, "last_round_yes"), id="yes", variant="primary")
                yield Button(say(self.lang, "cancel"), id="no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_choose(self, yes: bool) -> None:
        self.dismiss(yes)


# -- the table -----------------------------------------------------------------------------------

TABLE_CSS = """
Screen { background: #0f4d2a; color: #f3ecd6; }
#top, #middle { height: auto; }
#top { align-horizontal: center; }
SeatBox { border: round #c8b273; padding: 0 1; height: auto; min-height: 5; width: 1fr; }
SeatBox.to-move { border: heavy #ffd75e; background: #16603a; }
SeatBox.own { min-height: 3; }
#top SeatBox { max-width: 40; }
#center { border: double #c8b273; width: 3fr; height: auto; min-height: 12; padding: 0 1; }
#trick { height: auto; min-height: 6; align-horizontal: center; }
.played { width: 12; height: auto; margin: 0 1; align-horizontal: center; }
.played Static.label { width: 100%; text-align: center; text-style: bold; }
.card { width: 5; height: 4; border: round #8a7a50; background: #fbf6e9; content-align: center middle;
        text-style: bold; margin: 0 1 0 0; }
.card.suit-d { color: #b8860b; }
.card.suit-c { color: #c0392b; }
.card.suit-s { color: #1f4e9c; }
.card.suit-b { color: #2e7d32; }
#hand .card { background: #b9b29d; border: round #6d6650; }
#hand .card.playable { background: #fbf6e9; border: round #c79a00; }
#hand .card.picked { border: heavy #e8603c; offset: 0 -1; }
#hand .card:focus { border: heavy #1f6fd1; }
#hand { height: 6; align-horizontal: center; padding-top: 1; }
#hand-title { height: 1; padding: 0 1; }
#status { height: auto; }
#previous { height: auto; color: #d9d2b8; }
#choices { height: auto; max-height: 12; background: #123f26; border: round #c8b273; }
#message { height: auto; padding: 0 1; color: #ffd75e; }
#toolbar { height: 3; dock: bottom; }
#toolbar Button { min-width: 10; margin: 0 1 0 0; height: 3; }
.dialog { width: 90%; max-width: 110; height: auto; max-height: 90%; border: thick #c8b273; background: #123f26;
          padding: 1 2; }
ModalScreen { align: center middle; }
.dialog-title { height: auto; padding-bottom: 1; }
.dialog-body { height: auto; max-height: 30; }
.buttons { height: auto; padding-top: 1; }
.buttons Button { margin-right: 2; }
.page { padding: 1 2; }
#analysis-body { height: 1fr; border: round #c8b273; }
"""


class TableApp(App[int]):
    """A match at the full-screen table: the person decides for ``human_seat`` (and for any seat it
    decides for, such as its dummy); ``bots`` decide for the others, ``delay`` seconds after
    making up their minds, so that their cards can be followed.

    - ``analysis``: analyse each finished deal (``analysis_time`` seconds per honest choice,
      ``analysis_nodes`` nodes per open-card solve); ``hint_time``: the maestro's seconds per hint.
    - ``save_path``: where ``s`` saves the match's osteria/1 record, and where it is saved when the
      match ends."""

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
                 hint_time: float = 1.0, seed: int | None = None) -> None:
        super().__init__()
        self.match = match
        self.human = human_seat
        self.lang = lang
        self.bots = dict(bots)
        self.levels = dict(levels or {})
        self.delay = delay
        self.save_path = save_path or f"osteria-{match.game.name}.json"
        self.save_given = save_path is not None
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
        self.digits = ""
        self.digit_timer: Any = None
        self.busy = False  # a bot is thinking, or a screen over the table waits for the person
        self.turn = 0  # counts actions played, so a late bot or hint cannot play into a later turn
        self.observation: dict[str, Any] = {}
        self.trick_drawn: list[tuple[int, str]] | None = None  # what the table shows, not to draw it twice
        self.hand_drawn: list[tuple[str, bool, bool]] | None = None

    # -- layout --------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        others = [(self.human + k) % self.match.game.seats for k in range(1, self.match.game.seats)]
        left, right, across = others[0], others[-1], others[1:-1]
        with Horizontal(id="top"):
            for seat in across:
                yield SeatBox(id=f"seat-{seat}")
        with Horizontal(id="middle"):
            yield SeatBox(id=f"seat-{left}")
            with Vertical(id="center"):
                yield Static(id="status")
                yield Static(id="previous")
                yield Horizontal(id="trick")
            yield SeatBox(id=f"seat-{right}")
        yield SeatBox(id=f"seat-{self.human}", classes="own")
        yield Static(id="hand-title")
        yield Horizontal(id="hand")
        yield Static(id="message")
        yield ActionList(id="choices")
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
        return self.levels.get(seat)

    async def redraw(self) -> None:
        """Draw the table as the person's seat sees it now."""
        match = self.match
        obs = self.observation = match.observation(self.human)
        view = self.view
        view.note(obs)  # what orders the cards (a trump just called), before they are sorted
        to_move, dealer = obs.get("to_move"), obs.get("dealer")
        hands = obs.get("hands") if isinstance(obs.get("hands"), list) else None
        sizes = obs.get("hand_sizes") if isinstance(obs.get("hand_sizes"), list) else None
        for seat in range(match.game.seats):
            box = self.query_one(f"#seat-{seat}", SeatBox)
            marks = [say(self.lang, "to_move_you" if seat == self.human else "to_move_mark")] if seat == to_move else []
            if seat == dealer:
                marks.append(say(self.lang, "dealer_mark"))
            title = view.name(seat) + (f" · {self.level_of(seat)}" if self.level_of(seat) else "")
            lines = [Text(title, style="bold")]
            if marks:
                lines.append(Text(" · ".join(marks), style="#ffd75e"))
            open_hand = hands[seat] if hands is not None and seat != self.human else None
            if isinstance(open_hand, list):
                lines += [Text(say(self.lang, "dummy_mark"), style="italic"), coloured(view.cards(open_hand))]
            elif sizes is not None and seat != self.human:
                lines.append(Text("▮" * sizes[seat] + " " + say(self.lang, "cards_left", n=sizes[seat]),
                                  style="#d9d2b8"))
            if seat == self.human and to_move != self.human and isinstance(obs.get("hand"), list) \
                    and self.deciding_for() is not None:
                lines.append(coloured(say(self.lang, "your_hand", cards=view.cards(obs["hand"]))))
            box.update(Text("\n").join(lines))
            box.set_class(seat == to_move, "to-move")
        status = [*view.scores(obs), *view.match_notes(obs), *view.status(obs), *view.declarations(obs),
                  *view.signals(obs), *view.extras(obs)]
        self.query_one("#status", Static).update(lines_text(status))
        # Offered only to the seat that may declare it now (Calabresella's dealer).
        self.query_one("#button-last_round", Button).display = match.may_declare_last_round(self.human)
        previous = view.last_trick(obs) if self.show_previous else []
        self.query_one("#previous", Static).update(lines_text(previous))
        await self.draw_trick(obs)
        self.list_choices(obs)
        await self.draw_hand(obs)
        self.draw_choices(obs)

    async def draw_trick(self, obs: Observation) -> None:
        trick = self.query_one("#trick", Horizontal)
        pairs = seat_cards(obs.get("trick")) or []
        if obs.get("phase") in self.view.bidding_phases:
            pairs = []
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
        shown = [(card, picking or card in playable, card in self.picked) for card in self.hand_cards()]
        if shown != self.hand_drawn:  # a hand is drawn anew only when it changes
            self.hand_drawn = shown
            await hand.remove_children()
            faces = [CardFace(card, playable=playable, picked=picked, focusable=True, id=f"card-{card}")
                     for card, playable, picked in shown]
            if faces:
                await hand.mount(*faces)
        dummy = self.deciding_for()
        title = (say(self.lang, "your_dummy", name=self.view.name(dummy)) if dummy is not None
                 else say(self.lang, "hand_title"))
        self.query_one("#hand-title", Static).update(Text(title, style="bold"))
        if focused is not None and hand.query(f"#card-{focused}"):
            hand.query_one(f"#card-{focused}", CardFace).focus()

    def list_choices(self, obs: Observation) -> None:
        """The choices to list (those of a card the person clicked, if it has several), and the
        kinds of action too many to list, chosen by picking cards."""
        listed, self.typed = split_choices(self.view.ordered(obs.get("legal_actions") or []))
        if self.card_filter is not None:
            listed = [a for a in listed if a.split()[0] == self.card_filter] or listed
        self.choices = listed

    def draw_choices(self, obs: Observation) -> None:
        actions = self.query_one(ActionList)
        legal = obs.get("legal_actions") or []
        listed = self.choices
        options: list[Option] = []
        for n, action in enumerate(listed, 1):
            options.append(Option(coloured(f"{n:>2}) {self.view.action(action, explain=True)}"), id=f"action-{n}"))
        for word, group in self.typed.items():
            needed = len(group[0].split()) - 1
            picked = " " + say(self.lang, "picked", cards=self.view.cards(self.picked)) if self.picked else ""
            options.append(Option(coloured(f" ✎ {self.view.term(word)}: {say(self.lang, 'pick_cards', n=needed)}"
                                           f"{picked}"), id=f"typed-{word}"))
        actions.clear_options()
        actions.add_options(options)
        actions.display = bool(options)
        if options:
            # With the cards of a discard all picked, Enter confirms it.
            complete = [len(listed) + i for i, group in enumerate(self.typed.values())
                        if len(self.picked) == len(group[0].split()) - 1]
            actions.highlighted = complete[0] if complete else 0
        if not legal:
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
        """Play an action for the seat to move, then draw the table and go on."""
        try:
            self.match.play(action)
        except IllegalAction as exc:
            self.set_message(say(self.lang, "not_allowed", why=exc))
            return
        self.turn += 1
        self.picked, self.card_filter, self.digits = [], None, ""
        # Bots that play at once are not drawn card by card: the table is drawn for the person.
        if self.delay > 0 or self.match.decider not in self.bots or len(self.match.results) > self.results_shown:
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
        await self.play_action(action)

    def focus_choices(self) -> None:
        if self.query_one(ActionList).display:
            self.query_one(ActionList).focus()

    # -- the person's input ----------------------------------------------------------------------

    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        option_id = event.option.id or ""
        if option_id.startswith("action-"):
            await self.choose(self.choices[int(option_id.removeprefix("action-")) - 1])
        elif option_id.startswith("typed-"):
            await self.play_picked(option_id.removeprefix("typed-"))

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
        if not self.human_turn():
            self.set_message(say(self.lang, "not_yours"))
            return
        card = event.card
        if self.typed:
            if card in self.picked:
                self.picked.remove(card)
            else:
                self.picked.append(card)
            await self.draw_hand(self.observation)
            self.draw_choices(self.observation)
            if any(len(self.picked) == len(group[0].split()) - 1 for group in self.typed.values()):
                self.focus_choices()  # Enter confirms
            else:
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
            self.draw_choices(self.observation)
            self.set_message(say(self.lang, "variants", card=self.view.action(card)))
            self.focus_choices()

    async def on_key(self, event: events.Key) -> None:
        if event.character is None or not event.character.isdecimal() or not self.human_turn():
            return
        event.stop()
        self.digits += event.character
        if self.digit_timer is not None:
            self.digit_timer.stop()
        if int(self.digits) * 10 > len(self.choices):  # no further digit can make a listed number
            await self.take_number()
        else:
            self.digit_timer = self.set_timer(DIGIT_WAIT, self.take_number)

    async def action_take_number(self) -> None:
        """Enter after typed digits takes their number at once; otherwise Enter does what it does where it is."""
        if not self.digits:
            raise SkipAction
        if self.digit_timer is not None:
            self.digit_timer.stop()
        await self.take_number()

    async def take_number(self) -> None:
        text, self.digits = self.digits, ""
        if not text or not self.human_turn():
            return
        n = int(text)
        if 1 <= n <= len(self.choices):
            await self.choose(self.choices[n - 1])
        else:
            self.set_message(say(self.lang, "bad_number", n=n, last=len(self.choices)))

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        button = event.button.id or ""
        if button.startswith("button-"):
            await self.run_action(button.removeprefix("button-"))

    async def action_unpick(self) -> None:
        self.picked, self.card_filter = [], None
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
        self.notify(self.save())

    def action_last_round(self) -> None:
        """Declare the match's last round, a control of the table and not a move: where the game
        lets the person's seat do it now, once the person confirms."""
        match = self.match
        last = match.last_deal_if_declared(self.human)
        if last is None:
            try:
                match.declare_last_round(self.human)  # refused: the engine says why
            except IllegalAction as exc:
                if self.screen is self.screen_stack[0]:
                    self.set_message(say(self.lang, "last_round_none", why=exc))
                else:
                    self.notify(say(self.lang, "last_round_none", why=exc))
            return

        async def chosen(yes: bool | None) -> None:
            if not yes or match.last_deal_if_declared(self.human) is None:
                return
            match.declare_last_round(self.human)
            lines = self.view.match_notes(match.observation(self.human))
            self.notify(" ".join(lines))
            if self.screen is self.screen_stack[0]:  # under a deal's screen, the table is drawn on leaving it
                await self.redraw()
                self.set_message(" ".join(lines))

        self.push_screen(LastRoundScreen(self.lang, last), chosen)

    def save(self) -> str:
        return save_match(self.match, self.save_path, self.lang)[1]

    def action_quit_table(self) -> None:
        if self.match.finished:
            self.exit(0)
            return

        def chosen(choice: str | None) -> None:
            if choice == "save":
                self.save()
                self.exit(0)
            elif choice == "quit":
                self.exit(0)

        self.push_screen(QuitScreen(self.lang, self.save_path), chosen)

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

        self.push_screen(HintScreen(found, self.words), chosen)

    # -- the end ---------------------------------------------------------------------------------

    def totals_after(self, index: int) -> list[int]:
        totals = [0] * self.match.game.seats
        for result in self.match.results[:index + 1]:
            totals = [t + d for t, d in zip(totals, result.delta, strict=True)]
        return totals

    def match_over(self) -> None:
        lines = self.view.match_over(self.match.result()["winners"] or [])
        if self.save_given:
            lines.append(self.save())
        self.push_screen(TextScreen(say(self.lang, "match_over_title"), lines, self.lang),
                         lambda _: self.exit(0))


def play(game: str | None, *, lang: str = "it", seed: int | None = None, seats: int | None = None,
         human_seat: int = 0, save: str | None = None, options: Mapping[str, Any] | None = None,
         level: str = "medio", load: str | None = None, delay: float = 0.7, hint_time: float = 1.0,
         analysis: bool = True, analysis_time: float = 0.2, time_control: TimeControl | None = None,
         start_limit: float | None = None) -> int:
    """Play a match at the full-screen table: a new match of ``game``, or the unfinished match of
    the record file ``load``, resumed where it stopped. The options are those of
    :func:`osteria.tui.plain.play`, and ``delay`` (a bot's seconds before its card lands),
    ``hint_time`` (the maestro's seconds per hint), ``analysis`` and ``analysis_time`` (each
    finished deal analysed, with that many seconds per honest choice). Returns the exit status:
    1, after a one-line message, for a bad game, option, seat, level, engine or record."""
    try:
        match, bots = table_match(game, lang=lang, seed=seed, seats=seats, human_seat=human_seat,
                                  options=options, level=level, load=load, time_control=time_control,
                                  start_limit=start_limit)
    except ValueError as exc:  # RulesError, RecordError
        print(say(lang, "error", error=exc), file=sys.stderr)
        return 1
    app = TableApp(match, human_seat=human_seat, lang=lang, bots=bots, levels=dict.fromkeys(bots, level),
                   delay=delay, save_path=save or load, analysis=analysis, analysis_time=analysis_time,
                   hint_time=hint_time, seed=seed)
    try:
        return app.run() or 0
    finally:
        close_bots(bots)

