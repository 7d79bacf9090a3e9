# Lost Cities: The Board Game's C state and rules, for modules that work on it directly (its
# notation and Python face, searchers' heuristics). Rules functions are exported; card-set helpers
# are inline.
from libc.stdint cimport uint8_t, uint16_t, int32_t, uint64_t

from engine._core cimport GameOps, exp_popcount, MAX_SEATS

# Sizes of the compiled layout. The board data (engine/board/data/board.json) may change values,
# spaces and tiles, not these shapes; the loader checks it at import.
cdef enum:
    NCOLOURS = 5
    NVALUES = 11          # card values 0..10
    NTYPES = 55           # colour x value, t = 11 * colour + value
    NCARDS = 110          # two copies of each type
    NSTONES = 9
    NPIECES = 5           # 4 adventurers and 1 researcher
    NADVENTURERS = 4
    DECK_CAP = 96         # 110 - 2 * 8 cards at most
    PILE_CAP = 22         # every card of a colour
    MAX_TILES = 45        # at most one tile on every stone

# Decision ids (docs/board.md, "Decisions"): dense, and sorted ids are notation order.
cdef enum:
    D_PLAY = 0            # + type: advance, or begin with an adventurer
    D_PLAY_R = 55         # + type: begin with the researcher
    D_DISCARD = 110       # + type
    D_DRAW_DECK = 165
    D_DRAW_PILE = 166     # + pile
    D_MOVE = 171          # + path: an optional step with the piece on that path
    D_MOVE_NONE = 176     # decline the optional step
    N_DECISIONS = 177

cdef enum:
    NONE = 255

cdef enum:
    PH_PLAY = 0
    PH_MOVE = 1           # the mover has an optional step (arrow or lost-city advance)
    PH_DRAW = 2
    PH_OVER = 3

# Tile codes on a stone: 0 no tile (or the artifact was taken), victory points v are TILE_VP + v.
cdef enum:
    TILE_NONE = 0
    TILE_ARTIFACT = 1
    TILE_ARROW = 2
    TILE_VP = 3


# A multiset of cards with at most two copies per type: `any` has bit t for one copy or more,
# `extra` bit t for the second copy. Each set has one representation, so equal sets are equal bytes.
ctypedef struct Cards:
    uint64_t any
    uint64_t extra

# The position. Field order leaves no padding and unused entries stay zero, so equal positions
# are equal bytes (State.__eq__ compares them with memcmp).
ctypedef struct BoardStruct:
    uint64_t rng
    uint64_t advance[MAX_SEATS]     # types each seat may play onto the columns it has begun
    Cards hand[MAX_SEATS]
    Cards cols[MAX_SEATS]
    Cards known[MAX_SEATS]
    Cards box
    int32_t totals[MAX_SEATS]       # victory points
    uint16_t max_turns
    uint16_t turn
    uint16_t artifacts[MAX_SEATS]
    uint8_t nseats
    uint8_t rounds
    uint8_t round
    uint8_t starter
    uint8_t to_move
    uint8_t phase
    uint8_t nodraw
    uint8_t updown
    uint8_t deck_n
    uint8_t crossed                 # pieces beyond a bridge (all seats)
    uint8_t nonempty                # bit k: discard pile k holds a card
    uint8_t _pad0
    uint8_t begun[MAX_SEATS]        # bit x: the seat has a column (and a piece) on path x
    uint8_t movable[MAX_SEATS]      # bit x: the seat's piece on path x is below stone 9
    uint8_t researcher[MAX_SEATS]   # the researcher's path, NONE while unused
    uint8_t stone[MAX_SEATS][NCOLOURS]   # 0 no piece, else 1..9
    uint8_t last[MAX_SEATS][NCOLOURS]    # value of the column's last card
    uint8_t dir[MAX_SEATS][NCOLOURS]     # 0 open, 1 ascending, 2 descending
    uint8_t tile[NCOLOURS][NSTONES + 1]  # tile code on stone s of path x (index 0 unused)
    uint8_t pile_n[NCOLOURS]
    uint8_t deck[DECK_CAP]
    uint8_t piles[NCOLOURS * PILE_CAP]
    uint8_t _pad1[3]


# ----- card sets ----------------------------------------------------------------------------------

cdef inline void cards_add(Cards* s, int t) noexcept nogil:
    cdef uint64_t bit = (<uint64_t>1) << t
    if s.any & bit:
        s.extra |= bit
    else:
        s.any |= bit


cdef inline bint cards_remove(Cards* s, int t) noexcept nogil:
    """Removes one card of type t; False if the set held none."""
    cdef uint64_t bit = (<uint64_t>1) << t
    if s.extra & bit:
        s.extra &= ~bit
        return True
    if s.any & bit:
        s.any &= ~bit
        return True
    return False


cdef inline int cards_count(const Cards* s, int t) noexcept nogil:
    return <int>((s.any >> t) & 1) + <int>((s.extra >> t) & 1)


cdef inline int cards_size(const Cards* s) noexcept nogil:
    return exp_popcount(s.any) + exp_popcount(s.extra)


# The board data the notation and the Python face read too (filled at import from board.json).
cdef int STONE_VALUE[NSTONES + 1]     # index = stone 1..9
cdef int BRIDGE                       # a step onto stone BRIDGE + 1 crosses a bridge
cdef int CROSS_END                    # pieces across bridges that end an expedition
cdef int HAND_SIZE
cdef int REMOVED_2P
cdef uint8_t COLOUR[NTYPES]


cdef int board_piece_score(const BoardStruct* s, int seat) noexcept nogil
cdef int board_legal(const void* sp, int* out) noexcept nogil
cdef void board_apply(void* sp, int d) noexcept nogil
cdef void board_column_add(BoardStruct* s, int p, int t, bint begin) noexcept nogil
cdef void board_blank(BoardStruct* s, int players, const int* options) noexcept nogil
cdef int board_options(const void* sp, int* out) noexcept nogil
cdef void board_reset(void* sp, uint64_t seed) noexcept nogil
cdef const GameOps* board_ops() noexcept nogil
