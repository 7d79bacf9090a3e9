"""Where games run: threads on this machine, or an existing Dask cluster (arena/cluster.py).

A runner takes game setups and returns futures of game records; `wait_any` blocks until one of
the given futures is done.
"""
from __future__ import annotations

import concurrent.futures as cf
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from arena.config import BotSpec, ResourceLimits
from arena.launch import die_with_parent
from arena.pool import BotPool
from arena.record import GameRecord
from arena.referee import GameSetup, play_game
from protocol.local import PROJECT_ROOT
from protocol.stderr import LOG_LIMIT


class Runner(Protocol):
    slots: int
    """How many games may run at once."""

    def submit(self, setup: GameSetup, dropped: frozenset[int]) -> Any: ...
    def wait_any(self, futures: Sequence[Any], timeout: float | None) -> list[Any]: ...
    def result(self, future: Any) -> GameRecord: ...
    def close(self) -> None: ...


class _FuturesRunner:
    """What the runners on concurrent.futures executors share."""

    def wait_any(self, futures: Sequence[cf.Future], timeout: float | None) -> list[cf.Future]:
        done, _ = cf.wait(futures, timeout=timeout, return_when=cf.FIRST_COMPLETED)
        return list(done)

    def result(self, future: cf.Future) -> GameRecord:
        return future.result()


class LocalRunner(_FuturesRunner):
    """Games in threads of this process; bot processes from one shared pool."""

    def __init__(self, bots: list[BotSpec], limits: ResourceLimits, concurrency: int,
                 log_dir: str | Path | None = None, log_limit: int = LOG_LIMIT) -> None:
        self.pool = BotPool(bots, limits, log_dir, log_limit)
        self.slots = concurrency
        # The executor's threads live as long as the tournament: bots are started from them, and
        # a bot is killed when the thread that started it ends (arena.launch, PR_SET_PDEATHSIG).
        self._executor = cf.ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="game")

    def submit(self, setup: GameSetup, dropped: frozenset[int]) -> cf.Future:
        return self._executor.submit(play_game, setup, self.pool.acquire, self.pool.release, dropped)

    def close(self) -> None:
        self.pool.close()
        self._executor.shutdown(wait=True, cancel_futures=True)
        self.pool.close()


class ProcessRunner(_FuturesRunner):
    """Games in worker processes, one game at a time each, every worker with its own bot pool.

    Threads of one interpreter share its lock: with bots that answer in microseconds, the
    referees' Python becomes the bottleneck of a whole tournament (docs/performance.md). Worker
    processes referee in parallel. Workers ignore Ctrl-C (the arena handles it and shuts them
    down), die with the arena (PR_SET_PDEATHSIG) and quit their bots when they end; their bots die
    with them (arena.launch).
    """

    def __init__(self, bots: list[BotSpec], limits: ResourceLimits, workers: int,
                 log_dir: str | Path | None = None, pin_cpus: bool = False, log_limit: int = LOG_LIMIT) -> None:
        import multiprocessing

        self.slots = workers
        # A spawned worker takes this interpreter's sys.path: the packages in use must come first,
        # or a worker started from a source checkout would import its unbuilt copy (protocol.local).
        if sys.path[:1] != [str(PROJECT_ROOT)]:
            sys.path.insert(0, str(PROJECT_ROOT))
        # spawn: forking a threaded arena could copy a held lock into the child
        context = multiprocessing.get_context("spawn")
        pin = context.Value("i", 0) if pin_cpus and hasattr(os, "sched_setaffinity") else None
        self._executor = cf.ProcessPoolExecutor(
            max_workers=workers, mp_context=context, initializer=_worker_start,
            initargs=(bots, limits, None if log_dir is None else str(log_dir), os.getpid(), pin, log_limit))
        self._submitted: list[cf.Future] = []

    def submit(self, setup: GameSetup, dropped: frozenset[int]) -> cf.Future:
        future = self._executor.submit(_play_in_worker, setup, dropped)
        self._submitted = [f for f in self._submitted if not f.done()] + [future]
        return future

    def close(self) -> None:
        """Ends the workers; games still running (an interrupted tournament) are abandoned: each
        worker stops its game, quits its bots and exits."""
        if any(not f.done() for f in self._submitted):
            workers = getattr(self._executor, "_processes", None) or {}  # CPython's pid -> Process
            for process in list(workers.values()):
                process.terminate()  # SIGTERM: _stop_game in the worker
        self._executor.shutdown(wait=True, cancel_futures=True)


_worker_pool: BotPool | None = None
_worker_playing = False
"""True only while the worker runs a game: SIGTERM may end a game, never the worker's traffic
with the arena (interrupted inside the executor's queues, a worker can leave one of their
cross-process locks held, and the arena's shutdown then waits forever)."""


def _worker_start(bots: list[BotSpec], limits: ResourceLimits, log_dir: str | None, parent: int,
                  pin: Any = None, log_limit: int = LOG_LIMIT) -> None:
    """Runs once in each worker process."""
    import multiprocessing.util
    import signal

    global _worker_pool
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop_game)
    if not die_with_parent(parent):
        os._exit(1)  # the arena is gone already
    if pin is not None:
        with pin.get_lock():
            number = pin.value
            pin.value += 1
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[number % len(cpus)]})  # the bots started here inherit it
    logs = None if log_dir is None else Path(log_dir) / f"worker-{os.getpid()}"
    _worker_pool = BotPool(bots, limits, logs, log_limit)
    # run when the worker ends normally (multiprocessing exits with os._exit, skipping atexit)
    multiprocessing.util.Finalize(_worker_pool, _worker_pool.close, exitpriority=10)


def _stop_game(signum: int, frame: object) -> None:
    """SIGTERM in a worker: abandon the game (its bots are released as failed, so killed); the
    worker then exits at the executor's shutdown, quitting the rest of its bots. Between games
    the signal is ignored: the worker is idle or talking to the arena, and exits at the shutdown."""
    if _worker_playing:
        raise SystemExit(1)


def _play_in_worker(setup: GameSetup, dropped: frozenset[int]) -> GameRecord:
    global _worker_playing
    assert _worker_pool is not None, "worker not initialised"
    try:
        _worker_playing = True
        record = play_game(setup, _worker_pool.acquire, _worker_pool.release, dropped)
    finally:
        _worker_playing = False
    record.worker = f"pid {os.getpid()}"
    return record
