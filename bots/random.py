"""The random bot: a uniformly random legal decision.

Its generator is a compiled `RandomDecider` (bots/deciders.pyx), which the protocol's C loop
(protocol/fastloop.pyx) calls directly; both paths draw from it, so a seeded random bot makes the
same decisions however its `go` is answered.

>>> import engine
>>> from bots.random import RandomPolicy
>>> view = engine.new_game("expedition", seed=4).view(0)
>>> RandomPolicy(seed=9).choose(view, None) in view.legal()
True
"""
from __future__ import annotations

from bots.deciders import RandomDecider
from bots.instant import InstantPolicy
from protocol.policy import PolicyOption


class RandomPolicy(InstantPolicy):
    """Chooses uniformly among the legal decisions, from its own seeded generator."""

    name = "random"
    options = (PolicyOption("Seed", "spin", 0, 0, 2**63 - 1, help="seed of the bot's generator"),)

    def __init__(self, seed: int = 0) -> None:
        super().__init__()
        self.settings["Seed"] = seed
        self.decider = RandomDecider(seed)

    def on_option(self, name: str) -> None:
        if name == "Seed":
            self.decider.reseed(self.settings["Seed"])
