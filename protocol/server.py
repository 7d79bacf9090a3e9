"""The bot side of UEI: a command loop that turns any `Policy` into a protocol-speaking bot.

The loop only parses lines and calls the policy (through `Searcher`, which thinks on a worker
thread, or at once for an `instant` policy); it never lets a Python error reach stdout: a bad line gets exactly one
`info string error …` line and leaves the state as it was. Logs go to stderr.

>>> from bots.random import RandomPolicy
>>> out = []
>>> server = Server(RandomPolicy(seed=1), out.append)
>>> server.handle("uei")
True
>>> out[-1], out[0]
('ueiok', 'id name random')
>>> server.handle("frobnicate")
True
>>> out[-1]
"info string error unknown command 'frobnicate' (commands: uei, isready, setoption, newgame, position, go, stop, gameover, quit, d, legal, perft)"
"""
from __future__ import annotations

import functools
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from typing import TextIO

import engine
from engine import State, View
from engine.errors import ExpeditionsError
from protocol.limits import Limits
from protocol.policy import Policy, allowed_decisions
from protocol.messages import (MAX_LINE_BYTES, PROTOCOL_VERSION, MessageError, error_line, format_option,
                               overlong_line_error, parse_count, parse_go, parse_newgame, parse_setoption)
from protocol.searcher import Searcher

PERFT_MAX_DEPTH = 6
"""Deeper perft runs could keep the loop from hearing `isready` for minutes."""

NO_LIMITS = Limits()
"""`go` without arguments (Limits is frozen, so one instance serves every such `go`)."""

COMMANDS = ("uei", "isready", "setoption", "newgame", "position", "go", "stop", "gameover", "quit",
            "d", "legal", "perft")


class CommandFailed(ExpeditionsError):
    """A command that is rejected; its message becomes the `info string error` line."""


class Position:
    """What the last `position` command set: a seat's view, or a full position (debugging)."""

    __slots__ = ("text", "view", "full")

    def __init__(self, text: str, *, view: View | None = None, full: State | None = None) -> None:
        self.text = text
        """The argument of `position` as the bot understood it (`full …` for a full position)."""
        self.view = view
        self.full = full

    def decision_view(self) -> View:
        """The view a `go` decides from: the view itself, or the mover's view of a full position."""
        if self.view is not None:
            return self.view
        assert self.full is not None
        mover = self.full.to_move
        assert mover is not None  # `go` answers a position whose match is over before asking
        return self.full.view(mover)

    def state(self) -> State:
        """A state for `legal` and `d`: the full state, or the view's representative state."""
        return self.full if self.full is not None else self.view.state  # type: ignore[union-attr]  # one is set


GameKey = tuple[str, tuple[tuple[str, int], ...], int, int]
"""(edition, options, players, seat): a change of any starts a new game for the policy."""


def game_key(view: View) -> GameKey:
    state = view.state
    return state.edition, tuple(state.options.items()), state.num_seats, view.seat


# Owns the protocol state of one bot: the policy, its current game and position, the searcher.
class Server:
    """Handles UEI command lines one at a time; `write` receives each output line (no newline)."""

    def __init__(self, policy: Policy, write: Callable[[str], None], *, log: TextIO | None = None,
                 grace_ms: int | None = None) -> None:
        self.policy = policy
        self._lock = threading.Lock()
        self._raw_write = write
        self.log = log if log is not None else sys.stderr
        kwargs = {} if grace_ms is None else {"grace_ms": grace_ms}
        self.searcher = Searcher(policy, self.write, log=self.log, **kwargs)
        self.editions = tuple(e for e in (policy.editions or tuple(engine.EDITIONS)) if e in engine.EDITIONS)
        self.game: GameKey | None = None
        self.position: Position | None = None
        self._received_ns: int | None = None
        """When the line being handled arrived (None: not known)."""
        self._handlers: dict[str, Callable[[str], bool | None]] = {
            "uei": self._uei, "isready": self._isready, "setoption": self._setoption,
            "newgame": self._newgame, "position": self._position, "go": self._go, "stop": self._stop,
            "gameover": self._gameover, "quit": self._quit, "d": self._d, "legal": self._legal,
            "perft": self._perft,
        }

    def write(self, line: str) -> None:
        """Writes one output line; the worker and the loop share it, hence the lock."""
        with self._lock:
            self._raw_write(line)

    def handle(self, line: str, received_ns: int | None = None) -> bool:
        """Handles one input line, read at `received_ns` (`time.monotonic_ns()`; None: now);
        returns False after `quit`."""
        parts = line.split(None, 1)  # not a full split: a view is hundreds of characters long
        if not parts:
            return True
        command = parts[0]
        handler = self._handlers.get(command)
        try:
            if handler is None:
                raise CommandFailed(f"unknown command {command[:40]!r} (commands: {', '.join(COMMANDS)})")
            self._received_ns = received_ns
            return handler(parts[1].strip() if len(parts) > 1 else "") is not False
        except (CommandFailed, MessageError, ExpeditionsError, ValueError) as err:
            self.write(error_line(str(err)))
        except Exception as err:  # a bug: keep serving, say so on stderr and in one error line
            self.log.write(f"uei: internal error on {line!r}:\n{traceback.format_exc()}")
            self.log.flush()
            self.write(error_line(f"internal error: {type(err).__name__}: {err}"))
        return True

    def reject_overlong(self, start: bytes) -> None:
        """Answers a line longer than MAX_LINE_BYTES, which the reader dropped unread, given its
        first bytes: one error line, and the state stays as it was."""
        self.write(error_line(overlong_line_error(start) + ": ignored"))

    def run(self, lines: Iterable[str | tuple[str, int]]) -> None:
        """Handles lines — or (line, arrival in monotonic ns) pairs, as `_lines` reads them — until
        `quit` or the end of input, then stops any search."""
        try:
            for item in lines:
                line, received_ns = (item, None) if isinstance(item, str) else item
                if not self.handle(line, received_ns):
                    break
        finally:
            self.searcher.close()

    def _not_busy(self, command: str) -> None:
        if self.searcher.busy:
            raise CommandFailed(f"{command}: a search is running (send stop first)")

    # -- handshake and settings ----------------------------------------------------------------
    def _uei(self, rest: str) -> None:
        self.write(f"id name {self.policy.name}")
        self.write(f"id author {self.policy.author}")
        self.write(f"id protocol {PROTOCOL_VERSION}")
        for option in self.policy.options:
            self.write(format_option(option))
        self.write("editions " + " ".join(self.editions))
        self.write("ueiok")

    def _isready(self, rest: str) -> None:
        self.write("readyok")

    def _setoption(self, rest: str) -> None:
        self._not_busy("setoption")
        name, value = parse_setoption(rest.split())
        self.policy.set_option(name, value)  # ValueError names the option and what it accepts

    # -- games and positions -------------------------------------------------------------------
    def _edition(self, name: str) -> engine.Edition:
        if name not in self.editions:
            raise CommandFailed(f"unsupported edition {name!r} (editions: {' '.join(self.editions)})")
        return engine.get_edition(name)

    def _newgame(self, rest: str) -> None:
        self._not_busy("newgame")
        request = parse_newgame(rest.split())
        edition = self._edition(request.edition)
        options = edition.parse_options([f"{k}={v}" for k, v in request.options.items()])
        edition.check_players(request.players)
        self.policy.new_game(edition.name, options, request.players, request.seat)
        self.game = (edition.name, tuple(options.items()), request.players, request.seat)
        self.position = None

    def _position(self, rest: str) -> None:
        self._not_busy("position")
        if not rest:
            raise CommandFailed("position: expected a view, or full <position>")
        if rest.startswith("full") and rest[4:5] in ("", " ", "\t"):
            state = engine.parse_position(rest[4:].strip())
            self._edition(state.edition)
            self.position = Position("full " + state.to_text(), full=state)
        else:
            view = engine.parse_view(rest)
            self._edition(view.edition.name)
            self.position = Position(view.text, view=view)

    def _gameover(self, rest: str) -> None:
        args = rest.split()
        if not args or args[0] != "scores" or len(args) < 2:
            raise CommandFailed("gameover: expected scores <s0>/<s1>/... [returns ...] [reason ...]")
        for part in args[1].split("/"):
            try:
                float(part)
            except ValueError:
                raise CommandFailed(f"gameover: a score is a number, got {part!r}") from None
        if self.searcher.busy:
            self.searcher.stop()
            self.searcher.wait_idle(1.0)
        self.policy.game_over(" ".join(args))
        self.game = None

    # -- searching -----------------------------------------------------------------------------
    def _go(self, rest: str) -> None:
        self._not_busy("go")
        limits = parse_go_cached(rest) if rest else NO_LIMITS
        if self.position is None:
            raise CommandFailed("go: no position (send position first)")
        state = self.position.state()
        if state.to_move is None:
            raise CommandFailed("go: the game is over in this position")
        view = self.position.decision_view()
        if view.state.to_move != view.seat:
            raise CommandFailed(f"go: seat {view.seat} is not to move (seat {view.state.to_move} is)")
        wrong = seat_lists_error(limits, state.num_seats)
        if wrong is not None:
            raise CommandFailed(wrong)
        if limits.searchmoves:
            try:
                allowed_decisions(view, limits)
            except ValueError as error:
                raise CommandFailed(f"go {error}") from None
        key = game_key(view)
        if key != self.game:  # a position is complete: a bot restarted mid-game just carries on
            edition, options, players, seat = key
            self.policy.new_game(edition, dict(options), players, seat)
            self.game = key
        self.searcher.start(view, limits, self._received_ns)

    def _stop(self, rest: str) -> None:
        self.searcher.stop()  # idle: nothing to stop, and not an error (stop may cross bestmove)

    def _quit(self, rest: str) -> bool:
        return False

    # -- debugging -----------------------------------------------------------------------------
    def _current(self, command: str) -> Position:
        if self.position is None:
            raise CommandFailed(f"{command}: no position (send position first)")
        return self.position

    def _d(self, rest: str) -> None:
        position = self._current("d")
        state = position.state()
        self.write(f"position {position.text}")
        what = "full position" if position.view is None else f"view of seat {position.view.seat}"
        mover = "the game is over" if state.to_move is None else f"seat {state.to_move} to move"
        self.write(f"info string {what}, {mover}")
        for line in state.pretty(None if position.view is None else position.view.seat).splitlines():
            self.write(f"info string {line}")  # the edition's picture, what a view's seat sees of it

    def _legal(self, rest: str) -> None:
        position = self._current("legal")
        state = position.state()
        if state.to_move is None:
            raise CommandFailed("legal: the game is over in this position")
        view = position.view
        if view is not None and view.seat != state.to_move:
            raise CommandFailed(f"legal: seat {view.seat} is not to move; its view cannot tell the "
                                f"decisions of seat {state.to_move}")
        self.write(" ".join(["legal", *state.legal_text()]))

    def _perft(self, rest: str) -> None:
        self._not_busy("perft")
        args = rest.split()
        if len(args) != 1:
            raise CommandFailed("perft: expected perft <depth>")
        depth = parse_count(args[0], "perft depth")
        if depth > PERFT_MAX_DEPTH:
            raise CommandFailed(f"perft: depth {depth} is above the limit {PERFT_MAX_DEPTH}")
        position = self._current("perft")
        if position.full is None:
            raise CommandFailed("perft: needs a full position (position full <position>); "
                                "a view hides the cards perft would count")
        self.write(f"perft {depth} {position.full.perft(depth)}")


@functools.lru_cache(maxsize=256)
def parse_go_cached(arguments: str) -> Limits:
    """parse_go of a `go` line's arguments; a referee repeats the same line (`go movetime 100`)
    decision after decision, and Limits is immutable, so one parse serves them all."""
    return parse_go(arguments.split())


def seat_lists_error(limits: Limits, seats: int) -> str | None:
    """Why a `go`'s per-seat lists (clocks, incs) do not fit a game of `seats` seats, or None.

    >>> seat_lists_error(Limits(clocks_ms=(1000, 1000)), 4)
    'go: clocks lists 2 seats, the game has 4'
    """
    for name, per_seat in (("clocks", limits.clocks_ms), ("incs", limits.increments_ms)):
        if per_seat is not None and len(per_seat) != seats:
            return f"go: {name} lists {len(per_seat)} seats, the game has {seats}"
    return None


def serve_stdio(policy: Policy, *, fast: bool = True) -> int:
    """Runs a bot on this process's stdin and stdout until `quit` or end of input.

    Stdout is kept for the protocol alone: file descriptor 1 is moved aside and replaced by
    stderr, so a stray `print` (or C-level output) from any library lands in the log. An instant
    policy with a compiled decider is served by the C loop (protocol/fastloop.pyx) unless `fast`
    is False; its output is the same, line for line.
    """
    out_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    def write(line: str) -> None:
        data = (line + "\n").encode("utf-8", "replace")
        while data:
            data = data[os.write(out_fd, data):]

    server = Server(policy, write)
    try:
        if fast and policy.instant and policy.fast_decider is not None:
            from protocol.fastloop import FastLoop
            FastLoop(server, policy.fast_decider, out_fd).run(sys.stdin.fileno())
        else:
            server.run(_lines(sys.stdin.fileno(), server.reject_overlong))
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    return 0


def _lines(fd: int, overlong: Callable[[bytes], None]) -> Iterator[tuple[str, int]]:
    """The lines read from `fd`, decoded, each with the moment its bytes arrived
    (`time.monotonic_ns()` after the read that brought them): a bot's time for a decision counts
    from there, as the referee's does from its write. A line longer than MAX_LINE_BYTES is read
    past, never held whole, and reported to `overlong` with its first bytes instead."""
    pending = bytearray()
    skipping = False  # inside an overlong line, until its newline
    while chunk := os.read(fd, 65536):
        arrived = time.monotonic_ns()
        pending += chunk
        start = 0
        while (end := pending.find(b"\n", start)) >= 0:
            if skipping:
                skipping = False
            elif end - start > MAX_LINE_BYTES:
                overlong(bytes(pending[start:start + 40]))
            else:
                yield pending[start:end + 1].decode("utf-8", "replace"), arrived
            start = end + 1
        del pending[:start]
        if len(pending) > MAX_LINE_BYTES:
            if not skipping:
                overlong(bytes(pending[:40]))
            skipping = True
            pending.clear()
    if pending and not skipping:
        yield pending.decode("utf-8", "replace"), time.monotonic_ns()
