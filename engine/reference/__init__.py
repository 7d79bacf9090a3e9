"""Pure-Python reference models of the card editions ``classic``, ``partners``, ``expedition``.

They exist to be obviously correct (plain lists, dicts and Counters, written straight from
RULES.md and docs/notation.md) so that the compiled engine can be tested against them. They
import nothing outside the standard library and nothing else of ``engine``.

>>> from engine.reference import new, from_text
>>> g = new("classic", 1)
>>> from_text(g.to_text()).to_text() == g.to_text()
True
"""

from __future__ import annotations

from . import classic, expedition, partners
from ._cards import NotationError

__all__ = ["classic", "partners", "expedition", "EDITIONS", "NotationError", "game_class", "new",
           "from_text"]

EDITIONS = {"classic": classic.Game, "partners": partners.Game, "expedition": expedition.Game}


def game_class(edition: str):
    """The ``Game`` class of an edition id."""
    try:
        return EDITIONS[edition]
    except KeyError:
        raise ValueError(f"unknown edition {edition!r}; expected one of {', '.join(EDITIONS)}") from None


def new(edition: str, seed: int, **options: int):
    """``Game.new`` of the named edition."""
    return game_class(edition).new(seed, **options)


def from_text(text: str):
    """Parse a position of any of the three editions (dispatching on its first token)."""
    if not isinstance(text, str) or not text.split():
        raise NotationError("position: empty text")
    return game_class(text.split()[0]).from_text(text)
