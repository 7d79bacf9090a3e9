"""The bot's command loop in C for instant policies: `position` + `go` answered without Python.

A random or greedy bot spends almost nothing deciding; over pipes its cost per decision is the
interpreter: reading and splitting lines, building a View, dispatching commands. This loop reads
stdin into a C buffer and answers the two hot commands itself when it safely can:

- `position <view>`: a view of an edition whose rules carry a compiled view reader
  (`GameOps.load_view`, the edition's one parser) is read in one C pass into a state buffer;
  anything else (a `full` position, an edition without one, a view with an error) goes to the
  Python `Server`, which names the error.
- `go …`: when the position was read in C, the limits parse (the server's own cached parser),
  the seat is to move and the game is the one the policy was told about, the policy's compiled
  `Decider` picks the decision and the loop writes `bestmove` (`GameOps.decision_text`).

Every other line, and every case above that does not fit, is handed to `Server.handle`, after
telling the server about a position it has not seen yet; so the output is exactly the Python
server's (tests/test_fastloop.py feeds both the same sessions and compares every byte). The loop
knows no edition: it finds the readers through the records of the editions the server plays.

>>> # protocol.server.serve_stdio(policy) uses it when policy.instant and policy.fast_decider
"""
from libc.errno cimport errno, EINTR
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memchr, memcmp, memcpy, memmove, strlen
from posix.unistd cimport read, write

from protocol.decider cimport Decider
from engine._core cimport GameOps, Rules, MAX_DECISION_TEXT, MAX_OPTIONS

import engine
from engine.errors import NotationError
from protocol.messages import MAX_LINE_BYTES
from protocol.server import NO_LIMITS, game_key, parse_go_cached, seat_lists_error

DEF INITIAL_BUFFER = 65536
DEF MAX_READERS = 16  # editions with a compiled view reader that one loop serves


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
    cdef const GameOps* readers[MAX_READERS]  # the editions served that have a compiled view reader
    cdef int nreaders
    cdef list rules             # their records' Rules (which keep the tables alive)
    cdef char* state            # the current position, read in C (the largest state of the readers)
    cdef char* spare            # where the next one is read, so that a bad view changes nothing
    cdef const GameOps* ops     # the rules of `state`
    cdef int seat
    cdef bint loaded            # `state` is the current position, read in C
    cdef bytes position_text    # its view text, for telling the server when it must know
    cdef bint told              # the server has been given that position
    cdef object told_position   # server.position right after (identity reveals a later change)
    cdef object checked_game    # server.game the game of `state` was checked against
    cdef const GameOps* checked_ops  # the rules, option values and seat of that check
    cdef int checked_options[MAX_OPTIONS]
    cdef int checked_n
    cdef int checked_seat
    cdef public long fast_lines
    """Lines answered in C (tests check that the hot path is taken)."""
    cdef public long slow_lines

    def __cinit__(self):
        self.state = NULL
        self.spare = NULL

    def __init__(self, server, Decider decider not None, int out_fd):
        cdef const GameOps* ops
        cdef size_t size = 1
        self.server = server
        self.decider = decider
        self.out_fd = out_fd
        self.rules = []
        self.nreaders = 0
        for name in server.editions:
            rules = engine.get_edition(name).rules
            ops = (<Rules>rules).ops
            if ops.load_view != NULL and ops.decision_text != NULL and self.nreaders < MAX_READERS:
                self.rules.append(rules)
                self.readers[self.nreaders] = ops
                self.nreaders += 1
                size = max(size, ops.state_size)
        self.state = <char*>malloc(size)
        self.spare = <char*>malloc(size)
        if self.state == NULL or self.spare == NULL:
            raise MemoryError()
        self.loaded = False
        self.told = True
        self.checked_game = None

    def __dealloc__(self):
        free(self.state)
        free(self.spare)

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

    cdef const GameOps* _reader(self, const char* p, Py_ssize_t n) noexcept:
        """The rules whose compiled reader reads this text: those of the edition it names first."""
        cdef Py_ssize_t word = 0
        cdef int i
        while word < n and not _space(p[word]):
            word += 1
        for i in range(self.nreaders):
            if <Py_ssize_t>strlen(self.readers[i].name) == word and memcmp(p, self.readers[i].name, word) == 0:
                return self.readers[i]
        return NULL

    cdef bint _fast_position(self, const char* p, Py_ssize_t n) except -1:
        cdef const GameOps* ops
        cdef int seat = 0
        cdef char* read
        while n > 0 and _space(p[0]):
            p += 1
            n -= 1
        while n > 0 and _space(p[n - 1]):
            n -= 1
        if n == 0 or self.server.searcher.busy:
            return False
        ops = self._reader(p, n)
        if ops == NULL:
            return False
        try:
            ops.load_view(p, n, self.spare, &seat)
        except NotationError:
            return False  # the server says what is wrong
        read = self.spare
        self.spare = self.state
        self.state = read
        self.ops = ops
        self.seat = seat
        self.loaded = True
        self.told = False
        self.position_text = p[:n]
        return True

    cdef bint _fast_go(self, const char* p, Py_ssize_t n) except -1:
        cdef const GameOps* ops = self.ops
        cdef char line[9 + MAX_DECISION_TEXT + 1]
        cdef int d, length
        if not self.loaded or self.server.searcher.busy:
            return False
        arguments = p[:n].decode("utf-8", "replace").strip()
        try:
            limits = parse_go_cached(arguments) if arguments else NO_LIMITS
        except Exception:  # noqa: the server will say what is wrong
            return False
        if limits.infinite or limits.searchmoves:
            return False  # the server checks and passes on searchmoves
        if seat_lists_error(limits, ops.num_seats(self.state)) is not None:
            return False
        if ops.to_move(self.state) != self.seat:
            return False
        if not self._same_game():
            return False
        self.decider.prepare(ops)  # cheap unless the edition changed
        d = self.decider.decide_c(ops, self.state)
        if d < 0:
            return False
        memcpy(line, b"bestmove ", 9)
        length = 9 + ops.decision_text(self.state, d, line + 9)
        line[length] = c'\n'
        _write_all(self.out_fd, line, length + 1)
        return True

    cdef bint _same_game(self) except -1:
        """Whether the game of the C position is the one the policy was last told about (else the
        server starts a new game for the policy first, as `go` does after a bot restart)."""
        cdef int options[MAX_OPTIONS]
        cdef int n = self.ops.options(self.state, options) if self.ops.options != NULL else 0
        game = self.server.game
        if (game is not None and game is self.checked_game and self.checked_ops == self.ops
                and self.checked_seat == self.seat and self.checked_n == n
                and memcmp(options, self.checked_options, n * sizeof(int)) == 0):
            return True
        if game is None or game != game_key(engine.parse_view(self.position_text.decode("ascii"))):
            return False
        self.checked_game = game
        self.checked_ops = self.ops
        self.checked_seat = self.seat
        self.checked_n = n
        memcpy(self.checked_options, options, n * sizeof(int))
        return True
