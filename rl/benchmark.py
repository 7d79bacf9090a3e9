"""`expeditions bench --rl`: steps per second of the batched environment (compiled, random
decisions, observations and masks written), of the PettingZoo and Gymnasium wrappers, and of the
engine's Python face (random games through `State.legal()`/`apply()`, as `python_games_per_s` of
`expeditions bench`) as the baseline. The four are measured in one run, interleaved in slices of a
game or so, so that a change of the machine's load moves them together and their ratios hold.

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

import engine
from rl.spaces import edition_record

BATCH = 256
"""Matches stepped together by the batched environment in the benchmark."""

Slice = Callable[[], tuple[int, int]]
"""Runs a slice of one measurement; returns the steps and the games it finished."""


def _keywords(options: Mapping[str, object]) -> dict[str, Any]:
    """Rule options as keyword arguments (the environments take them as `**options`)."""
    return dict(options)


def batched_slice(edition: str, options: Mapping[str, object], players: int | None, envs: int = BATCH) -> Slice:
    """16 steps of `envs` matches with random decisions in compiled code, one thread."""
    from rl.batched import BatchedEnv
    env = BatchedEnv(edition, envs, seed=1, players=players, **_keywords(options))
    return lambda: (16 * envs, env.step_random(16))


def pettingzoo_slice(edition: str, options: Mapping[str, object], players: int | None) -> Slice:
    """One random match in the AEC environment, reading every observation and mask (the random
    agent picks among the engine's legal list, as the Python face's baseline does)."""
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
    return game


def gymnasium_slice(edition: str, options: Mapping[str, object], players: int | None) -> Slice:
    """One match of a random agent against the random bot in the single-agent environment (its
    steps are the agent's)."""
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
    return game


def python_slice(edition: str, options: Mapping[str, object], players: int | None) -> Slice:
    """One random match through the engine's Python face (the loop of
    `engine.benchmark.python_face_rate`)."""
    rng = random.Random(1)
    seed = [0]

    def game() -> tuple[int, int]:
        seed[0] += 1
        state = engine.new_game(edition, seed=seed[0], players=players, **_keywords(options))
        steps = 0
        while not state.is_terminal():
            state.apply(rng.choice(state.legal()))
            steps += 1
        return steps, 1
    return game


def interleaved(slices: Mapping[str, Slice], seconds: float) -> dict[str, tuple[float, float]]:
    """(steps/s, games/s) of each measurement, run slice by slice in turn until each has had `seconds`."""
    totals = {name: [0, 0, 0.0] for name in slices}
    while min(t[2] for t in totals.values()) < seconds:
        for name, run in slices.items():
            start = time.perf_counter()
            steps, games = run()
            total = totals[name]
            total[0] += steps
            total[1] += games
            total[2] += time.perf_counter() - start
    return {name: (t[0] / t[2], t[1] / t[2]) for name, t in totals.items()}


def rl_benchmark(edition: str, options: Mapping[str, object] | None = None, seconds: float = 1.0,
                 players: int | None = None) -> dict[str, Any]:
    """The figures of `expeditions bench --rl` for one edition (its short match by default)."""
    record = edition_record(edition)
    options = dict(options or record.quick_options)
    players = record.check_players(players)
    rates = interleaved({
        "batched": batched_slice(record.name, options, players),
        "pettingzoo": pettingzoo_slice(record.name, options, players),
        "gymnasium": gymnasium_slice(record.name, options, players),
        "python": python_slice(record.name, options, players),
    }, seconds)
    batched, pettingzoo, gymnasium, python = (rates[k] for k in ("batched", "pettingzoo", "gymnasium", "python"))
    return {
        "edition": record.name,
        "players": players,
        "options": options,
        "batched_envs": BATCH,
        "batched_steps_per_s": round(batched[0]),
        "pettingzoo_steps_per_s": round(pettingzoo[0]),
        "gymnasium_steps_per_s": round(gymnasium[0]),
        "python_decisions_per_s": round(python[0]),
        "batched_vs_pettingzoo": round(batched[0] / pettingzoo[0], 1),
        "pettingzoo_games_per_s": round(pettingzoo[1], 2),
        "gymnasium_games_per_s": round(gymnasium[1], 2),
        "python_games_per_s": round(python[1], 2),
        "python_vs_pettingzoo": round(python[1] / pettingzoo[1], 2),
        "python_vs_gymnasium": round(python[1] / gymnasium[1], 2),
    }
