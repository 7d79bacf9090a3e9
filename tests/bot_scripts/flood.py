"""A broken bot: a correct minimal bot that floods its stdout before each answer — with one line
that never ends (`flood.py line`), or with tens of thousands of `info` lines (`flood.py info`)."""
import sys

from minimal import first_legal, say, serve

MODE = sys.argv[1] if len(sys.argv) > 1 else "line"


def flooding(view: str) -> str:
    if MODE == "line":
        chunk = "x" * 65536
        for _ in range(64):  # 4 MiB without a newline, then the answer on the same line
            sys.stdout.write(chunk)
        sys.stdout.flush()
    else:
        for i in range(20000):
            sys.stdout.write(f"info iterations {i} value 0.5\n")
        sys.stdout.flush()
    return first_legal(view)


serve(f"flood-{MODE}", flooding)
