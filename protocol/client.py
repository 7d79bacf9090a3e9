"""The referee's (or a GUI's) side of UEI: start an external bot and talk to it.

A blocking API in the shape of python-chess's `SimpleEngine`. The caller's thread reads the
bot's stdout itself with `poll` and deadlines (a reader thread would add a thread handoff, tens
of microseconds, to every round trip); writes are non-blocking and drain the bot's output while
they wait, so neither side can block the other on a full pipe. Every failure is a typed error
(`protocol.errors`). The bot runs from an argv list (never a shell) in its own process group;
its stderr is read by a thread of its own into a bounded log (`protocol.stderr`).

>>> from protocol.limits import Limits
>>> from protocol.local import builtin_bot, child_env
>>> import engine
>>> state = engine.new_game("classic", seed=7)
>>> with Engine.start(builtin_bot("random"), env=child_env()) as bot:
...     bot.name, "classic" in bot.editions
...     bot.new_game("classic", {}, players=2, seat=0)
...     result = bot.play(state.view_text(0), Limits(movetime_ms=50), timeout=5)
...     result.decision in state.legal_text()
('random', True)
True
"""
from __future__ import annotations

import functools
import os
import re
import select
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import engine
from protocol.limits import Limits
from protocol.policy import PolicyOption
from protocol.pipes import Pipes
from protocol.transcript import Transcript
from protocol.stderr import DRAIN, LOG_LIMIT, StderrLog
from protocol.errors import (EngineError, EngineTerminatedError, EngineTimeoutError, ProtocolError,
                             SearchRejectedError)
from protocol.messages import (MAX_LINE_BYTES, REQUEST_LEGAL, Info, MessageError, format_gameover, format_go,
                               format_newgame, is_error_info, latest_lines, overlong_line_error, parse_info,
                               parse_option, with_legal)

HANDSHAKE_TIMEOUT = 10.0
"""Seconds a bot gets to start and answer `uei` (an interpreter may need a while to import)."""

REPLY_TIMEOUT = 5.0
"""Seconds a bot gets to answer `isready` and the debugging commands."""

QUIT_TIMEOUT = 1.0
"""Seconds a bot gets to exit after `quit` before it is killed."""

SEND_TIMEOUT = 5.0
"""Seconds a command may wait for room in the bot's stdin pipe (a bot that stops reading)."""

MAX_KEPT = 4096
"""Info lines kept per search (and unsolicited or ignored lines per bot): past this, the older half
is dropped, so that a bot reporting at every iteration costs bounded memory. What the client
reads from them is recent: the latest report of each line (`PlayResult.lines`)."""


def _keep_recent(items: list) -> None:
    """Drops the older half of `items` once it holds more than MAX_KEPT."""
    if len(items) > MAX_KEPT:
        del items[:len(items) - MAX_KEPT // 2]


@dataclass
class PlayResult:
    """The answer to one `go`."""

    decision: str
    """The decision as the bot wrote it after `bestmove` (not checked for legality here)."""
    info: list[Info] = field(default_factory=list)
    """The `info` lines the bot sent while it thought, parsed."""
    elapsed_ms: float = 0.0
    """Wall time from the write of `go` to the read of `bestmove`, as the system calls saw them
    (`protocol.pipes`): the client's own delays in getting to them are not the bot's."""

    @property
    def lines(self) -> list[Info]:
        """The bot's last report of each line, best first: one, or with the option `MultiPV` one per
        ranked decision (like python-chess's `analyse(..., multipv=n)`)."""
        return latest_lines(self.info)

    @property
    def estimate(self) -> tuple[float | None, int | None]:
        """The bot's last reported value of its answer and the size of its search (its last
        `iterations`, else `nodes`); None where it sent none. Lines of other decisions (MultiPV)
        are not its answer's value.

        >>> PlayResult("+b4", [{"iterations": 900, "value": 0.5}, {"multipv": 2, "value": 0.4}]).estimate
        (0.5, 900)
        """
        value = size = None
        for info in self.info:
            if info.get("multipv", 1) != 1:
                continue
            value = info.get("value", value)
            size = info.get("iterations", info.get("nodes", size))
        return value, size


# Owns one `go`: collects its info lines and its answer.
class Search:
    """A running `go`; `wait()` for its result, `stop()` to make the bot answer now."""

    def __init__(self, engine: Engine, limits: Limits, on_info: Callable[[Info], None] | None) -> None:
        self._engine = engine
        self.limits = limits
        self.info: list[Info] = []
        """Info lines received so far."""
        self._on_info = on_info
        self.started = time.perf_counter()
        self.sent_ns = time.monotonic_ns()
        """When `go` was written (monotonic ns): the start of `PlayResult.elapsed_ms`."""
        self.result: PlayResult | None = None
        """Set once `bestmove` arrived."""
        self.error: EngineError | None = None
        """Set when the bot rejected the search (`info string error …` instead of an answer)."""
        self.stopped_at: float | None = None
        """When `stop` was sent (perf_counter seconds)."""

    @property
    def done(self) -> bool:
        """Whether the search has ended (answered or rejected)."""
        return self.result is not None or self.error is not None

    def stop(self) -> None:
        """Sends `stop` (once); the result then arrives through `wait`."""
        if self.stopped_at is None and not self.done:
            self.stopped_at = time.perf_counter()
            self._engine.send("stop")

    def wait(self, timeout: float | None = None) -> PlayResult:
        """Blocks until `bestmove` (EngineTimeoutError after `timeout` seconds; the search stays
        open, so the caller may `stop()` and wait again)."""
        deadline = None if timeout is None else time.perf_counter() + timeout
        # the time named in a timeout is the whole search's (a wait may follow an earlier one)
        self._engine._pump(lambda: self.done, deadline, "bestmove", since=self.started)
        if self.error is not None:
            raise self.error
        assert self.result is not None
        return self.result

    def _deliver_info(self, info: Info) -> None:
        self.info.append(info)
        _keep_recent(self.info)
        if self._on_info is not None:
            self._on_info(info)


@dataclass
class _Handshake:
    ids: dict[str, str] = field(default_factory=dict)
    options: dict[str, PolicyOption] = field(default_factory=dict)
    editions: tuple[str, ...] | None = None
    requests: set[str] = field(default_factory=set)
    """What the bot asked for with `request <name>` lines (e.g. `legal`)."""
    done: bool = False


# Owns one bot process: its pipes, its log file and the protocol state.
class Engine:
    """A running UEI bot. Create with `Engine.start(argv)`; use as a context manager."""

    def __init__(self, process: subprocess.Popen, log: StderrLog, *, strict: bool = True) -> None:
        self.process = process
        self.log = log
        """Where the bot's stderr goes: its file (`log.path`, None: none) and its latest lines."""
        self.strict = strict
        """Whether a line that is not UEI raises ProtocolError (otherwise it is logged and skipped)."""
        # the bot is started with stdin and stdout piped
        self._out_fd = process.stdout.fileno()  # type: ignore[union-attr]
        self._in_fd = process.stdin.fileno()  # type: ignore[union-attr]
        os.set_blocking(self._out_fd, False)
        os.set_blocking(self._in_fd, False)
        self._buffer = bytearray()
        self._pipes = Pipes(self._in_fd, self._out_fd)
        """Reads and writes the pipes without the GIL, stamping when the bytes went and came."""
        self._consumer = threading.RLock()
        """Held by whoever reads the bot's output; `send` (and so `stop`) works from any thread."""
        self._write_lock = threading.Lock()
        self._handshake = _Handshake()
        self._search: Search | None = None
        self._readyok = 0
        self._replies: deque[str] = deque()
        self.unsolicited: list[Info] = []
        """Info lines that came while no search ran (e.g. errors about a command)."""
        self.transcript: Transcript | None = None
        """When set (a list, or a `protocol.transcript.TranscriptFile`), every line sent ('>') and
        received ('<') is appended to it as a (direction, line) pair."""
        self._position: str | None = None
        """The last position sent (`position` without the word), for the legal decisions of `go`."""
        self.ignored: list[str] = []
        """Lines skipped in non-strict mode, and late `bestmove`s of abandoned searches."""
        self._eof = False
        self._closed = False
        self.reply_timeout = REPLY_TIMEOUT
        """Default seconds for `readyok` and the debugging commands' replies."""

    # -- life cycle ------------------------------------------------------------------------------
    @classmethod
    def start(cls, argv: Sequence[str], *, timeout: float = HANDSHAKE_TIMEOUT, log_path: str | Path | None = None,
              env: Mapping[str, str] | None = None, cwd: str | Path | None = None,
              options: Mapping[str, object] | None = None, strict: bool = True,
              transcript: Transcript | None = None, reply_timeout: float | None = None,
              log_limit: int = LOG_LIMIT) -> Engine:
        """Starts `argv` (a list; no shell), handshakes within `timeout` seconds and sets `options`.
        `reply_timeout` (default REPLY_TIMEOUT) bounds the wait for `readyok` and debug replies.
        The bot's stderr goes to `log_path` (at most `log_limit` bytes a section, `log_section`).

        Raises EngineTerminatedError if it cannot start or exits, EngineTimeoutError if it does not
        finish the handshake in time, ProtocolError on output that is not UEI.
        """
        if isinstance(argv, (str, bytes)):
            raise TypeError("argv must be a list of arguments (bots are never started through a shell)")
        argv = [os.fspath(a) for a in argv]
        if not argv:
            raise ValueError("argv is empty")
        log = StderrLog(log_path, log_limit)
        try:
            process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       env=dict(env) if env is not None else None, cwd=cwd,
                                       start_new_session=True, bufsize=0)
        except OSError as err:
            log.close()
            raise EngineTerminatedError(f"cannot start {argv[0]!r}: {err}") from err
        assert process.stderr is not None  # piped above
        DRAIN.add(os.dup(process.stderr.fileno()), log)  # the drain owns (and closes) its copy
        process.stderr.close()
        bot = cls(process, log, strict=strict)
        bot.transcript = transcript
        if reply_timeout is not None:
            bot.reply_timeout = reply_timeout
        try:
            bot._do_handshake(timeout)
            if options:
                bot.configure(options)
        except BaseException:
            bot.kill()
            raise
        return bot

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()

    @property
    def log_path(self) -> Path | None:
        """The file of the bot's stderr (None: kept in memory only, its latest lines)."""
        return self.log.path

    def log_section(self, title: str) -> None:
        """Starts a section of the bot's log (the arena's: one per game), with its own size limit."""
        self.log.section(title)

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def returncode(self) -> int | None:
        """The exit status once the bot has exited, else None."""
        return self.process.poll()

    def quit(self, timeout: float = QUIT_TIMEOUT) -> int | None:
        """Sends `quit`, waits up to `timeout` seconds, kills the process group if still running.
        Returns the exit status (negative: killed by that signal)."""
        if self._closed:
            return self.process.returncode
        if self.process.poll() is None:
            try:
                self.send("quit")
            except EngineError:
                pass
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                pass
        return self.kill()

    def kill(self) -> int | None:
        """Kills the bot's whole process group at once and closes the pipes and the log."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                self.process.wait(2.0)
            except subprocess.TimeoutExpired:
                pass
        if not self._closed:
            self._closed = True
            for pipe in (self.process.stdin, self.process.stdout):
                try:
                    if pipe is not None:
                        pipe.close()
                except OSError:
                    pass
            self.log.close()
        return self.process.returncode

    close = quit

    # -- handshake and settings ------------------------------------------------------------------
    @property
    def name(self) -> str:
        """`id name` of the bot."""
        return self._handshake.ids.get("name", "")

    @property
    def author(self) -> str:
        return self._handshake.ids.get("author", "")

    @property
    def id(self) -> dict[str, str]:
        """Every `id` line of the handshake (name, author, protocol, …)."""
        return dict(self._handshake.ids)

    @property
    def options(self) -> dict[str, PolicyOption]:
        """The options the bot announced, by name."""
        return dict(self._handshake.options)

    def option(self, name: str) -> PolicyOption | None:
        """The announced option `name`, matched without regard to case (as `setoption` matches
        it), or None when the bot has no such option."""
        return next((o for key, o in self._handshake.options.items() if key.lower() == name.lower()), None)

    @property
    def editions(self) -> tuple[str, ...]:
        """The editions the bot says it plays."""
        return self._handshake.editions or ()

    @property
    def wants_legal(self) -> bool:
        """Whether the bot asked (`request legal`) to be sent its legal decisions with each `go`."""
        return REQUEST_LEGAL in self._handshake.requests

    def go_line(self, limits: Limits, legal: Sequence[str] | None = None) -> str:
        """The `go` line for `limits`; for a bot that asked for them, with the legal decisions of its
        seat (`legal`, or else the engine's for the last position sent, when the seat is to move)."""
        line = _go_line(limits)
        if not self.wants_legal:
            return line
        if legal is None:
            legal = _legal_decisions(self._position)
        return line if legal is None else with_legal(line, legal)

    def _do_handshake(self, timeout: float) -> None:
        self.send("uei")
        deadline = time.perf_counter() + timeout
        self._pump(lambda: self._handshake.done, deadline, "ueiok")
        if self._handshake.editions is None:
            raise ProtocolError("handshake without an `editions` line")
        if "name" not in self._handshake.ids:
            raise ProtocolError("handshake without `id name`")

    def configure(self, options: Mapping[str, object], *, timeout: float | None = None) -> None:
        """Sets options (`setoption`) and checks the bot accepted them (EngineError otherwise)."""
        for name, value in options.items():
            if isinstance(value, bool):
                value = "true" if value else "false"
            self.send(f"setoption name {name} value {value}")
        self._check(self.ping(timeout), "setoption")

    def ping(self, timeout: float | None = None) -> list[Info]:
        """Sends `isready` and waits for `readyok`; returns the info lines that came outside a
        search since the last ping (errors about earlier commands show up here)."""
        timeout = self.reply_timeout if timeout is None else timeout
        with self._consumer:
            target = self._readyok + 1
            self.send("isready")
            self._pump(lambda: self._readyok >= target, time.perf_counter() + timeout, "readyok")
            received, self.unsolicited = self.unsolicited, []
            return received

    def poll(self, seconds: float = 0.0) -> None:
        """Handles what the bot sends during the next `seconds` (0: what has already arrived):
        info lines reach the running search, a `bestmove` ends it."""
        try:
            self._pump(lambda: False, time.perf_counter() + seconds, "more output")
        except EngineTimeoutError:
            pass

    @staticmethod
    def _check(infos: list[Info], what: str) -> None:
        errors = [i["string"] for i in infos if is_error_info(i)]
        if errors:
            raise EngineError(f"the bot rejected {what}: {errors[0]}")

    # -- games -------------------------------------------------------------------------------------
    def new_game(self, edition: str, options: Mapping[str, object], players: int, seat: int, *,
                 check: bool = True) -> None:
        """Sends `newgame`; with `check`, pings and raises EngineError if the bot rejected it."""
        if edition in engine.EDITIONS:
            options = engine.get_edition(edition).option_words(options)  # choices by name
        self.send(format_newgame(edition, options, players, seat))
        if check:
            self._check(self.ping(), "newgame")

    def position(self, view: object, *, check: bool = False) -> None:
        """Sends `position <view>` (a view text or an `engine.View`)."""
        self._position = _one_line(view)
        self.send("position " + self._position)
        if check:
            self._check(self.ping(), "position")

    def go(self, limits: Limits | None = None, *, timeout: float | None = None,
           on_info: Callable[[Info], None] | None = None, legal: Sequence[str] | None = None) -> PlayResult:
        """Sends `go` with `limits` and waits (up to `timeout` seconds) for `bestmove`. `legal`: the
        seat's legal decisions for a bot that asked for them (default: the engine's, see `go_line`)."""
        limits = limits or Limits()
        if limits.infinite:
            raise ValueError("go infinite never ends by itself: use start_search() and stop()")
        return self.start_search(limits, on_info=on_info, legal=legal).wait(timeout)

    def play(self, view: object, limits: Limits | None = None, *, timeout: float | None = None,
             on_info: Callable[[Info], None] | None = None, legal: Sequence[str] | None = None) -> PlayResult:
        """`position` then `go` (in one write): the bot's decision in `view`."""
        limits = limits or Limits()
        if limits.infinite:
            raise ValueError("go infinite never ends by itself: use start_search() and stop()")
        if on_info is None and isinstance(view, str):
            answer = self._answer(view, limits, timeout, legal)
            if isinstance(answer, tuple):
                return PlayResult(answer[0], [], answer[1])
            return answer
        return self.start_search(limits, on_info=on_info, view=view, legal=legal).wait(timeout)

    def decide(self, view: str, limits: Limits, timeout: float | None = None) -> str:
        """The decision text of `play(view, limits)` (the referee's lane; see `decide_with_estimate`)."""
        return self.decide_with_estimate(view, limits, timeout)[0]

    def decide_with_estimate(self, view: str, limits: Limits, timeout: float | None = None,
                             legal: Sequence[str] | None = None) -> tuple[str, float | None, int | None, float]:
        """`decide`, with the bot's last reported value and search size (None where it sent none)
        and the milliseconds it took (`PlayResult.elapsed_ms`).

        The referee records them with every decision, as tournament managers of chess record a
        score and depth; a bot that answers with a bare `bestmove` costs nothing more."""
        answer = self._answer(view, limits, timeout, legal)
        if isinstance(answer, tuple):
            return answer[0], None, None, answer[1]
        return (answer.decision, *answer.estimate, answer.elapsed_ms)

    def _answer(self, view: str, limits: Limits, timeout: float | None,
                legal: Sequence[str] | None = None) -> tuple[str, float] | PlayResult:
        """`position` + `go`. When the bot's whole answer is one plain `bestmove` line it comes
        straight from the pipe (protocol/pipes.pyx) as the decision text and the milliseconds it
        took; anything else (info lines, errors, a line in pieces, silence, end of file, a full
        pipe) goes to the buffer and through the general reader, which returns the PlayResult or
        raises as usual."""
        if self.transcript is not None or "\n" in view or self._buffer or self._eof:
            return self.start_search(limits, view=view, legal=legal).wait(timeout)
        self._position = view
        request = f"position {view}\n{self.go_line(limits, legal)}\n".encode("utf-8")
        with self._consumer:
            if self._search is not None:
                raise EngineError("a search is already running")
            started = time.perf_counter()
            with self._write_lock:
                if self._closed:
                    raise EngineTerminatedError("the bot has been closed", returncode=self.process.returncode)
                quick = _QuickSearch(self)
                # It stands in for a Search only for `stop`: no line reaches the reader meanwhile,
                # as this method holds the consumer lock until a real Search replaces it.
                self._search = quick  # type: ignore[assignment]
                written = self._pipes.write_some(request)
            chunk = None
            if written == len(request):
                chunk = self._pipes.read_within(-1 if timeout is None else int(timeout * 1000) + 1)
                if chunk is not None:
                    answer = _BESTMOVE_ONLY.fullmatch(chunk)
                    if answer is not None:
                        self._search = None
                        return answer.group(1).decode("ascii"), (self._pipes.arrived_ns - self._pipes.sent_ns) / 1e6
            search = Search(self, limits, None)
            search.started = started
            if written > 0:
                search.sent_ns = self._pipes.sent_ns
            search.stopped_at = quick.stopped_at
            self._search = search
            if chunk is not None:
                if chunk:
                    self._buffer += chunk
                else:
                    self._eof = True
            elif written < len(request):
                self._write(memoryview(request)[max(0, written):])  # raises if the bot is gone
            remaining = None if timeout is None else max(0.0, timeout - (time.perf_counter() - started))
            return search.wait(remaining)

    def start_search(self, limits: Limits, *, on_info: Callable[[Info], None] | None = None,
                     view: object | None = None, legal: Sequence[str] | None = None) -> Search:
        """Sends `go` (after `position <view>` when given) and returns at once; the `Search`
        collects info lines and the answer."""
        with self._consumer:
            if self._search is not None:
                raise EngineError("a search is already running")
            lines = []
            if view is not None:
                self._position = _one_line(view)
                lines.append("position " + self._position)
            lines.append(self.go_line(limits, legal))
            search = Search(self, limits, on_info)
            self._search = search
            self.send("\n".join(lines))
            return search

    def stop(self) -> None:
        """Sends `stop` (harmless when no search runs)."""
        if self._search is not None:
            self._search.stop()
        else:
            self.send("stop")

    def game_over(self, scores: Sequence[float], returns: Sequence[float] | None = None,
                  reason: str | None = None) -> None:
        """Tells the bot the result (`gameover`)."""
        self.send(format_gameover(scores, returns, reason))

    # -- debugging commands ------------------------------------------------------------------------
    def request(self, line: str, keyword: str, *, timeout: float | None = None) -> list[str]:
        """Sends a debugging command and returns its reply lines starting with `keyword` (the
        bot's `info string` lines are skipped); EngineError if the bot rejected it."""
        with self._consumer:
            self._replies.clear()
            self.send(line)
            infos = self.ping(timeout)
            replies = [r for r in self._replies if r.split(None, 1)[0] == keyword]
            self._replies.clear()
            self._check(infos, line.split(None, 1)[0])
            return replies

    def legal(self, *, timeout: float | None = None) -> list[str]:
        """The bot's list of legal decisions in its position (`legal`)."""
        replies = self.request("legal", "legal", timeout=timeout)
        if len(replies) != 1:
            raise ProtocolError(f"expected one `legal` line, got {len(replies)}")
        return replies[0].split()[1:]

    def perft(self, depth: int, *, timeout: float | None = None) -> int:
        """The bot's perft count from its full position."""
        replies = self.request(f"perft {depth}", "perft", timeout=timeout)
        try:
            (line,) = replies
            _, d, count = line.split()
            if int(d) != depth:
                raise ValueError
            return int(count)
        except ValueError:
            raise ProtocolError(f"expected `perft {depth} <count>`, got {replies!r}") from None

    def show(self, *, timeout: float | None = None) -> str:
        """The position the bot holds, as its `d` command prints it (without `position `)."""
        replies = self.request("d", "position", timeout=timeout)
        if len(replies) != 1:
            raise ProtocolError(f"expected one `position` line after d, got {len(replies)}")
        return replies[0].split(None, 1)[1] if " " in replies[0] else ""

    # -- lines in and out --------------------------------------------------------------------------
    def send(self, line: str, *, timeout: float = SEND_TIMEOUT) -> None:
        """Writes one command line to the bot (from any thread)."""
        if self.transcript is not None:
            self.transcript.extend((">", part) for part in line.split("\n"))
        self._write(memoryview((line + "\n").encode("utf-8")), timeout)

    def _write(self, data: memoryview, timeout: float = SEND_TIMEOUT) -> None:
        with self._write_lock:
            if self._closed:
                raise EngineTerminatedError("the bot has been closed", returncode=self.process.returncode)
            deadline = time.perf_counter() + timeout
            while data:
                try:
                    data = data[os.write(self._in_fd, data):]
                    continue
                except BlockingIOError:
                    pass
                except (BrokenPipeError, ConnectionResetError, OSError):
                    raise self._terminated("the bot exited (its stdin is closed)") from None
                # The pipe is full: the bot is not reading. Keep its stdout drained meanwhile, so
                # that a bot blocked on writing can go on and read.
                remaining = deadline - time.perf_counter()
                if remaining <= 0:
                    raise EngineTimeoutError(f"the bot has not read its input for {timeout} s")
                poller = select.poll()
                poller.register(self._in_fd, select.POLLOUT)
                poller.register(self._out_fd, select.POLLIN)
                for fd, _ in poller.poll(max(1, int(remaining * 1000))):
                    if fd == self._out_fd and self._consumer.acquire(blocking=False):
                        try:
                            self._fill()
                        finally:
                            self._consumer.release()

    def stderr_tail(self, lines: int = 10) -> str:
        """The last lines the bot wrote to stderr (waiting a moment for the last ones of a bot
        that has exited)."""
        if self.process.poll() is not None:
            self.log.ended.wait(0.5)
        return self.log.tail(lines)

    def _terminated(self, what: str) -> EngineTerminatedError:
        try:
            code = self.process.wait(0.5)
        except subprocess.TimeoutExpired:
            code = None
        status = f"exit status {code}" if code is not None and code >= 0 else \
            f"killed by signal {-code}" if code is not None else "still running"
        return EngineTerminatedError(f"{what} ({status})", returncode=code, stderr_tail=self.stderr_tail())

    def _fill(self) -> bool:
        """Moves what the bot has written into the buffer without blocking; False at end of file."""
        while True:
            chunk = self._pipes.read_ready()
            if chunk is None:
                return True
            if not chunk:
                self._eof = True
                return False
            self._buffer += chunk
            if len(chunk) < 65536 or len(self._buffer) > MAX_LINE_BYTES:  # the caller checks the length
                return True

    def _next_line(self, deadline: float | None) -> str | None:
        """The next complete line (None at end of file); EngineTimeoutError at the deadline."""
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                raw = bytes(self._buffer[:end])
                del self._buffer[:end + 1]
                return raw.decode("utf-8", "replace").rstrip("\r")
            if self._eof:
                if self._buffer:  # a last line without its newline
                    raw, self._buffer = bytes(self._buffer), bytearray()
                    return raw.decode("utf-8", "replace")
                return None
            if self._fill() and b"\n" not in self._buffer and not self._eof:
                if len(self._buffer) > MAX_LINE_BYTES:
                    start, self._buffer = bytes(self._buffer[:40]), bytearray()  # free it: the bot is broken
                    raise ProtocolError(overlong_line_error(start))
                remaining = None if deadline is None else deadline - time.perf_counter()
                if remaining is not None and remaining <= 0:
                    raise EngineTimeoutError("deadline")
                # wait in C (stamped without the GIL); whole milliseconds: round up so a deadline
                # is never cut short
                chunk = self._pipes.read_within(-1 if remaining is None else int(remaining * 1000) + 1)
                if chunk is not None:
                    if chunk:
                        self._buffer += chunk
                    else:
                        self._eof = True

    def _pump(self, done: Callable[[], bool], deadline: float | None, waiting_for: str,
              since: float | None = None) -> None:
        """Handles arriving lines until `done()`; raises on end of file, garbage or the deadline
        (naming the time waited `since` then: default now)."""
        started = time.perf_counter() if since is None else since
        with self._consumer:
            while not done():
                if self._closed:
                    raise EngineTerminatedError("the bot has been closed", returncode=self.process.returncode)
                try:
                    line = self._next_line(deadline)
                except EngineTimeoutError:
                    waited = max(0.0, (deadline or started) - started)
                    raise EngineTimeoutError(f"no {waiting_for} within {waited:.3g} s") from None
                if line is None:
                    raise self._terminated(f"the bot exited while waiting for {waiting_for}")
                self._dispatch(line)

    def _garbage(self, line: str, why: str) -> None:
        if self.strict:
            raise ProtocolError(f"{why}: {line[:200]!r}", line=line)
        self.ignored.append(line)
        _keep_recent(self.ignored)

    def _dispatch(self, line: str) -> None:
        """Routes one line from the bot to whoever waits for it."""
        if self.transcript is not None:
            self.transcript.append(("<", line))
        tokens = line.split()
        if not tokens:
            return
        word = tokens[0]
        if word == "info":
            try:
                info = parse_info(line)
            except MessageError as err:
                return self._garbage(line, f"malformed info line ({err})")
            search = self._search
            if search is not None:
                search._deliver_info(info)
                if is_error_info(info):  # the bot rejected `position` or `go`: its answer is void
                    self._search = None
                    search.error = SearchRejectedError(f"the bot rejected the search: {info['string']}")
                    raise search.error
            else:
                self.unsolicited.append(info)
                _keep_recent(self.unsolicited)
        elif word == "bestmove":
            if len(tokens) != 2:
                return self._garbage(line, "bestmove must be followed by exactly one decision")
            search = self._search
            if search is None:
                self.ignored.append(line)  # the answer to a search the caller gave up on
                _keep_recent(self.ignored)
                return
            search.result = PlayResult(tokens[1], search.info, (self._pipes.arrived_ns - search.sent_ns) / 1e6)
            self._search = None
        elif word == "readyok" and len(tokens) == 1:
            self._readyok += 1
        elif word in ("position", "legal", "perft"):
            self._replies.append(line)
        elif not self._handshake.done and word in ("id", "option", "editions", "request", "ueiok"):
            self._handshake_line(line, tokens)
        else:
            self._garbage(line, "not a UEI line")

    def _handshake_line(self, line: str, tokens: list[str]) -> None:
        hs = self._handshake
        if tokens[0] == "id":
            if len(tokens) < 2:
                return self._garbage(line, "id without a key")
            hs.ids[tokens[1]] = " ".join(tokens[2:])
        elif tokens[0] == "option":
            try:
                option = parse_option(line)
            except MessageError as err:
                return self._garbage(line, str(err))
            hs.options[option.name] = option
        elif tokens[0] == "editions":
            hs.editions = tuple(tokens[1:])
        elif tokens[0] == "request":  # a request the referee does not know is ignored
            if len(tokens) != 2:
                return self._garbage(line, "request takes one name (e.g. `request legal`)")
            hs.requests.add(tokens[1])
        elif len(tokens) == 1:
            hs.done = True
        else:
            self._garbage(line, "ueiok takes no arguments")


class _QuickSearch:
    """The search of `Engine._answer` while its answer is read straight from the pipe."""

    done = False

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self.stopped_at: float | None = None

    def stop(self) -> None:
        if self.stopped_at is None:
            self.stopped_at = time.perf_counter()
            self._engine.send("stop")


_BESTMOVE_ONLY = re.compile(rb"bestmove ([!-~]+)\r?\n")
"""A bot's whole answer when it is one plain `bestmove` line (printable ASCII decision)."""


@functools.lru_cache(maxsize=256)
def _go_line(limits: Limits) -> str:
    """format_go, once per distinct (immutable) limits: a referee repeats the same ones."""
    return format_go(limits)


def _legal_decisions(position: str | None) -> list[str] | None:
    """The legal decisions of the seat of `position` (a view, or `full <position>`) when it is to
    move; None when there is no such list (no position yet, not its turn, the match over).

    >>> import engine
    >>> state = engine.new_game("classic", seed=1)
    >>> _legal_decisions(state.view_text(0)) == state.legal_text(), _legal_decisions(state.view_text(1))
    (True, None)
    """
    if position is None:
        return None
    try:
        if position.startswith("full "):
            state = engine.parse_position(position[5:])
            return state.legal_text() if state.to_move is not None else None
        return engine.parse_view(position).legal_text()
    except (ValueError, engine.ExpeditionsError):  # not its turn, or a text the engine cannot read
        return None


def _one_line(view: object) -> str:
    text = str(view)
    if "\n" in text or "\r" in text:
        raise ValueError("a view or position is one line")
    return text
