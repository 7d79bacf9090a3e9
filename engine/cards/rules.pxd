# The Lost Cities card family's C state and rules, for the modules that work on it directly (its
# notation, its Python face, the searcher's heuristics). Rules functions are exported; card-set
# helpers are inline.
from libc.stdint cimport uint8_t, uint16_t, int16_t, int32_t, uint64_t

from engine._core cimport Rng, GameOps, LoadView, DecisionText, exp_popcount, exp_ctz, MAX_SEATS

# ----- per-edition facts ------------------------------------------------------------------------

cdef enum:
    ED_CLASSIC = 0
    ED_PARTNERS = 1
    ED_EXPEDITION = 2
    N_EDITIONS = 3
    MAX_TYPES = 64
    MAX_CARDS = 80
    MAX_PILES = 5
    PILE_AREA = 80
    MAX_ROWS = 2

# Decision ids (see docs/architecture.md).
cdef enum:
    D_PLAY = 0           # + type
    D_DISCARD = 64       # + type
    D_DRAW_DECK = 128
    D_DRAW_PILE = 129    # + pile
    D_PASS = 134         # + t2*(t2+1)/2 + t1, t1 <= t2
    N_PASS_IDS = 2080     # 64 * 65 / 2 pairs t1 <= t2
    N_DECISIONS = 2214    # D_PASS + N_PASS_IDS

cdef enum:
    NONE = 255           # no pile / no seat
    FIXED_COST = 20      # the expedition cost of the editions without a `cost` option

cdef enum:
    PH_PLAY = 0
    PH_DRAW = 1
    PH_OVER = 2


ctypedef struct CardSet:
    uint64_t any
    uint64_t extra

ctypedef struct LCConfig:
    int edition
    int nseats
    int nrows
    int ncolours
    int nranks
    int ntypes
    int hand_size
    int npiles
    int pile_cap
    int deck_size
    int min_hand          # a passer keeps at least this many cards
    int passes            # partners may pass two cards
    int value[MAX_TYPES]  # 0 for wagers / multipliers
    int colour[MAX_TYPES]
    int copies[MAX_TYPES]
    uint64_t extra_mask[MAX_TYPES]
    uint64_t extra_low[MAX_TYPES]
    uint64_t colour_types[MAX_PILES]
    uint64_t above[MAX_TYPES]   # number types of the same colour with a higher value
    uint64_t all_types
    uint64_t extra_lows    # the first extra bit of every type with copies
    uint8_t deck_order[MAX_CARDS]

# The position. Field order leaves no padding, unused array entries are kept zero, so two equal
# positions are equal bytes (State.__eq__ compares bytes).
ctypedef struct LCState:
    uint8_t edition
    uint8_t nseats
    uint8_t rounds
    uint8_t round
    uint8_t starter
    uint8_t to_move
    uint8_t phase
    uint8_t nodraw
    uint16_t max_turns
    uint16_t turn
    int16_t cost
    uint8_t deck_n
    uint8_t nonempty      # bit k: discard pile k holds a card (derived from pile_n)
    int32_t totals[MAX_ROWS]
    uint8_t pile_n[MAX_PILES]
    uint8_t _pad1[3]
    uint64_t rng
    uint64_t playable[MAX_ROWS]
    CardSet hand[MAX_SEATS]
    CardSet rows[MAX_ROWS]
    CardSet known[MAX_SEATS]
    CardSet pknown[MAX_SEATS]
    CardSet tknown[MAX_ROWS]
    uint8_t deck[MAX_CARDS]
    uint8_t piles[PILE_AREA]

# ----- card sets ----------------------------------------------------------------------------------

cdef inline void cs_add(CardSet* s, const LCConfig* c, int t) noexcept nogil:
    cdef uint64_t bit = (<uint64_t>1) << t
    if s.any & bit:
        s.extra |= (s.extra & c.extra_mask[t]) + c.extra_low[t]
    else:
        s.any |= bit


cdef inline bint cs_remove(CardSet* s, const LCConfig* c, int t) noexcept nogil:
    """Removes one card of type t; False if the set held none."""
    cdef uint64_t bit = (<uint64_t>1) << t
    cdef uint64_t em, x
    if not (s.any & bit):
        return False
    em = c.extra_mask[t]
    x = s.extra & em
    if x:
        s.extra = (s.extra & ~em) | ((x >> 1) & em)
    else:
        s.any &= ~bit
    return True


cdef inline int cs_count(const CardSet* s, const LCConfig* c, int t) noexcept nogil:
    return <int>((s.any >> t) & 1) + exp_popcount(s.extra & c.extra_mask[t])


cdef inline int cs_size(const CardSet* s) noexcept nogil:
    return exp_popcount(s.any) + exp_popcount(s.extra)


cdef inline void cs_union(CardSet* dst, const CardSet* src, const LCConfig* c) noexcept nogil:
    cdef uint64_t m = src.any
    cdef int t, k, n
    while m:
        t = exp_ctz(m)
        m &= m - 1
        n = cs_count(src, c, t)
        for k in range(n):
            cs_add(dst, c, t)


cdef inline int row_of(const LCState* s, int seat) noexcept nogil:
    return seat & 1


cdef inline int pile_of(const LCConfig* c, int t) noexcept nogil:
    return 0 if c.npiles == 1 else c.colour[t]


cdef inline int pass_id(int t1, int t2) noexcept nogil:
    return D_PASS + t2 * (t2 + 1) // 2 + t1



cdef const LCConfig* lc_config(int edition) noexcept nogil
cdef int lc_expedition_score(const LCState* s, int row, int col) noexcept nogil
cdef int lc_row_score(const LCState* s, int row) noexcept nogil
cdef void lc_clear_round(LCState* s) noexcept nogil
cdef void lc_deal_slots(LCState* s, const LCConfig* c, const uint8_t* slot_seat, int nslots,
                        const uint8_t* pool) noexcept nogil
cdef int lc_legal(const void* sp, int* out) noexcept nogil
cdef int lc_legal_passes(const LCState* s, int* out, bint passes) noexcept nogil
cdef void lc_apply(void* sp, int d) noexcept nogil
cdef void lc_blank(LCState* s, int edition, const int* options) noexcept nogil
cdef int lc_options(const void* sp, int* out) noexcept nogil
cdef void lc_reset(void* sp, uint64_t seed) noexcept nogil
cdef const GameOps* lc_ops(int edition) noexcept nogil
cdef void lc_set_notation(int edition, LoadView load_view, DecisionText decision_text) noexcept
