"""Type stubs of bots/deciders.pyx: compiled instant decisions (random and greedy)."""
from collections.abc import Iterable

from typing_extensions import disjoint_base

from engine import State
from protocol.decider import Decider

class RandomDecider(Decider): ...

@disjoint_base
class GreedyDecider(Decider):
    epsilon: float
    def __init__(self, seed: int = 0, epsilon: float = 0.0) -> None: ...

def play_instant(state: State, deciders: Iterable[Decider]) -> list[int]: ...
