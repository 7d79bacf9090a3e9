"""The exceptions the engine raises for bad input.

Every error names what was wrong and what was expected, and the object it was raised from is left
unchanged.

>>> from engine.errors import NotationError
>>> err = NotationError("bad card", token="b1", expected="a card like b7")
>>> str(err)
"bad card: 'b1' (expected a card like b7)"
>>> str(NotationError("unknown edition", token="x" * 500))[:30], len(str(NotationError("e", token="x" * 500)))
("unknown edition: 'xxxxxxxxxxxx", 105)
"""
from __future__ import annotations


class ExpeditionsError(Exception):
    """Base class of every error the project raises on purpose."""


TOKEN_SHOWN = 80
"""Characters of an offending token quoted in a message (a protocol peer may send megabytes)."""


class NotationError(ExpeditionsError, ValueError):
    """Text that is not valid notation (a card, decision, position or view)."""

    def __init__(self, message: str, *, token: str | None = None, expected: str | None = None) -> None:
        self.token = token
        """The offending piece of text, when there is one."""
        self.expected = expected
        """What would have been accepted there."""
        text = message
        if token is not None:
            shown = token if len(token) <= TOKEN_SHOWN else token[:TOKEN_SHOWN] + f"... ({len(token)} characters)"
            text += f": {shown!r}"
        if expected is not None:
            text += f" (expected {expected})"
        super().__init__(text)


class IllegalDecisionError(ExpeditionsError, ValueError):
    """A well-formed decision that the rules do not allow in this position."""


class UnknownEditionError(ExpeditionsError, ValueError):
    """An edition name the engine does not have."""


class OptionError(ExpeditionsError, ValueError):
    """An unknown rule option or a value out of its range."""
