# The Lost Cities card-family heuristic (classic, partners, expedition): a greedy decision, as nogil
# C functions over the engine's LCState. See bots/cards/heuristic.pyx.
from engine._core cimport Rng
from engine.cards.rules cimport LCState

# Tunable weights, in points (see docs/bots.md for their meaning and the measured defaults).
ctypedef struct HeurParams:
    double late           # chance that an unseen card drawn in time still fits (ascending order)
    double contest        # that chance's factor for a card the opponents' expedition also takes
    double tempo          # bonus for using a turn to play rather than discard
    double open_min       # projected sum - cost (at cost 20; scaled by cost/20) needed to open
    double open_held      # row + held numbers (at cost 20; scaled by cost/20) needed to open
    double wager_min      # projected sum - cost needed to play a wager
    double open_pen       # penalty for opening or wagering below those thresholds (points)
    double wager_pen      # risk of each wager played (points)
    double wager_wait     # weight of the chance to draw a wager before an expedition's first number
    double feed           # share of a card's worth to the opponents that a discard gives away
    double deny           # share of a card's worth to the opponents that taking it denies
    double new_frac       # worth to the opponents of a number card in a colour they have not opened
    double wager_opp      # worth to the opponents of a wager of an expedition they opened with wagers
    double wager_opp_new  # worth to the opponents of a wager of a colour they have not opened
    double known_frac     # extra share when the opponents are known to hold that colour
    double bury           # share of the value of the pile top that a discard covers
    double deck_w         # weight of the expected worth of a card from the draw pile
    double deck_bonus     # constant added to drawing from the draw pile (points)
    double shorten        # added to drawing from the draw pile, times margin/20 clamped to -1..1
    double partner_w      # weight of the partner's known cards in the team's projection
    double pass_thresh    # partners: pass when every play or discard loses more than this
    int pass_mode         # partners: 0 never pass, 1 pass when stuck (see docs/bots.md)
    int endgame           # 1: take the last card when ahead, stall by drawing a discard when behind

cdef const HeurParams* lc_default_params(int edition) noexcept nogil
cdef void lc_score_decisions(const LCState* s, const HeurParams* P, const int* legal, int n,
                             double* scores) noexcept nogil
cdef int lc_greedy_decision(const LCState* s, Rng* rng, double epsilon) noexcept nogil
cdef int lc_greedy_decision_p(const LCState* s, Rng* rng, double epsilon,
                              const HeurParams* P) noexcept nogil
