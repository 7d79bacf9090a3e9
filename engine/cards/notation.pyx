# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The notation of the card games: cards, decisions, positions and views as text (docs/notation.md).

>>> from engine.cards.notation import CARD_TEXT, DECISION_TEXT
>>> CARD_TEXT[0][:3], DECISION_TEXT[2][128]
(['yW', 'y2', 'y3'], 'D')
"""
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.string cimport memset, memcpy, memcmp
from libc.stdint cimport uint8_t, uint64_t

from engine._core cimport exp_ctz, MAX_SEATS
from engine.cards.rules cimport *

from engine.cards.rules import EDITION_NAMES, OPTION_SPECS
from engine.errors import NotationError
from engine.options import resolve_options
from engine.textfields import FieldReader, integer as _integer, split as _listed

COLOURS = ("ybwgr", "ybwgr", "cdhs")
RANKS = ("W23456789T", "W23456789T", "MA23456789T")

PHASES = ("play", "draw", "over")
CARD_TEXT = []
CARD_INDEX = []
for _e in range(N_EDITIONS):
    _texts = [col + rank for col in COLOURS[_e] for rank in RANKS[_e]]
    CARD_TEXT.append(_texts)
    CARD_INDEX.append({text: t for t, text in enumerate(_texts)})


def _decision_texts(int e):
    """Text of every decision id of edition e (None for ids the edition does not use)."""
    cdef const LCConfig* c = lc_config(e)
    texts = CARD_TEXT[e]
    out = [None] * N_DECISIONS
    for t in range(c.ntypes):
        out[D_PLAY + t] = "+" + texts[t]
        out[D_DISCARD + t] = "-" + texts[t]
    out[D_DRAW_DECK] = "D"
    for k in range(c.npiles):
        out[D_DRAW_PILE + k] = "D" + ("-" if c.npiles == 1 else COLOURS[e][k])
    if c.passes:
        for t2 in range(c.ntypes):
            for t1 in range(t2 + 1):
                out[pass_id(t1, t2)] = ">" + texts[t1] + texts[t2]
    return out


DECISION_TEXT = [_decision_texts(_e) for _e in range(N_EDITIONS)]
DECISION_INDEX = [{text: d for d, text in enumerate(texts) if text is not None} for texts in DECISION_TEXT]
DECISION_EXPECTED = [
    f"+card, -card, D, D<pile of {COLOURS[_e] if lc_config(_e).npiles > 1 else '-'}>" + (" or >cardcard" if lc_config(_e).passes else "")
    for _e in range(N_EDITIONS)]

# Card type by its two characters, per edition (-1: not a card), for the notation parsers.
cdef int CARD_OF[N_EDITIONS][128][128]
memset(CARD_OF, 0xFF, sizeof(CARD_OF))
for _e in range(N_EDITIONS):
    for _t, _text in enumerate(CARD_TEXT[_e]):
        CARD_OF[_e][ord(_text[0])][ord(_text[1])] = _t


cdef str _pile_letter(int e, int k):
    return "-" if lc_config(e).npiles == 1 else COLOURS[e][k]


cdef str _format_set(int e, const CardSet* s):
    cdef const LCConfig* c = lc_config(e)
    cdef uint64_t m = s.any
    cdef int t
    if not m:
        return "-"
    parts = []
    texts = CARD_TEXT[e]
    while m:
        t = exp_ctz(m)
        m &= m - 1
        parts.append(texts[t] * cs_count(s, c, t))
    return "".join(parts)


cdef str _format_stack(int e, const uint8_t* cards, int n):
    if n == 0:
        return "-"
    texts = CARD_TEXT[e]
    return "".join([texts[cards[i]] for i in range(n)])


def card_list(int e, str text, str field):
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
                            expected=f"cards like {CARD_TEXT[e][1]}{CARD_TEXT[e][len(CARD_TEXT[e]) - 1]}, or - for none")
    out = []
    for i in range(0, n, 2):
        a = text[i]
        b = text[i + 1]
        t = CARD_OF[e][a][b] if a < 128 and b < 128 else -1
        if t < 0:
            raise NotationError(f"{field}: unknown card", token=text[i:i + 2],
                                expected=f"a colour of {COLOURS[e]} then a rank of {RANKS[e]}")
        out.append(t)
    return out


cdef int _set_from_list(int e, list cards, CardSet* out, str field) except -1:
    cdef const LCConfig* c = lc_config(e)
    cdef int t
    for t in cards:
        if cs_count(out, c, t) >= c.copies[t]:
            raise NotationError(f"{field}: more copies than the deck has", token=CARD_TEXT[e][t])
        cs_add(out, c, t)
    return 0


cdef int _parse_set(int e, str text, CardSet* out, str field) except -1:
    cards = card_list(e, text, field)
    if cards != sorted(cards):
        raise NotationError(f"{field}: cards of a set are written in canonical order", token=text,
                            expected=_format_cards_sorted(e, cards))
    _set_from_list(e, cards, out, field)
    return 0


def _format_cards_sorted(int e, cards):
    return "".join(CARD_TEXT[e][t] for t in sorted(cards)) or "-"


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
    specs = OPTION_SPECS[e]
    opts = resolve_options(specs, f.options(specs), name)
    cdef int values[3]
    for k, spec in enumerate(specs):
        values[k] = opts[spec.name]
    lc_blank(s, e, values)
    return 0


cdef int _read_progress(object f, LCState* s) except -1:
    """The round/turn/phase fields shared by positions and views."""
    cdef const LCConfig* c = lc_config(s.edition)
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
    if phase not in PHASES:
        raise NotationError("phase", token=phase, expected="play, draw or over")
    s.phase = PHASES.index(phase)
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
    cdef const LCConfig* c = lc_config(s.edition)
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
                                            token=CARD_TEXT[e][t] * 2)
                    top = t
            if top >= 0:
                s.playable[k] = (s.playable[k] & ~c.colour_types[col]) | c.above[top]
    parts = _listed("piles", f.take("piles"), c.npiles)
    for k in range(c.npiles):
        cards = card_list(e, parts[k], "piles")
        if len(cards) > c.pile_cap:
            raise NotationError("piles: too many cards in one pile", token=parts[k])
        for i, t in enumerate(cards):
            if c.npiles > 1 and c.colour[t] != k:
                raise NotationError(f"piles: a card on the {COLOURS[e][k]} pile", token=CARD_TEXT[e][t],
                                    expected=f"cards of colour {COLOURS[e][k]}")
            s.piles[k * c.pile_cap + i] = t
        s.pile_n[k] = len(cards)
        if cards:
            s.nonempty |= 1 << k
    if s.nodraw != NONE and s.pile_n[s.nodraw] == 0:
        raise NotationError("nodraw names an empty pile", token=_pile_letter(e, s.nodraw))
    return 0


cdef int _read_knowledge(object f, LCState* s, int viewer) except -1:
    """known= (and pknown=, tknown= in partners); viewer >= 0 reads a view's masked pknown."""
    cdef const LCConfig* c = lc_config(s.edition)
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
    cdef const LCConfig* c = lc_config(s.edition)
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
                f"the position holds {cnt[t]} of card {CARD_TEXT[e][t]}, the deck has {c.copies[t]}",
                token=CARD_TEXT[e][t], expected="every card exactly once in hands, rows, piles and deck")
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


cdef int lc_read_position(str text, LCState* s) except -1:
    """Parses a full position into `s`; raises NotationError naming the bad field."""
    cdef int e, k
    f = FieldReader(text, "position")
    _read_header(f, s, &e)
    c = lc_config(e)
    _read_progress(f, s)
    parts = _listed("hands", f.take("hands"), c.nseats)
    for k in range(c.nseats):
        _parse_set(e, parts[k], &s.hand[k], "hands")
    _read_table(f, s)
    cards = card_list(e, f.take("deck"), "deck")
    for k, t in enumerate(cards):
        s.deck[k] = t
    s.deck_n = len(cards)
    _read_knowledge(f, s, -1)
    value = f.take("rng")
    if len(value) != 16 or any(ch not in "0123456789abcdef" for ch in value):
        raise NotationError("rng", token=value, expected="16 lowercase hex digits")
    s.rng = int(value, 16)
    f.finish()
    _validate(s, -1)
    return 0


cdef object lc_read_view(str text, LCState* s, int* seat, bint fast, bint raw_history):
    """Parses a view into `s` and `seat`; returns its history."""
    cdef int unknown[MAX_SEATS]
    cdef bytes raw
    cdef Py_ssize_t start = 0, length = 0
    if fast and text.isascii():
        raw = text.encode("ascii")
        # an error found here is reported by the reader below, with its own wording
        if lc_load_view(raw, len(raw), s, seat, &start, &length):
            history = raw[start:start + length].decode()
            if not raw_history:
                history = [] if history == "-" else history.split(",")
            return history
    seat[0], history = _read_view(text, s, unknown)
    _fill_unseen(s, seat[0], unknown)
    _validate(s, seat[0])
    if raw_history:
        history = ",".join(history) or "-"
    return history


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


cdef tuple _read_view(str text, LCState* s, int* unknown):
    """The field-by-field view reader: fills the struct and the unknown counts; returns (seat, history)."""
    cdef int e, k, seat, partner
    cdef const LCConfig* c
    cdef const CardSet* want
    f = FieldReader(text, "view")
    _read_header(f, s, &e)
    c = lc_config(e)
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
        cards = card_list(e, cards_text or "-", "hands")
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
    cdef const LCConfig* c = lc_config(s.edition)
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
    cdef const LCConfig* c = lc_config(e)
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
    c = lc_config(e)
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
    for _k, _ch in enumerate(COLOURS[_e][:MAX_PILES]):
        _PILE_LETTERS[_e][_k] = ord(_ch)


# ----- the one-pass writer: positions and views into a char buffer (the referee writes a view
# for every decision); `CardState._format` is the field-by-field statement it must equal -----

cdef char CARD_CHARS[N_EDITIONS][MAX_TYPES][2]
cdef char DECISION_CHARS[N_EDITIONS][N_DECISIONS][6]
cdef uint8_t DECISION_LEN[N_EDITIONS][N_DECISIONS]
for _e in range(N_EDITIONS):
    for _t, _text in enumerate(CARD_TEXT[_e]):
        CARD_CHARS[_e][_t][0] = ord(_text[0])
        CARD_CHARS[_e][_t][1] = ord(_text[1])
    for _d, _text in enumerate(DECISION_TEXT[_e]):
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


cdef inline char _pile_char(int e, int k) noexcept nogil:
    return c'-' if lc_config(e).npiles == 1 else _PILE_LETTERS[e][k]


cdef str _write_position(const LCState* s, int viewer, list history):
    """The position's text (viewer < 0), or viewer's view with its masked history."""
    cdef int e = s.edition, k, hidden, mover, d, revealed
    cdef const LCConfig* c = lc_config(e)
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
