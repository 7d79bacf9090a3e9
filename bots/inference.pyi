"""Type stubs of bots/inference.pyx: the opponent model a search draws its worlds from."""
from typing_extensions import disjoint_base

from engine import State

@disjoint_base
class OpponentModel:
    @property
    def observed(self) -> int: ...
    def log_likelihood(self, world: State, seed: int = 0) -> float: ...
    def sample(self, world: State, count: int, steps: int = 20, burn_in: int = 2000,
               seed: int = 0) -> tuple[list[State], float]: ...
