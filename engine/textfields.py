"""Reading the `key=value` fields of a position or view, in their fixed order, with errors that
name the field and what was expected.

>>> from engine.textfields import FieldReader
>>> f = FieldReader("board players=2 round=1/3", "position")
>>> f.integer("players", 2, 4)
2
>>> f.take("round")
'1/3'
>>> f.finish()
"""
from __future__ import annotations

from collections.abc import Sequence

from engine.errors import NotationError
from engine.options import OptionSpec


def integer(field: str, value: str, low: int, high: int) -> int:
    """`value` as a decimal integer in low..high, or NotationError naming `field`.

    >>> integer("turn", "12", 0, 300)
    12
    """
    digits = value[1:] if value.startswith("-") else value
    if not digits or not digits.isascii() or not digits.isdigit():
        raise NotationError(f"{field}: not an integer", token=value, expected=f"an integer in {low}..{high}")
    n = int(value)
    if not low <= n <= high:
        raise NotationError(f"{field}: out of range", token=value, expected=f"an integer in {low}..{high}")
    return n


def split(field: str, value: str, count: int, what: str = "entries") -> list[str]:
    """`value` split at `/` into exactly `count` parts.

    >>> split("totals", "0/5", 2)
    ['0', '5']
    """
    parts = value.split("/")
    if len(parts) != count:
        raise NotationError(f"{field}: {len(parts)} {what} separated by /", token=value,
                            expected=f"{count} {what}")
    return parts


# Owns the position in the token list while a position or view is read front to back.
class FieldReader:
    """The tokens of one line: the first word (the edition), then `key=value` fields."""

    def __init__(self, text: str, what: str) -> None:
        if not isinstance(text, str):
            raise TypeError(f"a {what} is text, not {type(text).__name__}")
        self.tokens = text.split()
        self.what = what
        """'position' or 'view', for messages."""
        self.pos = 1
        if not self.tokens:
            raise NotationError(f"empty {what}", expected="an edition name first")

    @property
    def first(self) -> str:
        return self.tokens[0]

    def options(self, specs: Sequence[OptionSpec]) -> dict[str, int]:
        """The leading option tokens that name one of `specs` (no defaults filled in)."""
        names = {spec.name: spec for spec in specs}
        given: dict[str, int] = {}
        while self.pos < len(self.tokens):
            key, sep, value = self.tokens[self.pos].partition("=")
            if not sep or key not in names:
                break
            if key in given:
                raise NotationError(f"option {key} given twice", token=self.tokens[self.pos])
            spec = names[key]
            given[key] = integer(f"option {key}", value, spec.low, spec.high)
            self.pos += 1
        return given

    def take(self, key: str) -> str:
        """The value of the next field, which must be `key`."""
        if self.pos >= len(self.tokens):
            raise NotationError(f"{self.what} ends early", expected=f"field {key}=…")
        token = self.tokens[self.pos]
        name, sep, value = token.partition("=")
        if name != key or not sep:
            raise NotationError(f"{self.what} field {self.pos + 1}", token=token, expected=f"{key}=…")
        if not value:
            raise NotationError(f"{self.what} field {key} is empty", token=token, expected=f"{key}=<value>")
        self.pos += 1
        return value

    def integer(self, key: str, low: int, high: int) -> int:
        return integer(key, self.take(key), low, high)

    def listed(self, key: str, count: int, what: str = "entries") -> list[str]:
        """The next field `key`, split at `/` into `count` parts."""
        return split(key, self.take(key), count, what)

    def finish(self) -> None:
        if self.pos < len(self.tokens):
            raise NotationError(f"{self.what} has extra text", token=self.tokens[self.pos],
                                expected="nothing more")
