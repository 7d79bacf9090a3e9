"""A flat Monte Carlo bot: a complete UEI bot on the expeditions library, in one page.

For each legal decision it samples worlds consistent with its view (the hidden cards dealt again
at random), makes the decision there, finishes the match with random decisions in compiled code,
and keeps the decision whose worlds its side won most often. Every edition of the engine, any
number of seats, partnerships included.

    python docs/examples/montecarlo_bot.py                      # speaks UEI on stdin/stdout
    expeditions protocol-check -- python docs/examples/montecarlo_bot.py
    expeditions arena --bot name=mc cmd="python docs/examples/montecarlo_bot.py" --bot greedy --deals 10

>>> import engine
>>> view = engine.new_game("classic", seed=1).view(0)
>>> MonteCarlo().choose(view, Limits(iterations=64)) in view.legal()
True
"""
from __future__ import annotations

import sys
import threading
import time

import engine
from protocol.limits import Limits, decision_budget_ms
from protocol.policy import InfoCallback, Policy, PolicyOption, allowed_decisions
from protocol.server import serve_stdio


class MonteCarlo(Policy):
    name = "montecarlo"
    author = "an expeditions example"
    options = (
        PolicyOption("Playouts", "spin", 2000, 1, 10**9, help="playouts of a `go` without limits"),
        PolicyOption("Seed", "spin", 0, 0, 2**31 - 1, help="the first world's seed"),
    )

    def choose(self, view: engine.View, limits: Limits, stop: threading.Event | None = None,
               info: InfoCallback | None = None) -> int:
        decisions = allowed_decisions(view, limits)  # the legal ones, or those of `go searchmoves`
        if len(decisions) == 1:
            return decisions[0]
        # The budget: `go iterations`, a time (movetime or a share of the clock; behind the
        # protocol the server also raises `stop` then), `go infinite` until stop, or the option.
        budget_ms = decision_budget_ms(view, limits)
        deadline = None if budget_ms is None else time.perf_counter() + budget_ms / 1000
        playouts = limits.iterations or (None if budget_ms is not None or limits.infinite
                                         else self.settings["Playouts"])
        wins, tries = [0.0] * len(decisions), [0] * len(decisions)
        seed, done = self.settings["Seed"] * 1_000_003, 0
        while playouts is None or done < playouts:
            if (stop is not None and stop.is_set()) or (deadline is not None and time.perf_counter() >= deadline):
                break
            i = done % len(decisions)  # each decision in turn, each in a fresh world
            world = view.sample(seed + 2 * done)
            world.apply(decisions[i])
            world.playout(seed + 2 * done + 1)  # random decisions to the end, no Python in the loop
            wins[i] += world.returns()[view.seat]  # 1 won, 0.5 drawn, 0 lost: the side's result
            tries[i] += 1
            done += 1
        best = max(range(len(decisions)), key=lambda i: wins[i] / tries[i] if tries[i] else -1.0)
        if info is not None and tries[best]:
            info({"iterations": done, "value": round(wins[best] / tries[best], 4),
                  "pv": [view.state.decision_to_text(decisions[best])]})
        return decisions[best]


if __name__ == "__main__":
    sys.exit(serve_stdio(MonteCarlo()))
