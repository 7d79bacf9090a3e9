"""How a tournament shows itself: a live progress bar with standings, the final table, a plot.

>>> from arena.standings import Standings, Row
>>> print(standings_text(Standings([Row("a", 2, 1.5, 10.0)], games=2)).splitlines()[0].split())
['#', 'bot', 'games', 'points', 'score', 'margin', 'Elo', '95%', 'fails']
"""
from __future__ import annotations

import math
import sys
import time
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING

from arena.ratings import EloEstimate
from arena.record import GameRecord
from arena.statistics import plus_minus
from arena.standings import Row, Standings

if TYPE_CHECKING:
    from rich.console import RenderableType


def _elo_cells(row: Row) -> tuple[str, str]:
    if row.rating is not None:
        err = "" if math.isinf(row.rating.error) else f"±{row.rating.error:.0f}"
        return f"{row.rating.elo:+.0f}", err
    if row.multi is not None:
        return f"μ {row.multi.mu:.1f}", f"σ {row.multi.sigma:.1f}"
    return "", ""


def standings_text(st: Standings) -> str:
    """The standings as a fixed-width table, best first."""
    margin_head = f" {'margin':>7}" if st.margins else ""
    lines = [f"{'#':>2} {'bot':<16} {'games':>5} {'points':>7} {'score':>6}{margin_head} {'Elo':>6} {'95%':>6} {'fails':>5}"]
    for i, row in enumerate(st.rows, 1):
        elo, err = _elo_cells(row)
        margin = f" {row.margin:>+7.1f}" if st.margins else ""
        lines.append(f"{i:>2} {row.name:<16} {row.games:>5} {row.points:>7.1f} {100 * row.share:>5.1f}%"
                     f"{margin} {elo:>6} {err:>6} {row.failures:>5}")
    for (a, b), est in st.head_to_head.items():
        penta = st.pentanomial[(a, b)]
        margin_pair = st.head_margin.get((a, b))
        points = "" if margin_pair is None else f", margin {margin_pair[0]:+.1f}{plus_minus(margin_pair[1], 1)}"
        lines.append(f"{a} vs {b}: Elo {est}{points} over {est.pairs} pairs, pentanomial {penta}: "
                     f"{verdict(a, b, est, margin_pair)}")
    if st.terminations:
        lines.append("terminations: " + ", ".join(f"{k} {v}" for k, v in sorted(st.terminations.items())))
    return "\n".join(lines)


def verdict(a: str, b: str, est: EloEstimate, margin: tuple[float, float] | None = None) -> str:
    """What the head-to-head of `a` against `b` says at 95%: in games (the Elo interval) and, where
    scores are points, in points (the margin a game with the half-width of its interval).

    >>> from arena.ratings import pair_estimate
    >>> verdict("ismcts", "greedy", pair_estimate([0, 0, 3, 0, 9]), (25.0, 9.0))
    'ismcts ahead at 95% in games and in points'
    >>> verdict("ismcts", "greedy", pair_estimate([4, 0, 22, 0, 10]), (18.6, 8.3))
    'ismcts ahead at 95% in points'
    >>> verdict("ismcts", "greedy", pair_estimate([1, 0, 2, 0, 2]))
    'not resolved at 95% (more deals)'
    """
    def side(low: float, high: float) -> str | None:
        return a if low > 0 else b if high < 0 else None

    games = side(est.low, est.high)
    points = None if margin is None or math.isnan(margin[1]) else side(margin[0] - margin[1], margin[0] + margin[1])
    if games is not None and games == points:
        return f"{games} ahead at 95% in games and in points"
    found = [f"{games} ahead at 95% in games"] if games else []
    found += [f"{points} ahead at 95% in points"] if points else []
    return "; ".join(found) or "not resolved at 95% (more deals)"


DROPPED_SHOWN = 10
"""Ids of a dropped bot's unplayed games shown in the list of failed games (they all say the same)."""
REASON_SHOWN = 300
"""Characters of a failure's reason shown on its line (the database keeps all of it)."""


def failures_text(games: Sequence[GameRecord]) -> str:
    """Every game a bot failed, with its id, the seat and bot that failed and the reason: the games a
    bot lost unplayed once it was dropped, one line per bot (they share a reason); '' if none failed.

    >>> g = GameRecord(4, 0, 2, 1, "classic", {}, 1, ["a", "b"], [0, 0], [1.0, 0.0], termination="crash",
    ...                reason="the bot exited: no bestmove (exit status 1)", failed_seat=1, id=5)
    >>> d = GameRecord(6, 0, 3, 0, "classic", {}, 1, ["b", "a"], [0, 0], [0.0, 1.0], termination="dropped",
    ...                reason="b was dropped after repeated failures", failed_seat=0, id=7)
    >>> print(failures_text([g, d]))
    failed games (expeditions replay --game ID):
      game 5 (deal 2, rotation 1): crash of b at seat 1: the bot exited: no bestmove (exit status 1)
      dropped b: 1 game lost unplayed: 7
    """
    played: list[str] = []
    dropped: dict[str, list[int | None]] = {}
    for g in games:
        if g.failed_seat is None or g.termination == "normal":
            continue
        bot = g.seat_bots[g.failed_seat]
        if g.termination == "dropped":
            dropped.setdefault(bot, []).append(g.id)
            continue
        reason = " ".join(g.reason.split())
        if len(reason) > REASON_SHOWN:
            reason = reason[:REASON_SHOWN] + "…"
        played.append(f"  game {g.id} (deal {g.deal}, rotation {g.rotation}): {g.termination} of {bot} "
                      f"at seat {g.failed_seat}: {reason}")
    for bot, ids in dropped.items():
        shown = ", ".join(map(str, ids[:DROPPED_SHOWN])) + (f" and {len(ids) - DROPPED_SHOWN} more"
                                                           if len(ids) > DROPPED_SHOWN else "")
        played.append(f"  dropped {bot}: {len(ids)} game{'s' if len(ids) != 1 else ''} lost unplayed: {shown}")
    return "\n".join(["failed games (expeditions replay --game ID):", *played]) if played else ""


class PlainReporter:
    """A progress line every few seconds (for logs and pipes)."""

    def __init__(self, out: IO[str] = sys.stderr, every: float = 5.0) -> None:
        self.out = out
        self.every = every
        self._last = 0.0

    def update(self, done: int, planned: int, st: Standings, note: str = "") -> None:
        now = time.monotonic()
        if now - self._last < self.every and done < planned:
            return
        self._last = now
        leaders = ", ".join(f"{r.name} {100 * r.share:.1f}%" for r in st.rows[:4])
        print(f"[{done}/{planned}] {leaders}{'  ' + note if note else ''}", file=self.out, flush=True)

    def close(self) -> None:
        pass


class LiveReporter:
    """A rich progress bar with the live standings table (for terminals)."""

    def __init__(self, planned: int, title: str) -> None:
        from rich.console import Console, Group
        from rich.live import Live
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn, TimeRemainingColumn

        self._group = Group
        self.progress = Progress("[bold]{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                                 TimeRemainingColumn(), console=Console(stderr=True))
        self.task = self.progress.add_task(title, total=planned)
        self.live = Live(self.progress, console=Console(stderr=True), refresh_per_second=4, transient=False)
        self.live.start()

    def update(self, done: int, planned: int, st: Standings, note: str = "") -> None:
        from rich.table import Table

        table = Table(box=None, pad_edge=False)
        columns = ("#", "bot", "games", "points", "score", "margin", "Elo", "95%", "fails")
        for column in columns if st.margins else [c for c in columns if c != "margin"]:
            table.add_column(column, justify="left" if column == "bot" else "right")
        for i, row in enumerate(st.rows, 1):
            elo, err = _elo_cells(row)
            margin = [f"{row.margin:+.1f}"] if st.margins else []
            table.add_row(str(i), row.name, str(row.games), f"{row.points:.1f}", f"{100 * row.share:.1f}%",
                          *margin, elo, err, str(row.failures))
        self.progress.update(self.task, completed=done)
        parts: list[RenderableType] = [self.progress, table]
        if note:
            parts.append(note)
        self.live.update(self._group(*parts))

    def close(self) -> None:
        self.live.stop()


def plot_ratings(st: Standings, path: str, title: str) -> None:
    """Writes a PNG: each bot's rating with its 95% interval (Elo, or Plackett-Luce μ ± 2σ)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in st.rows if r.rating is not None or r.multi is not None]
    names = [r.name for r in rows][::-1]
    if rows and rows[0].rating is not None:  # the rows of a tournament are rated alike
        elo = [r.rating for r in rows if r.rating is not None][::-1]
        values = [e.elo for e in elo]
        errors = [0 if math.isinf(e.error) else e.error for e in elo]
        label = "Elo (95% interval)"
    else:
        multi = [r.multi for r in rows if r.multi is not None][::-1]
        values = [m.mu for m in multi]
        errors = [2 * m.sigma for m in multi]
        label = "Plackett-Luce μ ± 2σ"
    fig, ax = plt.subplots(figsize=(7, 1 + 0.5 * max(1, len(rows))))
    ax.errorbar(values, range(len(rows)), xerr=errors, fmt="o", capsize=4)
    ax.set_yticks(range(len(rows)), names)
    ax.set_xlabel(label)
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
