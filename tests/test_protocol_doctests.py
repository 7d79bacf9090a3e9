"""The `>>>` examples of the protocol package's docstrings run as tests."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["protocol.messages", "protocol.errors", "protocol.local", "protocol.searcher", "protocol.server",
           "protocol.client", "protocol.conformance", "protocol.integrity", "protocol.benchmark"]


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name: str) -> None:
    failures, tried = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert failures == 0 and tried > 0
