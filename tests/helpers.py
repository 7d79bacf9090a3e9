"""Helpers shared by the tests (importable as `helpers`: pytest puts tests/ on sys.path)."""
from __future__ import annotations

import random

import engine

CARD_EDITIONS = ("classic", "partners", "expedition")


def random_state(edition: str, seed: int, steps: int, **options) -> engine.State:
    """The position after up to `steps` random decisions from the deal of `seed`."""
    state = engine.new_game(edition, seed=seed, **options)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal()))
    return state
