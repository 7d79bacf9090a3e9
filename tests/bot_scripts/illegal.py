"""A broken bot: a correct minimal bot that answers well-formed decisions the rules do not allow
(a draw when it must play or discard, a play when it must draw)."""
from minimal import serve


def illegal(view: str) -> str:
    fields = dict(tok.split("=", 1) for tok in view.split()[1:] if "=" in tok)
    if fields["phase"] == "play":
        return "D"
    return "+" + fields["hands"].split("/")[int(fields["seat"])][:2]


serve("illegal", illegal)
