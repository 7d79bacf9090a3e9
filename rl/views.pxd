# One state's observation and action mask written in compiled code into new numpy arrays (what the
# single-match environments hand out at every step); rl/aec.pyx calls the cdef methods straight.
from engine._core cimport State
from engine.observation cimport ObserveFn


cdef class Views:
    cdef ObserveFn fn
    cdef bytes name
    cdef readonly int size, num_actions
    cdef list _observations, _masks   # the arrays made, to reuse once no caller holds them
    cdef int _turns[2]
    cdef int _check(self, State state, int seat) except -1
    cdef object _observation(self, State state, int seat)
    cdef object _mask(self, State state, bint mover)
