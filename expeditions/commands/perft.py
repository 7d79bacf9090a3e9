"""`expeditions perft`: counts decision sequences from a fully known position."""
from __future__ import annotations

import argparse
import time

import engine
from expeditions.commands import CommandError
from expeditions.commands.common import add_edition_arguments, edition_options, seed_argument


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("perft", help="count decision sequences to a depth (move generator check)",
                       description="Counts the sequences of `depth` decisions from a position; the "
                                   "full position fixes the draw order, so the count is exact.")
    add_edition_arguments(p)
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--seed", type=seed_argument, help="start from the first position dealt from this seed")
    where.add_argument("--position", help="start from this full position (docs/notation.md)")
    p.add_argument("--depth", type=int, required=True, help="number of decisions")
    p.add_argument("--divide", action="store_true", help="also print the count below each legal decision")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.depth < 0:
        raise CommandError(f"--depth must be >= 0, got {args.depth}")
    if args.position is not None:
        state = engine.parse_position(args.position)
    else:
        edition, options = edition_options(args)
        state = edition.new_game(args.seed, args.players, **options)
    start = time.perf_counter()
    if args.divide and args.depth > 0:
        total = 0
        for decision in state.legal():
            child = state.copy()
            child.apply(decision)
            count = child.perft(args.depth - 1)
            total += count
            print(f"{state.decision_to_text(decision)}: {count}")
    else:
        total = state.perft(args.depth)
    elapsed = time.perf_counter() - start
    rate = f"{total / elapsed:,.0f}/s" if elapsed > 0 else "-"
    print(f"perft depth {args.depth}: {total} ({elapsed:.3f} s, {rate})")
    return 0
