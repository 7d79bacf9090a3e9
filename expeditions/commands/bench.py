"""`expeditions bench`: speed figures with a baseline measured in the same run."""
from __future__ import annotations

import argparse
import json

from engine.benchmark import engine_benchmark
from expeditions.commands import CommandError
from expeditions.commands.common import add_edition_arguments, edition_options


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="measure speed (compiled vs Python face vs reference model)",
                       description="Measures random playouts in compiled code, through the Python face "
                                   "and in the pure-Python reference model, in one run, and prints the "
                                   "ratios. Default options: rounds=1 (one deal per game).")
    add_edition_arguments(p)
    p.add_argument("--seconds", type=float, default=1.0, help="time per measurement (default 1)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--protocol", action="store_true",
                   help="instead, time position+go -> bestmove round trips with the random bot over pipes "
                        "(key roundtrip_us_median, in microseconds)")
    p.add_argument("--arena", action="store_true",
                   help="instead, random-vs-random games through the protocol in the arena, all CPUs, "
                        "refereed in worker processes (key arena_games_per_s) and, as the baseline, in "
                        "threads (threads_games_per_s); a game is one deal unless -o rounds=N")
    p.add_argument("--search", action="store_true",
                   help="instead, ISMCTS iterations per second at the first decision of a deal, one thread, "
                        "random and heuristic rollouts (keys iterations_per_s, heuristic_iterations_per_s), "
                        "and the resident memory of a bot process after one search of --seconds (search_rss_mb, tree_search_rss_mb)")
    p.add_argument("--rl", action="store_true",
                   help="instead, steps per second of the reinforcement-learning environments (needs the rl "
                        "extra): the batched environment with random decisions (batched_steps_per_s), the "
                        "PettingZoo and Gymnasium wrappers (pettingzoo_steps_per_s, gymnasium_steps_per_s), and "
                        "random games through the Python face as the baseline (python_games_per_s)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    edition, options = edition_options(args)
    if not args.seconds > 0:  # also NaN
        raise CommandError(f"--seconds must be more than 0, got {args.seconds}")
    if args.rl:
        try:
            from rl.benchmark import rl_benchmark
        except ImportError as err:
            raise CommandError(f"--rl needs the rl extra (pip install 'expeditions[rl]'): {err}") from None
        figures = rl_benchmark(edition.name, options or None, seconds=args.seconds, players=args.players)
    elif args.arena:
        from arena.benchmark import arena_benchmark
        figures = arena_benchmark(edition.name, options or None, seconds=max(args.seconds, 5.0), players=args.players)
    elif args.search:
        from bots.search_benchmark import search_benchmark
        figures = search_benchmark(edition.name, options or None, seconds=args.seconds, players=args.players)
    elif args.protocol:
        from protocol.benchmark import protocol_benchmark
        figures = protocol_benchmark(edition.name, options or None, seconds=args.seconds, players=args.players)
    else:
        figures = engine_benchmark(edition.name, options or None, seconds=args.seconds, players=args.players)
    if args.json:
        print(json.dumps(figures))
        return 0
    width = max(map(len, figures))
    for key, value in figures.items():
        print(f"{key:<{width}}  {value:,}" if isinstance(value, (int, float)) else f"{key:<{width}}  {value}")
    return 0
