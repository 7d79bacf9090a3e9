"""The record of one finished game, as the referee produces it and the store keeps it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

TERMINATIONS = ("normal", "timeout", "crash", "illegal", "malformed", "stall", "dropped", "quit")
"""How a game ended: normally, or by the failure of one seat's bot (which loses the game); `quit`:
the person at a seat left a game of `expeditions play` unfinished."""


class DecisionRecord(NamedTuple):
    """One decision of a game (a tuple: a game holds hundreds, made and shipped by the thousand)."""

    seat: int
    decision: str
    """As the referee records it: a draw from the draw pile shows the card (`D:g4`)."""
    time_ms: float
    value: float | None = None
    """The bot's own estimate of its expected return (its last `info value`), if it sent one."""
    iterations: int | None = None
    """The size of its search (its last `info iterations`, else `nodes`), if it sent one."""

    @property
    def played(self) -> str:
        """The decision as it is applied to the position: without the card a draw showed its mover.

        >>> DecisionRecord(0, "D:g4", 1.5).played, DecisionRecord(1, "+b7", 2.0).played
        ('D', '+b7')
        """
        return self.decision.split(":", 1)[0]


@dataclass
class GameRecord:
    index: int
    """The game's number in the tournament plan."""
    group: int
    deal: int
    rotation: int
    edition: str
    options: dict[str, int]
    seed: int
    seat_bots: list[str]
    """Bot name per seat."""
    scores: list[int]
    returns: list[float]
    """Per seat: 1 win, 0.5 draw, 0 loss (shares of opponents beaten)."""
    termination: str = "normal"
    reason: str = ""
    failed_seat: int | None = None
    decisions: list[DecisionRecord] = field(default_factory=list)
    initial_position: str = ""
    final_position: str = ""
    started: str = ""
    finished: str = ""
    worker: str = ""
    """Where it was played (host name in cluster mode)."""
    id: int | None = None
    """Database row id, once stored."""

    def to_dict(self) -> dict:
        from dataclasses import asdict
        out = asdict(self)
        out["decisions"] = [d._asdict() for d in self.decisions]
        return out
