# The argmax that the heuristics share: the best-scored legal decision, ties broken uniformly.
from engine._core cimport Rng, rng_below


cdef inline int best_scored(const int* legal, const double* scores, int n, Rng* rng) noexcept nogil:
    """legal[i] with the highest scores[i]; among scores equal within 1e-9, a uniform choice
    (reservoir sampling: the k-th tie replaces the choice with probability 1/k)."""
    cdef int i, choice = legal[0], ties = 0
    cdef double best = -1e308
    for i in range(n):
        if scores[i] > best + 1e-9:
            best = scores[i]
            choice = legal[i]
            ties = 1
        elif scores[i] >= best - 1e-9:
            ties += 1
            if rng_below(rng, ties) == 0:
                choice = legal[i]
    return choice
