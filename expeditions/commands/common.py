"""Arguments shared by several subcommands: edition, rule options, seeds, external bots, results databases."""
from __future__ import annotations

import argparse
import secrets
import shlex
from types import FrameType
from typing import TYPE_CHECKING

import engine
from engine.options import parse_option_tokens

if TYPE_CHECKING:
    from arena.config import BotSpec
    from arena.store import Store


def add_edition_arguments(parser: argparse.ArgumentParser) -> None:
    default = engine.default_edition().name
    parser.add_argument("--edition", "-e", default=default, choices=sorted(engine.EDITIONS),
                        help=f"edition (default {default})")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                        help="rule option, e.g. -o rounds=1 (repeatable)")
    parser.add_argument("--players", type=int, default=None, help="number of players (editions with a choice)")


def edition_options(args: argparse.Namespace) -> tuple[engine.Edition, dict[str, int]]:
    """The edition and its options as given (unknown names and bad values raise OptionError)."""
    edition = engine.get_edition(args.edition)
    options = parse_option_tokens(edition.options, args.option, edition.name)
    edition.resolve_options(options)
    edition.check_players(args.players)
    return edition, options


def bot_argument(tokens: list[str], own_time: bool = False) -> BotSpec:
    """A `--bot` argument: `name=… cmd="…" option.NAME=…` tokens, where a built-in bot's name may
    stand first for its `cmd` (and its name), as in `--bot ismcts option.Hash=128`. A time control
    of its own (`movetime=`, `clock=`, `increment=`) only where `own_time` allows it (a tournament):
    elsewhere it would be ignored, so it is an error.

    >>> bot_argument(["greedy"]).command[-2:], bot_argument(["cmd=./mybot -q", "option.Hash=16"]).options
    (['bot', 'greedy'], {'Hash': '16'})
    >>> spec = bot_argument(["ismcts", "name=big", "option.Hash=128"])
    >>> spec.name, spec.command[-2:], spec.options
    ('big', ['bot', 'ismcts'], {'Hash': '128'})
    """
    from arena.config import BotSpec, builtin_bot
    from bots.registry import POLICIES
    from expeditions.commands import CommandError

    try:
        if tokens and "=" not in tokens[0] and tokens[0] in POLICIES:
            builtin = builtin_bot(tokens[0])
            if len(tokens) == 1:
                return builtin
            spec = BotSpec.parse([f"cmd={shlex.join(builtin.command)}", f"name={builtin.name}", *tokens[1:]])
            if spec.command != builtin.command:
                raise ValueError(f"--bot {tokens[0]}: a built-in bot takes no cmd=")
        else:
            spec = BotSpec.parse(tokens)
    except ValueError as err:
        raise CommandError(str(err)) from None
    if spec.time is not None and not own_time:
        raise CommandError(f"--bot {spec.name}: a time control of its own is for tournaments (expeditions arena); "
                           f"here --movetime or --iterations set every bot's")
    return spec


def open_store(path: str, create: bool = False) -> Store:
    """The results database at `path`; CommandError if it cannot be opened as one. Without
    `create`, a missing file is an error too — never a new, empty file left behind by a command
    that only reads.

    >>> open_store("/no/such/arena.sqlite")
    Traceback (most recent call last):
    expeditions.commands.CommandError: no database /no/such/arena.sqlite
    >>> open_store("/no/such/arena.sqlite", create=True)
    Traceback (most recent call last):
    expeditions.commands.CommandError: /no/such/arena.sqlite: cannot open as a results database (unable to open database file)
    """
    import sqlite3
    from pathlib import Path

    from arena.store import DamagedDatabaseError, Store
    from expeditions.commands import CommandError

    if not create and not Path(path).is_file():
        raise CommandError(f"no database {path}")
    try:
        return Store(path)
    except DamagedDatabaseError as err:
        raise CommandError(str(err)) from None
    except sqlite3.Error as err:
        raise CommandError(f"{path}: cannot open as a results database ({err})") from None


def raise_keyboard_interrupt(signum: int, frame: FrameType | None) -> None:
    """A SIGTERM handler: stop as on Ctrl-C (finished work kept, workers and bots shut down)."""
    raise KeyboardInterrupt


def seed_argument(value: str) -> int:
    seed = int(value, 0)
    if not 0 <= seed < 2**64:
        raise argparse.ArgumentTypeError("a seed is an integer in 0..2^64-1")
    return seed


def master_seed(given: int | None) -> int:
    """The seed to use: the one given, or a fresh one (which the caller prints)."""
    return given if given is not None else secrets.randbits(63)
