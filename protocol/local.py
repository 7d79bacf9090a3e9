"""How to start this project's own bots and commands as child processes.

A child must run the very packages this process imported: from a source tree, the in-place
build; once installed, the installed copy — not whatever `engine/` sits in the child's working
directory (`python -m` would put that first). So the argv pins the package root itself and runs
with `-P` (no unsafe path prepended).

>>> argv = builtin_bot("random")
>>> argv[0] == sys.executable, argv[1], argv[-2:]
(True, '-P', ['bot', 'random'])
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]
"""The directory holding the `engine`, `bots`, `protocol` and `expeditions` packages in use."""


def python_argv(code: str, *args: str) -> list[str]:
    """The argv that runs the Python `code` (with `sys.argv[1:]` = args) with this interpreter and
    these packages, from whatever working directory.

    >>> python_argv("print(1)")[:2] == [sys.executable, "-P"]
    True
    """
    boot = f"import sys; sys.path.insert(0, {str(PROJECT_ROOT)!r}); {code}"
    return [sys.executable, "-P", "-c", boot, *args]


def expeditions_argv(*args: str) -> list[str]:
    """The argv of `expeditions ARGS…` with this interpreter and these packages."""
    return python_argv("from expeditions.cli import main; sys.exit(main())", *args)


def builtin_bot(name: str, *, seed: int | None = None) -> list[str]:
    """The argv that runs built-in bot `name` (`expeditions bot NAME`)."""
    args = ["bot", name]
    if seed is not None:
        args += ["--seed", str(seed)]
    return expeditions_argv(*args)


def child_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for a child interpreter that is not started by one of the argvs above
    (a test bot script): `base` (default: ours) with the package root first on PYTHONPATH."""
    env = dict(os.environ if base is None else base)
    parts = [str(PROJECT_ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(parts))
    return env
