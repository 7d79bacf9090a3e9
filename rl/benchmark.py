"""`expeditions bench --rl`: steps per second of the batched environment (compiled, random
decisions, observations and masks written), of the PettingZoo and Gymnasium wrappers, and of the
engine's Python face (random games through `State.legal()`/`apply()`) as the baseline, in one run.

>>> from rl.benchmark import rl_benchmark
>>> figures = rl_benchmark("classic", seconds=0.05)
>>> figures["batched_steps_per_s"] > figures["pettingzoo_steps_per_s"] > 0
True
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from typing import Any

from engine.benchmark import python_face_rate
from rl.spaces import edition_record

BATCH = 256
"""Matches stepped together by the batched environment in the benchmark."""


def _keywords(options: Mapping[str, object]) -> dict[str, Any]:
    """Rule options as keyword arguments (the environments take them as `**options`)."""
    return dict(options)


def _timed(run: Callable[[], tuple[int, int]], seconds: float) -> tuple[float, float]:
    """Calls `run` (returning steps, games) until `seconds` have passed; (steps/s, games/s)."""
    steps = games = 0
    start = time.perf_counter()
    while True:
        s, g = run()
        steps += s
        games += g
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed, games / elapsed


def batched_rate(edition: str, options: Mapping[str, object], seconds: float, players: int | None = None,
                 envs: int = BATCH) -> tuple[float, float]:
    """(steps/s, games/s) of `envs` matches stepped with random decisions in compiled code, one thread."""
    from rl.batched import BatchedEnv
    env = BatchedEnv(edition, envs, seed=1, players=players, **dict(options))
    return _timed(lambda: (64 * envs, env.step_random(64)), seconds)


def pettingzoo_rate(edition: str, options: Mapping[str, object], seconds: float,
                    players: int | None = None) -> tuple[float, float]:
    """(steps/s, games/s) of random matches in the AEC environment, reading every observation (the
    random agent picks among the engine's legal list, as the Python face's baseline does)."""
    from rl.pettingzoo import ExpeditionsAEC
    env = ExpeditionsAEC(edition, players, None, **_keywords(options))
    rng = random.Random(1)
    seed = [0]

    def game() -> tuple[int, int]:
        seed[0] += 1
        env.reset(seed=seed[0])
        steps = 0
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(env.game.legal()))
            steps += 1
        return steps, 1
    return _timed(game, seconds)


def gymnasium_rate(edition: str, options: Mapping[str, object], seconds: float,
                   players: int | None = None) -> tuple[float, float]:
    """(agent steps/s, games/s) of a random agent against the random bot in the single-agent
    environment (the agent picks among the engine's legal list, as the Python face's baseline does)."""
    from rl.gymnasium import ExpeditionsEnv
    env = ExpeditionsEnv(edition, "random", players=players, **_keywords(options))
    rng = random.Random(1)
    seed = [0]

    def game() -> tuple[int, int]:
        seed[0] += 1
        env.reset(seed=seed[0])
        steps = 0
        while True:
            _, _, terminated, truncated, _ = env.step(rng.choice(env.state.legal()))
            steps += 1
            if terminated or truncated:
                return steps, 1
    return _timed(game, seconds)


def rl_benchmark(edition: str, options: Mapping[str, object] | None = None, seconds: float = 1.0,
                 players: int | None = None) -> dict[str, Any]:
    """The figures of `expeditions bench --rl` for one edition (its short match by default)."""
    record = edition_record(edition)
    options = dict(options or record.quick_options)
    players = record.check_players(players)
    batched, _ = batched_rate(record.name, options, seconds, players)
    pz_steps, pz_games = pettingzoo_rate(record.name, options, seconds, players)
    gym_steps, gym_games = gymnasium_rate(record.name, options, seconds, players)
    python_games, python_decisions = python_face_rate(record.name, options, seconds, players=players)
    return {
        "edition": record.name,
        "players": players,
        "options": options,
        "batched_envs": BATCH,
        "batched_steps_per_s": round(batched),
        "pettingzoo_steps_per_s": round(pz_steps),
        "gymnasium_steps_per_s": round(gym_steps),
        "python_decisions_per_s": round(python_decisions),
        "batched_vs_pettingzoo": round(batched / pz_steps, 1),
        "pettingzoo_games_per_s": round(pz_games, 2),
        "gymnasium_games_per_s": round(gym_games, 2),
        "python_games_per_s": round(python_games, 2),
        "python_vs_pettingzoo": round(python_games / pz_games, 2),
        "python_vs_gymnasium": round(python_games / gym_games, 2),
    }
