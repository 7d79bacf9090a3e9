# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The observation tensor of `eldorado`: one seat's view of an `EdState` as floats (docs/rl.md lists
the fields; `OBSERVATION.fields` describes them).

The layout has room for four seats whatever the number of players: block 0 of a per-seat field is
the viewer, then the seats in turn order, and the blocks of absent seats stay zero. Another seat's
hand and draw pile are one set (`unseen`), as in its view; the viewer's own draw pile is a set too
(its order is hidden). The map is not in the tensor: it is a function of the route (one-hot).
`ed_update` brings the tensor of a seat up to date from the state it was written from, rewriting the
seats whose cards or pieces changed and the public entries.

>>> OBSERVATION.size, OBSERVATION.fields[0].name
(2464, 'hand')
"""
from libc.string cimport memset
from libc.stdint cimport uint8_t

from engine._core cimport MAX_SEATS
from engine.eldorado.rules cimport (EdState, EdSeat, ED_TYPES, ED_TOKENS, ED_MAX_HEXES, ED_MAX_CONN, ED_MAX_CAVES,
                                   ED_BLOCKADES, ED_ROUTES, ED_PIECES, ED_DECK, ED_ELDORADO, ED_NONE, PH_PLAY,
                                   PH_DISCARD,
                                   T_RUBBLE, F_KEEP_ITEM, F_PASS_OCCUPIED, F_CHANGE_SYMBOL)
from engine.observation cimport Observation, observation_of, same_bytes

from engine.observation import layout

S = MAX_SEATS
N_COIN_SOURCES = ED_TYPES + 2
FIELDS = layout([
    ("hand", (ED_TYPES,), "cards of each type (data order) in the viewer's hand"),
    ("draw", (ED_TYPES,), "cards of each type in the viewer's draw pile (its order is hidden)"),
    ("unseen", (S - 1, ED_TYPES), "per other seat (turn order from the next): its hand and draw pile together"),
    ("hand_size", (S,), "per seat from the viewer: cards in hand"),
    ("draw_size", (S,), "per seat: cards in the draw pile"),
    ("discard", (S, ED_TYPES), "per seat: its discard pile"),
    ("removed", (S, ED_TYPES), "per seat: cards it removed from the game"),
    ("tokens", (S, ED_TOKENS), "per seat: its cave tokens of each kind"),
    ("held", (S, ED_BLOCKADES), "per seat: the blockades (1..6) it holds"),
    ("pieces", (S, ED_PIECES, ED_MAX_HEXES + 1), "per seat and piece: one-hot, its hex (the last entry: "
                                                  "El Dorado); zeros for a piece it does not have"),
    ("explored", (S, ED_PIECES, ED_MAX_CAVES), "per seat and piece: the caves it explored"),
    ("market", (ED_TYPES,), "cards left in each market pile"),
    ("on_board", (ED_TYPES,), "1 for the piles on the market board"),
    ("blockades", (ED_MAX_CONN, ED_BLOCKADES), "per connection: one-hot, the blockade still on it"),
    ("cave_size", (ED_MAX_CAVES,), "tokens in each cave pile"),
    ("cave_pool", (ED_TOKENS,), "the tokens of the cave piles and the box together (which is where is hidden)"),
    ("played", (ED_TYPES,), "the cards the seat to move played this turn"),
    ("turn_state", (8,), "coins (halves), cards bought, leftover power, cards owed, the removal right, "
                         "cards replaced (0 when not replacing), 1 while replacing, final round"),
    ("pay_kind", (2,), "one-hot: the cards owed pay for rubble, for a base camp"),
    ("lastcoin", (N_COIN_SOURCES,), "one-hot: the last coin source (card types, then two tokens)"),
    ("moving", (ED_PIECES,), "one-hot: the piece moving with leftover power"),
    ("move_symbol", (3,), "one-hot: the leftover's symbol (machete, paddle, coin)"),
    ("last", (ED_TYPES,), "one-hot: the card type of the chain marker"),
    ("flags", (3,), "keep an item, pass occupied spaces, change a symbol: the action effects in force"),
    ("phase", (2,), "one-hot: play; discard (zeros once the game is over)"),
    ("to_move", (S,), "one-hot: the seat to move, relative to the viewer"),
    ("players", (3,), "one-hot: 2, 3 or 4 players"),
    ("route", (ED_ROUTES,), "one-hot: the route (the map)"),
    ("rounds", (3,), "turns played, the round limit, 1 with caves"),
])
"""The fields in order."""

cdef dict _BY = {f.name: f.offset for f in FIELDS}
cdef int O_HAND = _BY["hand"], O_DRAW = _BY["draw"], O_UNSEEN = _BY["unseen"], O_HAND_SIZE = _BY["hand_size"]
cdef int O_DRAW_SIZE = _BY["draw_size"], O_DISCARD = _BY["discard"], O_REMOVED = _BY["removed"]
cdef int O_TOKENS = _BY["tokens"], O_HELD = _BY["held"], O_PIECES = _BY["pieces"], O_EXPLORED = _BY["explored"]
cdef int O_MARKET = _BY["market"], O_ON_BOARD = _BY["on_board"], O_BLOCKADES = _BY["blockades"]
cdef int O_CAVE_SIZE = _BY["cave_size"], O_CAVE_POOL = _BY["cave_pool"], O_PLAYED = _BY["played"]
cdef int O_TURN_STATE = _BY["turn_state"], O_PAY_KIND = _BY["pay_kind"], O_LASTCOIN = _BY["lastcoin"]
cdef int O_MOVING = _BY["moving"], O_MOVE_SYMBOL = _BY["move_symbol"], O_LAST = _BY["last"]
cdef int O_FLAGS = _BY["flags"], O_PHASE = _BY["phase"], O_TO_MOVE = _BY["to_move"], O_PLAYERS = _BY["players"]
cdef int O_ROUTE = _BY["route"], O_ROUNDS = _BY["rounds"]
cdef int SIZE = sum(f.size for f in FIELDS)


cdef inline int _hex(int h) noexcept nogil:
    """A piece's entry in its one-hot block (the last entry: El Dorado)."""
    return ED_MAX_HEXES if h == ED_ELDORADO else h


cdef inline void _write_hand(const EdSeat* e, float* out) noexcept nogil:
    """The viewer's hand and its size."""
    cdef int t, size = 0
    for t in range(ED_TYPES):
        size += e.hand[t]
        out[O_HAND + t] = e.hand[t]
    out[O_HAND_SIZE] = size


cdef inline void _write_draw(const EdSeat* e, float* out) noexcept nogil:
    """The contents (not the order) of the viewer's draw pile, and its size."""
    cdef int k
    memset(out + O_DRAW, 0, ED_TYPES * sizeof(float))
    for k in range(e.draw_n):
        out[O_DRAW + e.draw[k]] += 1
    out[O_DRAW_SIZE] = e.draw_n


cdef inline void _write_cards(const EdSeat* e, int j, float* out) noexcept nogil:
    """The seat's hand and draw pile: the viewer's apart, another seat's as one set (unseen)."""
    cdef int t, k, size = 0
    cdef float* unseen = out + O_UNSEEN + (j - 1) * ED_TYPES
    if j == 0:
        _write_hand(e, out)
        _write_draw(e, out)
        return
    for t in range(ED_TYPES):
        size += e.hand[t]
        unseen[t] = e.hand[t]
    for k in range(e.draw_n):
        unseen[e.draw[k]] += 1
    out[O_HAND_SIZE + j] = size
    out[O_DRAW_SIZE + j] = e.draw_n


cdef inline void _write_counts(float* out, const uint8_t* counts) noexcept nogil:
    cdef int t
    for t in range(ED_TYPES):
        out[t] = counts[t]


cdef inline void _write_piles(const EdSeat* e, int j, float* out) noexcept nogil:
    _write_counts(out + O_DISCARD + j * ED_TYPES, e.discard)
    _write_counts(out + O_REMOVED + j * ED_TYPES, e.removed)


cdef inline void _write_items(const EdSeat* e, int j, float* out) noexcept nogil:
    cdef int t
    for t in range(ED_TOKENS):
        out[O_TOKENS + j * ED_TOKENS + t] = e.tokens[t]
    for t in range(ED_BLOCKADES):
        out[O_HELD + j * ED_BLOCKADES + t] = (e.held >> t) & 1


cdef inline void _mark_pieces(const EdSeat* e, int j, int npieces, float* out, float v) noexcept nogil:
    """Sets (v = 1) or clears (v = 0) the pieces' one-hot entries."""
    cdef int p
    for p in range(npieces):
        out[O_PIECES + (j * ED_PIECES + p) * (ED_MAX_HEXES + 1) + _hex(e.piece[p])] = v


cdef inline void _write_explored(const EdSeat* e, int j, int npieces, float* out) noexcept nogil:
    cdef int p, k
    for p in range(npieces):
        for k in range(ED_MAX_CAVES):
            out[O_EXPLORED + (j * ED_PIECES + p) * ED_MAX_CAVES + k] = (e.explored[p] >> k) & 1


cdef inline void _write_pieces(const EdSeat* e, int j, int npieces, float* out, float v) noexcept nogil:
    """Sets (v = 1) or clears (v = 0) the pieces' one-hot entries; writes what they explored."""
    _mark_pieces(e, j, npieces, out, v)
    _write_explored(e, j, npieces, out)


cdef inline void _write_seat(const EdSeat* e, int j, int npieces, float* out) noexcept nogil:
    """Writes the blocks of the seat j places after the viewer but its pieces' old entries (cleared
    by the caller: the tensor is zero, or the update clears them)."""
    _write_cards(e, j, out)
    _write_piles(e, j, out)
    _write_items(e, j, out)
    _write_pieces(e, j, npieces, out, 1)


cdef inline void _update_seat(const EdSeat* a, const EdSeat* e, int j, int npieces, float* out) noexcept nogil:
    """Brings block j from seat `a` to seat `e`, rewriting the parts that differ."""
    cdef bint hand = same_bytes(a.hand, e.hand, ED_TYPES)
    cdef bint draw = a.draw_n == e.draw_n and same_bytes(a.draw, e.draw, ED_DECK)
    if j:                                # another seat's hand and draw pile are one set
        if not (hand and draw):
            _write_cards(e, j, out)
    else:                                # the viewer's apart
        if not hand:
            _write_hand(e, out)
        if not draw:
            _write_draw(e, out)
    if not same_bytes(a.discard, e.discard, ED_TYPES):
        _write_counts(out + O_DISCARD + j * ED_TYPES, e.discard)
    if not same_bytes(a.removed, e.removed, ED_TYPES):
        _write_counts(out + O_REMOVED + j * ED_TYPES, e.removed)
    if not (same_bytes(a.tokens, e.tokens, ED_TOKENS) and a.held == e.held):
        _write_items(e, j, out)
    if not same_bytes(a.piece, e.piece, ED_PIECES):
        _mark_pieces(a, j, npieces, out, 0)   # cleared first: two pieces may share a hex
        _mark_pieces(e, j, npieces, out, 1)
    if not same_bytes(a.explored, e.explored, ED_PIECES):
        _write_explored(e, j, npieces, out)


cdef inline void _write_caves(const EdState* s, float* out) noexcept nogil:
    cdef int k, p
    memset(out + O_CAVE_POOL, 0, ED_TOKENS * sizeof(float))
    for k in range(ED_MAX_CAVES):
        out[O_CAVE_SIZE + k] = s.cave_n[k]
        for p in range(s.cave_n[k]):
            out[O_CAVE_POOL + s.cave[k][p]] += 1
    for k in range(ED_TOKENS):
        out[O_CAVE_POOL + k] += s.box[k]


cdef inline void _write_market(const EdState* s, float* out) noexcept nogil:
    cdef int t
    for t in range(ED_TYPES):
        out[O_MARKET + t] = s.market[t]
        out[O_ON_BOARD + t] = (s.on_board >> t) & 1


cdef inline void _write_played(const EdState* s, float* out) noexcept nogil:
    cdef int t
    for t in range(ED_TYPES):
        out[O_PLAYED + t] = s.played[t]


cdef inline void _write_public(const EdState* s, float* out) noexcept nogil:
    """The public entries but the market, the played cards, the caves and the one-hot ones."""
    out[O_TURN_STATE] = s.coins
    out[O_TURN_STATE + 1] = s.bought
    out[O_TURN_STATE + 2] = s.leftover
    out[O_TURN_STATE + 3] = s.pay_n
    out[O_TURN_STATE + 4] = s.remove_n
    out[O_TURN_STATE + 5] = s.replace if s.replace != ED_NONE else 0
    out[O_TURN_STATE + 6] = 1 if s.replace != ED_NONE else 0
    out[O_TURN_STATE + 7] = s.final
    out[O_FLAGS] = 1 if s.flags & F_KEEP_ITEM else 0
    out[O_FLAGS + 1] = 1 if s.flags & F_PASS_OCCUPIED else 0
    out[O_FLAGS + 2] = 1 if s.flags & F_CHANGE_SYMBOL else 0
    out[O_ROUNDS] = s.turn
    out[O_ROUNDS + 1] = s.max_rounds
    out[O_ROUNDS + 2] = s.caves


cdef inline void _onehots(const EdState* s, int seat, float* out, float v) noexcept nogil:
    """Sets (v = 1) or clears (v = 0) the public one-hot entries of `s` for the viewer `seat`."""
    cdef int n = s.players, k
    for k in range(ED_MAX_CONN):
        if s.conn[k]:
            out[O_BLOCKADES + k * ED_BLOCKADES + s.conn[k] - 1] = v
    if s.pay_n:
        out[O_PAY_KIND + (0 if s.pay_kind == T_RUBBLE else 1)] = v
    if s.lastcoin != ED_NONE:
        out[O_LASTCOIN + s.lastcoin] = v
    if s.moving != ED_NONE:
        out[O_MOVING + s.moving] = v
        out[O_MOVE_SYMBOL + s.move_symbol] = v
    if s.last != ED_NONE:
        out[O_LAST + s.last] = v
    if s.phase == PH_PLAY or s.phase == PH_DISCARD:
        out[O_PHASE + (0 if s.phase == PH_PLAY else 1)] = v
        k = s.to_move - seat
        out[O_TO_MOVE + (k + n if k < 0 else k)] = v
    out[O_PLAYERS + n - 2] = v
    out[O_ROUTE + s.route] = v


cdef void ed_observe(const void* sp, int seat, float* out) noexcept nogil:
    cdef const EdState* s = <const EdState*>sp
    cdef int n = s.players, npieces = 2 if s.players == 2 else 1, j, o
    memset(out, 0, SIZE * sizeof(float))
    for j in range(n):
        o = seat + j - n if seat + j >= n else seat + j
        _write_seat(&s.seat[o], j, npieces, out)
    _write_market(s, out)
    _write_played(s, out)
    _write_public(s, out)
    _write_caves(s, out)
    _onehots(s, seat, out, 1)


cdef void ed_update(const void* pp, int seat0, const void* sp, int seat, float* out) noexcept nogil:
    cdef const EdState* p = <const EdState*>pp
    cdef const EdState* s = <const EdState*>sp
    cdef int n = s.players, npieces = 2 if s.players == 2 else 1, j, o, po
    if n != p.players:
        ed_observe(sp, seat, out)
        return
    # Block j holds the seat j places after the viewer: seat o now, po in the tensor before (the
    # same seat unless the viewer changed).
    for j in range(n):
        o = seat + j - n if seat + j >= n else seat + j
        po = seat0 + j - n if seat0 + j >= n else seat0 + j
        if not same_bytes(<const uint8_t*>&p.seat[po], <const uint8_t*>&s.seat[o], sizeof(EdSeat)):
            _update_seat(&p.seat[po], &s.seat[o], j, npieces, out)
    if not (p.on_board == s.on_board and same_bytes(p.market, s.market, ED_TYPES)):
        _write_market(s, out)
    if not same_bytes(p.played, s.played, ED_TYPES):
        _write_played(s, out)
    _write_public(s, out)
    if not (same_bytes(s.cave_n, p.cave_n, ED_MAX_CAVES)
            and same_bytes(&s.cave[0][0], &p.cave[0][0], sizeof(s.cave))
            and same_bytes(s.box, p.box, ED_TOKENS)):
        _write_caves(s, out)
    _onehots(p, seat0, out, 0)
    _onehots(s, seat, out, 1)


OBSERVATION = observation_of("eldorado", ed_observe, FIELDS, ed_update)
"""The edition's observation tensor (what its record carries)."""
