# The compiled face of an instant bot, which the protocol's C loop calls for a `go` (see decider.pyx);
# bots subclass it (bots/deciders.pyx).
from engine._core cimport GameOps, Rng


cdef class Decider:
    cdef Rng rng
    cdef int decide_c(self, const GameOps* ops, const void* state) noexcept nogil
    cdef int among_c(self, const GameOps* ops, const void* state, const int* allowed, int n) noexcept nogil
