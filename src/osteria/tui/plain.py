"""The plain terminal table: one person against bots, in plain lines of text.

The table knows no game. It drives a :class:`~osteria.engine.Match` through the decider of each
action, the observation of the person's seat and its legal actions; the bots see only their own
seat's observation. What is drawn, and how, is the game's view (:mod:`osteria.views`).
"""

from __future__ import annotations

import contextlib
import enum
import itertools
import sys
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import platformdirs

from osteria import game_rules
from osteria.analysis import analyse_deal, hint
from osteria.bots import Bot, RandomBot, make_bot
from osteria.cards import SUIT_SYMBOLS, SUITS
from osteria.engine import IllegalAction, Match, RulesError
from osteria.i18n import (
    HELP_WORDS,
    HINT_ALL_WORDS,
    HINT_WORDS,
    LANGUAGES,
    LAST_ROUND_WORDS,
    QUIT_WORDS,
    REVIEW_WORDS,
    YES_WORDS,
    message,
)
from osteria.records import load as load_record
from osteria.records import replay
from osteria.records import save as save_record
from osteria.tui.review import ReviewWords
from osteria.tui.words import say
from osteria.views import card_of, view_for

if TYPE_CHECKING:
    from osteria.arena.protocol import TimeControl


class Leave(enum.Enum):
    """How the person left before the end: by the quit command, or by closing the input."""

    QUIT = "quit"
    EOF = "eof"


# A kind of action with more variants than this (the 1,820 discards of Calabresella for three)
# is not numbered: the person types it.
MANY = 40


def split_choices(legal: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """The actions to number, and the kinds of action too many to list, by their first word."""
    groups: dict[str, list[str]] = {}
    for action in legal:
        groups.setdefault(action.split()[0], []).append(action)
    typed = {word: group for word, group in groups.items() if len(group) > MANY}
    return [a for a in legal if a.split()[0] not in typed], typed


def normalise(text: str) -> str:
    """An action as typed, made canonical: suit symbols become letters, cards get their case
    (``ad`` -> ``Ad``) and other words are lower case."""
    words = []
    for word in text.split():
        for symbol, suit in zip(SUIT_SYMBOLS, SUITS, strict=True):
            word = word.replace(symbol, suit)
        if card_of(word) is None:
            fixed = word[:1].upper() + word[1:].lower()
            word = fixed if len(word) == 2 and card_of(fixed) is not None else word.lower()
        words.append(word)
    return " ".join(words)


class PlainTable:
    """One match at the terminal: the person decides for ``human_seat`` (and for any seat it
    decides for, such as its dummy); ``bots`` decide for the others. With ``review``, the table
    offers the analysis of each deal when it ends; the maestro thinks ``hint_time`` seconds for a
    hint and ``review_time`` seconds a decision in an analysis. ``resumed_from``: the record the
    match was resumed from, which saving replaces without asking; any other file is replaced only
    once the person says so."""

    def __init__(self, match: Match, *, human_seat: int = 0, lang: str = "it",
                 bots: Mapping[int, Bot] | None = None, save: str | None = None,
                 input_fn: Callable[[str], str] = input, output: TextIO = sys.stdout,
                 review: bool = False, hint_time: float = 1.0, review_time: float = 0.2,
                 resumed_from: str | None = None, seed: int | None = None) -> None:
        self.match = match
        self.human = human_seat
        self.lang = lang
        seats = match.game.seats
        self.bots = dict(bots) if bots is not None else {s: RandomBot() for s in range(seats) if s != human_seat}
        self.save_path = save
        # Where leaving offers to save without a file given: a name of this match's own.
        self.offered_path = save or resumed_from or default_save_path(match.game.name, seed)
        self.own_files = {resumed_from} - {None}  # files that hold this match: replaced without asking
        self.input_fn = input_fn
        self.output = output
        self.view = view_for(match.game, lang, match.players, human_seat)
        self.words = ReviewWords(self.view)
        self.header_shown = -1  # the last deal whose header was printed
        self.results_shown = len(match.results)
        self.review = review
        self.hint_time = hint_time
        self.review_time = review_time

    def say(self, key: str, **values: object) -> str:
        return message(self.lang, key, **values)

    def show(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.output)

    # -- the match ---------------------------------------------------------------------------

    def run(self) -> int:
        """Play the match to its end or until the person leaves; the exit status."""
        match = self.match
        while not match.finished:
            if match.deal_due:
                match.begin_deal()
            seat = match.decider
            assert seat is not None
            bot = self.bots.get(seat)
            if bot is not None:
                observation = match.observation(seat)
                match.play(bot.act(observation, observation["legal_actions"]))
            else:
                left = self.human_turn()
                if left is not None:
                    return self.leave(left)
            self.show_results()
        self.show("", self.say("match_over"),
                  *self.view.match_end([r.as_json() for r in match.results], match.result()["winners"] or []))
        return self.save(self.save_path) if self.save_path else 0

    def show_results(self) -> None:
        """After a deal (checked after every action): its last trick as the person saw it, and its result."""
        match = self.match
        if self.results_shown == len(match.results):
            return
        index = len(match.results) - 1
        final = match.observation(self.human, deal=index)
        self.show("", *self.view.last_trick(final),
                  *self.view.deal_result(index, match.results[index].as_json(), match.totals()))
        self.results_shown = len(match.results)
        if self.review:
            self.offer_review(index)

    # -- the person's turn -------------------------------------------------------------------

    def human_turn(self) -> Leave | None:
        """Draw the table, then read choices until one is played; a Leave if the person leaves."""
        observation: dict[str, Any] = self.match.observation(self.human)
        view = self.view
        if observation.get("deal_index") != self.header_shown:
            self.header_shown = observation.get("deal_index", 0)
            self.show("", *view.deal_header(observation))
        to_move = observation.get("to_move")
        turn = self.say("your_turn") if to_move == self.human else self.say("play_for", name=view.name(to_move))
        # The table is drawn first: the view learns from it what orders the choices (a trump just called).
        table = view.table(observation)
        legal, typed = split_choices(view.ordered(observation["legal_actions"]))
        self.show("", *table, turn, self.say("choices"), *view.choices(legal),
                  *(self.say("type_it", word=word, n=len(group), example=group[0]) for word, group in typed.items()))
        last = self.match.last_deal_if_declared(self.human)
        if last is not None:  # a control of the table, not a move (Calabresella's chiamare mano)
            self.show(self.say("last_round_offer", n=last + 1))
        while True:
            self.output.flush()
            try:
                line = self.input_fn(self.say("prompt"))
            except (EOFError, KeyboardInterrupt):
                return Leave.EOF
            text = " ".join(line.split())
            if not text:
                self.show(self.say("empty"))
            elif text.lower() in QUIT_WORDS:
                return Leave.QUIT
            elif text.lower() in HELP_WORDS:
                self.show(self.say("help"), *view.help())
            elif text.lower() in HINT_WORDS | HINT_ALL_WORDS:
                self.show_hint(observation, everything=text.lower() in HINT_ALL_WORDS)
            elif text.split()[0].lower() in REVIEW_WORDS and len(text.split()) <= 2:
                self.review_command(text.split()[1:])
            elif text.lower() in LAST_ROUND_WORDS:
                self.last_round_command()
            elif text.isdecimal():
                n = int(text)
                if 1 <= n <= len(legal):
                    self.match.play(legal[n - 1])
                    return None
                self.show(self.say("bad_number", n=n, last=len(legal)))
            else:
                try:
                    self.match.play(normalise(text))
                    return None
                except IllegalAction as exc:
                    self.show(self.say("not_allowed", why=self.view.reason(exc.reason)))

    def last_round_command(self) -> None:
        """``mano``: declare the match's last round, where the game lets the person's seat do it
        now, once the person has said yes."""
        last = self.match.last_deal_if_declared(self.human)
        if last is None:
            try:
                self.match.declare_last_round(self.human)  # refused: the engine says why
            except IllegalAction as exc:
                self.show(self.say("last_round_none", why=self.view.reason(exc.reason)))
            return
        self.output.flush()
        try:
            answer = self.input_fn(self.say("last_round_ask", n=last + 1))
        except (EOFError, KeyboardInterrupt):
            return
        if answer.strip().lower() in YES_WORDS:
            self.match.declare_last_round(self.human)
            self.show(*self.view.match_notes(self.match.observation(self.human)))

    # -- hints and analysis ------------------------------------------------------------------

    def show_hint(self, observation: Mapping[str, Any], *, everything: bool = False) -> None:
        """The maestro's choice from the person's observation, and its value of the best few
        actions, or of ``everything`` it weighed."""
        self.show(self.say("hint_wait"))
        self.output.flush()
        try:
            advice = hint(observation, time_limit=self.hint_time)
        except ValueError as exc:
            self.show(self.say("hint_none", why=exc))
            return
        self.show(*self.words.hint_lines(advice, everything=everything))
        if not everything and self.words.hidden_in_hint(advice):
            self.show(self.say("hint_all"))

    def offer_review(self, index: int) -> None:
        """Ask whether to analyse the deal just ended (no is the default, and so is a closed input)."""
        self.output.flush()
        try:
            answer = self.input_fn(self.say("review_ask", n=index + 1))
        except (EOFError, KeyboardInterrupt):
            return
        if answer.strip().lower() in YES_WORDS:
            self.show_review(index)

    def review_command(self, words: list[str]) -> None:
        """``analisi``: the last finished deal; ``analisi N``: deal N."""
        finished = len(self.match.results)
        if not words:
            if finished:
                self.show_review(finished - 1)
            else:
                self.show(self.say("review_none", n=1))
            return
        if words[0].isdecimal() and 1 <= int(words[0]) <= finished:
            self.show_review(int(words[0]) - 1)
        else:
            self.show(self.say("review_none", n=words[0]))

    def show_review(self, index: int) -> None:
        """Analyse a finished deal and show it: the biggest mistakes, then trick by trick."""
        self.show("", self.say("review_wait", n=index + 1))
        self.output.flush()
        live = self.output.isatty()

        def progress(done: int, total: int) -> None:
            if live:
                print(f"\r{done}/{total}", end="", file=self.output, flush=True)

        analysis = analyse_deal(self.match, index, honest_time=self.review_time, progress=progress)
        if live:
            print(file=self.output)
        self.show("", *self.words.review_lines(analysis, index))

    def leave(self, how: Leave) -> int:
        """Leave the match. With a file given, save it there (asking first, unless the input is
        closed); without one, offer to save it under a name of its own (a closed input does not)."""
        status = 0
        if self.save_path or how is Leave.QUIT:
            path = self.save_path or self.offered_path
            wanted = self.save_path is not None
            if how is Leave.QUIT:
                self.output.flush()
                # With a file given saving is the default, and a closed input saves; without, only a yes saves.
                with contextlib.suppress(EOFError, KeyboardInterrupt):
                    if self.save_path:
                        answer = self.input_fn(self.say("save_ask", path=path))
                        wanted = not answer.strip().lower().startswith("n")
                    else:
                        wanted = self.input_fn(self.say("save_offer", path=path)).strip().lower() in YES_WORDS
            if wanted:
                status = self.save(path)
        self.show("", self.say("bye"))
        return status

    def save(self, path: str | None = None) -> int:
        path = path or self.save_path
        assert path is not None
        if Path(path).exists() and path not in self.own_files:
            self.output.flush()
            answer = ""
            with contextlib.suppress(EOFError, KeyboardInterrupt):
                answer = self.input_fn(self.say("replace_ask", path=path))
            if answer.strip().lower() not in YES_WORDS:
                self.show(self.say("not_saved"))
                return 1
        saved, said = save_match(self.match, path, self.lang, make_folder=path != self.save_path)
        self.show(said)
        if saved:
            self.own_files.add(path)
        return 0 if saved else 1


def default_save_path(game: str, seed: int | None, when: datetime | None = None) -> str:
    """Where a match is saved when no file is named: in the user's data folder, under a name of
    its own (its game, the time it was started and its seed) that no file there has yet."""
    stamp = (when or datetime.now()).strftime("%Y-%m-%d-%H%M%S")
    name = f"{game}-{stamp}" + (f"-seed{seed}" if seed is not None else "")
    folder = platformdirs.user_data_path("osteria") / "matches"
    # Two matches started in the same second, with the same seed, still get names of their own.
    return str(next(path for n in itertools.count(1)
                    if not (path := folder / (f"{name}.json" if n == 1 else f"{name}-{n}.json")).exists()))


def save_match(match: Match, path: str, lang: str, *, make_folder: bool = False) -> tuple[bool, str]:
    """Write the match's osteria/1 record to ``path`` (making its folder first, if asked): whether
    it was written, and the line that says so."""
    try:
        if make_folder:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        save_record(match.record(), path)
    except OSError as exc:
        return False, message(lang, "save_failed", path=path, error=exc.strerror or exc)
    return True, message(lang, "saved", path=path)


def table_match(game: str | None, *, lang: str, seed: int | None, seats: int | None, human_seat: int,
                options: Mapping[str, Any] | None, level: str, load: str | None,
                time_control: TimeControl | None = None,
                start_limit: float | None = None) -> tuple[Match, dict[int, Bot]]:
    """The match to play at a table (a new match of ``game``, or the unfinished match of the record
    file ``load``) and the bots of ``level`` for the seats other than ``human_seat``: ours, or an
    outside engine ``cmd:...`` in each of them, started, with ``time_control`` and ``start_limit``
    (the arena's defaults when None). ValueError (RulesError, RecordError, EngineError) saying
    what is wrong."""
    if load is not None:
        match = replay(load_record(load))
        if match.finished:
            raise RulesError(say(lang, "loaded_over", path=load))
    else:
        if game is None:
            raise RulesError("a game to play is needed, or --load FILE")
        rules = game_rules(game, seats=seats, **dict(options or {}))
        if not 0 <= human_seat < rules.seats:
            raise RulesError(say(lang, "bad_seat", seat=human_seat, last=rules.seats - 1))
        names = [say(lang, "you") if s == human_seat else say(lang, "bot", n=s) for s in range(rules.seats)]
        match = Match(rules, players=names, seed=seed)
    if not 0 <= human_seat < match.game.seats:
        raise RulesError(say(lang, "bad_seat", seat=human_seat, last=match.game.seats - 1))
    if match.deal_due:
        match.begin_deal()
    deal = match.deal
    if deal is not None and deal.decider(human_seat) != human_seat:
        raise RulesError(say(lang, "dummy_seat", seat=human_seat))
    seeds = {s: None if seed is None else f"{seed}/{s}" for s in range(match.game.seats) if s != human_seat}
    if not level.startswith("cmd:"):
        return match, {s: make_bot(level, game=match.game.name, seed=seed) for s, seed in seeds.items()}
    from osteria.arena.protocol import START_LIMIT, TimeControl, engine_bot

    engines = {s: engine_bot(level, time_control=time_control or TimeControl(), seed=seed,
                             start_limit=START_LIMIT if start_limit is None else start_limit)
               for s, seed in seeds.items()}
    try:
        for engine in engines.values():  # all started above, side by side
            engine.ready()
    except ValueError:
        close_bots(engines)
        raise
    return match, dict(engines)


def close_bots(bots: Mapping[int, Bot]) -> None:
    """Close the bots of a table (an outside engine's program ends)."""
    for bot in bots.values():
        bot.close()


def play(game: str, *, lang: str = "it", seed: int | None = None, seats: int | None = None, human_seat: int = 0,
         save: str | None = None, options: Mapping[str, Any] | None = None, level: str = "medio",
         input_fn: Callable[[str], str] = input, output: TextIO = sys.stdout, review: bool = True,
         time_control: TimeControl | None = None, start_limit: float | None = None) -> int:
    """Play a match of ``game`` at the plain terminal table: you in ``human_seat``, bots of the
    chosen ``level`` in the other seats; returns the exit status.

    - ``level``: ``facile``, ``medio`` (the default), ``difficile`` or ``maestro``; any bot name
      of ``osteria.bots.BOTS`` (``random``...) works too, and so does an outside engine,
      ``cmd:COMMAND?NAME=VALUE&...`` (docs/protocol.md), one program in each bot's seat, with
      ``time_control`` (1 s a move when None) and ``start_limit``.
    - ``lang``: ``"it"`` (the default) or ``"en"``, the language of the table; game terms stay
      Italian, with their meaning from the game's glossary (the ``?`` command lists it).
    - ``seed``: the deals and the bots' choices are reproducible with one; without, the deals
      come from the operating system's cryptographic generator.
    - ``seats``: the number of players, the game's usual number when None.
    - ``options``: the game's rules options, as for ``osteria.new_match`` (``{"target": 41}``,
      ``{"morto": [2]}``: you then play your dummy partner's cards too).
    - ``save``: a file to write the match's osteria/1 record to, at the end of the match and
      when you leave before it (``q`` asks first; a closed input saves without asking).
    - ``input_fn`` and ``output``: where choices are read and the table is written.
    - ``review``: after each deal, ask whether to show its analysis (docs/analysis.md).

    At your turn, choose an action by its number in the list, or type it (``3d``, ``3d volo``,
    ``accuso Ad 2d 3d``); ``?`` or ``aiuto`` shows the help and the glossary, ``consiglio`` (or
    ``hint``) the maestro's choice and its value of every action, ``analisi`` (or ``analysis``)
    the analysis of the last finished deal (``analisi 2``: of deal 2), ``q`` or the end of the
    input leaves.

    Exit status: 0 when the match was played to the end or you left; 1 when the record could not
    be saved or for an unknown game, option, language or seat (the message says which).
    """
    if lang not in LANGUAGES:
        print(f"error: unknown language {lang!r}; languages: {', '.join(LANGUAGES)}", file=output)
        return 1
    try:
        match, bots = table_match(game, lang=lang, seed=seed, seats=seats, human_seat=human_seat, options=options,
                                  level=level, load=None, time_control=time_control, start_limit=start_limit)
    except ValueError as exc:
        print(message(lang, "error", error=exc), file=output)
        return 1
    table = PlainTable(match, human_seat=human_seat, lang=lang, bots=bots, save=save,
                       input_fn=input_fn, output=output, review=review, seed=seed)
    try:
        return table.run()
    finally:
        close_bots(bots)
