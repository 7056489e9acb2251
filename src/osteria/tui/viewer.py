"""Stepping through a record at the full-screen table, trick by trick, every hand in view.

A record is replayed (and so checked) first; the viewer then plays its deals again from the
dealt cards, taking a picture of every seat's view at the start of each deal and after each
trick or action outside the tricks (a bid, a call). The hands of finished deals are all shown;
the hands of a deal still in progress (a saved, unfinished match) stay hidden but one seat's.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from osteria.engine import Match
from osteria.records import RecordError, replay
from osteria.records import load as load_record
from osteria.tui.app import TABLE_CSS, lines_text
from osteria.tui.words import say
from osteria.views import TableView, seat_cards, taken_trick, view_for


@dataclass
class Frame:
    """One step of a record: the views of every seat after some actions of a deal."""

    deal: int
    observations: list[Mapping[str, Any]]  # one per seat, with the match's running score
    actions: list[tuple[int, str]]  # played since the previous step
    result: dict[str, Any] | None
    taker: int | None = None  # who took the trick the step ended with


def frames_of(record: dict[str, Any]) -> tuple[Match, list[Frame]]:
    """The checked match of a record and the steps to show; RecordError for a bad record."""
    full = replay(record)
    if not full.deals:
        raise RecordError("the record has no deal to show")
    again = Match(full.game, players=full.players)
    frames: list[Frame] = []
    seats = range(full.game.seats)
    for index, dealt in enumerate(full.deals):
        deal = again.begin_deal(dealt.hands, dealt.stock, dealt.dealer)
        frames.append(Frame(index, [again.observation(s) for s in seats], [], None))
        step: list[tuple[int, str]] = []
        for seat, action in dealt.deal.history:
            text = deal.action_str(action)
            before = again.observation(0)
            again.apply(action)
            step.append((seat, text))
            after = again.observation(0)
            taken = taken_trick(before, seat, text, after)
            # A step ends with a trick taken, or with an action that put no card on the table.
            if deal.over or taken is not None or len(after.get("trick") or []) == len(before.get("trick") or []):
                result = again.results[index].as_json() if deal.over else None
                frames.append(Frame(index, [again.observation(s) for s in seats], step, result,
                                    taken[1] if taken is not None else None))
                step = []
    return full, frames


class RecordViewer(App[int]):
    """A record, step by step: left and right arrows, page up and down for whole deals."""

    CSS = TABLE_CSS + """
    #frame { padding: 1 2; }
    """
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("right,space,n", "step(1)", show=False), Binding("left,b", "step(-1)", show=False),
        Binding("pagedown", "deal(1)", show=False), Binding("pageup", "deal(-1)", show=False),
        Binding("home", "go(0)", show=False), Binding("end", "go(-1)", show=False),
        Binding("q,escape", "leave", show=False),
    ]

    def __init__(self, record: dict[str, Any], *, lang: str = "it", seat: int = 0) -> None:
        super().__init__()
        self.match, self.frames = frames_of(record)
        self.lang, self.seat = lang, seat
        self.view: TableView = view_for(self.match.game, lang, self.match.players, seat)
        self.position = 0

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(id="frame")

    def on_mount(self) -> None:
        self.title = say(self.lang, "viewer_title", game=self.match.game.name)
        self.draw()

    def lines(self) -> list[str]:
        frame = self.frames[self.position]
        view = self.view
        obs = frame.observations[self.seat]
        view.note(obs)
        lines = [say(self.lang, "viewer_step", n=self.position + 1, total=len(self.frames), deal=frame.deal + 1),
                 say(self.lang, "viewer_keys"), "", *view.deal_header(obs)]
        lines += [*view.match_and_deal(obs), *view.declarations(obs), *view.signals(obs)]
        if frame.actions:
            played = " · ".join(f"{view.name(s)} {view.action(a)}" for s, a in frame.actions)
            lines.append(say(self.lang, "viewer_actions", items=played))
        else:
            lines.append(say(self.lang, "viewer_start"))
        pairs = seat_cards(obs.get("trick"))
        if pairs:
            lines.append(say(self.lang, "table", cards=view.played(obs, pairs)))
        if frame.taker is not None:
            lines.append(say(self.lang, "trick_taken", name=view.name(frame.taker)))
        lines.append("")
        # A finished deal shows every hand; one in progress only the viewer's seat's.
        finished = len(self.match.results) > frame.deal
        for s, seen in enumerate(frame.observations):
            hand = seen.get("hand") or []
            if finished or s == self.seat:
                lines.append(say(self.lang, "viewer_hand", name=view.name(s), cards=view.cards(hand)))
            else:
                lines.append(say(self.lang, "viewer_hidden", name=view.name(s), n=len(hand)))
        if frame.result is not None:
            outcome = view.outcome(str(frame.result.get("outcome")))
            delta = view.per_seat([f"{d:+d}" for d in frame.result.get("delta", [])])
            lines += ["", say(self.lang, "viewer_result", outcome=outcome, delta=delta)]
        return lines

    def draw(self) -> None:
        self.query_one("#frame", Static).update(lines_text(self.lines()))

    def action_step(self, step: int) -> None:
        self.action_go(min(max(self.position + step, 0), len(self.frames) - 1))

    def action_deal(self, step: int) -> None:
        deal = self.frames[self.position].deal + step
        starts = [i for i, f in enumerate(self.frames) if f.deal == deal and not f.actions]
        if starts:
            self.action_go(starts[0])

    def action_go(self, position: int) -> None:
        self.position = position % len(self.frames)
        self.draw()

    def action_leave(self) -> None:
        self.exit(0)


def view(path: str, *, lang: str = "it", seat: int = 0) -> int:
    """Step through the record file ``path``; the exit status (1, with a message, for a bad record)."""
    try:
        record = load_record(path)
        viewer = RecordViewer(record, lang=lang, seat=seat)
    except RecordError as exc:
        print(f"osteria view: {path}: {exc}", file=sys.stderr)
        return 1
    if not 0 <= seat < viewer.match.game.seats:
        print(f"osteria view: {say(lang, 'bad_seat', seat=seat, last=viewer.match.game.seats - 1)}", file=sys.stderr)
        return 1
    return viewer.run() or 0
