"""Engine benchmarks: random playouts in compiled code, through the Python face and in the
pure-Python reference model, measured in the same run so their ratios hold on a noisy machine.

>>> from engine.benchmark import engine_benchmark
>>> figures = engine_benchmark("expedition", seconds=0.05)
>>> figures["compiled_games_per_s"] > figures["reference_games_per_s"]
True
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from typing import Any

import engine
from engine import reference
from engine._core import compiled_playouts, measure_copy_ns, measure_determinize_ns

SIGNATURE_GAMES = 1000
"""Fixed-seed games whose total decision count is the behaviour signature (like Stockfish's
bench node count): any change of the rules or of the random playout changes it."""


def _rate(run_batch: Callable[[int], int], seconds: float, first_batch: int) -> tuple[float, float]:
    """Runs batches of growing size for about `seconds`; returns (games/s, decisions/s)."""
    games = decisions = 0
    batch = first_batch
    start = time.perf_counter()
    while True:
        decisions += run_batch(batch)
        games += batch
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed, decisions / elapsed
        batch = max(1, int(batch * min(4.0, max(1.5, seconds / max(elapsed, 1e-9) / 2))))


def compiled_rate(edition: str, options: Mapping[str, object], seconds: float, seed: int = 1,
                  players: int | None = None) -> tuple[float, float]:
    template = engine.new_game(edition, seed=seed, players=players, **dict(options))
    counter = [seed]

    def batch(n: int) -> int:
        counter[0] += n
        return compiled_playouts(template, n, counter[0])
    return _rate(batch, seconds, 64)


def _random_games_rate(new: Callable[..., Any], over: Callable[[Any], bool], options: Mapping[str, object],
                       seconds: float, seed: int) -> tuple[float, float]:
    """Rate of random games driven from Python: `new(seed, **options)` deals, `legal()`/`apply()` play."""
    rng = random.Random(seed)
    counter = [seed]

    def batch(n: int) -> int:
        decisions = 0
        for _ in range(n):
            counter[0] += 1
            game = new(counter[0], **dict(options))
            while not over(game):
                game.apply(rng.choice(game.legal()))
                decisions += 1
        return decisions
    return _rate(batch, seconds, 1)


def python_face_rate(edition: str, options: Mapping[str, object], seconds: float, seed: int = 1,
                     players: int | None = None) -> tuple[float, float]:
    """The same random games driven from Python through State.legal()/apply()."""
    def new(game_seed: int, **opts: object) -> engine.State:
        return engine.new_game(edition, seed=game_seed, players=players, **opts)
    return _random_games_rate(new, lambda state: state.is_terminal(), options, seconds, seed)


def reference_factory(edition: str, players: int | None = None) -> Callable[..., Any] | None:
    """`new(seed, **options)` of the edition's pure-Python reference model (its record's
    `reference`), dealing for `players` where the edition has a choice; None while there is no
    such model.

    >>> reference_factory("classic")(7).to_move
    0
    >>> reference_factory("board", 2)(7, rounds=1).players
    2
    """
    if engine.get_edition(edition).reference is None:
        return None
    return lambda seed, **options: reference.new(edition, seed, players, **options)


def reference_rate(edition: str, options: Mapping[str, object], seconds: float, seed: int = 1,
                   players: int | None = None) -> tuple[float, float] | None:
    """Random games in the reference model, or None when the edition has none."""
    new = reference_factory(edition, players)
    if new is None:
        return None
    return _random_games_rate(new, lambda game: game.is_over(), options, seconds, seed)


def signature(edition: str, options: Mapping[str, object] | None = None, players: int | None = None) -> int:
    """Total decisions of SIGNATURE_GAMES random games from fixed seeds."""
    template = engine.new_game(edition, seed=0, players=players, **dict(options or {}))
    return compiled_playouts(template, SIGNATURE_GAMES, 0)


def engine_benchmark(edition: str, options: Mapping[str, object] | None = None, seconds: float = 1.0,
                     players: int | None = None) -> dict:
    """All engine figures of one edition as a dict (the keys of `expeditions bench --json`).

    A *game* is one complete match with the given options; by default the benchmark plays the
    edition's short matches (`quick_options`: one deal from shuffle to scoring) and also reports
    full default matches. `players` defaults to the edition's default. The reference figures are
    None for an edition without a reference model.
    """
    record = engine.get_edition(edition)
    options = dict(options or record.quick_options)
    players = record.check_players(players)
    compiled, compiled_dec = compiled_rate(edition, options, seconds, players=players)
    python, python_dec = python_face_rate(edition, options, seconds, players=players)
    measured = reference_rate(edition, options, seconds, players=players)
    ref = measured[0] if measured is not None else None
    matches, _ = compiled_rate(edition, {}, seconds / 2, players=players)
    state = engine.new_game(edition, seed=1, players=players, **options)
    baseline = engine.default_edition()  # decisions/s of editions compare to the first's, in this run
    if baseline is record:
        base_dec = compiled_dec
    else:
        base_dec = compiled_rate(baseline.name, baseline.quick_options, seconds / 2)[1]
    return {
        "edition": edition,
        "players": players,
        "options": options,
        "compiled_games_per_s": round(compiled, 1),
        "compiled_decisions_per_s": round(compiled_dec),
        "decisions_per_game": round(compiled_dec / compiled, 1),
        "baseline_edition": baseline.name,
        "baseline_decisions_per_s": round(base_dec),
        "decisions_vs_baseline": round(compiled_dec / base_dec, 2),
        "python_games_per_s": round(python, 2),
        "reference_games_per_s": round(ref, 2) if ref is not None else None,
        "compiled_vs_python": round(compiled / python, 1),
        "compiled_vs_reference": round(compiled / ref, 1) if ref is not None else None,
        "compiled_default_matches_per_s": round(matches, 1),
        "state_bytes": engine.get_edition(state.edition).rules.state_size,
        "state_copy_ns": round(measure_copy_ns(state, 2_000_000), 2),
        "determinize_ns": round(measure_determinize_ns(state, 0, 200_000), 1),
        "signature": signature(edition, options, players),
    }
