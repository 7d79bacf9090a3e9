"""The seat auditor of the card games (`classic`, `partners`, `expedition`; engine/audit.py says
what an auditor does).

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

from collections import Counter
from typing import Any

from engine.audit import NUMBERS, InformationLeak, SeenCards, view_fields

_PLAIN_FIELDS = {"round", "starter", "turn", "phase", "to_move", "nodraw", "totals", "seat", "deck"}
"""View fields that carry no card (their values are checked to be numbers or single symbols)."""

_CARD_FIELDS = ("hands", "rows", "piles", "known", "pknown", "tknown", "history")


class SeatAudit(SeenCards):
    """Checks the lines sent to `seat` of a card edition against what it has seen; call
    `observe(game)` with the reference game after every decision (it is called once on
    construction). Start it on a fresh deal: what was seen earlier in a round is not in a
    position."""

    def __init__(self, game: Any, seat: int) -> None:
        self.ed = game.ED
        super().__init__(game, seat)

    def _in_sight(self, game: Any) -> Counter[str]:
        sight = Counter(game.hands[self.seat])
        for row in game.rows:
            for cards in row.values():
                sight.update(cards)
        for pile in game.piles:
            sight.update(pile)
        return sight

    def _copies(self, card: str) -> int:
        return self.ed.full[card]

    def _has_card(self, word: str) -> bool:
        return len(word) == 2 and word in self.ed.key

    def _cards(self, text: str, where: str) -> list[str]:
        try:
            return self.ed.parse_cards(text, where)
        except ValueError as err:
            raise InformationLeak(f"{where}: unreadable cards {text!r} ({err})") from None

    def _check_view(self, tokens: list[str]) -> None:
        fields = view_fields(tokens, self.ed.name)
        if fields.get("seat") != str(self.seat):
            raise InformationLeak(f"a view for seat {fields.get('seat')} sent to seat {self.seat}")
        options = {o[0] for o in type(self.game).OPTIONS}
        for name, value in fields.items():
            if name in options or name in _PLAIN_FIELDS:
                plain = NUMBERS.fullmatch(value) or (name == "phase" and value in ("play", "draw", "over")) \
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
