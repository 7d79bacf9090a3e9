"""The Quest for El Dorado's components, read from `data/eldorado.json`: card types, cave tokens,
blockades, and each route's map assembled hex by hex (docs/eldorado.md, "The map").

The compiled rules build their tables from these objects at import; the text picture and the PNG
render draw them. Nothing here knows a rule beyond the geometry.

>>> fe = ROUTES[0]
>>> fe.name, len(fe.hexes), fe.connections, len(fe.caves), fe.starts
('first-expedition', 188, 4, 3, (36, 35, 34, 33))
>>> CARDS[5].code, CARDS[5].name, CARDS[5].power, CARDS[5].price
('Pi', 'Pioneer', 5, 5)
>>> [t.code for t in TOKENS][:7]
['m1', 'm2', 'm3', 'p1', 'p2', 'c1', 'c2']
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

DATA_PATH = Path(__file__).resolve().parent / "data" / "eldorado.json"
DATA: dict = json.loads(DATA_PATH.read_text())

DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""The six axial directions in direction-index order (docs/eldorado.md)."""

# Terrain codes; 0..2 are also card symbols. The compiled layout (rules.pxd T_*) uses the same.
MACHETE, PADDLE, COIN, RUBBLE, CAMP, MOUNTAIN, CAVE, START = range(8)
JOKER, ACTION = 3, 4
TERRAIN_LETTERS = "jwvrcM*s"
"""One letter per terrain code, for pictures: jungle, water, village, rubble, camp, mountain,
cave, start."""
SYMBOLS = {"machete": MACHETE, "paddle": PADDLE, "coin": COIN, "joker": JOKER, "action": ACTION,
           "rubble": RUBBLE}

# The two-character codes of the card types, in data order (docs/eldorado.md "Cards and tokens").
_CARD_CODES = ("Ex", "Tv", "Sa", "Sc", "Tb", "Pi", "Gm", "Ca", "Ph", "Jo", "Tc", "Mi", "Ja", "Ad", "Pp",
               "Tm", "Cg", "Si", "Co", "Tl", "Na")
_TOKEN_CODES = {"machete": "m", "paddle": "p", "coin": "c", "draw": "dr", "remove": "rm",
                "replace_hand": "rh", "keep_item": "ki", "pass_occupied": "po", "native": "nt",
                "change_symbol": "cs"}


@dataclass(frozen=True)
class CardType:
    """One of the 21 card types."""

    index: int
    code: str
    name: str
    symbol: int
    """MACHETE, PADDLE, COIN, JOKER or ACTION."""
    power: int
    price: int
    """0 for the starting cards (never sold)."""
    copies: int
    """Cards of the type in the market (0 for the starting cards)."""
    item: bool
    on_board: bool
    """Whether its pile starts on the market board."""


@dataclass(frozen=True)
class Token:
    """One kind of cave token."""

    index: int
    code: str
    kind: str
    power: int
    count: int


@dataclass(frozen=True)
class Blockade:
    number: int
    terrain: int
    """MACHETE, PADDLE, COIN or RUBBLE."""
    power: int


@dataclass(frozen=True)
class Hex:
    number: int
    q: int
    r: int
    tile: int
    """Index of its tile in the route; -1 for the finishing spaces."""
    terrain: int
    power: int
    finishing: bool


@dataclass(frozen=True)
class RouteMap:
    """One route assembled: hexes numbered as docs/eldorado.md says, and their relations."""

    index: int
    name: str
    title: str
    tiles: tuple[str, ...]
    hexes: tuple[Hex, ...]
    neighbours: tuple[tuple[int, ...], ...]
    """Per hex, its neighbour in each direction (-1 off the map)."""
    crossing: tuple[tuple[int, ...], ...]
    """Per hex and direction, the connection that edge crosses (-1 none)."""
    starts: tuple[int, ...]
    """Hexes of start spaces 1..4."""
    finishing: tuple[int, ...]
    caves: tuple[int, ...]
    """Cave hexes in cave order (ascending)."""
    connections: int

    def at(self, q: int, r: int) -> int:
        """The number of the hex at (q, r), or -1."""
        return self._index.get((q, r), -1)

    @property
    def _index(self) -> dict[tuple[int, int], int]:
        return {(h.q, h.r): h.number for h in self.hexes}


def _cards() -> tuple[CardType, ...]:
    raw = DATA["cards"]
    if len(raw) != len(_CARD_CODES):
        raise ValueError(f"{DATA_PATH}: expected {len(_CARD_CODES)} card types, found {len(raw)}")
    return tuple(CardType(i, _CARD_CODES[i], c["name"], SYMBOLS[c["symbol"]], int(c["power"]), int(c["price"] or 0),
                          int(c["copies"]), bool(c["single_use"]), bool(c["on_market_at_start"]))
                 for i, c in enumerate(raw))


def _tokens() -> tuple[Token, ...]:
    out = []
    for i, t in enumerate(DATA["cave_tokens"]):
        code = _TOKEN_CODES[t["kind"]] + (str(t["power"]) if "power" in t else "")
        out.append(Token(i, code, t["kind"], int(t.get("power", 0)), int(t["count"])))
    return tuple(out)


def _tile_cells(rows: list[str]) -> list[tuple[int, int, str]]:
    """(q, r, token) of a 7-row tile in data order."""
    if len(rows) != 7:
        raise ValueError("a route tile has 7 rows")
    cells = []
    for i, row in enumerate(rows):
        r = i - 3
        qs = range(max(-3, -r - 3), min(3, -r + 3) + 1)
        tokens = row.split()
        if len(tokens) != len(qs):
            raise ValueError(f"tile row {row!r}: expected {len(qs)} hexes")
        cells += [(q, r, token) for q, token in zip(qs, tokens)]
    return cells


def _terrain(token: str) -> tuple[int, int]:
    if token == "mm":
        return MOUNTAIN, 0
    if token == "CV":
        return CAVE, 0
    if token == "ss":
        return START, 0
    return "jwvrc".index(token[0]), int(token[1:])


def _rotate(q: int, r: int, turns: int) -> tuple[int, int]:
    for _ in range(turns % 6):
        q, r = -r, q + r
    return q, r


def assemble(index: int, name: str) -> RouteMap:
    """Builds one route from the data (raises ValueError if tiles overlap or El Dorado is off)."""
    route = DATA["routes"][name]
    hexes: list[Hex] = []
    where: dict[tuple[int, int], int] = {}
    starts: dict[int, int] = {}
    placed = route["tiles"]
    for k, (tile, cq, cr, turns) in enumerate(placed):
        row_of_start = 0
        for q, r, token in _tile_cells(DATA["tiles"][tile]):
            rq, rr = _rotate(q, r, turns)
            at = (rq + cq, rr + cr)
            if at in where:
                raise ValueError(f"route {name}: tile {tile} overlaps hex {where[at]} at {at}")
            terrain, power = _terrain(token)
            number = len(hexes)
            where[at] = number
            hexes.append(Hex(number, at[0], at[1], k, terrain, power, False))
            if terrain == START and k == 0:
                starts[row_of_start] = number
                row_of_start += 1
    if len(starts) != 4:
        raise ValueError(f"route {name}: the first tile has {len(starts)} start spaces, expected 4")
    first = placed[0][0]
    order = [0, 1, 2, 3] if first == "A" else [3, 2, 1, 0]  # docs/eldorado.md "Start spaces"
    start_hexes = tuple(starts[order.index(n)] for n in range(4))
    last = len(placed) - 1
    middle = tuple(route["eldorado"])
    if middle in where:
        raise ValueError(f"route {name}: El Dorado at {middle} lies on a tile")

    def touches_last(q: int, r: int) -> bool:
        return any(hexes[where[(q + dq, r + dr)]].tile == last for dq, dr in DIRECTIONS if (q + dq, r + dr) in where)

    candidates = [d for d, (dq, dr) in enumerate(DIRECTIONS)
                  if (middle[0] + dq, middle[1] + dr) not in where and touches_last(middle[0] + dq, middle[1] + dr)]
    opposite = [(a, b) for a in candidates for b in candidates if a < b and b == a + 3]
    pair = opposite[0] if opposite else tuple(candidates[:2])
    if len(pair) != 2 or not touches_last(*middle):
        raise ValueError(f"route {name}: El Dorado at {middle} does not touch the last tile")
    side = "jw".index(route["side"])  # MACHETE or PADDLE
    finish_cells = [middle] + [(middle[0] + DIRECTIONS[d][0], middle[1] + DIRECTIONS[d][1]) for d in pair]
    finishing = []
    for at in finish_cells:
        where[at] = len(hexes)
        finishing.append(len(hexes))
        hexes.append(Hex(len(hexes), at[0], at[1], -1, side, 1, True))
    neighbours = tuple(tuple(where.get((h.q + dq, h.r + dr), -1) for dq, dr in DIRECTIONS) for h in hexes)

    def crossing(h: Hex, n: int) -> int:
        if n < 0 or h.tile < 0 or hexes[n].tile < 0 or abs(h.tile - hexes[n].tile) != 1:
            return -1
        return min(h.tile, hexes[n].tile)

    crosses = tuple(tuple(crossing(h, n) for n in neighbours[h.number]) for h in hexes)
    caves = tuple(h.number for h in hexes if h.terrain == CAVE)
    return RouteMap(index, name, route["name"], tuple(t[0] for t in placed), tuple(hexes), neighbours, crosses,
                    start_hexes, tuple(finishing), caves, last)


CARDS: tuple[CardType, ...] = _cards()
TOKENS: tuple[Token, ...] = _tokens()
BLOCKADES: tuple[Blockade, ...] = tuple(Blockade(int(b["number"]), SYMBOLS[b["terrain"]], int(b["power"]))
                                        for b in DATA["blockades"])
STARTING_DECK: tuple[int, ...] = tuple(t for card in CARDS for t in [card.index] * int(DATA["starting_deck"].get(card.name, 0)))
"""The starting deck in canonical order (type indices)."""
ROUTE_NAMES: tuple[str, ...] = tuple(DATA["routes"])
"""In the order of the option `route` (first-expedition is the default)."""
ROUTES: tuple[RouteMap, ...] = tuple(assemble(i, name) for i, name in enumerate(ROUTE_NAMES))
CARD_CODES: tuple[str, ...] = tuple(c.code for c in CARDS)
TOKEN_CODES: tuple[str, ...] = tuple(t.code for t in TOKENS)
