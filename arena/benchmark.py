"""Arena throughput: random against random through the protocol, all games in parallel slots.

Measured twice in one run: with every game refereed in its own worker process pinned to a CPU
with its bots (`expeditions arena --processes --pin`, the headline figure) and with the games in
threads of the arena (the default of `expeditions arena`), the baseline.

>>> # expeditions bench --arena --json  ->  {"arena_games_per_s": ..., "threads_games_per_s": ...}
"""
from __future__ import annotations

import os
import tempfile
import time

import engine
from arena.config import BotSpec, TimeControl, TournamentConfig, builtin_bot, usable_cpus
from arena.runner import LocalRunner, ProcessRunner
from arena.store import Store
from arena.tournament import Tournament


def arena_benchmark(edition: str, options: dict | None = None, seconds: float = 10.0,
                    concurrency: int | None = None, players: int | None = None) -> dict:
    """Plays random-vs-random tournaments for about `seconds` per mode; games per second.

    A game is a short match (the edition's `quick_options`: one deal) unless options say otherwise,
    as in the engine benchmark; bot start-up is excluded (one warm-up tournament first), database
    writes are included.
    """
    options = dict(options or engine.get_edition(edition).quick_options)
    bots = [builtin_bot("random"), builtin_bot("random")]
    bots[1].name = "random2"
    # Random bots answer at once: a game is hand-offs between three processes. One worker per CPU,
    # pinned there with its bots, hands off without crossing cores (measured on 2 cores: 107
    # games/s; 2 unpinned workers per core 80); threads keep the cores busiest at 4 per core.
    processes = _measure(edition, options, players, bots, seconds, concurrency or usable_cpus(), True)
    threads = _measure(edition, options, players, bots, seconds, concurrency or 4 * usable_cpus(), False)
    return {"edition": edition, "options": options,
            "arena_games_per_s": processes["games_per_s"], "arena_decisions_per_s": processes["decisions_per_s"],
            "processes": processes["slots"], "games": processes["games"], "seconds": processes["seconds"],
            "threads_games_per_s": threads["games_per_s"], "threads_decisions_per_s": threads["decisions_per_s"],
            "threads": threads["slots"], "processes_over_threads": round(processes["games_per_s"] / threads["games_per_s"], 2)}


def _measure(edition: str, options: dict, players: int | None, bots: list[BotSpec], seconds: float,
             slots: int, processes: bool) -> dict:
    """Games per second with `slots` games at once: in pinned worker processes, or in threads."""
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(os.path.join(tmp, "bench.sqlite"))
        limits = TournamentConfig(edition, bots).limits
        runner = ProcessRunner(bots, limits, slots, pin_cpus=True) if processes else LocalRunner(bots, limits, slots)
        time_control = TimeControl(movetime_ms=1000, margin_ms=2000)
        try:
            warm = TournamentConfig(edition, bots, options=options, players=players, deals=slots, seed=1,
                                    concurrency=slots, time=time_control)
            Tournament(warm, store).run(runner)
            games = decisions = 0
            start = time.perf_counter()
            deals = 2 * slots
            while time.perf_counter() - start < seconds:
                config = TournamentConfig(edition, bots, options=options, players=players, deals=deals,
                                          seed=games + 2, concurrency=slots, time=time_control)
                outcome = Tournament(config, store).run(runner)
                games += len(outcome.games)
                decisions += sum(len(g.decisions) for g in outcome.games)
                deals = min(deals * 2, 64)
            elapsed = time.perf_counter() - start
        finally:
            runner.close()
            store.close()
    return {"slots": slots, "games": games, "games_per_s": round(games / elapsed, 2),
            "decisions_per_s": round(decisions / elapsed), "seconds": round(elapsed, 2)}
