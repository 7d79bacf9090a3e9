"""Perft: exact counts of decision sequences from fixed positions (tests/data/perft.txt).

Counts up to FAST_LIMIT run by default, larger ones with `pytest -m slow`. Small depths are also
counted independently on the pure-Python reference model. On a mismatch the per-decision
counts (a "divide") are printed to find the branch that differs.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine import reference

FAST_LIMIT = 20_000_000
REFERENCE_LIMIT = 3_000
DATA = Path(__file__).parent / "data" / "perft.txt"


def _records():
    for line in DATA.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, position, *counts = (part.strip() for part in line.split(";"))
        yield name, position, [tuple(map(int, c.split())) for c in counts]


RECORDS = list(_records())
CASES = [(name, pos, depth, count) for name, pos, counts in RECORDS for depth, count in counts]


def _divide(state: engine.State, depth: int) -> str:
    lines = []
    for decision in state.legal():
        child = state.copy()
        child.apply(decision)
        lines.append(f"{state.decision_to_text(decision)}: {child.perft(depth - 1)}")
    return "\n".join(lines)


def _check(position: str, depth: int, count: int) -> None:
    state = engine.parse_position(position)
    got = state.perft(depth)
    assert got == count, f"perft({depth}) = {got}, expected {count}; divide:\n{_divide(state, depth)}"


@pytest.mark.parametrize("name, position, depth, count",
                         [c for c in CASES if c[3] <= FAST_LIMIT], ids=lambda v: v if isinstance(v, str) and len(v) < 40 else "")
def test_perft(name, position, depth, count):
    _check(position, depth, count)


@pytest.mark.slow
@pytest.mark.parametrize("name, position, depth, count",
                         [c for c in CASES if c[3] > FAST_LIMIT], ids=lambda v: v if isinstance(v, str) and len(v) < 40 else "")
def test_perft_deep(name, position, depth, count):
    _check(position, depth, count)


def _reference_perft(game, depth: int) -> int:
    if depth == 0:
        return 1
    legal = game.legal()
    if depth == 1:
        return len(legal)
    total = 0
    for decision in legal:
        child = game.copy()
        child.apply(decision)
        total += _reference_perft(child, depth - 1)
    return total


@pytest.mark.parametrize("name, position, depth, count",
                         [c for c in CASES if c[3] <= REFERENCE_LIMIT], ids=lambda v: v if isinstance(v, str) and len(v) < 40 else "")
def test_reference_model_agrees(name, position, depth, count):
    assert _reference_perft(reference.from_text(position), depth) == count


def test_reference_models_cover_the_perft_editions():
    """Every edition with perft positions has a reference model that recounts its small depths."""
    assert {pos.split(maxsplit=1)[0] for _, pos, _ in RECORDS} <= set(reference.models())


def test_every_edition_has_perft_positions():
    assert {engine.parse_position(pos).edition for _, pos, _ in RECORDS} >= {"classic", "partners", "expedition", "board", "eldorado"}
