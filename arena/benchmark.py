"""Arena throughput: random against random through the protocol, all games in parallel slots.

>>> # expeditions bench --arena --json  ->  {"arena_games_per_s": ..., ...}
"""
from __future__ import annotations

import os
import tempfile
import time

from arena.config import TimeControl, TournamentConfig, builtin_bot
from arena.runner import LocalRunner, ProcessRunner
from arena.store import Store
from arena.tournament import Tournament


def arena_benchmark(edition: str = "classic", options: dict | None = None, seconds: float = 10.0,
                    concurrency: int | None = None, players: int | None = None, workers: int = 0) -> dict:
    """Plays random-vs-random tournaments for about `seconds` and reports games per second.

    A game is one deal (`rounds=1` unless options say otherwise), as in the engine benchmark;
    bot start-up is excluded (one warm-up game first), database writes are included.
    """
    options = dict(options or {"rounds": 1})
    # Random bots answer at once: a game waits mostly on pipes and wake-ups, so several games
    # per core keep the cores busy (measured: 4 per core beats 1 and 8).
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 2
    slots = concurrency or 4 * cpus
    bots = [builtin_bot("random"), builtin_bot("random")]
    bots[1].name = "random2"
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(os.path.join(tmp, "bench.sqlite"))
        limits = TournamentConfig(edition, bots).limits
        runner = ProcessRunner(bots, limits, workers) if workers else LocalRunner(bots, limits, slots)
        slots = runner.slots
        try:
            warm = TournamentConfig(edition, bots, options=options, players=players, deals=slots, seed=1,
                                    concurrency=slots, time=TimeControl(movetime_ms=1000, margin_ms=2000))
            Tournament(warm, store).run(runner)
            games = decisions = 0
            start = time.perf_counter()
            deals = 2 * slots
            while time.perf_counter() - start < seconds:
                config = TournamentConfig(edition, bots, options=options, players=players, deals=deals,
                                          seed=games + 2, concurrency=slots,
                                          time=TimeControl(movetime_ms=1000, margin_ms=2000))
                outcome = Tournament(config, store).run(runner)
                games += len(outcome.games)
                decisions += sum(len(store.decisions(g.id)) for g in outcome.games)
                deals = min(deals * 2, 64)
            elapsed = time.perf_counter() - start
        finally:
            runner.close()
            store.close()
    return {"edition": edition, "options": options, "concurrency": slots, "games": games,
            "arena_games_per_s": round(games / elapsed, 2), "arena_decisions_per_s": round(decisions / elapsed),
            "seconds": round(elapsed, 2)}
