"""`expeditions rl-train`: trains the small learned agent (rl/agent.py) with the batched environment
and saves it; `expeditions rl-bot` plays it."""
from __future__ import annotations

import argparse
import json
import sys

from expeditions.commands import CommandError
from expeditions.commands.common import add_edition_arguments, edition_options, seed_argument


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rl-train", help="train a small learned agent against the random bot (needs the rl extra)",
                       description="Trains a linear softmax policy by policy gradient in the batched environment, "
                                   "on the edition's short matches against the random bot, and saves it as one "
                                   ".npz file that `expeditions rl-bot FILE` plays (docs/rl.md).")
    add_edition_arguments(p)
    p.add_argument("--out", "-O", required=True, help="the policy file to write (.npz)")
    p.add_argument("--seconds", type=float, default=180.0, help="training time (default 180)")
    p.add_argument("--steps", type=int, default=None,
                   help="train for this many batched steps instead of --seconds (the same seed then trains "
                        "the same policy on any machine)")
    p.add_argument("--envs", type=int, default=256, help="matches stepped together (default 256)")
    p.add_argument("--seed", type=seed_argument, default=0, help="seed of the deals and the policy's sampling")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    edition, options = edition_options(args)
    if options or args.players is not None:
        raise CommandError("rl-train trains on the edition's short match: no rule options or players")
    if not args.seconds > 0 or args.envs < 1 or (args.steps is not None and args.steps < 1):
        raise CommandError("--seconds must be more than 0, --envs and --steps at least 1")
    try:
        from rl.agent import train
    except ImportError as err:
        raise CommandError(f"rl-train needs the rl extra (pip install 'expeditions[rl]'): {err}") from None
    policy, report = train(edition, seconds=args.seconds, envs=args.envs, seed=args.seed, steps=args.steps,
                           log=lambda line: print(line, file=sys.stderr))
    policy.save(args.out)
    print(json.dumps({"file": args.out, **report}))
    return 0
