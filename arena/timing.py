"""How close each bot comes to losing on time: the distribution of its decisions' times against
its budget, from the referee's measurements (what a tournament host reads before time trouble
costs games, as fastchess reports time losses and move overhead).

A decision's *overrun* is the time the referee measured, from writing `go` to reading `bestmove`,
minus the seat's movetime: negative while the bot answers within its budget; a game is forfeited
once it exceeds the margin. On a clock the budget of one decision is the bot's own choice, so the
report gives the least clock a bot had left instead.

>>> from arena.config import TimeControl
>>> from arena.record import DecisionRecord, GameRecord
>>> game = GameRecord(0, 0, 0, 0, "classic", {}, 1, ["a", "b"], [0, 0], [1.0, 0.0],
...                   decisions=[DecisionRecord(0, "+y4", 48.0), DecisionRecord(1, "D", 51.5)])
>>> rows = timing_rows([game], TimeControl(movetime_ms=50), {})
>>> [(r.name, r.decisions, r.max_ms) for r in rows]
[('a', 1, -2.0), ('b', 1, 1.5)]
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from arena.config import TimeControl
from arena.record import GameRecord


@dataclass
class BotTiming:
    """One bot's decisions against its budget."""

    name: str
    clock: bool
    """On a clock: the figures are decision times, and `least_left_ms` the lowest clock."""
    times: list[float] = field(default_factory=list)
    """Per decision: the overrun (movetime) or the time taken (clock), ms."""
    least_left_ms: float | None = None
    timeouts: int = 0

    @property
    def decisions(self) -> int:
        return len(self.times)

    def percentile(self, q: float) -> float:
        """The nearest-rank q-quantile (0 < q <= 1) of `times`; NaN without decisions."""
        if not self.times:
            return math.nan
        ordered = sorted(self.times)
        return ordered[max(0, math.ceil(q * len(ordered)) - 1)]

    @property
    def p50_ms(self) -> float:
        return self.percentile(0.5)

    @property
    def p99_ms(self) -> float:
        return self.percentile(0.99)

    @property
    def max_ms(self) -> float:
        return max(self.times) if self.times else math.nan


def timing_rows(games: Iterable[GameRecord], time: TimeControl,
                own_times: Mapping[str, TimeControl | None]) -> list[BotTiming]:
    """Per bot (in order of appearance), its decisions' overruns under `time`, or the bot's own
    time control where `own_times` gives one."""
    rows: dict[str, BotTiming] = {}
    for game in games:
        left: dict[int, float] = {}
        for seat, name in enumerate(game.seat_bots):
            control = own_times.get(name) or time
            row = rows.setdefault(name, BotTiming(name, control.clock_ms is not None))
            if control.clock_ms is not None:
                left[seat] = float(control.clock_ms)
            if game.termination == "timeout" and game.failed_seat == seat:
                row.timeouts += 1
        for d in game.decisions:
            name = game.seat_bots[d.seat]
            control = own_times.get(name) or time
            row = rows[name]
            if control.movetime_ms is not None:
                row.times.append(d.time_ms - control.movetime_ms)
                continue
            row.times.append(d.time_ms)
            left[d.seat] -= d.time_ms
            if row.least_left_ms is None or left[d.seat] < row.least_left_ms:
                row.least_left_ms = left[d.seat]
            left[d.seat] += control.increment_ms
    return list(rows.values())


def timing_text(rows: Iterable[BotTiming], margin_ms: int) -> str:
    """The timing table: per bot, decisions and the p50 / p99 / max of the time over its movetime
    (on a clock: of the time taken, and the least clock left), and its timeouts."""
    rows = list(rows)
    title = (f"time over the movetime (ms; forfeit beyond +{margin_ms}):" if not all(r.clock for r in rows)
             else f"time a decision took (ms; forfeit once a clock is below -{margin_ms}):")
    lines = [title,
             f"   {'bot':<16} {'decisions':>9} {'p50':>8} {'p99':>8} {'max':>8} {'timeouts':>8}"]
    for row in rows:
        sign = "" if row.clock else "+"
        cells = " ".join(f"{value:>{sign}8.1f}" if not math.isnan(value) else f"{'-':>8}"
                         for value in (row.p50_ms, row.p99_ms, row.max_ms))
        note = f"  clock: time taken; least left {row.least_left_ms:.0f} ms" if row.clock and row.least_left_ms is not None else ""
        lines.append(f"   {row.name:<16} {row.decisions:>9} {cells} {row.timeouts:>8}{note}")
    return "\n".join(lines)
