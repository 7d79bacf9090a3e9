"""Every subcommand runs from any working folder, the repository root included, where the source
packages (uncompiled, once the package is installed elsewhere) must not shadow the installed ones:
the command and every child process it starts import the packages the command itself runs."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from expeditions.commands import COMMANDS

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(sys.executable).parent / "expeditions"


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    if not SCRIPT.exists():
        pytest.skip("the expeditions console script is not installed beside this interpreter")
    return subprocess.run([str(SCRIPT), *args], cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("command", [module.__name__.rsplit(".", 1)[1].replace("_", "-") for module in COMMANDS])
def test_every_subcommand_answers_help_from_the_repository_root(command):
    done = _run(command, "--help", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: expeditions " + command)


@pytest.mark.parametrize("cwd", ["root", "elsewhere"])
def test_the_search_benchmark_and_its_memory_probe_run_from_any_folder(cwd, tmp_path):
    done = _run("bench", "--search", "-e", "expedition", "--seconds", "0.05", "--json",
                cwd=ROOT if cwd == "root" else tmp_path)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["search_rss_mb"] > 0 and figures["signature"] > 0


def test_the_search_benchmark_deals_for_the_players_asked():
    """`bench --search --players 4` searches the first decision of a 4-player deal (the rate a
    multi-player edition reports), and says so."""
    name = next(e.name for e in engine.EDITIONS.values() if 4 in e.seats and 2 in e.seats)
    figures = [json.loads(_run("bench", "--search", "-e", name, "--players", str(n), "--seconds", "0.05",
                               "--json", cwd=ROOT).stdout) for n in (2, 4)]
    assert [f["players"] for f in figures] == [2, 4]
    assert figures[0]["signature"] != figures[1]["signature"]  # a different deal was searched
