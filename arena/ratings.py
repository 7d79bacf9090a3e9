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

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from arena.statistics import Z95, pair_moments, score_interval, t_cdf, unanimous_los

if TYPE_CHECKING:
    from openskill.models import PlackettLuceRating

ELO_PER_NAT = 400.0 / math.log(10.0)


def elo_from_score(score: float) -> float:
    """Logistic Elo difference that gives this expected score (clamped away from 0 and 1)."""
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / score - 1.0)


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


def _estimate(mean: float, variance: float, n: int, pairs: int) -> EloEstimate:
    """From the mean and the (population) variance of n pair, or game, scores."""
    stderr = math.sqrt(variance / (n - 1)) if n > 1 else 0.0  # the sample variance's, over n
    low, high = score_interval(mean, stderr, n)
    if stderr > 0.0:
        los = t_cdf((mean - 0.5) / stderr, n - 1)
    else:
        los = unanimous_los(mean, n)
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
    ratings: dict[str, PlackettLuceRating] = {}
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


__all__ = ["EloEstimate", "MultiRating", "Rating", "elo_from_score", "game_estimate", "pair_estimate", "plackett_luce",
           "rating_list"]
