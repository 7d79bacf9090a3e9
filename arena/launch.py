"""Starts one bot under the arena's safety rules, then becomes it (exec).

Run as `python -m arena.launch [--memory-mb N] [--cpu-seconds N] [--open-files N] [--workdir DIR
[--landlock --read PATH... --list PATH...]] -- argv...`. In this fresh single-threaded process it
is safe to: put the bot in its own process group (the arena kills the whole group), set resource
limits (address space, CPU time, open files), ask the kernel to kill the bot if the arena dies
(Linux PR_SET_PDEATHSIG), so that no bot outlives a crashed arena, and confine it (arena.sandbox):
its own working folder (also its HOME and TMPDIR) and, with `--landlock`, the kernel's rules.
Doing the same in the arena itself would need `preexec_fn`, which is unsafe in a threaded program.
"""
from __future__ import annotations

import argparse
import ctypes
import os
import resource
import signal
import sys

PR_SET_PDEATHSIG = 1


def _limit(kind: int, value: int) -> None:
    if value > 0:
        soft, hard = resource.getrlimit(kind)
        value = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(kind, (value, hard if hard != resource.RLIM_INFINITY else resource.RLIM_INFINITY))


def die_with_parent(parent: int = 0) -> bool:
    """Asks the kernel to kill this process when the thread that started it ends (Linux
    PR_SET_PDEATHSIG); False when `parent` (a pid, 0: unchecked) is no longer our parent, i.e.
    it died before the request took effect."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    return not parent or os.getppid() == parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m arena.launch")
    parser.add_argument("--memory-mb", type=int, default=0)
    parser.add_argument("--cpu-seconds", type=int, default=0)
    parser.add_argument("--open-files", type=int, default=0)
    parser.add_argument("--parent", type=int, default=0, help="the arena's pid: exit if it is gone")
    parser.add_argument("--workdir", help="the bot's own working folder (also its HOME and TMPDIR)")
    parser.add_argument("--landlock", action="store_true", help="confine the bot with Landlock")
    parser.add_argument("--read", action="append", default=[], help="a folder the bot may read (with --landlock)")
    parser.add_argument("--list", action="append", default=[], help="a folder the bot may list (with --landlock)")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no bot command after --")
    if os.getpgrp() != os.getpid():
        os.setpgid(0, 0)
    if not die_with_parent(args.parent):
        return 1  # the arena died before the prctl took effect: do not start the bot
    _limit(resource.RLIMIT_AS, args.memory_mb * 1024 * 1024)
    _limit(resource.RLIMIT_CPU, args.cpu_seconds)
    _limit(resource.RLIMIT_NOFILE, args.open_files)
    if args.workdir:
        os.chdir(args.workdir)
        for name in ("HOME", "TMPDIR", "TMP", "TEMP"):
            os.environ[name] = args.workdir
    if args.landlock:
        from arena.landlock import confine

        if not args.workdir:
            parser.error("--landlock needs --workdir")
        try:
            confine([*args.read, f"/proc/{os.getpid()}"], [args.workdir], args.list)  # the bot keeps this pid
        except OSError as err:
            print(f"arena.launch: cannot confine the bot: {err}", file=sys.stderr)
            return 126
    try:
        os.execvp(command[0], command)
    except OSError as err:
        print(f"arena.launch: cannot start {command[0]!r}: {err.strerror}", file=sys.stderr)
        return 127
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
