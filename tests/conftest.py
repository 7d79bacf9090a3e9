"""Shared fixtures."""
from __future__ import annotations

import pytest

import engine
from editions.build import load_dash
from engine.edition import Edition
from helpers import EditionCase, edition_cases

ALL_EDITIONS = tuple(engine.EDITIONS)
CASES = edition_cases()


@pytest.fixture(params=CASES, ids=[case.id for case in CASES])
def edition(request) -> EditionCase:
    """Every edition the engine has, once per number of players it is played with (an edition
    name with a `players` attribute); tests using it form the generic battery."""
    return request.param


@pytest.fixture(scope="session")
def dash_record(tmp_path_factory: pytest.TempPathFactory) -> Edition:
    """`dash`, the tests' race edition (tests/editions/), compiled once per session into a
    temporary folder. Not registered: a test module registers it for its own tests and takes it
    out again, so that the registry stays the product's for the others."""
    return load_dash(tmp_path_factory.mktemp("editions"))
