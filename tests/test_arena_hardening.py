"""A hostile bot against the arena: it cannot see the deal it plays, fill the disk through its
stderr, nor (with a second arena or a damaged file) break the results database."""
from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from arena.config import TournamentConfig, builtin_bot
from arena.landlock import landlock_abi
from arena.record import GameRecord
from arena.store import DamagedDatabaseError, Store, TournamentBusyError
from expeditions.cli import main
from protocol.local import child_env, expeditions_argv
from protocol.stderr import StderrLog

BOTS = Path(__file__).parent / "bot_scripts"
LANDLOCK = pytest.mark.skipif(landlock_abi() == 0, reason="this kernel offers no Landlock")


def one_error_line(capsys, argv: list[str]) -> str:
    """Runs the command, which must fail with exit code 2 and one line of error (no traceback)."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert "Traceback" not in captured.err and len(lines) == 1, captured.err
    return lines[0]


# ----- 1. the deal out of reach ------------------------------------------------------------------

def hostile_lines(logs: Path) -> list[str]:
    return [line for log in sorted(logs.glob("*.log")) for line in log.read_text(errors="replace").splitlines()
            if line.startswith("hostile:")]


@pytest.mark.parametrize("sandbox", ["folder", pytest.param("landlock", marks=LANDLOCK)])
def test_a_hostile_bot_never_finds_the_deal_it_plays(tmp_path, capsys, monkeypatch, sandbox):
    """Two hostile bots and a third play duplicate deals one game at a time; before every decision
    each looks in the database for the deal it is playing, in the other's folder for its secret,
    writes beside the database and signals the arena. The deal is never there to be found
    (its games are recorded once all are over); under Landlock nothing else works either."""
    db, logs = tmp_path / "results" / "t.sqlite", tmp_path / "logs"
    db.parent.mkdir()
    monkeypatch.setenv("HOSTILE_DATABASE", str(db))
    hostile = f"cmd={sys.executable} {BOTS / 'hostile.py'}"
    assert main(["arena", "--bot", "name=h1", hostile, "--bot", "name=h2", hostile, "--bot", "greedy",
                 "-o", "rounds=1", "--deals", "3", "-j", "1", "--movetime", "2000", "--db", str(db),
                 "--log-dir", str(logs), "--sandbox", sandbox, "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "finished; 18 of 18" in out
    lines = hostile_lines(logs)
    assert len(lines) > 100  # it spied before each of its decisions
    assert not [line for line in lines if "LEAK: a recorded game" in line]
    if sandbox == "folder":
        assert "without an OS sandbox" in out
        # Not vacuous: it did read the database, and found the deals that were over.
        assert any(line.startswith("hostile: database read:") and not line.endswith(" 0 games") for line in lines)
    else:
        assert "confined by Landlock" in out
        assert not [line for line in lines if "LEAK" in line or "database read" in line], lines
        assert {line.split(" (")[0] for line in lines} == {
            "hostile: database refused", "hostile: write beside the database refused",
            "hostile: signal to the arena refused"}
        assert not list(db.parent.glob("planted-*"))


def test_the_database_beside_a_bot_is_refused_under_landlock(tmp_path, capsys):
    if landlock_abi() == 0:
        pytest.skip("this kernel offers no Landlock")
    bot = tmp_path / "mybot.py"
    bot.write_text((BOTS / "minimal.py").read_text())
    line = one_error_line(capsys, ["arena", "--bot", "name=mybot", f"cmd={sys.executable} {bot}", "--bot", "greedy",
                                   "--db", str(tmp_path / "t.sqlite"), "--sandbox", "landlock"])
    assert f"bot mybot could read the results database {tmp_path / 't.sqlite'}: it lies in {tmp_path}" in line
    assert not (tmp_path / "t.sqlite").exists()


def test_landlock_asked_for_where_the_kernel_has_none(tmp_path, capsys, monkeypatch):
    import arena.sandbox

    monkeypatch.setattr(arena.sandbox, "landlock_abi", lambda: 0)
    line = one_error_line(capsys, ["arena", "--bot", "greedy", "--bot", "random", "--db", str(tmp_path / "t.sqlite"),
                                   "--sandbox", "landlock"])
    assert "this kernel offers no Landlock" in line and "--sandbox folder" in line
    assert not (tmp_path / "t.sqlite").exists()


# ----- 2. bounded logs -------------------------------------------------------------------------

def test_a_log_keeps_its_limit_per_section_and_says_what_it_discarded(tmp_path):
    log = StderrLog(tmp_path / "bot.log", limit=10)
    log.feed(b"before the first game\n")
    log.section("game 0")
    log.feed(b"12345")
    log.feed(b"6789012345")
    log.section("game 1")
    log.feed(b"short\n")
    log.close()
    text = (tmp_path / "bot.log").read_text()
    assert text == ("before the\n[arena: log truncated: the bot wrote more than 10 bytes here; the rest is discarded]\n"
                    "[arena: 12 bytes discarded]\n"
                    "[arena: game 0]\n1234567890\n"
                    "[arena: log truncated: the bot wrote more than 10 bytes here; the rest is discarded]\n"
                    "[arena: 5 bytes discarded]\n"
                    "[arena: game 1]\nshort\n")
    assert log.tail(2) == "before the first game\n123456789012345short"  # the tail keeps all, unbounded by sections


def test_a_bot_flooding_its_stderr_plays_on_and_its_log_stays_small(tmp_path, capsys):
    """4 MiB of stderr before each of its decisions: read as it comes (the bot never blocks, so
    never times out), kept to --log-limit KiB a game."""
    logs = tmp_path / "logs"
    assert main(["arena", "--bot", "name=noisy", f"cmd={sys.executable} {BOTS / 'noisy.py'}", "--bot", "greedy", "-o", "rounds=1",
                 "--deals", "2", "-j", "2", "--movetime", "5000", "--db", str(tmp_path / "t.sqlite"),
                 "--log-dir", str(logs), "--log-limit", "64", "--quiet"]) == 0
    assert "finished; 4 of 4" in capsys.readouterr().out
    with sqlite3.connect(tmp_path / "t.sqlite") as con:
        assert {r[0] for r in con.execute("SELECT termination FROM game")} == {"normal"}
    noisy = sorted(logs.glob("noisy-*.log"))
    assert noisy
    for log in noisy:
        text = log.read_text()
        games = text.count("[arena: game ")
        assert games >= 1 and "log truncated" in text and "bytes discarded]" in text
        assert log.stat().st_size <= games * (64 * 1024 + 400)  # the limit and the arena's notes


# ----- 3. two arenas, one tournament -----------------------------------------------------------

def small_tournament(db: Path, deals: int = 2) -> int:
    config = TournamentConfig("classic", [builtin_bot("greedy"), builtin_bot("random")], {"rounds": 1}, deals=deals,
                              seed=5, concurrency=2)
    config.validate()
    store = Store(db)
    try:
        from arena.tournament import Tournament
        return Tournament(config, store).id
    finally:
        store.close()


def test_a_tournament_being_played_is_refused_with_one_line(tmp_path, capsys):
    db = tmp_path / "t.sqlite"
    tid = small_tournament(db)
    other = Store(db)
    other.claim(tid)  # another arena plays it (a lock of another open file: held even in this process)
    line = one_error_line(capsys, ["arena", "--resume", "--db", str(db), "--quiet"])
    assert f"tournament {tid} of {db} is being played by another arena (pid " in line
    assert "one arena plays a tournament at a time" in line
    with pytest.raises(TournamentBusyError):
        Store(db).claim(tid)
    other.release(tid)
    assert main(["arena", "--resume", "--db", str(db), "--quiet"]) == 0
    assert "finished; 4 of 4" in capsys.readouterr().out
    other.close()


def test_two_arenas_resuming_at_once_never_play_a_game_twice(tmp_path):
    db = tmp_path / "t.sqlite"
    small_tournament(db, deals=6)
    argv = [*expeditions_argv("arena"), "--resume", "--db", str(db), "--quiet"]
    runs = [subprocess.Popen(argv, env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)]
    results = [(run.wait(300), *run.communicate()) for run in runs]
    for code, out, err in results:
        assert "Traceback" not in err
        # each either played (all that was left) or was refused in one line
        assert code == 0 or (code == 2 and err.strip().splitlines() == [
            line for line in err.strip().splitlines() if "is being played by another arena" in line]), err
    assert any(code == 0 for code, _, _ in results)
    with sqlite3.connect(db) as con:
        assert sorted(r[0] for r in con.execute("SELECT plan_index FROM game")) == list(range(12))


# ----- 4. a damaged database -------------------------------------------------------------------

def damaged(db: Path, how: str) -> bytes:
    """A results database of 300 recorded games, then damaged; returns its bytes."""
    import engine

    store = Store(db)
    tid = store.create_tournament(TournamentConfig("classic", [builtin_bot("greedy"), builtin_bot("random")],
                                                   {"rounds": 1}, deals=150), 300)
    records = []
    for index in range(300):
        start = engine.new_game("classic", seed=index // 2, rounds=1).to_text()
        records.append(GameRecord(index, 0, index // 2, index % 2, "classic", {"rounds": 1}, index // 2,
                                  ["greedy", "random"], [0, 0], [0.5, 0.5], initial_position=start,
                                  final_position=start))
    store.record_games(tid, records)
    store.close()
    data = db.read_bytes()
    if how == "truncated":
        db.write_bytes(data[:len(data) // 2])
    else:  # every page after the first few overwritten
        db.write_bytes(data[:4 * 4096] + bytes(range(256)) * ((len(data) - 4 * 4096) // 256))
    return db.read_bytes()


@pytest.mark.parametrize("how", ["truncated", "corrupted"])
@pytest.mark.parametrize("command", [
    ["replay", "--game", "1"], ["export"], ["arena", "--resume"], ["analyse", "--game", "1", "--bot", "greedy"],
    ["arena", "--bot", "greedy", "--bot", "random"],
], ids=["replay", "export", "arena-resume", "analyse", "arena-new"])
def test_a_damaged_database_is_named_and_left_as_it_is(tmp_path, capsys, how, command):
    db = tmp_path / "t.sqlite"
    before = damaged(db, how)
    line = one_error_line(capsys, [*command, "--db", str(db)])
    assert f"{db} is damaged (" in line and "writes nothing into it" in line
    assert hashlib.sha256(db.read_bytes()).digest() == hashlib.sha256(before).digest()


def test_damage_found_while_reading_stops_every_later_write(tmp_path):
    db = tmp_path / "t.sqlite"
    store = Store(db)
    tid = store.create_tournament(TournamentConfig("classic", [builtin_bot("greedy"), builtin_bot("random")]), 2)
    store._db.execute("UPDATE tournament SET config = 'not json'")  # a row that does not read back
    with pytest.raises(DamagedDatabaseError, match="is damaged"):
        store.tournament(tid)
    with pytest.raises(DamagedDatabaseError, match="writes nothing into it"):
        store.set_status(tid, "finished")
    assert store._db.execute("SELECT status FROM tournament").fetchone()[0] == "running"
