"""A correct minimal bot that reports the movetime its `go` gave it as its search size (`info
iterations <movetime>`, which the arena records with the decision) and sleeps that long: what a
test reads to know which time control a bot was sent, without timing it."""
import time

from minimal import serve


def report(limits: dict[str, str]) -> str:
    movetime = int(limits.get("movetime", "0"))
    time.sleep(movetime / 1000)
    return f"info iterations {movetime}"


serve("movetime_echo", report=report)
