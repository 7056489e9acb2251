"""How a seat's Quattrigghiu table is drawn: what only Quattrigghiu has, in its own words."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar

from osteria.cards import SUIT_SYMBOLS, card_symbol, suit_of
from osteria.rules import quattrigghiu
from osteria.views.table import Observation, TableView, capital, card_of, suit_index


class QuattrigghiuView(TableView):
    """Quattrigghiu: the trunfu and its battittura, the call and the secret aiutu, the basi, the stakes."""

    handled = TableView.handled | {"phase", "caller", "trump", "called_card", "aiuto", "leader", "tricks",
                                   "tricks_played", "basi", "tutita"}
    declarations_key = "calls"
    score_key = "stakes"
    bidding_phases = frozenset({quattrigghiu.BIDDING, quattrigghiu.FORCED, quattrigghiu.VOLUNTEERS})
    spoken: ClassVar[Mapping[str, str]] = {"tutita": "tutità", "sulita": "sulità"}
    trump: int | None = None

    def note(self, obs: Observation) -> None:
        self.trump = suit_index(obs.get("trump"))

    def ordering(self) -> object:
        return self.trump

    def trumps(self) -> int:
        return quattrigghiu.trumps(self.trump)

    def group_of(self, card: int) -> int:
        return -1 if self.trumps() >> card & 1 else suit_of(card)

    def rank_key(self, card: int) -> int:
        # Before the call a suit ranks as it does when another suit is trunfu: its plain order.
        trump = self.trump if self.trump is not None else (suit_of(card) + 1) % 4
        return quattrigghiu.STRENGTH[trump][card]

    def word(self, word: str, *, explain: bool) -> str:
        suit = suit_index(word)  # the trunfu of a call, as its symbol (typed as a letter or the symbol)
        return SUIT_SYMBOLS[suit] if suit is not None else super().word(word, explain=explain)

    def sides(self, obs: Observation) -> tuple[list[int], list[int]] | None:
        """The caller's side and the others, when the seat can tell them apart."""
        caller, aiuto = obs.get("caller"), obs.get("aiuto")
        if not isinstance(caller, int):
            return None
        if isinstance(aiuto, int):
            callers = [caller, aiuto]
        elif obs.get("called_card") is None and obs.get("phase") != quattrigghiu.VOLUNTEERS:
            callers = [caller]  # sulità, or nobody answered aiutu
        else:
            return None
        return callers, [s for s in range(len(self.names)) if s not in callers]

    def status(self, obs: Observation) -> list[str]:
        lines = []
        phase, caller, aiuto = obs.get("phase"), obs.get("caller"), obs.get("aiuto")
        trump, called = suit_index(obs.get("trump")), card_of(obs.get("called_card"))
        if trump is not None:
            matadors = ((("spatigghia", quattrigghiu.SPATIGGHIA), ("manigghia", quattrigghiu.MANIGGHIA[trump]),
                         ("bastu", quattrigghiu.BASTU)))
            lines.append(self.say("q_trump", trunfu=capital(self.term("trunfu")), suit=self.suit(trump),
                                  matadors=", ".join(f"{word} {card_symbol(c)}" for word, c in matadors)))
        if phase == quattrigghiu.FORCED:
            lines.append(self.say("q_forced", spatigghia=card_symbol(quattrigghiu.SPATIGGHIA)))
        if isinstance(caller, int):
            if called is not None:
                lines.append(self.say("q_call", name=self.name(caller), card=card_symbol(called)))
            elif phase == quattrigghiu.VOLUNTEERS:
                lines.append(self.say("q_open_call", name=self.name(caller)))
            else:  # playing alone, or with the aiutu who answered
                lines.append(self.say("q_alone" if aiuto is None else "q_caller", name=self.name(caller)))
        if isinstance(aiuto, int):
            lines.append(self.say("q_aiuto", name=self.name(aiuto)))
        elif called is not None:
            lines.append(self.say("q_secret", card=card_symbol(called)))
        if phase == quattrigghiu.WINDOW:
            lines.append(self.say("q_window", tutita=self.term("tutita")))
        elif obs.get("tutita"):
            lines.append(self.say("q_attempt", tutita=self.term("tutita")))
        return lines

    def sections(self) -> list[Callable[[Observation], list[str]]]:
        return [*super().sections(), self.basi]

    def basi(self, obs: Observation) -> list[str]:
        """The tricks (basi) each side has taken, which change at every trick."""
        lines = []
        basi, played, phase = obs.get("basi"), obs.get("tricks_played"), obs.get("phase")
        if isinstance(basi, list) and isinstance(played, int) and phase in (quattrigghiu.PLAY, quattrigghiu.WINDOW):
            sides = self.sides(obs)
            if sides is None:
                items = self.per_seat(basi)
            else:
                callers, others = ([self.name(s) for s in side] for side in sides)
                items = " · ".join((self.say("callers", names=", ".join(callers), n=sum(basi[s] for s in sides[0])),
                                    self.say("defenders", names=", ".join(others), n=sum(basi[s] for s in sides[1]))))
            lines.append(self.say("q_basi", basi=capital(self.term("basi")), items=items))
            if played >= quattrigghiu.WINNING:
                lines.append(self.say("q_gone"))
        return lines

    def deal_result(self, index: int, result: Observation, totals: Sequence[int]) -> list[str]:
        points = result["points"]  # basi of the caller's side and of the others
        items = " · ".join((self.say("callers_short", n=points[0]), self.say("defenders_short", n=points[1])))
        return [self.say(self.over_key, n=index + 1, outcome=self.outcome(str(result["outcome"]))),
                self.say("q_basi", basi=capital(self.term("basi")), items=items),
                self.say("deal_delta", delta=self.per_seat([f"{d:+d}" for d in result["delta"]])),
                *self.scores({"totals": list(totals)})]
