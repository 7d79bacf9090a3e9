"""The `expeditions` command: parses arguments and hands them to one subcommand.

Each subcommand lives in `expeditions/commands/<name>.py` with `register(subparsers)`.

>>> from expeditions.cli import main
>>> main(["perft", "--edition", "classic", "--seed", "1", "--depth", "1"])  # doctest: +ELLIPSIS
perft depth 1: 16 ...
0
"""
from __future__ import annotations

import argparse
import sys

from engine.errors import ExpeditionsError
from expeditions import __version__
from expeditions.commands import COMMANDS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="expeditions",
        description="Tournament engine for Reiner Knizia's games of expeditions: rules engine, bots, protocol, arena.")
    parser.add_argument("--version", action="version", version=f"expeditions {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "run", None) is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return args.run(args) or 0
    except ExpeditionsError as err:
        print(f"expeditions {args.command}: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"expeditions {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
