"""The bot side under fuzzed input: whatever line comes — a view with characters changed, dropped
or added, commands with random arguments — the server answers with at most one error line and
then nothing else, never an internal error, and a rejected line leaves its position as it was."""
from __future__ import annotations

import io
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from bots.registry import make_policy
from protocol.server import COMMANDS, Server

NOTATION = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ=/-+>?.,:_* "
TOKENS = ["0", "1", "2", "3", "-1", "99999999999999999999", "1/2", "1//2", "/", "D", "Dr", "+b7", "-y3",
          "+bW", ">yWy3", "name", "value", "Seed", "Hash", "MultiPV", "players", "seat", "rounds=1",
          "max_turns=0", "movetime", "clocks", "incs", "iterations", "nodes", "searchmoves", "scores",
          "returns", "reason", "full", "classic", "partners", "expedition", "board", "é", "\x00", ""]


def position(edition: str, seed: int, steps: int) -> engine.State:
    rng = random.Random(seed)
    state = engine.new_game(edition, seed=seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal()))
    return state


@st.composite
def mutated(draw, text: str) -> str:
    """`text` with a few characters replaced, deleted or inserted."""
    chars = list(text)
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, max(0, len(chars) - 1)))
        kind = draw(st.sampled_from(["replace", "delete", "insert"]))
        c = draw(st.sampled_from(NOTATION))
        if kind == "replace" and chars:
            chars[i] = c
        elif kind == "delete" and chars:
            del chars[i]
        else:
            chars.insert(i, c)
    return "".join(chars)


@st.composite
def fuzzed_line(draw, view: str) -> str:
    kind = draw(st.sampled_from(["view", "command", "go"]))
    if kind == "view":
        return "position " + draw(mutated(view))
    if kind == "go":
        args = draw(st.lists(st.sampled_from([t for t in TOKENS if t != "infinite"]), max_size=6))
        return " ".join(["go", *args])
    command = draw(st.sampled_from([c for c in COMMANDS if c not in ("quit", "perft")] + ["perft 1", "frob"]))
    return " ".join([command, *draw(st.lists(st.sampled_from(TOKENS), max_size=6))])


class Lines(list):
    def __call__(self, line: str) -> None:
        self.append(line)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fuzzed_lines_get_one_error_at_most_and_change_nothing(data) -> None:
    edition = data.draw(st.sampled_from(sorted(engine.EDITIONS)))
    state = position(edition, data.draw(st.integers(0, 40)), data.draw(st.integers(0, 40)))
    if state.is_terminal():
        return
    view = state.view_text(state.to_move)
    out, log = Lines(), io.StringIO()
    server = Server(make_policy("random"), out, log=log)
    try:
        server.handle("position " + view)
        server.handle("d")
        before = list(out)
        out.clear()
        line = data.draw(fuzzed_line(view))
        server.handle(line)
        server.searcher.wait_idle(2.0)
        answer = list(out)
        assert not any("internal error" in a for a in answer), (line, answer, log.getvalue())
        assert "Traceback" not in log.getvalue(), (line, log.getvalue())
        errors = [a for a in answer if a.startswith("info string error")]
        assert len(errors) <= 1, (line, answer)
        if errors:
            assert answer == errors, (line, answer)
            assert "\n" not in errors[0] and len(errors[0]) < 400, errors[0]
            out.clear()
            server.handle("d")
            assert list(out) == before, (line, "the rejected line changed the position")
    finally:
        server.searcher.close()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_c_loop_answers_fuzzed_sessions_as_the_python_server_does(data) -> None:
    """The instant bots' C command loop reads views with a scanner of its own: on fuzzed views and
    commands, each followed by `go` and `d`, it writes the same bytes as the Python server."""
    from test_fastloop import c_loop, python_loop

    edition = data.draw(st.sampled_from(sorted(engine.EDITIONS)))
    state = position(edition, data.draw(st.integers(0, 40)), data.draw(st.integers(0, 40)))
    if state.is_terminal():
        return
    view = state.view_text(state.to_move)
    lines = ["uei", "isready", "position " + view]
    for _ in range(data.draw(st.integers(1, 6))):
        lines += [data.draw(fuzzed_line(view)), "go", "d"]
    seed = data.draw(st.integers(0, 2**32))
    bot = data.draw(st.sampled_from(["random", "greedy"]))
    assert c_loop(lines, seed, bot)[0] == python_loop(lines, seed, bot), lines


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(TOKENS + ["info", "option", "type", "spin", "check", "combo", "string", "default",
                                          "min", "max", "var", "pv", "multipv", "visits", "-5", "x", "1e9"]),
                max_size=12))
def test_message_parsers_fail_only_with_a_message_error(tokens) -> None:
    """Every parser of both sides, on any tokens: a value, or MessageError with its reason."""
    from protocol.messages import (MessageError, parse_go, parse_info, parse_newgame, parse_option,
                                   parse_setoption)

    line = " ".join(tokens)
    for parse in (lambda: parse_go(tokens), lambda: parse_newgame(tokens), lambda: parse_setoption(tokens),
                  lambda: parse_info("info " + line), lambda: parse_option("option " + line)):
        try:
            parse()
        except MessageError as err:
            assert str(err) and "\n" not in str(err)
