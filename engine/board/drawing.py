"""The browser's drawing of `board` (`expeditions serve`): `draw.js` beside this file reads a
view's text; the layout is the board's data that views leave out (board.json): the stones' values,
the stone after which the bridge stands, and each path's event spaces (the view's `tiles=` lists
their tiles in this order).

>>> import engine
>>> layout = DRAWING.layout(engine.new_game("board", seed=1, players=3))
>>> len(layout["values"]), layout["bridge"], layout["events"][0]
(9, 6, [2, 4, 6, 7, 9])
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine._core import State
from engine.drawing import Drawing

_DATA = Path(__file__).resolve().parent / "data" / "board.json"


def _layout(state: State) -> dict[str, Any]:
    """The stones' values, the bridge's stone and the event spaces per path (colour order)."""
    data = json.loads(_DATA.read_text())
    events = data["event_spaces_reconstructed"]
    return {"values": data["stone_values"], "bridge": data["bridge_after_stone"],
            "events": [events[colour] for colour in data["colours"]]}


DRAWING = Drawing("engine.board", "draw.js", _layout)
