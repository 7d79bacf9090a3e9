"""`expeditions host`: the host protocol on stdin and stdout (docs/host.md), for GUIs and tools in
any language that run games of the engine.

    expeditions host                      # JSON lines: {"cmd": "start", "edition": "classic"} ...
    expeditions host --builtin-bots-only  # seated bots are built-in ones, never a client's program
"""
from __future__ import annotations

import argparse
import os
import sys
import threading

from expeditions import __version__


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("host", help="run games for a GUI or tool over JSON lines on stdin/stdout",
                       description="Speaks the host protocol (docs/host.md): one JSON request a line on "
                                   "stdin, one JSON reply a line on stdout for each, and the events of the "
                                   "game (decisions as each seat saw them, round ends, the result). A client "
                                   "starts games, reads seats' views and legal decisions, applies decisions, "
                                   "and seats bots the host plays. Logs go to stderr.")
    p.add_argument("--builtin-bots-only", action="store_true",
                   help="seat only built-in bots: refuse a bot given as a program (cmd)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from arena.host import bounded_lines, serve_lines

    # Stdout carries the protocol alone: a stray print (of any library) goes to stderr instead.
    out_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    lock = threading.Lock()

    def write(line: str) -> None:
        data = (line + "\n").encode("utf-8")
        with lock:  # bots' threads write events too
            while data:
                data = data[os.write(out_fd, data):]

    try:
        serve_lines(bounded_lines(sys.stdin.buffer), write, version=__version__,
                    allow_commands=not args.builtin_bots_only)
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    return 0
