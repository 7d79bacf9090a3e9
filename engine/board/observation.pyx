# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The observation tensor of `board`: one seat's view of a `BoardStruct` as floats (docs/rl.md lists
the fields; `OBSERVATION.fields` describes them).

The layout has room for four seats whatever the number of players: block 0 of a per-seat field is
the viewer, then the seats in turn order, and the blocks of absent seats stay zero. Counts and
values are plain numbers, not scaled. `board_update` brings the tensor of a seat up to date from the
state it was written from, rewriting only the card sets, paths, tiles and piles that differ (on a
change of viewer the per-seat fields are first rotated to the new viewer, then each seat compared
with itself).

>>> OBSERVATION.size, [f.name for f in OBSERVATION.fields][:3]
(899, ['hand', 'known', 'hidden'])
"""
from libc.string cimport memset, memcpy, memmove
from libc.stdint cimport uint8_t, uint64_t

from engine._core cimport exp_ctz, MAX_SEATS
from engine.board.rules cimport (BoardStruct, Cards, cards_count, cards_size, NCOLOURS, NTYPES, NCARDS, NSTONES,
                                 NONE, PH_PLAY, PH_MOVE, PH_DRAW, PILE_CAP, TILE_ARTIFACT, TILE_ARROW, TILE_VP)
from engine.observation cimport Observation, observation_of, same_bytes, exp_bits_to_floats, EXP_WIDE_MASKS

from engine.observation import layout

S = MAX_SEATS
FIELDS = layout([
    ("hand", (NTYPES,), "cards of each type (t = 11 x colour + value) in the viewer's hand"),
    ("known", (S, NTYPES), "per seat from the viewer: its cards every seat knows (taken from a discard pile)"),
    ("hidden", (S - 1,), "per other seat: how many of its cards the viewer does not know"),
    ("columns", (S, NTYPES), "per seat: the cards of each type in its columns"),
    ("begun", (S, NCOLOURS), "per seat and path: 1 where it has a column (and a piece)"),
    ("last", (S, NCOLOURS), "per seat and path: the value of the column's last card"),
    ("direction", (S, NCOLOURS, 2), "per seat and path: one-hot ascending, descending (zeros: open)"),
    ("stone", (S, NCOLOURS), "per seat and path: the stone of its piece (1..9; 0 none)"),
    ("researcher", (S, NCOLOURS), "per seat: one-hot, the path of its researcher (zeros: unused)"),
    ("artifacts", (S,), "per seat: artifacts taken"),
    ("totals", (S,), "per seat: victory points of the match"),
    ("tiles", (3, NCOLOURS, NSTONES), "per path and stone 1..9: an artifact, an arrow, victory points "
                                      "(their number) still lying there"),
    ("pile_depth", (NCARDS,), "per card (two copies of each type, 2t and 2t+1): its depth in its discard "
                              "pile (1 the top, 0 not in a pile); the first copy the shallower"),
    ("pile_size", (NCOLOURS,), "cards in each discard pile"),
    ("deck", (1,), "cards in the draw pile"),
    ("box", (1,), "cards out of the game (the two-player removal)"),
    ("crossed", (1,), "pieces of all seats beyond a bridge"),
    ("phase", (3,), "one-hot: play or discard; optional step; draw (zeros once the match is over)"),
    ("to_move", (S,), "one-hot: the seat to move, relative to the viewer"),
    ("nodraw", (NCOLOURS,), "one-hot: the pile discarded onto this turn"),
    ("players", (3,), "one-hot: 2, 3 or 4 players"),
    ("round", (2,), "the expedition (0-based), the expeditions of the game"),
    ("turn", (2,), "turns played this expedition, the turn limit"),
    ("updown", (1,), "1 with the up-and-down variant"),
])
"""The fields in order."""

cdef dict _BY = {f.name: f.offset for f in FIELDS}
cdef int O_HAND = _BY["hand"], O_KNOWN = _BY["known"], O_HIDDEN = _BY["hidden"], O_COLUMNS = _BY["columns"]
cdef int O_BEGUN = _BY["begun"], O_LAST = _BY["last"], O_DIRECTION = _BY["direction"], O_STONE = _BY["stone"]
cdef int O_RESEARCHER = _BY["researcher"], O_ARTIFACTS = _BY["artifacts"], O_TOTALS = _BY["totals"]
cdef int O_TILES = _BY["tiles"], O_PILE_DEPTH = _BY["pile_depth"], O_PILE_SIZE = _BY["pile_size"]
cdef int O_DECK = _BY["deck"], O_BOX = _BY["box"], O_CROSSED = _BY["crossed"], O_PHASE = _BY["phase"]
cdef int O_TO_MOVE = _BY["to_move"], O_NODRAW = _BY["nodraw"], O_PLAYERS = _BY["players"], O_ROUND = _BY["round"]
cdef int O_TURN = _BY["turn"], O_UPDOWN = _BY["updown"]
cdef int SIZE = sum(f.size for f in FIELDS)


cdef inline void _put_set(float* out, const Cards* s) noexcept nogil:
    """Writes the count of every type of `s` at out[type], zeros included, 16 at a time."""
    exp_bits_to_floats(s.any, s.extra, out, NTYPES)


cdef inline void _pile_depths(float* out, const BoardStruct* s, int k, uint8_t* copies) noexcept nogil:
    """Writes pile k's cards by depth (1: on top) into their copies' slots; `copies` counts each
    type's copies placed so far."""
    cdef int i, t
    for i in range(s.pile_n[k] - 1, -1, -1):
        t = s.piles[k * PILE_CAP + i]
        out[O_PILE_DEPTH + 2 * t + copies[t]] = s.pile_n[k] - i
        copies[t] += 1


cdef inline void _counts(const BoardStruct* s, float* out) noexcept nogil:
    """The deck's size, the box's and the crossings."""
    out[O_DECK] = s.deck_n
    out[O_BOX] = cards_size(&s.box)
    out[O_CROSSED] = s.crossed


cdef void board_observe(const void* sp, int seat, float* out) noexcept nogil:
    cdef const BoardStruct* s = <const BoardStruct*>sp
    cdef int n = s.nseats, j, o, x, i, k, t, code
    cdef uint8_t copies[NTYPES]
    memset(out, 0, SIZE * sizeof(float))
    _put_set(out + O_HAND, &s.hand[seat])
    for j in range(n):
        o = (seat + j) % n
        _put_set(out + O_KNOWN + j * NTYPES, &s.known[o])
        if j:
            out[O_HIDDEN + j - 1] = cards_size(&s.hand[o]) - cards_size(&s.known[o])
        _put_set(out + O_COLUMNS + j * NTYPES, &s.cols[o])
        for x in range(NCOLOURS):
            if (s.begun[o] >> x) & 1:
                out[O_BEGUN + j * NCOLOURS + x] = 1
            out[O_LAST + j * NCOLOURS + x] = s.last[o][x]
            if s.dir[o][x]:
                out[O_DIRECTION + (j * NCOLOURS + x) * 2 + s.dir[o][x] - 1] = 1
            out[O_STONE + j * NCOLOURS + x] = s.stone[o][x]
        if s.researcher[o] != NONE:
            out[O_RESEARCHER + j * NCOLOURS + s.researcher[o]] = 1
        out[O_ARTIFACTS + j] = s.artifacts[o]
        out[O_TOTALS + j] = s.totals[o]
    for x in range(NCOLOURS):
        for i in range(1, NSTONES + 1):
            code = s.tile[x][i]
            if code == TILE_ARTIFACT:
                out[O_TILES + x * NSTONES + i - 1] = 1
            elif code == TILE_ARROW:
                out[O_TILES + (NCOLOURS + x) * NSTONES + i - 1] = 1
            elif code >= TILE_VP:
                out[O_TILES + (2 * NCOLOURS + x) * NSTONES + i - 1] = code - TILE_VP
    memset(copies, 0, sizeof(copies))
    for k in range(NCOLOURS):
        out[O_PILE_SIZE + k] = s.pile_n[k]
        _pile_depths(out, s, k, copies)
    _counts(s, out)
    if s.phase == PH_PLAY or s.phase == PH_MOVE or s.phase == PH_DRAW:
        out[O_PHASE + (0 if s.phase == PH_PLAY else 1 if s.phase == PH_MOVE else 2)] = 1
        out[O_TO_MOVE + (s.to_move - seat + n) % n] = 1
        if s.nodraw != NONE:
            out[O_NODRAW + s.nodraw] = 1
    out[O_PLAYERS + n - 2] = 1
    out[O_ROUND] = s.round
    out[O_ROUND + 1] = s.rounds
    out[O_TURN] = s.turn
    out[O_TURN + 1] = s.max_turns
    out[O_UPDOWN] = s.updown


cdef inline void _diff_set(float* out, const Cards* a, const Cards* b) noexcept nogil:
    """Brings out[type] from the counts of `a` to those of `b`: nothing when they are equal, else the
    whole block 8 or 16 types at a time with AVX2 or AVX-512, or the types that differ one by one."""
    cdef uint64_t m = (a.any ^ b.any) | (a.extra ^ b.extra)
    cdef int t
    if m and EXP_WIDE_MASKS:
        exp_bits_to_floats(b.any, b.extra, out, NTYPES)
        return
    while m:
        t = exp_ctz(m)
        m &= m - 1
        out[t] = cards_count(b, t)


cdef inline void _turn(const BoardStruct* s, int seat, float* out, float v) noexcept nogil:
    """Sets (v = 1) or clears (v = 0) the one-hot entries of the phase, the mover and the pile."""
    cdef int n = s.nseats, k
    if s.phase == PH_PLAY or s.phase == PH_MOVE or s.phase == PH_DRAW:
        out[O_PHASE + (0 if s.phase == PH_PLAY else 1 if s.phase == PH_MOVE else 2)] = v
        k = s.to_move - seat
        out[O_TO_MOVE + (k + n if k < 0 else k)] = v
        if s.nodraw != NONE:
            out[O_NODRAW + s.nodraw] = v


cdef inline void _rotate(float* out, int width, int n, int d) noexcept nogil:
    """Moves the n blocks of `width` floats at `out` d places down (block j + d to j, the first d
    to the end): a per-seat field of one viewer made the field of the viewer d seats later."""
    cdef float tmp[3 * NTYPES]
    memcpy(tmp, out, d * width * sizeof(float))
    memmove(out, out + d * width, (n - d) * width * sizeof(float))
    memcpy(out + (n - d) * width, tmp, d * width * sizeof(float))


cdef void board_update(const void* pp, int seat0, const void* sp, int seat, float* out) noexcept nogil:
    cdef const BoardStruct* p = <const BoardStruct*>pp
    cdef const BoardStruct* s = <const BoardStruct*>sp
    cdef int n = s.nseats, j, o, x, i, k, t, code, d
    cdef uint8_t copies[NTYPES]
    if n != p.nseats:  # blocks of absent seats would be left behind
        board_observe(sp, seat, out)
        return
    # Block j holds the seat j places after the viewer. When the viewer changed, the per-seat fields
    # are first rotated so that each block holds its new seat as it was in `p`; then a seat's blocks
    # are compared with that seat in `p` (only what the decisions changed is rewritten).
    d = seat - seat0
    if d:
        if d < 0:
            d += n
        _rotate(out + O_KNOWN, NTYPES, n, d)
        _rotate(out + O_COLUMNS, NTYPES, n, d)
        _rotate(out + O_BEGUN, NCOLOURS, n, d)
        _rotate(out + O_LAST, NCOLOURS, n, d)
        _rotate(out + O_DIRECTION, 2 * NCOLOURS, n, d)
        _rotate(out + O_STONE, NCOLOURS, n, d)
        _rotate(out + O_RESEARCHER, NCOLOURS, n, d)
    _diff_set(out + O_HAND, &p.hand[seat0], &s.hand[seat])
    for j in range(n):
        o = seat + j - n if seat + j >= n else seat + j
        _diff_set(out + O_KNOWN + j * NTYPES, &p.known[o], &s.known[o])
        if j:
            out[O_HIDDEN + j - 1] = cards_size(&s.hand[o]) - cards_size(&s.known[o])
        _diff_set(out + O_COLUMNS + j * NTYPES, &p.cols[o], &s.cols[o])
        if not (p.begun[o] == s.begun[o] and same_bytes(p.last[o], s.last[o], NCOLOURS)
                and same_bytes(p.dir[o], s.dir[o], NCOLOURS)
                and same_bytes(p.stone[o], s.stone[o], NCOLOURS)):
            for x in range(NCOLOURS):
                out[O_BEGUN + j * NCOLOURS + x] = (s.begun[o] >> x) & 1
                out[O_LAST + j * NCOLOURS + x] = s.last[o][x]
                d = O_DIRECTION + (j * NCOLOURS + x) * 2
                out[d] = 1 if s.dir[o][x] == 1 else 0
                out[d + 1] = 1 if s.dir[o][x] == 2 else 0
                out[O_STONE + j * NCOLOURS + x] = s.stone[o][x]
        if p.researcher[o] != s.researcher[o]:
            if p.researcher[o] != NONE:
                out[O_RESEARCHER + j * NCOLOURS + p.researcher[o]] = 0
            if s.researcher[o] != NONE:
                out[O_RESEARCHER + j * NCOLOURS + s.researcher[o]] = 1
        out[O_ARTIFACTS + j] = s.artifacts[o]
        out[O_TOTALS + j] = s.totals[o]
    if not same_bytes(&p.tile[0][0], &s.tile[0][0], NCOLOURS * (NSTONES + 1)):
        for x in range(NCOLOURS):
            for i in range(1, NSTONES + 1):
                code = s.tile[x][i]
                out[O_TILES + x * NSTONES + i - 1] = 1 if code == TILE_ARTIFACT else 0
                out[O_TILES + (NCOLOURS + x) * NSTONES + i - 1] = 1 if code == TILE_ARROW else 0
                out[O_TILES + (2 * NCOLOURS + x) * NSTONES + i - 1] = code - TILE_VP if code >= TILE_VP else 0
    # A changed pile is rewritten whole (a discard deepens every card under it); a type's two
    # copies lie in its colour's pile, so their slots are the pile's alone.
    if not (same_bytes(p.pile_n, s.pile_n, NCOLOURS) and same_bytes(p.piles, s.piles, NCOLOURS * PILE_CAP)):
        for k in range(NCOLOURS):
            if (p.pile_n[k] == s.pile_n[k]
                    and same_bytes(p.piles + k * PILE_CAP, s.piles + k * PILE_CAP, PILE_CAP)):
                continue
            out[O_PILE_SIZE + k] = s.pile_n[k]
            for i in range(p.pile_n[k]):
                t = p.piles[k * PILE_CAP + i]
                out[O_PILE_DEPTH + 2 * t] = 0
                out[O_PILE_DEPTH + 2 * t + 1] = 0
            for i in range(s.pile_n[k]):
                copies[s.piles[k * PILE_CAP + i]] = 0
            _pile_depths(out, s, k, copies)
    _counts(s, out)
    _turn(p, seat0, out, 0)
    _turn(s, seat, out, 1)
    out[O_ROUND] = s.round
    out[O_ROUND + 1] = s.rounds
    out[O_TURN] = s.turn
    out[O_TURN + 1] = s.max_turns
    out[O_UPDOWN] = s.updown


OBSERVATION = observation_of("board", board_observe, FIELDS, board_update)
"""The edition's observation tensor (what its record carries)."""
