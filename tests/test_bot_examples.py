"""The minimal bots for authors in any language (docs/writing-a-bot.md, docs/examples/) pass the
required level of `protocol-check` in every edition: the guide's own, and the C and JavaScript
ones where their compiler or runtime is installed (skipped, with the reason, where not)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from helpers import guide_bot
from protocol.local import child_env, expeditions_argv

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def protocol_check(argv: list[str], *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run(expeditions_argv("protocol-check", "--positions", "8", *flags, "--", *argv),
                          capture_output=True, text=True, env=child_env(), timeout=600)


def assert_required_level_passes(done: subprocess.CompletedProcess) -> None:
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    verdict = done.stdout.splitlines()[-1]
    assert verdict.startswith("PASS (required level)"), verdict
    for edition in ("classic", "partners", "expedition", "board", "eldorado"):
        assert f"{edition}: whole games" in done.stdout  # every edition it claims was played


def test_the_guides_minimal_bot_passes(tmp_path: Path) -> None:
    assert_required_level_passes(protocol_check(guide_bot(tmp_path)))


def test_the_c_example_passes(tmp_path: Path) -> None:
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        pytest.skip("no C compiler (cc, gcc or clang) on this machine")
    binary = tmp_path / "minimal_bot"
    subprocess.run([compiler, "-O2", "-Wall", "-Werror", "-o", str(binary), str(EXAMPLES / "minimal_bot.c")],
                   check=True, capture_output=True, timeout=120)
    assert_required_level_passes(protocol_check([str(binary)]))


def test_the_javascript_example_passes() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("no Node.js (node) on this machine")
    assert_required_level_passes(protocol_check([node, str(EXAMPLES / "minimal_bot.js")]))


def test_advice_is_not_a_failure_unless_required(tmp_path: Path) -> None:
    """The guide's bot lacks searchmoves and the debugging commands: advice by default, a failure
    when the recommended level is required."""
    argv = guide_bot(tmp_path)
    done = protocol_check(argv, "--editions", "classic")
    assert done.returncode == 0
    advice = next(line for line in done.stdout.splitlines() if line.startswith("advice: "))
    assert "go searchmoves (recommended)" in advice and "debug: d, legal, perft (optional)" in advice
    strict = protocol_check(argv, "--editions", "classic", "--require", "recommended")
    assert strict.returncode == 1 and strict.stdout.splitlines()[-1].startswith("FAIL (recommended level)")
