"""Subcommands of `expeditions`, one module each (each has `register(subparsers)`)."""
from __future__ import annotations


class CommandError(Exception):
    """A bad command-line argument, reported as one line without a traceback."""


from expeditions.commands import arena, bench, bot, perft, protocol_check, replay, selfplay  # noqa: E402

COMMANDS = [arena, replay, selfplay, perft, bench, bot, protocol_check]
