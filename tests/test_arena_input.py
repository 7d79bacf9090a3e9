"""Bad input to `expeditions arena` — flags, tournament files, outputs, bot commands — gets one
`error:` line naming what is wrong, before any game is played and before anything is written:
no traceback, no results database created, no tournament of forfeits."""
from __future__ import annotations

import sys

import pytest

from arena.config import ResourceLimits, TimeControl, TournamentConfig
from expeditions.cli import main

BOTS = ["--bot", "greedy", "--bot", "random"]


def fails(capsys, argv: list[str]) -> str:
    """Runs the command, which must fail with exit code 2; its one line of error."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and "game" not in captured.out
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("expeditions arena: error: "), captured.err
    return lines[0]


@pytest.mark.parametrize("flags, message", [
    (["--clock", "-5"], "clock (ms) must be an integer of at least 1, got -5"),
    (["--movetime", "0"], "movetime (ms) must be an integer of at least 1, got 0"),
    (["--clock", "1000", "--increment", "-3"], "increment (ms) must be an integer of at least 0, got -3"),
    (["--margin", "-1"], "margin (ms) must be an integer of at least 0, got -1"),
    (["--increment", "50"], "an increment goes with a clock"),
    (["--movetime", "10", "--clock", "100"], "a movetime or a clock, not both"),
    (["--cpu-seconds", "-1"], "cpu_seconds must be an integer of at least 0"),
    (["--memory-mb", "-1"], "memory_mb must be an integer of at least 0"),
    (["--max-failures", "0"], "max_failures must be at least 1, got 0"),
    (["--deals", "0"], "deals and concurrency must be at least 1"),
])
def test_flags_out_of_range(tmp_path, capsys, flags, message):
    db = tmp_path / "a.sqlite"
    assert message in fails(capsys, ["arena", *BOTS, "--db", str(db), *flags])
    assert not db.exists()


@pytest.mark.parametrize("flag", ["--plot", "--export"])
def test_outputs_that_cannot_be_written_are_named_before_playing(tmp_path, capsys, flag):
    db, target = tmp_path / "a.sqlite", tmp_path / "no-such-dir" / "out"
    assert f"{flag} {target}: cannot write there" in fails(capsys, ["arena", *BOTS, "--db", str(db), flag, str(target)])
    assert not db.exists()


def test_log_dir_and_database_that_cannot_be_made(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert f"--log-dir {blocker}/logs" in fails(capsys, ["arena", *BOTS, "--db", str(tmp_path / "a.sqlite"),
                                                       "--log-dir", str(blocker / "logs")])
    # A file that is not a database is named, and left as it was.
    assert f"{blocker}: cannot open as a results database" in fails(capsys, ["arena", *BOTS, "--db", str(blocker)])
    assert blocker.read_text() == "not a directory"


def test_a_bot_that_cannot_be_started_is_named(tmp_path, capsys):
    db = tmp_path / "a.sqlite"
    missing = tmp_path / "nosuchbot"
    assert f"bot nosuchbot: cannot run '{missing}'" in fails(capsys, ["arena", "--bot", f"cmd={missing}", "--bot",
                                                                      "greedy", "--db", str(db)])
    assert not db.exists()


BOT_TABLES = f'''
[[bots]]
command = {[sys.executable, "-m", "x"]!r}
[[bots]]
command = {[sys.executable, "-m", "y"]!r}
'''.replace("'", '"')


@pytest.mark.parametrize("text, message", [
    ('edition = "classic"\n[time]\nmovetme = 100\n' + BOT_TABLES, "unknown keys in [time]: movetme"),
    ('edition = "classic"\n[limits]\nmemory = 5\n' + BOT_TABLES, "unknown keys in [limits]: memory"),
    ('edition = "classic"\n[sprt]\nfoo = 1\n' + BOT_TABLES, "unknown keys in [sprt]: foo"),
    ('edition = "classic"\n[sprt]\nelo0 = 0\n' + BOT_TABLES, "[sprt] needs elo0 and elo1"),
    ('edition = "classic"\nround = 3\n' + BOT_TABLES, "unknown keys in the top level: round"),
    ('edition = "classic"\ndeals = "x"\n' + BOT_TABLES, "deals must be an integer, got 'x'"),
    ('edition = "classic"\noptions = 5\n' + BOT_TABLES, "[options] must be a table, got 5"),
    ('edition = "classic"\n[time]\nclock = "fast"\n' + BOT_TABLES, "clock (ms) must be an integer of at least 1"),
    ('edition = "classic"\nbots = 5\n', "bots must be [[bots]] tables"),
    ('edition = "classic"\n[[bots]]\ncommand = 5\n', "every bot needs a command"),
    ('edition = "classic"\n[[bots]]\ncmd = "x"\n', "unknown keys in [[bots]]: cmd"),
    ('edition = [\n', "not TOML"),
    ('edition = "classic"\n', "no [[bots]] tables"),
])
def test_tournament_files_name_the_key_at_fault(tmp_path, capsys, text, message):
    path = tmp_path / "t.toml"
    path.write_text(text)
    line = fails(capsys, ["arena", str(path), "--db", str(tmp_path / "a.sqlite")])
    assert message in line
    assert not (tmp_path / "a.sqlite").exists()


def test_a_tournament_file_that_is_not_utf8_is_named(tmp_path, capsys):
    path = tmp_path / "t.toml"
    path.write_bytes('edition = "classic"\n# r\u00e9sum\u00e9 in Latin-1\n'.encode("latin-1") + BOT_TABLES.encode())
    line = fails(capsys, ["arena", str(path), "--db", str(tmp_path / "a.sqlite")])
    assert f"{path}: not UTF-8 text" in line
    assert not (tmp_path / "a.sqlite").exists()


def test_an_unknown_sandbox_in_a_file_is_named(tmp_path, capsys):
    path = tmp_path / "t.toml"
    path.write_text('edition = "classic"\n[limits]\nsandbox = "jail"\n' + BOT_TABLES)
    line = fails(capsys, ["arena", str(path), "--db", str(tmp_path / "a.sqlite")])
    assert "limits: sandbox must be one of auto, landlock, folder, got 'jail'" in line


def test_a_well_formed_file_still_reads():
    """The checks above refuse only what is wrong: the documented format reads as before."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.toml"
        # No edition: classic, as on the command line.
        path.write_text('deals = 3\nseed = 5\n[options]\nrounds = 1\n'
                        '[time]\nclock = 60000\nincrement = 100\n[limits]\nmemory_mb = 512\n'
                        '[sprt]\nelo0 = 0\nelo1 = 10\n'
                        '[[bots]]\nname = "a"\ncommand = "prog-a --fast"\noptions = { Hash = 16 }\n'
                        '[[bots]]\ncommand = ["prog-b"]\n')
        config = TournamentConfig.from_toml(path)
    config.validate()
    assert config.edition == "classic"
    assert (config.deals, config.seed, config.options["rounds"]) == (3, 5, 1)
    assert config.time == TimeControl(clock_ms=60000, increment_ms=100)
    assert config.limits == ResourceLimits(memory_mb=512)
    assert [(b.name, b.command, b.options) for b in config.bots] == [
        ("a", ["prog-a", "--fast"], {"Hash": "16"}), ("prog-b", ["prog-b"], {})]


def test_export_to_a_file_that_cannot_be_made(tmp_path, capsys):
    from arena.store import Store

    db = tmp_path / "a.sqlite"
    Store(db).create_tournament(TournamentConfig("classic", []), 0)
    target = tmp_path / "no-such-dir" / "g.jsonl"
    assert main(["export", "--db", str(db), "--out", str(target)]) == 2
    assert f"--out {target}: No such file or directory" in capsys.readouterr().err


def test_a_cluster_that_cannot_be_reached_is_named_before_a_tournament_is_stored(tmp_path, capsys):
    pytest.importorskip("distributed")
    db = tmp_path / "a.sqlite"
    line = fails(capsys, ["arena", *BOTS, "--db", str(db), "--scheduler", "nonsense"])
    assert "--scheduler nonsense: missing port number" in line
    assert not db.exists()


def test_resume_refuses_flags_that_would_change_the_tournament(tmp_path, capsys):
    from arena.store import Store

    db = tmp_path / "a.sqlite"
    Store(db).create_tournament(TournamentConfig("classic", []), 0)
    line = fails(capsys, ["arena", "--resume", "--db", str(db), "--deals", "5", "--movetime", "300", "-o", "rounds=1"])
    assert "--option, --deals, --movetime cannot change it" in line


def test_another_programs_database_is_refused_and_left_as_it_was(tmp_path, capsys):
    import sqlite3

    db = tmp_path / "other.sqlite"
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE notes (text)")
    for argv in (["arena", *BOTS], ["replay", "--game", "1"], ["export"]):
        assert main([*argv, "--db", str(db)]) == 2
        assert "it holds other tables (notes), not results" in capsys.readouterr().err
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT name FROM sqlite_master").fetchall() == [("notes",)]
        assert con.execute("PRAGMA journal_mode").fetchone() == ("delete",)


def test_a_tournament_stored_under_looser_checks_stays_readable_but_is_not_resumed(tmp_path, capsys):
    """An earlier version took `--movetime 0`: its tournament still exports; resuming it is refused
    with the reason, not a traceback."""
    import json

    from arena.config import builtin_bot
    from arena.store import Store

    db = tmp_path / "old.sqlite"
    config = TournamentConfig("classic", [builtin_bot("greedy"), builtin_bot("random")], deals=1)
    stored = json.loads(config.to_json())
    stored["time"]["movetime_ms"] = 0
    store = Store(db)
    tid = store.create_tournament(config, 2)
    store._db.execute("UPDATE tournament SET config = ? WHERE id = ?", (json.dumps(stored), tid))
    assert store.tournament(tid)[1].time.movetime_ms == 0
    store.close()
    assert main(["export", "--db", str(db)]) == 0
    assert "export: 0 games of tournament 1" in capsys.readouterr().err
    line = fails(capsys, ["arena", "--resume", "--db", str(db)])
    assert "tournament 1 cannot be resumed: time control: movetime (ms) must be an integer of at least 1" in line


def test_a_bot_that_refuses_its_options_or_the_edition_is_named_before_playing(tmp_path, capsys):
    import shlex

    from protocol.local import builtin_bot as builtin_argv

    db = tmp_path / "a.sqlite"
    greedy = f"cmd={shlex.join(builtin_argv('greedy'))}"
    line = fails(capsys, ["arena", "--bot", "name=g", greedy, "option.Epsilon=500", "--bot", "random",
                          "--db", str(db)])
    assert "bot g: the bot rejected setoption: error option Epsilon: 500 out of range 0..100" in line
    classic_only = tmp_path / "bots" / "classic_only.py"  # not beside the database: a bot may read its folder
    classic_only.parent.mkdir()
    classic_only.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    if line.strip() == 'uei':\n"
        "        print('id name c\\nid author t\\nid protocol 1\\neditions classic\\nueiok', flush=True)\n"
        "    elif line.strip() == 'isready':\n"
        "        print('readyok', flush=True)\n"
        "    elif line.strip() == 'quit':\n"
        "        break\n")
    line = fails(capsys, ["arena", "-e", "expedition", "--bot", "name=c", f"cmd={shlex.join([sys.executable, str(classic_only)])}",
                          "--bot", "random", "--db", str(db)])
    assert "bot c: it does not play expedition (it plays classic)" in line
    assert not db.exists()


def test_a_hash_above_the_memory_limit_is_named_before_playing(tmp_path, capsys):
    """The bots are checked as the games start them, within --memory-mb: a search tree that the
    limit does not leave room for is the bot's error line at setoption, named here."""
    import shlex

    from protocol.local import builtin_bot as builtin_argv

    db = tmp_path / "a.sqlite"
    ismcts = f"cmd={shlex.join(builtin_argv('ismcts'))}"
    line = fails(capsys, ["arena", "--bot", "name=i", ismcts, "option.Hash=2000", "--bot", "greedy",
                          "--memory-mb", "1024", "--db", str(db)])
    assert "bot i: the bot rejected setoption: error option Hash: cannot allocate 2000 MB" in line
    assert not db.exists()


def test_a_built_in_bot_takes_options_and_a_name(tmp_path, capsys):
    db = tmp_path / "a.sqlite"
    line = fails(capsys, ["arena", "--bot", "greedy", "option.Epsilon=500", "--bot", "random", "--db", str(db)])
    assert "bot greedy: the bot rejected setoption: error option Epsilon: 500 out of range 0..100" in line
    assert "a built-in bot takes no cmd=" in fails(capsys, ["arena", "--bot", "greedy", "cmd=/bin/cat", "--bot",
                                                          "random", "--db", str(db)])
    assert main(["arena", "--bot", "greedy", "name=noisy", "option.Epsilon=50", "--bot", "greedy", "--deals", "1",
                 "-o", "rounds=1", "--movetime", "50", "--db", str(db), "-q"]) == 0
    out = capsys.readouterr().out
    assert "noisy=[" in out and "finished; 2 of 2 games" in out


def test_more_seats_than_bots_is_one_error_line(tmp_path, capsys) -> None:
    """A round robin seats every bot once a game: 4 players need 4 bots (an error, not a traceback)."""
    line = fails(capsys, ["arena", "-e", "eldorado", "--players", "4", "--bot", "random", "--bot", "random",
                          "--deals", "1", "--db", str(tmp_path / "t.db")])
    assert "round robin with 4 sides needs at least 4 bots, got 2" in line


def _mismatches() -> list[tuple[str, int, str, int]]:
    """Every edition × players asked (its own counts and one beyond each end) × format × 1-5 bots."""
    import engine
    cases = []
    for record in engine.EDITIONS.values():
        for players in sorted({min(record.seats) - 1, *record.seats, max(record.seats) + 1}):
            for format in ("round-robin", "gauntlet"):
                for bots in range(1, 6):
                    cases.append((record.name, players, format, bots))
    return cases


@pytest.mark.parametrize("edition, players, format, bots", _mismatches())
def test_bots_seats_formats_and_editions_that_do_not_fit_are_one_error_line(tmp_path, capsys, edition, players,
                                                                             format, bots):
    """What a host tries first (three bots for four seats, one bot, a seat count the edition does not
    have) is refused in one line that says what is wrong, before a database exists; what fits is
    planned without an error."""
    import engine
    from expeditions.cli import build_parser
    from expeditions.commands.arena import build_config
    db = tmp_path / "t.sqlite"
    argv = ["arena", "-e", edition, "--players", str(players), "--format", format, "--deals", "1",
            "--db", str(db)]
    for i in range(bots):
        argv += ["--bot", "random", f"name=r{i}"]
    record = engine.get_edition(edition)
    sides = players // 2 if record.teams else players
    fits = players in record.seats and bots >= max(2, sides)
    if not fits:
        line = fails(capsys, argv)
        assert not db.exists()
        if players not in record.seats:
            assert f"not {players}" in line
        elif bots < 2:
            assert "at least two bots" in line
        else:
            assert f"needs at least {sides} bots, got {bots}: enter more bots" in line
        return
    config = build_config(build_parser().parse_args(argv))
    assert (config.players, config.format, len(config.bots), config.sides()) == (players, format, bots, sides)


def test_a_missing_extra_says_what_to_run_in_a_clone_and_an_installed_package(monkeypatch, capsys) -> None:
    """Each command adds the package alone: neither reinstalls (and so recompiles) expeditions."""
    import importlib.util

    from expeditions.cli import main

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    assert main(["arena", "--plot", "r.png", "--bot", "greedy", "--bot", "random"]) == 2
    err = capsys.readouterr().err
    assert "--plot needs the matplotlib package (the extra 'plot')" in err
    assert "pip install 'expeditions[plot]' where expeditions is installed" in err
    assert "pip install 'matplotlib>=3.8' in a clone (neither rebuilds the engine)" in err
