"""Confining a bot: a working folder of its own, and Linux's Landlock where the kernel offers it.

Two modes (docs/arena.md says what each guarantees):

- `folder`: the bot starts in an empty folder of its own (also its HOME and TMPDIR), removed
  when its process ends. Nothing more: a process of the arena's user can still read that user's
  files.
- `landlock`: the same folder, and the kernel's Landlock LSM (Linux 5.13+, no root needed) lets
  the bot read only the system's folders, the Python installation and the packages in use, and
  the folders of the files on its command line; write only in its own folder; make no TCP
  connection; and reach no process outside its own (no ptrace, no /proc entry of another, no
  signals, no abstract sockets).
  The results database, the logs and the other bots' folders are out of its reach.

`auto` is `landlock` where the kernel offers it, else `folder`. The rules are applied by the
launcher (`arena.launch`) in the bot's own process just before it becomes the bot, so they bind
the bot and everything it starts, and nothing else.

>>> [path.name for path in command_folders(["/bin/sh", "-c", "true"])]
['bin']
"""
from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from arena.landlock import landlock_abi
from engine.errors import ExpeditionsError

MODES = ("auto", "landlock", "folder")

SYSTEM_FOLDERS = ("/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/etc", "/opt", "/sys",
                  "/proc/cpuinfo", "/proc/meminfo", "/proc/stat", "/proc/loadavg", "/proc/uptime", "/proc/version",
                  "/proc/sys")
"""Read by every bot: programs, libraries, configuration, what the kernel says of the machine, and
(granted by the launcher) the bot's own /proc entry — not the other processes' (their command
lines and environments)."""


class SandboxError(ExpeditionsError):
    """The confinement asked for cannot be had, or would not hide what it must."""


def resolve_mode(requested: str) -> str:
    """The mode to run in: `auto` becomes `landlock` or `folder`; SandboxError if `landlock` is
    asked for and the kernel does not offer it.

    >>> resolve_mode("folder")
    'folder'
    """
    if requested not in MODES:
        raise SandboxError(f"sandbox must be one of {', '.join(MODES)}, got {requested!r}")
    if requested == "folder":
        return "folder"
    if landlock_abi() > 0:
        return "landlock"
    if requested == "landlock":
        raise SandboxError("sandbox landlock: this kernel offers no Landlock (Linux 5.13 or later with "
                           "Landlock enabled); use --sandbox folder")
    return "folder"


def describe(mode: str) -> str:
    """One line for the arena's header: how the bots run."""
    if mode == "landlock":
        return (f"bots confined by Landlock (ABI {landlock_abi()}): each reads the system and its own files, "
                f"writes only its own folder")
    if landlock_abi() == 0:
        return "bots run in folders of their own, without an OS sandbox (this kernel offers no Landlock)"
    return "bots run in folders of their own, without an OS sandbox (--sandbox folder)"


def absolute_command(command: Sequence[str], base: str | Path | None = None) -> list[str]:
    """`command` with its relative paths made absolute against `base` (default: the current
    folder), since the bot starts elsewhere: an argument naming an existing file there, or with a
    slash, an existing folder. The program itself is left to PATH unless it has a slash.

    >>> import tempfile; folder = tempfile.mkdtemp(); _ = open(os.path.join(folder, "bot.py"), "w")
    >>> absolute_command(["python3", "bot.py", "-q", "greedy"], folder)[1] == os.path.join(folder, "bot.py")
    True
    """
    base = Path(base) if base is not None else Path.cwd()
    out = []
    for n, arg in enumerate(command):
        path = base / arg
        if arg and not os.path.isabs(arg) and not arg.startswith("-") and (
                (n > 0 and path.is_file()) or ("/" in arg and path.exists())):
            out.append(str(path.resolve()))
        else:
            out.append(arg)
    return out


def command_folders(command: Sequence[str]) -> list[Path]:
    """The folders of the files a (absolute) command names: its program (found on PATH) and every
    absolute path among its arguments (a folder, or the existing folder of a file)."""
    found = []
    program = shutil.which(command[0]) if command else None
    if program is not None:
        found.append(Path(program).resolve().parent)
    for arg in command[1:]:
        if os.path.isabs(arg):
            path = Path(arg).resolve()
            folder = path if path.is_dir() else path.parent  # a file's, even one still to be made
            if folder.is_dir():
                found.append(folder)
    return list(dict.fromkeys(found))


def python_folders() -> list[Path]:
    """The Python installation and the packages in use: its prefixes and the folders on its path
    (a folder holding packages next to other things — a source checkout — is granted as its
    package and metadata folders alone, plus the right to list it)."""
    from protocol.local import PROJECT_ROOT

    prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    found = [Path(p).resolve() for p in prefixes]
    for entry in sys.path:
        if entry and os.path.isdir(entry):
            path = Path(entry).resolve()
            if path != PROJECT_ROOT.resolve() and path != Path.cwd().resolve():
                found.append(path)
    found += project_folders()
    return list(dict.fromkeys(found))


def project_folders() -> list[Path]:
    """The package and metadata folders of the project root."""
    from protocol.local import PROJECT_ROOT

    return sorted(p for p in PROJECT_ROOT.iterdir()
                  if p.is_dir() and ((p / "__init__.py").is_file() or p.suffix in (".egg-info", ".dist-info")))


def listed_folders() -> list[Path]:
    """Folders a bot may list but not read: the project root when its packages are imported from
    it (a source checkout, which may hold a database too)."""
    from protocol.local import PROJECT_ROOT

    return [PROJECT_ROOT]


def read_folders(command: Sequence[str]) -> list[Path]:
    """Everything a bot started by `command` (absolute) may read under Landlock."""
    system = [Path(p) for p in SYSTEM_FOLDERS if os.path.exists(p)]
    return list(dict.fromkeys([*system, *python_folders(), *command_folders(command)]))


def exposure(secret: str | Path, readable: Iterable[Path]) -> Path | None:
    """The first of `readable` folders that holds `secret` (None: out of reach)."""
    target = Path(secret).resolve()
    for folder in readable:
        if target == folder or folder in target.parents:
            return folder
    return None


def check_hidden(secrets: Mapping[str, str | Path], bots: Mapping[str, Sequence[str]]) -> None:
    """SandboxError naming the first of `secrets` (a description per path) that a bot (its
    absolute command per name) could read under Landlock."""
    for name, command in bots.items():
        readable = read_folders(command)
        for what, path in secrets.items():
            folder = exposure(path, readable)
            if folder is not None:
                raise SandboxError(f"bot {name} could read {what} {path}: it lies in {folder}, which the bot may "
                                   f"read (the system, Python, or its command's folder): keep one of them elsewhere, "
                                   f"or run with --sandbox folder")
