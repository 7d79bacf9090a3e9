"""Audits what a seat is told: no line sent to a seat may name a card that seat has not seen.

The auditor does not trust the engine's view code (that is what it checks). It follows the
game in the independent reference model (`engine.reference`) and keeps, per card, an upper
bound of the copies the seat can have seen this round: every copy that entered the seat's
sight — its own hand, the expeditions, the discard piles — counts once each time it enters.
(Passing a card to a partner moves it from hand to hand: the receiver sees it enter.) Every
field of every view sent to the seat must then fit within that bound: its own hand exactly,
the known cards of other hands, rows and piles as multisets, the history card by card.

`SeatAudit` knows the card editions (`classic`, `partners`, `expedition`), `BoardSeatAudit`
the board game (`board`: columns instead of rows, a box of removed cards, public `known` cards
per docs/board.md); `seat_audit(game, seat)` picks the one for the game's edition.

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

from engine.errors import ExpeditionsError
from engine.reference import board as board_ref

_NUMBERS = re.compile(r"[-0-9/]+")

_PLAIN_FIELDS = {"round", "starter", "turn", "phase", "to_move", "nodraw", "totals", "seat", "deck"}
"""View fields that carry no card (their values are checked to be numbers or single symbols)."""

_CARD_FIELDS = ("hands", "rows", "piles", "known", "pknown", "tknown", "history")

_CARDLESS_COMMANDS = {"uei", "isready", "setoption", "newgame", "go", "stop", "gameover", "quit", "d", "legal"}


class InformationLeak(ExpeditionsError, AssertionError):
    """A line told a seat something it cannot know."""


def view_fields(tokens: list[str], edition: str) -> dict[str, str]:
    """The `name=value` fields of a view's tokens (edition name first), each name at most once.

    >>> view_fields(["classic", "seat=0", "deck=40"], "classic")
    {'seat': '0', 'deck': '40'}
    """
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
# editions' subclasses say what is in a seat's sight and how a view of theirs is read.
class _SeenCards:
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
        raise NotImplementedError

    def _check_view(self, tokens: list[str]) -> None:
        raise NotImplementedError

    def _within(self, cards: Counter[str], where: str) -> None:
        for card, n in cards.items():
            if n > self.bound.get(card, 0):
                seen = self.bound.get(card, 0)
                raise InformationLeak(f"{where} shows {n} x {card}; seat {self.seat} has seen {seen}")


class SeatAudit(_SeenCards):
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


class BoardSeatAudit(_SeenCards):
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
    >>> audit = seat_audit(reference.from_text(state.to_text()), seat=1)
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
                if not _NUMBERS.fullmatch(value):
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
        for name, count in (("cols", game.players), ("piles", len(_COLOURS))):
            placed: Counter[str] = Counter()
            for part in self._parts(fields, name, count):
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


def seat_audit(game: Any, seat: int) -> SeatAudit | BoardSeatAudit:
    """The auditor of `seat` for the edition of `game` (a reference-model game).

    >>> from engine import reference
    >>> type(seat_audit(reference.new("board", 1, players=2), 0)).__name__
    'BoardSeatAudit'
    """
    if isinstance(game, board_ref.Game):
        return BoardSeatAudit(game, seat)
    return SeatAudit(game, seat)
