"""Where games run: threads on this machine, or an existing Dask cluster (arena/cluster.py).

A runner takes game setups and returns futures of game records; `wait_any` blocks until one of
the given futures is done.
"""
from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from arena.config import BotSpec, ResourceLimits
from arena.pool import BotPool
from arena.record import GameRecord
from arena.referee import GameSetup, play_game


class Runner(Protocol):
    slots: int
    """How many games may run at once."""

    def submit(self, setup: GameSetup, dropped: frozenset[int]) -> Any: ...
    def wait_any(self, futures: Sequence[Any], timeout: float | None) -> list[Any]: ...
    def result(self, future: Any) -> GameRecord: ...
    def close(self) -> None: ...


class LocalRunner:
    """Games in threads of this process; bot processes from one shared pool."""

    def __init__(self, bots: list[BotSpec], limits: ResourceLimits, concurrency: int,
                 log_dir: str | Path | None = None) -> None:
        self.pool = BotPool(bots, limits, log_dir)
        self.slots = concurrency
        # The executor's threads live as long as the tournament: bots are started from them, and
        # a bot is killed when the thread that started it ends (arena.launch, PR_SET_PDEATHSIG).
        self._executor = cf.ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="game")

    def submit(self, setup: GameSetup, dropped: frozenset[int]) -> cf.Future:
        return self._executor.submit(play_game, setup, self.pool.acquire, self.pool.release, dropped)

    def wait_any(self, futures: Sequence[cf.Future], timeout: float | None) -> list[cf.Future]:
        done, _ = cf.wait(futures, timeout=timeout, return_when=cf.FIRST_COMPLETED)
        return list(done)

    def result(self, future: cf.Future) -> GameRecord:
        return future.result()

    def close(self) -> None:
        self.pool.close()
        self._executor.shutdown(wait=True, cancel_futures=True)
        self.pool.close()
