# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The heuristic of Lost Cities: The Board Game (`board`, 2-4 players): one greedy decision, as nogil
C over the engine's `BoardStruct`, shared by the greedy bot and the searcher's rollouts. docs/bots.md ("board") describes it with its weights and measurements.

The idea, as in the card heuristic (bots/cards/heuristic.pyx): project what each of a seat's paths
will be worth when the expedition ends, and pick the decision that leaves the best projection.
Every card played on a column moves its piece one stone, so a path's future is a number of steps:

    steps = s * held cards that fit + q * cards that may still come and fit

`s` <= 1 scales the held cards down when they want more turns than the seat has left (turns come
from the draw pile's size and `max_turns`); `q` is the chance that one of the cards the seat cannot
see reaches it in time (its useful draws / unseen cards, times `late`). From its stone the piece is
projected `steps` further, linearly between stones: the path is worth the stone's value there
(doubled for the researcher) plus the event tiles on the way (victory points, `arrow` for an arrow,
the slope of the artifact table for an artifact, times `contest` when another seat's piece is
nearer to it); steps beyond the lost city are worth `excess` each. A path not begun is worth
max(0, projection) (it may stay empty); the researcher, while unused, adds its best path's extra
worth, so it goes onto the most promising path.

A play is scored by the change of its path's projection plus `tempo` and `now_w` times what the
step realizes at once (the next stone and its tile: the expedition may end early, and an artifact
goes to the first comer). The card leaves the hand (weight s) and becomes a certain step; what it
skips (held and unseen cards below it, or above it on a falling up-and-down column) is lost, so the
lowest fitting card comes first. Beginning a path that projects below `open_min` costs `open_pen`.
The engine applies each candidate play to a scratch copy, so which cards fit afterwards (the
up-and-down direction included) and whether the step ends the expedition come from its rules. A
discard loses the card's worth to us and feeds the next seats (its worth to them, most to the next
one; `feed`), and covers the pile's top (`bury`); a draw from a discard pile gains the card and
denies it (`deny`); a draw from the draw pile gains an unseen card on average (plus `deck_bonus`).
An optional step takes the piece whose projection gains most. The clocks: drawing from the draw
pile and crossing a bridge are favoured when ahead of the best other seat (`shorten`, `cross`, in
projected points over `lead_scale`) and avoided when behind; a step that ends the expedition (the
last crossing) is scored by the margin it locks in against the projected one, plus `lock` when
ahead; the last card of the draw pile is taken when ahead (it ends the expedition), left when
behind. Equal scores are broken with the caller's generator. The weights are tuned per number of
players (`DEFAULT_PARAMS`).

Information: the decision reads only what the seat to move knows: its hand, the public board
(columns, pieces, tiles, discard piles, totals, artifacts), the cards known to be in other hands,
hand sizes and the draw pile's size. "Unseen" are the cards in none of those places; other seats'
hands are estimated from their known cards and the unseen ones.

>>> import engine
>>> s = engine.new_game("board", seed=3, players=2)
>>> decision_scores(s)[0][0] in s.legal_text()
True
"""
from libc.string cimport memcpy
from libc.stdint cimport uint64_t, int64_t


from bots.choice cimport best_scored
from bots.heuristics cimport new_heuristic
from engine._core cimport State, Rng, rng_below, rng_unit, exp_popcount, exp_ctz, MAX_LEGAL, MAX_SEATS
from engine.board.rules cimport (BoardStruct, Cards, board_legal, board_apply, board_piece_score, cards_size,
                                 NCOLOURS, NVALUES, NTYPES, NSTONES, NADVENTURERS, PILE_CAP, NONE,
                                 D_PLAY_R, D_DISCARD, D_DRAW_DECK, D_DRAW_PILE, D_MOVE, D_MOVE_NONE,
                                 PH_PLAY, PH_MOVE, PH_DRAW, PH_OVER, TILE_ARTIFACT, TILE_ARROW, TILE_VP)

import engine.board.rules as _board
from bots.params import with_overrides

cdef extern from *:
    """
    static inline int bh_top_bit(unsigned long long x) { return 63 - __builtin_clzll(x); }
    """
    int bh_top_bit(uint64_t x) noexcept nogil

# ----- tables from the engine's board data ---------------------------------------------------------

cdef enum:
    TAB_N = 64        # artifact counts tabulated (the tables saturate well below)

cdef double SV[NSTONES + 2]          # stone values; SV[0] = 0 (no piece), SV[10] = SV[9]
cdef int BRIDGE                      # a step from stone BRIDGE to BRIDGE + 1 crosses a bridge
cdef double TAB[2][TAB_N]            # artifact tables: [0] long, [1] short (1-expedition game)
cdef uint64_t CT[NCOLOURS]           # the types of each colour
cdef uint64_t AT_LEAST[NTYPES]       # same colour, value >= (an ascending column's cards after t)
cdef uint64_t AT_MOST[NTYPES]        # same colour, value <= (a descending one's)
cdef uint64_t ALL_TYPES = 0
cdef double TILE_POINTS[256]         # victory points of a tile code (0 for the others)


cdef void _build_tables():
    global BRIDGE, ALL_TYPES
    cdef int i, x, t, t2
    SV[0] = 0.0
    for i in range(1, NSTONES + 1):
        SV[i] = _board.stone_value(i)
    SV[NSTONES + 1] = SV[NSTONES]
    BRIDGE = _board.DATA["bridge"]
    for i in range(TAB_N):
        TAB[0][i] = _board.artifact_score(i, False)
        TAB[1][i] = _board.artifact_score(i, True)
    for i in range(256):
        TILE_POINTS[i] = i - TILE_VP if i >= TILE_VP else 0.0
    for x in range(NCOLOURS):
        CT[x] = 0
        for t in range(x * NVALUES, (x + 1) * NVALUES):
            CT[x] |= (<uint64_t>1) << t
        ALL_TYPES |= CT[x]
    for t in range(NTYPES):
        AT_LEAST[t] = 0
        AT_MOST[t] = 0
        for t2 in range(NTYPES):
            if t2 // NVALUES == t // NVALUES:
                if t2 >= t:
                    AT_LEAST[t] |= (<uint64_t>1) << t2
                if t2 <= t:
                    AT_MOST[t] |= (<uint64_t>1) << t2


_build_tables()

_COMMON = {
    # projection
    "late": 0.6, "arrow": 11.0, "excess": 6.0, "art_w": 0.5, "art_rate": 6.0, "contest": 0.5,
    # plays
    "tempo": 4.0, "now_w": 0.2, "open_min": 10.0, "open_pen": 30.0,
    # discards and draws
    "feed": 0.9, "deny": 0.4, "new_frac": 0.2, "bury": 0.4, "deck_bonus": 3.0,
    # clocks
    "shorten": 3.0, "cross": 2.0, "lock": 10.0, "lead_scale": 30.0, "endgame": 1,
}
DEFAULT_PARAMS = {
    2: {**_COMMON, "late": 0.5, "open_min": 15.0},
    3: {**_COMMON, "late": 0.5, "tempo": 5.0, "now_w": 0.3, "open_min": 15.0},
    4: dict(_COMMON),
}
"""The heuristic's weights by number of players, tuned by self-play (docs/bots.md, "board")."""

cdef BoardParams DEFAULTS[MAX_SEATS + 1]
for _n, _p in DEFAULT_PARAMS.items():
    DEFAULTS[_n] = _p


def default_params(players: int = 2) -> dict:
    """The heuristic's default weights for a number of players, as a dict.

    >>> default_params(4)["late"] > 0
    True
    """
    if players not in DEFAULT_PARAMS:
        raise ValueError(f"board is played by 2, 3 or 4 players, not {players}")
    return dict(DEFAULTS[players])


def check_params(overrides: dict | None, players: int = 2) -> dict:
    """The default weights for `players` updated with `overrides`; KeyError on an unknown name."""
    return with_overrides(default_params(players), overrides)


cdef const BoardParams* board_default_params(int players) noexcept nogil:
    return &DEFAULTS[players]

# ----- projection ---------------------------------------------------------------------------------

# What one decision shares: the state, the pool of cards that may still come (unseen by the deciding
# seat) and the event tiles along each path.
ctypedef struct Ctx:
    const BoardStruct* s
    const BoardParams* P
    uint64_t u1, u2        # pool types with at least one / two copies
    int npool
    int nturns, first      # turns left with a play (all seats), from seat `first`
    double fut             # artifacts a seat expects from the later expeditions
    double art[MAX_SEATS]  # worth of one more artifact to each seat
    double ep[NCOLOURS][NSTONES + 2]   # points of the tiles up to stone j (victory points, arrows)
    double ea[NCOLOURS][NSTONES + 2]   # artifacts up to stone j

# One seat as the projection sees it.
ctypedef struct Seat:
    int seat
    int plays              # plays left
    int adv_left           # adventurers unused
    int res_free           # the researcher is unused
    double q               # chance that a fitting pool card reaches the seat in time
    double sc              # scale of held cards (turns left / cards wanting a turn, at most 1)
    double hid             # estimated hands: weight of each pool card as held (0: exact hand)
    double art             # worth of one artifact (the artifact table's slope)

# One path of one seat.
ctypedef struct Path:
    int x                  # the path (colour)
    int begun
    int st                 # stone (0: not begun)
    int R                  # 2 on the researcher's path, else 1
    uint64_t fit           # the types that fit (in the better direction while it is open)
    double h               # held cards that fit
    double u               # pool cards that fit
    double n               # projected steps: sc * h + q * u
    double artw            # worth of an artifact on the way (less when another piece is nearer)
    double val             # projected worth (begun), or potential with an adventurer
    double val_r           # not begun: potential with the researcher


cdef double NEG = -1e300        # "not possible"
cdef double EXCLUDED = -1e300   # a decision the heuristic never takes while another is legal
cdef double FORCED = 1e300      # a decision a rule of thumb takes outright


cdef inline void see(uint64_t* c1, uint64_t* c2, uint64_t m) noexcept nogil:
    """Adds one copy of each type in m to two bit planes (seen once or more, seen twice)."""
    c2[0] |= c1[0] & m
    c1[0] |= m


cdef inline int cnt(const Cards* h, uint64_t m) noexcept nogil:
    return exp_popcount(h.any & m) + exp_popcount(h.extra & m)


cdef inline int pool_cnt(const Ctx* c, uint64_t m) noexcept nogil:
    return exp_popcount(c.u1 & m) + exp_popcount(c.u2 & m)


cdef inline double tab_at(const BoardStruct* s, double a) noexcept nogil:
    """The artifact table between counts (linear), saturating."""
    cdef const double* tab = TAB[1 if s.rounds == 1 else 0]
    cdef int i
    if a >= TAB_N - 1:
        return tab[TAB_N - 1]
    if a < 0.0:
        a = 0.0
    i = <int>a
    return tab[i] + (a - i) * (tab[i + 1] - tab[i])


cdef inline double art_worth(const Ctx* c, int o) noexcept nogil:
    """One more artifact for seat o: the table's slope around its expected final count."""
    cdef double a = c.s.artifacts[o] + c.fut
    cdef double lo = a - 1.5 if a > 1.5 else 0.0
    return c.P.art_w * (tab_at(c.s, a + 1.5) - tab_at(c.s, lo)) / (a + 1.5 - lo)


cdef inline double path_value(const Ctx* c, int x, int base, int R, double z, double artw) noexcept nogil:
    """Worth of a piece that stands on stone `base` and is projected to stone z (real): the value
    of the stone there (R = 2 doubles it) and the tiles on the way; beyond the lost city each step
    is worth `excess`. Linear between stones."""
    cdef double ex = 0.0, f, sv, e, a
    cdef int i
    if z > NSTONES:
        ex = z - NSTONES
        z = NSTONES
    i = <int>z
    f = z - i
    sv = SV[i] + f * (SV[i + 1] - SV[i])
    e = c.ep[x][i] + f * (c.ep[x][i + 1] - c.ep[x][i]) - c.ep[x][base]
    a = c.ea[x][i] + f * (c.ea[x][i + 1] - c.ea[x][i]) - c.ea[x][base]
    return R * sv + e + artw * a + ex * c.P.excess


cdef void init_ctx(Ctx* c, const BoardStruct* s, const BoardParams* P) noexcept nogil:
    """Tiles along the paths, the turn window (draw pile, max_turns), later artifacts."""
    cdef int x, j, code, left, n
    c.s = s
    c.P = P
    for x in range(NCOLOURS):
        c.ep[x][0] = 0.0
        c.ea[x][0] = 0.0
        for j in range(1, NSTONES + 1):  # branch-free: this runs for every decision
            code = s.tile[x][j]
            c.ep[x][j] = c.ep[x][j - 1] + TILE_POINTS[code] + (code == TILE_ARROW) * P.arrow
            c.ea[x][j] = c.ea[x][j - 1] + (code == TILE_ARTIFACT)
        c.ep[x][NSTONES + 1] = c.ep[x][NSTONES]
        c.ea[x][NSTONES + 1] = c.ea[x][NSTONES]
    if s.phase == PH_PLAY:
        n = s.deck_n
        left = s.max_turns - s.turn
        c.first = s.to_move
    else:
        n = s.deck_n - 1
        left = s.max_turns - s.turn - 1
        c.first = s.to_move + 1 if s.to_move + 1 < s.nseats else 0
    if left < n:
        n = left
    c.nturns = n if n > 0 else 0
    c.fut = (s.rounds - s.round - 1) * P.art_rate / s.nseats
    for j in range(s.nseats):
        c.art[j] = art_worth(c, j)


cdef inline int plays_of(const Ctx* c, int o) noexcept nogil:
    """Plays left for seat o among the turns left."""
    cdef int ns = c.s.nseats
    cdef int off = o - c.first
    if off < 0:
        off += ns
    return 0 if off >= c.nturns else (c.nturns - off + ns - 1) // ns


cdef void init_seat(const Ctx* c, Seat* k, int o, double hid) noexcept nogil:
    cdef const BoardStruct* s = c.s
    cdef int draws
    k.seat = o
    k.plays = plays_of(c, o)
    # Draws whose card can still be played: all but the one after the last play.
    draws = k.plays - 1 + (1 if o == s.to_move and s.phase != PH_PLAY else 0)
    k.q = 0.0
    if draws > 0 and c.npool > 0:
        k.q = c.P.late * draws / c.npool
        if k.q > c.P.late:
            k.q = c.P.late
    k.res_free = s.researcher[o] == NONE
    k.adv_left = NADVENTURERS - (exp_popcount(s.begun[o]) - (0 if k.res_free else 1))
    k.hid = hid
    k.sc = 1.0
    k.art = c.art[o]


cdef inline double artifact_weight(const Ctx* c, const Seat* k, int x, int st) noexcept nogil:
    """An artifact ahead is likelier taken by another seat whose piece on the path is nearer."""
    cdef const BoardStruct* s = c.s
    cdef int o
    if st == 0:
        st = 1  # a path not begun: where its piece would stand
    for o in range(s.nseats):
        if o != k.seat and s.stone[o][x] > st:
            return k.art * c.P.contest
    return k.art


cdef void read_path(const Ctx* c, const BoardStruct* s, const Seat* k, const Cards* held, int x,
                    Path* a) noexcept nogil:
    """Counts of one path of seat k in state s (the decision's state or a scratch copy)."""
    cdef int o = k.seat, t
    cdef uint64_t up, dn, hm
    cdef double hu, hd, uu, ud
    a.x = x
    a.begun = (s.begun[o] >> x) & 1
    a.st = s.stone[o][x]
    a.R = 2 if s.researcher[o] == x else 1
    if a.begun:
        a.fit = s.advance[o] & CT[x]
        if s.updown and s.dir[o][x] == 0:
            # The direction is open: count the cards of the better one.
            t = x * NVALUES + s.last[o][x]
            up = AT_LEAST[t]
            dn = AT_MOST[t]
            hu = cnt(held, up) + k.hid * pool_cnt(c, up)
            hd = cnt(held, dn) + k.hid * pool_cnt(c, dn)
            uu = pool_cnt(c, up)
            ud = pool_cnt(c, dn)
            if hd + k.q * ud > hu + k.q * uu:
                a.fit = dn
            else:
                a.fit = up
    else:
        # Begun with the lowest held card (the highest one to go down), every held card fits.
        a.fit = CT[x]
        hm = held.any & CT[x]
        a.u = pool_cnt(c, CT[x])
        if hm:
            a.u = pool_cnt(c, AT_LEAST[exp_ctz(hm)])
            if s.updown:
                uu = pool_cnt(c, AT_MOST[bh_top_bit(hm)])
                if uu > a.u:
                    a.u = uu
    a.h = cnt(held, a.fit) + k.hid * pool_cnt(c, a.fit)
    if a.begun:
        a.u = pool_cnt(c, a.fit)
    a.artw = artifact_weight(c, k, x, a.st)


cdef inline double value_at(const Ctx* c, const Path* a, double n) noexcept nogil:
    """A begun path's worth with n projected steps."""
    return path_value(c, a.x, a.st, a.R, a.st + n, a.artw)


cdef inline void potentials(const Ctx* c, const Seat* k, Path* a, double n) noexcept nogil:
    """A path not begun: its worth if begun with an adventurer, and with the researcher."""
    a.val = path_value(c, a.x, 0, 1, n, a.artw) if k.adv_left > 0 else NEG
    a.val_r = path_value(c, a.x, 0, 2, n, a.artw) if k.res_free else NEG


cdef double unbegun_total(const Path* paths, int excl, int adv, int res, const Path* alt) noexcept nogil:
    """What the paths not begun (but `excl`) add: each may stay empty, so max(0, potential) while
    an adventurer is left, plus the researcher's best extra worth while it is unused. `alt`, if
    not NULL, stands in for the path of its colour."""
    cdef int y
    cdef double tot = 0.0, ro = 0.0, a
    cdef const Path* q
    for y in range(NCOLOURS):
        q = alt if alt != NULL and alt.x == y else &paths[y]
        if q.begun or y == excl:
            continue
        a = q.val if adv > 0 and q.val > 0.0 else 0.0
        tot += a
        if res and q.val_r - a > ro:
            ro = q.val_r - a
    return tot + ro


cdef double project(const Ctx* c, Seat* k, const Cards* held, Path* paths) noexcept nogil:
    """Projected worth of all of seat k's paths (the sum of path worths and potentials); sets the
    scale of held cards: the cards of begun paths, and of paths worth beginning, want a turn each."""
    cdef int x
    cdef double want = 0.0, m, total = 0.0
    cdef Path* a
    for x in range(NCOLOURS):
        a = &paths[x]
        read_path(c, c.s, k, held, x, a)
        m = a.h + k.q * a.u
        if a.begun:
            want += m
        elif ((k.adv_left > 0 or k.res_free)
              and path_value(c, x, 0, 1 if k.adv_left > 0 else 2, m, a.artw) > 0.0):
            want += m
    k.sc = k.plays / want if want > k.plays else 1.0
    for x in range(NCOLOURS):
        a = &paths[x]
        a.n = k.sc * a.h + k.q * a.u
        if a.begun:
            a.val = value_at(c, a, a.n)
            total += a.val
        else:
            potentials(c, k, a, a.n)
    return total + unbegun_total(paths, -1, k.adv_left, k.res_free, NULL)


cdef double held_delta(const Ctx* c, const Seat* k, const Path* paths, int x, double dn) noexcept nogil:
    """Change of the seat's projection when path x is projected dn steps more (or fewer)."""
    cdef const Path* a = &paths[x]
    cdef Path alt
    cdef double n = a.n + dn
    if n < 0.0:
        n = 0.0
    if a.begun:
        return value_at(c, a, n) - a.val
    alt = a[0]
    potentials(c, k, &alt, n)
    return (unbegun_total(paths, -1, k.adv_left, k.res_free, &alt)
            - unbegun_total(paths, -1, k.adv_left, k.res_free, NULL))


cdef inline double held_gain(const Ctx* c, const Seat* k, const Path* paths, int t) noexcept nogil:
    """What holding one more card of type t adds to the seat's projection."""
    cdef int x = t // NVALUES
    if not (paths[x].fit >> t) & 1:
        return 0.0
    return held_delta(c, k, paths, x, k.sc)


cdef double standing(const Ctx* c, int o, double total) noexcept nogil:
    """Seat o's projected final points: the expedition (floored at 0) and its artifacts' table."""
    cdef const BoardStruct* s = c.s
    cdef double v = s.totals[o] + total
    if v < 0.0:
        v = 0.0
    v += tab_at(s, s.artifacts[o] + c.fut)
    if s.round + 1 >= s.rounds and v < 0.0:
        v = 0.0
    return v


cdef double margin_now(const Ctx* c, int p, const BoardStruct* moved) noexcept nogil:
    """Seat p's margin over the best other seat if the expedition ended now; `moved` is the state
    whose pieces count for p (the state itself, or a copy with p's ending step made)."""
    cdef const BoardStruct* s = c.s
    cdef int o
    cdef double mine = standing(c, p, board_piece_score(moved, p)), best = NEG, v
    for o in range(s.nseats):
        if o != p:
            v = standing(c, o, board_piece_score(s, o))
            if v > best:
                best = v
    return mine - best


cdef void pool_of_seat(Ctx* c, int p) noexcept nogil:
    """The cards seat p cannot see: not in its hand, a column, a discard pile or known elsewhere."""
    cdef const BoardStruct* s = c.s
    cdef uint64_t c1 = 0, c2 = 0
    cdef int o, k, i
    see(&c1, &c2, s.hand[p].any)
    see(&c1, &c2, s.hand[p].extra)
    for o in range(s.nseats):
        see(&c1, &c2, s.cols[o].any)
        see(&c1, &c2, s.cols[o].extra)
        if o != p:
            see(&c1, &c2, s.known[o].any)
            see(&c1, &c2, s.known[o].extra)
    for k in range(NCOLOURS):
        for i in range(s.pile_n[k]):
            see(&c1, &c2, (<uint64_t>1) << s.piles[k * PILE_CAP + i])
    c.u1 = ALL_TYPES & ~c2
    c.u2 = ALL_TYPES & ~c1
    c.npool = exp_popcount(c.u1) + exp_popcount(c.u2)

# ----- scoring decisions --------------------------------------------------------------------------

# A decision's context: the mover's projection, and its lead (computed when first needed).
ctypedef struct Mind:
    Ctx c
    Seat me
    Path paths[NCOLOURS]
    double total           # the mover's projection
    double lead            # projected standing over the best other seat's
    int have_lead


cdef double lead_of(Mind* m) noexcept nogil:
    """The mover's projected standing minus the best other seat's, those estimated from what the
    mover knows: their known cards, and a share of the unseen ones for their hidden cards."""
    cdef const BoardStruct* s = m.c.s
    cdef Seat k
    cdef Path other[NCOLOURS]
    cdef int o, p = m.me.seat, hidden
    cdef double best = NEG, v
    if m.have_lead:
        return m.lead
    for o in range(s.nseats):
        if o == p:
            continue
        hidden = cards_size(&s.hand[o]) - cards_size(&s.known[o])
        init_seat(&m.c, &k, o, hidden / <double>m.c.npool if m.c.npool > 0 else 0.0)
        v = standing(&m.c, o, project(&m.c, &k, &s.known[o], other))
        if v > best:
            best = v
    m.lead = standing(&m.c, p, m.total) - best
    m.have_lead = 1
    return m.lead


cdef inline double clock(Mind* m) noexcept nogil:
    """-1..1: how much the mover wants the expedition to end soon (its lead, scaled)."""
    cdef double v = lead_of(m) / m.c.P.lead_scale
    return -1.0 if v < -1.0 else (1.0 if v > 1.0 else v)


cdef double end_delta(Mind* m, int x) noexcept nogil:
    """A step on path x that ends the expedition: the margin it locks in against the projected
    one, and `lock` for ending ahead (a sure win in the last expedition) or behind."""
    cdef const BoardStruct* s = m.c.s
    cdef BoardStruct moved
    cdef double now, v
    memcpy(&moved, s, sizeof(BoardStruct))
    moved.stone[m.me.seat][x] += 1
    now = margin_now(&m.c, m.me.seat, &moved)
    v = now / m.c.P.lead_scale
    v = -1.0 if v < -1.0 else (1.0 if v > 1.0 else v)
    return now - lead_of(m) + m.c.P.lock * v * (1.0 if s.round + 1 >= s.rounds else 0.5)


cdef double worth_to(const Ctx* c, int o, int t) noexcept nogil:
    """What a card of type t is worth to seat o: the step it gives (0 if its column is past it)."""
    cdef const BoardStruct* s = c.s
    cdef int x = t // NVALUES, st, R
    if (s.begun[o] >> x) & 1:
        if not (s.advance[o] >> t) & 1:
            return 0.0
        st = s.stone[o][x]
        if st >= NSTONES:
            return c.P.excess
        R = 2 if s.researcher[o] == x else 1
        return (R * (SV[st + 1] - SV[st]) + c.ep[x][st + 1] - c.ep[x][st]
                + c.art[o] * (c.ea[x][st + 1] - c.ea[x][st]))
    return c.P.new_frac * 10.0  # a path not begun yet: a piece is always left for it


cdef double next_worth(const Ctx* c, int p, int t) noexcept nogil:
    """Worth of a card on a discard pile to the seats after p: the next one draws first."""
    cdef int i, ns = c.s.nseats
    cdef double w = 1.0, total = 0.0
    for i in range(1, ns):
        total += w * worth_to(c, (p + i) % ns, t)
        w *= 0.5
    return total


cdef inline double step_now(const Ctx* c, const Path* a) noexcept nogil:
    """What a step of a begun path's piece realizes at once: the next stone and its tile (a bird in
    the hand: the expedition may end early, and artifacts go to the first comer)."""
    if a.st >= NSTONES:
        return c.P.excess
    return (a.R * (SV[a.st + 1] - SV[a.st]) + c.ep[a.x][a.st + 1] - c.ep[a.x][a.st]
            + a.artw * (c.ea[a.x][a.st + 1] - c.ea[a.x][a.st]))


cdef double score_play(Mind* m, int d) noexcept nogil:
    """A card played onto a column: the engine plays it on a scratch copy, and the path is
    projected again from there."""
    cdef const Ctx* c = &m.c
    cdef const BoardStruct* s = c.s
    cdef const BoardParams* P = c.P
    cdef int p = m.me.seat, t = d if d < D_PLAY_R else d - D_PLAY_R, x = t // NVALUES
    cdef const Path* a = &m.paths[x]
    cdef BoardStruct tmp
    cdef Path b
    cdef double g, v
    cdef int adv, res
    memcpy(&tmp, s, sizeof(BoardStruct))
    board_apply(&tmp, d)
    if tmp.phase == PH_OVER or tmp.round != s.round:
        return P.tempo + end_delta(m, x)  # the 5th crossing
    read_path(c, &tmp, &m.me, &tmp.hand[p], x, &b)
    b.n = m.me.sc * b.h + m.me.q * b.u
    if a.begun:
        v = path_value(c, x, a.st, a.R, tmp.stone[p][x] + b.n, a.artw)
        if a.st == NSTONES and tmp.phase == PH_MOVE:
            v += P.excess  # the lost-city advance: a step elsewhere
        g = v - a.val + P.tempo + P.now_w * step_now(c, a)
        if a.st == BRIDGE:
            g += P.cross * clock(m)
        return g
    # A begin: the path's potential becomes a path; the other potentials may lose the last
    # adventurer or the researcher.
    v = path_value(c, x, 0, b.R, tmp.stone[p][x] + b.n, b.artw)
    adv = m.me.adv_left - (1 if b.R == 1 else 0)
    res = m.me.res_free and b.R == 1
    g = (v + unbegun_total(m.paths, x, adv, res, NULL)
         - unbegun_total(m.paths, -1, m.me.adv_left, m.me.res_free, NULL) + P.tempo)
    if v < P.open_min:
        g -= P.open_pen
    return g


cdef double score_discard(Mind* m, int t) noexcept nogil:
    cdef const Ctx* c = &m.c
    cdef const BoardStruct* s = c.s
    cdef int x = t // NVALUES, p = m.me.seat, top
    cdef double g = 0.0
    if (m.paths[x].fit >> t) & 1:
        g = held_delta(c, &m.me, m.paths, x, -m.me.sc)
    g -= c.P.feed * next_worth(c, p, t)
    if c.P.bury != 0.0 and s.pile_n[x] > 0:  # it covers the pile's top card
        top = s.piles[x * PILE_CAP + s.pile_n[x] - 1]
        g += c.P.bury * (worth_to(c, (p + 1) % s.nseats, top) - held_gain(c, &m.me, m.paths, top))
    return g


cdef double score_deck(Mind* m) noexcept nogil:
    """An unseen card on average (it moves from weight q to weight sc), and the clock."""
    cdef const Ctx* c = &m.c
    cdef int x
    cdef double g = 0.0
    if c.npool > 0:
        for x in range(NCOLOURS):
            if m.paths[x].u > 0.0:
                g += m.paths[x].u * held_delta(c, &m.me, m.paths, x, m.me.sc - m.me.q)
        g /= c.npool
    g += c.P.deck_bonus
    if c.P.shorten != 0.0:  # the draw pile is a clock: run it down when ahead
        g += c.P.shorten * clock(m)
    return g


cdef double score_step(Mind* m, int x) noexcept nogil:
    """An optional step with the piece on path x."""
    cdef const Ctx* c = &m.c
    cdef const Path* a = &m.paths[x]
    cdef BoardStruct tmp
    cdef double g
    memcpy(&tmp, c.s, sizeof(BoardStruct))
    board_apply(&tmp, D_MOVE + x)
    if tmp.phase == PH_OVER or tmp.round != c.s.round:
        return end_delta(m, x)
    g = value_at(c, a, a.n + 1.0) - a.val + c.P.now_w * step_now(c, a)
    if a.st == BRIDGE:
        g += c.P.cross * clock(m)
    return g


cdef void board_score_decisions(const BoardStruct* s, const BoardParams* P, const int* legal, int n,
                                double* scores) noexcept nogil:
    """Scores every legal decision of the seat to move (points of projection; higher is better;
    EXCLUDED or FORCED for the rules of thumb)."""
    cdef Mind m
    cdef int i, d, p = s.to_move, t, k
    m.have_lead = 0
    init_ctx(&m.c, s, P)
    pool_of_seat(&m.c, p)
    init_seat(&m.c, &m.me, p, 0.0)
    m.total = project(&m.c, &m.me, &s.hand[p], m.paths)
    if s.phase == PH_DRAW and P.endgame and s.deck_n == 1:
        # The last card ends the expedition: take it when ahead, otherwise play on from a pile.
        if margin_now(&m.c, p, s) > 0.0:
            for i in range(n):
                scores[i] = FORCED if legal[i] == D_DRAW_DECK else EXCLUDED
            return
    for i in range(n):
        d = legal[i]
        if d < D_DISCARD:
            scores[i] = score_play(&m, d)
        elif d < D_DRAW_DECK:
            scores[i] = score_discard(&m, d - D_DISCARD)
        elif d == D_DRAW_DECK:
            if P.endgame and s.deck_n == 1:
                scores[i] = EXCLUDED  # behind, with a pile to draw from (above)
            else:
                scores[i] = score_deck(&m)
        elif d < D_MOVE:
            k = d - D_DRAW_PILE
            t = s.piles[k * PILE_CAP + s.pile_n[k] - 1]
            scores[i] = held_gain(&m.c, &m.me, m.paths, t) + P.deny * next_worth(&m.c, p, t)
        elif d < D_MOVE_NONE:
            scores[i] = score_step(&m, d - D_MOVE)
        else:
            scores[i] = 0.0


cdef int board_greedy_decision_p(const void* sp, Rng* rng, double epsilon,
                                 const BoardParams* P) noexcept nogil:
    """The heuristic's decision for the seat to move (-1 once the game is over)."""
    cdef const BoardStruct* s = <const BoardStruct*>sp
    cdef int legal[MAX_LEGAL]
    cdef double scores[MAX_LEGAL]
    cdef int n
    if s.phase == PH_OVER:
        return -1
    n = board_legal(s, legal)
    if n == 1:
        return legal[0]
    if epsilon > 0.0 and rng_unit(rng) < epsilon:
        return legal[rng_below(rng, n)]
    board_score_decisions(s, P, legal, n, scores)
    return best_scored(legal, scores, n, rng)


cdef int board_greedy_decision(const void* s, Rng* rng, double epsilon) noexcept nogil:
    """board_greedy_decision_p with the default weights."""
    return board_greedy_decision_p(s, rng, epsilon, &DEFAULTS[(<const BoardStruct*>s).nseats])

cdef void board_scores(const void* s, const int* legal, int n, double* scores) noexcept nogil:
    """board_score_decisions with the default weights, over the generic state."""
    cdef const BoardStruct* st = <const BoardStruct*>s
    board_score_decisions(st, board_default_params(st.nseats), legal, n, scores)


HEURISTIC = new_heuristic("Lost Cities: The Board Game", board_greedy_decision, board_scores)
"""The heuristic of `board`, as its record names it."""

# ----- Python face --------------------------------------------------------------------------------

cdef const BoardStruct* _board_state(State state) except NULL:
    if state.edition != "board":
        raise ValueError(f"not a board state: {state.edition}")
    return <const BoardStruct*>state.ptr


def decision_scores(State state, params=None) -> list:
    """Every legal decision of the seat to move with the heuristic's score, best first.

    For tests and for reading the heuristic's mind; `params` overrides default weights.

    >>> import engine
    >>> s = engine.new_game("board", seed=3, players=3)
    >>> scored = decision_scores(s)
    >>> len(scored) == len(s.legal()) and scored[0][1] >= scored[-1][1]
    True
    """
    cdef const BoardStruct* s = _board_state(state)
    cdef BoardParams P = check_params(params, s.nseats)
    cdef int legal[MAX_LEGAL]
    cdef double scores[MAX_LEGAL]
    cdef int n, i
    if state.is_terminal():
        return []
    n = board_legal(s, legal)
    board_score_decisions(s, &P, legal, n, scores)
    out = [(state.decision_to_text(legal[i]), scores[i]) for i in range(n)]
    return sorted(out, key=lambda pair: -pair[1])
