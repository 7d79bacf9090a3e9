# An edition's observation tensor: a C function that writes one seat's view of a state as a fixed
# number of floats, for learning code (docs/rl.md). Each family writes its own in
# engine/<family>/observation.pyx; the record's `observation` carries it.

# Writes the `size` floats of `seat`'s observation of state `s` into `out` (every entry: the
# function clears what it does not set). Reads only what the seat can see.
ctypedef void (*ObserveFn)(const void* s, int seat, float* out) noexcept nogil


cdef class Observation:
    cdef ObserveFn fn
    cdef readonly int size
    cdef readonly tuple fields
    cdef readonly str name


cdef Observation observation_of(str name, ObserveFn fn, tuple fields)
