"""The protocol benchmark: `position` + `go` → `bestmove` round trips with the random bot.

One random-bot process answers the views of every decision of random games (every seat, every
round), sent as they would be in a match; the time of each round trip is taken around
`Engine.play`. Baselines measured in the same run show where the time goes: an `isready` ping
(pipes and process wake-ups alone) and parsing the same views in this process.

>>> figures = protocol_benchmark("classic", seconds=0.05)
>>> figures["roundtrip_us_median"] > 0, figures["illegal"]
(True, 0)
"""
from __future__ import annotations

import random
import statistics
import time
from collections.abc import Mapping

import engine
from protocol.limits import Limits
from protocol.client import Engine
from protocol.local import builtin_bot, child_env

WARMUP = 200
"""Round trips before timing starts (caches, branch predictors, the bot's first imports)."""


def game_views(edition: str, options: Mapping[str, object] | None, count: int, seed: int,
               players: int | None = None) -> list[tuple[str, set[str]]]:
    """(view of the seat to move, legal decisions) at every decision of random games."""
    rng = random.Random(seed)
    out: list[tuple[str, set[str]]] = []
    while len(out) < count:
        state = engine.new_game(edition, seed=rng.randrange(2**63), players=players, **dict(options or {}))
        while (mover := state.to_move) is not None and len(out) < count:
            out.append((state.view_text(mover), set(state.legal_text())))
            state.apply(rng.choice(state.legal()))
    return out


def _percentile(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def protocol_benchmark(edition: str | None = None, options: Mapping[str, object] | None = None, *,
                       seconds: float = 1.0, seed: int = 1, players: int | None = None) -> dict[str, float | int | str]:
    """Times round trips for about `seconds`; returns medians and percentiles in microseconds.
    Without an edition, the default one's (`engine.default_edition`)."""
    edition = edition or engine.default_edition().name
    views = game_views(edition, options, WARMUP + max(200, int(seconds * 20000)), seed, players)
    bot = Engine.start(builtin_bot("random"), env=child_env())
    times: list[float] = []
    illegal = 0
    try:
        deadline = None
        for i, (view, legal) in enumerate(views):
            if i == WARMUP:
                deadline = time.perf_counter() + seconds
            started = time.perf_counter()
            result = bot.play(view, Limits(), timeout=5.0)
            elapsed = time.perf_counter() - started
            if result.decision not in legal:
                illegal += 1
            if deadline is not None:
                times.append(elapsed * 1e6)
                if time.perf_counter() > deadline and len(times) >= 200:
                    break
        pings = []
        for _ in range(min(len(times), 2000)):
            started = time.perf_counter()
            bot.ping()
            pings.append((time.perf_counter() - started) * 1e6)
    finally:
        bot.quit()
    parses = []
    for view, _ in views[:len(times)]:
        started = time.perf_counter()
        engine.parse_view(view)
        parses.append((time.perf_counter() - started) * 1e6)
    times.sort()
    return {
        "edition": edition,
        "players": engine.get_edition(edition).check_players(players),
        "roundtrips": len(times),
        "roundtrip_us_median": round(statistics.median(times), 1),
        "roundtrip_us_p10": round(_percentile(times, 0.10), 1),
        "roundtrip_us_p90": round(_percentile(times, 0.90), 1),
        "roundtrip_us_mean": round(statistics.fmean(times), 1),
        "isready_us_median": round(statistics.median(pings), 1),
        "parse_view_us_median": round(statistics.median(parses), 1),
        "view_chars_median": int(statistics.median(len(v) for v, _ in views[:len(times)])),
        "illegal": illegal,
    }
