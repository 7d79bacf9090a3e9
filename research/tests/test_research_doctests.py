"""The `>>>` examples of the research tools' docstrings run as tests, and the heuristic's
benchmark (research/benchmark.py) runs as a script."""
from __future__ import annotations

import doctest
import importlib
import json

import pytest

MODULES = ["research", "research.benchmark", "research.decision_values", "research.deviations", "research.evaluation_fit",
           "research.record_traces", "research.rl_floor", "research.search_traces", "research.trace_research", "research.turn_clock"]


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name):
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert failures == 0


def test_the_benchmark_measures_speed_and_strength_against_random(capsys):
    from research.benchmark import main

    assert main(["-e", "partners", "--seconds", "0.1", "--deals", "20", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["edition"] == "partners" and figures["heuristic_rounds_per_s"] > 0
    assert figures["vs_random_score"] > 0.9, figures


def test_the_rl_floor_finds_where_the_batched_step_writes_its_observation():
    from research.rl_floor import SOURCE, cut_observation

    cut = cut_observation(SOURCE.read_text())
    assert cut.count("        return\n        if self.update_fn is NULL:\n") == 1
