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
from arena.statistics import pentanomial_index, ranks_from_returns


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
    """Elo of the first bot against the second from complete duplicate pairs (two-side games)."""
    pentanomial: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    terminations: dict[str, int] = field(default_factory=dict)
    games: int = 0


def _sides(record: GameRecord, sides_of_seats: Sequence[int]) -> dict[int, tuple[str, float, float]]:
    """side -> (bot name, returns, score) from a game (seats of a side share all three)."""
    out: dict[int, tuple[str, float, float]] = {}
    for seat, side in enumerate(sides_of_seats):
        out.setdefault(side, (record.seat_bots[seat], record.returns[seat], record.scores[seat]))
    return out


def standings(games: Sequence[GameRecord], sides_of_seats: Sequence[int]) -> Standings:
    """Everything the reports show, computed from the recorded games."""
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
    for pair in by_pair.values():
        if len(pair) != 2:
            continue  # a pair counts once both games of the deal are in
        first = _sides(pair[0], sides_of_seats)
        a, b = sorted({first[0][0], first[1][0]})
        points = 0.0
        for g in pair:
            for name, ret, _ in _sides(g, sides_of_seats).values():
                if name == a:
                    points += ret
        head.setdefault((a, b), [0, 0, 0, 0, 0])[pentanomial_index(points)] += 1
    for rating in rating_list(two_sided):
        rows[rating.name].rating = rating
    for multi in plackett_luce(multi_games) if multi_games else []:
        rows[multi.name].multi = multi
    ordered = sorted(rows.values(), key=lambda r: (-r.share, -r.margin, r.name))
    rank = {row.name: i for i, row in enumerate(ordered)}
    oriented = {}  # each pair from the better-placed bot's side, so that a lead reads as a plus
    for (a, b), cells in head.items():
        oriented[(a, b) if rank[a] <= rank[b] else (b, a)] = cells if rank[a] <= rank[b] else cells[::-1]
    return Standings(ordered, {k: pair_estimate(v) for k, v in oriented.items()}, oriented, dict(terminations),
                     len(games))
