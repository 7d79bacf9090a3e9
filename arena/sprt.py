"""Sequential probability ratio test on game pairs (pentanomial model), stopping early.

The log-likelihood ratio uses the generalized-SPRT approximation
`LLR = N (m1 - m0) (2 m - m0 - m1) / (2 v)` on the N pair scores (mean m, variance v per pair),
where m0 and m1 are the pair scores expected under the two hypotheses. In the default
`normalized` model the Elo bounds are normalized Elo (nElo: the score margin in units of the
pair scores' own spread, the model of today's chess testing frameworks), in the `logistic` model
they are ordinary logistic Elo. Accept H1 when LLR >= log((1-beta)/alpha), H0 when
LLR <= log(beta/(1-alpha)).

>>> test = Sprt(elo0=0, elo1=3, alpha=0.05, beta=0.05)
>>> round(test.llr([398, 4112, 7672, 4336, 430]), 2), test.status([398, 4112, 7672, 4336, 430])
(2.96, 'H1')
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from arena.statistics import pair_moments

_NELO_SCALE = math.log(10) / 800


def score_from_elo(elo: float) -> float:
    """Expected score of a player `elo` points stronger (logistic model)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


MIN_PAIRS = 20
"""Pairs before an SPRT may end a match (docs/arena.md: the error rates measured with and without)."""


@dataclass(frozen=True)
class Sprt:
    """An SPRT of H0: elo = elo0 against H1: elo = elo1 with error rates alpha, beta."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "normalized"  # or "logistic"

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1", "alpha", "beta"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
                raise ValueError(f"SPRT {name} must be a finite number, got {value!r}")
        if not 0 < self.alpha < 1 or not 0 < self.beta < 1:
            raise ValueError(f"SPRT alpha and beta must lie in (0, 1), got {self.alpha}, {self.beta}")
        if self.elo1 <= self.elo0:
            raise ValueError(f"SPRT needs elo0 < elo1, got {self.elo0}, {self.elo1}")
        if self.model not in ("normalized", "logistic"):
            raise ValueError(f"SPRT model must be normalized or logistic, got {self.model!r}")

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper) LLR bounds."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, pentanomial: Sequence[int]) -> float:
        """The log-likelihood ratio of H1 over H0 given the pentanomial counts of pairs.

        Empty cells count as 0.001 pairs, so that one-sided results (every pair won, say) have
        a variance and the test can decide on them.
        """
        if sum(pentanomial) == 0:
            return 0.0
        n, mean, var = pair_moments([c if c > 0 else 1e-3 for c in pentanomial])
        if self.model == "logistic":
            m0, m1 = score_from_elo(self.elo0), score_from_elo(self.elo1)
        else:
            spread = math.sqrt(2.0 * var)
            m0 = 0.5 + self.elo0 * _NELO_SCALE * spread
            m1 = 0.5 + self.elo1 * _NELO_SCALE * spread
        return n * (m1 - m0) * (2.0 * mean - m0 - m1) / (2.0 * var)

    def status(self, pentanomial: Sequence[int]) -> str | None:
        """'H1' (accept elo1), 'H0' (accept elo0), or None (keep playing). Never before MIN_PAIRS
        pairs: the test's variance is estimated from the pairs, and from the first few it can be
        near zero (one pair of two wins), which made the logistic model accept H1 between equal bots
        in a quarter of simulated runs, mostly after one or two pairs (docs/arena.md).

        >>> Sprt(0, 10, model="logistic").status([0, 0, 0, 0, 1]) is None
        True
        """
        if sum(pentanomial) < MIN_PAIRS:
            return None
        value = self.llr(pentanomial)
        lower, upper = self.bounds
        if value >= upper:
            return "H1"
        if value <= lower:
            return "H0"
        return None

    def describe(self) -> str:
        return f"elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} beta={self.beta:g} model={self.model}"


def parse_sprt(tokens: Sequence[str]) -> Sprt:
    """Parses `elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=normalized]` (a string or its tokens)."""
    if isinstance(tokens, str):
        tokens = tokens.replace(",", " ").split()
    values: dict[str, str] = {}
    for token in tokens:
        key, sep, value = token.partition("=")
        if not sep or key not in ("elo0", "elo1", "alpha", "beta", "model"):
            raise ValueError(f"--sprt: bad token {token!r} (expected elo0=, elo1=, alpha=, beta=, model=)")
        if key in values:
            raise ValueError(f"--sprt: {key} given twice")
        values[key] = value
    if "elo0" not in values or "elo1" not in values:
        raise ValueError("--sprt needs elo0= and elo1=")
    numbers = {}
    for key in ("elo0", "elo1", "alpha", "beta"):
        text = values.get(key, "0.05")
        try:
            numbers[key] = float(text)
        except ValueError:
            raise ValueError(f"--sprt: {key} must be a number, got {text!r}") from None
    try:
        return Sprt(**numbers, model=values.get("model", "normalized"))
    except ValueError as err:
        raise ValueError(f"--sprt: {err}") from None
