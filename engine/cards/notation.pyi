"""Type stubs of engine/cards/notation.pyx: the card editions' texts, per edition index."""

COLOURS: tuple[str, ...]
RANKS: tuple[str, ...]
PHASES: tuple[str, ...]
PILE_LETTERS: tuple[tuple[str, ...], ...]
CARD_TEXT: tuple[tuple[str, ...], ...]
CARD_INDEX: tuple[dict[str, int], ...]
DECISION_TEXT: tuple[list[str | None], ...]
DECISION_INDEX: tuple[dict[str, int], ...]
DECISION_EXPECTED: tuple[str, ...]

def card_list(e: int, text: str, field: str) -> list[int]: ...
