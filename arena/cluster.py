"""Games on an existing Dask distributed cluster, for when one machine is not enough.

Each worker process keeps its own pool of bot processes (started locally on the worker, under
the same safety rules) and returns finished game records; the arena writes them to its one
SQLite file, so a resumed or interrupted tournament behaves exactly as a local one.

>>> # expeditions arena --scheduler tcp://10.0.0.5:8786 ...
"""
from __future__ import annotations

import json
import socket
import threading
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from arena.config import BotSpec, ResourceLimits
from arena.pool import BotPool
from arena.record import GameRecord
from arena.referee import GameSetup, play_game

_pools: dict[str, BotPool] = {}
_pools_lock = threading.Lock()


def _pool_for(bots: list[BotSpec], limits: ResourceLimits) -> BotPool:
    """This worker process's pool for the tournament's bots (one per distinct bot set)."""
    key = json.dumps([[asdict(b) for b in bots], asdict(limits)], sort_keys=True)
    with _pools_lock:
        pool = _pools.get(key)
        if pool is None or pool.closed:
            pool = _pools[key] = BotPool(bots, limits)
        return pool


def play_on_worker(setup: GameSetup, bots: list[BotSpec], limits: ResourceLimits,
                   dropped: frozenset[int]) -> GameRecord:
    """The task a worker runs: one game with its local bot processes."""
    pool = _pool_for(bots, limits)
    record = play_game(setup, pool.acquire, pool.release, dropped)
    try:
        from distributed import get_worker
        record.worker = get_worker().address
    except (ImportError, ValueError):
        record.worker = socket.gethostname()
    return record


def close_worker_pools() -> int:
    """Quits the bots of this worker process; returns how many pools were closed."""
    with _pools_lock:
        pools = list(_pools.values())
        _pools.clear()
    for pool in pools:
        pool.close()
    return len(pools)


class DaskRunner:
    """Submits games to the scheduler at `address`; `slots` defaults to the cluster's threads."""

    def __init__(self, address: str, bots: list[BotSpec], limits: ResourceLimits, slots: int | None = None,
                 timeout: float = 10.0) -> None:
        from distributed import Client

        self.client = Client(address, timeout=timeout)
        self.bots = bots
        self.limits = limits
        threads = sum(self.client.nthreads().values())
        if threads == 0:
            self.client.close()
            raise RuntimeError(f"the Dask cluster at {address} has no workers")
        self.slots = slots or threads

    def submit(self, setup: GameSetup, dropped: frozenset[int]) -> Any:
        return self.client.submit(play_on_worker, setup, self.bots, self.limits, dropped, pure=False)

    def wait_any(self, futures: Sequence[Any], timeout: float | None) -> list[Any]:
        from distributed import wait

        try:
            done, _ = wait(list(futures), timeout=timeout, return_when="FIRST_COMPLETED")
        except TimeoutError:
            return []
        return list(done)

    def result(self, future: Any) -> GameRecord:
        return future.result()

    def close(self) -> None:
        try:
            self.client.run(close_worker_pools)
        except Exception:  # noqa: BLE001 - workers may be gone already
            pass
        self.client.close()
