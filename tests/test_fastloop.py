"""The C command loop of instant bots (protocol/fastloop.pyx) against the Python server.

Both serve the same sessions — whole games as a referee sends them, mixed with every kind of
line the hot path must hand over (errors, debugging commands, full positions, `board`, seats not
to move, clocks, a new game, a changed seed) — and must write the same bytes; the hot path must
actually be taken.
"""
from __future__ import annotations

import os
import random
import tempfile

import pytest

import engine
from bots.greedy import GreedyPolicy
from bots.random import RandomPolicy
from protocol.fastloop import FastLoop
from protocol.messages import format_gameover, format_newgame
from protocol.server import Server


POLICIES = {"random": RandomPolicy, "greedy": GreedyPolicy}


def python_loop(lines: list[str], seed: int, bot: str = "random") -> str:
    out: list[str] = []
    Server(POLICIES[bot](seed), out.append).run(lines)
    return "".join(line + "\n" for line in out)


def c_loop(lines: list[str], seed: int, bot: str = "random") -> tuple[str, FastLoop]:
    with tempfile.TemporaryFile() as stdin, tempfile.TemporaryFile() as stdout:
        stdin.write("".join(line + "\n" for line in lines).encode())
        stdin.seek(0)
        out_fd = stdout.fileno()

        def write(line: str) -> None:
            os.write(out_fd, (line + "\n").encode())

        policy = POLICIES[bot](seed)
        server = Server(policy, write)
        loop = FastLoop(server, policy.fast_decider, out_fd)
        loop.run(stdin.fileno())
        stdout.seek(0)
        return stdout.read().decode(), loop


def game_session(edition: str, seed: int, players: int | None = None) -> list[str]:
    """A referee's lines to one bot playing every seat of a random game (as a bot restarted at
    each seat would see it), with a few lines that must leave the hot path."""
    rng = random.Random(seed)
    state = engine.new_game(edition, seed=seed, players=players, rounds=1)
    n = state.num_seats
    lines = ["uei", "isready", format_newgame(edition, state.options, n, 0)]
    while not state.is_terminal():
        seat = state.to_move
        view = state.view_text(seat)
        roll = rng.random()
        if roll < 0.03:
            lines.append("position " + state.view_text((seat + 1) % n))  # a seat not to move
            lines.append("go")
        elif roll < 0.05:
            lines.append("position classic rounds=x")  # malformed: the old position stays
        elif roll < 0.07:
            lines.append("position full " + state.to_text())
        elif roll < 0.09:
            lines += ["d", "legal"]
        elif roll < 0.10:
            lines.append("setoption name Seed value 77")
        elif roll < 0.105:
            lines.append("setoption name Epsilon value 30")  # greedy: some random decisions
        elif roll < 0.11:
            lines.append("go clocks 1000")  # wrong number of seats
        lines.append(("position   " if roll > 0.97 else "position ") + view + ("  " if roll > 0.95 else ""))
        go = rng.choice(["go movetime 100", "go", f"go clocks {'/'.join(['60000'] * n)} incs {'/'.join(['5'] * n)}",
                         "go iterations 5", "go  movetime 7 "])
        lines.append(go)
        state.apply(rng.choice(state.legal()))
    lines.append(format_gameover(state.scores(), state.returns()))
    lines += ["go", "isready"]
    return lines


@pytest.mark.parametrize("bot", ["random", "greedy"])
@pytest.mark.parametrize("edition,players", [("classic", None), ("partners", None), ("expedition", None),
                                             ("board", 3)])
def test_same_bytes_as_the_python_server(edition: str, players: int | None, bot: str) -> None:
    for seed in range(3):
        lines = game_session(edition, seed, players)
        expected = python_loop(lines, seed, bot)
        got, loop = c_loop(lines, seed, bot)
        assert got == expected
        if edition == "board":  # no C reader for board views: every line goes through Python
            assert loop.fast_lines == 0
        else:
            assert loop.fast_lines > len(lines) // 2


def test_sessions_of_several_games_and_a_quit() -> None:
    lines = game_session("classic", 5) + game_session("expedition", 6)[2:] + ["quit", "isready"]
    expected = python_loop(lines, 9)
    got, loop = c_loop(lines, 9)
    assert got == expected
    assert got.count("readyok\n") == lines.count("isready") - 1  # nothing after quit


def test_a_restarted_bot_starts_the_game_from_the_position() -> None:
    # no newgame: `go` must tell the policy about the game first (the server's rule), then the
    # next decisions take the hot path
    state = engine.new_game("classic", seed=3, rounds=1)
    lines = []
    for _ in range(6):
        lines += ["position " + state.view_text(state.to_move), "go"]
        state.apply(state.legal()[0])
    expected = python_loop(lines, 1)
    got, loop = c_loop(lines, 1)
    assert got == expected and loop.slow_lines >= 1 and loop.fast_lines >= 9


def test_a_last_line_without_newline_and_long_lines() -> None:
    state = engine.new_game("classic", seed=4, rounds=1)
    with tempfile.TemporaryFile() as stdin, tempfile.TemporaryFile() as stdout:
        junk = "x" * 200_000  # longer than the loop's first buffer
        stdin.write(f"isready\nposition {junk}\nposition {state.view_text(0)}\ngo".encode())
        stdin.seek(0)
        policy = RandomPolicy(2)
        server = Server(policy, lambda line: os.write(stdout.fileno(), (line + "\n").encode()))
        FastLoop(server, policy.fast_decider, stdout.fileno()).run(stdin.fileno())
        stdout.seek(0)
        out = stdout.read().decode().splitlines()
    assert out[0] == "readyok"
    assert out[1].startswith("info string error") and len(out[1]) < 400
    assert out[2].split()[0] == "bestmove" and out[2].split()[1] in state.legal_text()


def test_overlong_lines_are_refused_by_both_loops_and_lose_nothing() -> None:
    """A line over MAX_LINE_BYTES (newline excluded) gets one error line from either loop, is never
    held whole, and leaves the position as it was; a line of exactly the limit is still read."""
    from protocol.messages import MAX_LINE_BYTES
    from protocol.server import _lines

    state = engine.new_game("classic", seed=4, rounds=1)
    view = f"position {state.view_text(0)}"
    at_limit = "position " + "y" * (MAX_LINE_BYTES - len("position "))
    session = ("isready\n" + view + "\n"
               + "position " + "x" * (3 * MAX_LINE_BYTES) + "\n"  # over: the position stays
               + at_limit + "\n"  # at the limit: read, and refused as a position
               + "z" * (MAX_LINE_BYTES + 1) + "\n"
               + "go\nisready\n" + "w" * (MAX_LINE_BYTES + 5))  # over, at the end of input
    data = session.encode()

    out: list[str] = []
    server = Server(RandomPolicy(2), out.append)
    with tempfile.TemporaryFile() as stdin:
        stdin.write(data)
        stdin.seek(0)
        server.run(_lines(stdin.fileno(), server.reject_overlong))
    expected = "".join(line + "\n" for line in out)

    with tempfile.TemporaryFile() as stdin, tempfile.TemporaryFile() as stdout:
        stdin.write(data)
        stdin.seek(0)
        policy = RandomPolicy(2)
        c_server = Server(policy, lambda line: os.write(stdout.fileno(), (line + "\n").encode()))
        FastLoop(c_server, policy.fast_decider, stdout.fileno()).run(stdin.fileno())
        stdout.seek(0)
        got = stdout.read().decode()

    assert got == expected
    lines = got.splitlines()
    assert lines[0] == "readyok"
    assert lines[1] == (f"info string error a line of more than {MAX_LINE_BYTES} bytes "
                        "(starting b'position xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'): ignored")
    assert lines[2].startswith("info string error") and "more than" not in lines[2]  # the line at the limit
    assert "(starting b'zzzz" in lines[3]
    assert lines[4].split()[0] == "bestmove" and lines[4].split()[1] in state.legal_text()
    assert lines[5] == "readyok"
    assert "(starting b'wwww" in lines[6] and len(lines) == 7
