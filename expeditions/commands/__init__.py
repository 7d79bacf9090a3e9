"""Subcommands of `expeditions`, one module each (each has `register(subparsers)`)."""
from __future__ import annotations

from engine.errors import ExpeditionsError


class CommandError(ExpeditionsError):
    """A bad command-line argument, reported as one line without a traceback."""


from expeditions.commands import (analyse, arena, bench, bot, deals, host, listing, perft, play,  # noqa: E402
                                  protocol_check, replay, selfplay)

COMMANDS = [arena, deals, listing, replay, analyse, play, host, selfplay, perft, bench, bot, protocol_check]
