"""What a tournament is: its bots, edition, format, time control and seeds.

Written on the command line or in a TOML file; stored as JSON in the results database so that a
tournament can be resumed exactly.

>>> cfg = TournamentConfig(edition="classic", bots=[BotSpec("a", ["x"]), BotSpec("b", ["y"])])
>>> TournamentConfig.from_json(cfg.to_json()) == cfg
True
"""
from __future__ import annotations

import json
import os
import shlex
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import engine
from arena.schedule import check_enough_bots
from arena.sprt import Sprt

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    _Stored = TypeVar("_Stored", bound=DataclassInstance)

FORMATS = ("round-robin", "gauntlet")
PLAYED = "played"
"""The format of a results-database entry that holds one game a person played (`expeditions play
--db`): replayed, reviewed and exported like a tournament's games, never resumed."""


@dataclass
class BotSpec:
    """An external bot: a name, the argv that starts it (no shell) and its protocol options."""

    name: str
    command: list[str]
    options: dict[str, str] = field(default_factory=dict)
    time: TimeControl | None = None
    """Its own time control in a tournament (time odds; the margin stays the tournament's);
    None: the tournament's."""

    @classmethod
    def parse(cls, tokens: list[str]) -> BotSpec:
        """From `name=N cmd="prog args" option.K=V` tokens (the value of `cmd` is split like a shell
        would, but never run through one), and its own time control: `movetime=MS`, or `clock=MS`
        with `increment=MS`.

        >>> BotSpec.parse(["name=g", "cmd=expeditions bot greedy", "option.Seed=3"])
        BotSpec(name='g', command=['expeditions', 'bot', 'greedy'], options={'Seed': '3'}, time=None)
        >>> BotSpec.parse(["cmd=./mybot", "movetime=400"]).time.describe()
        'movetime 400 ms'
        """
        name, command, options, times = None, None, {}, {}
        for token in tokens:
            key, sep, value = token.partition("=")
            if not sep:
                raise ValueError(f"--bot: expected key=value, got {token!r} ({BOT_KEYS})")
            if key == "name":
                name = value
            elif key == "cmd":
                command = shlex.split(value)
            elif key.startswith("option.") and len(key) > 7:
                options[key[7:]] = value
            elif key in ("movetime", "clock", "increment"):
                try:
                    times[key] = int(value)
                except ValueError:
                    raise ValueError(f"--bot: {key} must be a whole number of ms, got {value!r}") from None
            else:
                raise ValueError(f"--bot: unknown key {key!r} ({BOT_KEYS})")
        if not command:
            raise ValueError("--bot needs cmd=…")
        return cls(name or Path(command[0]).name, command, options, _own_time(times, "--bot"))


BOT_KEYS = "keys: name, cmd, option.NAME, movetime, clock, increment"


def _own_time(times: dict[str, Any], where: str) -> TimeControl | None:
    """A bot's own time control from its `movetime`, `clock` and `increment` (None without them)."""
    if not times:
        return None
    if "movetime" not in times and "clock" not in times:
        raise ValueError(f"{where}: an increment goes with a clock")
    try:
        return TimeControl(movetime_ms=times.get("movetime"), clock_ms=times.get("clock"),
                           increment_ms=times.get("increment", 0))
    except ValueError as err:
        raise ValueError(f"{where}: {err}") from None


@dataclass
class TimeControl:
    """Per-decision time (movetime) or a per-game clock with increment; `margin_ms` of grace."""

    movetime_ms: int | None = None
    clock_ms: int | None = None
    increment_ms: int = 0
    margin_ms: int = 100

    def __post_init__(self) -> None:
        if self.movetime_ms is None and self.clock_ms is None:
            self.movetime_ms = 100
        self.check()

    def check(self) -> None:
        """ValueError naming the first field out of range (a time, or a clock without its
        pieces): called on construction and again by `TournamentConfig.validate`, since the
        command line sets fields afterwards.

        >>> TimeControl(movetime_ms=100, increment_ms=5)
        Traceback (most recent call last):
        ValueError: time control: an increment goes with a clock, not with a movetime
        """
        for name, least in (("movetime_ms", 1), ("clock_ms", 1), ("increment_ms", 0), ("margin_ms", 0)):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < least):
                raise ValueError(f"time control: {name[:-3]} (ms) must be an integer of at least {least}, got {value!r}")
        if self.movetime_ms is not None and self.clock_ms is not None:
            raise ValueError("time control: a movetime or a clock, not both")
        if self.increment_ms and self.clock_ms is None:
            raise ValueError("time control: an increment goes with a clock, not with a movetime")

    def describe(self) -> str:
        if self.clock_ms is not None:
            return f"clock {self.clock_ms} ms + {self.increment_ms} ms"
        return f"movetime {self.movetime_ms} ms"


@dataclass
class ResourceLimits:
    """Limits applied to every bot process (0 = none), and how it is confined (arena.sandbox)."""

    memory_mb: int = 4096
    cpu_seconds: int = 0
    open_files: int = 256
    sandbox: str = "auto"
    """`auto` (Landlock where the kernel offers it, else `folder`), `landlock` or `folder`."""

    def __post_init__(self) -> None:
        self.check()

    def check(self) -> None:
        """ValueError naming a negative or non-integer limit, or an unknown sandbox."""
        from arena.sandbox import MODES

        for name in ("memory_mb", "cpu_seconds", "open_files"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"limits: {name} must be an integer of at least 0 (0: none), got {value!r}")
        if self.sandbox not in MODES:
            raise ValueError(f"limits: sandbox must be one of {', '.join(MODES)}, got {self.sandbox!r}")


@dataclass
class TournamentConfig:
    edition: str
    bots: list[BotSpec]
    options: dict[str, int] = field(default_factory=dict)
    players: int | None = None
    format: str = "round-robin"
    deals: int = 10
    """Deals per group of bots; every deal is played once per rotation of the sides."""
    seed: int = 0
    concurrency: int = 2
    time: TimeControl = field(default_factory=TimeControl)
    limits: ResourceLimits = field(default_factory=ResourceLimits)
    sprt: Sprt | None = None
    max_failures: int = 3
    """A bot failing this many games in a row (crash, timeout, bad output) is dropped."""
    positions: list[str] = field(default_factory=list)
    """Where the deals start (full-state positions, `read_positions`): deal i starts from the i-th,
    instead of being dealt from its seed. Empty: every deal from its seed."""
    transcript: str = ""
    """A directory for the games' transcripts (every line between the referee and each bot,
    timestamped, a file per game and seat); empty: none."""

    def validate(self) -> None:
        edition = engine.get_edition(self.edition)
        self.options = edition.resolve_options(self.options)
        self.players = edition.check_players(self.players)
        if self.format not in FORMATS:
            raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {self.format!r}")
        _number_repeated_names(self.bots)
        if len(self.bots) < 2:
            raise ValueError("a tournament needs at least two bots")
        if self.deals < 1 or self.concurrency < 1:
            raise ValueError("deals and concurrency must be at least 1")
        if self.max_failures < 1:
            raise ValueError(f"max_failures must be at least 1, got {self.max_failures}")
        self.time.check()
        self.limits.check()
        if self.sprt is not None and len(self.bots) != 2:
            raise ValueError("--sprt compares exactly two bots")
        if self.positions:
            self._check_positions()
        clock = self.time.clock_ms is not None
        for bot in self.bots:
            if bot.time is not None:
                bot.time.check()
                if (bot.time.clock_ms is not None) != clock:
                    raise ValueError(f"bot {bot.name}: its own time control ({bot.time.describe()}) must be of the "
                                     f"tournament's kind ({self.time.describe()}): a movetime for all, or a clock")
        check_enough_bots(len(self.bots), self.sides(), self.format)  # before anything is written

    def seat_sides(self) -> list[int]:
        """Each seat's side (its team, or the seat itself), asked of the engine."""
        state = engine.new_game(self.edition, seed=0, players=self.players, **self.options)
        return [state.team_of(seat) for seat in range(state.num_seats)]

    def sides(self) -> int:
        """The sides of a game: its seats, or its teams where seats play in partnerships."""
        return len(set(self.seat_sides()))

    def seat_time(self, bot: int) -> TimeControl:
        """The time control of bot number `bot`: its own, with the tournament's margin, or the
        tournament's."""
        own = self.bots[bot].time
        if own is None:
            return self.time
        return TimeControl(own.movetime_ms, own.clock_ms, own.increment_ms, self.time.margin_ms)

    def _check_positions(self) -> None:
        """ValueError naming the first start position this tournament cannot play: one of another
        edition, rules or number of players, or a finished game; or fewer positions than deals."""
        if self.deals > len(self.positions):
            raise ValueError(f"deals {self.deals}: the positions give only {len(self.positions)}")
        wanted = f"{self.edition} {_rules(self.options)} players={self.players}"
        for number, text in enumerate(self.positions[:self.deals], 1):
            try:
                state = engine.parse_position(text)
            except engine.ExpeditionsError as err:
                raise ValueError(f"position {number}: {err}") from None
            found = f"{state.edition} {_rules(dict(state.options))} players={state.num_seats}"
            if found != wanted:
                raise ValueError(f"position {number} is a game of {found}; the tournament plays {wanted}")
            if state.is_terminal():
                raise ValueError(f"position {number} is a finished game: no decision to play")

    def to_json(self) -> str:
        data = asdict(self)
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> TournamentConfig:
        return cls.from_dict(json.loads(text))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentConfig:
        """A configuration as `to_json` stored it. Its time control and limits are read as they
        were written, unchecked: a tournament stored under looser checks (an earlier version) stays
        readable — replayed, exported — though `validate` refuses to play more of it."""
        data = dict(data)
        data["bots"] = [_restored_bot(b) if isinstance(b, dict) else b for b in data.get("bots", [])]
        if isinstance(data.get("time"), dict):
            data["time"] = _restored(TimeControl, data["time"])
        if isinstance(data.get("limits"), dict):
            data["limits"] = _restored(ResourceLimits, data["limits"])
        if isinstance(data.get("sprt"), dict):
            data["sprt"] = Sprt(**data["sprt"])
        return cls(**data)

    @classmethod
    def from_toml(cls, path: str | Path) -> TournamentConfig:
        """A tournament file (see docs/arena.md for the format). ValueError names the file and
        the key at fault: a misspelt key is an error, not a setting silently left at its default.
        """
        with open(path, "rb") as f:
            try:
                raw = dict(tomllib.load(f))
            except tomllib.TOMLDecodeError as err:
                raise ValueError(f"{path}: not TOML: {err}") from None
            except UnicodeDecodeError as err:  # TOML is UTF-8 text
                raise ValueError(f"{path}: not UTF-8 text (byte {err.start} is {err.object[err.start]:#04x}); "
                                 f"a tournament file is TOML, in UTF-8") from None
        if "bots" not in raw:
            raise ValueError(f"{path}: no [[bots]] tables")
        if not isinstance(raw["bots"], list) or not all(isinstance(b, dict) for b in raw["bots"]):
            raise ValueError(f"{path}: bots must be [[bots]] tables")
        bots = []
        for b in raw["bots"]:
            _check_keys(path, "[[bots]]", b, {"name", "command", "options", "movetime", "clock", "increment"})
            command = b.get("command")
            if isinstance(command, str):
                command = shlex.split(command)
            if not command or not isinstance(command, list) or not all(isinstance(a, str) for a in command):
                raise ValueError(f"{path}: every bot needs a command (a string, or a list of strings)")
            options = _table(path, "options of a bot", b.get("options", {}))
            times = {k: b[k] for k in ("movetime", "clock", "increment") if k in b}
            bots.append(BotSpec(str(b.get("name") or Path(command[0]).name), list(command),
                                {k: str(v) for k, v in options.items()}, _own_time(times, f"{path}: [[bots]]")))
        raw["bots"] = bots
        time = _table(path, "[time]", raw.pop("time", {}))
        _check_keys(path, "[time]", time, {"movetime", "clock", "increment", "margin"})
        raw["time"] = TimeControl(
            movetime_ms=time.get("movetime"), clock_ms=time.get("clock"),
            increment_ms=time.get("increment", 0), margin_ms=time.get("margin", 100))
        if "limits" in raw:
            limits = _table(path, "[limits]", raw["limits"])
            _check_keys(path, "[limits]", limits, set(ResourceLimits.__dataclass_fields__))
            raw["limits"] = ResourceLimits(**limits)
        if "sprt" in raw:
            sprt = _table(path, "[sprt]", raw["sprt"])
            _check_keys(path, "[sprt]", sprt, set(Sprt.__dataclass_fields__))
            if not {"elo0", "elo1"} <= set(sprt):
                raise ValueError(f"{path}: [sprt] needs elo0 and elo1")
            raw["sprt"] = Sprt(**sprt)
        if "positions" in raw:
            if not isinstance(raw["positions"], str):
                raise ValueError(f"{path}: positions must be a file name (a string), got {raw['positions']!r}")
            raw["positions"] = read_positions(Path(path).parent / raw["positions"])
            raw.setdefault("deals", len(raw["positions"]))
            for key, value in zip(("edition", "options", "players"), game_of(raw["positions"][0])):
                raw.setdefault(key, value)  # what the file leaves out, the positions say
        if "transcript" in raw:
            if not isinstance(raw["transcript"], str) or not raw["transcript"]:
                raise ValueError(f"{path}: transcript must be a directory name (a string), got {raw['transcript']!r}")
            raw["transcript"] = str(Path(path).parent / raw["transcript"])
        raw["options"] = _table(path, "[options]", raw.get("options", {}))
        raw.setdefault("edition", engine.default_edition().name)  # as on the command line
        _check_keys(path, "the top level", raw, set(cls.__dataclass_fields__))
        for key, kind in (("edition", str), ("format", str), ("deals", int), ("seed", int),
                          ("concurrency", int), ("max_failures", int), ("players", int)):
            if key in raw and (not isinstance(raw[key], kind) or isinstance(raw[key], bool)):
                raise ValueError(f"{path}: {key} must be {'a string' if kind is str else 'an integer'}, "
                                 f"got {raw[key]!r}")
        return cls(**raw)


def _rules(options: dict[str, int]) -> str:
    return " ".join(f"{k}={v}" for k, v in sorted(options.items()))


def game_of(position: str) -> tuple[str, dict[str, int], int]:
    """The edition, rules and number of players of a position's game.

    >>> game_of(engine.new_game("classic", seed=1, rounds=1).to_text())
    ('classic', {'rounds': 1, 'max_turns': 300}, 2)
    """
    state = engine.parse_position(position)
    return state.edition, dict(state.options), state.num_seats


def read_positions(path: str | Path) -> list[str]:
    """The start positions of a file: one full-state position a line (as `State.to_text` writes
    it, docs/notation.md), blank lines and `#` comments skipped. ValueError names the file and the
    line of the first that is not a position, or a file without any.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "deals.txt")
    >>> lines = ["# a deal, then a line that is not a position", engine.new_game("classic", seed=1).to_text(), "classic ?"]
    >>> _ = open(path, "w").write(chr(10).join(lines))
    >>> read_positions(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: .../deals.txt line 3: ...
    """
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise ValueError(f"{path}: cannot read positions ({getattr(err, 'strerror', None) or err})") from None
    positions = []
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            engine.parse_position(text)
        except engine.ExpeditionsError as err:
            raise ValueError(f"{path} line {number}: {err}") from None
        positions.append(text)
    if not positions:
        raise ValueError(f"{path}: no positions (one full-state position a line)")
    return positions


def _restored_bot(stored: dict[str, Any]) -> BotSpec:
    """A bot as `to_json` stored it (its own time control, if any, read back unchecked)."""
    stored = dict(stored)
    if isinstance(stored.get("time"), dict):
        stored["time"] = _restored(TimeControl, stored["time"])
    return BotSpec(**stored)


def _restored(kind: type[_Stored], stored: dict[str, Any]) -> _Stored:
    """An instance of the dataclass `kind` with the stored fields (defaults for those missing),
    without the checks its constructor makes of new input.

    >>> _restored(TimeControl, {"movetime_ms": 0, "margin_ms": 100})
    TimeControl(movetime_ms=0, clock_ms=None, increment_ms=0, margin_ms=100)
    """
    restored = kind.__new__(kind)
    for name, spec in kind.__dataclass_fields__.items():
        default = spec.default_factory() if callable(spec.default_factory) else spec.default
        setattr(restored, name, stored.get(name, default))
    return restored


def _table(path: str | Path, what: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{path}: {what} must be a table, got {value!r}")
    return value


def _check_keys(path: str | Path, where: str, table: dict[str, Any], known: set[str]) -> None:
    unknown = set(table) - known
    if unknown:
        raise ValueError(f"{path}: unknown keys in {where}: {', '.join(sorted(unknown))} "
                         f"(known: {', '.join(sorted(known))})")


def _number_repeated_names(bots: list[BotSpec]) -> None:
    """Gives a bot named like an earlier one a numbered name (greedy, greedy#2, …): the same
    program may take several sides (e.g. three greedy opponents in a four-player game).

    >>> bots = [BotSpec("g", ["x"]), BotSpec("g", ["x"]), BotSpec("r", ["y"])]
    >>> _number_repeated_names(bots); [b.name for b in bots]
    ['g', 'g#2', 'r']
    """
    seen: dict[str, int] = {}
    taken = {bot.name for bot in bots}
    for bot in bots:
        if bot.name in seen:
            n = seen[bot.name] + 1
            while f"{bot.name}#{n}" in taken:
                n += 1
            seen[bot.name] = n
            bot.name = f"{bot.name}#{n}"
            taken.add(bot.name)
        else:
            seen[bot.name] = 1


def builtin_bot(name: str, **options: str) -> BotSpec:
    """One of our own bots, started like any external one (`expeditions bot NAME` run by this
    interpreter, see protocol.local)."""
    from protocol.local import builtin_bot as argv
    return BotSpec(name, argv(name), dict(options))


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity mask where the OS has one): the default number
    of games at once, and the CPUs `--pin` deals workers to."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
