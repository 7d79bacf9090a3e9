"""A bot's pipes in C: the referee's hot path (protocol/client.py), and the clock of its decisions.

`Pipes.write_some` writes what the pipe takes at once and `Pipes.read_within` waits for whatever
the bot writes next, with the GIL released while waiting: three system calls per round trip and no
Python objects besides the result. The caller decides what the bytes mean; anything but the common
answer (one `bestmove` line) goes through the client's general reader.

Each call stamps the moment of its system call (`sent_ns`, `arrived_ns`; CLOCK_MONOTONIC, the
clock of `time.monotonic_ns`) before it takes the GIL back, so the time a decision took is
measured from the write of `go` to the read of the answer, as the kernel saw them: a referee
thread that waits for the GIL (another game's thread holds it) or for a core does not charge the
bot for its own delay.

>>> import os
>>> r, w = os.pipe()
>>> pipes = Pipes(w, r)
>>> pipes.write_some(b"ping\\n"), pipes.read_within(100), pipes.read_within(10)
(5, b'ping\\n', None)
>>> 0 <= pipes.arrived_ns - pipes.sent_ns < 10**9
True
"""
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from libc.errno cimport errno, EAGAIN, EINTR
from libc.stdint cimport int64_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from posix.unistd cimport read, write


cdef extern from "<poll.h>" nogil:
    struct pollfd:
        int fd
        short events
        short revents
    int poll(pollfd* fds, unsigned long nfds, int timeout)
    enum:
        POLLIN


DEF CHUNK = 65536


cdef inline int64_t _now_ns() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return <int64_t>ts.tv_sec * 1000000000 + ts.tv_nsec


cdef inline Py_ssize_t _read(int fd, char* buf) noexcept nogil:
    """read(2) of up to CHUNK bytes, resumed after a signal."""
    cdef Py_ssize_t got
    while True:
        got = read(fd, buf, CHUNK)
        if got >= 0 or errno != EINTR:
            return got


# Owns nothing but two stamps: the file descriptors belong to the bot's process object.
cdef class Pipes:
    """The write end of a bot's stdin and the read end of its stdout (both non-blocking)."""

    cdef int _in_fd, _out_fd
    cdef public int64_t sent_ns
    """When the last `write_some` made its first write (monotonic ns)."""
    cdef public int64_t arrived_ns
    """When the last read that returned bytes returned them (monotonic ns)."""

    def __init__(self, int in_fd, int out_fd):
        self._in_fd = in_fd
        self._out_fd = out_fd
        self.sent_ns = 0
        self.arrived_ns = 0

    def write_some(self, bytes data not None) -> int:
        """Bytes of `data` written without waiting: all of them unless the pipe is full (then
        fewer, possibly 0); -1 when the reader is gone."""
        cdef const char* p = PyBytes_AS_STRING(data)
        cdef Py_ssize_t size = PyBytes_GET_SIZE(data), written = 0, n
        cdef int fd = self._in_fd
        with nogil:
            self.sent_ns = _now_ns()
            while written < size:
                n = write(fd, p + written, size - written)
                if n < 0:
                    if errno == EINTR:
                        continue
                    if errno != EAGAIN and written == 0:
                        written = -1
                    break
                written += n
        return written

    def read_ready(self):
        """What the bot has written and nobody read yet, up to 64 KiB, without waiting: None when
        nothing is there, b"" at end of file or on a read error."""
        cdef Py_ssize_t got
        cdef char buf[CHUNK]
        cdef int fd = self._out_fd
        with nogil:
            got = _read(fd, buf)
            if got > 0:
                self.arrived_ns = _now_ns()
        if got < 0 and errno == EAGAIN:
            return None
        if got < 0:
            return b""
        return buf[:got]

    def read_within(self, int timeout_ms):
        """What the bot writes within `timeout_ms` (< 0: no limit), up to 64 KiB: None after the
        timeout, b"" at end of file or on a read error."""
        cdef pollfd p
        cdef int ready = 1
        cdef Py_ssize_t got
        cdef char buf[CHUNK]
        cdef int fd = self._out_fd
        p.fd = fd
        p.events = POLLIN
        with nogil:
            got = _read(fd, buf)  # the answer may be there already: one call then
            if got < 0 and errno == EAGAIN:
                while True:
                    ready = poll(&p, 1, timeout_ms)
                    if ready < 0 and errno == EINTR:
                        continue
                    break
                if ready != 0:
                    got = _read(fd, buf)
            if got > 0:
                self.arrived_ns = _now_ns()
        if ready == 0 or (got < 0 and errno == EAGAIN):
            return None  # the timeout, or woken without data (a spurious wake-up)
        if got < 0:
            return b""
        return buf[:got]
