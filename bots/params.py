"""Named weights of a heuristic, overridden by name (the greedy bots' tuning and tests).

>>> with_overrides({"a": 1.0, "b": 2.0}, {"b": 3.0})
{'a': 1.0, 'b': 3.0}
>>> with_overrides({"a": 1.0}, {"c": 0.0})
Traceback (most recent call last):
...
KeyError: "unknown heuristic parameter 'c' (known: a)"
"""
from __future__ import annotations

from collections.abc import Mapping


def with_overrides(params: dict, overrides: Mapping | None) -> dict:
    """`params` updated in place with `overrides` and returned; KeyError names an unknown weight."""
    for name, value in (overrides or {}).items():
        if name not in params:
            raise KeyError(f"unknown heuristic parameter {name!r} (known: {', '.join(params)})")
        params[name] = value
    return params
