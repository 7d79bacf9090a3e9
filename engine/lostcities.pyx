# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The Lost Cities card games: `classic`, `partners` and `expedition`.

The three editions share one rules core, parameterised by a per-edition table (`LCConfig`):
deck, colours, hand size, seats and rows, one discard pile per colour or a single pile, and
whether partners may pass cards. Rules as in RULES.md sections 1-3; notation in docs/notation.md.

Card sets are bitboards over card *types* (colour x rank, < 64 per edition). A set is two words:
`any` has bit t when the set holds at least one card of type t, and `extra` counts the further
identical copies (the wagers; `partners`' second low cards) in unary, in bits reserved per type.
Each zone's set is therefore canonical, legality is mask arithmetic on `any`, and equal positions
are equal bytes.
"""
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.string cimport memset, memcpy, memcmp
from libc.stdint cimport uint8_t, uint16_t, int16_t, int32_t, uint64_t

from engine._core cimport (GameOps, Rng, State, rng_next, rng_below, exp_popcount, exp_ctz,
                           exp_select, rank_returns, turns_left_of, MAX_SEATS, MAX_LEGAL)

from engine.errors import NotationError, OptionError
from engine.textfields import FieldReader, integer as _integer, split as _listed

cdef LCConfig CFG[N_EDITIONS]
cdef uint8_t PASS_T1[N_PASS_IDS]
cdef uint8_t PASS_T2[N_PASS_IDS]

EDITION_NAMES = ("classic", "partners", "expedition")
_COLOURS = ("ybwgr", "ybwgr", "cdhs")
_RANKS = ("W23456789T", "W23456789T", "MA23456789T")
_RANK_VALUES = ((0, 2, 3, 4, 5, 6, 7, 8, 9, 10), (0, 2, 3, 4, 5, 6, 7, 8, 9, 10),
                (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10))
_COPIES = (
    (3, 1, 1, 1, 1, 1, 1, 1, 1, 1),
    (3, 2, 2, 2, 1, 1, 1, 1, 1, 1),
    (3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
)
_HAND = (8, 8, 7)
_SEATS = (2, 4, 2)


cdef void _build_config(int e):
    cdef LCConfig* c = &CFG[e]
    memset(c, 0, sizeof(LCConfig))
    c.edition = e
    c.nseats = _SEATS[e]
    c.nrows = 2
    c.ncolours = len(_COLOURS[e])
    c.nranks = len(_RANKS[e])
    c.ntypes = c.ncolours * c.nranks
    c.hand_size = _HAND[e]
    c.npiles = 1 if e == ED_EXPEDITION else c.ncolours
    c.pile_cap = PILE_AREA // c.npiles
    c.min_hand = 6
    c.passes = e == ED_PARTNERS
    cdef int col, rank, t, k, nextra = 0, ndeck = 0, t2
    for col in range(c.ncolours):
        for rank in range(c.nranks):
            t = col * c.nranks + rank
            c.value[t] = _RANK_VALUES[e][rank]
            c.colour[t] = col
            c.copies[t] = _COPIES[e][rank]
            c.colour_types[col] |= (<uint64_t>1) << t
            c.all_types |= (<uint64_t>1) << t
            c.extra_low[t] = ((<uint64_t>1) << nextra) if c.copies[t] > 1 else 0
            c.extra_lows |= c.extra_low[t]
            for k in range(c.copies[t] - 1):
                c.extra_mask[t] |= (<uint64_t>1) << nextra
                nextra += 1
            for k in range(c.copies[t]):
                c.deck_order[ndeck] = t
                ndeck += 1
    c.deck_size = ndeck
    for t in range(c.ntypes):
        if c.value[t] > 0:
            for t2 in range(c.ntypes):
                if c.colour[t2] == c.colour[t] and c.value[t2] > c.value[t]:
                    c.above[t] |= (<uint64_t>1) << t2


for _e in range(N_EDITIONS):
    _build_config(_e)
for _t2 in range(64):
    for _t1 in range(_t2 + 1):
        PASS_T1[_t2 * (_t2 + 1) // 2 + _t1] = _t1
        PASS_T2[_t2 * (_t2 + 1) // 2 + _t1] = _t2

# ----- rules --------------------------------------------------------------------------------------

cdef inline const LCConfig* cfg_of(const LCState* s) noexcept nogil:
    return &CFG[s.edition]


cdef const LCConfig* lc_config(int edition) noexcept nogil:
    return &CFG[edition]


cdef void lc_deal(LCState* s) noexcept nogil:
    """Shuffles the full deck with the state's generator and deals a new round."""
    cdef const LCConfig* c = cfg_of(s)
    cdef uint8_t cards[MAX_CARDS]
    cdef int n = c.deck_size, i, j, k, dealt
    cdef uint8_t tmp
    cdef Rng rng
    rng.x = s.rng
    memcpy(cards, c.deck_order, n)
    i = n - 1
    while i > 0:
        j = rng_below(&rng, i + 1)
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp
        i -= 1
    s.rng = rng.x
    lc_clear_round(s)
    dealt = c.hand_size * c.nseats
    for k in range(dealt):
        cs_add(&s.hand[k % c.nseats], c, cards[n - 1 - k])
    s.deck_n = n - dealt
    memcpy(s.deck, cards, s.deck_n)


cdef void lc_clear_round(LCState* s) noexcept nogil:
    """The start of a round before the deal: every hand, row, known set, pile and the draw pile
    empty; the round's starter to play its first turn."""
    cdef const LCConfig* c = cfg_of(s)
    cdef int k
    memset(s.hand, 0, sizeof(s.hand))
    memset(s.rows, 0, sizeof(s.rows))
    memset(s.known, 0, sizeof(s.known))
    memset(s.pknown, 0, sizeof(s.pknown))
    memset(s.tknown, 0, sizeof(s.tknown))
    memset(s.deck, 0, sizeof(s.deck))
    memset(s.piles, 0, sizeof(s.piles))
    memset(s.pile_n, 0, sizeof(s.pile_n))
    s.nonempty = 0
    s.deck_n = 0
    for k in range(MAX_ROWS):
        s.playable[k] = c.all_types
    s.turn = 0
    s.phase = PH_PLAY
    s.nodraw = NONE
    s.to_move = s.starter


cdef int lc_expedition_score(const LCState* s, int row, int col) noexcept nogil:
    cdef const LCConfig* c = cfg_of(s)
    cdef const CardSet* r = &s.rows[row]
    cdef uint64_t m = r.any & c.colour_types[col]
    cdef int n = 0, total = 0, wagers = 0, t, k, score
    while m:
        t = exp_ctz(m)
        m &= m - 1
        k = cs_count(r, c, t)
        n += k
        if c.value[t] == 0:
            wagers += k
        else:
            total += c.value[t] * k
    if n == 0:
        return 0
    score = (total - s.cost) * (1 + wagers)
    if n >= 8:
        score += 20
    return score


cdef int lc_row_score(const LCState* s, int row) noexcept nogil:
    cdef int col, total = 0
    for col in range(cfg_of(s).ncolours):
        total += lc_expedition_score(s, row, col)
    return total


cdef void lc_end_round(LCState* s) noexcept nogil:
    cdef const LCConfig* c = cfg_of(s)
    cdef int r, lead, seat, k
    for r in range(c.nrows):
        s.totals[r] += lc_row_score(s, r)
    if s.round + 1 >= s.rounds:
        s.phase = PH_OVER
        s.to_move = NONE
        s.nodraw = NONE
        return
    s.round += 1
    if s.totals[0] == s.totals[1]:
        lead = -1
    else:
        lead = 0 if s.totals[0] > s.totals[1] else 1
    if c.nseats == 2:
        s.starter = (1 - s.starter) if lead < 0 else lead
    else:
        seat = (s.starter + 1) % c.nseats
        if lead >= 0:
            for k in range(c.nseats):
                if row_of(s, seat) == lead:
                    break
                seat = (seat + 1) % c.nseats
        s.starter = seat
    lc_deal(s)


cdef inline void lc_end_turn(LCState* s) noexcept nogil:
    s.turn += 1
    s.phase = PH_PLAY
    s.nodraw = NONE
    s.to_move += 1
    if s.to_move >= s.nseats:
        s.to_move = 0
    if s.deck_n == 0 or s.turn >= s.max_turns:
        lc_end_round(s)


cdef inline void lc_forget(LCState* s, const LCConfig* c, int seat, int t) noexcept nogil:
    """Knowledge update when a card of type t leaves `seat`'s hand face up."""
    if not cs_remove(&s.known[seat], c, t):
        if c.passes:
            cs_remove(&s.tknown[row_of(s, seat)], c, t)
    if c.passes:
        cs_remove(&s.pknown[seat], c, t)


cdef inline void lc_do_play(LCState* s, const LCConfig* c, int t) noexcept nogil:
    """Plays type t from the mover's hand onto its own row."""
    cdef int p = s.to_move, row = row_of(s, p)
    cs_remove(&s.hand[p], c, t)
    lc_forget(s, c, p, t)
    cs_add(&s.rows[row], c, t)
    if c.value[t] > 0:
        s.playable[row] = (s.playable[row] & ~c.colour_types[c.colour[t]]) | c.above[t]
    s.phase = PH_DRAW
    s.nodraw = NONE


cdef inline void lc_do_discard(LCState* s, const LCConfig* c, int t) noexcept nogil:
    cdef int p = s.to_move, k = pile_of(c, t)
    cs_remove(&s.hand[p], c, t)
    lc_forget(s, c, p, t)
    s.piles[k * c.pile_cap + s.pile_n[k]] = t
    s.pile_n[k] += 1
    s.nonempty |= 1 << k
    s.phase = PH_DRAW
    s.nodraw = k


cdef inline void lc_do_draw_deck(LCState* s, const LCConfig* c) noexcept nogil:
    s.deck_n -= 1
    cdef int t = s.deck[s.deck_n]
    s.deck[s.deck_n] = 0
    cs_add(&s.hand[s.to_move], c, t)
    lc_end_turn(s)


cdef inline void lc_do_draw_pile(LCState* s, const LCConfig* c, int k) noexcept nogil:
    """Takes the top of discard pile k: the card is now known to be in the mover's hand."""
    cdef int p = s.to_move, t
    s.pile_n[k] -= 1
    t = s.piles[k * c.pile_cap + s.pile_n[k]]
    s.piles[k * c.pile_cap + s.pile_n[k]] = 0
    if s.pile_n[k] == 0:
        s.nonempty &= ~(1 << k)
    cs_add(&s.hand[p], c, t)
    cs_add(&s.known[p], c, t)
    if c.passes:
        cs_add(&s.pknown[p], c, t)
    lc_end_turn(s)


cdef void lc_do_pass(LCState* s, const LCConfig* c, int t1, int t2) noexcept nogil:
    """Passes two cards to the partner: a whole turn, seen only by the two partners."""
    cdef int p = s.to_move, partner = (p + 2) % 4, row = row_of(s, p)
    # The opponents no longer know which of the two hands holds the passer's known cards.
    cs_union(&s.tknown[row], &s.known[p], c)
    s.known[p].any = 0
    s.known[p].extra = 0
    cs_remove(&s.hand[p], c, t1)
    cs_remove(&s.hand[p], c, t2)
    cs_remove(&s.pknown[p], c, t1)
    cs_remove(&s.pknown[p], c, t2)
    cs_add(&s.hand[partner], c, t1)
    cs_add(&s.hand[partner], c, t2)
    cs_add(&s.pknown[partner], c, t1)
    cs_add(&s.pknown[partner], c, t2)
    lc_end_turn(s)


cdef void lc_apply(void* sp, int d) noexcept nogil:
    cdef LCState* s = <LCState*>sp
    cdef const LCConfig* c = cfg_of(s)
    if d < D_DISCARD:
        lc_do_play(s, c, d)
    elif d < D_DRAW_DECK:
        lc_do_discard(s, c, d - D_DISCARD)
    elif d == D_DRAW_DECK:
        lc_do_draw_deck(s, c)
    elif d < D_PASS:
        lc_do_draw_pile(s, c, d - D_DRAW_PILE)
    else:
        lc_do_pass(s, c, PASS_T1[d - D_PASS], PASS_T2[d - D_PASS])


cdef inline int lc_can_pass(const LCState* s, const LCConfig* c, int p) noexcept nogil:
    return c.passes and cs_size(&s.hand[p]) >= c.min_hand + 2


cdef inline int lc_draw_sources(const LCState* s) noexcept nogil:
    """Bit 0: the draw pile; bit 1+k: discard pile k may be drawn from."""
    cdef int piles = s.nonempty
    if s.nodraw != NONE:
        piles &= ~(1 << s.nodraw)
    return 1 | (piles << 1)


cdef int lc_legal(const void* sp, int* out) noexcept nogil:
    return lc_legal_passes(<const LCState*>sp, out, 1)


cdef int lc_legal_passes(const LCState* s, int* out, bint passes) noexcept nogil:
    """The legal decisions in id order (passes last); without `passes`, all but the passes (for a
    player that never passes, which need not list up to 36 of them)."""
    cdef const LCConfig* c = cfg_of(s)
    cdef int p = s.to_move, n = 0, t1, t2, src
    cdef uint64_t m, m2, h
    if s.phase == PH_PLAY:
        h = s.hand[p].any
        m = h & s.playable[row_of(s, p)]
        while m:
            out[n] = D_PLAY + exp_ctz(m)
            n += 1
            m &= m - 1
        m = h
        while m:
            out[n] = D_DISCARD + exp_ctz(m)
            n += 1
            m &= m - 1
        if passes and lc_can_pass(s, c, p):
            m = h
            while m:
                t1 = exp_ctz(m)
                m &= m - 1
                if cs_count(&s.hand[p], c, t1) >= 2:
                    out[n] = pass_id(t1, t1)
                    n += 1
                m2 = m
                while m2:
                    out[n] = pass_id(t1, exp_ctz(m2))
                    n += 1
                    m2 &= m2 - 1
    elif s.phase == PH_DRAW:
        src = lc_draw_sources(s)
        out[n] = D_DRAW_DECK
        n += 1
        src >>= 1
        t1 = 0
        while src:
            if src & 1:
                out[n] = D_DRAW_PILE + t1
                n += 1
            src >>= 1
            t1 += 1
    return n


cdef int lc_random_pass(const LCState* s, const LCConfig* c, int r) noexcept nogil:
    """The r-th legal pass, in notation order (by first card, then second; equal types first)."""
    cdef const CardSet* h = &s.hand[s.to_move]
    cdef uint64_t m = h.any, rest
    cdef int t1, above
    while m:
        t1 = exp_ctz(m)
        m &= m - 1
        if cs_count(h, c, t1) >= 2:
            if r == 0:
                return pass_id(t1, t1)
            r -= 1
        above = exp_popcount(m)
        if r < above:
            return pass_id(t1, exp_select(m, r))
        r -= above
    return -1


cdef inline int lc_random_decision_inline(const LCState* s, const LCConfig* c, Rng* rng) noexcept nogil:
    """Same distribution and order as legal()[below(len)], without building the list."""
    cdef int p = s.to_move, np, nd, npass = 0, r, k, src
    cdef uint64_t h, plays
    if s.phase == PH_PLAY:
        h = s.hand[p].any
        plays = h & s.playable[row_of(s, p)]
        np = exp_popcount(plays)
        nd = exp_popcount(h)
        if lc_can_pass(s, c, p):
            # pairs of distinct types, plus one pair per type held at least twice
            npass = nd * (nd - 1) // 2 + exp_popcount(s.hand[p].extra & c.extra_lows)
        r = rng_below(rng, np + nd + npass)
        if r < np:
            return D_PLAY + exp_select(plays, r)
        if r < np + nd:
            return D_DISCARD + exp_select(h, r - np)
        return lc_random_pass(s, c, r - np - nd)
    src = lc_draw_sources(s)
    r = rng_below(rng, exp_popcount(src))
    k = exp_select(src, r)
    return D_DRAW_DECK if k == 0 else D_DRAW_PILE + k - 1


cdef int lc_random_decision(const void* sp, Rng* rng) noexcept nogil:
    cdef const LCState* s = <const LCState*>sp
    return lc_random_decision_inline(s, cfg_of(s), rng)


cdef int lc_playout(void* sp, Rng* rng) noexcept nogil:
    """Uniformly random decisions to the end of the match, a whole turn per loop.

    Draws the same random numbers as repeated random_decision + apply (the same games), but
    goes straight from the sampled index to the step, without encoding a decision id.
    """
    cdef LCState* s = <LCState*>sp
    cdef const LCConfig* c = cfg_of(s)
    cdef int n = 0, p, np, nd, npass, r, k, src, d
    cdef uint64_t h, plays
    while s.phase != PH_OVER:
        if s.phase == PH_PLAY:
            p = s.to_move
            h = s.hand[p].any
            plays = h & s.playable[row_of(s, p)]
            np = exp_popcount(plays)
            nd = exp_popcount(h)
            npass = 0
            if lc_can_pass(s, c, p):
                npass = nd * (nd - 1) // 2 + exp_popcount(s.hand[p].extra & c.extra_lows)
            r = rng_below(rng, np + nd + npass)
            n += 1
            if r < np:
                lc_do_play(s, c, exp_select(plays, r))
            elif r < np + nd:
                lc_do_discard(s, c, exp_select(h, r - np))
            else:
                d = lc_random_pass(s, c, r - np - nd) - D_PASS
                lc_do_pass(s, c, PASS_T1[d], PASS_T2[d])
                continue
        src = lc_draw_sources(s)
        r = rng_below(rng, exp_popcount(src))
        k = exp_select(src, r)
        n += 1
        if k == 0:
            lc_do_draw_deck(s, c)
        else:
            lc_do_draw_pile(s, c, k - 1)
    return n


cdef void lc_reset(void* sp, uint64_t seed) noexcept nogil:
    """Starts the match again with a new deal from `seed`, keeping edition and options."""
    cdef LCState* s = <LCState*>sp
    s.totals[0] = 0
    s.totals[1] = 0
    s.round = 0
    s.starter = 0
    s.rng = seed
    lc_deal(s)


cdef int lc_num_seats(const void* sp) noexcept nogil:
    return (<const LCState*>sp).nseats


cdef int lc_team_of(const void* sp, int seat) noexcept nogil:
    return row_of(<const LCState*>sp, seat)


cdef int lc_to_move(const void* sp) noexcept nogil:
    cdef const LCState* s = <const LCState*>sp
    return -1 if s.phase == PH_OVER else s.to_move


cdef int lc_round_index(const void* sp) noexcept nogil:
    return (<const LCState*>sp).round


cdef void lc_scores(const void* sp, double* out) noexcept nogil:
    cdef const LCState* s = <const LCState*>sp
    cdef int i
    for i in range(s.nseats):
        out[i] = s.totals[row_of(s, i)]


cdef void lc_returns(const void* sp, double* out) noexcept nogil:
    cdef const LCState* s = <const LCState*>sp
    cdef int team[MAX_SEATS]
    cdef double key[MAX_SEATS]
    cdef int i
    for i in range(s.nseats):
        team[i] = row_of(s, i)
        key[i] = s.totals[team[i]]
    rank_returns(s.nseats, team, key, out)


cdef int lc_reveal(const void* sp, int d) noexcept nogil:
    cdef const LCState* s = <const LCState*>sp
    if d == D_DRAW_DECK and s.deck_n > 0:
        return s.deck[s.deck_n - 1]
    return -1


cdef int lc_observe(const void* sp, int viewer, int d) noexcept nogil:
    # As State.history masks it: a pass between two opponents of the viewer is hidden.
    if d >= D_PASS and (viewer & 1) != (lc_to_move(sp) & 1):
        return -1
    return d


cdef void lc_determinize(void* sp, int seat, Rng* rng) noexcept nogil:
    """Redeals every card `seat` cannot see, keeping all it knows (docs/notation.md, Views)."""
    cdef LCState* s = <LCState*>sp
    cdef const LCConfig* c = cfg_of(s)
    cdef int cnt[MAX_TYPES]
    cdef uint8_t pool[MAX_CARDS]
    cdef uint8_t forced[MAX_CARDS]
    cdef uint8_t slot_seat[MAX_CARDS]
    cdef int unknown[MAX_SEATS]
    cdef CardSet fixed[MAX_SEATS]
    cdef int nseats = s.nseats, o, t, k, i, j, npool = 0, nforced = 0, nslots = 0, r
    cdef int partner = (seat + 2) % 4 if nseats == 4 else -1
    cdef int opp_row = 1 - row_of(s, seat)
    cdef uint8_t tmp
    cdef uint64_t m
    for t in range(c.ntypes):
        cnt[t] = c.copies[t]
    # Everything the seat sees is subtracted from the deck: own hand, rows, piles, known cards.
    for o in range(nseats):
        if o == seat:
            fixed[o] = s.hand[o]
        elif o == partner:
            fixed[o] = s.pknown[o]
        else:
            fixed[o] = s.known[o]
        unknown[o] = cs_size(&s.hand[o]) - cs_size(&fixed[o])
        m = fixed[o].any
        while m:
            t = exp_ctz(m)
            m &= m - 1
            cnt[t] -= cs_count(&fixed[o], c, t)
    for r in range(c.nrows):
        m = s.rows[r].any
        while m:
            t = exp_ctz(m)
            m &= m - 1
            cnt[t] -= cs_count(&s.rows[r], c, t)
    for k in range(c.npiles):
        for i in range(s.pile_n[k]):
            cnt[s.piles[k * c.pile_cap + i]] -= 1
    # Cards the opponents' team is known to hold (partners) go into the opposing hands first.
    if c.passes:
        m = s.tknown[opp_row].any
        while m:
            t = exp_ctz(m)
            m &= m - 1
            for i in range(cs_count(&s.tknown[opp_row], c, t)):
                forced[nforced] = t
                nforced += 1
                cnt[t] -= 1
    for t in range(c.ntypes):
        for i in range(cnt[t]):
            pool[npool] = t
            npool += 1
    # Unknown slots of the opposing hands, in a random order; the forced cards take the first.
    for o in range(nseats):
        if o != seat and o != partner:
            for i in range(unknown[o]):
                slot_seat[nslots] = o
                nslots += 1
    for i in range(nslots - 1, 0, -1):
        j = rng_below(rng, i + 1)
        tmp = slot_seat[i]
        slot_seat[i] = slot_seat[j]
        slot_seat[j] = tmp
    for i in range(npool - 1, 0, -1):
        j = rng_below(rng, i + 1)
        tmp = pool[i]
        pool[i] = pool[j]
        pool[j] = tmp
    for o in range(nseats):
        if o != seat:
            s.hand[o] = fixed[o]
            if c.passes and o != partner:
                s.pknown[o] = s.known[o]
    for i in range(nforced):
        cs_add(&s.hand[slot_seat[i]], c, forced[i])
        cs_add(&s.pknown[slot_seat[i]], c, forced[i])
    k = 0
    for i in range(nforced, nslots):
        cs_add(&s.hand[slot_seat[i]], c, pool[k])
        k += 1
    if partner >= 0:
        for i in range(unknown[partner]):
            cs_add(&s.hand[partner], c, pool[k])
            k += 1
    for i in range(s.deck_n):
        s.deck[i] = pool[k]
        k += 1
    s.rng = rng_next(rng)


cdef GameOps OPS[N_EDITIONS]


cdef const GameOps* lc_ops(int edition) noexcept nogil:
    """The rules table of card edition `edition` (0 classic, 1 partners, 2 expedition)."""
    return &OPS[edition]


cdef void _build_ops(int e, const char* name):
    cdef GameOps* o = &OPS[e]
    o.name = name
    o.state_size = sizeof(LCState)
    o.num_decision_ids = N_DECISIONS
    o.num_seats = lc_num_seats
    o.team_of = lc_team_of
    o.to_move = lc_to_move
    o.round_index = lc_round_index
    o.legal = lc_legal
    o.apply = lc_apply
    o.random_decision = lc_random_decision
    o.scores = lc_scores
    o.returns = lc_returns
    o.determinize = lc_determinize
    o.reveal = lc_reveal
    o.observe = lc_observe
    o.playout = lc_playout
    o.reset = lc_reset


_build_ops(ED_CLASSIC, b"classic")
_build_ops(ED_PARTNERS, b"partners")
_build_ops(ED_EXPEDITION, b"expedition")


# ===== the Python face: positions, views and decisions as text ====================================

from engine.options import OptionSpec, resolve_options

OPTION_SPECS = {
    "classic": (
        OptionSpec("rounds", 3, 1, 99, "rounds in a match"),
        OptionSpec("max_turns", 300, 1, 10000, "turns per round (all seats counted) before it is scored as ended"),
    ),
}
OPTION_SPECS["partners"] = OPTION_SPECS["classic"]
OPTION_SPECS["expedition"] = OPTION_SPECS["classic"] + (
    OptionSpec("cost", 0, 0, 100, "expedition cost subtracted from the sum of its numbers"),
)
SEATS = {name: _SEATS[e] for e, name in enumerate(EDITION_NAMES)}

_PHASES = ("play", "draw", "over")
_CARD_TEXT = []
_CARD_INDEX = []
for _e in range(N_EDITIONS):
    _texts = [col + rank for col in _COLOURS[_e] for rank in _RANKS[_e]]
    _CARD_TEXT.append(_texts)
    _CARD_INDEX.append({text: t for t, text in enumerate(_texts)})


def _decision_texts(int e):
    """Text of every decision id of edition e (None for ids the edition does not use)."""
    cdef const LCConfig* c = &CFG[e]
    texts = _CARD_TEXT[e]
    out = [None] * N_DECISIONS
    for t in range(c.ntypes):
        out[D_PLAY + t] = "+" + texts[t]
        out[D_DISCARD + t] = "-" + texts[t]
    out[D_DRAW_DECK] = "D"
    for k in range(c.npiles):
        out[D_DRAW_PILE + k] = "D" + ("-" if c.npiles == 1 else _COLOURS[e][k])
    if c.passes:
        for t2 in range(c.ntypes):
            for t1 in range(t2 + 1):
                out[pass_id(t1, t2)] = ">" + texts[t1] + texts[t2]
    return out


_DECISION_TEXT = [_decision_texts(_e) for _e in range(N_EDITIONS)]
_DECISION_INDEX = [{text: d for d, text in enumerate(texts) if text is not None} for texts in _DECISION_TEXT]
_DECISION_EXPECTED = [
    f"+card, -card, D, D<pile of {_COLOURS[_e] if CFG[_e].npiles > 1 else '-'}>" + (" or >cardcard" if CFG[_e].passes else "")
    for _e in range(N_EDITIONS)]

# Card type by its two characters, per edition (-1: not a card), for the notation parsers.
cdef int CARD_OF[N_EDITIONS][128][128]
memset(CARD_OF, 0xFF, sizeof(CARD_OF))
for _e in range(N_EDITIONS):
    for _t, _text in enumerate(_CARD_TEXT[_e]):
        CARD_OF[_e][ord(_text[0])][ord(_text[1])] = _t


cdef inline LCState* _lc(State st):
    return <LCState*>st.ptr


cdef str _pile_letter(int e, int k):
    return "-" if CFG[e].npiles == 1 else _COLOURS[e][k]


cdef str _format_set(int e, const CardSet* s):
    cdef const LCConfig* c = &CFG[e]
    cdef uint64_t m = s.any
    cdef int t
    if not m:
        return "-"
    parts = []
    texts = _CARD_TEXT[e]
    while m:
        t = exp_ctz(m)
        m &= m - 1
        parts.append(texts[t] * cs_count(s, c, t))
    return "".join(parts)


cdef str _format_stack(int e, const uint8_t* cards, int n):
    if n == 0:
        return "-"
    texts = _CARD_TEXT[e]
    return "".join([texts[cards[i]] for i in range(n)])


def _card_list(int e, str text, str field):
    """Cards of a set or stack text ('-' is empty) as type ids, in the order written."""
    cdef Py_ssize_t n = len(text), i
    cdef Py_UCS4 a, b
    cdef int t
    if text == "-":
        return []
    if n == 0:
        raise NotationError(f"{field}: empty entry", expected="cards, or - for none")
    if n % 2:
        raise NotationError(f"{field}: cards are two characters each", token=text,
                            expected=f"cards like {_CARD_TEXT[e][1]}{_CARD_TEXT[e][len(_CARD_TEXT[e]) - 1]}, or - for none")
    out = []
    for i in range(0, n, 2):
        a = text[i]
        b = text[i + 1]
        t = CARD_OF[e][a][b] if a < 128 and b < 128 else -1
        if t < 0:
            raise NotationError(f"{field}: unknown card", token=text[i:i + 2],
                                expected=f"a colour of {_COLOURS[e]} then a rank of {_RANKS[e]}")
        out.append(t)
    return out


cdef int _set_from_list(int e, list cards, CardSet* out, str field) except -1:
    cdef const LCConfig* c = &CFG[e]
    cdef int t
    for t in cards:
        if cs_count(out, c, t) >= c.copies[t]:
            raise NotationError(f"{field}: more copies than the deck has", token=_CARD_TEXT[e][t])
        cs_add(out, c, t)
    return 0


cdef int _parse_set(int e, str text, CardSet* out, str field) except -1:
    cards = _card_list(e, text, field)
    if cards != sorted(cards):
        raise NotationError(f"{field}: cards of a set are written in canonical order", token=text,
                            expected=_format_cards_sorted(e, cards))
    _set_from_list(e, cards, out, field)
    return 0


def _format_cards_sorted(int e, cards):
    return "".join(_CARD_TEXT[e][t] for t in sorted(cards)) or "-"


cdef bint _subset(const CardSet* a, const CardSet* b, const LCConfig* c):
    """a is a sub-multiset of b."""
    cdef uint64_t m = a.any
    cdef int t
    while m:
        t = exp_ctz(m)
        m &= m - 1
        if cs_count(a, c, t) > cs_count(b, c, t):
            return False
    return True


cdef int _read_header(object f, LCState* s, int* edition) except -1:
    """Edition name and rule options."""
    name = f.tokens[0]
    if name not in EDITION_NAMES:
        raise NotationError(f"unknown edition in {f.what}", token=name, expected=" or ".join(EDITION_NAMES))
    cdef int e = EDITION_NAMES.index(name)
    edition[0] = e
    specs = OPTION_SPECS[name]
    given = f.options(specs)
    opts = resolve_options(specs, given, name)
    memset(s, 0, sizeof(LCState))
    s.edition = e
    s.nseats = CFG[e].nseats
    s.rounds = opts["rounds"]
    s.max_turns = opts["max_turns"]
    s.cost = opts.get("cost", 20)
    return 0


cdef int _read_progress(object f, LCState* s) except -1:
    """The round/turn/phase fields shared by positions and views."""
    cdef const LCConfig* c = &CFG[s.edition]
    cdef int e = s.edition
    value = f.take("round")
    r, sep, total = value.partition("/")
    if not sep:
        raise NotationError("round: expected r/R", token=value)
    if _integer("round (total)", total, 1, 99) != s.rounds:
        raise NotationError("round: the total must equal the rounds option", token=value,
                            expected=f"r/{s.rounds}")
    s.round = _integer("round", r, 1, s.rounds) - 1
    s.starter = _integer("starter", f.take("starter"), 0, c.nseats - 1)
    s.turn = _integer("turn", f.take("turn"), 0, s.max_turns)
    phase = f.take("phase")
    if phase not in _PHASES:
        raise NotationError("phase", token=phase, expected="play, draw or over")
    s.phase = _PHASES.index(phase)
    value = f.take("to_move")
    if s.phase == PH_OVER:
        if value != "-":
            raise NotationError("to_move: the match is over", token=value, expected="-")
        s.to_move = NONE
        if s.round != s.rounds - 1:
            raise NotationError("phase=over before the last round", token=f"round={s.round + 1}/{s.rounds}")
    else:
        s.to_move = _integer("to_move", value, 0, c.nseats - 1)
        if s.turn >= s.max_turns:
            raise NotationError("turn: a running round has fewer turns than max_turns", token=str(s.turn),
                                expected=f"0..{s.max_turns - 1}")
    value = f.take("nodraw")
    if value == ".":
        s.nodraw = NONE
    else:
        letters = [_pile_letter(e, k) for k in range(c.npiles)]
        if value not in letters:
            raise NotationError("nodraw", token=value, expected=". or a pile: " + " ".join(letters))
        if s.phase != PH_DRAW:
            raise NotationError("nodraw: only a position in the draw phase has one", token=value, expected=".")
        s.nodraw = letters.index(value)
    parts = _listed("totals", f.take("totals"), c.nrows)
    for k in range(c.nrows):
        s.totals[k] = _integer("totals", parts[k], -1000000, 1000000)
    return 0


cdef int _read_table(object f, LCState* s) except -1:
    """rows= and piles=, and the playable masks they imply."""
    cdef const LCConfig* c = &CFG[s.edition]
    cdef int e = s.edition, k, col, t, top
    parts = _listed("rows", f.take("rows"), c.nrows)
    for k in range(c.nrows):
        _parse_set(e, parts[k], &s.rows[k], "rows")
        s.playable[k] = c.all_types
        for col in range(c.ncolours):
            top = -1
            for t in range(c.ntypes):
                if c.colour[t] == col and c.value[t] > 0 and cs_count(&s.rows[k], c, t):
                    if cs_count(&s.rows[k], c, t) > 1:
                        raise NotationError("rows: numbers of an expedition strictly increase",
                                            token=_CARD_TEXT[e][t] * 2)
                    top = t
            if top >= 0:
                s.playable[k] = (s.playable[k] & ~c.colour_types[col]) | c.above[top]
    parts = _listed("piles", f.take("piles"), c.npiles)
    for k in range(c.npiles):
        cards = _card_list(e, parts[k], "piles")
        if len(cards) > c.pile_cap:
            raise NotationError("piles: too many cards in one pile", token=parts[k])
        for i, t in enumerate(cards):
            if c.npiles > 1 and c.colour[t] != k:
                raise NotationError(f"piles: a card on the {_COLOURS[e][k]} pile", token=_CARD_TEXT[e][t],
                                    expected=f"cards of colour {_COLOURS[e][k]}")
            s.piles[k * c.pile_cap + i] = t
        s.pile_n[k] = len(cards)
        if cards:
            s.nonempty |= 1 << k
    if s.nodraw != NONE and s.pile_n[s.nodraw] == 0:
        raise NotationError("nodraw names an empty pile", token=_pile_letter(e, s.nodraw))
    return 0


cdef int _read_knowledge(object f, LCState* s, int viewer) except -1:
    """known= (and pknown=, tknown= in partners); viewer >= 0 reads a view's masked pknown."""
    cdef const LCConfig* c = &CFG[s.edition]
    cdef int e = s.edition, k
    parts = _listed("known", f.take("known"), c.nseats)
    for k in range(c.nseats):
        _parse_set(e, parts[k], &s.known[k], "known")
    if c.passes:
        parts = _listed("pknown", f.take("pknown"), c.nseats)
        for k in range(c.nseats):
            if viewer >= 0 and row_of(s, k) != row_of(s, viewer):
                if parts[k] != "?":
                    raise NotationError("pknown: a view cannot know what an opponent's partner knows",
                                        token=parts[k], expected="?")
                s.pknown[k] = s.known[k]
            else:
                _parse_set(e, parts[k], &s.pknown[k], "pknown")
        parts = _listed("tknown", f.take("tknown"), c.nrows)
        for k in range(c.nrows):
            _parse_set(e, parts[k], &s.tknown[k], "tknown")
    return 0


cdef int _validate(LCState* s, int viewer) except -1:
    """Checks a filled position for everything the rules guarantee (docs/notation.md)."""
    cdef const LCConfig* c = &CFG[s.edition]
    cdef int e = s.edition, k, t, size, row, a, b
    cdef int cnt[MAX_TYPES]
    cdef CardSet rest
    memset(cnt, 0, sizeof(cnt))
    for k in range(c.nseats):
        for t in range(c.ntypes):
            cnt[t] += cs_count(&s.hand[k], c, t)
    for k in range(c.nrows):
        for t in range(c.ntypes):
            cnt[t] += cs_count(&s.rows[k], c, t)
    for k in range(c.npiles):
        for t in range(s.pile_n[k]):
            cnt[s.piles[k * c.pile_cap + t]] += 1
    for t in range(s.deck_n):
        cnt[s.deck[t]] += 1
    for t in range(c.ntypes):
        if cnt[t] != c.copies[t]:
            raise NotationError(
                f"the position holds {cnt[t]} of card {_CARD_TEXT[e][t]}, the deck has {c.copies[t]}",
                token=_CARD_TEXT[e][t], expected="every card exactly once in hands, rows, piles and deck")
    if s.phase != PH_OVER and s.deck_n == 0:
        raise NotationError("deck: the draw pile is empty while the match runs", token="deck=-")
    for k in range(c.nseats):
        size = cs_size(&s.hand[k])
        mover_drawing = s.phase == PH_DRAW and k == s.to_move
        if not c.passes:
            want = c.hand_size - (1 if mover_drawing else 0)
            if size != want and s.phase != PH_OVER:
                raise NotationError(f"hands: seat {k} holds {size} cards", expected=f"{want}")
        elif size < c.min_hand - (1 if mover_drawing else 0) and s.phase != PH_OVER:
            raise NotationError(f"hands: seat {k} holds {size} cards", expected=f"at least {c.min_hand}")
        if not _subset(&s.known[k], &s.hand[k], c):
            raise NotationError(f"known: seat {k}'s known cards are not all in its hand",
                                token=_format_set(e, &s.known[k]))
        if c.passes:
            if not _subset(&s.known[k], &s.pknown[k], c) or not _subset(&s.pknown[k], &s.hand[k], c):
                raise NotationError(f"pknown: seat {k}'s entry must lie between its known cards and its hand",
                                    token=_format_set(e, &s.pknown[k]))
    if c.passes and s.phase != PH_OVER:
        for row in range(c.nrows):
            size = cs_size(&s.hand[row]) + cs_size(&s.hand[row + 2])
            want = 2 * c.hand_size - (1 if s.phase == PH_DRAW and row_of(s, s.to_move) == row else 0)
            if size != want:
                raise NotationError(f"hands: team {row} holds {size} cards", expected=f"{want}")
    if c.passes:
        for row in range(c.nrows):
            a, b = row, row + 2
            rest.any = 0
            rest.extra = 0
            cs_union(&rest, &s.hand[a], c)
            cs_union(&rest, &s.hand[b], c)
            for t in range(c.ntypes):
                for _ in range(cs_count(&s.known[a], c, t) + cs_count(&s.known[b], c, t)):
                    cs_remove(&rest, c, t)
            if not _subset(&s.tknown[row], &rest, c):
                raise NotationError(f"tknown: team {row}'s entry is not in its hands beside the known cards",
                                    token=_format_set(e, &s.tknown[row]))
    return 0


cdef class CardState(State):
    """A position of `classic`, `partners` or `expedition` (see docs/notation.md).

    >>> import engine
    >>> s = engine.new_game("classic", seed=1, rounds=1)
    >>> s.to_text().split()[:4]
    ['classic', 'rounds=1', 'max_turns=300', 'round=1/1']
    >>> s.apply("D") # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    engine.errors.IllegalDecisionError: illegal decision D for seat 0
    """

    @property
    def phase(self) -> str:
        """'play', 'draw' or 'over'."""
        return _PHASES[_lc(self).phase]

    @property
    def round(self) -> int:
        """The current round, 1-based."""
        return _lc(self).round + 1

    @property
    def turn(self) -> int:
        """Turns completed in the current round."""
        return _lc(self).turn

    def turns_left(self, int seat) -> int:
        """Turns with a play that `seat` still has in the match if every turn draws from the draw
        pile: the rest of this round and each later one (a round lasts longer when seats draw from
        the discard piles or pass; a later round counts its turns up to the next seat's, its starter
        not being known yet). What a clock is shared over; 0 once the match is over.

        >>> import engine
        >>> s = engine.new_game("classic", seed=1, rounds=2)
        >>> s.turns_left(0), s.turns_left(1)
        (44, 44)
        >>> s.apply("+b7"); s.turns_left(0), s.turns_left(1)  # seat 0's turn has had its play
        (43, 44)
        """
        self._check_seat(seat)
        cdef LCState* s = _lc(self)
        cdef const LCConfig* c = cfg_of(s)
        if s.phase == PH_OVER:
            return 0
        return turns_left_of(s.phase == PH_PLAY, s.deck_n, s.max_turns - s.turn, s.to_move, seat, s.nseats,
                             s.rounds - 1 - s.round, min(c.deck_size - s.nseats * c.hand_size, s.max_turns))

    @property
    def options(self) -> dict:
        cdef LCState* s = _lc(self)
        out = {"rounds": s.rounds, "max_turns": s.max_turns}
        if s.edition == ED_EXPEDITION:
            out["cost"] = s.cost
        return out

    def totals(self) -> list:
        """Scores of the completed rounds per row (seat; team in partners)."""
        cdef LCState* s = _lc(self)
        return [s.totals[k] for k in range(CFG[s.edition].nrows)]

    def row_score(self, int row) -> int:
        """What a row's expeditions would score if the round ended now."""
        if not 0 <= row < 2:
            raise ValueError(f"row {row} out of range 0..1")
        return lc_row_score(_lc(self), row)

    def expedition_score(self, int row, str colour) -> int:
        """What one expedition (row, colour letter) would score if the round ended now."""
        cdef LCState* s = _lc(self)
        letters = _COLOURS[s.edition]
        if not 0 <= row < 2 or len(colour) != 1 or colour not in letters:
            raise ValueError(f"expected a row 0..1 and a colour of {letters}, got {row}, {colour!r}")
        return lc_expedition_score(s, row, letters.index(colour))

    # ----- decisions ---------------------------------------------------------------------
    def decision_to_text(self, int d) -> str:
        cdef int e = _lc(self).edition
        if 0 <= d < N_DECISIONS:
            text = _DECISION_TEXT[e][d]
            if text is not None:
                return text
        raise ValueError(f"{d} is not a decision id of {EDITION_NAMES[e]}")

    def parse_decision(self, str text) -> int:
        cdef int e = _lc(self).edition
        d = _DECISION_INDEX[e].get(text)
        if d is not None:
            return d
        if CFG[e].passes and len(text) == 5 and text[0] == ">":
            d = _DECISION_INDEX[e].get(">" + text[3:5] + text[1:3])  # the two cards in the other order
            if d is not None:
                return d
        if not text:
            raise NotationError("empty decision", expected=_DECISION_EXPECTED[e])
        raise NotationError(f"not a decision of {EDITION_NAMES[e]}", token=text, expected=_DECISION_EXPECTED[e])

    # ----- history ---------------------------------------------------------------------------
    def revealed_text(self, int revealed) -> str:
        """The text of what a decision revealed to its mover (a card drawn from the draw pile)."""
        return _CARD_TEXT[_lc(self).edition][revealed]

    def parse_revealed(self, str text) -> int:
        """The inverse of `revealed_text`: the card type of a card's text.

        >>> import engine
        >>> state = engine.new_game("classic", seed=1)
        >>> state.revealed_text(state.parse_revealed("g7"))
        'g7'
        """
        t = _CARD_INDEX[_lc(self).edition].get(text)
        if t is None:
            raise NotationError(f"not a card of {EDITION_NAMES[_lc(self).edition]}", token=text)
        return t

    def history(self, seat=None, bint previous=False) -> list:
        """The decisions of the current round as text; masked for `seat` if given (else the
        referee's record, with the cards drawn from the draw pile). With `previous`, those of the
        round before, including the decision that ended it (kept in memory since that decision
        was applied; not part of the notation).

        >>> import engine
        >>> state = engine.new_game("classic", seed=1, rounds=2, max_turns=2)
        >>> for _ in range(4):
        ...     state.apply(state.legal()[-1])
        >>> state.round_index, state.history(), state.history(1, previous=True)
        (1, [], ['-r7', 'D', '-r6', 'D:wT'])
        """
        cdef int e = _lc(self).edition
        cdef long entry
        cdef int mover, d, revealed, viewer = -1
        if seat is not None:
            self._check_seat(seat)
            viewer = seat
        texts = _DECISION_TEXT[e]
        cards = _CARD_TEXT[e]
        out = []
        for entry in (self._previous_history if previous else self._history):
            mover = entry >> 24
            d = (entry >> 8) & 0xFFFF
            revealed = (entry & 0xFF) - 1
            if viewer < 0 or viewer == mover:
                out.append(texts[d] if revealed < 0 else f"{texts[d]}:{cards[revealed]}")
            elif d >= D_PASS and (viewer & 1) != (mover & 1):
                out.append(">?")      # a pass between opponents
            else:
                out.append(texts[d])
        return out

    def pretty(self, seat=None) -> str:
        """A text picture of the table; with `seat`, hands that seat cannot see are hidden.

        >>> import engine
        >>> print(engine.new_game("expedition", seed=2).pretty().splitlines()[0])
        expedition  round 1/3  turn 0  seat 0 to play  totals 0 / 0  deck 38
        """
        cdef LCState* s = _lc(self)
        cdef int e = s.edition, k, col, t, row
        cdef const LCConfig* c = &CFG[e]
        if seat is not None:
            self._check_seat(seat)
        texts = _CARD_TEXT[e]
        if s.phase == PH_OVER:
            status = "match over"
        else:
            status = f"seat {s.to_move} to {_PHASES[s.phase]}"
        lines = [f"{EDITION_NAMES[e]}  round {s.round + 1}/{s.rounds}  turn {s.turn}  {status}  "
                 f"totals {' / '.join(str(s.totals[k]) for k in range(c.nrows))}  deck {s.deck_n}"]
        piles = []
        for k in range(c.npiles):
            cards = [texts[s.piles[k * c.pile_cap + i]] for i in range(s.pile_n[k])]
            piles.append(f"{_pile_letter(e, k)}: {' '.join(cards[max(0, len(cards) - 4):]) or '-'}" + (" …" if len(cards) > 4 else ""))
        lines.append("piles  " + "  |  ".join(piles))
        for row in range(c.nrows):
            cells = []
            for col in range(c.ncolours):
                cards = [texts[t][1] * cs_count(&s.rows[row], c, t) for t in range(c.ntypes)
                         if c.colour[t] == col and cs_count(&s.rows[row], c, t)]
                if cards:
                    cells.append(f"{_COLOURS[e][col]}: {''.join(cards)} ({lc_expedition_score(s, row, col):+d})")
            who = f"team {row}" if c.nseats == 4 else f"seat {row}"
            lines.append(f"{who:<7} row  {'  '.join(cells) or '-'}  = {lc_row_score(s, row):+d}")
        for k in range(c.nseats):
            if seat is None or k == seat:
                hand = " ".join(texts[t] for t in range(c.ntypes) for _ in range(cs_count(&s.hand[k], c, t)))
            else:
                seen = &s.pknown[k] if (c.passes and k == (seat + 2) % 4) else &s.known[k]
                known = [texts[t] for t in range(c.ntypes) for _ in range(cs_count(seen, c, t))]
                hand = " ".join(known + ["??"] * (cs_size(&s.hand[k]) - len(known)))
            marker = "*" if s.phase != PH_OVER and k == s.to_move else " "
            lines.append(f"seat {k}{marker} hand {hand}")
        return "\n".join(lines)

    # ----- positions -----------------------------------------------------------------------
    def to_text(self) -> str:
        """The full position (referee view); `from_text(to_text())` gives it back exactly."""
        return _write_position(_lc(self), -1, self._history)

    def view_text(self, int seat) -> str:
        """What `seat` knows, with the masked history of the current round."""
        self._check_seat(seat)
        return _write_position(_lc(self), seat, self._history)

    def view(self, int seat):
        """The seat's view as an `engine.View`."""
        from engine.view import View
        return View.from_text(self.view_text(seat))

    def _format(self, int viewer) -> str:
        """The text of the position (viewer < 0) or of viewer's view, field by field in Python:
        the readable statement of the notation, which the one-pass writer in C
        (`_write_position`) must match (tests compare them)."""
        cdef LCState* s = _lc(self)
        cdef int e = s.edition, k
        cdef const LCConfig* c = &CFG[e]
        out = [EDITION_NAMES[e], f"rounds={s.rounds}", f"max_turns={s.max_turns}"]
        if e == ED_EXPEDITION:
            out.append(f"cost={s.cost}")
        if viewer >= 0:
            out.append(f"seat={viewer}")
        out.append(f"round={s.round + 1}/{s.rounds}")
        out.append(f"starter={s.starter}")
        out.append(f"turn={s.turn}")
        out.append(f"phase={_PHASES[s.phase]}")
        out.append("to_move=" + ("-" if s.phase == PH_OVER else str(s.to_move)))
        out.append("nodraw=" + ("." if s.nodraw == NONE else _pile_letter(e, s.nodraw)))
        out.append("totals=" + "/".join(str(s.totals[k]) for k in range(c.nrows)))
        hands = []
        for k in range(c.nseats):
            if viewer < 0 or k == viewer:
                hands.append(_format_set(e, &s.hand[k]))
            else:
                seen = &s.pknown[k] if (c.passes and k == (viewer + 2) % 4) else &s.known[k]
                hidden = cs_size(&s.hand[k]) - cs_size(seen)
                text = _format_set(e, seen) if seen.any else ""
                text += f"?{hidden}" if hidden else ""
                hands.append(text or "-")
        out.append("hands=" + "/".join(hands))
        out.append("rows=" + "/".join(_format_set(e, &s.rows[k]) for k in range(c.nrows)))
        out.append("piles=" + "/".join(_format_stack(e, &s.piles[k * c.pile_cap], s.pile_n[k])
                                       for k in range(c.npiles)))
        out.append("deck=" + (str(s.deck_n) if viewer >= 0 else _format_stack(e, s.deck, s.deck_n)))
        out.append("known=" + "/".join(_format_set(e, &s.known[k]) for k in range(c.nseats)))
        if c.passes:
            out.append("pknown=" + "/".join(
                "?" if viewer >= 0 and (k & 1) != (viewer & 1) else _format_set(e, &s.pknown[k])
                for k in range(c.nseats)))
            out.append("tknown=" + "/".join(_format_set(e, &s.tknown[k]) for k in range(c.nrows)))
        if viewer < 0:
            out.append(f"rng={s.rng:016x}")
        else:
            out.append("history=" + (",".join(self.history(viewer)) or "-"))
        return " ".join(out)

    @classmethod
    def from_text(cls, str text) -> CardState:
        """Parses a full position; raises NotationError naming the bad field."""
        cdef LCState s
        cdef int e, k
        f = FieldReader(text, "position")
        _read_header(f, &s, &e)
        c = &CFG[e]
        _read_progress(f, &s)
        parts = _listed("hands", f.take("hands"), c.nseats)
        for k in range(c.nseats):
            _parse_set(e, parts[k], &s.hand[k], "hands")
        _read_table(f, &s)
        cards = _card_list(e, f.take("deck"), "deck")
        for k, t in enumerate(cards):
            s.deck[k] = t
        s.deck_n = len(cards)
        _read_knowledge(f, &s, -1)
        value = f.take("rng")
        if len(value) != 16 or any(ch not in "0123456789abcdef" for ch in value):
            raise NotationError("rng", token=value, expected="16 lowercase hex digits")
        s.rng = int(value, 16)
        f.finish()
        _validate(&s, -1)
        cdef CardState st = cls.__new__(cls)
        st._adopt(&OPS[e], &s)
        return st

    @classmethod
    def parse_view(cls, str text, bint fast=True, bint raw_history=False):
        """Parses a view: (a position consistent with it, the seat, the history as text).

        The position deals the cards the seat cannot see in canonical order; determinize it
        (State.determinized) to sample one at random. Views as the engine writes them are read
        by a single pass in C; anything else (and every error) goes through the field-by-field
        reader, which names what is wrong. `fast=False` forces the latter (tests compare them).
        With `raw_history` the history comes back as its text (comma-separated, `-` for none), for
        callers that split it only when they need it.
        """
        cdef LCState s
        cdef int seat = 0
        cdef int unknown[MAX_SEATS]
        cdef bytes raw
        cdef Py_ssize_t start = 0, length = 0
        if fast and text.isascii():
            raw = text.encode("ascii")
            # an error found here is reported by the reader below, with its own wording
            if lc_load_view(raw, len(raw), &s, &seat, &start, &length):
                history = raw[start:start + length].decode()
                if not raw_history:
                    history = [] if history == "-" else history.split(",")
                return _card_state(cls, &s), seat, history
        seat, history = _read_view(text, &s, unknown)
        _fill_unseen(&s, seat, unknown)
        _validate(&s, seat)
        if raw_history:
            history = ",".join(history) or "-"
        return _card_state(cls, &s), seat, history


cdef int lc_load_view(const char* text, Py_ssize_t n, LCState* s, int* seat, Py_ssize_t* hist_start,
                      Py_ssize_t* hist_len) except -1:
    """Reads a view written as the engine writes it into `s` (the unseen cards dealt in canonical
    order) and where its history is: 1, or 0 when the one-pass scanner cannot read it or the view
    is inconsistent, in which case the field-by-field reader (parse_view) names what is wrong.
    parse_view's fast path, and loops that answer views without building Python objects
    (protocol/fastloop.pyx)."""
    cdef int unknown[MAX_SEATS]
    if not _scan_view(text, text + n, s, seat, unknown, hist_start, hist_len):
        return 0
    try:
        _fill_unseen(s, seat[0], unknown)
        _validate(s, seat[0])
    except NotationError:
        return 0
    return 1


cdef CardState _card_state(type cls, LCState* s):
    cdef CardState st = cls.__new__(cls)
    st._adopt(&OPS[s.edition], s)
    return st


cdef tuple _read_view(str text, LCState* s, int* unknown):
    """The field-by-field view reader: fills the struct and the unknown counts; returns (seat, history)."""
    cdef int e, k, seat, partner
    cdef const LCConfig* c
    cdef const CardSet* want
    f = FieldReader(text, "view")
    _read_header(f, s, &e)
    c = &CFG[e]
    seat = _integer("seat", f.take("seat"), 0, c.nseats - 1)
    partner = (seat + 2) % 4 if c.passes else -1
    _read_progress(f, s)
    parts = _listed("hands", f.take("hands"), c.nseats)
    for k in range(c.nseats):
        part = parts[k]
        cards_text, q, count = part.partition("?")
        if k == seat and q:
            raise NotationError("hands: the viewer's own hand is fully known", token=part)
        unknown[k] = _integer("hands (unknown cards)", count, 0, c.deck_size) if q else 0
        if cards_text == "" and not q:
            raise NotationError("hands: empty entry", token=part, expected="cards, ?n or -")
        cards = _card_list(e, cards_text or "-", "hands")
        if cards != sorted(cards):
            raise NotationError("hands: cards of a set are written in canonical order", token=part)
        _set_from_list(e, cards, &s.hand[k], "hands")
    _read_table(f, s)
    s.deck_n = _integer("deck", f.take("deck"), 0, c.deck_size)
    _read_knowledge(f, s, seat)
    for k in range(c.nseats):
        if k != seat:
            want = &s.pknown[k] if k == partner else &s.known[k]
            if want.any != s.hand[k].any or want.extra != s.hand[k].extra:
                raise NotationError(f"hands: seat {k}'s known cards disagree with "
                                    + ("pknown" if k == partner else "known"), token=parts[k],
                                    expected=_format_set(e, want))
    history_text = f.take("history")
    f.finish()
    return seat, ([] if history_text == "-" else history_text.split(","))


cdef int _fill_unseen(LCState* s, int seat, int* unknown) except -1:
    """Deals the cards a view does not show, in canonical order: the opposing team's tknown cards
    first into the opposing hands, then every other unknown place (hands by seat, then the draw pile)."""
    cdef const LCConfig* c = &CFG[s.edition]
    cdef int e = s.edition, k, t, i, opp, npool = 0, slots = 0, need
    cdef int cnt[MAX_TYPES]
    cdef uint8_t pool[MAX_CARDS]
    for t in range(c.ntypes):
        cnt[t] = c.copies[t]
    for k in range(c.nseats):
        for t in range(c.ntypes):
            cnt[t] -= cs_count(&s.hand[k], c, t)
    for k in range(c.nrows):
        for t in range(c.ntypes):
            cnt[t] -= cs_count(&s.rows[k], c, t)
    for k in range(c.npiles):
        for i in range(s.pile_n[k]):
            cnt[s.piles[k * c.pile_cap + i]] -= 1
    for t in range(c.ntypes):
        if cnt[t] < 0:
            raise NotationError(f"the view shows more of card {_CARD_TEXT[e][t]} than the deck has",
                                token=_CARD_TEXT[e][t])
        npool += cnt[t]
    for k in range(c.nseats):
        slots += unknown[k]
    slots += s.deck_n
    if npool != slots:
        raise NotationError(f"the view hides {slots} cards (unknown hand cards and draw pile) "
                            f"but {npool} cards are unaccounted for", token=f"deck={s.deck_n}")
    if c.passes:
        opp = 1 - row_of(s, seat)
        for t in range(c.ntypes):
            need = cs_count(&s.tknown[opp], c, t)
            if need > cnt[t]:
                raise NotationError("tknown: a card that cannot be in the opposing hands", token=_CARD_TEXT[e][t])
            for i in range(need):
                cnt[t] -= 1
                if unknown[opp] > 0:
                    k = opp
                elif unknown[opp + 2] > 0:
                    k = opp + 2
                else:
                    raise NotationError("tknown: more cards than the opposing hands hide",
                                        token=_format_set(e, &s.tknown[opp]))
                cs_add(&s.hand[k], c, t)
                cs_add(&s.pknown[k], c, t)
                unknown[k] -= 1
    npool = 0
    for t in range(c.ntypes):
        for i in range(cnt[t]):
            pool[npool] = t
            npool += 1
    i = 0
    for k in range(c.nseats):
        for t in range(unknown[k]):
            cs_add(&s.hand[k], c, pool[i])
            i += 1
    for k in range(s.deck_n):
        s.deck[k] = pool[i]
        i += 1
    return 0


# ----- the fast view scanner: one pass over the bytes, no Python objects; 0 means "not the
# canonical form" (the field reader then parses it, or names what is wrong) -----------------

cdef inline bint _key(const char** p, const char* end, const char* key) noexcept nogil:
    """Consumes `key=`."""
    cdef const char* q = p[0]
    while key[0] != 0:
        if q >= end or q[0] != key[0]:
            return False
        q += 1
        key += 1
    if q >= end or q[0] != c'=':
        return False
    p[0] = q + 1
    return True


cdef inline bint _num(const char** p, const char* end, int* out, int low, int high) noexcept nogil:
    cdef const char* q = p[0]
    cdef bint neg = False
    cdef long v = 0
    cdef int digits = 0
    if q < end and q[0] == c'-':
        neg = True
        q += 1
    while q < end and c'0' <= q[0] <= c'9' and digits < 9:
        v = v * 10 + (q[0] - c'0')
        q += 1
        digits += 1
    if digits == 0 or (q < end and c'0' <= q[0] <= c'9'):
        return False
    if neg:
        v = -v
    if v < low or v > high:
        return False
    out[0] = <int>v
    p[0] = q
    return True


cdef inline bint _sep(const char** p, const char* end, char ch) noexcept nogil:
    if p[0] < end and p[0][0] == ch:
        p[0] += 1
        return True
    return False


cdef inline bint _at_sep(const char* p, const char* end) noexcept nogil:
    return p >= end or p[0] == c' ' or p[0] == c'/' or p[0] == c'?'


cdef bint _cards(const char** p, const char* end, int e, CardSet* out, bint sorted_set,
                 uint8_t* stack, int* stack_n, int cap) noexcept nogil:
    """A set ('-' or cards in canonical order) or, with `stack`, a stack in written order."""
    cdef const LCConfig* c = &CFG[e]
    cdef const char* q = p[0]
    cdef int t, last = -1, n = 0
    if q < end and q[0] == c'-' and _at_sep(q + 1, end):
        p[0] = q + 1
        if stack_n != NULL:
            stack_n[0] = 0
        return True
    while not _at_sep(q, end):
        if q + 1 >= end or <unsigned char>q[0] >= 128 or <unsigned char>q[1] >= 128:
            return False
        t = CARD_OF[e][<unsigned char>q[0]][<unsigned char>q[1]]
        if t < 0:
            return False
        if stack != NULL:
            if n >= cap:
                return False
            stack[n] = t
            n += 1
        else:
            if sorted_set and t < last:
                return False
            if cs_count(out, c, t) >= c.copies[t]:
                return False
            cs_add(out, c, t)
            last = t
        q += 2
    if q == p[0]:
        return False
    if stack_n != NULL:
        stack_n[0] = n
    p[0] = q
    return True


cdef bint _scan_view(const char* p, const char* end, LCState* s, int* seat_out, int* unknown,
                     Py_ssize_t* hist_start, Py_ssize_t* hist_len) noexcept:
    cdef const char* begin = p
    cdef int e = -1, k, v, col, t, top, seat, r, partner
    cdef const LCConfig* c
    cdef const CardSet* want
    cdef int n
    memset(s, 0, sizeof(LCState))
    for k in range(N_EDITIONS):
        if _key_word(&p, end, k):
            e = k
            break
    if e < 0:
        return False
    c = &CFG[e]
    s.edition = e
    s.nseats = c.nseats
    if not (_key(&p, end, b"rounds") and _num(&p, end, &v, 1, 99)):
        return False
    s.rounds = v
    if not (_sep(&p, end, c' ') and _key(&p, end, b"max_turns") and _num(&p, end, &v, 1, 10000)):
        return False
    s.max_turns = v
    s.cost = 20
    if e == ED_EXPEDITION:
        if not (_sep(&p, end, c' ') and _key(&p, end, b"cost") and _num(&p, end, &v, 0, 100)):
            return False
        s.cost = v
    if not (_sep(&p, end, c' ') and _key(&p, end, b"seat") and _num(&p, end, &seat, 0, c.nseats - 1)):
        return False
    partner = (seat + 2) % 4 if c.passes else -1
    if not (_sep(&p, end, c' ') and _key(&p, end, b"round") and _num(&p, end, &r, 1, s.rounds)
            and _sep(&p, end, c'/') and _num(&p, end, &v, s.rounds, s.rounds)):
        return False
    s.round = r - 1
    if not (_sep(&p, end, c' ') and _key(&p, end, b"starter") and _num(&p, end, &v, 0, c.nseats - 1)):
        return False
    s.starter = v
    if not (_sep(&p, end, c' ') and _key(&p, end, b"turn") and _num(&p, end, &v, 0, s.max_turns)):
        return False
    s.turn = v
    if not (_sep(&p, end, c' ') and _key(&p, end, b"phase")):
        return False
    if end - p >= 4 and memcmp(p, b"play", 4) == 0:
        s.phase = PH_PLAY
    elif end - p >= 4 and memcmp(p, b"draw", 4) == 0:
        s.phase = PH_DRAW
    elif end - p >= 4 and memcmp(p, b"over", 4) == 0:
        s.phase = PH_OVER
    else:
        return False
    p += 4
    if not (_sep(&p, end, c' ') and _key(&p, end, b"to_move")):
        return False
    if s.phase == PH_OVER:
        if not _sep(&p, end, c'-') or s.round != s.rounds - 1:
            return False
        s.to_move = NONE
    else:
        if not _num(&p, end, &v, 0, c.nseats - 1) or s.turn >= s.max_turns:
            return False
        s.to_move = v
    if not (_sep(&p, end, c' ') and _key(&p, end, b"nodraw")) or p >= end:
        return False
    s.nodraw = NONE
    if p[0] != c'.':
        if s.phase != PH_DRAW:
            return False
        for k in range(c.npiles):
            if p[0] == (c'-' if c.npiles == 1 else _PILE_LETTERS[e][k]):
                s.nodraw = k
        if s.nodraw == NONE:
            return False
    p += 1
    if not (_sep(&p, end, c' ') and _key(&p, end, b"totals")):
        return False
    for k in range(c.nrows):
        if (k and not _sep(&p, end, c'/')) or not _num(&p, end, &v, -1000000, 1000000):
            return False
        s.totals[k] = v
    if not (_sep(&p, end, c' ') and _key(&p, end, b"hands")):
        return False
    for k in range(c.nseats):
        if k and not _sep(&p, end, c'/'):
            return False
        unknown[k] = 0
        if p < end and p[0] == c'?':
            if k == seat:
                return False
        elif not _cards(&p, end, e, &s.hand[k], True, NULL, NULL, 0):
            return False
        if p < end and p[0] == c'?':
            if k == seat:
                return False
            p += 1
            if not _num(&p, end, &unknown[k], 0, c.deck_size):
                return False
    if not (_sep(&p, end, c' ') and _key(&p, end, b"rows")):
        return False
    for k in range(c.nrows):
        if (k and not _sep(&p, end, c'/')) or not _cards(&p, end, e, &s.rows[k], True, NULL, NULL, 0):
            return False
        s.playable[k] = c.all_types
        for col in range(c.ncolours):
            top = -1
            for t in range(c.ntypes):
                if c.colour[t] == col and c.value[t] > 0 and cs_count(&s.rows[k], c, t):
                    if cs_count(&s.rows[k], c, t) > 1:
                        return False
                    top = t
            if top >= 0:
                s.playable[k] = (s.playable[k] & ~c.colour_types[col]) | c.above[top]
    if not (_sep(&p, end, c' ') and _key(&p, end, b"piles")):
        return False
    for k in range(c.npiles):
        if k and not _sep(&p, end, c'/'):
            return False
        if not _cards(&p, end, e, NULL, False, &s.piles[k * c.pile_cap], &n, c.pile_cap):
            return False
        s.pile_n[k] = n
        if n:
            s.nonempty |= 1 << k
        if c.npiles > 1:
            for v in range(n):
                if c.colour[s.piles[k * c.pile_cap + v]] != k:
                    return False
    if s.nodraw != NONE and s.pile_n[s.nodraw] == 0:
        return False
    if not (_sep(&p, end, c' ') and _key(&p, end, b"deck") and _num(&p, end, &v, 0, c.deck_size)):
        return False
    s.deck_n = v
    if not (_sep(&p, end, c' ') and _key(&p, end, b"known")):
        return False
    for k in range(c.nseats):
        if (k and not _sep(&p, end, c'/')) or not _cards(&p, end, e, &s.known[k], True, NULL, NULL, 0):
            return False
    if c.passes:
        if not (_sep(&p, end, c' ') and _key(&p, end, b"pknown")):
            return False
        for k in range(c.nseats):
            if k and not _sep(&p, end, c'/'):
                return False
            if row_of(s, k) != row_of(s, seat):
                if not _sep(&p, end, c'?'):
                    return False
                s.pknown[k] = s.known[k]
            elif not _cards(&p, end, e, &s.pknown[k], True, NULL, NULL, 0):
                return False
        if not (_sep(&p, end, c' ') and _key(&p, end, b"tknown")):
            return False
        for k in range(c.nrows):
            if (k and not _sep(&p, end, c'/')) or not _cards(&p, end, e, &s.tknown[k], True, NULL, NULL, 0):
                return False
    for k in range(c.nseats):
        if k != seat:
            want = &s.pknown[k] if k == partner else &s.known[k]
            if want.any != s.hand[k].any or want.extra != s.hand[k].extra:
                return False
    if not (_sep(&p, end, c' ') and _key(&p, end, b"history")) or p >= end:
        return False
    hist_start[0] = p - begin
    while p < end and p[0] != c' ':
        p += 1
    hist_len[0] = (p - begin) - hist_start[0]
    if p != end:
        return False
    seat_out[0] = seat
    return True


cdef bint _key_word(const char** p, const char* end, int e) noexcept:
    """Consumes the edition name `e` and the space after it."""
    cdef bytes name = EDITION_BYTES[e]
    cdef const char* w = name
    cdef Py_ssize_t n = len(name)
    if end - p[0] < n + 1 or memcmp(p[0], w, n) != 0 or p[0][n] != c' ':
        return False
    p[0] += n + 1
    return True


EDITION_BYTES = tuple(name.encode() for name in EDITION_NAMES)
cdef char _PILE_LETTERS[N_EDITIONS][MAX_PILES]
for _e in range(N_EDITIONS):
    for _k, _ch in enumerate(_COLOURS[_e][:MAX_PILES]):
        _PILE_LETTERS[_e][_k] = ord(_ch)


# ----- the one-pass writer: positions and views into a char buffer (the referee writes a view
# for every decision); `CardState._format` is the field-by-field statement it must equal -----

cdef char CARD_CHARS[N_EDITIONS][MAX_TYPES][2]
cdef char DECISION_CHARS[N_EDITIONS][N_DECISIONS][6]
cdef uint8_t DECISION_LEN[N_EDITIONS][N_DECISIONS]
for _e in range(N_EDITIONS):
    for _t, _text in enumerate(_CARD_TEXT[_e]):
        CARD_CHARS[_e][_t][0] = ord(_text[0])
        CARD_CHARS[_e][_t][1] = ord(_text[1])
    for _d, _text in enumerate(_DECISION_TEXT[_e]):
        if _text is not None:
            for _i, _ch in enumerate(_text):
                DECISION_CHARS[_e][_d][_i] = ord(_ch)
            DECISION_LEN[_e][_d] = len(_text)


cdef inline char* _put(char* p, const char* text) noexcept nogil:
    while text[0] != 0:
        p[0] = text[0]
        p += 1
        text += 1
    return p


cdef inline char* _put_int(char* p, long v) noexcept nogil:
    cdef char digits[24]
    cdef int n = 0
    cdef unsigned long u
    if v < 0:
        p[0] = c'-'
        p += 1
        u = <unsigned long>(-v)
    else:
        u = <unsigned long>v
    while True:
        digits[n] = c'0' + <char>(u % 10)
        n += 1
        u //= 10
        if u == 0:
            break
    while n > 0:
        n -= 1
        p[0] = digits[n]
        p += 1
    return p


cdef inline char* _put_sep(char* p, int k, char c) noexcept nogil:
    """The separator `c` before every entry of a list but the first (entry k)."""
    if k:
        p[0] = c
        return p + 1
    return p


cdef inline char* _put_card(char* p, int e, int t) noexcept nogil:
    p[0] = CARD_CHARS[e][t][0]
    p[1] = CARD_CHARS[e][t][1]
    return p + 2


cdef char* _put_set(char* p, int e, const CardSet* s, bint dash) noexcept nogil:
    """The cards of a set in canonical order; `-` for the empty set when `dash`."""
    cdef const LCConfig* c = &CFG[e]
    cdef uint64_t m = s.any
    cdef int t, k
    if not m and dash:
        p[0] = c'-'
        return p + 1
    while m:
        t = exp_ctz(m)
        m &= m - 1
        for k in range(cs_count(s, c, t)):
            p = _put_card(p, e, t)
    return p


cdef char* _put_stack(char* p, int e, const uint8_t* cards, int n) noexcept nogil:
    cdef int i
    if n == 0:
        p[0] = c'-'
        return p + 1
    for i in range(n):
        p = _put_card(p, e, cards[i])
    return p


cdef inline char _pile_char(int e, int k) noexcept nogil:
    return c'-' if CFG[e].npiles == 1 else _PILE_LETTERS[e][k]


cdef str _write_position(const LCState* s, int viewer, list history):
    """The position's text (viewer < 0), or viewer's view with its masked history."""
    cdef int e = s.edition, k, hidden, mover, d, revealed
    cdef const LCConfig* c = &CFG[e]
    cdef const CardSet* seen
    cdef long entry
    cdef Py_ssize_t size = 2048 + 16 * len(history)
    cdef char* buf = <char*>PyMem_Malloc(size)
    cdef char* p
    if buf == NULL:
        raise MemoryError()
    try:
        p = _put(buf, EDITION_C[e])
        p = _put(p, b" rounds=")
        p = _put_int(p, s.rounds)
        p = _put(p, b" max_turns=")
        p = _put_int(p, s.max_turns)
        if e == ED_EXPEDITION:
            p = _put(p, b" cost=")
            p = _put_int(p, s.cost)
        if viewer >= 0:
            p = _put(p, b" seat=")
            p = _put_int(p, viewer)
        p = _put(p, b" round=")
        p = _put_int(p, s.round + 1)
        p[0] = c'/'
        p = _put_int(p + 1, s.rounds)
        p = _put(p, b" starter=")
        p = _put_int(p, s.starter)
        p = _put(p, b" turn=")
        p = _put_int(p, s.turn)
        p = _put(p, b" phase=play" if s.phase == PH_PLAY else b" phase=draw" if s.phase == PH_DRAW else b" phase=over")
        p = _put(p, b" to_move=")
        if s.phase == PH_OVER:
            p[0] = c'-'
            p += 1
        else:
            p = _put_int(p, s.to_move)
        p = _put(p, b" nodraw=")
        p[0] = c'.' if s.nodraw == NONE else _pile_char(e, s.nodraw)
        p = _put(p + 1, b" totals=")
        for k in range(c.nrows):
            p = _put_sep(p, k, c'/')
            p = _put_int(p, s.totals[k])
        p = _put(p, b" hands=")
        for k in range(c.nseats):
            p = _put_sep(p, k, c'/')
            if viewer < 0 or k == viewer:
                p = _put_set(p, e, &s.hand[k], True)
            else:
                seen = &s.pknown[k] if (c.passes and k == (viewer + 2) % 4) else &s.known[k]
                hidden = cs_size(&s.hand[k]) - cs_size(seen)
                p = _put_set(p, e, seen, False)
                if hidden:
                    p[0] = c'?'
                    p = _put_int(p + 1, hidden)
                elif not seen.any:
                    p[0] = c'-'
                    p += 1
        p = _put(p, b" rows=")
        for k in range(c.nrows):
            p = _put_sep(p, k, c'/')
            p = _put_set(p, e, &s.rows[k], True)
        p = _put(p, b" piles=")
        for k in range(c.npiles):
            p = _put_sep(p, k, c'/')
            p = _put_stack(p, e, &s.piles[k * c.pile_cap], s.pile_n[k])
        p = _put(p, b" deck=")
        if viewer >= 0:
            p = _put_int(p, s.deck_n)
        else:
            p = _put_stack(p, e, s.deck, s.deck_n)
        p = _put(p, b" known=")
        for k in range(c.nseats):
            p = _put_sep(p, k, c'/')
            p = _put_set(p, e, &s.known[k], True)
        if c.passes:
            p = _put(p, b" pknown=")
            for k in range(c.nseats):
                p = _put_sep(p, k, c'/')
                if viewer >= 0 and (k & 1) != (viewer & 1):
                    p[0] = c'?'
                    p += 1
                else:
                    p = _put_set(p, e, &s.pknown[k], True)
            p = _put(p, b" tknown=")
            for k in range(c.nrows):
                p = _put_sep(p, k, c'/')
                p = _put_set(p, e, &s.tknown[k], True)
        if viewer < 0:
            p = _put(p, b" rng=")
            for k in range(15, -1, -1):
                p[0] = b"0123456789abcdef"[(s.rng >> (4 * k)) & 15]
                p += 1
        else:
            p = _put(p, b" history=")
            if not history:
                p[0] = c'-'
                p += 1
            k = 0
            for entry in history:
                p = _put_sep(p, k, c',')
                k = 1
                mover = entry >> 24
                d = (entry >> 8) & 0xFFFF
                revealed = (entry & 0xFF) - 1
                if viewer != mover and d >= D_PASS and (viewer & 1) != (mover & 1):
                    p = _put(p, b">?")
                    continue
                memcpy(p, DECISION_CHARS[e][d], DECISION_LEN[e][d])
                p += DECISION_LEN[e][d]
                if revealed >= 0 and viewer == mover:
                    p[0] = c':'
                    p = _put_card(p + 1, e, revealed)
        return buf[:p - buf].decode("ascii")
    finally:
        PyMem_Free(buf)


cdef const char* EDITION_C[N_EDITIONS]
EDITION_C[0] = b"classic"
EDITION_C[1] = b"partners"
EDITION_C[2] = b"expedition"


def new_state(str edition, seed, options) -> CardState:
    """Deals the first round of a new match from `seed` (options already validated)."""
    if edition not in EDITION_NAMES:
        raise ValueError(f"not a card edition: {edition!r}")
    cdef int e = EDITION_NAMES.index(edition)
    cdef LCState s
    opts = resolve_options(OPTION_SPECS[edition], options, edition)
    memset(&s, 0, sizeof(LCState))
    s.edition = e
    s.nseats = CFG[e].nseats
    s.rounds = opts["rounds"]
    s.max_turns = opts["max_turns"]
    s.cost = opts.get("cost", 20)
    s.rng = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
    s.starter = 0
    lc_deal(&s)
    cdef CardState st = CardState.__new__(CardState)
    st._adopt(&OPS[e], &s)
    return st


def expedition_score(str edition, cards, cost=None) -> int:
    """Scores one colour's expedition given as card texts (for tests and tools).

    >>> expedition_score("classic", ["yW", "yW", "yW"])
    -80
    """
    cdef int e = EDITION_NAMES.index(edition)
    cdef LCState s
    memset(&s, 0, sizeof(LCState))
    s.edition = e
    s.cost = (0 if e == ED_EXPEDITION else 20) if cost is None else cost
    cols = set()
    for card in cards:
        (t,) = _card_list(e, card, "cards")
        cols.add(CFG[e].colour[t])
        _set_from_list(e, [t], &s.rows[0], "cards")
    if len(cols) > 1:
        raise ValueError("an expedition holds cards of one colour")
    return lc_expedition_score(&s, 0, cols.pop()) if cols else 0
