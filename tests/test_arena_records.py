"""What the arena's records and reports say: each failed game with its reason in the final table,
`expeditions list` of a database's tournaments and games with their ids."""
from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

from arena.store import Store
from expeditions.cli import main

BOTS = Path(__file__).parent / "bot_scripts"


def _arena(db: Path, capsys, *flags: str) -> str:
    crash = shlex.join([sys.executable, str(BOTS / "crash.py")])
    assert main(["arena", "--db", str(db), "--bot", "greedy", "--bot", "name=crash", f"cmd={crash}",
                 "-o", "rounds=1", "--deals", "3", "--seed", "5", "-j", "1", "--max-failures", "2",
                 "--movetime", "100", "-q", *flags]) == 0
    return capsys.readouterr().out


def test_the_final_table_lists_each_failed_game_with_its_reason(tmp_path, capsys):
    db = tmp_path / "t.sqlite"
    out = _arena(db, capsys)
    games = Store(db).games(1)
    crashed = [g for g in games if g.termination == "crash"]
    dropped = [g for g in games if g.termination == "dropped"]
    assert len(crashed) == 2 and len(dropped) == 4  # dropped after two failures in a row
    assert "failed games (expeditions replay --game ID):" in out
    for g in crashed:
        line = next(x for x in out.splitlines() if x.strip().startswith(f"game {g.id} "))
        assert f"crash of crash at seat {g.failed_seat}" in line and "the bot exited" in line, line
        assert " ".join(g.reason.split())[:60] in line
    ids = ", ".join(str(g.id) for g in dropped)
    assert f"dropped crash: 4 games lost unplayed: {ids}" in out
    assert "terminations: crash 2, dropped 4" in out


def test_list_shows_the_tournaments_and_games_of_a_database_with_their_ids(tmp_path, capsys):
    db = tmp_path / "t.sqlite"
    _arena(db, capsys)
    _arena(db, capsys, "--deals", "1")
    assert main(["list", "--db", str(db)]) == 0
    out = capsys.readouterr().out.splitlines()
    heads = [i for i, line in enumerate(out) if line.startswith("tournament ")]
    assert len(heads) == 2
    assert re.match(r"tournament 1  \d{4}-\d\d-\d\d \d\d:\d\d  classic rounds=1 max_turns=\d+ players=2  round-robin  "
                    r"bots greedy, crash  6 of 6 games  finished \(dropped crash\)$", out[heads[0]]), out[heads[0]]
    assert "tournament 2 " in out[heads[1]] and "2 of 2 games" in out[heads[1]]
    store = Store(db)
    rows = out[heads[0] + 2:heads[1]]
    assert [int(r.split()[0]) for r in rows] == [g.id for g in store.games(1)]
    for row, game in zip(rows, store.games(1)):
        assert " / ".join(game.seat_bots) in row and game.termination in row
        if game.failed_seat is not None:
            assert f"of seat {game.failed_seat} (crash): " in row
    # One tournament; the tournaments alone.
    assert main(["list", "--db", str(db), "--tournament", "2"]) == 0
    one = capsys.readouterr().out.splitlines()
    assert one[0].startswith("tournament 2 ") and len(one) == 2 + 2
    assert main(["list", "--db", str(db), "--no-games"]) == 0
    assert [line.split()[1] for line in capsys.readouterr().out.splitlines()] == ["1", "2"]
    # What is not there is named, and reading never creates a database.
    assert main(["list", "--db", str(db), "--tournament", "9"]) == 2
    assert capsys.readouterr().err.strip().endswith(f"error: no tournament 9 in {db}")
    missing = tmp_path / "none.sqlite"
    assert main(["list", "--db", str(missing)]) == 2
    assert not missing.exists()
