# The Quest for El Dorado's C state, map tables and rules, for modules that work on it directly
# (its notation and Python face, the bots' heuristic). docs/eldorado.md is the specification.
from libc.stdint cimport uint8_t, uint16_t, int16_t, int8_t, uint32_t, uint64_t

from engine._core cimport GameOps, MAX_SEATS

# Sizes of the compiled layout. The component data (engine/eldorado/data/eldorado.json) may change
# values, not these shapes; the loader checks it at import.
cdef enum:
    ED_TYPES = 21          # card types, data order (docs/eldorado.md "Cards and tokens")
    ED_MARKET_FIRST = 3    # types 3..20 are the market's
    ED_TOKENS = 14         # cave token kinds, data order
    ED_CAVE_TOKENS = 36
    ED_PILE = 4            # tokens per cave pile
    ED_MAX_HEXES = 232     # 225 on the longest official route, rounded up to whole words
    ED_WORDS = 4           # 64-bit words of a hex bitboard
    ED_MAX_TILES = 6
    ED_MAX_CONN = 5        # connections (tiles - 1)
    ED_MAX_CAVES = 6
    ED_BLOCKADES = 6
    ED_DECK = 64           # 8 starting cards + 54 market cards, rounded up
    ED_ROUTES = 4
    ED_PIECES = 2          # pieces per seat with 2 players (1 otherwise)
    ED_ELDORADO = 255      # a piece's hex once it is on El Dorado
    ED_NONE = 255

# Terrain of a hex; 0..2 are also the symbols of cards (machete, paddle, coin).
cdef enum:
    T_MACHETE = 0
    T_PADDLE = 1
    T_COIN = 2
    T_RUBBLE = 3
    T_CAMP = 4
    T_MOUNTAIN = 5
    T_CAVE = 6
    T_START = 7

# Decision ids (docs/eldorado.md "Decision ids and texts"): sorted ids are notation order.
cdef enum:
    D_MOVE = 0             # (source * 2 + piece) * 6 + direction, source 0..28
    D_STEP = 348           # + direction
    D_PAY = 354            # + card type
    D_COIN = 375           # + coin source (card types, then c1, c2)
    D_BUY = 398            # + type - 3
    D_TRANSMIT = 416       # + type - 3
    D_ACTION = 434         # + 0..9: Cg Si Co Tl dr rm rh ki po cs
    D_REMOVE = 444         # + card type
    D_REPLACE = 465        # + card type
    D_REPLACE_DONE = 486
    D_DISCARD = 487        # + card type
    D_END = 508
    N_DECISIONS = 509

cdef enum:
    PH_PLAY = 0
    PH_DISCARD = 1
    PH_OVER = 2

cdef enum:
    F_KEEP_ITEM = 1
    F_PASS_OCCUPIED = 2
    F_CHANGE_SYMBOL = 4


# One route's map as tables, built from the data at import (engine/eldorado/components.py).
ctypedef struct EdMap:
    uint64_t enter[3][7][ED_WORDS]     # hexes a card of symbol s and power p may enter (power <= p)
    uint64_t special[ED_WORDS]         # rubble and base camps
    uint64_t open_[ED_WORDS]           # every hex a piece may stand on (not mountain, cave, start)
    uint64_t finishing[ED_WORDS]
    int16_t nb[ED_MAX_HEXES][6]        # neighbour in each direction, -1 off the map
    int8_t cross[ED_MAX_HEXES][6]      # the connection that edge crosses, -1 none
    uint8_t terrain[ED_MAX_HEXES]
    uint8_t power[ED_MAX_HEXES]
    uint8_t cave_adj[ED_MAX_HEXES]     # bit k: the hex is a neighbour of cave k
    uint8_t start[4]                   # hexes of start spaces 1..4
    uint8_t cave_hex[ED_MAX_CAVES]
    int nhex
    int nconn
    int ncaves


# The position. All-uint8 per-seat block; unused entries stay zero, so equal positions are equal
# bytes (State compares them with memcmp).
ctypedef struct EdSeat:
    uint8_t hand[ED_TYPES]         # counts per type
    uint8_t discard[ED_TYPES]
    uint8_t removed[ED_TYPES]
    uint8_t tokens[ED_TOKENS]
    uint8_t draw[ED_DECK]          # a stack of types: draw[draw_n - 1] is drawn next
    uint8_t draw_n
    uint8_t piece[ED_PIECES]       # hex, ED_ELDORADO, or 0 for a piece the seat does not have
    uint8_t explored[ED_PIECES]    # bit k: cave k explored by the piece
    uint8_t held                   # bit b-1: blockade b held
    uint8_t _pad[1]                # (147 bytes of fields: the struct is 148, no implicit padding)

ctypedef struct EdState:
    uint64_t rng
    uint32_t on_board              # bit t: the pile of type t lies on the market board (non-empty)
    uint16_t turn                  # turns completed
    uint16_t max_rounds
    uint8_t route
    uint8_t caves                  # the option
    uint8_t players
    uint8_t phase
    uint8_t to_move
    uint8_t final
    uint8_t market[ED_TYPES]       # cards left per pile (types 3..20)
    uint8_t conn[ED_MAX_CONN]      # blockade number on each connection, 0 once taken
    uint8_t cave_n[ED_MAX_CAVES]
    uint8_t cave[ED_MAX_CAVES][ED_PILE]   # cave piles, bottom to top
    uint8_t box[ED_TOKENS]
    uint8_t played[ED_TYPES]       # the mover's played cards
    uint8_t coins                  # half coins
    uint8_t bought
    uint8_t lastcoin               # coin source 0..22, or ED_NONE
    uint8_t moving                 # piece, or ED_NONE
    uint8_t move_symbol            # of the leftover (T_MACHETE..T_COIN)
    uint8_t leftover
    uint8_t pay_n                  # cards owed
    uint8_t pay_kind               # T_RUBBLE or T_CAMP
    uint8_t remove_n               # open removal right
    uint8_t replace                # cards replaced so far, or ED_NONE
    uint8_t last                   # chain marker: card type, or ED_NONE
    uint8_t flags                  # F_*
    uint8_t _pad[3]                # 125 bytes of fields + 3 + 4 x 148 = 720 (a multiple of 8)
    EdSeat seat[MAX_SEATS]


cdef EdMap ED_MAPS[ED_ROUTES]       # in the order of the option `route`
# The card and token data (filled at import from the data file).
cdef uint8_t CARD_SYMBOL[ED_TYPES]    # T_MACHETE/T_PADDLE/T_COIN, 3 joker, 4 action
cdef uint8_t CARD_POWER[ED_TYPES]
cdef uint8_t CARD_PRICE[ED_TYPES]
cdef uint8_t CARD_ITEM[ED_TYPES]
cdef uint8_t BLOCKADE_TERRAIN[ED_BLOCKADES + 1]   # index = blockade number 1..6
cdef uint8_t BLOCKADE_POWER[ED_BLOCKADES + 1]
cdef uint8_t CARD_COPIES[ED_TYPES]    # cards of the type in the market (0 for the starting cards)
cdef uint32_t MARKET_START            # bit t: pile t starts on the market board
cdef uint8_t STARTING_COUNT[ED_TYPES] # each seat's starting cards per type
cdef uint8_t TOKEN_SYMBOL[ED_TOKENS]  # T_MACHETE/T_PADDLE/T_COIN for m/p/c tokens, ED_NONE otherwise
cdef uint8_t TOKEN_POWER[ED_TOKENS]
cdef uint8_t TOKEN_COUNT[ED_TOKENS]


cdef int ed_legal(const void* sp, int* out) noexcept nogil
cdef void ed_apply(void* sp, int d) noexcept nogil
cdef void ed_blank(EdState* s, int players, const int* options) noexcept nogil   # no cards dealt
cdef void ed_reset(void* sp, uint64_t seed) noexcept nogil
cdef int ed_options(const void* sp, int* out) noexcept nogil
cdef const GameOps* ed_ops() noexcept nogil
