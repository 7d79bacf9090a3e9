"""Type stubs of bots/deciders.pyx (compiled instant decisions)."""
from protocol.decider import Decider

class RandomDecider(Decider): ...

class GreedyDecider(Decider):
    epsilon: float
    def __init__(self, seed: int = 0, epsilon: float = 0.0) -> None: ...
