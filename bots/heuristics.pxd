# Heuristic policies by edition, over the generic game face: the searcher
# looks one up by its GameOps (or edition name) without knowing the edition. See heuristics.pyx.
from engine._core cimport Rng, GameOps

# The heuristic's decision for the seat to move of state s: with probability epsilon a uniformly
# random legal decision, else the heuristic's (ties broken with rng); -1 once the match is over.
ctypedef int (*BotDecisionFn)(const void* s, Rng* rng, double epsilon) noexcept nogil
ctypedef void (*BotScoreFn)(const void* s, const int* legal, int n, double* scores) noexcept nogil

ctypedef struct BotOps:
    const char* name          # the edition
    BotDecisionFn decision
    BotScoreFn score          # the heuristic's score of each legal decision (higher is better), or NULL

cdef const BotOps* bot_ops(const char* edition) noexcept nogil
cdef const BotOps* bot_ops_for(const GameOps* ops) noexcept nogil
