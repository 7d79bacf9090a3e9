"""A results file for duplicate runs: one JSON line per finished deal, so that a strength
measurement survives a crash, grows over several sittings and pools runs of the same bots.

Every line names its run's configuration (edition, resolved options, players, the two bot
specs, the budget) and one deal's result. A run given the file skips the deals that the file
already holds for its configuration and appends each deal it finishes, flushed to disk at once;
lines of other configurations are kept and ignored. A file is read whole before anything is
written: a malformed line stops the run with its line number and leaves the file as it was —
except an unfinished last line (a run killed while writing it), which holds no result and is
cut off with a notice.

>>> import os, tempfile
>>> from arena.statistics import PairResult
>>> config = RunConfig("classic", {"rounds": 1}, 2, "greedy", "random", None, None)
>>> path = os.path.join(tempfile.mkdtemp(), "results.jsonl")
>>> book = ResultsFile(path)
>>> book.append(config, PairResult(7, (1.0, 0.5), (12, 0), 0.01))
>>> sorted(ResultsFile(path).deals(config))
[7]
"""
from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass

from arena.statistics import PairResult
from engine.errors import ExpeditionsError
from expeditions.provenance import code_version


class ResultsFileError(ExpeditionsError, ValueError):
    """A results file that cannot be read: names the file, the line and what is wrong."""


def json_line(raw: bytes, where: str, fields: tuple[str, ...], error: type[ValueError]) -> dict:
    """One line of a JSON-lines file as an object holding `fields`; else `error` naming `where`
    (the file and line) and what is wrong."""
    try:
        record = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise error(f"{where}: not a JSON object ({e})") from None
    if not isinstance(record, dict):
        raise error(f"{where}: expected a JSON object, got {type(record).__name__}")
    missing = [k for k in fields if k not in record]
    if missing:
        raise error(f"{where}: missing field {missing[0]!r}")
    return record


@dataclass(frozen=True)
class RunConfig:
    """What makes deals of two runs comparable: same edition, rules, seats, bots and budget."""

    edition: str
    options: Mapping[str, int]
    """The edition's options, resolved (defaults filled in)."""
    players: int
    a: str
    """Side A's bot spec, e.g. `ismcts:EarlyStop=always`."""
    b: str
    iterations: int | None
    movetime: int | None

    def as_json(self) -> dict:
        return {"edition": self.edition, "options": dict(sorted(self.options.items())),
                "players": self.players, "A": self.a, "B": self.b,
                "iterations": self.iterations, "movetime": self.movetime}


_CONFIG_KEYS = ("edition", "options", "players", "A", "B", "iterations", "movetime")


def _pair_from(record: dict) -> PairResult:
    """The deal's result from a line's fields (KeyError / TypeError / ValueError when malformed)."""
    returns = tuple(float(r) for r in record["returns"])
    margins = tuple(int(m) for m in record["margins"])
    if not returns or len(margins) != len(returns):
        raise ValueError("returns and margins must be lists of the same, non-zero length")
    return PairResult(int(record["deal"]), returns, margins, float(record["seconds"]),
                      tuple(float(r) for r in record.get("ranks", ())),
                      tuple(float(r) for r in record.get("other_ranks", ())))


class ResultsFile:
    """The deals recorded in one file, by configuration; `append` adds one (see the module)."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = os.fspath(path)
        self.notice: str | None = None
        """Set when an unfinished last line was cut off (say so to the user)."""
        self._records: list[tuple[dict, PairResult, str | None]] = []
        """(configuration, result, code version: None in lines written before it was recorded)."""
        self._load()

    def _load(self) -> None:
        if not os.path.exists(self.path):
            return
        with open(self.path, "rb") as f:
            data = f.read()
        lines = data.split(b"\n")
        unfinished = lines.pop()  # b"" when the file ends with a newline, as every complete one does
        for number, raw in enumerate(lines, start=1):
            if raw.strip():
                self._records.append(self._parse(raw, number))
        if unfinished.strip():
            try:
                self._records.append(self._parse(unfinished, len(lines) + 1))
                with open(self.path, "ab") as f:  # complete but for its newline: finish it
                    f.write(b"\n")
            except ResultsFileError:
                with open(self.path, "r+b") as f:
                    f.truncate(len(data) - len(unfinished))
                self.notice = (f"{self.path} line {len(lines) + 1}: an unfinished line (a run stopped while "
                               f"writing it) was cut off; its deal is played again")

    def _parse(self, raw: bytes, number: int) -> tuple[dict, PairResult, str | None]:
        where = f"{self.path} line {number}"
        record = json_line(raw, where, (*_CONFIG_KEYS, "deal", "returns", "margins", "seconds"), ResultsFileError)
        try:
            pair = _pair_from(record)
        except (KeyError, TypeError, ValueError) as e:
            raise ResultsFileError(f"{where}: a malformed result ({e})") from None
        code = record.get("code")
        if code is not None and not isinstance(code, str):
            raise ResultsFileError(f"{where}: a malformed result (code must be a string, got {code!r})")
        return {k: record[k] for k in _CONFIG_KEYS}, pair, code

    def _first_lines(self, config: RunConfig) -> dict[int, tuple[PairResult, str | None]]:
        """`config`'s deals by seed, each with its code version (a deal recorded twice: the first line)."""
        key = config.as_json()
        found: dict[int, tuple[PairResult, str | None]] = {}
        for record, pair, code in self._records:
            if record == key:
                found.setdefault(pair.seed, (pair, code))
        return found

    def deals(self, config: RunConfig) -> dict[int, PairResult]:
        """The recorded deals of `config` by deal seed (a deal recorded twice: the first line)."""
        return {seed: pair for seed, (pair, _) in self._first_lines(config).items()}

    def codes(self, config: RunConfig) -> dict[str | None, int]:
        """How many of `config`'s deals (as `deals` counts them) each code version played, most first;
        None counts lines that do not say. More than one version: the deals may not pool."""
        counts: dict[str | None, int] = {}
        for _, code in self._first_lines(config).values():
            counts[code] = counts.get(code, 0) + 1
        return dict(sorted(counts.items(), key=lambda item: -item[1]))

    def append(self, config: RunConfig, pair: PairResult) -> None:
        """Records one finished deal: a single write of one line, flushed and synced."""
        record = {**config.as_json(), "deal": pair.seed, "returns": list(pair.returns),
                  "margins": list(pair.margins), "seconds": round(pair.seconds, 3), "code": code_version()}
        if pair.ranks:
            record["ranks"] = list(pair.ranks)
            record["other_ranks"] = list(pair.other_ranks)
        line = (json.dumps(record, separators=(",", ":")) + "\n").encode()
        with open(self.path, "ab") as f:
            f.write(line)
            f.flush()
            os.fsync(f.fileno())
        self._records.append((config.as_json(), pair, record["code"]))
