"""Audits what a seat is told: no line sent to a seat may name a card that seat has not seen.

The auditor does not trust the engine's view code (that is what it checks). It follows the
game in the independent reference model (`engine.reference`) and keeps, per card, an upper
bound of the copies the seat can have seen this round: every copy that entered the seat's
sight — its own hand, the expeditions, the discard piles — counts once each time it enters.
(Passing a card to a partner moves it from hand to hand: the receiver sees it enter.) Every
field of every view sent to the seat must then fit within that bound: its own hand exactly,
the known cards of other hands, rows and piles as multisets, the history card by card.

Written for the card editions (`classic`, `partners`, `expedition`); a board edition will need
its own notion of what a seat sees.

>>> import engine
>>> from engine import reference
>>> state = engine.new_game("classic", seed=3)
>>> audit = SeatAudit(reference.from_text(state.to_text()), seat=0)
>>> audit.check("position " + state.view_text(0))
>>> try:
...     audit.check("position " + state.view_text(1))
... except InformationLeak as leak:
...     print(leak)
a view for seat 1 sent to seat 0
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Any

_NUMBERS = re.compile(r"[-0-9/]+")

_PLAIN_FIELDS = {"round", "starter", "turn", "phase", "to_move", "nodraw", "totals", "seat", "deck"}
"""View fields that carry no card (their values are checked to be numbers or single symbols)."""

_CARD_FIELDS = ("hands", "rows", "piles", "known", "pknown", "tknown", "history")

_CARDLESS_COMMANDS = {"uei", "isready", "setoption", "newgame", "go", "stop", "gameover", "quit", "d", "legal"}


class InformationLeak(AssertionError):
    """A line told a seat something it cannot know."""


# Owns the per-card bound of what one seat has seen, following a reference game.
class SeatAudit:
    """Checks the lines sent to `seat` against what it has seen; call `observe(game)` with the
    reference game after every decision (it is called once on construction). Start it on a
    fresh deal: what was seen earlier in a round is not in a position."""

    def __init__(self, game: Any, seat: int) -> None:
        self.seat = seat
        self.ed = game.ED
        self.game = game
        self._round = -1
        self._visible: Counter[str] = Counter()
        self.bound: Counter[str] = Counter()
        """Per card: how many copies the seat may have seen this round."""
        self.checked = 0
        """Lines checked so far."""
        self.observe(game)

    def _in_sight(self, game: Any) -> Counter[str]:
        sight = Counter(game.hands[self.seat])
        for row in game.rows:
            for cards in row.values():
                sight.update(cards)
        for pile in game.piles:
            sight.update(pile)
        return sight

    def observe(self, game: Any) -> None:
        """Updates the bound after the game moved on (a new round starts from the new deal)."""
        self.game = game
        sight = self._in_sight(game)
        if game.round != self._round:
            self._round = game.round
            self.bound = Counter(sight)
        else:
            for card, n in sight.items():
                entered = n - self._visible.get(card, 0)
                if entered > 0:
                    self.bound[card] = min(self.ed.full[card], self.bound[card] + entered)
        self._visible = sight

    def check(self, line: str) -> None:
        """Raises InformationLeak if `line` (a command sent to the seat) names an unseen card."""
        words = line.split()
        if not words:
            return
        self.checked += 1
        if words[0] in _CARDLESS_COMMANDS:
            if words[0] != "setoption" and any(self._has_card(w) for w in words[1:]):
                raise InformationLeak(f"a card in {line[:80]!r}")
            return
        if words[0] != "position":
            raise InformationLeak(f"unexpected command sent to a seat: {words[0]!r}")
        if len(words) > 1 and words[1] == "full":
            raise InformationLeak("a full position sent to a seat")
        self._check_view(words[1:])

    def _has_card(self, word: str) -> bool:
        return len(word) == 2 and word in self.ed.key

    def _cards(self, text: str, where: str) -> list[str]:
        try:
            return self.ed.parse_cards(text, where)
        except ValueError as err:
            raise InformationLeak(f"{where}: unreadable cards {text!r} ({err})") from None

    def _within(self, cards: Counter[str], where: str) -> None:
        for card, n in cards.items():
            if n > self.bound.get(card, 0):
                seen = self.bound.get(card, 0)
                raise InformationLeak(f"{where} shows {n} x {card}; seat {self.seat} has seen {seen}")

    def _check_view(self, tokens: list[str]) -> None:
        if not tokens or tokens[0] != self.ed.name:
            raise InformationLeak(f"a view of another edition: {tokens[:1]}")
        fields: dict[str, str] = {}
        for token in tokens[1:]:
            name, sep, value = token.partition("=")
            if not sep:
                raise InformationLeak(f"a view token without '=': {token!r}")
            fields[name] = value
        if fields.get("seat") != str(self.seat):
            raise InformationLeak(f"a view for seat {fields.get('seat')} sent to seat {self.seat}")
        options = {o[0] for o in type(self.game).OPTIONS}
        for name, value in fields.items():
            if name in options or name in _PLAIN_FIELDS:
                plain = _NUMBERS.fullmatch(value) or (name == "phase" and value in ("play", "draw", "over")) \
                    or (name == "nodraw" and len(value) == 1)
                if not plain:
                    raise InformationLeak(f"field {name}={value} holds more than numbers")
            elif name not in _CARD_FIELDS:
                raise InformationLeak(f"unexpected view field {name!r}")
        if not fields.get("deck", "").isdigit():
            raise InformationLeak(f"deck={fields.get('deck')}: the draw pile's cards are hidden")
        self._check_hands(fields.get("hands", ""))
        for name in ("rows", "piles", "known", "pknown", "tknown"):
            if name in fields:
                cards: Counter[str] = Counter()
                for part in fields[name].split("/"):
                    if part != "?":
                        cards.update(self._cards(part, name))
                self._within(cards, name)
        self._check_history(fields.get("history", "-"))

    def _check_hands(self, value: str) -> None:
        parts = value.split("/")
        if len(parts) != self.ed.seats:
            raise InformationLeak(f"hands={value}: expected {self.ed.seats} hands")
        others: Counter[str] = Counter()
        for seat, part in enumerate(parts):
            cards_text, q, count = part.partition("?")
            if q and not count.isdigit():
                raise InformationLeak(f"hands: unreadable unknown count in {part!r}")
            cards = Counter(self._cards(cards_text or "-", "hands"))
            if seat == self.seat:
                if q or cards != Counter(self.game.hands[seat]):
                    raise InformationLeak(f"hands: seat {seat}'s own hand is shown as {part!r}")
            else:
                others.update(cards)
        self._within(others + Counter(self.game.hands[self.seat]), "hands")

    def _check_history(self, value: str) -> None:
        if value == "-":
            return
        for entry in value.split(","):
            if entry.startswith(("+", "-")) and entry != "-":
                cards = entry[1:]
            elif entry.startswith("D:"):
                cards = entry[2:]
            elif entry.startswith(">") and entry != ">?":
                cards = entry[1:]
            elif entry in ("D", ">?", "D-") or (len(entry) == 2 and entry[0] == "D" and entry[1] in self.ed.colours):
                continue
            else:
                raise InformationLeak(f"history: unreadable entry {entry!r}")
            for card in self._cards(cards, "history"):
                if self.bound.get(card, 0) < 1:
                    raise InformationLeak(f"history entry {entry} names {card}, which seat {self.seat} "
                                          "has not seen")
