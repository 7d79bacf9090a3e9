# cython: language_level=3, boundscheck=False, wraparound=False
"""The observation tensor of an edition: one seat's view of a state as a fixed vector of floats.

An edition's family writes the tensor in C (`engine/<family>/observation.pyx`) from the compiled
state, reading only what the seat can see, and describes it field by field; the edition's record
carries it as `observation`. Learning code (rl/, docs/rl.md) reaches the C function through
`(<Observation>edition.observation).fn`; Python code calls `observe`. A family may also bring a
tensor up to date from the state it was written from (`update_fn`, `update`), writing only what
changed: environments call it after each decision.

>>> import engine
>>> obs = engine.get_edition("classic").observation
>>> state = engine.new_game("classic", seed=1)
>>> out = bytearray(4 * obs.size)
>>> obs.observe(state, 0, memoryview(out).cast("f"))
>>> obs.size == sum(f.size for f in obs.fields), obs.fields[0].name, obs.fields[0].shape
(True, 'hand', (50,))
>>> sum(memoryview(out).cast("f")[:50])  # the cards of seat 0's hand
8.0
"""
from dataclasses import dataclass

from engine._core cimport State


@dataclass(frozen=True)
class Field:
    """One named block of an observation tensor: where it starts, its shape and what it holds."""

    name: str
    offset: int
    shape: tuple[int, ...]
    doc: str

    @property
    def size(self) -> int:
        """The number of floats of the block."""
        n = 1
        for k in self.shape:
            n *= k
        return n


def layout(blocks: list[tuple[str, tuple[int, ...], str]]) -> tuple[Field, ...]:
    """Fields laid out one after the other from (name, shape, doc) blocks; empty blocks are left out.

    >>> [(f.name, f.offset) for f in layout([("a", (2, 3), ""), ("b", (0,), ""), ("c", (1,), "")])]
    [('a', 0), ('c', 6)]
    """
    fields = []
    offset = 0
    for name, shape, doc in blocks:
        f = Field(name, offset, tuple(shape), doc)
        if f.size:
            fields.append(f)
            offset += f.size
    return tuple(fields)


cdef class Observation:
    """An edition's observation tensor: `size` floats laid out as `fields`, written by a C function."""

    def __init__(self) -> None:
        raise TypeError("an edition's observation module makes its Observation objects")

    def offsets(self) -> dict[str, Field]:
        """The fields by name."""
        return {f.name: f for f in self.fields}

    cdef int _check(self, State state, int seat, float[::1] out) except -1:
        if state.ops.name != self.name.encode():
            raise ValueError(f"a {state.edition} state, not {self.name}")
        if not 0 <= seat < state.ops.num_seats(state.ptr):
            raise ValueError(f"no seat {seat} in a game of {state.ops.num_seats(state.ptr)}")
        if out.shape[0] != self.size:
            raise ValueError(f"the buffer holds {out.shape[0]} floats, the observation {self.size}")
        return 0

    def observe(self, State state, int seat, float[::1] out) -> None:
        """Writes `seat`'s observation of `state` into `out` (a writable float32 buffer of `size`)."""
        self._check(state, seat, out)
        with nogil:
            self.fn(state.ptr, seat, &out[0])

    @property
    def incremental(self) -> bool:
        """Whether the family brings a tensor up to date in place (`update`)."""
        return self.update_fn is not NULL

    def update(self, State prev, int prev_seat, State state, int seat, float[::1] out) -> None:
        """Brings `out`, `prev_seat`'s observation of `prev`, to `seat`'s observation of `state`
        (a state of the edition with as many seats), writing only what differs: `out` must hold
        that observation, or the result is wrong. Without an incremental writer, writes afresh.

        >>> import engine
        >>> obs = engine.get_edition("classic").observation
        >>> state = engine.new_game("classic", seed=1)
        >>> before, out = state.copy(), memoryview(bytearray(4 * obs.size)).cast("f")
        >>> obs.observe(before, 0, out)
        >>> state.apply("+b7")
        >>> obs.update(before, 0, state, 0, out)
        >>> fresh = memoryview(bytearray(4 * obs.size)).cast("f")
        >>> obs.observe(state, 0, fresh)
        >>> out.tolist() == fresh.tolist()
        True
        """
        self._check(prev, prev_seat, out)
        self._check(state, seat, out)
        if state.ops != prev.ops or state.ops.num_seats(state.ptr) != prev.ops.num_seats(prev.ptr):
            raise ValueError("the two states are not of one edition with as many seats")
        with nogil:
            if self.update_fn is NULL:
                self.fn(state.ptr, seat, &out[0])
            else:
                self.update_fn(prev.ptr, prev_seat, state.ptr, seat, &out[0])

    def __repr__(self) -> str:
        return f"<Observation of {self.name}: {self.size} floats in {len(self.fields)} fields>"


cdef Observation observation_of(str name, ObserveFn fn, tuple fields, UpdateFn update=NULL):
    """The Observation object of an edition's C functions and its fields."""
    cdef Observation o = Observation.__new__(Observation)
    o.fn = fn
    o.update_fn = update
    o.name = name
    o.fields = fields
    o.size = sum(f.size for f in fields)
    return o
