"""The plain terminal table: one person against bots, in plain lines of text.

The table knows no game. It drives a :class:`~osteria.engine.Match` through the decider of each
action, the observation of the person's seat and its legal actions; the bots see only their own
seat's observation. What is drawn, and how, is the game's view (:mod:`osteria.tui.views`).
"""

from __future__ import annotations

import contextlib
import enum
import sys
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from osteria import game_rules
from osteria.bots import Bot, RandomBot, make_bot
from osteria.cards import SUIT_SYMBOLS, SUITS
from osteria.engine import IllegalAction, Match, RulesError
from osteria.i18n import HELP_WORDS, LANGUAGES, QUIT_WORDS, message
from osteria.records import save as save_record
from osteria.tui.views import card_of, view_for


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
    decides for, such as its dummy); ``bots`` decide for the others."""

    def __init__(self, match: Match, *, human_seat: int = 0, lang: str = "it",
                 bots: Mapping[int, Bot] | None = None, save: str | None = None,
                 input_fn: Callable[[str], str] = input, output: TextIO = sys.stdout) -> None:
        self.match = match
        self.human = human_seat
        self.lang = lang
        seats = match.game.seats
        self.bots = dict(bots) if bots is not None else {s: RandomBot() for s in range(seats) if s != human_seat}
        self.save_path = save
        self.input_fn = input_fn
        self.output = output
        self.view = view_for(match.game, lang, match.players, human_seat)
        self.header_shown = -1  # the last deal whose header was printed
        self.results_shown = len(match.results)

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
        winners = match.result()["winners"] or []
        self.show("", self.say("match_over"))
        if winners:
            self.show(self.say("winners", names=", ".join(self.view.name(s) for s in winners)),
                      self.say("you_won" if self.human in winners else "you_lost"))
        else:
            self.show(self.say("no_winner"))
        return self.save() if self.save_path else 0

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
                self.show(*view.help())
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
                    self.show(self.say("not_allowed", why=exc))

    def leave(self, how: Leave) -> int:
        """Leave the match: save it if a file was given (asking first, unless the input is closed)."""
        status = 0
        if self.save_path:
            wanted = True
            if how is Leave.QUIT:
                self.output.flush()
                # Saving is the default: only a no keeps the file unwritten; a closed input saves.
                with contextlib.suppress(EOFError, KeyboardInterrupt):
                    answer = self.input_fn(self.say("save_ask", path=self.save_path))
                    wanted = not answer.strip().lower().startswith("n")
            if wanted:
                status = self.save()
        self.show("", self.say("bye"))
        return status

    def save(self) -> int:
        assert self.save_path is not None
        try:
            save_record(self.match.record(), self.save_path)
        except OSError as exc:
            self.show(self.say("save_failed", path=self.save_path, error=exc.strerror or exc))
            return 1
        self.show(self.say("saved", path=self.save_path))
        return 0


def play(game: str, *, lang: str = "it", seed: int | None = None, seats: int | None = None, human_seat: int = 0,
         save: str | None = None, options: Mapping[str, Any] | None = None, level: str = "medio",
         input_fn: Callable[[str], str] = input, output: TextIO = sys.stdout) -> int:
    """Play a match of ``game`` at the plain terminal table: you in ``human_seat``, bots of the
    chosen ``level`` in the other seats; returns the exit status.

    - ``level``: ``facile``, ``medio`` (the default), ``difficile`` or ``maestro``; any bot name
      of ``osteria.bots.BOTS`` (``random``...) works too.
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

    At your turn, choose an action by its number in the list, or type it (``3d``, ``3d volo``,
    ``accuso Ad 2d 3d``); ``?`` or ``aiuto`` shows the help and the glossary, ``q`` or the end of
    the input leaves.

    Exit status: 0 when the match was played to the end or you left; 1 when the record could not
    be saved or for an unknown game, option, language or seat (the message says which).
    """
    if lang not in LANGUAGES:
        print(f"error: unknown language {lang!r}; languages: {', '.join(LANGUAGES)}", file=output)
        return 1
    try:
        rules = game_rules(game, seats=seats, **dict(options or {}))
        if not 0 <= human_seat < rules.seats:
            raise RulesError(message(lang, "bad_seat", seat=human_seat, last=rules.seats - 1))
        names = [message(lang, "you") if s == human_seat else message(lang, "bot", n=s) for s in range(rules.seats)]
        match = Match(rules, players=names, seed=seed)
        first = match.deal
        if first is not None and first.decider(human_seat) != human_seat:
            raise RulesError(message(lang, "dummy_seat", seat=human_seat))
    except RulesError as exc:
        print(message(lang, "error", error=exc), file=output)
        return 1
    try:
        bots: dict[int, Bot] = {s: make_bot(level, game=game, seed=None if seed is None else f"{seed}/{s}")
                                for s in range(rules.seats) if s != human_seat}
    except ValueError as exc:
        print(message(lang, "error", error=exc), file=output)
        return 1
    table = PlainTable(match, human_seat=human_seat, lang=lang, bots=bots, save=save,
                       input_fn=input_fn, output=output)
    return table.run()
