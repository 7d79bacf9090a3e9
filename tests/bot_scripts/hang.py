"""A broken bot: a correct minimal bot whose `go` never returns (its loop hears nothing more)."""
import threading

from minimal import serve


def hang(view: str) -> str:
    threading.Event().wait()
    return ""


serve("hang", hang)
