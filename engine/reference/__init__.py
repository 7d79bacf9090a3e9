"""The pure-Python reference models of the editions, reached through their records.

Each family keeps its model beside its compiled code (`engine/cards/reference/`,
`engine/board/reference.py`); `engine.reference.base` holds what they share. The models exist to
be obviously correct (plain lists, dicts and Counters, written straight from RULES.md,
docs/notation.md and docs/board.md) so that the compiled engine can be tested against them: they
import nothing but the standard library and `engine.reference.base`. The functions here find a
model by its edition's name (`Edition.reference`).

>>> g = new("classic", 1)
>>> from_text(g.to_text()).to_text() == g.to_text()
True
>>> new("board", 1, players=3).players
3
>>> sorted(models())
['board', 'classic', 'eldorado', 'expedition', 'partners']
"""

from __future__ import annotations

from typing import Any

from engine.reference.base import NotationError

__all__ = ["NotationError", "game_class", "models", "new", "from_text"]


def models() -> dict[str, type[Any]]:
    """The `Game` class of every edition that has a reference model, by edition name."""
    import engine  # the registry; the models themselves never import the compiled engine
    return {name: ed.reference.value for name, ed in engine.EDITIONS.items() if ed.reference is not None}


def game_class(edition: str) -> type[Any]:
    """The ``Game`` class of an edition (ValueError names the editions with a model)."""
    try:
        return models()[edition]
    except KeyError:
        raise ValueError(f"unknown edition {edition!r}; expected one of {', '.join(models())}") from None


def new(edition: str, seed: int, players: int | None = None, **options: int) -> Any:
    """``Game.new`` of the named edition, for ``players`` where the edition has a choice (its
    default otherwise); an edition of fixed seats accepts only its own number.

    >>> new("classic", 1, players=3)
    Traceback (most recent call last):
    ...
    engine.errors.OptionError: classic is played by 2 players, not 3
    """
    import engine
    cls = game_class(edition)
    record = engine.get_edition(edition)
    seats = record.check_players(players)
    return cls.new(seed, players=seats, **options) if len(record.seats) > 1 else cls.new(seed, **options)


def from_text(text: str) -> Any:
    """Parse a position of any edition with a model (dispatching on its first token)."""
    if not isinstance(text, str) or not text.split():
        raise NotationError("position: empty text")
    return game_class(text.split()[0]).from_text(text)
