"""What a turn of the searcher costs: CPU seconds of `IsmctsPolicy.choose` per turn of its seat, at an
iteration budget a decision, in games against greedy — how a budget in iterations is matched to a
clock of a second a turn (docs/strength.md).

    python -m research.turn_clock -e eldorado --iterations 2000 --deals 4 --seed 1

CPU time of the searching thread, not wall time: the machine's other jobs then cost the search
little (shared caches still slow it a little, so the figure errs on the generous side of the clock).

>>> figures = measure("eldorado", iterations=30, deals=1, seed=3, max_turns=3)
>>> figures["turns"] >= 1 and figures["cpu_s_per_turn"] > 0
True
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

import engine
from bots.ismcts_policy import IsmctsPolicy
from bots.registry import make_policy
from protocol.limits import Limits


def measure(edition: str, iterations: int, deals: int, seed: int, players: int | None = None,
            max_turns: int | None = None, **options: Any) -> dict[str, Any]:
    """Plays `deals` games (the searcher in seat 0, greedy elsewhere) and returns the searcher's CPU
    seconds per turn (mean, median, 90th percentile), decisions per turn and turns measured."""
    record = engine.get_edition(edition)
    per_turn: list[float] = []
    decisions = 0
    for deal in range(seed, seed + deals):
        state = engine.new_game(edition, seed=deal, players=players, **options)
        searcher = IsmctsPolicy(seed=deal)
        greedy = make_policy("greedy", seed=deal)
        turn_cpu = None
        while not state.is_terminal():
            seat = state.to_move
            view = state.view(seat)
            if seat != 0:
                decision = greedy.choose(view, None)
            else:
                if record.turn.begins(state):
                    if turn_cpu is not None:
                        per_turn.append(turn_cpu)
                        if max_turns is not None and len(per_turn) >= max_turns:
                            break
                    turn_cpu = 0.0
                started = time.thread_time()
                decision = searcher.choose(view, Limits(iterations=iterations))
                turn_cpu = (turn_cpu or 0.0) + time.thread_time() - started
                decisions += 1
            state.apply(decision)
        if max_turns is not None and len(per_turn) >= max_turns:
            break
    per_turn.sort()
    turns = len(per_turn)
    return {
        "edition": edition, "iterations": iterations, "deals": deals, "seed": seed, "turns": turns,
        "cpu_s_per_turn": statistics.fmean(per_turn) if per_turn else 0.0,
        "median_s": statistics.median(per_turn) if per_turn else 0.0,
        "p90_s": per_turn[int(0.9 * (turns - 1))] if per_turn else 0.0,
        "decisions_per_turn": decisions / turns if turns else 0.0,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-e", "--edition", default="eldorado")
    parser.add_argument("--iterations", type=int, required=True)
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int)
    parser.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    options = engine.get_edition(args.edition).parse_options(args.option)
    print(json.dumps(measure(args.edition, args.iterations, args.deals, args.seed, args.players, **options)))


if __name__ == "__main__":
    main()
