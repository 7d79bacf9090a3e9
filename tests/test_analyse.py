"""`expeditions analyse`: a bot's best lines for one position, asked over the protocol with the
mover's view only."""
from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

import engine
from arena.config import TimeControl, TournamentConfig, builtin_bot
from arena.record import GameRecord
from arena.store import Store
from arena.tournament import Tournament
from arena.runner import LocalRunner
from expeditions.cli import main
from protocol.local import builtin_bot as builtin_bot_argv

BOTS = Path(__file__).parent / "bot_scripts"


def mid_game(seed: int = 7, steps: int = 6) -> engine.State:
    state = engine.new_game("classic", seed=seed)
    for _ in range(steps):
        state.apply(state.legal()[0])
    return state


def table(out: str) -> list[list[str]]:
    """The rows of the printed lines table: rank, decision, visits, value, line…"""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(" #  decision"))
    return [line.split() for line in lines[start + 1:] if not line.startswith("bestmove")]


def test_the_lines_of_a_full_position(capsys):
    state = mid_game()
    assert main(["analyse", "--position", state.to_text(), "--iterations", "3000", "--multipv", "3",
                 "--bot", "name=s", f"cmd={shlex.join(builtin_bot_argv('ismcts'))}",
                 "option.Seed=4"]) == 0
    out = capsys.readouterr().out
    rows = table(out)
    assert [row[0] for row in rows] == ["1", "2", "3"]
    assert len({row[1] for row in rows}) == 3 and all(row[1] in state.legal_text() for row in rows)
    assert int(rows[0][2]) >= int(rows[1][2]) >= int(rows[2][2])
    assert out.splitlines()[-1].startswith(f"bestmove {rows[0][1]} ")
    assert f"legal: {' '.join(state.legal_text())}" in out
    assert "?? ?? ??" in out  # the picture hides the opponent's hand


def test_searchmoves_and_a_bot_without_multipv(capsys):
    state = mid_game()
    chosen = state.legal_text()[-2:]
    assert main(["analyse", "--position", state.to_text(), "--bot", "greedy", "--brief",
                 f"--searchmoves={','.join(chosen)}"]) == 0
    out = capsys.readouterr().out
    assert "greedy has no MultiPV option" in out and "reported no lines" in out
    assert out.splitlines()[-1].split()[1] in chosen


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> tuple[Path, GameRecord]:
    """A database with one tournament of greedy against random, and its first game."""
    db = tmp_path_factory.mktemp("analyse") / "t.sqlite"
    config = TournamentConfig("classic", [builtin_bot("greedy"), builtin_bot("random")], options={"rounds": 1},
                              deals=1, seed=5, concurrency=1, time=TimeControl(movetime_ms=50))
    runner = LocalRunner(config.bots, config.limits, config.concurrency)
    try:
        Tournament(config, Store(db)).run(runner)
    finally:
        runner.close()
    return db, Store(db).games(1, with_decisions=True)[0]


def test_a_recorded_game_is_analysed_from_the_movers_view_only(recorded, tmp_path, capsys):
    db, game = recorded
    state = engine.parse_position(game.initial_position)
    for record in game.decisions[:21]:
        state.apply(record.decision.split(":", 1)[0])
    # A bot that writes every line it reads to a file: what reaches it is the mover's view, never more.
    heard = tmp_path / "heard.txt"
    spy = tmp_path / "spy.py"
    spy.write_text(f"import io, sys\nsys.path.insert(0, {str(BOTS)!r})\n"
                   f"log = open({str(heard)!r}, 'w')\n"
                   "class Tee(io.TextIOBase):\n"
                   "    def __iter__(self):\n"
                   "        for line in sys.__stdin__:\n"
                   "            log.write(line); log.flush(); yield line\n"
                   "sys.stdin = Tee()\nimport minimal\nminimal.serve('spy')\n")
    assert main(["analyse", "--db", str(db), "--game", str(game.id), "--ply", "21", "--brief",
                 "--bot", f"cmd={shlex.join([sys.executable, str(spy)])}"]) == 0
    positions = [line for line in heard.read_text().splitlines() if line.startswith("position")]
    assert positions == [f"position {state.view_text(state.to_move)}"]
    assert capsys.readouterr().out.splitlines()[-1].split()[1] in state.legal_text()


def test_review_puts_every_decision_with_a_choice_to_the_bot(recorded, capsys):
    db, game = recorded
    seat = game.seat_bots.index("random")
    assert main(["analyse", "--db", str(db), "--game", str(game.id), "--review", "--seat", str(seat),
                 "--iterations", "400"]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = [line.split() for line in out[2:-1]]
    state = engine.parse_position(game.initial_position)
    expected = []
    for ply, record in enumerate(game.decisions):
        if record.seat == seat and len(state.legal()) > 1:
            expected.append((ply, record.decision.split(":")[0], state.legal_text()))
        state.apply(record.decision.split(":")[0])
    assert [(int(row[0]), row[2]) for row in rows] == [(ply, played) for ply, played, _ in expected]
    for row, (_, played, legal) in zip(rows, expected):
        assert int(row[1]) == seat and row[3] in legal
        values, visits = row[-4:-1], row[-1]
        assert all(v != "-" for v in values)  # the searcher reports every decision (MultiPV 256)
        assert float(values[2]) == pytest.approx(max(0.0, float(values[1]) - float(values[0])), abs=2e-4)
        assert 0 < int(visits) <= 400
        assert (row[3] == played) == (row[4] != "*")
    same = sum(row[3] == row[2] for row in rows)
    assert out[-1].startswith(f"seat {seat}: {len(rows)} decisions, {same} the bot's choice")


@pytest.mark.parametrize("argv, reason", [
    (["--position", mid_game().to_text(), "--searchmoves=zz"], "--searchmoves: 'zz' is not a legal decision"),
    (["--view", mid_game().view_text(0)], "--view: seat 0 is not to move (seat 1 is)"),
    (["--view", "classic nonsense"], "--view: view field 2"),
    (["--game", "1", "--db", "/nonexistent.sqlite"], "no database /nonexistent.sqlite"),
    (["--position", mid_game().to_text(), "--multipv", "0"], "--multipv must be at least 1"),
    (["--position", mid_game().to_text(), "--iterations", "0"], "--iterations must be at least 1"),
    (["--position", mid_game().to_text(), "--review"], "--review needs --game"),
    (["--position", mid_game().to_text(), "--searchmoves=,"], "--searchmoves: no decision given"),
])
def test_bad_arguments_get_one_clear_error(argv, reason, capsys):
    assert main(["analyse", *argv]) == 2
    assert reason in capsys.readouterr().err


@pytest.mark.parametrize("argv, reason", [
    (["--review", "--seat", "2"], "--seat: game 1 has seats 0..1, got 2"),
    (["--ply", "-1"], "--ply: game 1 has decisions 0.."),
])
def test_bad_arguments_about_a_recorded_game(recorded, argv, reason, capsys):
    db, game = recorded
    assert main(["analyse", "--db", str(db), "--game", str(game.id), "--bot", "greedy", *argv]) == 2
    captured = capsys.readouterr()
    assert reason in captured.err and "Traceback" not in captured.err


def test_a_bot_that_does_not_answer_is_stopped_then_named(monkeypatch, capsys):
    import time

    import arena.review

    monkeypatch.setattr(arena.review, "MOVETIME_GRACE_S", 0.2)
    monkeypatch.setattr(arena.review, "AFTER_STOP_S", 0.2)
    hang = f"cmd={shlex.join([sys.executable, str(BOTS / 'hang.py')])}"
    started = time.perf_counter()
    assert main(["analyse", "--position", mid_game().to_text(), "--movetime", "50", "--brief", "--bot", hang]) == 2
    assert time.perf_counter() - started < 10
    assert "hang gave no bestmove within 0.2 s, nor 0.2 s after stop" in capsys.readouterr().err


def test_an_illegal_answer_is_an_error_not_the_bots_choice(recorded, capsys):
    illegal = f"cmd={shlex.join([sys.executable, str(BOTS / 'illegal.py')])}"
    assert main(["analyse", "--position", mid_game().to_text(), "--movetime", "50", "--brief", "--bot", illegal]) == 2
    err = capsys.readouterr().err
    assert "illegal answered" in err and "not a legal decision here (legal: " in err
    db, game = recorded
    assert main(["analyse", "--db", str(db), "--game", str(game.id), "--review", "--bot", illegal]) == 2
    assert "not a legal decision here" in capsys.readouterr().err
