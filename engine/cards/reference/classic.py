"""Reference model of ``classic`` — Lost Cities, the card game (2 players).

Written straight from RULES.md section 1 and docs/notation.md: 60 cards (5 colours, three
wagers ``W`` and 2..10 each), 8-card hands, a discard pile per colour, expedition cost 20.

>>> g = Game.new(1)
>>> g.to_move, g.round, len(g.deck)
(0, 1, 44)
>>> expedition_score(["yW", "y2", "y3"], cost=20)
-30
"""

from __future__ import annotations

from typing import Sequence

from engine.reference.base import NotationError

from .facts import CLASSIC
from .game import BaseGame

__all__ = ["Game", "expedition_score", "NotationError", "EDITION"]

EDITION = CLASSIC


def expedition_score(cards: Sequence[str], *, cost: int = 20) -> int:
    """Score of one colour's expedition: 0 when empty, else
    (sum of numbers - cost) * (1 + wagers), +20 when it holds 8 or more cards.

    >>> expedition_score(["rW", "rW", "rW"], cost=20)
    -80
    """
    return CLASSIC.expedition_score(cards, cost)


class Game(BaseGame):
    """A ``classic`` position with its rules (see ``BaseGame``)."""

    ED = CLASSIC
    FIXED_COST = 20
