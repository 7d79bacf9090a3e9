# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""One state's observation and action mask, written in compiled code: what the single-match
environments (PettingZoo, Gymnasium, OpenSpiel) ask for at every step. Each call writes straight into
an array no one else holds: a new one, or one this object made before that every caller has since
dropped (its only reference is the object's pool). So an array handed out is never written again
while anything refers to it — a caller may keep it — and a loop that drops its observations does not
pay numpy's allocation at every step. The tensor itself is kept per seat and brought up to date from
the state it was last written from (`Observation.update`), then copied out: quicker than writing it
afresh.

>>> import engine
>>> from rl.views import Views
>>> views = Views(engine.get_edition("classic"))
>>> state = engine.new_game("classic", seed=4)
>>> obs, mask = views.observation(state, 1), views.action_mask(state)
>>> obs.shape, int(mask.sum()) == len(state.legal()), mask.dtype.name
((383,), True, 'int8')
"""
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_WRITABLE
from cpython.list cimport PyList_GET_ITEM
from cpython.object cimport PyObject
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset

from engine._core cimport State, MAX_LEGAL
from engine.observation cimport Observation

import numpy as np

# Looked up once: a new array costs a call of np.empty, the cheapest way without numpy's C headers.
_empty = np.empty
_F32 = np.dtype(np.float32)
_I8 = np.dtype(np.int8)
POOL = 4
"""Arrays of each kind a Views object keeps to reuse (a loop holds one or two at a time)."""

cdef extern from "Python.h":
    Py_ssize_t refcount "Py_REFCNT" (PyObject* o)


cdef object _free_array(list pool, int* turn, Py_ssize_t size, object dtype):
    """An array of the pool that only the pool refers to, else a new one (kept in the pool in
    place of the oldest)."""
    cdef Py_ssize_t k
    for k in range(len(pool)):
        if refcount(<PyObject*>PyList_GET_ITEM(pool, k)) == 1:
            return pool[k]
    array = _empty(size, dtype)
    if len(pool) < POOL:
        pool.append(array)
    else:
        pool[turn[0]] = array
        turn[0] = (turn[0] + 1) % POOL
    return array


cdef class Views:
    """Observations and action masks of one edition's states (`edition`: its record)."""

    def __init__(self, edition) -> None:
        cdef Observation obs = edition.observation
        self.fn = obs.fn
        self.update_fn = obs.update_fn
        self.name = obs.name.encode()
        self.size = obs.size
        self.ops = NULL
        self.written = NULL
        self.tensors = <float*>malloc(sizeof(float) * self.size * MAX_SEATS)
        if self.tensors == NULL:
            raise MemoryError()
        memset(self.has, 0, sizeof(self.has))
        self.num_actions = edition.rules.num_decision_ids
        self._observations = []
        self._masks = []
        self._turns[0] = self._turns[1] = 0

    def __dealloc__(self):
        free(self.tensors)
        free(self.written)

    cdef int _check(self, State state, int seat) except -1:
        if state.ops.name != self.name:
            raise ValueError(f"a state of {state.edition}, views of {self.name.decode()}")
        if not 0 <= seat < state.ops.num_seats(state.ptr):
            raise ValueError(f"no seat {seat}")
        return 0

    cdef object _observation(self, State state, int seat):
        cdef Py_buffer buf
        self._check(state, seat)
        cdef float* tensor = self.tensors + self.size * seat
        cdef size_t ssize = state.ops.state_size
        if state.ops != self.ops:  # the first call (a Views object serves one edition)
            free(self.written)
            self.written = <char*>malloc(ssize * MAX_SEATS)
            if self.written == NULL:
                raise MemoryError()
            self.ops = state.ops
            memset(self.has, 0, sizeof(self.has))
        if self.has[seat] and self.update_fn is not NULL:
            self.update_fn(self.written + ssize * seat, seat, state.ptr, seat, tensor)
        else:
            self.fn(state.ptr, seat, tensor)
            self.has[seat] = 1
        memcpy(self.written + ssize * seat, state.ptr, ssize)
        array = _free_array(self._observations, &self._turns[0], self.size, _F32)
        PyObject_GetBuffer(array, &buf, PyBUF_WRITABLE)
        memcpy(buf.buf, tensor, sizeof(float) * self.size)
        PyBuffer_Release(&buf)
        return array

    cdef object _mask(self, State state, bint mover):
        cdef Py_buffer buf
        cdef int legal[MAX_LEGAL]
        cdef int k, n = 0
        self._check(state, 0)
        array = _free_array(self._masks, &self._turns[1], self.num_actions, _I8)
        PyObject_GetBuffer(array, &buf, PyBUF_WRITABLE)
        memset(buf.buf, 0, self.num_actions)
        if mover and state.ops.to_move(state.ptr) >= 0:
            n = state.ops.legal(state.ptr, legal)
        for k in range(n):
            (<char*>buf.buf)[legal[k]] = 1
        PyBuffer_Release(&buf)
        return array

    def observation(self, State state, int seat):
        """`seat`'s observation tensor of `state` (a new float32 array)."""
        return self._observation(state, seat)

    def observation_and_mask(self, State state, int seat) -> tuple:
        """`seat`'s observation and the mover's mask (all 0 unless `seat` is to move): one call."""
        return self._observation(state, seat), self._mask(state, state.ops.to_move(state.ptr) == seat)

    def action_mask(self, State state, bint mover=True):
        """1 (a new int8 array) at each legal decision of the mover; all 0 when `mover` is False (the
        mask of a seat not to move) or the match is over."""
        return self._mask(state, mover)
