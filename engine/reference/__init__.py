"""Pure-Python reference models of the editions ``classic``, ``partners``, ``expedition`` and
``board``.

They exist to be obviously correct (plain lists, dicts and Counters, written straight from
RULES.md, docs/notation.md and docs/board.md) so that the compiled engine can be tested against them. They
import nothing outside the standard library and nothing else of ``engine``.

>>> from engine.reference import new, from_text
>>> g = new("classic", 1)
>>> from_text(g.to_text()).to_text() == g.to_text()
True
>>> new("board", 1, players=3).players
3
"""

from __future__ import annotations

from . import board, classic, expedition, partners
from ._cards import NotationError

__all__ = ["classic", "partners", "expedition", "board", "EDITIONS", "NotationError", "game_class", "new",
           "from_text"]

EDITIONS = {"classic": classic.Game, "partners": partners.Game, "expedition": expedition.Game,
            "board": board.Game}
# Editions dealt for a chosen number of players (the others have a fixed number of seats).
_VARIABLE_PLAYERS = {"board"}


def game_class(edition: str):
    """The ``Game`` class of an edition id."""
    try:
        return EDITIONS[edition]
    except KeyError:
        raise ValueError(f"unknown edition {edition!r}; expected one of {', '.join(EDITIONS)}") from None


def new(edition: str, seed: int, players: int | None = None, **options: int):
    """``Game.new`` of the named edition; ``players`` deals ``board`` for 2..4 seats (default 4)
    and, for the card editions, may only repeat their fixed number of seats.

    >>> new("classic", 1, players=3)
    Traceback (most recent call last):
    ...
    ValueError: classic is played by 2 players, got players=3
    """
    cls = game_class(edition)
    if edition in _VARIABLE_PLAYERS:
        return cls.new(seed, **options) if players is None else cls.new(seed, players=players, **options)
    if players is not None and players != cls.ED.seats:
        raise ValueError(f"{edition} is played by {cls.ED.seats} players, got players={players!r}")
    return cls.new(seed, **options)


def from_text(text: str):
    """Parse a position of any of the editions (dispatching on its first token)."""
    if not isinstance(text, str) or not text.split():
        raise NotationError("position: empty text")
    return game_class(text.split()[0]).from_text(text)
