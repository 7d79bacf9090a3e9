"""Transcripts: every line between a referee and one bot, timestamped, as cutechess's `-debug` shows
them. A `protocol.client.Engine` appends each line it sends ('>') or reads ('<') to its
`transcript`; a list keeps them in memory, a `TranscriptFile` writes them to a file as they pass.

A transcript file is text: comment lines starting with `#` (what the game and the bot are), then
one line per protocol line: the seconds since the transcript began, the direction, the line.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "game.log")
>>> t = TranscriptFile(path, ["game 1, seat 0: random"], clock=iter([0.0, 0.25, 0.5]).__next__)
>>> t.append((">", "isready")); t.append(("<", "readyok")); t.close()
>>> print(open(path).read(), end="")
# game 1, seat 0: random
    0.250000 > isready
    0.500000 < readyok
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Protocol


class Transcript(Protocol):
    """Where an Engine writes its (direction, line) pairs: a list, or a TranscriptFile."""

    def append(self, item: tuple[str, str], /) -> None: ...

    def extend(self, items: Iterable[tuple[str, str]], /) -> None: ...


class TranscriptFile:
    """A transcript written to `path` as the lines pass (buffered; complete once closed). Lines
    may come from two threads (a `stop` is sent from another one), hence the lock."""

    def __init__(self, path: str | Path, header: Sequence[str], *,
                 clock: Callable[[], float] = time.perf_counter, start: float | None = None) -> None:
        self.path = Path(path)
        self._clock = clock
        self._start = clock() if start is None else start
        self._lock = threading.Lock()
        self._file = open(self.path, "w", encoding="utf-8")
        self._file.writelines(f"# {line}\n" for line in header)

    def append(self, item: tuple[str, str], /) -> None:
        direction, line = item
        stamp = self._clock() - self._start
        with self._lock:
            if not self._file.closed:
                self._file.write(f"{stamp:12.6f} {direction} {line}\n")

    def extend(self, items: Iterable[tuple[str, str]], /) -> None:
        for item in items:
            self.append(item)

    def close(self) -> None:
        with self._lock:
            self._file.close()
