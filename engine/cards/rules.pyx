# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The rules of the Lost Cities card games `classic`, `partners` and `expedition` (no text here:
the notation is engine/cards/notation.pyx).

The three editions share one rules core, parameterised by a per-edition table (`LCConfig`):
deck, colours, hand size, seats and rows, one discard pile per colour or a single pile, and
whether partners may pass cards. Rules as in RULES.md sections 1-3.

Card sets are bitboards over card *types* (colour x rank, < 64 per edition). A set is two words:
`any` has bit t when the set holds at least one card of type t, and `extra` counts the further
identical copies (the wagers; `partners`' second low cards) in unary, in bits reserved per type.
Each zone's set is therefore canonical, legality is mask arithmetic on `any`, and equal positions
are equal bytes.

>>> from engine.cards.rules import EDITION_NAMES, SEATS, OPTION_SPECS
>>> EDITION_NAMES, SEATS
(('classic', 'partners', 'expedition'), (2, 4, 2))
>>> [spec.name for spec in OPTION_SPECS[2]]
['rounds', 'max_turns', 'cost']
"""
from libc.string cimport memset, memcpy
from libc.stdint cimport uint8_t, uint64_t

from engine._core cimport (GameOps, LoadView, DecisionText, Rng, rng_next, rng_below, rules_of, exp_popcount,
                           exp_ctz, exp_select, rank_returns, MAX_SEATS)

from engine.options import OptionSpec

cdef LCConfig CFG[N_EDITIONS]
cdef uint8_t PASS_T1[N_PASS_IDS]
cdef uint8_t PASS_T2[N_PASS_IDS]

EDITION_NAMES = ("classic", "partners", "expedition")
"""The editions in the order of their index (ED_CLASSIC, ED_PARTNERS, ED_EXPEDITION)."""
SEATS = (2, 4, 2)
_NCOLOURS = (5, 5, 4)
_RANK_VALUES = ((0, 2, 3, 4, 5, 6, 7, 8, 9, 10), (0, 2, 3, 4, 5, 6, 7, 8, 9, 10),
                (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10))
_COPIES = (
    (3, 1, 1, 1, 1, 1, 1, 1, 1, 1),
    (3, 2, 2, 2, 1, 1, 1, 1, 1, 1),
    (3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
)
_HAND = (8, 8, 7)

_ROUNDS = OptionSpec("rounds", 3, 1, 99, "rounds in a match")
_MAX_TURNS = OptionSpec("max_turns", 300, 1, 10000, "turns per round (all seats counted) before it is scored as ended")
_COST = OptionSpec("cost", 0, 0, 100, "expedition cost subtracted from the sum of its numbers")
OPTION_SPECS = ((_ROUNDS, _MAX_TURNS), (_ROUNDS, _MAX_TURNS), (_ROUNDS, _MAX_TURNS, _COST))
"""Per edition index, its rule options in the order of `lc_options` (and of the notation's header)."""


cdef void _build_config(int e):
    cdef LCConfig* c = &CFG[e]
    memset(c, 0, sizeof(LCConfig))
    c.edition = e
    c.nseats = SEATS[e]
    c.nrows = 2
    c.ncolours = _NCOLOURS[e]
    c.nranks = len(_RANK_VALUES[e])
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


cdef void lc_blank(LCState* s, int edition, const int* options) noexcept nogil:
    """A position of `edition` with nothing in it but its rule options (values in the order of
    OPTION_SPECS): what a deal (lc_reset) or the notation fills in."""
    memset(s, 0, sizeof(LCState))
    s.edition = edition
    s.nseats = CFG[edition].nseats
    s.rounds = options[0]
    s.max_turns = options[1]
    s.cost = options[2] if edition == ED_EXPEDITION else FIXED_COST


cdef int lc_options(const void* sp, int* out) noexcept nogil:
    """The values of the position's rule options in the order of OPTION_SPECS; returns how many."""
    cdef const LCState* s = <const LCState*>sp
    out[0] = s.rounds
    out[1] = s.max_turns
    if s.edition == ED_EXPEDITION:
        out[2] = s.cost
        return 3
    return 2


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


cdef int lc_rounds(const void* sp) noexcept nogil:
    return (<const LCState*>sp).rounds


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


cdef int lc_reveal(const void* sp, int d, int* out) noexcept nogil:
    """A draw from the draw pile shows its mover the card drawn."""
    cdef const LCState* s = <const LCState*>sp
    if d == D_DRAW_DECK and s.deck_n > 0:
        out[0] = s.deck[s.deck_n - 1]
        return 1
    return 0


cdef void lc_deal_slots(LCState* s, const LCConfig* c, const uint8_t* slot_seat, int nslots,
                        const uint8_t* pool) noexcept nogil:
    """Deals pool[i] into the hand of seat slot_seat[i] for each of the nslots unknown hand slots,
    then the rest of the pool, in its order, as the draw pile (its deck_n cards)."""
    cdef int i
    for i in range(nslots):
        cs_add(&s.hand[slot_seat[i]], c, pool[i])
    for i in range(s.deck_n):
        s.deck[i] = pool[nslots + i]


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
    if partner >= 0:  # the partner's unknown cards come after the opponents'
        for i in range(unknown[partner]):
            slot_seat[nslots] = partner
            nslots += 1
    lc_deal_slots(s, c, slot_seat + nforced, nslots - nforced, pool)
    s.rng = rng_next(rng)


cdef GameOps OPS[N_EDITIONS]


cdef const GameOps* lc_ops(int edition) noexcept nogil:
    """The rules table of card edition `edition` (0 classic, 1 partners, 2 expedition)."""
    return &OPS[edition]


cdef void lc_set_notation(int edition, LoadView load_view, DecisionText decision_text) noexcept:
    """Completes an edition's table with its compiled notation: engine/cards/notation.pyx calls it
    at import (the rules know no text)."""
    OPS[edition].load_view = load_view
    OPS[edition].decision_text = decision_text


cdef void _build_ops(int e, const char* name):
    cdef GameOps* o = &OPS[e]
    o.name = name
    o.state_size = sizeof(LCState)
    o.num_decision_ids = N_DECISIONS
    o.num_seats = lc_num_seats
    o.team_of = lc_team_of
    o.to_move = lc_to_move
    o.round_index = lc_round_index
    o.rounds = lc_rounds
    o.legal = lc_legal
    o.apply = lc_apply
    o.random_decision = lc_random_decision
    o.scores = lc_scores
    o.returns = lc_returns
    o.determinize = lc_determinize
    o.reveal = lc_reveal
    o.margin = 1
    o.playout = lc_playout
    o.reset = lc_reset
    o.options = lc_options


_NAMES_C = tuple(name.encode() for name in EDITION_NAMES)  # kept alive: OPS[e].name points into them
for _e in range(N_EDITIONS):
    _build_ops(_e, _NAMES_C[_e])
RULES = tuple(rules_of(&OPS[_e]) for _e in range(N_EDITIONS))
"""Per edition index, its rules as the Python object an edition's record carries."""
