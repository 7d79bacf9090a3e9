"""The results file of duplicate runs (`expeditions selfplay --duplicate --results`): a run resumed
from it counts exactly what one uninterrupted run counts; other configurations are kept apart;
bad files stop the run with the line at fault and are left as they were; `--compare` gives the
paired difference of two configurations (or of two files) over the deals both hold."""
from __future__ import annotations

import json

import pytest

from arena.duplicate import run_duplicate
from arena.statistics import PairResult, paired_difference
from arena.duplicate_results import ResultsFile, ResultsFileError, RunConfig
from protocol.limits import Limits
from expeditions.cli import main

BASE = ["selfplay", "--duplicate", "-e", "classic", "-o", "rounds=1", "--bots", "greedy,random", "-q"]
CONFIG = RunConfig("classic", {"rounds": 1, "max_turns": 300}, 2, "greedy", "random", None, None)


def totals(out: str) -> str:
    """The summary line a run prints last."""
    return out.strip().splitlines()[-1]


def test_a_resumed_run_counts_what_one_run_counts(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    assert main(BASE + ["--games", "6", "--seed", "40"]) == 0
    whole = totals(capsys.readouterr().out)
    assert main(BASE + ["--games", "2", "--seed", "40", "--results", str(path)]) == 0
    capsys.readouterr()
    assert main(BASE + ["--games", "6", "--seed", "40", "--results", str(path), "-j", "2"]) == 0
    out = capsys.readouterr().out
    assert "2 of the 6 deals recorded already, 4 to play" in out
    assert totals(out) == whole
    lines = path.read_text().splitlines()
    assert sorted(json.loads(line)["deal"] for line in lines) == list(range(40, 46))
    # All done: the same command plays nothing and prints the same totals.
    assert main(BASE + ["--games", "6", "--seed", "40", "--results", str(path)]) == 0
    out = capsys.readouterr().out
    assert "6 of the 6 deals recorded already, 0 to play" in out and totals(out) == whole
    assert len(path.read_text().splitlines()) == 6


def test_summarize_pools_every_seed_of_one_configuration_only(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    main(BASE + ["--games", "2", "--seed", "10", "--results", str(path)])
    main(BASE + ["--games", "3", "--seed", "500", "--results", str(path)])
    other = ["selfplay", "--duplicate", "-e", "classic", "-o", "rounds=1", "--bots", "random,greedy", "-q"]
    main(other + ["--games", "1", "--seed", "10", "--results", str(path)])
    capsys.readouterr()
    assert main(BASE + ["--results", str(path), "--summarize"]) == 0
    out = capsys.readouterr().out
    assert "5 deals of classic A=greedy B=random" in out
    pooled = run_duplicate("classic", 2, 10, "greedy", "random", {"rounds": 1}).pairs \
        + run_duplicate("classic", 3, 500, "greedy", "random", {"rounds": 1}).pairs
    recorded = sorted(ResultsFile(path).deals(CONFIG).values(), key=lambda p: p.seed)
    assert [(p.seed, p.returns, p.margins) for p in recorded] == [(p.seed, p.returns, p.margins) for p in pooled]
    assert "games 10  A wins" in totals(out)
    # The other side order is another configuration, and with other rules nothing is recorded.
    assert main(other + ["--results", str(path), "--summarize"]) == 0
    assert "1 deals of classic A=random B=greedy" in capsys.readouterr().out
    assert main(BASE[:5] + ["rounds=2"] + BASE[6:] + ["--results", str(path), "--summarize"]) == 0
    assert "0 deals" in capsys.readouterr().out


@pytest.mark.parametrize("bad, message", [
    ("not json", "line 2: not a JSON object"),
    ("[1, 2]", "line 2: expected a JSON object, got list"),
    ('{"edition": "classic"}', "line 2: missing field 'options'"),
])
def test_a_malformed_line_stops_the_run_and_leaves_the_file(tmp_path, capsys, bad, message):
    path = tmp_path / "r.jsonl"
    main(BASE + ["--games", "2", "--seed", "3", "--results", str(path)])
    lines = path.read_text().splitlines()
    text = "\n".join([lines[0], bad, lines[1]]) + "\n"
    path.write_text(text)
    capsys.readouterr()
    assert main(BASE + ["--games", "4", "--seed", "3", "--results", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and str(path) in err and "Traceback" not in err
    assert path.read_text() == text


def test_a_result_with_wrong_fields_is_named(tmp_path):
    path = tmp_path / "r.jsonl"
    record = {**CONFIG.as_json(), "deal": 1, "returns": [1.0], "margins": [3, 4], "seconds": 0.1}
    path.write_text(json.dumps(record) + "\n")
    with pytest.raises(ResultsFileError, match="line 1: a malformed result"):
        ResultsFile(path)


def test_an_unfinished_last_line_is_cut_and_its_deal_played_again(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    main(BASE + ["--games", "3", "--seed", "70", "--results", str(path)])
    whole = totals(capsys.readouterr().out)
    text = path.read_text()
    path.write_text(text[: len(text) - 25])  # killed in the middle of writing the third line
    assert main(BASE + ["--games", "3", "--seed", "70", "--results", str(path)]) == 0
    out = capsys.readouterr().out
    assert "line 3: an unfinished line" in out and "2 of the 3 deals recorded already" in out
    def results(text: str) -> list[dict]:
        return [{k: v for k, v in json.loads(line).items() if k != "seconds"} for line in text.splitlines()]
    assert totals(out) == whole and results(path.read_text()) == results(text)


def test_a_complete_last_line_without_its_newline_is_kept(tmp_path):
    path = tmp_path / "r.jsonl"
    book = ResultsFile(path)
    book.append(CONFIG, PairResult(1, (1.0, 0.0), (5, -5), 0.5))
    path.write_text(path.read_text().rstrip("\n"))
    assert list(ResultsFile(path).deals(CONFIG)) == [1]
    ResultsFile(path).append(CONFIG, PairResult(2, (0.5, 0.5), (0, 0), 0.5))
    assert sorted(ResultsFile(path).deals(CONFIG)) == [1, 2]


def test_results_need_duplicate_and_summarize_needs_results(capsys):
    assert main(["selfplay", "--games", "1", "--results", "x.jsonl"]) == 2
    assert "--results, --summarize and --compare go with --duplicate" in capsys.readouterr().err
    assert main(["selfplay", "--games", "1", "--compare-iterations", "5"]) == 2
    assert "--results, --summarize and --compare go with --duplicate" in capsys.readouterr().err
    assert main(BASE + ["--summarize"]) == 2
    assert "--summarize needs --results FILE" in capsys.readouterr().err


def test_a_results_file_that_cannot_be_written_fails_before_any_deal(tmp_path, capsys):
    assert main(BASE + ["--games", "1", "--seed", "1", "--results", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"--results {tmp_path}: Is a directory" in err and "deal" not in err


def test_compare_gives_the_paired_difference_over_the_common_deals(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    versus_random = ["selfplay", "--duplicate", "-e", "classic", "-o", "rounds=1", "--bots", "random,random", "-q"]
    main(BASE + ["--games", "4", "--seed", "10", "--results", str(path)])
    main(versus_random + ["--games", "4", "--seed", "12", "--results", str(path)])
    capsys.readouterr()
    assert main(BASE + ["--results", str(path), "--summarize", "--compare", "random"]) == 0
    out = capsys.readouterr().out
    greedy = run_duplicate("classic", 4, 10, "greedy", "random", {"rounds": 1}).pairs
    random_ = run_duplicate("classic", 4, 12, "random", "random", {"rounds": 1}).pairs
    expected = paired_difference(greedy, random_)
    assert expected.deals == 2 and expected.difference > 0
    assert "4 deals of A=random B=random" in out
    assert f"A=greedy against A=random: {expected.summary()}" in out
    # The same bots in another file (a run of other code, say): here the same code, no difference.
    other = tmp_path / "other.jsonl"
    main(BASE + ["--games", "2", "--seed", "11", "--results", str(other)])
    capsys.readouterr()
    assert main(BASE + ["--results", str(path), "--summarize", "--compare-results", str(other)]) == 0
    out = capsys.readouterr().out
    assert "common deals 2  score" in out and "difference +0.000 ± 0.000 a game" in out
    # Nothing in common: said, not an error.
    assert main(BASE + ["--results", str(other), "--summarize", "--compare", "random"]) == 0
    assert "nothing to compare" in capsys.readouterr().out



def test_compare_iterations_pairs_runs_of_two_budgets(tmp_path, capsys):
    """How a bot scales: a run at 40 iterations a decision against the same bots' run at 10 (without
    the opponent model, whose burn-in would make these tiny searches a hundred times slower)."""
    path = tmp_path / "r.jsonl"
    search = ["selfplay", "--duplicate", "-e", "classic", "-o", "rounds=1",
              "--bots", "ismcts:MinVisits=0:Infer=off,greedy", "-q", "--games", "3", "--seed", "5", "--results", str(path)]
    assert main(search + ["--iterations", "10"]) == 0
    assert main(search + ["--iterations", "40"]) == 0
    capsys.readouterr()
    small = run_duplicate("classic", 3, 5, "ismcts:MinVisits=0:Infer=off", "greedy", {"rounds": 1}, Limits(iterations=10)).pairs
    large = run_duplicate("classic", 3, 5, "ismcts:MinVisits=0:Infer=off", "greedy", {"rounds": 1}, Limits(iterations=40)).pairs
    assert main(search + ["--iterations", "40", "--summarize", "--compare-iterations", "10"]) == 0
    out = capsys.readouterr().out
    assert "3 deals of A=ismcts:MinVisits=0:Infer=off B=greedy at 10 iterations" in out
    assert f"against A=ismcts:MinVisits=0:Infer=off at 10 iterations: {paired_difference(large, small).summary()}" in out
    # Without it, a budget compares only with itself: the run at 40 against itself, no difference.
    assert main(search + ["--iterations", "40", "--summarize", "--compare", "ismcts:MinVisits=0:Infer=off"]) == 0
    assert "difference +0.000 ± 0.000 a game" in capsys.readouterr().out


@pytest.mark.parametrize("extra, message", [
    (["--compare", "random"], "--compare, --compare-results and --compare-iterations go with --summarize"),
    (["--summarize", "--compare-iterations", "0"], "--compare-iterations must be at least 1"),
    (["--summarize", "--compare", "nosuchbot"], "--compare: unknown bot"),
    (["--summarize", "--compare-results", "missing.jsonl"], "--compare-results missing.jsonl: no such file"),
])
def test_compare_errors_are_named(tmp_path, capsys, extra, message):
    path = tmp_path / "r.jsonl"
    main(BASE + ["--games", "1", "--seed", "1", "--results", str(path)])
    capsys.readouterr()
    assert main(BASE + ["--results", str(path)] + extra) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_every_line_records_the_code_and_summarize_warns_of_mixed_code(tmp_path, capsys, monkeypatch):
    from expeditions.provenance import code_version

    path = tmp_path / "r.jsonl"
    assert main(BASE + ["--games", "2", "--seed", "70", "--results", str(path)]) == 0
    assert f"code={code_version()}" in capsys.readouterr().out
    assert {json.loads(line)["code"] for line in path.read_text().splitlines()} == {code_version()}
    assert ResultsFile(path).codes(CONFIG) == {code_version(): 2}
    assert main(BASE + ["--results", str(path), "--summarize"]) == 0
    out = capsys.readouterr().out
    assert f"code: {code_version()} (2)" in out and "code versions" not in out
    # A deal played by other code (and a line from before the field existed) make three versions.
    record = json.loads(path.read_text().splitlines()[0])
    with open(path, "a") as f:
        f.write(json.dumps({**record, "deal": 90, "code": "0.0.9+gabcdef0"}) + "\n")
        f.write(json.dumps({k: v for k, v in {**record, "deal": 91}.items() if k != "code"}) + "\n")
    assert ResultsFile(path).codes(CONFIG) == {code_version(): 2, "0.0.9+gabcdef0": 1, None: 1}
    assert main(BASE + ["--results", str(path), "--summarize"]) == 0
    out = capsys.readouterr().out
    assert "0.0.9+gabcdef0 (1)" in out and "not recorded (1)" in out and "deals of 3 code versions" in out


def test_a_code_that_is_not_a_string_is_named(tmp_path):
    path = tmp_path / "r.jsonl"
    ResultsFile(path).append(CONFIG, PairResult(3, (1.0, 0.0), (5, -5), 0.1))
    record = json.loads(path.read_text())
    path.write_text(json.dumps({**record, "code": 7}) + "\n")
    with pytest.raises(ResultsFileError, match="line 1: .*code must be a string"):
        ResultsFile(path)


def test_the_code_version_names_the_commit_in_a_checkout():
    import os
    import re

    from expeditions import __version__
    from expeditions.provenance import _ROOT, code_version

    version = code_version()
    if os.path.exists(os.path.join(_ROOT, ".git")):
        assert re.fullmatch(re.escape(__version__) + r"\+g[0-9a-f]{7,40}(\.dirty)?", version), version
    else:
        assert version == __version__


def test_a_linked_worktree_names_its_commit_too(tmp_path, monkeypatch):
    """In a `git worktree`, .git is a file pointing at the main repository: the version still
    names the commit (it once read as a bare `0.1.0`, a checkout taken for an installed copy)."""
    import os
    import shutil
    import subprocess

    from expeditions import __version__, provenance

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    main, linked = tmp_path / "main", tmp_path / "linked"
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "PATH": os.environ["PATH"]}

    def git(*args):
        return subprocess.run(["git", *args], cwd=main, env=env, check=True, capture_output=True,
                               text=True).stdout.strip()

    main.mkdir()
    git("init", "-q")
    (main / "f").write_text("x")
    git("add", "f")
    git("commit", "-qm", "one")
    git("worktree", "add", "-q", str(linked))
    assert (linked / ".git").is_file()
    monkeypatch.setattr(provenance, "_ROOT", str(linked))
    provenance.code_version.cache_clear()
    try:
        assert provenance.code_version() == f"{__version__}+g{git('rev-parse', '--short', 'HEAD')}"
    finally:
        provenance.code_version.cache_clear()


def test_sigterm_stops_a_parallel_run_cleanly(tmp_path):
    """SIGTERM (a scheduler's stop, a session's end) ends a --jobs run as Ctrl-C does: the workers
    go with it, the finished deals stay in the file, and the message says how to resume."""
    import os
    import signal
    import subprocess
    import time

    from protocol.local import child_env, expeditions_argv

    path = tmp_path / "r.jsonl"
    run = subprocess.Popen([*expeditions_argv(*BASE), "--bots", "ismcts,greedy", "--iterations", "300", "--games", "40",
                            "--seed", "3", "--jobs", "2", "--results", str(path)],
                           env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (path.exists() and path.read_text().count("\n") >= 1):
        time.sleep(0.1)
    run.send_signal(signal.SIGTERM)
    _, err = run.communicate(timeout=30)
    assert run.returncode == 130, err
    assert "the same command resumes the run" in err and "Traceback" not in err
    time.sleep(0.5)
    with pytest.raises(ProcessLookupError):
        os.killpg(run.pid, 0)  # nothing of the run's process group is left
    assert all(json.loads(line)["deal"] >= 3 for line in path.read_text().splitlines() if line.endswith("}"))
