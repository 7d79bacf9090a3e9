"""The El Dorado maps assembled from the component data (engine/eldorado/components.py,
docs/eldorado.md "The map"): every route fits together, and every start space reaches El Dorado."""
from __future__ import annotations

from collections import deque

import pytest

from engine.eldorado import components as c

HEXES = {"first-expedition": 188, "hills-of-gold": 225, "winding-paths": 225, "witchs-cauldron": 225}
CAVES = {"first-expedition": 3, "hills-of-gold": 4, "winding-paths": 5, "witchs-cauldron": 6}
ROUTES = {r.name: r for r in c.ROUTES}


def test_the_four_official_routes_in_option_order() -> None:
    assert c.ROUTE_NAMES == ("first-expedition", "hills-of-gold", "winding-paths", "witchs-cauldron")


@pytest.mark.parametrize("name", HEXES)
def test_hex_count_and_no_overlap(name: str) -> None:
    route = ROUTES[name]
    assert len(route.hexes) == HEXES[name]
    assert len({(h.q, h.r) for h in route.hexes}) == len(route.hexes)
    assert [h.number for h in route.hexes] == list(range(len(route.hexes)))
    # numbered tile by tile, 37 hexes each, then the three finishing spaces
    assert [h.tile for h in route.hexes] == [k for k in range(len(route.tiles)) for _ in range(37)] + [-1] * 3


@pytest.mark.parametrize("name", HEXES)
def test_neighbours_are_symmetric_and_geometric(name: str) -> None:
    route = ROUTES[name]
    for h in route.hexes:
        for d, n in enumerate(route.neighbours[h.number]):
            dq, dr = c.DIRECTIONS[d]
            assert n == route.at(h.q + dq, h.r + dr)
            if n >= 0:
                assert route.neighbours[n][(d + 3) % 6] == h.number


def _reachable(route: c.RouteMap, start: int) -> set[int]:
    """Hexes a piece could ever reach from `start` (blockades can always be paid)."""
    seen, todo = {start}, deque([start])
    while todo:
        for n in route.neighbours[todo.popleft()]:
            if n >= 0 and n not in seen and route.hexes[n].terrain not in (c.MOUNTAIN, c.CAVE, c.START):
                seen.add(n)
                todo.append(n)
    return seen


@pytest.mark.parametrize("name", HEXES)
def test_every_start_space_reaches_el_dorado(name: str) -> None:
    route = ROUTES[name]
    assert len(route.starts) == 4 and len(set(route.starts)) == 4
    for start in route.starts:
        assert route.hexes[start].terrain == c.START and route.hexes[start].tile == 0
        assert set(route.finishing) <= _reachable(route, start)


@pytest.mark.parametrize("name", HEXES)
def test_finishing_spaces_touch_the_last_tile(name: str) -> None:
    route = ROUTES[name]
    last = len(route.tiles) - 1
    side = c.PADDLE if c.DATA["routes"][name]["side"] == "w" else c.MACHETE
    for f in route.finishing:
        h = route.hexes[f]
        assert h.finishing and h.terrain == side and h.power == 1
        assert any(n >= 0 and route.hexes[n].tile == last for n in route.neighbours[f])


@pytest.mark.parametrize("name", HEXES)
def test_caves_and_connections(name: str) -> None:
    route = ROUTES[name]
    assert len(route.caves) == CAVES[name]
    assert all(route.hexes[h].terrain == c.CAVE for h in route.caves) and list(route.caves) == sorted(route.caves)
    assert route.connections == len(route.tiles) - 1 <= len(c.BLOCKADES)
    for k in range(route.connections):
        edges = [(h, n) for h in range(len(route.hexes)) for d, n in enumerate(route.neighbours[h])
                 if route.crossing[h][d] == k]
        assert edges, f"connection {k} has no border"
        assert all({route.hexes[h].tile, route.hexes[n].tile} == {k, k + 1} for h, n in edges)


def test_start_space_numbers_follow_the_first_tile() -> None:
    # tile A numbers its last row 1..4 left to right, tile B 4..1 (docs/eldorado.md "Start spaces")
    a, b = ROUTES["witchs-cauldron"], ROUTES["first-expedition"]
    assert a.tiles[0] == "A" and list(a.starts) == sorted(a.starts)
    assert b.tiles[0] == "B" and list(b.starts) == sorted(b.starts, reverse=True)


def test_components_match_the_rules() -> None:
    assert [card.code for card in c.CARDS[:3]] == ["Ex", "Tv", "Sa"]
    assert sorted(c.STARTING_DECK) == [0, 0, 0, 1, 1, 1, 1, 2]
    assert sum(card.copies for card in c.CARDS) == 54 and sum(card.on_board for card in c.CARDS) == 6
    assert sum(t.count for t in c.TOKENS) == 36
    assert [b.number for b in c.BLOCKADES] == [1, 2, 3, 4, 5, 6]
