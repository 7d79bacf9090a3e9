"""The grammar of UEI lines (docs/protocol.md): parsing and formatting, shared by both sides.

Nothing here does I/O. Parsers raise `MessageError` with a one-line reason; the server turns it
into an `info string error …` line, the client into a `ProtocolError`.

>>> from protocol.limits import Limits
>>> format_go(Limits(clocks_ms=(60000, 58000), increments_ms=(1000, 1000)))
'go clocks 60000/58000 incs 1000/1000'
>>> parse_go("movetime 250 iterations 1000".split())  # doctest: +NORMALIZE_WHITESPACE
Limits(movetime_ms=250, clocks_ms=None, increments_ms=None, iterations=1000, nodes=None, infinite=False,
       searchmoves=None)
>>> parse_info("info iterations 1200 time 15 value 0.62 pv +b7 D string hello world")
{'iterations': 1200, 'time': 15, 'value': 0.62, 'pv': ['+b7', 'D'], 'string': 'hello world'}
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from engine.errors import ExpeditionsError
from protocol.limits import Limits
from protocol.policy import PolicyOption

PROTOCOL_VERSION = 2
"""The version of docs/protocol.md this package speaks (announced as `id protocol 2`). Version 2
added `request legal`; a bot that does not send it sees exactly version 1."""

REQUEST_LEGAL = "legal"
"""What a bot names in its handshake line `request legal` to be sent its legal decisions with each
`go` (docs/protocol.md, section 4)."""

MAX_COUNT = 2**63 - 1
"""Largest value of a count argument (milliseconds, iterations, nodes)."""

MAX_LINE_BYTES = 1 << 20
"""The longest line either side reads, newline excluded. UEI lines are short (a view is about 1 KB,
a long `pv` a few); a peer that writes on without a newline is broken and must not fill the
reader's memory."""


def overlong_line_error(start: bytes) -> str:
    """The message for a line longer than MAX_LINE_BYTES, quoting its first bytes.

    >>> overlong_line_error(b"position " + b"x" * 100)
    "a line of more than 1048576 bytes (starting b'position xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx')"
    """
    return f"a line of more than {MAX_LINE_BYTES} bytes (starting {bytes(start[:40])!r})"


class MessageError(ExpeditionsError, ValueError):
    """A line that does not follow the grammar; the message says what was expected."""


class Info(TypedDict, total=False):
    """What an `info` line reports; every key is optional."""

    iterations: int
    """Search iterations (playouts) so far."""
    nodes: int
    """Tree nodes so far."""
    time: int
    """Milliseconds since `go`."""
    rate: int
    """Iterations (or nodes) per second."""
    value: float
    """Expected return of the bot's seat (0 = certain loss, 1 = certain win)."""
    pv: list[str]
    """Principal variation, decisions as text, the bot's decision first."""
    multipv: int
    """Rank of the line (1 = the best) when the bot reports several (option `MultiPV`)."""
    visits: int
    """Iterations that went through the line's first decision."""
    string: str
    """Free text (`info string …`); errors start with `error `."""


INT_INFO_KEYS = ("iterations", "nodes", "time", "rate", "multipv", "visits")
"""Info keys whose value is one non-negative integer."""


def latest_lines(infos: Iterable[Info]) -> list[Info]:
    """The latest report of each line, best first: what a search reported last for each
    `multipv` rank (a line without the key is rank 1). A line with a `string` and nothing but a
    `time` besides is a message, not a report (`info string …`, `info time 5 string …`).

    >>> latest_lines([parse_info("info multipv 1 value 0.6 pv a"), parse_info("info multipv 2 value 0.5 pv b"),
    ...               parse_info("info multipv 1 value 0.7 pv b"), parse_info("info string note"),
    ...               parse_info("info time 5 string note")])
    [{'multipv': 1, 'value': 0.7, 'pv': ['b']}, {'multipv': 2, 'value': 0.5, 'pv': ['b']}]
    >>> latest_lines([parse_info("info value 0.4 pv a string the search's own note")])[0]["pv"]
    ['a']
    """
    latest: dict[int, Info] = {}
    for info in infos:
        if "string" not in info or info.keys() - {"string", "time"}:
            latest[info.get("multipv", 1)] = info
    return [latest[rank] for rank in sorted(latest)]


@dataclass(frozen=True)
class NewGame:
    """The arguments of `newgame <edition> [name=value …] players <n> seat <s>`."""

    edition: str
    options: dict[str, str]
    """Rule options as given (text values, not yet checked against the edition)."""
    players: int
    seat: int


def parse_count(text: str, what: str, low: int = 0) -> int:
    """A decimal integer in low..2^63-1 (no sign, no underscores)."""
    if not text.isascii() or not text.isdigit():
        raise MessageError(f"{what}: expected a non-negative integer, got {text!r}")
    value = int(text)
    if not low <= value <= MAX_COUNT:
        raise MessageError(f"{what}: {value} out of range {low}..{MAX_COUNT}")
    return value


def _per_seat(text: str, what: str) -> tuple[int, ...]:
    return tuple(parse_count(part, what) for part in text.split("/"))


GO_LIMITS = ("movetime", "clocks", "incs", "iterations", "nodes", "infinite", "searchmoves")
"""The arguments of `go`."""


def parse_go(args: Sequence[str]) -> Limits:
    """The limits of a `go` command (its arguments after `go`), in any order, each at most once;
    `searchmoves` takes the decisions up to the next limit's name (like UCI's). Decisions are
    checked against the position by the caller, which knows it.

    >>> parse_go("searchmoves +b7 -y3 movetime 100".split()).searchmoves
    ('+b7', '-y3')
    """
    values: dict[str, Any] = {}
    i = 0
    while i < len(args):
        key = args[i]
        if key in values or (key == "infinite" and values.get("infinite")):
            raise MessageError(f"go: {key} given twice")
        if key == "infinite":
            values["infinite"] = True
            i += 1
            continue
        if key == "searchmoves":  # the decisions run to the next limit's name (or `legal`) or the end
            end = i + 1
            while end < len(args) and args[end] not in GO_LIMITS and args[end] != "legal":
                end += 1
            if end == i + 1:
                raise MessageError("go: searchmoves needs at least one decision")
            values[key] = tuple(dict.fromkeys(args[i + 1:end]))
            i = end
            continue
        if key not in GO_LIMITS:
            raise MessageError(f"go: unknown limit {key!r} (limits: {', '.join(GO_LIMITS)})")
        if i + 1 >= len(args):
            raise MessageError(f"go: {key} needs a value")
        value = args[i + 1]
        if key in ("clocks", "incs"):
            values[key] = _per_seat(value, f"go {key}")
        else:
            values[key] = parse_count(value, f"go {key}", low=1 if key in ("iterations", "nodes") else 0)
        i += 2
    if "incs" in values and "clocks" not in values:
        raise MessageError("go: incs without clocks")
    if "incs" in values and len(values["incs"]) != len(values["clocks"]):
        raise MessageError("go: clocks and incs list different numbers of seats")
    return Limits(movetime_ms=values.get("movetime"), clocks_ms=values.get("clocks"),
                  increments_ms=values.get("incs"), iterations=values.get("iterations"),
                  nodes=values.get("nodes"), infinite=bool(values.get("infinite", False)),
                  searchmoves=values.get("searchmoves"))


def format_go(limits: Limits | None) -> str:
    """The `go` line that asks for a decision within `limits` (inverse of parse_go)."""
    if limits is None:
        return "go"
    parts = ["go"]
    if limits.movetime_ms is not None:
        parts += ["movetime", str(int(limits.movetime_ms))]
    if limits.clocks_ms is not None:
        parts += ["clocks", "/".join(str(int(c)) for c in limits.clocks_ms)]
        if limits.increments_ms is not None:
            parts += ["incs", "/".join(str(int(c)) for c in limits.increments_ms)]
    if limits.iterations is not None:
        parts += ["iterations", str(int(limits.iterations))]
    if limits.nodes is not None:
        parts += ["nodes", str(int(limits.nodes))]
    if limits.infinite:
        parts.append("infinite")
    if limits.searchmoves:
        parts += ["searchmoves", *limits.searchmoves]
    return " ".join(parts)


def with_legal(go: str, legal: Sequence[str]) -> str:
    """A `go` line with the seat's legal decisions last, for a bot that sent `request legal`: they
    run to the end of the line, in the engine's (notation) order.

    >>> with_legal("go movetime 100", ["+y4", "-y4", "D"])
    'go movetime 100 legal +y4 -y4 D'
    """
    return f"{go} legal {' '.join(legal)}"


def parse_newgame(args: Sequence[str]) -> NewGame:
    """`newgame` arguments: the edition, `name=value` options, then `players <n> seat <s>`.

    >>> parse_newgame("classic rounds=1 players 2 seat 1".split())
    NewGame(edition='classic', options={'rounds': '1'}, players=2, seat=1)
    """
    if not args:
        raise MessageError("newgame: expected <edition> [name=value ...] players <n> seat <s>")
    edition, rest = args[0], list(args[1:])
    options: dict[str, str] = {}
    while rest and "=" in rest[0]:
        name, _, value = rest.pop(0).partition("=")
        if not name or not value:
            raise MessageError(f"newgame: option {name}={value}: expected name=value")
        if name in options:
            raise MessageError(f"newgame: option {name} given twice")
        options[name] = value
    if len(rest) != 4 or rest[0] != "players" or rest[2] != "seat":
        raise MessageError("newgame: expected players <n> seat <s> after the edition and its options")
    players = parse_count(rest[1], "newgame players", low=1)
    seat = parse_count(rest[3], "newgame seat")
    if seat >= players:
        raise MessageError(f"newgame: seat {seat} out of range 0..{players - 1}")
    return NewGame(edition, options, players, seat)


def format_newgame(edition: str, options: Mapping[str, object], players: int, seat: int) -> str:
    """The `newgame` line seating a bot.

    >>> format_newgame("expedition", {"cost": 20}, 2, 0)
    'newgame expedition cost=20 players 2 seat 0'
    """
    opts = "".join(f" {k}={v}" for k, v in options.items())
    return f"newgame {edition}{opts} players {players} seat {seat}"


def parse_setoption(args: Sequence[str]) -> tuple[str, str]:
    """`setoption name <name> value <value>` → (name, value); names and values may hold spaces.

    >>> parse_setoption("name Exploration constant value 1.4".split())
    ('Exploration constant', '1.4')
    """
    if not args or args[0] != "name" or "value" not in args[1:]:
        raise MessageError("setoption: expected name <name> value <value>")
    at = args.index("value", 1)
    name, value = " ".join(args[1:at]), " ".join(args[at + 1:])
    if not name:
        raise MessageError("setoption: empty option name")
    return name, value


def format_option(option: PolicyOption) -> str:
    """The handshake line announcing a policy option.

    >>> format_option(PolicyOption("Seed", "spin", 0, 0, 100))
    'option name Seed type spin default 0 min 0 max 100'
    """
    parts = ["option", "name", option.name, "type", option.type]
    if option.type == "check":
        parts += ["default", "true" if option.default else "false"]
    elif option.type == "spin":
        parts += ["default", str(option.default)]
        if option.min is not None:
            parts += ["min", str(option.min)]
        if option.max is not None:
            parts += ["max", str(option.max)]
    elif option.type == "combo":
        parts += ["default", str(option.default)]
        for choice in option.choices:
            parts += ["var", choice]
    else:  # string: the default is the rest of the line
        parts += ["default", str(option.default) if option.default not in (None, "") else "<empty>"]
    return " ".join(parts)


_OPTION_TYPES = ("spin", "check", "combo", "string")


def parse_option(line: str) -> PolicyOption:
    """An `option …` handshake line (inverse of format_option).

    >>> parse_option("option name Mode type combo default fast var fast var slow").choices
    ('fast', 'slow')
    """
    tokens = line.split()
    if len(tokens) < 5 or tokens[:2] != ["option", "name"] or "type" not in tokens[2:]:
        raise MessageError(f"option line: expected option name <name> type <type> ..., got {line!r}")
    at = tokens.index("type", 2)
    name = " ".join(tokens[2:at])
    if not name or at + 1 >= len(tokens):
        raise MessageError(f"option line without a name or type: {line!r}")
    kind = tokens[at + 1]
    if kind not in _OPTION_TYPES:
        raise MessageError(f"option {name}: unknown type {kind!r} (types: {', '.join(_OPTION_TYPES)})")
    rest = tokens[at + 2:]
    if kind == "string":
        default: Any = ""
        if rest[:1] == ["default"]:
            default = " ".join(rest[1:])
            default = "" if default == "<empty>" else default
        return PolicyOption(name, kind, default)
    fields: dict[str, Any] = {}
    choices: list[str] = []
    i = 0
    while i < len(rest):
        key = rest[i]
        if key not in ("default", "min", "max", "var") or i + 1 >= len(rest):
            raise MessageError(f"option {name}: unexpected {key!r} in {line!r}")
        if key == "var":
            choices.append(rest[i + 1])
        else:
            fields[key] = rest[i + 1]
        i += 2
    try:
        if kind == "spin":
            return PolicyOption(name, kind, int(fields.get("default", 0)),
                                int(fields["min"]) if "min" in fields else None,
                                int(fields["max"]) if "max" in fields else None)
    except ValueError:
        raise MessageError(f"option {name}: spin values must be integers: {line!r}") from None
    if kind == "check":
        default = fields.get("default", "false")
        if default not in ("true", "false"):
            raise MessageError(f"option {name}: check default must be true or false: {line!r}")
        return PolicyOption(name, kind, default == "true")
    return PolicyOption(name, kind, fields.get("default"), choices=tuple(choices))


def format_info(info: Mapping[str, Any]) -> str:
    """An `info` line from a policy's report; `pv` and `string` go last, unknown keys are kept.

    >>> format_info({"string": "hi", "value": 0.5, "iterations": 10})
    'info value 0.5 iterations 10 string hi'
    """
    parts = ["info"]
    for key, value in info.items():
        if key in ("pv", "string") or value is None:
            continue
        if isinstance(value, float):
            value = f"{value:.4g}"
        parts += [str(key), str(value).replace(" ", "_") or "-"]
    if info.get("pv"):
        parts += ["pv", *map(str, info["pv"])]
    if info.get("string") is not None:
        parts += ["string", " ".join(str(info["string"]).split())]
    return " ".join(parts)


def parse_info(line: str) -> Info:
    """An `info` line: `key value` pairs, `pv` taking tokens up to `string`, `string` the rest.
    Unknown keys are kept as text (a client must ignore what it does not know)."""
    tokens = line.split()
    if not tokens or tokens[0] != "info":
        raise MessageError(f"not an info line: {line!r}")
    info: dict[str, Any] = {}
    i = 1
    while i < len(tokens):
        key = tokens[i]
        if key == "string":
            info["string"] = " ".join(tokens[i + 1:])
            break
        if key == "pv":
            end = tokens.index("string", i + 1) if "string" in tokens[i + 1:] else len(tokens)
            info["pv"] = tokens[i + 1:end]
            i = end
            continue
        if i + 1 >= len(tokens):
            raise MessageError(f"info: {key} without a value")
        value = tokens[i + 1]
        if key in INT_INFO_KEYS:
            info[key] = parse_count(value, f"info {key}")
        elif key == "value":
            try:
                info[key] = float(value)
            except ValueError:
                raise MessageError(f"info value: expected a number, got {value!r}") from None
        else:
            info[key] = value
        i += 2
    return info  # type: ignore[return-value]  # Info's keys, and unknown ones kept as text


def error_line(message: str) -> str:
    """The one line a bot answers a bad command with.

    >>> error_line("unknown command 'foo'")
    "info string error unknown command 'foo'"
    """
    return "info string error " + " ".join(message.split())


def is_error_info(info: Info) -> bool:
    """Whether an info line reports an error (`info string error …`)."""
    text = info.get("string", "")
    return text == "error" or text.startswith("error ")


def format_gameover(scores: Iterable[float], returns: Iterable[float] | None = None,
                    reason: str | None = None) -> str:
    """The `gameover` line telling a bot the final scores (and returns, and why it ended).

    >>> format_gameover([25, -10], [1, 0], "normal")
    'gameover scores 25/-10 returns 1/0 reason normal'
    """
    def num(x: float) -> str:
        return str(int(x)) if float(x).is_integer() else f"{x:g}"
    line = "gameover scores " + "/".join(map(num, scores))
    if returns is not None:
        line += " returns " + "/".join(map(num, returns))
    if reason:
        line += " reason " + reason
    return line
