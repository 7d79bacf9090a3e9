"""The bot authors' example (docs/examples/montecarlo_bot.py, docs/writing-a-bot.md) stays a correct
and working bot: it passes the conformance checker and beats the random bot."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import engine
from protocol.limits import Limits
from bots.random import RandomPolicy
from protocol.local import child_env, expeditions_argv

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "montecarlo_bot.py"
"""In the source tree (docs/ is not installed with the package)."""


def load_example():
    spec = importlib.util.spec_from_file_location("montecarlo_bot", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_the_example_passes_the_conformance_checker() -> None:
    done = subprocess.run(expeditions_argv("protocol-check", "--editions", "classic,partners", "--positions", "10",
                                           "--", sys.executable, str(EXAMPLE)),
                          capture_output=True, text=True, env=child_env(), timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "PASS (required level)" in done.stdout and " 0 failed" in done.stdout


def test_the_example_beats_random() -> None:
    """Four single-round classic games, two deals with the seats swapped (seeded: the same every run)."""
    bot = load_example().MonteCarlo()
    won, margin = 0, 0
    for deal in range(2):
        for seat in range(2):
            state = engine.new_game("classic", seed=deal, rounds=1)
            other = RandomPolicy(seed=deal)
            while not state.is_terminal():
                mover = state.to_move
                player = bot if mover == seat else other
                state.apply(player.choose(state.view(mover), Limits(iterations=300)))
            won += state.returns()[seat] == 1.0
            margin += state.scores()[seat] - state.scores()[1 - seat]
    assert won >= 3 and margin > 0, (won, margin)


def test_the_example_keeps_to_its_budget() -> None:
    module = load_example()
    view = engine.new_game("expedition", seed=5).view(0)
    reports = []
    decision = module.MonteCarlo().choose(view, Limits(iterations=100), info=reports.append)
    assert decision in view.legal()
    assert reports[-1]["iterations"] == 100 and reports[-1]["pv"] == [view.state.decision_to_text(decision)]


def test_the_examples_docstring() -> None:
    import doctest
    failed, tried = doctest.testmod(load_example())
    assert tried > 0 and failed == 0
