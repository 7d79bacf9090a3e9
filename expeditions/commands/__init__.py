"""Subcommands of `expeditions`, one module each (each has `register(subparsers)`)."""
from __future__ import annotations


class CommandError(Exception):
    """A bad command-line argument, reported as one line without a traceback."""


from expeditions.commands import bench, perft, selfplay  # noqa: E402

COMMANDS = [selfplay, perft, bench]
