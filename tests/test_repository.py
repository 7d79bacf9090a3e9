"""What the repository holds and what the wheel installs: the lab (research/) stays out of the
product's packages, and no committed file is large (a large trace is regenerated, not committed)."""
from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = {"engine", "protocol", "bots", "arena", "rl", "gui", "expeditions"}
LARGEST = 2 * 1024 * 1024
"""Bytes: a committed file may be this large and no larger."""


def test_the_wheel_holds_the_product_packages_and_not_the_lab():
    """The packages setuptools finds with pyproject.toml's own settings (`packages.find`, which
    looks for namespace packages too) are the wheel's: the product's, and nothing of research/."""
    setuptools = pytest.importorskip("setuptools")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    find = config["packages"]["find"]
    found = setuptools.find_namespace_packages(str(ROOT), include=find.get("include", ("*",)),
                                               exclude=find.get("exclude", ()))
    assert {name.split(".")[0] for name in found} == PRODUCT, found
    assert not any(name.split(".")[0] == "research" for name in config.get("package-data", {}))


def test_no_tracked_file_is_larger_than_2_mb():
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    try:
        listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        pytest.skip(f"git cannot list the files here ({e})")
    paths = [ROOT / name for name in listed.stdout.decode().split("\0") if name]
    large = {str(p.relative_to(ROOT)): p.stat().st_size for p in paths if p.is_file() and p.stat().st_size > LARGEST}
    assert not large, f"files larger than 2 MB (regenerate them by a command instead): {large}"
