# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The rules of Lost Cities: The Board Game (`board`, 2-4 players); its notation and Python face
are engine/board/state.pyx.

Rules are normative in docs/board.md. The board's numbers (stone values, the bridge, event spaces,
tiles, artifact tables, hand size, the 2-player removal) are read from engine/board/data/board.json
at import; the code holds only the shapes (5 paths of 9 stones, 55 card types, 4 adventurers and a
researcher).

Cards are bitboards over the 55 types (colour x value) in two words: `any` for a first copy,
`extra` for the second. Each seat's playable cards are one mask per seat (`advance`, updated on
every card played) plus a table of "begin" masks indexed by the set of begun paths, so legality
is a few ANDs. A turn is atomic decisions: play, optional steps (arrows, the lost-city advance),
draw.

>>> from engine.board.rules import SEATS, stone_value, artifact_score
>>> SEATS, stone_value(1), artifact_score(6, False)
((2, 3, 4), -20, 30)
"""
import json
import os

from libc.string cimport memset, memcpy
from libc.stdint cimport uint8_t, uint64_t

from engine._core cimport (GameOps, Rng, rng_next, rng_below, rules_of, exp_popcount, exp_ctz, exp_select, rank_returns,
                           MAX_SEATS)

from engine.options import OptionSpec

# ===== board data ==================================================================================

DATA_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "board.json")

cdef int NTILES
cdef uint8_t TILE_ORDER[MAX_TILES]    # canonical tile list (codes)
cdef uint8_t SPACE_PATH[MAX_TILES]    # event space i: its path and stone
cdef uint8_t SPACE_STONE[MAX_TILES]
cdef int LONG_TABLE[64]
cdef int LONG_N
cdef int SHORT_TABLE[64]
cdef int SHORT_N

# Card tables.
cdef uint8_t VALUE[NTYPES]
cdef uint64_t COLOUR_TYPES[NCOLOURS]
cdef uint64_t AT_LEAST[NTYPES]        # same colour, value >= value(t)
cdef uint64_t AT_MOST[NTYPES]         # same colour, value <= value(t)
cdef uint64_t BEGIN_TYPES[32]         # types of the colours not in a begun-set
cdef uint64_t ALL_TYPES
cdef uint8_t CARD_ORDER[NCARDS]       # the canonical deck, copies together

def _table(raw: dict, key: str) -> list:
    """An artifact table {"0": v, ..., "k+": v} as a list indexed by count (last = k and more)."""
    values = []
    for i, (k, v) in enumerate(raw.items()):
        plus = k.endswith("+")
        if k.rstrip("+") != str(i) or plus != (i == len(raw) - 1) or not isinstance(v, int):
            raise ImportError(f"{DATA_PATH}: {key} must have keys 0, 1, ... and a last key 'k+', got {k!r}")
        values.append(v)
    if not 1 <= len(values) <= 64:
        raise ImportError(f"{DATA_PATH}: {key} has {len(values)} entries")
    return values


def _load(path: str) -> dict:
    """Reads and checks the board data against the compiled shapes."""
    with open(path, encoding="utf-8") as f:
        raw = json.load(f)

    def bad(what):
        return ImportError(f"{path}: {what}")
    colours = raw["colours"]
    letters = "".join(c[0] for c in colours)
    if len(colours) != NCOLOURS or len(set(letters)) != NCOLOURS:
        raise bad(f"expected {NCOLOURS} colours with distinct initials, got {colours}")
    if raw["cards"]["values"] != list(range(NVALUES)) or raw["cards"]["copies_per_value"] != 2:
        raise bad("the engine is compiled for card values 0..10 with 2 copies each")
    stones = raw["stone_values"]
    if len(stones) != NSTONES or not all(isinstance(v, int) for v in stones):
        raise bad(f"stone_values: expected {NSTONES} integers")
    bridge = raw["bridge_after_stone"]
    if not 1 <= bridge < NSTONES:
        raise bad("bridge_after_stone must be in 1..8")
    spaces = raw["event_spaces_reconstructed"]
    paths = []
    for name in colours:
        stones_of = sorted(spaces[name])
        if len(set(stones_of)) != len(stones_of) or not all(1 <= st <= NSTONES for st in stones_of):
            raise bad(f"event spaces of {name}: distinct stones in 1..{NSTONES}")
        paths.append(stones_of)
    tiles = raw["event_tiles"]
    vps = sorted(tiles["victory_points_reconstructed"])
    if not all(isinstance(v, int) and 0 <= v <= 250 for v in vps):
        raise bad("victory-point tiles are integers in 0..250")
    order = [TILE_ARTIFACT] * tiles["artifact"] + [TILE_ARROW] * tiles["arrow"] + [TILE_VP + v for v in vps]
    if len(order) != sum(map(len, paths)) or len(order) > MAX_TILES:
        raise bad(f"{len(order)} event tiles for {sum(map(len, paths))} event spaces")
    hand = raw["hand_size"]
    removed = raw["two_player_removed_cards"]
    for n in (2, 3, 4):
        left = NCARDS - n * hand - (removed if n == 2 else 0)
        if not 0 < left <= DECK_CAP or hand < 1:
            raise bad(f"hand_size {hand} leaves {left} cards in the draw pile with {n} players")
    end = raw["pieces_across_bridges_to_end"]
    if not 1 <= end <= 20:
        raise bad("pieces_across_bridges_to_end must be in 1..20")
    return {
        "letters": letters, "names": tuple(colours), "stones": stones, "bridge": bridge, "paths": paths, "tiles": order,
        "hand": hand, "removed": removed, "end": end,
        "long": _table(raw["artifact_table_long_reconstructed"], "artifact_table_long_reconstructed"),
        "short": _table(raw["artifact_table_short_reconstructed"], "artifact_table_short_reconstructed"),
    }


DATA = _load(DATA_PATH)
"""The checked board data (as read from DATA_PATH)."""
COLOURS = DATA["letters"]
PATH_SPACES = tuple(tuple(p) for p in DATA["paths"])
"""Per path (colour order) the stones that carry an event space."""


cdef void _build_tables():
    global BRIDGE, CROSS_END, HAND_SIZE, REMOVED_2P, NTILES, LONG_N, SHORT_N, ALL_TYPES
    cdef int x, v, t, t2, i, b, k
    for i in range(NSTONES):
        STONE_VALUE[i + 1] = DATA["stones"][i]
    BRIDGE = DATA["bridge"]
    CROSS_END = DATA["end"]
    HAND_SIZE = DATA["hand"]
    REMOVED_2P = DATA["removed"]
    NTILES = len(DATA["tiles"])
    for i in range(NTILES):
        TILE_ORDER[i] = DATA["tiles"][i]
    i = 0
    for x in range(NCOLOURS):
        for st in DATA["paths"][x]:
            SPACE_PATH[i] = x
            SPACE_STONE[i] = st
            i += 1
    LONG_N = len(DATA["long"])
    SHORT_N = len(DATA["short"])
    for i in range(LONG_N):
        LONG_TABLE[i] = DATA["long"][i]
    for i in range(SHORT_N):
        SHORT_TABLE[i] = DATA["short"][i]
    ALL_TYPES = 0
    for x in range(NCOLOURS):
        COLOUR_TYPES[x] = 0
        for v in range(NVALUES):
            t = x * NVALUES + v
            COLOUR[t] = x
            VALUE[t] = v
            COLOUR_TYPES[x] |= (<uint64_t>1) << t
            CARD_ORDER[2 * t] = t
            CARD_ORDER[2 * t + 1] = t
        ALL_TYPES |= COLOUR_TYPES[x]
    for t in range(NTYPES):
        AT_LEAST[t] = 0
        AT_MOST[t] = 0
        for t2 in range(NTYPES):
            if COLOUR[t2] == COLOUR[t]:
                if VALUE[t2] >= VALUE[t]:
                    AT_LEAST[t] |= (<uint64_t>1) << t2
                if VALUE[t2] <= VALUE[t]:
                    AT_MOST[t] |= (<uint64_t>1) << t2
    for b in range(32):
        BEGIN_TYPES[b] = 0
        for x in range(NCOLOURS):
            if not (b >> x) & 1:
                BEGIN_TYPES[b] |= COLOUR_TYPES[x]


_build_tables()

# ===== rules =======================================================================================

cdef inline uint64_t column_mask(int updown, int direction, int t) noexcept nogil:
    """The types that may follow card t on its column, given the column's direction."""
    if direction == 2:
        return AT_MOST[t]
    if direction == 1 or not updown:
        return AT_LEAST[t]
    return COLOUR_TYPES[COLOUR[t]]


cdef inline int artifact_points(int artifacts, int short_game) noexcept nogil:
    if short_game:
        return SHORT_TABLE[artifacts if artifacts < SHORT_N else SHORT_N - 1]
    return LONG_TABLE[artifacts if artifacts < LONG_N else LONG_N - 1]


cdef void b_shuffle(uint8_t* a, int n, Rng* rng) noexcept nogil:
    """Fisher-Yates as in docs/notation.md: for i from n-1 down to 1 swap a[i], a[below(i+1)]."""
    cdef int i = n - 1, j
    cdef uint8_t tmp
    while i > 0:
        j = rng_below(rng, i + 1)
        tmp = a[i]
        a[i] = a[j]
        a[j] = tmp
        i -= 1


cdef void b_deal(BoardStruct* s) noexcept nogil:
    """Deals a new expedition from the state's generator (docs/board.md, "Dealing")."""
    cdef uint8_t tiles[MAX_TILES]
    cdef uint8_t cards[NCARDS]
    cdef int n = NCARDS, i, k, p
    cdef Rng rng
    rng.x = s.rng
    memcpy(tiles, TILE_ORDER, NTILES)
    b_shuffle(tiles, NTILES, &rng)
    memcpy(cards, CARD_ORDER, NCARDS)
    b_shuffle(cards, NCARDS, &rng)
    s.rng = rng.x
    memset(s.advance, 0, sizeof(s.advance))
    memset(s.hand, 0, sizeof(s.hand))
    memset(s.cols, 0, sizeof(s.cols))
    memset(s.known, 0, sizeof(s.known))
    memset(&s.box, 0, sizeof(s.box))
    memset(s.begun, 0, sizeof(s.begun))
    memset(s.movable, 0, sizeof(s.movable))
    memset(s.researcher, NONE, sizeof(s.researcher))
    memset(s.stone, 0, sizeof(s.stone))
    memset(s.last, 0, sizeof(s.last))
    memset(s.dir, 0, sizeof(s.dir))
    memset(s.tile, 0, sizeof(s.tile))
    memset(s.pile_n, 0, sizeof(s.pile_n))
    memset(s.deck, 0, sizeof(s.deck))
    memset(s.piles, 0, sizeof(s.piles))
    for p in range(s.nseats, MAX_SEATS):
        s.researcher[p] = 0
    for i in range(NTILES):
        s.tile[SPACE_PATH[i]][SPACE_STONE[i]] = tiles[i]
    if s.nseats == 2:
        for k in range(REMOVED_2P):
            n -= 1
            cards_add(&s.box, cards[n])
    for k in range(HAND_SIZE * s.nseats):
        cards_add(&s.hand[k % s.nseats], cards[n - 1 - k])
    s.deck_n = n - HAND_SIZE * s.nseats
    memcpy(s.deck, cards, s.deck_n)
    s.crossed = 0
    s.nonempty = 0
    s.turn = 0
    s.phase = PH_PLAY
    s.nodraw = NONE
    s.to_move = s.starter


cdef int board_piece_score(const BoardStruct* s, int p) noexcept nogil:
    """What the seat's pieces score as they stand (the researcher double)."""
    cdef int x, total = 0, v
    for x in range(NCOLOURS):
        if s.stone[p][x]:
            v = STONE_VALUE[s.stone[p][x]]
            total += 2 * v if s.researcher[p] == x else v
    return total


cdef void b_end_expedition(BoardStruct* s, int next_starter) noexcept nogil:
    """Scores the expedition (floor at 0), then deals the next one or ends the game."""
    cdef int p
    for p in range(s.nseats):
        s.totals[p] += board_piece_score(s, p)
        if s.totals[p] < 0:
            s.totals[p] = 0
    if s.round + 1 >= s.rounds:
        for p in range(s.nseats):
            s.totals[p] += artifact_points(s.artifacts[p], s.rounds == 1)
            if s.totals[p] < 0:
                s.totals[p] = 0
        s.phase = PH_OVER
        s.to_move = NONE
        s.nodraw = NONE
        return
    s.round += 1
    s.starter = next_starter
    b_deal(s)


cdef inline void b_step(BoardStruct* s, int p, int x) noexcept nogil:
    """Seat p's piece on path x steps one stone forward; the bridge, then the stone's tile, act."""
    cdef int st = s.stone[p][x] + 1
    cdef int code
    s.stone[p][x] = st
    if st == NSTONES:
        s.movable[p] &= ~(1 << x)
    if st == BRIDGE + 1:
        s.crossed += 1
        if s.crossed >= CROSS_END:
            b_end_expedition(s, (p + 1) % s.nseats)
            return
    code = s.tile[x][st]
    s.phase = PH_DRAW
    if code == TILE_NONE:
        return
    if code == TILE_ARROW:
        if s.movable[p]:
            s.phase = PH_MOVE
    elif code == TILE_ARTIFACT:
        s.artifacts[p] += 1
        s.tile[x][st] = TILE_NONE
    else:
        s.totals[p] += code - TILE_VP


cdef inline void b_column_add(BoardStruct* s, int p, int t, bint begin) noexcept nogil:
    """Card t goes on top of seat p's column: its last value, direction and playable cards."""
    cdef int x = COLOUR[t], v = VALUE[t]
    if not begin and s.dir[p][x] == 0 and v != s.last[p][x]:
        s.dir[p][x] = 1 if v > s.last[p][x] else 2   # the first different card fixes it
    s.last[p][x] = v
    s.advance[p] = (s.advance[p] & ~COLOUR_TYPES[x]) | column_mask(s.updown, s.dir[p][x], t)


cdef void board_column_add(BoardStruct* s, int p, int t, bint begin) noexcept nogil:
    b_column_add(s, p, t, begin)


cdef inline void b_do_play(BoardStruct* s, int t, bint with_researcher) noexcept nogil:
    """Plays type t onto the mover's column of its colour: an advance, or a begin."""
    cdef int p = s.to_move, x = COLOUR[t]
    cdef uint8_t bit = 1 << x
    cdef bint begin = not (s.begun[p] & bit)
    cards_remove(&s.hand[p], t)
    cards_remove(&s.known[p], t)
    cards_add(&s.cols[p], t)
    b_column_add(s, p, t, begin)
    if begin:
        s.begun[p] |= bit
        s.movable[p] |= bit
        if with_researcher:
            s.researcher[p] = x
    elif s.stone[p][x] == NSTONES:
        # The lost-city advance: an optional step with any piece below stone 9.
        s.phase = PH_MOVE if s.movable[p] else PH_DRAW
        return
    b_step(s, p, x)


cdef inline void b_do_discard(BoardStruct* s, int t) noexcept nogil:
    cdef int p = s.to_move, k = COLOUR[t]
    cards_remove(&s.hand[p], t)
    cards_remove(&s.known[p], t)
    s.piles[k * PILE_CAP + s.pile_n[k]] = t
    s.pile_n[k] += 1
    s.nonempty |= 1 << k
    s.nodraw = k
    s.phase = PH_DRAW


cdef inline void b_end_turn(BoardStruct* s) noexcept nogil:
    s.turn += 1
    s.phase = PH_PLAY
    s.nodraw = NONE
    s.to_move += 1
    if s.to_move >= s.nseats:
        s.to_move = 0
    if s.deck_n == 0 or s.turn >= s.max_turns:
        b_end_expedition(s, s.to_move)


cdef inline void b_draw_deck(BoardStruct* s) noexcept nogil:
    s.deck_n -= 1
    cards_add(&s.hand[s.to_move], s.deck[s.deck_n])
    s.deck[s.deck_n] = 0
    b_end_turn(s)


cdef inline void b_draw_pile(BoardStruct* s, int k) noexcept nogil:
    """Takes the top of discard pile k: the card is now known to be in the mover's hand."""
    cdef int t
    s.pile_n[k] -= 1
    t = s.piles[k * PILE_CAP + s.pile_n[k]]
    s.piles[k * PILE_CAP + s.pile_n[k]] = 0
    if s.pile_n[k] == 0:
        s.nonempty &= ~(1 << k)
    cards_add(&s.hand[s.to_move], t)
    cards_add(&s.known[s.to_move], t)
    b_end_turn(s)


cdef inline void b_play_masks(const BoardStruct* s, int p, uint64_t* plus, uint64_t* research) noexcept nogil:
    """The types playable as `+c` (advance, or begin with an adventurer) and as `+cR`."""
    cdef uint64_t h = s.hand[p].any
    cdef uint64_t begin = BEGIN_TYPES[s.begun[p]]
    cdef int unused_researcher = s.researcher[p] == NONE
    cdef int adventurers_used = exp_popcount(s.begun[p]) - (0 if unused_researcher else 1)
    plus[0] = h & (s.advance[p] | (begin if adventurers_used < NADVENTURERS else 0))
    research[0] = (h & begin) if unused_researcher else 0


cdef inline int b_draw_sources(const BoardStruct* s) noexcept nogil:
    """Bit 0: the draw pile; bit 1+k: discard pile k may be drawn from."""
    cdef int piles = s.nonempty
    if s.nodraw != NONE:
        piles &= ~(1 << s.nodraw)
    return 1 | (piles << 1)


cdef void board_apply(void* sp, int d) noexcept nogil:
    cdef BoardStruct* s = <BoardStruct*>sp
    if d < D_PLAY_R:
        b_do_play(s, d, False)
    elif d < D_DISCARD:
        b_do_play(s, d - D_PLAY_R, True)
    elif d < D_DRAW_DECK:
        b_do_discard(s, d - D_DISCARD)
    elif d == D_DRAW_DECK:
        b_draw_deck(s)
    elif d < D_MOVE:
        b_draw_pile(s, d - D_DRAW_PILE)
    elif d < D_MOVE_NONE:
        b_step(s, s.to_move, d - D_MOVE)
    else:
        s.phase = PH_DRAW


cdef inline int _emit(uint64_t m, int base, int* out, int n) noexcept nogil:
    while m:
        out[n] = base + exp_ctz(m)
        n += 1
        m &= m - 1
    return n


cdef int board_legal(const void* sp, int* out) noexcept nogil:
    cdef const BoardStruct* s = <const BoardStruct*>sp
    cdef int p = s.to_move, n = 0
    cdef uint64_t plus, research
    if s.phase == PH_PLAY:
        b_play_masks(s, p, &plus, &research)
        n = _emit(plus, D_PLAY, out, n)
        n = _emit(research, D_PLAY_R, out, n)
        n = _emit(s.hand[p].any, D_DISCARD, out, n)
    elif s.phase == PH_DRAW:
        out[0] = D_DRAW_DECK
        n = _emit(<uint64_t>(b_draw_sources(s) >> 1), D_DRAW_PILE, out, 1)
    elif s.phase == PH_MOVE:
        n = _emit(s.movable[p], D_MOVE, out, 0)
        out[n] = D_MOVE_NONE
        n += 1
    return n


cdef int board_random_decision(const void* sp, Rng* rng) noexcept nogil:
    """Same distribution and order as legal()[below(len)], without building the list."""
    cdef const BoardStruct* s = <const BoardStruct*>sp
    cdef int p = s.to_move, np, nr, nd, r, src, k
    cdef uint64_t plus, research, h
    if s.phase == PH_PLAY:
        b_play_masks(s, p, &plus, &research)
        h = s.hand[p].any
        np = exp_popcount(plus)
        nr = exp_popcount(research)
        nd = exp_popcount(h)
        r = rng_below(rng, np + nr + nd)
        if r < np:
            return D_PLAY + exp_select(plus, r)
        if r < np + nr:
            return D_PLAY_R + exp_select(research, r - np)
        return D_DISCARD + exp_select(h, r - np - nr)
    if s.phase == PH_DRAW:
        src = b_draw_sources(s)
        k = exp_select(src, rng_below(rng, exp_popcount(src)))
        return D_DRAW_DECK if k == 0 else D_DRAW_PILE + k - 1
    k = exp_popcount(s.movable[p])
    r = rng_below(rng, k + 1)
    return D_MOVE_NONE if r == k else D_MOVE + exp_select(s.movable[p], r)


cdef int board_playout(void* sp, Rng* rng) noexcept nogil:
    """Uniformly random decisions to the end of the game, a whole turn per loop.

    Draws the same random numbers as repeated random_decision + apply (the same games) but goes
    straight from the sampled index to the step.
    """
    cdef BoardStruct* s = <BoardStruct*>sp
    cdef int n = 0, p, np, nr, nd, r, k, src
    cdef uint64_t plus, research, h
    while s.phase != PH_OVER:
        if s.phase == PH_PLAY:
            p = s.to_move
            b_play_masks(s, p, &plus, &research)
            h = s.hand[p].any
            np = exp_popcount(plus)
            nr = exp_popcount(research)
            nd = exp_popcount(h)
            r = rng_below(rng, np + nr + nd)
            n += 1
            if r < np:
                b_do_play(s, exp_select(plus, r), False)
            elif r < np + nr:
                b_do_play(s, exp_select(research, r - np), True)
            else:
                b_do_discard(s, exp_select(h, r - np - nr))
        while s.phase == PH_MOVE:
            p = s.to_move
            k = exp_popcount(s.movable[p])
            r = rng_below(rng, k + 1)
            n += 1
            if r == k:
                s.phase = PH_DRAW
            else:
                b_step(s, p, exp_select(s.movable[p], r))
        if s.phase == PH_DRAW:
            src = b_draw_sources(s)
            k = exp_select(src, rng_below(rng, exp_popcount(src)))
            n += 1
            if k == 0:
                b_draw_deck(s)
            else:
                b_draw_pile(s, k - 1)
    return n


cdef void board_blank(BoardStruct* s, int players, const int* options) noexcept nogil:
    """A game for `players` with nothing in it but its rule options (values in the order of
    OPTION_SPECS): what a deal (board_reset) or the notation fills in."""
    memset(s, 0, sizeof(BoardStruct))
    s.nseats = players
    s.rounds = options[0]
    s.max_turns = options[1]
    s.updown = options[2]


cdef int board_options(const void* sp, int* out) noexcept nogil:
    """The values of the position's rule options in the order of OPTION_SPECS; returns how many."""
    cdef const BoardStruct* s = <const BoardStruct*>sp
    out[0] = s.rounds
    out[1] = s.max_turns
    out[2] = s.updown
    return 3


cdef void board_reset(void* sp, uint64_t seed) noexcept nogil:
    """Starts the game again with a new deal from `seed`, keeping players and options."""
    cdef BoardStruct* s = <BoardStruct*>sp
    memset(s.totals, 0, sizeof(s.totals))
    memset(s.artifacts, 0, sizeof(s.artifacts))
    s.round = 0
    s.starter = 0
    s.rng = seed
    b_deal(s)


cdef int board_num_seats(const void* sp) noexcept nogil:
    return (<const BoardStruct*>sp).nseats


cdef int board_team_of(const void* sp, int seat) noexcept nogil:
    return seat


cdef int board_to_move(const void* sp) noexcept nogil:
    cdef const BoardStruct* s = <const BoardStruct*>sp
    return -1 if s.phase == PH_OVER else s.to_move


cdef int board_round_index(const void* sp) noexcept nogil:
    return (<const BoardStruct*>sp).round


cdef int board_rounds(const void* sp) noexcept nogil:
    return (<const BoardStruct*>sp).rounds


cdef void board_scores(const void* sp, double* out) noexcept nogil:
    cdef const BoardStruct* s = <const BoardStruct*>sp
    cdef int i
    for i in range(s.nseats):
        out[i] = s.totals[i]


cdef void board_returns(const void* sp, double* out) noexcept nogil:
    """Ranked by victory points, then artifacts (the key packs both; artifacts < 2^16)."""
    cdef const BoardStruct* s = <const BoardStruct*>sp
    cdef int team[MAX_SEATS]
    cdef double key[MAX_SEATS]
    cdef int i
    for i in range(s.nseats):
        team[i] = i
        key[i] = <double>s.totals[i] * 65536.0 + s.artifacts[i]
    rank_returns(s.nseats, team, key, out)


cdef int board_reveal(const void* sp, int d, int* out) noexcept nogil:
    """A draw from the draw pile shows its mover the card drawn."""
    cdef const BoardStruct* s = <const BoardStruct*>sp
    if d == D_DRAW_DECK and s.phase == PH_DRAW and s.deck_n > 0:
        out[0] = s.deck[s.deck_n - 1]
        return 1
    return 0


cdef inline void _see(uint64_t* c1, uint64_t* c2, uint64_t m) noexcept nogil:
    """Adds one copy of every type in m to the seen counts (c1: seen once or more, c2: twice)."""
    c2[0] |= c1[0] & m
    c1[0] |= m


cdef void board_determinize(void* sp, int seat, Rng* rng) noexcept nogil:
    """Redeals every card `seat` cannot see (other hands' unknown cards, draw pile, box)."""
    cdef BoardStruct* s = <BoardStruct*>sp
    cdef uint8_t pool[NCARDS]
    cdef int unknown[MAX_SEATS]
    cdef int o, i, k, npool = 0, nbox
    cdef uint64_t c1 = 0, c2 = 0, m
    cdef const Cards* fixed
    # Count what the seat sees, two bit planes over the types: columns, its hand, known cards, piles.
    for o in range(s.nseats):
        fixed = &s.hand[o] if o == seat else &s.known[o]
        _see(&c1, &c2, s.cols[o].any)
        _see(&c1, &c2, s.cols[o].extra)
        _see(&c1, &c2, fixed.any)
        _see(&c1, &c2, fixed.extra)
        unknown[o] = 0 if o == seat else cards_size(&s.hand[o]) - cards_size(&s.known[o])
    for k in range(NCOLOURS):
        for i in range(s.pile_n[k]):
            _see(&c1, &c2, (<uint64_t>1) << s.piles[k * PILE_CAP + i])
    # The unseen cards: two copies of the types never seen, one of the types seen once.
    m = ALL_TYPES & ~c2
    while m:
        i = exp_ctz(m)
        m &= m - 1
        pool[npool] = i
        npool += 1
        if not (c1 >> i) & 1:
            pool[npool] = i
            npool += 1
    b_shuffle(pool, npool, rng)
    k = 0
    for o in range(s.nseats):
        if o != seat:
            s.hand[o] = s.known[o]
            for i in range(unknown[o]):
                cards_add(&s.hand[o], pool[k])
                k += 1
    for i in range(s.deck_n):
        s.deck[i] = pool[k]
        k += 1
    nbox = cards_size(&s.box)
    s.box.any = 0
    s.box.extra = 0
    for i in range(nbox):
        cards_add(&s.box, pool[k])
        k += 1
    s.rng = rng_next(rng)


cdef GameOps OPS


cdef const GameOps* board_ops() noexcept nogil:
    """The rules table of `board`."""
    return &OPS


cdef void _build_ops():
    OPS.name = b"board"
    OPS.state_size = sizeof(BoardStruct)
    OPS.num_decision_ids = N_DECISIONS
    OPS.num_seats = board_num_seats
    OPS.team_of = board_team_of
    OPS.to_move = board_to_move
    OPS.round_index = board_round_index
    OPS.rounds = board_rounds
    OPS.legal = board_legal
    OPS.apply = board_apply
    OPS.random_decision = board_random_decision
    OPS.scores = board_scores
    OPS.returns = board_returns
    OPS.determinize = board_determinize
    OPS.reveal = board_reveal
    OPS.margin = 1
    OPS.playout = board_playout
    OPS.reset = board_reset
    OPS.options = board_options


_build_ops()
RULES = rules_of(&OPS)
"""The rules as the Python object the edition's record carries."""

OPTION_SPECS = (
    OptionSpec("rounds", 3, 1, 99, "expeditions in a game (1 = the short game and its artifact table)"),
    OptionSpec("max_turns", 300, 1, 10000, "turns per expedition (all seats counted) before it is scored as ended"),
    OptionSpec("updown", 0, 0, 1, "the up-and-down variant: a column's second different card fixes its direction"),
)
"""The rule options in the order of `board_options` (and of the notation's header)."""
SEATS = (2, 3, 4)
"""The numbers of players the game is played with (a field of the state, not a rule option)."""


def artifact_score(int artifacts, bint short_game) -> int:
    """Points for an artifact count on the short or long table (engine/board/data/board.json).

    >>> artifact_score(6, False), artifact_score(0, True)
    (30, -20)
    """
    if artifacts < 0:
        raise ValueError("an artifact count is >= 0")
    return artifact_points(min(artifacts, 63), short_game)


def stone_value(int stone) -> int:
    """The printed value of stone 1..9 (engine/board/data/board.json).

    >>> stone_value(1)
    -20
    """
    if not 1 <= stone <= NSTONES:
        raise ValueError(f"a stone is 1..{NSTONES}")
    return STONE_VALUE[stone]
