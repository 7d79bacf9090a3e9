"""Built-in policies by name, for selfplay, the protocol bots and tests.

>>> from bots.registry import make_policy
>>> make_policy("random", seed=3).name
'random'
"""
from __future__ import annotations

from collections.abc import Callable

from bots.policy import Policy


def _random(seed: int) -> Policy:
    from bots.random import RandomPolicy
    return RandomPolicy(seed)


POLICIES: dict[str, Callable[[int], Policy]] = {
    "random": _random,
}


def make_policy(name: str, seed: int = 0) -> Policy:
    """A new policy of the built-in kind `name`, seeded with `seed`."""
    try:
        factory = POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (built-in bots: {', '.join(POLICIES)})") from None
    return factory(seed)
