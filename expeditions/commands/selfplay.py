"""`expeditions selfplay`: built-in bots play each other in-process."""
from __future__ import annotations

import argparse
import dataclasses
import os
import signal
import sys

from arena.duplicate import make_bot, run_duplicate
from arena.statistics import DuplicateStats, PairResult, paired_difference
from arena.duplicate_results import ResultsFile, ResultsFileError, RunConfig
from arena.match import play_match
from protocol.limits import Limits
from bots.registry import POLICIES
from engine import Edition
from expeditions.commands import CommandError
from expeditions.commands.common import (add_edition_arguments, edition_options, master_seed,
                                         raise_keyboard_interrupt, seed_argument)
from expeditions.provenance import code_version


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("selfplay", help="play built-in bots against each other in-process",
                       description="Plays games between built-in bots (each sees only its own view). "
                                   "Seats rotate from game to game; game i is dealt from seed+i.")
    add_edition_arguments(p)
    p.add_argument("--games", "-n", type=int, default=10, help="number of games (default 10)")
    p.add_argument("--seed", type=seed_argument, default=None, help="master seed (printed; random if omitted)")
    p.add_argument("--bots", default="random", help=f"comma-separated bots, one per seat or one for all "
                                                      f"(built-in: {', '.join(POLICIES)}); a bot may carry "
                                                      f"options, e.g. ismcts:Exploration=50")
    p.add_argument("--quiet", "-q", action="store_true", help="print only the summary")
    p.add_argument("--duplicate", action="store_true",
                   help="two bots (side A, side B): every deal is played twice with the sides swapped; "
                        "with more than two sides (3-4 players who each play alone) A plays one seat against B at all the others, "
                        "once per seat; --games counts deals")
    p.add_argument("--iterations", type=int, default=None, help="search iterations per decision (go iterations)")
    p.add_argument("--movetime", type=int, default=None, help="milliseconds per decision (go movetime)")
    p.add_argument("--jobs", "-j", type=int, default=1, help="--duplicate: pairs played in parallel processes")
    p.add_argument("--results", metavar="FILE.jsonl", default=None,
                   help="--duplicate: append every finished deal to FILE (a JSON line each) and skip the deals "
                        "it already holds for the same edition, rules, bots and budget: run the same command "
                        "again to resume, or with other seeds to add deals")
    p.add_argument("--summarize", action="store_true",
                   help="with --results: print the totals of every deal FILE holds for this configuration "
                        "(any seeds) and play nothing")
    p.add_argument("--compare", metavar="SPEC", default=None,
                   help="with --summarize: also compare side A with side A=SPEC of the same edition, rules, "
                        "opponent and budget, deal by deal over the deals both hold (the paired difference)")
    p.add_argument("--compare-results", metavar="FILE.jsonl", default=None,
                   help="with --summarize: the file that holds the deals to compare with (default: --results; "
                        "without --compare, the same configuration there, e.g. a run of other code)")
    p.add_argument("--compare-iterations", metavar="N", type=int, default=None,
                   help="with --summarize: compare with deals played at N iterations a decision instead of "
                        "this run's budget (how a bot scales with its budget)")
    p.set_defaults(run=run)


def _limits(args: argparse.Namespace) -> Limits:
    for flag, value in (("--iterations", args.iterations), ("--movetime", args.movetime)):
        if value is not None and value < 1:
            raise CommandError(f"{flag} must be at least 1, got {value}")
    return Limits(movetime_ms=args.movetime, iterations=args.iterations)


def run_duplicate_mode(args: argparse.Namespace, edition: Edition, options: dict, limits: Limits) -> int:
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    if len(names) != 2:
        raise CommandError("--duplicate needs two bots: --bots A,B")
    if args.games < 1 or args.jobs < 1:
        raise CommandError("--games and --jobs must be at least 1")
    try:
        for name in names:
            make_bot(name, 0)
    except ValueError as e:
        raise CommandError(str(e)) from None
    players = edition.check_players(args.players)
    resolved = edition.resolve_options(options)
    config = RunConfig(edition.name, resolved, players, names[0], names[1], args.iterations, args.movetime)
    book = _open_results(args)
    if args.summarize:
        assert book is not None  # _open_results requires --results with --summarize
        recorded = book.deals(config)
        print(f"{args.results}: {len(recorded)} deals of {edition.name} A={names[0]} B={names[1]} "
              f"iterations={args.iterations} movetime={args.movetime}")
        if recorded:
            print(_codes_line(book.codes(config)))
            print(DuplicateStats(sorted(recorded.values(), key=lambda p: p.seed),
                                 scored=edition.rules.margin).summary())
        if args.compare is not None or args.compare_results is not None or args.compare_iterations is not None:
            _print_comparison(args, config, list(recorded.values()), book)
        return 0
    seed = master_seed(args.seed)
    print(f"duplicate {edition.name} players={players} {edition.options_text(resolved)} "
          f"deals={args.games} seed={seed} A={names[0]} B={names[1]} iterations={args.iterations} "
          f"movetime={args.movetime} code={code_version()}", flush=True)
    done = {}
    if book is not None:
        recorded = book.deals(config)
        done = {seed + i: recorded[seed + i] for i in range(args.games) if seed + i in recorded}
        print(f"{args.results}: {len(done)} of the {args.games} deals recorded already, "
              f"{args.games - len(done)} to play", flush=True)

    def progress(pair: PairResult, stats: DuplicateStats) -> None:
        if book is not None:
            book.append(config, pair)
        if not args.quiet:
            margins = f"margins {'/'.join(f'{m:+d}' for m in pair.margins)} " if stats.scored else ""
            print(f"deal {pair.seed} A returns {'/'.join(f'{r:g}' for r in pair.returns)} "
                  f"{margins}{pair.seconds:.1f}s | {stats.summary()}", flush=True)

    previous = signal.signal(signal.SIGTERM, raise_keyboard_interrupt)
    try:
        stats = run_duplicate(edition.name, args.games, seed, names[0], names[1], options, limits,
                              jobs=args.jobs, progress=progress, players=players, done=done)
    except KeyboardInterrupt:
        if book is not None:
            print(f"selfplay: the finished deals are in {args.results}; the same command resumes the run",
                  file=sys.stderr)
        raise
    finally:
        signal.signal(signal.SIGTERM, previous)
    print(stats.summary())
    return 0


def _codes_line(codes: dict[str | None, int]) -> str:
    """Which code played the deals; a warning when more than one did (they may not pool)."""
    named = ", ".join(f"{code or 'not recorded'} ({count})" for code, count in codes.items())
    if len(codes) == 1:
        return f"code: {named}"
    return (f"code: {named} -- deals of {len(codes)} code versions: pool them only if the bots "
            f"played the same way in all of them")


def _print_comparison(args: argparse.Namespace, config: RunConfig, pairs: list, book: ResultsFile) -> None:
    """The paired difference against the deals of --compare (side A) in --compare-results (by
    default `book`, the --results file already read)."""
    spec = args.compare if args.compare is not None else config.a
    try:
        make_bot(spec, 0)
    except ValueError as e:
        raise CommandError(f"--compare: {e}") from None
    path, other = args.results, book
    if args.compare_results is not None:
        path = args.compare_results
        if not os.path.isfile(path):
            raise CommandError(f"--compare-results {path}: no such file")
        try:
            other = ResultsFile(path)
        except ResultsFileError as e:
            raise CommandError(str(e)) from None
        except OSError as e:
            raise CommandError(f"--compare-results {path}: {e.strerror}") from None
    compared = dataclasses.replace(config, a=spec)
    if args.compare_iterations is not None:
        compared = dataclasses.replace(compared, iterations=args.compare_iterations, movetime=None)
    budget = "" if compared.iterations == config.iterations and compared.movetime == config.movetime else \
        f" at {compared.iterations} iterations"
    others = list(other.deals(compared).values())
    print(f"{path}: {len(others)} deals of A={spec} B={config.b}{budget}")
    difference = paired_difference(pairs, others)
    if difference.deals == 0:
        print("nothing to compare: no deal on both sides")
        return
    print(f"A={config.a} against A={spec}{budget}: {difference.summary()}")


def _open_results(args: argparse.Namespace) -> ResultsFile | None:
    """The results file of --results (read whole; a malformed line is a CommandError), or None."""
    comparing = args.compare is not None or args.compare_results is not None or args.compare_iterations is not None
    if comparing and not args.summarize:
        raise CommandError("--compare, --compare-results and --compare-iterations go with --summarize")
    if args.compare_iterations is not None and args.compare_iterations < 1:
        raise CommandError("--compare-iterations must be at least 1")
    if args.results is None:
        if args.summarize:
            raise CommandError("--summarize needs --results FILE")
        return None
    try:
        book = ResultsFile(args.results)
        if not args.summarize:
            open(args.results, "ab").close()  # a file it cannot write fails now, not after the first deal
    except ResultsFileError as e:
        raise CommandError(str(e)) from None
    except OSError as e:
        raise CommandError(f"--results {args.results}: {e.strerror}") from None
    if book.notice:
        print(book.notice, flush=True)
    return book


def run(args: argparse.Namespace) -> int:
    edition, options = edition_options(args)
    limits = _limits(args)
    if args.duplicate:
        return run_duplicate_mode(args, edition, options, limits)
    if (args.results is not None or args.summarize or args.compare is not None or args.compare_results is not None
            or args.compare_iterations is not None):
        raise CommandError("--results, --summarize and --compare go with --duplicate")
    if args.jobs != 1:
        raise CommandError("--jobs goes with --duplicate (its deals are played in parallel; these games are not)")
    players = edition.check_players(args.players)
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise CommandError(f"{edition.name} with {players} players needs 1 or {players} bots, got {len(names)}")
    try:
        for name in dict.fromkeys(names):
            make_bot(name, 0)  # a bad name or option is named before any game is played
    except ValueError as e:
        raise CommandError(str(e)) from None
    if args.games < 1:
        raise CommandError("--games must be at least 1")
    seed = master_seed(args.seed)
    print(f"selfplay {edition.name} {edition.options_text(edition.resolve_options(options))} "
          f"games={args.games} seed={seed} bots={','.join(names)}")
    totals = {name: [0, 0.0, 0] for name in dict.fromkeys(names)}  # games, points, score sum
    for game in range(args.games):
        rotation = game % players
        seated = names[rotation:] + names[:rotation]
        policies = [make_bot(name, seed + game * players + i) for i, name in enumerate(seated)]
        result = play_match(edition.name, seed + game, policies, options, players, limits=limits)
        for name, ret, score in zip(seated, result.returns, result.scores):
            totals[name][0] += 1
            totals[name][1] += ret
            totals[name][2] += score
        if not args.quiet:
            cols = " ".join(f"{n}:{s}" for n, s in zip(seated, result.scores))
            print(f"game {game + 1} seed {seed + game} {cols} decisions {result.decisions}")
    width = max(9, *(len(name) for name in totals))
    print(f"{'bot':<{width}} games  points  share  mean score")
    for name, (games, points, score_sum) in totals.items():
        print(f"{name:<{width}} {games:>5} {points:>7.1f} {points / games:>6.3f} {score_sum / games:>11.1f}")
    return 0
