"""`expeditions replay`: print a recorded game decision by decision, from the results database or
from an EGN file (`expeditions export --format egn`)."""
from __future__ import annotations

import argparse

from arena.replay import ReplayError, replay_lines
from expeditions.commands import CommandError
from expeditions.commands.common import open_store


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="print a recorded game decision by decision",
                       description="Replays a game of the results database, or the games of an EGN file "
                                   "(docs/egn.md), from its initial position, checking every recorded "
                                   "decision, with a picture of the table each turn.")
    p.add_argument("file", nargs="?", metavar="FILE.egn", help="an EGN file (instead of --db and --game)")
    p.add_argument("--db", default="arena.sqlite", help="results database (default arena.sqlite)")
    p.add_argument("--game", type=int, help="game id (see `expeditions export`); with FILE: its n-th game, from 1")
    p.add_argument("--brief", action="store_true", help="decisions only, no pictures")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.file is not None:
        return _replay_file(args)
    if args.game is None:
        raise CommandError("give --game ID (a game of --db), or an EGN file")
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


def _replay_file(args: argparse.Namespace) -> int:
    """Every game of the file (or its --game-th), each checked as it is read."""
    from arena.egn import RecordError, read_games

    try:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as err:
        raise CommandError(f"{args.file}: {getattr(err, 'strerror', None) or err}") from None
    count = 0
    try:
        for number, game in enumerate(read_games(text), 1):
            count = number
            if args.game is not None and number != args.game:
                continue
            if number > 1 and args.game is None:
                print()
            for line in replay_lines(game, pictures=not args.brief):
                print(line)
    except (RecordError, ReplayError) as err:
        raise CommandError(f"{args.file}: {err}") from None
    if count == 0:
        raise CommandError(f"{args.file}: no game in it")
    if args.game is not None and not 1 <= args.game <= count:
        raise CommandError(f"{args.file} holds {count} game(s); --game {args.game} is not one of them")
    return 0
