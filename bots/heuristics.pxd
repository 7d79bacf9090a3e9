# An edition's heuristic as the bots use it: its greedy decision and its scores of decisions, as
# nogil C functions over the generic state, in a Python object the edition's record names and the
# searcher and the greedy decider are handed. See bots/heuristics.pyx.
from engine._core cimport GameOps, Rng, State

# The heuristic's decision for the seat to move of state s: with probability epsilon a uniformly
# random legal decision, else the heuristic's (ties broken with rng); -1 once the match is over.
ctypedef int (*BotDecisionFn)(const void* s, Rng* rng, double epsilon) noexcept nogil
# The heuristic's score of each of the n legal decisions of the seat to move (higher is better).
ctypedef void (*BotScoreFn)(const void* s, const int* legal, int n, double* scores) noexcept nogil

# The heuristic's estimate of a position that is not over: per seat (num_seats values) its chance of
# winning the match from here, each in 0..1, summing to 1 (a race's cut-off rollouts end here).
ctypedef void (*BotEvaluateFn)(const void* s, double* out) noexcept nogil

ctypedef struct BotOps:
    BotDecisionFn decision
    BotScoreFn score          # or NULL
    BotEvaluateFn evaluate    # or NULL (new_heuristic leaves it NULL; a family sets it on its object)


# Owns one edition family's BotOps table.
cdef class Heuristic:
    cdef BotOps ops
    cdef readonly str name

cdef Heuristic new_heuristic(str name, BotDecisionFn decision, BotScoreFn score)
