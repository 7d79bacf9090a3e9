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


class MissingExtraError(ExpeditionsError, ImportError):
    """An optional package (one of the package's extras) is not installed; the message says how
    to add it without rebuilding the engine."""

    def __init__(self, module: str, extra: str, what: str = "this") -> None:
        super().__init__(missing_extra(module, extra, what))


def missing_extra(module: str, extra: str, what: str = "this") -> str:
    """The message for a missing optional package: what to run in an installed package and in a
    clone. Either command adds the package alone: neither rebuilds the compiled engine (installing
    the clone again, `pip install -e '.[extra]'`, would).

    >>> print(missing_extra("matplotlib", "plot", "--plot"))  # doctest: +ELLIPSIS
    --plot needs the matplotlib package (the extra 'plot'): pip install 'expeditions[plot]' where expeditions is installed, or pip install '...' in a clone (neither rebuilds the engine)
    """
    return (f"{what} needs the {module} package (the extra {extra!r}): pip install 'expeditions[{extra}]' where "
            f"expeditions is installed, or pip install '{_requirement(module, extra)}' in a clone (neither "
            f"rebuilds the engine)")


def _requirement(module: str, extra: str) -> str:
    """The extra's requirement for `module` as the package's metadata states it (e.g.
    'matplotlib>=3.8'), or the module's name where the metadata is not installed."""
    from importlib import metadata

    try:
        requires = metadata.requires("expeditions") or []
    except metadata.PackageNotFoundError:
        return module
    for requirement in requires:
        spec, _, marker = requirement.partition(";")
        if f'extra == "{extra}"' in marker and spec.strip().lower().startswith(module.lower()):
            return spec.strip().replace(" ", "")
    return module


class OptionError(ExpeditionsError, ValueError):
    """An unknown rule option or a value out of its range."""
