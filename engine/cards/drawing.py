"""The browser's drawing of the card editions (`expeditions serve`): `draw.js` beside this file
reads a view's text; nothing is needed beyond it.

>>> DRAWING.script_path().is_file()
True
"""
from __future__ import annotations

from engine.drawing import Drawing

DRAWING = Drawing("engine.cards", "draw.js")
