"""The grammar of UEI lines (protocol/messages.py): parsing, formatting and their round trips."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol.limits import Limits
from protocol.policy import PolicyOption
from protocol.messages import (MessageError, error_line, format_gameover, format_go, format_info, format_newgame,
                               format_option, is_error_info, parse_go, parse_info, parse_newgame, parse_option,
                               parse_setoption)

counts = st.integers(min_value=0, max_value=10**12)
positive = st.integers(min_value=1, max_value=10**12)


@st.composite
def limits(draw) -> Limits:
    seats = draw(st.integers(1, 4))
    clocks = draw(st.none() | st.tuples(*[counts] * seats))
    incs = draw(st.none() | st.tuples(*[counts] * seats)) if clocks else None
    return Limits(movetime_ms=draw(st.none() | counts), clocks_ms=clocks, increments_ms=incs,
                  iterations=draw(st.none() | positive), nodes=draw(st.none() | positive),
                  infinite=draw(st.booleans()), searchmoves=draw(st.none() | decisions))


decisions = st.lists(st.sampled_from(["+b7", "-y3", "D", "Pr", "+wW", "x2"]), min_size=1, unique=True).map(tuple)


@given(limits())
def test_go_round_trip(lim: Limits) -> None:
    line = format_go(lim)
    assert line.split()[0] == "go"
    assert parse_go(line.split()[1:]) == lim


def test_go_limits_in_any_order() -> None:
    assert parse_go("infinite nodes 5 movetime 3".split()) == Limits(movetime_ms=3, nodes=5, infinite=True)
    assert parse_go([]) == Limits()
    assert parse_go("searchmoves D +b7 D iterations 9".split()) == Limits(iterations=9, searchmoves=("D", "+b7"))
    assert parse_go("movetime 5 searchmoves -y3".split()) == Limits(movetime_ms=5, searchmoves=("-y3",))


@pytest.mark.parametrize("args, reason", [
    ("movetime", "needs a value"),
    ("movetime soon", "non-negative integer"),
    ("movetime -5", "non-negative integer"),
    ("movetime 1 movetime 2", "twice"),
    ("infinite infinite", "twice"),
    ("depth 3", "unknown limit"),
    ("iterations 0", "out of range"),
    ("incs 5/5", "incs without clocks"),
    ("clocks 1/2 incs 1", "different numbers of seats"),
    ("clocks 1//2", "non-negative integer"),
    ("nodes 99999999999999999999", "out of range"),
    ("searchmoves", "at least one decision"),
    ("searchmoves movetime 5", "at least one decision"),
    ("searchmoves D searchmoves +b7", "twice"),
])
def test_bad_go(args: str, reason: str) -> None:
    with pytest.raises(MessageError, match=reason):
        parse_go(args.split())


def test_info_parsing() -> None:
    info = parse_info("info iterations 10 nodes 20 time 3 rate 3333 value 0.5 pv +b7 D string two  words")
    assert info == {"iterations": 10, "nodes": 20, "time": 3, "rate": 3333, "value": 0.5, "pv": ["+b7", "D"],
                    "string": "two words"}
    assert parse_info("info depth 7 string x") == {"depth": "7", "string": "x"}  # unknown keys kept as text
    assert parse_info("info string") == {"string": ""}
    assert is_error_info(parse_info(error_line("bad  thing")))
    assert not is_error_info(parse_info("info string errors are fun"))
    assert parse_info("info multipv 2 visits 310 value 0.4 pv -y3") == {"multipv": 2, "visits": 310, "value": 0.4,
                                                                       "pv": ["-y3"]}
    for bad in ("info iterations", "info time soon", "info value high", "bestmove D", "info multipv second",
                "info visits -4"):
        with pytest.raises(MessageError):
            parse_info(bad)


@given(st.dictionaries(st.sampled_from(["iterations", "nodes", "time", "rate"]), counts),
       st.none() | st.floats(0, 1, allow_nan=False), st.lists(st.sampled_from(["+b7", "D", "-rT", "Dy"]), max_size=4),
       st.none() | st.text(st.characters(min_codepoint=33, max_codepoint=126), max_size=20))
def test_info_round_trip(ints, value, pv, text) -> None:
    report = dict(ints)
    if value is not None:
        report["value"] = value
    if pv:
        report["pv"] = pv
    if text is not None:
        report["string"] = text
    parsed = parse_info(format_info(report))
    if value is not None:
        assert parsed.pop("value") == pytest.approx(value, abs=1e-3)
        report.pop("value")
    assert parsed == report


@pytest.mark.parametrize("option", [
    PolicyOption("Seed", "spin", 0, 0, 2**63 - 1),
    PolicyOption("Exploration constant", "spin", 14, 0, 100),
    PolicyOption("Ponder", "check", True),
    PolicyOption("Mode", "combo", "fast", choices=("fast", "strong")),
    PolicyOption("Book file", "string", "/tmp/book with spaces.bin"),
    PolicyOption("Empty", "string", ""),
])
def test_option_round_trip(option: PolicyOption) -> None:
    parsed = parse_option(format_option(option))
    assert (parsed.name, parsed.type, parsed.default, parsed.min, parsed.max, parsed.choices) == \
        (option.name, option.type, option.default, option.min, option.max, option.choices)


@pytest.mark.parametrize("line", ["option name X", "option name X type slider default 3", "option type spin",
                                  "option name X type spin default many", "option name X type check default maybe"])
def test_bad_option_lines(line: str) -> None:
    with pytest.raises(MessageError):
        parse_option(line)


def test_newgame() -> None:
    assert parse_newgame("partners players 4 seat 3".split()).seat == 3
    line = format_newgame("expedition", {"rounds": 1, "cost": 20}, 2, 1)
    assert parse_newgame(line.split()[1:]).options == {"rounds": "1", "cost": "20"}
    for bad in ("", "classic", "classic players 2", "classic players 2 seat 2", "classic seat 0 players 2",
                "classic rounds=1 rounds=2 players 2 seat 0", "classic =3 players 2 seat 0",
                "classic players two seat 0"):
        with pytest.raises(MessageError):
            parse_newgame(bad.split())


def test_setoption() -> None:
    assert parse_setoption("name Seed value 7".split()) == ("Seed", "7")
    assert parse_setoption("name Book file value".split()) == ("Book file", "")
    for bad in ("", "Seed value 3", "name value 3", "name Seed"):
        with pytest.raises(MessageError):
            parse_setoption(bad.split())


def test_gameover_and_errors() -> None:
    assert format_gameover([3.5, -2]) == "gameover scores 3.5/-2"
    assert error_line("a\nb   c") == "info string error a b c"
