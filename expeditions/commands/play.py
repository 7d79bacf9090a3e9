"""`expeditions play`: a person at the terminal against bots.

    expeditions play                                   # classic against ismcts, 1 s a decision; review at the end
    expeditions play -e partners --bot greedy --seat 1
    expeditions play --bot name=mine cmd="./mybot" --movetime 500 -o rounds=1
    expeditions play --db games.sqlite                 # keep the game: replay, analyse --game, export
"""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from protocol.limits import Limits
from expeditions.commands import CommandError
from expeditions.commands.common import (add_edition_arguments, bot_argument, edition_options, master_seed,
                                         open_store, seed_argument)

if TYPE_CHECKING:
    from arena.play import PlayOutcome, PlaySettings
    from arena.store import Store

DEFAULT_MOVETIME_MS = 1000


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="play against bots at the terminal",
                       description="You hold one seat; bots (built-in or any UEI program) hold the others, "
                                   "each seeing only its own view, as in the arena. You see only your seat's "
                                   "view. Type a decision as the legal list writes it; 'hint' asks an advisor "
                                   "bot (a separate process, given your view), 'quit' ends the game.")
    add_edition_arguments(p)
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0: you start)")
    p.add_argument("--bot", action="append", nargs="+", default=[], metavar="KEY=VALUE",
                   help="the bot of the other seats (default ismcts); repeat it to give each other seat, in "
                        "seat order, its own: a built-in name, or name=NAME cmd=\"COMMAND ARGS\" option.NAME=VALUE")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--movetime", type=int, metavar="MS", help=f"the bots' time a decision (default {DEFAULT_MOVETIME_MS})")
    budget.add_argument("--iterations", type=int, help="the bots' iterations a decision instead of a time")
    p.add_argument("--advisor", nargs="+", default=["ismcts"], metavar="KEY=VALUE",
                   help="the bot that answers 'hint' and reviews your decisions after the game (default "
                        "ismcts), like --bot; it thinks for --movetime or --iterations too")
    p.add_argument("--no-hints", action="store_true", help="no advisor: no hints, no review")
    p.add_argument("--seed", type=seed_argument, help="the deal's seed (printed; random if omitted)")
    p.add_argument("--db", metavar="FILE",
                   help="keep the game, finished or left, in this results database (created if missing) for "
                        "`expeditions replay`, `analyse --game` and `export`; its id is printed")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from arena.play import PlaySettings, Quit, TerminalPerson, play_game, review_lines, seat_bots
    from protocol.errors import EngineError

    edition, options = edition_options(args)
    players = edition.check_players(args.players)
    if (args.movetime is not None and args.movetime < 1) or (args.iterations is not None and args.iterations < 1):
        raise CommandError("--movetime and --iterations must be at least 1")
    limits = (Limits(iterations=args.iterations) if args.iterations is not None
              else Limits(movetime_ms=args.movetime or DEFAULT_MOVETIME_MS))
    settings = PlaySettings(edition=edition.name, options=options, players=args.players, seed=master_seed(args.seed),
                            seat=args.seat, bots=[bot_argument(tokens) for tokens in args.bot] or [bot_argument(["ismcts"])],
                            limits=limits, advisor=None if args.no_hints else bot_argument(args.advisor),
                            advisor_limits=limits)
    if not 0 <= args.seat < players:
        raise CommandError(f"--seat: {edition.name} with {players} players has seats 0..{players - 1}, got {args.seat}")
    try:
        seat_bots(settings, players)
    except ValueError as err:
        raise CommandError(f"--bot: {err}") from None
    store = open_store(args.db, create=True) if args.db else None  # a bad path is named before the game
    person = TerminalPerson(edition.palette)
    try:
        outcome = play_game(settings, person)
    except Quit as left:
        print(f"play: game left unfinished (seed {settings.seed})")
        if store is not None and left.outcome is not None:
            _keep(store, settings, left.outcome, args.db)
        return 0
    except EngineError as err:
        raise CommandError(f"a bot failed: {err}") from None
    print(f"play: seed {settings.seed}, {len(outcome.record.decisions)} decisions")
    if store is not None:
        _keep(store, settings, outcome, args.db)
    if settings.advisor is not None and person.ask("type 'review' to have the advisor review your decisions, "
                                                   "anything else to leave> ") == "review":
        try:
            for line in review_lines(outcome, settings.advisor, settings.advisor_limits):
                print(line, flush=True)
        except EngineError as err:
            raise CommandError(f"the advisor failed: {err}") from None
    return 0


def _keep(store: Store, settings: PlaySettings, outcome: PlayOutcome, path: str) -> None:
    """Writes the game into the database at `path` and says where it is."""
    from arena.play import keep_game

    game_id = keep_game(store, settings, outcome.record)
    print(f"play: kept as game {game_id} in {path} (expeditions replay --db {path} --game {game_id})")
