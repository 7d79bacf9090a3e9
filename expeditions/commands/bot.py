"""`expeditions bot NAME`: runs a built-in policy as a UEI bot on stdin/stdout (docs/protocol.md)."""
from __future__ import annotations

import argparse

from bots.registry import POLICIES, make_policy
from expeditions.commands import CommandError
from expeditions.commands.common import seed_argument


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bot", help="run a built-in bot speaking the UEI protocol on stdin/stdout",
                       description="Runs a built-in policy as a protocol bot: commands on stdin, "
                                   "answers on stdout, logs on stderr (docs/protocol.md). "
                                   f"Built-in bots: {', '.join(POLICIES)}.")
    p.add_argument("name", help=f"the bot ({', '.join(POLICIES)})")
    p.add_argument("--seed", type=seed_argument, default=0,
                   help="seed of the bot's generator (default 0; also settable as an option)")
    p.add_argument("--python-loop", action="store_true",
                   help="serve every command through the Python server, never the C loop of instant "
                        "bots (same output, slower; for comparing and debugging)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.name not in POLICIES:
        raise CommandError(f"unknown bot {args.name!r} (built-in: {', '.join(POLICIES)})")
    from protocol.server import serve_stdio
    return serve_stdio(make_policy(args.name, seed=args.seed), fast=not args.python_loop)
