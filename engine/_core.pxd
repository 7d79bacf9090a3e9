# The compiled face of the game interface: the RNG, bit helpers, the per-edition table of
# nogil functions (GameOps) and the Python-facing base class State that wraps one C state.
from libc.stdint cimport uint64_t, uint32_t, int64_t

cdef extern from *:
    """
    #include <stdint.h>
    static inline int exp_popcount(uint64_t x) { return __builtin_popcountll(x); }
    static inline int exp_ctz(uint64_t x) { return __builtin_ctzll(x); }
    static inline uint64_t exp_mul_hi(uint64_t a, uint64_t b, uint64_t *lo) {
        __uint128_t m = (__uint128_t)a * (__uint128_t)b;
        *lo = (uint64_t)m;
        return (uint64_t)(m >> 64);
    }
    /* Index of the r-th (0-based) set bit of x; x must have more than r bits set.
       With BMI2 one PDEP does it (setup.py defines EXP_SLOW_PDEP on CPUs that microcode it).
       Otherwise a branch-free binary search on popcounts: in random playouts r is
       unpredictable, and a loop of r steps mispredicts its exit almost every time. */
    #if defined(__BMI2__) && !defined(EXP_SLOW_PDEP)
    #include <immintrin.h>
    static inline int exp_select(uint64_t x, int r) {
        return __builtin_ctzll(_pdep_u64(1ull << r, x));
    }
    #else
    static inline int exp_select(uint64_t x, int r) {
        int pos = 0, c, s;
        c = __builtin_popcountll(x & 0xFFFFFFFFull); s = (r >= c) ? 32 : 0; r -= (r >= c) ? c : 0; x >>= s; pos += s;
        c = __builtin_popcountll(x & 0xFFFFull);     s = (r >= c) ? 16 : 0; r -= (r >= c) ? c : 0; x >>= s; pos += s;
        c = __builtin_popcountll(x & 0xFFull);       s = (r >= c) ? 8 : 0;  r -= (r >= c) ? c : 0; x >>= s; pos += s;
        c = __builtin_popcountll(x & 0xFull);        s = (r >= c) ? 4 : 0;  r -= (r >= c) ? c : 0; x >>= s; pos += s;
        c = __builtin_popcountll(x & 0x3ull);        s = (r >= c) ? 2 : 0;  r -= (r >= c) ? c : 0; x >>= s; pos += s;
        c = (int)(x & 1);                            s = (r >= c) ? 1 : 0;  pos += s;
        return pos;
    }
    #endif
    """
    int exp_popcount(uint64_t x) noexcept nogil
    int exp_ctz(uint64_t x) noexcept nogil
    uint64_t exp_mul_hi(uint64_t a, uint64_t b, uint64_t* lo) noexcept nogil
    int exp_select(uint64_t x, int r) noexcept nogil


# SplitMix64: one 64-bit word of state, so a generator is trivially copied, stored in a
# position's text and re-seeded (docs/notation.md, "Dealing").
ctypedef struct Rng:
    uint64_t x


cdef inline uint64_t rng_next(Rng* r) noexcept nogil:
    r.x += <uint64_t>0x9E3779B97F4A7C15ULL
    cdef uint64_t z = r.x
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint32_t rng_below(Rng* r, uint32_t n) noexcept nogil:
    """Unbiased integer in [0, n) (Lemire's multiply-and-reject); n >= 1."""
    cdef uint64_t lo
    cdef uint64_t hi = exp_mul_hi(rng_next(r), n, &lo)
    cdef uint64_t t
    if lo < n:
        t = (<uint64_t>0 - <uint64_t>n) % n
        while lo < t:
            hi = exp_mul_hi(rng_next(r), n, &lo)
    return <uint32_t>hi


cdef inline double rng_unit(Rng* r) noexcept nogil:
    """Uniform double in [0, 1)."""
    return <double>(rng_next(r) >> 11) * (1.0 / 9007199254740992.0)


cdef inline int seat_turns(int n, int first, int seat, int nseats) noexcept nogil:
    """How many of n turns are seat's, seat `first` taking the first and the seats in order."""
    cdef int off = seat - first
    if off < 0:
        off += nseats
    return n // nseats + (1 if off < n % nseats else 0)


cdef inline int turns_left_of(bint before_play, int deck_n, int turn_cap, int to_move, int seat, int nseats,
                              int rounds_after, int dealt) noexcept nogil:
    """The turns with a play `seat` still has when every turn draws one card from the draw pile:
    the rest of this round (at most `turn_cap` more turns; the current one if its play is still to
    come), then `rounds_after` rounds of `dealt` cards, each counted up to the next seat's turn (its
    starter is not known yet). `State.turns_left` of the editions."""
    cdef int n = deck_n, first = to_move
    if not before_play:
        n -= 1
        turn_cap -= 1
        first = to_move + 1 if to_move + 1 < nseats else 0
    if n > turn_cap:
        n = turn_cap
    if n < 0:
        n = 0
    return seat_turns(n, first, seat, nseats) + rounds_after * ((dealt + nseats - 1) // nseats)


# Upper bounds shared by all editions, so callers can size buffers once.
cdef enum:
    MAX_SEATS = 4
    MAX_LEGAL = 512
    MAX_OPTIONS = 8
    MAX_DECISION_TEXT = 16
    MAX_REVEAL = 16       # things one decision may show its mover alone (cards drawn, a reshuffle's)


# An edition's compiled notation, for loops that answer views without Python objects: reads a
# view into a state (`state_size` bytes) and its seat, returns 1, raises NotationError on a bad view;
# writes the text of a decision (at most MAX_DECISION_TEXT characters), returns its length.
ctypedef int (*LoadView)(const char* text, Py_ssize_t n, void* s, int* seat) except -1
ctypedef int (*DecisionText)(const void* s, int decision, char* out) noexcept nogil

# One edition's rules as plain C functions over an opaque state of `state_size` bytes.
# Decisions are small non-negative integers below `num_decision_ids`.
ctypedef struct GameOps:
    const char* name
    size_t state_size
    int num_decision_ids
    int (*num_seats)(const void* s) noexcept nogil
    int (*team_of)(const void* s, int seat) noexcept nogil
    int (*to_move)(const void* s) noexcept nogil          # -1 once the match is over
    int (*round_index)(const void* s) noexcept nogil      # 0-based; changes when a round ends
    int (*rounds)(const void* s) noexcept nogil           # rounds in the match (1: one long round)
    int (*legal)(const void* s, int* out) noexcept nogil  # fills out, returns the count
    void (*apply)(void* s, int decision) noexcept nogil   # decision must be legal
    int (*random_decision)(const void* s, Rng* rng) noexcept nogil  # == legal[below(n)]
    void (*scores)(const void* s, double* out) noexcept nogil       # per seat, match totals
    void (*returns)(const void* s, double* out) noexcept nogil      # per seat, 1 win .5 draw 0 loss
    void (*determinize)(void* s, int seat, Rng* rng) noexcept nogil
    # What `decision`, about to be applied, shows its mover alone (the cards it draws, in the order
    # drawn; a reshuffled pile's new order is not shown), as edition-defined numbers into `out`
    # (at most MAX_REVEAL); returns how many (0: nothing).
    int (*reveal)(const void* s, int decision, int* out) noexcept nogil
    int (*playout)(void* s, Rng* rng) noexcept nogil   # optional fast random playout, or NULL
    void (*reset)(void* s, uint64_t seed) noexcept nogil  # a new match, same options, dealt from seed
    # 1: `scores` differ by a margin worth playing for; 0: a race, where only `returns` count.
    int margin
    # The values of the edition's rule options in the order of its OptionSpecs (at most
    # MAX_OPTIONS); returns how many.
    int (*options)(const void* s, int* out) noexcept nogil
    # The edition's compiled notation, NULL where it has none (its Python face reads and writes).
    LoadView load_view
    DecisionText decision_text


cdef void rank_returns(int nseats, const int* team, const double* key, double* out) noexcept nogil
cdef int64_t perft(const GameOps* ops, void* s, int depth) noexcept nogil
cdef int random_playout(const GameOps* ops, void* s, Rng* rng) noexcept nogil

# Plays one match in place to its end with some policy; returns the number of decisions.
ctypedef int (*PlayoutFn)(const GameOps* ops, void* s, Rng* rng, const void* policy) noexcept nogil

cdef object play_matches(State template, long games, object seed, PlayoutFn playout, const void* policy)


# One edition's GameOps as a Python object: what an edition's record carries, and how Cython code
# anywhere reaches the table (`(<Rules>edition.rules).ops`).
cdef class Rules:
    cdef const GameOps* ops

cdef Rules rules_of(const GameOps* ops)


cdef class State:
    cdef const GameOps* ops
    cdef void* ptr
    # The referee's record of every decision since the position was set up, however many rounds:
    # (mover, decision, revealed) with `revealed` a tuple of what the decision showed its mover.
    cdef list _record
    cdef Py_ssize_t _round_start       # where the current round's decisions begin in _record
    cdef Py_ssize_t _last_round_start  # where those of the round before begin
    cdef int _record_round             # the round the position is in
    cdef object __weakref__
    cdef int _adopt(self, const GameOps* ops, const void* src) except -1
    cdef State _blank(self)
    cdef void _forget(self)
    cdef int _checked(self, decision) except -1
    cdef tuple _revealed(self, int d)
    cdef int _apply(self, int d, tuple revealed) except -1
