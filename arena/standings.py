"""Standings of a tournament from its game records: points, score margins, failures, ratings.

>>> from arena.record import GameRecord
>>> g = GameRecord(0, 0, 0, 0, "classic", {}, 1, ["a", "b"], [10, -5], [1.0, 0.0])
>>> h = GameRecord(1, 0, 0, 1, "classic", {}, 1, ["b", "a"], [3, 3], [0.5, 0.5])
>>> table = standings([g, h], sides_of_seats=[0, 1])
>>> [(row.name, row.points, row.games) for row in table.rows]
[('a', 1.5, 2), ('b', 0.5, 2)]
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from arena.ratings import EloEstimate, MultiRating, Rating, pair_estimate, plackett_luce, rating_list
from arena.record import GameRecord
from arena.statistics import mean_and_interval, pentanomial_index, ranks_from_returns


@dataclass
class Row:
    name: str
    games: int = 0
    points: float = 0.0
    margin_sum: float = 0.0
    failures: int = 0
    rating: Rating | None = None
    multi: MultiRating | None = None

    @property
    def share(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def margin(self) -> float:
        """Mean score margin per game over the opposing sides."""
        return self.margin_sum / self.games if self.games else 0.0


@dataclass
class Standings:
    rows: list[Row]
    head_to_head: dict[tuple[str, str], EloEstimate] = field(default_factory=dict)
    """Elo of the first bot against the second from complete duplicate pairs (two-side games), the
    better-placed bot first."""
    pentanomial: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    terminations: dict[str, int] = field(default_factory=dict)
    games: int = 0
    head_margin: dict[tuple[str, str], tuple[float, float]] = field(default_factory=dict)
    """The first bot's score margin over the second, a game, and the half-width of its 95% interval
    (from the same pairs: a deal's two margins summed cancel its luck); empty where scores are
    places (a race), not points."""
    margins: bool = True
    """Whether scores are points, whose margins mean something (not places in a race)."""


def _sides(record: GameRecord, sides_of_seats: Sequence[int]) -> dict[int, tuple[str, float, float]]:
    """side -> (bot name, returns, score) from a game (seats of a side share all three)."""
    out: dict[int, tuple[str, float, float]] = {}
    for seat, side in enumerate(sides_of_seats):
        out.setdefault(side, (record.seat_bots[seat], record.returns[seat], record.scores[seat]))
    return out


def standings(games: Sequence[GameRecord], sides_of_seats: Sequence[int], *, margins: bool = True) -> Standings:
    """Everything the reports show, computed from the recorded games; `margins`: whether the scores
    are points (False in a race, where they are places and no margin is shown)."""
    rows: dict[str, Row] = {}
    two_sided: list[tuple[str, str, float]] = []
    multi_games: list[list[tuple[str, int]]] = []
    by_pair: dict[tuple[int, int], list[GameRecord]] = defaultdict(list)
    terminations: dict[str, int] = defaultdict(int)
    for g in games:
        terminations[g.termination] += 1
        sides = _sides(g, sides_of_seats)
        names = [sides[s][0] for s in sorted(sides)]
        rets = [sides[s][1] for s in sorted(sides)]
        scores = [sides[s][2] for s in sorted(sides)]
        for i, name in enumerate(names):
            row = rows.setdefault(name, Row(name))
            row.games += 1
            row.points += rets[i]
            others = [scores[j] for j in range(len(scores)) if j != i]
            row.margin_sum += scores[i] - sum(others) / len(others)
        if g.failed_seat is not None:
            rows[g.seat_bots[g.failed_seat]].failures += 1
        if len(names) == 2:
            two_sided.append((names[0], names[1], rets[0]))
            by_pair[(g.group, g.deal)].append(g)
        else:
            multi_games.append(list(zip(names, ranks_from_returns(rets))))
    head: dict[tuple[str, str], list[int]] = {}
    pair_margins: dict[tuple[str, str], list[float]] = defaultdict(list)
    for pair in by_pair.values():
        if len(pair) != 2:
            continue  # a pair counts once both games of the deal are in
        first = _sides(pair[0], sides_of_seats)
        a, b = sorted({first[0][0], first[1][0]})
        points = margin = 0.0
        for g in pair:
            for name, ret, score in _sides(g, sides_of_seats).values():
                points += ret if name == a else 0.0
                margin += score if name == a else -score
        head.setdefault((a, b), [0, 0, 0, 0, 0])[pentanomial_index(points)] += 1
        pair_margins[(a, b)].append(margin / 2)
    for rating in rating_list(two_sided):
        rows[rating.name].rating = rating
    for multi in plackett_luce(multi_games) if multi_games else []:
        rows[multi.name].multi = multi
    ordered = sorted(rows.values(), key=lambda r: (-r.share, -r.margin, r.name))
    if not margins:
        for row in ordered:
            row.margin_sum = 0.0
    rank = {row.name: i for i, row in enumerate(ordered)}
    oriented, head_margin = {}, {}  # each pair from the better-placed bot's side: a lead reads as a plus
    for (a, b), cells in head.items():
        sign = 1.0 if rank[a] <= rank[b] else -1.0
        key = (a, b) if sign > 0 else (b, a)
        oriented[key] = cells if sign > 0 else cells[::-1]
        if margins:
            mean, half = mean_and_interval([sign * m for m in pair_margins[(a, b)]])
            head_margin[key] = (mean, half)
    return Standings(ordered, {k: pair_estimate(v) for k, v in oriented.items()}, oriented, dict(terminations),
                     len(games), head_margin, margins)
