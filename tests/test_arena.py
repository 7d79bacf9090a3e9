"""Tournaments with real bot processes: results, adjudication, resume, safety, the cluster."""
from __future__ import annotations

import json
import os
import shlex
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from arena import runner
from arena.config import BotSpec, TimeControl, TournamentConfig, builtin_bot
from arena.record import GameRecord
from arena.runner import LocalRunner, ProcessRunner
from arena.standings import standings
from arena.store import Store
from arena.tournament import Tournament
from protocol.local import child_env, expeditions_argv

BOTS = Path(__file__).parent / "bot_scripts"


def broken(name: str) -> BotSpec:
    return BotSpec(name, [sys.executable, str(BOTS / f"{name}.py")])


def run_local(config: TournamentConfig, db: Path, mode: str = "threads") -> tuple[Tournament, object]:
    store = Store(db)
    tournament = Tournament(config, store)
    if mode == "threads":
        runner = LocalRunner(config.bots, config.limits, config.concurrency)
    else:
        runner = ProcessRunner(config.bots, config.limits, config.concurrency, pin_cpus=mode == "pinned")
    try:
        outcome = tournament.run(runner)
    finally:
        runner.close()
    return tournament, outcome


def marked_processes(mark: str) -> list[int]:
    """Pids of live (not zombie) processes whose environment carries `mark`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if mark.encode() in (entry / "environ").read_bytes():
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if state != "Z":
                    found.append(int(entry.name))
        except OSError:
            continue
    return found


def children_of(pid: int) -> list[int]:
    """Child processes of `pid`, but for multiprocessing's resource tracker (one per interpreter
    that started worker processes, alive until the interpreter exits: not a leak)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if int(stat[1]) == pid and b"resource_tracker" not in command:
                out.append(int(entry.name))
    return out


def wait_for(predicate, timeout: float = 20.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def test_tournament_records_every_game_and_ranks_greedy_first(tmp_path):
    config = TournamentConfig("classic", [builtin_bot("random"), builtin_bot("greedy")], options={"rounds": 1},
                              deals=4, seed=5, concurrency=2, time=TimeControl(movetime_ms=200))
    tournament, outcome = run_local(config, tmp_path / "t.sqlite")
    assert outcome.status == "finished" and len(outcome.games) == 8
    games = Store(tmp_path / "t.sqlite").games(outcome.tournament, with_decisions=True)
    assert sorted(g.index for g in games) == list(range(8))
    assert all(g.termination == "normal" and g.decisions for g in games)
    # every deal was played with the seats swapped
    for deal in range(4):
        pair = [g for g in games if g.deal == deal]
        assert [g.seat_bots for g in pair] == [["random", "greedy"], ["greedy", "random"]]
        assert pair[0].seed == pair[1].seed
    table = standings(games, tournament.sides)
    assert table.rows[0].name == "greedy"
    assert children_of(os.getpid()) == []          # every bot process was reaped


@pytest.mark.parametrize("mode", ["threads", "processes", "pinned"])
def test_misbehaving_bots_lose_with_the_right_reason(tmp_path, mode):
    bots = [builtin_bot("random"), broken("crash"), broken("hang"), broken("garbage"), broken("illegal")]
    config = TournamentConfig("classic", bots, options={"rounds": 1}, format="gauntlet", deals=3, seed=9,
                              concurrency=2, time=TimeControl(movetime_ms=50, margin_ms=150), max_failures=3)
    _, outcome = run_local(config, tmp_path / "t.sqlite", mode)
    assert len(outcome.games) == 24 and outcome.status == "finished"
    expected = {"crash": "crash", "hang": "timeout", "garbage": "malformed", "illegal": "illegal"}
    for g in outcome.games:
        bad = next(name for name in g.seat_bots if name != "random")
        failed = g.seat_bots[g.failed_seat]
        assert failed == bad, g
        assert g.termination in (expected[bad], "dropped"), (bad, g.termination, g.reason)
        assert g.returns[g.failed_seat] == 0.0 and g.returns[1 - g.failed_seat] == 1.0
        assert g.reason
    # three failures in a row drop a bot: its later games are lost without being played
    assert {g.seat_bots[g.failed_seat] for g in outcome.games if g.termination == "dropped"} == set(expected)
    assert children_of(os.getpid()) == []


def test_sprt_stops_early(tmp_path):
    config = TournamentConfig("classic", [builtin_bot("greedy"), builtin_bot("random")], options={"rounds": 1},
                              deals=50, seed=3, concurrency=2, time=TimeControl(movetime_ms=200))
    from arena.sprt import Sprt
    config.sprt = Sprt(0, 50)
    db = tmp_path / "t.sqlite"
    _, outcome = run_local(config, db)
    assert outcome.sprt == "H1" and outcome.status == "stopped: SPRT accepted H1"
    played = len(outcome.games) - outcome.unkept  # the games of deals left unfinished are not kept
    assert played < 100 and played % 2 == 0  # whole deals (pairs) only

    def resume() -> object:
        store = Store(db)
        runner = LocalRunner(config.bots, config.limits, config.concurrency)
        try:
            return Tournament(config, store, outcome.tournament).run(runner)
        finally:
            runner.close()

    # Resumed, it stays stopped: not one more game (it used to play one per slot, 41 -> 43).
    again = resume()
    assert (len(again.games), again.status, again.sprt) == (played, outcome.status, "H1")
    assert len(Store(db).games(outcome.tournament)) == played
    # Stopped by a crash after the deciding game was written, before the status: the games decide.
    Store(db).set_status(outcome.tournament, "running")
    again = resume()
    assert (len(again.games), again.status) == (played, outcome.status)


KILLED_DEALS = 100
"""Deals of the tournament a test kills: enough that the kill lands while it plays (these bots
finish a game in milliseconds)."""


def _arena(db: Path, mark: str, *extra: str) -> subprocess.Popen:
    env = child_env()
    env["EXPEDITIONS_TEST_MARK"] = mark
    return subprocess.Popen([*expeditions_argv("arena"), "--db", str(db), "--bot", "greedy",
                             "--bot", "random", "-o", "rounds=1", "--deals", str(KILLED_DEALS), "--seed", "77", "-j", "2",
                             "--movetime", "300", "--quiet", *extra],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            # Ctrl-C must reach it as it would from a terminal, even when this test
                            # runs with SIGINT ignored (a background job of a script inherits that).
                            preexec_fn=_default_sigint)


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _games(db: Path) -> list[int]:
    try:
        with sqlite3.connect(db) as con:
            return [r[0] for r in con.execute("SELECT plan_index FROM game")]
    except sqlite3.OperationalError:   # the arena has not created its tables yet
        return []


@pytest.mark.parametrize("extra", [(), ("--processes", "--pin")], ids=["threads", "processes"])
def test_killed_arena_leaves_no_bots_and_resume_completes(tmp_path, extra):
    db, mark = tmp_path / "t.sqlite", uuid.uuid4().hex
    arena = _arena(db, mark, *extra)
    assert wait_for(lambda: db.exists() and len(_games(db)) >= 3), arena.stderr.read() if arena.poll() else ""
    assert marked_processes(mark)                  # bots are running
    arena.kill()                                   # SIGKILL: no chance to clean up
    arena.wait()
    assert wait_for(lambda: not marked_processes(mark), 10), "bots outlived a killed arena"
    done_before = len(_games(db))
    resumed = subprocess.run([*expeditions_argv("arena"), "--db", str(db), "--resume", "--quiet"],
                             env=child_env(), capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    games = _games(db)
    assert sorted(games) == list(range(2 * KILLED_DEALS))  # exactly the plan: nothing replayed twice
    assert done_before < 2 * KILLED_DEALS
    assert f"finished; {2 * KILLED_DEALS} of {2 * KILLED_DEALS}" in resumed.stdout


@pytest.mark.parametrize("command", [
    ["arena", "--resume"], ["export"], ["replay", "--game", "1"], ["analyse", "--game", "1", "--bot", "greedy"],
], ids=["arena-resume", "export", "replay", "analyse"])
def test_commands_that_read_a_database_never_create_one(tmp_path, capsys, command):
    from expeditions.cli import main

    db = tmp_path / "missing.sqlite"
    assert main([*command, "--db", str(db)]) == 2
    assert capsys.readouterr().err.strip().endswith(f"error: no database {db}")
    assert not db.exists()


@pytest.mark.parametrize("extra", [(), ("--processes",)], ids=["threads", "processes"])
def test_interrupted_arena_stops_cleanly(tmp_path, extra):
    db, mark = tmp_path / "t.sqlite", uuid.uuid4().hex
    arena = _arena(db, mark, *extra)
    assert wait_for(lambda: db.exists() and len(_games(db)) >= 2)
    arena.send_signal(signal.SIGINT)
    _, err = arena.communicate(timeout=30)
    assert arena.returncode == 130, err
    assert "--resume" in err
    assert wait_for(lambda: not marked_processes(mark), 10)
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT status FROM tournament").fetchone()[0] == "interrupted"


def test_a_worker_ends_its_game_on_sigterm_but_not_its_queue_traffic(monkeypatch):
    # Outside a game the worker is idle or in the executor's queues; SIGTERM must not interrupt those.
    assert runner._stop_game(signal.SIGTERM, None) is None
    monkeypatch.setattr(runner, "_worker_playing", True)
    with pytest.raises(SystemExit):
        runner._stop_game(signal.SIGTERM, None)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_tournament_on_a_dask_cluster(tmp_path):
    pytest.importorskip("distributed")
    port, mark = _free_port(), uuid.uuid4().hex
    env = child_env()
    env["EXPEDITIONS_TEST_MARK"] = mark
    address = f"tcp://127.0.0.1:{port}"
    # -P: the workers import our packages; never from the working directory (an unbuilt source tree)
    procs = [subprocess.Popen([sys.executable, "-P", "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                               "--port", str(port), "--no-dashboard"], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)]
    try:
        for name in ("w1", "w2"):
            procs.append(subprocess.Popen([sys.executable, "-P", "-m", "distributed.cli.dask_worker", address,
                                           "--nthreads", "1", "--no-dashboard", "--name", name],
                                          env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        from distributed import Client
        with Client(address, timeout=30) as client:
            client.wait_for_workers(2, timeout=60)
        db = tmp_path / "t.sqlite"
        result = subprocess.run([*expeditions_argv("arena"), "--db", str(db), "--bot", "greedy",
                                 "--bot", "random", "-o", "rounds=1", "--deals", "4", "--seed", "1",
                                 "--movetime", "300", "--scheduler", address, "--quiet"],
                                env=child_env(), capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr
        with sqlite3.connect(db) as con:
            workers = [r[0] for r in con.execute("SELECT worker FROM game")]
        assert len(workers) == 8 and len(set(workers)) == 2
        assert "finished; 8 of 8" in result.stdout
    finally:
        for proc in procs[::-1]:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    assert wait_for(lambda: not marked_processes(mark), 20), "processes left after the cluster stopped"


def test_command_line_file_plot_export_and_replay(tmp_path):
    """A tournament file with a repeated bot on a 4-player board game, then the other commands."""
    toml = tmp_path / "t.toml"
    toml.write_text(f'''
edition = "board"
players = 4
deals = 1
seed = 21
concurrency = 2
[options]
rounds = 1
[time]
movetime = 500
[[bots]]
name = "greedy"
command = {json.dumps(expeditions_argv("bot", "greedy"))}
[[bots]]
name = "greedy"
command = {json.dumps(expeditions_argv("bot", "greedy"))}
[[bots]]
name = "random"
command = {json.dumps(expeditions_argv("bot", "random"))}
[[bots]]
name = "random"
command = {json.dumps(expeditions_argv("bot", "random"))}
''')
    db, png, jsonl = tmp_path / "t.sqlite", tmp_path / "r.png", tmp_path / "g.jsonl"
    run = subprocess.run([*expeditions_argv("arena"), str(toml), "--db", str(db), "--plot", str(png),
                          "--export", str(jsonl), "--quiet"], env=child_env(), capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr
    assert "greedy#2" in run.stdout and "random#2" in run.stdout and "μ" in run.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    lines = jsonl.read_text().splitlines()
    assert len(lines) == 4                          # one deal, four rotations of four sides
    first = json.loads(lines[0])
    assert first["edition"] == "board" and len(first["seat_bots"]) == 4 and first["decisions"]
    replay = subprocess.run([*expeditions_argv("replay"), "--db", str(db), "--game", str(first["id"])],
                            env=child_env(), capture_output=True, text=True, timeout=120)
    assert replay.returncode == 0, replay.stderr
    assert "ended normally" in replay.stdout and "seat 3" in replay.stdout
    export = subprocess.run([*expeditions_argv("export"), "--db", str(db)], env=child_env(), capture_output=True,
                            text=True, timeout=120)
    assert export.stdout.splitlines() == lines
    missing = subprocess.run([*expeditions_argv("replay"), "--db", str(db), "--game", "999"], env=child_env(),
                             capture_output=True, text=True, timeout=120)
    assert missing.returncode == 2 and "no game 999" in missing.stderr


def test_processes_and_threads_benchmark_report_both_rates():
    from arena.benchmark import arena_benchmark
    figures = arena_benchmark("classic", seconds=0.3, concurrency=2)
    assert figures["arena_games_per_s"] > 0 and figures["threads_games_per_s"] > 0
    assert figures["processes"] == figures["threads"] == 2 and figures["processes_over_threads"] > 0
    assert children_of(os.getpid()) == []


def test_pin_needs_processes(tmp_path):
    run = subprocess.run([*expeditions_argv("arena"), "--db", str(tmp_path / "t.sqlite"), "--pin", "--quiet"],
                         env=child_env(), capture_output=True, text=True, timeout=60)
    assert run.returncode != 0 and "--pin needs --processes" in run.stderr


def test_games_on_a_clock(tmp_path):
    # per-game clocks with increment: normal games, and a bot that never answers loses on time
    bots = [builtin_bot("random"), builtin_bot("greedy"), broken("hang")]
    config = TournamentConfig("classic", bots, options={"rounds": 1}, format="gauntlet", deals=1, seed=4,
                              concurrency=2, time=TimeControl(clock_ms=150, increment_ms=5, margin_ms=50))
    _, outcome = run_local(config, tmp_path / "t.sqlite")
    assert len(outcome.games) == 4
    for g in outcome.games:
        if "hang" in g.seat_bots:
            assert g.termination == "timeout" and g.seat_bots[g.failed_seat] == "hang"
            assert g.reason == "no decision within 150 ms + 50 ms margin"
        else:
            assert g.termination == "normal" and len(g.decisions) > 40


def test_every_decision_keeps_what_the_bot_said_of_it(tmp_path):
    """The searcher's last `info value` and `iterations` go with each of its decisions into the
    database, the export and the replay; a bot that says nothing (greedy) records none."""
    config = TournamentConfig("classic", [builtin_bot("ismcts"), builtin_bot("greedy")],
                              options={"rounds": 1}, deals=1, seed=8, concurrency=1,
                              time=TimeControl(movetime_ms=30, margin_ms=2000))
    _, outcome = run_local(config, tmp_path / "t.sqlite")
    store = Store(tmp_path / "t.sqlite")
    game = store.games(outcome.tournament, with_decisions=True)[0]
    searcher = game.seat_bots.index("ismcts")
    searched = [d for d in game.decisions if d.seat == searcher and d.iterations is not None]
    assert len(searched) > 10
    assert all(0.0 <= d.value <= 1.0 and d.iterations >= 1 for d in searched)
    assert all(d.value is None and d.iterations is None for d in game.decisions if d.seat != searcher)
    from arena.replay import replay_lines
    text = "\n".join(replay_lines(store.game(game.id), pictures=False))
    assert f"{searched[0].value:.2f} {searched[0].iterations}it " in text
    assert json.loads(json.dumps(game.to_dict()))["decisions"][game.decisions.index(searched[0])]["value"] \
        == searched[0].value


def test_a_database_of_an_earlier_version_gains_the_new_columns(tmp_path):
    from arena.store import SCHEMA
    path = tmp_path / "old.sqlite"
    old = sqlite3.connect(path)
    old.executescript(SCHEMA.replace("    value REAL,\n    iterations INTEGER,\n", ""))
    assert {row[1] for row in old.execute("PRAGMA table_info(decision)")} == {"game", "ply", "seat", "decision",
                                                                               "time_ms"}
    old.execute("INSERT INTO tournament (created, config, planned) VALUES ('now', '{}', 1)")
    old.execute("INSERT INTO game (tournament, plan_index, grp, deal, rotation, edition, options, seed, seat_bots, "
                "scores, returns, termination, reason, initial_position, final_position, started, finished, worker) "
                "VALUES (1, 0, 0, 0, 0, 'classic', '{}', '1', '[]', '[]', '[]', 'normal', '', '', '', '', '', '')")
    old.execute("INSERT INTO decision (game, ply, seat, decision, time_ms) VALUES (1, 0, 0, '+b7', 1.5)")
    old.commit()
    old.close()
    store = Store(path)
    assert [tuple(d) for d in store.decisions(1)] == [(0, "+b7", 1.5, None, None)]
    Store(path)  # opening it again adds nothing twice


def test_a_ctrl_c_right_after_a_games_commit_keeps_the_game_and_stays_a_ctrl_c(tmp_path):
    """The interrupt that lands between SQLite's COMMIT and the next line must not turn into a
    'cannot rollback' error: the game is recorded, and the interrupt goes on up."""
    store = Store(tmp_path / "t.sqlite")
    config = TournamentConfig("classic", [builtin_bot("random"), builtin_bot("greedy")], options={"rounds": 1},
                              deals=1, seed=1)
    tid = store.create_tournament(config, 2)
    real = store._db

    class InterruptAfterCommit:  # the connection, but a Ctrl-C arrives as COMMIT returns
        def execute(self, sql, *args):
            out = real.execute(sql, *args)
            if sql == "COMMIT":
                raise KeyboardInterrupt
            return out

        def __getattr__(self, name):
            return getattr(real, name)

    store._db = InterruptAfterCommit()
    game = GameRecord(0, 0, 0, 0, "classic", {"rounds": 1}, 1, ["random", "greedy"], [10, -5], [1.0, 0.0])
    with pytest.raises(KeyboardInterrupt):
        store.record_game(tid, game)
    store._db = real
    assert [g.index for g in store.games(tid)] == [0]


def _positions_file(path: Path, edition: str = "classic", players: int | None = None, turns: int = 6,
                    **options: int) -> list[str]:
    """Two positions some random decisions into their deals, a comment and a blank line between."""
    import random as _random

    import engine
    rng = _random.Random(3)
    positions = []
    for seed in (21, 22):
        state = engine.new_game(edition, seed=seed, players=players, **options)
        for _ in range(turns):
            state.apply(rng.choice(state.legal()))
        positions.append(state.to_text())
    path.write_text(f"# start positions\n{positions[0]}\n\n{positions[1]}\n")
    return positions


def test_deals_start_from_the_positions_of_a_file_and_resume_from_the_database(tmp_path, capsys):
    """Each position is a deal, played once per seat rotation from that very position; the
    positions are part of the stored tournament, so a resumed one plays the same."""
    from expeditions.cli import main

    positions = _positions_file(tmp_path / "deals.txt", players=None, rounds=1)
    db = tmp_path / "t.sqlite"
    assert main(["arena", "--positions", str(tmp_path / "deals.txt"), "--bot", "greedy", "--bot", "random",
                 "--db", str(db), "--movetime", "200", "-j", "2", "-q"]) == 0
    assert "deals=2 (start positions) games=4" in capsys.readouterr().out  # the file's edition and rules, a deal a position
    store = Store(db)
    _, config, planned, _ = store.tournament()
    assert config.positions == positions and config.options["rounds"] == 1 and planned == 4
    games = store.games(1, with_decisions=True)
    assert sorted((g.deal, g.rotation) for g in games) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert all(g.initial_position == positions[g.deal] and g.termination == "normal" for g in games)
    from arena.replay import replay_lines
    assert all(list(replay_lines(g, pictures=False))[-1].startswith("ended normally") for g in games)
    assert list(replay_lines(games[0], pictures=False))[0].endswith("  from a given start position")
    # A tournament cut short resumes with the stored positions (no file needed any more).
    (tmp_path / "deals.txt").unlink()
    with sqlite3.connect(db) as con:
        con.execute("DELETE FROM decision WHERE game IN (SELECT id FROM game WHERE deal = 1)")
        con.execute("DELETE FROM game WHERE deal = 1")
    assert main(["arena", "--resume", "--db", str(db), "-q"]) == 0
    again = Store(db).games(1)
    assert len(again) == 4 and all(g.initial_position == positions[g.deal] for g in again)


def test_positions_that_do_not_fit_the_tournament_are_named(tmp_path, capsys):
    from arena.config import read_positions
    from expeditions.cli import main

    path = tmp_path / "deals.txt"
    _positions_file(path, rounds=1)
    db = str(tmp_path / "t.sqlite")

    def error(*flags: str) -> str:
        assert main(["arena", "--bot", "greedy", "--bot", "random", "--db", db, *flags]) == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err and len(err.strip().splitlines()) == 1
        return err

    assert "position 1 is a game of classic max_turns=300 rounds=1 players=2; the tournament plays classic " \
           "max_turns=300 rounds=3 players=2" in error("--positions", str(path), "-o", "rounds=3")
    assert "deals 3: the positions give only 2" in error("--positions", str(path), "--deals", "3")
    board = tmp_path / "board.txt"
    _positions_file(board, "board", players=3)
    assert "position 1 is a game of board" in error("--positions", str(board), "-e", "classic")
    assert "position 1 is a game of board max_turns=300 rounds=3 updown=0 players=3; the tournament plays board " \
           "max_turns=300 rounds=3 updown=0 players=4" in error("--positions", str(board), "--players", "4")
    bad = tmp_path / "bad.txt"
    bad.write_text("# one good, one not\n" + path.read_text().splitlines()[1] + "\nclassic rounds=x\n")
    assert f"--positions {bad} line 3: " in error("--positions", str(bad))
    (tmp_path / "empty.txt").write_text("# nothing\n\n")
    assert "no positions" in error("--positions", str(tmp_path / "empty.txt"))
    assert "cannot read positions" in error("--positions", str(tmp_path / "missing.txt"))
    import engine
    over = engine.new_game("classic", seed=1, rounds=1)
    while not over.is_terminal():
        over.apply(over.legal()[0])
    (tmp_path / "over.txt").write_text(over.to_text() + "\n")
    assert "position 1 is a finished game" in error("--positions", str(tmp_path / "over.txt"))
    assert not Path(db).exists()  # nothing was stored
    # Only --deals N of them are checked and played: the first N.
    assert read_positions(path)[:1] == [path.read_text().splitlines()[1]]
    # A tournament file names the positions relative to itself, and they say what game it is.
    toml = tmp_path / "t.toml"
    toml.write_text('positions = "board.txt"\n[[bots]]\ncommand = "x"\n[[bots]]\ncommand = "y"\n[[bots]]\ncommand = "z"\n')
    config = TournamentConfig.from_toml(toml)
    config.validate()
    assert (config.edition, config.players, config.deals) == ("board", 3, 2)


def test_bots_with_time_controls_of_their_own(tmp_path, capsys):
    """Time odds: each bot is sent its own movetime (the recorded times follow it), the stored
    tournament keeps them for --resume, and a bot on a clock among bots on a movetime is refused.

    What each bot was sent is read from what it said: the bots echo their movetime as their search
    size, which the arena records with each decision, and sleep that long. The margin is a minute,
    so that no load on the machine can turn a game into a timeout (a margin of 100 ms did once)."""
    from expeditions.cli import main

    db = tmp_path / "t.sqlite"
    echo = f"cmd={shlex.join([sys.executable, str(BOTS / 'movetime_echo.py')])}"
    assert main(["arena", "--bot", "name=slow", echo, "movetime=250", "--bot", "name=fast", echo,
                 "--movetime", "20", "--margin", "60000", "-o", "rounds=1", "-o", "max_turns=6",
                 "--deals", "1", "--seed", "4", "--db", str(db), "-q"]) == 0
    assert "slow=[" in capsys.readouterr().out
    store = Store(db)
    _, config, _, _ = store.tournament()
    assert config.bots[0].time.movetime_ms == 250 and config.bots[1].time is None
    assert config.seat_time(0).margin_ms == config.time.margin_ms == 60000
    sent: dict[str, set[int]] = {"slow": set(), "fast": set()}
    for game in store.games(1, with_decisions=True):
        assert game.termination == "normal", game.reason
        for d in game.decisions:
            name = game.seat_bots[d.seat]
            sent[name].add(d.iterations)
            if name == "slow":  # it slept its 250 ms: a lower bound no load can break
                assert d.time_ms >= 250, d
    assert sent == {"slow": {250}, "fast": {20}}

    def error(*flags: str) -> str:
        assert main(["arena", "--db", str(tmp_path / "x.sqlite"), *flags]) == 2
        return capsys.readouterr().err

    assert "must be of the tournament's kind" in error("--bot", "greedy", "clock=5000", "--bot", "random",
                                                       "--movetime", "50")
    assert "movetime (ms) must be an integer of at least 1, got 0" in error("--bot", "greedy", "movetime=0",
                                                                           "--bot", "random")
    assert "an increment goes with a clock" in error("--bot", "greedy", "increment=5", "--bot", "random")
    assert "movetime must be a whole number of ms, got 'x'" in error("--bot", "greedy", "movetime=x",
                                                                    "--bot", "random")
    toml = tmp_path / "t.toml"
    toml.write_text('[time]\nclock = 60000\n[[bots]]\ncommand = "x"\nclock = 30000\nincrement = 100\n'
                    '[[bots]]\ncommand = "y"\n')
    config = TournamentConfig.from_toml(toml)
    config.validate()
    assert config.seat_time(0).describe() == "clock 30000 ms + 100 ms" and config.seat_time(1) is config.time
    assert TournamentConfig.from_json(config.to_json()) == config
    # Where one budget serves every bot, a bot's own would be ignored: it is refused.
    from protocol.local import expeditions_argv
    done = subprocess.run(expeditions_argv("play", "--bot", "greedy", "movetime=10", "--no-hints"), input="",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "a time control of its own is for tournaments" in done.stderr
