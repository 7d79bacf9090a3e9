# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""`CardState`: the Python face of a position of `classic`, `partners` or `expedition`, its
decisions as text, its history and its picture (the notation itself is engine/cards/notation.pyx).

>>> import engine
>>> s = engine.new_game("expedition", seed=2, cost=20)
>>> type(s).__name__, s.phase, s.options
('CardState', 'play', {'rounds': 3, 'max_turns': 300, 'cost': 20})
"""
from libc.string cimport memset
from libc.stdint cimport uint64_t

from engine._core cimport State, turns_left_of, MAX_OPTIONS
from engine.cards.rules cimport *
from engine.cards.notation cimport lc_parse, lc_write

from engine.cards.notation import (CARD_TEXT, COLOURS, DECISION_EXPECTED, DECISION_INDEX,
                                   DECISION_TEXT, PHASES, PILE_LETTERS, card_list)
from engine.cards.rules import EDITION_NAMES, OPTION_SPECS
from engine.errors import NotationError
from engine.options import resolve_options


cdef inline LCState* _lc(State st):
    return <LCState*>st.ptr


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
        return PHASES[_lc(self).phase]

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
        cdef const LCConfig* c = lc_config(s.edition)
        if s.phase == PH_OVER:
            return 0
        return turns_left_of(s.phase == PH_PLAY, s.deck_n, s.max_turns - s.turn, s.to_move, seat, s.nseats,
                             s.rounds - 1 - s.round, min(c.deck_size - s.nseats * c.hand_size, s.max_turns))

    @property
    def options(self) -> dict:
        """The rule options of the match, by name."""
        cdef int values[MAX_OPTIONS]
        cdef int n = lc_options(self.ptr, values)
        return {spec.name: values[k] for k, spec in enumerate(OPTION_SPECS[_lc(self).edition][:n])}

    def totals(self) -> list:
        """Scores of the completed rounds per row (seat; team in partners)."""
        cdef LCState* s = _lc(self)
        return [s.totals[k] for k in range(lc_config(s.edition).nrows)]

    def row_score(self, int row) -> int:
        """What a row's expeditions would score if the round ended now."""
        if not 0 <= row < 2:
            raise ValueError(f"row {row} out of range 0..1")
        return lc_row_score(_lc(self), row)

    def expedition_score(self, int row, str colour) -> int:
        """What one expedition (row, colour letter) would score if the round ended now."""
        cdef LCState* s = _lc(self)
        letters = COLOURS[s.edition]
        if not 0 <= row < 2 or len(colour) != 1 or colour not in letters:
            raise ValueError(f"expected a row 0..1 and a colour of {letters}, got {row}, {colour!r}")
        return lc_expedition_score(s, row, letters.index(colour))

    # ----- decisions ---------------------------------------------------------------------
    def decision_to_text(self, int d) -> str:
        cdef int e = _lc(self).edition
        if 0 <= d < N_DECISIONS:
            text = DECISION_TEXT[e][d]
            if text is not None:
                return text
        raise ValueError(f"{d} is not a decision id of {EDITION_NAMES[e]}")

    def parse_decision(self, str text) -> int:
        cdef int e = _lc(self).edition
        d = DECISION_INDEX[e].get(text)
        if d is not None:
            return d
        if lc_config(e).passes and len(text) == 5 and text[0] == ">":
            d = DECISION_INDEX[e].get(">" + text[3:5] + text[1:3])  # the two cards in the other order
            if d is not None:
                return d
        if not text:
            raise NotationError("empty decision", expected=DECISION_EXPECTED[e])
        raise NotationError(f"not a decision of {EDITION_NAMES[e]}", token=text, expected=DECISION_EXPECTED[e])

    def _why_illegal(self, int d) -> str:
        """The rule a decision of the seat to move breaks (see `State.why_illegal`)."""
        cdef LCState* s = _lc(self)
        cdef const LCConfig* c = lc_config(s.edition)
        cdef int p = s.to_move, t1 = 0, t2 = 0, k
        cdef CardSet* hand = &s.hand[p]
        if d < D_DRAW_DECK:  # a play or a discard
            t1 = d % 64
            card = self.decision_to_text(D_DISCARD + t1)[1:]
            if s.phase != PH_PLAY:
                return "you have played or discarded this turn: now you draw"
            if not (hand.any >> t1) & 1:
                return f"you do not hold {card}"
            if c.value[t1] == 0:
                return f"a wager goes only on an expedition of its colour with no number card yet ({card})"
            return f"{card} is not higher than the highest card of your expedition of its colour"
        if d < D_PASS:  # a draw
            if s.phase != PH_DRAW:
                return "you play or discard a card first, then draw"
            k = d - D_DRAW_PILE
            if k < 0:
                return "not a draw of this position"
            if s.nodraw == k:
                return "you discarded onto that pile this turn"
            if not (s.nonempty >> k) & 1:
                return "that discard pile is empty"
            return "not a draw of this position"
        k = d - D_PASS
        while (t2 + 1) * (t2 + 2) // 2 <= k:
            t2 += 1
        t1 = k - t2 * (t2 + 1) // 2
        if s.phase != PH_PLAY:
            return "you have played or discarded this turn: now you draw"
        if not c.passes:
            return f"{EDITION_NAMES[s.edition]} has no passing of cards"
        if cs_size(hand) < c.min_hand + 2:
            return f"a pass must leave you at least {c.min_hand} cards"
        if cs_count(hand, c, t1) < 1 + (t1 == t2) or cs_count(hand, c, t2) < 1:
            return "you do not hold both cards"
        return "not a pass of this position"

    # ----- history ---------------------------------------------------------------------------
    def revealed_text(self, tuple revealed) -> str:
        """The text of what a decision revealed to its mover (the card drawn from the draw pile):
        its cards, as a set or stack is written."""
        texts = CARD_TEXT[_lc(self).edition]
        return "".join([texts[t] for t in revealed])

    def parse_revealed(self, str text) -> tuple:
        """The inverse of `revealed_text`: the card types of its cards.

        >>> import engine
        >>> state = engine.new_game("classic", seed=1)
        >>> state.parse_revealed("g7"), state.revealed_text(state.parse_revealed("g7"))
        ((36,), 'g7')
        """
        if not text or text == "-":
            raise NotationError("no card revealed", token=text, expected="cards, e.g. g7")
        return tuple(card_list(_lc(self).edition, text, "revealed"))

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
        cdef int mover, d, viewer = -1
        if seat is not None:
            self._check_seat(seat)
            viewer = seat
        texts = DECISION_TEXT[e]
        out = []
        for mover, d, revealed in self._round_entries(previous):
            if viewer < 0 or viewer == mover:
                out.append(self._record_text(d, revealed))
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
        cdef const LCConfig* c = lc_config(e)
        if seat is not None:
            self._check_seat(seat)
        texts = CARD_TEXT[e]
        if s.phase == PH_OVER:
            status = "match over"
        else:
            status = f"seat {s.to_move} to {PHASES[s.phase]}"
        lines = [f"{EDITION_NAMES[e]}  round {s.round + 1}/{s.rounds}  turn {s.turn}  {status}  "
                 f"totals {' / '.join(str(s.totals[k]) for k in range(c.nrows))}  deck {s.deck_n}"]
        piles = []
        for k in range(c.npiles):
            cards = [texts[s.piles[k * c.pile_cap + i]] for i in range(s.pile_n[k])]
            piles.append(f"{PILE_LETTERS[e][k]}: {' '.join(cards[max(0, len(cards) - 4):]) or '-'}" + (" …" if len(cards) > 4 else ""))
        lines.append("piles  " + "  |  ".join(piles))
        for row in range(c.nrows):
            cells = []
            for col in range(c.ncolours):
                cards = [texts[t][1] * cs_count(&s.rows[row], c, t) for t in range(c.ntypes)
                         if c.colour[t] == col and cs_count(&s.rows[row], c, t)]
                if cards:
                    cells.append(f"{COLOURS[e][col]}: {''.join(cards)} ({lc_expedition_score(s, row, col):+d})")
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
    def _format(self, int viewer) -> str:
        """The full position (viewer -1) or the seat's view, with the masked history of the
        current round (`to_text`, `view_text`)."""
        return lc_write(_lc(self), viewer, self._record, self._round_start)

    @classmethod
    def from_text(cls, str text) -> CardState:
        """Parses a full position; raises NotationError naming the bad field."""
        return read_position(text, -1, cls)

    @classmethod
    def parse_view(cls, str text) -> tuple:
        """Parses a view: (a position consistent with it, the seat, the history as its text:
        comma-separated, `-` for none).

        The position deals the cards the seat cannot see in canonical order; determinize it
        (State.determinized) to sample one at random.
        """
        return read_view(text, -1, cls)


def read_position(str text, int edition=-1, type cls=CardState) -> CardState:
    """Parses a full position of card edition `edition` (its index; -1: any) as a `cls`.

    >>> import engine
    >>> read_position(engine.new_game("partners", seed=1).to_text(), 1).edition
    'partners'
    >>> read_position(engine.new_game("partners", seed=1).to_text(), 0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engine.errors.NotationError: not a classic position: 'partners' (expected classic)
    """
    cdef LCState s
    cdef int seat
    lc_parse(text, &s, &seat, edition, False)
    return _card_state(cls, &s)


def read_view(str text, int edition=-1, type cls=CardState) -> tuple:
    """Parses a view of card edition `edition` (-1: any): (state, seat, history text)."""
    cdef LCState s
    cdef int seat = 0
    history = lc_parse(text, &s, &seat, edition, True)
    return _card_state(cls, &s), seat, history


cdef CardState _card_state(type cls, LCState* s):
    cdef CardState st = cls.__new__(cls)
    st._adopt(lc_ops(s.edition), s)
    return st


def new_state(str edition, seed, options) -> CardState:
    """Deals the first round of a new match from `seed` (options validated here).

    >>> new_state("partners", 5, {"rounds": 1}).options
    {'rounds': 1, 'max_turns': 300}
    """
    if edition not in EDITION_NAMES:
        raise ValueError(f"not a card edition: {edition!r}")
    cdef int e = EDITION_NAMES.index(edition)
    cdef LCState s
    cdef int values[MAX_OPTIONS]
    specs = OPTION_SPECS[e]
    opts = resolve_options(specs, options, edition)
    for k, spec in enumerate(specs):
        values[k] = opts[spec.name]
    lc_blank(&s, e, values)
    lc_reset(&s, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
    return _card_state(CardState, &s)


def expedition_score(str edition, cards, cost=None) -> int:
    """Scores one colour's expedition given as card texts (for tests and tools).

    >>> expedition_score("classic", ["yW", "yW", "yW"])
    -80
    """
    cdef int e = EDITION_NAMES.index(edition)
    cdef LCState s
    memset(&s, 0, sizeof(LCState))
    s.edition = e
    s.cost = (OPTION_SPECS[e][2].default if e == ED_EXPEDITION else FIXED_COST) if cost is None else cost
    cols = set()
    for card in cards:
        (t,) = card_list(e, card, "cards")
        if cs_count(&s.rows[0], lc_config(e), t) >= lc_config(e).copies[t]:
            raise NotationError("cards: more copies than the deck has", token=card)
        cols.add(lc_config(e).colour[t])
        cs_add(&s.rows[0], lc_config(e), t)
    if len(cols) > 1:
        raise ValueError("an expedition holds cards of one colour")
    return lc_expedition_score(&s, 0, cols.pop()) if cols else 0
