# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The heuristic of The Quest for El Dorado (`eldorado`, 2-4 players): one greedy decision, as nogil C
over the engine's `EdState` (engine/eldorado/rules.pxd), shared by the greedy bot and the searcher.
Everything is in *distance units* (one power of terrain); the weights are `DEFAULT_PARAMS`, tuned by
duplicate self-play duels (each deal played with the variant in every seat).

**Distances.** At import, per route and per way the blockades may lie (each connection empty or holding
a blockade of some power), a Dijkstra from the finishing spaces gives every hex its distance: the least
total requirement on a way to El Dorado, where entering a hex costs its power (a rubble or base camp its
power in cards), crossing a blockade its power, and mountains, caves and start spaces cannot be
entered (`distances()`; the race estimate below reads them). A decision also runs one Dijkstra of its
own, *weighted* by the seat's deck: a power of a symbol costs the deck's best symbol's power per card
over this symbol's (1 to `mult_max`), so the pieces take the ways their cards can pay, and a hex with
another seat's piece costs `occupied` more (it stands still during the turn). Each thread remembers the
weighted distances it computed last (with each hex's next step on its way), the summaries of the ways
read from them and the race estimates (below) of those ways, keyed by all they depend on: a turn's
decisions and a search's rollouts ask for the same ones again.

**The race.** Along the weighted shortest ways of the seat's pieces lies so much power of each symbol
(and so many cards for rubble and base camps). A deck of N cards brings per turn four cards (fewer
below four; more with Cartographers, Compasses, Travel Logs) of `sum power / N` of each symbol, a card
counting at most the symbol's mean run and only on the hexes it can enter, a joker `joker_k` in every
symbol. The turns the deck needs are the symbols' turns summed (`mix`), plus `stuck` per card a rubble
or base camp ahead asks for beyond a hand, and `thin` per card below `min_deck` once the camps ahead
have taken theirs. Gaining a card (buying, transmitting) is worth the turns it saves, in distance units
(the distance over those turns), `gain_k` times, from the next reshuffle on; removing one (Scientist,
Travel Log, a base camp) the turns it saves or costs; an item is worth its one use over an average
card; coins add `money_k` a draw. The game's horizon is `t_scale` of the deck's turns, capped by the
quickest other seat's plus `lead` (its deck estimated from its hand and draw pile as one set): money
is worth `coin_k` a coin early, nothing when the horizon is over.

**The evaluation** of a position during the seat's turn: minus the weighted distance of its pieces;
plus what the rest of the turn promises -- a quick simulation walks the pieces along decreasing distance
with the hand (each next hex with the source that covers the run ahead best: the smallest that covers
it, else the largest; a card of the symbol, then a joker, a token, a Native; rubble and base camps with
the cheapest cards, a camp's counting what removing them gains; leftover power stepping on) and the
cards it does not use, or uses least well (a small knapsack by cost per coin), buy the best card they
afford; the cards still unused are kept or discarded, as best; plus the deck changes made, held tokens,
the expected worth of a cave token due (from the caves' and the box's tokens as one set), held
blockades (`blockade`), an open removal right or replacement. A card kept is worth what it does onto
the next hex of a way (or as money); onto a later run `next_k` of that, times the share of fresh cards
that may open the way (nothing when the whole hand is kept: a kept card is one fewer draw).

**A decision** is scored by the change of that evaluation: the engine applies it to a scratch copy,
except for the decisions that draw cards (draw actions, `~.`, the end of the turn), which are scored
from the visible position (the drawn cards at their expected worth from the seat's own draw pile's
contents, then its discard pile); a draw that loses nothing earns `draw_bonus` (drawn first, the cards
widen every choice). Progress made now earns `real` a unit over progress only promised, and a step
that makes progress `step_bonus` (anything else loses the leftover). Equal scores are broken with the
caller's generator.

Information: the decision reads only what the seat to move knows: its hand, its draw pile's contents
(never their order), every public field, another seat's hand and draw pile together as one set, the
caves' and the box's tokens as one set and each cave's size. A cave token taken on a scratch copy is
counted, never looked at.

>>> import engine
>>> s = engine.new_game("eldorado", seed=3, players=2)
>>> decision_scores(s)[0][0] in s.legal_text()
True
"""
from libc.stdlib cimport malloc
from libc.string cimport memcmp, memcpy, memset
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t

from bots.choice cimport best_scored
from bots.heuristics cimport new_heuristic, Heuristic
from libc.math cimport exp, log
from engine._core cimport State, Rng, rng_below, rng_unit, exp_popcount, exp_ctz, MAX_LEGAL, MAX_SEATS
from engine.eldorado.rules cimport (EdState, EdMap, ED_MAPS, CARD_SYMBOL, CARD_POWER, CARD_PRICE, CARD_ITEM,
                                    BLOCKADE_TERRAIN, BLOCKADE_POWER, ed_legal, ed_apply,
                                    ED_TYPES, ED_MARKET_FIRST, ED_TOKENS, ED_MAX_HEXES, ED_WORDS, ED_MAX_CONN,
                                    ED_MAX_CAVES, ED_BLOCKADES, ED_ROUTES, ED_PIECES, ED_ELDORADO, ED_NONE,
                                    T_MACHETE, T_PADDLE, T_COIN, T_RUBBLE, T_CAMP, T_MOUNTAIN, T_CAVE, T_START,
                                    D_MOVE, D_STEP, D_PAY, D_COIN, D_BUY, D_TRANSMIT, D_ACTION, D_REMOVE,
                                    D_REPLACE, D_REPLACE_DONE, D_DISCARD, D_END, PH_PLAY, PH_DISCARD, PH_OVER,
                                    F_KEEP_ITEM, F_PASS_OCCUPIED, F_CHANGE_SYMBOL)

from engine.eldorado.components import CARD_CODES, TOKEN_CODES, TOKENS, ROUTES
from bots.params import with_overrides

# ----- tables built at import ---------------------------------------------------------------------

cdef enum:
    NSRC = 29            # move sources: the card types, then m1 m2 m3 p1 p2 c1 c2, then nt
    SRC_TOKEN0 = 21
    INF_D = 30000
    IMPASS = 255
    MAX_USES = 40
    MAX_LEVELS = 6       # blockade power levels + 1 (none)
    MAX_HALVES = 24      # half coins tabulated for buying
    JOKER = 3
    ACTION = 4
    NATIVE = 5
    SCALE = 4            # weighted distances are in quarters
    PATH_AHEAD = 12      # hexes of each piece's way remembered
    HEAP_CAP = 2048
    MAX_OCC = 3          # other seats' pieces that can stand on the map (3 with 4 players)
    WKEY = 16            # a weighted Dijkstra's inputs: route, 5 multipliers, occupied cost and hexes, conn, 1
    WKEY_CONN = 10       # where the connections' blockades start in it
    WCACHE = 256         # weighted distances remembered per thread
    NO_STEP = 255
    SCACHE = 512         # ways' summaries remembered per thread
    SKEY = WKEY + ED_PIECES + 1   # their key: the weights' (conn included), the pieces, how many
    RCACHE = 128         # race estimates remembered per thread
    RKEY = SKEY + ED_TYPES + 2 + 12   # their key: the way's, the deck, its size, the kind, 6 weights
    NRACE = 2 * ED_TYPES + 1          # a deck's race estimate, then with a card fewer / more (race_of)
    CACHE_WAYS = 8       # entries a key may take in a cache

cdef extern from *:
    """
    /* The eldorado heuristic's weighted distances, ways' summaries and race estimates remembered, per
       thread: searches run the heuristic nogil on several threads at once. Zero (empty) at a thread's
       start. */
    #define ED_WCACHE_BYTES 200704
    static __thread unsigned long long ed_wcache_blob[ED_WCACHE_BYTES / 8];
    static inline void* ed_wcache(void) { return ed_wcache_blob; }
    #define ED_SCACHE_BYTES 196608
    static __thread unsigned long long ed_scache_blob[ED_SCACHE_BYTES / 8];
    static inline void* ed_scache(void) { return ed_scache_blob; }
    #define ED_RCACHE_BYTES 81920
    static __thread unsigned long long ed_rcache_blob[ED_RCACHE_BYTES / 8];
    static inline void* ed_rcache(void) { return ed_rcache_blob; }
    """
    void* ed_wcache() noexcept nogil
    void* ed_scache() noexcept nogil
    void* ed_rcache() noexcept nogil
    enum: ED_RCACHE_BYTES
    enum: ED_WCACHE_BYTES
    enum: ED_SCACHE_BYTES

cdef uint8_t ENTER[ED_ROUTES][ED_MAX_HEXES]     # cost of entering a hex (IMPASS: never)
cdef uint8_t FINISH[ED_ROUTES][ED_MAX_HEXES]    # 1 on a finishing space
cdef uint8_t STAND[ED_ROUTES][ED_MAX_HEXES]     # 1 where a piece may stand (open hexes, start spaces)
cdef uint16_t* DIST[ED_ROUTES]                  # per blockade configuration, per hex
cdef int NCONF[ED_ROUTES]
cdef int LEVELS                                 # distinct blockade powers + 1
cdef int BLK_LEVEL[ED_BLOCKADES + 1]            # blockade number -> its power level 1..LEVELS-1
cdef int LEVEL_POWER[MAX_LEVELS]
cdef int POWK[ED_MAX_CONN + 1]                  # LEVELS ** k
cdef int SRC_SYM[NSRC]                          # 0..2 symbol, JOKER, ACTION, NATIVE
cdef int SRC_POW[NSRC]
cdef int SRC_TOK[NSRC]                          # token index of a token source, -1 for a card
cdef int HALVES[ED_TYPES]                       # half coins a card gives for money
cdef int TOK_SYM[ED_TOKENS]                     # movement tokens' symbol, else -1
cdef int TOK_POW[ED_TOKENS]
cdef int MAX_PRICE = 0
cdef int T_NA, T_CG, T_SI, T_CO, T_TL, T_TM
cdef int K_DR, K_RM, K_RH, K_KI, K_PO, K_NT, K_CS, K_C1, K_C2
cdef int DRAW_ACTION_TYPE[4]                    # Cg Si Co Tl
cdef int DRAW_ACTION_CARDS[5]                   # cards drawn by Cg Si Co Tl dr
cdef int ACTION_TOKEN[10]                       # token spent by action a (-1: a card)


cdef void _dijkstra(int r, const int* blk_power, uint16_t* out) noexcept:
    """Distances of one route with blk_power[k] the power of the blockade on connection k (0: none)."""
    cdef const EdMap* M = &ED_MAPS[r]
    cdef int nh = M.nhex, h, u, d, best, c, k
    cdef uint8_t done[ED_MAX_HEXES]
    for h in range(ED_MAX_HEXES):
        out[h] = INF_D
        done[h] = 0
    for h in range(nh):
        if FINISH[r][h]:
            out[h] = 0
    while True:
        u = -1
        best = INF_D
        for h in range(nh):
            if not done[h] and out[h] < best:
                best = out[h]
                u = h
        if u < 0:
            break
        done[u] = 1
        if ENTER[r][u] == IMPASS:
            continue  # a start space: it has a distance, but no one enters it
        for d in range(6):
            h = M.nb[u][d]
            if h < 0 or not STAND[r][h]:
                continue
            k = M.cross[u][d]
            c = out[u] + ENTER[r][u] + (blk_power[k] if k >= 0 else 0)
            if c < out[h]:
                out[h] = c


cdef int _build_tables() except -1:
    global LEVELS, MAX_PRICE, T_NA, T_CG, T_SI, T_CO, T_TL, T_TM
    global K_DR, K_RM, K_RH, K_KI, K_PO, K_NT, K_CS, K_C1, K_C2
    cdef int r, h, t, k, b, conf, i, x, nconn
    cdef int blk[ED_MAX_CONN]
    cdef const EdMap* M
    powers = sorted({int(BLOCKADE_POWER[b]) for b in range(1, ED_BLOCKADES + 1)})
    LEVELS = len(powers) + 1
    if LEVELS > MAX_LEVELS:
        raise ValueError(f"eldorado heuristic: at most {MAX_LEVELS - 1} blockade powers, got {powers}")
    LEVEL_POWER[0] = 0
    for i, x in enumerate(powers):
        LEVEL_POWER[i + 1] = x
    for b in range(1, ED_BLOCKADES + 1):
        BLK_LEVEL[b] = powers.index(int(BLOCKADE_POWER[b])) + 1
    BLK_LEVEL[0] = 0
    POWK[0] = 1
    for k in range(1, ED_MAX_CONN + 1):
        POWK[k] = POWK[k - 1] * LEVELS
    for r in range(ED_ROUTES):
        M = &ED_MAPS[r]
        for h in range(ED_MAX_HEXES):
            ENTER[r][h] = IMPASS
            FINISH[r][h] = 0
            STAND[r][h] = 0
        for h in range(M.nhex):
            t = M.terrain[h]
            if (M.finishing[h >> 6] >> (h & 63)) & 1:
                FINISH[r][h] = 1
            if t == T_MOUNTAIN or t == T_CAVE:
                continue
            STAND[r][h] = not FINISH[r][h]
            if t != T_START:
                ENTER[r][h] = M.power[h] if M.power[h] > 0 else 1
        nconn = M.nconn
        NCONF[r] = POWK[nconn]
        DIST[r] = <uint16_t*>malloc(NCONF[r] * ED_MAX_HEXES * sizeof(uint16_t))
        if DIST[r] == NULL:
            raise MemoryError()
        for conf in range(NCONF[r]):
            x = conf
            for k in range(ED_MAX_CONN):
                blk[k] = 0
            for k in range(nconn):
                blk[k] = LEVEL_POWER[x % LEVELS]
                x //= LEVELS
            _dijkstra(r, blk, DIST[r] + conf * ED_MAX_HEXES)
    # sources
    for t in range(ED_TYPES):
        SRC_SYM[t] = CARD_SYMBOL[t] if CARD_SYMBOL[t] <= 3 else ACTION
        SRC_POW[t] = CARD_POWER[t]
        SRC_TOK[t] = -1
        HALVES[t] = 2 * CARD_POWER[t] if CARD_SYMBOL[t] == T_COIN or CARD_SYMBOL[t] == JOKER else 1
        if CARD_PRICE[t] > MAX_PRICE:
            MAX_PRICE = CARD_PRICE[t]
    if 2 * MAX_PRICE >= MAX_HALVES:
        raise ValueError("eldorado heuristic: prices above the tabulated coins")
    T_NA, T_CG, T_SI, T_CO, T_TL, T_TM = (CARD_CODES.index(code) for code in ("Na", "Cg", "Si", "Co", "Tl", "Tm"))
    SRC_SYM[T_NA] = NATIVE
    kinds = {"machete": T_MACHETE, "paddle": T_PADDLE, "coin": T_COIN}
    for k, token in enumerate(TOKENS):
        TOK_SYM[k] = kinds.get(token.kind, -1)
        TOK_POW[k] = token.power
    K_DR, K_RM, K_RH, K_KI, K_PO, K_NT, K_CS, K_C1, K_C2 = (
        TOKEN_CODES.index(code) for code in ("dr", "rm", "rh", "ki", "po", "nt", "cs", "c1", "c2"))
    for i, code in enumerate(("m1", "m2", "m3", "p1", "p2", "c1", "c2", "nt")):
        k = TOKEN_CODES.index(code)
        SRC_TOK[SRC_TOKEN0 + i] = k
        SRC_SYM[SRC_TOKEN0 + i] = NATIVE if code == "nt" else TOK_SYM[k]
        SRC_POW[SRC_TOKEN0 + i] = TOK_POW[k]
    for i, t in enumerate((T_CG, T_SI, T_CO, T_TL)):
        DRAW_ACTION_TYPE[i] = t
    for i, x in enumerate((2, 1, 3, 2, 1)):
        DRAW_ACTION_CARDS[i] = x
    for i in range(4):
        ACTION_TOKEN[i] = -1
    for i, code in enumerate(("dr", "rm", "rh", "ki", "po", "cs")):
        ACTION_TOKEN[4 + i] = TOKEN_CODES.index(code)
    return 0


_build_tables()

# ----- weights ------------------------------------------------------------------------------------

ctypedef struct EdParams:
    double share_full   # share of the way ahead at which a symbol's cards are always usable
    double coin_k       # weight of a card's money (its gain to a typical hand's best buy)
    double native       # worth of a Native (one hex of any requirement)
    double speed_min    # least progress per turn assumed (distance units)
    double lead         # turns beyond the quickest other seat's that the future is counted for
    double real         # bonus per unit of progress made now over progress only promised
    double step_bonus   # bonus of a step that makes progress
    double blockade     # worth of a held blockade (the tie-break between finishers)
    double token_k      # worth of a held token relative to a card of its kind
    double draw_k       # share of a drawn card's expected worth counted for a draw
    double class_pen    # simulation: progress a worse class of source must beat
    double gain_k       # weight of a deck change (a card gained or removed) over its projected worth
    double t_half       # turns after the next reshuffle at which money is worth half of coin_k
    double joker_k      # share of a joker's power counted in each symbol's strength of the deck
    double mult_max     # most a power of a symbol the deck is weak in may cost (distance units)
    int near            # power of the way ahead that a card kept (or drawn now) is valued over
    double occupied     # extra cost of a way through another seat's piece (it may have moved on)
    double next_k       # share of a card's progress onto a later run of the way counted in hand
    double keep_action  # share of a draw action's worth counted when it is kept (it should be played)
    double draw_bonus   # bonus of a draw (it widens the choice before the turn's other decisions)
    double mix          # the race's turns: between the symbols' sum (1) and their maximum (0)
    double money_k      # worth of a coin per draw in a card gained (times the draws it will have)
    double t_scale      # the game's remaining turns over the turns the deck needs (it improves)
    double stuck        # turns a deck too small to pay a rubble or base camp ahead costs per card
    double min_deck     # cards (after the base camps ahead) below which a deck is too thin
    double thin         # turns each card below min_deck costs

DEFAULT_PARAMS = {
    "share_full": 0.35, "coin_k": 0.8, "native": 2.0, "speed_min": 1.5, "lead": 1.0, "real": 0.05,
    "step_bonus": 5.0, "blockade": 0.5, "token_k": 0.9, "draw_k": 1.0, "class_pen": 0.3,
    "gain_k": 0.7, "t_half": 5.0,
    "joker_k": 0.3, "mult_max": 3.0, "near": 8, "occupied": 2.0,
    "next_k": 0.5, "keep_action": 0.3, "draw_bonus": 3.0,
    "mix": 1.0, "money_k": 0.1, "t_scale": 0.5, "stuck": 20.0, "min_deck": 3.0, "thin": 3.0,
}
"""The heuristic's weights (distance units; see the module's docstring)."""

cdef EdParams DEFAULTS = DEFAULT_PARAMS


def default_params() -> dict:
    """The heuristic's default weights, as a dict.

    >>> default_params()["real"] > 0
    True
    """
    return dict(DEFAULTS)


def check_params(overrides: dict | None) -> dict:
    """The default weights updated with `overrides`; KeyError on an unknown name."""
    return with_overrides(default_params(), overrides)

# ----- the decision's context ---------------------------------------------------------------------

ctypedef struct Comp:
    double A[3]          # power per symbol on the way ahead (blockades included)
    int K[3]             # runs per symbol
    int cnt[3][8]        # hexes per symbol and power (7: 7 or more)
    int hexes[3]
    double rub           # cards owed to rubble and base camps
    int maxrub           # the most cards one of them asks for at once
    double camp          # cards base camps will take out of the game
    double total
    int plen[ED_PIECES]  # the first hexes of each piece's way (blockades as steps of their own)
    uint8_t pt[ED_PIECES][PATH_AHEAD]
    uint8_t pp[ED_PIECES][PATH_AHEAD]
    uint8_t first_free[ED_PIECES]   # the first hex of the way holds no piece


ctypedef struct Ctx:
    const EdState* s
    const EdMap* M
    const EdParams* P
    int r, me, np, players
    int mult[5]                  # cost of one power of each terrain (machete .. base camp), SCALE = 1
    int wenter[ED_MAX_HEXES]     # weighted cost of entering each hex (INF_D: never)
    int wd[ED_MAX_HEXES]         # weighted distances with the blockades on the board now
    int wkey[WKEY]               # what wenter was made of (weigh_ways), for the cache; [WKEY-1] 0: none
    uint8_t wstep[ED_MAX_HEXES]  # the direction of each hex's next hex on its shortest way (NO_STEP: none)
    uint8_t conn0[ED_MAX_CONN]
    int D0                       # the seat's weighted distance now
    double w[ED_TYPES]           # worth of a card per draw (over the way ahead)
    double kw[ED_TYPES]          # worth of a card in hand now and next turn (over the next hexes)
    double kn[ED_TYPES]          # its worth onto the next hex (or as money)
    double kl[ED_TYPES]          # its progress onto a later run of the way
    double wm[ED_TYPES]          # movement worth per draw
    double tv[ED_TOKENS]         # worth of a held token
    double add[ED_TYPES]         # worth of gaining a card of the type
    double rem[ED_TYPES]         # worth of removing one from the game (0 for items)
    double etok                  # expected worth of an unknown cave token
    double avg, T, Teff
    double Tme, conv             # turns the seat's deck needs, distance units a turn is worth
    double mean_draw, mean_disc, sum_end2
    int draw_n, disc_n, end2_n
    int N
    uint8_t tok0[ED_TOKENS]
    uint8_t removed0[ED_TYPES]
    uint8_t market0[ED_TYPES]
    uint32_t on_board0
    double bv0[MAX_HALVES]       # buy_table of the market as the decision finds it


cdef inline int npieces(const EdState* s) noexcept nogil:
    return 2 if s.players == 2 else 1


cdef inline const uint16_t* dist_of(const EdState* s) noexcept nogil:
    """The (unweighted) distance table for the blockades on the board."""
    cdef int k, conf = 0
    for k in range(ED_MAPS[s.route].nconn):
        if s.conn[k]:
            conf += BLK_LEVEL[s.conn[k]] * POWK[k]
    return DIST[s.route] + conf * ED_MAX_HEXES


cdef int seat_distance(const EdState* s, const uint16_t* dist, int seat) noexcept nogil:
    cdef int i, h, total = 0
    for i in range(npieces(s)):
        h = s.seat[seat].piece[i]
        if h != ED_ELDORADO:
            total += dist[h]
    return total


cdef inline int wblk(const Ctx* c, const uint8_t* conn, int h, int d) noexcept nogil:
    """Weighted cost of the blockade on the border h crosses in direction d (0: none)."""
    cdef int k = c.M.cross[h][d], b
    if k < 0 or conn[k] == 0:
        return 0
    b = conn[k]
    return BLOCKADE_POWER[b] * c.mult[BLOCKADE_TERRAIN[b] if BLOCKADE_TERRAIN[b] <= T_CAMP else T_RUBBLE]


cdef void weighted_dijkstra(const Ctx* c, const uint8_t* conn, int* out) noexcept nogil:
    """Distances where a power of each terrain costs its multiplier (a binary heap, lazy deletion)."""
    cdef const EdMap* M = c.M
    cdef int r = c.r, h, u, d, nd, n = 0, i, j, k, du, tmp_d, tmp_h
    cdef int hd[HEAP_CAP]
    cdef int hh[HEAP_CAP]
    for h in range(ED_MAX_HEXES):
        out[h] = INF_D
    for h in range(M.nhex):
        if FINISH[r][h]:
            out[h] = 0
            hd[n] = 0
            hh[n] = h
            n += 1
    while n > 0:
        du = hd[0]
        u = hh[0]
        n -= 1
        hd[0] = hd[n]
        hh[0] = hh[n]
        i = 0
        while True:  # sift down
            j = 2 * i + 1
            if j >= n:
                break
            if j + 1 < n and hd[j + 1] < hd[j]:
                j += 1
            if hd[i] <= hd[j]:
                break
            tmp_d = hd[i]; hd[i] = hd[j]; hd[j] = tmp_d
            tmp_h = hh[i]; hh[i] = hh[j]; hh[j] = tmp_h
            i = j
        if du > out[u] or c.wenter[u] >= INF_D:
            continue
        for d in range(6):
            h = M.nb[u][d]
            if h < 0 or not STAND[r][h]:
                continue
            nd = du + c.wenter[u] + wblk(c, conn, u, d)
            if nd < out[h]:
                out[h] = nd
                if n < HEAP_CAP:
                    i = n
                    hd[n] = nd
                    hh[n] = h
                    n += 1
                    while i > 0:  # sift up
                        k = (i - 1) >> 1
                        if hd[k] <= hd[i]:
                            break
                        tmp_d = hd[i]; hd[i] = hd[k]; hd[k] = tmp_d
                        tmp_h = hh[i]; hh[i] = hh[k]; hh[k] = tmp_h
                        i = k


cdef int cache_slot(unsigned long long* clock, unsigned long long* used, unsigned int* hashes, int* keys,
                    int n, int nkey, const int* key, bint* hit) noexcept nogil:
    """The entry of a per-thread cache (n entries of nkey ints of key, in sets of CACHE_WAYS by the
    key's hash; n a power of two) that holds key (hit), else the least recently read one of its set,
    given key (the caller fills its payload); either is marked read."""
    cdef int j, k, old
    cdef unsigned int hsh = 2166136261u
    for k in range(nkey):
        hsh = (hsh ^ <unsigned int>key[k]) * 16777619u
    clock[0] += 1
    old = <int>((hsh >> 16) & <unsigned int>(n // CACHE_WAYS - 1)) * CACHE_WAYS
    for j in range(old, old + CACHE_WAYS):
        if hashes[j] == hsh and used[j] and memcmp(keys + j * nkey, key, nkey * sizeof(int)) == 0:
            used[j] = clock[0]
            hit[0] = True
            return j
        if used[j] < used[old]:
            old = j
    used[old] = clock[0]
    hashes[old] = hsh
    memcpy(keys + old * nkey, key, nkey * sizeof(int))
    hit[0] = False
    return old


ctypedef struct WCache:
    unsigned long long clock
    unsigned long long used[WCACHE]      # the clock when an entry was last read (0: empty)
    unsigned int hash[WCACHE]            # of each key, compared first
    int key[WCACHE][WKEY]
    uint16_t out[WCACHE][ED_MAX_HEXES]   # distances never exceed INF_D
    uint8_t step[WCACHE][ED_MAX_HEXES]   # way_steps of them


if sizeof(WCache) > ED_WCACHE_BYTES:
    raise ImportError(f"eldorado heuristic: the weighted distances' cache needs {sizeof(WCache)} bytes")

cdef bint WCACHE_ON = True


cdef void way_steps(const Ctx* c, const uint8_t* conn, const int* wd, uint8_t* step) noexcept nogil:
    """From each hex, the direction of the next hex on its shortest way: the least distance of a
    neighbour plus the cost of entering it (and of a blockade between), the first direction on a tie
    (NO_STEP where no neighbour may be entered)."""
    cdef const EdMap* M = c.M
    cdef int h, d, n, v, bestv, best
    for h in range(ED_MAX_HEXES):
        step[h] = NO_STEP
    for h in range(M.nhex):
        bestv = INF_D
        for d in range(6):
            n = M.nb[h][d]
            if n < 0 or c.wenter[n] >= INF_D:
                continue
            v = wd[n] + c.wenter[n] + wblk(c, conn, h, d)
            if v < bestv:
                bestv = v
                step[h] = d


cdef inline void weights_key(const Ctx* c, const uint8_t* conn, int* key) noexcept nogil:
    """The key of a weighted distances' table (WKEY ints): the seat's weights (c.wkey) and conn."""
    cdef int k
    memcpy(key, c.wkey, sizeof(c.wkey))
    for k in range(ED_MAX_CONN):
        key[WKEY_CONN + k] = conn[k]


cdef void weighted_distances(const Ctx* c, const uint8_t* conn, int* out, uint8_t* step) noexcept nogil:
    """weighted_dijkstra (and way_steps, when step is not NULL) through this thread's cache: a seat's
    weights change only with its deck and the others' pieces, so a turn's decisions (and a search's
    rollouts through the same turn) ask for the same few tables again. The key is every input the
    distances depend on (c.wkey and conn); the least recently read entry is replaced."""
    cdef WCache* w
    cdef int key[WKEY]
    cdef int j, k
    cdef bint hit
    if not WCACHE_ON or c.wkey[WKEY - 1] == 0:
        weighted_dijkstra(c, conn, out)
        if step != NULL:
            way_steps(c, conn, out, step)
        return
    weights_key(c, conn, key)
    w = <WCache*>ed_wcache()
    j = cache_slot(&w.clock, w.used, w.hash, &w.key[0][0], WCACHE, WKEY, key, &hit)
    if hit:
        for k in range(ED_MAX_HEXES):
            out[k] = w.out[j][k]
    else:
        weighted_dijkstra(c, conn, out)
        way_steps(c, conn, out, w.step[j])
        for k in range(ED_MAX_HEXES):
            w.out[j][k] = <uint16_t>out[k]
    if step != NULL:
        memcpy(step, w.step[j], sizeof(w.step[j]))


def _distance_cache(bint on) -> bool:
    """Turns the caches of weighted distances, ways' summaries and race estimates on or off (for tests:
    both must decide alike); the previous setting."""
    global WCACHE_ON
    cdef bint was = WCACHE_ON
    WCACHE_ON = on
    return was


cdef inline const int* wdist_for(const Ctx* c, const EdState* x, int* buf) noexcept nogil:
    """The weighted distances for x's blockades: the decision's own, or computed into buf."""
    cdef int k
    for k in range(ED_MAX_CONN):
        if x.conn[k] != c.conn0[k]:
            weighted_distances(c, x.conn, buf, NULL)
            return buf
    return c.wd


cdef int seat_wdist(const Ctx* c, const EdState* x, const int* wd) noexcept nogil:
    cdef int i, h, total = 0
    for i in range(c.np):
        h = x.seat[c.me].piece[i]
        if h != ED_ELDORADO:
            total += wd[h]
    return total


cdef void add_terrain(Comp* a, int sym, int power, int* prev) noexcept nogil:
    if sym == T_RUBBLE or sym == T_CAMP:
        a.rub += power
        if sym == T_CAMP:
            a.camp += power
        if power > a.maxrub:
            a.maxrub = power
        prev[0] = -1
        return
    if sym > T_COIN:
        return
    a.A[sym] += power
    a.cnt[sym][power if power < 7 else 7] += 1
    a.hexes[sym] += 1
    if prev[0] != sym:
        a.K[sym] += 1
    prev[0] = sym


cdef bint _occupied_hex(const EdState* s, int h) noexcept nogil:
    cdef int o, i
    for o in range(s.players):
        for i in range(npieces(s)):
            if s.seat[o].piece[i] == h:
                return True
    return False


cdef void compose(Comp* a, const Ctx* c, const EdState* s, int seat, int limit) noexcept nogil:
    """The terrain on the shortest ways of a seat's pieces to El Dorado (the first `limit` power of
    each way; the weighted distances of the seat to move, c.wstep for s.conn)."""
    cdef const EdMap* M = c.M
    cdef int r = c.r, i, h, best, bestd, steps, prev, k, done
    memset(a, 0, sizeof(Comp))
    for i in range(c.np):
        h = s.seat[seat].piece[i]
        if h == ED_ELDORADO:
            continue
        prev = -1
        done = 0
        for steps in range(120):
            if done >= limit:
                break
            bestd = c.wstep[h]
            if bestd == NO_STEP:
                break
            best = M.nb[h][bestd]
            k = M.cross[h][bestd]
            if k >= 0 and s.conn[k]:
                add_terrain(a, BLOCKADE_TERRAIN[s.conn[k]], BLOCKADE_POWER[s.conn[k]], &prev)
                done += BLOCKADE_POWER[s.conn[k]]
                if a.plen[i] < PATH_AHEAD:
                    a.pt[i][a.plen[i]] = BLOCKADE_TERRAIN[s.conn[k]]
                    a.pp[i][a.plen[i]] = BLOCKADE_POWER[s.conn[k]]
                    a.plen[i] += 1
            add_terrain(a, M.terrain[best], ENTER[r][best], &prev)
            done += ENTER[r][best]
            if steps == 0:
                a.first_free[i] = not _occupied_hex(s, best)
            if a.plen[i] < PATH_AHEAD:
                a.pt[i][a.plen[i]] = M.terrain[best]
                a.pp[i][a.plen[i]] = ENTER[r][best]
                a.plen[i] += 1
            if FINISH[r][best]:
                break
            h = best
    a.total = a.A[0] + a.A[1] + a.A[2] + a.rub


ctypedef struct SCache:
    unsigned long long clock
    unsigned long long used[SCACHE]
    unsigned int hash[SCACHE]
    int key[SCACHE][SKEY]
    Comp way[SCACHE]                     # the summary's part (SUMMARY bytes)


cdef Comp _layout
cdef size_t SUMMARY = <size_t>(<char*>&_layout.plen[0] - <char*>&_layout)   # Comp's fields before plen

if sizeof(SCache) > ED_SCACHE_BYTES:
    raise ImportError(f"eldorado heuristic: the ways' summaries cache needs {sizeof(SCache)} bytes")


cdef bint way_summary(Comp* a, const Ctx* c, const EdState* s, int seat, int* key) noexcept nogil:
    """compose(a, c, s, seat, 1000) as far as the race and the cards' worth per draw read it: each
    symbol's power, runs and hexes, the rubble and base camps, the total (the first hexes of each way,
    plen .. first_free, are left zero). Remembered per thread, keyed by all it depends on: the weights
    and blockades (c.wkey, s.conn) and the seat's pieces; the other seats' ways and a seat's own while
    its pieces stand still come back often. True when remembered, with its key (SKEY ints) in key."""
    cdef SCache* w
    cdef int j, k
    cdef bint hit
    if not WCACHE_ON or c.wkey[WKEY - 1] == 0:
        compose(a, c, s, seat, 1000)
        memset(<char*>a + SUMMARY, 0, sizeof(Comp) - SUMMARY)
        return False
    weights_key(c, s.conn, key)
    for k in range(ED_PIECES):
        key[WKEY + k] = s.seat[seat].piece[k]
    key[WKEY + ED_PIECES] = c.np
    w = <SCache*>ed_scache()
    j = cache_slot(&w.clock, w.used, w.hash, &w.key[0][0], SCACHE, SKEY, key, &hit)
    if not hit:
        compose(&w.way[j], c, s, seat, 1000)
    memcpy(a, &w.way[j], SUMMARY)
    memset(<char*>a + SUMMARY, 0, sizeof(Comp) - SUMMARY)
    return True


cdef double move_worth(const Comp* a, const EdParams* P, int sym, int power) noexcept nogil:
    """Movement worth per draw of a card (or token) of one symbol and power."""
    cdef double share, u, run, f
    cdef int p, fit = 0
    if a.total <= 0.0 or power <= 0 or a.hexes[sym] == 0:
        return 0.0
    share = a.A[sym] / a.total
    u = share / P.share_full
    if u > 1.0:
        u = 1.0
    run = a.A[sym] / (a.K[sym] if a.K[sym] > 0 else 1)
    if run < 1.0:
        run = 1.0
    for p in range(1, 8):
        if p <= power:
            fit += a.cnt[sym][p]
    f = fit / <double>a.hexes[sym]
    return u * (power if power < run else run) * f


cdef double joker_worth(const Comp* a, int power) noexcept nogil:
    cdef double sym_total = a.A[0] + a.A[1] + a.A[2], run, v = 0.0, f
    cdef int sym, p, fit
    if sym_total <= 0.0 or power <= 0:
        return 0.0
    for sym in range(3):
        if a.hexes[sym] == 0:
            continue
        run = a.A[sym] / (a.K[sym] if a.K[sym] > 0 else 1)
        if run < 1.0:
            run = 1.0
        fit = 0
        for p in range(1, 8):
            if p <= power:
                fit += a.cnt[sym][p]
        f = fit / <double>a.hexes[sym]
        v += a.A[sym] / sym_total * (power if power < run else run) * f
    return v


cdef double first_run(const Comp* a, int i, int j, int sym, int power) noexcept nogil:
    """Progress of one source played onto step j of piece i's way, stepping on with its leftover."""
    cdef int n = a.plen[i], T = a.pt[i][j], p = a.pp[i][j], left, k
    cdef double prog
    if T == T_RUBBLE or T == T_CAMP:
        return p if sym == NATIVE else 1.0
    if sym == NATIVE:
        return p
    if sym == JOKER:
        sym = T
    if T != sym or T > T_COIN or power < p:
        return 0.0
    prog = p
    left = power - p
    k = j + 1
    while k < n and a.pt[i][k] == sym and a.pp[i][k] <= left:
        prog += a.pp[i][k]
        left -= a.pp[i][k]
        k += 1
    return prog


ctypedef struct Starts:
    int n0, n1               # steps onto the next hex (now), then onto a later run's first hex
    uint8_t i[2 * ED_PIECES * PATH_AHEAD]
    uint8_t j[2 * ED_PIECES * PATH_AHEAD]


cdef void run_starts(Starts* st, const Comp* a, int np) noexcept nogil:
    """Where run_worth may play a source, listed once for every source: now, the next hex of each way
    with no piece on it; later, a next hex that holds a piece, and each first hex of a later run (in
    the ways' order)."""
    cdef int i, j, n = 0
    for i in range(np):
        if a.plen[i] > 0 and a.first_free[i]:
            st.i[n] = i
            st.j[n] = 0
            n += 1
    st.n0 = n
    for i in range(np):
        if a.plen[i] == 0:
            continue
        if not a.first_free[i]:
            st.i[n] = i
            st.j[n] = 0
            n += 1
        for j in range(1, a.plen[i]):
            if a.pt[i][j] != a.pt[i][j - 1]:
                st.i[n] = i
                st.j[n] = j
                n += 1
    st.n1 = n


cdef double run_worth(const Comp* a, const Starts* st, int sym, int power, bint later) noexcept nogil:
    """What a source does from where the pieces stand: its progress onto the next hex of a way, or
    (later) onto the first hex of a later run, once other cards have opened the way (the best over
    run_starts)."""
    cdef int k
    cdef double best = 0.0, v
    for k in range(st.n0 if later else 0, st.n1 if later else st.n0):
        v = first_run(a, st.i[k], st.j[k], sym, power)
        if v > best:
            best = v
    return best


cdef double card_move_worth(const Comp* a, const EdParams* P, int t) noexcept nogil:
    if SRC_SYM[t] <= T_COIN:
        return move_worth(a, P, SRC_SYM[t], SRC_POW[t])
    if SRC_SYM[t] == JOKER:
        return joker_worth(a, SRC_POW[t])
    if SRC_SYM[t] == NATIVE:
        return P.native if a.total > 0.0 else 0.0
    return 0.0


cdef inline double draws_of(int t, double draws) noexcept nogil:
    """Times a card gained now is drawn (an item is used once)."""
    if CARD_ITEM[t] and draws > 1.0:
        return 1.0
    return draws


cdef inline bint available(const EdState* x, int t) noexcept nogil:
    """Whether a pile could be bought from now (on the board, or beside it with a slot free)."""
    if x.market[t] == 0:
        return False
    return ((x.on_board >> t) & 1) or exp_popcount(x.on_board) < 6


ctypedef struct Race:
    double A[3]                  # power of each symbol on the way ahead
    double rub                   # cards owed to rubble and base camps
    int maxrub                   # the most one of them asks for at once
    double camp                  # cards base camps will take
    double sp[ED_TYPES][3]       # power a card brings to each symbol (run and hexes allowing)
    double extra[ED_TYPES]       # cards it draws beyond itself


cdef double eff_power(const Comp* a, int sym, int power) noexcept nogil:
    """Power of a card of `sym` usable on the way: at most the symbol's mean run, times the share of
    its hexes the card can enter."""
    cdef double run
    cdef int p, fit = 0
    if a.hexes[sym] == 0 or power <= 0:
        return 0.0
    run = a.A[sym] / (a.K[sym] if a.K[sym] > 0 else 1)
    if run < 1.0:
        run = 1.0
    for p in range(1, 8):
        if p <= power:
            fit += a.cnt[sym][p]
    return (power if power < run else run) * fit / <double>a.hexes[sym]


cdef void race_init(Race* q, const Comp* a, const EdParams* P) noexcept nogil:
    cdef int t, sym
    for sym in range(3):
        q.A[sym] = a.A[sym]
    q.rub = a.rub
    q.maxrub = a.maxrub
    q.camp = a.camp
    for t in range(ED_TYPES):
        q.extra[t] = 0.0
        for sym in range(3):
            q.sp[t][sym] = 0.0
        if SRC_SYM[t] <= T_COIN:
            q.sp[t][SRC_SYM[t]] = eff_power(a, SRC_SYM[t], SRC_POW[t])
        elif SRC_SYM[t] == JOKER:
            for sym in range(3):
                q.sp[t][sym] = P.joker_k * eff_power(a, sym, SRC_POW[t])
        elif SRC_SYM[t] == NATIVE:
            for sym in range(3):
                q.sp[t][sym] = P.joker_k * P.native * 0.5
    q.extra[T_CG] = 1.0
    q.extra[T_CO] = 2.0
    q.extra[T_TL] = 1.0


cdef double race_turns(const Race* q, const int* deck, int N, const EdParams* P) noexcept nogil:
    """Turns the deck needs for the way ahead: per symbol its power over what four cards a turn (more
    with draw actions) bring of it, the symbols' turns between their sum and their maximum (`mix`)."""
    cdef int t, sym, j, n = 0, cards = 0
    cdef double H, sup, tt, total = 0.0, most = 0.0
    cdef int held[ED_TYPES]
    if N <= 0:
        return 1e3
    for t in range(ED_TYPES):   # the types the deck holds (one it lacks adds a zero to every sum)
        if deck[t]:
            held[n] = t
            n += 1
    H = 0.0
    for j in range(n):
        t = held[j]
        H += deck[t] * q.extra[t]
        if t != T_NA:
            cards += deck[t]
    H = (4.0 if N >= 4 else <double>N) * (1.0 + H / N)
    for sym in range(3):
        if q.A[sym] <= 0.0:
            continue
        sup = 0.0
        for j in range(n):
            t = held[j]
            sup += deck[t] * q.sp[t][sym]
        sup /= N
        if sup < 0.05:
            sup = 0.05
        tt = q.A[sym] / (H * sup)
        total += tt
        if tt > most:
            most = tt
    if q.maxrub > (cards if cards < 4 else 4):
        total += P.stuck * (q.maxrub - (cards if cards < 4 else 4))   # a hand too small to pay
        most += P.stuck * (q.maxrub - (cards if cards < 4 else 4))
    sup = cards - q.camp
    if sup < P.min_deck:   # a thin deck: fewer choices, and base camps may leave too few cards
        total += P.thin * (P.min_deck - sup)
        most += P.thin * (P.min_deck - sup)
    if q.rub > 0.0:
        sup = cards / <double>N
        if sup < 0.1:
            sup = 0.1
        tt = q.rub / (H * sup)
        total += tt
        if tt > most:
            most = tt
    return P.mix * total + (1.0 - P.mix) * most


ctypedef struct RCache:
    unsigned long long clock
    unsigned long long used[RCACHE]
    unsigned int hash[RCACHE]
    int key[RCACHE][RKEY]
    double turns[RCACHE][NRACE]

if sizeof(RCache) > ED_RCACHE_BYTES:
    raise ImportError(f"eldorado heuristic: the race estimates' cache needs {sizeof(RCache)} bytes")


cdef void race_of(const Comp* a, bint keyed, const int* skey, int* deck, int N, const EdParams* P,
                  bint changes, double* out) noexcept nogil:
    """out[0]: race_turns of the deck (N cards) over the way a; with `changes` also, for each card type
    t it might lose, out[1 + t] with a card of t fewer (t held, not an item), and for each it might
    gain, out[1 + ED_TYPES + t] with one more (t on the market, not an item). Remembered per thread
    when keyed (skey: way_summary's key of a), keyed by all it depends on."""
    cdef RCache* w
    cdef int key[RKEY]
    cdef double wts[6]
    cdef double* dst = out
    cdef int j, t
    cdef bint hit
    cdef Race q
    if keyed and WCACHE_ON:
        memcpy(key, skey, SKEY * sizeof(int))
        memcpy(key + SKEY, deck, ED_TYPES * sizeof(int))
        key[SKEY + ED_TYPES] = N
        key[SKEY + ED_TYPES + 1] = changes
        wts[0] = P.joker_k   # what race_init and race_turns read of the weights
        wts[1] = P.native
        wts[2] = P.stuck
        wts[3] = P.min_deck
        wts[4] = P.thin
        wts[5] = P.mix
        memcpy(key + SKEY + ED_TYPES + 2, wts, sizeof(wts))
        w = <RCache*>ed_rcache()
        j = cache_slot(&w.clock, w.used, w.hash, &w.key[0][0], RCACHE, RKEY, key, &hit)
        dst = w.turns[j]
        if hit:
            memcpy(out, dst, (NRACE if changes else 1) * sizeof(double))
            return
    race_init(&q, a, P)
    dst[0] = race_turns(&q, deck, N, P)
    if changes:
        for t in range(ED_TYPES):
            dst[1 + t] = 0.0
            if CARD_ITEM[t] or deck[t] == 0:
                continue
            deck[t] -= 1
            dst[1 + t] = race_turns(&q, deck, N - 1, P)
            deck[t] += 1
        for t in range(ED_TYPES):
            dst[1 + ED_TYPES + t] = 0.0
            if t < ED_MARKET_FIRST or CARD_ITEM[t]:
                continue
            deck[t] += 1
            dst[1 + ED_TYPES + t] = race_turns(&q, deck, N + 1, P)
            deck[t] -= 1
    if dst != out:
        memcpy(out, dst, (NRACE if changes else 1) * sizeof(double))


cdef void weigh_ways(Ctx* c, const EdState* s, int seat, const int* deck, const EdParams* P) noexcept nogil:
    """Weights the map for `seat` and its deck, then its weighted distances into c.wd: a power of a
    symbol costs the deck's power in its best symbol over its power in this one, per card (1 to
    `mult_max`); the other seats' pieces stand still during the turn, so a way through them costs
    `occupied` more."""
    cdef int t, h, o, i, sym, k, n
    cdef double cap[3]
    cdef double cap_ref, m
    for sym in range(3):
        cap[sym] = 0.0
    for t in range(ED_TYPES):
        if SRC_SYM[t] <= T_COIN:
            cap[SRC_SYM[t]] += deck[t] * SRC_POW[t]
        elif SRC_SYM[t] == JOKER:
            for sym in range(3):
                cap[sym] += P.joker_k * deck[t] * SRC_POW[t]
    cap_ref = cap[0] if cap[0] > cap[1] else cap[1]
    if cap[2] > cap_ref:
        cap_ref = cap[2]
    for sym in range(3):
        m = cap_ref / cap[sym] if cap[sym] > 0.0 else P.mult_max
        if m > P.mult_max:
            m = P.mult_max
        if m < 1.0:
            m = 1.0
        c.mult[sym] = <int>(SCALE * m + 0.5)
    c.mult[T_RUBBLE] = SCALE
    c.mult[T_CAMP] = SCALE
    for h in range(ED_MAX_HEXES):
        c.wenter[h] = INF_D
    for h in range(c.M.nhex):
        if ENTER[c.r][h] != IMPASS:
            t = c.M.terrain[h]
            c.wenter[h] = ENTER[c.r][h] * c.mult[t if t <= T_CAMP else T_RUBBLE]
    # the cache's key: the route, the multipliers, the occupied cost and the hexes it was added to
    for k in range(WKEY):
        c.wkey[k] = -1
    c.wkey[0] = c.r
    for t in range(5):
        c.wkey[1 + t] = c.mult[t]
    c.wkey[6] = <int>(P.occupied * SCALE + 0.5)
    n = 0
    for o in range(s.players):
        if o != seat:
            for i in range(c.np):
                h = s.seat[o].piece[i]
                if h != ED_ELDORADO and c.wenter[h] < INF_D:
                    c.wenter[h] += <int>(P.occupied * SCALE + 0.5)
                    if n < MAX_OCC:
                        c.wkey[7 + n] = h
                    n += 1
    c.wkey[WKEY - 1] = 1 if n <= MAX_OCC else 0   # (more pieces than the key holds: not cached)
    weighted_distances(c, s.conn, c.wd, c.wstep)


cdef void race_ctx(Ctx* c, const EdState* s, const EdParams* P) noexcept nogil:
    """The part of a context that every seat's race estimate (`seat_turns`) reads: the map, the
    pieces and the connections' blockades."""
    cdef int k
    c.s = s
    c.P = P
    c.r = s.route
    c.M = &ED_MAPS[s.route]
    c.np = npieces(s)
    c.players = s.players
    for k in range(ED_MAX_CONN):
        c.conn0[k] = s.conn[k]


cdef void init_ctx(Ctx* c, const EdState* s, const EdParams* P) noexcept nogil:
    cdef int me = s.to_move, t, k, o, i, lo, No
    cdef int deck[ED_TYPES]
    cdef int odeck[ED_TYPES]
    cdef int pool[ED_TOKENS]
    cdef Comp a, near, oth
    cdef Starts st
    cdef int skey[SKEY]
    cdef bint keyed
    cdef double turns[NRACE]
    cdef const uint16_t* dist = dist_of(s)
    cdef double Tme, T, To, Tmin, avg_m, avg0, draws_add, draws_rem, best, rem_best, conv, frac, D
    cdef double money, phase, v, sdraw, sdisc, send2, mean_coins
    race_ctx(c, s, P)
    c.me = me
    for k in range(ED_TOKENS):
        c.tok0[k] = s.seat[me].tokens[k]
    for t in range(ED_TYPES):
        c.removed0[t] = s.seat[me].removed[t]
        c.market0[t] = s.market[t]
    # the seat's deck: every card it owns and has not removed (its draw pile as a set)
    for t in range(ED_TYPES):
        deck[t] = s.seat[me].hand[t] + s.seat[me].discard[t] + s.played[t]
    for i in range(s.seat[me].draw_n):
        deck[s.seat[me].draw[i]] += 1
    c.N = 0
    for t in range(ED_TYPES):
        c.N += deck[t]
    if c.N <= 0:
        c.N = 1
    weigh_ways(c, s, me, deck, P)
    c.D0 = seat_wdist(c, s, c.wd)
    keyed = way_summary(&a, c, s, me, skey)
    compose(&near, c, s, me, P.near)
    run_starts(&st, &near, c.np)
    # the race: turns the deck needs (and with a card fewer or more), and the quickest other seat's
    # (its hand and draw pile as a set)
    race_of(&a, keyed, skey, deck, c.N, P, True, turns)
    Tme = turns[0]
    D = seat_distance(s, dist, me)
    conv = D / Tme if Tme > 0.0 else 0.0      # distance units a turn is worth
    if conv < P.speed_min:
        conv = P.speed_min
    Tmin = 1e9
    for o in range(s.players):
        if o == me:
            continue
        No = 0
        for t in range(ED_TYPES):
            odeck[t] = s.seat[o].hand[t] + s.seat[o].discard[t]
        for i in range(s.seat[o].draw_n):
            odeck[s.seat[o].draw[i]] += 1
        for t in range(ED_TYPES):
            No += odeck[t]
        keyed = way_summary(&oth, c, s, o, skey)
        race_of(&oth, keyed, skey, odeck, No, P, False, &To)
        if To < Tmin:
            Tmin = To
    T = Tme * P.t_scale
    if T > Tmin * P.t_scale + P.lead:
        T = Tmin * P.t_scale + P.lead
    if s.final or T < 0.0:
        T = 0.0
    c.T = T
    c.Teff = T - s.seat[me].draw_n / 4.0
    if c.Teff < 0.0:
        c.Teff = 0.0
    # a deck change counts from the next reshuffle on, over the turns the deck needs
    frac = 0.0
    if Tme > 0.0 and not s.final:
        frac = 1.0 - s.seat[me].draw_n / (4.0 * Tme)
        if frac < 0.0:
            frac = 0.0
    draws_add = 4.0 * c.Teff / (c.N + 1)
    draws_rem = 4.0 * c.Teff / (c.N - 1 if c.N > 1 else 1)
    phase = c.Teff / (c.Teff + P.t_half) if c.Teff > 0.0 else 0.0
    # worth of a card per draw over the way ahead (w), and here and now (kw): movement or money
    for t in range(ED_TYPES):
        c.wm[t] = card_move_worth(&a, P, t)
    avg_m = 0.0
    for t in range(ED_TYPES):
        if SRC_SYM[t] != ACTION:
            avg_m += deck[t] * c.wm[t]
    avg_m /= c.N
    c.wm[T_CG] = 2.0 * avg_m
    c.wm[T_SI] = avg_m
    c.wm[T_CO] = 3.0 * avg_m
    c.wm[T_TL] = 2.0 * avg_m
    avg0 = 0.0
    mean_coins = 0.0
    for t in range(ED_TYPES):
        money = P.coin_k * phase * HALVES[t] * 0.5
        c.w[t] = c.wm[t]
        c.kn[t] = 0.0
        c.kl[t] = 0.0
        if SRC_SYM[t] != ACTION:
            c.kn[t] = run_worth(&near, &st, SRC_SYM[t], SRC_POW[t], False)
            c.kl[t] = run_worth(&near, &st, SRC_SYM[t], SRC_POW[t], True)
            if money > c.w[t]:
                c.w[t] = money
            if money > c.kn[t]:
                c.kn[t] = money
        c.kw[t] = c.kn[t] if c.kn[t] > P.next_k * c.kl[t] else P.next_k * c.kl[t]
        avg0 += deck[t] * (c.w[t] if SRC_SYM[t] != ACTION or t == T_NA else c.wm[t])
        mean_coins += deck[t] * HALVES[t] * 0.5
    avg0 /= c.N
    mean_coins /= c.N
    c.w[T_CG] = 2.0 * avg0
    c.w[T_CO] = 3.0 * avg0
    c.w[T_SI] = avg0
    c.w[T_TL] = 2.0 * avg0
    v = 0.0
    for t in range(ED_TYPES):
        v += deck[t] * c.w[t]
    c.avg = v / c.N
    # removing a card from the game: the turns the deck saves (or loses), and its money
    rem_best = 0.0
    for t in range(ED_TYPES):
        c.rem[t] = 0.0
        if CARD_ITEM[t] or deck[t] == 0:
            continue
        c.rem[t] = P.gain_k * (Tme - turns[1 + t]) * conv * frac
        c.rem[t] += P.money_k * phase * (mean_coins - HALVES[t] * 0.5) * draws_rem
        if c.rem[t] > rem_best:
            rem_best = c.rem[t]
    # gaining one: the same (an item once), and a removal for a Scientist or a Travel Log
    best = 0.0
    for t in range(ED_TYPES):
        c.add[t] = 0.0
        if t < ED_MARKET_FIRST:
            continue
        if CARD_ITEM[t]:
            c.add[t] = P.gain_k * (draws_add if draws_add < 1.0 else 1.0) * (c.w[t] - c.avg)
        else:
            c.add[t] = P.gain_k * (Tme - turns[1 + ED_TYPES + t]) * conv * frac
        c.add[t] += P.money_k * phase * (HALVES[t] * 0.5 - mean_coins) * (
            draws_add if not CARD_ITEM[t] or draws_add < 1.0 else 1.0)
        if t == T_SI:
            c.add[t] += P.gain_k * rem_best * (draws_add if draws_add < 2.0 else 2.0) * 0.5
        elif t == T_TL:
            c.add[t] += 2.0 * rem_best * (draws_add if draws_add < 1.0 else 1.0)
        if t != T_TM and available(s, t) and c.add[t] > best:
            best = c.add[t]
    c.add[T_TM] = 0.8 * best * (draws_add if draws_add < 1.0 else 1.0)
    c.w[T_TM] = c.avg + c.add[T_TM]
    c.w[T_SI] += 0.5 * rem_best
    c.w[T_TL] += 2.0 * rem_best
    # a draw action is played, not kept (`keep_action` of its worth when it is)
    c.kw[T_CG] = P.keep_action * c.w[T_CG]
    c.kw[T_SI] = P.keep_action * c.w[T_SI]
    c.kw[T_CO] = P.keep_action * c.w[T_CO]
    c.kw[T_TL] = P.keep_action * c.w[T_TL]
    c.kw[T_TM] = c.w[T_TM]
    c.kn[T_CG] = c.kw[T_CG]
    c.kn[T_SI] = c.kw[T_SI]
    c.kn[T_CO] = c.kw[T_CO]
    c.kn[T_TL] = c.kw[T_TL]
    c.kn[T_TM] = c.kw[T_TM]
    # expected worth of drawn cards (here and now): the draw pile, then the discard pile
    # (sums in type order: the draw pile's order must not change a rounding)
    for t in range(ED_TYPES):
        odeck[t] = 0
    for i in range(s.seat[me].draw_n):
        odeck[s.seat[me].draw[i]] += 1
    sdraw = 0.0
    sdisc = 0.0
    send2 = 0.0
    c.disc_n = 0
    c.end2_n = 0
    for t in range(ED_TYPES):
        sdraw += odeck[t] * c.kw[t]
        sdisc += s.seat[me].discard[t] * c.kw[t]
        c.disc_n += s.seat[me].discard[t]
        send2 += (s.seat[me].discard[t] + s.played[t] + s.seat[me].hand[t]) * c.kw[t]
        c.end2_n += s.seat[me].discard[t] + s.played[t] + s.seat[me].hand[t]
    c.draw_n = s.seat[me].draw_n
    c.mean_draw = sdraw / c.draw_n if c.draw_n else 0.0
    c.mean_disc = sdisc / c.disc_n if c.disc_n else 0.0
    c.sum_end2 = send2
    # tokens
    for k in range(ED_TOKENS):
        if TOK_SYM[k] >= 0:
            v = move_worth(&a, P, TOK_SYM[k], TOK_POW[k])
            if TOK_SYM[k] == T_COIN and P.coin_k * phase * TOK_POW[k] > v:
                v = P.coin_k * phase * TOK_POW[k]
        elif k == K_DR:
            v = draw_sum(c, 1)
        elif k == K_RM:
            v = rem_best
        elif k == K_NT:
            v = c.wm[T_NA]
        elif k == K_RH:
            v = 0.5
        elif k == K_CS:
            v = 0.5
        elif k == K_PO:
            v = 0.3
        else:
            v = 0.2
        c.tv[k] = P.token_k * v
    c.etok = 0.0
    if s.caves:  # the tokens in the caves and the box together (public as one set)
        for k in range(ED_TOKENS):
            pool[k] = s.box[k]
        for o in range(c.M.ncaves):
            for i in range(s.cave_n[o]):
                pool[s.cave[o][i]] += 1
        lo = 0
        v = 0.0
        for k in range(ED_TOKENS):
            v += pool[k] * c.tv[k]
            lo += pool[k]
        c.etok = v / lo if lo else 0.0
    c.Tme = Tme
    c.conv = conv
    c.on_board0 = s.on_board
    buy_gains(c, s, c.bv0)


cdef double draw_sum(const Ctx* c, int k) noexcept nogil:
    """Expected worth of k cards drawn now: from the draw pile, then the reshuffled discard pile."""
    cdef int a = k if k < c.draw_n else c.draw_n
    cdef int b = k - a
    if b > c.disc_n:
        b = c.disc_n
    return a * c.mean_draw + b * c.mean_disc


cdef double end_draw_sum(const Ctx* c, int k, double kept_sum, int kept_n) noexcept nogil:
    """Expected worth of the k cards drawn at the end of the turn: the draw pile, then the reshuffle
    of every card not in it but those kept (kept_n of them, worth kept_sum)."""
    cdef int a = k if k < c.draw_n else c.draw_n
    cdef int b = k - a, n2 = c.end2_n - kept_n
    if b > n2:
        b = n2
    if b <= 0:
        return a * c.mean_draw
    return a * c.mean_draw + b * (c.sum_end2 - kept_sum) / n2

# ----- the rest of the turn, simulated ------------------------------------------------------------

ctypedef struct Use:
    int src
    int halves           # money the card would give instead (0: a token)
    double contrib       # progress it made in the simulation (distance units)


ctypedef struct Sim:
    const Ctx* c
    const EdMap* M
    const int* dist          # weighted
    int r
    int hand[ED_TYPES]
    int tok[ED_TOKENS]
    uint64_t occ[ED_WORDS]
    uint8_t conn[ED_MAX_CONN]
    int hex[ED_PIECES]       # -1: on El Dorado (or no such piece)
    int cur[ED_PIECES]       # the piece's weighted distance, less the blockades paid on its way
    int cs, po
    int nuse
    Use use[MAX_USES]
    int total                # weighted progress
    double inturn[ED_TYPES]  # best progress a card of the type made (distance units)


cdef inline bint occupied(const Sim* m, int h) noexcept nogil:
    return not m.po and ((m.occ[h >> 6] >> (h & 63)) & 1)


cdef inline void set_occ(Sim* m, int h, bint on) noexcept nogil:
    if on:
        m.occ[h >> 6] |= (<uint64_t>1) << (h & 63)
    else:
        m.occ[h >> 6] &= ~((<uint64_t>1) << (h & 63))


cdef inline void record(Sim* m, int src, double contrib) noexcept nogil:
    if src < ED_TYPES:
        if contrib > m.inturn[src]:
            m.inturn[src] = contrib
        if m.nuse < MAX_USES:
            m.use[m.nuse].src = src
            m.use[m.nuse].halves = HALVES[src]
            m.use[m.nuse].contrib = contrib
            m.nuse += 1


cdef int run_ahead(const Sim* m, int n, int sym, int cap) noexcept nogil:
    """Power of the run of `sym` hexes from n on along decreasing distance (n included); once it
    exceeds `cap`, some power above cap (the walk stops: pick compares it with powers up to cap)."""
    cdef int R = ENTER[m.r][n], h = n, d, x, best, bestd, steps
    if FINISH[m.r][n]:
        return R
    for steps in range(8):
        if R > cap:
            break
        best = -1
        bestd = INF_D
        for d in range(6):
            x = m.M.nb[h][d]
            if x < 0 or m.c.wenter[x] >= INF_D or m.M.terrain[x] != sym or m.dist[x] >= m.dist[h]:
                continue
            if wblk(m.c, m.conn, h, d) or occupied(m, x):
                continue
            if m.dist[x] < bestd:
                bestd = m.dist[x]
                best = x
        if best < 0:
            break
        R += ENTER[m.r][best]
        if FINISH[m.r][best]:
            break
        h = best
    return R


cdef inline uint32_t held_types(const int* hand) noexcept nogil:
    """The card types of a hand (counts per type), as bits."""
    cdef uint32_t held = 0
    cdef int t
    for t in range(ED_TYPES):
        if hand[t] > 0:
            held |= (<uint32_t>1) << t
    return held


cdef int pick(const Sim* m, uint32_t held, int sym, int power, int R, int n, int* cls) noexcept nogil:
    """The source that meets (sym, power) covering the run R best, or -1; its class in cls:
    0 a card of the symbol, 1 a joker, 2 a token, 3 a Native card, 4 a native token. `held`: the
    card types in hand (held_types). R < 0: the run from hex n (run_ahead), walked only when the
    choice depends on it (candidates of more than one power)."""
    cdef uint32_t cand, bits
    cdef int t, k, p, best, bestp, over, overp, klass, lo, hi
    for klass in range(3):
        cand = 0
        if klass < 2:
            bits = held
            while bits:
                t = exp_ctz(bits)
                bits &= bits - 1
                if SRC_POW[t] < power:
                    continue
                if klass == 0 and not (SRC_SYM[t] == sym or (m.cs and SRC_SYM[t] <= JOKER)):
                    continue
                if klass == 1 and SRC_SYM[t] != JOKER:
                    continue
                cand |= (<uint32_t>1) << t
        else:
            for t in range(SRC_TOKEN0, NSRC - 1):
                k = SRC_TOK[t]
                if m.tok[k] <= 0 or SRC_SYM[t] != sym or SRC_POW[t] < power:
                    continue
                cand |= (<uint32_t>1) << t
        if cand == 0:
            continue
        lo = 1000
        hi = 0
        bits = cand
        while bits:
            t = exp_ctz(bits)
            bits &= bits - 1
            if SRC_POW[t] < lo:
                lo = SRC_POW[t]
            if SRC_POW[t] > hi:
                hi = SRC_POW[t]
        if lo == hi and lo >= 1:   # one power: the first, however long the run
            cls[0] = klass
            return exp_ctz(cand)
        if R < 0:
            R = run_ahead(m, n, sym, hi)
        best = -1
        bestp = 0
        over = -1
        overp = 1000
        bits = cand
        while bits:
            t = exp_ctz(bits)
            bits &= bits - 1
            p = SRC_POW[t]
            if p >= R and p < overp:
                over = t
                overp = p
            if p > bestp:
                best = t
                bestp = p
        if over >= 0:
            cls[0] = klass
            return over
        if best >= 0:
            cls[0] = klass
            return best
    if m.hand[T_NA] > 0:
        cls[0] = 3
        return T_NA
    if m.tok[K_NT] > 0:
        cls[0] = 4
        return NSRC - 1
    return -1


cdef int cards_in_hand(const Sim* m) noexcept nogil:
    cdef int t, n = 0
    for t in range(ED_TYPES):
        if t != T_NA:
            n += m.hand[t]
    return n


cdef inline double pay_cost(const Ctx* c, int t, bint camp) noexcept nogil:
    """What paying card t costs: its worth in hand, less (a base camp) what removing it gains."""
    return c.kw[t] - c.rem[t] if camp else c.kw[t]


cdef void pay_weakest(Sim* m, int count, double contrib, bint camp) noexcept nogil:
    """Pays `count` cards (not a Native) from the hand, the cheapest first."""
    cdef int i, t, best
    cdef double bw
    for i in range(count):
        best = -1
        bw = 1e300
        for t in range(ED_TYPES):
            if t != T_NA and m.hand[t] > 0 and pay_cost(m.c, t, camp) < bw:
                bw = pay_cost(m.c, t, camp)
                best = t
        if best < 0:
            return
        m.hand[best] -= 1
        record(m, best, contrib)


cdef inline void spend(Sim* m, int src) noexcept nogil:
    if src < ED_TYPES:
        m.hand[src] -= 1
        m.cs = 0
    else:
        m.tok[SRC_TOK[src]] -= 1


cdef int steps(Sim* m, int i, int sym, int left) noexcept nogil:
    """Steps of piece i with `left` power of `sym` along decreasing distance; the (weighted)
    progress made."""
    cdef const EdMap* M = m.M
    cdef int h, d, n, best, bestd, bestk, k, b, gained = 0, bp, wb, v
    while left > 0 and m.hex[i] >= 0:
        h = m.hex[i]
        best = -1
        bestd = INF_D
        bestk = -1
        for d in range(6):
            n = M.nb[h][d]
            if n < 0 or m.c.wenter[n] >= INF_D:
                continue
            k = M.cross[h][d]
            b = m.conn[k] if k >= 0 else 0
            if b:
                bp = BLOCKADE_POWER[b]
                wb = wblk(m.c, m.conn, h, d)
                if BLOCKADE_TERRAIN[b] == sym and bp <= left and m.dist[n] + m.c.wenter[n] + wb <= m.cur[i]:
                    v = m.cur[i] - wb
                    if v < bestd:
                        bestd = v
                        best = n
                        bestk = k
                continue
            if M.terrain[n] != sym or ENTER[m.r][n] > left or occupied(m, n) or m.dist[n] >= m.cur[i]:
                continue
            if m.dist[n] < bestd:
                bestd = m.dist[n]
                best = n
                bestk = -1
        if best < 0:
            break
        if bestk >= 0:   # the blockade, paid with the leftover
            b = m.conn[bestk]
            bp = BLOCKADE_POWER[b]
            wb = bp * m.c.mult[BLOCKADE_TERRAIN[b] if BLOCKADE_TERRAIN[b] <= T_CAMP else T_RUBBLE]
            m.conn[bestk] = 0
            left -= bp
            m.cur[i] -= wb
            gained += wb
            continue
        left -= ENTER[m.r][best]
        gained += m.cur[i] - m.dist[best]
        set_occ(m, h, 0)
        if FINISH[m.r][best]:
            m.hex[i] = -1
            m.cur[i] = 0
        else:
            m.hex[i] = best
            m.cur[i] = m.dist[best]
            set_occ(m, best, 1)
    return gained


cdef int sim_run(Sim* m, const EdState* x) noexcept nogil:
    """Walks the pieces on with the hand, greedily; returns the (weighted) progress made."""
    cdef const EdMap* M = m.M
    cdef const EdParams* P = m.c.P
    cdef int i, d, n, k, b, sym, power, src, cls, need, prog, wb, ncards
    cdef uint32_t held
    cdef int bi, bd, bn, bk, bsrc, bcls, bneed, bprog, bsym, bpow, g
    cdef double q, bq
    m.total = 0
    if x.moving != ED_NONE and x.leftover > 0 and m.hex[x.moving] >= 0:
        m.total += steps(m, x.moving, x.move_symbol, x.leftover)
    while True:
        bq = -1e300
        bi = -1
        bd = bn = bk = bsrc = bcls = bneed = bprog = bsym = bpow = 0
        held = held_types(m.hand)
        ncards = cards_in_hand(m)
        for i in range(m.c.np):
            if m.hex[i] < 0:
                continue
            for d in range(6):
                n = M.nb[m.hex[i]][d]
                if n < 0 or m.c.wenter[n] >= INF_D:
                    continue
                k = M.cross[m.hex[i]][d]
                b = m.conn[k] if k >= 0 else 0
                need = 0
                if b:
                    power = BLOCKADE_POWER[b]
                    wb = wblk(m.c, m.conn, m.hex[i], d)
                    if m.dist[n] + m.c.wenter[n] + wb > m.cur[i]:
                        continue
                    prog = wb
                    sym = BLOCKADE_TERRAIN[b]
                else:
                    if occupied(m, n) or m.dist[n] >= m.cur[i]:
                        continue
                    prog = m.cur[i] - m.dist[n]
                    sym = M.terrain[n]
                    power = ENTER[m.r][n]
                if sym == T_RUBBLE or sym == T_CAMP:
                    if ncards >= power:
                        src = -2
                        cls = 0
                        need = power
                    else:
                        src = pick(m, held, 99, 99, 99, n, &cls)   # only a Native enters without paying
                else:
                    src = pick(m, held, sym, power, power if b else -1, n, &cls)
                if src == -1:
                    continue
                q = prog / <double>SCALE - P.class_pen * cls - 0.3 * (need - 1 if need > 1 else 0)
                if q > bq:
                    bq = q
                    bi = i
                    bd = d
                    bn = n
                    bk = k if b else -1
                    bsrc = src
                    bcls = cls
                    bneed = need
                    bprog = prog
                    bsym = sym
                    bpow = power
        if bi < 0:
            break
        # carry the best option out
        g = bprog
        if bsrc == -2:
            pay_weakest(m, bneed, bprog / (<double>SCALE * bneed), bsym == T_CAMP)
            m.cs = 0
        else:
            spend(m, bsrc)
        if bk >= 0:
            m.conn[bk] = 0
            m.cur[bi] -= bprog
        else:
            set_occ(m, m.hex[bi], 0)
            if FINISH[m.r][bn]:
                m.hex[bi] = -1
                m.cur[bi] = 0
            else:
                m.hex[bi] = bn
                m.cur[bi] = m.dist[bn]
                set_occ(m, bn, 1)
        if bsrc >= 0 and SRC_SYM[bsrc] <= JOKER and bsym <= T_COIN and SRC_POW[bsrc] > bpow:
            g += steps(m, bi, bsym, SRC_POW[bsrc] - bpow)
        if bsrc >= 0:
            record(m, bsrc, g / <double>SCALE)
        m.total += g
    return m.total


cdef void sim_init(Sim* m, const Ctx* c, const EdState* x, const int* dist, const uint8_t* tokvis) noexcept nogil:
    cdef int t, k, o, i, h
    m.c = c
    m.M = c.M
    m.dist = dist
    m.r = c.r
    m.nuse = 0
    m.total = 0
    for t in range(ED_TYPES):
        m.hand[t] = x.seat[c.me].hand[t]
        m.inturn[t] = 0.0
    for k in range(ED_TOKENS):
        m.tok[k] = tokvis[k]
    for k in range(ED_WORDS):
        m.occ[k] = 0
    for k in range(ED_MAX_CONN):
        m.conn[k] = x.conn[k]
    for o in range(x.players):
        for i in range(npieces(x)):
            h = x.seat[o].piece[i]
            if h != ED_ELDORADO:
                set_occ(m, h, 1)
    for i in range(ED_PIECES):
        m.hex[i] = -1
        m.cur[i] = 0
    for i in range(c.np):
        h = x.seat[c.me].piece[i]
        if h != ED_ELDORADO:
            m.hex[i] = h
            m.cur[i] = dist[h]
    m.cs = (x.flags & F_CHANGE_SYMBOL) != 0
    m.po = (x.flags & F_PASS_OCCUPIED) != 0

# ----- the evaluation -----------------------------------------------------------------------------

cdef void buy_table(const Ctx* c, const EdState* x, double* BV) noexcept nogil:
    """BV[h]: the best gain of a card bought with h half coins (0 when nothing is worth buying)."""
    cdef int h
    if x.bought:
        for h in range(MAX_HALVES):
            BV[h] = 0.0
        return
    if x.on_board == c.on_board0 and memcmp(x.market, c.market0, ED_TYPES) == 0:
        memcpy(BV, c.bv0, sizeof(c.bv0))   # the market as the decision found it
        return
    buy_gains(c, x, BV)


cdef void buy_gains(const Ctx* c, const EdState* x, double* BV) noexcept nogil:
    """buy_table for a seat that may still buy."""
    cdef int h, t
    for h in range(MAX_HALVES):
        BV[h] = 0.0
    for t in range(ED_MARKET_FIRST, ED_TYPES):
        if available(x, t) and c.add[t] > 0.0:
            for h in range(2 * CARD_PRICE[t], MAX_HALVES):
                if c.add[t] > BV[h]:
                    BV[h] = c.add[t]


cdef double kept_worth(const Ctx* c, const int* h, int k, uint32_t held) noexcept nogil:
    """Worth of the cards h (k of them; `held` the types with h[t] != 0, as bits) kept into the next
    turn: a card onto the next hex (or as money) fully; onto a later run, `next_k` of it times the share
    of fresh cards that may open the way (none when the hand is kept whole)."""
    cdef int t, fresh = 4 - k if k < 4 else 0
    cdef double v = 0.0, later, phi = fresh / 4.0, ksum = 0.0
    while held:   # the held types in type order
        t = exp_ctz(held)
        held &= held - 1
        later = c.P.next_k * c.kl[t] * phi
        v += h[t] * (c.kn[t] if c.kn[t] > later else later)
        ksum += h[t] * c.kw[t]
    return v + end_draw_sum(c, fresh, ksum, k)


cdef double keep_value(const Ctx* c, const int* hand, int lo, bint may_discard) noexcept nogil:
    """Worth of the hand kept into the next turn over a fresh hand, after the best discards of
    types >= lo (when may_discard): the weakest first, each count tried."""
    cdef int t, k = 0, best
    cdef int h[ED_TYPES]
    cdef uint32_t held, bits
    cdef double v, bestv, bw
    for t in range(ED_TYPES):
        h[t] = hand[t]
        k += h[t]
    held = held_types(h)
    bestv = kept_worth(c, h, k, held)
    if may_discard:
        while True:
            best = -1
            bw = 1e300
            bits = held & ~((<uint32_t>1 << lo) - 1)   # types >= lo
            while bits:
                t = exp_ctz(bits)
                bits &= bits - 1
                if h[t] > 0 and c.kw[t] < bw:
                    bw = c.kw[t]
                    best = t
            if best < 0:
                break
            h[best] -= 1
            if h[best] == 0:
                held &= ~((<uint32_t>1) << best)
            k -= 1
            lo = best
            v = kept_worth(c, h, k, held)
            if v > bestv:
                bestv = v
    return bestv - end_draw_sum(c, 4, 0.0, 0)


cdef double rest_value(const Ctx* c, const EdState* x, Sim* m) noexcept nogil:
    """What the rest of the turn promises: the simulated progress, the best buy and the cards kept.
    Money comes from the cards in order of what they cost per half coin (a card the simulation
    leaves unused costs its worth kept over a fresh draw, a card it uses its progress), the prefix
    that pays best taken (a small knapsack); the cards left unused are kept or discarded, as best."""
    cdef double BV[MAX_HALVES]
    cdef int lc = x.lastcoin if x.lastcoin != ED_NONE else 0
    cdef int t, h, i, j, n = 0, o
    cdef int kept[ED_TYPES]
    cdef int ctype[2 * MAX_USES]
    cdef int chalves[2 * MAX_USES]
    cdef int cunused[2 * MAX_USES]
    cdef double ccost[2 * MAX_USES]
    cdef int order[2 * MAX_USES]
    cdef double best, acc, fresh, v, ki, kj, prog = m.total / <double>SCALE
    for t in range(ED_TYPES):
        kept[t] = m.hand[t]
    best = prog + keep_value(c, kept, 0, True)
    if x.bought or x.phase != PH_PLAY or lc >= ED_TYPES:
        return best
    buy_table(c, x, BV)
    fresh = end_draw_sum(c, 4, 0.0, 0) / 4.0
    for t in range(lc, ED_TYPES):
        for j in range(m.hand[t]):
            if n < 2 * MAX_USES:
                ctype[n] = t
                chalves[n] = HALVES[t]
                cunused[n] = 1
                ccost[n] = c.kw[t] - fresh if c.kw[t] > fresh else 0.0
                n += 1
    for i in range(m.nuse):
        if m.use[i].src >= lc and m.use[i].halves > 0 and n < 2 * MAX_USES:
            ctype[n] = m.use[i].src
            chalves[n] = m.use[i].halves
            cunused[n] = 0
            ccost[n] = m.use[i].contrib
            n += 1
    for i in range(n):
        order[i] = i
    for i in range(1, n):  # insertion sort by cost per half coin
        j = i
        while j > 0:
            ki = ccost[order[j]] / chalves[order[j]]
            kj = ccost[order[j - 1]] / chalves[order[j - 1]]
            if ki >= kj:
                break
            order[j], order[j - 1] = order[j - 1], order[j]
            j -= 1
    h = x.coins if x.coins < MAX_HALVES else MAX_HALVES - 1
    acc = 0.0
    if BV[h] > 0.0:
        v = prog + BV[h] + keep_value(c, kept, 0, True)
        if v > best:
            best = v
    for i in range(n):
        o = order[i]
        if cunused[o]:
            kept[ctype[o]] -= 1
        else:
            acc += ccost[o]
        h += chalves[o]
        if h >= MAX_HALVES:
            h = MAX_HALVES - 1
        if BV[h] > 0.0:
            v = prog - acc + BV[h] + keep_value(c, kept, 0, True)
            if v > best:
                best = v
    return best


cdef int pending_tokens(const Ctx* c, const EdState* x) noexcept nogil:
    """Cave tokens the moving piece takes when it stops (public: the piles' sizes)."""
    cdef int i, h, k, bits, n = 0
    if not x.caves or x.moving == ED_NONE:
        return 0
    i = x.moving
    h = x.seat[c.me].piece[i]
    if h == ED_ELDORADO:
        return 0
    bits = c.M.cave_adj[h] & ~x.seat[c.me].explored[i]
    for k in range(c.M.ncaves):
        if (bits >> k) & 1 and x.cave_n[k] > 0:
            n += 1
    return n


cdef double deck_delta(const Ctx* c, const EdState* x) noexcept nogil:
    """Worth of the cards gained (bought, transmitted) and removed since the decision began."""
    cdef int t
    cdef double v = 0.0
    if memcmp(x.market, c.market0, ED_TYPES) == 0 and memcmp(x.seat[c.me].removed, c.removed0, ED_TYPES) == 0:
        return 0.0
    for t in range(ED_TYPES):
        if x.market[t] != c.market0[t]:
            v += (<int>c.market0[t] - <int>x.market[t]) * c.add[t]
        if x.seat[c.me].removed[t] != c.removed0[t]:
            v += (<int>x.seat[c.me].removed[t] - <int>c.removed0[t]) * c.rem[t]
    return v


cdef double value_of(const Ctx* c, const EdState* x, const int* wd, const uint8_t* tokvis, int gained,
                     bint ending) noexcept nogil:
    """The evaluation of x for the seat to move (see the module's docstring), with wd its weighted
    distances. `tokvis`: the tokens the seat is known to hold (`gained` more were taken from caves
    and are not looked at); `ending`: the turn ends now with the hand as it is."""
    cdef const EdParams* P = c.P
    cdef int me = c.me, t, k, i, j, best, n
    cdef int hand[ED_TYPES]
    cdef double v, bw, pot
    cdef double tmp[ED_TYPES]
    cdef Sim m
    v = -seat_wdist(c, x, wd) / <double>SCALE
    v += P.blockade * exp_popcount(x.seat[me].held)
    v += deck_delta(c, x)
    v += c.etok * (gained + pending_tokens(c, x))
    if ending or x.phase != PH_PLAY:
        for k in range(ED_TOKENS):
            v += tokvis[k] * c.tv[k]
        for t in range(ED_TYPES):
            hand[t] = x.seat[me].hand[t]
        if ending:
            return v + keep_value(c, hand, 0, False)
        return v + keep_value(c, hand, x.last if x.last != ED_NONE else 0, True)
    sim_init(&m, c, x, wd, tokvis)
    if x.pay_n > 0:  # an owed payment: the weakest cards it may take
        for i in range(x.pay_n):
            best = -1
            bw = 1e300
            for t in range(x.last if x.last != ED_NONE else 0, ED_TYPES):
                if m.hand[t] > 0 and pay_cost(c, t, x.pay_kind == T_CAMP) < bw:
                    bw = pay_cost(c, t, x.pay_kind == T_CAMP)
                    best = t
            if best < 0:
                break
            m.hand[best] -= 1
            if x.pay_kind == T_CAMP:
                v += c.rem[best]
    sim_run(&m, x)
    v += rest_value(c, x, &m)
    for k in range(ED_TOKENS):
        v += m.tok[k] * c.tv[k]
    if x.remove_n > 0:  # an open removal right: the best removals it may still make
        n = 0
        for t in range(x.last if x.last != ED_NONE else 0, ED_TYPES):
            for j in range(x.seat[me].hand[t]):
                if n < ED_TYPES:
                    tmp[n] = c.rem[t] - m.inturn[t]
                    n += 1
        for i in range(x.remove_n):
            best = -1
            bw = 0.0
            for j in range(n):
                if tmp[j] > bw:
                    bw = tmp[j]
                    best = j
            if best < 0:
                break
            v += bw
            tmp[best] = 0.0
    if x.replace != ED_NONE:  # a replacement: the cards owed, and the weak ones still to replace
        v += P.draw_k * draw_sum(c, x.replace)
        pot = draw_sum(c, 1) * P.draw_k
        n = 0
        for t in range(x.last if x.last != ED_NONE else 0, ED_TYPES):
            for j in range(m.hand[t]):
                if n < 4 - x.replace and pot > c.kw[t]:
                    v += pot - c.kw[t]
                    n += 1
    return v

# ----- scoring decisions --------------------------------------------------------------------------

cdef int token_spent(int d) noexcept nogil:
    """The token a decision plays, or -1."""
    cdef int src
    if d < D_STEP:
        src = d // 12
        return SRC_TOK[src] if src >= SRC_TOKEN0 else -1
    if D_COIN <= d < D_BUY:
        src = d - D_COIN
        if src == ED_TYPES:
            return K_C1
        if src == ED_TYPES + 1:
            return K_C2
        return -1
    if D_ACTION <= d < D_REMOVE:
        return ACTION_TOKEN[d - D_ACTION]
    return -1


cdef double score_one(const Ctx* c, const EdState* s, int d, double V0) noexcept nogil:
    """A decision's score: the change of the evaluation it makes (a decision that draws, from what
    the seat sees now), and the bonuses for progress made now."""
    cdef const EdParams* P = c.P
    cdef EdState x
    cdef uint8_t tokvis[ED_TOKENS]
    cdef int buf[ED_MAX_HEXES]
    cdef const int* wd
    cdef int k, a, t, total, gained, realized
    cdef double v, best
    for k in range(ED_TOKENS):
        tokvis[k] = c.tok0[k]
    if d == D_END:
        return value_of(c, s, c.wd, tokvis, 0, True) - V0
    memcpy(&x, s, sizeof(EdState))
    if d == D_REPLACE_DONE:
        x.replace = ED_NONE
        x.last = ED_NONE
        return value_of(c, &x, c.wd, tokvis, 0, False) + P.draw_k * draw_sum(c, s.replace) - V0
    if D_ACTION <= d < D_ACTION + 5:
        # a draw: scored from what the seat sees (the drawn cards at their expected worth)
        a = d - D_ACTION
        x.remove_n = 0
        if a < 4:
            t = DRAW_ACTION_TYPE[a]
            x.seat[c.me].hand[t] -= 1
            x.flags &= ~F_CHANGE_SYMBOL
            if t == T_SI:
                x.remove_n = 1
            elif t == T_TL:
                x.remove_n = 2
        else:
            tokvis[K_DR] -= 1
        x.leftover = 0
        x.last = ED_NONE
        v = value_of(c, &x, c.wd, tokvis, 0, False) + P.draw_k * draw_sum(c, DRAW_ACTION_CARDS[a]) - V0
        return v + P.draw_bonus if v > -0.5 else v   # drawn first: the cards widen every choice
    ed_apply(&x, d)
    k = token_spent(d)
    if k >= 0:
        tokvis[k] -= 1
    total = 0
    gained = 0
    for k in range(ED_TOKENS):
        total += x.seat[c.me].tokens[k]
        gained -= tokvis[k]
    gained += total
    wd = wdist_for(c, &x, buf)
    v = value_of(c, &x, wd, tokvis, gained, False) - V0
    realized = c.D0 - seat_wdist(c, &x, wd)
    if realized > 0:
        v += P.real * realized / <double>SCALE
        if D_STEP <= d < D_PAY:
            v += P.step_bonus
    if D_COIN <= d < D_TRANSMIT:
        v -= 0.01   # money and purchases only for what they bring
    if d == D_ACTION + 7:  # keep item: worth it with an item to use
        best = 0.0
        for t in range(ED_TYPES):
            if CARD_ITEM[t] and s.seat[c.me].hand[t] and 0.5 * c.w[t] > best:
                best = 0.5 * c.w[t]
        v += best
    return v


cdef void ed_score_decisions(const EdState* s, const EdParams* P, const int* legal, int n,
                             double* scores) noexcept nogil:
    """Scores every legal decision of the seat to move (change of the evaluation; higher is better)."""
    cdef Ctx c
    cdef int i
    cdef double V0
    init_ctx(&c, s, P)
    V0 = value_of(&c, s, c.wd, c.tok0, 0, False)
    for i in range(n):
        scores[i] = score_one(&c, s, legal[i], V0)


cdef int ed_greedy_decision_p(const void* sp, Rng* rng, double epsilon, const EdParams* P) noexcept nogil:
    """The heuristic's decision for the seat to move (-1 once the game is over)."""
    cdef const EdState* s = <const EdState*>sp
    cdef int legal[MAX_LEGAL]
    cdef double scores[MAX_LEGAL]
    cdef int n
    if s.phase == PH_OVER:
        return -1
    n = ed_legal(s, legal)
    if n <= 0:
        return -1
    if n == 1:
        return legal[0]
    if epsilon > 0.0 and rng_unit(rng) < epsilon:
        return legal[rng_below(rng, n)]
    ed_score_decisions(s, P, legal, n, scores)
    return best_scored(legal, scores, n, rng)


cdef int ed_greedy_decision(const void* s, Rng* rng, double epsilon) noexcept nogil:
    """ed_greedy_decision_p with the default weights."""
    return ed_greedy_decision_p(s, rng, epsilon, &DEFAULTS)


cdef void ed_scores(const void* s, const int* legal, int n, double* scores) noexcept nogil:
    """ed_score_decisions with the default weights, over the generic state."""
    ed_score_decisions(<const EdState*>s, &DEFAULTS, legal, n, scores)


cdef double seat_turns(Ctx* c, const EdState* s, int seat, const EdParams* P) noexcept nogil:
    """The race estimate of one seat: the turns its deck needs for the weighted shortest ways of its
    pieces (`race_turns`, with the seat's own multipliers; the others' pieces cost `occupied`); 0 once
    it has finished. Leaves c weighted for that seat."""
    cdef int t, i, N = 0
    cdef int deck[ED_TYPES]
    cdef int key[SKEY]
    cdef bint keyed
    cdef double turns
    cdef Comp a
    c.me = seat
    for t in range(ED_TYPES):
        deck[t] = s.seat[seat].hand[t] + s.seat[seat].discard[t] + (s.played[t] if seat == s.to_move else 0)
    for i in range(s.seat[seat].draw_n):
        deck[s.seat[seat].draw[i]] += 1
    for t in range(ED_TYPES):
        N += deck[t]
    for i in range(c.np):
        if s.seat[seat].piece[i] != ED_ELDORADO:
            break
    else:
        return 0.0
    weigh_ways(c, s, seat, deck, P)
    keyed = way_summary(&a, c, s, seat, key)
    race_of(&a, keyed, key, deck, N if N > 0 else 1, P, False, &turns)
    return turns


# The evaluation's weights: a multinomial logit of the winner of greedy-against-greedy games on the
# seats' features at the start of every turn (research/notebook.md, 2026-12-06: 600-1,000 games for
# each of first-expedition with 2, 3 and 4 players, witchs-cauldron with 2 and 4, hills-of-gold and
# winding-paths with 2, fitted together). The race estimate `seat_turns` counts turns of a deck that
# keeps improving (about 74 at the start of a 2-player game that lasts about 20 turns a seat), so a
# difference of turns means less early than late: its logarithm is what predicts the winner.
cdef double EVAL_LOG = 3.44        # logistic units per unit of log(turns + EVAL_OFFSET)
cdef double EVAL_OFFSET = 2.0
cdef double EVAL_TEMPO = 0.65      # a seat that still plays in this round (the one to move, and after it)
cdef double EVAL_DISTANCE = 0.081  # per distance unit of the seat's pieces to El Dorado, beyond the turns
cdef double EVAL_HELD = 0.103      # per blockade held (the tie-break, and ways opened)


cdef void ed_evaluate(const void* sp, double* out) noexcept nogil:
    """Per seat, a chance of winning: a softmax over the seats of -EVAL_LOG log(turns + EVAL_OFFSET)
    (`seat_turns`, with the default weights) + EVAL_TEMPO if it still plays in this round -
    EVAL_DISTANCE a distance unit + EVAL_HELD a blockade held. Calibrated at the start of a turn, where
    a search's rollouts stop (`SearchDefaults.cutoff_turns`)."""
    cdef const EdState* s = <const EdState*>sp
    cdef Ctx c
    cdef double z[MAX_SEATS]
    cdef double hi = -1e300, total = 0.0
    cdef const uint16_t* dist = dist_of(s)
    cdef int i
    race_ctx(&c, s, &DEFAULTS)
    for i in range(s.players):
        z[i] = -EVAL_LOG * log(seat_turns(&c, s, i, &DEFAULTS) + EVAL_OFFSET) \
            - EVAL_DISTANCE * seat_distance(s, dist, i) + EVAL_HELD * exp_popcount(s.seat[i].held)
        if i >= s.to_move:
            z[i] += EVAL_TEMPO
        if z[i] > hi:
            hi = z[i]
    for i in range(s.players):
        out[i] = exp(z[i] - hi)
        total += out[i]
    for i in range(s.players):
        out[i] /= total


cdef Heuristic _heuristic = new_heuristic("The Quest for El Dorado", ed_greedy_decision, ed_scores)
_heuristic.ops.evaluate = ed_evaluate
HEURISTIC = _heuristic
"""The heuristic of `eldorado`, as its record names it."""

# ----- Python face --------------------------------------------------------------------------------

cdef const EdState* _ed_state(State state) except NULL:
    if state.edition != "eldorado":
        raise ValueError(f"not an eldorado state: {state.edition}")
    return <const EdState*>state.ptr


def decision_scores(State state, params=None) -> list:
    """Every legal decision of the seat to move with the heuristic's score, best first.

    For tests and for reading the heuristic's mind; `params` overrides default weights.

    >>> import engine
    >>> s = engine.new_game("eldorado", seed=3, players=3)
    >>> scored = decision_scores(s)
    >>> len(scored) == len(s.legal()) and scored[0][1] >= scored[-1][1]
    True
    """
    cdef const EdState* s = _ed_state(state)
    cdef EdParams P = check_params(params)
    cdef int legal[MAX_LEGAL]
    cdef double scores[MAX_LEGAL]
    cdef int n, i
    if state.is_terminal():
        return []
    n = ed_legal(s, legal)
    ed_score_decisions(s, &P, legal, n, scores)
    out = [(state.decision_to_text(legal[i]), scores[i]) for i in range(n)]
    return sorted(out, key=lambda pair: -pair[1])


def decide(State state, rng=0, double epsilon=0.0, params=None) -> int:
    """The heuristic's decision with some weights overridden (`HEURISTIC.decide` uses the defaults).

    >>> import engine
    >>> s = engine.new_game("eldorado", seed=3, players=2)
    >>> decide(s, 1, params={"real": 0.1}) in s.legal()
    True
    """
    cdef const EdState* s = _ed_state(state)
    cdef EdParams P = check_params(params)
    cdef Rng r
    if state.is_terminal():
        raise ValueError("the match is over: no decision to make")
    r.x = rng & 0xFFFFFFFFFFFFFFFF if isinstance(rng, int) else rng.getrandbits(64)
    return ed_greedy_decision_p(s, &r, epsilon, &P)


def distances(int route, blockades=None) -> list:
    """The distance table of a route (its index) with blockades on the connections: a list of
    blockade numbers per connection (0 or None: none), by default none.

    >>> d = distances(0)
    >>> from engine.eldorado.components import ROUTES
    >>> [d[h] for h in ROUTES[0].finishing]
    [0, 0, 0]
    """
    cdef int k, conf = 0
    if not 0 <= route < ED_ROUTES:
        raise ValueError(f"route must be in 0..{ED_ROUTES - 1}")
    blockades = list(blockades or [])
    if len(blockades) > ED_MAPS[route].nconn:
        raise ValueError("more blockades than connections")
    for k, b in enumerate(blockades):
        if b:
            if not 1 <= b <= ED_BLOCKADES:
                raise ValueError(f"no blockade {b}")
            conf += BLK_LEVEL[b] * POWK[k]
    return [DIST[route][conf * ED_MAX_HEXES + k] for k in range(ED_MAPS[route].nhex)]


def context(State state, params=None) -> dict:
    """What the heuristic reads from a position before scoring its decisions (for tests and tuning):
    the seat's distance, its future turns, its deck's size and mean worth, and per card type code its
    worth per draw, the worth of gaining one and of removing one.

    >>> import engine
    >>> c = context(engine.new_game("eldorado", seed=3, players=2))
    >>> c["distance"] > 0 and c["turns"] > 0 and c["deck"] == 8
    True
    """
    cdef const EdState* s = _ed_state(state)
    cdef EdParams P = check_params(params)
    cdef Ctx c
    cdef int t
    if state.is_terminal():
        raise ValueError("the match is over")
    init_ctx(&c, s, &P)
    return {
        "distance": c.D0 / <double>SCALE, "turns": c.T, "race_turns": c.Tme, "turn_worth": c.conv, "turns_after_reshuffle": c.Teff, "deck": c.N, "mean": c.avg,
        "cost": {"jwvrc"[t]: c.mult[t] / <double>SCALE for t in range(5)},
        "worth": {CARD_CODES[t]: c.w[t] for t in range(ED_TYPES)},
        "worth_here": {CARD_CODES[t]: c.kw[t] for t in range(ED_TYPES)},
        "gain": {CARD_CODES[t]: c.add[t] for t in range(ED_MARKET_FIRST, ED_TYPES)},
        "remove": {CARD_CODES[t]: c.rem[t] for t in range(ED_TYPES)},
        "token": {TOKEN_CODES[t]: c.tv[t] for t in range(ED_TOKENS)},
        "cave_token": c.etok,
    }


def race_estimate(State state, params=None) -> list:
    """Per seat, the race estimate the evaluation reads (`seat_turns`): the turns its deck needs for
    its way to El Dorado, 0 once it has finished (for tests and calibration).

    >>> import engine
    >>> turns = race_estimate(engine.new_game("eldorado", seed=3, players=2))
    >>> len(turns) == 2 and min(turns) > 0
    True
    """
    cdef const EdState* s = _ed_state(state)
    cdef EdParams P = check_params(params)
    cdef Ctx c
    cdef int i
    if state.is_terminal():
        raise ValueError("the match is over")
    race_ctx(&c, s, &P)
    return [seat_turns(&c, s, i, &P) for i in range(s.players)]


def simulate(State state, params=None) -> tuple:
    """The simulation of the rest of the turn from a position of the play phase (for tests and tuning):
    (progress, [(card code, its progress), ...], evaluation).

    >>> import engine
    >>> progress, uses, value = simulate(engine.new_game("eldorado", seed=3, players=2))
    >>> progress >= 0 and value < 0
    True
    """
    cdef const EdState* s = _ed_state(state)
    cdef EdParams P = check_params(params)
    cdef Ctx c
    cdef Sim m
    cdef int i
    if state.is_terminal():
        raise ValueError("the match is over")
    init_ctx(&c, s, &P)
    sim_init(&m, &c, s, c.wd, c.tok0)
    sim_run(&m, s)
    uses = [(CARD_CODES[m.use[i].src], m.use[i].contrib) for i in range(m.nuse)]
    return m.total / <double>SCALE, uses, value_of(&c, s, c.wd, c.tok0, 0, False)
