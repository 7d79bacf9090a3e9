"""`expeditions protocol-check`: passes our bots and a bot written from the spec alone; fails each
broken test bot with a clear reason."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bots.registry import POLICIES
from protocol.conformance import CheckConfig, format_table, run_checks
from protocol.local import builtin_bot, child_env, expeditions_argv

BOTS = Path(__file__).resolve().parent / "bot_scripts"
QUICK = ["--positions", "6", "--timeout", "1"]


def check(*argv: str, options: list[str] = QUICK, editions: str | None = "classic") -> subprocess.CompletedProcess:
    command = expeditions_argv("protocol-check", *options)
    if editions:
        command += ["--editions", editions]
    return subprocess.run([*command, "--", *argv], capture_output=True, text=True, env=child_env(), timeout=300)


def rows(output: str) -> dict[str, tuple[str, str]]:
    """check name -> (status, detail) from the table."""
    return {name: (status, detail) for name, (_, status, detail) in leveled_rows(output).items()}


def leveled_rows(output: str) -> dict[str, tuple[str, str, str]]:
    """check name -> (level, status, detail) from the table (after the command line and the
    header, before the advice and the verdict)."""
    table = {}
    for line in output.splitlines()[2:]:
        if line.startswith(("advice: ", "PASS (", "FAIL (")):
            break
        name, rest = line.split("  ", 1)
        level, status, _, *detail = rest.split(None, 3)
        table[name.strip()] = (level, status, detail[0] if detail else "")
    return table


@pytest.mark.parametrize("name", list(POLICIES))
def test_our_bots_pass_every_edition(name: str) -> None:
    done = check(*builtin_bot(name), editions=None,
                 options=["--positions", "20", "--movetime", "2", "--require", "optional"])
    assert done.returncode == 0, done.stdout + done.stderr
    table = rows(done.stdout)
    assert "classic: whole games" in table and "partners: positions" in table and "expedition: positions" in table
    skipped = {name for name, (status, _) in table.items() if status != "pass"}
    assert skipped == (set() if name == "ismcts" else {"MultiPV lines"}), done.stdout  # only the searcher has MultiPV
    assert done.stdout.splitlines()[-1].startswith("PASS (optional level)")


def test_a_bot_written_from_the_spec_passes() -> None:
    done = check(sys.executable, str(BOTS / "minimal.py"), editions=None, options=[*QUICK, "--require", "optional"])
    assert done.returncode == 0, done.stdout


@pytest.mark.parametrize("bot, failing, reason, level", [
    ("crash.py", "classic: positions", "the bot exited while waiting for bestmove (exit status 3); its stderr ends "
                                       "with 'crash.py: giving up'", "required"),
    ("hang.py", "classic: positions", "no bestmove within", "required"),
    ("garbage.py", "classic: positions", "not a UEI line: 'Thinking really hard about this one...'", "required"),
    ("illegal.py", "classic: positions", "illegal decision", "required"),
    ("deaf.py", "go searchmoves", "answered", "recommended"),
    ("onepv.py", "MultiPV lines", "with MultiPV 3 the last report's lines were ranked [1]", "recommended"),
])
def test_broken_bots_fail_with_a_clear_reason(bot: str, failing: str, reason: str, level: str) -> None:
    done = check(sys.executable, str(BOTS / bot), options=["--positions", "6", "--timeout", "0.2", "--margin-ms",
                                                           "50", "--stop-ms", "50", "--require", level])
    assert done.returncode == 1
    table = rows(done.stdout)
    status, detail = table[failing]
    assert status == "FAIL" and reason in detail, done.stdout
    if reason == "no bestmove within":  # the time waited, as given: never a negative one
        waited = float(detail.split(reason, 1)[1].split()[0])
        assert waited >= 0.2, detail
    assert table["handshake"][0] == "pass"  # the fault is named, not a failure to start
    assert done.stdout.splitlines()[-1].startswith(f"FAIL ({level} level)")


def test_the_levels_are_those_of_the_protocol_document() -> None:
    """docs/protocol.md, section 9, lists every check with its level; the checker agrees."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "protocol.md").read_text()
    section = text[text.index("## 9. Conformance"):text.index("## 10.")]
    documented = dict(re.findall(r"^\| `([^`]+)` \| (required|recommended|optional) \|", section, re.M))
    results = run_checks(CheckConfig(builtin_bot("random"), env=child_env(), editions=("classic",), positions=2))
    found = {r.name.replace("classic:", "<edition>:"): r.level for r in results}
    assert found == documented


def test_a_bot_that_does_not_start() -> None:
    done = check(sys.executable, "-c", "import sys; sys.exit(4)")
    assert done.returncode == 1
    table = rows(done.stdout)
    assert table["handshake"][0] == "FAIL" and "exit status 4" in table["handshake"][1]
    assert table["isready"][0] == "skip"


def test_command_is_required() -> None:
    done = subprocess.run(expeditions_argv("protocol-check"), capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "give the bot's command" in done.stderr


@pytest.mark.parametrize("flags, message", [
    (["--timeout", "-1"], "--timeout must be more than 0 seconds"),
    (["--stop-ms", "-5"], "--margin-ms and --stop-ms must be at least 0"),
    (["--editions", "classic,foo"], "unknown edition 'foo'"),
])
def test_bad_flags_are_named_before_the_bot_starts(capsys, flags, message) -> None:
    from expeditions.cli import main

    assert main(["protocol-check", *flags, "--", "no-such-bot"]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and "protocol-check: no-such-bot" not in captured.out


def test_errors_name_the_subcommand() -> None:
    """The bot's command line is not the subcommand: errors start `expeditions protocol-check:`."""
    done = subprocess.run(expeditions_argv("protocol-check", "--positions", "0", "--", "mybot"), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith("expeditions protocol-check: error: --positions must be at least 1"), done.stderr


def test_library_api_and_table() -> None:
    results = run_checks(CheckConfig(builtin_bot("random"), env=child_env(), editions=("partners",), positions=4,
                                     games=0))
    assert [r.name for r in results][:4] == ["handshake", "isready", "options", "partners: positions"]
    assert [r.name for r in results if not r.passed] == ["MultiPV lines"]  # skipped: random has no MultiPV
    assert all(r.passed is None for r in results if not r.passed)
    assert format_table(results).splitlines()[-1] == \
        f"PASS (required level): {len(results) - 1} passed, 0 failed, 1 skipped"
