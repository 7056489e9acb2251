"""The action spaces of the environments: an action chosen word by word (the default), or whole.

``steps``: an action is spelled one word at a time, in the words of its osteria/1 notation (a
keyword, a card, a signal), the cards an action names together (a scarto's four, an
accuso's three or four) one card a step in any order. Where an action is complete but a longer
one goes on from it (a lead card that may take a signal, a tris that may become a quadro) the
step :data:`DONE` ends it. The environment keeps the words chosen so far and shows them to
the choosing seat (the ``choosing`` block after the encoding's vector); the mask allows only
the words after which some legal action can still be completed. The engine is given the whole
action once it is spelled. Every game's space is then 61 steps or fewer (Tressette's).

``whole``: one index per action word of :mod:`osteria.envs.encoding` (91,592 in Calabresella
at three, whose scarto of four cards is one action): one step per decision.

Either way a decision is a :class:`Choice`: each legal action with its spelling (its parts in
order, each the steps that make it), narrowed at each step to the actions it can still
complete. The environments make it on the engine's integers (:meth:`ActionSpace.decision`);
the methods on words (``mask``, ``choose``) make the same choice on the legal words.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any, TypeVar

import numpy as np

from osteria.cards import CARD_STRINGS, cards_of
from osteria.engine import Deal, RulesError
from osteria.envs.encoding import Block, Encoding, Mask, Vector

ACTION_SPACES = ("steps", "whole")
DONE = "done"  # the step that ends an action a longer legal action goes on from

# An action as a sequence of parts: a word, or the cards named together (in any order).
Part = str | frozenset[str]
# The most spellings kept: a game's listed actions are a few hundred, and Calabresella's discards
# of any four cards 91,390, which a long run on words meets nearly all of and needs at every
# scarto (a bound below them empties the cache over and over: 2.5 times slower steps; the
# environments' decisions offer a scarto card by card and spell none). Past this the kept ones
# are dropped, so an action space with more can never hold more.
KEPT_SPELLINGS = 1 << 17
K = TypeVar("K", int, str)  # what a spelling is kept by: the engine's integer, or the word
V = TypeVar("V")  # what is kept


class ActionSpace:
    """How a seat's decision is made of steps, and what the choosing seat sees of it."""

    done_step = -1  # the step DONE, where the space has it

    def __init__(self, enc: Encoding, blocks: Sequence[Block], size: int, longest: int) -> None:
        self.encoding = enc
        # Each action met, as it starts a decision's choice (its spelling, before any step), by
        # the engine's integer; and its one step where one step spells it, else -1.
        self._start_of_action: dict[int, Spelled] = {}
        self._one_step: dict[int, int] = {}
        self.size = size
        self.longest = longest  # the most steps one action takes
        self.blocks = tuple(blocks)
        self.observation_size: int = enc.observation_size + sum(b.size for b in self.blocks)
        self.low: Vector = np.concatenate([enc.low, *(np.full(b.size, b.bounds[0], np.float32) for b in blocks)])
        self.high: Vector = np.concatenate([enc.high, *(np.full(b.size, b.bounds[1], np.float32) for b in blocks)])

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.encoding!r}, size={self.size})"

    def observe(self, observation: Mapping[str, Any], chosen: Sequence[str] = ()) -> Vector:
        """The seat's vector, with the words it has chosen so far of the action it is choosing."""
        raise NotImplementedError

    def show_chosen(self, vector: Vector, chosen: Sequence[str]) -> None:
        """Write the words chosen so far into a vector of :attr:`observation_size` that holds the
        encoding's vector (a space of whole actions has none to show)."""

    def mask(self, legal: Sequence[str], chosen: Sequence[str] = ()) -> Mask:
        """1 at each step that can go on to a legal action after ``chosen``."""
        raise NotImplementedError

    def choose(self, legal: Sequence[str], chosen: Sequence[str], index: int) -> tuple[list[str], str | None]:
        """The words chosen after step ``index``, and the action once it is complete (the
        choice then starts afresh); ValueError for a step the mask does not allow."""
        raise NotImplementedError

    def reachable(self, legal: Sequence[str], chosen: Sequence[str]) -> list[str]:
        """The legal actions that ``chosen`` can still be completed to."""
        raise NotImplementedError

    def next_step(self, action: str, chosen: Sequence[str]) -> int:
        """The step that goes on spelling ``action`` after ``chosen`` (words of it)."""
        raise NotImplementedError

    def step_word(self, index: int) -> str:
        """What a step is, in words."""
        raise NotImplementedError

    def step_index(self, word: str) -> int:
        """The step of a word (``step_word``'s inverse)."""
        raise NotImplementedError

    def steps_of(self, action: str, legal: Sequence[str]) -> list[int]:
        """The steps that spell a legal action, in its notation's order."""
        chosen: list[str] = []
        steps = []
        while True:
            steps.append(self.next_step(action, chosen))
            chosen, done = self.choose(legal, chosen, steps[-1])
            if done is not None:
                if done != action:
                    raise ValueError(f"{action!r} is not one of the legal actions")
                return steps

    def decision(self, deal: Deal) -> Choice:
        """The choice of the deal's legal actions now, before its first step (each action's
        spelling is read once, and kept by its integer)."""
        legal = deal.legal()
        # Most decisions are of actions one step each (a card): a step then names the action.
        try:
            by_step = {self._one_step[action]: action for action in legal}
        except KeyError:  # an action not met yet
            by_step = {_kept(self._one_step, action, self._only_step_of(deal)): action for action in legal}
        if -1 not in by_step:
            return OneStepChoice(self, by_step)
        starts, spelling, word = self._start_of_action, self.spelling, deal.action_str
        kept = starts.get

        def start(action: int) -> Spelled:
            spelled = spelling(word(action))
            return spelled, action, 0, spelled[0]

        # Looked up inline first: nearly every action is kept already, and this runs at every decision.
        return Choice.of_following(self, [kept(action) or _kept(starts, action, start) for action in legal])

    def _only_step_of(self, deal: Deal) -> Callable[[int], int]:
        """The one step that spells an action of ``deal``, or -1 where it takes more."""
        def only_step(action: int) -> int:
            spelling = self.spelling(deal.action_str(action))
            return next(iter(spelling[0])) if len(spelling) == 1 and len(spelling[0]) == 1 else -1
        return only_step

    def spelling(self, action: str) -> Spelling:
        """The parts that spell ``action``, each the steps that make it (a word, or a run of
        cards chosen in any order): what a :class:`Choice` makes a decision on."""
        raise NotImplementedError

    def extended(self, chosen: Sequence[str], word: str) -> list[str]:
        """The words chosen after ``word`` is chosen after ``chosen``."""
        return [*chosen, word]

    def refusal(self, index: int, chosen: Sequence[str]) -> ValueError:
        """The error for a step the mask does not allow."""
        if not 0 <= index < self.size:
            return ValueError(f"step {index} is outside the action space 0..{self.size - 1}")
        after = f" after {' '.join(chosen)!r}" if chosen else ""
        return ValueError(f"{self.step_word(index)!r} (step {index}){after} leads to no legal action; "
                          "the action mask lists the steps that do")


class WholeActions(ActionSpace):
    """One step per action: the encoding's index of its word."""

    def __init__(self, enc: Encoding) -> None:
        super().__init__(enc, (), enc.action_size, 1)

    def observe(self, observation: Mapping[str, Any], chosen: Sequence[str] = ()) -> Vector:
        return self.encoding.observe(observation)

    def mask(self, legal: Sequence[str], chosen: Sequence[str] = ()) -> Mask:
        return self.encoding.mask(legal)

    def choose(self, legal: Sequence[str], chosen: Sequence[str], index: int) -> tuple[list[str], str | None]:
        word = self.encoding.action_word(index) if 0 <= index < self.size else None
        if word not in legal:
            raise self.refusal(index, chosen)
        return [], word

    def reachable(self, legal: Sequence[str], chosen: Sequence[str]) -> list[str]:
        return list(legal)

    def next_step(self, action: str, chosen: Sequence[str]) -> int:
        return self.encoding.action_index(action)

    def spelling(self, action: str) -> Spelling:
        return (frozenset((self.encoding.action_index(action),)),)

    def step_word(self, index: int) -> str:
        return self.encoding.action_word(index)

    def step_index(self, word: str) -> int:
        return self.encoding.action_index(word)


class StepActions(ActionSpace):
    """An action spelled word by word: the cards of the deck (in the deck's order), the game's
    other words, then :data:`DONE`."""

    def __init__(self, enc: Encoding) -> None:
        self.words: list[str] = [*enc.parts, DONE]
        self._index = {word: i for i, word in enumerate(self.words)}
        self.done_step = self._index[DONE]
        self._cards = set(enc.card_index)
        self._card_of_step = {self._index[CARD_STRINGS[c]]: c for c in enc.rules.deck.cards}
        self._spellings: dict[str, Spelling] = {}
        # An environment asks twice at each step (the mask it shows, then the step taken on
        # it): the last choices are kept, which spares a pass over 1,820 scarti.
        self._recent: dict[tuple[tuple[str, ...], tuple[str, ...]], Choice] = {}
        super().__init__(enc, [Block("choosing", (len(enc.parts),),
                                     "the words chosen so far of the action the seat is choosing")],
                         len(self.words), enc.longest_action + 1)

    def parts(self, words: Sequence[str]) -> tuple[Part, ...]:
        """An action's words as parts: each run of cards one part, its order left out."""
        parts: list[Part] = []
        for word in words:
            if word not in self._cards:
                parts.append(word)
            elif parts and isinstance(parts[-1], frozenset):
                parts[-1] = parts[-1] | {word}
            else:
                parts.append(frozenset((word,)))
        return tuple(parts)

    def _choice(self, legal: Sequence[str], chosen: Sequence[str]) -> Choice:
        """The choice among the legal actions (each by its place in ``legal``) after the words
        ``chosen``; ValueError where they begin none of them."""
        key = (tuple(legal), tuple(chosen))
        choice = self._recent.get(key)
        if choice is None:
            choice = Choice.of(self, [(self.spelling(action), i) for i, action in enumerate(legal)]).after(chosen)
            self._keep(key, choice)
        return choice

    def _keep(self, key: tuple[tuple[str, ...], tuple[str, ...]], choice: Choice) -> None:
        self._recent[key] = choice
        if len(self._recent) > 4:
            del self._recent[next(iter(self._recent))]

    def reachable(self, legal: Sequence[str], chosen: Sequence[str]) -> list[str]:
        return [legal[i] for i in sorted(self._choice(legal, chosen).actions())]

    def observe(self, observation: Mapping[str, Any], chosen: Sequence[str] = ()) -> Vector:
        vector = np.zeros(self.observation_size, np.float32)
        size = self.encoding.observation_size
        vector[:size] = self.encoding.observe(observation)
        self.show_chosen(vector, chosen)
        return vector

    def show_chosen(self, vector: Vector, chosen: Sequence[str]) -> None:
        size = self.encoding.observation_size
        for word in chosen:
            vector[size + self._index[word]] = 1

    def mask(self, legal: Sequence[str], chosen: Sequence[str] = ()) -> Mask:
        return self._choice(legal, chosen).mask()

    def choose(self, legal: Sequence[str], chosen: Sequence[str], index: int) -> tuple[list[str], str | None]:
        after = self._choice(legal, chosen).choose(index, chosen)
        if not isinstance(after, Choice):
            return [], legal[after]
        now = self.extended(chosen, self.words[index])
        self._keep((tuple(legal), tuple(now)), after)
        return now, None

    def decision(self, deal: Deal) -> Choice:
        # A decision among every set of some cards is offered card by card, its actions never
        # listed (Calabresella's scarto: 1,820 of them).
        sets = deal.card_sets()
        if sets is None:
            return super().decision(deal)
        step_of, card_of = self._index, self._card_of_step
        cards = frozenset(step_of[CARD_STRINGS[c]] for c in cards_of(sets.cards))

        def action_of(steps: frozenset[int]) -> int:
            return sets.action(sum(1 << card_of[step] for step in steps))

        return CardSetChoice(self, (frozenset((step_of[sets.word],)),), action_of, cards, sets.size)

    def spelling(self, action: str) -> Spelling:
        return _kept(self._spellings, action, self._spelled)

    def _spelled(self, action: str) -> Spelling:
        index = self._index
        return tuple(frozenset(index[w] for w in part) if isinstance(part, frozenset) else frozenset((index[part],))
                     for part in self.parts(action.split()))

    def extended(self, chosen: Sequence[str], word: str) -> list[str]:
        # The cards of a run in the deck's order: one list of words for each choice so far.
        return [w for part in self.parts([*chosen, word])
                for w in (sorted(part, key=self._index.__getitem__) if isinstance(part, frozenset) else (part,))]

    def next_step(self, action: str, chosen: Sequence[str]) -> int:
        have = set(chosen)
        for word in action.split():
            if word not in have:
                return self._index[word]
        return self.done_step

    def step_word(self, index: int) -> str:
        return self.words[index]

    def step_index(self, word: str) -> int:
        index = self._index.get(word)
        if index is None:
            raise ValueError(f"{word!r} is no step of {self.encoding.game}")
        return index


# What spells an action (ActionSpace.spelling): its parts in order, each the steps that make
# it up, in any order.
Spelling = tuple[frozenset[int], ...]
# An action being spelled: its spelling, the engine's action, the part reached, and the
# steps of that part still to choose.
Spelled = tuple[Spelling, int, int, frozenset[int]]


class Choice:
    """A decision made step by step on the engine's actions, after the steps chosen so far: the
    masks and the actions that :meth:`ActionSpace.mask` and :meth:`ActionSpace.choose` give from
    the words, at a fraction of the cost (no word is read, and a step narrows the actions of the
    last one, not every legal action again). :meth:`of` makes the kind that suits a decision."""

    __slots__ = ("space",)

    def __init__(self, space: ActionSpace) -> None:
        self.space = space

    @staticmethod
    def of(space: ActionSpace, spellings: Iterable[tuple[Spelling, int]]) -> Choice:
        """The choice of a decision's legal actions, each with its spelling, before any step."""
        return Choice.of_following(space, [(spelling, action, 0, spelling[0]) for spelling, action in spellings])

    @staticmethod
    def of_following(space: ActionSpace, following: list[Spelled]) -> Choice:
        """The choice of a decision's legal actions, each as spelled before any step."""
        return CardSetChoice.of_every_set(space, following) or SpelledChoice(space, following, [])

    def after(self, chosen: Sequence[str]) -> Choice:
        """The choice after the words ``chosen`` (none of them a whole action's last);
        ValueError where they begin no action."""
        choice = self
        for k, word in enumerate(chosen):
            after = choice.choose(self.space.step_index(word), chosen[:k])
            if not isinstance(after, Choice):
                raise ValueError(f"{' '.join(chosen)!r} is a whole action: nothing is left to choose")
            choice = after
        return choice

    def __deepcopy__(self, memo: dict[int, Any]) -> Choice:
        return self  # a choice is never changed once made: a copy of a game's state shares it

    def steps(self) -> list[int]:
        """The steps allowed now, in order."""
        raise NotImplementedError

    def mask(self) -> Mask:
        mask = bytearray(self.space.size)
        for step in self.steps():
            mask[step] = 1
        return np.frombuffer(mask, np.int8)

    def choose(self, index: int, chosen: Sequence[str]) -> Choice | int:
        """The engine's action once ``index`` completes one, else the choice after it;
        ValueError for a step the mask does not allow (``chosen``: the words so far)."""
        raise NotImplementedError

    def actions(self) -> set[int]:
        """The engine's actions that the steps chosen so far can still be completed to."""
        raise NotImplementedError


class OneStepChoice(Choice):
    """A choice among actions of one step each: the step names the action."""

    __slots__ = ("by_step",)

    def __init__(self, space: ActionSpace, by_step: dict[int, int]) -> None:
        super().__init__(space)
        self.by_step = by_step  # each action by its step

    def steps(self) -> list[int]:
        return sorted(self.by_step)

    def mask(self) -> Mask:
        mask = bytearray(self.space.size)
        for step in self.by_step:
            mask[step] = 1
        return np.frombuffer(mask, np.int8)

    def choose(self, index: int, chosen: Sequence[str]) -> Choice | int:
        action = self.by_step.get(index)
        if action is None:
            raise self.space.refusal(index, chosen)
        return action

    def actions(self) -> set[int]:
        return set(self.by_step.values())


class SpelledChoice(Choice):
    """A choice narrowed on each action's spelling: any decision."""

    __slots__ = ("complete", "following")

    def __init__(self, space: ActionSpace, following: list[Spelled], complete: list[int]) -> None:
        super().__init__(space)
        self.following = following  # the actions that go on
        self.complete = complete  # those spelled whole

    @property
    def may_end(self) -> bool:
        """Whether DONE ends the action spelled so far (a longer one goes on from it)."""
        return bool(self.complete and self.following)

    def steps(self) -> list[int]:
        steps = {step for spelled in self.following for step in spelled[3]}
        if self.may_end:
            steps.add(self.space.done_step)
        return sorted(steps)

    def mask(self) -> Mask:
        # Marked straight from the spellings: the steps need no order here.
        mask = bytearray(self.space.size)
        for spelled in self.following:
            for step in spelled[3]:
                mask[step] = 1
        if self.may_end:
            mask[self.space.done_step] = 1
        return np.frombuffer(mask, np.int8)

    def choose(self, index: int, chosen: Sequence[str]) -> Choice | int:
        if self.may_end and index == self.space.done_step:
            return self.complete[0]
        following: list[Spelled] = []
        complete: list[int] = []
        for spelling, action, part, remaining in self.following:
            if index in remaining:
                remaining = remaining - {index}
                if not remaining:
                    part += 1
                    if part == len(spelling):
                        complete.append(action)
                        continue
                    remaining = spelling[part]
                following.append((spelling, action, part, remaining))
        if not following and not complete:
            raise self.space.refusal(index, chosen)
        return complete[0] if complete and not following else SpelledChoice(self.space, following, complete)

    def actions(self) -> set[int]:
        return {spelled[1] for spelled in self.following} | set(self.complete)


class CardSetChoice(Choice):
    """A choice among every set of a number of steps out of some steps, each set one action, the
    actions alike but for it (Calabresella's scarto: the word, then any four cards of the hand):
    once the common parts are spelled, the mask is the steps not taken yet, and the last step
    names the action by its set. A spelled choice would pass over every action again at each
    step (1,820 scarti from sixteen cards)."""

    __slots__ = ("action_of", "picked", "prefix", "size", "steps_of_sets")

    def __init__(self, space: ActionSpace, prefix: Spelling, action_of: Callable[[frozenset[int]], int],
                 steps_of_sets: frozenset[int], size: int, picked: frozenset[int] = frozenset()) -> None:
        super().__init__(space)
        self.prefix = prefix  # the common parts still to spell, the first one's steps left
        self.action_of = action_of  # the action of each set of steps
        self.steps_of_sets = steps_of_sets  # every step some set has
        self.size = size  # how many steps each set has
        self.picked = picked  # the steps of the set chosen so far

    @staticmethod
    def of_every_set(space: ActionSpace, following: list[Spelled]) -> CardSetChoice | None:
        """The choice of ``following`` (actions before any step) where they are alike but for
        their last part, and those are every set of one size (at least two) of the steps they
        name; else None."""
        if not following or len(following[0][0][-1]) < 2:
            return None
        first = following[0][0]
        prefix, size = first[:-1], len(first[-1])
        by_set: dict[frozenset[int], int] = {}
        for spelling, action, _, _ in following:
            last = spelling[-1]
            if len(last) != size or spelling[:-1] != prefix:
                return None
            by_set[last] = action
        steps: frozenset[int] = frozenset().union(*by_set)
        if len(by_set) != len(following) or len(by_set) != math.comb(len(steps), size):
            return None  # some sets are missing (or an action repeats one)
        return CardSetChoice(space, prefix, by_set.__getitem__, steps, size)

    def steps(self) -> list[int]:
        return sorted(self.prefix[0] if self.prefix else self.steps_of_sets - self.picked)

    def choose(self, index: int, chosen: Sequence[str]) -> Choice | int:
        space, prefix = self.space, self.prefix
        if prefix:
            if index not in prefix[0]:
                raise space.refusal(index, chosen)
            rest = prefix[0] - {index}
            return CardSetChoice(space, (rest, *prefix[1:]) if rest else prefix[1:], self.action_of,
                                 self.steps_of_sets, self.size)
        if index not in self.steps_of_sets or index in self.picked:
            raise space.refusal(index, chosen)
        picked = self.picked | {index}
        if len(picked) == self.size:
            return self.action_of(picked)
        return CardSetChoice(space, (), self.action_of, self.steps_of_sets, self.size, picked)

    def actions(self) -> set[int]:
        left = sorted(self.steps_of_sets - self.picked)
        return {self.action_of(self.picked.union(more)) for more in combinations(left, self.size - len(self.picked))}


def _kept(cache: dict[K, V], key: K, make: Callable[[K], V]) -> V:
    """``cache[key]``, made and kept where it is missing; a full cache is emptied first."""
    found = cache.get(key)
    if found is None:
        if len(cache) >= KEPT_SPELLINGS:
            cache.clear()
        found = cache[key] = make(key)
    return found


def action_space(enc: Encoding, actions: str = "steps") -> ActionSpace:
    """The action space of an encoding: ``steps`` (word by word) or ``whole``; RulesError for another."""
    if actions == "steps":
        return StepActions(enc)
    if actions == "whole":
        return WholeActions(enc)
    raise RulesError(f"actions must be one of {', '.join(ACTION_SPACES)}, not {actions!r}")
