# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The rules of The Quest for El Dorado (`eldorado`, 2-4 players); its notation and Python face
are engine/eldorado/state.pyx.

Rules are normative in docs/eldorado.md. The component data (engine/eldorado/data/eldorado.json,
read by engine/eldorado/components.py) fills the map tables (`ED_MAPS`) and the card, token and
blockade tables at import; the code holds only the shapes (21 card types, 14 token kinds, 6
blockades, routes of at most 6 tiles) and the meaning of the decision ids.

A turn is atomic decisions (move, step, pay, coins, buy, transmit, action, remove, replace,
discard, end). The legal decisions are built as a set of 509 bits (the decision ids), each kind a
small mask shifted to its first id: `ed_legal` lists the bits, `ed_random_decision` counts them and
selects the r-th (the same decision as legal()[below(len)]). Moves come from per-hex tables built at
import (`HEX_MOVES`: per symbol and power, the 6-bit mask of directions to hexes a source may
enter); at each call the directions other pieces occupy are taken off (bytewise compares against
the packed neighbour numbers) and the blockades on the piece's borders added, so a card's moves for
both pieces are two table lookups. Cards and tokens held are bitmasks read from the count arrays a
word at a time.

The random playout (`ed_playout`) draws the same decisions without building the set: a loop over
turns that counts each kind of decision in id order and applies the r-th directly, the moves per
card type kept across the decisions of a turn (they change only when a piece moves), and so the
types in hand, their number of moves and the hand's size (see "the random playout" below).

`_plain_legal_ids` lists the moves the plain way (direction by direction, source by source) for
the tests to check the tables against; `_TestState`, `_new`, `_struct`, `_load`, `_bytes` and
`_reveal` are the tests' minimal face (the real one, with the notation, is state.pyx).

>>> from engine.eldorado.rules import SEATS, OPTION_SPECS, state_size
>>> SEATS, [o.name for o in OPTION_SPECS], state_size()
((2, 3, 4), ['route', 'caves', 'max_rounds'], 720)
"""
from libc.string cimport memset, memcpy
from libc.stdint cimport uint8_t, uint16_t, int16_t, int8_t, uint32_t, uint64_t

from engine._core cimport (GameOps, Rng, State, rng_next, rng_below, rules_of, exp_popcount, exp_ctz, exp_select,
                           MAX_SEATS, MAX_LEGAL, MAX_REVEAL)

from engine.options import OptionSpec, resolve_options
from engine.eldorado import components as _components
from engine.eldorado.components import ROUTE_NAMES

# ===== component tables ============================================================================

# Card types whose rules the code knows by position (docs/eldorado.md "Cards and tokens").
cdef enum:
    C_TRANSMITTER = 15
    C_CARTOGRAPHER = 16
    C_SCIENTIST = 17
    C_COMPASS = 18
    C_TRAVEL_LOG = 19
    C_NATIVE = 20
    SYM_JOKER = 3
    SYM_ACTION = 4

# Token kinds by index (data order) and the move/coin sources beyond the card types.
cdef enum:
    TK_C1 = 5
    TK_C2 = 6
    TK_DRAW = 7
    TK_REMOVE = 8
    TK_REPLACE = 9
    TK_KEEP = 10
    TK_PASS = 11
    TK_NATIVE = 12
    TK_CHANGE = 13
    SRC_FIRST_TOKEN = 21   # move sources 21..27: tokens 0..6
    SRC_NATIVE = 28        # move source of the `nt` token
    N_SOURCES = 29
    COIN_C1 = 21
    COIN_C2 = 22
    MAX_POWER = 6          # card, token, hex and blockade powers are 0..MAX_POWER (EdMap.enter has 7 columns)
    MARKET_SLOTS = 6
    HAND_SIZE = 4
    MAX_REPLACE = 4

_EXPECTED_CARDS = ("Explorer", "Traveler", "Sailor", "Scout", "Trailblazer", "Pioneer", "Giant Machete", "Captain",
                   "Photographer", "Journalist", "Treasure Chest", "Millionaire", "Jack of All Trades", "Adventurer",
                   "Prop Plane", "Transmitter", "Cartographer", "Scientist", "Compass", "Travel Log", "Native")
_EXPECTED_TOKENS = ("m1", "m2", "m3", "p1", "p2", "c1", "c2", "dr", "rm", "rh", "ki", "po", "nt", "cs")

cdef uint8_t TOKEN_ORDER[ED_CAVE_TOKENS]     # the 36 tokens in canonical order (dealing step 2)
cdef uint32_t COIN_CARDS                     # card types of symbol coin or joker (bit t)
cdef uint32_t POWERED_CARDS                  # card types of power >= 1
cdef uint8_t STARTING_ORDER[ED_DECK]         # a seat's starting cards in canonical order
cdef int STARTING_N
cdef uint8_t SRC_SYMBOL[N_SOURCES]           # per move source: card symbol, or the token's symbol
cdef uint8_t SRC_POWER[N_SOURCES]
cdef int8_t SRC_TOKEN[N_SOURCES]             # token index of a token source, -1 for cards
cdef uint32_t MARKET_TYPES                   # bit t for t = 3..20


def _check_data() -> None:
    """The data against the compiled shapes; raises ValueError naming what does not fit."""
    c = _components
    if len(c.CARDS) != ED_TYPES or tuple(card.name for card in c.CARDS) != _EXPECTED_CARDS:
        raise ValueError(f"{c.DATA_PATH}: the engine is compiled for the {ED_TYPES} card types "
                         f"{', '.join(_EXPECTED_CARDS)} in this order")
    for card in c.CARDS:
        if not 0 <= card.power <= MAX_POWER or not 0 <= card.price <= 100:
            raise ValueError(f"{c.DATA_PATH}: card {card.name}: power 0..{MAX_POWER} and price 0..100 expected")
        if (card.copies > 0) != (card.index >= ED_MARKET_FIRST) or card.copies > 3:
            raise ValueError(f"{c.DATA_PATH}: card {card.name}: types {ED_MARKET_FIRST}..{ED_TYPES - 1} are the "
                             "market's (1..3 copies), the others are starting cards")
    for card in c.CARDS[C_TRANSMITTER:]:
        if card.symbol != SYM_ACTION:
            raise ValueError(f"{c.DATA_PATH}: card {card.name} must be an action card")
    if sum(card.on_board for card in c.CARDS) != MARKET_SLOTS:
        raise ValueError(f"{c.DATA_PATH}: {MARKET_SLOTS} piles start on the market board")
    if c.TOKEN_CODES != _EXPECTED_TOKENS or sum(t.count for t in c.TOKENS) != ED_CAVE_TOKENS:
        raise ValueError(f"{c.DATA_PATH}: the engine is compiled for the cave tokens {' '.join(_EXPECTED_TOKENS)} "
                         f"in this order, {ED_CAVE_TOKENS} in all")
    for t in c.TOKENS:
        if not 0 <= t.power <= MAX_POWER:
            raise ValueError(f"{c.DATA_PATH}: token {t.code}: power 0..{MAX_POWER} expected")
    if not 0 < len(c.STARTING_DECK) <= 16 or any(t >= ED_MARKET_FIRST for t in c.STARTING_DECK):
        raise ValueError(f"{c.DATA_PATH}: a starting deck of 1..16 cards of types 0..{ED_MARKET_FIRST - 1}")
    if sorted(b.number for b in c.BLOCKADES) != list(range(1, ED_BLOCKADES + 1)):
        raise ValueError(f"{c.DATA_PATH}: blockades numbered 1..{ED_BLOCKADES}")
    for b in c.BLOCKADES:
        if b.terrain not in (T_MACHETE, T_PADDLE, T_COIN, T_RUBBLE) or not 1 <= b.power <= MAX_POWER:
            raise ValueError(f"{c.DATA_PATH}: blockade {b.number}: machete, paddle, coin or rubble of power "
                             f"1..{MAX_POWER}")
    if len(c.ROUTES) != ED_ROUTES:
        raise ValueError(f"{c.DATA_PATH}: {ED_ROUTES} routes expected, found {len(c.ROUTES)}")
    for r in c.ROUTES:
        if len(r.hexes) > ED_MAX_HEXES:
            raise ValueError(f"route {r.name}: {len(r.hexes)} hexes, at most {ED_MAX_HEXES}")
        if len(r.tiles) > ED_MAX_TILES or r.connections > ED_MAX_CONN or r.connections != len(r.tiles) - 1:
            raise ValueError(f"route {r.name}: {len(r.tiles)} tiles, at most {ED_MAX_TILES} "
                             f"({ED_MAX_CONN} connections)")
        if len(r.caves) > ED_MAX_CAVES or ED_PILE * len(r.caves) > ED_CAVE_TOKENS:
            raise ValueError(f"route {r.name}: {len(r.caves)} caves, at most {ED_MAX_CAVES}")
        if len(r.starts) != 4:
            raise ValueError(f"route {r.name}: 4 start spaces expected")
        for h in r.hexes:
            if h.terrain <= T_CAMP and not 1 <= h.power <= MAX_POWER:
                raise ValueError(f"route {r.name}: hex {h.number} has power {h.power}, expected 1..{MAX_POWER}")


cdef void _build_tables():
    global STARTING_N, MARKET_START, MARKET_TYPES, COIN_CARDS, POWERED_CARDS
    cdef int i, t, k, d, h, n, s, p, w
    c = _components
    MARKET_START = 0
    MARKET_TYPES = 0
    COIN_CARDS = 0
    POWERED_CARDS = 0
    for card in c.CARDS:
        t = card.index
        CARD_SYMBOL[t] = card.symbol
        CARD_POWER[t] = card.power
        CARD_PRICE[t] = card.price
        CARD_ITEM[t] = card.item
        CARD_COPIES[t] = card.copies
        STARTING_COUNT[t] = 0
        if card.on_board:
            MARKET_START |= (<uint32_t>1) << t
        if t >= ED_MARKET_FIRST:
            MARKET_TYPES |= (<uint32_t>1) << t
        if card.symbol == T_COIN or card.symbol == SYM_JOKER:
            COIN_CARDS |= (<uint32_t>1) << t
        if card.power >= 1:
            POWERED_CARDS |= (<uint32_t>1) << t
    memset(STARTING_ORDER, 0, sizeof(STARTING_ORDER))
    STARTING_N = len(c.STARTING_DECK)
    for i, t in enumerate(c.STARTING_DECK):
        STARTING_ORDER[i] = t
        STARTING_COUNT[t] += 1
    i = 0
    for tok in c.TOKENS:
        TOKEN_SYMBOL[tok.index] = {"machete": T_MACHETE, "paddle": T_PADDLE, "coin": T_COIN}.get(tok.kind, ED_NONE)
        TOKEN_POWER[tok.index] = tok.power
        TOKEN_COUNT[tok.index] = tok.count
        for k in range(tok.count):
            TOKEN_ORDER[i] = tok.index
            i += 1
    BLOCKADE_TERRAIN[0] = 0
    BLOCKADE_POWER[0] = 0
    for b in c.BLOCKADES:
        BLOCKADE_TERRAIN[b.number] = b.terrain
        BLOCKADE_POWER[b.number] = b.power
    for s in range(N_SOURCES):
        if s < ED_TYPES:
            SRC_SYMBOL[s] = CARD_SYMBOL[s]
            SRC_POWER[s] = CARD_POWER[s]
            SRC_TOKEN[s] = -1
        else:
            k = s - SRC_FIRST_TOKEN if s < SRC_NATIVE else TK_NATIVE
            SRC_SYMBOL[s] = TOKEN_SYMBOL[k] if s < SRC_NATIVE else SYM_ACTION
            SRC_POWER[s] = TOKEN_POWER[k]
            SRC_TOKEN[s] = k
    cdef EdMap* m
    for r in c.ROUTES:
        m = &ED_MAPS[r.index]
        memset(m, 0, sizeof(EdMap))
        n = len(r.hexes)
        m.nhex = n
        m.nconn = r.connections
        m.ncaves = len(r.caves)
        for h in range(ED_MAX_HEXES):
            for d in range(6):
                m.nb[h][d] = -1
                m.cross[h][d] = -1
        for hx in r.hexes:
            h = hx.number
            w = h >> 6
            m.terrain[h] = hx.terrain
            m.power[h] = hx.power
            for d in range(6):
                m.nb[h][d] = r.neighbours[h][d]
                m.cross[h][d] = r.crossing[h][d]
            if hx.terrain <= T_CAMP:
                m.open_[w] |= (<uint64_t>1) << (h & 63)
            if hx.terrain == T_RUBBLE or hx.terrain == T_CAMP:
                m.special[w] |= (<uint64_t>1) << (h & 63)
            if hx.finishing:
                m.finishing[w] |= (<uint64_t>1) << (h & 63)
            if hx.terrain <= T_COIN:
                for p in range(hx.power, MAX_POWER + 1):
                    m.enter[hx.terrain][p][w] |= (<uint64_t>1) << (h & 63)
        for k, h in enumerate(r.caves):
            m.cave_hex[k] = h
            for d in range(6):
                if r.neighbours[h][d] >= 0:
                    m.cave_adj[r.neighbours[h][d]] |= 1 << k
        for k in range(4):
            m.start[k] = r.starts[k]


cdef uint64_t _seat_fields():
    cdef EdSeat q
    return (sizeof(q.hand) + sizeof(q.discard) + sizeof(q.removed) + sizeof(q.tokens) + sizeof(q.draw)
            + sizeof(q.draw_n) + sizeof(q.piece) + sizeof(q.explored) + sizeof(q.held) + sizeof(q._pad))


cdef uint64_t _state_fields():
    cdef EdState s
    return (sizeof(s.rng) + sizeof(s.on_board) + sizeof(s.turn) + sizeof(s.max_rounds) + sizeof(s.route)
            + sizeof(s.caves) + sizeof(s.players) + sizeof(s.phase) + sizeof(s.to_move) + sizeof(s.final)
            + sizeof(s.market) + sizeof(s.conn) + sizeof(s.cave_n) + sizeof(s.cave) + sizeof(s.box)
            + sizeof(s.played) + sizeof(s.coins) + sizeof(s.bought) + sizeof(s.lastcoin) + sizeof(s.moving)
            + sizeof(s.move_symbol) + sizeof(s.leftover) + sizeof(s.pay_n) + sizeof(s.pay_kind)
            + sizeof(s.remove_n) + sizeof(s.replace) + sizeof(s.last) + sizeof(s.flags) + sizeof(s._pad)
            + MAX_SEATS * sizeof(EdSeat))


if _seat_fields() != sizeof(EdSeat) or _state_fields() != sizeof(EdState):
    raise ImportError(f"engine/eldorado/rules.pxd: EdSeat ({sizeof(EdSeat)} bytes, fields {_seat_fields()}) or "
                      f"EdState ({sizeof(EdState)} bytes, fields {_state_fields()}) has implicit padding; "
                      "fix the _pad sizes")

_check_data()
_build_tables()

# ===== rules =======================================================================================

cdef inline uint32_t _nz8(uint64_t w) noexcept nogil:
    """Bit i: byte i of w is not 0 (bytes below 0x80)."""
    w = (w + <uint64_t>0x7F7F7F7F7F7F7F7FULL) & <uint64_t>0x8080808080808080ULL
    return <uint32_t>(((w >> 7) * <uint64_t>0x0102040810204080ULL) >> 56)


cdef inline uint32_t _types_mask(const uint8_t* a) noexcept nogil:
    """Bit t: a[t] != 0, for the ED_TYPES counts at a (the bytes after them are read and ignored)."""
    cdef uint64_t w0, w1, w2
    memcpy(&w0, a, 8)
    memcpy(&w1, a + 8, 8)
    memcpy(&w2, a + 16, 8)
    return (_nz8(w0) | (_nz8(w1) << 8) | (_nz8(w2) << 16)) & ((<uint32_t>1 << ED_TYPES) - 1)


cdef inline uint32_t _tokens_mask(const uint8_t* a) noexcept nogil:
    cdef uint64_t w0, w1
    memcpy(&w0, a, 8)
    memcpy(&w1, a + 8, 8)
    return (_nz8(w0) | (_nz8(w1) << 8)) & ((<uint32_t>1 << ED_TOKENS) - 1)


cdef inline int _types_sum(const uint8_t* a) noexcept nogil:
    """The sum of the ED_TYPES counts at a (below 256)."""
    cdef uint64_t w0, w1, w2
    memcpy(&w0, a, 8)
    memcpy(&w1, a + 8, 8)
    memcpy(&w2, a + 16, 8)
    w0 += w1 + (w2 & ((<uint64_t>1 << (8 * (ED_TYPES - 16))) - 1))
    return <int>((w0 * <uint64_t>0x0101010101010101ULL) >> 56)



cdef inline int _npieces(const EdState* s) noexcept nogil:
    return 2 if s.players == 2 else 1


cdef inline bint _is_finishing(const EdMap* m, int h) noexcept nogil:
    return (m.finishing[h >> 6] >> (h & 63)) & 1


cdef void _shuffle(uint8_t* a, int n, Rng* rng) noexcept nogil:
    """Fisher-Yates as in docs/notation.md: for i from n-1 down to 1 swap a[i], a[below(i+1)]."""
    cdef int i = n - 1, j
    cdef uint8_t tmp
    while i > 0:
        j = rng_below(rng, i + 1)
        tmp = a[i]
        a[i] = a[j]
        a[j] = tmp
        i -= 1


cdef bint _reshuffle(EdState* s, EdSeat* q) noexcept nogil:
    """The seat's discard pile in canonical order, shuffled with the position's generator, becomes
    its (empty) draw pile; False when the discard pile is empty too."""
    cdef uint8_t buf[ED_DECK + 16]          # each type's copies are written as 16 bytes (at most 16)
    cdef uint32_t types = _types_mask(q.discard)
    cdef uint64_t pattern
    cdef int t, m = 0
    cdef Rng rng
    if not types:
        return False
    memset(buf, 0, sizeof(buf))
    while types:
        t = exp_ctz(types)
        types &= types - 1
        pattern = <uint64_t>t * <uint64_t>0x0101010101010101ULL
        memcpy(buf + m, &pattern, 8)
        memcpy(buf + m + 8, &pattern, 8)
        m += q.discard[t]
    memset(buf + m, 0, 16)
    memset(q.discard, 0, sizeof(q.discard))
    memcpy(q.draw, buf, ED_DECK)
    rng.x = s.rng
    _shuffle(q.draw, m, &rng)
    s.rng = rng.x
    q.draw_n = m
    return True


cdef inline void _take(EdSeat* q, int k) noexcept nogil:
    """The top k <= 4 cards of the draw pile (it holds k or more) into the hand, without branches
    on k: four slots, those past k taken back unchanged."""
    cdef int i, take, top = q.draw_n, j
    for i in range(HAND_SIZE):
        take = i < k
        j = (top - 1 - i) & (ED_DECK - 1)          # (below the bottom: unused entries, zero)
        q.hand[q.draw[j]] += take
        q.draw[j] &= take - 1
    q.draw_n = top - k


cdef int _draw(EdState* s, EdSeat* q, int k, int* out, int n) noexcept nogil:
    """The seat draws k cards (fewer when its draw and discard piles run out), reshuffling its
    discard pile when the draw pile is empty; appends the types drawn to out[n..] unless out is
    NULL; returns the new n."""
    cdef int i, t
    if out == NULL and k <= HAND_SIZE:
        if q.draw_n < k:
            k -= q.draw_n
            _take(q, q.draw_n)
            if not _reshuffle(s, q):
                return n
            if k > q.draw_n:
                k = q.draw_n
        _take(q, k)
        return n
    for i in range(k):
        if q.draw_n == 0 and not _reshuffle(s, q):
            return n
        q.draw_n -= 1
        t = q.draw[q.draw_n]
        q.draw[q.draw_n] = 0
        q.hand[t] += 1
        if out != NULL:
            out[n] = t
            n += 1
    return n


cdef inline void _stop(EdState* s) noexcept nogil:
    """The moving piece stops: its leftover is lost and it explores the caves next to it."""
    cdef int p = s.moving, h, k, adj, ex
    cdef EdSeat* q
    cdef const EdMap* m
    s.moving = ED_NONE          # (already so when nothing moves: no branch on it)
    s.leftover = 0
    s.move_symbol = 0
    if not s.caves or p == ED_NONE:
        return
    q = &s.seat[s.to_move]
    h = q.piece[p]
    if h == ED_ELDORADO:
        return
    m = &ED_MAPS[s.route]
    adj = m.cave_adj[h]
    ex = q.explored[p]
    for k in range(m.ncaves):
        if (adj >> k) & 1:
            if not (ex >> k) & 1:
                ex |= 1 << k
                if s.cave_n[k]:
                    s.cave_n[k] -= 1
                    q.tokens[s.cave[k][s.cave_n[k]]] += 1
                    s.cave[k][s.cave_n[k]] = 0
        else:
            ex &= ~(1 << k)
    q.explored[p] = ex


cdef inline void _use_item(EdState* s, EdSeat* q, int t) noexcept nogil:
    """Card t leaves the hand having been used for its function (movement power, coins, action): an
    item is removed from the game unless *keep item* is on (which it then uses up)."""
    q.hand[t] -= 1
    if CARD_ITEM[t]:
        if s.flags & F_KEEP_ITEM:
            s.flags &= ~F_KEEP_ITEM
            s.played[t] += 1
        else:
            q.removed[t] += 1
    else:
        s.played[t] += 1


cdef inline void _arrive(EdState* s, EdSeat* q, int p, int h) noexcept nogil:
    """Piece p enters hex h: onto El Dorado from a finishing space (its moving ends)."""
    cdef int k
    if _is_finishing(&ED_MAPS[s.route], h):
        q.piece[p] = ED_ELDORADO
        s.moving = ED_NONE
        s.leftover = 0
        s.move_symbol = 0
        for k in range(_npieces(s)):
            if q.piece[k] != ED_ELDORADO:
                return
        s.final = 1
        return
    q.piece[p] = h
    s.moving = p


cdef inline void _pay_card(EdState* s, EdSeat* q, int t, int kind) noexcept nogil:
    q.hand[t] -= 1
    if kind == T_CAMP:
        q.removed[t] += 1
    else:
        s.played[t] += 1


cdef void _do_move(EdState* s, int src, int p, int d) noexcept nogil:
    cdef EdSeat* q = &s.seat[s.to_move]
    cdef const EdMap* m = &ED_MAPS[s.route]
    cdef int pos = q.piece[p], h = m.nb[pos][d], k = m.cross[pos][d], b = 0, terr, pw, left = 0, sym = 0
    cdef bint native = src == C_NATIVE or src == SRC_NATIVE
    if k >= 0 and s.conn[k]:
        b = s.conn[k]
        terr = BLOCKADE_TERRAIN[b]
        pw = BLOCKADE_POWER[b]
    else:
        terr = m.terrain[h]
        pw = m.power[h]
    if src < ED_TYPES:
        s.flags &= ~F_CHANGE_SYMBOL
        if native:
            q.hand[src] -= 1
            s.played[src] += 1
        elif terr == T_RUBBLE or terr == T_CAMP:
            _pay_card(s, q, src, terr)
            if pw > 1:
                s.pay_n = pw - 1
                s.pay_kind = terr
                s.last = src
        else:
            _use_item(s, q, src)
            left = CARD_POWER[src] - pw
            sym = terr
    else:
        q.tokens[SRC_TOKEN[src]] -= 1
        if not native:
            left = SRC_POWER[src] - pw
            sym = terr
    s.leftover = left
    s.move_symbol = sym if left else 0
    if b:
        s.conn[k] = 0
        q.held |= 1 << (b - 1)
        s.moving = p
    else:
        _arrive(s, q, p, h)


cdef void _do_step(EdState* s, int d) noexcept nogil:
    cdef EdSeat* q = &s.seat[s.to_move]
    cdef const EdMap* m = &ED_MAPS[s.route]
    cdef int p = s.moving, pos = q.piece[p], h = m.nb[pos][d], k = m.cross[pos][d], b
    if k >= 0 and s.conn[k]:
        b = s.conn[k]
        s.conn[k] = 0
        q.held |= 1 << (b - 1)
        s.leftover -= BLOCKADE_POWER[b]
    else:
        s.leftover -= m.power[h]
        _arrive(s, q, p, h)
    if s.leftover == 0:
        s.move_symbol = 0


cdef void _take_card(EdState* s, EdSeat* q, int t, bint purchase) noexcept nogil:
    """A card of market type t onto the seat's discard pile; a pile beside the board moves onto it
    while a slot is empty (a purchase from beside the board needs one)."""
    cdef uint32_t bit = (<uint32_t>1) << t
    s.market[t] -= 1
    q.discard[t] += 1
    if not (s.on_board & bit) and (purchase or exp_popcount(s.on_board) < MARKET_SLOTS):
        s.on_board |= bit
    if s.market[t] == 0:
        s.on_board &= ~bit


cdef void _end_turn(EdState* s, int* out, int* nout) noexcept nogil:
    _close_turn(s, _types_sum(s.seat[s.to_move].hand), out, nout)


cdef void _close_turn(EdState* s, int size, int* out, int* nout) noexcept nogil:
    """The end of the turn (`.`), the mover holding `size` cards (the playout counts them as they are
    played rather than read the counts back a word at a time right after byte writes)."""
    cdef EdSeat* q = &s.seat[s.to_move]
    cdef int i
    cdef uint64_t d, p
    for i in range(0, ED_TYPES, 8):
        # the played cards onto the discard pile, a word at a time (no count reaches 0x80)
        memcpy(&d, q.discard + i, 8)
        memcpy(&p, s.played + i, 8)
        if i + 8 > ED_TYPES:
            p &= (<uint64_t>1 << (8 * (ED_TYPES - i))) - 1     # (the bytes after the arrays are left)
        d += p
        memcpy(q.discard + i, &d, 8)
    memset(s.played, 0, sizeof(s.played))
    nout[0] = _draw(s, q, HAND_SIZE - size if size < HAND_SIZE else 0, out, nout[0])
    s.coins = 0
    s.bought = 0
    s.lastcoin = ED_NONE
    s.moving = ED_NONE
    s.leftover = 0
    s.move_symbol = 0
    s.pay_n = 0
    s.pay_kind = 0
    s.remove_n = 0
    s.replace = ED_NONE
    s.last = ED_NONE
    s.flags = 0
    s.turn += 1
    if (s.to_move == s.players - 1) & (s.final | (s.turn >= <int>s.players * s.max_rounds)):
        s.phase = PH_OVER
        s.to_move = ED_NONE
        return
    s.to_move = s.to_move + 1 if s.to_move + 1 < s.players else 0
    s.phase = PH_PLAY


# The kind of each decision id and its argument (card type, coin source, direction, action).
cdef enum:
    K_MOVE = 0
    K_STEP
    K_PAY
    K_COIN
    K_BUY
    K_TRANSMIT
    K_ACTION
    K_REMOVE
    K_REPLACE
    K_REPLACE_DONE
    K_DISCARD
    K_END

cdef uint8_t DKIND[N_DECISIONS]
cdef uint8_t DARG[N_DECISIONS]


cdef void _build_kinds():
    cdef int d
    for d in range(N_DECISIONS):
        if d < D_STEP:
            DKIND[d], DARG[d] = K_MOVE, d % 6
        elif d < D_PAY:
            DKIND[d], DARG[d] = K_STEP, d - D_STEP
        elif d < D_COIN:
            DKIND[d], DARG[d] = K_PAY, d - D_PAY
        elif d < D_BUY:
            DKIND[d], DARG[d] = K_COIN, d - D_COIN
        elif d < D_TRANSMIT:
            DKIND[d], DARG[d] = K_BUY, d - D_BUY + ED_MARKET_FIRST
        elif d < D_ACTION:
            DKIND[d], DARG[d] = K_TRANSMIT, d - D_TRANSMIT + ED_MARKET_FIRST
        elif d < D_REMOVE:
            DKIND[d], DARG[d] = K_ACTION, d - D_ACTION
        elif d < D_REPLACE:
            DKIND[d], DARG[d] = K_REMOVE, d - D_REMOVE
        elif d < D_REPLACE_DONE:
            DKIND[d], DARG[d] = K_REPLACE, d - D_REPLACE
        elif d == D_REPLACE_DONE:
            DKIND[d], DARG[d] = K_REPLACE_DONE, 0
        elif d < D_END:
            DKIND[d], DARG[d] = K_DISCARD, d - D_DISCARD
        else:
            DKIND[d], DARG[d] = K_END, 0


_build_kinds()


cdef inline void _discard(EdState* s, EdSeat* q, int t) noexcept nogil:
    q.hand[t] -= 1
    q.discard[t] += 1
    s.phase = PH_DISCARD
    s.last = t


cdef inline void _settle(EdState* s) noexcept nogil:
    """What every decision but a step and a removal does first: the moving piece stops and an open
    removal right ends (a step does only the second, a removal only the first: see _apply)."""
    _stop(s)
    if s.remove_n:
        s.remove_n = 0
        s.last = ED_NONE


cdef inline void _play_coin(EdState* s, EdSeat* q, int t) noexcept nogil:
    """Coin source t (a card type, or COIN_C1 / COIN_C2) played for money."""
    cdef int k
    cdef uint32_t full_value = COIN_CARDS | (POWERED_CARDS if s.flags & F_CHANGE_SYMBOL else 0)
    if t < ED_TYPES:
        # a coin card or joker (any card of power >= 1 with change symbol) gives its power, and is used
        # like an item; any other card half a coin (no branch on the type: it is random in playouts)
        k = (full_value >> t) & 1
        s.coins += 1 + k * (2 * CARD_POWER[t] - 1)
        if k & CARD_ITEM[t]:
            _use_item(s, q, t)
        else:
            q.hand[t] -= 1
            s.played[t] += 1
        s.flags &= ~F_CHANGE_SYMBOL
    else:
        k = TK_C1 + t - COIN_C1
        q.tokens[k] -= 1
        s.coins += 2 * TOKEN_POWER[k]
    s.lastcoin = t


cdef inline void _buy(EdState* s, EdSeat* q, int t) noexcept nogil:
    _take_card(s, q, t, True)
    s.coins = 0
    s.bought = 1


cdef void _apply(EdState* s, int d, int* out, int* nout) noexcept nogil:
    """Applies legal decision d; the cards it draws are appended to out (unless NULL)."""
    cdef EdSeat* q = &s.seat[s.to_move]
    cdef int kind = DKIND[d], t = DARG[d], k
    if kind != K_STEP:
        _stop(s)
    if s.remove_n and kind != K_REMOVE:
        s.remove_n = 0
        s.last = ED_NONE
    if kind == K_MOVE:
        _do_move(s, d // 12, (d // 6) & 1, t)
    elif kind == K_END:
        _end_turn(s, out, nout)
    elif kind == K_DISCARD:
        _discard(s, q, t)
    elif kind == K_COIN:
        _play_coin(s, q, t)
    elif kind == K_STEP:
        _do_step(s, t)
    elif kind == K_PAY:
        _pay_card(s, q, t, s.pay_kind)
        s.flags &= ~F_CHANGE_SYMBOL
        s.pay_n -= 1
        s.last = t
        if s.pay_n == 0:
            s.last = ED_NONE
            s.pay_kind = 0
    elif kind == K_BUY:
        _buy(s, q, t)
    elif kind == K_TRANSMIT:
        _use_item(s, q, C_TRANSMITTER)
        s.flags &= ~F_CHANGE_SYMBOL
        _take_card(s, q, t, False)
    elif kind == K_ACTION:
        if t < 4:
            k = C_CARTOGRAPHER + t
            _use_item(s, q, k)
            s.flags &= ~F_CHANGE_SYMBOL
            if k == C_CARTOGRAPHER:
                nout[0] = _draw(s, q, 2, out, nout[0])
            elif k == C_SCIENTIST:
                nout[0] = _draw(s, q, 1, out, nout[0])
                s.remove_n = 1
            elif k == C_COMPASS:
                nout[0] = _draw(s, q, 3, out, nout[0])
            else:
                nout[0] = _draw(s, q, 2, out, nout[0])
                s.remove_n = 2
        else:
            k = TK_DRAW + t - 4 if t < 9 else TK_CHANGE    # dr rm rh ki po, then cs (nt is no action)
            q.tokens[k] -= 1
            if k == TK_DRAW:
                nout[0] = _draw(s, q, 1, out, nout[0])
            elif k == TK_REMOVE:
                s.remove_n = 1
            elif k == TK_REPLACE:
                s.replace = 0
            elif k == TK_KEEP:
                s.flags |= F_KEEP_ITEM
            elif k == TK_PASS:
                s.flags |= F_PASS_OCCUPIED
            else:
                s.flags |= F_CHANGE_SYMBOL
    elif kind == K_REMOVE:
        q.hand[t] -= 1
        q.removed[t] += 1
        s.remove_n -= 1
        s.last = t if s.remove_n else ED_NONE
    elif kind == K_REPLACE:
        q.hand[t] -= 1
        s.played[t] += 1
        s.flags &= ~F_CHANGE_SYMBOL
        s.replace += 1
        s.last = t
    else:
        k = s.replace
        s.replace = ED_NONE
        s.last = ED_NONE
        nout[0] = _draw(s, q, k, out, nout[0])


cdef void ed_apply(void* sp, int d) noexcept nogil:
    cdef int n = 0
    _apply(<EdState*>sp, d, NULL, &n)


# ----- legal decisions ------------------------------------------------------------------------------
# The legal decisions are built as a set of 509 bits (decision id = bit index), word by word: each
# kind of decision is a small mask shifted to its first id. `ed_legal` lists the bits in order;
# `ed_random_decision` counts them and selects the r-th without listing.

# Per route and hex, what a piece there may reach in each direction as 6-bit direction masks, from
# the map alone (built at import): other pieces and blockades are taken off at each call.
ctypedef struct HexMoves:
    uint8_t sym[4][MAX_POWER + 1]   # hexes of symbol s (row 3: any symbol) and power <= p
    uint8_t native                  # every hex a piece may stand on
    uint8_t special                 # rubble and base camps
    uint8_t border                  # edges across a connection
    uint8_t spow[6]                 # the power of a rubble or base camp

cdef HexMoves HEX_MOVES[ED_ROUTES][256]   # rows past the map (El Dorado's 255 among them) stay 0
cdef uint64_t NB_BYTES[ED_ROUTES][256]    # byte d: the neighbour in direction d (0xFF none)
cdef uint32_t PRICE_ABOVE[256]         # market types t with 2 * price(t) > c (c half coins)
cdef uint32_t AFFORD[256]              # market types t with 2 * price(t) <= c

cdef enum:
    SET_WORDS = 9                      # 8 words of decision bits, and one a shifted mask may spill into


cdef void _build_moves():
    cdef int t, c, d, h, nb, terr, pw, P
    cdef HexMoves* x
    for c in range(256):
        PRICE_ABOVE[c] = 0
        AFFORD[c] = 0
        for t in range(ED_MARKET_FIRST, ED_TYPES):
            if 2 * CARD_PRICE[t] > c:
                PRICE_ABOVE[c] |= (<uint32_t>1) << t
            else:
                AFFORD[c] |= (<uint32_t>1) << t
    for r in _components.ROUTES:
        memset(HEX_MOVES[r.index], 0, sizeof(HEX_MOVES[r.index]))
        for hx in r.hexes:
            h = hx.number
            x = &HEX_MOVES[r.index][h]
            NB_BYTES[r.index][h] = <uint64_t>0xFFFFFFFFFFFFFFFFULL
            for d in range(6):
                nb = r.neighbours[h][d]
                if nb < 0:
                    continue
                NB_BYTES[r.index][h] &= ~((<uint64_t>0xFF ^ <uint64_t>nb) << (8 * d))
                if r.crossing[h][d] >= 0:
                    x.border |= 1 << d
                terr = r.hexes[nb].terrain
                pw = r.hexes[nb].power
                if terr > T_CAMP:
                    continue
                x.native |= 1 << d
                if terr <= T_COIN:
                    for P in range(pw, MAX_POWER + 1):
                        x.sym[terr][P] |= 1 << d
                        x.sym[3][P] |= 1 << d
                else:
                    x.special |= 1 << d
                    x.spow[d] = pw


_build_moves()


cdef inline int _dirs_to(uint64_t nbytes, const uint64_t* occ, int nocc) noexcept nogil:
    """The directions whose neighbour (bytes of NB_BYTES) is one of the hexes occ[i] (each repeated
    in all 8 bytes), as a 6-bit mask."""
    cdef uint64_t x, acc = 0
    cdef int i
    for i in range(nocc):
        x = nbytes ^ occ[i]
        acc |= ~(((x & <uint64_t>0x7F7F7F7F7F7F7F7FULL) + <uint64_t>0x7F7F7F7F7F7F7F7FULL) | x)
    acc &= <uint64_t>0x8080808080808080ULL
    return <int>(((acc >> 7) * <uint64_t>0x0102040810204080ULL) >> 56) & 0x3F


cdef uint64_t FROM_MASK[ED_TYPES][3]   # bytes t.. of the ED_TYPES counts, in three words


cdef void _build_from_masks():
    cdef int t, i
    for t in range(ED_TYPES):
        FROM_MASK[t][0] = FROM_MASK[t][1] = FROM_MASK[t][2] = 0
        for i in range(t, ED_TYPES):
            FROM_MASK[t][i >> 3] |= (<uint64_t>0xFF) << (8 * (i & 7))


_build_from_masks()


cdef inline int _cards_from(const uint8_t* a, int t) noexcept nogil:
    """How many cards of types t.. the counts a hold (below 256 in all)."""
    cdef uint64_t w0, w1, w2
    memcpy(&w0, a, 8)
    memcpy(&w1, a + 8, 8)
    memcpy(&w2, a + 16, 8)
    w0 = (w0 & FROM_MASK[t][0]) + (w1 & FROM_MASK[t][1]) + (w2 & FROM_MASK[t][2])
    return <int>((w0 * <uint64_t>0x0101010101010101ULL) >> 56)


# One piece's targets now: the static masks less the directions other pieces and blockades take,
# and the blockades it may take (the first direction across each border).
ctypedef struct PieceMoves:
    const HexMoves* hm
    int allowed                     # directions to a hex (not a blockade) free to enter
    int nblk                        # blockades it may take
    int blk_dirs
    int rubble                      # directions to a rubble, base camp or rubble blockade
    uint8_t bdir[6]
    uint8_t bterr[6]
    uint8_t bpow[6]
    uint8_t spow[6]


cdef inline void _piece_moves(const EdState* s, int pos, const uint64_t* occ, int nocc, PieceMoves* pm) noexcept nogil:
    _piece_moves_free(s, pos, HEX_MOVES[s.route][pos].native & ~_dirs_to(NB_BYTES[s.route][pos], occ, nocc), pm)


cdef inline void _piece_moves_free(const EdState* s, int pos, int free, PieceMoves* pm) noexcept nogil:
    """_piece_moves from the directions to hexes a piece may stand on that no other piece takes."""
    cdef const HexMoves* hm = &HEX_MOVES[s.route][pos]
    cdef const EdMap* m
    cdef int k, d, b, seen = 0, border
    pm.hm = hm
    pm.allowed = free
    pm.rubble = hm.special & pm.allowed
    pm.nblk = 0
    pm.blk_dirs = 0
    memcpy(pm.spow, hm.spow, 6)
    border = hm.border
    if not border:
        return
    m = &ED_MAPS[s.route]
    while border:
        d = exp_ctz(border)
        border &= border - 1
        k = m.cross[pos][d]
        b = s.conn[k]
        if b:
            pm.allowed &= ~(1 << d)
            if not (seen >> k) & 1:
                seen |= 1 << k
                pm.bdir[pm.nblk] = d
                pm.bterr[pm.nblk] = BLOCKADE_TERRAIN[b]
                pm.bpow[pm.nblk] = BLOCKADE_POWER[b]
                pm.blk_dirs |= 1 << d
                pm.nblk += 1
    pm.rubble = hm.special & pm.allowed
    for k in range(pm.nblk):
        if pm.bterr[k] == T_RUBBLE:
            pm.rubble |= 1 << pm.bdir[k]
            pm.spow[pm.bdir[k]] = pm.bpow[k]


cdef inline int _symbol_mask(const PieceMoves* pm, int row, int P) noexcept nogil:
    """Directions a source of symbol row (3: any symbol) and power P may move to."""
    cdef int mask = pm.hm.sym[row][P] & pm.allowed, k
    for k in range(pm.nblk):
        if pm.bterr[k] <= T_COIN and (row == 3 or pm.bterr[k] == row) and pm.bpow[k] <= P:
            mask |= 1 << pm.bdir[k]
    return mask


cdef inline int _rubble_mask(const PieceMoves* pm, int enough) noexcept nogil:
    """Directions to a rubble, base camp or rubble blockade of power <= enough."""
    cdef int mask = 0, spec = pm.rubble, d
    while spec:
        d = exp_ctz(spec)
        spec &= spec - 1
        if pm.spow[d] <= enough:
            mask |= 1 << d
    return mask


cdef inline void _or_bits(uint64_t* w, int off, uint64_t mask) noexcept nogil:
    """Sets the bits of mask (at most 64 - 1 bits wide) from decision id off on."""
    cdef int b = off & 63
    w[off >> 6] |= mask << b
    w[(off >> 6) + 1] |= (mask >> 1) >> (63 - b)


cdef inline int _occupied(const EdState* s, uint64_t* occ) noexcept nogil:
    """The hexes of every piece, each repeated in 8 bytes (El Dorado's 0xFF matches no neighbour);
    none with *pass occupied*. Returns how many."""
    cdef int o
    cdef uint64_t ones = <uint64_t>0x0101010101010101ULL
    if s.flags & F_PASS_OCCUPIED:
        return 0
    if s.players == 2:
        occ[0] = s.seat[0].piece[0] * ones
        occ[1] = s.seat[0].piece[1] * ones
        occ[2] = s.seat[1].piece[0] * ones
        occ[3] = s.seat[1].piece[1] * ones
        return 4
    for o in range(s.players):
        occ[o] = s.seat[o].piece[0] * ones
    return s.players


cdef HexMoves NO_MOVES                  # a piece on El Dorado (or absent) reaches nothing
cdef uint8_t CARD_ROW[ED_TYPES]        # card symbol 0..2, 3 a joker (any symbol), 4 none (actions)


cdef void _build_rows():
    cdef int t
    memset(&NO_MOVES, 0, sizeof(HexMoves))
    for t in range(ED_TYPES):
        CARD_ROW[t] = CARD_SYMBOL[t] if CARD_SYMBOL[t] <= SYM_JOKER else 4


_build_rows()


cdef inline int _source_mask(const PieceMoves* pm, int row, int P, int enough) noexcept nogil:
    """Directions one piece may move with a source of symbol row (3 any, 4 none) and power P, or a
    card with `enough` cards >= it in hand (-1 for a token) for rubble and base camps."""
    cdef int mask = _symbol_mask(pm, row, P) if row <= 3 else 0
    if enough >= 0 and pm.rubble:
        mask |= _rubble_mask(pm, enough)
    return mask


cdef void _move_bits(const EdState* s, const EdSeat* q, uint32_t hand, uint32_t tokens, uint64_t* w) noexcept nogil:
    cdef PieceMoves pm[ED_PIECES]
    cdef uint64_t occ[2 * MAX_SEATS]
    cdef int np = _npieces(s), p, src, t, row, P, nocc, a0, a1, enough
    cdef uint64_t mask, native
    cdef uint32_t cards = hand
    cdef bint change = s.flags & F_CHANGE_SYMBOL, plain
    cdef const HexMoves* h0
    cdef const HexMoves* h1
    nocc = _occupied(s, occ)
    for p in range(ED_PIECES):
        if p < np and q.piece[p] != ED_ELDORADO:
            _piece_moves(s, q.piece[p], occ, nocc, &pm[p])
        else:
            memset(&pm[p], 0, sizeof(PieceMoves))
            pm[p].hm = &NO_MOVES
    native = <uint64_t>(pm[0].allowed | pm[0].blk_dirs) | (<uint64_t>(pm[1].allowed | pm[1].blk_dirs) << 6)
    if not native:
        return
    tokens &= ((1 << (SRC_NATIVE - SRC_FIRST_TOKEN)) - 1) | (1 << TK_NATIVE)
    plain = not (pm[0].nblk | pm[1].nblk | pm[0].rubble | pm[1].rubble | change)
    if plain:
        # no blockade, rubble or base camp in reach and no change of symbol: two table lookups a source
        h0 = pm[0].hm
        h1 = pm[1].hm
        a0 = pm[0].allowed
        a1 = pm[1].allowed
        while cards:
            src = exp_ctz(cards)
            cards &= cards - 1
            row = CARD_ROW[src]
            P = CARD_POWER[src]
            if row <= 3:
                mask = (h0.sym[row][P] & a0) | (<uint64_t>(h1.sym[row][P] & a1) << 6)
            elif src == C_NATIVE:
                mask = native
            else:
                continue
            _or_bits(w, D_MOVE + src * 12, mask)
        while tokens:
            t = exp_ctz(tokens)
            tokens &= tokens - 1
            if t == TK_NATIVE:
                _or_bits(w, D_MOVE + SRC_NATIVE * 12, native)
            else:
                row = TOKEN_SYMBOL[t]
                P = TOKEN_POWER[t]
                mask = (h0.sym[row][P] & a0) | (<uint64_t>(h1.sym[row][P] & a1) << 6)
                _or_bits(w, D_MOVE + (SRC_FIRST_TOKEN + t) * 12, mask)
        return
    while cards:
        src = exp_ctz(cards)
        cards &= cards - 1
        if src == C_NATIVE:
            mask = native
        else:
            P = CARD_POWER[src]
            row = 3 if CARD_ROW[src] == 3 or (change and P >= 1) else CARD_ROW[src]
            enough = _cards_from(q.hand, src)
            mask = _source_mask(&pm[0], row, P, enough) | (<uint64_t>_source_mask(&pm[1], row, P, enough) << 6)
        _or_bits(w, D_MOVE + src * 12, mask)
    while tokens:
        t = exp_ctz(tokens)
        tokens &= tokens - 1
        if t == TK_NATIVE:
            _or_bits(w, D_MOVE + SRC_NATIVE * 12, native)
        else:
            row = TOKEN_SYMBOL[t]
            P = TOKEN_POWER[t]
            mask = _source_mask(&pm[0], row, P, -1) | (<uint64_t>_source_mask(&pm[1], row, P, -1) << 6)
            _or_bits(w, D_MOVE + (SRC_FIRST_TOKEN + t) * 12, mask)


cdef inline uint32_t _market_mask(const EdState* s) noexcept nogil:
    return _types_mask(s.market) & MARKET_TYPES


cdef void _legal_set(const EdState* s, uint64_t* w) noexcept nogil:
    """The legal decisions as bits of w[0..7] (w[8] is scratch)."""
    cdef const EdSeat* q = &s.seat[s.to_move]
    cdef int t, lo, ge
    cdef uint64_t occ[2 * MAX_SEATS]
    cdef uint32_t hand, tokens, piles, m
    cdef PieceMoves pm
    memset(w, 0, SET_WORDS * sizeof(uint64_t))
    if s.phase == PH_OVER:
        return
    hand = _types_mask(q.hand)
    lo = 0 if s.last == ED_NONE else s.last
    if s.phase == PH_DISCARD:
        _or_bits(w, D_DISCARD + lo, hand >> lo)
        w[D_END >> 6] |= (<uint64_t>1) << (D_END & 63)
        return
    if s.pay_n:
        # X >= the last card paid, and enough cards >= X left to pay the rest in card order
        ge = 0
        for t in range(ED_TYPES - 1, lo - 1, -1):
            ge += q.hand[t]
            if ge >= s.pay_n:
                # the cards lo..t in hand: each leaves enough cards >= it to pay the rest
                _or_bits(w, D_PAY + lo, (hand >> lo) & ((<uint32_t>2 << (t - lo)) - 1))
                return
        return
    if s.replace != ED_NONE:
        if s.replace < MAX_REPLACE:
            _or_bits(w, D_REPLACE + lo, hand >> lo)
        w[D_REPLACE_DONE >> 6] |= (<uint64_t>1) << (D_REPLACE_DONE & 63)
        return
    tokens = _tokens_mask(q.tokens)
    _move_bits(s, q, hand, tokens, w)
    if s.moving != ED_NONE and s.leftover:
        _piece_moves(s, q.piece[s.moving], occ, _occupied(s, occ), &pm)
        _or_bits(w, D_STEP, _symbol_mask(&pm, s.move_symbol, s.leftover if s.leftover <= MAX_POWER else MAX_POWER))
    if not s.bought:
        piles = s.on_board
        if exp_popcount(piles) < MARKET_SLOTS:
            piles = _market_mask(s)
        if piles & PRICE_ABOVE[s.coins]:
            lo = 0 if s.lastcoin == ED_NONE else s.lastcoin
            m = hand | (((tokens >> TK_C1) & 3) << COIN_C1)
            _or_bits(w, D_COIN + lo, m >> lo)
        _or_bits(w, D_BUY, (piles & AFFORD[s.coins]) >> ED_MARKET_FIRST)
    if (hand >> C_TRANSMITTER) & 1:
        _or_bits(w, D_TRANSMIT, _market_mask(s) >> ED_MARKET_FIRST)
    m = (hand >> C_CARTOGRAPHER) & 0xF
    m |= ((tokens >> TK_DRAW) & 0x1F) << 4      # dr! rm! rh! ki! po!
    m |= ((tokens >> TK_CHANGE) & 1) << 9       # cs! (nt is a move source)
    if not hand:
        m &= ~(<uint32_t>3 << 5)                # rm! and rh! need a card in hand
    m &= ~(<uint32_t>(s.flags & (F_KEEP_ITEM | F_PASS_OCCUPIED | F_CHANGE_SYMBOL)) << 7)
    _or_bits(w, D_ACTION, m)
    if s.remove_n:
        lo = 0 if s.last == ED_NONE else s.last
        _or_bits(w, D_REMOVE + lo, hand >> lo)
    _or_bits(w, D_DISCARD, hand)
    w[D_END >> 6] |= (<uint64_t>1) << (D_END & 63)


cdef int ed_legal(const void* sp, int* out) noexcept nogil:
    cdef uint64_t w[SET_WORDS]
    cdef uint64_t x
    cdef int i, n = 0
    _legal_set(<const EdState*>sp, w)
    for i in range(8):
        x = w[i]
        while x:
            out[n] = i * 64 + exp_ctz(x)
            n += 1
            x &= x - 1
    return n


cdef inline int _nth(const uint64_t* w, int r) noexcept nogil:
    """The r-th decision of the set (r below its size)."""
    cdef int i = 0, c
    while True:
        c = exp_popcount(w[i])
        if r < c:
            return i * 64 + exp_select(w[i], r)
        r -= c
        i += 1


cdef inline int _pick(const uint64_t* w, Rng* rng) noexcept nogil:
    """The r-th decision of the set, r = below(size): legal()[below(len)] without the list."""
    cdef int pre[9]
    cdef int i, r, k = 0
    pre[0] = 0
    for i in range(8):
        pre[i + 1] = pre[i] + exp_popcount(w[i])
    r = rng_below(rng, pre[8])
    for i in range(1, 8):
        k += r >= pre[i]
    return k * 64 + exp_select(w[k], r - pre[k])


# ----- a plain move generator, for the tests only (checks the masks of _legal_moves) ---------------

cdef int _plain_target(const EdState* s, const EdMap* m, int pos, int d, int* seen, int* pw) noexcept nogil:
    """The terrain of the target in direction d from hex pos (its power in pw), or -1 when there is
    none: off the map, a mountain, cave or start space, an occupied hex (unless *pass occupied*), or
    a blockade already offered in an earlier direction."""
    cdef int h = m.nb[pos][d], k, b, o, p
    if h < 0:
        return -1
    k = m.cross[pos][d]
    if k >= 0 and s.conn[k]:
        if seen[0] & (1 << k):
            return -1
        seen[0] |= 1 << k
        b = s.conn[k]
        pw[0] = BLOCKADE_POWER[b]
        return BLOCKADE_TERRAIN[b]
    if m.terrain[h] > T_CAMP:
        return -1
    if not (s.flags & F_PASS_OCCUPIED):
        for o in range(s.players):
            for p in range(_npieces(s)):
                if s.seat[o].piece[p] == h:
                    return -1
    pw[0] = m.power[h]
    return m.terrain[h]


cdef int _plain_legal(const EdState* s, int* out) noexcept nogil:
    """ed_legal with the moves and steps found direction by direction, source by source."""
    cdef int all_[MAX_LEGAL]
    cdef int k = ed_legal(s, all_), n = 0, i, src, p, d, terr, pw, seen, sym, P, t, ge, pos
    cdef const EdSeat* q = &s.seat[s.to_move]
    cdef const EdMap* m = &ED_MAPS[s.route]
    cdef bint native, held
    if s.phase != PH_PLAY or s.pay_n or s.replace != ED_NONE:
        for i in range(k):
            out[i] = all_[i]
        return k
    for src in range(N_SOURCES):
        held = q.hand[src] > 0 if src < ED_TYPES else q.tokens[SRC_TOKEN[src]] > 0
        if not held:
            continue
        native = src == C_NATIVE or src == SRC_NATIVE
        sym = SRC_SYMBOL[src]
        P = SRC_POWER[src]
        for p in range(_npieces(s)):
            pos = q.piece[p]
            if pos == ED_ELDORADO:
                continue
            seen = 0
            for d in range(6):
                pw = 0
                terr = _plain_target(s, m, pos, d, &seen, &pw)
                if terr < 0:
                    continue
                if native:
                    pass
                elif terr <= T_COIN:
                    if src < ED_TYPES and (sym == SYM_JOKER or ((s.flags & F_CHANGE_SYMBOL) and P >= 1)):
                        pass
                    elif sym != terr:
                        continue
                    if P < pw:
                        continue
                else:
                    if src >= ED_TYPES:
                        continue
                    ge = 0
                    for t in range(src, ED_TYPES):
                        ge += q.hand[t]
                    if ge < pw:
                        continue
                out[n] = D_MOVE + (src * 2 + p) * 6 + d
                n += 1
    if s.moving != ED_NONE and s.leftover:
        seen = 0
        for d in range(6):
            pw = 0
            terr = _plain_target(s, m, q.piece[s.moving], d, &seen, &pw)
            if terr == s.move_symbol and pw <= s.leftover:
                out[n] = D_STEP + d
                n += 1
    for i in range(k):
        if all_[i] >= D_PAY:
            out[n] = all_[i]
            n += 1
    return n


cdef int ed_random_decision(const void* sp, Rng* rng) noexcept nogil:
    """legal()[below(len)]: the same draw and the same decision."""
    cdef uint64_t w[SET_WORDS]
    _legal_set(<const EdState*>sp, w)
    return _pick(w, rng)


# ----- the random playout ---------------------------------------------------------------------------
# A turn-structured loop that draws the decisions random_decision + apply would (the same r over the
# same ordered set), counting each kind of decision instead of building the set. What the mover's
# pieces may reach changes only when a piece moves, a blockade is taken or a flag changes, so their
# move masks per card type are kept across the decisions of a turn, in the playout's locals (the
# struct does not grow); so are the types in hand, the number of their moves and the hand's size,
# updated from the one count a decision changes. A decision then costs a few popcounts, one draw
# and its own changes; the random choice of its kind is the one branch that cannot be predicted.

cdef uint64_t TYPE_DIRS[ED_ROUTES][256][3]   # byte t: directions a card of type t may move to from the
                                             # hex on the map alone (rows past the map, El Dorado's 255
                                             # among them, stay 0)

cdef enum:
    MV_PLAIN = 0        # no border, rubble or base camp in reach: every card type's masks from the tables
    MV_FIXED = 1        # a border in reach: the masks hold until a piece moves or the turn ends
    MV_HAND = 2         # rubble or a base camp in reach: the masks depend on the hand (worked out per decision)

# The mover's moves per card type, over the decisions of a turn.
ctypedef struct TurnMoves:
    PieceMoves pm[ED_PIECES]   # in full only when a border, rubble or a base camp is in reach; else
                               # hm, allowed and nblk (0), what _symbol_mask reads for a step
    uint8_t m0[24]      # byte t: piece a's directions with a card of type t
    uint8_t m1[24]      # piece b's
    uint8_t s0[24]      # MV_HAND: the part of m0 that does not depend on the hand (all but rubble)
    uint8_t s1[24]
    uint8_t rub0[8]     # MV_HAND: piece a's directions to rubble, base camps or rubble blockades of power
    uint8_t rub1[8]     # <= k (byte k), which a card with k cards >= it in hand may enter; piece b's
    uint32_t known      # the card types whose static bytes hold (all of them on a plain map, else those
                        # met so far)
    int state


cdef void _build_type_dirs():
    cdef int r, h, t
    cdef const HexMoves* x
    memset(TYPE_DIRS, 0, sizeof(TYPE_DIRS))
    for r in range(ED_ROUTES):
        for h in range(ED_MAPS[r].nhex):
            x = &HEX_MOVES[r][h]
            for t in range(ED_TYPES):
                if CARD_ROW[t] <= 3:
                    TYPE_DIRS[r][h][t >> 3] |= (<uint64_t>x.sym[CARD_ROW[t]][CARD_POWER[t]]) << (8 * (t & 7))
                elif t == C_NATIVE:
                    TYPE_DIRS[r][h][t >> 3] |= (<uint64_t>x.native) << (8 * (t & 7))


_build_type_dirs()


cdef inline void _type_masks(TurnMoves* tm, uint32_t types, uint8_t* m0, uint8_t* m1) noexcept nogil:
    """The moves of the card types `types` into m0 / m1, from the pieces' targets (as _move_bits finds
    them, with no change of symbol), but for rubble and base camps (the hand's part, see _hand_masks)."""
    cdef int t, mask
    cdef int native = (tm.pm[0].allowed | tm.pm[0].blk_dirs) | ((tm.pm[1].allowed | tm.pm[1].blk_dirs) << 6)
    while types:
        t = exp_ctz(types)
        types &= types - 1
        if t == C_NATIVE:
            mask = native
        elif CARD_ROW[t] <= 3:
            mask = _symbol_mask(&tm.pm[0], CARD_ROW[t], CARD_POWER[t]) | (
                _symbol_mask(&tm.pm[1], CARD_ROW[t], CARD_POWER[t]) << 6)
        else:
            mask = 0
        m0[t] = mask & 0x3F
        m1[t] = mask >> 6


cdef inline void _hand_masks(const EdSeat* q, TurnMoves* tm, uint32_t hand, int size) noexcept nogil:
    """MV_HAND: the moves of the types in hand (size cards), rubble and base camps included: a card
    of type t may pay for one of power <= the cards of types >= t in hand (Natives enter them free)."""
    cdef int t, rest = size
    if hand & ~tm.known:
        _type_masks(tm, hand & ~tm.known, tm.s0, tm.s1)
        tm.known |= hand
    while hand:
        t = exp_ctz(hand)
        hand &= hand - 1
        if t == C_NATIVE:
            tm.m0[t] = tm.s0[t]
            tm.m1[t] = tm.s1[t]
        else:
            tm.m0[t] = tm.s0[t] | tm.rub0[rest if rest <= MAX_POWER else MAX_POWER]
            tm.m1[t] = tm.s1[t] | tm.rub1[rest if rest <= MAX_POWER else MAX_POWER]
        rest -= q.hand[t]


cdef inline void _rubble_by_power(const PieceMoves* pm, uint8_t* rub) noexcept nogil:
    """rub[k]: the piece's directions to rubble, base camps or rubble blockades of power <= k."""
    cdef int d, spec = pm.rubble
    cdef uint64_t bytes = 0
    while spec:
        d = exp_ctz(spec)
        spec &= spec - 1
        bytes |= ((<uint64_t>1 << d) * <uint64_t>0x0101010101010101ULL) << (8 * pm.spow[d])   # bytes spow..7
    memcpy(rub, &bytes, 8)


cdef extern from *:
    """
    /* Bits 0..5 / 8..13: the directions from hex a / hex b (their NB_BYTES words) to one of the four
       hexes occ[0..3] (each repeated in its 8 bytes; 0xFF: none, it only matches directions off the
       map). Both pieces at once: with SSE2 four byte compares, else per hex and occupant a zero-byte
       test in a word. */
    #if defined(__SSE2__)
    #include <emmintrin.h>
    static inline int ed_dirs_to4(uint64_t nb_a, uint64_t nb_b, const uint64_t* occ) {
        __m128i nb = _mm_set_epi64x((long long)nb_b, (long long)nb_a);
        __m128i eq = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(nb, _mm_set1_epi64x((long long)occ[0])),
                         _mm_cmpeq_epi8(nb, _mm_set1_epi64x((long long)occ[1]))),
            _mm_or_si128(_mm_cmpeq_epi8(nb, _mm_set1_epi64x((long long)occ[2])),
                         _mm_cmpeq_epi8(nb, _mm_set1_epi64x((long long)occ[3]))));
        return _mm_movemask_epi8(eq) & 0x3F3F;
    }
    #else
    static inline uint64_t ed_zero_bytes(uint64_t x) {
        const uint64_t low = 0x7F7F7F7F7F7F7F7FULL;
        return ~(((x & low) + low) | x) & 0x8080808080808080ULL;
    }
    static inline int ed_dirs_to1(uint64_t nb, const uint64_t* occ) {
        uint64_t acc = ed_zero_bytes(nb ^ occ[0]) | ed_zero_bytes(nb ^ occ[1])
                     | ed_zero_bytes(nb ^ occ[2]) | ed_zero_bytes(nb ^ occ[3]);
        return (int)((((acc >> 7) * 0x0102040810204080ULL) >> 56) & 0x3F);
    }
    static inline int ed_dirs_to4(uint64_t nb_a, uint64_t nb_b, const uint64_t* occ) {
        return ed_dirs_to1(nb_a, occ) | (ed_dirs_to1(nb_b, occ) << 8);
    }
    #endif
    """
    int ed_dirs_to4(uint64_t nb_a, uint64_t nb_b, const uint64_t* occ) noexcept nogil


cdef inline void _occupied4(const EdState* s, uint64_t* occ) noexcept nogil:
    """_occupied as four hexes, 0xFF for none."""
    cdef uint64_t ones = <uint64_t>0x0101010101010101ULL
    if s.flags & F_PASS_OCCUPIED:
        occ[0] = occ[1] = occ[2] = occ[3] = ~(<uint64_t>0)
    elif s.players == 2:
        occ[0] = s.seat[0].piece[0] * ones
        occ[1] = s.seat[0].piece[1] * ones
        occ[2] = s.seat[1].piece[0] * ones
        occ[3] = s.seat[1].piece[1] * ones
    else:
        occ[0] = s.seat[0].piece[0] * ones
        occ[1] = s.seat[1].piece[0] * ones
        occ[2] = s.seat[2].piece[0] * ones
        occ[3] = s.seat[3].piece[0] * ones if s.players == 4 else ~(<uint64_t>0)


cdef void _turn_moves_near(const EdState* s, TurnMoves* tm, int p0, int p1, int f0, int f1) noexcept nogil:
    """_turn_moves with a border, rubble or a base camp in reach: the pieces' targets in full (from
    their hexes p0, p1 and the directions f0, f1 no piece takes); the masks are worked out per card
    type as the types are met."""
    _piece_moves_free(s, p0, f0, &tm.pm[0])
    _piece_moves_free(s, p1, f1, &tm.pm[1])
    tm.known = 0
    if tm.pm[0].rubble | tm.pm[1].rubble:
        tm.state = MV_HAND
        _rubble_by_power(&tm.pm[0], tm.rub0)
        _rubble_by_power(&tm.pm[1], tm.rub1)
    else:
        tm.state = MV_FIXED


cdef inline void _turn_moves(const EdState* s, const EdSeat* q, TurnMoves* tm) noexcept nogil:
    """The pieces' targets now and, unless they depend on the hand, the moves per card type."""
    cdef uint64_t occ[4]
    cdef uint64_t a0, a1, m
    cdef const uint64_t* d0
    cdef const uint64_t* d1
    cdef const HexMoves* h0
    cdef const HexMoves* h1
    cdef int i, p0 = q.piece[0], p1 = q.piece[1], f0, f1
    _occupied4(s, occ)
    if s.players != 2:
        p1 = ED_NONE                     # (El Dorado's hex: no neighbours, no moves)
    h0 = &HEX_MOVES[s.route][p0]
    h1 = &HEX_MOVES[s.route][p1]
    i = ed_dirs_to4(NB_BYTES[s.route][p0], NB_BYTES[s.route][p1], occ)
    f0 = h0.native & ~i
    f1 = h1.native & ~(i >> 8)
    if not (h0.border | h1.border | (h0.special & f0) | (h1.special & f1)):
        # the map's masks less the directions taken
        tm.pm[0].hm = h0
        tm.pm[0].allowed = f0
        tm.pm[0].nblk = 0
        tm.pm[1].hm = h1
        tm.pm[1].allowed = f1
        tm.pm[1].nblk = 0
        d0 = TYPE_DIRS[s.route][p0]
        d1 = TYPE_DIRS[s.route][p1]
        a0 = <uint64_t>f0 * <uint64_t>0x0101010101010101ULL
        a1 = <uint64_t>f1 * <uint64_t>0x0101010101010101ULL
        for i in range(3):
            m = d0[i] & a0
            memcpy(&tm.m0[8 * i], &m, 8)
            m = d1[i] & a1
            memcpy(&tm.m1[8 * i], &m, 8)
        tm.state = MV_PLAIN
        tm.known = (<uint32_t>1 << ED_TYPES) - 1
    else:
        _turn_moves_near(s, tm, p0, p1, f0, f1)


cdef inline void _plain_move(EdState* s, EdSeat* q, int src, int p, int d) noexcept nogil:
    """_do_move of card src on a plain map (MV_PLAIN): the target is a jungle, water or village hex
    and no blockade lies on the way."""
    cdef const EdMap* m = &ED_MAPS[s.route]
    cdef int h = m.nb[q.piece[p]][d], left = 0
    s.flags &= ~F_CHANGE_SYMBOL
    if src == C_NATIVE:
        q.hand[src] -= 1
        s.played[src] += 1
    else:
        _use_item(s, q, src)
        left = CARD_POWER[src] - m.power[h]
    s.leftover = left
    s.move_symbol = m.terrain[h] if left else 0
    _arrive(s, q, p, h)


cdef extern from *:
    """
    /* 0xFF in byte j of the word for each bit j of the low 8 bits: one PDEP where the CPU does it fast
       (the condition of exp_select in engine/_core.pxd), else a multiply spreads the bits. */
    #if defined(__BMI2__) && !defined(EXP_SLOW_PDEP)
    #include <immintrin.h>
    static inline uint64_t ed_byte_mask(uint32_t bits) {
        return _pdep_u64(bits & 0xFF, 0x0101010101010101ULL) * 0xFF;
    }
    #else
    static inline uint64_t ed_byte_mask(uint32_t bits) {
        uint64_t x = ((uint64_t)(bits & 0xFF) * 0x0101010101010101ULL) & 0x8040201008040201ULL;
        x = (x + 0x7F7F7F7F7F7F7F7FULL) & 0x8080808080808080ULL;
        return (x >> 7) * 0xFF;
    }
    #endif
    #if defined(__BMI2__) && !defined(EXP_SLOW_PDEP)
    #define ED_FAST_PDEP 1
    #else
    #define ED_FAST_PDEP 0
    #endif
    """
    uint64_t ed_byte_mask(uint32_t bits) noexcept nogil
    bint ED_FAST_PDEP


cdef uint8_t SELECT8[256][8]    # byte k: the index of the k-th set bit of the byte (past its bits: 0)


cdef void _build_select8():
    cdef int x, k, b
    memset(SELECT8, 0, sizeof(SELECT8))
    for x in range(256):
        k = 0
        for b in range(8):
            if (x >> b) & 1:
                SELECT8[x][k] = b
                k += 1


_build_select8()


cdef inline int _select24(uint32_t x, int r) noexcept nogil:
    """exp_select for masks below 2^24 (card types, a piece's directions): without a fast PDEP, the
    byte that holds the r-th bit from two popcounts and the bit from a table, rather than the
    six-step binary search over 64 bits (the selection waits for the draw, after the mispredicted
    branch on the kind)."""
    cdef int c0, c1, b, below
    if ED_FAST_PDEP:
        return exp_select(x, r)
    c0 = exp_popcount(x & 0xFF)
    c1 = exp_popcount(x & 0xFFFF)
    b = (r >= c0) + (r >= c1)
    below = c1 if r >= c1 else (c0 if r >= c0 else 0)
    return 8 * b + SELECT8[(x >> (8 * b)) & 0xFF][r - below]


cdef uint64_t BYTE_MASK[256]     # 0xFF in byte j for each bit j of the index (ed_byte_mask by a table)


cdef void _build_byte_mask():
    cdef int x
    for x in range(256):
        BYTE_MASK[x] = ed_byte_mask(x)


_build_byte_mask()


cdef inline int _moves_of(const TurnMoves* tm, uint32_t hand) noexcept nogil:
    """The number of moves of the card types in hand (bit t: type t held)."""
    cdef uint64_t a, b, held
    cdef int i, n = 0
    for i in range(3):
        # without a fast PDEP, one load rather than the multiplies that spread the bits
        held = ed_byte_mask(hand >> (8 * i)) if ED_FAST_PDEP else BYTE_MASK[(hand >> (8 * i)) & 0xFF]
        memcpy(&a, &tm.m0[8 * i], 8)
        memcpy(&b, &tm.m1[8 * i], 8)
        n += exp_popcount(a & held) + exp_popcount(b & held)
    return n


cdef inline uint32_t _played(const EdSeat* q, uint32_t hand, int t) noexcept nogil:
    """The hand's types after a card of type t left it (read from the one count the play changed:
    the hand is kept as bits across decisions, not read back a word at a time after byte writes)."""
    return hand & ~(<uint32_t>(q.hand[t] == 0) << t)


cdef inline int _move_of(const TurnMoves* tm, uint32_t hand, int r) noexcept nogil:
    """The r-th move (decision id) of the card types in hand."""
    cdef int t = 0, c
    cdef uint32_t mask = 0
    while hand:
        t = exp_ctz(hand)
        hand &= hand - 1
        mask = tm.m0[t] | (<uint32_t>tm.m1[t] << 6)
        c = exp_popcount(mask)
        if r < c:
            break
        r -= c
    return D_MOVE + t * 12 + _select24(mask, r)


cdef inline bint _needs_set(const EdState* s, const EdSeat* q) noexcept nogil:
    """Whether the play phase's next decision is drawn from the set: a payment owed, or (caves only)
    a replacement, a change of symbol or a token held."""
    return s.pay_n or (s.caves and (s.replace != ED_NONE or s.flags & F_CHANGE_SYMBOL or _tokens_mask(q.tokens)))


cdef inline int _step_mask(const EdState* s, const TurnMoves* tm) noexcept nogil:
    """The directions the moving piece may step to with its leftover (0 without one: no hex or
    blockade has power 0, so a leftover of 0 reaches nothing; no branch on it, it is random)."""
    cdef int mask = _symbol_mask(&tm.pm[s.moving & 1], s.move_symbol,
                                 s.leftover if s.leftover <= MAX_POWER else MAX_POWER)
    return mask if s.moving != ED_NONE else 0


cdef inline int _discard_phase(EdState* s, EdSeat* q, Rng* rng, uint32_t hand, int size) noexcept nogil:
    """The discard phase to the end of the turn (hand: the types held, size cards); returns the
    decisions. Its legal decisions are the cards >= the last discarded, then the end: nothing moves
    and no removal is open, so they apply directly."""
    cdef uint32_t cards
    cdef int c, r, t, n = 0, none = 0
    while True:
        n += 1
        cards = (hand >> s.last) << s.last
        c = exp_popcount(cards)
        r = rng_below(rng, c + 1)
        if r == c:
            _close_turn(s, size, NULL, &none)
            return n
        t = _select24(cards, r)
        _discard(s, q, t)
        hand = _played(q, hand, t)
        size -= 1


cdef int ed_playout(void* sp, Rng* rng) noexcept nogil:
    """Uniformly random decisions to the end of the game (the games random_decision + apply play).
    A turn's play phase counts each kind of decision as _legal_set would list it and applies the
    r-th directly, its moves (TurnMoves), the types in hand and their number of moves kept across
    decisions; a payment owed and the caves' tokens and flags are drawn from the set."""
    cdef EdState* s = <EdState*>sp
    cdef TurnMoves tm
    cdef uint64_t w[SET_WORDS]
    cdef EdSeat* q
    cdef uint32_t hand, piles, coin, buy, gone
    cdef int n = 0, none = 0, r, d, t, lo, step, nm, size, c1, c2, c3, c4, c5
    while s.phase != PH_OVER:
        q = &s.seat[s.to_move]
        if s.phase == PH_DISCARD:
            n += _discard_phase(s, q, rng, _types_mask(q.hand), _types_sum(q.hand))
            continue
        if _needs_set(s, q):
            n += 1
            _legal_set(s, w)
            _apply(s, _pick(w, rng), NULL, &none)
            continue
        _turn_moves(s, q, &tm)
        step = _step_mask(s, &tm)
        piles = s.on_board      # the piles a purchase may take: only a purchase (the last one of the
        if exp_popcount(piles) < MARKET_SLOTS:      # turn) or a transmission (from the set) changes them
            piles = _market_mask(s)
        hand = _types_mask(q.hand)
        size = _types_sum(q.hand)
        nm = _moves_of(&tm, hand)
        while True:
            # one decision of the play phase; the loop is left when the turn ends or the set is needed
            n += 1
            if tm.state != MV_PLAIN:
                # next to a border, rubble or a base camp: the types' masks as they are met (rubble:
                # for the hand as it is now)
                if tm.state == MV_HAND:
                    _hand_masks(q, &tm, hand, size)
                elif hand & ~tm.known:
                    _type_masks(&tm, hand & ~tm.known, tm.m0, tm.m1)
                    tm.known |= hand
                nm = _moves_of(&tm, hand)
            # the other kinds in id order: step, coins, buy, then transmit / actions / removal, discard, end
            coin = 0
            buy = 0
            if not s.bought:
                if piles & PRICE_ABOVE[s.coins]:
                    lo = 0 if s.lastcoin == ED_NONE else s.lastcoin
                    coin = (hand >> lo) << lo
                buy = piles & AFFORD[s.coins]
            c1 = nm + exp_popcount(step)
            c2 = c1 + exp_popcount(coin)
            c3 = c2 + exp_popcount(buy)
            c4 = c3
            if (hand >> C_TRANSMITTER) & 0x1F or s.remove_n:
                # transmissions, action cards, removals: rare, applied from the set when drawn
                if (hand >> C_TRANSMITTER) & 1:
                    c4 += exp_popcount(_market_mask(s))
                c4 += exp_popcount((hand >> C_CARTOGRAPHER) & 0xF)
                if s.remove_n:
                    lo = 0 if s.last == ED_NONE else s.last
                    c4 += exp_popcount(hand >> lo)
            c5 = c4 + exp_popcount(hand)
            r = rng_below(rng, c5 + 1)
            if r < c1:
                if r < nm:
                    d = _move_of(&tm, hand, r)
                    _settle(s)
                    if tm.state == MV_PLAIN:
                        _plain_move(s, q, d // 12, (d // 6) & 1, d % 6)
                    else:
                        _do_move(s, d // 12, (d // 6) & 1, d % 6)
                    hand = _played(q, hand, d // 12)
                    size -= 1
                else:
                    _apply(s, D_STEP + _select24(step, r - nm), NULL, &none)
                if _needs_set(s, q):      # a payment owed (or tokens found)
                    break
                _turn_moves(s, q, &tm)
                step = _step_mask(s, &tm)
                nm = _moves_of(&tm, hand)
                continue
            if r < c3:
                _settle(s)
                if r < c2:
                    t = _select24(coin, r - c1)
                    _play_coin(s, q, t)
                    gone = <uint32_t>(q.hand[t] == 0)
                    hand &= ~(gone << t)
                    nm -= gone * exp_popcount(tm.m0[t] | (<uint32_t>tm.m1[t] << 6))
                    size -= 1
                else:
                    _buy(s, q, _select24(buy, r - c2))
                step = 0
                if s.caves and _needs_set(s, q):   # tokens found by the stop
                    break
                continue
            if r < c4:
                _legal_set(s, w)
                _apply(s, _nth(w, r), NULL, &none)
                break
            _settle(s)
            if r < c5:
                t = _select24(hand, r - c4)
                _discard(s, q, t)
                n += _discard_phase(s, q, rng, _played(q, hand, t), size - 1)
            else:
                _close_turn(s, size, NULL, &none)
            break
    return n


# ----- the game interface ---------------------------------------------------------------------------

cdef void ed_blank(EdState* s, int players, const int* options) noexcept nogil:
    """A game for `players` with its rule options (values in the order of OPTION_SPECS) and nothing
    else: no card, piece, blockade or token placed; the turn at rest, seat 0 to play."""
    memset(s, 0, sizeof(EdState))
    s.players = players
    s.route = options[0]
    s.caves = options[1]
    s.max_rounds = options[2]
    s.phase = PH_PLAY
    s.to_move = 0
    s.lastcoin = ED_NONE
    s.moving = ED_NONE
    s.replace = ED_NONE
    s.last = ED_NONE


cdef int ed_options(const void* sp, int* out) noexcept nogil:
    cdef const EdState* s = <const EdState*>sp
    out[0] = s.route
    out[1] = s.caves
    out[2] = s.max_rounds
    return 3


cdef void ed_reset(void* sp, uint64_t seed) noexcept nogil:
    """A new game with the same players and options, dealt from `seed` (docs/eldorado.md "Dealing")."""
    cdef EdState* s = <EdState*>sp
    cdef int options[3]
    cdef uint8_t order[ED_CAVE_TOKENS]
    cdef const EdMap* m
    cdef EdSeat* q
    cdef int k, i, t
    cdef Rng rng
    ed_options(s, options)
    ed_blank(s, s.players, options)
    m = &ED_MAPS[s.route]
    rng.x = seed
    for i in range(ED_BLOCKADES):
        order[i] = i + 1
    _shuffle(order, ED_BLOCKADES, &rng)
    for k in range(m.nconn):
        s.conn[k] = order[k]
    if s.caves:
        memcpy(order, TOKEN_ORDER, ED_CAVE_TOKENS)
        _shuffle(order, ED_CAVE_TOKENS, &rng)
        for k in range(m.ncaves):
            for i in range(ED_PILE):
                s.cave[k][i] = order[ED_PILE * k + i]
            s.cave_n[k] = ED_PILE
        for i in range(ED_PILE * m.ncaves, ED_CAVE_TOKENS):
            s.box[order[i]] += 1
    for k in range(s.players):
        q = &s.seat[k]
        memcpy(q.draw, STARTING_ORDER, STARTING_N)
        _shuffle(q.draw, STARTING_N, &rng)
        q.draw_n = STARTING_N
        _draw(s, q, HAND_SIZE, NULL, 0)
    s.rng = rng.x
    for t in range(ED_MARKET_FIRST, ED_TYPES):
        s.market[t] = CARD_COPIES[t]
    s.on_board = MARKET_START
    if s.players == 2:
        s.seat[0].piece[0] = m.start[0]
        s.seat[0].piece[1] = m.start[2]
        s.seat[1].piece[0] = m.start[1]
        s.seat[1].piece[1] = m.start[3]
    else:
        for k in range(s.players):
            s.seat[k].piece[0] = m.start[k]


cdef int ed_num_seats(const void* sp) noexcept nogil:
    return (<const EdState*>sp).players


cdef int ed_team_of(const void* sp, int seat) noexcept nogil:
    return seat


cdef int ed_to_move(const void* sp) noexcept nogil:
    cdef const EdState* s = <const EdState*>sp
    return -1 if s.phase == PH_OVER else s.to_move


cdef int ed_round_index(const void* sp) noexcept nogil:
    # The game is one long round (GameOps.rounds 1): its record is one history, and a searcher
    # keeps its tree across turns. The rounds of the rules (turn // players) are the field `turn`.
    return 0


cdef int ed_rounds(const void* sp) noexcept nogil:
    return 1


cdef inline bint _finished(const EdState* s, int seat) noexcept nogil:
    cdef int p
    for p in range(_npieces(s)):
        if s.seat[seat].piece[p] != ED_ELDORADO:
            return False
    return True


cdef inline int _rank(const EdState* s, int seat) noexcept nogil:
    """-1 for a seat that has not finished; else its blockades, then its best blockade."""
    cdef int b, top = 0
    if not _finished(s, seat):
        return -1
    for b in range(1, ED_BLOCKADES + 1):
        if (s.seat[seat].held >> (b - 1)) & 1 and BLOCKADE_POWER[b] * 16 + b > top:
            top = BLOCKADE_POWER[b] * 16 + b
    return exp_popcount(s.seat[seat].held) * 4096 + top


cdef void ed_returns(const void* sp, double* out) noexcept nogil:
    """The best finished seats (most blockades, then the best blockade: power, then number) share
    the win, 1/k each; nobody finished: 1/n each. Judged on the position as it stands (final once
    the game is over)."""
    cdef const EdState* s = <const EdState*>sp
    cdef int key[MAX_SEATS]
    cdef int i, best = -1, k = 0
    for i in range(s.players):
        key[i] = _rank(s, i)
        if key[i] > best:
            best = key[i]
            k = 0
        if key[i] == best:
            k += 1
    for i in range(s.players):
        out[i] = 1.0 / k if key[i] == best else 0.0


cdef void ed_scores(const void* sp, double* out) noexcept nogil:
    """Whole numbers ranked as the returns: 2 for a winner, 1 for a seat that finished but lost the
    tie-break, 0 otherwise."""
    cdef const EdState* s = <const EdState*>sp
    cdef int i
    ed_returns(sp, out)
    for i in range(s.players):
        out[i] = (2.0 if out[i] > 0 else 1.0) if _finished(s, i) else 0.0


cdef int ed_reveal(const void* sp, int d, int* out) noexcept nogil:
    """The cards d draws for its mover, in order: d applied to a copy (a reshuffle's order comes
    from the position's generator, so the copy draws the same cards)."""
    cdef const EdState* s = <const EdState*>sp
    cdef EdState after
    cdef int n = 0
    if not (D_ACTION <= d <= D_ACTION + 4 or d == D_REPLACE_DONE or d == D_END):
        return 0
    memcpy(&after, s, sizeof(EdState))
    _apply(&after, d, out, &n)
    return n


cdef void ed_determinize(void* sp, int seat, Rng* rng) noexcept nogil:
    """Deals again what `seat` cannot see (docs/eldorado.md "Views"): each other seat's hand and
    draw pile together (to the same sizes), the order of its own draw pile, the tokens of the cave
    piles and the box together (to the same pile sizes); the generator is drawn anew."""
    cdef EdState* s = <EdState*>sp
    cdef uint8_t pool[2 * ED_DECK]
    cdef EdSeat* q
    cdef int o, t, c, n, k, i, hidden
    for o in range(s.players):
        q = &s.seat[o]
        if o == seat:
            _shuffle(q.draw, q.draw_n, rng)
            continue
        n = 0
        for t in range(ED_TYPES):
            for c in range(q.hand[t]):
                pool[n] = t
                n += 1
        hidden = n
        for i in range(q.draw_n):
            pool[n] = q.draw[i]
            n += 1
        _shuffle(pool, n, rng)
        memset(q.hand, 0, sizeof(q.hand))
        for i in range(hidden):
            q.hand[pool[i]] += 1
        for i in range(hidden, n):
            q.draw[i - hidden] = pool[i]
    if s.caves:
        n = 0
        for k in range(ED_MAX_CAVES):
            for i in range(s.cave_n[k]):
                pool[n] = s.cave[k][i]
                n += 1
        for t in range(ED_TOKENS):
            for c in range(s.box[t]):
                pool[n] = t
                n += 1
        _shuffle(pool, n, rng)
        i = 0
        for k in range(ED_MAX_CAVES):
            for c in range(s.cave_n[k]):
                s.cave[k][c] = pool[i]
                i += 1
        memset(s.box, 0, sizeof(s.box))
        while i < n:
            s.box[pool[i]] += 1
            i += 1
    s.rng = rng_next(rng)


cdef GameOps OPS


cdef const GameOps* ed_ops() noexcept nogil:
    """The rules table of `eldorado`."""
    return &OPS


cdef void _build_ops():
    OPS.name = b"eldorado"
    OPS.state_size = sizeof(EdState)
    OPS.num_decision_ids = N_DECISIONS
    OPS.num_seats = ed_num_seats
    OPS.team_of = ed_team_of
    OPS.to_move = ed_to_move
    OPS.round_index = ed_round_index
    OPS.rounds = ed_rounds
    OPS.legal = ed_legal
    OPS.apply = ed_apply
    OPS.random_decision = ed_random_decision
    OPS.scores = ed_scores
    OPS.returns = ed_returns
    OPS.determinize = ed_determinize
    OPS.reveal = ed_reveal
    OPS.playout = ed_playout
    OPS.reset = ed_reset
    OPS.margin = 0
    OPS.options = ed_options
    OPS.load_view = NULL
    OPS.decision_text = NULL


_build_ops()
RULES = rules_of(&OPS)
"""The rules as the Python object the edition's record carries."""

OPTION_SPECS = (
    OptionSpec("route", 0, 0, ED_ROUTES - 1, "the map", ROUTE_NAMES),
    OptionSpec("caves", 0, 0, 1, "the caves variant: cave tokens on the mountains marked as caves"),
    OptionSpec("max_rounds", 100, 1, 1000, "rounds before the game ends without a winner"),
)
"""The rule options in the order of `ed_options` (and of the notation's header)."""
SEATS = (2, 3, 4)
"""The numbers of players the game is played with (a field of the state, not a rule option)."""


def state_size() -> int:
    """Bytes of the C state (EdState): its fields with no implicit padding."""
    return sizeof(EdState)


# ===== a minimal Python face for the rules' tests (tests/test_eldorado_rules.py) ====================
# The real face with the notation is engine/eldorado/state.pyx; these drive the compiled rules with
# decision ids and the raw struct only.

cdef class _TestState(State):
    """A position driven by decision ids (State's legal/apply/perft/playout/determinized...)."""

    def decision_to_text(self, int d) -> str:
        return str(d)

    @property
    def phase(self) -> str:
        return ("play", "discard", "over")[(<EdState*>self.ptr).phase]


cdef _TestState _adopt(const EdState* s):
    cdef _TestState st = _TestState.__new__(_TestState)
    st._adopt(&OPS, s)
    return st


def _new(seed, int players=2, options=None) -> _TestState:
    """A new game dealt from `seed` (options by name, validated)."""
    cdef EdState s
    cdef int values[3]
    if players not in SEATS:
        raise ValueError(f"eldorado is played by 2, 3 or 4 players, not {players}")
    opts = resolve_options(OPTION_SPECS, options or {}, "eldorado")
    for k, spec in enumerate(OPTION_SPECS):
        values[k] = opts[spec.name]
    ed_blank(&s, players, values)
    ed_reset(&s, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
    return _adopt(&s)


cdef list _u8(const uint8_t* a, int n):
    return [a[i] for i in range(n)]


cdef int _set_u8(uint8_t* a, int n, values) except -1:
    if len(values) != n:
        raise ValueError(f"expected {n} values, got {len(values)}")
    for i in range(n):
        a[i] = values[i]
    return 0


def _struct(State st) -> dict:
    """The C state as a dict (field names of rules.pxd; arrays as lists, `seat` a list of dicts;
    padding left out)."""
    if st.ops != &OPS:
        raise TypeError("not an eldorado state")
    cdef EdState* s = <EdState*>st.ptr
    cdef EdSeat* q
    out = {"rng": s.rng, "on_board": s.on_board, "turn": s.turn, "max_rounds": s.max_rounds, "route": s.route,
           "caves": s.caves, "players": s.players, "phase": s.phase, "to_move": s.to_move, "final": s.final,
           "market": _u8(s.market, ED_TYPES), "conn": _u8(s.conn, ED_MAX_CONN), "cave_n": _u8(s.cave_n, ED_MAX_CAVES),
           "cave": [_u8(s.cave[k], ED_PILE) for k in range(ED_MAX_CAVES)], "box": _u8(s.box, ED_TOKENS),
           "played": _u8(s.played, ED_TYPES), "coins": s.coins, "bought": s.bought, "lastcoin": s.lastcoin,
           "moving": s.moving, "move_symbol": s.move_symbol, "leftover": s.leftover, "pay_n": s.pay_n,
           "pay_kind": s.pay_kind, "remove_n": s.remove_n, "replace": s.replace, "last": s.last, "flags": s.flags}
    seats = []
    for k in range(MAX_SEATS):
        q = &s.seat[k]
        seats.append({"hand": _u8(q.hand, ED_TYPES), "discard": _u8(q.discard, ED_TYPES),
                      "removed": _u8(q.removed, ED_TYPES), "tokens": _u8(q.tokens, ED_TOKENS),
                      "draw": _u8(q.draw, ED_DECK), "draw_n": q.draw_n, "piece": _u8(q.piece, ED_PIECES),
                      "explored": _u8(q.explored, ED_PIECES), "held": q.held})
    out["seat"] = seats
    return out


def _load(dict fields) -> _TestState:
    """A state from a dict like `_struct` gives (tests build positions with it); padding is zero."""
    cdef EdState s
    cdef EdSeat* q
    f = fields
    memset(&s, 0, sizeof(EdState))
    s.rng = f["rng"]
    s.on_board = f["on_board"]
    s.turn = f["turn"]
    s.max_rounds = f["max_rounds"]
    s.route = f["route"]
    s.caves = f["caves"]
    s.players = f["players"]
    s.phase = f["phase"]
    s.to_move = f["to_move"]
    s.final = f["final"]
    s.coins = f["coins"]
    s.bought = f["bought"]
    s.lastcoin = f["lastcoin"]
    s.moving = f["moving"]
    s.move_symbol = f["move_symbol"]
    s.leftover = f["leftover"]
    s.pay_n = f["pay_n"]
    s.pay_kind = f["pay_kind"]
    s.remove_n = f["remove_n"]
    s.replace = f["replace"]
    s.last = f["last"]
    s.flags = f["flags"]
    _set_u8(s.market, ED_TYPES, f["market"])
    _set_u8(s.conn, ED_MAX_CONN, f["conn"])
    _set_u8(s.cave_n, ED_MAX_CAVES, f["cave_n"])
    for k in range(ED_MAX_CAVES):
        _set_u8(s.cave[k], ED_PILE, f["cave"][k])
    _set_u8(s.box, ED_TOKENS, f["box"])
    _set_u8(s.played, ED_TYPES, f["played"])
    for k in range(MAX_SEATS):
        q = &s.seat[k]
        g = f["seat"][k]
        _set_u8(q.hand, ED_TYPES, g["hand"])
        _set_u8(q.discard, ED_TYPES, g["discard"])
        _set_u8(q.removed, ED_TYPES, g["removed"])
        _set_u8(q.tokens, ED_TOKENS, g["tokens"])
        _set_u8(q.draw, ED_DECK, g["draw"])
        _set_u8(q.piece, ED_PIECES, g["piece"])
        _set_u8(q.explored, ED_PIECES, g["explored"])
        q.draw_n = g["draw_n"]
        q.held = g["held"]
    return _adopt(&s)


def _bytes(State st) -> bytes:
    """The C state's bytes."""
    if st.ops != &OPS:
        raise TypeError("not an eldorado state")
    return (<char*>st.ptr)[:sizeof(EdState)]


def _plain_legal_ids(State st) -> list:
    """The legal decisions with moves and steps found the plain way (a check of ed_legal)."""
    cdef int out[MAX_LEGAL]
    if (<EdState*>st.ptr).phase == PH_OVER:
        return []
    cdef int n = _plain_legal(<EdState*>st.ptr, out)
    return [out[i] for i in range(n)]


def _reveal(State st, int d) -> tuple:
    """The cards decision d would draw for its mover (GameOps.reveal)."""
    cdef int out[MAX_REVEAL]
    cdef int n = ed_reveal(st.ptr, d, out)
    return tuple([out[i] for i in range(n)])


cdef set _bits(const uint64_t* b):
    return {h for h in range(ED_MAX_HEXES) if (b[h >> 6] >> (h & 63)) & 1}


def _map(int route) -> dict:
    """ED_MAPS[route] as Python values (bitboards as sets of hexes), for the tests."""
    if not 0 <= route < ED_ROUTES:
        raise ValueError(f"route is 0..{ED_ROUTES - 1}")
    cdef const EdMap* m = &ED_MAPS[route]
    return {"nhex": m.nhex, "nconn": m.nconn, "ncaves": m.ncaves,
            "enter": [[_bits(m.enter[s][p]) for p in range(7)] for s in range(3)],
            "special": _bits(m.special), "open": _bits(m.open_), "finishing": _bits(m.finishing),
            "nb": [[m.nb[h][d] for d in range(6)] for h in range(m.nhex)],
            "cross": [[m.cross[h][d] for d in range(6)] for h in range(m.nhex)],
            "terrain": [m.terrain[h] for h in range(m.nhex)], "power": [m.power[h] for h in range(m.nhex)],
            "cave_adj": [m.cave_adj[h] for h in range(m.nhex)], "start": [m.start[k] for k in range(4)],
            "cave_hex": [m.cave_hex[k] for k in range(m.ncaves)]}
