"""The seat auditor of `board` (columns instead of rows, a box of removed cards, public `known`
cards per docs/board.md; engine/audit.py says what an auditor does). See `BoardSeatAudit`.

>>> from engine.board.edition import BOARD
>>> BOARD.auditor.value is BoardSeatAudit
True
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Any

from engine.audit import NUMBERS, InformationLeak, SeenCards, view_fields
from engine.board import reference as board_ref

_COLOURS = board_ref.COLOURS
_BOARD_NUMBERS = {"players", "seat", "round", "starter", "turn", "to_move", "totals", "artifacts"} \
    | {option[0] for option in board_ref.OPTIONS}
"""Board view fields made of numbers only (`to_move=-` once the game is over)."""
_BOARD_SYMBOLS = {
    "phase": re.compile(r"play|move|draw|over"),
    "nodraw": re.compile(rf"[.{_COLOURS}]"),
    "pieces": re.compile(r"[./1-9]+"),
    "researcher": re.compile(rf"[-/{_COLOURS}]+"),
}
"""Board view fields of public symbols, none of them a card."""
_BOARD_CARDS = ("hands", "cols", "piles", "known", "history", "tiles", "deck", "box")
"""The board view fields that could name a card or a hidden deal; each has its own check."""
_BOARD_ENTRY = re.compile(rf"\+(?P<played>..)R?|-(?P<discarded>..)|D:(?P<drawn>..)|D[{_COLOURS}]?|>[-{_COLOURS}]")
"""One history entry (docs/board.md "Decisions"); the named groups are the cards it names."""


class BoardSeatAudit(SeenCards):
    """Checks the lines sent to `seat` of a `board` game against what it has seen (docs/board.md
    "Hidden information"); call `observe(game)` with the reference game after every decision.

    In sight: the seat's own hand, every column and every discard pile. Never: the draw pile and
    the box, which a view gives as counts only. Another seat's hand may show exactly the cards
    known to be there (drawn from a pile in public, one copy forgotten per copy played or
    discarded), which the auditor takes from the reference game's `known`. A `D:card` history
    entry may only be the seat's own draw. The tiles are public but must be the board's: a later
    deal's tiles would tell the generator.

    >>> import engine
    >>> from engine import reference
    >>> state = engine.new_game("board", seed=3, players=3)
    >>> audit = BoardSeatAudit(reference.from_text(state.to_text()), seat=1)
    >>> audit.check("position " + state.view_text(1))
    >>> try:
    ...     audit.check("position " + state.view_text(1).replace("known=", "secret=1 known="))
    ... except InformationLeak as leak:
    ...     print(leak)
    unexpected view field 'secret'
    """

    def _in_sight(self, game: Any) -> Counter[str]:
        sight = Counter(game.hands[self.seat])
        for cols in game.cols:
            for column in cols:
                sight.update(column)
        for pile in game.piles:
            sight.update(pile)
        return sight

    def _seen_out_of_sight(self, game: Any) -> Counter[str]:
        # A known card went from a pile (in sight) into another hand; this matters only when the
        # audit starts mid-expedition (a deal clears every known card).
        seen: Counter[str] = Counter()
        for s, known in enumerate(game.known):
            if s != self.seat:
                seen.update(known)
        return seen

    def _copies(self, card: str) -> int:
        return board_ref.FULL[card]

    def _has_card(self, word: str) -> bool:
        return word in board_ref.CARD_KEY

    def _cards(self, text: str, where: str) -> Counter[str]:
        if text == "-":
            return Counter()
        cards = [text[i:i + 2] for i in range(0, len(text), 2)]
        if not text or len(text) % 2 or any(c not in board_ref.CARD_KEY for c in cards):
            raise InformationLeak(f"{where}: unreadable cards {text!r}")
        return Counter(cards)

    def _parts(self, fields: dict[str, str], name: str, count: int) -> list[str]:
        parts = fields.get(name, "").split("/")
        if len(parts) != count:
            raise InformationLeak(f"{name}: expected {count} entries separated by '/', got {fields.get(name)!r}")
        return parts

    def _check_view(self, tokens: list[str]) -> None:
        fields = view_fields(tokens, "board")
        if fields.get("seat") != str(self.seat):
            raise InformationLeak(f"a view for seat {fields.get('seat')} sent to seat {self.seat}")
        for name, value in fields.items():
            if name in _BOARD_NUMBERS:
                if not NUMBERS.fullmatch(value):
                    raise InformationLeak(f"field {name}={value} holds more than numbers")
            elif name in _BOARD_SYMBOLS:
                if not _BOARD_SYMBOLS[name].fullmatch(value):
                    raise InformationLeak(f"field {name}={value} holds more than its symbols")
            elif name not in _BOARD_CARDS:
                raise InformationLeak(f"unexpected view field {name!r}")
        for name, what in (("deck", "draw pile"), ("box", "box")):
            if not fields.get(name, "").isdigit():
                raise InformationLeak(f"{name}={fields.get(name)}: the {what}'s cards are hidden")
        tiles = "/".join("".join(path) for path in self.game.tiles)
        if fields.get("tiles", tiles) != tiles:
            raise InformationLeak(f"tiles={fields['tiles']} are not the board's tiles {tiles} "
                                  "(later deals are hidden)")
        self._check_cards(fields)
        self._check_history(fields.get("history", "-"))

    def _check_cards(self, fields: dict[str, str]) -> None:
        game, me = self.game, self.seat
        known = self._parts(fields, "known", game.players) if "known" in fields else ["-"] * game.players
        shown = Counter(game.hands[me])  # every physical copy the view places, counted once
        for s, part in enumerate(self._parts(fields, "hands", game.players)):
            cards_text, q, count = part.partition("?")
            if q and not count.isdigit():
                raise InformationLeak(f"hands: unreadable unknown count in {part!r}")
            cards = self._cards(cards_text or "-", "hands")
            listed = self._cards(known[s], "known")
            if s == me:
                if q or cards != game.hands[me]:
                    raise InformationLeak(f"hands: seat {s}'s own hand is shown as {part!r}")
                if listed - cards:
                    raise InformationLeak(f"known lists {board_ref.set_text(listed - cards)} in seat {me}'s "
                                          "own hand, which does not hold it")
            else:
                self._known_in(cards, s, "hands")
                self._known_in(listed, s, "known")
                shown.update(cards | listed)  # the same copies, written in both fields
        for name, entries in (("cols", game.players), ("piles", len(_COLOURS))):
            placed: Counter[str] = Counter()
            for part in self._parts(fields, name, entries):
                placed.update(self._cards(part, name))
            self._within(placed, name)
            shown.update(placed)
        # Each field alone may fit the bound while the copies they place together do not.
        self._within(shown, "hands, cols, piles and known together")

    def _known_in(self, cards: Counter[str], s: int, where: str) -> None:
        """Another seat's hand may be shown only as far as it is known (docs/board.md)."""
        extra = cards - self.game.known[s]
        if extra:
            known = board_ref.set_text(self.game.known[s]) if self.game.known[s] else "none"
            raise InformationLeak(f"{where} shows seat {s} holding {board_ref.set_text(extra)}; "
                                  f"seat {self.seat} knows of {known} there")

    def _check_history(self, value: str) -> None:
        if value == "-":
            return
        game = self.game
        entries = value.split(",")
        # A draw completes a turn, and turn k of the expedition is seat (starter + k)'s: walking
        # back from the last entry, which is in the turn under way (`turn`) unless it is the draw
        # that completed the previous one, tells whose every entry is.
        turn = game.turn
        for i in range(len(entries) - 1, -1, -1):
            entry = entries[i]
            m = _BOARD_ENTRY.fullmatch(entry)
            if not m:
                raise InformationLeak(f"history: unreadable entry {entry!r}")
            if entry[0] == "D":
                turn -= 1
            if turn < 0:
                raise InformationLeak(f"history: more turns than the {game.turn} this expedition has had")
            mover = (game.starter + turn) % game.players
            if m["drawn"] and mover != self.seat:
                raise InformationLeak(f"history entry {entry} shows seat {mover}'s draw from the draw pile "
                                      f"to seat {self.seat}")
            card = m["played"] or m["discarded"] or m["drawn"]
            if card and card not in board_ref.CARD_KEY:
                raise InformationLeak(f"history: unreadable entry {entry!r}")
            if card and self.bound.get(card, 0) < 1:
                raise InformationLeak(f"history entry {entry} names {card}, which seat {self.seat} "
                                      "has not seen")
