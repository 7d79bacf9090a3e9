# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""An edition's heuristic: one greedy decision, and the scores it gives the legal decisions.

Each edition family writes its heuristic in C over its own state (bots/cards/heuristic.pyx,
bots/board/heuristic.pyx) and exposes it as one `Heuristic`, which the edition's record names
(`Edition.heuristic`). The searcher (bots/ismcts.pyx) and the greedy decider (bots/deciders.pyx)
are handed it; nothing here knows an edition. The Python face below serves the greedy bot, tests
and benchmarks.

>>> import engine
>>> s = engine.new_game("classic", seed=3, rounds=1)
>>> heuristic = heuristic_of(s)
>>> heuristic.decide(s, 7) in s.legal()
True
>>> heuristic.playouts(s, 10, seed=1) > 10 * 44
True
>>> b = engine.new_game("board", seed=3, players=4)
>>> greedy_decision(b, 7) in b.legal()
True
"""
import random as _random

import engine
from engine._core cimport GameOps, Rng, State, play_matches, MAX_SEATS

EDITIONS = tuple(name for name, edition in engine.EDITIONS.items() if edition.heuristic is not None)
"""The editions that have a heuristic."""


cdef class Heuristic:
    """One edition family's heuristic as compiled functions (its `BotOps`), with a Python face."""

    def __repr__(self) -> str:
        return f"<Heuristic {self.name}>"

    def decide(self, State state, rng=0, double epsilon=0.0) -> int:
        """The heuristic's decision for the seat to move, from what that seat knows.

        `rng` is an int seed or a `random.Random` (64 bits are drawn from it); it breaks ties and
        drives the epsilon-random decisions. Raises ValueError once the match is over.
        """
        cdef Rng r
        r.x = _seed_of(rng)
        if state.is_terminal():
            raise ValueError("the match is over: no decision to make")
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be in 0..1, got {epsilon}")
        return self.ops.decision(state.ptr, &r, epsilon)

    @property
    def evaluates(self) -> bool:
        """Whether the heuristic estimates positions (`evaluate`), so searches may cut rollouts short."""
        return self.ops.evaluate != NULL

    def evaluate(self, State state) -> list:
        """Per seat, the heuristic's chance of winning from `state` (a position not over); ValueError
        when the heuristic has no evaluation."""
        cdef double out[MAX_SEATS]
        cdef int n = state.ops.num_seats(state.ptr)
        if self.ops.evaluate == NULL:
            raise ValueError(f"{self.name}: no evaluation")
        if state.is_terminal():
            raise ValueError("the match is over")
        self.ops.evaluate(state.ptr, out)
        return [out[i] for i in range(n)]

    def playouts(self, State template, long games, seed, double epsilon=0.0) -> int:
        """Plays `games` matches with the heuristic in every seat, in compiled code without the GIL.

        Like `engine._core.compiled_playouts`: match i is dealt from seed + i with the template's
        edition and options; returns the total number of decisions made.
        """
        cdef _HeuristicPolicy policy
        policy.bot = &self.ops
        policy.epsilon = epsilon
        return play_matches(template, games, seed, _heuristic_playout, &policy)


cdef Heuristic new_heuristic(str name, BotDecisionFn decision, BotScoreFn score):
    """The Python object of a family's heuristic functions (each family makes its own, once)."""
    cdef Heuristic h = Heuristic.__new__(Heuristic)
    h.name = name
    h.ops.decision = decision
    h.ops.score = score
    h.ops.evaluate = NULL
    return h


def heuristic_of(State state):
    """The heuristic of `state`'s edition, or None when the edition has none."""
    ref = engine.get_edition(state.edition).heuristic
    return None if ref is None else ref.value


def _require(State state) -> Heuristic:
    heuristic = heuristic_of(state)
    if heuristic is None:
        raise NotImplementedError(f"no heuristic for {state.edition} (heuristics: {', '.join(EDITIONS)})")
    return heuristic


def _seed_of(rng) -> int:
    if isinstance(rng, _random.Random):
        return rng.getrandbits(64)
    if isinstance(rng, bool) or not isinstance(rng, int):
        raise TypeError(f"expected an int seed or a random.Random, got {type(rng).__name__}")
    return rng & 0xFFFFFFFFFFFFFFFF


def greedy_decision(State state, rng=0, double epsilon=0.0) -> int:
    """The decision of the heuristic of `state`'s edition (`Heuristic.decide`)."""
    return _require(state).decide(state, rng, epsilon)


def heuristic_playouts(State template, long games, seed, double epsilon=0.0) -> int:
    """`Heuristic.playouts` with the heuristic of the template's edition."""
    return _require(template).playouts(template, games, seed, epsilon)


ctypedef struct _HeuristicPolicy:
    const BotOps* bot
    double epsilon


cdef int _heuristic_playout(const GameOps* ops, void* s, Rng* rng, const void* policy) noexcept nogil:
    cdef const _HeuristicPolicy* h = <const _HeuristicPolicy*>policy
    cdef int n = 0
    while ops.to_move(s) >= 0:
        ops.apply(s, h.bot.decision(s, rng, h.epsilon))
        n += 1
    return n
