"""Search traces (research/record_traces.py, research/search_traces.py): every traced game replays
from its deal and moves, its traced positions are side A's own decisions with the search's
statistics, and the decision made is the one the statistics choose (most visits)."""
from __future__ import annotations

import json

import pytest

from research.record_traces import main
from research.search_traces import TraceFileError, positions, read_traces

# 60 iterations keep the runs quick; MinVisits=0 lets so small a search choose by its visits, and
# without the opponent model (whose chains cost most of such a search) a classic deal takes 0.1 s.
SEARCH = "ismcts:MinVisits=0:Infer=off"
BASE = ["-o", "rounds=1", "--bots", f"{SEARCH},greedy", "--iterations", "60", "-q"]


def run(tmp_path, *args: str, results: str = "r.jsonl") -> list[str]:
    """A traced run's arguments (its results file in tmp_path unless given)."""
    return BASE + ["--results", str(tmp_path / results), *args]


@pytest.mark.parametrize("edition, a_seats", [("classic", [[0], [1]]), ("partners", [[0, 2], [1, 3]])])
def test_traced_positions_replay_and_hold_the_searches_choice(tmp_path, capsys, edition, a_seats):
    path = tmp_path / "t.jsonl"
    assert main(run(tmp_path, "-e", edition, "--games", "1", "--seed", "12", "--trace", str(path))) == 0
    capsys.readouterr()
    games = list(read_traces(path))
    assert [g["game"] for g in games] == [0, 1] and [g["seats_a"] for g in games] == a_seats
    for game in games:
        assert game["edition"] == edition and game["deal"] == 12 and game["A"] == SEARCH and game["code"]
        found = list(positions(game))
        assert len(found) == len(game["searches"]) > 5
        for p in found:
            assert p.seat in game["seats_a"] and p.view.seat == p.seat
            assert set(p.visits) <= set(p.view.legal()) and len(p.visits) >= 2
            assert sum(p.visits.values()) >= 60
            best = max(p.visits, key=lambda d: (p.visits[d], p.values[d], -d))
            assert p.chosen == best
            assert all(0.0 <= v <= 1.0 for v in p.values.values())


def test_a_resumed_run_traces_each_game_once_and_bad_lines_are_named(tmp_path, capsys):
    path = tmp_path / "t.jsonl"
    base = run(tmp_path, "-e", "classic", "--seed", "30", "--trace", str(path))
    assert main(base + ["--games", "1"]) == 0
    assert main(base + ["--games", "2"]) == 0          # deal 30 is in the results: only 31 is played
    out = capsys.readouterr().out
    assert "games 4 " in out.splitlines()[-1]          # the summary counts the deal played before
    lines = path.read_text().splitlines()
    assert [(json.loads(x)["deal"], json.loads(x)["game"]) for x in lines] == [(30, 0), (30, 1), (31, 0), (31, 1)]
    records = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert [(r["deal"], r["A"]) for r in records] == [(30, SEARCH), (31, SEARCH)]
    # A game written twice counts once; a cut-off last line is skipped; a broken line is named.
    path.write_text("\n".join(lines + [lines[0]]) + "\n" + lines[1][:40])
    assert len(list(read_traces(path))) == 4
    path.write_text(lines[0] + "\n{oops\n")
    with pytest.raises(TraceFileError, match="line 2: not a JSON object"):
        list(read_traces(path))
    broken = json.loads(lines[0])
    broken["moves"][3] = 9999
    path.write_text(json.dumps(broken) + "\n")
    with pytest.raises(TraceFileError, match="deal 30 game 0 ply 3"):
        list(positions(next(read_traces(path))))


def test_bad_arguments_fail_before_any_deal(tmp_path, capsys):
    trace = str(tmp_path / "t.jsonl")
    args = ["--games", "1", "--seed", "1", "--trace", trace]
    assert main(run(tmp_path, *args, results="no/r.jsonl")) == 2
    assert "no/r.jsonl" in capsys.readouterr().err
    assert main(BASE + ["--results", str(tmp_path / "r.jsonl"), "--games", "1", "--seed", "1",
                        "--trace", str(tmp_path / "no" / "t.jsonl")]) == 2
    assert "no/t.jsonl" in capsys.readouterr().err
    for bad, said in ((["-o", "rounds=9"], "rounds"), (["--bots", "greedy,nope"], "nope")):
        assert main(run(tmp_path, *args, *bad)) == 2
        assert said in capsys.readouterr().err
    for bad in (["--bots", "greedy"], ["--games", "0"]):
        with pytest.raises(SystemExit):
            main(run(tmp_path, *args, *bad))
    assert not (tmp_path / "t.jsonl").exists()


def test_the_summary_counts_where_search_and_greedy_part(tmp_path, capsys):
    from research.search_traces import main as traces_main, summarize

    path = tmp_path / "t.jsonl"
    assert main(run(tmp_path, "-e", "expedition", "--games", "1", "--seed", "4", "--trace", str(path))) == 0
    capsys.readouterr()
    total = summarize(path)
    assert total.games == 2 and total.positions == sum(len(g["searches"]) for g in read_traces(path))
    assert 0 < total.agree < total.positions and total.regret > 0.0
    rows = total.by_category
    assert rows["all"][0] == total.positions and rows["all"][1] == total.agree
    assert rows["all"][2] == pytest.approx(total.regret)
    for parts in (("plays and discards", "draws"), ("draw pile <= 15 cards", "draw pile >= 16 cards")):
        for column in range(3):
            assert sum(rows[name][column] for name in parts if name in rows) == pytest.approx(rows["all"][column])
    assert traces_main([str(path)]) == 0
    out = capsys.readouterr().out
    assert f"positions {total.positions}" in out and "plays and discards" in out
    assert traces_main([str(tmp_path / "missing.jsonl")]) == 2
    assert "missing.jsonl" in capsys.readouterr().err


def test_a_gz_trace_file_is_written_compressed_and_reads_like_a_plain_one(tmp_path, capsys):
    plain, packed = tmp_path / "t.jsonl", tmp_path / "t.jsonl.gz"
    for path in (plain, packed):
        for seed in ("40", "41"):  # two runs: two appended gzip members
            args = ["-e", "classic", "--games", "1", "--seed", seed, "--trace", str(path)]
            assert main(run(tmp_path, *args, results=f"{path.name}.results")) == 0
    capsys.readouterr()
    games = list(read_traces(plain))
    assert [g["deal"] for g in games] == [40, 40, 41, 41]
    assert list(read_traces(packed)) == games
    assert packed.stat().st_size < plain.stat().st_size / 2
    # A run killed while writing: the cut member is left out, its games are played again on resume.
    whole = packed.read_bytes()
    packed.write_bytes(whole[:-10])
    assert [g["deal"] for g in read_traces(packed)] == [40, 40]
    packed.write_bytes(b"not gzip")
    with pytest.raises(TraceFileError, match="not a gzip file"):
        list(read_traces(packed))


@pytest.mark.parametrize("name", ["t.jsonl", "t.jsonl.gz"])
def test_a_run_resumed_after_a_cut_write_keeps_the_file_readable(tmp_path, capsys, name):
    """A run killed while writing its traces leaves a tail cut short; the next run cuts it off
    before appending, so that its own write starts a line (or gzip member) of its own — appended
    after the tail, it would have made the line unreadable, or every member after it."""
    path = tmp_path / name

    def traced(seed: str) -> int:
        return main(run(tmp_path, "-e", "classic", "--games", "1", "--seed", seed, "--trace", str(path)))
    assert traced("40") == 0
    whole = path.read_bytes()
    assert traced("41") == 0
    cut = path.read_bytes()[:len(whole) + 25]  # the second run's write, cut short
    path.write_bytes(cut)
    capsys.readouterr()
    assert traced("42") == 0
    out = capsys.readouterr().out
    assert "an unfinished trace at its end" in out and "(25 bytes)" in out
    assert [g["deal"] for g in read_traces(path)] == [40, 40, 42, 42]


def test_a_file_that_is_not_a_trace_file_is_refused_and_left_as_it_was(tmp_path, capsys):
    notes = tmp_path / "notes.md"
    notes.write_text("# notes\nnot traces\n")
    assert main(run(tmp_path, "-e", "classic", "--games", "1", "--seed", "40", "--trace", str(notes))) == 2
    assert f"{notes} line 1: not a JSON object" in capsys.readouterr().err
    assert notes.read_text() == "# notes\nnot traces\n"


def test_research_reports_how_far_a_setting_moves_the_searchs_decisions(tmp_path, capsys):
    from research.decision_values import draw_pile
    from research.trace_research import main as research_main, research, sample, traced_regret

    path = tmp_path / "t.jsonl"
    assert main(run(tmp_path, "-e", "classic", "--games", "1", "--seed", "8", "--trace", str(path))) == 0
    capsys.readouterr()
    plays = sample(str(path), 6, "plays", seed=1)
    assert len(plays) == 6 and all("phase=play" in p.view.text for p in plays)
    assert all("phase=draw" in p.view.text for p in sample(str(path), 6, "draws", seed=1))
    assert [p.ply for p in sample(str(path), 6, "plays", seed=1)] == [p.ply for p in plays]  # seeded
    # The end of a round: only positions with at most that many cards left to draw, of both kinds.
    late = sample(str(path), 1000, max_draw_pile=5)
    every = sample(str(path), 1000)
    assert late and all(draw_pile(p.view.text) <= 5 for p in late)
    assert len(late) == sum(draw_pile(p.view.text) <= 5 for p in every) < len(every)
    assert {"phase=play" in p.view.text for p in late} == {True, False}
    p = plays[0]
    best = max(p.values, key=p.values.get)
    assert traced_regret(p, best) == 0.0
    assert traced_regret(p, -1) == max(p.values.values()) - min(p.values.values())
    # The traced search again (same budget, seed and no reuse) agrees with itself; greedy does not
    # always, and where it differs it loses by the traced values; random rollouts move the decisions.
    specs = [f"{SEARCH}:Iterations=60", f"{SEARCH}:Iterations=60", "greedy", f"{SEARCH}:Rollout=random"]
    table = research(str(path), specs, positions=40, iterations=60, seed=2)
    assert table.positions == 40
    assert table.agreement[0][1] == 1.0 and table.regret[0] == table.regret[1]
    assert all(table.agreement[i][i] == 1.0 for i in range(4))
    assert table.agreement[0][2] == table.agreement[2][0] < 1.0
    assert table.regret[2] > 0.0 and table.traced_agreement[2] < 1.0
    assert table.agreement[0][3] < 1.0
    # Greedy does not search; other rollouts are another model of the game, with another mean reward.
    assert table.mean_reward[2] is None and table.mean_reward[0] == table.mean_reward[1]
    assert 0.0 < table.mean_reward[3] < 1.0 and table.mean_reward[3] != table.mean_reward[0]
    assert research_main([str(path), "--positions", "3", "--iterations", "60", "--spec", "greedy"]) == 0
    out = capsys.readouterr().out
    assert "3 positions" in out and "greedy" in out
    assert research_main([str(path), "--positions", "2", "--max-draw-pile", "3", "--spec", "greedy"]) == 0
    assert "2 positions" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        research_main([str(path), "--max-draw-pile", "-1", "--spec", "greedy"])
    assert "--max-draw-pile must be at least 0" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        research_main([str(path), "--spec", "ismcts:Nope=1"])
    assert "--spec ismcts:Nope=1" in capsys.readouterr().err
    assert research_main([str(tmp_path / "missing.jsonl"), "--spec", "greedy"]) == 2
