"""The timing report of a tournament: each bot's decision times against its budget."""
from __future__ import annotations

import math

from arena.config import TimeControl
from arena.record import DecisionRecord, GameRecord
from arena.timing import timing_rows, timing_text


def game(times: list[tuple[int, float]], bots: tuple[str, str] = ("a", "b"), *, timeout_seat: int | None = None) -> GameRecord:
    return GameRecord(0, 0, 0, 0, "classic", {}, 1, list(bots), [0, 0], [1.0, 0.0],
                      termination="normal" if timeout_seat is None else "timeout", failed_seat=timeout_seat,
                      decisions=[DecisionRecord(seat, "x", ms) for seat, ms in times])


def test_overruns_against_the_movetime_per_bot_with_percentiles_and_timeouts() -> None:
    games = [game([(0, float(ms)), (1, 10.0)]) for ms in range(1, 101)]  # a: 1..100 ms
    games.append(game([(0, 30.0)], timeout_seat=1))
    rows = {r.name: r for r in timing_rows(games, TimeControl(movetime_ms=50), {})}
    a, b = rows["a"], rows["b"]
    assert a.decisions == 101 and b.decisions == 100
    assert (a.p50_ms, a.p99_ms, a.max_ms) == (0.0, 49.0, 50.0)  # nearest rank of 1..100 and 30, less 50
    assert b.max_ms == -40.0 and (a.timeouts, b.timeouts) == (0, 1)
    text = timing_text(rows.values(), 100)
    assert "forfeit beyond +100" in text and "+49.0" in text


def test_a_bots_own_movetime_and_a_clock() -> None:
    games = [game([(0, 120.0), (1, 300.0), (0, 80.0), (1, 500.0)])]
    own = {"a": TimeControl(movetime_ms=100), "b": None}
    rows = {r.name: r for r in timing_rows(games, TimeControl(clock_ms=1000, increment_ms=100), own)}
    assert rows["a"].times == [20.0, -20.0] and not rows["a"].clock
    b = rows["b"]
    assert b.clock and b.times == [300.0, 500.0]
    assert b.least_left_ms == 1000 - 300 + 100 - 500  # the clock after each decision, increments added after
    assert "least left 300 ms" in timing_text([b], 100)
    assert timing_text([b], 100).startswith("time a decision took (ms; forfeit once a clock is below -100)")


def test_no_decisions_prints_dashes() -> None:
    row = timing_rows([game([])], TimeControl(movetime_ms=50), {})[0]
    assert math.isnan(row.p50_ms) and " - " in timing_text([row], 100)


def test_the_arena_prints_it_under_the_final_table(tmp_path, capsys) -> None:
    from expeditions.cli import main
    assert main(["arena", "--bot", "greedy", "--bot", "random", "-o", "rounds=1", "--deals", "1",
                 "--movetime", "200", "--db", str(tmp_path / "t.sqlite"), "-q"]) == 0
    out = capsys.readouterr().out
    table = out[out.index("time over the movetime"):].splitlines()
    assert table[1].split() == ["bot", "decisions", "p50", "p99", "max", "timeouts"]
    assert {line.split()[0] for line in table[2:4]} == {"greedy", "random"}
