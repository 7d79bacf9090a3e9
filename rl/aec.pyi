"""Type stubs of rl/aec.pyx: the compiled core of the PettingZoo AEC environment."""
from typing import Any

from typing_extensions import disjoint_base

from engine._core import State
from engine.edition import Edition
from rl.dealer import Dealer

@disjoint_base
class AECCore:
    game: State
    agent_selection: Any
    agents: list[Any]
    possible_agents: list[Any]
    rewards: dict[Any, Any]
    _cumulative_rewards: dict[Any, Any]
    terminations: dict[Any, Any]
    truncations: dict[Any, Any]
    infos: dict[Any, Any]
    dealer: Dealer
    def _bind(self, edition: Edition, possible_agents: list[Any], template: State) -> None: ...
    def observe(self, agent: str) -> dict[str, Any]: ...
    def last(self, observe: bool = True) -> tuple[Any, ...]: ...
    def step(self, action: Any) -> None: ...
    def _finish(self) -> None: ...
    def agent_iter(self, max_iter: int = 2**63) -> AgentIter: ...

@disjoint_base
class AgentIter:
    def __init__(self, env: AECCore, max_iter: int) -> None: ...
    def __iter__(self) -> AgentIter: ...
    def __next__(self) -> Any: ...
