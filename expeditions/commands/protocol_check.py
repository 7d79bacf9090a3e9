"""`expeditions protocol-check -- COMMAND …`: the UEI conformance checker (docs/protocol.md)."""
from __future__ import annotations

import argparse
import sys

from expeditions.commands import CommandError
from expeditions.commands.common import seed_argument


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("protocol-check", help="check that a bot speaks UEI correctly",
                       description="Starts the bot (COMMAND and its arguments, run without a shell) and "
                                   "checks the handshake, options, every edition it claims over many "
                                   "positions and whole games, time limits, stop, isready mid-search, "
                                   "bad input and quit. Each check is required (what the arena needs), "
                                   "recommended (what a GUI or an analysis needs) or optional (debugging "
                                   "commands). Prints a table; exits 1 if a check of the --require level "
                                   "(or a more needed one) failed, and lists the other failures as advice.",
                       epilog="example: expeditions protocol-check -- expeditions bot random")
    p.add_argument("--editions", default=None, help="comma-separated editions to check (default: all it claims)")
    p.add_argument("--positions", type=int, default=30, help="positions per edition (default 30)")
    p.add_argument("--games", type=int, default=1,
                   help="whole games per edition and number of players (default 1)")
    p.add_argument("--movetime", type=int, default=10, metavar="MS",
                   help="movetime of the positions and whole-game checks (default 10)")
    p.add_argument("--seed", type=seed_argument, default=1, help="seed of the positions (default 1)")
    p.add_argument("--margin-ms", type=int, default=150, help="allowed overrun of time limits (default 150)")
    p.add_argument("--stop-ms", type=int, default=150, help="allowed delay of the answer to stop (default 150)")
    p.add_argument("--timeout", type=float, default=3.0, help="seconds for replies (default 3)")
    p.add_argument("--require", choices=("required", "recommended", "optional"), default="required",
                   help="the level that must pass: required (default: what the arena needs), recommended "
                        "(also what a GUI needs) or optional (every check)")
    p.add_argument("--log", default=None, metavar="FILE", help="append the bot's stderr to FILE")
    # Not dest "command": that names the subcommand in error messages (expeditions/cli.py).
    p.add_argument("bot_command", metavar="COMMAND", nargs=argparse.REMAINDER,
                   help="the bot's command line, after --")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from protocol.conformance import CheckConfig, format_table, passes, run_checks

    argv = list(args.bot_command)
    if argv[:1] == ["--"]:
        argv = argv[1:]
    if not argv:
        raise CommandError("give the bot's command after --, e.g. protocol-check -- expeditions bot random")
    if args.positions < 1 or args.games < 0:
        raise CommandError("--positions must be at least 1 and --games at least 0")
    editions = tuple(e.strip() for e in args.editions.split(",")) if args.editions else None
    if args.movetime < 0:
        raise CommandError("--movetime must be at least 0")
    if args.margin_ms < 0 or args.stop_ms < 0:
        raise CommandError("--margin-ms and --stop-ms must be at least 0")
    if not args.timeout > 0:  # also NaN
        raise CommandError(f"--timeout must be more than 0 seconds, got {args.timeout}")
    if editions is not None:
        import engine

        for name in editions:
            engine.get_edition(name)  # an unknown name is the engine's one-line error
    config = CheckConfig(argv, editions=editions, positions=args.positions, games=args.games, seed=args.seed,
                         fast_movetime_ms=args.movetime,
                         margin_ms=args.margin_ms, stop_ms=args.stop_ms, reply_timeout=args.timeout,
                         log_path=args.log)
    print(f"protocol-check: {' '.join(argv)}", flush=True)
    results = run_checks(config, progress=lambda r: print(f"  {r.status:<4} {r.name} ({r.level})", file=sys.stderr,
                                                          flush=True))
    print(format_table(results, args.require))
    return 0 if passes(results, args.require) else 1
