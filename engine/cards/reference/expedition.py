"""Reference model of ``expedition`` — the 52-card adaptation (2 players).

Written straight from RULES.md section 3 and docs/notation.md: four suits ``c d h s``, ranks
``M`` (multiplier: J, Q or K; three per suit) and ``A``..``T``; 7-card hands; ONE discard pile
(``D-``); the expedition cost is the ``cost`` option (default 0).

>>> g = Game.new(1, cost=20)
>>> len(g.deck), g.cost
(38, 20)
>>> expedition_score(["hM", "h9", "hT"], cost=0)
38
"""

from __future__ import annotations

from typing import Sequence

from engine.reference.base import NotationError

from .facts import EXPEDITION
from .game import BaseGame

__all__ = ["Game", "expedition_score", "NotationError", "EDITION"]

EDITION = EXPEDITION


def expedition_score(cards: Sequence[str], *, cost: int = 0) -> int:
    """Score of one suit's expedition: 0 when empty, else
    (sum of numbers - cost) * (1 + multipliers), +20 when it holds 8 or more cards.

    >>> expedition_score(["sM", "sM"], cost=0)
    0
    """
    return EXPEDITION.expedition_score(cards, cost)


class Game(BaseGame):
    """An ``expedition`` position with its rules (see ``BaseGame``)."""

    ED = EXPEDITION
    OPTIONS = BaseGame.OPTIONS + (("cost", 0, 0, 100),)
    FIXED_COST = None  # the `cost` option
