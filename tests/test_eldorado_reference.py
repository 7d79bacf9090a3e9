"""Hand-worked tests of the `eldorado` reference model (engine/eldorado/reference.py) from the rules:
docs/eldorado.md, with the component data as shipped in engine/eldorado/data/eldorado.json.

Positions are built from the few fields a test cares about (`build`); every card not placed is
filled in (a seat's remaining starting cards at the bottom of its draw pile, the market's
remaining cards on their piles), so every position is valid by construction. Hexes are named by
their numbers on `first-expedition` unless said otherwise; the geometry each test relies on is
asserted where it is used (`near`), and the map itself is checked against coordinates worked out
by hand (`test_tile_placement_by_hand`).

Run: /work/venv/bin/pytest tests/test_eldorado_reference.py -q
"""
from __future__ import annotations

import json
import random
from collections import Counter, deque
from pathlib import Path

import pytest

from engine.eldorado import reference as ref
from engine.reference.base import NotationError

DATA_FILE = Path(__file__).resolve().parents[1] / "engine" / "eldorado" / "data" / "eldorado.json"
DATA = json.loads(DATA_FILE.read_text())
R0 = ref.ROUTES[0]  # first-expedition
CARD_ORDER = ("Ex Tv Sa Sc Tb Pi Gm Ca Ph Jo Tc Mi Ja Ad Pp Tm Cg Si Co Tl Na").split()
TOKEN_ORDER = "m1 m2 m3 p1 p2 c1 c2 dr rm rh ki po nt cs".split()
START = {"Ex": 3, "Tv": 4, "Sa": 1}
ON_BOARD = ["Sc", "Tb", "Ph", "Tc", "Ja", "Tm"]


@pytest.fixture(autouse=True)
def shipped_data():
    """The hand-worked figures assume the data as shipped (powers, prices, tiles, routes)."""
    cards = [(c["power"], c["price"], c["copies"]) for c in DATA["cards"]]
    if (cards[3:8] != [(2, 1, 3), (3, 3, 3), (5, 5, 3), (6, 3, 3), (3, 2, 3)]
            or DATA["routes"]["first-expedition"]["tiles"][0] != ["B", 0, 0, 2]
            or [(b["terrain"], b["power"]) for b in DATA["blockades"]] != [
                ("machete", 1), ("coin", 1), ("rubble", 1), ("paddle", 1), ("machete", 2), ("rubble", 2)]):
        pytest.skip("eldorado.json differs from the shipped values these tests were worked out on")


# ------------------------------------------------------------------------------------------
# building positions

def cards(text: str) -> list[str]:
    return [] if text in ("", "-") else [text[i:i + 2] for i in range(0, len(text), 2)]


def cset(items, order=CARD_ORDER) -> str:
    items = cards(items) if isinstance(items, str) else list(items)
    return "".join(sorted(items, key=order.index)) or "-"


def fields(text: str) -> dict[str, str]:
    """A position's or view's fields ."""
    return dict(tok.split("=", 1) for tok in text.split()[1:])


def build(*, players: int = 3, route: str = "first-expedition", caves: int = 0, max_rounds: int = 100,
          turn: int = 0, phase: str = "play", final: int = 0, pieces=None, blockades=None, held=None,
          hands=None, draws=None, discards=None, removed=None, played: str = "", market: str | None = None,
          tokens=None, piles=None, box: str = "", explored=None, coins: int = 0, bought: int = 0,
          lastcoin: str = "-", moving: str = "-", pay: str = "-", remove: int = 0, replace: str = "-",
          last: str = "-", flags: str = "-", rng: str = "0123456789abcdef", rest: str = "draws") -> str:
    """A full position text; per-seat arguments are lists of card texts (any order for sets, bottom
    to top for draws). A seat's starting cards not placed go to `rest` (draws: at the bottom)."""
    n = players
    r = ref.ROUTES[ref.ROUTE_NAMES.index(route)]
    to_move = turn % n
    hands = list(hands or [""] * n)
    draws = list(draws or [""] * n)
    discards = list(discards or [""] * n)
    removed = list(removed or [""] * n)
    for s in range(n):
        mine = Counter(cards(hands[s]) + cards(draws[s]) + cards(discards[s]) + cards(removed[s]))
        if s == to_move and phase != "over":
            mine.update(cards(played))
        extra = "".join(c for c, k in START.items() for _ in range(k - mine[c]))
        assert all(mine[c] <= k for c, k in START.items()), f"seat {s} has too many starting cards"
        if rest == "draws":
            draws[s] = extra + draws[s]
        elif rest == "discards":
            discards[s] += extra
        else:
            removed[s] += extra
    if market is None:
        used = Counter(cards(played))
        for s in range(n):
            used.update(cards(hands[s]) + cards(draws[s]) + cards(discards[s]) + cards(removed[s]))
        board, beside = [], []
        for code in CARD_ORDER[3:]:
            left = 3 - used[code]
            assert left >= 0, code
            if left:
                (board if code in ON_BOARD else beside).append(f"{code}{left}")
        market = ("".join(board) or "-") + "/" + ("".join(beside) or "-")
    if pieces is None:
        pieces = [[r.start[1], r.start[3]], [r.start[2], r.start[4]]] if n == 2 else [[r.start[s + 1]] for s in range(n)]
    blockades = blockades or ",".join(str(b) for b in range(1, r.connections + 1))
    held = held or ["-"] * n
    tokens = tokens or [""] * n
    piles = piles or ["-"] * len(r.caves)
    explored = explored or [",".join("-" for _ in p) for p in pieces]
    parts = [
        "eldorado", f"route={route}", f"caves={caves}", f"max_rounds={max_rounds}", f"players={n}",
        f"turn={turn}", f"phase={phase}", f"to_move={'-' if phase == 'over' else to_move}", f"final={final}",
        "pieces=" + "/".join(",".join(map(str, p)) for p in pieces), f"blockades={blockades}",
        "held=" + "/".join(held), f"market={market}",
        "hands=" + "/".join(cset(h) for h in hands), "draws=" + "/".join(d or "-" for d in draws),
        "discards=" + "/".join(cset(d) for d in discards), "removed=" + "/".join(cset(x) for x in removed),
        f"played={cset(played)}", "tokens=" + "/".join(cset(t, TOKEN_ORDER) for t in tokens),
        "cavepiles=" + ",".join(piles), f"box={cset(box, TOKEN_ORDER)}", "explored=" + "/".join(explored),
        f"coins={coins}", f"bought={bought}", f"lastcoin={lastcoin}", f"moving={moving}", f"pay={pay}",
        f"remove={remove}", f"replace={replace}", f"last={last}", f"flags={flags}", f"rng={rng}"]
    return " ".join(parts)


def game(**kw) -> ref.Game:
    g = ref.Game.from_text(build(**kw))
    assert g.to_text() == build(**kw)  # what was built is what is written back
    return g


def near(h: int, d: int, r: ref.Route = R0) -> int:
    """The neighbour of hex h in direction d (asserting it exists)."""
    n = r.neighbours[h][d]
    assert n is not None
    return n


def moves(g: ref.Game) -> list[str]:
    return [d for d in g.legal() if ">" in d]


def field(g: ref.Game, name: str) -> str:
    return fields(g.to_text())[name]


# ------------------------------------------------------------------------------------------
# the map

ROUTE_SIZES = {"first-expedition": (188, 3, 4), "hills-of-gold": (225, 4, 5), "winding-paths": (225, 5, 5),
               "witchs-cauldron": (225, 6, 5)}


def test_routes_in_option_order_and_their_sizes():
    assert ref.ROUTE_NAMES == tuple(ROUTE_SIZES)
    for r in ref.ROUTES:
        hexes, caves, connections = ROUTE_SIZES[r.name]
        assert (r.hexes, len(r.caves), r.connections) == (hexes, caves, connections)
        assert len(set(r.coords)) == r.hexes  # no two hexes on one place
        assert r.finishing == (hexes - 3, hexes - 2, hexes - 1)
        assert r.tile == [k for k in range(connections + 1) for _ in range(37)] + [-1] * 3
        assert r.caves == sorted(r.caves) and all(r.kind[h] == ref.CAVE for h in r.caves)
        for h in range(r.hexes):  # neighbours are symmetric
            for d, nb in enumerate(r.neighbours[h]):
                if nb is not None:
                    assert r.neighbours[nb][(d + 3) % 6] == h


def rot(q: int, r: int, times: int) -> tuple[int, int]:
    for _ in range(times):
        q, r = -r, q + r
    return q, r


def test_tile_placement_by_hand():
    # Tile B at (0,0) turned twice: (q,r) -> (-q-r, q). Row 0 (r=-3) has q = 0..3.
    assert [R0.coords[h] for h in range(4)] == [(3, 0), (2, 1), (1, 2), (0, 3)]
    assert [(R0.kind[h], R0.power[h]) for h in range(4)] == [("machete", 1), ("paddle", 1), ("camp", 1), ("paddle", 1)]
    # Tile C at (7,-3) turned 5 times: its first hex (0,-3) -> (-3,0) -> (4,-3).
    assert R0.coords[37] == (4, -3) and rot(0, -3, 5) == (-3, 0)
    # tile B's cave: row 1 (r=-2, q from -1), 4th token: (2,-2) -> (0,2); hex 4 + 3 = 7
    assert R0.kind[7] == ref.CAVE and R0.coords[7] == (0, 2)
    # start spaces: tile B's last row (r=3, q=-3..0) -> (0,-3), (-1,-2), (-2,-1), (-3,0) are 4, 3, 2, 1
    assert R0.start == {4: 33, 3: 34, 2: 35, 1: 36}
    assert [R0.coords[R0.start[k]] for k in (1, 2, 3, 4)] == [(-3, 0), (-2, -1), (-1, -2), (0, -3)]
    # witch's cauldron starts on tile A (not turned): left to right are 1..4
    wc = ref.ROUTES[3]
    assert wc.start == {1: 33, 2: 34, 3: 35, 4: 36} and wc.coords[33] == (-3, 3)


def test_finishing_spaces_by_hand():
    # first-expedition: El Dorado at (25,-5); its neighbours off the tiles touching tile K (centre
    # (21,-1)) are (24,-5) (direction 3) and (25,-4) (direction 5): not opposite, so the first two.
    assert [R0.coords[h] for h in R0.finishing] == [(25, -5), (24, -5), (25, -4)]
    assert all((R0.kind[h], R0.power[h]) == ("paddle", 1) for h in R0.finishing)  # side "w"
    hills = ref.ROUTES[1]  # side "j": jungle
    assert all((hills.kind[h], hills.power[h]) == ("machete", 1) for h in hills.finishing)
    for r in ref.ROUTES:
        last = r.connections
        for h in r.finishing[1:]:
            assert any(nb is not None and r.tile[nb] == last for nb in r.neighbours[h])


def test_finishing_spaces_beside_an_edge_are_an_opposite_pair():
    # a one-tile route (tile B unturned at the origin) with El Dorado at (4,-2), beside its edge
    # q = 3: (3,-2) and (3,-1) are tile hexes; (4,-3) (direction 2) and (4,-1) (direction 5) are not
    r = ref._build_route("test", {"tiles": [["B", 0, 0, 0]], "eldorado": [4, -2], "side": "j"})
    assert [r.coords[h] for h in r.finishing] == [(4, -2), (4, -3), (4, -1)]
    assert r.hexes == 40 and r.connections == 0 and r.kind[37] == "machete"


def test_connections_between_consecutive_tiles():
    # hex 9 (3,-2) of tile B borders tile C in directions 0 (hex 41) and 1 (hex 37)
    assert R0.crossing[9] == [0, 0, None, None, None, None]
    assert (R0.neighbours[9][0], R0.neighbours[9][1]) == (41, 37)
    for r in ref.ROUTES:
        borders = Counter()
        for h in range(r.hexes):
            for d, nb in enumerate(r.neighbours[h]):
                k = r.crossing[h][d]
                if k is not None:
                    assert sorted((r.tile[h], r.tile[nb])) == [k, k + 1]
                    borders[k] += 1
                elif nb is not None and r.tile[h] >= 0 and r.tile[nb] >= 0:
                    assert r.tile[h] == r.tile[nb] or abs(r.tile[h] - r.tile[nb]) > 1
        assert sorted(borders) == list(range(r.connections))


def test_every_start_space_reaches_el_dorado():
    for r in ref.ROUTES:
        for start in r.start.values():
            seen, todo = {start}, deque([start])
            while todo:
                h = todo.popleft()
                for nb in r.neighbours[h]:
                    if nb is not None and nb not in seen and r.enterable(nb):
                        seen.add(nb)
                        todo.append(nb)
            assert set(r.finishing) <= seen, (r.name, start)


# ------------------------------------------------------------------------------------------
# decision ids

def test_decision_id_layout():
    assert ref.N_DECISIONS == 509
    assert (ref.STEP_BASE, ref.PAY_BASE, ref.COIN_BASE, ref.BUY_BASE, ref.TRANSMIT_BASE, ref.ACTION_BASE,
            ref.REMOVE_BASE, ref.REPLACE_BASE, ref.REPLACE_END, ref.DISCARD_BASE, ref.END_ID) == \
        (348, 354, 375, 398, 416, 434, 444, 465, 486, 487, 508)
    assert ref.CARDS == CARD_ORDER and ref.TOKENS == TOKEN_ORDER
    assert ref.MOVE_SOURCES[21:] == ["m1", "m2", "m3", "p1", "p2", "c1", "c2", "nt"]
    g = game()
    for d in range(ref.STEP_BASE + 6, ref.N_DECISIONS):
        assert g.parse_decision(g.decision_to_text(d)) == d
    assert [g.decision_to_text(d) for d in (354, 375, 396, 397, 398, 433, 434, 443, 444, 486, 487, 508)] == \
        ["#Ex", "$Ex", "$c1", "$c2", "*Sc", "Tm*Na", "Cg!", "cs!", "xEx", "~.", "-Ex", "."]


def test_move_ids_name_source_piece_and_direction():
    g = game(players=2, pieces=[[18, 33], [34, 35]], hands=["TbTvSaEx", ""])
    # piece a on hex 18 (0,0): neighbours 11 j1, 17 v1, 24 w1, 25 j1, 19 v1, 12 j1
    assert R0.neighbours[18] == [11, 17, 24, 25, 19, 12]
    pairs = [p for p in g.legal_pairs() if ">" in p[1] and p[1][2] == "a"]
    assert pairs == [(0, "Exa>11"), (3, "Exa>25"), (5, "Exa>12"), (13, "Tva>17"), (16, "Tva>19"),
                     (26, "Saa>24"), (48, "Tba>11"), (51, "Tba>25"), (53, "Tba>12")]
    # piece b on start space 4 (hex 33): (s*2 + 1)*6 + d
    assert g.parse_decision("Exb>28") == 6 + R0.neighbours[33].index(28)
    for i, text in g.legal_pairs():
        assert g.parse_decision(text) == i and g.decision_to_text(i) == text


# ------------------------------------------------------------------------------------------
# dealing

class SM64:
    """SplitMix64 and Lemire's below written again from docs/notation.md, for an independent deal."""

    def __init__(self, x: int) -> None:
        self.x = x

    def next(self) -> int:
        self.x = (self.x + 0x9E3779B97F4A7C15) % 2**64
        z = self.x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        m = self.next() * n
        if m % 2**64 < n:
            t = (2**64 - n) % n
            while m % 2**64 < t:
                m = self.next() * n
        return m >> 64

    def shuffle(self, arr: list) -> list:
        for i in range(len(arr) - 1, 0, -1):
            j = self.below(i + 1)
            arr[i], arr[j] = arr[j], arr[i]
        return arr


TOKEN_COUNTS = [2, 3, 2, 2, 3, 2, 3, 4, 4, 3, 2, 2, 2, 2]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 77, 2**64 - 1])
@pytest.mark.parametrize("route, caves", [("first-expedition", 0), ("hills-of-gold", 1), ("witchs-cauldron", 1)])
def test_deal_matches_the_spec(players, seed, route, caves):
    g = ref.Game.new(seed, players=players, route=route, caves=caves)
    r = g.route
    gen = SM64(seed)
    blockades = gen.shuffle([1, 2, 3, 4, 5, 6])[:r.connections]
    piles, box = [[] for _ in r.caves], Counter()
    if caves:
        tokens = gen.shuffle([t for t, k in zip(TOKEN_ORDER, TOKEN_COUNTS) for _ in range(k)])
        piles = [tokens[4 * k:4 * k + 4] for k in range(len(r.caves))]
        box = Counter(tokens[4 * len(r.caves):])
    hands, draws = [], []
    for _ in range(players):
        deck = gen.shuffle(["Ex"] * 3 + ["Tv"] * 4 + ["Sa"])
        hands.append(Counter(deck[4:]))
        draws.append(deck[:4])
    assert g.blockades == blockades and g.cave_piles == piles and g.box == box
    assert g.hands == hands and g.draws == draws
    f = fields(g.to_text())
    assert f["rng"] == f"{gen.x:016x}"
    assert f["market"] == "Sc3Tb3Ph3Tc3Ja3Tm3/Pi3Gm3Ca3Jo3Mi3Ad3Pp3Cg3Si3Co3Tl3Na3"
    assert f["turn"] == "0" and f["to_move"] == "0" and f["final"] == "0"
    starts = [r.start[k] for k in ((1, 3, 2, 4) if players == 2 else range(1, players + 1))]
    assert [h for p in g.pieces for h in p] == starts
    assert g.history_text() == "-"


def test_new_game_options_and_players():
    g = ref.Game.new(3)
    assert g.players == 2 and g.options == {"route": 0, "caves": 0, "max_rounds": 100}
    assert g.to_text().startswith("eldorado route=first-expedition caves=0 max_rounds=100 players=2 turn=0 ")
    assert ref.Game.new(3, route="winding-paths").options["route"] == 2
    assert ref.Game.new(3, route=2).to_text() == ref.Game.new(3, route="winding-paths").to_text()
    for kw in ({"players": 1}, {"players": 5}, {"route": "nowhere"}, {"route": 4}, {"caves": 2},
               {"max_rounds": 0}, {"max_rounds": 1001}, {"caves": True}, {"speed": 1}):
        with pytest.raises(ValueError):
            ref.Game.new(1, **kw)
    with pytest.raises(ValueError):
        ref.Game.new(-1)


# ------------------------------------------------------------------------------------------
# moving: cards, leftover, steps, requirements

def test_move_with_leftover_then_steps_then_an_implicit_stop():
    g = game(pieces=[[18], [33], [34]], hands=["TbTvSaEx", "", ""])
    assert moves(g) == ["Ex>11", "Ex>25", "Ex>12", "Tv>17", "Tv>19", "Sa>24", "Tb>11", "Tb>25", "Tb>12"]
    g.apply("Tb>11")  # machete 3 onto j1: 2 machete left
    assert g.pieces[0] == [11] and field(g, "moving") == "am2" and field(g, "played") == "Tb"
    assert R0.neighbours[11] == [5, 10, 17, 18, 12, 6]
    steps = [p for p in g.legal_pairs() if p[1][0] == ">"]
    assert steps == [(348, ">5"), (351, ">18"), (352, ">12")]  # machete hexes of power <= 2
    g.apply(">5")
    assert g.pieces[0] == [5] and field(g, "moving") == "am1"
    g.apply("$Tv")  # any other decision stops the piece: the leftover is lost
    assert field(g, "moving") == "-" and not [d for d in g.legal() if d[0] == ">"]
    assert g.coins == 2 and g.history_text() == "Tb>11,>5,$Tv"


def test_leftover_zero_is_written_as_the_bare_piece():
    g = game(players=2, pieces=[[18, 33], [34, 35]], hands=["ExExTvTv", ""])
    g.apply("Exa>11")
    assert field(g, "moving") == "a" and not [d for d in g.legal() if d[0] == ">"]
    g.apply("Exb>28")  # the other piece: a stops, b moves
    assert field(g, "moving") == "b" and g.pieces[0] == [11, 28]


def test_symbol_power_joker_and_change_symbol():
    # hex 75 (tile N): j1 at 74, 79, 76; j2 at 80; w2 at 144, 145 across connection 2 (taken here)
    assert R0.neighbours[75] == [144, 74, 79, 80, 76, 145]
    kw = dict(pieces=[[75], [33], [34]], blockades="1,2,-,4", held=["-", "3", "-"])
    g = game(hands=["ExCaJaPh", "", ""], **kw)
    assert moves(g) == ["Ex>74", "Ex>79", "Ex>76", "Ca>144", "Ca>145", "Ja>74", "Ja>79", "Ja>76"]
    g = game(hands=["ExCaJaPh", "", ""], tokens=["cs", "", ""], caves=1, **kw)
    g.apply("cs!")
    assert field(g, "flags") == "s"
    # change symbol: any card of power >= 1 matches; powers still count
    assert moves(g) == ["Ex>74", "Ex>79", "Ex>76", "Ca>144", "Ca>74", "Ca>79", "Ca>80", "Ca>76", "Ca>145",
                        "Ph>144", "Ph>74", "Ph>79", "Ph>80", "Ph>76", "Ph>145", "Ja>74", "Ja>79", "Ja>76"]
    g.apply("Ph>80")  # a coin card as machete 2; the flag is cleared by the card
    assert field(g, "flags") == "-" and field(g, "moving") == "a" and field(g, "played") == "Ph"


def test_steps_need_the_leftover_power():
    # hex 76: j1 at 75, 81, 77 and j2 at 80
    assert R0.neighbours[76] == [145, 75, 80, 81, 77, 146]
    g = game(pieces=[[75], [33], [34]], hands=["ScTb", "", ""], blockades="1,2,-,4", held=["-", "3", "-"])
    g.apply("Sc>76")
    assert field(g, "moving") == "am1" and [d for d in g.legal() if d[0] == ">"] == [">75", ">81", ">77"]
    g = game(pieces=[[75], [33], [34]], hands=["ScTb", "", ""], blockades="1,2,-,4", held=["-", "3", "-"])
    g.apply("Tb>76")
    assert [d for d in g.legal() if d[0] == ">"] == [">75", ">80", ">81", ">77"]
    g.apply(">80")
    assert field(g, "moving") == "a" and not [d for d in g.legal() if d[0] == ">"]


def test_power_tokens_move_like_cards_and_are_spent():
    g = game(caves=1, pieces=[[18], [33], [34]], hands=["TvTvTvTv", "", ""], tokens=["m1p1c2", "", ""])
    assert moves(g) == ["Tv>17", "Tv>19", "m1>11", "m1>25", "m1>12", "p1>24", "c2>17", "c2>19"]
    assert g.parse_decision("m1>11") == (21 * 2) * 6 + 0 and g.parse_decision("c2>19") == (27 * 2) * 6 + 4
    g.apply("c2>17")
    assert field(g, "tokens") == "m1p1/-/-" and field(g, "moving") == "av1" and field(g, "played") == "-"
    assert ">10" in g.legal()  # v1 beside: the token's leftover steps on


def test_no_mountain_cave_or_start_space_and_no_occupied_hex():
    # hex 12: cave 7 in direction 5; hex 29: start spaces 33 and 34 in directions 2 and 3
    assert R0.neighbours[12][5] == 7 and R0.neighbours[29][2:4] == [33, 34]
    g = game(pieces=[[12], [11], [34]], hands=["NaExEx", "", ""])
    assert moves(g) == ["Ex>18", "Ex>13", "Na>6", "Na>18", "Na>19", "Na>13"]  # 11 is taken, 7 a cave
    g = game(pieces=[[29], [33], [23]], hands=["NaExEx", "", ""])
    assert moves(g) == ["Ex>28", "Ex>30", "Na>28", "Na>30", "Na>24"]  # 23 taken, 33/34 start spaces
    # the seat's own pieces block too (2 players)
    g = game(players=2, pieces=[[18, 11], [34, 35]], hands=["ExTvTvTv", ""])
    assert "Exa>11" not in g.legal() and "Exb>18" not in g.legal() and "Exa>25" in g.legal()


def test_pass_occupied():
    g = game(pieces=[[18], [11], [25]], hands=["TbTv", "", ""], tokens=["popo", "", ""], caves=1)
    assert "Tb>11" not in g.legal()
    g.apply("po!")
    assert field(g, "flags") == "p" and "po!" not in g.legal()
    assert "Tb>11" in g.legal() and "Tb>25" in g.legal()
    g.apply("Tb>11")
    assert ">18" in g.legal()  # the hex it left
    g.apply(">5")  # steps pass pieces too
    g.apply(">11")  # and stop on them
    assert g.pieces == [[11], [11], [25]]
    text = g.to_text()
    assert ref.Game.from_text(text).to_text() == text  # two pieces on one hex parse


# ------------------------------------------------------------------------------------------
# rubble, base camps, blockades, the Native

def test_rubble_payment_in_card_order():
    # hex 134 (tile I) is rubble 3; hex 128 is its neighbour in direction 5
    assert (R0.kind[134], R0.power[134]) == ("rubble", 3) and R0.neighbours[134][5] == 128
    d = R0.neighbours[128].index(134)
    g = game(pieces=[[128], [33], [34]], hands=["ExTvSaSc", "", ""])
    # X must be the smallest of 3 cards: Ex (4 cards >= Ex), Tv (3 cards >= Tv); not Sa, Sc
    assert [m for m in moves(g) if m.endswith(">134")] == ["Ex>134", "Tv>134"]
    assert g.parse_decision("Tv>134") == 12 + d
    g.apply("Tv>134")
    assert g.pieces[0] == [134] and field(g, "moving") == "a"
    assert (field(g, "pay"), field(g, "last"), field(g, "played")) == ("2r", "Tv", "Tv")
    assert g.legal() == ["#Sa"]  # Ex < Tv; Sc alone could not finish the payment
    g.apply("#Sa")
    assert (field(g, "pay"), field(g, "last"), field(g, "moving")) == ("1r", "Sa", "-")  # #X stops the piece
    assert g.legal() == ["#Sc"]
    g.apply("#Sc")
    assert (field(g, "pay"), field(g, "last"), field(g, "played")) == ("-", "-", "TvSaSc")
    assert g.hands[0] == Counter({"Ex": 1}) and "." in g.legal()


def test_rubble_needs_enough_cards_and_the_native_is_never_paid_first():
    g = game(pieces=[[128], [33], [34]], hands=["NaNaEx", "", ""])
    # Ex then Na, Na: legal; Na first would read as the Native's own move
    assert [m for m in moves(g) if m.endswith(">134")] == ["Ex>134", "Na>134"]
    g.apply("Ex>134")
    assert g.legal() == ["#Na"]
    g = game(pieces=[[128], [33], [34]], hands=["ExTv", "", ""])
    assert not [m for m in moves(g) if m.endswith(">134")]  # 2 cards for rubble 3


def test_base_camp_removes_the_cards_paid():
    # hex 2 (tile B) is a base camp 1, hex 6 its neighbour (direction 2 from 2)
    assert (R0.kind[2], R0.power[2]) == ("camp", 1) and R0.neighbours[6][5] == 2
    g = game(pieces=[[6], [33], [34]], hands=["ExTvSaTb", "", ""])
    assert [m for m in moves(g) if m.endswith(">2")] == ["Ex>2", "Tv>2", "Sa>2", "Tb>2"]
    g.apply("Tb>2")
    assert field(g, "removed") == "Tb/-/-" and field(g, "played") == "-" and field(g, "pay") == "-"
    # base camp 3 on tile I (hex 130), from hex 129 (direction 4)
    assert (R0.kind[130], R0.power[130]) == ("camp", 3) and R0.neighbours[129][4] == 130
    g = game(pieces=[[129], [33], [34]], hands=["ExExTvPi", "", ""])
    assert [m for m in moves(g) if m.endswith(">130")] == ["Ex>130"]
    g.apply("Ex>130")
    assert field(g, "pay") == "2c" and g.legal() == ["#Ex", "#Tv"]
    g.apply("#Tv")
    assert g.legal() == ["#Pi"]
    g.apply("#Pi")
    assert field(g, "removed") == "ExTvPi/-/-" and g.hands[0] == Counter({"Ex": 1})


def test_blockade_is_paid_kept_and_the_piece_stays():
    # hex 9 borders connection 0 in directions 0 (41) and 1 (37): one decision, direction 0
    g = game(pieces=[[9], [33], [34]], hands=["ExScTbSa", "", ""], blockades="5,1,2,3", held=["-", "-", "-"])
    assert moves(g) == ["Ex>16", "Ex>4", "Sa>15", "Sc>B5", "Sc>16", "Sc>4", "Tb>B5", "Tb>16", "Tb>4"]
    assert g.parse_decision("Tb>B5") == 48 and g.decision_to_text(48) == "Tb>B5"
    g.apply("Tb>B5")  # machete 2 paid with machete 3
    assert g.pieces[0] == [9] and field(g, "blockades") == "-,1,2,3" and field(g, "held") == "5/-/-"
    assert field(g, "moving") == "am1"
    assert [d for d in g.legal() if d[0] == ">"] == [">41", ">37", ">16", ">4"]  # across the open border
    g.apply(">41")
    assert g.pieces[0] == [41] and field(g, "moving") == "a"


def test_blockade_by_a_step():
    # Pioneer (machete 5) from hex 16 onto 9: 4 left; the step pays blockade 1 (machete 1)
    g = game(pieces=[[16], [33], [34]], hands=["PiTvTvTv", "", ""], blockades="1,5,2,3", held=["-", "-", "-"])
    g.apply("Pi>9")
    assert field(g, "moving") == "am4" and ">B1" in g.legal()
    assert g.parse_decision(">B1") == 348
    g.apply(">B1")
    assert field(g, "moving") == "am3" and field(g, "held") == "1/-/-" and g.pieces[0] == [9]


def test_rubble_blockade_and_its_payment():
    g = game(pieces=[[9], [33], [34]], hands=["ExTvScSc", "", ""], blockades="6,1,2,3", held=["-", "-", "-"])
    assert [m for m in moves(g) if "B" in m] == ["Ex>B6", "Tv>B6", "Sc>B6"]
    g.apply("Sc>B6")
    assert (field(g, "pay"), field(g, "last"), field(g, "held"), field(g, "moving")) == ("1r", "Sc", "6/-/-", "a")
    assert g.legal() == ["#Sc"] and g.pieces[0] == [9]
    g.apply("#Sc")
    assert field(g, "played") == "ScSc" and field(g, "pay") == "-" and field(g, "last") == "-"
    # rubble 1 (blockade 3): one card, no payment owed
    g = game(pieces=[[9], [33], [34]], hands=["ExTvScSc", "", ""], blockades="3,1,2,5", held=["-", "-", "-"])
    g.apply("Ex>B3")
    assert field(g, "pay") == "-" and field(g, "held") == "3/-/-" and field(g, "played") == "Ex"


def test_native_ignores_requirements_and_tears_down_blockades():
    g = game(pieces=[[128], [33], [34]], hands=["NaExEx", "", ""])
    g.apply("Na>134")  # rubble 3 entered without paying
    assert field(g, "pay") == "-" and field(g, "moving") == "a" and field(g, "played") == "Na"
    assert g.hands[0] == Counter({"Ex": 2})
    g = game(pieces=[[9], [33], [34]], hands=["ExEx", "", ""], tokens=["nt", "", ""], caves=1,
             blockades="6,1,2,3", held=["-", "-", "-"])
    assert "nt>B6" in g.legal() and g.parse_decision("nt>B6") == 28 * 2 * 6
    g.apply("nt>B6")
    assert field(g, "held") == "6/-/-" and field(g, "pay") == "-" and field(g, "tokens") == "-/-/-"
    assert field(g, "moving") == "a" and g.pieces[0] == [9]


def test_no_blockade_target_away_from_a_border():
    g = game(pieces=[[18], [33], [34]], hands=["NaExEx", "", ""], blockades="5,1,2,3")
    assert not [m for m in moves(g) if "B" in m]  # hex 18 touches no border


# ------------------------------------------------------------------------------------------
# items and keep item

def test_items_are_removed_when_their_function_is_used():
    g = game(pieces=[[18], [33], [34]], hands=["GmTcPpEx", "ScScSc", ""])  # an empty slot: prices to 5
    g.apply("Gm>11")
    assert field(g, "removed") == "Gm/-/-" and field(g, "played") == "-" and field(g, "moving") == "am5"
    g.apply("$Tc")  # coin 4: its power: removed
    assert g.coins == 8 and field(g, "removed") == "GmTc/-/-"
    g.apply("$Pp")  # joker 4 as coins: removed
    assert g.coins == 16 and field(g, "removed") == "GmTcPp/-/-"


def test_items_not_used_for_their_function_are_played():
    # Gm (and any item) for 1/2 coin or paying rubble goes to the played cards
    g = game(pieces=[[128], [33], [34]], hands=["GmTmCoPp", "", ""])
    g.apply("$Gm")
    g.apply("$Tm")
    g.apply("$Co")
    assert g.coins == 3 and field(g, "played") == "GmTmCo" and field(g, "removed") == "-/-/-"
    g = game(pieces=[[128], [33], [34]], hands=["GmGmGmEx", "", ""])
    g.apply("Gm>134")
    g.apply("#Gm")
    g.apply("#Gm")
    assert field(g, "played") == "GmGmGm" and field(g, "removed") == "-/-/-"


def test_keep_item():
    g = game(pieces=[[18], [33], [34]], hands=["GmTcEx", "", ""], tokens=["kiki", "", ""], caves=1)
    assert "ki!" in g.legal()
    g.apply("ki!")
    assert field(g, "flags") == "k" and field(g, "tokens") == "ki/-/-" and "ki!" not in g.legal()
    g.apply("Gm>11")  # kept: played, the flag used up
    assert field(g, "played") == "Gm" and field(g, "removed") == "-/-/-" and field(g, "flags") == "-"
    g.apply("$Tc")  # the next item is removed again
    assert field(g, "removed") == "Tc/-/-"


def test_change_symbol_is_cleared_by_the_next_card_played_only():
    g = game(caves=1, hands=["ExTvSaPi", "", ""], tokens=["rmcscs", "", ""])
    g.apply("cs!")
    g.apply("rm!")
    g.apply("xEx")  # a removal plays no card
    assert field(g, "flags") == "s"
    g.apply("-Tv")  # nor does a discard
    assert field(g, "flags") == "s" and g.phase == "discard"
    g = game(caves=1, hands=["ExTvSaPi", "", ""], tokens=["rhcs", "", ""])
    g.apply("cs!")
    g.apply("rh!")
    assert field(g, "flags") == "s"
    g.apply("~Ex")  # a replaced card is played
    assert field(g, "flags") == "-"
    g = game(caves=1, pieces=[[128], [33], [34]], hands=["ExTvSaPi", "", ""], tokens=["cs", "", ""])
    g.apply("cs!")
    g.apply("Ex>134")  # the rubble's first card is played: cleared
    assert field(g, "flags") == "-" and field(g, "pay") == "2r"


def test_change_symbol_for_coins():
    g = game(pieces=[[18], [33], [34]], hands=["ExGmCa", "", ""], tokens=["cscsc1", "", ""], caves=1)
    g.apply("cs!")
    g.apply("$Ex")  # power 1 instead of 1/2; the card clears the flag
    assert g.coins == 2 and field(g, "flags") == "-" and field(g, "played") == "Ex"
    g.apply("cs!")
    g.apply("$c1")  # a token is not a card: the flag stays
    assert g.coins == 4 and field(g, "flags") == "s"
    g = game(pieces=[[18], [33], [34]], hands=["ExGmCa", "", ""], tokens=["cs", "", ""], caves=1)
    g.apply("cs!")
    g.apply("$Gm")  # machete 6 as coin 6: its function, so removed
    assert g.coins == 12 and field(g, "removed") == "Gm/-/-" and field(g, "flags") == "-"


# ------------------------------------------------------------------------------------------
# coins, buying, the market

def test_coins_in_card_order_tokens_last():
    g = game(pieces=[[18], [33], [34]], hands=["ExTvSaPh", "", ""], tokens=["c1c2", "", ""], caves=1)
    coins = [p for p in g.legal_pairs() if p[1][0] == "$"]
    assert coins == [(375, "$Ex"), (376, "$Tv"), (377, "$Sa"), (383, "$Ph"), (396, "$c1"), (397, "$c2")]
    g.apply("$Tv")
    assert [d for d in g.legal() if d[0] == "$"] == ["$Sa", "$Ph", "$c1", "$c2"]
    assert field(g, "lastcoin") == "Tv" and g.coins == 2
    g.apply("$c1")
    assert [d for d in g.legal() if d[0] == "$"] == ["$c2"]
    g.apply("$c2")
    assert g.coins == 8 and field(g, "played") == "Tv" and field(g, "tokens") == "-/-/-"
    g.apply("*Tm")
    assert field(g, "lastcoin") == "c2" and field(g, "coins") == "0"  # kept until the turn ends
    g.apply(".")
    assert field(g, "lastcoin") == "-" and field(g, "bought") == "0"


def test_coins_only_while_some_buyable_card_costs_more():
    # board Sc Tb Ph Tc Ja Tm* the dearest is 4 (8 half coins)
    g = game(hands=["ExTvSaPh", "", ""], coins=7, played="TvTvTvEx")
    assert "$Ex" in g.legal() and "*Tm" not in g.legal() and "*Tc" in g.legal()
    g = game(hands=["ExExSaPh", "", ""], coins=8, played="TvTvTvTv")
    assert not [d for d in g.legal() if d[0] == "$"] and "*Tm" in g.legal()
    g.apply("*Tm")  # unspent coins are lost; no more coins after a purchase
    assert (g.coins, g.bought, field(g, "lastcoin")) == (0, True, "-")
    assert not [d for d in g.legal() if d[0] in "$*"] and field(g, "discards") == "Tm/-/-"
    # with an empty slot the piles beside count: Pi, Mi, Na cost 5
    g = game(hands=["ExExSaPh", "ScScSc", ""], coins=8, played="TvTvTvTv")
    assert field(g, "market").startswith("Tb3Ph2Tc3Ja3Tm3/") and "$Ex" in g.legal()


def test_buying_from_beside_while_a_slot_is_empty():
    g = game(hands=["Ex", "ScScSc", ""], coins=10)
    assert field(g, "market") == "Tb3Ph3Tc3Ja3Tm3/Pi3Gm3Ca3Jo3Mi3Ad3Pp3Cg3Si3Co3Tl3Na3"
    buys = [d for d in g.legal() if d[0] == "*"]
    assert buys == ["*" + c for c in CARD_ORDER[4:]]  # every pile, Sc is empty
    g.apply("*Pi")
    assert field(g, "market") == "Tb3Pi2Ph3Tc3Ja3Tm3/Gm3Ca3Jo3Mi3Ad3Pp3Cg3Si3Co3Tl3Na3"
    assert field(g, "discards") == "Pi/-/-" and g.coins == 0
    # the board is full again: only its piles
    g = game(hands=["Ex", "ScScSc", "Pi"], coins=10, market="Tb3Pi2Ph3Tc3Ja3Tm3/Gm3Ca3Jo3Mi3Ad3Pp3Cg3Si3Co3Tl3Na3")
    assert [d for d in g.legal() if d[0] == "*"] == ["*Tb", "*Pi", "*Ph", "*Tc", "*Ja", "*Tm"]
    # no empty slot: beside piles are out of reach even with coins enough
    g = game(hands=["Ex", "", ""], coins=10)
    assert [d for d in g.legal() if d[0] == "*"] == ["*Sc", "*Tb", "*Ph", "*Tc", "*Ja", "*Tm"]
    # buying a board pile's last card empties a slot
    g = game(hands=["Ex", "ScSc", ""], coins=2)
    g.apply("*Sc")
    assert field(g, "market") == "Tb3Ph3Tc3Ja3Tm3/Pi3Gm3Ca3Jo3Mi3Ad3Pp3Cg3Si3Co3Tl3Na3"


def test_transmitter():
    g = game(hands=["TmEx", "", ""], coins=0)
    assert [d for d in g.legal() if d.startswith("Tm*")] == ["Tm*" + c for c in CARD_ORDER[3:]]
    assert g.parse_decision("Tm*Pi") == 416 + 2
    g.apply("Tm*Pi")  # no empty slot: the pile stays beside
    assert field(g, "market").endswith("/Pi2Gm3Ca3Jo3Mi3Ad3Pp3Cg3Si3Co3Tl3Na3")
    assert field(g, "discards") == "Pi/-/-" and field(g, "removed") == "Tm/-/-" and field(g, "played") == "-"
    g = game(hands=["TmEx", "", ""], coins=2)
    g.apply("Tm*Pi")
    assert not g.bought and "*Sc" in g.legal()  # transmitting is no purchase
    # not a purchase: buy, then transmit; a pile beside moves onto an empty slot
    g = game(hands=["TmTvTv", "ScScSc", ""], coins=4, tokens=["ki", "", ""], caves=1)
    g.apply("*Ph")
    assert g.bought and "Tm*Na" in g.legal()
    g.apply("ki!")
    g.apply("Tm*Na")
    assert field(g, "market") == "Tb3Ph2Tc3Ja3Tm2Na2/Pi3Gm3Ca3Jo3Mi3Ad3Pp3Cg3Si3Co3Tl3"  # Tm* seat 0's
    assert field(g, "played") == "Tm" and field(g, "flags") == "-" and field(g, "discards") == "PhNa/-/-"


# ------------------------------------------------------------------------------------------
# actions, removal rights, draws, reshuffles

def test_cartographer_draws_two_and_the_record_shows_them_to_the_mover_only():
    g = game(hands=["CgEx", "", ""], draws=["SaTbPi", "", ""])  # bottom ... top: Pi is drawn first
    g.apply("Cg!")
    assert g.revealed == ("Pi", "Tb") and field(g, "played") == "Cg"
    assert g.hands[0] == Counter({"Ex": 1, "Pi": 1, "Tb": 1})
    assert g.history_text() == "Cg!:PiTb" and g.history_text(0) == "Cg!:PiTb" and g.history_text(1) == "Cg!"
    assert g.view_text(0).endswith("history=Cg!:PiTb") and g.view_text(2).endswith("history=Cg!")


def test_scientist_compass_travel_log_and_removal_rights():
    g = game(hands=["SiExTv", "", ""], draws=["Sa", "", ""])
    g.apply("Si!")
    assert field(g, "remove") == "1" and g.revealed[-1] == "Sa" and field(g, "played") == "Si"
    assert [d for d in g.legal() if d[0] == "x"] == ["xEx", "xTv", "xSa"]
    g.apply("xTv")
    assert (field(g, "remove"), field(g, "last"), field(g, "removed")) == ("0", "-", "Tv/-/-")
    assert not [d for d in g.legal() if d[0] == "x"]
    g = game(hands=["TlExExTv", "", ""], draws=["", "", ""], discards=["", "", ""], rest="removed")
    g.apply("Tl!")  # nothing to draw: draws nothing; removed (an item); right of 2
    assert g.revealed == () and g.history_text() == "Tl!" and field(g, "played") == "-"
    assert field(g, "remove") == "2" and field(g, "removed").split("/")[0] == "ExTvTvTvSaTl"
    g.apply("xEx")
    assert (field(g, "remove"), field(g, "last")) == ("1", "Ex")
    assert [d for d in g.legal() if d[0] == "x"] == ["xEx", "xTv"]
    g.apply("-Tv")  # any other decision ends the right
    assert (field(g, "remove"), field(g, "last")) == ("0", "Tv")  # last: now the discard's
    g = game(hands=["CoEx", "", ""], draws=["TvSaEx", "", ""])
    g.apply("Co!")
    assert g.revealed == ("Ex", "Sa", "Tv") and field(g, "removed") == "Co/-/-" and field(g, "remove") == "0"


def test_removal_right_ended_by_another_decision():
    g = game(hands=["SiExTv", "", ""], draws=["Sa", "", ""])
    g.apply("Si!")
    g.apply("$Ex")
    assert field(g, "remove") == "0" and not [d for d in g.legal() if d[0] == "x"]


def test_reshuffle_uses_the_position_generator():
    g = game(hands=["CgEx", "", ""], draws=["-", "", ""], discards=["PiExExTvTv", "", ""],
             played="", rest="discards", rng="00000000000000ff")
    # seat 0: discards hold Pi, the rest of its starting cards (Ex Tv Tv Sa)... all but the hand
    pile = sorted(cards(field(g, "discards").split("/")[0]), key=CARD_ORDER.index)
    gen = SM64(0xFF)
    order = gen.shuffle(list(pile))
    g.apply("Cg!")
    assert g.revealed == (order[-1], order[-2])
    assert g.draws[0] == order[:-2] and field(g, "discards").split("/")[0] == "-"
    assert field(g, "rng") == f"{gen.x:016x}"


def test_end_of_turn_draws_to_four_reshuffling_the_played_cards_in():
    g = game(hands=["ExTv", "", ""], draws=["Sa", "", ""], played="", rest="discards", rng="0000000000000001")
    g.apply("$Ex")
    # draw pile: Sa; then the discard pile (ExTvTvTv... and the played Ex) is reshuffled
    discard = sorted(cards(field(g, "discards").split("/")[0]) + ["Ex"], key=CARD_ORDER.index)
    gen = SM64(1)
    order = gen.shuffle(list(discard))
    g.apply(".")
    assert g.revealed == ("Sa", order[-1], order[-2])
    assert sum(g.hands[0].values()) == 4 and g.to_move == 1 and g.turn == 1
    assert g.history_text(0) == "$Ex,.:Sa" + order[-1] + order[-2] and g.history_text(1) == "$Ex,."


def test_a_hand_of_four_or_more_draws_nothing():
    g = game(hands=["CgExExTv", "", ""], draws=["TvTvSaPi", "", ""])
    g.apply("Cg!")
    assert sum(g.hands[0].values()) == 5
    g.apply(".")
    assert g.revealed == () and sum(g.hands[0].values()) == 5 and g.history_text() == "Cg!:PiSa,."


def test_drawing_stops_when_both_piles_are_empty():
    g = game(hands=["ExExExTv", "", ""], rest="removed")
    g.apply("$Ex")
    g.apply("-Ex")
    g.apply(".")  # discards Ex + played Ex are reshuffled: 2 cards to draw, both there
    assert sum(g.hands[0].values()) == 4
    g = game(hands=["CoExEx", "", ""], rest="removed")
    g.apply("Co!")
    assert g.revealed == () and sum(g.hands[0].values()) == 2


# ------------------------------------------------------------------------------------------
# cave tokens

CAVE_PILES = ["m1drrhki", "p1p2c1c2", "m2m2m3m3"]


def test_a_stop_next_to_a_cave_takes_its_top_token_once():
    # cave 0 is hex 7; 12 and 13 are next to it, 18 and 11 are not
    assert R0.caves == [7, 55, 132] and R0.cave_adjacent[12] == {0} and R0.cave_adjacent[13] == {0}
    assert not R0.cave_adjacent[18] and not R0.cave_adjacent[11]
    g = game(caves=1, pieces=[[18], [33], [34]], hands=["ExExTvTv", "", ""], piles=CAVE_PILES)
    g.apply("Ex>12")
    assert field(g, "tokens") == "-/-/-"  # not stopped yet
    g.apply("$Tv")  # the stop: the top token (ki) of cave 0
    assert field(g, "tokens") == "ki/-/-" and field(g, "explored") == "a/-/-"
    assert field(g, "cavepiles") == "m1drrh,p1p2c1c2,m2m2m3m3" and "ki!" in g.legal()
    g.apply("Ex>13")  # along the cave: nothing more
    g.apply(".")
    assert field(g, "tokens") == "ki/-/-" and field(g, "explored") == "a/-/-"
    g = game(caves=1, pieces=[[13], [33], [34]], hands=["ExEx", "", ""], piles=CAVE_PILES,
             explored=["a", "-", "-"])
    assert R0.neighbours[13][3] == 20 and not R0.cave_adjacent[20]
    g.apply("Ex>20")
    g.apply(".")  # stopped away from it: explored no more
    assert field(g, "explored") == "-/-/-"


def test_caves_off_keeps_no_explored_bits():
    g = game(pieces=[[18], [33], [34]], hands=["ExExTvTv", "", ""])
    g.apply("Ex>12")
    g.apply(".")
    assert field(g, "explored") == "-/-/-" and field(g, "tokens") == "-/-/-"


def test_a_token_found_in_a_stop_is_not_the_source_of_the_stopping_decision():
    g = game(caves=1, pieces=[[18], [33], [34]], hands=["ExExTvTv", "", ""], piles=["m1drrhm1", "-", "-"])
    g.apply("Ex>12")
    assert "m1>13" not in g.legal()
    with pytest.raises(ValueError):
        g.apply("m1>13")
    g.apply("$Tv")
    assert "m1>13" in g.legal()


def test_tokens_draw_remove_and_flags():
    g = game(caves=1, hands=["ExTv", "", ""], draws=["SaPi", "", ""], tokens=["drrmkipocs", "", ""])
    assert [d for d in g.legal() if d.endswith("!")] == ["dr!", "rm!", "ki!", "po!", "cs!"]
    g.apply("dr!")
    assert g.revealed == ("Pi",) and g.history_text() == "dr!:Pi"
    g.apply("rm!")
    assert field(g, "remove") == "1" and [d for d in g.legal() if d[0] == "x"] == ["xEx", "xTv", "xPi"]
    g.apply("xPi")
    assert field(g, "removed") == "Pi/-/-"
    g.apply("ki!")
    g.apply("po!")
    g.apply("cs!")
    assert field(g, "flags") == "kps" and field(g, "tokens") == "-/-/-"
    g.apply(".")
    assert field(g, "flags") == "-"


def test_remove_and_replace_tokens_need_a_hand():
    g = game(caves=1, hands=["", "", ""], tokens=["rmrh", "", ""], rest="discards")
    assert "rm!" not in g.legal() and "rh!" not in g.legal()


def test_replace_hand():
    g = game(caves=1, hands=["ExTvTvSaPiPi", "", ""], draws=["ExTbCaJo", "", ""], tokens=["rh", "", ""],
             rest="discards")
    g.apply("rh!")
    assert field(g, "replace") == "0"
    assert g.legal() == ["~Ex", "~Tv", "~Sa", "~Pi", "~."]
    g.apply("~Tv")
    assert g.legal() == ["~Tv", "~Sa", "~Pi", "~."] and field(g, "last") == "Tv"
    g.apply("~Tv")
    g.apply("~Sa")
    g.apply("~Pi")
    assert field(g, "replace") == "4" and g.legal() == ["~."]  # at most 4 (Pi is left, and >= Pi)
    assert g.hands[0] == Counter({"Ex": 1, "Pi": 1})
    g.apply("~.")
    assert g.revealed == ("Jo", "Ca", "Tb", "Ex") and field(g, "replace") == "-" and field(g, "last") == "-"
    assert field(g, "played") == "TvTvSaPi" and g.history_text(1) == "rh!,~Tv,~Tv,~Sa,~Pi,~."


# ------------------------------------------------------------------------------------------
# the discard phase and the end of a turn

def test_discard_phase():
    g = game(hands=["ExTvSaPh", "", ""], draws=["ScScPi", "", ""], moving="-")
    g.apply("-Tv")
    assert g.phase == "discard" and field(g, "last") == "Tv"
    assert g.legal() == ["-Sa", "-Ph", "."]
    g.apply("-Ph")
    assert g.legal() == ["."]
    g.apply(".")
    assert g.revealed == ("Pi", "Sc") and field(g, "discards").split("/")[0] == "TvPh"
    assert g.phase == "play" and g.to_move == 1 and field(g, "last") == "-"


def test_discard_stops_the_moving_piece():
    g = game(caves=1, pieces=[[18], [33], [34]], hands=["ExTvSa", "", ""], piles=CAVE_PILES)
    g.apply("Ex>12")
    g.apply("-Sa")
    assert field(g, "moving") == "-" and field(g, "tokens") == "ki/-/-"


# ------------------------------------------------------------------------------------------
# the end of the game

FINISH = 185  # first-expedition's middle finishing space; hex 151 is next to it (paddle 1)


def test_reaching_el_dorado_sets_the_final_round():
    assert R0.neighbours[151][1] == FINISH and R0.neighbours[150][1] == 186
    g = game(turn=1, pieces=[[18], [151], [33]], hands=["", "SaEx", ""])
    g.apply("Sa>185")
    assert g.pieces[1] == ["E"] and field(g, "final") == "1" and field(g, "moving") == "-"
    assert field(g, "pieces") == "18/E/33" and g.finished(1)
    g.apply(".")
    assert g.to_move == 2 and not g.is_over()  # the round is completed
    g.apply(".")  # the last turn of the game still draws
    assert g.revealed and g.history(2)[-1] == ".:" + "".join(g.revealed) and g.history(0)[-1] == "."
    assert g.is_over() and g.to_move is None and g.phase == "over" and g.turn == 3
    assert g.returns() == [0.0, 1.0, 0.0] and g.scores() == [0, 2, 0] and g.legal() == []
    f = fields(g.to_text())
    assert (f["to_move"], f["played"], f["moving"], f["coins"]) == ("-", "-", "-", "0")
    assert ref.Game.from_text(g.to_text()).to_text() == g.to_text()
    with pytest.raises(ValueError, match="over"):
        g.apply(".")


def test_the_last_seat_finishing_ends_the_game_at_once():
    g = game(turn=5, pieces=[[18], [33], [151]], hands=["", "", "Sa"])
    g.apply("Sa>185")
    g.apply(".")
    assert g.is_over() and g.returns() == [0.0, 0.0, 1.0]


def test_two_players_need_both_pieces_on_el_dorado():
    g = game(players=2, pieces=[[151, 150], [33, 34]], hands=["SaCaEx", ""])
    assert "Saa>185" in g.legal() and "Cab>186" in g.legal()
    g.apply("Saa>185")
    assert field(g, "final") == "0" and not g.finished(0) and field(g, "pieces") == "E,150/33,34"
    assert not [d for d in g.legal() if d.startswith("Exa")]  # piece a is off the map
    g.apply("Cab>186")
    assert field(g, "final") == "1" and g.finished(0)
    g.apply(".")
    assert not g.is_over()
    g.apply(".")
    assert g.is_over() and g.returns() == [1.0, 0.0]


def _finish(held: list[str], blockades: str, finishers: list[int]) -> ref.Game:
    """3 players, seat 2 ends the final round; the seats in `finishers` are on El Dorado."""
    pieces = [["E"] if s in finishers else [[18], [33], [34]][s] for s in range(3)]
    g = game(turn=5, final=1, pieces=pieces, held=held, blockades=blockades)
    g.apply(".")
    assert g.is_over()
    return g


def test_tie_break_most_blockades():
    g = _finish(["1,2", "5", "-"], "-,-,-,3", [0, 1])
    assert g.returns() == [1.0, 0.0, 0.0]


def test_tie_break_best_blockade_power_then_number():
    assert _finish(["1", "4", "-"], "-,-,2,3", [0, 1]).returns() == [0.0, 1.0, 0.0]  # both power 1: number 4
    assert _finish(["6", "4", "-"], "-,-,2,3", [0, 1]).returns() == [1.0, 0.0, 0.0]  # power 2
    assert _finish(["-", "-", "3"], "1,2,4,-", [0, 1]).returns() == [0.5, 0.5, 0.0]  # shared
    # a seat not on El Dorado gets nothing, whatever it holds
    assert _finish(["-", "-", "5,6"], "1,2,-,-", [0, 1]).returns() == [0.5, 0.5, 0.0]
    assert _finish(["-", "5", "6"], "1,2,-,-", [0, 1, 2]).returns() == [0.0, 0.0, 1.0]


def test_max_rounds_ends_in_a_draw():
    g = game(players=2, max_rounds=2, turn=2, hands=["Ex", "Ex"])
    g.apply(".")
    assert not g.is_over() and g.turn == 3
    g.apply(".")
    assert g.is_over() and g.turn == 4 and g.returns() == [0.5, 0.5]
    g = game(players=4, max_rounds=1, turn=3, hands=["", "", "", "Tv"])
    g.apply(".")
    assert g.is_over() and g.returns() == [0.25] * 4


# ------------------------------------------------------------------------------------------
# legality and bad input

def test_illegal_or_malformed_decisions_leave_the_state():
    g = ref.Game.new(4, players=3)
    text = g.to_text()
    for bad in ["*Pi", "#Ex", ">5", "Exa>31", "xEx", "~.", "Ex>0", "Tm*Sc", "dr!", "zz", "", None, 12.0,
                "Ex>B7", "-Zz", "$c3", ".:ExTv"]:
        with pytest.raises(ValueError):
            g.apply(bad)
        assert g.to_text() == text
    for bad in ["zz", "", "-Zz", "$c3", ".:ExTv", "Ex>", "Cg", "Ex>B", "Ex>057"]:
        with pytest.raises(NotationError):
            g.apply(bad)
    with pytest.raises(ValueError):
        g.apply(999)
    g.apply(508)  # an id works as well as its text
    assert g.history_text() == "."


def test_every_seat_to_move_has_a_legal_decision_and_texts_are_unique():
    rnd = random.Random(1)
    for seed in range(8):
        g = ref.Game.new(seed, players=2 + seed % 3, route=seed % 4, caves=seed % 2)
        for _ in range(400):
            if g.is_over():
                break
            legal = g.legal()
            assert legal and len(set(legal)) == len(legal)
            g.apply(rnd.choice(legal))


# ------------------------------------------------------------------------------------------
# positions and views as text

def _policy(g: ref.Game, rnd: random.Random) -> str:
    """Random, with a pull towards moving, buying and acting, so that games get somewhere."""
    legal = g.legal()
    busy = [d for d in legal if ">" in d or d[0] in "*#~x" or d.endswith("!") or d.startswith("Tm*")]
    return rnd.choice(busy if busy and rnd.random() < 0.7 else legal)


def _strip(view: str) -> str:
    return view.rsplit(" history=", 1)[0]


@pytest.mark.parametrize("route", ref.ROUTE_NAMES)
def test_round_trips_of_positions_and_views_over_random_games(route):
    rnd = random.Random(route)
    for k in range(9):
        players, caves = 2 + k % 3, k % 2 if k < 6 else 1 - k % 2
        g = ref.Game.new(k, players=players, route=route, caves=caves, max_rounds=rnd.choice((100, 20)))
        step = 0
        while True:
            if step % 11 == 0 or g.is_over():
                text = g.to_text()
                assert ref.Game.from_text(text).to_text() == text
                for seat in range(players):
                    view = g.view_text(seat)
                    h, s, history = ref.Game.parse_view(view)
                    assert s == seat and history == g.history(seat)
                    assert _strip(h.view_text(seat)) == _strip(view)
                    assert h.legal() == g.legal() or seat != g.to_move
            if g.is_over():
                break
            if step % 37 == 5:  # a copy is independent and equal
                c, before = g.copy(), g.to_text()
                assert c.to_text() == before and c.history() == g.history()
                c.apply(c.legal()[0])
                assert g.to_text() == before and c.history() != g.history()
            for i, text in g.legal_pairs():
                assert g.parse_decision(text) == i and g.decision_to_text(i) == text
            g.apply(_policy(g, rnd))
            step += 1


def test_view_fields():
    g = game(caves=1, hands=["CgEx", "TvTv", "Sa"], draws=["TbPi", "", ""], piles=["m1dr", "-", "p1"],
             box="cs", tokens=["", "ki", ""])
    g.apply("Cg!")
    v = fields(g.view_text(1))
    assert v["seat"] == "1" and "rng" not in v and "box" not in v
    assert v["hands"] == "?3/TvTv/?1"
    assert v["draws"] == "7/6/7"  # 9 - 2 drawn; 8 - 2 in hand; 8 - 1
    # another seat's hand and draw pile together; the viewer's own draw pile
    assert v["unseen"] == "ExExExTvTvTvTvSaTbPi/ExExExTvTvSa/ExExExTvTvTvTvSa"
    assert v["cavepiles"] == "2,0,1" and v["cavepool"] == "m1p1drcs" and v["history"] == "Cg!"
    assert v["tokens"] == "-/ki/-" and v["played"] == "Cg"
    assert fields(g.view_text(0))["history"] == "Cg!:PiTb"
    # the view parsed: unseen cards fill the hand, then the draw pile from the bottom
    h, seat, history = ref.Game.parse_view(g.view_text(1))
    assert (seat, history) == (1, ["Cg!"]) and field(h, "rng") == "0" * 16
    assert cset(h.hands[0].elements()) == "ExExEx"  # the first 3 unseen cards of seat 0
    assert h.hands[1] == g.hands[1] and sorted(h.draws[1]) == sorted(g.draws[1])
    assert h.cave_piles == [["m1", "p1"], [], ["dr"]] and h.box == Counter({"cs": 1})


def test_views_of_a_fresh_game_parse_back():
    for players in (2, 3, 4):
        g = ref.Game.new(9, players=players, caves=1, route="witchs-cauldron")
        for seat in range(players):
            h, s, history = ref.Game.parse_view(g.view_text(seat))
            assert h.view_text(seat) == g.view_text(seat) and history == []


@pytest.mark.parametrize("change, needle", [
    (lambda t: t.replace("players=3", "players=5"), "players"),
    (lambda t: t.replace("eldorado", "board", 1), "edition"),
    (lambda t: t.replace("route=first-expedition", "route=nowhere"), "route"),
    (lambda t: t.replace("max_rounds=100", "max_rounds=0"), "max_rounds"),
    (lambda t: t.replace("caves=0 max_rounds=100", "max_rounds=100 caves=0"), "order"),
    (lambda t: t.replace("turn=0", "turn=301"), "turn"),
    (lambda t: t.replace("turn=0", "turn=1"), "to_move"),
    (lambda t: t.replace("phase=play", "phase=buy"), "phase"),
    (lambda t: t.replace("phase=play to_move=0", "phase=over to_move=0"), "to_move"),
    (lambda t: t.replace("final=0", "final=2"), "final"),
    (lambda t: t.replace("pieces=18/33/34", "pieces=18/33"), "pieces"),
    (lambda t: t.replace("pieces=18/33/34", "pieces=18,19/33/34"), "pieces"),
    (lambda t: t.replace("pieces=18/33/34", "pieces=7/33/34"), "pieces"),  # a cave
    (lambda t: t.replace("pieces=18/33/34", "pieces=188/33/34"), "pieces"),
    (lambda t: t.replace("pieces=18/33/34", "pieces=185/33/34"), "pieces"),  # a finishing space
    (lambda t: t.replace("blockades=1,2,3,4", "blockades=1,2,3"), "blockades"),
    (lambda t: t.replace("blockades=1,2,3,4", "blockades=1,2,3,7"), "blockades"),
    (lambda t: t.replace("blockades=1,2,3,4", "blockades=1,2,3,3"), "blockades"),
    (lambda t: t.replace("blockades=1,2,3,4", "blockades=1,2,3,-"), "held"),
    (lambda t: t.replace("held=-/-/-", "held=4/-/-"), "blockades"),
    (lambda t: t.replace("blockades=1,2,3,4 held=-/-/-", "blockades=1,2,3,- held=5,4/-/-"), "held"),
    (lambda t: t.replace("market=Sc3", "market=Sc2"), "cards"),
    (lambda t: t.replace("market=Sc3", "market=Sc4"), "market"),
    (lambda t: t.replace("market=Sc3Tb3", "market=Tb3Sc3"), "market"),
    (lambda t: t.replace("/Pi3", "/Sc0Pi3"), "market"),
    (lambda t: t.replace("market=Sc3Tb3Ph3Tc3Ja3Tm3/Pi3", "market=Sc3Tb3Ph3Tc3Ja3Tm3Pi3/"), "market"),
    (lambda t: t.replace("market=", "market=Ex1"), "market"),
    (lambda t: t.replace("hands=ExTv", "hands=TvEx"), "canonical"),
    (lambda t: t.replace("hands=ExTv", "hands=ExTvEx"), "Ex"),
    (lambda t: t.replace("hands=ExTv", "hands=ExXx"), "card"),
    (lambda t: t.replace("hands=ExTv", "hands=ExTvPi"), "Pi"),
    (lambda t: t.replace("played=-", "played=Ex"), "Ex"),
    (lambda t: t.replace("tokens=-/-/-", "tokens=m1/-/-"), "caves=0"),
    (lambda t: t.replace("cavepiles=-,-,-", "cavepiles=-,-"), "cavepiles"),
    (lambda t: t.replace("box=-", "box=zz"), "box"),
    (lambda t: t.replace("explored=-/-/-", "explored=d/-/-"), "explored"),
    (lambda t: t.replace("explored=-/-/-", "explored=-,-/-/-"), "explored"),
    (lambda t: t.replace("coins=0", "coins=-1"), "coins"),
    (lambda t: t.replace("bought=0", "bought=2"), "bought"),
    (lambda t: t.replace("lastcoin=-", "lastcoin=c3"), "lastcoin"),
    (lambda t: t.replace("moving=-", "moving=b"), "moving"),
    (lambda t: t.replace("moving=-", "moving=am0"), "moving"),
    (lambda t: t.replace("moving=-", "moving=ax2"), "moving"),
    (lambda t: t.replace("pay=-", "pay=2x"), "pay"),
    (lambda t: t.replace("remove=0", "remove=3"), "remove"),
    (lambda t: t.replace("replace=-", "replace=5"), "replace"),
    (lambda t: t.replace("last=-", "last=Zz"), "last"),
    (lambda t: t.replace("flags=-", "flags=sk"), "flags"),
    (lambda t: t.replace("flags=-", "flags=x"), "flags"),
    (lambda t: t.replace("rng=0123456789abcdef", "rng=0123456789ABCDEF"), "rng"),
    (lambda t: t.replace("rng=0123456789abcdef", "rng=0123"), "rng"),
    (lambda t: t.replace("players=3", "players=3 seat=0"), "view"),
    (lambda t: t.replace(" rng=", " extra=1 rng="), "rng"),
    (lambda t: t + " extra=1", "extra"),
    (lambda t: t.replace(" coins=0", ""), "coins"),
])
def test_malformed_positions(change, needle):
    text = build(pieces=[[18], [33], [34]], hands=["ExTv", "", ""])
    assert ref.Game.from_text(text).to_text() == text
    with pytest.raises(NotationError) as info:
        ref.Game.from_text(change(text))
    assert needle in str(info.value)


def test_malformed_turn_states():
    ok = dict(pieces=[[18], [33], [34]], hands=["ExTv", "", ""])
    with pytest.raises(NotationError, match="pay"):
        ref.Game.from_text(build(phase="discard", pay="1r", **ok))
    with pytest.raises(NotationError, match="replace"):
        ref.Game.from_text(build(phase="discard", replace="0", **ok))
    with pytest.raises(NotationError, match="moving"):
        ref.Game.from_text(build(phase="discard", moving="a", **ok))
    with pytest.raises(NotationError, match="moving"):
        ref.Game.from_text(build(players=2, pieces=[["E", 33], [34, 35]], hands=["ExTv", ""], moving="a"))
    with pytest.raises(NotationError, match="over"):
        ref.Game.from_text(build(phase="over", turn=3, coins=2, **ok))
    with pytest.raises(NotationError, match="turn"):
        ref.Game.from_text(build(phase="over", turn=4, **ok))
    with pytest.raises(NotationError, match="tokens"):
        ref.Game.from_text(build(caves=1, tokens=["m3m3", "m3", ""], **ok))  # 2 m3 tokens exist
    # options missing take their defaults; the route may be given by number
    text = build(**ok)
    assert ref.Game.from_text(text.replace(" caves=0 max_rounds=100", "")).to_text() == text
    assert ref.Game.from_text(text.replace("route=first-expedition", "route=0")).to_text() == text
    # good states parse: a payment, a replacement, a discard phase
    for kw in (dict(pay="2c", last="Ex"), dict(replace="3", last="Tv"), dict(phase="discard", last="Tv"),
               dict(moving="av3", flags="kps", remove=2, last="Ex")):
        t = build(**ok, **kw)
        assert ref.Game.from_text(t).to_text() == t


def test_view_parsing_errors():
    g = game(pieces=[[18], [33], [34]], hands=["ExTv", "", ""])
    view = g.view_text(0)
    assert " draws=6/8/8 " in view and " hands=ExTv/?0/?0 " in view
    with pytest.raises(NotationError, match="unseen"):
        ref.Game.parse_view(view.replace("draws=6/8/8", "draws=5/8/8"))
    with pytest.raises(NotationError, match="hands"):
        ref.Game.parse_view(view.replace("hands=ExTv/?0", "hands=?2/?0"))
    with pytest.raises(NotationError, match="hands"):
        ref.Game.parse_view(view.replace("hands=ExTv/?0", "hands=ExTv/Ex"))
    with pytest.raises(NotationError):
        ref.Game.from_text(view)  # a view is not a position


# ------------------------------------------------------------------------------------------
# whole games

def test_uniformly_random_games_end_and_share_one_win():
    for seed in range(2):
        g, rnd = ref.Game.new(seed, players=2, max_rounds=40), random.Random(seed)
        while not g.is_over():
            g.apply(rnd.choice(g.legal()))
        assert g.turn <= 80 and g.turn % 2 == 0 and sum(g.returns()) == pytest.approx(1.0)
