"""`expeditions deals`: start positions for `arena --positions`, the same deals as a seeded arena."""
from __future__ import annotations

import pytest

import engine
from arena.store import Store
from expeditions.cli import main


def test_the_deals_of_a_seed_play_as_the_seeded_tournament(tmp_path, capsys):
    out = tmp_path / "deals.txt"
    assert main(["deals", "-o", "rounds=1", "--count", "2", "--seed", "7", "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert lines[0] == "# expeditions deals -e classic -o rounds=1 --count 2 --seed 7 --after 0 --by greedy"
    assert "2 positions written" in capsys.readouterr().err
    bots = ["--bot", "greedy", "--bot", "random", "--movetime", "50", "-q"]
    assert main(["arena", *bots, "-o", "rounds=1", "--deals", "2", "--seed", "7", "--db", str(tmp_path / "s.db")]) == 0
    assert main(["arena", *bots, "--positions", str(out), "--db", str(tmp_path / "p.db")]) == 0
    seeded, given = (sorted((g.index, g.initial_position) for g in Store(tmp_path / db).games(1))
                     for db in ("s.db", "p.db"))
    assert seeded == given and {p for _, p in given} == set(lines[1:])


@pytest.mark.parametrize("by", ["greedy", "random"])
def test_positions_some_decisions_in(capsys, by):
    argv = ["deals", "-e", "partners", "--count", "3", "--seed", "5", "--after", "9", "--by", by]
    assert main(argv) == 0
    first = capsys.readouterr().out.splitlines()
    assert main(argv) == 0
    assert capsys.readouterr().out.splitlines() == first  # seeded: the same file again
    states = [engine.parse_position(line) for line in first[1:]]
    assert len(states) == 3 and len({s.to_text() for s in states}) == 3
    assert all(s.edition == "partners" and not s.is_terminal() and s.turn > 0 for s in states)


@pytest.mark.parametrize("argv, message", [
    (["--count", "0"], "--count must be at least 1 and --after at least 0"),
    (["--after", "-1"], "--count must be at least 1 and --after at least 0"),
    (["-o", "rounds=1", "--after", "1000", "--count", "1", "--seed", "1"], "deal 0 ended after"),
    (["--out", "/no/such/dir/deals.txt", "--seed", "1"], "--out /no/such/dir/deals.txt: No such file or directory"),
])
def test_bad_arguments_are_one_error(capsys, argv, message):
    assert main(["deals", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
