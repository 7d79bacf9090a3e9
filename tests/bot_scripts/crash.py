"""A broken bot: a correct minimal bot that dies (exit status 3) at its first `go`."""
import os
import sys

from minimal import serve


def crash(view: str) -> str:
    sys.stderr.write("crash.py: giving up\n")
    sys.stderr.flush()
    os._exit(3)


serve("crash", crash)
