"""Shared fixtures."""
from __future__ import annotations

import pytest

import engine
from helpers import EditionCase, edition_cases

ALL_EDITIONS = tuple(engine.EDITIONS)
CASES = edition_cases()


@pytest.fixture(params=CASES, ids=[case.id for case in CASES])
def edition(request) -> EditionCase:
    """Every edition the engine has, once per number of players it is played with (an edition
    name with a `players` attribute); tests using it form the generic battery."""
    return request.param
