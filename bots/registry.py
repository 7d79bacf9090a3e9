"""Built-in policies by name, for selfplay, the protocol bots and tests.

>>> from bots.registry import make_policy
>>> make_policy("random", seed=3).name
'random'
"""
from __future__ import annotations

from collections.abc import Callable

from protocol.policy import Policy


def _random(seed: int) -> Policy:
    from bots.random import RandomPolicy
    return RandomPolicy(seed)  # instant: one compiled random decision


def _greedy(seed: int) -> Policy:
    from bots.greedy import GreedyPolicy
    return GreedyPolicy(seed=seed)  # instant: one compiled heuristic decision, no search


def _ismcts(seed: int) -> Policy:
    from bots.ismcts_policy import IsmctsPolicy
    return IsmctsPolicy(seed=seed)


POLICIES: dict[str, Callable[[int], Policy]] = {
    "random": _random,
    "greedy": _greedy,
    "ismcts": _ismcts,
}


def make_policy(name: str, seed: int = 0) -> Policy:
    """A new policy of the built-in kind `name`, seeded with `seed`."""
    try:
        factory = POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (built-in bots: {', '.join(POLICIES)})") from None
    return factory(seed)
