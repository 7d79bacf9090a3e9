"""Audits what a seat is told: no line sent to a seat may name a card that seat has not seen.

The auditors themselves belong to the editions' families (engine/audit.py and each family's
`audit.py`); `seat_audit` finds the one of a game's edition through the edition's record.

>>> import engine
>>> from engine import reference
>>> state = engine.new_game("classic", seed=3)
>>> audit = seat_audit(reference.from_text(state.to_text()), seat=0)
>>> audit.check("position " + state.view_text(0))
>>> type(seat_audit(reference.new("board", 1, players=2), 0)).__name__
'BoardSeatAudit'
"""
from __future__ import annotations

from typing import Any

import engine
from engine.audit import SeenCards


def seat_audit(game: Any, seat: int) -> SeenCards:
    """The auditor of `seat` for the edition of `game` (a reference-model game)."""
    for edition in engine.EDITIONS.values():
        if edition.reference is not None and edition.reference.value is type(game):
            if edition.auditor is None:
                break
            return edition.auditor.value(game, seat)
    raise ValueError(f"no seat auditor for a {type(game).__module__}.{type(game).__name__}")
