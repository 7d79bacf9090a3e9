"""The greedy bot: one decision of the compiled heuristic of its edition, no search.

The heuristics (bots/cards/heuristic.pyx for the card editions, bots/board/heuristic.pyx for
`board`) project what the seat's expeditions or paths will be worth at the end of the round and
pick the decision that leaves the best projection (docs/bots.md). They decide from the seat's view
only: `view.state` is a full state whose hidden cards (other hands, the draw pile) are dealt
canonically, not truly, and the heuristic reads nothing but what the seat knows — its hand, the
public board and piles, cards known to be in other hands, hand sizes and the draw pile size. So
the decision is the same for every determinization of the view (tests/test_greedy.py,
tests/test_board_greedy.py).

>>> import engine
>>> from bots.greedy import GreedyPolicy
>>> view = engine.new_game("classic", seed=4).view(0)
>>> GreedyPolicy(seed=1).choose(view, None) in view.legal()
True
>>> view = engine.new_game("board", seed=4, players=3).view(0)
>>> GreedyPolicy(seed=1).choose(view, None) in view.legal()
True
"""
from __future__ import annotations

from bots import heuristics
from bots.deciders import GreedyDecider
from bots.instant import InstantPolicy
from protocol.policy import PolicyOption


class GreedyPolicy(InstantPolicy):
    """The heuristic's decision, with ties (and epsilon-random decisions) from its own generator.

    The generator is a compiled `GreedyDecider` (bots/deciders.pyx), which the protocol's C loop
    calls directly for card views; both paths draw from it and decide alike."""

    name = "greedy"
    options = (
        PolicyOption("Seed", "spin", 0, 0, 2**63 - 1, help="seed of the bot's generator (ties)"),
        PolicyOption("Epsilon", "spin", 0, 0, 100,
                     help="percent of decisions made uniformly at random (0: always the heuristic)"),
    )
    editions = heuristics.EDITIONS
    decider: GreedyDecider

    def __init__(self, seed: int = 0, epsilon_percent: int = 0) -> None:
        super().__init__()
        self.settings["Seed"] = seed
        self.settings["Epsilon"] = epsilon_percent
        self.decider = GreedyDecider(seed, epsilon_percent / 100.0)

    def on_option(self, name: str) -> None:
        if name == "Seed":
            self.decider.reseed(self.settings["Seed"])
        elif name == "Epsilon":
            self.decider.epsilon = self.settings["Epsilon"] / 100.0
