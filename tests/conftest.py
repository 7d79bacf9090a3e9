"""Shared fixtures."""
from __future__ import annotations

import pytest

import engine

ALL_EDITIONS = tuple(engine.EDITIONS)


@pytest.fixture(params=ALL_EDITIONS)
def edition(request) -> str:
    """Every edition the engine has; tests using it form the generic battery."""
    return request.param
