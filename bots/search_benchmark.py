"""Search benchmarks: ISMCTS iterations per second at the first decision of a deal, and the
resident memory of a bot process after a one-second search (`expeditions bench --search`).

Figures are taken on one thread with the bot's default options (flat at the root, heuristic rollouts
to the end of the round), changing one thing at a time: `iterations_per_s` with random rollouts,
`tree_iterations_per_s` with random rollouts and an unlimited tree (`MaxDepth=0`, `Others=tree`:
every seat's decisions are nodes), `heuristic_iterations_per_s` the defaults. Rates are per CPU
second of the searching thread (the `wall_` keys: per elapsed second), so a busy shared machine does
not distort them. Memory: a fresh process after a one-second search, with the defaults and with a
growing tree (`tree_search_rss_mb`, random rollouts, `MaxDepth=0`), both with the default `Hash`.

>>> figures = search_benchmark("expedition", {"rounds": 1}, seconds=0.05, memory=False)
>>> figures["iterations_per_s"] > 0 and figures["heuristic_iterations_per_s"] > 0
True
"""
from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Mapping
from typing import Any

import engine
from bots.ismcts_policy import IsmctsPolicy
from protocol.limits import Limits
from protocol.local import python_argv

SIGNATURE_ITERATIONS = 20_000
"""Iterations of the fixed-seed search whose root visit counts form the behaviour signature."""


def iteration_rate(edition: str, options: Mapping[str, int], seconds: float, seed: int = 1,
                   players: int | None = None, **settings: object) -> tuple[float, float]:
    """(iterations per CPU second, per wall-clock second) of one search of `seconds` at the first
    decision of the deal of `seed`.

    The search runs on the calling thread, so that thread's CPU time is the search's: the first
    figure does not depend on what else the machine runs; the second is what a `go movetime` gets."""
    view = engine.new_game(edition, seed=seed, players=players, **dict(options)).view(0)
    bot = IsmctsPolicy(seed=seed, EarlyStop="never", Reuse=False, **settings)
    bot.choose(view, Limits(iterations=200))  # warm up: allocate the pool, touch the code
    cpu = time.thread_time()
    bot.choose(view, Limits(movetime_ms=int(seconds * 1000)))
    cpu = time.thread_time() - cpu
    report = bot.last_search
    return report.iterations / max(cpu, 1e-9), report.iterations / (report.elapsed_ms / 1000.0)


def signature(edition: str, options: Mapping[str, int] | None = None, players: int | None = None) -> int:
    """A number that changes when the search's behaviour changes (like Stockfish's bench nodes):
    a checksum of the root visit counts of a fixed-seed, fixed-iteration search (by default of a
    short match: the edition's `quick_options`)."""
    options = options or engine.get_edition(edition).quick_options
    view = engine.new_game(edition, seed=1, players=players, **dict(options)).view(0)
    bot = IsmctsPolicy(seed=1, EarlyStop="never", Reuse=False)
    bot.choose(view, Limits(iterations=SIGNATURE_ITERATIONS))
    total = 0
    for decision, (visits, _mean) in sorted(bot.last_search.children.items()):
        total = (total * 1_000_003 + decision * 65_537 + visits) % (2**61 - 1)
    return total


_MEMORY_SCRIPT = """
import json, resource, sys
import engine
from bots.ismcts_policy import IsmctsPolicy
from protocol.limits import Limits
edition, options, ms, settings = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3]), json.loads(sys.argv[4])
players = json.loads(sys.argv[5])
view = engine.new_game(edition, seed=1, players=players, **options).view(0)
bot = IsmctsPolicy(seed=1, EarlyStop="never", **settings)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
bot.choose(view, Limits(movetime_ms=ms))
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
r = bot.last_search
print(json.dumps({"rss_before_kb": before, "rss_kb": after, "iterations": r.iterations, "nodes": r.nodes,
                  "capacity": r.capacity}))
"""


def search_memory(edition: str, options: Mapping[str, int], movetime_ms: int = 1000,
                  players: int | None = None, **settings: object) -> dict:
    """Peak resident memory of a fresh bot process that makes one search of `movetime_ms`
    (default options and the settings given; the default Hash): the whole process, Python and
    modules included."""
    argv = python_argv(_MEMORY_SCRIPT, edition, json.dumps(dict(options)), str(movetime_ms), json.dumps(settings),
                       json.dumps(players))
    out = subprocess.run(argv, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def search_benchmark(edition: str, options: Mapping[str, int] | None = None,
                     seconds: float = 1.0, memory: bool = True, players: int | None = None) -> dict:
    """All search figures as a dict (the keys of `expeditions bench --search --json`); by default
    of a short match (the edition's `quick_options`) with the edition's default number of players."""
    record = engine.get_edition(edition)
    options = dict(options if options is not None else record.quick_options)
    players = record.check_players(players)
    figures: dict[str, object] = {"edition": edition, "players": players, "options": options, "threads": 1}
    started = time.perf_counter()
    variants: tuple[tuple[str, dict[str, Any]], ...] = (
        ("", {"Rollout": "random"}), ("tree_", {"Rollout": "random", "MaxDepth": 0, "Others": "tree"}),
        ("heuristic_", {}))
    for key, settings in variants:
        cpu_rate, wall_rate = iteration_rate(edition, options, seconds, players=players, **settings)
        figures[f"{key}iterations_per_s"] = round(cpu_rate)
        figures[f"{key}wall_iterations_per_s"] = round(wall_rate)
    if memory:
        mem = search_memory(edition, options, int(seconds * 1000), players=players)
        figures["search_rss_mb"] = round(mem["rss_kb"] / 1024, 1)
        figures["idle_rss_mb"] = round(mem["rss_before_kb"] / 1024, 1)
        figures["search_nodes"] = mem["nodes"]
        figures["pool_nodes"] = mem["capacity"]
        tree = search_memory(edition, options, int(seconds * 1000), players=players, Rollout="random",
                             MaxDepth=0, Others="tree")
        figures["tree_search_rss_mb"] = round(tree["rss_kb"] / 1024, 1)
        figures["tree_search_nodes"] = tree["nodes"]
    figures["signature"] = signature(edition, options, players)
    figures["seconds"] = round(time.perf_counter() - started, 1)
    return figures
