"""Strength runs that keep their search traces: duplicate deals played and recorded as
`expeditions selfplay --duplicate --results` plays and records them, every game also traced into a
trace file (research/search_traces.py: at each decision side A's search made, the visits and mean
reward of every root decision).

    python -m research.record_traces -e classic --bots ismcts:EarlyStop=always:Infer=on,greedy \\
        --iterations 20000 --games 1000 --seed 20262101 --jobs 2 \\
        --results classic-again.jsonl --trace research/results/classic-infer-traces.jsonl.gz

The results file decides which deals are done, as it does for selfplay: the same command resumes a
stopped run, and `expeditions selfplay --summarize` reads the results. Each finished deal is traced
first and recorded second, so a run killed between the two plays that deal again, and a game traced
twice is read once. The search is deterministic at an iteration budget, so a run into a new results
file plays the games of a committed one again: that is how a trace file too large to commit is
regenerated (research/notebook.md, and its results compare to the committed ones with
`expeditions selfplay --summarize --compare-results`).

>>> import os, tempfile
>>> from research.search_traces import read_traces
>>> folder = tempfile.mkdtemp()
>>> results, trace = os.path.join(folder, "r.jsonl"), os.path.join(folder, "t.jsonl")
>>> stats = record("classic", 1, 5, "ismcts:Infer=off", "greedy", ResultsFile(results), TraceFile(trace),
...                {"rounds": 1}, Limits(iterations=50))
>>> stats.games, [game["game"] for game in read_traces(trace)]
(2, [0, 1])
"""
from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Callable, Mapping

import engine
from arena.duplicate import make_bot, run_duplicate
from arena.statistics import DuplicateStats, PairResult
from arena.duplicate_results import ResultsFile, RunConfig
from protocol.limits import Limits
from engine.errors import ExpeditionsError
from expeditions.commands import CommandError
from expeditions.commands.common import add_edition_arguments, edition_options, raise_keyboard_interrupt, seed_argument
from expeditions.provenance import code_version
from research.search_traces import TraceFile, search_trace


def record(edition: str, deals: int, seed: int, spec_a: str, spec_b: str, book: ResultsFile, traces: TraceFile,
           options: Mapping[str, int] | None = None, limits: Limits | None = None, players: int | None = None,
           jobs: int = 1, progress: Callable[[PairResult, DuplicateStats], None] | None = None) -> DuplicateStats:
    """Plays the deals seed, seed+1, … that `book` does not hold for this configuration, traces every
    game into `traces` and records every deal in `book` (module docstring); `progress` as in
    arena.duplicate.run_duplicate."""
    rules = engine.get_edition(edition)
    players = rules.check_players(players)
    limits = limits or Limits()
    config = RunConfig(rules.name, rules.resolve_options(options), players, spec_a, spec_b,
                       limits.iterations, limits.movetime_ms)
    recorded = book.deals(config)
    done = {seed + i: recorded[seed + i] for i in range(deals) if seed + i in recorded}

    def keep(pair: PairResult, stats: DuplicateStats) -> None:
        traces.append(config, pair)  # first: a deal killed before its result is played and traced again
        book.append(config, pair)
        if progress:
            progress(pair, stats)

    return run_duplicate(rules.name, deals, seed, spec_a, spec_b, options, limits, jobs=jobs, progress=keep,
                         players=players, done=done, observe=search_trace)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m research.record_traces", description=__doc__.split("\n\n")[0])
    add_edition_arguments(parser)
    parser.add_argument("--bots", required=True, metavar="A,B", help="the two bot specs, side A first")
    parser.add_argument("--games", "-n", type=int, required=True, help="deals (pairs) to play")
    parser.add_argument("--seed", type=seed_argument, required=True, help="the first deal's seed")
    parser.add_argument("--iterations", type=int, default=None, help="search iterations a decision")
    parser.add_argument("--movetime", type=int, default=None, help="milliseconds a decision")
    parser.add_argument("--jobs", "-j", type=int, default=1, help="pairs played in parallel processes")
    parser.add_argument("--results", required=True, metavar="FILE.jsonl", help="the run's results file")
    parser.add_argument("--trace", required=True, metavar="FILE.jsonl[.gz]", help="the trace file appended to")
    parser.add_argument("--quiet", "-q", action="store_true", help="print only the summary")
    args = parser.parse_args(argv)
    for flag, value in (("--games", args.games), ("--jobs", args.jobs), ("--iterations", args.iterations),
                        ("--movetime", args.movetime)):
        if value is not None and value < 1:
            parser.error(f"{flag} must be at least 1, got {value}")
    names = [name.strip() for name in args.bots.split(",") if name.strip()]
    if len(names) != 2:
        parser.error("--bots needs two bot specs: A,B")
    try:
        for name in names:
            make_bot(name, 0)
        edition, options = edition_options(args)
        for path in (args.results, args.trace):
            open(path, "ab").close()  # a file it cannot write fails now, not after the first deal
        book, traces = ResultsFile(args.results), TraceFile(args.trace)
        for notice in (book.notice, traces.prepare()):
            if notice:
                print(notice, flush=True)
    except (ExpeditionsError, CommandError, ValueError, OSError) as e:  # ValueError: a bad spec, results or trace file
        print(f"error: {e}", file=sys.stderr)
        return 2
    limits = Limits(movetime_ms=args.movetime, iterations=args.iterations)
    print(f"record {edition.name} deals={args.games} seed={args.seed} A={names[0]} B={names[1]} "
          f"iterations={args.iterations} movetime={args.movetime} code={code_version()}", flush=True)

    def progress(pair: PairResult, stats: DuplicateStats) -> None:
        if not args.quiet:
            print(f"deal {pair.seed} margins {'/'.join(f'{m:+d}' for m in pair.margins)} "
                  f"{pair.seconds:.1f}s | {stats.summary()}", flush=True)

    previous = signal.signal(signal.SIGTERM, raise_keyboard_interrupt)  # workers stop, finished deals stay
    try:
        stats = record(edition.name, args.games, args.seed, names[0], names[1], book, traces, options, limits,
                       args.players, args.jobs, progress)
    except KeyboardInterrupt:
        print(f"interrupted: the finished deals are in {args.results} and {args.trace}; "
              f"the same command resumes the run", file=sys.stderr)
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous)
    print(stats.summary())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
