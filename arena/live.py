"""Games in progress, for watchers: each running game of a tournament keeps its latest position in
a `live` table of the results database, so that `expeditions serve` can show a tournament as it
plays. A row is written when the game starts, then at most every `LIVE_EVERY_S` seconds, and
deleted when the game ends (the finished game is then in `game`).

The feed never costs a game: it opens the database only if the file exists (a cluster worker on
another host has none), and any database error turns it off for the rest of the game. The table
holds full positions: what a watcher may see of them is the server's business (spectators of a
running game get only its public part, gui/public.py).

>>> import os, tempfile, engine
>>> from arena.store import Store
>>> path = os.path.join(tempfile.mkdtemp(), "t.sqlite"); _ = Store(path)
>>> state = engine.new_game("classic", seed=1)
>>> feed = LiveFeed.open(path, tournament=1, index=4, seat_bots=["a", "b"], state=state)
>>> [(g.index, g.seat_bots, g.ply) for g in live_games(path, 1)]
[(4, ['a', 'b'], 0)]
>>> feed.close(); live_games(path, 1)
[]
"""
from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass

import engine
from arena.store import now

LIVE_EVERY_S = 0.2
"""Seconds between two writes of one game's position (a fast game would otherwise write per decision)."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS live (
    tournament INTEGER NOT NULL,
    plan_index INTEGER NOT NULL,
    seat_bots TEXT NOT NULL,
    position TEXT NOT NULL,
    ply INTEGER NOT NULL,
    updated TEXT NOT NULL,
    PRIMARY KEY (tournament, plan_index)
);
"""


@dataclass
class LiveGame:
    """A game in progress as its last write left it."""

    tournament: int
    index: int
    seat_bots: list[str]
    position: str
    """The full position (not for a spectator's eyes as it is)."""
    ply: int
    updated: str


def _connect(path: str) -> sqlite3.Connection:
    """A connection to an existing database (sqlite3.Error when there is none: nothing is created)."""
    db = sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=2.0, isolation_level=None,
                         check_same_thread=False)
    db.execute("PRAGMA synchronous=NORMAL")  # a watcher's view, not a result: no sync per write
    db.execute(SCHEMA)
    return db


class LiveFeed:
    """One running game's row in the `live` table."""

    def __init__(self, db: sqlite3.Connection | None, tournament: int, index: int) -> None:
        self._db = db
        self.tournament = tournament
        self.index = index
        self._next = 0.0

    @classmethod
    def open(cls, path: str, tournament: int, index: int, seat_bots: list[str], state: engine.State) -> LiveFeed:
        """Starts the game's row (a feed that is off when the database cannot be written)."""
        try:
            db: sqlite3.Connection | None = _connect(path)
        except sqlite3.Error:
            db = None
        feed = cls(db, tournament, index)
        feed._write("INSERT OR REPLACE INTO live (tournament, plan_index, seat_bots, position, ply, updated) "
                    "VALUES (?, ?, ?, ?, ?, ?)", (tournament, index, json.dumps(seat_bots), state.to_text(), 0, now()))
        return feed

    def update(self, state: engine.State, ply: int) -> None:
        """Writes the position after `ply` decisions, unless the last write is too recent."""
        if self._db is None:
            return
        clock = time.monotonic()
        if clock < self._next:
            return
        self._next = clock + LIVE_EVERY_S
        self._write("UPDATE live SET position = ?, ply = ?, updated = ? WHERE tournament = ? AND plan_index = ?",
                    (state.to_text(), ply, now(), self.tournament, self.index))

    def close(self) -> None:
        """Deletes the row: the game has ended (or was abandoned)."""
        self._write("DELETE FROM live WHERE tournament = ? AND plan_index = ?", (self.tournament, self.index))
        if self._db is not None:
            self._db.close()
            self._db = None

    def _write(self, sql: str, values: tuple[object, ...]) -> None:
        if self._db is None:
            return
        try:
            self._db.execute(sql, values)
        except sqlite3.Error:
            self._db.close()
            self._db = None


def live_games(path: str, tournament: int) -> list[LiveGame]:
    """The games of `tournament` in progress (none when the database has no `live` table yet)."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=2.0)
    except sqlite3.Error:
        return []
    try:
        rows = db.execute("SELECT tournament, plan_index, seat_bots, position, ply, updated FROM live "
                          "WHERE tournament = ? ORDER BY plan_index", (tournament,)).fetchall()
    except sqlite3.Error:
        return []
    finally:
        db.close()
    return [LiveGame(t, i, json.loads(bots), position, ply, updated) for t, i, bots, position, ply, updated in rows]
