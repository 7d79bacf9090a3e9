"""Rule options: their names, defaults and ranges, and parsing `name=value` text.

>>> from engine.options import OptionSpec, parse_option_tokens
>>> specs = (OptionSpec("rounds", 3, 1, 99, "rounds in a match"),)
>>> parse_option_tokens(specs, ["rounds=1"])
{'rounds': 1}
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.errors import OptionError


@dataclass(frozen=True)
class OptionSpec:
    """One integer rule option of an edition."""

    name: str
    """The option's name as written in `name=value`."""
    default: int
    low: int
    """Smallest allowed value."""
    high: int
    """Largest allowed value."""
    help: str
    """One line for `--help` and the docs."""
    choices: tuple[str, ...] = ()
    """Names of the values low, low+1, … where the option is a choice (a map, say): the text
    form of a value is its name, and parsing takes the name or the number."""

    def text(self, value: int) -> str:
        """The value as written in `name=value`.

        >>> OptionSpec("route", 0, 0, 1, "the map", ("short", "long")).text(1)
        'long'
        """
        return self.choices[value - self.low] if self.choices else str(value)

    def expected(self) -> str:
        """What a value must be, for error messages."""
        if self.choices:
            return "one of " + ", ".join(self.choices)
        return f"an integer in {self.low}..{self.high}"

    def check(self, value: object) -> int:
        """Returns the value as an int, or raises OptionError naming the option and its range.

        >>> OptionSpec("route", 0, 0, 1, "the map", ("short", "long")).check("long")
        1
        """
        if isinstance(value, str) and self.choices and value.strip() in self.choices:
            return self.low + self.choices.index(value.strip())
        if self.choices and isinstance(value, str) and not value.strip().lstrip("-").isdigit():
            raise OptionError(f"option {self.name}: expected {self.expected()}, got {value!r}")
        if isinstance(value, bool):
            raise OptionError(f"option {self.name}: expected an integer in {self.low}..{self.high}, got {value!r}")
        if isinstance(value, str):
            text = value.strip()
            if not text or not text.lstrip("-").isdigit():
                raise OptionError(f"option {self.name}: expected an integer in {self.low}..{self.high}, got {value!r}")
            value = int(text)
        if not isinstance(value, int):
            raise OptionError(f"option {self.name}: expected an integer, got {type(value).__name__}")
        if not self.low <= value <= self.high:
            raise OptionError(f"option {self.name}: {value} is out of range {self.low}..{self.high}")
        return value


def resolve_options(specs: Iterable[OptionSpec], given: Mapping[str, object], edition: str = "") -> dict[str, int]:
    """Every option of `specs`, at its given value or its default; unknown names raise.

    >>> resolve_options((OptionSpec("cost", 0, 0, 100, ""),), {})
    {'cost': 0}
    """
    specs = tuple(specs)
    names = {spec.name: spec for spec in specs}
    for name in given:
        if name not in names:
            where = f" of {edition}" if edition else ""
            known = ", ".join(names) or "none"
            raise OptionError(f"unknown option{where}: {name!r} (options: {known})")
    return {spec.name: spec.check(given[spec.name]) if spec.name in given else spec.default for spec in specs}


def parse_option_tokens(specs: Iterable[OptionSpec], tokens: Iterable[str], edition: str = "") -> dict[str, int]:
    """Parses `name=value` tokens into the options they name (no defaults filled in)."""
    specs = tuple(specs)
    out: dict[str, str] = {}  # checked and converted by resolve_options
    for token in tokens:
        name, sep, value = token.partition("=")
        if not sep or not name:
            raise OptionError(f"option {token!r}: expected name=value")
        if name in out:
            raise OptionError(f"option {name} given twice")
        out[name] = value
    resolved = resolve_options(specs, out, edition)
    return {name: resolved[name] for name in out}
