"""The rules engine: editions, states, notation and views.

>>> import engine
>>> s = engine.new_game("classic", seed=42)
>>> s.edition, s.num_seats, s.to_move
('classic', 2, 0)
>>> t = engine.parse_position(s.to_text())
>>> t == s
True
"""
from engine._core import State
from engine.edition import Edition
from engine.editions import EDITIONS, default_edition, edition_of_text, get_edition, showcase_edition
from engine.errors import (ExpeditionsError, IllegalDecisionError, NotationError, OptionError,
                           UnknownEditionError)
from engine.view import View

__all__ = [
    "EDITIONS", "Edition", "State", "View", "ExpeditionsError", "IllegalDecisionError",
    "NotationError", "OptionError", "UnknownEditionError", "default_edition", "get_edition", "new_game",
    "parse_position", "parse_view", "showcase_edition",
]


def new_game(edition: str, seed: int = 0, players: int | None = None, **options: object) -> State:
    """Deals a new match of `edition` from `seed` with the given rule options."""
    return get_edition(edition).new_game(seed, players, **options)


def parse_position(text: str) -> State:
    """Parses a full position of any edition (its first word names the edition)."""
    return edition_of_text(text).from_text(text)


def parse_view(text: str) -> View:
    """Parses a seat's view of any edition."""
    return View.from_text(text)
