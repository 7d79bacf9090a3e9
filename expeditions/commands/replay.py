"""`expeditions replay`: print a recorded game decision by decision."""
from __future__ import annotations

import argparse

from arena.replay import ReplayError, replay_lines
from expeditions.commands import CommandError
from expeditions.commands.common import open_store


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="print a recorded game decision by decision",
                       description="Replays a game of the results database from its initial position, "
                                   "checking every recorded decision, with a picture of the table each turn.")
    p.add_argument("--db", default="arena.sqlite", help="results database (default arena.sqlite)")
    p.add_argument("--game", type=int, required=True, help="game id (see `expeditions export`)")
    p.add_argument("--brief", action="store_true", help="decisions only, no pictures")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    store = open_store(args.db)
    try:
        game = store.game(args.game)
    except LookupError as err:
        raise CommandError(str(err)) from None
    try:
        for line in replay_lines(game, pictures=not args.brief):
            print(line)
    except ReplayError as err:
        raise CommandError(f"game {args.game} does not replay: {err}") from None
    return 0
