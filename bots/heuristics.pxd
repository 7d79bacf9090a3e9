# An edition's heuristic as the bots use it: its greedy decision and its scores of decisions, as
# nogil C functions over the generic state, in a Python object the edition's record names and the
# searcher and the greedy decider are handed. See bots/heuristics.pyx.
from engine._core cimport GameOps, Rng, State

# The heuristic's decision for the seat to move of state s: with probability epsilon a uniformly
# random legal decision, else the heuristic's (ties broken with rng); -1 once the match is over.
ctypedef int (*BotDecisionFn)(const void* s, Rng* rng, double epsilon) noexcept nogil
# The heuristic's score of each of the n legal decisions of the seat to move (higher is better).
ctypedef void (*BotScoreFn)(const void* s, const int* legal, int n, double* scores) noexcept nogil

ctypedef struct BotOps:
    BotDecisionFn decision
    BotScoreFn score          # or NULL


# Owns one edition family's BotOps table.
cdef class Heuristic:
    cdef BotOps ops
    cdef readonly str name

cdef Heuristic new_heuristic(str name, BotDecisionFn decision, BotScoreFn score)
