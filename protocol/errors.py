"""What can go wrong with an external bot, as typed errors the arena can turn into results.

>>> from protocol.errors import EngineTimeoutError, EngineError
>>> issubclass(EngineTimeoutError, EngineError)
True
"""
from __future__ import annotations

from engine.errors import ExpeditionsError


class EngineError(ExpeditionsError, RuntimeError):
    """A bot did something wrong (or rejected a command with `info string error …`)."""


class EngineTerminatedError(EngineError):
    """The bot process exited (crashed, or quit when it should not have)."""

    def __init__(self, message: str, *, returncode: int | None = None, stderr_tail: str = "") -> None:
        self.returncode = returncode
        """The exit status (negative: killed by that signal), None if still unknown."""
        self.stderr_tail = stderr_tail
        """The last lines the bot wrote to stderr, for the report."""
        last = stderr_tail.strip().splitlines()[-1:] if stderr_tail else []
        if last:
            message += f"; its stderr ends with {last[0][:200]!r}"
        super().__init__(message)


class EngineTimeoutError(EngineError, TimeoutError):
    """The bot did not answer within the time it was given."""


class SearchRejectedError(EngineError):
    """The bot answered a `go` with `info string error …` instead of a decision (an impossible
    request, or a limit it does not support, such as `searchmoves`)."""


class ProtocolError(EngineError):
    """The bot printed something that is not UEI (docs/protocol.md)."""

    def __init__(self, message: str, *, line: str | None = None) -> None:
        self.line = line
        """The offending line, when there is one."""
        super().__init__(message)
