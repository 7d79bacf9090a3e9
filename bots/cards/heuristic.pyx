# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The Lost Cities heuristic (`classic`, `partners`, `expedition`): one greedy decision, as nogil C
over the engine's `LCState`, shared by the greedy bot and the searcher's rollouts. docs/bots.md describes it with its weights and measurements.

The idea: project what each expedition of a row will be worth at the end of the round, then pick
the decision that leaves the best projection. For one colour the projection is

    (row numbers + s * held numbers + q * unseen numbers - cost) * (1 + wagers) + 8-card bonus

counting only cards that can still be played (above the row's last number). `s` <= 1 scales the
held cards down when they want more turns than the seat has left (from the draw pile size); `q`
is the chance that a given unseen card reaches the row in time (draws left / unseen cards, times
`late` for arriving after the row passed it, times `contest` when the opponents' expedition of
that colour takes it too). Held wagers, and unseen ones while the expedition has no number yet
(`wager_wait`), multiply only a positive sum; the bonus is ramped in from 7 to 8 projected cards;
an expedition not opened yet is worth max(0, projection) — it may stay empty.

A play is scored by the change of its colour's projection plus `tempo` (a card moves from hand to
row and is no longer scaled by `s`; what it skips, held or unseen, is lost); opening an expedition
or playing a wager below a projected threshold costs `open_pen`. A discard is scored by the
projection it loses plus what it feeds the opponents (a number above their last card of an opened
expedition is worth value * (1 + their wagers) to them, less in a colour they have not opened);
a draw from a discard pile by the card's gain plus what taking it denies the opponents, against
the expected gain of an unseen card from the draw pile (plus `shorten` when ahead: the draw pile is
the clock). Rules of thumb: take the last card of the draw pile when ahead, never when behind.
Equal scores are broken with the caller's generator.

Information: the decision reads only what the seat to move knows: its hand, rows, discard piles,
cards publicly known in other hands (`known`; in `partners` also `pknown` of its partner and the
opponents' `tknown`), hand sizes and the draw pile size. Never another hand's unknown cards nor the
draw pile's order: the Python face hands it views whose hidden cards are dealt canonically, and
the decision must be the same for every determinization.

>>> import engine
>>> s = engine.new_game("classic", seed=3, rounds=1)
>>> decision_scores(s)[0][0] in s.legal_text()
True
"""
from libc.stdint cimport uint32_t, uint64_t

from bots.choice cimport best_scored
from bots.heuristics cimport new_heuristic
from engine._core cimport State, Rng, rng_below, rng_unit, exp_popcount, exp_ctz, MAX_LEGAL
from engine.cards.rules cimport (LCState, LCConfig, CardSet, lc_config, lc_legal, lc_legal_passes, lc_row_score,
                                 cs_count, cs_size, row_of, pile_of, pass_id, D_DISCARD,
                                 D_DRAW_DECK, D_DRAW_PILE, D_PASS, PH_PLAY, PH_DRAW, PH_OVER,
                                 N_EDITIONS, MAX_PILES, MAX_TYPES)

from bots.params import with_overrides

# Per edition. A colour's types are consecutive bits (rank 0 = wager), so within one colour a card
# set is a small "rank mask" that indexes tables of value sums and card counts.
cdef struct Tables:
    uint64_t numbers           # number-card types
    uint32_t rankmask
    int nranks
    uint32_t above[MAX_TYPES]  # rank mask of the numbers of t's colour above t
    double sums[2048]          # value sum of a rank mask
    double cnts[2048]          # cards in a rank mask

cdef Tables TAB[N_EDITIONS]


cdef void _build_tables():
    cdef int e, t, bits, rank, total
    cdef const LCConfig* c
    cdef Tables* T
    for e in range(N_EDITIONS):
        c = lc_config(e)
        T = &TAB[e]
        T.nranks = c.nranks
        T.rankmask = (1u << c.nranks) - 1
        T.numbers = 0
        for t in range(c.ntypes):
            if c.value[t] > 0:
                T.numbers |= (<uint64_t>1) << t
            T.above[t] = <uint32_t>((c.above[t] >> (c.colour[t] * c.nranks)) & T.rankmask)
        for bits in range(1 << c.nranks):
            total = 0
            for rank in range(c.nranks):
                if (bits >> rank) & 1:
                    total += c.value[rank]  # colour 0: type == rank
            T.sums[bits] = total
            T.cnts[bits] = exp_popcount(bits)


_build_tables()

_CLASSIC = {
    # projection
    "late": 0.9, "contest": 0.75, "wager_wait": 0.4, "partner_w": 0.7,
    # plays
    "tempo": 3.0, "open_min": 1.0, "open_held": 0.0, "wager_min": 1.0, "open_pen": 30.0,
    "wager_pen": 2.0,
    # discards and draws
    "feed": 0.8, "deny": 0.5, "new_frac": 0.2, "wager_opp": 3.0, "wager_opp_new": 0.5,
    "known_frac": 0.4, "bury": 0.3, "deck_w": 1.0, "deck_bonus": 1.0, "shorten": 2.0,
    # rules of thumb
    "endgame": 1, "pass_mode": 0, "pass_thresh": 4.0,
}
DEFAULT_PARAMS = {
    "classic": _CLASSIC,
    "partners": {**_CLASSIC, "late": 0.75, "contest": 0.5, "wager_wait": 0.25, "tempo": 2.0,
                 "open_min": -1.0, "wager_min": -2.0, "wager_pen": 0.0, "shorten": 0.0},
    "expedition": {**_CLASSIC, "late": 1.05, "contest": 0.5, "wager_wait": 0.25},
}
"""The heuristic's weights per edition, tuned by self-play (docs/bots.md)."""
EDITION_NAMES = ("classic", "partners", "expedition")  # engine.cards.rules order (ED_*)

cdef HeurParams DEFAULTS[N_EDITIONS]
for _e, _name in enumerate(EDITION_NAMES):
    DEFAULTS[_e] = DEFAULT_PARAMS[_name]


def default_params(edition: str = "classic") -> dict:
    """The heuristic's weights for an edition as a dict (see docs/bots.md).

    >>> default_params("classic")["late"] > 0
    True
    """
    return dict(DEFAULTS[EDITION_NAMES.index(edition)])


def check_params(edition: str, overrides: dict | None) -> dict:
    """The edition's default weights updated with `overrides`; KeyError on an unknown name."""
    return with_overrides(default_params(edition), overrides)


cdef const HeurParams* lc_default_params(int edition) noexcept nogil:
    return &DEFAULTS[edition]

# ----- projection ---------------------------------------------------------------------------------

# One colour of one row as the projection sees it; card sets are rank masks of the colour.
ctypedef struct Col:
    double rsum        # sum of the numbers in the row
    int rcnt           # cards in the row (wagers included)
    int rw             # wagers in the row
    int started        # the row holds a card of this colour
    int hw             # wagers held that may still be played
    int uw             # wagers unseen (or in the draw pile) that may still be played
    uint32_t play      # ranks the row may still take
    uint32_t hand      # number ranks held that may still be played
    uint32_t team      # partners: playable number ranks known in the partner's hand
    uint32_t unseen    # playable number ranks the row may still get (unseen / in the draw pile)
    uint32_t contested # those of them the opponents can play too (weight qc instead of q)
    double base        # projected sum of numbers minus the cost (set by col_value)
    double cnt         # projected number of cards (set by col_value)

# What one decision shares across colours.
ctypedef struct Ctx:
    const LCConfig* c
    const Tables* T
    const HeurParams* P
    double cost
    double s           # scale of held cards: min(1, turns left / cards wanting a turn)
    double q           # chance that an unseen card reaches the row in time
    double qc          # the same for a card the opponents' opened expedition also takes
    double qw          # the same for a wager (before the expedition's first number)
    double open_held   # row + held numbers needed to open an expedition
    double pw          # weight of the partner's known cards
    double new_frac    # worth to the opponents of a card of a colour they have not opened
    double open_min    # projected sum - cost needed to open an expedition
    uint64_t opp_known # cards publicly known in the opponents' hands
    int nunseen


cdef inline double finish(const Ctx* x, const Col* k, double base, double cnt, int hw) noexcept nogil:
    """An expedition's projected score from its projected sum minus cost (base) and card count.
    Branch-free: it runs for every candidate decision and its comparisons are unpredictable."""
    cdef double w = x.s * hw + x.qw * k.uw
    cdef double v, bonus, floor
    w = w if base > 0.0 else 0.0  # wagers only multiply a profitable expedition
    v = base * (1.0 + k.rw + w)
    # The 8-card bonus, in part for a nearly-8 projection (exactly the rule once nothing is expected).
    bonus = cnt + w - 7.0
    bonus = bonus if bonus > 0.0 else 0.0
    bonus = bonus if bonus < 1.0 else 1.0
    v += 20.0 * bonus
    floor = -1e300 if k.started else 0.0  # an expedition not opened yet may stay empty
    return v if v > floor else floor


cdef inline double col_value(const Ctx* x, Col* k) noexcept nogil:
    """Projected final score of one expedition (0 at least, if it is not opened yet); keeps its
    base and count in k, so that one card more or less is a cheap update (finish)."""
    cdef const double* sums = x.T.sums
    cdef const double* cnts = x.T.cnts
    k.base = (k.rsum + x.s * (sums[k.hand] + x.pw * sums[k.team])
              + x.q * sums[k.unseen] + x.qc * sums[k.contested] - x.cost)
    k.cnt = (k.rcnt + x.s * (cnts[k.hand] + x.pw * cnts[k.team])
             + x.q * cnts[k.unseen] + x.qc * cnts[k.contested])
    return finish(x, k, k.base, k.cnt, k.hw)


cdef void project(Ctx* x, Col* cols, double* vals, int ncol, double plays) noexcept nogil:
    """Values of all colours; held cards are scaled down when they need more turns than remain.

    The cards that want a turn are those of opened expeditions and of colours whose held and
    expected cards already cover the cost (a cheap stand-in for "would be opened")."""
    cdef int col
    cdef double want = 0.0, n
    cdef const Col* k
    x.s = 1.0
    for col in range(ncol):
        k = &cols[col]
        n = x.T.cnts[k.hand] + x.q * x.T.cnts[k.unseen] + x.qc * x.T.cnts[k.contested]
        if k.started:
            want += n + k.hw
        elif (x.T.sums[k.hand] + x.q * x.T.sums[k.unseen] + x.qc * x.T.sums[k.contested]
              > x.cost):
            want += n + k.hw
    if want > plays:
        x.s = plays / want
    for col in range(ncol):
        vals[col] = col_value(x, &cols[col])


cdef inline void turn_window(const LCState* s, int* n, int* first) noexcept nogil:
    """Turns left with a play (everyone drawing from the draw pile) and the seat of the first."""
    cdef int left
    if s.phase == PH_PLAY:
        n[0] = s.deck_n
        left = s.max_turns - s.turn
        first[0] = s.to_move
    else:
        n[0] = s.deck_n - 1
        left = s.max_turns - s.turn - 1
        first[0] = s.to_move + 1 if s.to_move + 1 < s.nseats else 0
    if left < n[0]:
        n[0] = left
    if n[0] < 0:
        n[0] = 0


cdef inline int plays_of(int n, int first, int seat, int nseats) noexcept nogil:
    """Plays left for seat among n turns starting at seat first (nseats is 2 or 4: a shift)."""
    cdef int off = seat - first
    if off < 0:
        off += nseats
    return 0 if off >= n else (n - off + nseats - 1) >> (nseats >> 1)


cdef inline int draws_of(const LCState* s, int plays, int seat) noexcept nogil:
    """Draws whose card the seat can still play: all but the one after its last play."""
    if s.phase == PH_DRAW and seat == s.to_move:
        return plays
    return plays - 1 if plays > 0 else 0


cdef inline void read_col(const Ctx* x, const LCState* s, int r, int col, uint64_t hand_any,
                          int hw, int uw, uint64_t team, uint64_t unseen, Col* k) noexcept nogil:
    cdef const LCConfig* c = x.c
    cdef int sh = col * c.nranks
    cdef uint32_t rm = x.T.rankmask
    cdef uint32_t nums = <uint32_t>(x.T.numbers >> sh) & rm
    cdef uint32_t rowc = <uint32_t>(s.rows[r].any >> sh) & rm
    cdef uint32_t opp = 0
    k.play = <uint32_t>(s.playable[r] >> sh) & rm
    k.started = rowc != 0
    k.rw = cs_count(&s.rows[r], c, sh) if rowc & 1 else 0
    k.rsum = x.T.sums[rowc]
    k.rcnt = exp_popcount(rowc & nums) + k.rw
    k.hand = <uint32_t>(hand_any >> sh) & k.play & nums
    k.hw = hw if k.play & 1 else 0
    k.uw = uw if k.play & 1 else 0
    k.team = <uint32_t>(team >> sh) & k.play & nums & ~k.hand
    k.unseen = <uint32_t>(unseen >> sh) & k.play & nums
    if (s.rows[1 - r].any >> sh) & rm:  # the opponents race for the cards above their last one
        opp = <uint32_t>(s.playable[1 - r] >> sh) & nums
    k.contested = k.unseen & opp
    k.unseen &= ~opp


cdef inline void init_ctx(Ctx* x, const LCState* s, const HeurParams* P) noexcept nogil:
    x.c = lc_config(s.edition)
    x.T = &TAB[s.edition]
    x.P = P
    x.cost = s.cost
    x.pw = P.partner_w
    # With a lower expedition cost any card is likelier to open an expedition for the opponents.
    x.new_frac = P.new_frac
    if s.cost < 20:
        x.new_frac += (0.5 - P.new_frac) * (20 - s.cost) / 20.0
    x.open_min = P.open_min * s.cost / 20.0
    x.open_held = P.open_held * s.cost / 20.0


cdef void read_view(const LCState* s, int p, const HeurParams* P, Ctx* x, Col* cols,
                    double* vals) noexcept nogil:
    """Projection of seat p's row from what p knows (see the module docstring)."""
    init_ctx(x, s, P)
    cdef const LCConfig* c = x.c
    cdef int r = row_of(s, p), nseats = s.nseats, o, k, i, col, n, first, plays, draws
    cdef int partner = (p + 2) % 4 if c.passes else -1
    cdef uint64_t seen = s.hand[p].any | s.rows[0].any | s.rows[1].any
    cdef uint64_t team = 0, unseen
    cdef int hidden = 0, partner_hidden = 0
    cdef const CardSet* ks
    cdef const unsigned char* pile
    cdef int uw[MAX_PILES]
    x.opp_known = 0
    for col in range(c.ncolours):
        uw[col] = c.copies[col * c.nranks]
    for k in range(c.npiles):
        pile = &s.piles[k * c.pile_cap]
        for i in range(s.pile_n[k]):
            seen |= (<uint64_t>1) << pile[i]
            uw[c.colour[pile[i]]] -= c.value[pile[i]] == 0
    for o in range(nseats):
        if o == p:
            continue
        ks = &s.pknown[o] if o == partner else &s.known[o]
        seen |= ks.any
        i = cs_size(&s.hand[o]) - cs_size(ks)
        hidden += i
        if o == partner:
            team = ks.any
            partner_hidden = i
        else:
            x.opp_known |= ks.any
    if c.passes:  # the opponents' team holds these, in one hand or the other
        x.opp_known |= s.tknown[1 - r].any
        seen |= s.tknown[1 - r].any
        hidden -= cs_size(&s.tknown[1 - r])
    # Only number cards are projected; a type with a copy in sight counts as seen (partners' lows).
    unseen = x.T.numbers & ~seen
    x.nunseen = s.deck_n + hidden
    turn_window(s, &n, &first)
    plays = plays_of(n, first, p, nseats)
    draws = draws_of(s, plays, p)
    if partner >= 0:  # the partner plays into the same row: its draws and hidden cards count too
        draws += draws_of(s, plays_of(n, first, partner, nseats), partner) + partner_hidden
    x.q = P.late * draws / x.nunseen if x.nunseen > 0 else 0.0
    if x.q > P.late:
        x.q = P.late
    x.qc = x.q * P.contest
    x.qw = x.q * P.wager_wait
    for col in range(c.ncolours):
        i = col * c.nranks
        k = cs_count(&s.hand[p], c, i)
        if (s.playable[r] >> i) & 1 and P.wager_wait != 0.0:  # unseen wagers still count
            uw[col] -= k + cs_count(&s.rows[0], c, i) + cs_count(&s.rows[1], c, i)
            for o in range(nseats):
                if o != p:
                    uw[col] -= cs_count(&s.pknown[o] if o == partner else &s.known[o], c, i)
            if c.passes:
                uw[col] -= cs_count(&s.tknown[1 - r], c, i)
        read_col(x, s, r, col, s.hand[p].any, k, uw[col], team, unseen, &cols[col])
    project(x, cols, vals, c.ncolours, plays)


cdef double deck_gain(const Ctx* x, const Col* cols, const double* vals) noexcept nogil:
    """Expected gain of a card from the draw pile: one of the unseen cards, which moves from
    weight q (might come) to weight s (held)."""
    cdef int col
    cdef double mult, gain = 0.0
    if x.nunseen <= 0:
        return 0.0
    for col in range(x.c.ncolours):
        if vals[col] > 0.0 or cols[col].started:
            mult = 1.0 + cols[col].rw + (cols[col].hw if vals[col] > 0.0 else 0)
            gain += mult * ((x.s - x.q) * x.T.sums[cols[col].unseen]
                            + (x.s - x.qc) * x.T.sums[cols[col].contested])
    return gain / x.nunseen


cdef double row_now(const Ctx* x, const LCState* s, int r) noexcept nogil:
    """What row r's expeditions are worth now: the projection with nothing more to come."""
    cdef const LCConfig* c = x.c
    cdef uint32_t rowc
    cdef int col, sh, rw
    cdef double total = 0.0
    for col in range(c.ncolours):
        sh = col * c.nranks
        rowc = <uint32_t>(s.rows[r].any >> sh) & x.T.rankmask
        if rowc:
            rw = cs_count(&s.rows[r], c, sh) if rowc & 1 else 0
            total += (x.T.sums[rowc] - x.cost) * (1 + rw)
            if x.T.cnts[rowc] - (rowc & 1) + rw >= 8:
                total += 20.0
    return total

# ----- scoring decisions --------------------------------------------------------------------------

cdef inline double opp_worth(const Ctx* x, const LCState* s, int o, int t) noexcept nogil:
    """What a card of type t is worth to row o if it gets it (0 when that row cannot play it)."""
    cdef const LCConfig* c = x.c
    cdef int col = c.colour[t], v = c.value[t]
    cdef uint64_t ct = c.colour_types[col]
    cdef double frac
    if not ((s.playable[o] >> t) & 1):
        return 0.0
    if s.rows[o].any & ct:
        return v * (1.0 + cs_count(&s.rows[o], c, col * c.nranks)) if v > 0 else x.P.wager_opp
    # Not opened yet: likelier to be opened when they are known to collect the colour.
    frac = x.new_frac + (x.P.known_frac if x.opp_known & ct else 0.0)
    return frac * v if v > 0 else x.P.wager_opp_new + frac * x.P.wager_opp


cdef inline double own_gain(const Ctx* x, const Col* cols, const double* vals, int t) noexcept nogil:
    """What holding one more card of type t adds to the projection."""
    cdef int col = x.c.colour[t]
    cdef uint32_t bit = 1u << (t - col * x.T.nranks)
    cdef const Col* k = &cols[col]
    cdef double v = x.c.value[t], base, cnt
    if not (k.play & bit) or (k.hand & bit):
        return 0.0
    if bit == 1u:
        return finish(x, k, k.base, k.cnt, k.hw + 1) - vals[col]
    base = k.base + x.s * v
    cnt = k.cnt + x.s
    if k.team & bit:  # it no longer counts as the partner's
        base -= x.s * x.pw * v
        cnt -= x.s * x.pw
    return finish(x, k, base, cnt, k.hw) - vals[col]


cdef inline double score_play(const Ctx* x, const Col* cols, const double* vals, int t) noexcept nogil:
    cdef int col = x.c.colour[t], v = x.c.value[t]
    cdef Col k = cols[col]
    cdef uint32_t above
    cdef double g = x.P.tempo, after
    cdef int opening = not k.started
    k.rcnt += 1
    k.started = 1
    if v > 0:
        above = x.T.above[t]
        k.rsum += v
        k.play = above        # what this card skips is lost, in hand and unseen alike
        k.hand &= above
        k.team &= above
        k.unseen &= above
        k.contested &= above
        k.hw = 0
        k.uw = 0
    else:
        k.rw += 1
        k.hw -= 1
        g -= x.P.wager_pen
    after = col_value(x, &k)
    # Commit to an expedition (or multiply it) only when it projects clearly profitable.
    if ((opening and (k.base < x.open_min or k.rsum + x.T.sums[k.hand] < x.open_held))
            or (v == 0 and k.base < x.P.wager_min)):
        g -= x.P.open_pen
    return g + after - vals[col]


cdef inline double own_loss(const Ctx* x, const LCState* s, int p, const Col* cols,
                            const double* vals, int t) noexcept nogil:
    """What giving up one card of type t costs p's projection."""
    cdef int col = x.c.colour[t]
    cdef uint32_t bit = 1u << (t - col * x.T.nranks)
    cdef const Col* k = &cols[col]
    if vals[col] <= 0.0 and not k.started:  # fewer cards cannot make it worth opening
        return 0.0
    if bit == 1u:
        if k.hw == 0:
            return 0.0
        return vals[col] - finish(x, k, k.base, k.cnt, k.hw - 1)
    if not (k.hand & bit) or cs_count(&s.hand[p], x.c, t) > 1:
        return 0.0
    return vals[col] - finish(x, k, k.base - x.s * x.c.value[t], k.cnt - x.s, k.hw)


cdef inline double bury_gain(const Ctx* x, const LCState* s, int o, const Col* cols,
                             const double* vals, int k) noexcept nogil:
    """What covering the top of discard pile k is worth: the opponents lose it, and so do we."""
    cdef int b
    if s.pile_n[k] == 0:
        return 0.0
    b = s.piles[k * x.c.pile_cap + s.pile_n[k] - 1]
    return x.P.bury * (opp_worth(x, s, o, b) - own_gain(x, cols, vals, b))


cdef int choose_pass(const Ctx* x, const LCState* s, int p, const Col* cols,
                     const double* vals) noexcept nogil:
    """partners: the two cards p would least like to discard, for its partner to play."""
    cdef uint64_t m = s.hand[p].any
    cdef int t, t1 = -1, t2 = -1
    cdef double l, l1 = -1.0, l2 = -1.0
    while m:
        t = exp_ctz(m)
        m &= m - 1
        l = own_loss(x, s, p, cols, vals, t)
        if l > l1:
            t2 = t1
            l2 = l1
            t1 = t
            l1 = l
        elif l > l2:
            t2 = t
            l2 = l
        if cs_count(&s.hand[p], x.c, t) > 1 and l > l2:  # a second copy of the same card
            t2 = t
            l2 = l
    if t1 < 0 or t2 < 0:
        return -1
    return pass_id(t1, t2) if t1 <= t2 else pass_id(t2, t1)


cdef double EXCLUDED = -1e300   # a decision the heuristic never takes while another is legal
cdef double FORCED = 1e300      # a decision a rule of thumb takes outright


cdef void lc_score_decisions(const LCState* s, const HeurParams* P, const int* legal, int n,
                             double* scores) noexcept nogil:
    """Scores every legal decision of the seat to move (points of projected margin; higher is
    better; EXCLUDED or FORCED for the rules of thumb)."""
    cdef int i, d, t, p = s.to_move, k, o = 1 - row_of(s, p), first_pass = n
    cdef Ctx x
    cdef Col cols[MAX_PILES]
    cdef double vals[MAX_PILES]
    cdef double bury[MAX_PILES]
    cdef double best = EXCLUDED, m
    cdef int buried = 0
    if s.phase == PH_DRAW and P.endgame and s.deck_n == 1:
        # The last card ends the round: take it when ahead, otherwise play on from a pile.
        if lc_row_score(s, 1 - o) > lc_row_score(s, o):
            for i in range(n):
                scores[i] = FORCED if legal[i] == D_DRAW_DECK else EXCLUDED
            return
    read_view(s, p, P, &x, cols, vals)
    for i in range(n):
        d = legal[i]
        if d < D_DISCARD:
            scores[i] = score_play(&x, cols, vals, d)
        elif d < D_DRAW_DECK:
            t = d - D_DISCARD
            scores[i] = -own_loss(&x, s, p, cols, vals, t) - P.feed * opp_worth(&x, s, o, t)
            if P.bury != 0.0:  # the discard covers its pile's top card
                k = pile_of(x.c, t)
                if not (buried >> k) & 1:
                    bury[k] = bury_gain(&x, s, o, cols, vals, k)
                    buried |= 1 << k
                scores[i] += bury[k]
        elif d == D_DRAW_DECK:
            if P.endgame and s.deck_n == 1:
                scores[i] = EXCLUDED  # behind, with a pile to draw from (above)
            else:
                scores[i] = P.deck_w * deck_gain(&x, cols, vals) + P.deck_bonus
                if P.shorten != 0.0:  # the draw pile is the clock: run it down when ahead
                    m = (row_now(&x, s, 1 - o) - row_now(&x, s, o)) / 20.0
                    scores[i] += P.shorten * (-1.0 if m < -1.0 else (1.0 if m > 1.0 else m))
        elif d < D_PASS:
            k = d - D_DRAW_PILE
            t = s.piles[k * x.c.pile_cap + s.pile_n[k] - 1]
            scores[i] = own_gain(&x, cols, vals, t) + P.deny * opp_worth(&x, s, o, t)
        else:
            scores[i] = EXCLUDED
            if first_pass == n:
                first_pass = i
        if scores[i] > best:
            best = scores[i]
    # partners: when every play and discard loses more than pass_thresh, pass instead.
    if P.pass_mode == 1 and first_pass < n and best < -P.pass_thresh:
        d = choose_pass(&x, s, p, cols, vals)
        for i in range(first_pass, n):
            if legal[i] == d:
                scores[i] = -P.pass_thresh


cdef int lc_greedy_decision_p(const LCState* s, Rng* rng, double epsilon,
                              const HeurParams* P) noexcept nogil:
    """The heuristic's decision for the seat to move (-1 once the match is over)."""
    cdef int legal[MAX_LEGAL]
    cdef double scores[MAX_LEGAL]
    cdef int n
    if s.phase == PH_OVER:
        return -1
    # partners: a heuristic that never passes need not list or score the passes (up to 36 of a
    # play's ~50 decisions). Plays and discards score finite, passes EXCLUDED, so the choice and the
    # tie-breaking draws are the same as over the whole list; ε-random choices draw from all of it.
    n = lc_legal_passes(s, legal, P.pass_mode != 0 or epsilon > 0.0)
    if n == 1:
        return legal[0]
    if epsilon > 0.0 and rng_unit(rng) < epsilon:
        return legal[rng_below(rng, n)]
    lc_score_decisions(s, P, legal, n, scores)
    return best_scored(legal, scores, n, rng)


cdef int lc_greedy_decision(const LCState* s, Rng* rng, double epsilon) noexcept nogil:
    """lc_greedy_decision_p with the default weights."""
    return lc_greedy_decision_p(s, rng, epsilon, &DEFAULTS[s.edition])

cdef void lc_scores(const void* s, const int* legal, int n, double* scores) noexcept nogil:
    """lc_score_decisions with the default weights, over the generic state."""
    cdef const LCState* st = <const LCState*>s
    lc_score_decisions(st, lc_default_params(st.edition), legal, n, scores)


cdef int lc_decision(const void* s, Rng* rng, double epsilon) noexcept nogil:
    return lc_greedy_decision(<const LCState*>s, rng, epsilon)


HEURISTIC = new_heuristic("Lost Cities card games", lc_decision, lc_scores)
"""The heuristic of `classic`, `partners` and `expedition`, as their records name it."""


def decision_scores(State state, params=None) -> list:
    """Every legal decision of the seat to move with the heuristic's score, best first.

    For tests and for reading the heuristic's mind; `params` overrides default weights.

    >>> import engine
    >>> s = engine.new_game("classic", seed=3, rounds=1)
    >>> scored = decision_scores(s)
    >>> len(scored) == len(s.legal()) and scored[0][1] >= scored[-1][1]
    True
    """
    cdef HeurParams P
    cdef int legal[MAX_LEGAL]
    cdef double scores[MAX_LEGAL]
    cdef int n, i
    if state.edition not in EDITION_NAMES:
        raise ValueError(f"not a Lost Cities card edition: {state.edition}")
    P = check_params(state.edition, params)
    if state.is_terminal():
        return []
    cdef const LCState* s = <const LCState*>state.ptr
    n = lc_legal(s, legal)
    lc_score_decisions(s, &P, legal, n, scores)
    out = [(state.decision_to_text(legal[i]), scores[i]) for i in range(n)]
    return sorted(out, key=lambda pair: -pair[1])

