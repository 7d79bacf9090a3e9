"""A chatty bot: a correct minimal bot that writes 4 MiB to stderr before every answer (a bot
left with its debugging output on). Stderr that nobody reads would block it after 64 KiB."""
import sys

from minimal import first_legal, serve

CHUNK = "debug " * 10922 + "\n"  # 64 KiB a line


def noisy(view: str) -> str:
    for _ in range(64):
        sys.stderr.write(CHUNK)
    sys.stderr.flush()
    return first_legal(view)


serve("noisy", noisy)
