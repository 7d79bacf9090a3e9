"""Bot processes for the games: started on demand, one game at a time each, reused while healthy.

Every bot runs under `arena.launch` (own process group, resource limits, killed if the arena
dies, confined as `arena.sandbox` says: a working folder of its own, removed with the process, and
Landlock where the kernel offers it). A process that failed in a game is killed and replaced by
a fresh one next time. Its stderr goes to a log bounded per game (`protocol.stderr`).
"""
from __future__ import annotations

import os
import queue
import re
import shutil
import sys
import tempfile
import threading
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import TypeVar

from arena.config import BotSpec, ResourceLimits
from arena.sandbox import absolute_command, listed_folders, read_folders, resolve_mode
from protocol.client import Engine
from protocol.local import child_env
from protocol.stderr import LOG_LIMIT

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


def launch_argv(command: list[str], limits: ResourceLimits, workdir: str | Path | None = None,
                mode: str = "folder") -> list[str]:
    """The argv that starts a bot's (absolute) `command` through the safety launcher, in `workdir`
    (None: the arena's), confined by Landlock when `mode` is `landlock`."""
    # -P: never import the packages from the working directory (a source tree without the build)
    argv = [sys.executable, "-P", "-m", "arena.launch", "--parent", str(os.getpid()),
            "--memory-mb", str(limits.memory_mb), "--cpu-seconds", str(limits.cpu_seconds),
            "--open-files", str(limits.open_files)]
    if workdir is not None:
        argv += ["--workdir", str(workdir)]
        if mode == "landlock":
            argv.append("--landlock")
            for folder in read_folders(command):
                argv += ["--read", str(folder)]
            for folder in listed_folders():
                argv += ["--list", str(folder)]
    return [*argv, "--", *command]


def _folder_name(name: str) -> str:
    """A bot's name as a file name (its log, its working folder)."""
    return re.sub(r"[^A-Za-z0-9_.#+-]", "_", name)[:80] or "bot"


class BotPool:
    """Idle processes per bot. `acquire` hands one out (starting it if needed), `release` takes it back."""

    def __init__(self, bots: list[BotSpec], limits: ResourceLimits, log_dir: str | Path | None = None,
                 log_limit: int = LOG_LIMIT) -> None:
        self.bots = bots
        self.limits = limits
        self.mode = resolve_mode(limits.sandbox)
        """How the bots are confined: `landlock` or `folder` (arena.sandbox)."""
        self.commands = [absolute_command(bot.command) for bot in bots]
        """Each bot's command with its relative paths resolved here: it starts in its own folder."""
        self.log_dir = Path(log_dir) if log_dir is not None else None
        if self.log_dir is not None:
            self.log_dir.mkdir(parents=True, exist_ok=True)
        self.log_limit = log_limit
        self.home = Path(tempfile.mkdtemp(prefix="expeditions-bots-"))
        """Where the bots' working folders are made (each bot process gets its own)."""
        self._folders: dict[Engine, Path] = {}
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
                self._discard(engine)
            self._started += 1
            number = self._started
        spec = self.bots[bot]
        name = _folder_name(spec.name)
        log = self.log_dir / f"{name}-{number}.log" if self.log_dir is not None else None
        folder = self.home / f"{name}-{number}"
        folder.mkdir(mode=0o700)
        argv = launch_argv(self.commands[bot], self.limits, folder, self.mode)
        try:
            engine = SPAWNER.run(lambda: Engine.start(argv, timeout=HANDSHAKE_TIMEOUT, log_path=log, env=self.env,
                                                      options=spec.options, log_limit=self.log_limit))
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        with self._lock:
            self._folders[engine] = folder
            if self.closed:
                self._discard(engine)
                raise RuntimeError("the bot pool is closed")
            self._busy.add(engine)
        return engine

    def _discard(self, engine: Engine) -> None:
        """Kills a process and removes its working folder."""
        engine.kill()
        folder = self._folders.pop(engine, None)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)

    def release(self, bot: int, engine: Engine, healthy: bool) -> None:
        with self._lock:
            self._busy.discard(engine)
            if healthy and not self.closed and engine.returncode is None:
                self._idle[bot].append(engine)
                return
        self._discard(engine)

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
        shutil.rmtree(self.home, ignore_errors=True)
