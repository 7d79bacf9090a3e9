"""How a browser draws an edition: the `Drawing` a family names from its records (`Edition.drawing`).

A drawing is an ES module shipped as package data beside the family's code (no build step, no
network) that turns a view's text, the same text a bot is sent, into SVG, and says which clicks
make which decision. What a view does not carry but every seat may know from the start (the hex
map of a route) comes from `layout(state)`, sent to the browser once per game.

The module exports:

- `draw(view, ctx)`: an SVG element picturing `view` (a view's text, or a spectator's public
  view). `ctx.layout` is the game's layout (or null), `ctx.seat` the seat drawn for (null: a
  spectator), `ctx.names` the seats' names. Every clickable thing carries `data-pick="ID"`.
- `parts(decision)`: the IDs of the things to click for a decision's text, in order (a card,
  then where it goes), or an empty list when the decision is best offered as a button.

>>> import engine
>>> drawing = engine.get_edition("classic").drawing.value
>>> drawing.script_path().name, drawing.layout(engine.new_game("classic", seed=1))
('draw.js', None)
"""
from __future__ import annotations

import importlib.resources
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine._core import State


@dataclass(frozen=True)
class Drawing:
    """A family's browser drawing: its ES module and the public layout of a game."""

    package: str
    """The package the module ships in, e.g. ``'engine.cards'``."""
    script: str
    """The module's file name in that package."""
    layout_of: Callable[[State], Any] | None = None
    """`layout_of(state)`: JSON-able facts of the game every seat knows from its start (a map)."""

    def script_path(self) -> Path:
        """Where the module's file is (read with importlib.resources, so it works installed)."""
        return Path(str(importlib.resources.files(self.package).joinpath(self.script)))

    def layout(self, state: State) -> Any:
        """The game's layout, or None when the view says everything."""
        return None if self.layout_of is None else self.layout_of(state)
