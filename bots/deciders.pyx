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
import engine

from bots.choice cimport best_scored
from bots.heuristics cimport BotOps, Heuristic
from engine._core cimport GameOps, MAX_LEGAL, Rng, State, rng_below, rng_unit
from protocol.decider cimport Decider


cdef class RandomDecider(Decider):
    """A uniformly random legal decision (the engine's `random_decision`: legal[below(n)])."""

    cdef int decide_c(self, const GameOps* ops, const void* state) noexcept nogil:
        return ops.random_decision(state, &self.rng)

    cdef int among_c(self, const GameOps* ops, const void* state, const int* allowed, int n) noexcept nogil:
        return allowed[rng_below(&self.rng, n)]


cdef class GreedyDecider(Decider):
    """The heuristic of the state's edition (`Edition.heuristic`), ties and ε-random decisions from
    the generator.

    >>> import engine
    >>> state = engine.new_game("partners", seed=3)
    >>> GreedyDecider(1).decide(state) in state.legal()
    True
    """

    cdef public double epsilon
    """Share of decisions made uniformly at random (0..1)."""
    cdef const GameOps* bound     # the edition the heuristic below is for
    cdef const BotOps* bot        # its heuristic, NULL when it has none
    cdef Heuristic heuristic      # keeps `bot` alive

    def __init__(self, seed=0, double epsilon=0.0):
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be in 0..1, got {epsilon}")
        super().__init__(seed)
        self.epsilon = epsilon

    cdef int prepare(self, const GameOps* ops) except -1:
        if ops == self.bound:
            return 0
        ref = engine.get_edition(ops.name.decode()).heuristic
        self.heuristic = None if ref is None else ref.value
        self.bot = NULL if self.heuristic is None else &self.heuristic.ops
        self.bound = ops
        return 0

    cdef int decide_c(self, const GameOps* ops, const void* state) noexcept nogil:
        if self.bot == NULL or ops != self.bound:
            return -1
        return self.bot.decision(state, &self.rng, self.epsilon)

    cdef int among_c(self, const GameOps* ops, const void* state, const int* allowed, int n) noexcept nogil:
        # The heuristic's scores are per decision, so scoring the allowed ones alone ranks them as
        # the whole list would; ties and ε-random choices as in `decide`.
        cdef double scores[MAX_LEGAL]
        if self.bot == NULL or self.bot.score == NULL or ops != self.bound:
            return -1
        if self.epsilon > 0.0 and rng_unit(&self.rng) < self.epsilon:
            return allowed[rng_below(&self.rng, n)]
        self.bot.score(state, allowed, n, scores)
        return best_scored(allowed, scores, n, &self.rng)


def play_instant(State state, deciders) -> list:
    """Plays `state` on to the end of the match, the seat to move deciding each time with its
    compiled decider (`deciders[seat]`), straight from the full state and without building a view:
    an instant bot reads only what the seat to move knows, so it decides as it would from that
    seat's view (tests/test_arena_duplicate.py plays both ways). The state keeps its record.
    Returns the decisions made, in order.

    >>> import engine
    >>> state = engine.new_game("classic", seed=5, rounds=1)
    >>> moves = play_instant(state, [GreedyDecider(1), RandomDecider(2)])
    >>> state.is_terminal(), len(moves) > 40
    (True, True)
    """
    cdef const GameOps* ops = state.ops
    cdef Decider decider
    cdef int seat, d
    table = list(deciders)
    if len(table) != ops.num_seats(state.ptr) or not all(isinstance(x, Decider) for x in table):
        raise ValueError(f"one compiled Decider a seat ({ops.num_seats(state.ptr)}), got {table!r}")
    for decider in table:
        decider.prepare(ops)
    moves = []
    seat = ops.to_move(state.ptr)
    while seat >= 0:
        decider = <Decider>table[seat]
        d = decider.decide_c(ops, state.ptr)
        if d < 0:
            raise ValueError(f"{type(decider).__name__} cannot decide in {state.edition}")
        state._apply(d, state._revealed(d))
        moves.append(d)
        seat = ops.to_move(state.ptr)
    return moves
