"""The seat auditor of `eldorado` (docs/eldorado.md "Views"; engine/audit.py says what an auditor
does). See `EldoradoSeatAudit`.

In El Dorado almost everything is public: the map, the blockades, the market, every discard pile,
removed and played card, the tokens held, the turn's state. What a seat may not see: the other
seats' hands (it knows their sizes, and each seat's hand and draw pile together as one set, since
every card's way there was public), the order of every draw pile (its own included), which token
lies in which cave pile or in the box (it knows them together, and each pile's size), the
generator, and what another seat's decisions drew. The auditor follows the game in the reference
model and compares every field of every view sent to the seat with what the model says the seat
may see, field by field: a public field must be the truth, a hidden one only its public shadow.

>>> import engine
>>> from engine.eldorado.edition import ELDORADO
>>> ELDORADO.auditor.value is EldoradoSeatAudit
True
>>> state = engine.new_game("eldorado", seed=3, players=3, caves=1)
>>> audit = EldoradoSeatAudit(ELDORADO.reference.value.from_text(state.to_text()), seat=1)
>>> audit.check("position " + state.view_text(1))
>>> try:
...     audit.check("position " + state.view_text(1).replace(" flags=", " box=- flags="))
... except InformationLeak as leak:
...     print(leak)
view field 28 of seat 1: 'box' where 'flags' belongs
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Any

from engine.audit import InformationLeak, SeenCards
from engine.eldorado.components import CARDS, TOKENS

_CARD_CODES = frozenset(card.code for card in CARDS)
_TOKEN_CODES = frozenset(token.code for token in TOKENS)
_OPTIONS = ("route", "caves", "max_rounds")
"""The rule options a position opens with, in this order (docs/eldorado.md "Rule options")."""
_VIEW = ("players", "seat", "turn", "phase", "to_move", "final", "pieces", "blockades", "held", "market", "hands",
         "draws", "unseen", "discards", "removed", "played", "tokens", "cavepiles", "cavepool", "explored", "coins",
         "bought", "lastcoin", "moving", "pay", "remove", "replace", "last", "flags", "history")
"""A view's fields after its options, in their order: nothing else may be sent (no `box=`, no `rng=`)."""
_PUBLIC = ("players", "turn", "phase", "to_move", "final", "pieces", "blockades", "held", "market", "discards",
           "removed", "played", "tokens", "explored", "coins", "bought", "lastcoin", "moving", "pay", "remove",
           "replace", "last", "flags")
"""Fields every seat sees as they are in the full position."""
_CARD = "|".join(sorted(_CARD_CODES))
_DREW = re.compile(rf"(?:(?:Cg|Si|Co|Tl|dr)!|~\.|\.)(?::(?P<drawn>(?:{_CARD})+))?")
"""A history entry of a decision that draws (with what it drew, for the mover)."""
_OTHER = re.compile(rf"(?:[A-Z][a-z]|[mpc][123]|nt)[ab]?>(?:[0-9]+|B[1-6])|>(?:[0-9]+|B[1-6])|[#x~\-]({_CARD})"
                    rf"|\$(?:{_CARD}|c1|c2)|\*(?:{_CARD})|Tm\*(?:{_CARD})|(?:rm|rh|ki|po|cs)!")
"""A history entry of any other decision (it shows nothing hidden)."""


def _position(text: str) -> tuple[dict[str, str], dict[str, str]]:
    """(options, fields) of a position or view: the options are the tokens before `players=`."""
    tokens = text.split()
    if not tokens or tokens[0] != "eldorado":
        raise InformationLeak(f"a view of another edition: {tokens[:1]}")
    options: dict[str, str] = {}
    fields: dict[str, str] = {}
    target = options
    for token in tokens[1:]:
        name, sep, value = token.partition("=")
        if not sep:
            raise InformationLeak(f"a view token without '=': {token[:80]!r}")
        if name == "players":
            target = fields
        if name in target:
            raise InformationLeak(f"view field {name!r} given twice")
        target[name] = value
    return options, fields


def _cards(text: str) -> Counter[str]:
    """The multiset of a card text (`-` none)."""
    return Counter() if text == "-" else Counter(text[i:i + 2] for i in range(0, len(text), 2))


class EldoradoSeatAudit(SeenCards):
    """Checks the lines sent to `seat` of an `eldorado` game against what it may see; call
    `observe(game)` with the reference game after every decision (the auditor reads the model's
    full position, `game.to_text()`).

    A view must have exactly the fields of docs/eldorado.md "Views", in order (a `box=` or `rng=`
    is a leak), its options and public fields equal to the full position's; `hands=` the seat's own
    hand and `?k` for every other; `draws=` and `cavepiles=` sizes only; `unseen=` the seat's own draw
    pile as a set and, for another seat, its hand and draw pile together as a set (never one of
    them alone); `cavepool=` the cave piles and the box together; in `history=`, only the seat's own
    decisions may show what they drew.
    """

    def __init__(self, game: Any, seat: int) -> None:
        self._options: dict[str, str] = {}
        self._truth: dict[str, str] = {}
        super().__init__(game, seat)

    def observe(self, game: Any) -> None:
        """Follows the game after a decision: the full position a view is checked against."""
        self.game = game
        self._options, self._truth = _position(game.to_text())
        if "seat" in self._truth:
            raise ValueError("the auditor follows a full position, not a view")

    def _has_card(self, word: str) -> bool:
        return word in _CARD_CODES or word in _TOKEN_CODES

    def _check_view(self, tokens: list[str]) -> None:
        options, fields = _position(" ".join(tokens))
        truth, me = self._truth, self.seat
        if options != self._options:
            raise InformationLeak(f"view options {options} are not the game's {self._options}")
        names = list(fields)
        for i, name in enumerate(names):
            if i >= len(_VIEW) or name != _VIEW[i]:
                expected = _VIEW[i] if i < len(_VIEW) else "nothing more"
                raise InformationLeak(f"view field {i} of seat {me}: {name!r} where {expected!r} belongs")
        if len(names) != len(_VIEW):
            raise InformationLeak(f"view for seat {me} ends early: no {_VIEW[len(names)]!r}")
        if fields["seat"] != str(me):
            raise InformationLeak(f"a view for seat {fields['seat']} sent to seat {me}")
        for name in _PUBLIC:
            if fields[name] != truth[name]:
                raise InformationLeak(f"{name}={fields[name][:80]} is not the game's {name}={truth[name][:80]}")
        players = int(truth["players"])
        hands = self._split(fields, "hands", players)
        draws = self._split(fields, "draws", players)
        unseen = self._split(fields, "unseen", players)
        true_hands = truth["hands"].split("/")
        true_draws = truth["draws"].split("/")
        for k in range(players):
            hand, draw = _cards(true_hands[k]), _cards(true_draws[k])
            if k == me:
                if hands[k] != true_hands[k]:
                    raise InformationLeak(f"hands: seat {me}'s own hand shown as {hands[k][:80]!r}")
                hidden = draw
            else:
                if hands[k] != f"?{sum(hand.values())}":
                    raise InformationLeak(f"hands: seat {k}'s hand shown to seat {me} as {hands[k][:80]!r}")
                hidden = hand + draw
            if draws[k] != str(sum(draw.values())):
                raise InformationLeak(f"draws: seat {k}'s draw pile shown to seat {me} as {draws[k][:80]!r}")
            if _cards(unseen[k]) != hidden or unseen[k] != self._set_text(hidden):
                raise InformationLeak(f"unseen: seat {k}'s unseen cards shown to seat {me} as {unseen[k][:80]!r}")
        piles = truth["cavepiles"].split(",")
        sizes = [str(len(pile) // 2 if pile != "-" else 0) for pile in piles]
        if fields["cavepiles"] != ",".join(sizes):
            raise InformationLeak(f"cavepiles={fields['cavepiles'][:80]}: only the piles' sizes {','.join(sizes)} are public")
        pool: Counter[str] = _cards(truth["box"])
        for pile in piles:
            pool += _cards(pile)
        if fields["cavepool"] != self._set_text(pool, TOKENS):
            raise InformationLeak(f"cavepool={fields['cavepool'][:80]} is not the caves and the box together")
        self._check_history(fields["history"], players)

    @staticmethod
    def _split(fields: dict[str, str], name: str, count: int) -> list[str]:
        parts = fields[name].split("/")
        if len(parts) != count:
            raise InformationLeak(f"{name}: expected {count} entries separated by '/', got {fields[name][:80]!r}")
        return parts

    @staticmethod
    def _set_text(items: Counter[str], kinds: Any = CARDS) -> str:
        return "".join(kind.code * items[kind.code] for kind in kinds) or "-"

    def _check_history(self, value: str, players: int) -> None:
        """Only the seat's own decisions may show what they drew. The entries after the last end
        `.` are the seat to move's; walking back, each `.` is the end of the turn of the seat before
        (turn t is seat t mod players)."""
        if value == "-":
            return
        mover = int(self._truth["turn"]) % players
        for entry in reversed(value.split(",")):
            drew = _DREW.fullmatch(entry)
            if drew is None and not _OTHER.fullmatch(entry):
                raise InformationLeak(f"history: unreadable entry {entry[:80]!r}")
            if entry.partition(":")[0] == ".":
                mover = (mover - 1) % players
            if drew is not None and drew["drawn"] and mover != self.seat:
                raise InformationLeak(f"history entry {entry} shows seat {mover}'s draw to seat {self.seat}")
