"""The statistics of matches, one module for the arena's standings, its SPRT, its ratings and the
in-process duplicate runs: Student's t, means with their 95% intervals, game pairs (the
pentanomial model), places, and the totals and paired differences of duplicate runs.

>>> round(mean_and_interval([0.0, 1.0, 1.0, 0.5, 1.0])[1], 3)
0.555
>>> pair_moments([0, 0, 1, 0, 1])
(2, 0.75, 0.0625)
"""
from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

Z95 = 1.959963984540054
"""The normal distribution's 97.5% quantile: a 95% interval is ± Z95 standard errors."""


def _normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def t_cdf(x: float, df: int) -> float:
    """Student's t distribution function with `df` degrees of freedom. With t = √df·tan u the
    density becomes a multiple of cos^(df−1) u on a bounded range, which Simpson's rule
    integrates closely (report-time use, not a hot path).

    >>> round(t_cdf(1.0, 1), 6), round(t_cdf(2.0, 10), 4), round(t_cdf(-1.96, 10**6), 4)
    (0.75, 0.9633, 0.025)
    """
    if df > 1000:
        return _normal_cdf(x)
    scale = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(math.pi)
    end, steps = math.atan(abs(x) / math.sqrt(df)), 400
    h = end / steps
    total = sum((1 if i in (0, steps) else 4 if i % 2 else 2) * math.cos(i * h) ** (df - 1)
                for i in range(steps + 1)) * h / 3
    return 0.5 + math.copysign(scale * total, x)


@functools.lru_cache(maxsize=None)
def t_quantile(p: float, df: int) -> float:
    """The x with t_cdf(x, df) = p, for 0.5 < p < 1 (bisection).

    >>> round(t_quantile(0.975, 1), 3), round(t_quantile(0.975, 9), 3), round(t_quantile(0.975, 10**6), 3)
    (12.706, 2.262, 1.96)
    """
    low, high = 0.0, 1e6
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (middle, high) if t_cdf(middle, df) < p else (low, middle)
    return (low + high) / 2


def mean_and_interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval (nan with fewer than two values): Student's t
    with n − 1 degrees of freedom, as the spread is estimated from the same values (5 deals:
    2.78 standard errors, not 1.96; 500 deals: 1.965).

    >>> round(mean_and_interval([0.0, 1.0, 1.0, 0.5, 1.0])[1], 3)
    0.555
    """
    n = len(values)
    mean = sum(values) / n if n else float("nan")
    if n < 2:
        return mean, float("nan")
    return mean, t_quantile(0.975, n - 1) * math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def plus_minus(half_width: float, digits: int) -> str:
    """" ± h" for an interval's half-width, or nothing where there is none (fewer than two deals:
    the spread of one deal's scores says nothing of the deals to come).

    >>> plus_minus(0.0314, 3), plus_minus(float("nan"), 3)
    (' ± 0.031', '')
    """
    return "" if math.isnan(half_width) else f" ± {half_width:.{digits}f}"


def score_interval(mean: float, stderr: float, n: int) -> tuple[float, float]:
    """The 95% interval of a mean score in 0..1 over `n` pairs (or games) with the standard error
    `stderr` estimated from them: Student's t with n − 1 degrees of freedom (a spread estimated
    from 3 pairs is itself uncertain: the interval is 2.2 times as wide as the normal one) —
    unless there is no spread (every pair scored alike: one pair, or ten pairs all won), where
    that interval would shrink to a point. Then the Wilson interval of a proportion `mean` over
    `n` trials, whose width comes from n alone (1 pair won: 0.21..1, 100 pairs: 0.96..1).

    >>> [round(x, 3) for x in score_interval(1.0, 0.0, 1)], [round(x, 3) for x in score_interval(1.0, 0.0, 100)]
    ([0.207, 1.0], [0.963, 1.0])
    """
    if stderr > 0.0:
        half = t_quantile(0.975, n - 1) * stderr
        return mean - half, mean + half
    z2 = Z95 * Z95
    centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 / (1 + z2 / n) * math.sqrt(mean * (1 - mean) / n + z2 / (4 * n * n))
    return centre - half, centre + half


def unanimous_los(mean: float, n: int) -> float:
    """The LOS when all n pairs (or games) scored `mean`, so that they show no spread: read as if
    one more pair had been even — the least doubt that gives the record a spread — with Student's t
    as for any record. So a sweep is never worth less than the same pairs with one of them even
    (one pair won: 3/4, as one even and one won pair give; two won: as one even and two won).

    >>> [round(unanimous_los(1.0, n), 3) for n in (1, 2, 3)], unanimous_los(0.5, 9)
    ([0.75, 0.908, 0.971], 0.5)
    """
    if mean == 0.5:
        return 0.5
    with_even = (n * mean + 0.5) / (n + 1)
    variance = (n * (mean - with_even) ** 2 + (0.5 - with_even) ** 2) / (n + 1)
    return t_cdf((with_even - 0.5) / math.sqrt(variance / n), n)


# ----- game pairs ------------------------------------------------------------------------------

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""Score of a pair of games (two games, 1/½/0 each, averaged) for each pentanomial cell."""

_Count = TypeVar("_Count", int, float)


def pair_moments(pentanomial: Sequence[_Count]) -> tuple[_Count, float, float]:
    """(pairs, mean pair score, variance of the pair score); the counts may be fractional (the SPRT
    counts an empty cell as a small fraction of a pair)."""
    n = sum(pentanomial)
    if n == 0:
        return 0, 0.5, 0.0
    mean = sum(c * s for c, s in zip(pentanomial, PAIR_SCORES)) / n
    var = sum(c * (s - mean) ** 2 for c, s in zip(pentanomial, PAIR_SCORES)) / n
    return n, mean, var



def pentanomial_index(points: float) -> int:
    """Pentanomial cell of a pair in which a side scored `points` (0..2) over its two games."""
    return min(4, max(0, round(points * 2)))


def ranks_from_returns(returns: Sequence[float]) -> list[int]:
    """Competition ranks (1 = best; equal returns share a rank) from per-side returns."""
    return [1 + sum(1 for other in returns if other > mine) for mine in returns]


def places(scores: list[int], seats: list[int]) -> list[float]:
    """Place of each seat (1 = highest score; tied seats share the mean of the places they span).

    >>> places([10, 30, 10, 5], [0, 1, 2, 3])
    [2.5, 1.0, 2.5, 4.0]
    """
    out = []
    for seat in seats:
        above = sum(s > scores[seat] for s in scores)
        tied = sum(s == scores[seat] for s in scores)
        out.append(above + (tied + 1) / 2)
    return out


# ----- duplicate runs --------------------------------------------------------------------------

@dataclass(frozen=True)
class PairResult:
    """The games of one deal (two, or one per rotation), from side A's point of view."""

    seed: int
    returns: tuple[float, ...]
    """A's return per game (1 win, 0.5 draw, 0 loss; with several opponents the share beaten)."""
    margins: tuple[int, ...]
    """A's final score minus B's, per game (several B seats: minus the best of them)."""
    seconds: float
    ranks: tuple[float, ...] = ()
    """A's place per game (1 first; tied seats share the mean of their places)."""
    other_ranks: tuple[float, ...] = ()
    """The mean place of the B seats per game."""
    records: tuple[dict, ...] = ()
    """With `observe`: per game, the record its observer filled, with the game's `moves` added."""


@dataclass
class DuplicateStats:
    """Totals of a duplicate run for side A."""

    pairs: list[PairResult] = field(default_factory=list)
    scored: bool = True
    """Whether the edition's scores have a margin worth reporting (False for a race, where only
    the result counts and the summary leaves the margin out)."""

    @property
    def games(self) -> int:
        return sum(len(p.returns) for p in self.pairs)

    @property
    def wins(self) -> int:
        return sum(r == 1.0 for p in self.pairs for r in p.returns)

    @property
    def draws(self) -> int:
        return sum(r == 0.5 for p in self.pairs for r in p.returns)

    @property
    def losses(self) -> int:
        return sum(r == 0.0 for p in self.pairs for r in p.returns)

    @property
    def score(self) -> float:
        """A's share of the points (wins + half the draws) over all games."""
        return sum(sum(p.returns) for p in self.pairs) / self.games if self.pairs else 0.0

    @property
    def win_rate(self) -> float:
        """Games won over games played (draws count as not won)."""
        return self.wins / self.games if self.pairs else 0.0

    def interval(self) -> float:
        """Half-width of the 95% confidence interval of `score`, from the spread of pair scores
        (pairs are independent; the two games of a pair are not)."""
        return mean_and_interval([sum(p.returns) / len(p.returns) for p in self.pairs])[1]

    @property
    def margin(self) -> float:
        """A's mean score margin per game."""
        return sum(sum(p.margins) for p in self.pairs) / self.games if self.pairs else 0.0

    def margin_interval(self) -> float:
        """Half-width of the 95% confidence interval of `margin` (from the pairs' mean margins)."""
        return mean_and_interval([sum(p.margins) / len(p.margins) for p in self.pairs])[1]

    @property
    def mean_rank(self) -> float:
        """A's mean place (multi-seat rotations only; nan otherwise)."""
        ranks = [r for p in self.pairs for r in p.ranks]
        return sum(ranks) / len(ranks) if ranks else float("nan")

    @property
    def other_mean_rank(self) -> float:
        """The B seats' mean place (multi-seat rotations only; nan otherwise)."""
        ranks = [r for p in self.pairs for r in p.other_ranks]
        return sum(ranks) / len(ranks) if ranks else float("nan")

    @property
    def first_rate(self) -> float:
        """Games in which A finished first, alone or tied, over games played (multi-seat)."""
        ranks = [r for p in self.pairs for r in p.ranks]
        return sum(r < 2 for r in ranks) / len(ranks) if ranks else float("nan")

    def summary(self) -> str:
        text = (f"games {self.games}  A wins {self.wins}  draws {self.draws}  losses {self.losses}  "
                f"score {self.score:.3f}{plus_minus(self.interval(), 3)}  win rate {self.win_rate:.3f}")
        if self.scored:
            text += f"  margin {self.margin:+.1f}{plus_minus(self.margin_interval(), 1)}"
        if any(p.ranks for p in self.pairs):
            text += (f"  A first {self.first_rate:.3f}  mean place A {self.mean_rank:.2f} "
                     f"B {self.other_mean_rank:.2f}")
        return text


@dataclass(frozen=True)
class PairedDifference:
    """Side A of one run against side A of another over the deals both played (the same deals, so
    the luck of the cards cancels from the difference, deal by deal).

    >>> new = [PairResult(1, (1.0, 1.0), (20, 5), 0.0), PairResult(2, (1.0, 0.0), (9, -4), 0.0)]
    >>> old = [PairResult(1, (1.0, 0.0), (8, -2), 0.0), PairResult(3, (0.0, 0.0), (-9, -9), 0.0)]
    >>> d = paired_difference(new, old)
    >>> d.deals, d.score, d.other_score, d.difference, d.margin_difference
    (1, 1.0, 0.5, 0.5, 9.5)
    """

    deals: int
    score: float
    """This run's A score (wins + half the draws a game) on the common deals."""
    other_score: float
    difference: float
    """score - other_score: the mean over common deals of the per-deal difference."""
    interval: float
    """Half-width of its 95% confidence interval (from the spread of the per-deal differences)."""
    margin_difference: float
    """The same for the margin, points a game."""
    margin_interval: float

    def summary(self) -> str:
        return (f"common deals {self.deals}  score {self.score:.3f} against {self.other_score:.3f}  "
                f"difference {self.difference:+.3f}{plus_minus(self.interval, 3)} a game  "
                f"margin difference {self.margin_difference:+.1f}{plus_minus(self.margin_interval, 1)}")


def paired_difference(pairs: list[PairResult], others: list[PairResult]) -> PairedDifference:
    """`pairs` against `others` over the deals (seeds) both hold; see PairedDifference."""
    by_seed = {p.seed: p for p in others}
    common = [(p, by_seed[p.seed]) for p in sorted(pairs, key=lambda p: p.seed) if p.seed in by_seed]

    def per_game(values: tuple) -> float:
        return sum(values) / len(values)

    score, _ = mean_and_interval([per_game(p.returns) for p, _ in common])
    other, _ = mean_and_interval([per_game(o.returns) for _, o in common])
    diff, interval = mean_and_interval([per_game(p.returns) - per_game(o.returns) for p, o in common])
    margin, margin_interval = mean_and_interval([per_game(p.margins) - per_game(o.margins) for p, o in common])
    return PairedDifference(len(common), score, other, diff, interval, margin, margin_interval)


