"""The compiled face of an instant bot: one decision for the seat to move, in C.

The protocol's command loop in C (protocol/fastloop.pyx) answers a `go` by calling a policy's
`Decider` without building a Python object; the policy's own `choose` calls the same decider, so
both paths draw from one generator and decide alike. Bots subclass it (bots/deciders.pyx).

>>> import engine
>>> from bots.deciders import RandomDecider
>>> state = engine.new_game("classic", seed=3)
>>> RandomDecider(7).decide(state) == RandomDecider(7).decide(state)
True
"""
from engine._core cimport GameOps, MAX_LEGAL, State, rng_next


cdef class Decider:
    """Base class: one decision for the seat to move; subclasses implement `decide_c` (and
    `prepare`, when they need something of the edition first: a heuristic)."""

    def __init__(self, seed=0):
        self.reseed(seed)

    def reseed(self, seed) -> None:
        """Restarts the generator from `seed` (an int below 2**64)."""
        self.rng.x = <unsigned long long>(int(seed) & 0xFFFFFFFFFFFFFFFF)
        rng_next(&self.rng)  # decorrelate neighbouring seeds once

    cdef int prepare(self, const GameOps* ops) except -1:
        return 0

    cdef int decide_c(self, const GameOps* ops, const void* state) noexcept nogil:
        return -1

    def decide(self, State state) -> int:
        """The decision for the seat to move in `state` (which must not be over)."""
        if state.ops.to_move(state.ptr) < 0:
            raise ValueError("the match is over: no decision to make")
        self.prepare(state.ops)
        cdef int d = self.decide_c(state.ops, state.ptr)
        if d < 0:
            raise ValueError(f"{type(self).__name__} cannot decide in {state.edition}")
        return d

    cdef int among_c(self, const GameOps* ops, const void* state, const int* allowed, int n) noexcept nogil:
        return -1

    def decide_among(self, State state, allowed) -> int:
        """The decision among `allowed` (legal decision ids of the seat to move), as `decide`
        would choose were they the only legal ones: what `go searchmoves` asks.

        >>> import engine
        >>> from bots.deciders import RandomDecider
        >>> state = engine.new_game("classic", seed=3)
        >>> RandomDecider(7).decide_among(state, state.legal()[2:4]) in state.legal()[2:4]
        True
        """
        cdef int ids[MAX_LEGAL]
        cdef int n = 0, d
        if state.ops.to_move(state.ptr) < 0:
            raise ValueError("the match is over: no decision to make")
        legal = set(state.legal())
        chosen = list(dict.fromkeys(allowed))
        if not chosen:
            raise ValueError("no decision to choose among")
        for d in chosen:
            if d not in legal:
                raise ValueError(f"decision {d} is not legal in this position")
            ids[n] = d
            n += 1
        self.prepare(state.ops)
        d = ids[0] if n == 1 else self.among_c(state.ops, state.ptr, ids, n)
        if d < 0:
            raise ValueError(f"{type(self).__name__} cannot decide in {state.edition}")
        return d
