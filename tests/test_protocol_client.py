"""The referee's side (protocol/client.py) against real bot processes: our bots, the broken
test bots of tests/bot_scripts/, and small scripts written here for one behaviour each."""
from __future__ import annotations

import os
import sys
import textwrap
import time
from pathlib import Path

import pytest

import engine
from protocol.limits import Limits
from protocol.client import Engine
from protocol.errors import EngineError, EngineTerminatedError, EngineTimeoutError, ProtocolError
from protocol.local import PROJECT_ROOT, builtin_bot, child_env
from helpers import short_options

BOTS = Path(__file__).resolve().parent / "bot_scripts"


def start(argv: list[str], **kwargs) -> Engine:
    return Engine.start(argv, env=child_env(), **kwargs)


def script(tmp_path: Path, body: str) -> list[str]:
    """A throw-away bot: `body` runs after a minimal handshake helper is defined."""
    path = tmp_path / "bot.py"
    path.write_text(textwrap.dedent("""\
        import os, sys, time
        def say(line):
            sys.stdout.write(line + "\\n"); sys.stdout.flush()
        def handshake():
            assert sys.stdin.readline().strip() == "uei"
            for line in ("id name scripted", "id author tests", "editions classic", "ueiok"):
                say(line)
        """) + textwrap.dedent(body))
    return [sys.executable, str(path)]


def mid_game(edition: str = "classic", steps: int = 5) -> engine.State:
    state = engine.new_game(edition, seed=21)
    for _ in range(steps):
        state.apply(state.legal()[-1])
    return state


def test_handshake_and_identity() -> None:
    with start(builtin_bot("random")) as bot:
        assert (bot.name, bot.author, bot.id["protocol"]) == ("random", "expeditions", "2")
        assert set(bot.editions) == set(engine.EDITIONS)
        assert bot.options["Seed"].type == "spin" and bot.options["Seed"].max == 2**63 - 1
        assert bot.option("seed") is bot.option("SEED") is not None and bot.option("MultiPV") is None
        assert bot.returncode is None and bot.pid > 0
    assert bot.returncode == 0


def test_options_are_checked() -> None:
    with start(builtin_bot("random"), options={"Seed": 9}) as bot:
        with pytest.raises(EngineError, match="rejected setoption: error option Seed: -3 out of range"):
            bot.configure({"Seed": -3})
        with pytest.raises(EngineError, match="unknown option"):
            bot.configure({"Hash": 16})
        bot.configure({"seed": 4})  # names are matched without regard to case


@pytest.mark.parametrize("edition", list(engine.EDITIONS))
def test_play_whole_games_one_process_per_seat(edition: str) -> None:
    options = short_options(edition)
    state = engine.new_game(edition, seed=8, **options)
    bots = [start(builtin_bot("random", seed=seat)) for seat in range(state.num_seats)]
    try:
        for seat, bot in enumerate(bots):
            bot.new_game(edition, options, state.num_seats, seat)
        while not state.is_terminal():
            result = bots[state.to_move].play(state.view_text(state.to_move), Limits(movetime_ms=20), timeout=5)
            assert result.decision in state.legal_text() and result.elapsed_ms < 1000
            state.apply(result.decision)
        for bot in bots:
            bot.game_over(state.scores(), state.returns())
            assert bot.ping() == []
    finally:
        for bot in bots:
            bot.quit()


def test_rejected_position_fails_the_search() -> None:
    with start(builtin_bot("random")) as bot:
        with pytest.raises(EngineError, match="rejected the search"):
            bot.play("classic nonsense", Limits(), timeout=5)
        with pytest.raises(EngineError, match="rejected position"):
            bot.position("classic nonsense", check=True)
        state = mid_game()
        assert bot.play(state.view_text(state.to_move), timeout=5).decision in state.legal_text()


def test_infinite_search_stop_and_ping() -> None:
    state = mid_game("partners", 9)
    with start(builtin_bot("random")) as bot:
        search = bot.start_search(Limits(infinite=True), view=state.view_text(state.to_move))
        with pytest.raises(EngineError, match="already running"):
            bot.start_search(Limits())
        bot.ping()
        bot.poll(0.05)
        assert not search.done
        with pytest.raises(EngineTimeoutError):
            search.wait(0.01)
        search.stop()
        result = search.wait(1.0)
        assert result.decision in state.legal_text()
        with pytest.raises(ValueError):
            bot.go(Limits(infinite=True))


def test_debugging_commands() -> None:
    state = mid_game("expedition", 3)
    with start(builtin_bot("random")) as bot:
        bot.position("full " + state.to_text(), check=True)
        assert bot.show() == "full " + state.to_text()
        assert bot.legal() == state.legal_text()
        assert bot.perft(2) == state.perft(2)
        bot.position(state.view(state.to_move))
        with pytest.raises(EngineError, match="needs a full position"):
            bot.perft(1)


def test_transcript_records_both_directions() -> None:
    transcript: list[tuple[str, str]] = []
    with start(builtin_bot("random"), transcript=transcript) as bot:
        bot.ping()
    assert transcript[0] == (">", "uei") and (">", "isready") in transcript and ("<", "readyok") in transcript
    assert transcript[-1] == (">", "quit")


def test_newgame_names_a_choice_as_the_command_line_does() -> None:
    """Options go out as their words (`route=witchs-cauldron`, not its index), and the bot takes them."""
    name = next(e.name for e in engine.EDITIONS.values() if any(spec.choices for spec in e.options))
    record = engine.get_edition(name)
    spec = next(spec for spec in record.options if spec.choices)
    options = record.resolve_options({spec.name: spec.high})
    transcript: list[tuple[str, str]] = []
    with start(builtin_bot("random"), transcript=transcript) as bot:
        bot.new_game(name, options, record.default_players, 0)
    line = next(text for way, text in transcript if text.startswith("newgame"))
    assert f" {spec.name}={spec.choices[-1]} " in line, line


def test_argv_must_be_a_list_and_exist() -> None:
    with pytest.raises(TypeError):
        Engine.start("python -m expeditions bot random")  # type: ignore[arg-type]
    with pytest.raises(EngineTerminatedError, match="cannot start"):
        Engine.start(["/nonexistent/bot"])


def test_crash_is_reported_with_status_and_stderr(tmp_path: Path) -> None:
    log = tmp_path / "crash.log"
    bot = start([sys.executable, str(BOTS / "crash.py")], log_path=log)
    state = mid_game()
    with pytest.raises(EngineTerminatedError) as err:
        bot.play(state.view_text(state.to_move), timeout=5)
    assert err.value.returncode == 3 and "crash.py: giving up" in err.value.stderr_tail
    assert "exit status 3" in str(err.value)
    with pytest.raises(EngineTerminatedError):
        bot.ping()
    bot.quit()
    assert "giving up" in log.read_text()


@pytest.mark.parametrize("timeout", [0.05, 0.2])
def test_timeouts_are_honoured(timeout: float) -> None:
    """Never before the timeout; after it by a few ms on an idle machine. The upper bound allows for
    a loaded machine's scheduling (the waits are wall-clock): it tells a timeout kept from one that
    waits for the bot, not a fast machine from a busy one."""
    bot = start([sys.executable, str(BOTS / "hang.py")])
    state = mid_game()
    started = time.perf_counter()
    with pytest.raises(EngineTimeoutError, match="no bestmove within"):
        bot.play(state.view_text(state.to_move), Limits(movetime_ms=10), timeout=timeout)
    late = time.perf_counter() - started - timeout
    assert 0 <= late < 0.25
    started = time.perf_counter()
    code = bot.quit(timeout=0.1)  # it never reads `quit`: killed
    assert code == -9 and time.perf_counter() - started < 1.0


def test_garbage_is_a_protocol_error() -> None:
    bot = start([sys.executable, str(BOTS / "garbage.py")])
    state = mid_game()
    with pytest.raises(ProtocolError, match="not a UEI line: 'Thinking really hard") as err:
        bot.play(state.view_text(state.to_move), timeout=5)
    assert err.value.line.startswith("Thinking")
    bot.quit()
    lenient = start([sys.executable, str(BOTS / "garbage.py")], strict=False)
    assert lenient.play(state.view_text(state.to_move), timeout=5).decision in state.legal_text()
    assert lenient.ignored == ["Thinking really hard about this one..."]
    lenient.quit()


def test_a_line_that_never_ends_is_a_protocol_error_not_a_memory_hog() -> None:
    from protocol.client import MAX_LINE_BYTES

    bot = start([sys.executable, str(BOTS / "flood.py"), "line"])
    state = mid_game()
    with pytest.raises(ProtocolError, match=f"a line of more than {MAX_LINE_BYTES} bytes .starting b'xxxx"):
        bot.play(state.view_text(state.to_move), timeout=10)
    assert len(bot._buffer) <= 2 * MAX_LINE_BYTES  # what it read of the line is not kept
    bot.close()


def test_a_flood_of_info_lines_keeps_the_recent_ones() -> None:
    from protocol.client import MAX_KEPT

    bot = start([sys.executable, str(BOTS / "flood.py"), "info"])
    state = mid_game()
    result = bot.play(state.view_text(state.to_move), timeout=30)
    assert result.decision in state.legal_text()
    assert MAX_KEPT // 2 <= len(result.info) <= MAX_KEPT
    assert result.info[-1]["iterations"] == 19999 and result.lines[0]["iterations"] == 19999
    bot.quit()


def test_handshake_timeout_and_banner(tmp_path: Path) -> None:
    silent = script(tmp_path, "time.sleep(30)\n")
    started = time.perf_counter()
    with pytest.raises(EngineTimeoutError, match="no ueiok"):
        Engine.start(silent, timeout=0.3)
    assert time.perf_counter() - started < 1.0
    banner = script(tmp_path, "say('MyBot 1.0 by me'); handshake(); time.sleep(30)\n")
    with pytest.raises(ProtocolError, match="MyBot 1.0"):
        Engine.start(banner, timeout=5)
    no_editions = script(tmp_path, "sys.stdin.readline(); say('id name x'); say('ueiok'); time.sleep(30)\n")
    with pytest.raises(ProtocolError, match="editions"):
        Engine.start(no_editions, timeout=5)


def test_exit_during_handshake(tmp_path: Path) -> None:
    with pytest.raises(EngineTerminatedError, match="exit status 5") as err:
        Engine.start(script(tmp_path, "sys.stderr.write('no config file\\n'); sys.exit(5)\n"))
    assert err.value.stderr_tail == "no config file"


def test_no_deadlock_when_both_pipes_fill(tmp_path: Path) -> None:
    """The bot answers every line with 8 KB before it reads the next; the referee writes 400
    lines without reading. Neither side may block the other for good."""
    chatty = script(tmp_path, """\
        handshake()
        for line in sys.stdin:
            if line.startswith("quit"):
                break
            say("info string " + "x" * 8000)
            if line.startswith("isready"):
                say("readyok")
        """)
    with start(chatty) as bot:
        started = time.perf_counter()
        for _ in range(400):
            bot.send("position " + "y" * 2000)
        infos = bot.ping(timeout=10)
        assert len(infos) == 401 and time.perf_counter() - started < 10


def test_kill_takes_the_whole_process_group(tmp_path: Path) -> None:
    """A bot started through a wrapper (a child process of its own) dies with its wrapper."""
    pid_file = tmp_path / "child.pid"
    wrapper = script(tmp_path, f"""\
        import subprocess
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        open({str(pid_file)!r}, "w").write(str(child.pid))
        handshake()
        time.sleep(60)
        """)
    bot = start(wrapper)
    child = int(pid_file.read_text())
    assert _running(child)
    bot.quit(timeout=0.1)
    deadline = time.monotonic() + 2
    while _running(child) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not _running(child)


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


def test_stop_from_another_thread() -> None:
    import threading
    state = mid_game()
    with start(builtin_bot("random")) as bot:
        search = bot.start_search(Limits(infinite=True), view=state.view_text(state.to_move))
        threading.Timer(0.05, bot.stop).start()
        assert search.wait(2.0).decision in state.legal_text()


def test_builtin_bot_finds_the_source_tree() -> None:
    env = child_env({"PATH": os.environ.get("PATH", "")})
    assert env["PYTHONPATH"].split(os.pathsep)[0] == str(PROJECT_ROOT)


def test_answers_the_quick_path_must_hand_over(tmp_path: Path) -> None:
    # play() takes a lone `bestmove` line straight from the pipe; everything else must come out
    # as through the general reader: info lines kept, a line split across writes, bad bestmoves
    argv = script(tmp_path, """
        handshake()
        answers = [["info depth 1 string hello\\nbestmove +w8\\n"], ["best", "move -b3\\n"],
                   ["bestmove +r6\\r\\n"], ["bestmove +w8 extra\\n"]]
        for answer in answers:
            line = " "
            while line and not line.startswith("go"):
                line = sys.stdin.readline()
            for part in answer:
                sys.stdout.write(part); sys.stdout.flush(); time.sleep(0.02)
        sys.stdin.readline()
        """)
    bot = start(argv)
    view = mid_game().view_text(0)
    first = bot.play(view, timeout=5)
    assert first.decision == "+w8" and first.info and first.info[0]["string"] == "hello"
    assert bot.play(view, timeout=5).decision == "-b3"
    assert bot.play(view, timeout=5).decision == "+r6"
    with pytest.raises(ProtocolError, match="exactly one decision"):
        bot.play(view, timeout=5)
    bot.kill()


def test_multipv_lines_and_the_answers_value() -> None:
    """With `MultiPV`, the result's `lines` are the bot's last report of each ranked decision, and
    the value recorded with the answer (the arena's) is line 1's, not the last line's."""
    state = mid_game("classic", 6)
    view = state.view_text(state.to_move)
    with start(builtin_bot("ismcts"), options={"MultiPV": 3, "Seed": 1}) as bot:
        bot.new_game("classic", {}, players=2, seat=state.to_move)
        result = bot.play(view, Limits(iterations=3000), timeout=30)
        lines = result.lines
        assert [line["multipv"] for line in lines] == [1, 2, 3]
        assert lines[0]["pv"][0] == result.decision
        assert len({line["pv"][0] for line in lines}) == 3
        assert lines[0]["visits"] >= lines[1]["visits"] >= lines[2]["visits"] > 0
        bot.configure({"Seed": 1})  # the same seed, budget and view (no tree kept): the same search
        decision, value, size, elapsed = bot.decide_with_estimate(view, Limits(iterations=3000), timeout=30)
        assert 0 < elapsed < 30_000
        assert decision == result.decision
        assert value == lines[0]["value"] != lines[2]["value"] and size == 3000


def test_legal_decisions_only_to_a_bot_that_asked(tmp_path: Path) -> None:
    """`request legal` in the handshake: every `go` of the bot's seat ends with its legal decisions
    in the engine's order. A bot that did not ask (version 1) sees the same lines as before."""
    from helpers import guide_bot

    state = engine.new_game("classic", seed=12)
    seat = state.to_move
    for argv, asked in ((builtin_bot("random"), False), (guide_bot(tmp_path), True)):
        transcript: list[tuple[str, str]] = []
        with start(argv, transcript=transcript) as bot:
            assert bot.wants_legal is asked
            bot.new_game("classic", {}, 2, seat)
            assert bot.play(state.view_text(seat), Limits(movetime_ms=20), timeout=5).decision in state.legal_text()
            bot.position(state.view_text(seat))  # a go on its own: the list of the position sent last
            assert bot.go(Limits(movetime_ms=20), timeout=5).decision in state.legal_text()
        gos = [line for direction, line in transcript if direction == ">" and line.startswith("go")]
        expected = "go movetime 20" + (" legal " + " ".join(state.legal_text()) if asked else "")
        assert gos == [expected, expected]


def test_no_legal_list_when_the_seat_is_not_to_move(tmp_path: Path) -> None:
    from helpers import guide_bot

    state = engine.new_game("classic", seed=12)
    other = 1 - state.to_move
    with start(guide_bot(tmp_path)) as bot:
        bot.position(state.view_text(other))
        assert bot.go_line(Limits(movetime_ms=5)) == "go movetime 5"
        with pytest.raises(EngineError, match="no legal decisions given"):
            bot.go(Limits(movetime_ms=5), timeout=5)


@pytest.mark.parametrize("with_info", [False, True])
def test_a_referee_waiting_for_the_gil_does_not_charge_the_bot(tmp_path: Path, with_info: bool) -> None:
    # The bot answers 20 ms after `go`; meanwhile another thread of this process holds the GIL
    # for far longer (list.sort of floats never lets it go). The answer's time is the pipes' own
    # (written go -> read answer, stamped in C without the GIL), not the wait for the GIL after.
    import random
    import threading

    prefix = "info iterations 5\\n" if with_info else ""  # the general reader's path, and the quick one
    argv = script(tmp_path, f"""
        handshake()
        while True:
            line = sys.stdin.readline()
            if not line:
                break
            if line.startswith("go"):
                time.sleep(0.02)
                sys.stdout.write("{prefix}bestmove +w8\\n"); sys.stdout.flush()
        """)
    bot = start(argv)
    view = mid_game().view_text(0)
    bot.decide_with_estimate(view, Limits(movetime_ms=50), timeout=5)  # the bot's first answer: warm
    floats = [random.random() for _ in range(3_000_000)]
    go = threading.Event()

    def hold_the_gil() -> None:
        go.wait()
        time.sleep(0.005)
        sorted(floats)

    holder = threading.Thread(target=hold_the_gil)
    holder.start()
    started = time.perf_counter()
    go.set()
    decision, _, _, elapsed_ms = bot.decide_with_estimate(view, Limits(movetime_ms=50), timeout=5)
    wall_ms = (time.perf_counter() - started) * 1000
    holder.join()
    bot.kill()
    assert decision == "+w8"
    if wall_ms < 150:
        pytest.skip(f"the GIL was not held long enough to tell ({wall_ms:.0f} ms)")
    assert 15 <= elapsed_ms < 100, (elapsed_ms, wall_ms)
