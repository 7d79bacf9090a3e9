"""The random bot: a uniformly random legal decision.

>>> import engine
>>> from bots.random import RandomPolicy
>>> view = engine.new_game("expedition", seed=4).view(0)
>>> RandomPolicy(seed=9).choose(view, None) in view.legal()
True
"""
from __future__ import annotations

import random

from bots.policy import Policy, PolicyOption


class RandomPolicy(Policy):
    """Chooses uniformly among the legal decisions, from its own seeded generator."""

    name = "random"
    options = (PolicyOption("Seed", "spin", 0, 0, 2**63 - 1, help="seed of the bot's generator"),)

    def __init__(self, seed: int = 0) -> None:
        super().__init__()
        self.settings["Seed"] = seed
        self.rng = random.Random(seed)

    def on_option(self, name: str) -> None:
        if name == "Seed":
            self.rng = random.Random(self.settings["Seed"])

    def choose(self, view, limits, stop=None, info=None) -> int:
        return self.rng.choice(view.legal())
