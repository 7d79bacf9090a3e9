"""`expeditions rl-bot FILE`: a trained policy (`expeditions rl-train`) as a UEI bot on stdin/stdout."""
from __future__ import annotations

import argparse
from pathlib import Path

from expeditions.commands import CommandError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rl-bot", help="run a trained policy (rl-train) as a protocol bot (needs the rl extra)",
                       description="Serves a policy trained by `expeditions rl-train` as a UEI bot: it plays the "
                                   "most probable legal decision of its observation of each view (docs/rl.md).")
    p.add_argument("weights", help="the policy file (.npz)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not Path(args.weights).is_file():
        raise CommandError(f"no policy file {args.weights!r}")
    try:
        from rl.agent import LearnedPolicy
    except ImportError as err:
        raise CommandError(f"rl-bot needs the rl extra (pip install 'expeditions[rl]'): {err}") from None
    from protocol.server import serve_stdio
    return serve_stdio(LearnedPolicy(args.weights))
