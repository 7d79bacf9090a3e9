# The heuristic of Lost Cities: The Board Game (`board`, 2-4 players): a greedy decision, as nogil C
# functions over the engine's BoardStruct. See bots/board/heuristic.pyx.
from engine._core cimport Rng
from engine.board.rules cimport BoardStruct

# Tunable weights (see docs/bots.md, "board", for their meaning and the measured defaults).
ctypedef struct BoardParams:
    double late        # share of the fitting cards that may still come which arrive in time and fit
    double tempo       # bonus for a play (a step now) over a discard (points)
    double now_w       # weight of what a step realizes at once (its stone and tile) over the projection
    double open_min    # projected worth (points) a new path must promise, else open_pen
    double open_pen    # penalty for beginning a path below open_min (points)
    double arrow       # worth of reaching an arrow tile: one free step later (points)
    double excess      # worth of a card played beyond the lost city: a step elsewhere (points)
    double art_w       # weight of the artifact table's slope (the worth of one artifact)
    double art_rate    # artifacts all seats together take per expedition (for later expeditions)
    double contest     # share of an artifact's worth kept when another seat's piece is nearer to it
    double feed        # share of a discard's worth to the next seats that is given away
    double deny        # share of a discard-pile top's worth to the next seats that taking it denies
    double new_frac    # worth of a card to a seat that has not begun its path, as a share of a step
    double bury        # share of the covered pile top's worth (to the next seat - to us) gained
    double deck_bonus  # added to drawing from the draw pile (points)
    double shorten     # added to a draw from the draw pile, x clamp(lead / lead_scale, -1, 1)
    double cross       # added to a step across a bridge (the other clock), x the same
    double lock        # added to a step that ends the expedition, x clamp(margin then / lead_scale)
    double lead_scale  # lead (points of projected standing) at which the clock terms saturate
    int endgame        # 1: take the last card of the draw pile when ahead, stall when behind

cdef const BoardParams* board_default_params(int players) noexcept nogil
cdef void board_score_decisions(const BoardStruct* s, const BoardParams* P, const int* legal, int n,
                                double* scores) noexcept nogil
cdef int board_greedy_decision_p(const void* s, Rng* rng, double epsilon,
                                 const BoardParams* P) noexcept nogil
cdef int board_greedy_decision(const void* s, Rng* rng, double epsilon) noexcept nogil

