"""A complete UEI bot written from docs/protocol.md alone: one thread, no project library but
the engine (for the rules). It plays the first legal decision.

It is the base of the broken test bots (crash.py, hang.py, garbage.py, illegal.py), which
change one thing each, so that the conformance checker's verdict on them has a single cause.
Run as a script it is a correct bot: `python tests/bot_scripts/minimal.py`.
"""
from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

try:
    import engine
except ImportError:  # run by hand from a source tree without PYTHONPATH
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    import engine


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def first_legal(view_text: str) -> str:
    return engine.parse_view(view_text).legal_text()[0]


def parse_go(args: list[str]) -> dict[str, str]:
    """`go` limits by name; raises ValueError on anything malformed."""
    limits: dict[str, str] = {}
    i = 0
    while i < len(args):
        key = args[i]
        if key in limits:
            raise ValueError(f"{key} twice")
        if key == "infinite":
            limits[key] = ""
            i += 1
            continue
        if key not in ("movetime", "clocks", "incs", "iterations", "nodes") or i + 1 >= len(args):
            raise ValueError(f"bad limit {key}")
        if not all(part.isdigit() for part in args[i + 1].split("/")):
            raise ValueError(f"bad value of {key}")
        if "/" in args[i + 1] and key not in ("clocks", "incs"):
            raise ValueError(f"bad value of {key}")
        limits[key] = args[i + 1]
        i += 2
    return limits


def serve(name: str, decide: Callable[[str], str] = first_legal,
          report: Callable[[dict[str, str]], str] | None = None) -> None:
    """Reads commands until quit; `decide(view_text)` gives the answer to `go`, after the line
    `report(limits)` makes of the go's limits, if given (an `info` line)."""
    view: str | None = None  # the view text, or "full <position>"
    pending: str | None = None  # the answer of a `go infinite`, sent at `stop`
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        cmd, args = words[0], words[1:]
        try:
            if cmd == "uei":
                for line in (f"id name {name}", "id author tests", "id protocol 1",
                             "editions classic partners expedition", "ueiok"):
                    say(line)
            elif cmd == "isready":
                say("readyok")
            elif cmd == "setoption":
                raise ValueError("this bot has no options")
            elif cmd == "newgame":
                if len(args) < 5 or args[-4] != "players" or args[-2] != "seat" or args[0] not in engine.EDITIONS:
                    raise ValueError("expected newgame <edition> [options] players <n> seat <s>")
                edition = engine.get_edition(args[0])
                edition.parse_options(args[1:-4])
                if edition.check_players(int(args[-3])) <= int(args[-1]):
                    raise ValueError("seat out of range")
            elif cmd == "position":
                text = raw.split(None, 1)[1].strip() if args else ""
                if args[:1] == ["full"]:
                    text = "full " + engine.parse_position(" ".join(args[1:])).to_text()
                else:
                    text = engine.parse_view(text).text
                view = text
            elif cmd == "go":
                limits = parse_go(args)
                if pending:
                    raise ValueError("already searching")
                if view is None:
                    raise ValueError("no position")
                v = engine.parse_view(view) if not view.startswith("full ") else \
                    engine.parse_position(view[5:]).view(engine.parse_position(view[5:]).to_move)
                if v.to_move != v.seat:
                    raise ValueError("not to move")
                for per_seat in (limits.get("clocks"), limits.get("incs")):
                    if per_seat is not None and len(per_seat.split("/")) != v.state.num_seats:
                        raise ValueError("one clock and increment per seat")
                if report is not None:
                    say(report(limits))
                answer = decide(v.text)
                if "infinite" in limits:
                    pending = answer
                else:
                    say("bestmove " + answer)
            elif cmd == "stop":
                if pending:
                    say("bestmove " + pending)
                    pending = None
            elif cmd == "gameover":
                if args[:1] != ["scores"]:
                    raise ValueError("bad gameover")
            elif cmd == "quit":
                return
            elif cmd == "d":
                say("position " + view) if view else say("info string error no position")
            elif cmd == "legal":
                state = engine.parse_position(view[5:]) if view.startswith("full ") else engine.parse_view(view)
                say("legal " + " ".join(state.legal_text()))
            elif cmd == "perft":
                if not view or not view.startswith("full ") or len(args) != 1 or not args[0].isdigit():
                    raise ValueError("perft needs a full position and a depth")
                say(f"perft {args[0]} {engine.parse_position(view[5:]).perft(int(args[0]))}")
            else:
                raise ValueError(f"unknown command {cmd}")
        except Exception as err:  # every bad line: exactly one error line, nothing changed
            say(f"info string error {' '.join(str(err).split()) or type(err).__name__}")


if __name__ == "__main__":
    serve("minimal")
