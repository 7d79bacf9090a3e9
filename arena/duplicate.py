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
import multiprocessing
import signal
import time
from collections.abc import Callable, Mapping

import engine
from arena.match import Observer, play_match
from arena.statistics import DuplicateStats, PairResult, places
from bots.registry import POLICIES, make_policy
from protocol.limits import Limits
from protocol.policy import Policy


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
    deal played. Deals in `done` (by seed: results recorded earlier, arena/duplicate_results.py) are
    counted as they are and not played again. `observe`: each pair carries its games' records
    (`play_pair`), for `progress` to keep; with `jobs`, it must pickle (a module-level function)."""
    make_bot(spec_a, 0), make_bot(spec_b, 0)  # a bad spec fails here, not in a worker
    done = done or {}
    work = [(edition, seed + i, spec_a, spec_b, dict(options or {}), limits, players, observe) for i in range(deals)
            if seed + i not in done]
    stats = DuplicateStats([done[seed + i] for i in range(deals) if seed + i in done],
                           scored=engine.get_edition(edition).rules.margin)
    if jobs <= 1 or len(work) <= 1:
        for args in work:
            _add(stats, _play_pair_args(args), progress)
    else:
        with multiprocessing.get_context("fork").Pool(min(jobs, len(work)), initializer=_default_signals) as pool:
            for pair in pool.imap_unordered(_play_pair_args, work):
                _add(stats, pair, progress)
    stats.pairs.sort(key=lambda p: p.seed)
    return stats
