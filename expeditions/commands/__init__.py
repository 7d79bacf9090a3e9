"""Subcommands of `expeditions`, one module each (each has `register(subparsers)`)."""
from __future__ import annotations

from engine.errors import ExpeditionsError


class CommandError(ExpeditionsError):
    """A bad command-line argument, reported as one line without a traceback."""


from expeditions.commands import (analyse, arena, bench, bot, deals, host, perft, play,  # noqa: E402
                                  protocol_check, replay, rl_bot, rl_train, selfplay, serve)
from expeditions.commands import list as list_command  # noqa: E402  (as: not to hide the builtin)

COMMANDS = [arena, deals, list_command, replay, analyse, play, serve, host, selfplay, perft, bench, bot, protocol_check,
            rl_train, rl_bot]
