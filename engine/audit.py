"""What every seat auditor shares: no line sent to a seat may name a card that seat has not seen.

An auditor does not trust the engine's view code (that is what it checks). It follows the game in
the independent reference model and keeps, per card, an upper bound of the copies the seat can
have seen this round: every copy that entered the seat's sight counts once each time it enters.
Every field of every view sent to the seat must then fit within that bound. Each family's auditor
(`engine/<family>/audit.py`, named by its edition records) says what is in a seat's sight and how
a view of its own is read; `protocol.integrity.seat_audit` finds it through the record.

>>> view_fields(["classic", "seat=0", "deck=40"], "classic")
{'seat': '0', 'deck': '40'}
>>> try:
...     view_fields(["classic", "seat=0", "seat=1"], "classic")
... except InformationLeak as leak:
...     print(leak)
view field 'seat' given twice
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Any

from engine.errors import ExpeditionsError

NUMBERS = re.compile(r"[-0-9/]+")
"""A field value made of numbers only."""

_CARDLESS_COMMANDS = {"uei", "isready", "setoption", "newgame", "go", "stop", "gameover", "quit", "d", "legal"}


class InformationLeak(ExpeditionsError, AssertionError):
    """A line told a seat something it cannot know."""


def view_fields(tokens: list[str], edition: str) -> dict[str, str]:
    """The `name=value` fields of a view's tokens (edition name first), each name at most once."""
    if not tokens or tokens[0] != edition:
        raise InformationLeak(f"a view of another edition: {tokens[:1]}")
    fields: dict[str, str] = {}
    for token in tokens[1:]:
        name, sep, value = token.partition("=")
        if not sep:
            raise InformationLeak(f"a view token without '=': {token!r}")
        if name in fields:  # a second copy of a field would escape the check of the first
            raise InformationLeak(f"view field {name!r} given twice")
        fields[name] = value
    return fields


# Owns the per-card bound of what one seat has seen and the checks of whole protocol lines; the
# families' subclasses say what is in a seat's sight and how a view of theirs is read.
class SeenCards:
    """The base of the seat auditors: `check(line)` each line sent to the seat, `observe(game)`
    after each decision."""

    seat: int
    game: Any

    def __init__(self, game: Any, seat: int) -> None:
        self.seat = seat
        self.game = game
        self._round = -1
        self._visible: Counter[str] = Counter()
        self.bound: Counter[str] = Counter()
        """Per card: how many copies the seat may have seen this round."""
        self.checked = 0
        """Lines checked so far."""
        self.observe(game)

    def _in_sight(self, game: Any) -> Counter[str]:
        raise NotImplementedError

    def _seen_out_of_sight(self, game: Any) -> Counter[str]:
        """Cards out of the seat's sight that it provably saw earlier in the round (none at a deal)."""
        return Counter()

    def _copies(self, card: str) -> int:
        raise NotImplementedError

    def observe(self, game: Any) -> None:
        """Updates the bound after the game moved on (a new round starts from the new deal)."""
        self.game = game
        sight = self._in_sight(game)
        if game.round != self._round:
            self._round = game.round
            self.bound = sight + self._seen_out_of_sight(game)
        else:
            for card, n in sight.items():
                entered = n - self._visible.get(card, 0)
                if entered > 0:
                    self.bound[card] = min(self._copies(card), self.bound[card] + entered)
        self._visible = sight

    def check(self, line: str) -> None:
        """Raises InformationLeak if `line` (a command sent to the seat) names an unseen card."""
        words = line.split()
        if not words:
            return
        self.checked += 1
        if words[0] == "go" and "legal" in words:  # the list a bot asked for (`request legal`)
            self._check_legal(words[words.index("legal") + 1:])
            words = words[:words.index("legal")]
        if words[0] in _CARDLESS_COMMANDS:
            if words[0] != "setoption" and any(self._has_card(w) for w in words[1:]):
                raise InformationLeak(f"a card in {line[:80]!r}")
            return
        if words[0] != "position":
            raise InformationLeak(f"unexpected command sent to a seat: {words[0]!r}")
        if len(words) > 1 and words[1] == "full":
            raise InformationLeak("a full position sent to a seat")
        self._check_view(words[1:])

    def _check_legal(self, decisions: list[str]) -> None:
        """A `go`'s legal list names what the seat may do, so it must be sent to the seat to move
        only, and be exactly its legal decisions (which name its own cards and public ones)."""
        if self.game.to_move != self.seat:
            raise InformationLeak(f"legal decisions sent to seat {self.seat}, which is not to move")
        if decisions != list(self.game.legal()):
            raise InformationLeak(f"the legal list sent to seat {self.seat} is not its legal decisions")

    def _has_card(self, word: str) -> bool:
        raise NotImplementedError

    def _check_view(self, tokens: list[str]) -> None:
        raise NotImplementedError

    def _within(self, cards: Counter[str], where: str) -> None:
        for card, n in cards.items():
            if n > self.bound.get(card, 0):
                seen = self.bound.get(card, 0)
                raise InformationLeak(f"{where} shows {n} x {card}; seat {self.seat} has seen {seen}")
