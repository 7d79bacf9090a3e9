"""Type stubs of bots/board/heuristic.pyx: the heuristic of `board` and its weights by number of players."""
from collections.abc import Mapping

from bots.heuristics import Heuristic
from engine import State

DEFAULT_PARAMS: dict[int, dict[str, float]]
HEURISTIC: Heuristic

def default_params(players: int = 2) -> dict[str, float]: ...
def check_params(overrides: Mapping[str, float] | None, players: int = 2) -> dict[str, float]: ...
def decision_scores(state: State, params: Mapping[str, float] | None = None) -> list[tuple[str, float]]: ...
