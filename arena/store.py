"""Tournament results in SQLite: one file, every game written in one transaction as it ends.

A killed arena loses nothing that was finished; `--resume` asks `finished_indices` which planned
games exist and plays only the others. WAL mode lets a viewer read while the arena writes. One
arena at a time plays a tournament (`claim`). A database that is damaged is named as such
(`DamagedDatabaseError`) and never written to: it is checked before the first write, and any
read that finds damage stops every later write.

>>> import tempfile, os
>>> from arena.config import TournamentConfig, BotSpec
>>> store = Store(os.path.join(tempfile.mkdtemp(), "t.sqlite"))
>>> tid = store.create_tournament(TournamentConfig("classic", [BotSpec("a", ["x"]), BotSpec("b", ["y"])]), 10)
>>> store.finished_indices(tid)
set()
"""
from __future__ import annotations

import fcntl
import json
import os
import socket
import sqlite3
import struct
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any, NamedTuple

from arena.config import TournamentConfig
from arena.record import DecisionRecord, GameRecord
from engine.errors import ExpeditionsError

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournament (
    id INTEGER PRIMARY KEY,
    created TEXT NOT NULL,
    config TEXT NOT NULL,
    planned INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'running',
    note TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS game (
    id INTEGER PRIMARY KEY,
    tournament INTEGER NOT NULL REFERENCES tournament(id),
    plan_index INTEGER NOT NULL,
    grp INTEGER NOT NULL,
    deal INTEGER NOT NULL,
    rotation INTEGER NOT NULL,
    edition TEXT NOT NULL,
    options TEXT NOT NULL,
    seed TEXT NOT NULL,
    seat_bots TEXT NOT NULL,
    scores TEXT NOT NULL,
    returns TEXT NOT NULL,
    termination TEXT NOT NULL,
    reason TEXT NOT NULL,
    failed_seat INTEGER,
    initial_position TEXT NOT NULL,
    final_position TEXT NOT NULL,
    started TEXT NOT NULL,
    finished TEXT NOT NULL,
    worker TEXT NOT NULL,
    UNIQUE (tournament, plan_index)
);
CREATE TABLE IF NOT EXISTS decision (
    game INTEGER NOT NULL REFERENCES game(id),
    ply INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    decision TEXT NOT NULL,
    time_ms REAL NOT NULL,
    value REAL,
    iterations INTEGER,
    PRIMARY KEY (game, ply)
);
"""


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class TournamentEntry(NamedTuple):
    """One tournament of a database as `Store.tournaments` lists it."""

    id: int
    created: str
    config: TournamentConfig
    planned: int
    status: str
    note: str
    recorded: int
    """Games written so far."""


class ForeignDatabaseError(ExpeditionsError, sqlite3.DatabaseError):
    """An SQLite database that is not a results database (a `sqlite3.Error`, as a file that is not
    a database at all is)."""


class DamagedDatabaseError(ExpeditionsError, sqlite3.DatabaseError):
    """The results database is damaged (corrupt pages, a cut-off file, rows that do not read
    back); nothing is written into it any more."""


class TournamentBusyError(ExpeditionsError):
    """Another arena is playing this tournament."""


class AlreadyRecordedError(ExpeditionsError):
    """A planned game of the tournament is in the database already."""


SQLITE_NOTADB = 26
"""SQLite's error code for a file that is not a database."""

LOCK_RECORD = 128
"""Bytes per tournament in the lock file: the lock's range, holding who holds it."""


class Store:
    """The results database. Safe to use from several threads (one connection, one lock)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self.damaged = False
        """Set once damage was found: every later write is refused."""
        self._claims: dict[int, int] = {}
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            try:
                tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            except sqlite3.DatabaseError as err:
                if getattr(err, "sqlite_errorcode", SQLITE_NOTADB) == SQLITE_NOTADB:
                    raise  # not SQLite at all: sqlite3's own "file is not a database"
                with self._reading():
                    raise
            if tables and "tournament" not in tables:  # another program's database: change nothing in it
                raise ForeignDatabaseError(f"it holds other tables ({', '.join(sorted(tables))}), not results")
            with self._reading():  # before the first write: a damaged file is left as it is
                found = [str(row[0]) for row in self._db.execute("PRAGMA quick_check(3)")]
                if found != ["ok"]:
                    problems = [line for text in found for line in text.splitlines() if not line.startswith("***")]
                    raise DamagedDatabaseError(self._damage(problems[0] + (", and more" if len(problems) > 1 else "")))
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
            self._upgrade()
        except BaseException:
            self._db.close()
            raise

    def _damage(self, detail: object) -> str:
        return (f"{self.path} is damaged ({detail}); expeditions writes nothing into it (the sqlite3 shell's "
                f".recover may save what is left)")

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """Turns damage found while reading into DamagedDatabaseError, and refuses later writes."""
        try:
            yield
        except DamagedDatabaseError:
            self.damaged = True
            raise
        except (sqlite3.OperationalError, sqlite3.IntegrityError):
            raise  # not damage: a lock, a full disk, a read-only file; a refused write
        except (sqlite3.DatabaseError, ValueError, TypeError, KeyError) as err:
            self.damaged = True  # malformed pages, or rows that do not read back (e.g. a config that is not JSON)
            raise DamagedDatabaseError(self._damage(err)) from None

    def _writable(self) -> None:
        if self.damaged:
            raise DamagedDatabaseError(self._damage("found while reading it"))

    def _upgrade(self) -> None:
        """Adds what later versions record to a database an earlier one made (its rows keep NULL)."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(decision)")}
        for name, kind in (("value", "REAL"), ("iterations", "INTEGER")):
            if name not in columns:
                self._db.execute(f"ALTER TABLE decision ADD COLUMN {name} {kind}")

    def close(self) -> None:
        with self._lock:
            self._db.close()
            for fd in self._claims.values():
                os.close(fd)
            self._claims.clear()

    # ----- one arena per tournament -------------------------------------------------------------
    def claim(self, tid: int) -> None:
        """Makes this store the only one playing tournament `tid` until `release` (or the end of
        the process, however it ends); TournamentBusyError if another holds it.

        An open-file-description lock on the tournament's range of `<database>-lock` (Linux;
        elsewhere a process lock): the kernel frees it when its holder dies, so a killed arena
        never leaves a tournament locked."""
        if tid in self._claims:
            return
        fd = os.open(self.path + "-lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        start = tid * LOCK_RECORD
        command = getattr(fcntl, "F_OFD_SETLK", fcntl.F_SETLK)
        request = struct.pack("hhqqi4x", fcntl.F_WRLCK, os.SEEK_SET, start, LOCK_RECORD, 0)
        try:
            fcntl.fcntl(fd, command, request)
        except OSError:
            holder = os.pread(fd, LOCK_RECORD, start).rstrip(b"\0").decode("utf-8", "replace")
            os.close(fd)
            raise TournamentBusyError(f"tournament {tid} of {self.path} is being played by another arena "
                                      f"({holder or 'unknown'}); one arena plays a tournament at a time") from None
        who = f"pid {os.getpid()} on {socket.gethostname()} since {now()}".encode()[:LOCK_RECORD]
        os.pwrite(fd, who.ljust(LOCK_RECORD, b"\0"), start)
        self._claims[tid] = fd

    def release(self, tid: int) -> None:
        """Lets another arena play tournament `tid`."""
        fd = self._claims.pop(tid, None)
        if fd is not None:
            os.pwrite(fd, bytes(LOCK_RECORD), tid * LOCK_RECORD)
            os.close(fd)

    # ----- tournaments ------------------------------------------------------------------------
    def create_tournament(self, config: TournamentConfig, planned: int) -> int:
        with self._lock, self._reading():
            self._writable()
            cur = self._db.execute("INSERT INTO tournament (created, config, planned) VALUES (?, ?, ?)",
                                   (now(), config.to_json(), planned))
            return int(cur.lastrowid)  # type: ignore[arg-type]  # an INSERT sets it

    def tournament(self, tid: int | None = None, skip_format: str | None = None) -> tuple[int, TournamentConfig, int, str]:
        """(id, config, planned games, status) of tournament `tid`, or of the latest one (whose
        format is not `skip_format`: the latest an arena can resume skips games played by a person)."""
        with self._lock, self._reading():
            if tid is None:
                rows = self._db.execute("SELECT id, config, planned, status FROM tournament ORDER BY id DESC")
                found = ((r[0], TournamentConfig.from_json(r[1]), r[2], r[3]) for r in rows)
                entry = next((t for t in found if skip_format is None or t[1].format != skip_format), None)
            else:
                row = self._db.execute("SELECT id, config, planned, status FROM tournament WHERE id = ?", (tid,)).fetchone()
                entry = None if row is None else (row[0], TournamentConfig.from_json(row[1]), row[2], row[3])
        if entry is None:
            raise LookupError(f"no tournament {'in' if tid is None else tid} {self.path if tid is None else 'in ' + self.path}")
        return entry

    def tournaments(self) -> list[TournamentEntry]:
        """Every tournament of the database, oldest first, with the number of games recorded."""
        with self._lock, self._reading():
            rows = self._db.execute(
                "SELECT t.id, t.created, t.config, t.planned, t.status, t.note, "
                "(SELECT COUNT(*) FROM game WHERE game.tournament = t.id) FROM tournament t ORDER BY t.id").fetchall()
        return [TournamentEntry(r[0], r[1], TournamentConfig.from_json(r[2]), *r[3:]) for r in rows]

    def set_status(self, tid: int, status: str, note: str = "") -> None:
        with self._lock, self._reading():
            self._writable()
            self._db.execute("UPDATE tournament SET status = ?, note = ? WHERE id = ?", (status, note, tid))

    # ----- games --------------------------------------------------------------------------------
    def finished_indices(self, tid: int) -> set[int]:
        with self._lock, self._reading():
            return {r[0] for r in self._db.execute("SELECT plan_index FROM game WHERE tournament = ?", (tid,))}

    def record_game(self, tid: int, g: GameRecord) -> int:
        """Writes a finished game and its decisions in one transaction; returns its id."""
        return self.record_games(tid, [g])[0]

    def record_games(self, tid: int, games: list[GameRecord]) -> list[int]:
        """Writes finished games and their decisions in one transaction; returns their ids.

        Writing a planned game twice is refused (AlreadyRecordedError, from the UNIQUE
        constraint), so a resumed or distributed tournament can never duplicate a game.
        """
        ids = []
        with self._lock, self._reading():
            self._writable()
            try:
                self._db.execute("BEGIN")
                for g in games:
                    ids.append(self._insert(tid, g))
                self._db.execute("COMMIT")
            except BaseException as err:
                # A Ctrl-C may land just after the COMMIT: then there is nothing to roll back, and
                # the games stay recorded (a resume does not play them again).
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                if isinstance(err, sqlite3.IntegrityError):
                    raise AlreadyRecordedError(f"{self.path}: a game of tournament {tid} "
                                               f"({', '.join(f'#{g.index}' for g in games)}) is recorded already "
                                               f"(was another arena playing it?)") from None
                raise
        for g, game_id in zip(games, ids):
            g.id = game_id
        return ids

    def _insert(self, tid: int, g: GameRecord) -> int:
        cur = self._db.execute(
            "INSERT INTO game (tournament, plan_index, grp, deal, rotation, edition, options, seed, "
            "seat_bots, scores, returns, termination, reason, failed_seat, initial_position, "
            "final_position, started, finished, worker) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (tid, g.index, g.group, g.deal, g.rotation, g.edition, json.dumps(g.options), str(g.seed),
             json.dumps(g.seat_bots), json.dumps(g.scores), json.dumps(g.returns), g.termination,
             g.reason, g.failed_seat, g.initial_position, g.final_position, g.started or now(),
             g.finished or now(), g.worker))
        game_id = int(cur.lastrowid)  # type: ignore[arg-type]  # an INSERT sets it
        self._db.executemany(
            "INSERT INTO decision (game, ply, seat, decision, time_ms, value, iterations) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(game_id, ply, d.seat, d.decision, d.time_ms, d.value, d.iterations)
             for ply, d in enumerate(g.decisions)])
        return game_id

    def games(self, tid: int, with_decisions: bool = False) -> list[GameRecord]:
        with self._lock, self._reading():
            rows = self._db.execute(
                "SELECT id, plan_index, grp, deal, rotation, edition, options, seed, seat_bots, scores, returns, "
                "termination, reason, failed_seat, initial_position, final_position, started, finished, worker "
                "FROM game WHERE tournament = ? ORDER BY plan_index", (tid,)).fetchall()
            games = [self._game(row) for row in rows]
        if with_decisions:
            for g in games:
                g.decisions = self.decisions(g.id)  # type: ignore[arg-type]  # a stored game has its id
        return games

    def game(self, game_id: int) -> GameRecord:
        with self._lock, self._reading():
            row = self._db.execute(
                "SELECT id, plan_index, grp, deal, rotation, edition, options, seed, seat_bots, scores, returns, "
                "termination, reason, failed_seat, initial_position, final_position, started, finished, worker "
                "FROM game WHERE id = ?", (game_id,)).fetchone()
            g = None if row is None else self._game(row)
        if g is None:
            raise LookupError(f"no game {game_id} in {self.path}")
        g.decisions = self.decisions(game_id)
        return g

    def decisions(self, game_id: int) -> list[DecisionRecord]:
        with self._lock, self._reading():
            rows = self._db.execute("SELECT seat, decision, time_ms, value, iterations FROM decision "
                                    "WHERE game = ? ORDER BY ply", (game_id,)).fetchall()
            return [DecisionRecord(*r) for r in rows]

    def tournament_of(self, game_id: int) -> int:
        """The id of the tournament game `game_id` belongs to (LookupError if there is no such game)."""
        with self._lock:
            row = self._db.execute("SELECT tournament FROM game WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise LookupError(f"no game {game_id} in {self.path}")
        return int(row[0])

    @staticmethod
    def _game(row: tuple[Any, ...]) -> GameRecord:
        (gid, index, grp, deal, rotation, edition, options, seed, seat_bots, scores, returns, termination,
         reason, failed_seat, initial, final, started, finished, worker) = row
        return GameRecord(index=index, group=grp, deal=deal, rotation=rotation, edition=edition,
                          options=json.loads(options), seed=int(seed), seat_bots=json.loads(seat_bots),
                          scores=json.loads(scores), returns=json.loads(returns), termination=termination,
                          reason=reason, failed_seat=failed_seat, initial_position=initial,
                          final_position=final, started=started, finished=finished, worker=worker, id=gid)

    def export_jsonl(self, tid: int, out: IO[str]) -> int:
        """Writes one JSON object per game (with its decisions); returns the number of games."""
        count = 0
        for g in self.iter_games(tid):
            out.write(json.dumps(g.to_dict(), sort_keys=True) + "\n")
            count += 1
        return count

    def iter_games(self, tid: int) -> Iterator[GameRecord]:
        for g in self.games(tid):
            g.decisions = self.decisions(g.id)  # type: ignore[arg-type]  # a stored game has its id
            yield g
