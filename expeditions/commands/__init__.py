"""Subcommands of `expeditions`, one module each (each has `register(subparsers)`)."""
from __future__ import annotations

from engine.errors import ExpeditionsError


class CommandError(ExpeditionsError):
    """A bad command-line argument, reported as one line without a traceback."""


from expeditions.commands import (analyse, arena, bench, bot, deals, perft, play, protocol_check, replay,  # noqa: E402
                                  rl_bot, rl_train, selfplay)

COMMANDS = [arena, deals, replay, analyse, play, selfplay, perft, bench, bot, protocol_check, rl_train, rl_bot]
