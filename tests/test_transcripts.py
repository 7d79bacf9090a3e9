"""`expeditions arena --transcript DIR` (or the tournament file's `transcript` key): every line
between the referee and each bot, timestamped, a file per game and seat; a failed game's
termination reason names the transcript of the seat that failed."""
from __future__ import annotations

import re
import sys
from pathlib import Path

from arena.config import TournamentConfig
from arena.store import Store
from expeditions.cli import main

BOTS = Path(__file__).parent / "bot_scripts"
STAMPED = re.compile(r"^ *\d+\.\d{6} [<>] \S")


def test_a_transcript_per_game_and_seat_named_by_a_failure(tmp_path: Path, capsys) -> None:
    db, folder = tmp_path / "t.sqlite", tmp_path / "transcripts"
    assert main(["arena", "--bot", "random", "--bot", "name=illegal", f"cmd={sys.executable} {BOTS / 'illegal.py'}",
                 "--deals", "1", "-o", "rounds=1", "--movetime", "50", "--seed", "3", "-j", "1", "--db", str(db),
                 "--transcript", str(folder), "-q"]) == 0
    capsys.readouterr()
    store = Store(str(db))
    games = store.games(store.tournament()[0])
    assert len(games) == 2  # one deal, both rotations
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == [f"t1-game-{g:06d}-seat{s}-{name}.log" for g in (0, 1)
                                       for s, name in enumerate(("random", "illegal") if g == 0 else ("illegal", "random"))]
    for game in games:
        assert game.termination == "illegal"
        failed = folder / f"t1-game-{game.index:06d}-seat{game.failed_seat}-illegal.log"
        assert game.reason.endswith(f"(transcript {failed})")
        lines = failed.read_text().splitlines()
        assert lines[0].startswith(f"# game {game.index} of tournament 1, classic, seat {game.failed_seat}: illegal")
        body = [line for line in lines if not line.startswith("#")]
        assert body and all(STAMPED.match(line) for line in body), body[:5]
        stamps = [float(line.split()[0]) for line in body]
        assert stamps == sorted(stamps)
        assert any(" > go movetime 50" in line for line in body) and any(" < bestmove " in line for line in body)
        assert " < bestmove " in body[-1] or " > " in body[-1]


def test_the_tournament_file_key(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('transcript = "logs"\n[[bots]]\ncommand = "a"\n[[bots]]\ncommand = "b"\n')
    assert TournamentConfig.from_toml(path).transcript == str(tmp_path / "logs")
    path.write_text('transcript = 3\n[[bots]]\ncommand = "a"\n[[bots]]\ncommand = "b"\n')
    try:
        TournamentConfig.from_toml(path)
    except ValueError as err:
        assert "transcript must be a directory name" in str(err)
    else:
        raise AssertionError("a transcript that is not a string was taken")
