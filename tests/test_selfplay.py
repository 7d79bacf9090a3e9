"""`expeditions selfplay` without `--duplicate`: seats rotate, a seed replays the games, bots carry
options as in duplicate runs, and a bad bot, option or count is named before any game is played."""
from __future__ import annotations

import pytest

from expeditions.cli import main

BASE = ["selfplay", "-e", "classic", "-o", "rounds=1", "--games", "2", "--seed", "5"]


def summary(out: str) -> dict[str, list[str]]:
    """The summary table's rows by bot: games, points, share, mean score."""
    lines = out.strip().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("bot "))
    return {row.split()[0]: row.split()[1:] for row in lines[start + 1:]}


def test_seats_rotate_and_a_seed_replays_the_games(capsys):
    assert main(BASE + ["--bots", "greedy,random"]) == 0
    first = capsys.readouterr().out
    games = [line for line in first.splitlines() if line.startswith("game ")]
    assert games[0].split()[4].startswith("greedy:") and games[1].split()[4].startswith("random:")
    assert summary(first)["greedy"][0] == summary(first)["random"][0] == "2"
    assert main(BASE + ["--bots", "greedy,random"]) == 0
    assert capsys.readouterr().out == first


def test_bots_carry_options(capsys):
    assert main(BASE + ["--bots", "greedy,random"]) == 0
    plain = capsys.readouterr().out
    assert main(BASE + ["--bots", "greedy:Epsilon=100,random"]) == 0
    noisy = capsys.readouterr().out
    # Every decision random: the same seeds no longer give greedy's games.
    rows = summary(noisy)
    assert "greedy:Epsilon=100" in rows and rows["greedy:Epsilon=100"][3] != summary(plain)["greedy"][3]
    header = noisy.splitlines()[-3]
    assert header.index("games") == len("greedy:Epsilon=100") + 1  # the table widens to the longest name


@pytest.mark.parametrize("bots, message", [
    ("greedy:Nope=1,random", "unknown option 'Nope'"),
    ("greedy:Epsilon=101,random", "option Epsilon: 101 out of range 0..100"),
    ("greedy:Epsilon,random", "expected name:Option=value"),
    ("nosuch,random", "unknown bot 'nosuch'"),
    ("greedy,random,random", "needs 1 or 2 bots, got 3"),
    ("greedy,random --jobs 2", "--jobs goes with --duplicate"),
])
def test_bad_bots_are_named_before_playing(capsys, bots, message):
    bots, *flags = bots.split()
    assert main(BASE + ["--bots", bots, *flags]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and "Traceback" not in captured.err
    assert "game 1" not in captured.out


@pytest.mark.parametrize("flags, message", [
    (["--iterations", "0"], "--iterations must be at least 1, got 0"),
    (["--movetime", "-5"], "--movetime must be at least 1, got -5"),
    (["--duplicate", "--iterations", "-1"], "--iterations must be at least 1, got -1"),
])
def test_budgets_out_of_range_are_named(capsys, flags, message):
    assert main(BASE + ["--bots", "ismcts,greedy", *flags]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""


@pytest.mark.parametrize("seconds", ["0", "-1", "nan"])
def test_bench_needs_a_positive_time(capsys, seconds):
    assert main(["bench", "--seconds", seconds]) == 2
    assert "--seconds must be more than 0" in capsys.readouterr().err
