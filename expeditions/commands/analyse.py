"""`expeditions analyse`: ask a bot, through the protocol, what it thinks of one position.

A small GUI at the terminal: the bot (built-in or any UEI program) gets the view of the seat to
move — never more — searches with `MultiPV`, and its last report of each line is printed as a
table, best first. The position comes as a view, a full position (the mover's view is sent), or a
decision of a recorded game. With `--review`, every decision of a recorded game (of `--seat`) is
put to the bot: its choice, and the value it gives the decision played next to its own.

    expeditions analyse --game 12 --ply 40 --movetime 2000 --multipv 4
    expeditions analyse --view "classic rounds=3 … history=-" --bot name=mine cmd="./mybot"
    expeditions analyse --game 12 --review --seat 1 --iterations 20000
"""
from __future__ import annotations

import argparse
from dataclasses import replace
from typing import TYPE_CHECKING

import engine
from protocol.limits import Limits
from protocol.policy import allowed_decisions
from expeditions.commands import CommandError
from expeditions.commands.common import bot_argument, open_store
from protocol.messages import Info

if TYPE_CHECKING:
    from arena.record import GameRecord

DEFAULT_MOVETIME_MS = 1000


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("analyse", aliases=["analyze"], help="ask a bot what it thinks of a position",
                       description="Sends one seat's view to a bot (built-in or external, over UEI), lets it "
                                   "search with MultiPV and prints its best decisions with their visits, "
                                   "values and lines.",
                       epilog="example: expeditions analyse --game 3 --ply 20 --movetime 2000")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--view", help="a seat's view (docs/notation.md, \"Views\"); that seat must be to move")
    source.add_argument("--position", help="a full position; the bot gets the view of the seat to move")
    source.add_argument("--game", type=int, help="a game of the results database: the position before decision --ply")
    p.add_argument("--ply", type=int, default=0, help="with --game: decisions played before the position (default 0)")
    p.add_argument("--db", default="arena.sqlite", help="with --game: the results database (default arena.sqlite)")
    p.add_argument("--bot", nargs="+", default=["ismcts"], metavar="KEY=VALUE",
                   help="a built-in bot's name (default ismcts), or name=NAME cmd=\"COMMAND ARGS\" option.NAME=VALUE")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--movetime", type=int, metavar="MS", help=f"search time (default {DEFAULT_MOVETIME_MS})")
    budget.add_argument("--iterations", type=int, help="search iterations instead of a time")
    p.add_argument("--multipv", type=int, default=5, help="decisions to show (the bot's MultiPV option; default 5)")
    p.add_argument("--searchmoves", metavar="D1,D2,…",
                   help="consider only these decisions, comma-separated; write --searchmoves=… (discards start with -)")
    p.add_argument("--brief", action="store_true", help="no picture of the table")
    p.add_argument("--review", action="store_true",
                   help="with --game: every decision with a choice, the bot's choice and values (not --ply)")
    p.add_argument("--seat", type=int, action="append", help="with --review: only this seat's decisions (repeatable)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from arena.review import consult, start_bot
    from protocol.errors import SearchRejectedError

    if args.review:
        return _review(args)
    view = _view_to_analyse(args)
    if args.multipv < 1:
        raise CommandError("--multipv must be at least 1")
    searchmoves = None
    if args.searchmoves is not None:
        searchmoves = tuple(d for d in args.searchmoves.split(",") if d)
        if not searchmoves:
            raise CommandError("--searchmoves: no decision given (expected D1,D2,…)")
    limits = replace(_budget(args), searchmoves=searchmoves)
    try:
        allowed_decisions(view, limits)
    except ValueError as err:
        raise CommandError(f"--{err}") from None
    spec = bot_argument(args.bot)
    state = view.state
    with start_bot(spec) as bot:
        if bot.option("MultiPV") is not None:
            bot.configure({"MultiPV": args.multipv})
        elif args.multipv > 1:
            print(f"analyse: {bot.name} has no MultiPV option; it reports one line")
        bot.new_game(state.edition, state.options, state.num_seats, view.seat)
        print(f"analyse: {bot.name}, seat {view.seat} of {state.edition}, round {state.round_index + 1}, "
              f"turn {state.turn}; legal: {' '.join(view.legal_text())}")
        if not args.brief:
            print(state.pretty(view.seat))
        try:
            result = consult(bot, view, limits)
        except SearchRejectedError as err:
            raise CommandError(f"{bot.name}: {err}") from None
    for line in format_lines(result.lines):
        print(line)
    print(f"bestmove {result.decision}  ({result.elapsed_ms:.0f} ms)")
    return 0


def format_lines(lines: list[Info]) -> list[str]:
    """The table of a search's lines: rank, first decision, visits, value, the line.

    >>> print("\\n".join(format_lines([{"multipv": 1, "visits": 90, "value": 0.61, "pv": ["+b4", "D"]}])))
     #  decision    visits   value  line
     1  +b4             90  0.6100  +b4 D
    """
    if not lines:
        return ["(the bot reported no lines: no search, or a single decision to make)"]
    out = [" #  decision    visits   value  line"]
    for rank, info in enumerate(lines, 1):
        pv = info.get("pv") or ["-"]
        visits = info.get("visits", info.get("iterations", ""))
        value = f"{info['value']:.4f}" if "value" in info else "-"
        out.append(f"{info.get('multipv', rank):>2}  {pv[0]:<10} {visits!s:>7}  {value:>6}  {' '.join(pv)}")
    return out


def _budget(args: argparse.Namespace) -> Limits:
    if (args.movetime is not None and args.movetime < 0) or (args.iterations is not None and args.iterations < 1):
        raise CommandError("--iterations must be at least 1, --movetime at least 0")
    if args.iterations is not None:
        return Limits(iterations=args.iterations)
    return Limits(movetime_ms=DEFAULT_MOVETIME_MS if args.movetime is None else args.movetime)


def _review(args: argparse.Namespace) -> int:
    """--review: the bot's view of every decision of a recorded game."""
    from arena.review import REVIEW_HEADER, review_game, review_row, review_summary, start_bot

    if args.game is None:
        raise CommandError("--review needs --game")
    game = _game(args)
    seats = range(len(game.seat_bots))
    for seat in args.seat or ():
        if seat not in seats:
            raise CommandError(f"--seat: game {game.id} has seats 0..{seats[-1]}, got {seat}")
    limits = _budget(args)
    rows = []
    spec = bot_argument(args.bot)
    with start_bot(spec) as bot:
        print(f"review: game {game.id} ({game.edition}; seats: {', '.join(game.seat_bots)}) by {bot.name}")
        print(REVIEW_HEADER)
        for row in review_game(game, bot, limits, args.seat):
            rows.append(row)
            print(review_row(row), flush=True)
    for line in review_summary(rows) if rows else ["no decision with a choice to review"]:
        print(line)
    return 0


def _view_to_analyse(args: argparse.Namespace) -> engine.View:
    """The view of the seat to move, from --view, --position or --game/--ply."""
    try:
        if args.view is not None:
            view = engine.parse_view(args.view)
            if view.to_move != view.seat:
                raise CommandError(f"--view: seat {view.seat} is not to move"
                                   + ("" if view.to_move is None else f" (seat {view.to_move} is)"))
            return view
        state = engine.parse_position(args.position) if args.position is not None else _game_state(args)
    except engine.NotationError as err:
        raise CommandError(f"{'--view' if args.view is not None else '--position'}: {err}") from None
    mover = state.to_move
    if mover is None:
        raise CommandError("the game is over in this position: no decision to analyse")
    return state.view(mover)


def _game(args: argparse.Namespace) -> GameRecord:
    """The recorded game of --game in --db."""
    store = open_store(args.db)
    try:
        return store.game(args.game)
    except LookupError as err:
        raise CommandError(str(err)) from None


def _game_state(args: argparse.Namespace) -> engine.State:
    """The position of a recorded game after its first --ply decisions."""
    game = _game(args)
    if not 0 <= args.ply < len(game.decisions):
        raise CommandError(f"--ply: game {args.game} has decisions 0..{len(game.decisions) - 1}, got {args.ply}")
    from arena.replay import positions

    return next(state.copy() for ply, _, state in positions(game) if ply == args.ply)
