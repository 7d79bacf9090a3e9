"""Type stubs of engine/board/rules.pyx: the compiled rules of `board` and the board's numbers."""
from typing import Any

from engine._core import Rules
from engine.options import OptionSpec

DATA_PATH: str
DATA: dict[str, Any]
COLOURS: str
PATH_SPACES: tuple[tuple[int, ...], ...]
RULES: Rules
OPTION_SPECS: tuple[OptionSpec, ...]
SEATS: tuple[int, ...]

def artifact_score(artifacts: int, short_game: bool) -> int: ...
def stone_value(stone: int) -> int: ...
