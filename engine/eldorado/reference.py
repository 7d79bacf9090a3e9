"""Reference model of ``eldorado`` — The Quest for El Dorado (2 to 4 players).

Written straight from docs/eldorado.md (normative rules decisions and notation), RULES.md section 5
and ``engine/eldorado/data/eldorado.json`` (tiles, routes, cards, blockades and cave tokens are
read from that file at import; none of its numbers is repeated here). It shares only the
SplitMix64 generator, the Fisher-Yates shuffle and small helpers of ``engine.reference.base``
with the other models, and nothing of the compiled engine: the map is assembled here again.

The state is plain data: hands, discard piles, removed cards, played cards, held tokens and the
box are ``collections.Counter`` of two-character codes; draw piles and cave piles are lists
bottom to top (the last element is drawn / taken next); ``pieces[seat][piece]`` is a hex number
or ``E`` (on El Dorado); the market is two dicts (board, beside) of code -> cards left.

The class does not build on ``RoundsGame``: that base class keeps a match of scored rounds (a
``round=r/R`` field, a starter, ``max_turns`` per round, ``nodraw``), while El Dorado is one race
whose progress is a single turn counter (``turn=``, the round being turn div players) limited by
``max_rounds``; reusing it would leave those fields dead. Its few shared pieces (refusing a
malformed or illegal decision, the seat to move being None once over) are written here directly.

Readings of the spec taken here (docs/eldorado.md leaves them open or seems to contradict itself):

* **A payment must be able to finish in card order.** The move ``X>h`` onto a rubble/base camp
  (or rubble blockade) of power N is legal only when the hand holds N cards of type >= X, X
  included (X is "the smallest"), and ``#Y`` only when the hand holds as many cards of type >= Y,
  Y included, as are still owed. Read literally ("the hand holds at least N cards"; "#X, X >= the
  last card paid") a seat could be left owing a payment no ``#Y`` can make, with no legal decision
  at all: hand Ex Tv Sa Sc, rubble 3, ``Ex>h`` then ``#Sc`` leaves 1 owed and only Tv, Sa < Sc.
* **Leftover 0** is written as the bare piece (``moving=a``), never ``am0``.
* **The ``cavepiles=`` field** lists its per-cave piles separated by ``,`` (like connections; the spec
  names the separators of per-seat, per-piece and per-connection lists only), e.g.
  ``cavepiles=m1drrhki,p2c1c2nt,m3m3po``; with ``caves=0`` it is ``-,-,-``; in a view ``4,4,4``.
* **Which decisions "play a card from hand"** (and so clear *change symbol*): a move with a card
  (``Na`` and a rubble's first card included), ``#X``, ``$X`` with a card, ``Cg! Si! Co! Tl!``,
  ``Tm*Y`` and ``~X``. Not: tokens, ``xX`` (removal), ``-X`` (discard), ``*Y``, steps, ``.``.
* **``last=`` returns to ``-``** as soon as the sequence it belongs to ends: the last ``#Y`` of a
  payment, the removal that uses up a removal right (or any other decision ending it), ``~.``.
* **``lastcoin=``** keeps its value after a purchase (it is "the last card played for coins this
  turn"); only the end of the turn clears it.
* **The last turn of the game still draws** (the end of the turn happens in full, then the game
  ends), so the last decision of a game may read ``.:ExTv``.
* **A decision that draws nothing** is recorded without a colon (``.``, ``Cg!``).
* **Caves off:** the explored bits are only kept with ``caves=1`` (with ``caves=0`` they stay
  ``-``). A piece reaching El Dorado does not stop on a hex, so its explored bits stay as they
  were.
* **The implicit stop comes first in effect, but legality is judged before it:** a token found in
  the stop cannot be the source of the decision that caused the stop (else the legal list would
  reveal the face-down top token).
* **Blockades:** "the first direction across its border" counts every neighbour across the
  border, whatever its terrain (a mountain across the border does not move the id); a blockade is
  a target whatever lies beyond it (mountains, pieces), as the target is the blockade, not a hex.
* **Steps** obey the target rules of moves (no mountain/cave/start space; no piece there unless
  *pass occupied*).
* **An item is used "for its power"** when its power gave the movement or the coins (``Gm`` moving
  or, with *change symbol*, buying; ``Tc``/``Pp`` moving or buying); paid for rubble/base camps or
  worth 1/2 coin, it is not (base camps remove every card paid anyway).
* **Parsing positions**, the checks listed in the spec, read as follows: "blockades on the board
  exactly those not held" is checked as: no blockade number both on a connection and held, and as
  many connections taken (``-``) as blockades held; "all tokens in the box or caves when no one
  holds any" is NOT checked, as it contradicts "a played token is gone" (a seat that took and
  played a token leaves a valid position with fewer tokens and none held). Also checked (true of
  every reachable position, not listed): ``to_move = turn mod players`` while the game runs and
  ``turn`` a multiple of ``players`` once over; a finishing space holds no piece; the turn fields
  at rest once over.
* A view writes another seat's empty hand as ``?0``.

>>> g = Game.new(1, players=2)
>>> g.to_move, g.phase, [sum(h.values()) for h in g.hands], g.market_text()
(0, 'play', [4, 4], 'Sc3Tb3Ph3Tc3Ja3Tm3/Pi3Gm3Ca3Jo3Mi3Ad3Pp3Cg3Si3Co3Tl3Na3')
>>> g.legal()[-1]
'.'
>>> g.apply(".")
>>> g.to_move, g.turn
(1, 1)
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from engine.reference.base import NotationError, SplitMix64, parse_int, read_position, shuffle, size, split, take

__all__ = ["Game", "NotationError", "DATA", "ROUTES", "ROUTE_NAMES", "Route", "CARDS", "TOKENS",
           "N_DECISIONS", "E"]

# ---------------------------------------------------------------------------------------------
# Component data (engine/eldorado/data/eldorado.json; docs/eldorado.md "Component data")

DATA_PATH = Path(__file__).resolve().parent / "data" / "eldorado.json"
DATA: dict = json.loads(DATA_PATH.read_text())

# The two-character codes of docs/eldorado.md "Cards and tokens", by card name (data order).
CARD_CODE_BY_NAME = {
    "Explorer": "Ex", "Traveler": "Tv", "Sailor": "Sa", "Scout": "Sc", "Trailblazer": "Tb",
    "Pioneer": "Pi", "Giant Machete": "Gm", "Captain": "Ca", "Photographer": "Ph", "Journalist": "Jo",
    "Treasure Chest": "Tc", "Millionaire": "Mi", "Jack of All Trades": "Ja", "Adventurer": "Ad",
    "Prop Plane": "Pp", "Transmitter": "Tm", "Cartographer": "Cg", "Scientist": "Si", "Compass": "Co",
    "Travel Log": "Tl", "Native": "Na",
}
CARDS: list[str] = [CARD_CODE_BY_NAME[c["name"]] for c in DATA["cards"]]  # type index t = position
CARD_INDEX: dict[str, int] = {code: t for t, code in enumerate(CARDS)}
SYMBOL: dict[str, str] = {CARDS[t]: c["symbol"] for t, c in enumerate(DATA["cards"])}
POWER: dict[str, int] = {CARDS[t]: c["power"] for t, c in enumerate(DATA["cards"])}
PRICE: dict[str, int] = {CARDS[t]: c["price"] for t, c in enumerate(DATA["cards"]) if c["price"] is not None}
ITEM: dict[str, bool] = {CARDS[t]: bool(c["single_use"]) for t, c in enumerate(DATA["cards"])}
COPIES: dict[str, int] = {CARDS[t]: c["copies"] for t, c in enumerate(DATA["cards"])}
MARKET_TYPES: list[str] = [code for code in CARDS if COPIES[code] > 0]  # t = 3..20
MARKET_INDEX: dict[str, int] = {code: i for i, code in enumerate(MARKET_TYPES)}
MARKET_AT_START: list[str] = [CARDS[t] for t, c in enumerate(DATA["cards"]) if c["on_market_at_start"]]
SLOTS = len(MARKET_AT_START)  # the market board's slots
START_DECK = Counter({CARD_CODE_BY_NAME[name]: n for name, n in DATA["starting_deck"].items()})
NATIVE = CARD_CODE_BY_NAME["Native"]
TRANSMITTER = CARD_CODE_BY_NAME["Transmitter"]
JOKER = "joker"
HAND_SIZE = 4  # "draw 4" / "draws until it holds 4 cards" (the rules, not the data)

# The action cards and what they do: (cards drawn, removal right opened).
ACTION_CARDS: dict[str, tuple[int, int]] = {
    CARD_CODE_BY_NAME["Cartographer"]: (2, 0), CARD_CODE_BY_NAME["Scientist"]: (1, 1),
    CARD_CODE_BY_NAME["Compass"]: (3, 0), CARD_CODE_BY_NAME["Travel Log"]: (2, 2),
}
MAX_REMOVAL = max(right for _, right in ACTION_CARDS.values())
MAX_REPLACE = HAND_SIZE  # "play up to 4 cards from hand" (the replace-hand token)

# Cave tokens: codes in data order (token index k), copies, and the power tokens' symbol/power.
_TOKEN_NAMES = {"draw": "dr", "remove": "rm", "replace_hand": "rh", "keep_item": "ki",
                "pass_occupied": "po", "native": "nt", "change_symbol": "cs"}
_POWER_KINDS = {"machete": "m", "paddle": "p", "coin": "c"}
TOKENS: list[str] = []
TOKEN_COUNT: dict[str, int] = {}
TOKEN_SYMBOL: dict[str, str] = {}
TOKEN_POWER: dict[str, int] = {}
for _tok in DATA["cave_tokens"]:
    if _tok["kind"] in _POWER_KINDS:
        _code = _POWER_KINDS[_tok["kind"]] + str(_tok["power"])
        TOKEN_SYMBOL[_code], TOKEN_POWER[_code] = _tok["kind"], _tok["power"]
    else:
        _code = _TOKEN_NAMES[_tok["kind"]]
    TOKENS.append(_code)
    TOKEN_COUNT[_code] = _tok["count"]
TOKEN_INDEX: dict[str, int] = {code: k for k, code in enumerate(TOKENS)}
ALL_TOKENS: list[str] = [code for code in TOKENS for _ in range(TOKEN_COUNT[code])]  # canonical

# Decision ids (docs/eldorado.md "Decision ids and texts").
MOVE_SOURCES: list[str] = CARDS + [t for t in TOKENS if t in TOKEN_POWER] + ["nt"]
COIN_SOURCES: list[str] = CARDS + [t for t in TOKENS if TOKEN_SYMBOL.get(t) == "coin"]
ACTIONS: list[str] = ["Cg!", "Si!", "Co!", "Tl!", "dr!", "rm!", "rh!", "ki!", "po!", "cs!"]
PIECES = "ab"
STEP_BASE = len(MOVE_SOURCES) * len(PIECES) * 6
PAY_BASE = STEP_BASE + 6
COIN_BASE = PAY_BASE + len(CARDS)
BUY_BASE = COIN_BASE + len(COIN_SOURCES)
TRANSMIT_BASE = BUY_BASE + len(MARKET_TYPES)
ACTION_BASE = TRANSMIT_BASE + len(MARKET_TYPES)
REMOVE_BASE = ACTION_BASE + len(ACTIONS)
REPLACE_BASE = REMOVE_BASE + len(CARDS)
REPLACE_END = REPLACE_BASE + len(CARDS)
DISCARD_BASE = REPLACE_END + 1
END_ID = DISCARD_BASE + len(CARDS)
N_DECISIONS = END_ID + 1

# Blockades: number -> (terrain, power); terrain is machete, coin, paddle or rubble.
BLOCKADES: dict[int, tuple[str, int]] = {b["number"]: (b["terrain"], b["power"]) for b in DATA["blockades"]}
BLOCKADE_NUMBERS: list[int] = [b["number"] for b in DATA["blockades"]]

# ---------------------------------------------------------------------------------------------
# The map (docs/eldorado.md "The map")

DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
TERRAIN = {"j": "machete", "w": "paddle", "v": "coin", "r": "rubble", "c": "camp"}
SYMBOLS = ("machete", "paddle", "coin")
SYMBOL_LETTER = {"machete": "m", "paddle": "p", "coin": "v"}
MOUNTAIN, CAVE, START, FINISH = "mountain", "cave", "start", "finish"
E = "E"  # a piece on El Dorado


@dataclass
class Route:
    """One assembled route: hex h has coordinates ``coords[h]``, terrain ``kind[h]`` (a symbol,
    ``rubble``, ``camp``, ``mountain``, ``cave`` or ``start``) of ``power[h]``, lies on tile
    ``tile[h]`` (-1: a finishing space); ``neighbours[h][d]`` is the hex in direction d (or None)
    and ``crossing[h][d]`` the connection that step crosses (or None)."""
    name: str
    coords: list[tuple[int, int]]
    kind: list[str]
    power: list[int]
    tile: list[int]
    finishing: tuple[int, ...]
    start: dict[int, int]  # start space number -> hex
    caves: list[int]  # cave index -> hex
    connections: int
    neighbours: list[list[int | None]]
    crossing: list[list[int | None]]
    cave_adjacent: list[frozenset[int]]  # hex -> indices of the caves next to it

    @property
    def hexes(self) -> int:
        return len(self.coords)

    def enterable(self, h: int) -> bool:
        """A hex a piece may be moved onto (mountains, caves and start spaces never)."""
        return self.kind[h] not in (MOUNTAIN, CAVE, START)


def _turn(q: int, r: int, times: int) -> tuple[int, int]:
    for _ in range(times):
        q, r = -r, q + r
    return q, r


def _start_numbers(letter: str) -> list[int]:
    """Start space numbers, left to right, from the data's text ("... are start spaces 1,2,3,4")."""
    text = DATA["start_space_numbers"][letter]
    m = re.search(r"(\d+(?:\s*,\s*\d+)*)\s*$", text)
    if not m:
        raise ValueError(f"eldorado.json: cannot read the start spaces of tile {letter}: {text!r}")
    return [int(x) for x in m.group(1).split(",")]


def _build_route(name: str, spec: dict) -> Route:
    coords: list[tuple[int, int]] = []
    kind: list[str] = []
    power: list[int] = []
    tile: list[int] = []
    start: dict[int, int] = {}
    for k, (letter, cq, cr, rot) in enumerate(spec["tiles"]):
        rows = DATA["tiles"][letter]
        for i, row in enumerate(rows):
            r = i - len(rows) // 2
            starts = []
            for j, token in enumerate(row.split()):
                q = max(-3, -r - 3) + j
                tq, tr = _turn(q, r, rot)
                h = len(coords)
                coords.append((tq + cq, tr + cr))
                tile.append(k)
                if token == "mm":
                    kind.append(MOUNTAIN)
                    power.append(0)
                elif token == "CV":
                    kind.append(CAVE)
                    power.append(0)
                elif token == "ss":
                    kind.append(START)
                    power.append(0)
                    starts.append(h)
                else:
                    kind.append(TERRAIN[token[0]])
                    power.append(int(token[1:]))
            if starts:
                if k != 0 or i != len(rows) - 1:
                    raise ValueError(f"eldorado.json: start spaces outside the first tile's last row ({name})")
                for number, h in zip(_start_numbers(letter), starts, strict=True):
                    start[number] = h
    at = {c: h for h, c in enumerate(coords)}
    if len(at) != len(coords):
        raise ValueError(f"eldorado.json: route {name} has overlapping tiles")
    # Finishing spaces: the middle one, then the two neighbours of it that are off the tiles and
    # touch the last tile (an opposite pair if there is one, else the first two).
    mq, mr = spec["eldorado"]
    if (mq, mr) in at:
        raise ValueError(f"eldorado.json: route {name}'s El Dorado lies on a tile")
    last = len(spec["tiles"]) - 1
    candidates = []
    for d, (dq, dr) in enumerate(DIRECTIONS):
        c = (mq + dq, mr + dr)
        if c in at:
            continue
        if any(at.get((c[0] + eq, c[1] + er)) is not None and tile[at[(c[0] + eq, c[1] + er)]] == last
               for eq, er in DIRECTIONS):
            candidates.append(d)
    pairs = [(d, d + 3) for d in candidates if d < 3 and d + 3 in candidates]
    chosen = list(pairs[0]) if pairs else candidates[:2]
    if len(chosen) != 2:
        raise ValueError(f"eldorado.json: route {name} lacks two finishing spaces beside El Dorado")
    side = TERRAIN[spec["side"]]
    finishing = []
    for c in [(mq, mr)] + [(mq + DIRECTIONS[d][0], mr + DIRECTIONS[d][1]) for d in sorted(chosen)]:
        finishing.append(len(coords))
        at[c] = len(coords)
        coords.append(c)
        kind.append(side)
        power.append(1)
        tile.append(-1)
    neighbours = [[at.get((q + dq, r + dr)) for dq, dr in DIRECTIONS] for q, r in coords]
    crossing: list[list[int | None]] = []
    for h in range(len(coords)):
        borders: list[int | None] = []
        for n in neighbours[h]:
            a, b = tile[h], (tile[n] if n is not None else -1)
            borders.append(min(a, b) if n is not None and a >= 0 and b >= 0 and abs(a - b) == 1 else None)
        crossing.append(borders)
    caves = [h for h in range(len(coords)) if kind[h] == CAVE]
    cave_adjacent = [frozenset(i for i, c in enumerate(caves) if c in neighbours[h]) for h in range(len(coords))]
    return Route(name, coords, kind, power, tile, tuple(finishing), start, caves, len(spec["tiles"]) - 1,
                 neighbours, crossing, cave_adjacent)


ROUTE_NAMES: tuple[str, ...] = tuple(DATA["routes"])  # option order = data order
ROUTES: list[Route] = [_build_route(name, DATA["routes"][name]) for name in ROUTE_NAMES]

# ---------------------------------------------------------------------------------------------
# Texts of cards, tokens and sets

PLAY, DISCARD, OVER = "play", "discard", "over"

# (name, default, lowest, highest) in the order of docs/eldorado.md "Rule options".
OPTIONS: tuple[tuple[str, int, int, int], ...] = (
    ("route", 0, 0, len(ROUTE_NAMES) - 1),
    ("caves", 0, 0, 1),
    ("max_rounds", 100, 1, 1000),
)
PLAYERS = (2, 3, 4)
FIELDS = ("players", "turn", "phase", "to_move", "final", "pieces", "blockades", "held", "market", "hands",
          "draws", "discards", "removed", "played", "tokens", "cavepiles", "box", "explored", "coins", "bought",
          "lastcoin", "moving", "pay", "remove", "replace", "last", "flags", "rng")
VIEW_FIELDS = ("players", "seat", "turn", "phase", "to_move", "final", "pieces", "blockades", "held", "market",
               "hands", "draws", "unseen", "discards", "removed", "played", "tokens", "cavepiles", "cavepool",
               "explored", "coins", "bought", "lastcoin", "moving", "pay", "remove", "replace", "last", "flags",
               "history")
FLAG_ORDER = "kps"  # keep item, pass occupied, change symbol
FLAG_OF_TOKEN = {"ki": "k", "po": "p", "cs": "s"}


def set_text(items: Counter, index: dict[str, int]) -> str:
    """A set in canonical order (``index`` gives the order), repeats written out; ``-`` when empty."""
    return "".join(sorted(items.elements(), key=index.__getitem__)) or "-"


def cards_text(cards: Counter) -> str:
    return set_text(cards, CARD_INDEX)


def tokens_text(tokens: Counter) -> str:
    return set_text(tokens, TOKEN_INDEX)


def _codes(text: str, what: str, index: dict[str, int], kind: str) -> list[str]:
    if text == "-":
        return []
    if not text or len(text) % 2:
        raise NotationError(f"{what}: expected {kind}s of two characters each or '-', got {text!r}")
    codes = [text[i:i + 2] for i in range(0, len(text), 2)]
    for c in codes:
        if c not in index:
            raise NotationError(f"{what}: {c!r} is not an eldorado {kind}")
    return codes


def _parse_set(text: str, what: str, index: dict[str, int], kind: str) -> Counter:
    codes = _codes(text, what, index, kind)
    for a, b in zip(codes, codes[1:]):
        if index[a] > index[b]:
            raise NotationError(f"{what}: a set must be in canonical order, {b} comes before {a} in {text!r}")
    return Counter(codes)


def _sorted_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=CARD_INDEX.__getitem__)


# One entry of the history: (seat, decision text, the cards it drew in order).
HistoryEntry = tuple[int, str, tuple[str, ...]]


class Game:
    """A full ``eldorado`` position with its rules.

    Use ``Game.new(seed, players=2, **options)``, ``Game.from_text(text)`` or
    ``Game.parse_view(text)``; the constructor makes an empty shell.

    >>> g = Game.new(5, players=3, route="hills-of-gold", caves=1)
    >>> g.options, g.route.name, len(g.cave_piles), g.pieces
    ({'route': 1, 'caves': 1, 'max_rounds': 100}, 'hills-of-gold', 4, [[36], [35], [34]])
    """

    OPTIONS = OPTIONS

    # ------------------------------------------------------------------ construction
    def __init__(self) -> None:
        self.options: dict[str, int] = {}
        self.players = 0
        self.turn = 0
        self.phase = PLAY
        self._to_move: int | None = 0
        self.final = False
        self.pieces: list[list[int | str]] = []
        self.blockades: list[int | None] = []  # per connection
        self.held: list[list[int]] = []
        self.board: dict[str, int] = {}  # market board: code -> cards left (> 0)
        self.beside: dict[str, int] = {}  # piles beside the board
        self.hands: list[Counter] = []
        self.draws: list[list[str]] = []  # bottom to top
        self.discards: list[Counter] = []
        self.removed: list[Counter] = []
        self.played: Counter = Counter()
        self.tokens: list[Counter] = []
        self.cave_piles: list[list[str]] = []  # bottom to top
        self.box: Counter = Counter()
        self.explored: list[list[set[int]]] = []
        self.coins = 0  # half coins
        self.bought = False
        self.lastcoin: str | None = None
        self.moving: tuple[int, str | None, int] | None = None  # (piece, symbol, leftover)
        self.pay: tuple[int, str] | None = None  # (cards owed, 'rubble' or 'camp')
        self.remove = 0
        self.replace: int | None = None
        self.last: str | None = None
        self.flags: set[str] = set()
        self.rng = 0
        self._history: list[HistoryEntry] = []
        self.revealed: tuple[str, ...] = ()  # the cards the last decision drew, in order

    @property
    def route(self) -> Route:
        return ROUTES[self.options["route"]]

    @property
    def to_move(self) -> int | None:
        """The seat to move, or None when the game is over."""
        return self._to_move

    @property
    def round(self) -> int:
        return self.turn // self.players

    def is_over(self) -> bool:
        return self.phase == OVER

    is_terminal = is_over

    @staticmethod
    def _check_options(options: dict) -> dict[str, int]:
        options = dict(options)
        names = [o[0] for o in OPTIONS]
        for name in options:
            if name not in names:
                raise ValueError(f"unknown option {name!r} for eldorado; options are {', '.join(names)} "
                                 f"(and the parameter players)")
        route = options.get("route", 0)
        if isinstance(route, str):
            if route not in ROUTE_NAMES:
                raise ValueError(f"option route must be one of {', '.join(ROUTE_NAMES)}, got {route!r}")
            options["route"] = ROUTE_NAMES.index(route)
        result = {}
        for name, default, lo, hi in OPTIONS:
            value = options.get(name, default)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"option {name} must be an integer, got {value!r}")
            if not lo <= value <= hi:
                raise ValueError(f"option {name} must be in {lo}..{hi}, got {value}")
            result[name] = value
        return result

    @classmethod
    def new(cls, seed: int, players: int = 2, **options: int | str) -> "Game":
        """Set up and deal a game from ``seed`` (docs/eldorado.md "Set-up" and "Dealing").

        >>> g = Game.new(7, players=4, route=3)
        >>> g.route.name, [len(d) for d in g.draws], g.blockades
        ('witchs-cauldron', [4, 4, 4, 4], [6, 5, 2, 4, 1])
        """
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 64:
            raise ValueError(f"seed must be an integer in 0..2^64-1, got {seed!r}")
        if isinstance(players, bool) or not isinstance(players, int) or players not in PLAYERS:
            raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
        g = cls()
        g.options = cls._check_options(options)
        n = g.players = players
        route = g.route
        if n == 2:
            g.pieces = [[route.start[1], route.start[3]], [route.start[2], route.start[4]]]
        else:
            g.pieces = [[route.start[s + 1]] for s in range(n)]
        g.held = [[] for _ in range(n)]
        g.board = {code: COPIES[code] for code in MARKET_TYPES if code in MARKET_AT_START}
        g.beside = {code: COPIES[code] for code in MARKET_TYPES if code not in MARKET_AT_START}
        g.hands = [Counter() for _ in range(n)]
        g.discards = [Counter() for _ in range(n)]
        g.removed = [Counter() for _ in range(n)]
        g.tokens = [Counter() for _ in range(n)]
        g.explored = [[set() for _ in p] for p in g.pieces]
        gen = SplitMix64(seed)
        numbers = list(BLOCKADE_NUMBERS)  # 1. blockades
        shuffle(numbers, gen)
        g.blockades = [b for b in numbers[:route.connections]]
        g.cave_piles = [[] for _ in route.caves]
        if g.options["caves"]:  # 2. caves
            tokens = list(ALL_TOKENS)
            shuffle(tokens, gen)
            for k in range(len(route.caves)):
                g.cave_piles[k] = tokens[4 * k:4 * k + 4]
            g.box = Counter(tokens[4 * len(route.caves):])
        g.draws = []
        for s in range(n):  # 3. decks
            deck = _sorted_cards(START_DECK.elements())
            shuffle(deck, gen)
            g.draws.append(deck)
            for _ in range(HAND_SIZE):
                g.hands[s][deck.pop()] += 1
        g.rng = gen.state
        return g

    def copy(self) -> "Game":
        """An independent copy (history included)."""
        g = Game()
        g.options = dict(self.options)
        g.players, g.turn, g.phase, g._to_move, g.final = self.players, self.turn, self.phase, self._to_move, self.final
        g.pieces = [list(p) for p in self.pieces]
        g.blockades = list(self.blockades)
        g.held = [list(h) for h in self.held]
        g.board, g.beside = dict(self.board), dict(self.beside)
        g.hands = [Counter(h) for h in self.hands]
        g.draws = [list(d) for d in self.draws]
        g.discards = [Counter(d) for d in self.discards]
        g.removed = [Counter(r) for r in self.removed]
        g.played = Counter(self.played)
        g.tokens = [Counter(t) for t in self.tokens]
        g.cave_piles = [list(p) for p in self.cave_piles]
        g.box = Counter(self.box)
        g.explored = [[set(e) for e in p] for p in self.explored]
        g.coins, g.bought, g.lastcoin = self.coins, self.bought, self.lastcoin
        g.moving, g.pay, g.remove, g.replace, g.last = self.moving, self.pay, self.remove, self.replace, self.last
        g.flags = set(self.flags)
        g.rng = self.rng
        g._history = list(self._history)
        g.revealed = self.revealed
        return g

    # ------------------------------------------------------------------ results
    def finished(self, seat: int) -> bool:
        """Whether all the seat's pieces are on El Dorado."""
        return all(h == E for h in self.pieces[seat])

    def _rank(self, seat: int) -> tuple[int, tuple[int, int]]:
        """Number of blockades held, then the best one (power, number)."""
        best = max(((BLOCKADES[b][1], b) for b in self.held[seat]), default=(0, 0))
        return len(self.held[seat]), best

    def returns(self) -> list[float]:
        """The best finished seats share the win (1/k each); without a finished seat all share
        (1/n each). Judged on the current position (final once ``is_over()``).

        >>> g = Game.new(1, players=3)
        >>> g.returns()
        [0.3333333333333333, 0.3333333333333333, 0.3333333333333333]
        """
        done = [s for s in range(self.players) if self.finished(s)]
        if not done:
            return [1.0 / self.players] * self.players
        best = max(self._rank(s) for s in done)
        winners = [s for s in done if self._rank(s) == best]
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(self.players)]

    def scores(self) -> list[int]:
        """The result in whole numbers: 2 for a winner, 1 for a seat on El Dorado that lost the
        tie-break, 0 otherwise (docs/eldorado.md "End of the game").

        >>> Game.new(1, players=2).scores()
        [0, 0]
        """
        won = self.returns()
        done = [self.finished(s) for s in range(self.players)]
        return [2 if done[s] and won[s] > 0 else 1 if done[s] else 0 for s in range(self.players)]

    # ------------------------------------------------------------------ map helpers
    def _hex_of(self, seat: int, p: int) -> int | None:
        """The hex of the seat's piece ``p``, None when it is on El Dorado."""
        h = self.pieces[seat][p]
        return h if isinstance(h, int) else None

    def _occupied(self) -> set[int]:
        return {h for p in self.pieces for h in p if isinstance(h, int)}

    def _targets(self, h: int) -> list[tuple[int, str, int]]:
        """From hex ``h``: (direction, 'hex' or 'blockade', hex number or blockade number) for every
        target a piece there could be moved to, before its requirement is looked at."""
        route = self.route
        occupied = set() if "p" in self.flags else self._occupied()
        out = []
        seen_connections = set()
        for d in range(6):
            n = route.neighbours[h][d]
            if n is None:
                continue
            k = route.crossing[h][d]
            number = self.blockades[k] if k is not None else None
            if number is not None:
                if k not in seen_connections:  # only the first direction across it
                    seen_connections.add(k)
                    out.append((d, "blockade", number))
                continue
            if route.enterable(n) and n not in occupied:
                out.append((d, "hex", n))
        return out

    def _requirement(self, kind: str, target: int) -> tuple[str, int]:
        if kind == "blockade":
            return BLOCKADES[target]
        return self.route.kind[target], self.route.power[target]

    # ------------------------------------------------------------------ card helpers
    def _matches(self, card: str, symbol: str) -> bool:
        """Whether a card counts as ``symbol`` (a joker always; any card of power >= 1 with
        *change symbol* on)."""
        return SYMBOL[card] == symbol or SYMBOL[card] == JOKER or ("s" in self.flags and POWER[card] >= 1)

    def _can_pay_from(self, seat: int, card: str, n: int) -> bool:
        """Whether ``card`` (in hand) can be the first, so smallest, of ``n`` cards still to pay in
        card order: the hand holds ``n`` cards of its type or above, ``card`` included."""
        t = CARD_INDEX[card]
        return self.hands[seat][card] > 0 and sum(c for code, c in self.hands[seat].items()
                                                  if CARD_INDEX[code] >= t) >= n

    def _can_move(self, seat: int, source: str, kind: str, power: int) -> bool:
        """Whether ``source`` (held) meets a target of terrain ``kind`` and ``power``."""
        if source in (NATIVE, "nt"):
            return True
        if kind in ("rubble", "camp"):
            return source in CARD_INDEX and source != NATIVE and self._can_pay_from(seat, source, power)
        if source in CARD_INDEX:
            return self._matches(source, kind) and POWER[source] >= power
        return TOKEN_SYMBOL.get(source) == kind and TOKEN_POWER[source] >= power

    def _holds(self, seat: int, source: str) -> bool:
        return (self.hands[seat][source] if source in CARD_INDEX else self.tokens[seat][source]) > 0

    def _reachable(self) -> list[str]:
        """The card types a purchase could take now (price aside), in card order."""
        slot_free = len(self.board) < SLOTS
        return [code for code in MARKET_TYPES if code in self.board or (slot_free and code in self.beside)]

    def _coin_value(self, source: str) -> int:
        """Half coins a card or coin token gives."""
        if source not in CARD_INDEX:
            return 2 * TOKEN_POWER[source]
        if self._uses_power_for_coins(source):
            return 2 * POWER[source]
        return 1

    def _uses_power_for_coins(self, card: str) -> bool:
        return SYMBOL[card] in ("coin", JOKER) or ("s" in self.flags and POWER[card] >= 1)

    # ------------------------------------------------------------------ legal decisions
    def _piece_letter(self, p: int) -> str:
        return PIECES[p] if self.players == 2 else ""

    @staticmethod
    def _target_text(kind: str, target: int) -> str:
        return f"B{target}" if kind == "blockade" else str(target)

    def legal_pairs(self) -> list[tuple[int, str]]:
        """Legal decisions as (id, text), in ascending id."""
        if self.phase == OVER:
            return []
        seat = self._to_move
        assert seat is not None
        hand = self.hands[seat]
        cards = _sorted_cards(c for c in hand if hand[c] > 0)
        last = CARD_INDEX[self.last] if self.last is not None else -1
        out: list[tuple[int, str]] = []
        if self.phase == DISCARD:
            out = [(DISCARD_BASE + CARD_INDEX[c], "-" + c) for c in cards if CARD_INDEX[c] >= last]
            return out + [(END_ID, ".")]
        if self.pay is not None:
            owed = self.pay[0]
            return [(PAY_BASE + CARD_INDEX[c], "#" + c) for c in cards
                    if CARD_INDEX[c] >= last and self._can_pay_from(seat, c, owed)]
        if self.replace is not None:
            if self.replace < MAX_REPLACE:
                out = [(REPLACE_BASE + CARD_INDEX[c], "~" + c) for c in cards if CARD_INDEX[c] >= last]
            return out + [(REPLACE_END, "~.")]
        # 1. moves
        for s, source in enumerate(MOVE_SOURCES):
            if not self._holds(seat, source):
                continue
            for p in range(len(self.pieces[seat])):
                h = self._hex_of(seat, p)
                if h is None:
                    continue
                for d, kind, target in self._targets(h):
                    if self._can_move(seat, source, *self._requirement(kind, target)):
                        text = f"{source}{self._piece_letter(p)}>{self._target_text(kind, target)}"
                        out.append(((s * len(PIECES) + p) * 6 + d, text))
        # 2. steps
        if self.moving is not None and self.moving[2] > 0:
            p, symbol, left = self.moving
            h = self._hex_of(seat, p)
            assert h is not None  # a moving piece is on the map
            for d, kind, target in self._targets(h):
                t_kind, t_power = self._requirement(kind, target)
                if t_kind == symbol and t_power <= left:
                    out.append((STEP_BASE + d, ">" + self._target_text(kind, target)))
        # 4. coins
        if not self.bought and any(2 * PRICE[c] > self.coins for c in self._reachable()):
            lastcoin = COIN_SOURCES.index(self.lastcoin) if self.lastcoin is not None else -1
            for c, source in enumerate(COIN_SOURCES):
                if c >= lastcoin and self._holds(seat, source):
                    out.append((COIN_BASE + c, "$" + source))
        # 5. buy
        if not self.bought:
            for code in self._reachable():
                if 2 * PRICE[code] <= self.coins:
                    out.append((BUY_BASE + MARKET_INDEX[code], "*" + code))
        # 6. transmitter and actions
        if hand[TRANSMITTER] > 0:
            for code in MARKET_TYPES:
                if self.board.get(code, 0) + self.beside.get(code, 0) > 0:
                    out.append((TRANSMIT_BASE + MARKET_INDEX[code], f"{TRANSMITTER}*{code}"))
        tokens = self.tokens[seat]
        for a, action in enumerate(ACTIONS):
            code = action[:2]
            if code in CARD_INDEX:
                ok = hand[code] > 0
            elif tokens[code] <= 0:
                ok = False
            elif code in ("rm", "rh"):
                ok = size(hand) > 0
            elif code in FLAG_OF_TOKEN:
                ok = FLAG_OF_TOKEN[code] not in self.flags
            else:
                ok = True
            if ok:
                out.append((ACTION_BASE + a, action))
        # 7. removals
        if self.remove > 0:
            out += [(REMOVE_BASE + CARD_INDEX[c], "x" + c) for c in cards if CARD_INDEX[c] >= last]
        # 10. discard, end
        out += [(DISCARD_BASE + CARD_INDEX[c], "-" + c) for c in cards]
        out.append((END_ID, "."))
        out.sort()
        return out

    def legal(self) -> list[str]:
        """Legal decisions of the seat to move as texts, in ascending decision id.

        >>> g = Game.new(1, players=2)
        >>> [d for d in g.legal() if d[0] in "$*-."]
        ['$Ex', '$Tv', '$Sa', '-Ex', '-Tv', '-Sa', '.']
        """
        return [text for _, text in self.legal_pairs()]

    def legal_ids(self) -> list[int]:
        return [i for i, _ in self.legal_pairs()]

    # ------------------------------------------------------------------ decision texts and ids
    _MOVE = re.compile(r"([A-Z][a-z]|[mpc][1-9]|nt)([ab]?)>(0|[1-9][0-9]*|B[1-9])")
    _STEP = re.compile(r">(0|[1-9][0-9]*|B[1-9])")

    @classmethod
    def _well_formed(cls, decision: object) -> bool:
        """Whether a text has the form of some decision (legal or not)."""
        if not isinstance(decision, str) or not decision:
            return False
        if decision in ACTIONS or decision in (".", "~."):
            return True
        move = cls._MOVE.fullmatch(decision)
        if move is not None:
            return move.group(1) in MOVE_SOURCES
        if cls._STEP.fullmatch(decision):
            return True
        if decision.startswith(TRANSMITTER + "*"):
            return decision[3:] in MARKET_INDEX
        head, code = decision[0], decision[1:]
        if head in "#x~-":
            return code in CARD_INDEX
        if head == "$":
            return code in COIN_SOURCES
        return head == "*" and code in MARKET_INDEX

    def _check_syntax(self, decision: object) -> None:
        if not self._well_formed(decision):
            raise NotationError(f"malformed decision {decision!r} for eldorado: expected a move (Ex>57, Exa>B3), "
                                f"a step (>58), #X, $X, *X, Tm*X, an action (Cg! ... cs!), xX, ~X, ~., -X or .")

    def _direction_to(self, h: int, target: str) -> int:
        """The direction from hex ``h`` to ``target`` (a hex number or B<n>)."""
        route = self.route
        if target.startswith("B"):
            number = int(target[1:])
            for d in range(6):
                k = route.crossing[h][d]
                if k is not None and self.blockades[k] == number:
                    return d
            raise ValueError(f"blockade {number} does not lie on a border of hex {h}")
        n = int(target)
        if n in route.neighbours[h]:
            return route.neighbours[h].index(n)
        raise ValueError(f"hex {n} is not a neighbour of hex {h}")

    def parse_decision(self, text: str) -> int:
        """The decision id of a decision text in this position (moves and steps need the hexes).

        >>> g = Game.new(1, players=2)
        >>> g.parse_decision("."), g.parse_decision("$Tv"), g.parse_decision("*Pi")
        (508, 376, 400)
        """
        self._check_syntax(text)
        head = text[0]
        if (m := self._MOVE.fullmatch(text)) is not None:
            source, letter, target = m.groups()
            if (letter != "") != (self.players == 2):
                raise NotationError(f"decision {text!r}: a move names its piece (a or b) exactly with 2 players")
            p = PIECES.index(letter) if letter else 0
            seat = self._to_move if self._to_move is not None else 0
            h = self._hex_of(seat, p) if p < len(self.pieces[seat]) else None
            if h is None:
                raise ValueError(f"decision {text!r}: piece {PIECES[p]} is not on the map")
            return (MOVE_SOURCES.index(source) * len(PIECES) + p) * 6 + self._direction_to(h, target)
        if self._STEP.fullmatch(text):
            h = None if self.moving is None or self._to_move is None else self._hex_of(self._to_move, self.moving[0])
            if h is None:
                raise ValueError(f"decision {text!r}: no piece is moving")
            return STEP_BASE + self._direction_to(h, text[1:])
        if text == ".":
            return END_ID
        if text == "~.":
            return REPLACE_END
        if text in ACTIONS:
            return ACTION_BASE + ACTIONS.index(text)
        if text.startswith(TRANSMITTER + "*"):
            return TRANSMIT_BASE + MARKET_INDEX[text[3:]]
        code = text[1:]
        return {"#": PAY_BASE + CARD_INDEX.get(code, 0), "$": COIN_BASE + COIN_SOURCES.index(code),
                "*": BUY_BASE + MARKET_INDEX.get(code, 0), "x": REMOVE_BASE + CARD_INDEX.get(code, 0),
                "~": REPLACE_BASE + CARD_INDEX.get(code, 0), "-": DISCARD_BASE + CARD_INDEX.get(code, 0)}[head]

    decision_id = parse_decision

    def decision_to_text(self, d: int) -> str:
        """The text of decision id ``d`` in this position (ValueError if a move or step names no
        target here).

        >>> Game.new(1, players=2).decision_to_text(434)
        'Cg!'
        """
        if isinstance(d, bool) or not isinstance(d, int) or not 0 <= d < N_DECISIONS:
            raise ValueError(f"decision id must be in 0..{N_DECISIONS - 1}, got {d!r}")
        if d < STEP_BASE + 6:
            if d < STEP_BASE:
                s, rest = divmod(d, len(PIECES) * 6)
                p, direction = divmod(rest, 6)
                seat = self._to_move
                h = self._hex_of(seat, p) if seat is not None and p < len(self.pieces[seat]) else None
                prefix = MOVE_SOURCES[s] + self._piece_letter(p) + ">"
            else:
                direction = d - STEP_BASE
                seat, moving = self._to_move, self.moving
                h = self._hex_of(seat, moving[0]) if seat is not None and moving is not None else None
                prefix = ">"
            n = None if h is None else self.route.neighbours[h][direction]
            if h is None or n is None:
                raise ValueError(f"decision id {d}: no piece of the seat to move with a hex in direction {direction}")
            k = self.route.crossing[h][direction]
            number = self.blockades[k] if k is not None else None
            return prefix + (str(n) if number is None else f"B{number}")
        for base, texts, head in ((PAY_BASE, CARDS, "#"), (COIN_BASE, COIN_SOURCES, "$"),
                                  (BUY_BASE, MARKET_TYPES, "*"), (TRANSMIT_BASE, MARKET_TYPES, TRANSMITTER + "*"),
                                  (ACTION_BASE, ACTIONS, ""), (REMOVE_BASE, CARDS, "x"), (REPLACE_BASE, CARDS, "~")):
            if base <= d < base + len(texts):
                return head + texts[d - base]
        if d == REPLACE_END:
            return "~."
        if DISCARD_BASE <= d < END_ID:
            return "-" + CARDS[d - DISCARD_BASE]
        return "."

    # ------------------------------------------------------------------ the flow of a turn
    def _draw(self, seat: int, count: int) -> list[str]:
        """Draw ``count`` cards (reshuffling the discard pile when the draw pile is empty)."""
        drawn = []
        for _ in range(count):
            if not self.draws[seat]:
                if not self.discards[seat]:
                    break
                self._reshuffle(seat)
            card = self.draws[seat].pop()
            self.hands[seat][card] += 1
            drawn.append(card)
        return drawn

    def _reshuffle(self, seat: int) -> None:
        """The discard pile in canonical order, shuffled with the position's generator, becomes
        the draw pile (element 0 at the bottom)."""
        cards = _sorted_cards(self.discards[seat].elements())
        gen = SplitMix64(self.rng)
        shuffle(cards, gen)
        self.rng = gen.state
        self.draws[seat] = cards
        self.discards[seat] = Counter()

    def _stop(self) -> None:
        """The moving piece stops: its leftover is lost and it explores the caves beside it."""
        if self.moving is None:
            return
        seat = self._to_move
        assert seat is not None
        p = self.moving[0]
        self.moving = None
        h = self._hex_of(seat, p)
        if not self.options["caves"] or h is None:
            return
        beside = self.route.cave_adjacent[h]
        explored = self.explored[seat][p]
        for c in range(len(self.route.caves)):
            if c in beside:
                if c not in explored:
                    if self.cave_piles[c]:
                        self.tokens[seat][self.cave_piles[c].pop()] += 1
                    explored.add(c)
            else:
                explored.discard(c)

    def _end_removal(self) -> None:
        if self.remove:
            self.remove = 0
            self.last = None

    def _use_item(self, seat: int, card: str) -> None:
        """A card whose function was used: an item is removed from the game, unless *keep item*
        is on (then it is played and the flag cleared); any other card is played."""
        if ITEM[card] and "k" not in self.flags:
            self.removed[seat][card] += 1
        else:
            if ITEM[card]:
                self.flags.discard("k")
            self.played[card] += 1

    def _take_blockade(self, seat: int, number: int) -> None:
        self.blockades[self.blockades.index(number)] = None
        self.held[seat] = sorted(self.held[seat] + [number])

    def _enter(self, seat: int, p: int, kind: str, target: int, symbol: str | None, left: int) -> None:
        """Piece ``p`` meets a target: a hex is entered (a finishing space: onto El Dorado), a
        blockade is taken with the piece staying. The piece becomes the moving piece."""
        if kind == "blockade":
            self._take_blockade(seat, target)
        elif target in self.route.finishing:
            self.pieces[seat][p] = E
            self.moving = None
            if self.finished(seat):
                self.final = True
            return
        else:
            self.pieces[seat][p] = target
        self.moving = (p, symbol if left > 0 else None, left)

    def _move(self, seat: int, source: str, p: int, target_text: str) -> None:
        kind, target = ("blockade", int(target_text[1:])) if target_text[0] == "B" else ("hex", int(target_text))
        t_kind, t_power = self._requirement(kind, target)
        is_card = source in CARD_INDEX
        if is_card:
            take(self.hands[seat], source)
        else:
            take(self.tokens[seat], source)
        if source in (NATIVE, "nt"):  # the requirement is ignored
            if is_card:
                self.played[source] += 1
            self._enter(seat, p, kind, target, None, 0)
        elif t_kind in ("rubble", "camp"):
            (self.played if t_kind == "rubble" else self.removed[seat])[source] += 1
            if t_power > 1:
                self.pay, self.last = (t_power - 1, t_kind), source
            self._enter(seat, p, kind, target, None, 0)
        else:
            power = POWER[source] if is_card else TOKEN_POWER[source]
            if is_card:
                self._use_item(seat, source)
            self._enter(seat, p, kind, target, t_kind, power - t_power)
        if is_card:
            self.flags.discard("s")

    def _step(self, seat: int, target_text: str) -> None:
        assert self.moving is not None
        p, symbol, left = self.moving
        kind, target = ("blockade", int(target_text[1:])) if target_text[0] == "B" else ("hex", int(target_text))
        self._enter(seat, p, kind, target, symbol, left - self._requirement(kind, target)[1])

    def _take_from_market(self, code: str) -> None:
        """One card of type ``code`` leaves the market; a pile beside the board taken from while a
        slot is empty first moves onto the board."""
        if code not in self.board and len(self.board) < SLOTS:
            self.board[code] = self.beside.pop(code)
        pile = self.board if code in self.board else self.beside
        pile[code] -= 1
        if pile[code] == 0:
            del pile[code]

    def _end_turn(self, seat: int) -> list[str]:
        self.discards[seat] += self.played
        self.played = Counter()
        drawn = self._draw(seat, max(0, HAND_SIZE - size(self.hands[seat])))
        self.coins, self.bought, self.lastcoin = 0, False, None
        self.moving, self.pay, self.remove, self.replace, self.last = None, None, 0, None, None
        self.flags = set()
        self.turn += 1
        if seat == self.players - 1 and (self.final or self.turn >= self.players * self.options["max_rounds"]):
            self.phase, self._to_move = OVER, None
        else:
            self.phase, self._to_move = PLAY, (seat + 1) % self.players
        return drawn

    def apply(self, decision: str | int) -> None:
        """Apply one decision (its text, or its id); ValueError (state unchanged) if malformed or
        illegal. What it drew is kept in ``revealed`` and the history.

        >>> g = Game.new(1, players=2)
        >>> g.apply("$Tv"); g.coins, g.hands[0]["Tv"]
        (2, 1)
        >>> g.apply("*Tm")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: illegal decision '*Tm' for seat 0 in phase play; legal: ...
        """
        pairs = self.legal_pairs()
        if isinstance(decision, int) and not isinstance(decision, bool):
            texts = {i: t for i, t in pairs}
            if decision not in texts:
                if self.is_over():
                    raise ValueError(f"decision {decision}: the game is over")
                raise ValueError(f"illegal decision id {decision} for seat {self._to_move}")
            decision = texts[decision]
        if decision not in {t for _, t in pairs}:
            self._check_syntax(decision)
            if self.is_over():
                raise ValueError(f"decision {decision!r}: the game is over")
            raise ValueError(f"illegal decision {decision!r} for seat {self._to_move} in phase {self.phase}; "
                             f"legal: {' '.join(t for _, t in pairs)}")
        seat = self._to_move
        assert seat is not None and isinstance(decision, str)
        drawn: list[str] = []
        head = decision[0]
        if head != ">":
            self._stop()
        if head != "x":
            self._end_removal()
        m = self._MOVE.fullmatch(decision)
        if m is not None:
            source, letter, target = m.groups()
            self._move(seat, source, PIECES.index(letter) if letter else 0, target)
        elif head == ">":
            self._step(seat, decision[1:])
        elif head == "#":
            card = decision[1:]
            take(self.hands[seat], card)
            assert self.pay is not None
            owed, kind = self.pay
            (self.played if kind == "rubble" else self.removed[seat])[card] += 1
            self.pay, self.last = ((owed - 1, kind), card) if owed > 1 else (None, None)
            self.flags.discard("s")
        elif head == "$":
            source = decision[1:]
            self.coins += self._coin_value(source)
            self.lastcoin = source
            if source in CARD_INDEX:
                take(self.hands[seat], source)
                if self._uses_power_for_coins(source):
                    self._use_item(seat, source)
                else:
                    self.played[source] += 1
                self.flags.discard("s")
            else:
                take(self.tokens[seat], source)
        elif head == "*":
            code = decision[1:]
            self._take_from_market(code)
            self.discards[seat][code] += 1
            self.coins, self.bought = 0, True
        elif decision.startswith(TRANSMITTER + "*"):
            take(self.hands[seat], TRANSMITTER)
            self._use_item(seat, TRANSMITTER)
            self._take_from_market(decision[3:])
            self.discards[seat][decision[3:]] += 1
            self.flags.discard("s")
        elif decision in ACTIONS:
            code = decision[:2]
            if code in ACTION_CARDS:
                take(self.hands[seat], code)
                self._use_item(seat, code)
                self.flags.discard("s")
                count, right = ACTION_CARDS[code]
                drawn = self._draw(seat, count)
                self.remove = right
            else:
                take(self.tokens[seat], code)
                if code == "dr":
                    drawn = self._draw(seat, 1)
                elif code == "rm":
                    self.remove = 1
                elif code == "rh":
                    self.replace = 0
                else:
                    self.flags.add(FLAG_OF_TOKEN[code])
        elif head == "x":
            card = decision[1:]
            take(self.hands[seat], card)
            self.removed[seat][card] += 1
            self.remove -= 1
            self.last = card if self.remove > 0 else None
        elif decision == "~.":
            drawn = self._draw(seat, self.replace or 0)
            self.replace, self.last = None, None
        elif head == "~":
            card = decision[1:]
            take(self.hands[seat], card)
            self.played[card] += 1
            self.replace = (self.replace or 0) + 1
            self.last = card
            self.flags.discard("s")
        elif head == "-":
            card = decision[1:]
            take(self.hands[seat], card)
            self.discards[seat][card] += 1
            self.phase, self.last = DISCARD, card
        else:  # "."
            drawn = self._end_turn(seat)
        self.revealed = tuple(drawn)
        self._history.append((seat, decision, self.revealed))

    # ------------------------------------------------------------------ history
    def history(self, seat: int | None = None) -> list[str]:
        """The decisions applied to this object, as the referee records them (``seat=None``: what
        every decision drew after a colon) or as ``seat`` sees them (only its own draws)."""
        out = []
        for s, text, drawn in self._history:
            show = drawn and (seat is None or seat == s)
            out.append(text + (":" + "".join(drawn) if show else ""))
        return out

    def history_text(self, seat: int | None = None) -> str:
        """``history(seat)`` joined by commas, ``-`` when empty.

        >>> g = Game.new(1, players=2)
        >>> g.apply("."); g.history_text(), g.history_text(1)
        ('.', '.')
        """
        return ",".join(self.history(seat)) or "-"

    # ------------------------------------------------------------------ text: positions
    def _options_text(self) -> str:
        return (f"route={ROUTE_NAMES[self.options['route']]} caves={self.options['caves']} "
                f"max_rounds={self.options['max_rounds']}")

    def market_text(self) -> str:
        def piles(p: dict[str, int]) -> str:
            return "".join(f"{code}{p[code]}" for code in _sorted_cards(p)) or "-"
        return f"{piles(self.board)}/{piles(self.beside)}"

    def _moving_text(self) -> str:
        if self.moving is None:
            return "-"
        p, symbol, left = self.moving
        return PIECES[p] + (f"{SYMBOL_LETTER[symbol]}{left}" if symbol is not None and left > 0 else "")

    def _fields_before_hands(self) -> list[str]:
        return [
            f"turn={self.turn}", f"phase={self.phase}",
            f"to_move={'-' if self._to_move is None else self._to_move}", f"final={int(self.final)}",
            "pieces=" + "/".join(",".join(str(h) for h in p) for p in self.pieces),
            "blockades=" + ",".join("-" if b is None else str(b) for b in self.blockades),
            "held=" + "/".join(",".join(map(str, h)) or "-" for h in self.held),
            "market=" + self.market_text(),
        ]

    def _public_piles(self) -> list[str]:
        return [
            "discards=" + "/".join(cards_text(d) for d in self.discards),
            "removed=" + "/".join(cards_text(r) for r in self.removed),
            "played=" + cards_text(self.played),
            "tokens=" + "/".join(tokens_text(t) for t in self.tokens),
        ]

    def _turn_fields(self) -> list[str]:
        return [
            "explored=" + "/".join(",".join("".join(chr(ord("a") + c) for c in sorted(e)) or "-" for e in p)
                                   for p in self.explored),
            f"coins={self.coins}", f"bought={int(self.bought)}", f"lastcoin={self.lastcoin or '-'}",
            f"moving={self._moving_text()}",
            "pay=" + ("-" if self.pay is None else f"{self.pay[0]}{self.pay[1][0]}"),
            f"remove={self.remove}", f"replace={'-' if self.replace is None else self.replace}",
            f"last={self.last or '-'}", "flags=" + ("".join(f for f in FLAG_ORDER if f in self.flags) or "-"),
        ]

    def to_text(self) -> str:
        """The full position, one line (docs/eldorado.md "Positions (full state)").

        >>> g = Game.new(1, players=2)
        >>> Game.from_text(g.to_text()).to_text() == g.to_text()
        True
        """
        return " ".join([
            "eldorado", self._options_text(), f"players={self.players}", *self._fields_before_hands(),
            "hands=" + "/".join(cards_text(h) for h in self.hands),
            "draws=" + "/".join("".join(d) or "-" for d in self.draws),
            *self._public_piles(),
            "cavepiles=" + ",".join("".join(p) or "-" for p in self.cave_piles),
            "box=" + tokens_text(self.box),
            *self._turn_fields(),
            f"rng={self.rng:016x}"])

    __str__ = to_text

    def __repr__(self) -> str:
        return f"<engine.eldorado.reference.Game {self.to_text()}>"

    # ------------------------------------------------------------------ text: views
    def _check_seat(self, seat: object) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"seat must be in 0..{self.players - 1}, got {seat!r}")

    def view_text(self, seat: int) -> str:
        """What ``seat`` knows (docs/eldorado.md "Views").

        >>> v = Game.new(1, players=2).view_text(1).split()
        >>> v[4:6], v[14:17], v[-1]
        (['players=2', 'seat=1'], ['hands=?4/ExExTvSa', 'draws=4/4', 'unseen=ExExExTvTvTvTvSa/ExTvTvTv'], 'history=-')
        """
        self._check_seat(seat)
        unseen = []
        for s in range(self.players):
            draw = Counter(self.draws[s])
            unseen.append(cards_text(draw if s == seat else draw + self.hands[s]))
        pool = Counter(self.box)
        for pile in self.cave_piles:
            pool.update(pile)
        return " ".join([
            "eldorado", self._options_text(), f"players={self.players}", f"seat={seat}",
            *self._fields_before_hands(),
            "hands=" + "/".join(cards_text(h) if s == seat else f"?{size(h)}" for s, h in enumerate(self.hands)),
            "draws=" + "/".join(str(len(d)) for d in self.draws),
            "unseen=" + "/".join(unseen),
            *self._public_piles(),
            "cavepiles=" + ",".join(str(len(p)) for p in self.cave_piles),
            "cavepool=" + tokens_text(pool),
            *self._turn_fields(),
            "history=" + self.history_text(seat)])

    # ------------------------------------------------------------------ determinization
    def resample(self, seat: int, rnd: random.Random) -> "Game":
        """A full state drawn uniformly from those consistent with what ``seat`` knows
        (docs/eldorado.md "Views": determinizing deals the same unseen cards into the same places).

        The seat's own draw pile is shuffled; every other seat's hand and draw pile are dealt
        again from those cards together (the hand keeps its size); the tokens of the cave piles
        and the box are dealt again into the piles (each keeps its size), the rest into the box;
        everything public stays; the generator is redrawn and the history starts empty (as in the
        other editions' models).

        >>> import random
        >>> g = Game.new(5, players=3, caves=1)
        >>> h = g.resample(1, random.Random(0))
        >>> h.view_text(1) == g.view_text(1), h.to_text() == g.to_text()
        (True, False)
        """
        self._check_seat(seat)
        g = self.copy()
        g._history = []
        g.revealed = ()
        for s in range(self.players):
            if s == seat:
                pile = list(self.draws[s])
                rnd.shuffle(pile)
                g.draws[s] = pile
                continue
            cards = list(self.hands[s].elements()) + list(self.draws[s])
            rnd.shuffle(cards)
            in_hand = size(self.hands[s])
            g.hands[s] = Counter(cards[:in_hand])
            g.draws[s] = cards[in_hand:]
        tokens = list(self.box.elements()) + [token for pile in self.cave_piles for token in pile]
        rnd.shuffle(tokens)
        pos = 0
        for k, pile in enumerate(self.cave_piles):
            g.cave_piles[k] = tokens[pos:pos + len(pile)]
            pos += len(pile)
        g.box = Counter(tokens[pos:])
        g.rng = rnd.getrandbits(64)
        return g

    # ------------------------------------------------------------------ parsing
    @staticmethod
    def _read(text: str, fields: tuple[str, ...]) -> tuple[dict[str, int], dict[str, str]]:
        """The options (each at most once, in table order, the route by name or number, missing
        ones at their defaults) and every field, in their order."""
        options, values = read_position(text, "eldorado", OPTIONS, fields, {"route": ROUTE_NAMES})
        for name, default, _, _ in OPTIONS:
            options.setdefault(name, default)
        return options, values

    @classmethod
    def from_text(cls, text: str) -> "Game":
        """Parse and check a full position; NotationError (a ValueError) names the bad field.

        >>> Game.from_text(Game.new(1).to_text().replace("players=2", "players=5"))
        Traceback (most recent call last):
        ...
        engine.reference.base.NotationError: players: expected 2..4, got 5
        """
        options, v = cls._read(text, FIELDS)
        g = cls()
        g.options = options
        g._parse_fields(v)
        return g

    def _per_seat(self, v: dict[str, str], name: str) -> list[str]:
        return split(v[name], name, self.players)

    def _parse_fields(self, v: dict[str, str]) -> None:
        n = self.players = parse_int(v["players"], "players", PLAYERS[0], PLAYERS[-1])
        limit = n * self.options["max_rounds"]
        self.turn = parse_int(v["turn"], "turn", 0, limit)
        if v["phase"] not in (PLAY, DISCARD, OVER):
            raise NotationError(f"phase: expected play, discard or over, got {v['phase']!r}")
        self.phase = v["phase"]
        if self.phase == OVER:
            if v["to_move"] != "-":
                raise NotationError(f"to_move: expected '-' when the phase is over, got {v['to_move']!r}")
            if self.turn % n:
                raise NotationError(f"turn: the game ends at the end of a round; {self.turn} is not a multiple of {n}")
            self._to_move = None
        else:
            if self.turn >= limit:
                raise NotationError(f"turn: {self.turn} turns reach the limit of {limit} while the game runs")
            self._to_move = parse_int(v["to_move"], "to_move", 0, n - 1)
            if self._to_move != self.turn % n:
                raise NotationError(f"to_move: seat {self.turn % n} moves after {self.turn} turns, "
                                    f"got {self._to_move}")
        self.final = bool(parse_int(v["final"], "final", 0, 1))
        self._parse_board(v)
        self._parse_cards(v)
        self._parse_tokens(v)
        self._parse_turn_state(v)
        if self.phase == OVER:
            rest = ("coins=0 bought=0 lastcoin=- moving=- pay=- remove=0 replace=- last=- flags=- played=-").split()
            for item in rest:
                name, _, want = item.partition("=")
                if v[name] != want:
                    raise NotationError(f"{name}: expected {want} when the game is over (the turn is at rest), "
                                        f"got {v[name]!r}")
        self._parse_rng(v["rng"])

    def _parse_rng(self, text: str) -> None:
        if len(text) != 16 or any(ch not in "0123456789abcdef" for ch in text):
            raise NotationError(f"rng: expected 16 lowercase hex digits, got {text!r}")
        self.rng = int(text, 16)

    def _parse_board(self, v: dict[str, str]) -> None:
        n, route = self.players, self.route
        per_seat = 2 if n == 2 else 1
        self.pieces = []
        for s, text in enumerate(self._per_seat(v, "pieces")):
            parts = text.split(",")
            if len(parts) != per_seat:
                raise NotationError(f"pieces (seat {s}): expected {per_seat} piece(s) separated by ',', got {text!r}")
            seat_pieces: list[int | str] = []
            for part in parts:
                if part == E:
                    seat_pieces.append(E)
                    continue
                h = parse_int(part, f"pieces (seat {s})", 0, route.hexes - 1)
                if route.kind[h] in (MOUNTAIN, CAVE) or h in route.finishing:
                    raise NotationError(f"pieces (seat {s}): hex {h} is a {route.kind[h] if h not in route.finishing else 'finishing space'}; "
                                        f"expected an enterable hex, a start space or E")
                seat_pieces.append(h)
            self.pieces.append(seat_pieces)
        parts = v["blockades"].split(",")
        if len(parts) != route.connections:
            raise NotationError(f"blockades: expected {route.connections} connections separated by ',', got {v['blockades']!r}")
        self.blockades = [None if b == "-" else self._blockade(b, "blockades") for b in parts]
        self.held = []
        for s, text in enumerate(self._per_seat(v, "held")):
            numbers = [] if text == "-" else [self._blockade(b, f"held (seat {s})") for b in text.split(",")]
            if numbers != sorted(set(numbers)):
                raise NotationError(f"held (seat {s}): expected ascending distinct blockade numbers, got {text!r}")
            self.held.append(numbers)
        every = [b for b in self.blockades if b is not None] + [b for h in self.held for b in h]
        for b in every:
            if every.count(b) > 1:
                raise NotationError(f"blockades: blockade {b} is in more than one place (connections and held)")
        taken = sum(1 for b in self.blockades if b is None)
        if taken != sum(len(h) for h in self.held):
            raise NotationError(f"held: {taken} connections are taken ('-') but the seats hold "
                                f"{sum(len(h) for h in self.held)} blockades")
        market = v["market"].split("/")
        if len(market) != 2:
            raise NotationError(f"market: expected B/S (the board's piles, the piles beside it), got {v['market']!r}")
        self.board, self.beside = (self._piles(t, f"market ({w})") for t, w in zip(market, ("board", "beside")))
        if len(self.board) > SLOTS:
            raise NotationError(f"market: the board holds at most {SLOTS} piles, got {len(self.board)}")
        both = set(self.board) & set(self.beside)
        if both:
            raise NotationError(f"market: {', '.join(sorted(both))} both on the board and beside it")

    @staticmethod
    def _blockade(text: str, what: str) -> int:
        if not re.fullmatch(r"[0-9]+", text) or int(text) not in BLOCKADES:
            raise NotationError(f"{what}: expected a blockade number ({', '.join(map(str, BLOCKADE_NUMBERS))}) "
                                f"or '-', got {text!r}")
        return int(text)

    @staticmethod
    def _piles(text: str, what: str) -> dict[str, int]:
        if text == "-":
            return {}
        if not re.fullmatch(r"([A-Z][a-z][0-9])+", text):
            raise NotationError(f"{what}: expected piles like Sc3Tb2 or '-', got {text!r}")
        piles: dict[str, int] = {}
        for i in range(0, len(text), 3):
            code, count = text[i:i + 2], int(text[i + 2])
            if code not in MARKET_INDEX:
                raise NotationError(f"{what}: {code!r} is not a market card")
            if not 1 <= count <= COPIES[code]:
                raise NotationError(f"{what}: pile {code} must hold 1..{COPIES[code]} cards, got {count}")
            if piles and MARKET_INDEX[code] <= MARKET_INDEX[list(piles)[-1]]:
                raise NotationError(f"{what}: piles must be in card order, {code} after {list(piles)[-1]}")
            piles[code] = count
        return piles

    def _parse_cards(self, v: dict[str, str]) -> None:
        def sets(name: str) -> list[Counter]:
            return [_parse_set(t, f"{name} (seat {s})", CARD_INDEX, "card") for s, t in enumerate(self._per_seat(v, name))]
        self.hands = sets("hands")
        self.draws = [_codes(t, f"draws (seat {s})", CARD_INDEX, "card") for s, t in enumerate(self._per_seat(v, "draws"))]
        self.discards = sets("discards")
        self.removed = sets("removed")
        self.played = _parse_set(v["played"], "played", CARD_INDEX, "card")
        if self.phase == OVER and self.played:
            raise NotationError("played: expected '-' when the game is over")
        market = Counter(self.board) + Counter(self.beside)
        for s in range(self.players):
            mine = self.hands[s] + Counter(self.draws[s]) + self.discards[s] + self.removed[s]
            if s == self._to_move:
                mine += self.played
            for code, count in START_DECK.items():
                if mine[code] != count:
                    raise NotationError(f"cards: seat {s} has {mine[code]} {code} over its places, expected {count} "
                                        f"(its starting deck)")
            market += Counter({c: k for c, k in mine.items() if c in MARKET_INDEX})
        for code in MARKET_TYPES:
            if market[code] != COPIES[code]:
                raise NotationError(f"cards: {market[code]} {code} over the market and the seats' places, "
                                    f"expected {COPIES[code]}")

    def _parse_tokens(self, v: dict[str, str]) -> None:
        route = self.route
        self.tokens = [_parse_set(t, f"tokens (seat {s})", TOKEN_INDEX, "token")
                       for s, t in enumerate(self._per_seat(v, "tokens"))]
        parts = v["cavepiles"].split(",")
        if len(parts) != len(route.caves):
            raise NotationError(f"cavepiles: expected {len(route.caves)} cave piles separated by ',', got {v['cavepiles']!r}")
        self.cave_piles = [_codes(t, f"cavepiles (cave {k})", TOKEN_INDEX, "token") for k, t in enumerate(parts)]
        self.box = _parse_set(v["box"], "box", TOKEN_INDEX, "token")
        every = Counter(self.box)
        for pile in self.cave_piles:
            every.update(pile)
        for t in self.tokens:
            every.update(t)
        if not self.options["caves"] and every:
            raise NotationError(f"tokens: caves=0 means no tokens anywhere, got {tokens_text(every)} "
                                f"over caves, box and seats")
        for code in TOKENS:
            if every[code] > TOKEN_COUNT[code]:
                raise NotationError(f"tokens: {every[code]} {code} over caves, box and seats, "
                                    f"at most {TOKEN_COUNT[code]}")
        self.explored = []
        for s, text in enumerate(self._per_seat(v, "explored")):
            parts = text.split(",")
            if len(parts) != len(self.pieces[s]):
                raise NotationError(f"explored (seat {s}): expected {len(self.pieces[s])} entries separated by ',', "
                                    f"got {text!r}")
            seat_bits: list[set[int]] = []
            for part in parts:
                letters = "abcdefghijklmnopqrstuvwxyz"[:len(route.caves)]
                if part == "-":
                    seat_bits.append(set())
                    continue
                if any(ch not in letters for ch in part) or list(part) != sorted(set(part)):
                    raise NotationError(f"explored (seat {s}): expected ascending cave letters from {letters} "
                                        f"or '-', got {part!r}")
                seat_bits.append({ord(ch) - ord("a") for ch in part})
            self.explored.append(seat_bits)

    def _parse_turn_state(self, v: dict[str, str]) -> None:
        self.coins = parse_int(v["coins"], "coins", 0, 10**6)
        self.bought = bool(parse_int(v["bought"], "bought", 0, 1))
        lc = v["lastcoin"]
        if lc != "-" and lc not in COIN_SOURCES:
            raise NotationError(f"lastcoin: expected a card, c1, c2 or '-', got {lc!r}")
        self.lastcoin = None if lc == "-" else lc
        mv = v["moving"]
        self.moving = None
        if mv != "-":
            m = re.fullmatch(r"([ab])(?:([mpv])([1-9]))?", mv)
            if not m:
                raise NotationError(f"moving: expected '-', a piece (a, b) or a piece, symbol (m, p, v) and "
                                    f"leftover, like am2; got {mv!r}")
            p = PIECES.index(m.group(1))
            if self._to_move is None or self.phase != PLAY or p >= len(self.pieces[0]) \
                    or self._hex_of(self._to_move, p) is None:
                raise NotationError(f"moving: piece {m.group(1)} is not a piece of the seat to move on the map "
                                    f"(in phase play)")
            symbol = {"m": "machete", "p": "paddle", "v": "coin"}[m.group(2)] if m.group(2) else None
            self.moving = (p, symbol, int(m.group(3)) if m.group(3) else 0)
        pay = v["pay"]
        self.pay = None
        if pay != "-":
            m = re.fullmatch(r"([1-9])([rc])", pay)
            if not m:
                raise NotationError(f"pay: expected '-' or cards owed and kind, like 2r or 1c; got {pay!r}")
            if self.phase != PLAY:
                raise NotationError(f"pay: an owed payment only in phase play, got phase {self.phase}")
            self.pay = (int(m.group(1)), "rubble" if m.group(2) == "r" else "camp")
        self.remove = parse_int(v["remove"], "remove", 0, MAX_REMOVAL)
        rep = v["replace"]
        self.replace = None if rep == "-" else parse_int(rep, "replace", 0, MAX_REPLACE)
        if self.replace is not None and self.phase != PLAY:
            raise NotationError(f"replace: a replacement only in phase play, got phase {self.phase}")
        last = v["last"]
        if last != "-" and last not in CARD_INDEX:
            raise NotationError(f"last: expected a card or '-', got {last!r}")
        self.last = None if last == "-" else last
        flags = v["flags"]
        if flags != "-" and (not flags or any(f not in FLAG_ORDER for f in flags)
                             or list(flags) != sorted(set(flags), key=FLAG_ORDER.index)):
            raise NotationError(f"flags: expected '-' or some of k, p, s in that order, got {flags!r}")
        self.flags = set() if flags == "-" else set(flags)

    # ------------------------------------------------------------------ views parsed
    @classmethod
    def parse_view(cls, text: str) -> tuple["Game", int, list[str]]:
        """A full position consistent with a view, its seat and its history (docs/eldorado.md
        "Views"): unseen cards fill hands, then draw piles from the bottom, in canonical order; the
        cave pool fills the caves in cave order, the rest the box; the generator is 0.

        >>> g = Game.new(3, players=3, caves=1)
        >>> h, seat, history = Game.parse_view(g.view_text(2))
        >>> h.view_text(2) == g.view_text(2), seat, history
        (True, 2, [])
        """
        options, v = cls._read(text, VIEW_FIELDS)
        n = parse_int(v["players"], "players", PLAYERS[0], PLAYERS[-1])
        seat = parse_int(v["seat"], "seat", 0, n - 1)
        route = ROUTES[options["route"]]
        hands_in = split(v["hands"], "hands", n)
        sizes = [parse_int(t, "draws", 0, 10**4) for t in split(v["draws"], "draws", n)]
        unseen = [_parse_set(t, f"unseen (seat {s})", CARD_INDEX, "card") for s, t in enumerate(split(v["unseen"], "unseen", n))]
        hands, draws = [], []
        for s in range(n):
            pool = _sorted_cards(unseen[s].elements())
            if s == seat:
                hand = hands_in[s]
                if hand.startswith("?"):
                    raise NotationError(f"hands (seat {s}): the viewer's own hand is written out, got {hand!r}")
                _parse_set(hand, f"hands (seat {s})", CARD_INDEX, "card")
                k = 0
            else:
                if not re.fullmatch(r"\?(0|[1-9][0-9]*)", hands_in[s]):
                    raise NotationError(f"hands (seat {s}): expected ?k for another seat's hand, got {hands_in[s]!r}")
                k = int(hands_in[s][1:])
                hand = cards_text(Counter(pool[:k]))
            if len(pool) != k + sizes[s]:
                raise NotationError(f"unseen (seat {s}): expected {k + sizes[s]} cards (hand and draw pile), "
                                    f"got {len(pool)}")
            hands.append(hand)
            draws.append("".join(pool[k:]) or "-")
        counts = v["cavepiles"].split(",")
        if len(counts) != len(route.caves):
            raise NotationError(f"cavepiles: expected {len(route.caves)} cave sizes separated by ',', got {v['cavepiles']!r}")
        pool_tokens = sorted(_parse_set(v["cavepool"], "cavepool", TOKEN_INDEX, "token").elements(),
                             key=TOKEN_INDEX.__getitem__)
        piles = []
        for k, c in enumerate(counts):
            m = parse_int(c, f"cavepiles (cave {k})", 0, len(ALL_TOKENS))
            if m > len(pool_tokens):
                raise NotationError("cavepool: fewer tokens than the caves hold")
            piles.append("".join(pool_tokens[:m]) or "-")
            pool_tokens = pool_tokens[m:]
        history = [] if v["history"] == "-" else v["history"].split(",")
        fields = dict(v)
        fields.update({"hands": "/".join(hands), "draws": "/".join(draws), "cavepiles": ",".join(piles),
                       "box": tokens_text(Counter(pool_tokens)), "rng": "0" * 16})
        opts = f"route={ROUTE_NAMES[options['route']]} caves={options['caves']} max_rounds={options['max_rounds']}"
        full = " ".join(["eldorado", opts] + [f"{name}={fields[name]}" for name in FIELDS])
        return cls.from_text(full), seat, history
