"""A request and its answer over a bot's pipes, in C: the referee's hot path (protocol/client.py).

`write_some` writes what the pipe takes at once and `read_within` waits for whatever the bot
writes next, with the GIL released while waiting: three system calls per round trip and no
Python objects besides the result. The caller decides what the bytes mean; anything but the common
answer (one `bestmove` line) goes through the client's general reader.

>>> import os
>>> from protocol.pipes import read_within, write_some
>>> r, w = os.pipe()
>>> write_some(w, b"ping\\n"), read_within(r, 100), read_within(r, 10)
(5, b'ping\\n', None)
"""
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from libc.errno cimport errno, EAGAIN, EINTR
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


def write_some(int fd, bytes data not None) -> int:
    """Bytes of `data` written to the non-blocking `fd` without waiting: all of them unless the
    pipe is full (then fewer, possibly 0); -1 when the reader is gone."""
    cdef const char* p = PyBytes_AS_STRING(data)
    cdef Py_ssize_t size = PyBytes_GET_SIZE(data), written = 0, n
    with nogil:
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


cdef inline Py_ssize_t _read(int fd, char* buf) noexcept nogil:
    """read(2) of up to CHUNK bytes, resumed after a signal."""
    cdef Py_ssize_t got
    while True:
        got = read(fd, buf, CHUNK)
        if got >= 0 or errno != EINTR:
            return got


def read_within(int fd, int timeout_ms):
    """What the writer of `fd` writes within `timeout_ms` (< 0: no limit), up to 64 KiB: None
    after the timeout, b"" at end of file or on a read error."""
    cdef pollfd p
    cdef int ready
    cdef Py_ssize_t got
    cdef char buf[CHUNK]
    p.fd = fd
    p.events = POLLIN
    with nogil:
        got = _read(fd, buf)  # the answer may be there already: one call then
    if got < 0 and errno == EAGAIN:
        with nogil:
            while True:
                ready = poll(&p, 1, timeout_ms)
                if ready < 0 and errno == EINTR:
                    continue
                break
        if ready == 0:
            return None
        with nogil:
            got = _read(fd, buf)
        if got < 0 and errno == EAGAIN:
            return None  # woken without data (a spurious wake-up)
    if got < 0:
        return b""
    return buf[:got]
