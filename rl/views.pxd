# One state's observation and action mask written in compiled code into new numpy arrays (what the
# single-match environments hand out at every step); rl/aec.pyx calls the cdef methods straight.
from libc.stdint cimport uint8_t

from engine._core cimport State, GameOps, MAX_SEATS
from engine.observation cimport ObserveFn, UpdateFn


cdef class Views:
    cdef ObserveFn fn
    cdef UpdateFn update_fn
    cdef const GameOps* ops       # of the states last observed (NULL before the first)
    cdef float* tensors           # per seat, its last tensor, brought up to date at the next call
    cdef char* written            # per seat, the state that tensor was written from
    cdef uint8_t has[MAX_SEATS]
    cdef bytes name
    cdef readonly int size, num_actions
    cdef list _observations, _masks   # the arrays made, to reuse once no caller holds them
    cdef int _turns[2]
    cdef int _check(self, State state, int seat) except -1
    cdef object _observation(self, State state, int seat)
    cdef object _mask(self, State state, bint mover)
