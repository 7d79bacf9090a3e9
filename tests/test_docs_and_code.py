"""The docs say what the code does: the terminations a game can end with, the `gameover` line the
referees send, the rules `expeditions arena` plays by default."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import engine
from arena.config import TimeControl, builtin_bot
from arena.record import TERMINATIONS
from arena.referee import GameSetup, play_game
from protocol.client import Engine
from protocol.local import child_env

DOCS = Path(__file__).resolve().parent.parent / "docs"
BOTS = Path(__file__).parent / "bot_scripts"


def _section(path: Path, heading: str) -> str:
    """The text of a document from the line starting with `heading` to the next heading of any level."""
    text = path.read_text()
    start = text.index(heading)
    end = re.compile(r"^#", re.M).search(text, start + len(heading))
    return text[start:end.start() if end else len(text)]


def test_the_adjudication_table_lists_the_codes_terminations():
    table = _section(DOCS / "arena.md", "## Adjudication")
    assert set(re.findall(r"^\| `(\w+)` \|", table, re.M)) == set(TERMINATIONS)


def test_the_gameover_reasons_are_the_codes_terminations():
    section = _section(DOCS / "protocol.md", "### `gameover")
    listed = re.search(r"why it ended, one of (.+?) \(the terminations", section, re.S)
    assert listed, section
    assert set(re.findall(r"`(\w+)`", listed.group(1))) == set(TERMINATIONS)
    errors = _section(DOCS / "protocol.md", "## 6. Errors")
    assert "garbage" not in errors
    for kind in ("malformed", "illegal", "timeout", "crash"):
        assert f"`{kind}`" in errors


def test_host_results_name_the_codes_terminations():
    section = _section(DOCS / "host.md", "### `result`")
    listed = re.search(r"`termination`: one of (.+?)\(", section, re.S)
    assert listed, section
    # A hosted game: no bot is dropped, no person quits, and max_turns ends it before a stall.
    assert set(re.findall(r"`(\w+)`", listed.group(1))) == set(TERMINATIONS) - {"dropped", "quit", "stall"}


def _referee_game(bots: list[list[str]]) -> tuple[str, list[list[tuple[str, str]]]]:
    """Plays one game of the referee between `bots` (argvs); its termination and each bot's transcript."""
    transcripts: list[list[tuple[str, str]]] = [[] for _ in bots]
    setup = GameSetup(index=0, group=0, deal=0, rotation=0, edition=engine.default_edition().name,
                      options=dict(engine.default_edition().quick_options), players=2, seed=3,
                      seat_bots=[0, 1], bot_names=["a", "b"], time=TimeControl(movetime_ms=5000))

    def acquire(bot: int) -> Engine:
        return Engine.start(bots[bot], env=child_env(), transcript=transcripts[bot])

    record = play_game(setup, acquire, lambda bot, eng, healthy: eng.quit())
    return record.termination, transcripts


@pytest.mark.parametrize("second, termination", [("greedy", "normal"), ("crash", "crash")])
def test_the_referee_sends_the_gameover_the_protocol_describes(second, termination):
    """Every bot still in the game hears the scores, the returns and why it ended."""
    other = builtin_bot("greedy").command if second == "greedy" else [sys.executable, str(BOTS / "crash.py")]
    ended, transcripts = _referee_game([builtin_bot("greedy").command, other])
    assert ended == termination
    sent = [line for direction, line in transcripts[0] if direction == ">" and line.startswith("gameover")]
    assert len(sent) == 1
    assert re.fullmatch(rf"gameover scores -?\d+/-?\d+ returns [\d.]+/[\d.]+ reason {termination}", sent[0]), sent
    if second == "crash":  # the bot that failed is not told
        assert not any(line.startswith("gameover") for _, line in transcripts[1])


def test_arena_plays_the_editions_rules_unless_options_are_given():
    """One rule for the default rules, as docs/arena.md states it: with or without -e, with or
    without bots, the edition's own options unless -o (or a file) gives some."""
    from expeditions.cli import build_parser
    from expeditions.commands.arena import build_config

    def options(*flags: str) -> dict[str, int]:
        return build_config(build_parser().parse_args(["arena", *flags])).options

    default = engine.default_edition()
    full = default.resolve_options({})
    showcase = engine.showcase_edition()  # neither bots nor an edition: the embedded tournament
    assert options() == showcase.resolve_options(showcase.quick_options)
    assert options("--bot", "greedy", "--bot", "random") == full
    assert options("--bot", "greedy", "--bot", "random", "-e", default.name) == full
    first = default.options[0]
    changed = first.low if first.default != first.low else first.high
    assert options("-e", default.name, "-o", f"{first.name}={changed}") == {**full, first.name: changed}
    other = next(ed for ed in engine.EDITIONS.values() if ed is not default)
    assert options("-e", other.name) == other.resolve_options({})
    assert "One rule for the rules" in (DOCS / "arena.md").read_text()
