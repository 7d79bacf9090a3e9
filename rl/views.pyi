"""Type stubs of rl/views.pyx: one state's observation and action mask as numpy arrays."""
import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from engine._core import State
from engine.edition import Edition

POOL: int

@disjoint_base
class Views:
    def __init__(self, edition: Edition) -> None: ...
    @property
    def size(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    def observation(self, state: State, seat: int) -> npt.NDArray[np.float32]: ...
    def observation_and_mask(self, state: State, seat: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]: ...
    def action_mask(self, state: State, mover: bool = True) -> npt.NDArray[np.int8]: ...
