# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The notation of the card games (docs/notation.md): cards and decisions as text, the one writer
of positions and views, and the one parser that reads both back.

The parser reads a text's bytes in one pass, field by field, into the C state: while the text is
right it creates no Python object. At the first thing wrong it raises NotationError naming the
field, the offending token and what was expected. Tokens are separated by any whitespace and the
rule options come in any order, each at most once, defaulting when left out.

>>> CARD_TEXT[0][:3], DECISION_TEXT[2][128], PILE_LETTERS[2]
(('yW', 'y2', 'y3'), 'D', ('-',))
>>> card_list(0, "b2yW", "hands")
[11, 0]
>>> card_list(0, "b2y", "hands")
Traceback (most recent call last):
...
engine.errors.NotationError: hands: cards are two characters each: 'b2y' (expected cards like y2rT, or - for none)
"""
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from cpython.unicode cimport PyUnicode_AsUTF8AndSize
from libc.string cimport memchr, memcmp, memcpy, memset
from libc.stdint cimport uint8_t, uint64_t

from engine._core cimport exp_ctz, MAX_OPTIONS, MAX_SEATS
from engine.cards.rules cimport *

from engine.cards.rules import EDITION_NAMES, OPTION_SPECS
from engine.errors import NotationError

COLOURS = ("ybwgr", "ybwgr", "cdhs")
"""Per edition index, the colour letters in canonical order."""
RANKS = ("W23456789T", "W23456789T", "MA23456789T")
"""Per edition index, the rank letters in canonical order (the wager or multiplier first)."""
PHASES = ("play", "draw", "over")
PILE_LETTERS = tuple(("-",) if lc_config(_e).npiles == 1 else tuple(COLOURS[_e]) for _e in range(N_EDITIONS))
"""Per edition index, the letter of each discard pile (`-` for the single pile)."""
CARD_TEXT = tuple(tuple(col + rank for col in COLOURS[_e] for rank in RANKS[_e]) for _e in range(N_EDITIONS))
"""Per edition index, the text of each card type."""
CARD_INDEX = tuple({text: t for t, text in enumerate(CARD_TEXT[_e])} for _e in range(N_EDITIONS))
for _e in range(N_EDITIONS):
    if len(COLOURS[_e]) != lc_config(_e).ncolours or len(CARD_TEXT[_e]) != lc_config(_e).ntypes:
        raise ImportError(f"the card texts of {EDITION_NAMES[_e]} do not fit its rules")


def _decision_texts(int e) -> list:
    """Text of every decision id of edition e (None for ids the edition does not use)."""
    cdef const LCConfig* c = lc_config(e)
    texts = CARD_TEXT[e]
    out = [None] * N_DECISIONS
    for t in range(c.ntypes):
        out[D_PLAY + t] = "+" + texts[t]
        out[D_DISCARD + t] = "-" + texts[t]
    out[D_DRAW_DECK] = "D"
    for k in range(c.npiles):
        out[D_DRAW_PILE + k] = "D" + PILE_LETTERS[e][k]
    if c.passes:
        for t2 in range(c.ntypes):
            for t1 in range(t2 + 1):
                out[pass_id(t1, t2)] = ">" + texts[t1] + texts[t2]
    return out


DECISION_TEXT = tuple(_decision_texts(_e) for _e in range(N_EDITIONS))
"""Per edition index, the text of each decision id (None for ids it does not use)."""
DECISION_INDEX = tuple({text: d for d, text in enumerate(texts) if text is not None} for texts in DECISION_TEXT)
DECISION_EXPECTED = tuple(
    f"+card, -card, D, D<pile of {''.join(PILE_LETTERS[_e])}>" + (" or >cardcard" if lc_config(_e).passes else "")
    for _e in range(N_EDITIONS))
"""Per edition index, what a decision looks like (for errors)."""

# The same texts as C tables, for the parser and the writer.
cdef signed char CARD_OF[N_EDITIONS][128][128]   # card type by its two characters, -1: not a card
cdef char CARD_CHARS[N_EDITIONS][MAX_TYPES][2]
cdef char PILE_CHAR[N_EDITIONS][MAX_PILES]
cdef char DECISION_CHARS[N_EDITIONS][N_DECISIONS][6]
cdef uint8_t DECISION_LEN[N_EDITIONS][N_DECISIONS]
cdef const char* NAME_C[N_EDITIONS]
cdef int NAME_LEN[N_EDITIONS]
# The rule options of each edition, in the order of OPTION_SPECS (the order rules' lc_options uses).
cdef char OPTION_NAME[N_EDITIONS][MAX_OPTIONS][16]
cdef int OPTION_LEN[N_EDITIONS][MAX_OPTIONS]
cdef int OPTION_LOW[N_EDITIONS][MAX_OPTIONS]
cdef int OPTION_HIGH[N_EDITIONS][MAX_OPTIONS]
cdef int OPTION_DEFAULT[N_EDITIONS][MAX_OPTIONS]
cdef int OPTIONS_N[N_EDITIONS]
cdef bint SPACE[256]  # the ASCII whitespace str.split() splits at

_NAMES_B = tuple(name.encode() for name in EDITION_NAMES)  # kept alive: NAME_C points into them
memset(CARD_OF, 0xFF, sizeof(CARD_OF))
for _e in range(N_EDITIONS):
    NAME_C[_e] = _NAMES_B[_e]
    NAME_LEN[_e] = len(_NAMES_B[_e])
    for _t, _text in enumerate(CARD_TEXT[_e]):
        CARD_OF[_e][ord(_text[0])][ord(_text[1])] = _t
        CARD_CHARS[_e][_t][0] = ord(_text[0])
        CARD_CHARS[_e][_t][1] = ord(_text[1])
    for _k, _letter in enumerate(PILE_LETTERS[_e]):
        PILE_CHAR[_e][_k] = ord(_letter)
    for _d, _text in enumerate(DECISION_TEXT[_e]):
        if _text is not None:
            for _i, _ch in enumerate(_text):
                DECISION_CHARS[_e][_d][_i] = ord(_ch)
            DECISION_LEN[_e][_d] = len(_text)
    OPTIONS_N[_e] = len(OPTION_SPECS[_e])
    for _k, _spec in enumerate(OPTION_SPECS[_e]):
        OPTION_LEN[_e][_k] = len(_spec.name)
        for _i, _ch in enumerate(_spec.name):
            OPTION_NAME[_e][_k][_i] = ord(_ch)
        OPTION_LOW[_e][_k], OPTION_HIGH[_e][_k], OPTION_DEFAULT[_e][_k] = _spec.low, _spec.high, _spec.default
for _c in (9, 10, 11, 12, 13, 28, 29, 30, 31, 32):  # \t \n \v \f \r, the separators \x1c-\x1f, space
    SPACE[_c] = True


# ===== the writer: positions and views into a char buffer (the referee writes a view for every
# decision) =========================================================================================

cdef inline char* _put(char* p, const char* text, int n) noexcept nogil:
    memcpy(p, text, n)
    return p + n


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
    cdef const LCConfig* c = lc_config(e)
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


cdef str lc_write(const LCState* s, int viewer, list record, Py_ssize_t start):
    """The position's text (viewer < 0), or viewer's view with the masked history: the entries of
    `record` (State._record: (mover, decision, revealed)) from `start`, the current round's."""
    cdef int e = s.edition, k, hidden, mover, d, n
    cdef const LCConfig* c = lc_config(e)
    cdef const CardSet* seen
    cdef int options[MAX_OPTIONS]
    cdef tuple entry, revealed
    cdef Py_ssize_t i, size = 2048 + 16 * (len(record) - start)
    cdef char* buf = <char*>PyMem_Malloc(size)
    cdef char* p
    if buf == NULL:
        raise MemoryError()
    try:
        p = _put(buf, NAME_C[e], NAME_LEN[e])
        n = lc_options(s, options)
        for k in range(n):
            p[0] = c' '
            p = _put(p + 1, OPTION_NAME[e][k], OPTION_LEN[e][k])
            p[0] = c'='
            p = _put_int(p + 1, options[k])
        if viewer >= 0:
            p = _put(p, b" seat=", 6)
            p = _put_int(p, viewer)
        p = _put(p, b" round=", 7)
        p = _put_int(p, s.round + 1)
        p[0] = c'/'
        p = _put_int(p + 1, s.rounds)
        p = _put(p, b" starter=", 9)
        p = _put_int(p, s.starter)
        p = _put(p, b" turn=", 6)
        p = _put_int(p, s.turn)
        p = _put(p, b" phase=play" if s.phase == PH_PLAY else b" phase=draw" if s.phase == PH_DRAW else b" phase=over", 11)
        p = _put(p, b" to_move=", 9)
        if s.phase == PH_OVER:
            p[0] = c'-'
            p += 1
        else:
            p = _put_int(p, s.to_move)
        p = _put(p, b" nodraw=", 8)
        p[0] = c'.' if s.nodraw == NONE else PILE_CHAR[e][s.nodraw]
        p = _put(p + 1, b" totals=", 8)
        for k in range(c.nrows):
            p = _put_sep(p, k, c'/')
            p = _put_int(p, s.totals[k])
        p = _put(p, b" hands=", 7)
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
        p = _put(p, b" rows=", 6)
        for k in range(c.nrows):
            p = _put_sep(p, k, c'/')
            p = _put_set(p, e, &s.rows[k], True)
        p = _put(p, b" piles=", 7)
        for k in range(c.npiles):
            p = _put_sep(p, k, c'/')
            p = _put_stack(p, e, &s.piles[k * c.pile_cap], s.pile_n[k])
        p = _put(p, b" deck=", 6)
        if viewer >= 0:
            p = _put_int(p, s.deck_n)
        else:
            p = _put_stack(p, e, s.deck, s.deck_n)
        p = _put(p, b" known=", 7)
        for k in range(c.nseats):
            p = _put_sep(p, k, c'/')
            p = _put_set(p, e, &s.known[k], True)
        if c.passes:
            p = _put(p, b" pknown=", 8)
            for k in range(c.nseats):
                p = _put_sep(p, k, c'/')
                if viewer >= 0 and (k & 1) != (viewer & 1):
                    p[0] = c'?'
                    p += 1
                else:
                    p = _put_set(p, e, &s.pknown[k], True)
            p = _put(p, b" tknown=", 8)
            for k in range(c.nrows):
                p = _put_sep(p, k, c'/')
                p = _put_set(p, e, &s.tknown[k], True)
        if viewer < 0:
            p = _put(p, b" rng=", 5)
            for k in range(15, -1, -1):
                p[0] = b"0123456789abcdef"[(s.rng >> (4 * k)) & 15]
                p += 1
        else:
            p = _put(p, b" history=", 9)
            if start >= len(record):
                p[0] = c'-'
                p += 1
            k = 0
            for i in range(start, len(record)):
                entry = <tuple>record[i]
                mover = entry[0]
                d = entry[1]
                p = _put_sep(p, k, c',')
                k = 1
                if viewer != mover:
                    if d >= D_PASS and (viewer & 1) != (mover & 1):
                        p = _put(p, b">?", 2)  # a pass between the viewer's opponents
                    else:
                        p = _put(p, DECISION_CHARS[e][d], DECISION_LEN[e][d])
                    continue
                p = _put(p, DECISION_CHARS[e][d], DECISION_LEN[e][d])
                revealed = <tuple>entry[2]
                if revealed:  # what the viewer's own decision showed it
                    p[0] = c':'
                    p += 1
                    for card in revealed:
                        p = _put_card(p, e, card)
        return buf[:p - buf].decode("ascii")
    finally:
        PyMem_Free(buf)


cdef int lc_decision_text(const void* s, int d, char* out) noexcept nogil:
    """Writes the text of decision d of the state's edition into `out`; returns its length."""
    cdef int e = (<const LCState*>s).edition
    memcpy(out, DECISION_CHARS[e][d], DECISION_LEN[e][d])
    return DECISION_LEN[e][d]


cdef str _set_text(int e, const CardSet* s):
    """A set as text (`-` when empty), for messages."""
    cdef char buf[2 * MAX_CARDS + 1]
    return buf[:_put_set(buf, e, s, True) - buf].decode("ascii")


# ===== the parser ==================================================================================

# Owns the position in the text while a position or view is read front to back.
ctypedef struct Reader:
    const char* p      # where the rest of the text begins
    const char* end
    const char* a      # the token read last: [a, b)
    const char* b
    int index          # tokens read so far: the last one's place, counting from 1
    bint view          # reading a view (else a full position), for messages
    bint ascii         # every byte is below 128 (else the text is UTF-8 and may hold other characters)


cdef inline bint _next(Reader* r) noexcept nogil:
    """Reads the next token into [r.a, r.b); False at the end of the text."""
    cdef const char* p = r.p
    while p < r.end and SPACE[<uint8_t>p[0]]:
        p += 1
    if p >= r.end:
        r.p = p
        return False
    r.a = p
    while p < r.end and not SPACE[<uint8_t>p[0]]:
        p += 1
    r.b = p
    r.p = p
    r.index += 1
    return True


cdef str _piece(const char* a, const char* b):
    """A piece of the text as the str it came from (valid UTF-8, surrogates passed through)."""
    return a[:b - a].decode("utf-8", "surrogatepass")


cdef str _what(const Reader* r):
    return "view" if r.view else "position"


cdef int _take(Reader* r, const char* key, const char** value, const char** value_end) except -1:
    """The value of the next field, which must be `key`: [*value, *value_end)."""
    cdef Py_ssize_t n = len(key)
    if not _next(r):
        raise NotationError(f"{_what(r)} ends early", expected=f"field {key.decode()}=…")
    if r.b - r.a <= n or memcmp(r.a, key, n) != 0 or r.a[n] != c'=':
        raise NotationError(f"{_what(r)} field {r.index}", token=_piece(r.a, r.b), expected=f"{key.decode()}=…")
    if r.b - r.a == n + 1:
        raise NotationError(f"{_what(r)} field {key.decode()} is empty", token=_piece(r.a, r.b),
                            expected=f"{key.decode()}=<value>")
    value[0] = r.a + n + 1
    value_end[0] = r.b
    return 0


cdef inline int _number(const char* a, const char* b, long low, long high, long* out) noexcept nogil:
    """0 when [a, b) is a decimal integer (a leading `-` allowed) in low..high, into *out; 1 when it
    is not an integer, 2 when it is out of range."""
    cdef bint negative = a < b and a[0] == c'-'
    cdef const char* q = a + negative
    cdef long v = 0
    cdef int digits = 0
    if q >= b:
        return 1
    while q < b:
        if not c'0' <= q[0] <= c'9':
            return 1
        if v or q[0] != c'0':
            digits += 1
        if digits <= 12:  # more digits are out of every range
            v = v * 10 + (q[0] - c'0')
        q += 1
    if digits > 12:
        return 2
    if negative:
        v = -v
    if v < low or v > high:
        return 2
    out[0] = v
    return 0


cdef int _number_error(int status, str field, const char* a, const char* b, long low, long high) except -1:
    raise NotationError(f"{field}: {'not an integer' if status == 1 else 'out of range'}", token=_piece(a, b),
                        expected=f"an integer in {low}..{high}")


cdef int _integer(Reader* r, const char* key, long low, long high) except? -1:
    """The next field, `key`, as an integer in low..high."""
    cdef const char* v
    cdef const char* ve
    cdef long x = 0
    _take(r, key, &v, &ve)
    cdef int status = _number(v, ve, low, high, &x)
    if status:
        _number_error(status, key.decode(), v, ve, low, high)
    return x


cdef int _split(const char* v, const char* ve, int count, const char** starts, const char** ends,
                const char* field) except -1:
    """Splits [v, ve) at `/` into exactly `count` parts [starts[k], ends[k])."""
    cdef int k = 0
    cdef const char* q = v
    while True:
        starts[k] = q
        q = <const char*>memchr(q, c'/', ve - q)
        if q == NULL:
            ends[k] = ve
            break
        ends[k] = q
        q += 1
        k += 1
        if k >= count:
            break
    if k + 1 != count or ends[k] != ve:
        parts = _piece(v, ve).count("/") + 1
        raise NotationError(f"{field.decode()}: {parts} entries separated by /", token=_piece(v, ve),
                            expected=f"{count} entries")
    return 0


# How a list of cards was read.
cdef enum:
    CARDS_OK = 0
    CARDS_EMPTY = 1       # an empty entry (none is written `-`)
    CARDS_ODD = 2         # an odd number of characters
    CARDS_UNKNOWN = 3     # a pair of characters that is no card (at `at`)
    CARDS_UNSORTED = 4    # a set not in canonical order
    CARDS_COPIES = 5      # a set with more copies of `type` than the deck has

ctypedef struct CardScan:
    int status
    const char* at
    int type
    int n                 # cards in the list


cdef int _scan_cards(const Reader* r, const char* a, const char* b, int e, CardSet* set, uint8_t* stack,
                     int cap, int* overflow, CardScan* out) noexcept nogil:
    """Reads the cards of [a, b) (`-`: none): into `set` when given (in canonical order, at most the
    deck's copies), else in the order written onto `stack` (the first `cap` of them; each further
    one counted in overflow[type]). Every pair is checked to be a card before the order and the
    copies are. Returns the outcome's status."""
    cdef const LCConfig* c = lc_config(e)
    cdef Py_ssize_t chars = b - a
    cdef const char* q
    cdef int t, last = -1
    out.status = CARDS_OK
    out.n = 0
    out.type = -1
    if chars == 1 and a[0] == c'-':
        return CARDS_OK
    if not r.ascii:  # count characters, not bytes: skip UTF-8 continuation bytes
        chars = 0
        q = a
        while q < b:
            chars += (<uint8_t>q[0] & 0xC0) != 0x80
            q += 1
    if chars == 0:
        out.status = CARDS_EMPTY
        return CARDS_EMPTY
    if chars & 1:
        out.status = CARDS_ODD
        return CARDS_ODD
    q = a
    while q < b:
        if <uint8_t>q[0] >= 128 or <uint8_t>q[1] >= 128:
            t = -1
        else:
            t = CARD_OF[e][<uint8_t>q[0]][<uint8_t>q[1]]
        if t < 0:  # a valid pair is two ASCII bytes, so q is where the unknown pair's first character is
            out.status = CARDS_UNKNOWN
            out.at = q
            return CARDS_UNKNOWN
        if set != NULL:
            if t < last:
                out.status = CARDS_UNSORTED
            elif out.status == CARDS_OK and cs_count(set, c, t) >= c.copies[t]:
                out.status = CARDS_COPIES
                out.type = t
            else:
                cs_add(set, c, t)
            last = t
        elif out.n < cap:
            stack[out.n] = t
        elif overflow != NULL:
            overflow[t] += 1
        out.n += 1
        q += 2
    return out.status


cdef int _cards_error(const CardScan* scan, int e, const char* a, const char* b, const char* field) except -1:
    """Raises the error a card list's scan found."""
    name = field.decode()
    if scan.status == CARDS_EMPTY:
        raise NotationError(f"{name}: empty entry", expected="cards, or - for none")
    if scan.status == CARDS_ODD:
        raise NotationError(f"{name}: cards are two characters each", token=_piece(a, b),
                            expected=f"cards like {CARD_TEXT[e][1]}{CARD_TEXT[e][len(CARD_TEXT[e]) - 1]}, or - for none")
    if scan.status == CARDS_UNKNOWN:
        raise NotationError(f"{name}: unknown card", token=_piece(scan.at, b)[:2],
                            expected=f"a colour of {COLOURS[e]} then a rank of {RANKS[e]}")
    if scan.status == CARDS_UNSORTED:
        text = _piece(a, b)
        ordered = sorted((text[i:i + 2] for i in range(0, len(text), 2)), key=CARD_INDEX[e].get)
        raise NotationError(f"{name}: cards of a set are written in canonical order", token=text,
                            expected="".join(ordered))
    raise NotationError(f"{name}: more copies than the deck has", token=CARD_TEXT[e][scan.type])


cdef int _set(const Reader* r, const char* a, const char* b, int e, CardSet* out, const char* field) except -1:
    """A set of cards in canonical order (`-`: none)."""
    cdef CardScan scan
    if _scan_cards(r, a, b, e, out, NULL, 0, NULL, &scan):
        _cards_error(&scan, e, a, b, field)
    return 0


cdef int _stack(const Reader* r, const char* a, const char* b, int e, uint8_t* out, int cap, int* overflow,
                const char* field) except? -1:
    """Cards in the order written (`-`: none); returns how many."""
    cdef CardScan scan
    if _scan_cards(r, a, b, e, NULL, out, cap, overflow, &scan):
        _cards_error(&scan, e, a, b, field)
    return scan.n


cdef int _sets(Reader* r, const char* key, int count, int e, CardSet* out) except -1:
    """The next field, `key`: `count` sets of cards separated by `/`, into out[0], ..."""
    cdef const char* v
    cdef const char* ve
    cdef const char* starts[MAX_SEATS]
    cdef const char* ends[MAX_SEATS]
    cdef int k
    _take(r, key, &v, &ve)
    _split(v, ve, count, starts, ends, key)
    for k in range(count):
        _set(r, starts[k], ends[k], e, &out[k], key)
    return 0


cdef int _header(Reader* r, LCState* s, int want) except -1:
    """The edition's name and its rule options (in any order, the others at their defaults)."""
    cdef int e, k, status, given = 0
    cdef int values[MAX_OPTIONS]
    cdef const char* save
    cdef const char* eq
    cdef long x = 0
    if not _next(r):
        raise NotationError(f"empty {_what(r)}", expected="an edition name first, e.g. classic")
    for e in range(N_EDITIONS):
        if r.b - r.a == NAME_LEN[e] and memcmp(r.a, NAME_C[e], NAME_LEN[e]) == 0:
            break
    else:
        raise NotationError(f"unknown edition in {_what(r)}", token=_piece(r.a, r.b), expected=" or ".join(EDITION_NAMES))
    if want >= 0 and e != want:
        raise NotationError(f"not a {EDITION_NAMES[want]} {_what(r)}", token=_piece(r.a, r.b),
                            expected=EDITION_NAMES[want])
    for k in range(OPTIONS_N[e]):
        values[k] = OPTION_DEFAULT[e][k]
    while True:
        save = r.p
        if not _next(r):
            break
        eq = <const char*>memchr(r.a, c'=', r.b - r.a)
        k = -1
        if eq != NULL:
            for k in range(OPTIONS_N[e]):
                if eq - r.a == OPTION_LEN[e][k] and memcmp(r.a, OPTION_NAME[e][k], OPTION_LEN[e][k]) == 0:
                    break
            else:
                k = -1
        if k < 0:  # not an option: the first field
            r.p = save
            r.index -= 1
            break
        if given & (1 << k):
            raise NotationError(f"option {OPTION_SPECS[e][k].name} given twice", token=_piece(r.a, r.b))
        status = _number(eq + 1, r.b, OPTION_LOW[e][k], OPTION_HIGH[e][k], &x)
        if status:
            _number_error(status, f"option {OPTION_SPECS[e][k].name}", eq + 1, r.b, OPTION_LOW[e][k],
                          OPTION_HIGH[e][k])
        values[k] = x
        given |= 1 << k
    lc_blank(s, e, values)
    return e


cdef int _progress(Reader* r, LCState* s) except -1:
    """The round/turn/phase fields shared by positions and views."""
    cdef const LCConfig* c = lc_config(s.edition)
    cdef int e = s.edition, k, status
    cdef const char* v
    cdef const char* ve
    cdef const char* slash
    cdef const char* starts[MAX_ROWS]
    cdef const char* ends[MAX_ROWS]
    cdef long x = 0
    _take(r, b"round", &v, &ve)
    slash = <const char*>memchr(v, c'/', ve - v)
    if slash == NULL:
        raise NotationError("round: expected r/R", token=_piece(v, ve))
    status = _number(slash + 1, ve, 1, 99, &x)
    if status:
        _number_error(status, "round (total)", slash + 1, ve, 1, 99)
    if x != s.rounds:
        raise NotationError("round: the total must equal the rounds option", token=_piece(v, ve),
                            expected=f"r/{s.rounds}")
    status = _number(v, slash, 1, s.rounds, &x)
    if status:
        _number_error(status, "round", v, slash, 1, s.rounds)
    s.round = x - 1
    s.starter = _integer(r, b"starter", 0, c.nseats - 1)
    s.turn = _integer(r, b"turn", 0, s.max_turns)
    _take(r, b"phase", &v, &ve)
    if ve - v == 4 and memcmp(v, b"play", 4) == 0:
        s.phase = PH_PLAY
    elif ve - v == 4 and memcmp(v, b"draw", 4) == 0:
        s.phase = PH_DRAW
    elif ve - v == 4 and memcmp(v, b"over", 4) == 0:
        s.phase = PH_OVER
    else:
        raise NotationError("phase", token=_piece(v, ve), expected="play, draw or over")
    if s.phase == PH_OVER:
        _take(r, b"to_move", &v, &ve)
        if ve - v != 1 or v[0] != c'-':
            raise NotationError("to_move: the match is over", token=_piece(v, ve), expected="-")
        s.to_move = NONE
        if s.round != s.rounds - 1:
            raise NotationError("phase=over before the last round", token=f"round={s.round + 1}/{s.rounds}")
    else:
        s.to_move = _integer(r, b"to_move", 0, c.nseats - 1)
        if s.turn >= s.max_turns:
            raise NotationError("turn: a running round has fewer turns than max_turns", token=str(s.turn),
                                expected=f"0..{s.max_turns - 1}")
    _take(r, b"nodraw", &v, &ve)
    s.nodraw = NONE
    if ve - v != 1 or v[0] != c'.':
        if ve - v == 1:
            for k in range(c.npiles):
                if v[0] == PILE_CHAR[e][k]:
                    s.nodraw = k
        if s.nodraw == NONE:
            raise NotationError("nodraw", token=_piece(v, ve), expected=". or a pile: " + " ".join(PILE_LETTERS[e]))
        if s.phase != PH_DRAW:
            raise NotationError("nodraw: only a position in the draw phase has one", token=_piece(v, ve), expected=".")
    _take(r, b"totals", &v, &ve)
    _split(v, ve, c.nrows, starts, ends, b"totals")
    for k in range(c.nrows):
        status = _number(starts[k], ends[k], -1000000, 1000000, &x)
        if status:
            _number_error(status, "totals", starts[k], ends[k], -1000000, 1000000)
        s.totals[k] = x
    return 0


cdef int _view_hands(Reader* r, LCState* s, int seat, int* unknown, const char** starts, const char** ends) except -1:
    """A view's hands: the viewer's own, and the others' known cards with `?n` unknown ones."""
    cdef const LCConfig* c = lc_config(s.edition)
    cdef int e = s.edition, k, status
    cdef const char* v
    cdef const char* ve
    cdef const char* q
    cdef long x = 0
    cdef CardScan scan
    _take(r, b"hands", &v, &ve)
    _split(v, ve, c.nseats, starts, ends, b"hands")
    for k in range(c.nseats):
        q = <const char*>memchr(starts[k], c'?', ends[k] - starts[k])
        unknown[k] = 0
        if q != NULL:
            if k == seat:
                raise NotationError("hands: the viewer's own hand is fully known", token=_piece(starts[k], ends[k]))
            status = _number(q + 1, ends[k], 0, c.deck_size, &x)
            if status:
                _number_error(status, "hands (unknown cards)", q + 1, ends[k], 0, c.deck_size)
            unknown[k] = x
        else:
            q = ends[k]
            if q == starts[k]:
                raise NotationError("hands: empty entry", token=_piece(starts[k], ends[k]), expected="cards, ?n or -")
        if q == starts[k]:  # only unknown cards
            continue
        if _scan_cards(r, starts[k], q, e, &s.hand[k], NULL, 0, NULL, &scan):
            if scan.status == CARDS_UNSORTED:
                raise NotationError("hands: cards of a set are written in canonical order",
                                    token=_piece(starts[k], ends[k]))
            _cards_error(&scan, e, starts[k], q, b"hands")
    return 0


cdef int _table(Reader* r, LCState* s) except -1:
    """rows= and piles=, and the playable masks they imply."""
    cdef const LCConfig* c = lc_config(s.edition)
    cdef int e = s.edition, k, col, t, top, i, n
    cdef uint64_t m
    cdef const char* v
    cdef const char* ve
    cdef const char* starts[MAX_PILES]
    cdef const char* ends[MAX_PILES]
    _take(r, b"rows", &v, &ve)
    _split(v, ve, c.nrows, starts, ends, b"rows")
    for k in range(c.nrows):
        _set(r, starts[k], ends[k], e, &s.rows[k], b"rows")
        s.playable[k] = c.all_types
        for col in range(c.ncolours):
            top = -1
            m = s.rows[k].any & c.colour_types[col]
            while m:
                t = exp_ctz(m)
                m &= m - 1
                if c.value[t] > 0:
                    if cs_count(&s.rows[k], c, t) > 1:
                        raise NotationError("rows: numbers of an expedition strictly increase",
                                            token=CARD_TEXT[e][t] * 2)
                    top = t
            if top >= 0:
                s.playable[k] = (s.playable[k] & ~c.colour_types[col]) | c.above[top]
    _take(r, b"piles", &v, &ve)
    _split(v, ve, c.npiles, starts, ends, b"piles")
    for k in range(c.npiles):
        n = _stack(r, starts[k], ends[k], e, &s.piles[k * c.pile_cap], c.pile_cap, NULL, b"piles")
        if n > c.pile_cap:
            raise NotationError("piles: too many cards in one pile", token=_piece(starts[k], ends[k]))
        if c.npiles > 1:
            for i in range(n):
                t = s.piles[k * c.pile_cap + i]
                if c.colour[t] != k:
                    raise NotationError(f"piles: a card on the {COLOURS[e][k]} pile", token=CARD_TEXT[e][t],
                                        expected=f"cards of colour {COLOURS[e][k]}")
        s.pile_n[k] = n
        if n:
            s.nonempty |= 1 << k
    if s.nodraw != NONE and s.pile_n[s.nodraw] == 0:
        raise NotationError("nodraw names an empty pile", token=PILE_LETTERS[e][s.nodraw])
    return 0


cdef int _knowledge(Reader* r, LCState* s, int viewer) except -1:
    """known= (and pknown=, tknown= in partners); a view (viewer >= 0) writes `?` for what an
    opponent's partner knows."""
    cdef const LCConfig* c = lc_config(s.edition)
    cdef int e = s.edition, k
    cdef const char* v
    cdef const char* ve
    cdef const char* starts[MAX_SEATS]
    cdef const char* ends[MAX_SEATS]
    _sets(r, b"known", c.nseats, e, s.known)
    if not c.passes:
        return 0
    _take(r, b"pknown", &v, &ve)
    _split(v, ve, c.nseats, starts, ends, b"pknown")
    for k in range(c.nseats):
        if viewer >= 0 and row_of(s, k) != row_of(s, viewer):
            if ends[k] - starts[k] != 1 or starts[k][0] != c'?':
                raise NotationError("pknown: a view cannot know what an opponent's partner knows",
                                    token=_piece(starts[k], ends[k]), expected="?")
            s.pknown[k] = s.known[k]
        else:
            _set(r, starts[k], ends[k], e, &s.pknown[k], b"pknown")
    _sets(r, b"tknown", c.nrows, e, s.tknown)
    return 0


cdef int _finish(Reader* r) except -1:
    if _next(r):
        raise NotationError(f"{_what(r)} has extra text", token=_piece(r.a, r.b), expected="nothing more")
    return 0


cdef bint _subset(const CardSet* a, const CardSet* b, const LCConfig* c) noexcept nogil:
    """a is a sub-multiset of b."""
    cdef uint64_t m = a.any
    cdef int t
    if a.any & ~b.any:
        return False
    while m:
        t = exp_ctz(m)
        m &= m - 1
        if cs_count(a, c, t) > cs_count(b, c, t):
            return False
    return True


cdef int _validate(const LCState* s, const int* overflow) except -1:
    """Checks a filled position for everything the rules guarantee (docs/notation.md); `overflow`
    counts, per type, draw-pile cards beyond the state's room (a text can list any number)."""
    cdef const LCConfig* c = lc_config(s.edition)
    cdef int e = s.edition, k, t, size, want, row, a, b, drawing
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
        if overflow != NULL:
            cnt[t] += overflow[t]
        if cnt[t] != c.copies[t]:
            raise NotationError(
                f"the position holds {cnt[t]} of card {CARD_TEXT[e][t]}, the deck has {c.copies[t]}",
                token=CARD_TEXT[e][t], expected="every card exactly once in hands, rows, piles and deck")
    if s.phase != PH_OVER and s.deck_n == 0:
        raise NotationError("deck: the draw pile is empty while the match runs", token="deck=-")
    for k in range(c.nseats):
        size = cs_size(&s.hand[k])
        drawing = s.phase == PH_DRAW and k == s.to_move
        if not c.passes:
            want = c.hand_size - drawing
            if size != want and s.phase != PH_OVER:
                raise NotationError(f"hands: seat {k} holds {size} cards", expected=f"{want}")
        elif size < c.min_hand - drawing and s.phase != PH_OVER:
            raise NotationError(f"hands: seat {k} holds {size} cards", expected=f"at least {c.min_hand}")
        if not _subset(&s.known[k], &s.hand[k], c):
            raise NotationError(f"known: seat {k}'s known cards are not all in its hand",
                                token=_set_text(e, &s.known[k]))
        if c.passes:
            if not _subset(&s.known[k], &s.pknown[k], c) or not _subset(&s.pknown[k], &s.hand[k], c):
                raise NotationError(f"pknown: seat {k}'s entry must lie between its known cards and its hand",
                                    token=_set_text(e, &s.pknown[k]))
    if not c.passes:
        return 0
    if s.phase != PH_OVER:
        for row in range(c.nrows):
            size = cs_size(&s.hand[row]) + cs_size(&s.hand[row + 2])
            want = 2 * c.hand_size - (s.phase == PH_DRAW and row_of(s, s.to_move) == row)
            if size != want:
                raise NotationError(f"hands: team {row} holds {size} cards", expected=f"{want}")
    for row in range(c.nrows):
        a, b = row, row + 2
        rest.any = 0
        rest.extra = 0
        cs_union(&rest, &s.hand[a], c)
        cs_union(&rest, &s.hand[b], c)
        for t in range(c.ntypes):
            for k in range(cs_count(&s.known[a], c, t) + cs_count(&s.known[b], c, t)):
                cs_remove(&rest, c, t)
        if not _subset(&s.tknown[row], &rest, c):
            raise NotationError(f"tknown: team {row}'s entry is not in its hands beside the known cards",
                                token=_set_text(e, &s.tknown[row]))
    return 0


cdef int _fill_unseen(LCState* s, int seat, int* unknown) except -1:
    """Deals the cards a view does not show, in canonical order: the opposing team's tknown cards
    first into the opposing hands, then every other unknown place (hands by seat, then the draw pile)."""
    cdef const LCConfig* c = lc_config(s.edition)
    cdef int e = s.edition, k, t, i, opp, npool = 0, slots = 0, need
    cdef int cnt[MAX_TYPES]
    cdef uint8_t pool[MAX_CARDS]
    cdef uint8_t slot_seat[MAX_CARDS]
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
            raise NotationError(f"the view shows more of card {CARD_TEXT[e][t]} than the deck has",
                                token=CARD_TEXT[e][t])
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
                raise NotationError("tknown: a card that cannot be in the opposing hands", token=CARD_TEXT[e][t])
            for i in range(need):
                cnt[t] -= 1
                if unknown[opp] > 0:
                    k = opp
                elif unknown[opp + 2] > 0:
                    k = opp + 2
                else:
                    raise NotationError("tknown: more cards than the opposing hands hide",
                                        token=_set_text(e, &s.tknown[opp]))
                cs_add(&s.hand[k], c, t)
                cs_add(&s.pknown[k], c, t)
                unknown[k] -= 1
    npool = 0
    for t in range(c.ntypes):
        for i in range(cnt[t]):
            pool[npool] = t
            npool += 1
    slots = 0
    for k in range(c.nseats):
        for t in range(unknown[k]):
            slot_seat[slots] = k
            slots += 1
    lc_deal_slots(s, c, slot_seat, slots, pool)
    return 0


cdef int lc_read(const char* text, Py_ssize_t n, bint ascii, bint view, int want, LCState* s, int* seat,
                 Py_ssize_t* history, Py_ssize_t* history_len) except -1:
    """Reads a position, or with `view` a view, of card edition `want` (-1: any) into `s`, dealing
    what a view hides in canonical order; a view's seat and where its history is go to `seat`,
    `history` and `history_len`. `ascii`: every byte of the text is below 128."""
    cdef Reader r
    cdef int e, k, viewer = -1, partner = -1
    cdef int unknown[MAX_SEATS]
    cdef int overflow[MAX_TYPES]
    cdef const char* starts[MAX_SEATS]
    cdef const char* ends[MAX_SEATS]
    cdef const char* v
    cdef const char* ve
    cdef const CardSet* known
    cdef uint64_t x = 0
    r.p = text
    r.end = text + n
    r.index = 0
    r.view = view
    r.ascii = ascii
    e = _header(&r, s, want)
    cdef const LCConfig* c = lc_config(e)
    if view:
        viewer = _integer(&r, b"seat", 0, c.nseats - 1)
        partner = (viewer + 2) % 4 if c.passes else -1
    _progress(&r, s)
    if view:
        _view_hands(&r, s, viewer, unknown, starts, ends)
    else:
        _sets(&r, b"hands", c.nseats, e, s.hand)
    _table(&r, s)
    if view:
        s.deck_n = _integer(&r, b"deck", 0, c.deck_size)
    else:
        memset(overflow, 0, sizeof(overflow))
        _take(&r, b"deck", &v, &ve)
        s.deck_n = min(_stack(&r, v, ve, e, s.deck, MAX_CARDS, overflow, b"deck"), MAX_CARDS)
    _knowledge(&r, s, viewer)
    if view:
        for k in range(c.nseats):
            if k != viewer:
                known = &s.pknown[k] if k == partner else &s.known[k]
                if known.any != s.hand[k].any or known.extra != s.hand[k].extra:
                    raise NotationError(f"hands: seat {k}'s known cards disagree with "
                                        + ("pknown" if k == partner else "known"), token=_piece(starts[k], ends[k]),
                                        expected=_set_text(e, known))
        _take(&r, b"history", &v, &ve)
        history[0] = v - text
        history_len[0] = ve - v
        _finish(&r)
        _fill_unseen(s, viewer, unknown)
        _validate(s, NULL)
        seat[0] = viewer
        return 0
    _take(&r, b"rng", &v, &ve)
    if ve - v != 16:
        raise NotationError("rng", token=_piece(v, ve), expected="16 lowercase hex digits")
    for k in range(16):
        if c'0' <= v[k] <= c'9':
            x = (x << 4) | <uint64_t>(v[k] - c'0')
        elif c'a' <= v[k] <= c'f':
            x = (x << 4) | <uint64_t>(v[k] - c'a' + 10)
        else:
            raise NotationError("rng", token=_piece(v, ve), expected="16 lowercase hex digits")
    s.rng = x
    _finish(&r)
    _validate(s, overflow)
    return 0


cdef str lc_parse(str text, LCState* s, int* seat, int want, bint view):
    """Reads a position, or with `view` a view (see lc_read); returns a view's history text (None
    for a position)."""
    cdef const char* data
    cdef Py_ssize_t n, start = 0, length = 0
    if text.isascii():  # a str's own bytes: nothing copied
        data = PyUnicode_AsUTF8AndSize(text, &n)
        lc_read(data, n, True, view, want, s, seat, &start, &length)
        return text[start:start + length] if view else None
    # Every valid text is ASCII, but other whitespace separates tokens too (as str.split() sees them).
    text = " ".join(text.split())
    encoded = text.encode("utf-8", "surrogatepass")
    lc_read(encoded, len(encoded), text.isascii(), view, want, s, seat, &start, &length)
    return text[start:start + length] if view else None


cdef int _load_view(const char* text, Py_ssize_t n, LCState* s, int* seat, int edition) except -1:
    cdef Py_ssize_t i, history, length
    for i in range(n):
        if <uint8_t>text[i] >= 128:
            raise NotationError("a view is ASCII text", expected="the view as the engine writes it")
    return lc_read(text, n, True, True, edition, s, seat, &history, &length) + 1


# The compiled view reader of each edition's GameOps (loops that answer views without Python).
cdef int _load_classic(const char* text, Py_ssize_t n, void* s, int* seat) except -1:
    return _load_view(text, n, <LCState*>s, seat, ED_CLASSIC)


cdef int _load_partners(const char* text, Py_ssize_t n, void* s, int* seat) except -1:
    return _load_view(text, n, <LCState*>s, seat, ED_PARTNERS)


cdef int _load_expedition(const char* text, Py_ssize_t n, void* s, int* seat) except -1:
    return _load_view(text, n, <LCState*>s, seat, ED_EXPEDITION)


lc_set_notation(ED_CLASSIC, _load_classic, lc_decision_text)
lc_set_notation(ED_PARTNERS, _load_partners, lc_decision_text)
lc_set_notation(ED_EXPEDITION, _load_expedition, lc_decision_text)


def card_list(int e, str text, str field) -> list:
    """The card types of a set or stack text of edition e (`-` is none), in the order written;
    NotationError names `field` when the text is not cards."""
    cdef Reader r
    cdef CardScan scan
    cdef Py_ssize_t n
    encoded = text.encode("utf-8", "surrogatepass")
    cdef const char* data = encoded
    cdef uint8_t* cards = <uint8_t*>PyMem_Malloc(len(encoded) // 2 + 1)
    if cards == NULL:
        raise MemoryError()
    r.ascii = text.isascii()
    try:
        if _scan_cards(&r, data, data + len(encoded), e, NULL, cards, len(encoded) // 2 + 1, NULL, &scan):
            _cards_error(&scan, e, data, data + len(encoded), field.encode())
        return [cards[i] for i in range(scan.n)]
    finally:
        PyMem_Free(cards)
