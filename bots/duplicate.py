"""Duplicate matches: every deal is played twice with the sides swapped, so luck of the deal cancels.

Side A holds the seats of team 0 in the first game of a pair and those of team 1 in the second
(classic, expedition: seat 0 then seat 1; partners: seats 0 and 2, then 1 and 3). Where every seat
plays for itself and there are more than two (`board` with 3 or 4 players), one A plays against
B at every other seat and the deal is played once per seat of A (all rotations). A bot is named
by a spec, `name[:Option=value…]` (e.g. `ismcts:Rollout=random:Exploration=50`); every seat gets
its own policy instance, seeded from the deal. Pairs can run in several processes (`jobs`).

>>> stats = run_duplicate("expedition", 2, 7, "greedy", "random", {"rounds": 1})
>>> stats.games, stats.wins + stats.draws + stats.losses
(4, 4)
"""
from __future__ import annotations

import dataclasses
import math
import multiprocessing
import signal
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import engine
from bots.match import Observer, play_match
from arena.ratings import t_quantile
from protocol.limits import Limits
from protocol.policy import Policy
from bots.registry import POLICIES, make_policy


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """`name:Opt=value:…` as (name, options).

    >>> parse_spec("ismcts:Exploration=50:Rollout=random")
    ('ismcts', {'Exploration': '50', 'Rollout': 'random'})
    """
    name, *parts = spec.strip().split(":")
    options = {}
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq or not key:
            raise ValueError(f"bot spec {spec!r}: expected name:Option=value…, got {part!r}")
        options[key] = value
    if name not in POLICIES:
        raise ValueError(f"unknown bot {name!r} (built-in bots: {', '.join(POLICIES)})")
    return name, options


def make_bot(spec: str, seed: int) -> Policy:
    """A policy from a spec, its options set (ValueError names a bad option)."""
    name, options = parse_spec(spec)
    policy = make_policy(name, seed=seed)
    for key, value in options.items():
        policy.set_option(key, value)
    return policy


GameObserver = Callable[[int, list[int]], tuple[dict, Observer]]
"""Given a game's number in its pair and side A's seats, a record of the game and the observer that
fills it as the game is played (e.g. research/search_traces.py keeps what side A's searches found)."""


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


def _mean_and_interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval (nan with fewer than two values): Student's t
    with n − 1 degrees of freedom, as the spread is estimated from the same values (5 deals:
    2.78 standard errors, not 1.96; 500 deals: 1.965).

    >>> round(_mean_and_interval([0.0, 1.0, 1.0, 0.5, 1.0])[1], 3)
    0.555
    """
    n = len(values)
    mean = sum(values) / n if n else float("nan")
    if n < 2:
        return mean, float("nan")
    return mean, t_quantile(0.975, n - 1) * math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def _plus_minus(half_width: float, digits: int) -> str:
    """" ± h" for an interval's half-width, or nothing where there is none (fewer than two deals:
    the spread of one deal's scores says nothing of the deals to come).

    >>> _plus_minus(0.0314, 3), _plus_minus(float("nan"), 3)
    (' ± 0.031', '')
    """
    return "" if math.isnan(half_width) else f" ± {half_width:.{digits}f}"


@dataclass
class DuplicateStats:
    """Totals of a duplicate run for side A."""

    pairs: list[PairResult] = field(default_factory=list)

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
        return _mean_and_interval([sum(p.returns) / len(p.returns) for p in self.pairs])[1]

    @property
    def margin(self) -> float:
        """A's mean score margin per game."""
        return sum(sum(p.margins) for p in self.pairs) / self.games if self.pairs else 0.0

    def margin_interval(self) -> float:
        """Half-width of the 95% confidence interval of `margin` (from the pairs' mean margins)."""
        return _mean_and_interval([sum(p.margins) / len(p.margins) for p in self.pairs])[1]

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
                f"score {self.score:.3f}{_plus_minus(self.interval(), 3)}  win rate {self.win_rate:.3f}  "
                f"margin {self.margin:+.1f}{_plus_minus(self.margin_interval(), 1)}")
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
                f"difference {self.difference:+.3f}{_plus_minus(self.interval, 3)} a game  "
                f"margin difference {self.margin_difference:+.1f}{_plus_minus(self.margin_interval, 1)}")


def paired_difference(pairs: list[PairResult], others: list[PairResult]) -> PairedDifference:
    """`pairs` against `others` over the deals (seeds) both hold; see PairedDifference."""
    by_seed = {p.seed: p for p in others}
    common = [(p, by_seed[p.seed]) for p in sorted(pairs, key=lambda p: p.seed) if p.seed in by_seed]

    def per_game(values: tuple) -> float:
        return sum(values) / len(values)

    score, _ = _mean_and_interval([per_game(p.returns) for p, _ in common])
    other, _ = _mean_and_interval([per_game(o.returns) for _, o in common])
    diff, interval = _mean_and_interval([per_game(p.returns) - per_game(o.returns) for p, o in common])
    margin, margin_interval = _mean_and_interval([per_game(p.margins) - per_game(o.margins) for p, o in common])
    return PairedDifference(len(common), score, other, diff, interval, margin, margin_interval)


def play_pair(edition: str, seed: int, spec_a: str, spec_b: str, options: Mapping[str, object] | None = None,
              limits: Limits | None = None, players: int | None = None,
              observe: GameObserver | None = None) -> PairResult:
    """Plays the deal of `seed` with side A on team 0 and then on team 1 or, with more than two
    sides, once with A at each seat and B at all the others; with `observe`, keeps a record of
    every game (`GameObserver`)."""
    started = time.perf_counter()
    state = engine.new_game(edition, seed=seed, players=players, **dict(options or {}))
    n = state.num_seats
    teams = [state.team_of(seat) for seat in range(n)]
    rotations = len(set(teams)) > 2
    returns, margins, ranks, other_ranks, records = [], [], [], [], []
    for game in range(n if rotations else 2):
        a_seats = [game] if rotations else [s for s in range(n) if teams[s] % 2 == game]
        b_seats = [s for s in range(n) if s not in a_seats]
        policies = [make_bot(spec_a if seat in a_seats else spec_b, seed * 8 + game * 4 + seat) for seat in range(n)]
        record, observer = observe(game, a_seats) if observe else (None, None)
        result = play_match(edition, seed, policies, options, players=players, limits=limits, observer=observer)
        if record is not None:
            record["moves"] = list(result.moves)
            records.append(record)
        a = a_seats[0]
        returns.append(result.returns[a])
        margins.append(result.scores[a] - max(result.scores[b] for b in b_seats))
        if rotations:
            place = places(result.scores, list(range(n)))
            ranks.append(place[a])
            other_ranks.append(sum(place[b] for b in b_seats) / len(b_seats))
    return PairResult(seed, tuple(returns), tuple(margins), time.perf_counter() - started, tuple(ranks),
                      tuple(other_ranks), tuple(records))


def _add(stats: DuplicateStats, pair: PairResult, progress: Callable | None) -> None:
    """Counts a finished pair, shows it to `progress`, then lets its records go (they can be large)."""
    stats.pairs.append(pair)
    if progress:
        progress(pair, stats)
    if pair.records:
        stats.pairs[-1] = dataclasses.replace(pair, records=())


def _default_signals() -> None:
    """In a worker: SIGINT and SIGTERM end it at once (a forked worker inherits the parent's
    handlers, which turn them into KeyboardInterrupt for the parent to stop the pool)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _play_pair_args(args: tuple) -> PairResult:
    return play_pair(*args)


def run_duplicate(edition: str, deals: int, seed: int, spec_a: str, spec_b: str,
                  options: Mapping[str, object] | None = None, limits: Limits | None = None, jobs: int = 1,
                  progress: Callable[[PairResult, DuplicateStats], None] | None = None,
                  players: int | None = None, done: Mapping[int, PairResult] | None = None,
                  observe: GameObserver | None = None) -> DuplicateStats:
    """Plays deals seed, seed+1, … (each as a pair, or all rotations); `progress` is called after each
    deal played. Deals in `done` (by seed: results recorded earlier, bots/duplicate_results.py) are
    counted as they are and not played again. `observe`: each pair carries its games' records
    (`play_pair`), for `progress` to keep; with `jobs`, it must pickle (a module-level function)."""
    make_bot(spec_a, 0), make_bot(spec_b, 0)  # a bad spec fails here, not in a worker
    done = done or {}
    work = [(edition, seed + i, spec_a, spec_b, dict(options or {}), limits, players, observe) for i in range(deals)
            if seed + i not in done]
    stats = DuplicateStats([done[seed + i] for i in range(deals) if seed + i in done])
    if jobs <= 1 or len(work) <= 1:
        for args in work:
            _add(stats, _play_pair_args(args), progress)
    else:
        with multiprocessing.get_context("fork").Pool(min(jobs, len(work)), initializer=_default_signals) as pool:
            for pair in pool.imap_unordered(_play_pair_args, work):
                _add(stats, pair, progress)
    stats.pairs.sort(key=lambda p: p.seed)
    return stats
