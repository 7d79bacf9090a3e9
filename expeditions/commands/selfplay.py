"""`expeditions selfplay`: built-in bots play each other in-process."""
from __future__ import annotations

import argparse
import itertools

from bots.duplicate import make_bot, run_duplicate
from bots.match import play_match
from bots.policy import Limits
from bots.registry import POLICIES, make_policy
from expeditions.commands import CommandError
from expeditions.commands.common import add_edition_arguments, edition_options, master_seed, seed_argument


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("selfplay", help="play built-in bots against each other in-process",
                       description="Plays games between built-in bots (each sees only its own view). "
                                   "Seats rotate from game to game; game i is dealt from seed+i.")
    add_edition_arguments(p)
    p.add_argument("--games", "-n", type=int, default=10, help="number of games (default 10)")
    p.add_argument("--seed", type=seed_argument, default=None, help="master seed (printed; random if omitted)")
    p.add_argument("--bots", default="random", help=f"comma-separated bots, one per seat or one for all "
                                                      f"(built-in: {', '.join(POLICIES)})")
    p.add_argument("--quiet", "-q", action="store_true", help="print only the summary")
    p.add_argument("--duplicate", action="store_true",
                   help="two bots (side A, side B): every deal is played twice with the sides swapped; "
                        "with more than two sides (board, 3-4 players) A plays one seat against B at all the others, "
                        "once per seat; --games counts deals; bots may carry options, e.g. ismcts:Exploration=50")
    p.add_argument("--iterations", type=int, default=None, help="search iterations per decision (go iterations)")
    p.add_argument("--movetime", type=int, default=None, help="milliseconds per decision (go movetime)")
    p.add_argument("--jobs", "-j", type=int, default=1, help="--duplicate: pairs played in parallel processes")
    p.set_defaults(run=run)


def _limits(args: argparse.Namespace) -> Limits:
    return Limits(movetime_ms=args.movetime, iterations=args.iterations)


def run_duplicate_mode(args: argparse.Namespace, edition, options: dict) -> int:
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
    seed = master_seed(args.seed)
    print(f"duplicate {edition.name} players={edition.check_players(args.players)} {' '.join(f'{k}={v}' for k, v in edition.resolve_options(options).items())} "
          f"deals={args.games} seed={seed} A={names[0]} B={names[1]} iterations={args.iterations} "
          f"movetime={args.movetime}", flush=True)

    def progress(pair, stats) -> None:
        if not args.quiet:
            print(f"deal {pair.seed} A returns {'/'.join(f'{r:g}' for r in pair.returns)} "
                  f"margins {'/'.join(f'{m:+d}' for m in pair.margins)} {pair.seconds:.1f}s | {stats.summary()}",
                  flush=True)

    stats = run_duplicate(edition.name, args.games, seed, names[0], names[1], options, _limits(args),
                          jobs=args.jobs, progress=progress, players=edition.check_players(args.players))
    print(stats.summary())
    return 0


def run(args: argparse.Namespace) -> int:
    edition, options = edition_options(args)
    if args.duplicate:
        return run_duplicate_mode(args, edition, options)
    players = edition.check_players(args.players)
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise CommandError(f"{edition.name} with {players} players needs 1 or {players} bots, got {len(names)}")
    for name in names:
        if name not in POLICIES:
            raise CommandError(f"unknown bot {name!r} (built-in: {', '.join(POLICIES)})")
    if args.games < 1:
        raise CommandError("--games must be at least 1")
    seed = master_seed(args.seed)
    print(f"selfplay {edition.name} {' '.join(f'{k}={v}' for k, v in edition.resolve_options(options).items())} "
          f"games={args.games} seed={seed} bots={','.join(names)}")
    totals = {name: [0, 0.0, 0] for name in dict.fromkeys(names)}  # games, points, score sum
    for game in range(args.games):
        rotation = game % players
        seated = names[rotation:] + names[:rotation]
        policies = [make_policy(name, seed=seed + game * players + i) for i, name in enumerate(seated)]
        result = play_match(edition.name, seed + game, policies, options, players, limits=_limits(args))
        for name, ret, score in zip(seated, result.returns, result.scores):
            totals[name][0] += 1
            totals[name][1] += ret
            totals[name][2] += score
        if not args.quiet:
            cols = " ".join(f"{n}:{s}" for n, s in zip(seated, result.scores))
            print(f"game {game + 1} seed {seed + game} {cols} decisions {result.decisions}")
    print("bot       games  points  share  mean score")
    for name, (games, points, score) in totals.items():
        print(f"{name:<9} {games:>5} {points:>7.1f} {points / games:>6.3f} {score / games:>11.1f}")
    return 0
