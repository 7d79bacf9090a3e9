"""Search traces of duplicate runs: every game's decisions and, at each decision side A's search
made, the visits and mean reward of every root decision — positions valued by the search, kept as
a by-product of strength runs (research/record_traces.py), e.g. to learn a rollout policy from.

One JSON line per game: the run's configuration (as in a results file, arena/duplicate_results.py),
the deal, the game of the pair, side A's seats, the code version, `moves` (every decision of the
game: with the deal they replay it exactly, so a position costs a few bytes, not a view's text)
and `searches`, a list of `[ply, decisions, visits, values]`. `search_trace` records a game,
`positions` rebuilds its traced positions, and the command prints where the search and greedy
part ways (`summarize`):

    python -m research.search_traces research/results/classic-infer-traces.jsonl.gz

>>> import os, tempfile
>>> from arena.duplicate import play_pair
>>> from arena.duplicate_results import RunConfig
>>> from protocol.limits import Limits
>>> pair = play_pair("classic", 3, "ismcts", "greedy", {"rounds": 1}, Limits(iterations=50), observe=search_trace)
>>> path = os.path.join(tempfile.mkdtemp(), "traces.jsonl")
>>> config = RunConfig("classic", {"rounds": 1, "max_turns": 300}, 2, "ismcts", "greedy", 50, None)
>>> TraceFile(path).append(config, pair)
>>> first = next(positions(next(read_traces(path))))
>>> first.chosen in first.view.legal(), first.seat
(True, 0)
"""
from __future__ import annotations

import gzip
import json
import os
import sys
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field

import engine
from arena.statistics import PairResult
from arena.duplicate_results import RunConfig, json_line
from arena.match import Observer
from engine.errors import ExpeditionsError
from protocol.policy import Policy
from expeditions.provenance import code_version
from research.decision_values import CATEGORIES, categories


def search_trace(game: int, a_seats: list[int]) -> tuple[dict, Observer]:
    """A game's trace and the `play_match` observer that fills it (a `GameObserver` of
    arena/duplicate.py): after each decision of an A seat whose policy searched (it has a
    `last_search` with root statistics, as ISMCTS does), the ply and, per root decision, its visits
    and mean reward. With the game's `moves` (added when it ends) and the deal, every traced
    position can be rebuilt (`positions`)."""
    # "moves" first, filled by play_pair when the game ends: the lines read as they always have
    trace: dict = {"game": game, "seats_a": a_seats, "moves": [], "searches": []}

    def observe(ply: int, seat: int, policy: Policy) -> None:
        report = getattr(policy, "last_search", None)
        if seat in a_seats and report is not None and report.children:
            ordered = sorted(report.children.items())
            trace["searches"].append([ply, [d for d, _ in ordered], [v for _, (v, _) in ordered],
                                      [round(q, 4) for _, (_, q) in ordered]])
    return trace, observe


class TraceFileError(ExpeditionsError, ValueError):
    """A trace file that cannot be read: names the file, the line and what is wrong."""


class TraceFile:
    """Appends the traces of finished pairs, one flushed and synced write per pair. A path ending
    in `.gz` is written compressed (a gzip member per pair: gzip reads concatenated members as one
    stream), about a third of the size."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = os.fspath(path)

    def prepare(self) -> str | None:
        """Reads the file whole before anything is appended to it, as a results file is read: a
        file that is not a trace file raises TraceFileError and is left as it was. A tail cut short
        (a run killed while writing it) is cut off, so that the next write starts a line, or a
        gzip member, of its own; the notice returned says so (None when there was none)."""
        if not os.path.exists(self.path):
            return None
        data, complete = _read_complete(self.path)
        for _ in _records(data, self.path):
            pass
        size = os.path.getsize(self.path)
        if complete == size:
            return None
        with open(self.path, "r+b") as f:
            f.truncate(complete)
        return (f"{self.path}: an unfinished trace at its end (a run stopped while writing it) was cut off "
                f"({size - complete} bytes); its game is traced again when its deal is played again")

    def append(self, config: RunConfig, pair: PairResult) -> None:
        lines = [json.dumps({**config.as_json(), "deal": pair.seed, "code": code_version(), **trace},
                            separators=(",", ":")) + "\n" for trace in pair.records]
        data = "".join(lines).encode()
        if self.path.endswith(".gz"):
            data = gzip.compress(data)
        with open(self.path, "ab") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())


def _read_complete(path: str) -> tuple[bytes, int]:
    """A trace file's text (decompressed when its name ends in `.gz`) up to its last complete line
    or gzip member, and the byte length of the file that holds it. A tail cut short (a run killed
    while writing it) is left out."""
    with open(path, "rb") as f:
        data = f.read()
    if not path.endswith(".gz"):
        complete = data.rfind(b"\n") + 1
        return data[:complete], complete
    out, complete = [], 0
    rest = data
    while rest:
        member = zlib.decompressobj(wbits=31)
        try:
            text = member.decompress(rest)
        except zlib.error as e:
            raise TraceFileError(f"{path}: not a gzip file, or damaged ({e})") from None
        if not member.eof:
            break
        out.append(text)
        rest = member.unused_data
        complete = len(data) - len(rest)
    return b"".join(out), complete


_FIELDS = ("edition", "options", "players", "deal", "game", "seats_a", "moves", "searches")


def read_traces(path: str | os.PathLike) -> Iterator[dict]:
    """The games of a trace file, each once (a game written twice, by a run resumed after a kill
    between its results and its traces: the first). An unfinished last line (a run killed while
    writing it) is skipped; any other malformed line raises TraceFileError with its number."""
    data, _ = _read_complete(os.fspath(path))
    return _records(data, os.fspath(path))


def _records(data: bytes, path: str) -> Iterator[dict]:
    """The games of a trace file's complete text (`_read_complete`), each once."""
    seen: set[str] = set()
    lines = data.split(b"\n")[:-1]  # the last piece is empty: the text ends with a complete line
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        record = json_line(raw, f"{path} line {number}", _FIELDS, TraceFileError)
        key = json.dumps({k: v for k, v in record.items() if k not in ("moves", "searches", "code")},
                         sort_keys=True)
        if key not in seen:
            seen.add(key)
            yield record


@dataclass(frozen=True)
class TracedPosition:
    """One decision of side A and what its search found."""

    view: engine.View
    """What the seat saw (its information set), as its bot was given it."""
    seat: int
    ply: int
    chosen: int
    """The decision made."""
    visits: dict[int, int]
    """Per root decision: the search's visits."""
    values: dict[int, float]
    """Per root decision: its mean reward for the seat (0..1)."""


def positions(record: dict) -> Iterator[TracedPosition]:
    """Replays a traced game and yields its traced positions in order. Raises TraceFileError when
    the moves do not replay or a traced decision was not legal (a record of other code or rules)."""
    state = engine.new_game(record["edition"], seed=record["deal"], players=record["players"],
                            **record["options"])
    searches = {int(s[0]): s for s in record["searches"]}
    for ply, move in enumerate(record["moves"]):
        if ply in searches:
            _, decisions, visits, values = searches[ply]
            seat = state.to_move
            view = state.view(seat)
            legal = set(view.legal())
            if move not in legal or not set(decisions) <= legal:
                raise TraceFileError(f"deal {record['deal']} game {record['game']} ply {ply}: a traced decision "
                                     f"is not legal here (a trace of other code or rules?)")
            yield TracedPosition(view, seat, ply, move, dict(zip(decisions, visits)), dict(zip(decisions, values)))
        try:
            state.apply(move)
        except ValueError as e:  # IllegalDecisionError, NotationError
            raise TraceFileError(f"deal {record['deal']} game {record['game']} ply {ply}: {e}") from None


@dataclass
class TraceSummary:
    """Where the search and the greedy heuristic part ways on the traced positions."""

    games: int = 0
    positions: int = 0
    agree: int = 0
    """Positions where the search chose the heuristic's decision."""
    regret: float = 0.0
    """Sum over positions of the chosen decision's mean reward minus the heuristic's (by the
    search's own statistics; 0 where they agree or the heuristic's was not searched)."""
    unsearched: int = 0
    """Positions where the heuristic's decision was not among the searched root decisions."""
    by_category: dict[str, list] = field(default_factory=dict)
    """Per kind of position (research.decision_values.categories): [positions, agree, regret]."""

    def line(self) -> str:
        n = max(1, self.positions)
        return (f"games {self.games}  positions {self.positions}  search = greedy {self.agree / n:.3f}  "
                f"greedy's regret by the search {self.regret / n:.4f} a decision  "
                f"greedy's decision not searched {self.unsearched / n:.3f}")

    def table(self) -> list[str]:
        """Where the regret lies: per kind of position, its share of the positions, how often the
        search chose greedy's decision, the mean regret and its share of all the regret."""
        total = self.regret or 1.0
        out = [f"{'positions':32s} {'count':>7s} {'share':>6s} {'= greedy':>8s} {'regret':>7s} {'share':>6s}"]
        for name in CATEGORIES:
            if name in self.by_category:
                count, agree, regret = self.by_category[name]
                out.append(f"{name:32s} {count:7d} {count / self.positions:6.3f} {agree / count:8.3f} "
                           f"{regret / count:7.4f} {regret / total:6.3f}")
        return out


def summarize(path: str | os.PathLike) -> TraceSummary:
    """Totals of a trace file: its games and positions, and how often and by how much (by the
    search's values) the search's decision differs from the greedy heuristic's."""
    from bots.heuristics import greedy_decision
    out = TraceSummary()
    for record in read_traces(path):
        out.games += 1
        for p in positions(record):
            out.positions += 1
            greedy = greedy_decision(p.view.state, 0)
            regret = 0.0
            if greedy == p.chosen:
                out.agree += 1
            elif greedy not in p.values:
                out.unsearched += 1
            else:
                regret = p.values[p.chosen] - p.values[greedy]
                out.regret += regret
            for name in categories(p.view.text):
                row = out.by_category.setdefault(name, [0, 0, 0.0])
                row[0] += 1
                row[1] += greedy == p.chosen
                row[2] += regret
    return out


def main(argv: list[str] | None = None) -> int:
    import argparse
    parser = argparse.ArgumentParser(prog="python -m research.search_traces", description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", metavar="FILE.jsonl")
    args = parser.parse_args(argv)
    for path in args.files:
        try:
            total = summarize(path)
            print(f"{path}: {total.line()}")
            print("\n".join(total.table()))
        except (OSError, TraceFileError) as e:
            print(e, file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
