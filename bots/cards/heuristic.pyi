"""Type stubs of bots/cards/heuristic.pyx: the heuristic of the card editions and its weights."""
from collections.abc import Mapping

from bots.heuristics import Heuristic
from engine import State

DEFAULT_PARAMS: dict[str, dict[str, float]]
EDITION_NAMES: tuple[str, ...]
HEURISTIC: Heuristic

def default_params(edition: str = "classic") -> dict[str, float]: ...
def check_params(edition: str, overrides: Mapping[str, float] | None) -> dict[str, float]: ...
def decision_scores(state: State, params: Mapping[str, float] | None = None) -> list[tuple[str, float]]: ...
