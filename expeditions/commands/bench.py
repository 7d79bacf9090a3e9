"""`expeditions bench`: speed figures with a baseline measured in the same run."""
from __future__ import annotations

import argparse
import json

from engine.benchmark import engine_benchmark
from expeditions.commands.common import add_edition_arguments, edition_options


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="measure speed (compiled vs Python face vs reference model)",
                       description="Measures random playouts in compiled code, through the Python face "
                                   "and in the pure-Python reference model, in one run, and prints the "
                                   "ratios. Default options: rounds=1 (one deal per game).")
    add_edition_arguments(p)
    p.add_argument("--seconds", type=float, default=1.0, help="time per measurement (default 1)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    edition, options = edition_options(args)
    figures = engine_benchmark(edition.name, options or None, seconds=args.seconds)
    if args.json:
        print(json.dumps(figures))
        return 0
    width = max(map(len, figures))
    for key, value in figures.items():
        print(f"{key:<{width}}  {value:,}" if isinstance(value, (int, float)) else f"{key:<{width}}  {value}")
    return 0
