"""Type stubs of bots/cards/inference.pyx: the opponent model of the two-seat card editions."""
from collections.abc import Sequence

from typing_extensions import disjoint_base

from bots.inference import OpponentModel
from engine import State

DEFAULT_NOISE: float
DEFAULT_TEMPERATURE: float

@disjoint_base
class CardOpponentModel(OpponentModel):
    @property
    def turns(self) -> int: ...
    @property
    def seat(self) -> int: ...
    def log_probabilities(self, world: State, seed: int = 0) -> list[list[float]] | None: ...
    def observations(self) -> list[tuple[int, int, int, State, State]]: ...

def card_inference(state: State, seat: int, history: Sequence[str], noise: float = ...,
                   temperature: float = ..., strict: bool = False) -> CardOpponentModel | None: ...
