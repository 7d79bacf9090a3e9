"""The host protocol (docs/host.md): a client in any language runs games of the engine through JSON
messages — starts a game, reads a seat's view and the legal decisions, applies decisions, seats
bot processes the host plays, and hears every event.

`Host.handle` takes one message (a JSON line or an object) and answers through `emit`: one reply
per request, then the events it caused. `serve_lines` runs it over a stream of lines (what
`expeditions host` does on stdin and stdout); the web GUI of `expeditions serve` can call `handle`
directly.

>>> out = []
>>> host = Host(out.append)
>>> host.handle('{"cmd": "start", "id": 1, "edition": "classic", "options": {"rounds": 1}, "seed": 1}')
>>> out[0]["reply"], out[0]["ok"], out[0]["game"]["seats"][1], out[1]["event"], out[1]["legal"][:2]
('start', True, {'seat': 1, 'team': 1, 'by': 'client'}, 'turn', ['+bW', '+b7'])
>>> host.handle({"cmd": "apply", "decision": "+b1"})
>>> out[-1]["ok"], out[-1]["error"]
(False, "apply: not a decision of classic: '+b1' (expected +card, -card, D, D<pile of ybwgr>)")
>>> host.close()
"""
from __future__ import annotations

import json
import secrets
import shlex
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

import engine
from arena.config import BotSpec, builtin_bot
from arena.host_game import BotSeat, Emit, HostedGame, HostError, option_value
from arena.review import start_bot
from bots.registry import POLICIES
from protocol.client import Engine
from protocol.errors import EngineError
from protocol.limits import Limits
from protocol.messages import MAX_LINE_BYTES

PROTOCOL_VERSION = 1
"""The version of docs/host.md this host speaks."""

DEFAULT_MOVETIME_MS = 1000
"""A seated bot's time a decision when the request gives no limit."""

FIELDS: dict[str, tuple[str, ...]] = {
    "hello": (),
    "start": ("edition", "options", "players", "seed", "position", "bots", "open"),
    "view": ("seat",),
    "legal": (),
    "apply": ("decision", "seat"),
    "seat": ("seat", "bot", "limits"),
    "unseat": ("seat",),
    "stop": (),
    "state": (),
    "end": (),
    "quit": (),
}
"""Each request and the fields it takes besides `cmd` and `id`."""

BOT_FIELDS = ("builtin", "cmd", "name", "options")
LIMIT_FIELDS = ("movetime", "iterations", "nodes")


class Host:
    """One client's session: at most one game at a time. `emit` is called from the caller's thread
    and from the threads that wait for bots, so it must be safe to call from any thread."""

    def __init__(self, emit: Emit, *, version: str = "", allow_commands: bool = True,
                 start: Callable[[BotSpec], Engine] = start_bot) -> None:
        self.emit = emit
        self.version = version
        self.allow_commands = allow_commands
        """Whether a bot may be any program (`cmd`), or only a built-in one."""
        self._start = start
        self.game: HostedGame | None = None
        self.done = False
        """Set by `quit`: the caller stops reading."""

    # ----- messages ------------------------------------------------------------------------------
    def handle(self, message: str | dict[str, Any]) -> None:
        """Answers one request: its reply, then the events it caused (a bad request: one error
        reply, nothing changed)."""
        request: dict[str, Any] = {}
        try:
            if isinstance(message, str):
                try:
                    message = json.loads(message)
                except ValueError as err:
                    raise HostError(f"not JSON: {err}") from None
            if isinstance(message, dict):
                request = message  # its id is echoed even if the rest is wrong
            _check(message)
            command = request["cmd"]
            game = self.game
            if game is not None and command not in ("hello", "start", "quit"):
                with game.lock:  # the reply and the events it causes, with no bot's between them
                    fields = self._run(command, request)
                    self._reply(request, fields)
                    if command in ("apply", "seat", "unseat"):
                        game.advance(announce=command != "unseat" or game.state.to_move == request["seat"])
                if command == "end":
                    game.close()  # out of the lock: a bot told to stop answers on its thread, which takes it
                return
            fields = self._run(command, request)
            self._reply(request, fields)
            if command == "start" and self.game is not None:
                with self.game.lock:
                    self.game.advance()
        except HostError as err:
            self._reply(request, None, str(err))

    def _reply(self, request: dict[str, Any], fields: dict[str, Any] | None, error: str = "") -> None:
        command = request.get("cmd")
        reply: dict[str, Any] = {"reply": command if command in FIELDS else None}
        if "id" in request and _valid_id(request["id"]):
            reply["id"] = request["id"]
        reply["ok"] = fields is not None
        if fields is None:
            reply["error"] = error
        else:
            reply.update(fields)
        self.emit(reply)

    def _run(self, command: str, request: dict[str, Any]) -> dict[str, Any]:
        if command == "hello":
            return self._hello()
        if command == "start":
            return self._start_game(request)
        if command == "quit":
            self.close()
            self.done = True
            return {}
        game = self.game
        if game is None:
            raise HostError(f"{command}: no game (start one first)")
        if command == "view":
            return {"view": game.view(_required(request, "seat"))}
        if command == "legal":
            return game.legal()
        if command == "apply":
            return game.apply(_required(request, "decision"), request.get("seat"))
        if command == "seat":
            return self._seat(game, request)
        if command == "unseat":
            seat = game.check_seat(_required(request, "seat"), "unseat")
            return {"seat": seat, "name": game.unseat(seat)}
        if command == "stop":
            return {"stopped": game.stop()}
        if command == "state":
            return game.full_state()
        assert command == "end"
        over = game.over
        game.end()
        self.game = None
        return {"over": over}

    def close(self) -> None:
        """Ends the game, if any, and stops its bots."""
        if self.game is not None:
            self.game.close()
            self.game = None

    # ----- requests ------------------------------------------------------------------------------
    def _hello(self) -> dict[str, Any]:
        editions = []
        for record in engine.EDITIONS.values():
            options = []
            for spec in record.options:
                option: dict[str, Any] = {"name": spec.name, "default": option_value(spec, spec.default), "min": spec.low,
                                          "max": spec.high, "help": spec.help}
                if spec.choices:
                    option["choices"] = list(spec.choices)
                options.append(option)
            editions.append({"name": record.name, "title": record.title, "players": list(record.seats),
                             "default_players": record.check_players(None), "teams": record.teams,
                             "options": options})
        return {"protocol": PROTOCOL_VERSION, "program": "expeditions", "version": self.version,
                "editions": editions, "bots": list(POLICIES), "commands": self.allow_commands}

    def _start_game(self, request: dict[str, Any]) -> dict[str, Any]:
        if self.game is not None and not (self.game.over or self.game.ended):
            raise HostError("start: a game is running (end it first)")
        state, seed = _new_state(request)
        open_game = request.get("open", False)
        if not isinstance(open_game, bool):
            raise HostError(f"start: open must be true or false, got {open_game!r}")
        bots = request.get("bots", {})
        if not isinstance(bots, dict):
            raise HostError(f"start: bots must be an object of seat: bot, like {{\"1\": \"greedy\"}}, got {bots!r}")
        game = HostedGame(state, seed=seed, open_game=open_game, emit=self.emit)
        started: list[BotSeat] = []
        try:
            for key, spec in bots.items():
                if not (isinstance(key, str) and key.isdigit()):
                    raise HostError(f"start: bots: a seat number as the key, got {key!r}")
                seat = game.check_seat(int(key), "start: bots")
                started.append(self._bot(game, seat, spec, None, "start: bots"))
                game.seats[seat] = started[-1]
        except HostError:
            for bot in started:
                bot.leave()
            raise
        if self.game is not None:
            self.game.close()
        self.game = game
        return {"game": game.describe()}

    def _seat(self, game: HostedGame, request: dict[str, Any]) -> dict[str, Any]:
        seat = game.check_seat(_required(request, "seat"), "seat")
        if game.over or game.ended:
            raise HostError("seat: the game is over")
        bot = self._bot(game, seat, _required(request, "bot"), request.get("limits"), "seat")
        game.seat_bot(seat, bot)
        return {"seat": seat, "name": bot.name, "about": bot.engine.id}

    def _bot(self, game: HostedGame, seat: int, spec: object, limits: object, what: str) -> BotSeat:
        """Starts the bot `spec` describes for `seat` and tells it the game; HostError naming what failed."""
        if isinstance(spec, dict) and "limits" in spec and limits is None:
            spec = dict(spec)
            limits = spec.pop("limits")
        bot_spec = self._bot_spec(spec, what)
        bot_limits = _limits(limits, what)
        state = game.state
        try:
            process = self._start(bot_spec)
        except EngineError as err:
            raise HostError(f"{what}: bot {bot_spec.name} did not start: {err}") from None
        try:
            if state.edition not in process.editions:
                raise HostError(f"{what}: bot {bot_spec.name} does not play {state.edition} "
                                f"(it plays {', '.join(process.editions) or 'nothing'})")
            process.new_game(state.edition, state.options, state.num_seats, seat)
        except EngineError as err:
            process.quit()
            raise HostError(f"{what}: bot {bot_spec.name}: {err}") from None
        except HostError:
            process.quit()
            raise
        return BotSeat(bot_spec, bot_limits, process)

    def _bot_spec(self, spec: object, what: str) -> BotSpec:
        if isinstance(spec, str):
            spec = {"builtin": spec}
        if not isinstance(spec, dict):
            raise HostError(f"{what}: bot must be a built-in bot's name or an object with builtin or cmd, got {spec!r}")
        _known(spec, BOT_FIELDS, f"{what}: bot")
        options = spec.get("options", {})
        if not isinstance(options, dict) or not all(isinstance(v, (str, int, float, bool)) for v in options.values()):
            raise HostError(f"{what}: bot options must be an object of name: value, got {options!r}")
        name = spec.get("name")
        if name is not None and (not isinstance(name, str) or not name.strip()):
            raise HostError(f"{what}: bot name must be a non-empty string, got {name!r}")
        if ("builtin" in spec) == ("cmd" in spec):
            raise HostError(f"{what}: bot needs one of builtin (a built-in bot's name) or cmd (a program)")
        if "builtin" in spec:
            if spec["builtin"] not in POLICIES:
                raise HostError(f"{what}: unknown built-in bot {spec['builtin']!r} (built-in: {', '.join(POLICIES)})")
            base = builtin_bot(spec["builtin"])
        else:
            if not self.allow_commands:
                raise HostError(f"{what}: this host runs built-in bots only (cmd is not allowed)")
            command = spec["cmd"]
            if isinstance(command, str):
                command = shlex.split(command)
            if not isinstance(command, list) or not command or not all(isinstance(a, str) for a in command):
                raise HostError(f"{what}: bot cmd must be a program and its arguments (a list of strings, or "
                                f"one string split as a shell would), got {spec['cmd']!r}")
            base = BotSpec(command[0].rsplit("/", 1)[-1], command)
        return BotSpec(name or base.name, base.command, {k: _option_text(v) for k, v in options.items()})


def serve_lines(lines: Iterable[bytes], write: Callable[[str], None], *, version: str = "",
                allow_commands: bool = True) -> None:
    """Runs a host on `lines` (one request each, bytes with their newline) until `quit` or their end,
    writing each message as one line of JSON through `write` (which must be safe to call from any
    thread: bots answer on threads of their own)."""
    host = Host(lambda message: write(json.dumps(message, separators=(",", ":"))), version=version,
                allow_commands=allow_commands)
    try:
        for raw in lines:
            if len(raw.rstrip(b"\r\n")) > MAX_LINE_BYTES:
                host.emit({"reply": None, "ok": False,
                           "error": f"a line of more than {MAX_LINE_BYTES} bytes (starting {raw[:40]!r}): ignored"})
                continue
            text = raw.decode("utf-8", "replace").strip()
            if text:
                host.handle(text)
            if host.done:
                break
    finally:
        host.close()


def bounded_lines(stream: IO[bytes]) -> Iterator[bytes]:
    """The lines of `stream`; of a line longer than MAX_LINE_BYTES only its first MAX_LINE_BYTES + 1
    bytes (`serve_lines` refuses it), the rest read past without being held."""
    while raw := stream.readline(MAX_LINE_BYTES + 1):
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            while (rest := stream.readline(65536)) and not rest.endswith(b"\n"):
                pass
        yield raw


# ----- reading requests ---------------------------------------------------------------------------
def _valid_id(value: object) -> bool:
    return value is None or (isinstance(value, (str, int, float)) and not isinstance(value, bool))


def _check(message: object) -> None:
    """HostError unless `message` is a request: an object with a known `cmd`, its fields and no others."""
    if not isinstance(message, dict):
        raise HostError(f"a request is a JSON object, got {type(message).__name__}")
    if not _valid_id(message.get("id")):
        raise HostError(f"id must be a string or a number, got {message['id']!r}")
    command = message.get("cmd")
    if command not in FIELDS:
        shown = f"{command!r}" if "cmd" in message else "none"
        raise HostError(f"unknown cmd {shown} (commands: {', '.join(FIELDS)})")
    _known(message, ("cmd", "id", *FIELDS[command]), command)


def _known(message: dict[str, Any], fields: tuple[str, ...], what: str) -> None:
    extra = [key for key in message if key not in fields]
    if extra:
        allowed = ", ".join(f for f in fields if f not in ("cmd", "id")) or "none"
        raise HostError(f"{what}: unknown field {extra[0]!r} (fields: {allowed})")


def _required(request: dict[str, Any], field: str) -> Any:
    if field not in request:
        raise HostError(f"{request['cmd']}: {field} is missing")
    return request[field]


def _new_state(request: dict[str, Any]) -> tuple[engine.State, int | None]:
    """The state a `start` asks for: dealt from a seed (given, or drawn and reported), or a given
    full position."""
    if "position" in request:
        mixed = [key for key in ("edition", "options", "players", "seed") if key in request]
        if mixed:
            raise HostError(f"start: a position says its edition, rules and players; {mixed[0]} goes without one")
        if not isinstance(request["position"], str):
            raise HostError(f"start: position must be a full position in notation, got {request['position']!r}")
        try:
            state = engine.parse_position(request["position"])
        except engine.ExpeditionsError as err:
            raise HostError(f"start: position: {err}") from None
        if state.is_terminal():
            raise HostError("start: the position is of a finished game")
        return state, None
    name = request.get("edition", engine.default_edition().name)
    options = request.get("options", {})
    if not isinstance(options, dict):
        raise HostError(f"start: options must be an object of name: value, got {options!r}")
    players = request.get("players")
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
        raise HostError(f"start: players must be an integer, got {players!r}")
    seed = request.get("seed")
    if seed is None:
        seed = secrets.randbits(63)
    try:
        record = engine.get_edition(name)
        return record.new_game(seed, players, **options), seed
    except engine.ExpeditionsError as err:
        raise HostError(f"start: {err}") from None


def _limits(limits: object, what: str) -> Limits:
    if limits is None:
        return Limits(movetime_ms=DEFAULT_MOVETIME_MS)
    if not isinstance(limits, dict) or len(limits) != 1:
        raise HostError(f"{what}: limits must be an object with one of {', '.join(LIMIT_FIELDS)}, got {limits!r}")
    (key, value), = limits.items()
    if key not in LIMIT_FIELDS:
        raise HostError(f"{what}: limits: unknown limit {key!r} (limits: {', '.join(LIMIT_FIELDS)})")
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise HostError(f"{what}: limits: {key} must be an integer of at least 1, got {value!r}")
    if key == "movetime":
        return Limits(movetime_ms=value)
    return Limits(iterations=value) if key == "iterations" else Limits(nodes=value)


def _option_text(value: object) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)
