"""Type stubs of engine/cards/rules.pyx: the card editions' compiled rules and their facts."""
from engine._core import Rules
from engine.options import OptionSpec

EDITION_NAMES: tuple[str, ...]
SEATS: tuple[int, ...]
OPTION_SPECS: tuple[tuple[OptionSpec, ...], ...]
RULES: tuple[Rules, ...]
