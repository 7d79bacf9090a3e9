from engine._core cimport State

# An edition's observation tensor: a C function that writes one seat's view of a state as a fixed
# number of floats, for learning code (docs/rl.md). Each family writes its own in
# engine/<family>/observation.pyx; the record's `observation` carries it.

# Writes the `size` floats of `seat`'s observation of state `s` into `out` (every entry: the
# function clears what it does not set). Reads only what the seat can see.
ctypedef void (*ObserveFn)(const void* s, int seat, float* out) noexcept nogil

# Brings `out`, which holds `prev_seat`'s observation of state `prev`, to `seat`'s observation of
# `s`, writing only the entries whose source differs: what an environment stepping one match calls
# after each decision instead of writing the tensor afresh. Correct for any two states of the edition
# with the same number of seats (a new deal too), fast when they differ by a decision.
ctypedef void (*UpdateFn)(const void* prev, int prev_seat, const void* s, int seat, float* out) noexcept nogil


cdef class Observation:
    cdef ObserveFn fn
    cdef UpdateFn update_fn    # NULL where the family has none (callers then write afresh)
    cdef readonly int size
    cdef readonly tuple fields
    cdef readonly str name
    cdef int _check(self, State state, int seat, float[::1] out) except -1


cdef Observation observation_of(str name, ObserveFn fn, tuple fields, UpdateFn update=*)
