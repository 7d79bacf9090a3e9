"""The limits of a decision, as the protocol's `go` carries them, and the time a decision may use.

>>> from protocol.limits import Limits
>>> Limits(movetime_ms=250).time_budget_ms(0)
250
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from engine import View


@dataclass(frozen=True)
class Limits:
    """How much a decision may cost; mirrors the protocol's `go` arguments (docs/protocol.md)."""

    movetime_ms: int | None = None
    """Think exactly about this long (at most)."""
    clocks_ms: tuple[int, ...] | None = None
    """Remaining clock per seat, when the game is played with clocks."""
    increments_ms: tuple[int, ...] | None = None
    """Increment per seat added after each decision."""
    iterations: int | None = None
    """Search iterations (playouts) budget."""
    nodes: int | None = None
    """Search tree nodes budget."""
    infinite: bool = False
    """Think until told to stop."""
    searchmoves: tuple[str, ...] | None = None
    """Consider only these of the seat's decisions (decision texts; `go searchmoves`)."""
    started_ns: int | None = field(default=None, repr=False, compare=False)
    """When the decision's time began (`time.monotonic_ns()`), if before the policy is asked: the
    protocol server sets it to the arrival of the `go` line, so that a time budget counts the bot's
    own delays (parsing, waking its search thread) as a referee counts them. Not a `go` argument."""

    def start_ns(self) -> int:
        """`started_ns`, else now: where a time budget for this decision starts.

        >>> Limits(movetime_ms=50, started_ns=7).start_ns()
        7
        """
        return self.started_ns if self.started_ns is not None else time.monotonic_ns()

    def time_budget_ms(self, seat: int, default_ms: int | None = None,
                       decisions_left: int | None = None) -> int | None:
        """A time to spend on this decision: movetime, else a share of the seat's clock — an equal
        share of the `decisions_left` the seat still has to make, when known, else a twentieth —
        plus ¾ of its increment, and never more than half the clock.

        >>> clock = Limits(clocks_ms=(60000, 60000))
        >>> clock.time_budget_ms(0), clock.time_budget_ms(0, decisions_left=120)
        (3000, 500)
        """
        if self.movetime_ms is not None:
            return self.movetime_ms
        if self.clocks_ms is not None and seat < len(self.clocks_ms):
            inc = self.increments_ms[seat] if self.increments_ms and seat < len(self.increments_ms) else 0
            clock = self.clocks_ms[seat]
            share = clock // max(1, decisions_left) if decisions_left is not None else clock // 20
            return max(1, min(share + inc * 3 // 4, clock // 2))
        return default_ms


def decision_budget_ms(view: View, limits: Limits, default_ms: int | None = None) -> int | None:
    """The time for the decision of `view`'s seat under `limits`: `Limits.time_budget_ms` with the
    decisions the seat has left in the match (its turns left, from the engine, times the
    decisions of a turn of its edition: `Edition.turn`). A bot and the protocol server that
    watches it use the same figure.

    >>> import engine
    >>> view = engine.new_game("classic", seed=1, rounds=3).view(0)
    >>> decision_budget_ms(view, Limits(clocks_ms=(132000, 132000)))  # 66 turns of 2 decisions
    1000
    """
    try:
        turns = view.state.turns_left(view.seat)
    except NotImplementedError:  # an edition that cannot tell: a twentieth of the clock
        return limits.time_budget_ms(view.seat, default_ms)
    decisions = turns * view.edition.turn.decisions
    return limits.time_budget_ms(view.seat, default_ms, decisions_left=max(1, decisions))
