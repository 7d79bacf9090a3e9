"""Speed and strength figures of the compiled heuristic (the greedy bot and the searcher's rollouts):
the research benchmark behind docs/bots.md's figures (the product's own is `expeditions bench`).

Speed: heuristic playouts against random playouts of the same deals, interleaved in one run so
that their ratio holds on a noisy machine. Strength: compiled duplicate matches (each deal played
with the sides swapped) against the random policy or between weight sets.

    python -m research.benchmark -e classic                  # speed, single-round games
    python -m research.benchmark -e partners --deals 1000    # and strength against random
    python -m research.benchmark -e board --players 4        # board: single expeditions, 4 seats

>>> figures = heuristic_benchmark("classic", seconds=0.05)
>>> figures["heuristic_rounds_per_s"] > 0
True
"""
from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Mapping

import engine
from arena.duplicate import run_duplicate
from bots.heuristics import EDITIONS, heuristic_playouts
from engine._core import compiled_playouts


def _best_rate(run: Callable[[int, int], int], batch: int, seconds: float) -> tuple[float, float]:
    """(games/s, decisions/s) of the fastest of several batches: noise only ever slows a run down."""
    best_games = best_decisions = 0.0
    deadline = time.perf_counter() + seconds
    seed = 1
    while True:
        start = time.perf_counter()
        decisions = run(batch, seed)
        elapsed = max(time.perf_counter() - start, 1e-9)
        if batch / elapsed > best_games:
            best_games, best_decisions = batch / elapsed, decisions / elapsed
        seed += batch
        if time.perf_counter() >= deadline:
            return best_games, best_decisions


def heuristic_benchmark(edition: str, options: Mapping[str, object] | None = None,
                        seconds: float = 1.0, players: int | None = None) -> dict:
    """Heuristic and random playouts of whole matches (default: single rounds), compared."""
    options = dict(options or {"rounds": 1})
    template = engine.new_game(edition, seed=1, players=players, **options)
    h_games = h_dec = r_games = r_dec = 0.0
    for _ in range(4):  # interleaved, so both see the same machine
        g, d = _best_rate(lambda n, seed: heuristic_playouts(template, n, seed), 64, seconds / 8)
        if g > h_games:
            h_games, h_dec = g, d
        g, d = _best_rate(lambda n, seed: compiled_playouts(template, n, seed), 256, seconds / 8)
        if g > r_games:
            r_games, r_dec = g, d
    return {
        "edition": edition,
        "players": template.num_seats,
        "options": options,
        "heuristic_rounds_per_s": round(h_games),
        "heuristic_decisions_per_round": round(h_dec / h_games, 1),
        "heuristic_ns_per_decision": round(1e9 / h_dec),
        "random_rounds_per_s": round(r_games),
        "random_decisions_per_round": round(r_dec / r_games, 1),
        "heuristic_vs_random_speed": round(h_games / r_games, 3),
    }


def strength_against_random(edition: str, options: Mapping[str, object] | None = None,
                            deals: int = 1000, seed: int = 1, players: int | None = None) -> dict:
    """The greedy bot against the random bot on duplicate deals (board with 3-4 players: greedy in
    one seat, rotating, random in the others), played in compiled code by their deciders."""
    stats = run_duplicate(edition, deals, seed, "greedy", "random", dict(options or {"rounds": 1}), players=players)
    return {"games": stats.games, "wins": stats.wins, "draws": stats.draws, "losses": stats.losses,
            "score": stats.score, "margin": stats.margin}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m research.benchmark", description=__doc__.split("\n\n")[0])
    parser.add_argument("--edition", "-e", default="classic", choices=EDITIONS)
    parser.add_argument("--players", "-p", type=int, default=None, help="seats (board: 2, 3 or 4)")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                        help="rule option (default rounds=1)")
    parser.add_argument("--seconds", type=float, default=2.0, help="time for the speed measurement")
    parser.add_argument("--deals", type=int, default=0, help="also measure strength on this many deal pairs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    edition = engine.get_edition(args.edition)
    options = edition.parse_options(args.option) if args.option else {"rounds": 1}
    figures = heuristic_benchmark(edition.name, options, args.seconds, args.players)
    if args.deals:
        result = strength_against_random(edition.name, options, args.deals, args.seed, args.players)
        figures.update({f"vs_random_{key}": value for key, value in result.items()})
    if args.json:
        print(json.dumps(figures))
    else:
        width = max(map(len, figures))
        for key, value in figures.items():
            print(f"{key:<{width}}  {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
