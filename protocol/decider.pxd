# The compiled face of an instant bot, which the protocol's C loop calls for a `go` (see decider.pyx);
# bots subclass it (bots/deciders.pyx).
from engine._core cimport GameOps, Rng


cdef class Decider:
    cdef Rng rng
    # Readies the decider for states of `ops` (cheap when it already is); with the GIL, before
    # decide_c or among_c is called on a state of another edition than the last.
    cdef int prepare(self, const GameOps* ops) except -1
    cdef int decide_c(self, const GameOps* ops, const void* state) noexcept nogil
    cdef int among_c(self, const GameOps* ops, const void* state, const int* allowed, int n) noexcept nogil
