"""Ratings and statistics of a tournament.

Two-sided games (two seats, or two teams) are rated with the logistic Elo model: head-to-head
estimates come from duplicate *pairs* (the pentanomial model, whose variance is smaller than
counting games alone), with a 95% interval and the likelihood of superiority (LOS); a rating list
over many bots is the Bradley-Terry maximum-likelihood fit of all games, centred on 0.
Games of 3-4 sides are rated with the Plackett-Luce model of the `openskill` library.

>>> est = pair_estimate([0, 10, 40, 30, 20])
>>> round(est.elo), est.pairs, est.los > 0.99
(108, 100, True)
"""
from __future__ import annotations

import functools
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from arena.sprt import PAIR_SCORES, pair_moments

Z95 = 1.959963984540054
ELO_PER_NAT = 400.0 / math.log(10.0)


def elo_from_score(score: float) -> float:
    """Logistic Elo difference that gives this expected score (clamped away from 0 and 1)."""
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / score - 1.0)


def _normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


@dataclass(frozen=True)
class EloEstimate:
    """A head-to-head Elo estimate."""

    elo: float
    low: float
    """Lower end of the 95% interval."""
    high: float
    los: float
    """Likelihood of superiority: probability that the true Elo is above 0."""
    pairs: int
    score: float
    """Mean score per game."""

    def __str__(self) -> str:
        return f"{self.elo + 0.0:+.1f} [{self.low + 0.0:+.1f}, {self.high + 0.0:+.1f}] LOS {100 * self.los:.1f}%"


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


def _score_interval(mean: float, stderr: float, n: int) -> tuple[float, float]:
    """The 95% interval of a mean score in 0..1 over `n` pairs (or games) with the standard error
    `stderr` estimated from them: Student's t with n − 1 degrees of freedom (a spread estimated
    from 3 pairs is itself uncertain: the interval is 2.2 times as wide as the normal one) —
    unless there is no spread (every pair scored alike: one pair, or ten pairs all won), where
    that interval would shrink to a point. Then the Wilson interval of a proportion `mean` over
    `n` trials, whose width comes from n alone (1 pair won: 0.21..1, 100 pairs: 0.96..1).

    >>> [round(x, 3) for x in _score_interval(1.0, 0.0, 1)], [round(x, 3) for x in _score_interval(1.0, 0.0, 100)]
    ([0.207, 1.0], [0.963, 1.0])
    """
    if stderr > 0.0:
        half = t_quantile(0.975, n - 1) * stderr
        return mean - half, mean + half
    z2 = Z95 * Z95
    centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 / (1 + z2 / n) * math.sqrt(mean * (1 - mean) / n + z2 / (4 * n * n))
    return centre - half, centre + half


def _unanimous_los(mean: float, n: int) -> float:
    """The LOS when all n pairs (or games) scored `mean`, so that they show no spread: read as if
    one more pair had been even — the least doubt that gives the record a spread — with Student's t
    as for any record. So a sweep is never worth less than the same pairs with one of them even
    (one pair won: 3/4, as one even and one won pair give; two won: as one even and two won).

    >>> [round(_unanimous_los(1.0, n), 3) for n in (1, 2, 3)], _unanimous_los(0.5, 9)
    ([0.75, 0.908, 0.971], 0.5)
    """
    if mean == 0.5:
        return 0.5
    with_even = (n * mean + 0.5) / (n + 1)
    variance = (n * (mean - with_even) ** 2 + (0.5 - with_even) ** 2) / (n + 1)
    return t_cdf((with_even - 0.5) / math.sqrt(variance / n), n)


def _estimate(mean: float, variance: float, n: int, pairs: int) -> EloEstimate:
    """From the mean and the (population) variance of n pair, or game, scores."""
    stderr = math.sqrt(variance / (n - 1)) if n > 1 else 0.0  # the sample variance's, over n
    low, high = _score_interval(mean, stderr, n)
    if stderr > 0.0:
        los = t_cdf((mean - 0.5) / stderr, n - 1)
    else:
        los = _unanimous_los(mean, n)
    return EloEstimate(elo_from_score(mean), elo_from_score(low), elo_from_score(high), los, pairs, mean)


def pair_estimate(pentanomial: Sequence[int]) -> EloEstimate:
    """Elo of the first player from pentanomial pair counts (LL, LD, DD/WL, WD, WW).

    >>> print(pair_estimate([0, 0, 0, 0, 1]))  # one pair, both games won: little is known yet
    +2400.0 [-233.8, +2400.0] LOS 75.0%
    """
    n, mean, var = pair_moments(pentanomial)
    if n == 0:
        return EloEstimate(0.0, -math.inf, math.inf, 0.5, 0, 0.5)
    return _estimate(mean, var, n, n)


def game_estimate(wins: int, draws: int, losses: int) -> EloEstimate:
    """Elo from unpaired game results (trinomial), for games outside complete pairs."""
    n = wins + draws + losses
    if n == 0:
        return EloEstimate(0.0, -math.inf, math.inf, 0.5, 0, 0.5)
    mean = (wins + 0.5 * draws) / n
    var = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean ** 2) / n
    return _estimate(mean, var, n, 0)


def pentanomial_index(points: float) -> int:
    """Pentanomial cell of a pair in which a side scored `points` (0..2) over its two games."""
    return min(4, max(0, round(points * 2)))


@dataclass(frozen=True)
class Rating:
    """One bot of a rating list."""

    name: str
    elo: float
    error: float
    """Half-width of the 95% interval."""
    games: int
    score: float
    """Mean score per game."""


def rating_list(results: Iterable[tuple[str, str, float]], iterations: int = 2000) -> list[Rating]:
    """Bradley-Terry (logistic Elo) maximum-likelihood ratings from (a, b, score of a) games.

    Draws count as half a win each way. Ratings are centred on mean 0; the interval is from the
    Fisher information of each rating with the others held fixed. Sorted best first.

    >>> [r.name for r in rating_list([("a", "b", 1), ("a", "b", 0.5), ("b", "c", 1), ("a", "c", 1)])]
    ['a', 'b', 'c']
    """
    points: dict[str, float] = defaultdict(float)
    games: dict[str, int] = defaultdict(int)
    meetings: dict[tuple[str, str], int] = defaultdict(int)
    for a, b, score in results:
        points[a] += score
        points[b] += 1.0 - score
        games[a] += 1
        games[b] += 1
        meetings[(a, b)] += 1
        meetings[(b, a)] += 1
    names = sorted(games)
    if not names:
        return []
    # A weak prior (two games, one point, against a virtual opponent of strength 1) keeps
    # perfect scores finite.
    strength = {name: 1.0 for name in names}
    for _ in range(iterations):
        change = 0.0
        for name in names:
            denominator = 2.0 / (strength[name] + 1.0)
            for other in names:
                n = meetings.get((name, other), 0)
                if n:
                    denominator += n / (strength[name] + strength[other])
            updated = (points[name] + 1.0) / denominator
            change = max(change, abs(math.log(updated / strength[name])))
            strength[name] = updated
        if change < 1e-10:
            break
    logs = {name: math.log(strength[name]) for name in names}
    centre = sum(logs.values()) / len(logs)
    out = []
    for name in names:
        info = 0.0
        for other in names:
            n = meetings.get((name, other), 0)
            if n:
                p = strength[name] / (strength[name] + strength[other])
                info += n * p * (1 - p)
        error = Z95 * ELO_PER_NAT / math.sqrt(info) if info > 0 else math.inf
        out.append(Rating(name, ELO_PER_NAT * (logs[name] - centre), error, games[name],
                          points[name] / games[name]))
    return sorted(out, key=lambda r: -r.elo)


@dataclass(frozen=True)
class MultiRating:
    """A Plackett-Luce rating (openskill) of a bot in games of three or more sides."""

    name: str
    mu: float
    sigma: float
    games: int
    mean_rank: float

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: the ordinal used to rank."""
        return self.mu - 3 * self.sigma


def plackett_luce(games: Iterable[Sequence[tuple[str, int]]]) -> list[MultiRating]:
    """Ratings from games given as [(bot, rank), ...] per side (rank 1 = first; ties share).

    >>> [r.name for r in plackett_luce([[("a", 1), ("b", 2), ("c", 3)]] * 5)]
    ['a', 'b', 'c']
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict[str, object] = {}
    count: dict[str, int] = defaultdict(int)
    rank_sum: dict[str, float] = defaultdict(float)
    for game in games:
        names = [name for name, _ in game]
        teams = [[ratings.setdefault(name, model.rating(name=name))] for name in names]
        new = model.rate(teams, ranks=[rank for _, rank in game])
        for name, (rating,), (_, rank) in zip(names, new, game):
            ratings[name] = rating
            count[name] += 1
            rank_sum[name] += rank
    out = [MultiRating(name, r.mu, r.sigma, count[name], rank_sum[name] / count[name])
           for name, r in ratings.items()]
    return sorted(out, key=lambda r: -r.conservative)


def ranks_from_returns(returns: Sequence[float]) -> list[int]:
    """Competition ranks (1 = best; equal returns share a rank) from per-side returns."""
    return [1 + sum(1 for other in returns if other > mine) for mine in returns]


__all__ = ["EloEstimate", "MultiRating", "PAIR_SCORES", "Rating", "elo_from_score", "game_estimate",
           "pair_estimate", "pentanomial_index", "plackett_luce", "rating_list", "ranks_from_returns"]
