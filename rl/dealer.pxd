# A template match dealt again in place from a seed, and a seeded sequence of seeds (rl/dealer.pyx).
from libc.stdint cimport uint64_t

from engine._core cimport State, Rng


cdef class Dealer:
    cdef State template
    cdef Rng deals
    cdef State _deal(self, uint64_t seed)
