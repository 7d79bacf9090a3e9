# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The observation tensors of the card editions: one seat's view of an `LCState` as floats
(docs/rl.md lists the fields; `OBSERVATIONS[e].fields` describes them).

Seats are relative: block 0 of a per-seat field is the viewer, then the seats in turn order; rows
are the viewer's team's first. Counts are plain numbers of cards, not scaled. `lc_update` brings a
tensor up to date from the state it was written from, comparing card sets a word at a time and
rewriting only the blocks and piles that differ (whatever the viewers: a block of another seat is a
set that differs; the teams' rows are swapped first when the viewer's team changed). A pile that
gained or lost its top card has its depths shifted rather than rewritten.

>>> [obs.size for obs in OBSERVATIONS]
[383, 752, 331]
>>> [f.name for f in OBSERVATIONS[1].fields][:6]
['hand', 'others', 'hidden', 'known', 'partner_knows', 'team_known']
"""
from libc.string cimport memset, memcpy
from libc.stdint cimport uint8_t, uint64_t

from engine._core cimport exp_ctz
from engine.cards.rules cimport (LCState, LCConfig, CardSet, lc_config, cs_count, cs_size, row_of, pile_of,
                                 N_EDITIONS, MAX_TYPES, MAX_CARDS, MAX_PILES, PILE_AREA, NONE, PH_PLAY,
                                 PH_DRAW)
from engine.observation cimport Observation, observation_of, same_bytes, exp_bits_to_floats, EXP_WIDE_MASKS

from engine.cards.rules import EDITION_NAMES
from engine.observation import layout


# Offsets of the fields in one edition's tensor (-1: the edition has no such field).
ctypedef struct Offsets:
    int hand, others, hidden, known, partner_knows, team_known, rows, pile_depth, pile_size, deck
    int totals, phase, to_move, nodraw, round, turn, cost

cdef Offsets OFF[N_EDITIONS]
cdef uint8_t FIRST_SLOT[N_EDITIONS][MAX_TYPES]   # the index of a type's first copy in the deck order
cdef uint64_t MULTI[N_EDITIONS]                  # the types with copies (counted in `extra` too)


def _fields(int e) -> tuple:
    cdef const LCConfig* c = lc_config(e)
    T, S, P, N = c.ntypes, c.nseats, c.npiles, c.deck_size
    team = 1 if c.passes else 0
    return layout([
        ("hand", (T,), "cards of each type in the viewer's hand"),
        ("others", (S - 1, T), "per other seat (turn order from the next): the cards the viewer knows it holds "
                               "(taken from a pile in view of all; the partner's also those passed to it)"),
        ("hidden", (S - 1,), "per other seat: how many of its cards the viewer does not know"),
        ("known", (S, T), "per seat from the viewer: its cards every seat knows (taken from a discard pile)"),
        ("partner_knows", (team * T,), "partners: the viewer's cards its partner knows"),
        ("team_known", (team * 2, T), "partners: cards known to be in a team's two hands without knowing "
                                      "which (the viewer's team, the other)"),
        ("rows", (2, T), "the expeditions: cards of each type in the viewer's team's row, then the other's"),
        ("pile_depth", (N,), "per card (the deck's copies, type by type): its depth in its discard pile "
                             "(1 the top, 0 not in a pile); a type's copies by depth"),
        ("pile_size", (P,), "cards in each discard pile"),
        ("deck", (1,), "cards in the draw pile"),
        ("totals", (2,), "match points of the viewer's team, then the other's"),
        ("phase", (2,), "one-hot: play or discard; draw (zeros once the match is over)"),
        ("to_move", (S,), "one-hot: the seat to move, relative to the viewer"),
        ("nodraw", (P,), "one-hot: the pile discarded onto this turn (not to be drawn from)"),
        ("round", (2,), "the round (0-based), the rounds of the match"),
        ("turn", (2,), "turns played this round, the turn limit of a round"),
        ("cost", (1,), "the expedition cost subtracted from a row's numbers"),
    ])


cdef int _at(dict fields, str name):
    f = fields.get(name)
    return -1 if f is None else f.offset


cdef void _set_offsets(int e, tuple fields):
    cdef dict by = {f.name: f for f in fields}
    cdef Offsets* o = &OFF[e]
    o.hand = _at(by, "hand"); o.others = _at(by, "others"); o.hidden = _at(by, "hidden")
    o.known = _at(by, "known"); o.partner_knows = _at(by, "partner_knows"); o.team_known = _at(by, "team_known")
    o.rows = _at(by, "rows"); o.pile_depth = _at(by, "pile_depth"); o.pile_size = _at(by, "pile_size")
    o.deck = _at(by, "deck"); o.totals = _at(by, "totals"); o.phase = _at(by, "phase")
    o.to_move = _at(by, "to_move"); o.nodraw = _at(by, "nodraw"); o.round = _at(by, "round")
    o.turn = _at(by, "turn"); o.cost = _at(by, "cost")
    cdef const LCConfig* c = lc_config(e)
    cdef int i
    for i in range(c.deck_size - 1, -1, -1):
        FIRST_SLOT[e][c.deck_order[i]] = i
    MULTI[e] = 0
    for i in range(c.ntypes):
        if c.copies[i] > 1:
            MULTI[e] |= (<uint64_t>1) << i


cdef inline int _rel(int k, int S) noexcept nogil:
    """k modulo S for -S <= k < 2S, without a division."""
    if k >= S:
        return k - S
    return k + S if k < 0 else k


cdef inline void _dense_set(float* out, const CardSet* s, const LCConfig* c, uint64_t multi,
                            int T) noexcept nogil:
    """Writes the count of every type of `s` at out[type], zeros included, 16 at a time (the few
    types with copies corrected after)."""
    cdef uint64_t m
    cdef int t
    exp_bits_to_floats(s.any, 0, out, T)
    if s.extra:
        m = s.any & multi
        while m:
            t = exp_ctz(m)
            m &= m - 1
            out[t] = cs_count(s, c, t)


cdef inline void _pile_depths(float* out, const LCState* s, int k, int cap, const uint8_t* first,
                              uint8_t* copies) noexcept nogil:
    """Writes pile k's cards by depth (1: on top) into their copies' slots of the pile_depth block
    `out`; `copies` counts each type's copies placed so far."""
    cdef int n = s.pile_n[k], i, t
    for i in range(n - 1, -1, -1):
        t = s.piles[k * cap + i]
        out[first[t] + copies[t]] = n - i
        copies[t] += 1


cdef inline void _counts(const LCState* s, int row, float* out, const Offsets* o) noexcept nogil:
    """The deck's size, the teams' totals (the viewer's first), the round, the turn and the cost."""
    out[o.deck] = s.deck_n
    out[o.totals] = s.totals[row]
    out[o.totals + 1] = s.totals[1 - row]
    out[o.round] = s.round
    out[o.round + 1] = s.rounds
    out[o.turn] = s.turn
    out[o.turn + 1] = s.max_turns
    out[o.cost] = s.cost


cdef void lc_observe(const void* sp, int seat, float* out) noexcept nogil:
    cdef const LCState* s = <const LCState*>sp
    cdef const LCConfig* c = lc_config(s.edition)
    cdef const Offsets* o = &OFF[s.edition]
    cdef uint64_t multi = MULTI[s.edition]
    cdef int T = c.ntypes, S = c.nseats, P = c.npiles, j, k, i, t, other, r
    cdef int row = row_of(s, seat), partner = _rel(seat + 2, S) if S == 4 else -1
    cdef const CardSet* seen
    cdef uint8_t copies[MAX_TYPES]
    # The card-set blocks (every field before pile_depth) are written whole; the rest cleared first.
    memset(out + o.pile_depth, 0, (o.cost + 1 - o.pile_depth) * sizeof(float))
    _dense_set(out + o.hand, &s.hand[seat], c, multi, T)
    for j in range(1, S):
        other = _rel(seat + j, S)
        seen = &s.pknown[other] if other == partner else &s.known[other]
        _dense_set(out + o.others + (j - 1) * T, seen, c, multi, T)
        out[o.hidden + j - 1] = cs_size(&s.hand[other]) - cs_size(seen)
    for j in range(S):
        _dense_set(out + o.known + j * T, &s.known[_rel(seat + j, S)], c, multi, T)
    if o.partner_knows >= 0:
        _dense_set(out + o.partner_knows, &s.pknown[seat], c, multi, T)
        for r in range(2):
            _dense_set(out + o.team_known + r * T, &s.tknown[(row + r) & 1], c, multi, T)
    for r in range(2):
        _dense_set(out + o.rows + r * T, &s.rows[(row + r) & 1], c, multi, T)
    memset(copies, 0, sizeof(copies))
    for k in range(P):
        out[o.pile_size + k] = s.pile_n[k]
        _pile_depths(out + o.pile_depth, s, k, c.pile_cap, FIRST_SLOT[s.edition], copies)
    _counts(s, row, out, o)
    if s.phase == PH_PLAY or s.phase == PH_DRAW:
        out[o.phase + (0 if s.phase == PH_PLAY else 1)] = 1
        out[o.to_move + _rel(s.to_move - seat, S)] = 1
        if s.nodraw != NONE:
            out[o.nodraw + s.nodraw] = 1


cdef inline void _set_block(float* out, const CardSet* a, const CardSet* b, const LCConfig* c, uint64_t multi,
                            int T) noexcept nogil:
    """Brings a block from the counts of set `a` to those of `b`: nothing when they are equal, else
    the whole block 8 or 16 types at a time with AVX2 or AVX-512, or the types that differ one by one."""
    cdef uint64_t m
    cdef int t
    if a.any == b.any and a.extra == b.extra:
        return
    if EXP_WIDE_MASKS:
        _dense_set(out, b, c, multi, T)
        return
    m = a.any ^ b.any
    if a.extra != b.extra:
        m |= (a.any | b.any) & multi
    while m:
        t = exp_ctz(m)
        m &= m - 1
        out[t] = cs_count(b, c, t)


cdef inline void _clear_turn(const LCState* s, int seat, float* out, const Offsets* o, int S) noexcept nogil:
    """Clears the one-hot entries lc_observe sets for the phase, the mover and the no-draw pile."""
    if s.phase == PH_PLAY or s.phase == PH_DRAW:
        out[o.phase + (0 if s.phase == PH_PLAY else 1)] = 0
        out[o.to_move + _rel(s.to_move - seat, S)] = 0
        if s.nodraw != NONE:
            out[o.nodraw + s.nodraw] = 0


cdef inline bint _shift_pile(float* out, const LCState* p, const LCState* s, int k, int cap, const uint8_t* first,
                             const LCConfig* c, uint64_t multi) noexcept nogil:
    """Brings pile k's depths in the pile_depth block `out` from `p` to `s` when `s`'s pile is
    `p`'s with one card pushed (a discard) or popped (a draw): every other card one deeper or
    shallower, the copies of its type shifted a slot. Returns False, having changed nothing, when
    the pile changed otherwise (the caller rewrites it)."""
    cdef int n0 = p.pile_n[k], n = s.pile_n[k], i, t, r, m
    cdef const uint8_t* a = p.piles + k * cap
    cdef const uint8_t* b = s.piles + k * cap
    cdef uint64_t seen = 0, w
    cdef int lo = n0 if n0 < n else n
    cdef float d = 1 if n > n0 else -1
    if n != n0 + 1 and n != n0 - 1:
        return False
    for i in range(lo):
        if a[i] != b[i]:
            return False
    t = b[n0] if n > n0 else a[n]        # the card pushed or popped
    if n < n0 and (multi >> t) & 1:       # popped: its shallowest copy's slot goes
        m = c.copies[t]
        for r in range(m - 1):
            out[first[t] + r] = out[first[t] + r + 1]
        out[first[t] + m - 1] = 0
    for i in range(lo):
        t = b[i]
        if (multi >> t) & 1:
            seen |= (<uint64_t>1) << t
        else:
            out[first[t]] += d
    w = seen
    while w:
        t = exp_ctz(w)
        w &= w - 1
        for r in range(c.copies[t]):
            if out[first[t] + r] != 0:
                out[first[t] + r] += d
    if n > n0:                            # pushed: on top, its type's first slot
        t = b[n0]
        if (multi >> t) & 1:
            for r in range(c.copies[t] - 1, 0, -1):
                out[first[t] + r] = out[first[t] + r - 1]
        out[first[t]] = 1
    else:
        t = a[n]
        if not (multi >> t) & 1:
            out[first[t]] = 0
    return True


cdef inline void _swap_blocks(float* out, int T) noexcept nogil:
    """Swaps the two blocks of T floats at `out`."""
    cdef float tmp[MAX_TYPES]
    memcpy(tmp, out, T * sizeof(float))
    memcpy(out, out + T, T * sizeof(float))
    memcpy(out + T, tmp, T * sizeof(float))


cdef void lc_update(const void* pp, int seat0, const void* sp, int seat, float* out) noexcept nogil:
    cdef const LCState* p = <const LCState*>pp
    cdef const LCState* s = <const LCState*>sp
    cdef const LCConfig* c = lc_config(s.edition)
    cdef const Offsets* o = &OFF[s.edition]
    cdef const uint8_t* first = FIRST_SLOT[s.edition]
    cdef uint64_t multi = MULTI[s.edition]
    cdef int T = c.ntypes, S = c.nseats, P = c.npiles, cap = c.pile_cap, j, k, i, t, r, n, other, other0
    cdef int row = row_of(s, seat), row0 = row_of(p, seat0)
    cdef int partner = _rel(seat + 2, S) if S == 4 else -1, partner0 = _rel(seat0 + 2, S) if S == 4 else -1
    cdef const CardSet* seen
    cdef const CardSet* seen0
    cdef uint8_t copies[MAX_TYPES]
    # Block j of a per-seat field holds the seat j places after the viewer: `other` now, `other0` in
    # the tensor before (another seat when the viewer changed: its blocks are rewritten).
    _set_block(out + o.hand, &p.hand[seat0], &s.hand[seat], c, multi, T)
    for j in range(1, S):
        other = _rel(seat + j, S)
        other0 = _rel(seat0 + j, S)
        seen = &s.pknown[other] if other == partner else &s.known[other]
        seen0 = &p.pknown[other0] if other0 == partner0 else &p.known[other0]
        _set_block(out + o.others + (j - 1) * T, seen0, seen, c, multi, T)
        out[o.hidden + j - 1] = cs_size(&s.hand[other]) - cs_size(seen)
    for j in range(S):
        _set_block(out + o.known + j * T, &p.known[_rel(seat0 + j, S)], &s.known[_rel(seat + j, S)], c, multi, T)
    if o.partner_knows >= 0:
        _set_block(out + o.partner_knows, &p.pknown[seat0], &s.pknown[seat], c, multi, T)
        if row != row0:
            _swap_blocks(out + o.team_known, T)
        for r in range(2):
            _set_block(out + o.team_known + r * T, &p.tknown[(row + r) & 1], &s.tknown[(row + r) & 1], c, multi, T)
    # The rows are swapped when the viewer's team changed (as the team_known blocks above), then
    # compared row with same row: only what the decision changed is rewritten.
    if row != row0:
        _swap_blocks(out + o.rows, T)
    for r in range(2):
        _set_block(out + o.rows + r * T, &p.rows[(row + r) & 1], &s.rows[(row + r) & 1], c, multi, T)
    # A pile that changed is rewritten whole (a discard deepens every card under it); a type's
    # copies all lie in its colour's pile, so their slots are the pile's alone. Unused pile entries
    # are zero, so equal piles are equal bytes.
    if not (same_bytes(s.piles, p.piles, PILE_AREA) and same_bytes(s.pile_n, p.pile_n, 8)):
        for k in range(P):
            n = s.pile_n[k]
            if n == p.pile_n[k] and same_bytes(s.piles + k * cap, p.piles + k * cap, cap):
                continue
            out[o.pile_size + k] = n
            if _shift_pile(out + o.pile_depth, p, s, k, cap, first, c, multi):
                continue
            for i in range(p.pile_n[k]):
                t = p.piles[k * cap + i]
                for r in range(c.copies[t]):
                    out[o.pile_depth + first[t] + r] = 0
            for i in range(n):
                copies[s.piles[k * cap + i]] = 0
            _pile_depths(out + o.pile_depth, s, k, cap, first, copies)
    _counts(s, row, out, o)
    _clear_turn(p, seat0, out, o, S)
    if s.phase == PH_PLAY or s.phase == PH_DRAW:
        out[o.phase + (0 if s.phase == PH_PLAY else 1)] = 1
        out[o.to_move + _rel(s.to_move - seat, S)] = 1
        if s.nodraw != NONE:
            out[o.nodraw + s.nodraw] = 1


def _observation(int e) -> Observation:
    fields = _fields(e)
    _set_offsets(e, fields)
    return observation_of(EDITION_NAMES[e], lc_observe, fields, lc_update)


OBSERVATIONS = tuple(_observation(_e) for _e in range(N_EDITIONS))
"""Per edition index, its observation tensor (what the edition's record carries)."""
