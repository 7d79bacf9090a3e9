"""The browser's drawing of `eldorado` (`expeditions serve`): `draw.js` beside this file reads a
view's text; the layout is the route's map, which every seat knows from the start: each hex's
number, axial coordinates (q, r), terrain letter (`jwvrcM*s`, engine/eldorado/components.py) and
power, whether it is a finishing space, the start spaces, the caves, and per connection between
tiles the hex edges it runs along (where a blockade lies: the view's `blockades=` names them).

>>> import engine
>>> layout = DRAWING.layout(engine.new_game("eldorado", seed=1, players=2))
>>> len(layout["hexes"]), layout["hexes"][0][:3], len(layout["borders"]) >= 4
(188, [0, 3, 0], True)
"""
from __future__ import annotations

from typing import Any

from engine._core import State
from engine.drawing import Drawing
from engine.eldorado.components import TERRAIN_LETTERS, RouteMap


def _layout(state: State) -> dict[str, Any]:
    route: RouteMap = state.route  # type: ignore[attr-defined]  # an EldoradoState
    borders: list[list[list[int]]] = [[] for _ in range(route.connections)]
    for h in route.hexes:
        for direction, k in enumerate(route.crossing[h.number]):
            if k >= 0:
                borders[k].append([h.number, direction])
    return {"route": route.name,
            "hexes": [[h.number, h.q, h.r, TERRAIN_LETTERS[h.terrain], h.power, int(h.finishing)] for h in route.hexes],
            "starts": list(route.starts), "caves": list(route.caves), "borders": borders}


DRAWING = Drawing("engine.eldorado", "draw.js", _layout)
