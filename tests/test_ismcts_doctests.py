"""The `>>>` examples of the searcher's modules run as tests."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["bots.ismcts", "bots.ismcts_policy", "bots.inference", "bots.cards.inference", "arena.duplicate",
           "bots.search_benchmark"]


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name):
    failures, _ = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert failures == 0
