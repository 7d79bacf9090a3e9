"""The bot's command loop in C for instant policies: `position` + `go` answered without Python.

A random or greedy bot spends almost nothing deciding; over pipes its cost per decision is the
interpreter: reading and splitting lines, building a View, dispatching commands. This loop reads
stdin into a C buffer and answers the two hot commands itself when it safely can:

- `position <view>`: a view as the engine writes it is read in one C pass into a card state
  (`engine.lostcities.lc_load_view`); anything else (a `full` position, `board`, a view with an
  error) goes to the Python `Server`, which names the error.
- `go …`: when the position was read in C, the limits parse (the server's own cached parser),
  the seat is to move and the game is the one the policy was told about, the policy's compiled
  `Decider` picks the decision and the loop writes `bestmove`.

Every other line, and every case above that does not fit, is handed to `Server.handle`, after
telling the server about a position it has not seen yet; so the output is exactly the Python
server's (tests/test_fastloop.py feeds both the same sessions and compares every byte).

>>> # protocol.server.serve_stdio(policy) uses it when policy.instant and policy.fast_decider
"""
from libc.errno cimport errno, EINTR
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memchr, memcmp, memmove
from posix.unistd cimport read, write

from bots.deciders cimport Decider
from engine._core cimport GameOps
from engine.cards.rules cimport LCState, N_EDITIONS, lc_ops
from engine.cards.notation cimport lc_load_view

import engine
from engine.cards.notation import DECISION_TEXT
from engine.cards.rules import EDITION_NAMES
from protocol.messages import MAX_LINE_BYTES
from protocol.server import NO_LIMITS, game_key, parse_go_cached, seat_lists_error

DEF INITIAL_BUFFER = 65536


cdef inline bint _space(char c) noexcept nogil:
    return c == c' ' or c == c'\t' or c == c'\r' or c == c'\n' or c == c'\v' or c == c'\f'


cdef int _write_all(int fd, const char* data, Py_ssize_t n) except -1:
    cdef Py_ssize_t done
    while n > 0:
        with nogil:
            done = write(fd, data, n)
        if done < 0:
            if errno == EINTR:
                continue
            raise BrokenPipeError("the peer closed the bot's stdout")
        data += done
        n -= done
    return 0


cdef class FastLoop:
    """Serves one bot's stdin/stdout: hot lines in C, the rest through `server.handle`."""

    cdef object server
    cdef Decider decider
    cdef int out_fd
    cdef LCState state
    cdef int seat
    cdef bint loaded            # `state` is the current position, read in C
    cdef bytes position_text    # its view text, for telling the server when it must know
    cdef bint told              # the server has been given that position
    cdef object told_position   # server.position right after (identity reveals a later change)
    cdef object checked_game    # server.game the game of `state` was checked against
    cdef int checked[5]         # edition, rounds, max_turns, cost, seat of that check
    cdef list texts             # per card edition: decision texts as bytes
    cdef int editions           # bit e: the server plays card edition e
    cdef public long fast_lines
    """Lines answered in C (tests check that the hot path is taken)."""
    cdef public long slow_lines

    def __init__(self, server, Decider decider not None, int out_fd):
        self.server = server
        self.decider = decider
        self.out_fd = out_fd
        self.texts = [[(t or "?").encode("ascii") + b"\n" for t in DECISION_TEXT[e]] for e in range(N_EDITIONS)]
        self.editions = 0
        for e in range(N_EDITIONS):
            if EDITION_NAMES[e] in server.editions:
                self.editions |= 1 << e
        self.loaded = False
        self.told = True
        self.checked_game = None

    def run(self, int in_fd) -> None:
        """Handles lines from `in_fd` until `quit` or the end of input.

        A line longer than MAX_LINE_BYTES is reported (`Server.reject_overlong`) and read past
        without being kept: the buffer never grows past twice that.
        """
        cdef Py_ssize_t cap = INITIAL_BUFFER, size = 0, start, got
        cdef Py_ssize_t limit = MAX_LINE_BYTES
        cdef bint skipping = False  # inside an overlong line, until its newline
        cdef char* buf = <char*>malloc(cap)
        cdef char* nl
        cdef char* grown
        if buf == NULL:
            raise MemoryError()
        try:
            while True:
                if size == cap:  # one line longer than the buffer: grow it
                    grown = <char*>realloc(buf, cap * 2)
                    if grown == NULL:
                        raise MemoryError()
                    buf, cap = grown, cap * 2
                with nogil:
                    got = read(in_fd, buf + size, cap - size)
                if got < 0:
                    if errno == EINTR:
                        continue
                    return
                if got == 0:
                    if size > 0 and not skipping:  # a last line without its newline
                        self._line(buf, size)
                    return
                size += got
                start = 0
                if skipping:
                    nl = <char*>memchr(buf, c'\n', size)
                    if nl == NULL:
                        size = 0
                        continue
                    skipping = False
                    start = nl - buf + 1
                while True:
                    nl = <char*>memchr(buf + start, c'\n', size - start)
                    if nl == NULL:
                        break
                    if nl - (buf + start) > limit:  # whole in the buffer, and still too long
                        self.server.reject_overlong(buf[start:start + 40])
                    elif not self._line(buf + start, nl - (buf + start)):
                        return
                    start = nl - buf + 1
                if start:
                    memmove(buf, buf + start, size - start)
                    size -= start
                if size > limit:  # what is left is one unfinished line, already too long
                    self.server.reject_overlong(buf[:40])
                    skipping = True
                    size = 0
        finally:
            free(buf)
            self.server.searcher.close()

    cdef bint _line(self, const char* p, Py_ssize_t n) except -1:
        """One input line (without its newline); False after `quit`."""
        if n >= 9 and memcmp(p, b"position ", 9) == 0:
            if self._fast_position(p + 9, n - 9):
                self.fast_lines += 1
                return True
        elif n >= 2 and memcmp(p, b"go", 2) == 0 and (n == 2 or _space(p[2])):
            if self._fast_go(p + 2, n - 2):
                self.fast_lines += 1
                return True
        self.slow_lines += 1
        return self._slow(p[:n].decode("utf-8", "replace"))

    cdef bint _slow(self, str line) except -1:
        server = self.server
        if not self.told:
            text = self.position_text.decode("ascii")
            server.handle("position " + text)
            self.told = True
            self.told_position = server.position
            if server.position is None or server.position.text != text:
                self.loaded = False  # cannot happen (C read it, so Python reads it): stay exact anyway
        more = server.handle(line)
        if self.loaded and server.position is not self.told_position:
            self.loaded = False  # a new position (or game) the C state does not hold
        return bool(more)

    cdef bint _fast_position(self, const char* p, Py_ssize_t n) except -1:
        cdef LCState s
        cdef int seat = 0
        cdef Py_ssize_t history_start, history_length
        while n > 0 and _space(p[0]):
            p += 1
            n -= 1
        while n > 0 and _space(p[n - 1]):
            n -= 1
        if n == 0 or self.server.searcher.busy:
            return False
        if not lc_load_view(p, n, &s, &seat, &history_start, &history_length) or not (self.editions >> s.edition) & 1:
            return False
        self.state = s
        self.seat = seat
        self.loaded = True
        self.told = False
        self.position_text = p[:n]
        return True

    cdef bint _fast_go(self, const char* p, Py_ssize_t n) except -1:
        cdef const GameOps* ops
        cdef int d, e = self.state.edition
        if not self.loaded or self.server.searcher.busy:
            return False
        arguments = p[:n].decode("utf-8", "replace").strip()
        try:
            limits = parse_go_cached(arguments) if arguments else NO_LIMITS
        except Exception:  # noqa: the server will say what is wrong
            return False
        if limits.infinite or limits.searchmoves:
            return False  # the server checks and passes on searchmoves
        if seat_lists_error(limits, self.state.nseats) is not None:
            return False
        ops = lc_ops(e)
        if ops.to_move(&self.state) != self.seat:
            return False
        if not self._same_game():
            return False
        d = self.decider.decide_c(ops, &self.state)
        if d < 0:
            return False
        line = b"bestmove " + <bytes>(<list>self.texts[e])[d]
        _write_all(self.out_fd, line, len(line))
        return True

    cdef bint _same_game(self) except -1:
        """Whether the game of the C position is the one the policy was last told about (else the
        server starts a new game for the policy first, as `go` does after a bot restart)."""
        cdef LCState* s = &self.state
        game = self.server.game
        if (game is not None and game is self.checked_game and self.checked[0] == s.edition
                and self.checked[1] == s.rounds and self.checked[2] == s.max_turns
                and self.checked[3] == s.cost and self.checked[4] == self.seat):
            return True
        if game is None or game != game_key(engine.parse_view(self.position_text.decode("ascii"))):
            return False
        self.checked_game = game
        self.checked[0], self.checked[1], self.checked[2] = s.edition, s.rounds, s.max_turns
        self.checked[3], self.checked[4] = s.cost, self.seat
        return True
