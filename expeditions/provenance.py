"""Which code produced a result: the package version and, in a git checkout, its commit.

Results that are kept and pooled over several sittings (a duplicate run's results file) record
it with every line, so that deals played by different code are never pooled unawares.

>>> code_version().startswith(__import__("expeditions").__version__)
True
"""
from __future__ import annotations

import functools
import os
import subprocess

from expeditions import __version__

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _git(*args: str) -> str | None:
    """The output of a git command in the project's checkout, or None (no git, or not a checkout)."""
    try:
        done = subprocess.run(["git", "-C", _ROOT, *args], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


@functools.cache
def code_version() -> str:
    """`0.1.0` for an installed package; `0.1.0+g4562169` in a git checkout at that commit, with
    `.dirty` appended when tracked files differ from it (the result is then not reproducible from
    the commit alone)."""
    # .git is a directory in a clone and a file in a linked worktree or a submodule; an installed
    # copy has neither
    if not os.path.exists(os.path.join(_ROOT, ".git")):
        return __version__
    commit = _git("rev-parse", "--short", "HEAD")
    if not commit:
        return __version__
    dirty = _git("status", "--porcelain", "--untracked-files=no")
    return f"{__version__}+g{commit}{'.dirty' if dirty else ''}"
