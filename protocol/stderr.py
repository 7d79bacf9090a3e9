"""A bot's stderr: always read, kept in bounded logs.

A bot's stderr is a pipe that one thread per interpreter (`DRAIN`) reads for every bot at once,
whatever it writes: a bot is never blocked on a full stderr pipe, and the thread that talks to
the bot never waits on it. What arrives goes to a `StderrLog`, at most `limit` bytes per
*section* (the arena opens one per game): into its file, if it has one, then one line saying
that the rest is discarded, and a count of it when the section ends; the last few KiB of what was
kept stay in memory for the error message when the bot fails. Past the limit the drain splices
the pipe to /dev/null (Linux), so a flood is never copied into the arena: it costs the disk
`limit` bytes a game, and the arena a system call per MiB.

>>> log = StderrLog(None, limit=10)
>>> log.feed(b"hello\\nworld\\n")
>>> log.tail()
'hello\\nworld'
"""
from __future__ import annotations

import fcntl
import os
import selectors
import threading
from pathlib import Path
from typing import IO

LOG_LIMIT = 256 * 1024
"""Bytes of a bot's stderr kept per section of its log file (per game in the arena)."""

TAIL_BYTES = 8192
"""Bytes of a bot's latest kept stderr held in memory, for the message when it fails."""

CHUNK = 1 << 20
"""Bytes read from a pipe at once (and the pipe's size where the system allows)."""

F_SETPIPE_SZ = 1031


class StderrLog:
    """Where one bot's stderr goes: a bounded log file (optional) and the tail in memory."""

    def __init__(self, path: str | Path | None, limit: int = LOG_LIMIT) -> None:
        if limit < 0:
            raise ValueError(f"a log limit is at least 0 bytes, got {limit}")
        self.path = Path(path) if path is not None else None
        self.limit = limit
        self._file: IO[bytes] | None = open(self.path, "ab") if self.path is not None else None
        self._lock = threading.Lock()
        self._tail = bytearray()
        self._kept = 0
        """Bytes written to the file in the current section."""
        self._discarded = 0
        """Bytes of the current section beyond the limit."""
        self.ended = threading.Event()
        """Set when the bot's stderr reached its end (every writer closed it)."""

    def feed(self, chunk: bytes) -> None:
        """Takes what the bot wrote (the drain thread calls it)."""
        # Under the GIL only what is kept is copied (a flood is counted, not moved).
        with self._lock:
            self._tail += chunk[-TAIL_BYTES:]
            if len(self._tail) > TAIL_BYTES:
                del self._tail[:len(self._tail) - TAIL_BYTES]
            room = self.limit - self._kept
            if self._file is None:
                self._kept += min(max(room, 0), len(chunk))
                return
            if room > 0:
                kept = min(room, len(chunk))
                self._file.write(chunk if kept == len(chunk) else memoryview(chunk)[:kept])
                self._kept += kept
                if kept < len(chunk):
                    self._file.write(f"\n[arena: log truncated: the bot wrote more than {self.limit} bytes "
                                     f"here; the rest is discarded]\n".encode())
                self._file.flush()
                self._discarded += len(chunk) - kept
            else:
                self._discarded += len(chunk)

    @property
    def full(self) -> bool:
        """Whether the current section has had its `limit` bytes (what follows is discarded unread)."""
        return self._kept >= self.limit

    def discard(self, size: int) -> None:
        """Counts `size` bytes the drain threw away unread (a full section's)."""
        with self._lock:
            self._discarded += size

    def section(self, title: str) -> None:
        """Starts a new section (its own `limit` bytes) headed by `title`; notes how much of the
        previous one was discarded."""
        with self._lock:
            self._kept = 0
            if self._file is None:
                self._discarded = 0
                return
            self._close_section()
            self._file.write(f"[arena: {title}]\n".encode())
            self._file.flush()

    def _close_section(self) -> None:
        assert self._file is not None
        if self._discarded:
            self._file.write(f"[arena: {self._discarded} bytes discarded]\n".encode())
            self._discarded = 0
        self._file.flush()

    def tail(self, lines: int = 10) -> str:
        """The last `lines` lines the bot wrote."""
        with self._lock:
            data = bytes(self._tail)
        return "\n".join(data.decode("utf-8", "replace").splitlines()[-lines:])

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                self._close_section()
                self._file.close()
                self._file = None


class _Drain:
    """The thread that reads every bot's stderr pipe of this interpreter (started on first use)."""

    def __init__(self) -> None:
        self._selector: selectors.BaseSelector | None = None
        self._lock = threading.Lock()
        self._wake_r, self._wake_w = -1, -1
        self._null = -1
        """/dev/null, where a full section's flood is spliced (-1: no splice here; it is read instead)."""

    def add(self, fd: int, log: StderrLog) -> None:
        """Reads `fd` into `log` until its end, then closes it (the caller hands it over)."""
        os.set_blocking(fd, False)
        try:
            fcntl.fcntl(fd, F_SETPIPE_SZ, CHUNK)  # fewer wake-ups for a bot that writes a lot
        except OSError:
            pass  # above the system's pipe-max-size: the default size works too
        with self._lock:
            if self._selector is None:
                self._selector = selectors.DefaultSelector()
                self._wake_r, self._wake_w = os.pipe()
                if hasattr(os, "splice"):
                    self._null = os.open(os.devnull, os.O_WRONLY | os.O_CLOEXEC)
                os.set_blocking(self._wake_r, False)
                self._selector.register(self._wake_r, selectors.EVENT_READ, None)
                threading.Thread(target=self._loop, args=(self._selector,), name="stderr-drain", daemon=True).start()
            self._selector.register(fd, selectors.EVENT_READ, log)
        os.write(self._wake_w, b"x")  # the loop's next select sees the new pipe

    def _loop(self, selector: selectors.BaseSelector) -> None:
        while True:
            for key, _ in selector.select():
                if key.data is None:
                    try:
                        os.read(self._wake_r, 4096)
                    except BlockingIOError:
                        pass
                    continue
                fd, log = key.fd, key.data
                try:
                    if log.full and self._null >= 0:  # a flood: moved to /dev/null by the kernel, never copied
                        dropped = os.splice(fd, self._null, CHUNK)
                        if dropped:
                            log.discard(dropped)
                            continue
                        chunk = b""
                    else:
                        chunk = os.read(fd, CHUNK)
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""  # a broken pipe ends like a closed one
                if chunk:
                    log.feed(chunk)
                    continue
                with self._lock:
                    selector.unregister(fd)
                os.close(fd)
                log.ended.set()


DRAIN = _Drain()
