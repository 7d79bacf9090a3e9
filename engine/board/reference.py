"""Reference model of ``board`` — Lost Cities: The Board Game (2 to 4 players).

Written straight from docs/board.md (normative rules decisions and notation), RULES.md section 4
and ``engine/board/data/board.json`` (every number of the board is read from that file at import;
none is repeated here). It shares only the SplitMix64 generator, the Fisher-Yates shuffle and the
small multiset helpers of ``engine.reference.base`` with the card editions, and nothing of the compiled engine.

The state is plain data: hands, known cards and the box are ``collections.Counter`` of card
texts, columns are ``cols[seat][path]`` lists in play order, pieces are ``pieces[seat][path]``
stone numbers (0 = no piece), tiles are ``tiles[path]`` lists of tile entries aligned with the
path's event spaces, piles and the draw pile are lists bottom to top (the last element is the
top).

Readings of the spec taken here (docs/board.md leaves them implicit):

* the count of pieces across bridges is the number of pieces standing beyond the bridge (pieces
  only move forward within an expedition, so every such piece crossed once);
* known cards are cleared by the next deal; the final position (``phase=over``) keeps them with
  the hands they describe, as the card editions' models do.

>>> g = Game.new(1, players=2)
>>> g.to_move, g.phase, len(g.deck), sum(g.box.values())
(0, 'play', 64, 30)
>>> g.legal()[:3]
['+y1', '+b8', '+w1']
>>> g.apply("+y1R"); g.pieces[0], g.researcher[0]
([1, 0, 0, 0, 0], 0)
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from engine.reference.base import (NotationError, RoundsGame, SplitMix64, check_options, contains, mover, parse_cards,
                                   parse_int, read_position, shuffle, size, split, take, take_if)

__all__ = ["Game", "NotationError", "DATA", "COLOURS", "STONE_VALUES", "artifact_points",
           "stone_score", "CANONICAL_CARDS", "CANONICAL_TILES"]

# ---------------------------------------------------------------------------------------------
# Board data (engine/board/data/board.json; docs/board.md "Board data")

DATA_PATH = Path(__file__).resolve().parent / "data" / "board.json"
DATA: dict = json.loads(DATA_PATH.read_text())

COLOUR_NAMES: list[str] = list(DATA["colours"])
COLOURS: str = "".join(name[0] for name in COLOUR_NAMES)  # "ybwgr": the initials, canonical order
N_PATHS = len(COLOURS)
STONE_VALUES: list[int] = list(DATA["stone_values"])  # index stone - 1
LAST_STONE = len(STONE_VALUES)  # the lost city
BRIDGE = int(DATA["bridge_after_stone"])  # a step from BRIDGE to BRIDGE + 1 crosses the bridge
ACROSS_TO_END = int(DATA["pieces_across_bridges_to_end"])
HAND_SIZE = int(DATA["hand_size"])
REMOVED_WITH_TWO = int(DATA["two_player_removed_cards"])
# The rules fix these (not data): 4 adventurers and 1 researcher per seat.
ADVENTURERS = 4
PLAYERS = (2, 3, 4)
assert len(COLOURS) == len(set(COLOURS)) and 1 <= LAST_STONE <= 9, "pieces are written as one digit"

# Event spaces: per path, its stones ascending; SPACE_INDEX[path][stone] = index into tiles[path].
SPACES: list[list[int]] = [sorted(DATA["event_spaces_reconstructed"][name]) for name in COLOUR_NAMES]
SPACE_INDEX: list[dict[int, int]] = [{stone: i for i, stone in enumerate(s)} for s in SPACES]

# Tiles in canonical order: artifacts, arrows, then victory points ascending (docs/board.md "Dealing").
ARTIFACT, ARROW, EMPTY = "A", ">", "."
_events = DATA["event_tiles"]
CANONICAL_TILES: tuple[str, ...] = tuple(
    [ARTIFACT] * _events["artifact"] + [ARROW] * _events["arrow"]
    + [f"V{v}" for v in sorted(_events["victory_points_reconstructed"])])
assert len(CANONICAL_TILES) == sum(len(s) for s in SPACES), "one tile per event space"


def _table(raw: dict[str, int]) -> tuple[list[int], int]:
    """An artifact table as (values for 0..k-1 tokens, value for k and more) from keys "0".."k+"."""
    values, last = [], None
    for i in range(len(raw)):
        if str(i) in raw:
            values.append(raw[str(i)])
        elif f"{i}+" in raw and i == len(raw) - 1:
            last = raw[f"{i}+"]
        else:
            raise ValueError(f"board.json: artifact table keys must run 0..k-1 then 'k+', got {sorted(raw)}")
    if last is None:
        raise ValueError("board.json: artifact table lacks its 'k+' key")
    return values, last


LONG_TABLE = _table(DATA["artifact_table_long_reconstructed"])
SHORT_TABLE = _table(DATA["artifact_table_short_reconstructed"])

# Cards: colour letter then value (0..9, T for 10); two copies of each, copies together.
_VALUE_CHARS = "0123456789T"
VALUES: list[int] = list(DATA["cards"]["values"])
COPIES = int(DATA["cards"]["copies_per_value"])
CARD_VALUE: dict[str, int] = {}
CARD_KEY: dict[str, int] = {}  # canonical order: colour-major, then value
CARD_COLOUR: dict[str, int] = {}
_canonical: list[str] = []
for _ci, _col in enumerate(COLOURS):
    for _v in VALUES:
        _card = _col + _VALUE_CHARS[_v]
        CARD_KEY[_card] = len(CARD_KEY)
        CARD_VALUE[_card] = _v
        CARD_COLOUR[_card] = _ci
        _canonical.extend([_card] * COPIES)
CANONICAL_CARDS: tuple[str, ...] = tuple(_canonical)
FULL = Counter(CANONICAL_CARDS)
N_CARDS = len(CANONICAL_CARDS)

PLAY, MOVE, DRAW, OVER = "play", "move", "draw", "over"

# (name, default, lowest, highest) in the order of docs/board.md "Rule options".
OPTIONS: tuple[tuple[str, int, int, int], ...] = (
    ("rounds", 3, 1, 99),
    ("max_turns", 300, 1, 10000),
    ("updown", 0, 0, 1),
)
FIELDS = ("players", "round", "starter", "turn", "phase", "to_move", "nodraw", "totals", "artifacts",
          "hands", "cols", "pieces", "researcher", "tiles", "piles", "deck", "box", "known", "rng")

_TILE_TOKEN = re.compile(r"A|>|\.|V(?:0|[1-9][0-9]*)")


def artifact_points(tokens: int, short: bool) -> int:
    """Points of an artifact count on the short (1 expedition) or long table.

    >>> artifact_points(0, short=False), artifact_points(12, short=False), artifact_points(2, short=True)
    (-30, 90, 10)
    """
    values, last = SHORT_TABLE if short else LONG_TABLE
    return values[tokens] if tokens < len(values) else last


def stone_score(stone: int, researcher: bool) -> int:
    """What a piece on ``stone`` scores (0 = not on the board); the researcher scores double.

    >>> stone_score(1, researcher=True), stone_score(9, researcher=False), stone_score(0, True)
    (-40, 50, 0)
    """
    if stone == 0:
        return 0
    return STONE_VALUES[stone - 1] * (2 if researcher else 1)


def _sort(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=CARD_KEY.__getitem__)


def set_text(cards: Counter) -> str:
    """A set in canonical order, repeats written out; ``-`` when empty."""
    return "".join(_sort(cards.elements())) or "-"


def _parse_cards(text: str, what: str) -> list[str]:
    return parse_cards(text, what, CARD_KEY, "board")


def _parse_set(text: str, what: str) -> Counter:
    cards = _parse_cards(text, what)
    for a, b in zip(cards, cards[1:]):
        if CARD_KEY[a] > CARD_KEY[b]:
            raise NotationError(f"{what}: a set must be in canonical order, {a} comes after {b} in {text!r}")
    return Counter(cards)


def _direction(column: list[str]) -> int:
    """+1 ascending, -1 descending, 0 not fixed yet: the first card differing from the first one
    fixes it (equal cards never do; docs/board.md "Up-and-down variant")."""
    first = CARD_VALUE[column[0]]
    for card in column[1:]:
        v = CARD_VALUE[card]
        if v != first:
            return 1 if v > first else -1
    return 0


# One entry of the history: (seat, decision text, card drawn from the draw pile or None).
HistoryEntry = tuple[int, str, "str | None"]


class Game(RoundsGame):
    """A full ``board`` position with its rules.

    Use ``Game.new(seed, players=4, **options)`` or ``Game.from_text(text)``; the constructor
    makes an empty shell.

    >>> g = Game.new(3, players=3, rounds=1)
    >>> g.players, g.options
    (3, {'rounds': 1, 'max_turns': 300, 'updown': 0})
    """

    OPTIONS = OPTIONS
    PHASES = (PLAY, MOVE, DRAW, OVER)
    ROUND_WORD = "expedition"

    # ------------------------------------------------------------------ construction
    def __init__(self) -> None:
        super().__init__()
        self.players = 0
        self._totals: list[int] = []
        self.artifacts: list[int] = []
        self.hands: list[Counter] = []
        self.cols: list[list[list[str]]] = []
        self.pieces: list[list[int]] = []
        self.researcher: list[int | None] = []
        self.tiles: list[list[str]] = []
        self.piles: list[list[str]] = []
        self.deck: list[str] = []
        self.box: Counter = Counter()
        self.known: list[Counter] = []
        self._history: list[HistoryEntry] = []

    @classmethod
    def new(cls, seed: int, players: int = 4, **options: int) -> "Game":
        """Deal expedition 1 from ``seed`` (docs/board.md "Dealing"); seat 0 starts.

        >>> g = Game.new(7, players=4, updown=1)
        >>> len(g.deck), [sum(h.values()) for h in g.hands], g.options["updown"]
        (78, [8, 8, 8, 8], 1)
        """
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 64:
            raise ValueError(f"seed must be an integer in 0..2^64-1, got {seed!r}")
        if isinstance(players, bool) or not isinstance(players, int) or players not in PLAYERS:
            raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
        g = cls()
        g.options = check_options("board", OPTIONS, options, " (and the parameter players)")
        g.players = players
        g._totals = [0] * players
        g.artifacts = [0] * players
        g.round, g.starter, g.rng = 1, 0, seed
        g._deal()
        return g

    def copy(self) -> "Game":
        """An independent copy (history included)."""
        g = Game()
        g.options = dict(self.options)
        g.players = self.players
        g.round, g.starter, g.turn, g.phase = self.round, self.starter, self.turn, self.phase
        g._to_move, g.nodraw, g.rng = self._to_move, self.nodraw, self.rng
        g._totals = list(self._totals)
        g.artifacts = list(self.artifacts)
        g.hands = [Counter(h) for h in self.hands]
        g.cols = [[list(c) for c in cols] for cols in self.cols]
        g.pieces = [list(p) for p in self.pieces]
        g.researcher = list(self.researcher)
        g.tiles = [list(t) for t in self.tiles]
        g.piles = [list(p) for p in self.piles]
        g.deck = list(self.deck)
        g.box = Counter(self.box)
        g.known = [Counter(k) for k in self.known]
        g._history = list(self._history)
        return g

    # ------------------------------------------------------------------ public queries
    @property
    def updown(self) -> bool:
        return bool(self.options["updown"])

    def totals(self) -> list[int]:
        """Each seat's victory points: completed expeditions plus this one's victory-point tiles
        (the final scores once ``is_over()``)."""
        return list(self._totals)

    def seat_scores(self) -> list[int]:
        """Per seat, the same as ``totals()`` (every seat scores for itself)."""
        return list(self._totals)

    def result(self) -> list[float]:
        """Per seat, the share of the other seats it beats, a tie counting 1/2; seats are ranked by
        victory points, then by artifacts (judged on the current figures; final once over).

        >>> g = Game.new(1, players=3)
        >>> g._totals, g.artifacts = [10, 10, 10], [2, 1, 2]
        >>> g.result()
        [0.75, 0.0, 0.75]
        """
        ranks = [(t, a) for t, a in zip(self._totals, self.artifacts)]
        out = []
        for s in range(self.players):
            share = sum(1.0 if ranks[s] > ranks[o] else 0.5 if ranks[s] == ranks[o] else 0.0
                        for o in range(self.players) if o != s)
            out.append(share / (self.players - 1))
        return out

    def expedition_scores(self) -> list[int]:
        """What the pieces on the board score now, per seat (researcher doubled)."""
        return [sum(stone_score(stone, self.researcher[s] == x) for x, stone in enumerate(self.pieces[s]))
                for s in range(self.players)]

    # ------------------------------------------------------------------ dealing and flow
    def _deal(self) -> None:
        """Deal an expedition from the position's generator: tiles, then cards (docs/board.md)."""
        gen = SplitMix64(self.rng)
        tiles = list(CANONICAL_TILES)
        shuffle(tiles, gen)
        cards = list(CANONICAL_CARDS)
        shuffle(cards, gen)
        self.rng = gen.state  # the state after step 2 deals the next expedition
        self.tiles, i = [], 0
        for spaces in SPACES:  # space i, path by path, stones ascending
            self.tiles.append(tiles[i:i + len(spaces)])
            i += len(spaces)
        removed = REMOVED_WITH_TWO if self.players == 2 else 0
        self.box = Counter(cards[len(cards) - removed:])  # the top cards (last elements)
        cards = cards[:len(cards) - removed]
        self.hands = [Counter() for _ in range(self.players)]
        dealt = HAND_SIZE * self.players
        for k in range(dealt):
            self.hands[k % self.players][cards[len(cards) - 1 - k]] += 1
        self.deck = cards[:len(cards) - dealt]
        self.cols = [[[] for _ in range(N_PATHS)] for _ in range(self.players)]
        self.pieces = [[0] * N_PATHS for _ in range(self.players)]
        self.researcher = [None] * self.players
        self.piles = [[] for _ in range(N_PATHS)]
        self.known = [Counter() for _ in range(self.players)]
        self._begin_round()
        self._history = []

    def _end_expedition(self) -> None:
        """Score the expedition (floor at 0), then deal the next or finish the game."""
        last_mover = mover(self._to_move)
        for s, points in enumerate(self.expedition_scores()):
            self._totals[s] = max(0, self._totals[s] + points)
        # Known cards are forgotten with the next deal; the final position keeps them (with the
        # hands they describe), as the card editions do (see the report on this reading).
        self.nodraw = None
        if self.round >= self.rounds:
            short = self.rounds == 1
            for s in range(self.players):
                self._totals[s] = max(0, self._totals[s] + artifact_points(self.artifacts[s], short))
            self.phase = OVER
            self._to_move = None
            return
        self.round += 1
        self.starter = (last_mover + 1) % self.players  # the seat after the last mover
        self._deal()

    def _below_lost_city(self, seat: int) -> bool:
        return any(0 < stone < LAST_STONE for stone in self.pieces[seat])

    def _step(self, seat: int, path: int) -> bool | None:
        """Move ``seat``'s piece on ``path`` one stone forward (from 0: a begin onto stone 1) and
        let the reached stone act. Returns None when the expedition ended (the 5th piece across a
        bridge), else whether an optional step was earned (an arrow)."""
        old = self.pieces[seat][path]
        new = old + 1
        self.pieces[seat][path] = new
        if old <= BRIDGE < new:
            across = sum(1 for p in self.pieces for stone in p if stone > BRIDGE)
            if across >= ACROSS_TO_END:
                self._end_expedition()  # the reached stone's event is not performed
                return None
        i = SPACE_INDEX[path].get(new)
        if i is None:
            return False
        tile = self.tiles[path][i]
        if tile == ARTIFACT:
            self.artifacts[seat] += 1
            self.tiles[path][i] = EMPTY
        elif tile == ARROW:
            return True
        elif tile != EMPTY:
            self._totals[seat] += int(tile[1:])  # victory points: never doubled
        return False

    def _after_move(self, seat: int, step_earned: bool) -> None:
        # An optional step is asked only when the seat has a piece that can move.
        self.phase = MOVE if step_earned and self._below_lost_city(seat) else DRAW

    def _end_turn(self) -> None:
        """A draw completed the turn."""
        self.turn += 1
        self.nodraw = None
        if not self.deck or self.turn >= self.max_turns:
            self._end_expedition()
            return
        self.phase = PLAY
        self._to_move = (mover(self._to_move) + 1) % self.players

    # ------------------------------------------------------------------ decisions
    def _fits(self, column: list[str], card: str) -> bool:
        """Can ``card`` go onto a non-empty column (equal values always)?"""
        v, last = CARD_VALUE[card], CARD_VALUE[column[-1]]
        if not self.updown:
            return v >= last
        direction = _direction(column)
        return v == last or direction == 0 or (v > last) == (direction > 0)

    def legal(self) -> list[str]:
        """Legal decisions of the seat to move, in the documented order.

        >>> g = Game.new(1, players=2)
        >>> g.apply("-y1"); g.legal()
        ['D']
        """
        if self.phase == OVER:
            return []
        seat = mover(self._to_move)
        if self.phase == DRAW:
            return ["D"] + ["D" + COLOURS[x] for x, pile in enumerate(self.piles) if pile and x != self.nodraw]
        if self.phase == MOVE:
            return [">" + COLOURS[x] for x, stone in enumerate(self.pieces[seat])
                    if 0 < stone < LAST_STONE] + [">-"]
        cards = _sort(self.hands[seat])  # distinct cards: identical cards decide alike
        cols = self.cols[seat]
        begun = sum(1 for c in cols if c)
        researcher_free = self.researcher[seat] is None
        adventurer_free = begun - (0 if researcher_free else 1) < ADVENTURERS
        plays, research = [], []
        for card in cards:
            column = cols[CARD_COLOUR[card]]
            if column:
                if self._fits(column, card):
                    plays.append("+" + card)
            else:
                if adventurer_free:
                    plays.append("+" + card)
                if researcher_free:
                    research.append("+" + card + "R")
        return plays + research + ["-" + c for c in cards]

    @staticmethod
    def _check_decision_syntax(decision: object) -> None:
        ok = False
        if isinstance(decision, str) and decision:
            head, rest = decision[0], decision[1:]
            if head == "+":
                ok = rest in CARD_KEY or (rest[-1:] == "R" and rest[:-1] in CARD_KEY)
            elif head == "-":
                ok = rest in CARD_KEY
            elif head == "D":
                ok = rest == "" or (len(rest) == 1 and rest in COLOURS)
            elif head == ">":
                ok = rest == "-" or (len(rest) == 1 and rest in COLOURS)
        if not ok:
            raise NotationError(f"malformed decision {decision!r} for board: expected +card, +cardR, -card, "
                                f"D, D<colour>, ><colour> or >-")

    def apply(self, decision: str) -> None:
        """Apply one decision given as text; ValueError (state unchanged) if malformed or illegal.

        >>> g = Game.new(1, players=2)
        >>> g.apply("+y1"); g.apply("D"); g.to_move, g.turn
        (1, 1)
        >>> g.apply("D")
        Traceback (most recent call last):
        ...
        ValueError: illegal decision 'D' for seat 1 in phase play; legal: ...
        """
        seat = self._legal_mover(decision)
        head = decision[0]
        if head == "D":
            if decision == "D":
                card = self.deck.pop()
                self._history.append((seat, "D", card))
            else:
                card = self.piles[COLOURS.index(decision[1])].pop()
                self.known[seat][card] += 1  # everybody saw it go into that hand
                self._history.append((seat, decision, None))
            self.hands[seat][card] += 1
            self._end_turn()
            return
        self._history.append((seat, decision, None))
        if head == ">":
            if decision == ">-":
                self.phase = DRAW  # a declined step ends the chain
                return
            earned = self._step(seat, COLOURS.index(decision[1]))
            if earned is not None:
                self._after_move(seat, earned)
            return
        card = decision[1:3]
        take(self.hands[seat], card)
        take_if(self.known[seat], card)  # one known copy of that type is forgotten
        x = CARD_COLOUR[card]
        if head == "-":
            self.piles[x].append(card)
            self.phase, self.nodraw = DRAW, x
            return
        column = self.cols[seat][x]
        column.append(card)
        if len(column) == 1:  # a begin: a piece goes onto stone 1
            if decision.endswith("R"):
                self.researcher[seat] = x
            earned = self._step(seat, x)
        elif self.pieces[seat][x] == LAST_STONE:
            earned = True  # the lost-city advance: the piece stays, one optional step
        else:
            earned = self._step(seat, x)
        if earned is not None:
            self._after_move(seat, earned)

    # ------------------------------------------------------------------ text: positions
    def _options_text(self) -> str:
        return " ".join(f"{name}={self.options[name]}" for name, *_ in OPTIONS)

    def _common_fields(self) -> list[str]:
        return self.progress_fields() + [
            f"nodraw={'.' if self.nodraw is None else COLOURS[self.nodraw]}",
            "totals=" + "/".join(map(str, self._totals)),
            "artifacts=" + "/".join(map(str, self.artifacts)),
        ]

    def _board_fields(self) -> list[str]:
        return [
            "cols=" + "/".join("".join(c for col in cols for c in col) or "-" for cols in self.cols),
            "pieces=" + "/".join("".join(str(s) if s else "." for s in p) for p in self.pieces),
            "researcher=" + "/".join("-" if r is None else COLOURS[r] for r in self.researcher),
            "tiles=" + "/".join("".join(t) for t in self.tiles),
            "piles=" + "/".join("".join(p) or "-" for p in self.piles),
        ]

    def _known_text(self) -> str:
        return "known=" + "/".join(set_text(k) for k in self.known)

    def to_text(self) -> str:
        """The full position, one line (docs/board.md "Positions").

        >>> g = Game.new(1, players=2)
        >>> Game.from_text(g.to_text()).to_text() == g.to_text()
        True
        """
        return " ".join([
            "board", self._options_text(), f"players={self.players}", *self._common_fields(),
            "hands=" + "/".join(set_text(h) for h in self.hands),
            *self._board_fields(),
            "deck=" + ("".join(self.deck) or "-"),
            "box=" + set_text(self.box),
            self._known_text(),
            f"rng={self.rng:016x}"])

    def __repr__(self) -> str:
        return f"<engine.board.reference.Game {self.to_text()}>"

    # ------------------------------------------------------------------ text: views
    def _check_seat(self, seat: object) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"seat must be in 0..{self.players - 1}, got {seat!r}")

    def history_text(self, seat: int | None = None) -> str:
        """The decisions of the current expedition on this object: the referee's record
        (``seat=None``, draws from the draw pile as ``D:<card>``) or masked for ``seat``.

        >>> g = Game.new(1, players=2)
        >>> g.apply("+y1R"); g.apply("D"); g.history_text(), g.history_text(1)
        ('+y1R,D:g8', '+y1R,D')
        """
        if seat is not None:
            self._check_seat(seat)
        out = []
        for s, text, card in self._history:
            if text == "D":
                # a draw from the draw pile is recorded with its card
                text = "D" if seat is not None and seat != s else "D:" + card  # type: ignore[operator]
            out.append(text)
        return ",".join(out) or "-"

    def view_text(self, seat: int) -> str:
        """What ``seat`` knows (docs/board.md "Views").

        >>> v = Game.new(1, players=2).view_text(1).split()
        >>> v[5], v[-4:]
        ('seat=1', ['deck=64', 'box=30', 'known=-/-', 'history=-'])
        """
        self._check_seat(seat)
        hands = []
        for s, hand in enumerate(self.hands):
            if s == seat:
                hands.append(set_text(hand))
                continue
            seen = self.known[s]
            unknown = size(hand) - size(seen)
            hands.append(((set_text(seen) if seen else "") + (f"?{unknown}" if unknown else "")) or "-")
        return " ".join([
            "board", self._options_text(), f"players={self.players}", f"seat={seat}",
            *self._common_fields(), "hands=" + "/".join(hands), *self._board_fields(),
            f"deck={len(self.deck)}", f"box={size(self.box)}", self._known_text(),
            "history=" + self.history_text(seat)])

    # ------------------------------------------------------------------ parsing
    @classmethod
    def from_text(cls, text: str) -> "Game":
        """Parse and check a full position; NotationError (a ValueError) names the bad field.

        >>> Game.from_text(Game.new(1, players=2).to_text().replace("players=2", "players=5"))
        Traceback (most recent call last):
        ...
        engine.reference.base.NotationError: players: expected 2..4, got 5
        """
        raw, values = read_position(text, "board", OPTIONS, FIELDS)
        g = cls()
        g.options = check_options("board", OPTIONS, raw)
        g._parse_fields(values)
        return g

    def _parse_fields(self, v: dict[str, str]) -> None:
        n = self.players = parse_int(v["players"], "players", PLAYERS[0], PLAYERS[-1])
        self._parse_progress(v, n)
        self._totals = [parse_int(t, "totals", 0, 10**6) for t in split(v["totals"], "totals", n)]
        self.artifacts = [parse_int(a, "artifacts", 0, 10**4)
                          for a in split(v["artifacts"], "artifacts", n)]
        self.hands = [_parse_set(h, f"hands (seat {s})") for s, h in enumerate(split(v["hands"], "hands", n))]
        self._parse_cols(split(v["cols"], "cols", n))
        self._parse_pieces(split(v["pieces"], "pieces", n), split(v["researcher"], "researcher", n))
        self._parse_tiles(split(v["tiles"], "tiles", N_PATHS))
        self.piles = []
        for x, text in enumerate(split(v["piles"], "piles", N_PATHS)):
            pile = _parse_cards(text, f"piles (pile {COLOURS[x]})")
            for card in pile:
                if CARD_COLOUR[card] != x:
                    raise NotationError(f"piles: {card} lies on the {COLOURS[x]} pile, not its colour's")
            self.piles.append(pile)
        self.deck = _parse_cards(v["deck"], "deck")
        self.box = _parse_set(v["box"], "box")
        nd = v["nodraw"]
        if nd == ".":
            self.nodraw = None
        elif self.phase != DRAW:
            raise NotationError(f"nodraw: expected '.' outside the draw phase, got {nd!r}")
        elif len(nd) == 1 and nd in COLOURS:
            self.nodraw = COLOURS.index(nd)
            if not self.piles[self.nodraw]:
                raise NotationError(f"nodraw: pile {nd} received a card this turn but is empty")
        else:
            raise NotationError(f"nodraw: expected one of {' '.join(COLOURS)} or '.', got {nd!r}")
        # Every one of the cards is in exactly one place.
        seen = Counter(self.deck) + self.box
        for h in self.hands:
            seen.update(h)
        for cols in self.cols:
            for col in cols:
                seen.update(col)
        for pile in self.piles:
            seen.update(pile)
        for card in _sort(set(seen) | set(FULL)):
            if seen[card] != FULL[card]:
                raise NotationError(f"cards: {card} appears {seen[card]} times in hands, cols, piles, deck "
                                    f"and box; the board game has {FULL[card]}")
        removed = REMOVED_WITH_TWO if n == 2 else 0
        if size(self.box) != removed:
            raise NotationError(f"box: expected {removed} cards with {n} players, got {size(self.box)}")
        if not self.is_over():
            self._check_running()
        self.known = [_parse_set(k, f"known (seat {s})") for s, k in enumerate(split(v["known"], "known", n))]
        for s, k in enumerate(self.known):
            if not contains(self.hands[s], k):
                raise NotationError(f"known (seat {s}): {set_text(k)} is not within that hand")
        self._parse_rng(v["rng"])
        self._history = []

    def _parse_cols(self, texts: list[str]) -> None:
        self.cols = []
        for s, text in enumerate(texts):
            cards = _parse_cards(text, f"cols (seat {s})")
            cols: list[list[str]] = [[] for _ in range(N_PATHS)]
            for a, b in zip(cards, cards[1:]):
                if CARD_COLOUR[a] > CARD_COLOUR[b]:
                    raise NotationError(f"cols (seat {s}): colours must come in canonical order, "
                                        f"{b} follows {a} in {text!r}")
            for card in cards:
                cols[CARD_COLOUR[card]].append(card)
            for x, col in enumerate(cols):
                values = [CARD_VALUE[c] for c in col]
                up = all(a <= b for a, b in zip(values, values[1:]))
                down = all(a >= b for a, b in zip(values, values[1:]))
                if not (up or (self.updown and down)):
                    want = "non-decreasing or non-increasing" if self.updown else "non-decreasing"
                    raise NotationError(f"cols (seat {s}): column {COLOURS[x]} {''.join(col)} must be {want}")
            self.cols.append(cols)

    def _parse_pieces(self, texts: list[str], researchers: list[str]) -> None:
        self.pieces, self.researcher = [], []
        for s, text in enumerate(texts):
            if len(text) != N_PATHS or any(ch != "." and not ("1" <= ch <= str(LAST_STONE)) for ch in text):
                raise NotationError(f"pieces (seat {s}): expected {N_PATHS} characters, each '.' or "
                                    f"1..{LAST_STONE}, got {text!r}")
            stones = [0 if ch == "." else int(ch) for ch in text]
            for x, stone in enumerate(stones):
                count = len(self.cols[s][x])
                if (stone > 0) != (count > 0):
                    raise NotationError(f"pieces (seat {s}): a piece on path {COLOURS[x]} exactly when column "
                                        f"{COLOURS[x]} is not empty")
                if stone and stone < min(LAST_STONE, count):
                    raise NotationError(f"pieces (seat {s}): the piece on path {COLOURS[x]} is on stone {stone}, "
                                        f"below the {min(LAST_STONE, count)} its column's cards reach")
            self.pieces.append(stones)
            r = researchers[s]
            if r == "-":
                self.researcher.append(None)
            elif len(r) == 1 and r in COLOURS:
                if not stones[COLOURS.index(r)]:
                    raise NotationError(f"researcher (seat {s}): path {r} has no piece of that seat")
                self.researcher.append(COLOURS.index(r))
            else:
                raise NotationError(f"researcher (seat {s}): expected a colour letter or '-', got {r!r}")
            adventurers = sum(1 for st in stones if st) - (0 if self.researcher[s] is None else 1)
            if adventurers > ADVENTURERS:
                raise NotationError(f"pieces (seat {s}): {adventurers} adventurers, a seat has {ADVENTURERS}")

    def _parse_tiles(self, texts: list[str]) -> None:
        self.tiles = []
        for x, text in enumerate(texts):
            entries, pos = [], 0
            while pos < len(text):
                m = _TILE_TOKEN.match(text, pos)
                if not m:
                    raise NotationError(f"tiles (path {COLOURS[x]}): bad entry at {text[pos:]!r} "
                                        f"(expected A, >, V<n> or .)")
                entries.append(m.group())
                pos = m.end()
            if len(entries) != len(SPACES[x]):
                raise NotationError(f"tiles (path {COLOURS[x]}): expected {len(SPACES[x])} entries, got "
                                    f"{len(entries)} in {text!r}")
            self.tiles.append(entries)
        on_board = Counter(e for t in self.tiles for e in t)
        taken = on_board.pop(EMPTY, 0)
        on_board[ARTIFACT] += taken
        if +on_board != Counter(CANONICAL_TILES):
            raise NotationError(f"tiles: the entries (an artifact per '.') must be the board's tile set "
                                f"{''.join(CANONICAL_TILES)}")
        if taken > sum(self.artifacts):
            raise NotationError(f"tiles: {taken} artifacts taken ('.') but the seats hold {sum(self.artifacts)}")

    def _check_running(self) -> None:
        across = sum(1 for p in self.pieces for stone in p if stone > BRIDGE)
        if across >= ACROSS_TO_END:
            raise NotationError(f"pieces: {across} pieces beyond the bridge; the expedition would have ended")
        for s, hand in enumerate(self.hands):
            want = HAND_SIZE - (1 if s == self._to_move and self.phase in (MOVE, DRAW) else 0)
            if size(hand) != want:
                raise NotationError(f"hands (seat {s}): expected {want} cards, got {size(hand)}")
        if not self.deck:
            raise NotationError("deck: the draw pile must not be empty while the game runs")
        if self.phase == MOVE and not self._below_lost_city(mover(self._to_move)):
            raise NotationError(f"phase: move, but seat {self._to_move} has no piece below stone {LAST_STONE}")

    # ------------------------------------------------------------------ determinization
    def resample(self, seat: int, rnd: random.Random) -> "Game":
        """A full state drawn uniformly from those consistent with what ``seat`` knows.

        Every card ``seat`` cannot place — the other hands' unknown cards, the draw pile and (with
        2 players) the box — is dealt at random into the same places; known cards stay in their
        hands, everything public stays; the generator of later deals is redrawn and the history
        starts empty (as in the card editions' models).

        >>> g = Game.new(5, players=2)
        >>> h = g.resample(1, random.Random(0))
        >>> h.view_text(1) == g.view_text(1), h.to_text() == g.to_text()
        (True, False)
        """
        self._check_seat(seat)
        others = [s for s in range(self.players) if s != seat]
        pool = list(self.deck) + list(self.box.elements())
        for s in others:
            pool.extend((self.hands[s] - self.known[s]).elements())
        rnd.shuffle(pool)
        g = self.copy()
        g._history = []
        pos = 0
        for s in others:
            slots = size(self.hands[s]) - size(self.known[s])
            g.hands[s] = Counter(self.known[s]) + Counter(pool[pos:pos + slots])
            pos += slots
        g.deck = pool[pos:pos + len(self.deck)]
        pos += len(self.deck)
        g.box = Counter(pool[pos:])
        g.rng = rnd.getrandbits(64)
        return g
