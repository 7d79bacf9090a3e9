# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""`BoardState`: the Python face of a position of Lost Cities: The Board Game, with its notation
(positions and views read by one field reader and written field by field; docs/board.md).

>>> import engine
>>> s = engine.new_game("board", seed=1, players=2)
>>> s.to_text().split()[:6]
['board', 'rounds=3', 'max_turns=300', 'updown=0', 'players=2', 'round=1/3']
>>> s.phase, len(s.box_cards())
('play', 30)
"""
import re

from libc.string cimport memset
from libc.stdint cimport uint64_t

from engine._core cimport State, exp_popcount, exp_ctz, turns_left_of, MAX_SEATS
from engine.board.rules cimport *

from engine.board.rules import COLOURS, DATA, OPTION_SPECS, PATH_SPACES, SEATS
from engine.errors import NotationError
from engine.options import resolve_options
from engine.textfields import FieldReader, integer as _integer

RANKS = "0123456789T"

_PHASES = ("play", "move", "draw", "over")
CARD_TEXT = tuple(COLOURS[t // NVALUES] + RANKS[t % NVALUES] for t in range(NTYPES))
_CARD_INDEX = {text: t for t, text in enumerate(CARD_TEXT)}
_TILE_TOKEN = re.compile(r"A|>|\.|V[0-9]+")
COLOUR_NAMES = DATA["names"]
"""The paths' names in colour order (the data's), for the reasons of illegal decisions."""


cdef inline BoardStruct* _bs(State st):
    return <BoardStruct*>st.ptr


def _tile_text(int code) -> str:
    if code == TILE_NONE:
        return "."
    if code == TILE_ARTIFACT:
        return "A"
    if code == TILE_ARROW:
        return ">"
    return f"V{code - TILE_VP}"


cdef str _set_text(const Cards* s):
    cdef uint64_t m = s.any
    cdef int t
    if not m:
        return "-"
    parts = []
    while m:
        t = exp_ctz(m)
        m &= m - 1
        parts.append(CARD_TEXT[t] * cards_count(s, t))
    return "".join(parts)


cdef str _cols_text(const BoardStruct* s, int p):
    """Each colour's cards in the order played (descending columns high to low)."""
    cdef int x, t
    parts = []
    for x in range(NCOLOURS):
        cards = []
        for t in range(x * NVALUES, (x + 1) * NVALUES):
            cards.extend([CARD_TEXT[t]] * cards_count(&s.cols[p], t))
        if s.dir[p][x] == 2:
            cards.reverse()
        parts.extend(cards)
    return "".join(parts) or "-"


def _card_list(text: str, field: str) -> list:
    """The cards of a set or stack text (`-` is empty) as type ids, in the order written."""
    if text == "-":
        return []
    if len(text) % 2:
        raise NotationError(f"{field}: cards are two characters each", token=text,
                            expected="cards like y0, b7, rT, or - for none")
    out = []
    for i in range(0, len(text), 2):
        t = _CARD_INDEX.get(text[i:i + 2])
        if t is None:
            raise NotationError(f"{field}: unknown card", token=text[i:i + 2],
                                expected=f"a colour of {COLOURS} then a value of {RANKS}")
        out.append(t)
    return out


cdef int _fill_set(Cards* out, list cards, str field) except -1:
    cdef int t
    for t in cards:
        if cards_count(out, t) >= 2:
            raise NotationError(f"{field}: more copies than the deck has", token=CARD_TEXT[t],
                                expected="at most 2 of a card")
        cards_add(out, t)
    return 0


cdef int _parse_set(Cards* out, str text, str field) except -1:
    cards = _card_list(text, field)
    if cards != sorted(cards):
        raise NotationError(f"{field}: the cards of a set are written in canonical order", token=text,
                            expected="".join(CARD_TEXT[t] for t in sorted(cards)))
    _fill_set(out, cards, field)
    return 0


cdef int _read_header(object f, BoardStruct* s) except -1:
    """Edition name, rule options and players."""
    if f.first != "board":
        raise NotationError(f"not a board {f.what}", token=f.first, expected="board")
    cdef int values[3]
    opts = resolve_options(OPTION_SPECS, f.options(OPTION_SPECS), "board")
    for k, spec in enumerate(OPTION_SPECS):
        values[k] = opts[spec.name]
    board_blank(s, f.integer("players", min(SEATS), max(SEATS)), values)
    return 0


cdef int _read_progress(object f, BoardStruct* s) except -1:
    cdef int n = s.nseats, k
    value = f.take("round")
    r, sep, total = value.partition("/")
    if not sep:
        raise NotationError("round: expected r/R", token=value, expected=f"1/{s.rounds}")
    if _integer("round (total)", total, 1, 99) != s.rounds:
        raise NotationError("round: the total must equal the rounds option", token=value,
                            expected=f"r/{s.rounds}")
    s.round = _integer("round", r, 1, s.rounds) - 1
    s.starter = f.integer("starter", 0, n - 1)
    s.turn = f.integer("turn", 0, s.max_turns)
    phase = f.take("phase")
    if phase not in _PHASES:
        raise NotationError("phase", token=phase, expected="play, move, draw or over")
    s.phase = _PHASES.index(phase)
    value = f.take("to_move")
    if s.phase == PH_OVER:
        if value != "-":
            raise NotationError("to_move: the game is over", token=value, expected="-")
        if s.round != s.rounds - 1:
            raise NotationError("phase=over before the last expedition", token=f"round={s.round + 1}/{s.rounds}",
                                expected=f"round={s.rounds}/{s.rounds}")
        s.to_move = NONE
    else:
        s.to_move = _integer("to_move", value, 0, n - 1)
        if s.turn >= s.max_turns:
            raise NotationError("turn: a running expedition has completed fewer turns than max_turns",
                                token=str(s.turn), expected=f"0..{s.max_turns - 1}")
    value = f.take("nodraw")
    if value == ".":
        s.nodraw = NONE
    else:
        if len(value) != 1 or value not in COLOURS:
            raise NotationError("nodraw", token=value, expected=". or a pile colour of " + COLOURS)
        if s.phase != PH_DRAW:
            raise NotationError("nodraw: only a position in the draw phase has one", token=value, expected=".")
        s.nodraw = COLOURS.index(value)
    parts = f.listed("totals", n, "seats")
    for k in range(n):
        s.totals[k] = _integer("totals", parts[k], 0, 1000000)
    parts = f.listed("artifacts", n, "seats")
    for k in range(n):
        s.artifacts[k] = _integer("artifacts", parts[k], 0, 10000)
    return 0


cdef int _read_board(object f, BoardStruct* s) except -1:
    """cols=, pieces=, researcher=, tiles=, piles= and the masks and counts they imply."""
    cdef int n = s.nseats, p, x, t, i, st, ncards, k
    parts = f.listed("cols", n, "seats")
    for p in range(n):
        cards = _card_list(parts[p], "cols")
        colours = [COLOUR[t] for t in cards]
        if colours != sorted(colours):
            raise NotationError(f"cols: seat {p}'s columns are written colour by colour in canonical order",
                                token=parts[p], expected=f"colours in the order {COLOURS}")
        _fill_set(&s.cols[p], cards, "cols")
        for x in range(NCOLOURS):
            column = [t for t in cards if COLOUR[t] == x]
            for i, t in enumerate(column):
                # each card must have been playable on the ones below it
                if i and not (s.advance[p] >> t) & 1:
                    raise NotationError(
                        f"cols: seat {p}'s {COLOURS[x]} column: {CARD_TEXT[t]} cannot follow {CARD_TEXT[column[i - 1]]}",
                        token=parts[p], expected="each colour's cards in the order played, equal or rising"
                        + (" or, once a lower card came, equal or falling" if s.updown else " (falling needs updown=1)"))
                board_column_add(s, p, t, i == 0)
            if column:
                s.begun[p] |= 1 << x
    parts = f.listed("pieces", n, "seats")
    for p in range(n):
        if len(parts[p]) != NCOLOURS or any(ch not in ".123456789" for ch in parts[p]):
            raise NotationError(f"pieces: seat {p}", token=parts[p],
                                expected=f"{NCOLOURS} characters, . or the stone 1..9 of each path")
        for x in range(NCOLOURS):
            ch = parts[p][x]
            st = 0 if ch == "." else int(ch)
            if (st > 0) != bool(s.begun[p] & (1 << x)):
                raise NotationError(f"pieces: seat {p} has a piece on path {COLOURS[x]} exactly when it has a "
                                    f"{COLOURS[x]} column", token=parts[p])
            ncards = sum(cards_count(&s.cols[p], t) for t in range(x * NVALUES, (x + 1) * NVALUES))
            if st and st < min(NSTONES, ncards):
                raise NotationError(f"pieces: seat {p}'s {COLOURS[x]} piece stands behind its column",
                                    token=parts[p], expected=f"stone {min(NSTONES, ncards)} or beyond")
            s.stone[p][x] = st
            if 0 < st < NSTONES:
                s.movable[p] |= 1 << x
            if st > BRIDGE:
                s.crossed += 1
    parts = f.listed("researcher", n, "seats")
    for p in range(n):
        value = parts[p]
        if value == "-":
            s.researcher[p] = NONE
        elif len(value) == 1 and value in COLOURS:
            x = COLOURS.index(value)
            if not s.stone[p][x]:
                raise NotationError(f"researcher: seat {p}'s researcher is on a path where it has no piece",
                                    token=value, expected="- or the colour of one of its paths")
            s.researcher[p] = x
        else:
            raise NotationError("researcher", token=value, expected="- or a colour of " + COLOURS)
        if exp_popcount(s.begun[p]) - (0 if s.researcher[p] == NONE else 1) > NADVENTURERS:
            raise NotationError(f"researcher: seat {p} has {NADVENTURERS} adventurers and one researcher",
                                token=value, expected="the path of its fifth piece")
    parts = f.listed("tiles", NCOLOURS, "paths")
    seen = []
    empty = 0
    for x in range(NCOLOURS):
        tokens = _TILE_TOKEN.findall(parts[x])
        if "".join(tokens) != parts[x] or len(tokens) != len(PATH_SPACES[x]):
            raise NotationError(f"tiles: path {COLOURS[x]}", token=parts[x],
                                expected=f"{len(PATH_SPACES[x])} entries, each A, >, V<points> or .")
        for st, token in zip(PATH_SPACES[x], tokens):
            if token == ".":
                code = TILE_NONE
                empty += 1
                seen.append(TILE_ARTIFACT)
            elif token == "A":
                code = TILE_ARTIFACT
            elif token == ">":
                code = TILE_ARROW
            else:
                code = TILE_VP + _integer(f"tiles: path {COLOURS[x]}", token[1:], 0, 250)
            if code != TILE_NONE:
                seen.append(code)
            s.tile[x][st] = code
    if sorted(seen) != sorted(DATA["tiles"]):
        want = " ".join(_tile_text(c) for c in sorted(DATA["tiles"]))
        raise NotationError("tiles: not the board's tile set (an empty space . is a taken artifact)",
                            token=f"tiles={'/'.join(parts)}", expected=want)
    if empty > sum(s.artifacts[p] for p in range(n)):
        raise NotationError(f"tiles: {empty} artifacts taken but the seats hold fewer",
                            token=f"tiles={'/'.join(parts)}", expected="at most as many . as artifacts held")
    parts = f.listed("piles", NCOLOURS, "piles")
    for k in range(NCOLOURS):
        cards = _card_list(parts[k], "piles")
        for i, t in enumerate(cards):
            if COLOUR[t] != k:
                raise NotationError(f"piles: a card on the {COLOURS[k]} pile", token=CARD_TEXT[t],
                                    expected=f"cards of colour {COLOURS[k]}")
            if i >= PILE_CAP:
                raise NotationError("piles: more cards than the colour has", token=parts[k])
            s.piles[k * PILE_CAP + i] = t
        s.pile_n[k] = len(cards)
        if cards:
            s.nonempty |= 1 << k
    if s.nodraw != NONE and s.pile_n[s.nodraw] == 0:
        raise NotationError("nodraw names an empty pile", token=COLOURS[s.nodraw], expected="a non-empty pile or .")
    for p in range(n, MAX_SEATS):
        s.researcher[p] = 0
    return 0


cdef int _validate(BoardStruct* s) except -1:
    """Checks a filled position for what the rules guarantee (docs/board.md, "Positions")."""
    cdef int cnt[NTYPES]
    cdef int p, t, k, i, size, want
    cdef int n = s.nseats
    memset(cnt, 0, sizeof(cnt))
    for p in range(n):
        for t in range(NTYPES):
            cnt[t] += cards_count(&s.hand[p], t) + cards_count(&s.cols[p], t)
    for t in range(NTYPES):
        cnt[t] += cards_count(&s.box, t)
    for k in range(NCOLOURS):
        for i in range(s.pile_n[k]):
            cnt[s.piles[k * PILE_CAP + i]] += 1
    for i in range(s.deck_n):
        cnt[s.deck[i]] += 1
    for t in range(NTYPES):
        if cnt[t] != 2:
            raise NotationError(f"the position holds {cnt[t]} of card {CARD_TEXT[t]}, the deck has 2",
                                token=CARD_TEXT[t], expected="every card exactly once in hands, cols, piles, deck and box")
    want = REMOVED_2P if n == 2 else 0
    if cards_size(&s.box) != want:
        raise NotationError(f"box: {cards_size(&s.box)} cards", token=_set_text(&s.box),
                            expected=f"{want} cards with {n} players")
    for p in range(n):
        if not _subset(&s.known[p], &s.hand[p]):
            raise NotationError(f"known: seat {p}'s known cards are not all in its hand",
                                token=_set_text(&s.known[p]), expected="cards of that hand")
    if s.phase == PH_OVER:
        return 0
    if s.crossed >= CROSS_END:
        raise NotationError(f"pieces: {s.crossed} pieces beyond a bridge while the expedition runs",
                            expected=f"fewer than {CROSS_END}")
    if s.phase == PH_MOVE and not s.movable[s.to_move]:
        raise NotationError("phase=move but the mover has no piece below stone 9", token="phase=move",
                            expected="play or draw")
    if s.deck_n == 0:
        raise NotationError("deck: the draw pile is empty while the game runs", token="deck=-",
                            expected="at least one card")
    for p in range(n):
        size = cards_size(&s.hand[p])
        want = HAND_SIZE - (1 if p == s.to_move and s.phase != PH_PLAY else 0)
        if size != want:
            raise NotationError(f"hands: seat {p} holds {size} cards", expected=f"{want}")
    return 0


cdef bint _subset(const Cards* a, const Cards* b):
    """a is a sub-multiset of b."""
    return (a.any & ~b.any) == 0 and (a.extra & ~b.extra) == 0


# ----- why a decision is illegal (BoardState._why_illegal) ------------------------------------------

cdef str _phase_reason(const BoardStruct* s, int wanted):
    """Why a decision of phase `wanted` cannot be made in the current phase; empty when it is that phase."""
    if s.phase == wanted:
        return ""
    if s.phase == PH_MOVE:
        return "an optional step is pending: move one of your pieces (>x) or decline (>-) first"
    if wanted == PH_MOVE:
        return "no optional step is pending (an arrow tile or an advance from the lost city gives one)"
    if wanted == PH_DRAW:
        return "you play or discard a card first, then draw"
    return "you have played or discarded this turn: now you draw"


cdef str _play_reason(const BoardStruct* s, int d):
    """Why a play (`+c`, `+cR`) or discard (`-c`) breaks the rules in the play phase, or ''."""
    cdef int p = s.to_move, t = d % NTYPES, x = COLOUR[t]
    cdef int used = exp_popcount(s.begun[p]) - (0 if s.researcher[p] == NONE else 1)
    card = CARD_TEXT[t]
    if not cards_count(&s.hand[p], t):
        return f"you do not hold {card}"
    if d >= D_DISCARD:
        return ""
    if (s.begun[p] >> x) & 1:
        if d >= D_PLAY_R:
            return f"you have begun the {COLOUR_NAMES[x]} path already: +{card} plays onto its column"
        if (s.advance[p] >> t) & 1:
            return ""
        last = COLOURS[x] + RANKS[s.last[p][x]]
        if s.dir[p][x] == 2:
            return f"{card} is higher than {last}, the last card of your {COLOUR_NAMES[x]} column, which descends"
        return (f"{card} is lower than {last}, the last card of your {COLOUR_NAMES[x]} column"
                + (", which ascends" if s.updown else ""))
    if d >= D_PLAY_R:
        if s.researcher[p] != NONE:
            return f"your researcher is on the {COLOUR_NAMES[s.researcher[p]]} path already"
        return ""
    if used >= NADVENTURERS:  # then the researcher is unused: five pieces on paths leave no path to begin
        return f"your {NADVENTURERS} adventurers are on paths already: only your researcher can begin one (+{card}R)"
    return ""


cdef str _draw_reason(const BoardStruct* s, int d):
    """Why a draw (`D`, `Dx`) breaks the rules in the draw phase, or ''."""
    cdef int k = d - D_DRAW_PILE
    if d == D_DRAW_DECK:
        return ""
    if s.nodraw == k:
        return f"you discarded onto the {COLOUR_NAMES[k]} pile this turn"
    if not (s.nonempty >> k) & 1:
        return f"the {COLOUR_NAMES[k]} discard pile is empty"
    return ""


cdef str _step_reason(const BoardStruct* s, int d):
    """Why an optional step (`>x`, `>-`) breaks the rules in the move phase, or ''."""
    cdef int x = d - D_MOVE
    if d == D_MOVE_NONE:
        return ""
    if not s.stone[s.to_move][x]:
        return f"you have no piece on the {COLOUR_NAMES[x]} path"
    if s.stone[s.to_move][x] >= NSTONES:
        return f"your piece on the {COLOUR_NAMES[x]} path is on the lost city (stone {NSTONES}) and moves no further"
    return ""


cdef class BoardState(State):
    """A position of `board` (docs/board.md).

    >>> import engine
    >>> s = engine.new_game("board", seed=3, players=3, rounds=1)
    >>> s.players, s.phase, s.to_move
    (3, 'play', 0)
    >>> s.apply(s.legal_text()[-1]); s.phase
    'draw'
    """

    @property
    def players(self) -> int:
        return _bs(self).nseats

    @property
    def phase(self) -> str:
        """'play', 'move' (an optional step is pending), 'draw' or 'over'."""
        return _PHASES[_bs(self).phase]

    @property
    def turn(self) -> int:
        """Turns completed in the current expedition."""
        return _bs(self).turn

    def turns_left(self, int seat) -> int:
        """Turns with a play that `seat` still has in the game if every turn draws from the draw
        pile: the rest of this expedition and each later one (an expedition lasts longer when
        seats draw from the discard piles, and ends sooner when the pieces across the bridges
        end it; a later expedition counts its turns up to the next seat's, its starter not being
        known yet). What a clock is shared over; 0 once the game is over.

        >>> import engine
        >>> s = engine.new_game("board", seed=2, players=3, rounds=1)
        >>> [s.turns_left(seat) for seat in range(3)]
        [29, 29, 28]
        """
        self._check_seat(seat)
        cdef BoardStruct* s = _bs(self)
        cdef int dealt = NCARDS - HAND_SIZE * s.nseats - (REMOVED_2P if s.nseats == 2 else 0)
        if s.phase == PH_OVER:
            return 0
        return turns_left_of(s.phase == PH_PLAY, s.deck_n, s.max_turns - s.turn, s.to_move, seat, s.nseats,
                             s.rounds - 1 - s.round, min(dealt, s.max_turns))

    @property
    def crossed(self) -> int:
        """Pieces beyond a bridge (all seats)."""
        return _bs(self).crossed

    @property
    def options(self) -> dict:
        cdef BoardStruct* s = _bs(self)
        return {"rounds": s.rounds, "max_turns": s.max_turns, "updown": s.updown}

    def totals(self) -> list:
        """Victory points per seat (after the end, the final scores)."""
        cdef BoardStruct* s = _bs(self)
        return [s.totals[k] for k in range(s.nseats)]

    def artifacts(self) -> list:
        """Artifacts per seat (tokens of earlier expeditions and tiles taken in this one)."""
        cdef BoardStruct* s = _bs(self)
        return [s.artifacts[k] for k in range(s.nseats)]

    def piece_score(self, int seat) -> int:
        """What the seat's pieces would score if the expedition ended now (before the floor)."""
        self._check_seat(seat)
        return board_piece_score(_bs(self), seat)

    def pieces(self, int seat) -> dict:
        """The seat's pieces: {colour letter: stone}, the researcher's path under key 'R'."""
        self._check_seat(seat)
        cdef BoardStruct* s = _bs(self)
        out = {COLOURS[x]: s.stone[seat][x] for x in range(NCOLOURS) if s.stone[seat][x]}
        if s.researcher[seat] != NONE:
            out["R"] = COLOURS[s.researcher[seat]]
        return out

    def hand(self, int seat) -> list:
        """The seat's hand as card texts in canonical order."""
        self._check_seat(seat)
        return [CARD_TEXT[t] for t in _card_list(_set_text(&_bs(self).hand[seat]), "hand")]

    def box_cards(self) -> list:
        """The cards out of play this expedition (2 players) as card texts."""
        return [CARD_TEXT[t] for t in _card_list(_set_text(&_bs(self).box), "box")]

    # ----- decisions ---------------------------------------------------------------------
    def decision_to_text(self, int d) -> str:
        if D_PLAY <= d < D_PLAY + NTYPES:
            return "+" + CARD_TEXT[d]
        if D_PLAY_R <= d < D_PLAY_R + NTYPES:
            return "+" + CARD_TEXT[d - D_PLAY_R] + "R"
        if D_DISCARD <= d < D_DISCARD + NTYPES:
            return "-" + CARD_TEXT[d - D_DISCARD]
        if d == D_DRAW_DECK:
            return "D"
        if D_DRAW_PILE <= d < D_DRAW_PILE + NCOLOURS:
            return "D" + COLOURS[d - D_DRAW_PILE]
        if D_MOVE <= d < D_MOVE + NCOLOURS:
            return ">" + COLOURS[d - D_MOVE]
        if d == D_MOVE_NONE:
            return ">-"
        raise ValueError(f"{d} is not a decision id of board")

    def parse_decision(self, str text) -> int:
        expected = f"+card, +cardR, -card, D, D<colour>, ><colour> or >- (colours {COLOURS})"
        if not isinstance(text, str) or not text:
            raise NotationError("empty decision", expected=expected)
        if text[0] == "+" and len(text) in (3, 4) and text[1:3] in _CARD_INDEX:
            if len(text) == 3:
                return D_PLAY + _CARD_INDEX[text[1:3]]
            if text[3] == "R":
                return D_PLAY_R + _CARD_INDEX[text[1:3]]
        if text[0] == "-" and len(text) == 3 and text[1:] in _CARD_INDEX:
            return D_DISCARD + _CARD_INDEX[text[1:]]
        if text == "D":
            return D_DRAW_DECK
        if len(text) == 2 and text[0] == "D" and text[1] in COLOURS:
            return D_DRAW_PILE + COLOURS.index(text[1])
        if text == ">-":
            return D_MOVE_NONE
        if len(text) == 2 and text[0] == ">" and text[1] in COLOURS:
            return D_MOVE + COLOURS.index(text[1])
        raise NotationError("not a decision of board", token=text, expected=expected)

    def _why_illegal(self, int d) -> str:
        """The rule of docs/board.md that decision `d` of the seat to move breaks; empty when it
        breaks none, which is exactly when it is legal.

        >>> import engine
        >>> s = engine.new_game("board", seed=1, players=2)
        >>> s.apply("-b8"); s.why_illegal("Db"), s.why_illegal("+y4"), s.why_illegal(">y")
        ('you discarded onto the blue pile this turn', 'you have played or discarded this turn: now you draw', 'no optional step is pending (an arrow tile or an advance from the lost city gives one)')
        """
        cdef BoardStruct* s = _bs(self)
        if s.phase == PH_OVER:
            return "the game is over"
        if d < D_DRAW_DECK:
            return _phase_reason(s, PH_PLAY) or _play_reason(s, d)
        if d < D_MOVE:
            return _phase_reason(s, PH_DRAW) or _draw_reason(s, d)
        return _phase_reason(s, PH_MOVE) or _step_reason(s, d)

    def pretty(self, seat=None) -> str:
        """A text picture of the board; with `seat`, hands that seat cannot see are hidden.

        Each path is a row of its nine stones (`|` is the bridge): the stone's tile (`.` none,
        `A` artifact, `>` arrow, `V5` victory points) and the pieces on it, a seat number each,
        `*` after the researcher's.

        >>> import engine
        >>> print(engine.new_game("board", seed=2, players=2).pretty().splitlines()[0])
        board  round 1/3  turn 0  seat 0 to play  deck 64  crossed 0/5
        """
        cdef BoardStruct* s = _bs(self)
        cdef int n = s.nseats, k, x, st
        if seat is not None:
            self._check_seat(seat)
        status = "game over" if s.phase == PH_OVER else f"seat {s.to_move} to {_PHASES[s.phase]}"
        lines = [f"board  round {s.round + 1}/{s.rounds}  turn {s.turn}  {status}  deck {s.deck_n}  "
                 f"crossed {s.crossed}/{CROSS_END}"]
        header = "       "
        for st in range(1, NSTONES + 1):
            header += f"{STONE_VALUE[st]:>8}" + ("  |" if st == BRIDGE else "")
        lines.append(header)
        for x in range(NCOLOURS):
            cells = []
            for st in range(1, NSTONES + 1):
                tile = _tile_text(s.tile[x][st]) if s.tile[x][st] else ""
                pieces = ""
                for k in range(n):
                    if s.stone[k][x] == st:
                        pieces += f"{k}*" if s.researcher[k] == x else str(k)
                cells.append(f"{(tile + ' ' + pieces).strip():>8}" + ("  |" if st == BRIDGE else ""))
            pile = [CARD_TEXT[s.piles[x * PILE_CAP + k]] for k in range(s.pile_n[x])]
            lines.append(f"path {COLOURS[x]}" + "".join(cells) + f"   pile {pile[len(pile) - 1] if pile else '-'}"
                         + (f" ({len(pile)})" if len(pile) > 1 else ""))
        for k in range(n):
            if seat is None or k == seat:
                hand = " ".join(CARD_TEXT[t] for t in range(NTYPES) for _ in range(cards_count(&s.hand[k], t)))
            else:
                known = [CARD_TEXT[t] for t in range(NTYPES) for _ in range(cards_count(&s.known[k], t))]
                hand = " ".join(known + ["??"] * (cards_size(&s.hand[k]) - len(known)))
            marker = "*" if s.phase != PH_OVER and k == s.to_move else " "
            lines.append(f"seat {k}{marker} points {s.totals[k]}  artifacts {s.artifacts[k]}  "
                         f"columns {_cols_text(s, k)}  hand {hand}")
        return "\n".join(lines)

    # ----- history ---------------------------------------------------------------------------
    def revealed_text(self, tuple revealed) -> str:
        """The text of what a decision revealed to its mover (the card drawn from the draw pile):
        its cards, as a set is written."""
        return "".join([CARD_TEXT[t] for t in revealed])

    def parse_revealed(self, str text) -> tuple:
        """The inverse of `revealed_text`: the card types of its cards."""
        if not text or text == "-":
            raise NotationError("no card revealed", token=text, expected="cards, e.g. g7")
        return tuple(_card_list(text, "revealed"))

    def history(self, seat=None, bint previous=False) -> list:
        """The decisions of the current expedition as text; masked for `seat` if given (else the
        referee's record, with the cards drawn from the draw pile). With `previous`, those of the
        expedition before, including the decision that ended it (kept in memory since that
        decision was applied; not part of the notation)."""
        if seat is not None:
            self._check_seat(seat)
        out = []
        for mover, d, revealed in self._round_entries(previous):
            if seat is None or seat == mover:
                out.append(self._record_text(d, revealed))
            else:
                out.append(self.decision_to_text(d))
        return out

    # ----- positions -----------------------------------------------------------------------
    def _format(self, int viewer) -> str:
        """The full position (viewer -1) or the seat's view, with the masked history of the
        current expedition (`to_text`, `view_text`)."""
        cdef BoardStruct* s = _bs(self)
        cdef int n = s.nseats, k, x, hidden
        out = ["board", f"rounds={s.rounds}", f"max_turns={s.max_turns}", f"updown={s.updown}", f"players={n}"]
        if viewer >= 0:
            out.append(f"seat={viewer}")
        out.append(f"round={s.round + 1}/{s.rounds}")
        out.append(f"starter={s.starter}")
        out.append(f"turn={s.turn}")
        out.append(f"phase={_PHASES[s.phase]}")
        out.append("to_move=" + ("-" if s.phase == PH_OVER else str(s.to_move)))
        out.append("nodraw=" + ("." if s.nodraw == NONE else COLOURS[s.nodraw]))
        out.append("totals=" + "/".join(str(s.totals[k]) for k in range(n)))
        out.append("artifacts=" + "/".join(str(s.artifacts[k]) for k in range(n)))
        hands = []
        for k in range(n):
            if viewer < 0 or k == viewer:
                hands.append(_set_text(&s.hand[k]))
            else:
                hidden = cards_size(&s.hand[k]) - cards_size(&s.known[k])
                text = (_set_text(&s.known[k]) if s.known[k].any else "") + (f"?{hidden}" if hidden else "")
                hands.append(text or "-")
        out.append("hands=" + "/".join(hands))
        out.append("cols=" + "/".join(_cols_text(s, k) for k in range(n)))
        out.append("pieces=" + "/".join("".join(str(s.stone[k][x]) if s.stone[k][x] else "." for x in range(NCOLOURS))
                                        for k in range(n)))
        out.append("researcher=" + "/".join("-" if s.researcher[k] == NONE else COLOURS[s.researcher[k]]
                                            for k in range(n)))
        out.append("tiles=" + "/".join("".join(_tile_text(s.tile[x][st]) for st in PATH_SPACES[x])
                                       for x in range(NCOLOURS)))
        out.append("piles=" + "/".join("".join(CARD_TEXT[s.piles[x * PILE_CAP + k]] for k in range(s.pile_n[x])) or "-"
                                       for x in range(NCOLOURS)))
        if viewer >= 0:
            out.append(f"deck={s.deck_n}")
            out.append(f"box={cards_size(&s.box)}")
        else:
            out.append("deck=" + ("".join(CARD_TEXT[s.deck[k]] for k in range(s.deck_n)) or "-"))
            out.append("box=" + _set_text(&s.box))
        out.append("known=" + "/".join(_set_text(&s.known[k]) for k in range(n)))
        if viewer < 0:
            out.append(f"rng={s.rng:016x}")
        else:
            out.append("history=" + (",".join(self.history(viewer)) or "-"))
        return " ".join(out)

    @classmethod
    def from_text(cls, str text) -> BoardState:
        """Parses a full position; raises NotationError naming the bad field."""
        cdef BoardStruct s
        cdef int k
        f = FieldReader(text, "position")
        _read_header(f, &s)
        _read_progress(f, &s)
        parts = f.listed("hands", s.nseats, "seats")
        for k in range(s.nseats):
            _parse_set(&s.hand[k], parts[k], "hands")
        _read_board(f, &s)
        cards = _card_list(f.take("deck"), "deck")
        if len(cards) > DECK_CAP:
            raise NotationError("deck: too many cards", expected=f"at most {DECK_CAP}")
        for k, t in enumerate(cards):
            s.deck[k] = t
        s.deck_n = len(cards)
        _parse_set(&s.box, f.take("box"), "box")
        parts = f.listed("known", s.nseats, "seats")
        for k in range(s.nseats):
            _parse_set(&s.known[k], parts[k], "known")
        value = f.take("rng")
        if len(value) != 16 or any(ch not in "0123456789abcdef" for ch in value):
            raise NotationError("rng", token=value, expected="16 lowercase hex digits")
        s.rng = int(value, 16)
        f.finish()
        _validate(&s)
        cdef BoardState st = cls.__new__(cls)
        st._adopt(board_ops(), &s)
        return st

    @classmethod
    def parse_view(cls, str text):
        """Parses a view: (a position consistent with it, the seat, the history as text).

        The unseen cards are dealt in canonical order (docs/board.md, "Views"); determinize the
        position (State.determinized) to sample one at random.
        """
        cdef BoardStruct s
        cdef int k, seat, t, i, n
        cdef int unknown[MAX_SEATS]
        cdef int cnt[NTYPES]
        f = FieldReader(text, "view")
        _read_header(f, &s)
        n = s.nseats
        seat = f.integer("seat", 0, n - 1)
        _read_progress(f, &s)
        parts = f.listed("hands", n, "seats")
        for k in range(n):
            cards_text, q, count = parts[k].partition("?")
            if k == seat and q:
                raise NotationError("hands: the viewer's own hand is fully known", token=parts[k],
                                    expected="its cards")
            if not cards_text and not q:
                raise NotationError("hands: empty entry", token=parts[k], expected="cards, ?n or -")
            unknown[k] = _integer("hands (unknown cards)", count, 0, NCARDS) if q else 0
            _parse_set(&s.hand[k], cards_text or "-", "hands")
        _read_board(f, &s)
        deck_n = f.integer("deck", 0, DECK_CAP)
        box_n = f.integer("box", 0, NCARDS)
        parts = f.listed("known", n, "seats")
        for k in range(n):
            _parse_set(&s.known[k], parts[k], "known")
            if k != seat and _set_text(&s.known[k]) != _set_text(&s.hand[k]):
                raise NotationError(f"hands: seat {k}'s known cards disagree with known=", token=parts[k],
                                    expected=_set_text(&s.hand[k]))
        history_text = f.take("history")
        f.finish()
        history = [] if history_text == "-" else history_text.split(",")
        for t in range(NTYPES):
            cnt[t] = 2
        for k in range(n):
            for t in range(NTYPES):
                cnt[t] -= cards_count(&s.hand[k], t) + cards_count(&s.cols[k], t)
        for k in range(NCOLOURS):
            for i in range(s.pile_n[k]):
                cnt[s.piles[k * PILE_CAP + i]] -= 1
        for t in range(NTYPES):
            if cnt[t] < 0:
                raise NotationError(f"the view shows more of card {CARD_TEXT[t]} than the deck has",
                                    token=CARD_TEXT[t], expected="at most 2")
        pool = [t for t in range(NTYPES) for _ in range(cnt[t])]
        slots = sum(unknown[k] for k in range(n)) + deck_n + box_n
        if len(pool) != slots:
            raise NotationError(f"the view hides {slots} cards (unknown hand cards, deck and box) but "
                                f"{len(pool)} cards are unaccounted for", token=f"deck={deck_n} box={box_n}",
                                expected=f"{len(pool)} hidden cards")
        i = 0
        for k in range(n):
            for _ in range(unknown[k]):
                cards_add(&s.hand[k], pool[i])
                i += 1
        for k in range(deck_n):
            s.deck[k] = pool[i]
            i += 1
        s.deck_n = deck_n
        for _ in range(box_n):
            cards_add(&s.box, pool[i])
            i += 1
        _validate(&s)
        cdef BoardState st = cls.__new__(cls)
        st._adopt(board_ops(), &s)
        return st, seat, history


def new_state(seed, int players, options) -> BoardState:
    """Deals the first expedition of a new game from `seed` (options are validated here)."""
    if players not in SEATS:
        raise ValueError(f"board is played by 2, 3 or 4 players, not {players}")
    opts = resolve_options(OPTION_SPECS, options, "board")
    cdef BoardStruct s
    cdef int values[3]
    for k, spec in enumerate(OPTION_SPECS):
        values[k] = opts[spec.name]
    board_blank(&s, players, values)
    board_reset(&s, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
    cdef BoardState st = BoardState.__new__(BoardState)
    st._adopt(board_ops(), &s)
    return st
