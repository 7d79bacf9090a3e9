"""The bot side (protocol/server.py, protocol/searcher.py), driven in-process line by line, and
through `expeditions bot` over real pipes."""
from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest

import engine
from protocol.limits import Limits
from protocol.messages import latest_lines, parse_info
from protocol.policy import Policy, PolicyOption
from bots.random import RandomPolicy
from bots.registry import POLICIES, make_policy
from protocol.local import PROJECT_ROOT, builtin_bot, child_env, expeditions_argv
from protocol.server import COMMANDS, Server
from helpers import random_state, short_options


class Recorder:
    """Collects the server's output lines; waits for one to appear."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._cond = threading.Condition()

    def __call__(self, line: str) -> None:
        with self._cond:
            self.lines.append(line)
            self._cond.notify_all()

    def wait_for(self, prefix: str, timeout: float = 2.0, start: int = 0) -> str:
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for line in self.lines[start:]:
                    if line.startswith(prefix):
                        return line
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no line starting {prefix!r} in {self.lines[start:]}")
                self._cond.wait(left)

    def take(self) -> list[str]:
        with self._cond:
            out, self.lines = self.lines, []
            return out


class Searching(Policy):
    """Thinks until stopped (polling the flag), reporting progress; answers the first legal."""

    name = "searching"
    options = (PolicyOption("Depth", "spin", 3, 1, 9), PolicyOption("Fast", "check", False),
               PolicyOption("Style", "combo", "calm", choices=("calm", "wild")))

    def __init__(self, *, ignore_stop: bool = False, fail: bool = False, answer: object = None) -> None:
        super().__init__()
        self.ignore_stop, self.fail, self.answer = ignore_stop, fail, answer
        self.games: list[tuple] = []
        self.results: list[str] = []

    def new_game(self, edition, options, players, seat):
        self.games.append((edition, dict(options), players, seat))

    def game_over(self, result):
        self.results.append(result)

    def choose(self, view, limits, stop=None, info=None):
        if self.fail:
            raise RuntimeError("policy bug")
        if self.answer is not None:
            return self.answer
        n = 0
        while self.ignore_stop or stop is None or not stop.is_set():
            n += 1
            if info is not None and n % 5 == 0:
                info({"iterations": n, "value": 0.5, "pv": [view.legal()[0]]})
            time.sleep(0.002)
            if self.ignore_stop and n > 2000:
                break
        return view.legal()[0]


def state_after(edition: str, steps: int, seed: int = 3) -> engine.State:
    import random
    rng = random.Random(seed)
    state = engine.new_game(edition, seed=seed)
    for _ in range(steps):
        state.apply(rng.choice(state.legal()))
    return state


@pytest.fixture
def out() -> Recorder:
    return Recorder()


def serve(policy: Policy, out: Recorder, **kwargs) -> Server:
    return Server(policy, out, **kwargs)


def test_handshake_lists_options_and_editions(out: Recorder) -> None:
    s = serve(Searching(), out)
    s.handle("uei")
    lines = out.take()
    assert lines[:3] == ["id name searching", "id author expeditions", "id protocol 2"]
    assert "option name Depth type spin default 3 min 1 max 9" in lines
    assert "option name Fast type check default false" in lines
    assert "option name Style type combo default calm var calm var wild" in lines
    assert lines[-2] == "editions " + " ".join(engine.EDITIONS)
    assert lines[-1] == "ueiok"


def test_setoption(out: Recorder) -> None:
    p = Searching()
    s = serve(p, out)
    s.handle("setoption name depth value 5")
    s.handle("setoption name Fast value true")
    assert out.take() == [] and p.settings["Depth"] == 5 and p.settings["Fast"] is True
    for bad in ("setoption name Depth value 10", "setoption name Depth value x", "setoption name Nope value 1",
                "setoption name Style value loud", "setoption Depth 3"):
        s.handle(bad)
        lines = out.take()
        assert len(lines) == 1 and lines[0].startswith("info string error "), (bad, lines)
    assert p.settings == {"Depth": 5, "Fast": True, "Style": "calm"}


@pytest.mark.parametrize("edition", list(engine.EDITIONS))
def test_a_game_position_by_position(edition: str, out: Recorder) -> None:
    p = RandomPolicy(5)
    p.instant = True
    s = serve(p, out)
    options = short_options(edition, rounds=2)
    state = engine.new_game(edition, seed=11, **options)
    for seat in range(state.num_seats):
        s.handle(f"newgame {edition} {engine.get_edition(edition).options_text(options)} players {state.num_seats} seat {seat}")
    decisions = 0
    while not state.is_terminal():
        s.handle("position " + state.view_text(state.to_move))
        s.handle("go movetime 50")
        (line,) = out.take()
        decision = line.split()[1]
        assert line.startswith("bestmove ") and decision in state.legal_text()
        state.apply(decision)
        decisions += 1
    assert decisions > 50


def test_position_is_authoritative(out: Recorder) -> None:
    """A view for another seat or game than the last newgame starts a new game for the policy
    (a bot restarted mid-game gets no newgame at all)."""
    p = Searching(answer=None)
    p.instant = True
    p.answer = None
    s = serve(p, out)
    state = state_after("classic", 7)
    s.handle("newgame classic players 2 seat 0")
    assert p.games == [("classic", {"rounds": 3, "max_turns": 300}, 2, 0)]
    mover = state.to_move
    s.handle("position " + state.view_text(mover))
    p.answer = state.legal()[0]
    s.handle("go")
    assert out.take() == ["bestmove " + state.legal_text()[0]]
    assert p.games[-1] == ("classic", {"rounds": 3, "max_turns": 300}, 2, mover)
    assert len(p.games) == (1 if mover == 0 else 2)


@pytest.mark.parametrize("edition", list(engine.EDITIONS))
def test_bad_input_one_error_line_state_unchanged(edition: str, out: Recorder) -> None:
    s = serve(make_policy("random"), out)
    state = state_after(edition, 9)
    view = state.view_text(state.to_move)
    s.handle(f"newgame {edition} players {state.num_seats} seat {state.to_move}")
    s.handle("position " + view)
    s.handle("d")
    before = out.take()
    option = engine.get_edition(edition).options[0]
    bad = [
        "frobnicate", "go movetime", "go movetime x", "go sideways", "go clocks 1/2/3/4/5",
        f"go clocks {'/'.join(['100'] * (state.num_seats + 1))}",
        "position", "position classic", "position " + view.replace(" turn=", " turn=y", 1),
        "position " + view.replace("seat=", "seat=9", 1), "position full " + view,
        "position full classic rounds=3", "newgame", "newgame chess players 2 seat 0",
        f"newgame {edition} players 7 seat 0", f"newgame {edition} max_turns=0 players {state.num_seats} seat 0",
        f"newgame {edition} {option.name}={option.high + 1} players {state.num_seats} seat 0",  # out of range
        f"newgame {edition} colour=blue players {state.num_seats} seat 0",
        "setoption name Seed value -1", "perft", "perft 2", "perft x", "gameover", "gameover scores a/b",
        "\x00\x01",
    ]
    for line in bad:
        s.handle(line)
        lines = out.take()
        assert len(lines) == 1 and lines[0].startswith("info string error "), (line, lines)
    s.handle("d")
    assert out.take() == before
    s.handle("go")
    (answer,) = out.take()
    assert answer.split()[1] in state.legal_text()


def test_go_refused_when_not_to_move_or_over(out: Recorder) -> None:
    s = serve(make_policy("random"), out)
    s.handle("go")
    assert out.take()[0].startswith("info string error go: no position")
    state = state_after("classic", 4)
    s.handle("position " + state.view_text(1 - state.to_move))
    s.handle("go")
    assert "is not to move" in out.take()[0]
    s.handle("legal")
    assert "is not to move" in out.take()[0]
    while not state.is_terminal():
        state.apply(state.legal()[0])
    s.handle("position " + state.view_text(0))
    s.handle("go")
    assert "game is over" in out.take()[0]


def test_debug_commands_on_full_positions(out: Recorder) -> None:
    s = serve(make_policy("random"), out)
    state = state_after("partners", 5)
    s.handle("position full " + state.to_text())
    s.handle("d")
    lines = out.take()
    assert lines[0] == "position full " + state.to_text()
    assert lines[1].startswith("info string full position")
    assert lines[2:] == ["info string " + line for line in state.pretty().splitlines()]
    s.handle("legal")
    assert out.take() == ["legal " + " ".join(state.legal_text())]
    s.handle("perft 2")
    assert out.take() == [f"perft 2 {state.perft(2)}"]
    s.handle("perft 99")
    assert "above the limit" in out.take()[0]
    s.handle("go")  # decides for the mover from the mover's view alone
    assert out.take()[0].split()[1] in state.legal_text()


def test_infinite_waits_for_stop_and_isready_answers_meanwhile(out: Recorder) -> None:
    s = serve(Searching(), out)
    state = state_after("expedition", 6)
    s.handle("position " + state.view_text(state.to_move))
    s.handle("go infinite")
    time.sleep(0.1)
    s.handle("isready")
    assert out.wait_for("readyok", 0.05)
    assert not any(line.startswith("bestmove") for line in out.lines)
    assert any(line.startswith("info iterations") and " pv " in line for line in out.lines)
    for busy in ("go", "position " + state.view_text(state.to_move), "newgame classic players 2 seat 0",
                 "setoption name Depth value 4", "perft 1"):
        n = len(out.lines)
        s.handle(busy)
        assert "search is running" in out.wait_for("info string error", 0.5, n)
    s.handle("d")  # allowed while searching
    errors = sum(line.startswith("info string error") for line in out.lines)
    started = time.perf_counter()
    s.handle("stop")
    line = out.wait_for("bestmove", 1.0)
    assert time.perf_counter() - started < 0.05
    assert line.split()[1] in state.legal_text()
    assert s.searcher.wait_idle(1.0)
    s.handle("stop")  # idle: ignored, no error
    time.sleep(0.01)
    assert sum(line.startswith("bestmove") for line in out.lines) == 1
    assert sum(line.startswith("info string error") for line in out.lines) == errors


def test_instant_policy_in_infinite_mode_still_waits_for_stop(out: Recorder) -> None:
    s = serve(make_policy("random"), out)
    state = state_after("classic", 2)
    s.handle("position " + state.view_text(state.to_move))
    s.handle("go infinite")
    time.sleep(0.05)
    assert out.lines == []
    s.handle("stop")
    assert out.wait_for("bestmove", 1.0).split()[1] in state.legal_text()


def test_movetime_raises_the_stop_flag(out: Recorder) -> None:
    s = serve(Searching(), out)
    state = state_after("classic", 3)
    s.handle("position " + state.view_text(state.to_move))
    started = time.perf_counter()
    s.handle("go movetime 60")
    out.wait_for("bestmove", 1.0)
    assert 0.055 < time.perf_counter() - started < 0.3


class Noting(Policy):
    """Reports a line, then a note (as the searcher's check does), and answers the first legal."""

    name = "noting"

    def choose(self, view, limits, stop=None, info=None):
        if info is not None:
            info({"value": 0.5, "pv": [view.legal()[0]]})
            info({"string": "check a note"})
        return view.legal()[0]


def test_an_info_string_is_a_message_not_a_line(out: Recorder) -> None:
    s = serve(Noting(), out)
    state = state_after("classic", 3)
    s.handle("position " + state.view_text(state.to_move))
    s.handle("go")
    out.wait_for("bestmove")
    infos = [line for line in out.lines if line.startswith("info ")]
    assert infos[-1] == "info string check a note"
    assert latest_lines([parse_info(line) for line in infos]) == [parse_info(infos[0])]
    assert parse_info(infos[0])["pv"] == [state.decision_to_text(state.legal()[0])]


def test_clock_share(out: Recorder) -> None:
    s = serve(Searching(), out)
    state = state_after("classic", 3)
    s.handle("position " + state.view_text(state.to_move))
    started = time.perf_counter()
    s.handle("go clocks 2000/2000 incs 0/0")
    out.wait_for("bestmove", 2.0)
    assert time.perf_counter() - started < 0.5  # a twentieth of the clock, not all of it


def test_watchdog_answers_for_a_policy_that_ignores_stop(out: Recorder) -> None:
    s = serve(Searching(ignore_stop=True), out, grace_ms=30)
    state = state_after("classic", 3)
    s.handle("position " + state.view_text(state.to_move))
    started = time.perf_counter()
    s.handle("go movetime 50")
    line = out.wait_for("bestmove", 1.0)
    assert time.perf_counter() - started < 0.2
    assert line.split()[1] == state.legal_text()[0]
    assert any("did not answer in time" in line for line in out.lines)
    s.handle("gameover scores 1/2")  # the stuck policy thread finishes later; its answer is dropped


class Provisional(Searching):
    """Ignores stop, but knows what it would play now: the last legal decision."""

    def provisional(self, view):
        return view.legal()[-1]


@pytest.mark.parametrize("known, played", [(True, -1), (False, 0)])
def test_watchdog_plays_the_policys_provisional_decision(out: Recorder, known: bool, played: int) -> None:
    """An overrunning search is answered with what the policy had found so far; the first legal
    decision only when it has nothing (or nothing legal) to offer."""
    policy = Provisional(ignore_stop=True) if known else Searching(ignore_stop=True)
    s = serve(policy, out, grace_ms=30)
    state = state_after("classic", 3)
    s.handle("position " + state.view_text(state.to_move))
    s.handle("go movetime 50")
    line = out.wait_for("bestmove", 1.0)
    assert line.split()[1] == state.legal_text()[played]
    note = "its provisional decision" if known else "the first legal decision"
    assert any(f"did not answer in time; playing {note}" in line for line in out.lines), out.lines
    s.handle("gameover scores 1/2")


def test_ismcts_provisional_decision_is_its_search_so_far() -> None:
    """IsmctsPolicy.provisional: None for a view it is not deciding, else a legal decision (the
    heuristic's before the search has enough visits, then the most visited)."""
    from bots.ismcts_policy import IsmctsPolicy
    state = next(s for s in (state_after("classic", n) for n in range(8)) if len(s.legal()) > 2)
    view = state.view(state.to_move)
    bot = IsmctsPolicy(seed=1)
    assert bot.provisional(view) is None
    bot.choose(view, Limits(iterations=400), threading.Event(), lambda info: None)
    assert bot.provisional(view) == bot.last_search.decision
    assert bot.provisional(state.view(state.to_move)) is None  # another view object: not its search


def test_watchdog_answers_before_the_clock_runs_out(out: Recorder) -> None:
    s = serve(Searching(ignore_stop=True), out)
    state = state_after("classic", 3)
    s.handle("position " + state.view_text(state.to_move))
    started = time.perf_counter()
    s.handle("go clocks 200/200")
    out.wait_for("bestmove", 1.0)
    assert 0.15 < time.perf_counter() - started < 0.3  # near the clock less a safety margin, not the 10 ms budget


@pytest.mark.parametrize("policy", [Searching(fail=True), Searching(answer=9999), Searching(answer="+zz")])
def test_a_failing_policy_still_answers_legally(policy: Policy, out: Recorder) -> None:
    s = serve(policy, out, log=open("/dev/null", "w"))
    state = state_after("classic", 3)
    s.handle("position " + state.view_text(state.to_move))
    s.handle("go iterations 10")
    line = out.wait_for("bestmove", 1.0)
    assert line.split()[1] in state.legal_text()
    assert any("policy failed" in line for line in out.lines)


@pytest.mark.parametrize("name", ["random", "greedy", "ismcts"])
@pytest.mark.parametrize("edition", list(engine.EDITIONS))
def test_go_searchmoves_chooses_among_them(name: str, edition: str, out: Recorder) -> None:
    s = serve(make_policy(name), out)
    for seed in range(4):
        state = state_after(edition, 7 + seed, seed)
        legal = state.legal_text()
        if len(legal) < 3:
            continue
        s.handle("position " + state.view_text(state.to_move))
        for chosen in (legal[-2:], legal[1:2]):  # two decisions, and one: answered without a search
            s.handle(f"go iterations 300 searchmoves {' '.join(chosen)}")
            answer = out.wait_for("bestmove", 10.0).split()[1]
            assert answer in chosen, (chosen, out.lines)
            assert not any("error" in line for line in out.take())


def test_go_searchmoves_refuses_an_illegal_decision(out: Recorder) -> None:
    s = serve(make_policy("greedy"), out)
    state = state_after("classic", 6)
    legal = state.legal_text()
    s.handle("position " + state.view_text(state.to_move))
    s.handle("d")
    before = out.take()
    illegal = next(text for text in ("+b2", "+y3", "-g4", "+r5", "-wW") if text not in legal)
    for line, reason in ((f"go searchmoves {legal[0]} {illegal}", f"'{illegal}' is not a legal decision"),
                         ("go searchmoves zz9", "'zz9' is not a legal decision"),
                         ("go searchmoves", "needs at least one decision")):
        s.handle(line)
        lines = out.take()
        assert len(lines) == 1 and lines[0].startswith("info string error go") and reason in lines[0], (line, lines)
    s.handle("d")
    assert out.take() == before
    s.handle(f"go searchmoves {legal[-1]}")
    assert out.take() == [f"bestmove {legal[-1]}"]


def test_a_policy_that_ignores_searchmoves_is_held_to_them(out: Recorder) -> None:
    """The server library keeps the protocol's promise for a policy that does not read
    `limits.searchmoves`: an answer outside them becomes the first of them (logged)."""
    s = serve(Searching(answer=None), out, log=open("/dev/null", "w"))
    state = state_after("classic", 4)
    legal = state.legal_text()
    assert len(legal) >= 3
    s.handle("position " + state.view_text(state.to_move))
    s.handle(f"go movetime 20 searchmoves {legal[-1]} {legal[-2]}")  # Searching answers legal[0]
    line = out.wait_for("bestmove", 2.0)
    assert line == f"bestmove {legal[-2]}"  # the first of them in the order of the legal decisions
    assert any("policy failed" in line for line in out.lines)


def test_gameover_and_quit(out: Recorder) -> None:
    p = Searching()
    s = serve(p, out)
    s.handle("newgame classic players 2 seat 1")
    s.handle("gameover scores 10/-4 returns 1/0 reason normal")
    assert p.results == ["scores 10/-4 returns 1/0 reason normal"] and out.take() == []
    assert s.handle("quit") is False
    s.run(["isready", "quit", "isready"])
    assert out.take() == ["readyok"]


def test_unknown_command_lists_the_commands(out: Recorder) -> None:
    serve(make_policy("random"), out).handle("ucinewgame")
    (line,) = out.take()
    assert line.startswith("info string error unknown command 'ucinewgame'") and all(c in line for c in COMMANDS)


# -- over real pipes -------------------------------------------------------------------------------
def run_bot(lines: list[str], *argv: str, timeout: float = 20) -> subprocess.CompletedProcess:
    return subprocess.run(list(argv) or builtin_bot("random"), input="\n".join(lines) + "\n", capture_output=True,
                          text=True, env=child_env(), timeout=timeout)


@pytest.mark.parametrize("name", list(POLICIES))
def test_expeditions_bot_over_pipes(name: str) -> None:
    state = state_after("partners", 12)
    proc = subprocess.Popen(builtin_bot(name), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)
    try:
        def send(line: str) -> None:
            proc.stdin.write(line + "\n")  # type: ignore[union-attr]
            proc.stdin.flush()  # type: ignore[union-attr]

        def read_until(word: str) -> list[str]:
            lines = []
            while not lines or lines[-1].split()[0] != word:
                lines.append(proc.stdout.readline().rstrip("\n"))  # type: ignore[union-attr]
                assert lines[-1], f"the bot exited; output {lines}"
            return lines

        send("uei")
        handshake = read_until("ueiok")
        assert handshake[0] == f"id name {name}" and any(line.startswith("editions ") for line in handshake)
        send(f"newgame partners players 4 seat {state.to_move}")
        send("position " + state.view_text(state.to_move))
        send("go movetime 100")
        answer = read_until("bestmove")
        assert all(line.startswith("info ") for line in answer[:-1])
        assert answer[-1].split()[1] in state.legal_text()
        send("isready")
        assert read_until("readyok") == ["readyok"]
        send("quit")
        assert proc.wait(5) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


LOADED_AT_NEWGAME = """
import sys
import engine
from bots.registry import make_policy
policy = make_policy(sys.argv[1])
loaded = set()  # records of one family share their parts
for record in engine.EDITIONS.values():
    parts = [part for part in (record.heuristic, record.opponent_model) if part is not None]
    assert not any("value" in part.__dict__ for part in parts if id(part) not in loaded), record.name
    policy.new_game(record.name, record.resolve_options(), record.check_players(None), 0)
    loaded.update(id(part) for part in parts)
    print(record.name, all("value" in part.__dict__ for part in parts))
"""


@pytest.mark.parametrize("name", list(POLICIES))
def test_newgame_loads_what_the_first_go_would_import(name: str, tmp_path) -> None:
    """The modules a record names (the heuristic, the opponent model) build their tables at import,
    a tenth of a second for eldorado's heuristic: `newgame`, before any clock runs, loads them for
    every built-in bot, so that a game's first `go` does not pay for them on its clock."""
    done = subprocess.run([sys.executable, "-c", LOADED_AT_NEWGAME, name], capture_output=True, text=True,
                          env=child_env(), cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [word for record in engine.EDITIONS for word in (record, "True")]


def test_stdout_holds_only_protocol(tmp_path) -> None:
    """A policy that prints (as libraries sometimes do) must not corrupt the protocol stream."""
    script = tmp_path / "noisy.py"
    script.write_text(
        "import os, sys\n"
        f"sys.path.insert(0, {str(PROJECT_ROOT)!r})\n"
        "from bots.random import RandomPolicy\n"
        "from protocol.server import serve_stdio\n"
        "class Noisy(RandomPolicy):\n"
        "    name = 'noisy'\n"
        "    instant = True\n"
        "    def choose(self, view, limits, stop=None, info=None):\n"
        "        print('thinking...')\n"
        "        os.write(1, b'raw bytes on fd 1\\n')\n"
        "        return super().choose(view, limits, stop, info)\n"
        "sys.exit(serve_stdio(Noisy(1)))\n")
    state = state_after("classic", 1)
    done = run_bot(["uei", "position " + state.view_text(state.to_move), "go", "isready", "quit"],
                   sys.executable, str(script))
    out = done.stdout.splitlines()
    assert out[-2].startswith("bestmove ") and out[-1] == "readyok"
    assert all(line.split()[0] in ("id", "option", "editions", "ueiok", "bestmove", "readyok") for line in out), out
    assert "thinking..." in done.stderr and "raw bytes on fd 1" in done.stderr


def test_end_of_input_ends_the_bot() -> None:
    done = run_bot(["isready"])
    assert done.returncode == 0 and done.stdout == "readyok\n"


def test_unknown_bot_name() -> None:
    done = subprocess.run(expeditions_argv("bot", "nosuch"), capture_output=True, text=True,
                          timeout=20)
    assert done.returncode == 2 and "unknown bot 'nosuch'" in done.stderr and done.stdout == ""


@pytest.mark.parametrize("name", ["random", "ismcts"])  # the C loop, and the Python one
def test_an_overlong_line_over_pipes_is_one_error(name: str) -> None:
    from protocol.messages import MAX_LINE_BYTES
    state = state_after("classic", 3)
    done = run_bot(["position " + state.view_text(state.to_move), "go " + "9" * (2 * MAX_LINE_BYTES),
                    "isready", "legal"], *builtin_bot(name))
    assert done.stdout.splitlines() == [
        f"info string error a line of more than {MAX_LINE_BYTES} bytes "
        "(starting b'go 9999999999999999999999999999999999999'): ignored",
        "readyok", "legal " + " ".join(state.legal_text())]  # the position is the one before
    assert done.returncode == 0


def test_d_pictures_a_view_as_its_seat_sees_the_table(edition, out: Recorder) -> None:
    """`d` of a view shows the edition's picture of the table for that seat: the same picture as
    the true position's for the seat, whatever the view's canonical state holds where it is blind."""
    s = serve(make_policy("random"), out)
    for steps in (0, 9, 30):
        state = random_state(edition, 3, steps=steps)
        seat = state.to_move if state.to_move is not None else 0
        s.handle("position " + state.view_text(seat))
        s.handle("d")
        lines = out.take()
        assert lines[1].startswith(f"info string view of seat {seat}, ")
        assert lines[2:] == ["info string " + line for line in state.pretty(seat).splitlines()]


def test_time_counts_from_the_arrival_of_go() -> None:
    # A `go` that arrived 150 ms before the server handles it (a bot waiting for a core) leaves
    # the search only what is left of its movetime: the referee's clock started at the write.
    from bots.ismcts_policy import IsmctsPolicy

    out: list[str] = []
    server = Server(IsmctsPolicy(seed=1), out.append)
    state = engine.new_game("classic", seed=5, rounds=1)
    server.handle(f"position {state.view_text(0)}")
    arrived = time.monotonic_ns() - 150_000_000
    server.handle("go movetime 200", arrived)
    assert server.searcher.wait_idle(5.0)
    waited_ms = (time.monotonic_ns() - arrived) / 1e6
    assert out[-1].startswith("bestmove ")
    assert waited_ms < 250, waited_ms  # had it counted from the handling, 350 ms
