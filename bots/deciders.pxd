# Compiled instant decisions: what a protocol loop written in C calls for a `go` without going
# through Python (protocol/fastloop.pyx), and what the policy's own `choose` calls otherwise, so
# that both paths draw from one generator and decide alike.
from engine._core cimport GameOps, Rng


cdef class Decider:
    cdef Rng rng
    cdef int decide_c(self, const GameOps* ops, const void* state) noexcept nogil
    cdef int among_c(self, const GameOps* ops, const void* state, const int* allowed, int n) noexcept nogil
