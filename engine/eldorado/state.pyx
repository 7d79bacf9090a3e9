# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""`EldoradoState`: the Python face of a position of The Quest for El Dorado, with its notation
(docs/eldorado.md "Decision ids and texts", "Positions", "Views"): one reader of positions and
views (`_read`) and one writer (`_format`), the decision texts both ways, the record's texts of what
a decision drew, the picture (engine/eldorado/picture.py).

>>> import engine
>>> s = engine.new_game("eldorado", seed=1, players=2)
>>> s.to_text().split()[:9]
['eldorado', 'route=first-expedition', 'caves=0', 'max_rounds=100', 'players=2', 'turn=0', 'phase=play', 'to_move=0', 'final=0']
>>> s.phase, s.pieces(0), s.pieces(1)
('play', ['36', '34'], ['35', '33'])
"""
import re

from libc.string cimport memset
from libc.stdint cimport uint8_t, uint64_t

from engine._core cimport State, MAX_SEATS
from engine.eldorado.rules cimport *

from engine.eldorado.components import (BLOCKADES, CARD_CODES, CARDS, ROUTES, STARTING_DECK, TOKEN_CODES,
                                        TOKENS, CAVE, MOUNTAIN, START)
from engine.eldorado.rules import OPTION_SPECS, SEATS
from engine.errors import NotationError, OptionError
from engine.options import resolve_options
from engine.textfields import FieldReader, integer as _integer, split as _split

NAME = "eldorado"
PHASES = ("play", "discard", "over")
ACTIONS = ("Cg!", "Si!", "Co!", "Tl!", "dr!", "rm!", "rh!", "ki!", "po!", "cs!")
"""The texts of the action decisions D_ACTION + 0..9."""
MOVE_SOURCES = CARD_CODES + ("m1", "m2", "m3", "p1", "p2", "c1", "c2", "nt")
"""Move sources 0..28: the card types, then the tokens that move a piece."""
COIN_SOURCES = CARD_CODES + ("c1", "c2")
"""Coin sources 0..22: the card types, then the coin tokens."""
SYMBOL_LETTERS = "mpv"
"""A leftover's symbol in `moving=` (machete, paddle, coin)."""
FLAG_LETTERS = "kps"
"""`flags=` letters of F_KEEP_ITEM, F_PASS_OCCUPIED, F_CHANGE_SYMBOL, in that order."""
PIECE_LETTERS = "ab"

_CARD_INDEX = {code: t for t, code in enumerate(CARD_CODES)}
_TOKEN_INDEX = {code: k for k, code in enumerate(TOKEN_CODES)}
_SOURCE_INDEX = {code: s for s, code in enumerate(MOVE_SOURCES)}
_COIN_INDEX = {code: c for c, code in enumerate(COIN_SOURCES)}
_ACTION_INDEX = {text: a for a, text in enumerate(ACTIONS)}
_MARKET_TYPES = tuple(range(ED_MARKET_FIRST, ED_TYPES))
_SEAT_CARDS = 62
"""Cards one seat can own at most (its 8 and the 54 of the market): the bound of a card field."""
_MAX_OWED = max([b.power for b in BLOCKADES] + [h.power for r in ROUTES for h in r.hexes]) - 1

_CARD = "|".join(CARD_CODES)
_SOURCE = "|".join(MOVE_SOURCES)
_COIN = "|".join(COIN_SOURCES)
_MARKET = "|".join(CARD_CODES[ED_MARKET_FIRST:])
_TARGET = r"(?:0|[1-9][0-9]*|B[1-6])"
_ENTRY = re.compile(
    rf"(?:{_SOURCE})[ab]?>{_TARGET}|>{_TARGET}|#(?:{_CARD})|\$(?:{_COIN})|\*(?:{_MARKET})|Tm\*(?:{_MARKET})"
    rf"|(?:rm|rh|ki|po|cs)!|(?:(?:Cg|Si|Co|Tl|dr)!|~\.|\.)(?::(?:{_CARD})+)?"
    rf"|x(?:{_CARD})|~(?:{_CARD})|-(?:{_CARD})")
"""One history entry: a decision's text, and what it drew after a colon where it draws."""
_MARKET_PILE = re.compile(r"([A-Z][a-z])([0-9])")


# ----- the map as the notation reads it ------------------------------------------------------------

def _distances(route) -> tuple:
    """Per hex, the fewest steps to a finishing space over hexes a piece may stand on (blockades and
    terrain ignored); start spaces are measured but never passed through. -1: unreachable."""
    dist = [-1] * len(route.hexes)
    todo = list(route.finishing)
    for h in todo:
        dist[h] = 0
    i = 0
    while i < len(todo):
        h = todo[i]
        i += 1
        for n in route.neighbours[h]:
            if n < 0 or dist[n] >= 0 or route.hexes[n].terrain in (MOUNTAIN, CAVE):
                continue
            dist[n] = dist[h] + 1
            if route.hexes[n].terrain != START:
                todo.append(n)
    return tuple(dist)


_DISTANCE = tuple(_distances(route) for route in ROUTES)
_STANDABLE = tuple(frozenset(h.number for h in route.hexes
                             if h.terrain not in (MOUNTAIN, CAVE) and not h.finishing) for route in ROUTES)
"""Per route, the hexes a piece may stand on: enterable ones (not finishing spaces, which a piece
leaves at once for El Dorado) and the start spaces."""
HEXES_PER_TURN = 2
"""The pace `turns_left` assumes: a seat's pieces cover two hexes of their way a turn."""


cdef inline EdState* _es(State st):
    return <EdState*>st.ptr


cdef inline int _npieces(const EdState* s) noexcept:
    return 2 if s.players == 2 else 1


# ----- writing ---------------------------------------------------------------------------------------

cdef str _counts_text(const uint8_t* counts, int n, tuple codes):
    """A set: its codes in canonical order with repeats written out (`-`: empty)."""
    cdef int t
    parts = []
    for t in range(n):
        if counts[t]:
            parts.append(codes[t] * counts[t])
    return "".join(parts) or "-"


cdef int _counts_size(const uint8_t* counts, int n) noexcept:
    cdef int t, total = 0
    for t in range(n):
        total += counts[t]
    return total


cdef str _stack_text(const uint8_t* items, int n, tuple codes):
    """A stack, bottom to top (`-`: empty)."""
    return "".join([codes[items[i]] for i in range(n)]) or "-"


cdef str _piece_text(int h):
    return "E" if h == ED_ELDORADO else str(h)


cdef str _market_text(const EdState* s):
    cdef int t
    board = []
    beside = []
    for t in range(ED_MARKET_FIRST, ED_TYPES):
        if s.market[t]:
            (board if (s.on_board >> t) & 1 else beside).append(f"{CARD_CODES[t]}{s.market[t]}")
    return ("".join(board) or "-") + "/" + ("".join(beside) or "-")


cdef str _explored_text(int bits):
    return "".join([chr(97 + k) for k in range(ED_MAX_CAVES) if (bits >> k) & 1]) or "-"


cdef str _moving_text(const EdState* s):
    if s.moving == ED_NONE:
        return "-"
    text = PIECE_LETTERS[s.moving]
    if s.leftover:
        text += f"{SYMBOL_LETTERS[s.move_symbol]}{s.leftover}"
    return text


cdef str _flags_text(int flags):
    return "".join([FLAG_LETTERS[i] for i in range(3) if (flags >> i) & 1]) or "-"


# ----- reading ---------------------------------------------------------------------------------------

def _codes(str text, str field, dict index, str what) -> list:
    """The indices of the two-character codes of a set or stack text (`-`: none), in the order written."""
    if text == "-":
        return []
    if len(text) % 2:
        raise NotationError(f"{field}: {what}s are two characters each", token=text,
                            expected=f"{what}s like {next(iter(index))}, or - for none")
    out = []
    for i in range(0, len(text), 2):
        k = index.get(text[i:i + 2])
        if k is None:
            raise NotationError(f"{field}: unknown {what}", token=text[i:i + 2],
                                expected=f"a {what} code of {' '.join(index)}")
        out.append(k)
    return out


def _card_set(str text, str field) -> list:
    cards = _codes(text, field, _CARD_INDEX, "card")
    if cards != sorted(cards):
        raise NotationError(f"{field}: a set's cards are written in canonical order", token=text,
                            expected="".join([CARD_CODES[t] for t in sorted(cards)]))
    if len(cards) > _SEAT_CARDS:
        raise NotationError(f"{field}: more cards than the game has", token=text,
                            expected=f"at most {_SEAT_CARDS}")
    return cards


def _token_set(str text, str field) -> list:
    tokens = _codes(text, field, _TOKEN_INDEX, "token")
    if tokens != sorted(tokens):
        raise NotationError(f"{field}: a set's tokens are written in canonical order", token=text,
                            expected="".join([TOKEN_CODES[k] for k in sorted(tokens)]))
    for k in set(tokens):
        if tokens.count(k) > TOKENS[k].count:
            raise NotationError(f"{field}: more {TOKEN_CODES[k]} tokens than the game has", token=text,
                                expected=f"at most {TOKENS[k].count}")
    return tokens


cdef void _fill(uint8_t* counts, list items):
    for k in items:
        counts[<int>k] += 1


def _parts(str field, str value, int count, str what) -> list:
    """`value` split at `,` into exactly `count` entries."""
    parts = value.split(",")
    if len(parts) != count:
        raise NotationError(f"{field}: {len(parts)} {what} separated by ,", token=value, expected=f"{count} {what}")
    return parts


cdef int _read_options(object f, int* values) except -1:
    """The leading rule options (in the order of OPTION_SPECS, each at most once; defaults for the
    rest): `route` by name (or its number), the others as integers."""
    specs = {spec.name: spec for spec in OPTION_SPECS}
    names = list(specs)
    given = {}
    while f.pos < len(f.tokens):
        key, sep, value = f.tokens[f.pos].partition("=")
        if not sep or key not in specs:
            break
        if key in given or any(names.index(other) > names.index(key) for other in given):
            raise NotationError(f"option {key}: repeated or out of order", token=f.tokens[f.pos],
                                expected="the options in the order " + " ".join(names))
        spec = specs[key]
        if spec.choices:
            try:
                given[key] = spec.check(value)
            except OptionError:
                raise NotationError(f"option {key}", token=value, expected=spec.expected()) from None
        else:
            given[key] = _integer(f"option {key}", value, spec.low, spec.high)
        f.pos += 1
    opts = resolve_options(OPTION_SPECS, given, NAME)
    for k, spec in enumerate(OPTION_SPECS):
        values[k] = opts[spec.name]
    return 0


cdef int _read_header(object f, EdState* s) except -1:
    """Edition name, rule options and players: a blank position of that shape."""
    cdef int values[8]
    if f.first != NAME:
        raise NotationError(f"not an {NAME} {f.what}", token=f.first, expected=NAME)
    _read_options(f, values)
    n = f.integer("players", min(SEATS), max(SEATS))
    memset(s, 0, sizeof(EdState))
    ed_blank(s, n, values)
    return 0


cdef int _read_progress(object f, EdState* s) except -1:
    """turn=, phase=, to_move=, final=."""
    cdef int n = s.players
    cdef int limit = n * s.max_rounds
    s.turn = f.integer("turn", 0, limit)
    phase = f.take("phase")
    if phase not in PHASES:
        raise NotationError("phase", token=phase, expected="play, discard or over")
    s.phase = PHASES.index(phase)
    value = f.take("to_move")
    if s.phase == PH_OVER:
        if value != "-":
            raise NotationError("to_move: the game is over", token=value, expected="-")
        if s.turn == 0 or s.turn % n:
            raise NotationError("turn: a game ends with a round", token=str(s.turn),
                                expected=f"a multiple of players={n}")
        s.to_move = ED_NONE
    else:
        if s.turn >= limit:
            raise NotationError("turn: a running game has completed fewer turns than players x max_rounds",
                                token=str(s.turn), expected=f"0..{limit - 1}")
        s.to_move = _integer("to_move", value, 0, n - 1)
        if s.to_move != s.turn % n:
            raise NotationError("to_move: seat turn mod players moves (seat 0 took the first turn)", token=value,
                                expected=str(s.turn % n))
    s.final = f.integer("final", 0, 1)
    return 0


cdef int _read_table(object f, EdState* s) except -1:
    """pieces=, blockades=, held=, market=."""
    cdef int n = s.players, k, p, b, t
    route = ROUTES[s.route]
    standable = _STANDABLE[s.route]
    for k, part in enumerate(f.listed("pieces", n, "seats")):
        for p, value in enumerate(_parts("pieces", part, _npieces(s), "pieces")):
            if value == "E":
                s.seat[k].piece[p] = ED_ELDORADO
                continue
            h = _integer("pieces", value, 0, len(route.hexes) - 1)
            if h not in standable:
                terrain = route.hexes[h]
                what = "a finishing space" if terrain.finishing else "a mountain" if terrain.terrain == MOUNTAIN \
                    else "a cave"
                raise NotationError(f"pieces: seat {k}'s piece {PIECE_LETTERS[p]} on {what}", token=value,
                                    expected="a hex a piece may stand on, a start space, or E")
            s.seat[k].piece[p] = h
    on_board = set()
    for k, value in enumerate(_parts("blockades", f.take("blockades"), route.connections, "connections")):
        if value == "-":
            continue
        b = _integer("blockades", value, 1, ED_BLOCKADES)
        if b in on_board:
            raise NotationError("blockades: a blockade on two connections", token=value,
                                expected="each blockade at most once")
        on_board.add(b)
        s.conn[k] = b
    held = set()
    value = f.take("held")
    for k, part in enumerate(_split("held", value, n, "seats")):
        if part == "-":
            continue
        numbers = [_integer("held", v, 1, ED_BLOCKADES) for v in part.split(",")]
        if numbers != sorted(set(numbers)):
            raise NotationError(f"held: seat {k}'s blockades in ascending order, each once", token=part,
                                expected=",".join(map(str, sorted(set(numbers)))))
        for b in numbers:
            if b in on_board:
                raise NotationError(f"held: seat {k} holds blockade {b}, which lies on a connection", token=part,
                                    expected="blockades taken from the board")
            if b in held:
                raise NotationError(f"held: blockade {b} held by two seats", token=part,
                                    expected="each blockade held at most once")
            held.add(b)
            s.seat[k].held |= 1 << (b - 1)
    taken = sum(1 for k in range(route.connections) if not s.conn[k])
    if taken != len(held):
        raise NotationError(f"held: {len(held)} blockades held but {taken} taken from the connections",
                            token=value, expected=f"{taken} held blockades")
    value = f.take("market")
    board_beside = _split("market", value, 2, "parts (board/beside)")
    seen = set()
    for where, part in enumerate(board_beside):
        if part == "-":
            continue
        piles = _MARKET_PILE.findall(part)
        if "".join([code + count for code, count in piles]) != part:
            raise NotationError("market: piles are a card code and a count", token=part,
                                expected="piles like Sc3Tb2, or - for none")
        types = []
        for code, count in piles:
            t = _CARD_INDEX.get(code, -1)
            if t < ED_MARKET_FIRST:
                raise NotationError("market: not a market card", token=code,
                                    expected="one of " + " ".join(CARD_CODES[ED_MARKET_FIRST:]))
            if t in seen:
                raise NotationError("market: a pile written twice", token=code, expected="each pile once")
            seen.add(t)
            types.append(t)
            s.market[t] = _integer("market (count)", count, 1, CARDS[t].copies)
            if where == 0:
                s.on_board |= 1 << t
        if types != sorted(types):
            raise NotationError("market: piles in card order", token=part,
                                expected="".join([f"{CARD_CODES[t]}{s.market[t]}" for t in sorted(types)]))
        if where == 0 and len(types) > 6:
            raise NotationError("market: the board holds at most six piles", token=part, expected="six piles or fewer")
    return 0


cdef int _read_tokens_and_caves(object f, EdState* s, bint view) except -1:
    """tokens=, cavepiles=, box= (position) or cavepool= (view): the cave piles filled, in a view, from
    the pool in canonical order (each pile to its size, bottom up; the rest is the box)."""
    cdef int n = s.players, k, i
    route = ROUTES[s.route]
    ncaves = len(route.caves)
    for k, part in enumerate(f.listed("tokens", n, "seats")):
        _fill(s.seat[k].tokens, _token_set(part, "tokens"))
    piles = _parts("cavepiles", f.take("cavepiles"), ncaves, "caves")
    if view:
        for k in range(ncaves):
            s.cave_n[k] = _integer("cavepiles", piles[k], 0, ED_PILE)
        pool = _token_set(f.take("cavepool"), "cavepool")
        if sum(s.cave_n[k] for k in range(ncaves)) > len(pool):
            raise NotationError("cavepool: fewer tokens than the cave piles hold", token=" ".join(piles),
                                expected=f"at least {sum(s.cave_n[k] for k in range(ncaves))} tokens")
        i = 0
        for k in range(ncaves):
            for j in range(s.cave_n[k]):
                s.cave[k][j] = pool[i]
                i += 1
        _fill(s.box, pool[i:])
    else:
        for k in range(ncaves):
            tokens = _codes(piles[k], "cavepiles", _TOKEN_INDEX, "token")
            if len(tokens) > ED_PILE:
                raise NotationError(f"caves: cave {chr(97 + k)} holds more than {ED_PILE} tokens", token=piles[k],
                                    expected=f"at most {ED_PILE} tokens")
            for j, t in enumerate(tokens):
                s.cave[k][j] = t
            s.cave_n[k] = len(tokens)
        _fill(s.box, _token_set(f.take("box"), "box"))
    return 0


cdef int _read_turn(object f, EdState* s) except -1:
    """explored= and the turn fields coins= … flags=."""
    cdef int n = s.players, k, p
    ncaves = len(ROUTES[s.route].caves)
    letters = "abcdef"[:ncaves]
    for k, part in enumerate(f.listed("explored", n, "seats")):
        for p, value in enumerate(_parts("explored", part, _npieces(s), "pieces")):
            if value == "-":
                continue
            if any(ch not in letters for ch in value) or list(value) != sorted(set(value)):
                raise NotationError(f"explored: seat {k}'s piece {PIECE_LETTERS[p]}", token=value,
                                    expected=f"cave letters among {letters}, ascending, each once, or -")
            for ch in value:
                s.seat[k].explored[p] |= 1 << (ord(ch) - 97)
    s.coins = f.integer("coins", 0, 255)
    s.bought = f.integer("bought", 0, 1)
    value = f.take("lastcoin")
    if value != "-" and value not in _COIN_INDEX:
        raise NotationError("lastcoin", token=value, expected="- or a card code, c1 or c2")
    s.lastcoin = ED_NONE if value == "-" else _COIN_INDEX[value]
    value = f.take("moving")
    s.moving = ED_NONE
    if value != "-":
        m = re.fullmatch(r"([ab])(?:([mpv])([1-9]))?", value)
        if not m or PIECE_LETTERS.index(m[1]) >= _npieces(s):
            raise NotationError("moving", token=value,
                                expected="- or a piece (a" + (", b" if _npieces(s) == 2 else "")
                                + "), then its leftover's symbol m, p or v and power, e.g. am2")
        s.moving = PIECE_LETTERS.index(m[1])
        if m[2]:
            s.move_symbol = SYMBOL_LETTERS.index(m[2])
            s.leftover = int(m[3])
    value = f.take("pay")
    if value != "-":
        m = re.fullmatch(r"([1-9][0-9]*)([rc])", value)
        if not m or int(m[1]) > _MAX_OWED:
            raise NotationError("pay", token=value,
                                expected=f"- or the cards owed (1..{_MAX_OWED}) and r (rubble) or c (base camp)")
        s.pay_n = int(m[1])
        s.pay_kind = T_RUBBLE if m[2] == "r" else T_CAMP
    s.remove_n = f.integer("remove", 0, 2)
    value = f.take("replace")
    s.replace = ED_NONE if value == "-" else _integer("replace", value, 0, 4)
    value = f.take("last")
    if value != "-" and value not in _CARD_INDEX:
        raise NotationError("last", token=value, expected="- or a card code")
    s.last = ED_NONE if value == "-" else _CARD_INDEX[value]
    value = f.take("flags")
    if value != "-":
        if not value or any(ch not in FLAG_LETTERS for ch in value) \
                or [FLAG_LETTERS.index(ch) for ch in value] != sorted(set(FLAG_LETTERS.index(ch) for ch in value)):
            raise NotationError("flags", token=value, expected="- or the letters k, p, s on, in that order, each once")
        for ch in value:
            s.flags |= 1 << FLAG_LETTERS.index(ch)
    return 0


cdef int _validate(EdState* s) except -1:
    """What the rules guarantee of a position (docs/eldorado.md "Positions")."""
    cdef int n = s.players, k, t, p, total
    cdef int np = _npieces(s)
    route = ROUTES[s.route]
    ncaves = len(route.caves)
    # every card in one place
    for t in range(ED_TYPES):
        if t < ED_MARKET_FIRST:
            want = STARTING_DECK.count(t)
            for k in range(n):
                total = _seat_count(s, k, t)
                if total != want:
                    raise NotationError(f"seat {k} owns {total} {CARD_CODES[t]} (hands, draws, discards, removed"
                                        + (", played" if k == s.to_move else "") + ")",
                                        token=CARD_CODES[t], expected=f"{want}, its starting cards")
        else:
            total = s.market[t]
            for k in range(n):
                total += _seat_count(s, k, t)
            if total != CARDS[t].copies:
                raise NotationError(f"the position holds {total} {CARD_CODES[t]} (market and every seat's places)",
                                    token=CARD_CODES[t], expected=f"{CARDS[t].copies}, the copies of the card")
    if s.phase == PH_OVER and _counts_size(s.played, ED_TYPES):
        raise NotationError("played: no cards are in play once the game is over",
                            token=_counts_text(s.played, ED_TYPES, CARD_CODES), expected="-")
    # tokens
    counts = [s.box[t] for t in range(ED_TOKENS)]
    for k in range(ncaves):
        for p in range(s.cave_n[k]):
            counts[s.cave[k][p]] += 1
    inside = sum(counts)
    for k in range(n):
        for t in range(ED_TOKENS):
            counts[t] += s.seat[k].tokens[t]
    for t in range(ED_TOKENS):
        if counts[t] > TOKENS[t].count:
            raise NotationError(f"the position holds {counts[t]} {TOKEN_CODES[t]} tokens (caves, box and seats)",
                                token=TOKEN_CODES[t], expected=f"at most {TOKENS[t].count}")
    if not s.caves and sum(counts):
        raise NotationError("caves=0: no cave tokens are in play", token=f"{sum(counts)} tokens",
                            expected="tokens=, cavepiles= and box= all -")
    if s.caves and all(s.cave_n[k] == ED_PILE for k in range(ncaves)) and inside != sum(t.count for t in TOKENS):
        raise NotationError("caves=1: while no token has left a cave, the caves and the box hold every token",
                            token=f"{inside} tokens", expected=f"{sum(t.count for t in TOKENS)}")
    # pieces and the end
    finished = [k for k in range(n) if all(s.seat[k].piece[p] == ED_ELDORADO for p in range(np))]
    if bool(finished) != bool(s.final):
        raise NotationError("final: the final round is set exactly when a seat has all its pieces on El Dorado",
                            token=f"final={s.final}", expected=f"final={1 if finished else 0}")
    if s.phase == PH_OVER and not s.final and s.turn != n * s.max_rounds:
        raise NotationError("phase=over: a game ends with a finish or the round limit", token=f"turn={s.turn}",
                            expected=f"final=1 or turn={n * s.max_rounds}")
    # the turn fields
    if s.phase == PH_OVER:
        at_rest = (s.coins == 0 and s.bought == 0 and s.lastcoin == ED_NONE and s.moving == ED_NONE and s.pay_n == 0
                   and s.remove_n == 0 and s.replace == ED_NONE and s.last == ED_NONE and s.flags == 0)
        if not at_rest:
            raise NotationError("phase=over: every turn field is at rest",
                                expected="coins=0 bought=0 lastcoin=- moving=- pay=- remove=0 replace=- last=- flags=-")
        return 0
    if s.moving != ED_NONE and s.seat[s.to_move].piece[s.moving] == ED_ELDORADO:
        raise NotationError(f"moving: piece {PIECE_LETTERS[s.moving]} is on El Dorado", token=PIECE_LETTERS[s.moving],
                            expected="a piece on the map, or -")
    if s.phase == PH_DISCARD and (s.pay_n or s.replace != ED_NONE or s.moving != ED_NONE):
        raise NotationError("phase=discard: no payment owed, replacement or moving piece",
                            expected="pay=- replace=- moving=-")
    return 0


cdef int _seat_count(const EdState* s, int k, int t) noexcept:
    cdef int total = s.seat[k].hand[t] + s.seat[k].discard[t] + s.seat[k].removed[t], i
    for i in range(s.seat[k].draw_n):
        if s.seat[k].draw[i] == t:
            total += 1
    if k == s.to_move and s.phase != PH_OVER:
        total += s.played[t]
    return total


def _history_entries(str text) -> list:
    """A view's history: decision texts, what the viewer's own drew after a colon."""
    entries = [] if text == "-" else text.split(",")
    for entry in entries:
        if not _ENTRY.fullmatch(entry):
            raise NotationError("history: not a decision of eldorado (with what it drew, where it draws)",
                                token=entry, expected="entries like Ex>57, Exa>B3, >58, $Tv, *Sc, Tm*Pi, Cg!:PiEx, .")
    return entries


cdef tuple _read(type cls, str text, bint view):
    """The one reader of positions and views: (state, seat or -1, history or None)."""
    cdef EdState s
    cdef int n, k, i, seat = -1
    cdef int hidden[MAX_SEATS]
    cdef int draw_n[MAX_SEATS]
    f = FieldReader(text, "view" if view else "position")
    _read_header(f, &s)
    n = s.players
    if view:
        seat = f.integer("seat", 0, n - 1)
    _read_progress(f, &s)
    _read_table(f, &s)
    hands = f.listed("hands", n, "seats")
    for k in range(n):
        hidden[k] = 0
        if view and k != seat:
            if not hands[k].startswith("?"):
                raise NotationError(f"hands: seat {k}'s hand is hidden from seat {seat}", token=hands[k],
                                    expected="? and its number of cards, e.g. ?4")
            hidden[k] = _integer("hands", hands[k][1:], 0, _SEAT_CARDS)
        else:
            _fill(s.seat[k].hand, _card_set(hands[k], "hands"))
    draws = f.listed("draws", n, "seats")
    for k in range(n):
        if view:
            draw_n[k] = _integer("draws", draws[k], 0, _SEAT_CARDS)
        else:
            cards = _codes(draws[k], "draws", _CARD_INDEX, "card")
            if len(cards) > _SEAT_CARDS:
                raise NotationError("draws: more cards than the game has", token=draws[k],
                                    expected=f"at most {_SEAT_CARDS}")
            for i, t in enumerate(cards):
                s.seat[k].draw[i] = t
            s.seat[k].draw_n = len(cards)
    if view:
        for k, part in enumerate(f.listed("unseen", n, "seats")):
            cards = _card_set(part, "unseen")
            if len(cards) != hidden[k] + draw_n[k]:
                what = "its draw pile" if k == seat else "its hand and draw pile"
                raise NotationError(f"unseen: seat {k}'s unseen cards fill {what}", token=part,
                                    expected=f"{hidden[k] + draw_n[k]} cards")
            _fill(s.seat[k].hand, cards[:hidden[k]])
            for i, t in enumerate(cards[hidden[k]:]):
                s.seat[k].draw[i] = t
            s.seat[k].draw_n = draw_n[k]
    for k, part in enumerate(f.listed("discards", n, "seats")):
        _fill(s.seat[k].discard, _card_set(part, "discards"))
    for k, part in enumerate(f.listed("removed", n, "seats")):
        _fill(s.seat[k].removed, _card_set(part, "removed"))
    _fill(s.played, _card_set(f.take("played"), "played"))
    _read_tokens_and_caves(f, &s, view)
    _read_turn(f, &s)
    history = None
    if view:
        history = _history_entries(f.take("history"))
        s.rng = 0
    else:
        value = f.take("rng")
        if len(value) != 16 or any(ch not in "0123456789abcdef" for ch in value):
            raise NotationError("rng", token=value, expected="16 lowercase hex digits")
        s.rng = int(value, 16)
    f.finish()
    _validate(&s)
    cdef EldoradoState state = cls.__new__(cls)
    state._adopt(ed_ops(), &s)
    return state, seat, history


# ----- the face ----------------------------------------------------------------------------------------

# ----- why a decision is illegal (EldoradoState._why_illegal) ---------------------------------------
# Each function names the rule of docs/eldorado.md a decision of one kind breaks, or returns '' when
# it breaks none; tests/test_why_illegal.py checks that '' comes exactly for the legal decisions.

cdef enum:
    SYM_JOKER_CARD = 3     # CARD_SYMBOL of a joker, which matches any terrain (engine/eldorado/rules.pxd)
    SYM_ACTION_CARD = 4    # CARD_SYMBOL of an action card, which has no power

_C_TRANSMITTER = _CARD_INDEX["Tm"]
_C_NATIVE = _CARD_INDEX["Na"]
_SRC_NATIVE = MOVE_SOURCES.index("nt")
_ACTION_CARDS = tuple(_CARD_INDEX[text[:2]] for text in ACTIONS[:4])
_ACTION_TOKENS = tuple(_TOKEN_INDEX[text[:2]] for text in ACTIONS[4:])
_TERRAIN_NAMES = ("jungle", "water", "a village", "rubble", "a base camp", "a mountain", "a cave", "a start space")
_SYMBOL_NAMES = ("machete", "paddle", "coin", "joker")
_FLAG_NAMES = ("keep item", "pass occupied", "change symbol")


def _coins(int halves) -> str:
    """Half coins as coins: 3, 2.5."""
    return str(halves // 2) if halves % 2 == 0 else f"{halves / 2:g}"


def _plural(int n, str word) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


cdef str _held_reason(const EdSeat* q, int t):
    """'' when the hand holds card type t, else the reason."""
    return "" if q.hand[t] else f"you do not hold {CARD_CODES[t]}"


cdef str _order_reason(int t, int last, str done):
    """Cards of one sequence (payment, removal, replacement, discards) go in card order."""
    if last == ED_NONE or t >= last:
        return ""
    return f"{done} in card order: {CARD_CODES[t]} comes before {CARD_CODES[last]}"


cdef str _subphase_reason(const EdState* s, int kind):
    """Why a decision of kind `kind` cannot be made in the current step of the turn, or ''."""
    if s.phase == PH_DISCARD:
        if kind == D_DISCARD or kind == D_END:
            return ""
        return "you have begun discarding: discard more (-X) or end the turn (.)"
    if s.pay_n:
        if kind == D_PAY:
            return ""
        what = "rubble" if s.pay_kind == T_RUBBLE else "the base camp"
        return f"you still owe {_plural(s.pay_n, 'card')} for {what}: pay with #X first"
    if s.replace != ED_NONE:
        if kind == D_REPLACE or kind == D_REPLACE_DONE:
            return ""
        return "a replacement is under way: replace a card (~X) or end it (~.) first"
    if kind == D_PAY:
        return "you owe no payment (#X pays the rest of a rubble or base camp just entered)"
    if kind == D_REPLACE or kind == D_REPLACE_DONE:
        return "no replacement is under way (the token rh starts one: rh!)"
    return ""


cdef str _pay_reason(const EdState* s, const EdSeat* q, int t):
    cdef int left = 0, u
    reason = _held_reason(q, t) or _order_reason(t, s.last, "cards are paid")
    if reason:
        return reason
    for u in range(t, ED_TYPES):
        left += q.hand[u]
    if left < s.pay_n:
        return (f"the payment is made in card order and {s.pay_n} still owed, but you hold only "
                f"{left} from {CARD_CODES[t]} on")
    return ""


cdef str _replace_reason(const EdState* s, const EdSeat* q, int d):
    if d == D_REPLACE_DONE:
        return ""
    if s.replace >= 4:
        return "a replacement takes at most 4 cards: end it with ~."
    return _held_reason(q, d - D_REPLACE) or _order_reason(d - D_REPLACE, s.last, "cards are replaced")


cdef str _target_text(const EdState* s, int pos, int d):
    """The target of direction d from hex pos: `hex 57` or `blockade B3`."""
    cdef const EdMap* m = &ED_MAPS[s.route]
    cdef int k = m.cross[pos][d]
    if k >= 0 and s.conn[k]:
        return f"blockade B{s.conn[k]}"
    return f"hex {m.nb[pos][d]}"


cdef str _enter_reason(const EdState* s, int pos, int d):
    """Why no piece may go from hex pos in direction d whatever it plays: no hex, a hex that is never
    entered, an occupied hex, or a blockade named through another direction; '' otherwise."""
    cdef const EdMap* m = &ED_MAPS[s.route]
    cdef int h = m.nb[pos][d], k = m.cross[pos][d], e, o, p
    if h < 0:
        return f"no hex lies in direction {d} of hex {pos}"
    if k >= 0 and s.conn[k]:
        for e in range(d):
            if m.nb[pos][e] >= 0 and m.cross[pos][e] == k:
                return f"blockade B{s.conn[k]} is taken through the first direction across its border ({e})"
        return ""
    if m.terrain[h] > T_CAMP:
        return f"hex {h} is {_TERRAIN_NAMES[m.terrain[h]]}: no piece enters it"
    if s.flags & F_PASS_OCCUPIED:
        return ""
    for o in range(s.players):
        for p in range(_npieces(s)):
            if s.seat[o].piece[p] == h:
                whose = (f"your piece {PIECE_LETTERS[p]}" if o == s.to_move else
                         f"seat {o}'s piece" + (f" {PIECE_LETTERS[p]}" if s.players == 2 else ""))
                return f"hex {h} is occupied by {whose} (only the token po lets a piece pass)"
    return ""


cdef void _terrain_of(const EdState* s, int pos, int d, int* terr, int* pw):
    """The terrain and power a piece on hex pos meets in direction d (a blockade's, or the hex's)."""
    cdef const EdMap* m = &ED_MAPS[s.route]
    cdef int k = m.cross[pos][d]
    if k >= 0 and s.conn[k]:
        terr[0] = BLOCKADE_TERRAIN[s.conn[k]]
        pw[0] = BLOCKADE_POWER[s.conn[k]]
    else:
        terr[0] = m.terrain[ED_MAPS[s.route].nb[pos][d]]
        pw[0] = m.power[ED_MAPS[s.route].nb[pos][d]]


cdef str _move_reason(const EdState* s, const EdSeat* q, int d):
    """Why a move `X>h` (source X, piece, direction) breaks the rules, or ''."""
    cdef int src = d // 12, p = (d // 6) & 1, dd = d % 6, pos, terr = 0, pw = 0, sym, power, u, enough = 0
    code = MOVE_SOURCES[src]
    if p >= _npieces(s):
        return "you have one piece, a"
    if src < ED_TYPES:
        if not q.hand[src]:
            return f"you do not hold {code}"
    elif not q.tokens[_TOKEN_INDEX[code]]:
        return f"you do not hold the token {code}"
    pos = q.piece[p]
    if pos == ED_ELDORADO:
        return f"your piece {PIECE_LETTERS[p]} is on El Dorado already"
    reason = _enter_reason(s, pos, dd)
    if reason or src == _C_NATIVE or src == _SRC_NATIVE:
        return reason
    _terrain_of(s, pos, dd, &terr, &pw)
    target = _target_text(s, pos, dd)
    if terr == T_RUBBLE or terr == T_CAMP:
        if src >= ED_TYPES:
            return f"{target} is {_TERRAIN_NAMES[terr]} of power {pw}, paid with cards, and the token {code} is no card"
        for u in range(src, ED_TYPES):
            enough += q.hand[u]
        if enough < pw:
            return (f"{target} is {_TERRAIN_NAMES[terr]} of power {pw}: it takes {pw} cards, paid in card order "
                    f"from {code} on, and you hold {enough}")
        return ""
    if src < ED_TYPES:
        sym, power = CARD_SYMBOL[src], CARD_POWER[src]
        if sym == SYM_ACTION_CARD:
            return f"{code} is an action card: it has no power to move with"
        if (s.flags & F_CHANGE_SYMBOL) and power >= 1:
            sym = SYM_JOKER_CARD
    else:
        sym, power = TOKEN_SYMBOL[_TOKEN_INDEX[code]], TOKEN_POWER[_TOKEN_INDEX[code]]
    return _power_reason(target, terr, pw, sym, power, code)


cdef str _power_reason(str target, int terr, int pw, int sym, int power, str what):
    """Why `what`, of symbol sym (SYM_JOKER_CARD: any) and power `power`, does not pay for terrain
    terr of power pw (a jungle, water or village hex, or such a blockade); '' when it does."""
    if (sym == terr or sym == SYM_JOKER_CARD) and power >= pw:
        return ""
    return (f"{target} takes {_SYMBOL_NAMES[terr]} power {pw}, and {what} gives "
            f"{_SYMBOL_NAMES[sym]} power {power}")


cdef str _step_reason(const EdState* s, const EdSeat* q, int d):
    """Why a step `>h` breaks the rules, or ''."""
    cdef int dd = d - D_STEP, pos, terr = 0, pw = 0
    if s.moving == ED_NONE:
        return "no piece is moving (a step continues the piece that moved last with its leftover power)"
    if not s.leftover:
        return "the moving piece has no power left"
    pos = q.piece[s.moving]
    reason = _enter_reason(s, pos, dd)
    if reason:
        return reason
    _terrain_of(s, pos, dd, &terr, &pw)
    target = _target_text(s, pos, dd)
    if terr > T_COIN:
        return f"{target} is {_TERRAIN_NAMES[terr]}: a step never enters rubble or a base camp"
    return _power_reason(target, terr, pw, s.move_symbol, s.leftover, "the moving piece's leftover")


cdef str _coin_reason(const EdState* s, const EdSeat* q, int c):
    """Why playing coin source c (`$X`) breaks the rules, or ''."""
    cdef int t
    cdef bint any_dearer = False
    code = COIN_SOURCES[c]
    if c < ED_TYPES:
        if not q.hand[c]:
            return f"you do not hold {code}"
    elif not q.tokens[_TOKEN_INDEX[code]]:
        return f"you do not hold the token {code}"
    if s.bought:
        return "you have bought this turn: coins buy nothing more"
    if s.lastcoin != ED_NONE and c < s.lastcoin:
        return f"coins are played in card order (tokens last): {code} comes before {COIN_SOURCES[s.lastcoin]}"
    for t in range(ED_MARKET_FIRST, ED_TYPES):
        if _buyable_pile(s, t) and 2 * CARD_PRICE[t] > s.coins:
            any_dearer = True
    if not any_dearer:
        return f"no card you could buy costs more than the {_coins(s.coins)} coins played"
    return ""


cdef bint _buyable_pile(const EdState* s, int t):
    """The pile of type t has cards and lies on the market board, or beside it while a slot is empty."""
    cdef int t2, on_board = 0
    if not s.market[t]:
        return False
    if (s.on_board >> t) & 1:
        return True
    for t2 in range(ED_MARKET_FIRST, ED_TYPES):
        on_board += (s.on_board >> t2) & 1
    return on_board < 6


cdef str _buy_reason(const EdState* s, int t):
    code = CARD_CODES[t]
    if s.bought:
        return "you have bought this turn (one purchase a turn)"
    if not s.market[t]:
        return f"the {code} pile is empty"
    if not _buyable_pile(s, t):
        return f"the {code} pile lies beside the market board, and the board has no empty slot"
    if 2 * CARD_PRICE[t] > s.coins:
        return f"{code} costs {_plural(CARD_PRICE[t], 'coin')}, and you have played {_coins(s.coins)}"
    return ""


cdef str _action_reason(const EdState* s, const EdSeat* q, int a):
    """Why action a (`Cg!` … `cs!`) breaks the rules, or ''."""
    cdef int k
    if a < 4:
        return _held_reason(q, _ACTION_CARDS[a])
    k = _ACTION_TOKENS[a - 4]
    if not q.tokens[k]:
        return f"you do not hold the token {TOKEN_CODES[k]}"
    if (a == 5 or a == 6) and not _counts_size(q.hand, ED_TYPES):
        return f"your hand is empty: there is no card to {'remove' if a == 5 else 'replace'}"
    if a >= 7 and (s.flags >> (a - 7)) & 1:
        return f"{_FLAG_NAMES[a - 7]} is on already this turn"
    return ""


cdef str _play_reason(const EdState* s, const EdSeat* q, int d):
    """Why decision d breaks the rules in phase play, outside a payment or replacement; '' if none."""
    if d < D_STEP:
        return _move_reason(s, q, d)
    if d < D_PAY:
        return _step_reason(s, q, d)
    if d < D_BUY:
        return _coin_reason(s, q, d - D_COIN)
    if d < D_TRANSMIT:
        return _buy_reason(s, d - D_BUY + ED_MARKET_FIRST)
    if d < D_ACTION:
        if not q.hand[_C_TRANSMITTER]:
            return "you do not hold Tm"
        return "" if s.market[d - D_TRANSMIT + ED_MARKET_FIRST] else f"the {CARD_CODES[d - D_TRANSMIT + ED_MARKET_FIRST]} pile is empty"
    if d < D_REMOVE:
        return _action_reason(s, q, d - D_ACTION)
    if d < D_REPLACE:
        if not s.remove_n:
            return "you have no removal right (Si!, Tl! and the token rm give one)"
        return _held_reason(q, d - D_REMOVE) or _order_reason(d - D_REMOVE, s.last, "cards are removed")
    if d < D_END:
        return _held_reason(q, d - D_DISCARD)
    return ""


cdef int _kind(int d) noexcept:
    """The first id of d's kind, for the kinds a step of the turn restricts."""
    if D_PAY <= d < D_COIN:
        return D_PAY
    if D_REPLACE <= d < D_REPLACE_DONE:
        return D_REPLACE
    if D_DISCARD <= d < D_END:
        return D_DISCARD
    return d if d == D_REPLACE_DONE or d == D_END else -1


cdef class EldoradoState(State):
    """A position of `eldorado` (docs/eldorado.md).

    >>> import engine
    >>> s = engine.new_game("eldorado", seed=3, players=3, route="hills-of-gold", caves=1)
    >>> s.players, s.phase, s.to_move, s.options
    (3, 'play', 0, {'route': 1, 'caves': 1, 'max_rounds': 100})
    >>> s.apply("."); s.to_move, s.turn
    (1, 1)
    """
    # A move's or step's text names its target through the position (the piece's hex), so the
    # record's texts are written when each decision is made: one per entry of State._record.
    cdef list _texts

    def __cinit__(self):
        self._texts = []

    cdef int _apply(self, int d, tuple revealed) except -1:
        self._texts.append(self.decision_to_text(d))
        return State._apply(self, d, revealed)

    cdef void _forget(self):
        State._forget(self)
        self._texts = []

    def copy(self) -> EldoradoState:
        """An independent copy (position and history)."""
        cdef EldoradoState other = State.copy(self)
        other._texts = list(self._texts)
        return other

    @property
    def players(self) -> int:
        return _es(self).players

    @property
    def phase(self) -> str:
        """'play', 'discard' (the seat discards before it ends its turn) or 'over'."""
        return PHASES[_es(self).phase]

    @property
    def turn(self) -> int:
        """Turns completed in the game (the round is turn // players)."""
        return _es(self).turn

    @property
    def options(self) -> dict:
        cdef EdState* s = _es(self)
        return {"route": s.route, "caves": s.caves, "max_rounds": s.max_rounds}

    @property
    def route(self):
        """The map (engine.eldorado.components.RouteMap)."""
        return ROUTES[_es(self).route]

    @property
    def final(self) -> bool:
        """Whether the final round is set (a seat has finished)."""
        return bool(_es(self).final)

    def begins_turn(self) -> bool:
        """Whether the next decision begins a turn: the phase is `play` and nothing of the turn has
        happened yet. With a record, exactly when the last decision recorded was an end `.` (or there
        is none and the position was set up at the start of a turn, see below); a position read
        from text has no record, and then every turn field must be at rest (played=- coins=0
        bought=0 lastcoin=- moving=- pay=- remove=0 replace=- last=- flags=-), which a turn that
        began with a decision leaving no trace in them (`Co!`, a token's `dr!`) cannot be told from.

        >>> import engine
        >>> s = engine.new_game("eldorado", seed=1)
        >>> s.begins_turn(), s.play("$Tv") and s.begins_turn()
        (True, False)
        """
        cdef EdState* s = _es(self)
        if s.phase != PH_PLAY:
            return False
        if self._record:
            return self._record[len(self._record) - 1][1] == D_END
        return (not _counts_size(s.played, ED_TYPES) and s.coins == 0 and s.bought == 0 and s.lastcoin == ED_NONE
                and s.moving == ED_NONE and s.pay_n == 0 and s.remove_n == 0 and s.replace == ED_NONE
                and s.last == ED_NONE and s.flags == 0)

    def turns_left(self, int seat) -> int:
        """An estimate of the turns `seat` still has, counting the one under way: the rounds the
        game still has, at most up to `max_rounds`, only this one once the final round is set, and
        otherwise at most as many as the seat closest to El Dorado needs at HEXES_PER_TURN hexes a
        turn (the fewest steps from each of its pieces to a finishing space, blockades and terrain
        ignored, added up); less one if the seat has had its turn in this round. 0 once the game is
        over. What a clock is shared over; it may grow when a piece steps away from El Dorado.

        >>> import engine
        >>> s = engine.new_game("eldorado", seed=2, players=3)
        >>> [s.turns_left(seat) for seat in range(3)] == [s.turns_left(0)] * 3
        True
        """
        self._check_seat(seat)
        cdef EdState* s = _es(self)
        cdef int n = s.players, k, p, h, rounds, need, best = 1 << 30
        if s.phase == PH_OVER:
            return 0
        if s.final:
            rounds = 1
        else:
            rounds = s.max_rounds - s.turn // n
            dist = _DISTANCE[s.route]
            for k in range(n):
                need = 0
                for p in range(_npieces(s)):
                    h = s.seat[k].piece[p]
                    if h != ED_ELDORADO:
                        need += max(dist[h], 0)
                best = min(best, need)
            rounds = max(1, min(rounds, (best + HEXES_PER_TURN - 1) // HEXES_PER_TURN))
        return rounds - (1 if seat < s.to_move else 0)

    # ----- what the position shows -------------------------------------------------------------------
    def pieces(self, int seat) -> list:
        """The seat's pieces (a, then b with 2 players): hex numbers as text, or 'E' on El Dorado."""
        self._check_seat(seat)
        cdef EdState* s = _es(self)
        return [_piece_text(s.seat[seat].piece[p]) for p in range(_npieces(s))]

    def hand(self, int seat) -> list:
        """The seat's hand as card codes in canonical order."""
        self._check_seat(seat)
        cdef EdState* s = _es(self)
        return [CARD_CODES[t] for t in range(ED_TYPES) for _ in range(s.seat[seat].hand[t])]

    def draw_pile(self, int seat) -> list:
        """The seat's draw pile as card codes, bottom first (the last is drawn next)."""
        self._check_seat(seat)
        cdef EdState* s = _es(self)
        return [CARD_CODES[s.seat[seat].draw[i]] for i in range(s.seat[seat].draw_n)]

    def discard(self, int seat) -> list:
        self._check_seat(seat)
        cdef EdState* s = _es(self)
        return [CARD_CODES[t] for t in range(ED_TYPES) for _ in range(s.seat[seat].discard[t])]

    def tokens(self, int seat) -> list:
        self._check_seat(seat)
        cdef EdState* s = _es(self)
        return [TOKEN_CODES[t] for t in range(ED_TOKENS) for _ in range(s.seat[seat].tokens[t])]

    def blockades(self) -> list:
        """Per connection, the number of the blockade on it, or None once taken."""
        cdef EdState* s = _es(self)
        return [s.conn[k] or None for k in range(ROUTES[s.route].connections)]

    def held(self, int seat) -> list:
        """The numbers of the blockades the seat holds, ascending."""
        self._check_seat(seat)
        cdef int held = _es(self).seat[seat].held
        return [b for b in range(1, ED_BLOCKADES + 1) if (held >> (b - 1)) & 1]

    def market(self) -> tuple:
        """({code: count} of the piles on the board, {code: count} of those beside it)."""
        cdef EdState* s = _es(self)
        board = {CARD_CODES[t]: s.market[t] for t in _MARKET_TYPES if s.market[t] and (s.on_board >> t) & 1}
        beside = {CARD_CODES[t]: s.market[t] for t in _MARKET_TYPES if s.market[t] and not (s.on_board >> t) & 1}
        return board, beside

    # ----- decisions ---------------------------------------------------------------------------------
    cdef str _target(self, int h, int d):
        """The text of the target in direction d from hex h: a hex number or B<n>; `?` off the map."""
        cdef EdState* s = _es(self)
        if h == ED_ELDORADO or not 0 <= h < len(ROUTES[s.route].hexes):
            return "?"
        route = ROUTES[s.route]
        k = route.crossing[h][d]
        if k >= 0 and s.conn[k]:
            return f"B{s.conn[k]}"
        n = route.neighbours[h][d]
        return "?" if n < 0 else str(n)

    cdef int _piece_hex(self, int p):
        """The hex of the mover's piece p (ED_ELDORADO when it has none to move)."""
        cdef EdState* s = _es(self)
        if s.phase == PH_OVER or p >= _npieces(s):
            return ED_ELDORADO
        return s.seat[s.to_move].piece[p]

    def decision_to_text(self, int d) -> str:
        """The text of decision d (docs/eldorado.md): a move or step names its target as the
        position has it (a hex number, or B<n> where a blockade lies across that border; `?` where
        there is none, which is never legal)."""
        cdef EdState* s = _es(self)
        cdef int src, p, h
        if 0 <= d < D_STEP:
            src = d // 12
            p = (d // 6) % 2
            piece = PIECE_LETTERS[p] if s.players == 2 else ("" if p == 0 else "b")
            return f"{MOVE_SOURCES[src]}{piece}>{self._target(self._piece_hex(p), d % 6)}"
        if d < D_PAY:
            h = self._piece_hex(s.moving) if s.moving != ED_NONE else ED_ELDORADO
            return ">" + self._target(h, d - D_STEP)
        if d < D_COIN:
            return "#" + CARD_CODES[d - D_PAY]
        if d < D_BUY:
            return "$" + COIN_SOURCES[d - D_COIN]
        if d < D_TRANSMIT:
            return "*" + CARD_CODES[d - D_BUY + ED_MARKET_FIRST]
        if d < D_ACTION:
            return "Tm*" + CARD_CODES[d - D_TRANSMIT + ED_MARKET_FIRST]
        if d < D_REMOVE:
            return ACTIONS[d - D_ACTION]
        if d < D_REPLACE:
            return "x" + CARD_CODES[d - D_REMOVE]
        if d < D_REPLACE_DONE:
            return "~" + CARD_CODES[d - D_REPLACE]
        if d == D_REPLACE_DONE:
            return "~."
        if d < D_END:
            return "-" + CARD_CODES[d - D_DISCARD]
        if d == D_END:
            return "."
        raise ValueError(f"{d} is not a decision id of eldorado")

    cdef int _direction(self, int h, str target, str text) except -1:
        """The direction from hex h to `target` (a hex number or B<n>) for decision `text`."""
        cdef EdState* s = _es(self)
        cdef int d, b
        route = ROUTES[s.route]
        if target.startswith("B"):
            b = _integer("blockade", target[1:], 1, ED_BLOCKADES)
            for d in range(6):
                k = route.crossing[h][d]
                if k >= 0 and s.conn[k] == b:
                    return d
            raise NotationError(f"blockade B{b} does not lie on a border of hex {h}", token=text,
                                expected=f"a neighbour of hex {h} or a blockade on its borders")
        n = _integer("target hex", target, 0, len(route.hexes) - 1)
        for d in range(6):
            if route.neighbours[h][d] == n:
                k = route.crossing[h][d]
                if k >= 0 and s.conn[k]:
                    raise NotationError(f"hex {n} lies across blockade B{s.conn[k]}", token=text,
                                        expected=text.split(">")[0] + f">B{s.conn[k]}")
                return d
        raise NotationError(f"hex {n} is not a neighbour of hex {h}", token=text,
                            expected=f"one of {', '.join(str(x) for x in route.neighbours[h] if x >= 0)}")

    def parse_decision(self, str text) -> int:
        """The id of a decision's text; a move or step is read against the position (its target
        must be a neighbour of the piece's hex, or a blockade on its borders)."""
        cdef EdState* s = _es(self)
        cdef int p, h
        expected = "a decision like Ex>57 (2 players: Exa>57), Ex>B3, >58, #Tv, $Ph, *Pi, Tm*Pi, Cg!, xTv, ~Tv, ~., -Tv or ."
        if not isinstance(text, str) or not text:
            raise NotationError("empty decision", expected=expected)
        if text == ".":
            return D_END
        if text == "~.":
            return D_REPLACE_DONE
        if text in _ACTION_INDEX:
            return D_ACTION + _ACTION_INDEX[text]
        head, rest = text[0], text[1:]
        if head in "#x~-" and rest in _CARD_INDEX:
            t = _CARD_INDEX[rest]
            return {"#": D_PAY, "x": D_REMOVE, "~": D_REPLACE, "-": D_DISCARD}[head] + t
        if head == "$" and rest in _COIN_INDEX:
            return D_COIN + _COIN_INDEX[rest]
        if head == "*" and _CARD_INDEX.get(rest, 0) >= ED_MARKET_FIRST:
            return D_BUY + _CARD_INDEX[rest] - ED_MARKET_FIRST
        if text.startswith("Tm*") and _CARD_INDEX.get(text[3:], 0) >= ED_MARKET_FIRST:
            return D_TRANSMIT + _CARD_INDEX[text[3:]] - ED_MARKET_FIRST
        source, arrow, target = text.partition(">")
        if arrow and target:
            if source == "":
                if s.moving == ED_NONE or s.phase == PH_OVER:
                    raise NotationError("a step continues the moving piece, and none is moving", token=text,
                                        expected="a move that names its source card or token")
                return D_STEP + self._direction(self._piece_hex(s.moving), target, text)
            p = 0
            if s.players == 2:
                if len(source) != 3 or source[2] not in PIECE_LETTERS:
                    raise NotationError("a move with 2 players names its piece", token=text,
                                        expected=f"{source[:2]}a>{target} or {source[:2]}b>{target}")
                p = PIECE_LETTERS.index(source[2])
                source = source[:2]
            if source in _SOURCE_INDEX:
                h = self._piece_hex(p)
                if h == ED_ELDORADO:
                    raise NotationError(f"piece {PIECE_LETTERS[p]} is not on the map", token=text,
                                        expected="a move of a piece on the map by the seat to move")
                return (_SOURCE_INDEX[source] * 2 + p) * 6 + self._direction(h, target, text)
            raise NotationError("a move's source is a card or a moving token", token=text,
                                expected="a card code, m1 m2 m3 p1 p2 c1 c2 or nt, then > and the target"
                                + (" (with 2 players the piece after the source: Exa>57)" if s.players == 2 else ""))
        raise NotationError("not a decision of eldorado", token=text, expected=expected)

    def _why_illegal(self, int d) -> str:
        """The rule of docs/eldorado.md that decision `d` of the seat to move breaks; empty when it
        breaks none, which is exactly when it is legal.

        >>> import engine
        >>> s = engine.new_game("eldorado", seed=1, players=2)
        >>> s.why_illegal("*Jo"), s.why_illegal("#Tv"), s.why_illegal("xEx")
        ('the Jo pile lies beside the market board, and the board has no empty slot', 'you owe no payment (#X pays the rest of a rubble or base camp just entered)', 'you have no removal right (Si!, Tl! and the token rm give one)')
        """
        cdef EdState* s = _es(self)
        cdef EdSeat* q
        cdef int kind = _kind(d)
        if s.phase == PH_OVER:
            return "the game is over"
        q = &s.seat[s.to_move]
        reason = _subphase_reason(s, kind)
        if reason:
            return reason
        if s.phase == PH_DISCARD:
            return "" if d == D_END else _held_reason(q, d - D_DISCARD) or _order_reason(d - D_DISCARD, s.last, "cards are discarded")
        if s.pay_n:
            return _pay_reason(s, q, d - D_PAY)
        if s.replace != ED_NONE:
            return _replace_reason(s, q, d)
        return _play_reason(s, q, d)

    # ----- the record ----------------------------------------------------------------------------------
    def revealed_text(self, tuple revealed) -> str:
        """The cards a decision drew, in the order drawn: `PiEx`."""
        return "".join([CARD_CODES[t] for t in revealed])

    def parse_revealed(self, str text) -> tuple:
        """The inverse of `revealed_text`: the card types of one to 16 cards.

        >>> import engine
        >>> engine.new_game("eldorado", seed=1).parse_revealed("PiEx")
        (5, 0)
        """
        if not text or text == "-" or len(text) > 32:
            raise NotationError("revealed: one to 16 cards drawn", token=text, expected="cards like PiEx")
        return tuple(_codes(text, "revealed", _CARD_INDEX, "card"))

    def history(self, seat=None, bint previous=False) -> list:
        """Every decision since the position was set up, as text (the game is one long record); masked
        for `seat` if given (another seat's decision without what it drew), else the referee's record
        with what each decision drew. `previous`: the decisions of the round before the current one
        by `round_index`."""
        if seat is not None:
            self._check_seat(seat)
        cdef Py_ssize_t i, first = 0, end = len(self._record)
        if previous:
            first, end = self._last_round_start, self._round_start
        out = []
        for i in range(first, end):
            mover, d, revealed = self._record[i]
            text = self._texts[i]
            out.append(f"{text}:{self.revealed_text(revealed)}" if revealed and (seat is None or seat == mover)
                       else text)
        return out

    # ----- pictures ------------------------------------------------------------------------------------
    def pretty(self, seat=None) -> str:
        """A text picture of the table (engine/eldorado/picture.py); with `seat`, what that seat
        cannot see (other hands, draw orders, cave piles) is hidden.

        >>> import engine
        >>> print(engine.new_game("eldorado", seed=2).pretty(0).splitlines()[0])
        eldorado  first-expedition  caves=0  round 1/100  turn 0  seat 0 to play
        """
        if seat is not None:
            self._check_seat(seat)
        from engine.eldorado.picture import text_picture
        return text_picture(self, seat)

    def fields(self, seat=None) -> dict:
        """The position's fields from `players=` on, by name (with `seat`, that seat's view's, without
        its history); the rule options are `options`."""
        if seat is not None:
            self._check_seat(seat)
        text = self._format(-1 if seat is None else seat, False)
        return dict(token.split("=", 1) for token in text.split()[1 + len(OPTION_SPECS):])

    # ----- positions and views ---------------------------------------------------------------------------
    def _format(self, int viewer, bint with_history=True) -> str:
        """The one writer: the full position (viewer -1) or a seat's view (docs/eldorado.md)."""
        cdef EdState* s = _es(self)
        cdef int n = s.players, k, p, t
        cdef int np = _npieces(s)
        cdef EdSeat* e
        route = ROUTES[s.route]
        ncaves = len(route.caves)
        out = [NAME]
        for k, spec in enumerate(OPTION_SPECS):
            out.append(f"{spec.name}={spec.text(self.options[spec.name])}")
        out.append(f"players={n}")
        if viewer >= 0:
            out.append(f"seat={viewer}")
        out.append(f"turn={s.turn}")
        out.append(f"phase={PHASES[s.phase]}")
        out.append("to_move=" + ("-" if s.phase == PH_OVER else str(s.to_move)))
        out.append(f"final={s.final}")
        out.append("pieces=" + "/".join([",".join([_piece_text(s.seat[k].piece[p]) for p in range(np)])
                                         for k in range(n)]))
        out.append("blockades=" + ",".join([str(s.conn[k]) if s.conn[k] else "-" for k in range(route.connections)]))
        out.append("held=" + "/".join([",".join([str(b) for b in range(1, ED_BLOCKADES + 1)
                                                 if (s.seat[k].held >> (b - 1)) & 1]) or "-" for k in range(n)]))
        out.append("market=" + _market_text(s))
        hands = []
        draws = []
        unseen = []
        for k in range(n):
            e = &s.seat[k]
            if viewer < 0 or k == viewer:
                hands.append(_counts_text(e.hand, ED_TYPES, CARD_CODES))
            else:
                hands.append(f"?{_counts_size(e.hand, ED_TYPES)}")
            if viewer < 0:
                draws.append(_stack_text(e.draw, e.draw_n, CARD_CODES))
            else:
                draws.append(str(e.draw_n))
                counts = [0] * ED_TYPES if k == viewer else [e.hand[t] for t in range(ED_TYPES)]
                for p in range(e.draw_n):
                    counts[e.draw[p]] += 1
                unseen.append("".join([CARD_CODES[t] * counts[t] for t in range(ED_TYPES)]) or "-")
        out.append("hands=" + "/".join(hands))
        out.append("draws=" + "/".join(draws))
        if viewer >= 0:
            out.append("unseen=" + "/".join(unseen))
        out.append("discards=" + "/".join([_counts_text(s.seat[k].discard, ED_TYPES, CARD_CODES) for k in range(n)]))
        out.append("removed=" + "/".join([_counts_text(s.seat[k].removed, ED_TYPES, CARD_CODES) for k in range(n)]))
        out.append("played=" + _counts_text(s.played, ED_TYPES, CARD_CODES))
        out.append("tokens=" + "/".join([_counts_text(s.seat[k].tokens, ED_TOKENS, TOKEN_CODES) for k in range(n)]))
        if viewer < 0:
            out.append("cavepiles=" + ",".join([_stack_text(s.cave[k], s.cave_n[k], TOKEN_CODES) for k in range(ncaves)]))
            out.append("box=" + _counts_text(s.box, ED_TOKENS, TOKEN_CODES))
        else:
            out.append("cavepiles=" + ",".join([str(s.cave_n[k]) for k in range(ncaves)]))
            pool = [s.box[t] for t in range(ED_TOKENS)]
            for k in range(ncaves):
                for p in range(s.cave_n[k]):
                    pool[s.cave[k][p]] += 1
            out.append("cavepool=" + ("".join([TOKEN_CODES[t] * pool[t] for t in range(ED_TOKENS)]) or "-"))
        out.append("explored=" + "/".join([",".join([_explored_text(s.seat[k].explored[p]) for p in range(np)])
                                           for k in range(n)]))
        out.append(f"coins={s.coins}")
        out.append(f"bought={s.bought}")
        out.append("lastcoin=" + ("-" if s.lastcoin == ED_NONE else COIN_SOURCES[s.lastcoin]))
        out.append("moving=" + _moving_text(s))
        out.append("pay=" + ("-" if not s.pay_n else f"{s.pay_n}{'r' if s.pay_kind == T_RUBBLE else 'c'}"))
        out.append(f"remove={s.remove_n}")
        out.append("replace=" + ("-" if s.replace == ED_NONE else str(s.replace)))
        out.append("last=" + ("-" if s.last == ED_NONE else CARD_CODES[s.last]))
        out.append("flags=" + _flags_text(s.flags))
        if viewer < 0:
            out.append(f"rng={s.rng:016x}")
        elif with_history:
            out.append("history=" + (",".join(self.history(viewer)) or "-"))
        return " ".join(out)

    @classmethod
    def from_text(cls, str text) -> EldoradoState:
        """Parses a full position; raises NotationError naming the bad field."""
        return _read(cls, text, False)[0]

    @classmethod
    def parse_view(cls, str text) -> tuple:
        """Parses a view: (a position consistent with it, the seat, the history as a list).

        The unseen cards are dealt in canonical order: per seat, its unknown hand first, then its
        draw pile bottom up; the cave pool fills the caves in cave order, the rest is the box; the
        generator is 0 (docs/eldorado.md "Views"). Determinize the position to sample one at random.
        """
        return _read(cls, text, True)


def new_state(seed, int players, options) -> EldoradoState:
    """Deals a new game from `seed` (options are validated here; `route` by name or number)."""
    if players not in SEATS:
        raise ValueError(f"eldorado is played by 2, 3 or 4 players, not {players}")
    opts = resolve_options(OPTION_SPECS, options, NAME)
    cdef EdState s
    cdef int values[8]
    for k, spec in enumerate(OPTION_SPECS):
        values[k] = opts[spec.name]
    memset(&s, 0, sizeof(EdState))
    ed_blank(&s, players, values)
    ed_reset(&s, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
    cdef EldoradoState st = EldoradoState.__new__(EldoradoState)
    st._adopt(ed_ops(), &s)
    return st
