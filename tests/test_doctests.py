"""The `>>>` examples of the docstrings and of the README run as tests."""
from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

MODULES = [
    "engine", "engine.errors", "engine.options", "engine.edition", "engine.editions", "engine.view", "engine._core",
    "engine.audit", "engine.textfields", "engine.benchmark", "engine.reference", "engine.reference.base",
    "engine.cards", "engine.cards.rules", "engine.cards.notation", "engine.cards.state", "engine.cards.edition",
    "engine.cards.audit", "engine.cards.reference", "engine.cards.reference.facts", "engine.cards.reference.game",
    "engine.cards.reference.classic", "engine.cards.reference.partners", "engine.cards.reference.expedition",
    "engine.board", "engine.board.rules", "engine.board.state", "engine.board.edition", "engine.board.audit",
    "engine.board.reference", "engine.observation", "engine.cards.observation", "engine.board.observation",
    "engine.eldorado.observation", "protocol.limits", "protocol.policy", "protocol.decider",
    "bots.instant", "bots.random", "bots.registry", "bots.params", "arena.match", "arena.duplicate_results", "arena.duplicate",
    "bots.deciders", "bots.heuristics", "bots.cards.heuristic", "bots.greedy",
    "expeditions.provenance", "expeditions.commands.common", "expeditions.commands.analyse", "expeditions.commands.deals",
    "arena.config", "arena.record", "arena.statistics", "arena.ratings", "arena.report", "arena.review", "arena.schedule", "arena.sprt",
    "arena.standings", "arena.store", "arena.play", "arena.live", "engine.drawing", "engine.cards.drawing",
    "engine.board.drawing", "engine.eldorado.drawing", "gui.public", "gui.session", "gui.app",
    "arena.host", "arena.host_game", "expeditions.commands.list",
]
README = Path(__file__).resolve().parent.parent / "README.md"


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name):
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert failures == 0


def test_readme_examples():
    failures, _ = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert failures == 0
