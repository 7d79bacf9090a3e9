"""Instant decisions in compiled code, shared by a policy's `choose` and the protocol's C loop.

A `Decider` owns its generator (SplitMix64, seeded), so the random bot makes the same decisions
whether its protocol loop answers a `go` in C (protocol/fastloop.pyx) or through Python.

>>> import engine
>>> from bots.deciders import RandomDecider
>>> state = engine.new_game("classic", seed=3)
>>> RandomDecider(7).decide(state) == RandomDecider(7).decide(state)
True
>>> RandomDecider(7).decide(state) in state.legal()
True
"""
from bots.choice cimport best_scored
from bots.heuristics cimport BotOps, bot_ops_for
from engine._core cimport GameOps, MAX_LEGAL, Rng, State, rng_below, rng_next, rng_unit


cdef class Decider:
    """Base class: one decision for the seat to move; subclasses implement `decide_c`."""

    def __init__(self, seed=0):
        self.reseed(seed)

    def reseed(self, seed) -> None:
        """Restarts the generator from `seed` (an int below 2**64)."""
        self.rng.x = <unsigned long long>(int(seed) & 0xFFFFFFFFFFFFFFFF)
        rng_next(&self.rng)  # decorrelate neighbouring seeds once

    cdef int decide_c(self, const GameOps* ops, const void* state) noexcept nogil:
        return -1

    def decide(self, State state) -> int:
        """The decision for the seat to move in `state` (which must not be over)."""
        if state.ops.to_move(state.ptr) < 0:
            raise ValueError("the match is over: no decision to make")
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
        d = ids[0] if n == 1 else self.among_c(state.ops, state.ptr, ids, n)
        if d < 0:
            raise ValueError(f"{type(self).__name__} cannot decide in {state.edition}")
        return d


cdef class RandomDecider(Decider):
    """A uniformly random legal decision (the engine's `random_decision`: legal[below(n)])."""

    cdef int decide_c(self, const GameOps* ops, const void* state) noexcept nogil:
        return ops.random_decision(state, &self.rng)

    cdef int among_c(self, const GameOps* ops, const void* state, const int* allowed, int n) noexcept nogil:
        return allowed[rng_below(&self.rng, n)]


cdef class GreedyDecider(Decider):
    """The edition's heuristic (bots/heuristics.pyx), ties and ε-random decisions from the generator.

    >>> import engine
    >>> state = engine.new_game("partners", seed=3)
    >>> GreedyDecider(1).decide(state) in state.legal()
    True
    """

    cdef public double epsilon
    """Share of decisions made uniformly at random (0..1)."""

    def __init__(self, seed=0, double epsilon=0.0):
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be in 0..1, got {epsilon}")
        super().__init__(seed)
        self.epsilon = epsilon

    cdef int decide_c(self, const GameOps* ops, const void* state) noexcept nogil:
        cdef const BotOps* b = bot_ops_for(ops)
        if b == NULL:
            return -1
        return b.decision(state, &self.rng, self.epsilon)

    cdef int among_c(self, const GameOps* ops, const void* state, const int* allowed, int n) noexcept nogil:
        # The heuristic's scores are per decision, so scoring the allowed ones alone ranks them as
        # the whole list would; ties and ε-random choices as in `decide`.
        cdef const BotOps* b = bot_ops_for(ops)
        cdef double scores[MAX_LEGAL]
        if b == NULL or b.score == NULL:
            return -1
        if self.epsilon > 0.0 and rng_unit(&self.rng) < self.epsilon:
            return allowed[rng_below(&self.rng, n)]
        b.score(state, allowed, n, scores)
        return best_scored(allowed, scores, n, &self.rng)
