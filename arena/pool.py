"""Bot processes for the games: started on demand, one game at a time each, reused while healthy.

Every bot runs under `arena.launch` (own process group, resource limits, killed if the arena
dies). A process that failed in a game is killed and replaced by a fresh one next time.
"""
from __future__ import annotations

import os
import queue
import sys
import threading
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import TypeVar

from arena.config import BotSpec, ResourceLimits
from protocol.client import Engine
from protocol.local import child_env

HANDSHAKE_TIMEOUT = 20.0
"""Seconds a bot gets to start (interpreters importing a compiled engine may be slow on a busy machine)."""


T = TypeVar("T")


class _Spawner:
    """One long-lived thread that starts every bot process of this interpreter.

    The kernel's death-of-parent signal (arena.launch) fires when the *thread* that started a
    process ends; starting bots from this thread, which lives as long as the process, means a
    bot dies with the arena and never earlier."""

    def __init__(self) -> None:
        self._jobs: queue.Queue[tuple[Callable[[], object], Future]] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def run(self, job: Callable[[], T]) -> T:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._loop, name="bot-spawner", daemon=True)
                self._thread.start()
        future: Future = Future()
        self._jobs.put((job, future))
        return future.result()

    def _loop(self) -> None:
        while True:
            job, future = self._jobs.get()
            try:
                future.set_result(job())
            except BaseException as err:  # noqa: BLE001 - handed to the caller
                future.set_exception(err)


SPAWNER = _Spawner()


def launch_argv(bot: BotSpec, limits: ResourceLimits) -> list[str]:
    """The argv that starts `bot` through the safety launcher."""
    # -P: never import the packages from the working directory (a source tree without the build)
    return [sys.executable, "-P", "-m", "arena.launch", "--parent", str(os.getpid()),
            "--memory-mb", str(limits.memory_mb), "--cpu-seconds", str(limits.cpu_seconds),
            "--open-files", str(limits.open_files), "--", *bot.command]


class BotPool:
    """Idle processes per bot. `acquire` hands one out (starting it if needed), `release` takes it back."""

    def __init__(self, bots: list[BotSpec], limits: ResourceLimits, log_dir: str | Path | None = None) -> None:
        self.bots = bots
        self.limits = limits
        self.log_dir = Path(log_dir) if log_dir is not None else None
        if self.log_dir is not None:
            self.log_dir.mkdir(parents=True, exist_ok=True)
        self._idle: dict[int, list[Engine]] = defaultdict(list)
        self._busy: set[Engine] = set()
        self._lock = threading.Lock()
        self._started = 0
        self.env = child_env()
        self.closed = False

    def acquire(self, bot: int) -> Engine:
        """An idle healthy process of bot number `bot`, or a new one (raises EngineError if it
        cannot be started: the caller forfeits the game for that seat)."""
        with self._lock:
            if self.closed:
                raise RuntimeError("the bot pool is closed")
            while self._idle[bot]:
                engine = self._idle[bot].pop()
                if engine.returncode is None:
                    self._busy.add(engine)
                    return engine
                engine.kill()
            self._started += 1
            number = self._started
        spec = self.bots[bot]
        log = self.log_dir / f"{spec.name}-{number}.log" if self.log_dir is not None else None
        argv = launch_argv(spec, self.limits)
        engine = SPAWNER.run(lambda: Engine.start(argv, timeout=HANDSHAKE_TIMEOUT, log_path=log, env=self.env,
                                                  options=spec.options))
        with self._lock:
            if self.closed:
                engine.kill()
                raise RuntimeError("the bot pool is closed")
            self._busy.add(engine)
        return engine

    def release(self, bot: int, engine: Engine, healthy: bool) -> None:
        with self._lock:
            self._busy.discard(engine)
            if healthy and not self.closed and engine.returncode is None:
                self._idle[bot].append(engine)
                return
        engine.kill()

    @property
    def processes_started(self) -> int:
        return self._started

    def close(self) -> None:
        """Quits every process (idle and busy) and reaps them."""
        with self._lock:
            self.closed = True
            engines = [e for idle in self._idle.values() for e in idle] + list(self._busy)
            self._idle.clear()
            self._busy.clear()
        for engine in engines:
            try:
                engine.quit(timeout=0.5)
            except Exception:  # noqa: BLE001 - closing must reach every process
                engine.kill()
