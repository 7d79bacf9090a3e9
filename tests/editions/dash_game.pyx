# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""`dash`, a tiny deck-building race: the tests' edition of the widened `GameOps` (issue 32, item 3).
Its rules in C behind a `GameOps` table and its Python face (`DashState`) are here; its record is
tests/editions/dash_edition.py. The test session compiles it (tests/editions/build.py); it is no
part of the installed package.

The rules. 2-4 seats race along a track from 0 to `goal` (a rule option). Each seat owns eight
number cards, 1 1 1 2 2 3 3 4, shuffled into its own draw pile, and draws a hand of four. On its
turn a seat plays cards from its hand one at a time, each moving it forward by its value: it must
play one, may play more, and then ends its turn (`E`): it draws up to four cards, and when its draw
pile runs out it shuffles its discard pile into a new draw pile and draws on. A card played goes to
its seat's discard pile at once (the same as at the end of the turn: nothing reads the pile before
then). The first seat to reach the goal wins at once; every turn moves a seat, so a race ends.

What it widens. `E` shows its mover several cards, the ones it draws in the order drawn, across a
reshuffle (`E:3124`; the others read `E`), and never the order of what stays in a pile. A race is one
long round (`rounds` 1), so a view's history is the whole race. `GameOps.margin` is 0: only the
result counts. `returns` gives the winner 1; the seats behind it are not ranked among themselves
(how far they got does not matter), so they tie for the places behind: each gets half a share of
every other loser it ties, (n - 2) / 2 / (n - 1) — 0 in two seats, 1/4 in three, 1/3 in four.
While the race runs every seat is even (½).

What a seat knows. Its own hand and the size and contents (not the order) of its own draw pile;
every position, discard pile and pile size; and of another hand, the cards known to be in it
(`known`): when a draw pile runs out, the whole hand then is what its seat had outside its public
discard pile, so all of it becomes known; a card of a value played from a hand makes one known
card of that value unknown (it may have been that one). `determinize` keeps those and deals the
rest of each other seat's hand and draw pile again, and reorders every draw pile.

>>> s = new_state(3, 2, {"goal": 30})
>>> s.hand(0), s.legal_text()
([1, 2, 2, 4], ['+1', '+2', '+4'])
>>> s.play("+4"), s.play("+2"), s.play("+2"), s.play("+1"), s.play("E")
('+4', '+2', '+2', '+1', 'E:3131')
>>> s.record()[-1], s.positions(), s.view_text(1).split()[-3:]
((0, 4, (3, 1, 3, 1)), [9, 0], ['discards=1224/-', 'piles=0/4', 'history=+4,+2,+2,+1,E'])
"""
from libc.string cimport memcpy, memset
from libc.stdint cimport uint8_t, uint64_t

from engine._core cimport GameOps, Rng, State, rank_returns, rng_below, rng_next, rules_of, MAX_SEATS

from engine.errors import NotationError
from engine.options import OptionSpec, resolve_options
from engine.textfields import FieldReader, integer

cdef enum:
    NVALUES = 4           # card values 1..4
    NCARDS = 8            # cards a seat owns
    HAND_SIZE = 4

# Decision ids: play a card of value v is D_PLAY + v - 1; sorted ids are notation order.
cdef enum:
    D_PLAY = 0
    D_END = 4
    N_DECISIONS = 5

cdef enum:
    PH_PLAY = 0           # the turn's first card is still to be played
    PH_MORE = 1           # play another card or end the turn
    PH_OVER = 2

cdef enum:
    NONE = 255

NAME = "dash"
PHASES = ("play", "more", "over")
SEATS = (2, 3, 4)
"""The numbers of players (a field of the state, not a rule option)."""
OPTION_SPECS = (OptionSpec("goal", 30, 5, 200, "the track's length: the first seat to reach it wins"),)
"""The rule options in the order of `dash_options`."""
DECK = (1, 1, 1, 2, 2, 3, 3, 4)
"""The cards every seat owns."""
_DECK_COUNT = tuple(DECK.count(v) for v in range(1, NVALUES + 1))


# The position. Field order leaves no padding and unused entries stay zero, so equal positions
# are equal bytes.
ctypedef struct DashStruct:
    uint64_t rng                          # the reshuffles to come
    uint8_t nseats
    uint8_t goal
    uint8_t to_move                       # NONE once the race is won
    uint8_t phase
    uint8_t winner                        # NONE while the race runs
    uint8_t _pad[3]
    uint8_t pos[MAX_SEATS]                # 0..goal
    uint8_t hand[MAX_SEATS][NVALUES]      # cards by value (index value - 1)
    uint8_t known[MAX_SEATS][NVALUES]     # the cards of the hand every seat knows are there
    uint8_t discard[MAX_SEATS][NVALUES]
    uint8_t pile_n[MAX_SEATS]
    uint8_t pile[MAX_SEATS][NCARDS]       # values, bottom first: pile[p][pile_n - 1] is drawn next


# ----- rules ------------------------------------------------------------------------------------

cdef inline int _size(const uint8_t* counts) noexcept nogil:
    return counts[0] + counts[1] + counts[2] + counts[3]


cdef void _shuffle(uint8_t* cards, int n, Rng* rng) noexcept nogil:
    cdef int i, j
    cdef uint8_t t
    for i in range(n - 1, 0, -1):
        j = rng_below(rng, i + 1)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t


cdef int _draw(DashStruct* s, int p, int* out) noexcept nogil:
    """Seat p draws up to HAND_SIZE, shuffling its discard pile into a new draw pile when the draw
    pile runs out; writes the values drawn, in order, into `out` (unless NULL); returns how many.
    Hand, draw pile and discard pile always hold a seat's eight cards, so a hand can be refilled."""
    cdef int n = 0, need = HAND_SIZE - _size(s.hand[p]), v, k
    cdef Rng rng
    while n < need:
        if s.pile_n[p] == 0:
            # All the seat has outside its public discard pile is in its hand now: all of it is known.
            memcpy(s.known[p], s.hand[p], NVALUES)
            k = 0
            for v in range(NVALUES):
                while s.discard[p][v]:
                    s.pile[p][k] = v + 1
                    s.discard[p][v] -= 1
                    k += 1
            rng.x = s.rng
            _shuffle(s.pile[p], k, &rng)
            s.rng = rng.x
            s.pile_n[p] = k
        s.pile_n[p] -= 1
        v = s.pile[p][s.pile_n[p]]
        s.pile[p][s.pile_n[p]] = 0
        s.hand[p][v - 1] += 1
        if out != NULL:
            out[n] = v
        n += 1
    return n


cdef int dash_num_seats(const void* sp) noexcept nogil:
    return (<const DashStruct*>sp).nseats


cdef int dash_team_of(const void* sp, int seat) noexcept nogil:
    return seat


cdef int dash_to_move(const void* sp) noexcept nogil:
    cdef const DashStruct* s = <const DashStruct*>sp
    return -1 if s.phase == PH_OVER else s.to_move


cdef int dash_round_index(const void* sp) noexcept nogil:
    return 0


cdef int dash_rounds(const void* sp) noexcept nogil:
    return 1


cdef int dash_legal(const void* sp, int* out) noexcept nogil:
    cdef const DashStruct* s = <const DashStruct*>sp
    cdef int n = 0, v
    if s.phase == PH_OVER:
        return 0
    for v in range(NVALUES):
        if s.hand[s.to_move][v]:
            out[n] = D_PLAY + v
            n += 1
    if s.phase == PH_MORE:
        out[n] = D_END
        n += 1
    return n


cdef int dash_random_decision(const void* sp, Rng* rng) noexcept nogil:
    cdef int moves[N_DECISIONS]
    cdef int n = dash_legal(sp, moves)
    return moves[rng_below(rng, n)]


cdef void dash_apply(void* sp, int d) noexcept nogil:
    cdef DashStruct* s = <DashStruct*>sp
    cdef int p = s.to_move, v = d - D_PLAY
    if d == D_END:
        _draw(s, p, NULL)
        s.to_move = p + 1 if p + 1 < s.nseats else 0
        s.phase = PH_PLAY
        return
    s.hand[p][v] -= 1
    if s.known[p][v]:
        s.known[p][v] -= 1  # the card played may have been the known one
    s.discard[p][v] += 1
    s.pos[p] = min(s.goal, s.pos[p] + v + 1)
    if s.pos[p] == s.goal:
        s.winner = p
        s.to_move = NONE
        s.phase = PH_OVER
    else:
        s.phase = PH_MORE


cdef void dash_scores(const void* sp, double* out) noexcept nogil:
    """How far each seat got."""
    cdef const DashStruct* s = <const DashStruct*>sp
    cdef int i
    for i in range(s.nseats):
        out[i] = s.pos[i]


cdef void dash_returns(const void* sp, double* out) noexcept nogil:
    """The winner beats every other seat; the others tie among themselves (see the module's text)."""
    cdef const DashStruct* s = <const DashStruct*>sp
    cdef int team[MAX_SEATS]
    cdef double key[MAX_SEATS]
    cdef int i
    for i in range(s.nseats):
        team[i] = i
        key[i] = 1.0 if i == s.winner else 0.0
    rank_returns(s.nseats, team, key, out)


cdef int dash_reveal(const void* sp, int d, int* out) noexcept nogil:
    """`E` shows its mover the cards it draws, in order (drawn on a copy: the same cards, as the
    reshuffles come from the state's generator)."""
    cdef const DashStruct* s = <const DashStruct*>sp
    cdef DashStruct after
    if d != D_END or s.phase != PH_MORE:
        return 0
    memcpy(&after, s, sizeof(DashStruct))
    return _draw(&after, s.to_move, out)


cdef void dash_determinize(void* sp, int seat, Rng* rng) noexcept nogil:
    """Deals again what `seat` cannot see: another seat's hand but its known cards, with its draw
    pile (they hold together what that seat has outside its discard pile), and the order of every
    draw pile, its own too; the generator of the reshuffles to come is drawn anew."""
    cdef DashStruct* s = <DashStruct*>sp
    cdef uint8_t pool[NCARDS]
    cdef int o, v, i, n, hidden
    for o in range(s.nseats):
        if o == seat:
            _shuffle(s.pile[o], s.pile_n[o], rng)
            continue
        n = 0
        for v in range(NVALUES):
            for i in range(s.hand[o][v] - s.known[o][v]):
                pool[n] = v + 1
                n += 1
        hidden = n
        for i in range(s.pile_n[o]):
            pool[n] = s.pile[o][i]
            n += 1
        _shuffle(pool, n, rng)
        memcpy(s.hand[o], s.known[o], NVALUES)
        for i in range(hidden):
            s.hand[o][pool[i] - 1] += 1
        for i in range(hidden, n):
            s.pile[o][i - hidden] = pool[i]
    s.rng = rng_next(rng)


cdef int dash_options(const void* sp, int* out) noexcept nogil:
    out[0] = (<const DashStruct*>sp).goal
    return 1


cdef void dash_blank(DashStruct* s, int nseats, int goal) noexcept nogil:
    """A race of `nseats` to `goal` with no card anywhere yet."""
    memset(s, 0, sizeof(DashStruct))
    s.nseats = nseats
    s.goal = goal
    s.winner = NONE


cdef void dash_reset(void* sp, uint64_t seed) noexcept nogil:
    """A new race with the same seats and goal: each seat's cards shuffled from `seed`, four drawn."""
    cdef DashStruct* s = <DashStruct*>sp
    cdef Rng rng
    cdef int p, i
    dash_blank(s, s.nseats, s.goal)
    rng.x = seed
    for p in range(s.nseats):
        for i in range(NCARDS):
            s.pile[p][i] = DECK_C[i]
        _shuffle(s.pile[p], NCARDS, &rng)
        s.pile_n[p] = NCARDS
    s.rng = rng.x
    for p in range(s.nseats):
        _draw(s, p, NULL)


cdef uint8_t DECK_C[NCARDS]
for _i, _v in enumerate(DECK):
    DECK_C[_i] = _v

cdef GameOps OPS


cdef void _build_ops():
    OPS.name = b"dash"
    OPS.state_size = sizeof(DashStruct)
    OPS.num_decision_ids = N_DECISIONS
    OPS.num_seats = dash_num_seats
    OPS.team_of = dash_team_of
    OPS.to_move = dash_to_move
    OPS.round_index = dash_round_index
    OPS.rounds = dash_rounds
    OPS.legal = dash_legal
    OPS.apply = dash_apply
    OPS.random_decision = dash_random_decision
    OPS.scores = dash_scores
    OPS.returns = dash_returns
    OPS.determinize = dash_determinize
    OPS.reveal = dash_reveal
    OPS.playout = NULL  # the generic loop (random_decision + apply) serves
    OPS.reset = dash_reset
    OPS.margin = 0      # a race: only the result counts
    OPS.options = dash_options


_build_ops()
RULES = rules_of(&OPS)
"""The rules as the Python object the edition's record carries."""


# ----- the Python face --------------------------------------------------------------------------

cdef inline DashStruct* _ds(State st):
    return <DashStruct*>st.ptr


cdef str _counts_text(const uint8_t* counts):
    """A set's cards, values ascending (`-`: none)."""
    return "".join([str(v + 1) * counts[v] for v in range(NVALUES)]) or "-"


def _cards(str text, str field) -> list:
    """The values of a card text (`-`: none), in the order written."""
    if text == "-":
        return []
    if not text.isascii() or not text.isdigit() or any(ch not in "1234" for ch in text):
        raise NotationError(f"{field}: cards are the digits 1..4", token=text, expected="cards like 1124, or - for none")
    return [int(ch) for ch in text]


cdef int _read_counts(uint8_t* counts, str text, str field) except -1:
    """A hand, known set or discard pile: its cards in ascending order."""
    values = _cards(text, field)
    if values != sorted(values):
        raise NotationError(f"{field}: a set's cards are written in ascending order", token=text,
                            expected="".join(map(str, sorted(values))))
    memset(counts, 0, NVALUES)
    for v in values:
        counts[v - 1] += 1
    return 0


def _parse_decision(str text) -> int:
    if text == "E":
        return D_END
    if len(text) == 2 and text[0] == "+" and text[1] in "1234":
        return D_PLAY + int(text[1]) - 1
    raise NotationError("not a decision of dash" if text else "empty decision", token=text or None,
                        expected="+1, +2, +3, +4 or E")


def _parse_revealed(str text) -> tuple:
    if not 1 <= len(text) <= HAND_SIZE:
        raise NotationError("revealed: one to four cards drawn", token=text, expected="cards like 3124")
    return tuple(_cards(text, "revealed"))


def _history(str text) -> list:
    """A view's history: decisions, the cards the viewer's own `E` drew after a colon."""
    entries = [] if text == "-" else text.split(",")
    for entry in entries:
        decision, colon, revealed = entry.partition(":")
        if _parse_decision(decision) != D_END and colon:
            raise NotationError("history: only an E shows the cards drawn", token=entry, expected=decision)
        if colon:
            _parse_revealed(revealed)
    return entries


cdef class DashState(State):
    """A position of `dash` (see the module's text).

    >>> s = new_state(1, 3, {"goal": 20})
    >>> s.players, s.phase, s.to_move, s.options
    (3, 'play', 0, {'goal': 20})
    >>> s.apply(s.legal()[0]); s.phase, s.legal_text()[-1]
    ('more', 'E')
    """

    @property
    def players(self) -> int:
        return _ds(self).nseats

    @property
    def phase(self) -> str:
        """'play' (the turn's first card is to be played), 'more' (play another or end the turn)
        or 'over'."""
        return PHASES[_ds(self).phase]

    @property
    def options(self) -> dict:
        return {"goal": _ds(self).goal}

    def positions(self) -> list:
        """How far each seat got."""
        cdef DashStruct* s = _ds(self)
        return [s.pos[k] for k in range(s.nseats)]

    def hand(self, int seat) -> list:
        """The seat's hand, values ascending."""
        self._check_seat(seat)
        return _cards(_counts_text(_ds(self).hand[seat]), "hand")

    def known(self, int seat) -> list:
        """The cards of the seat's hand that every seat knows are there, values ascending."""
        self._check_seat(seat)
        return _cards(_counts_text(_ds(self).known[seat]), "known")

    def discard(self, int seat) -> list:
        """The seat's discard pile, values ascending."""
        self._check_seat(seat)
        return _cards(_counts_text(_ds(self).discard[seat]), "discard")

    def pile(self, int seat) -> list:
        """The seat's draw pile, bottom first (the last card is drawn next)."""
        self._check_seat(seat)
        return _pile_list(_ds(self), seat)

    def turns_left(self, int seat) -> int:
        """The turns `seat` still has if each turn played its whole hand (8.5 steps on average):
        what a clock is shared over; 0 once the race is over.

        >>> new_state(1, 2, {"goal": 30}).turns_left(1)
        4
        """
        self._check_seat(seat)
        cdef DashStruct* s = _ds(self)
        if s.phase == PH_OVER:
            return 0
        return (2 * (s.goal - s.pos[seat]) + 16) // 17  # at least 1: no seat is at the goal yet

    # ----- decisions ---------------------------------------------------------------------------
    def decision_to_text(self, int d) -> str:
        if D_PLAY <= d < D_PLAY + NVALUES:
            return f"+{d - D_PLAY + 1}"
        if d == D_END:
            return "E"
        raise ValueError(f"{d} is not a decision id of dash")

    def parse_decision(self, str text) -> int:
        return _parse_decision(text)

    def revealed_text(self, tuple revealed) -> str:
        """The cards an `E` drew, in the order drawn: `3124`."""
        return "".join(map(str, revealed))

    def parse_revealed(self, str text) -> tuple:
        """The inverse of `revealed_text`.

        >>> new_state(1, 2, {}).parse_revealed("3124")
        (3, 1, 2, 4)
        """
        return _parse_revealed(text)

    def history(self, seat=None, bint previous=False) -> list:
        """The decisions of the race as text (one long round: all of them); masked for `seat` if
        given (another seat's `E` without the cards it drew), else the referee's record. `previous`
        (the round before) is always empty: a race has one round."""
        if seat is not None:
            self._check_seat(seat)
        return [self._record_text(d, revealed) if seat is None or seat == mover else self.decision_to_text(d)
                for mover, d, revealed in self._round_entries(previous)]

    def pretty(self, seat=None) -> str:
        """A text picture of the race; with `seat`, what that seat cannot see is hidden.

        >>> print(new_state(1, 2, {"goal": 20}).pretty(1))
        dash  goal 20  seat 0 to play
        seat 0*  at  0  hand ?? ?? ?? ??  pile 4  discard -
        seat 1   at  0  hand 1 1 2 4  pile 4  discard -
        """
        cdef DashStruct* s = _ds(self)
        cdef int k
        if seat is not None:
            self._check_seat(seat)
        status = f"seat {s.winner} won" if s.phase == PH_OVER else f"seat {s.to_move} to {PHASES[s.phase]}"
        lines = [f"dash  goal {s.goal}  {status}"]
        for k in range(s.nseats):
            known = self.known(k)
            if seat is None or seat == k:
                hand = " ".join(map(str, self.hand(k))) or "-"
            else:
                hand = " ".join([str(v) for v in known] + ["??"] * (_size(s.hand[k]) - len(known))) or "-"
            marker = "*" if s.phase != PH_OVER and k == s.to_move else " "
            lines.append(f"seat {k}{marker}  at {s.pos[k]:>2}  hand {hand}  pile {s.pile_n[k]}  "
                         f"discard {' '.join(map(str, self.discard(k))) or '-'}")
        return "\n".join(lines)

    # ----- positions and views (to_text, view_text, view) --------------------------------------
    def _format(self, int viewer) -> str:
        """The one writer: the full position (viewer -1) or a seat's view, with the race's history
        masked for it. A view shows another hand as its size, every draw pile as its size."""
        cdef DashStruct* s = _ds(self)
        cdef int k, n = s.nseats
        out = [NAME, f"goal={s.goal}", f"players={n}"]
        if viewer >= 0:
            out.append(f"seat={viewer}")
        out.append("to_move=" + ("-" if s.phase == PH_OVER else str(s.to_move)))
        out.append(f"phase={PHASES[s.phase]}")
        out.append("pos=" + "/".join([str(s.pos[k]) for k in range(n)]))
        out.append("hands=" + "/".join([_counts_text(s.hand[k]) if viewer < 0 or k == viewer
                                        else f"?{_size(s.hand[k])}" for k in range(n)]))
        out.append("known=" + "/".join([_counts_text(s.known[k]) for k in range(n)]))
        out.append("discards=" + "/".join([_counts_text(s.discard[k]) for k in range(n)]))
        if viewer < 0:
            out.append("piles=" + "/".join(["".join(map(str, self.pile(k))) or "-" for k in range(n)]))
            out.append(f"rng={s.rng:016x}")
        else:
            out.append("piles=" + "/".join([str(s.pile_n[k]) for k in range(n)]))
            out.append("history=" + (",".join(self.history(viewer)) or "-"))
        return " ".join(out)

    @classmethod
    def from_text(cls, str text) -> DashState:
        """Parses a full position; raises NotationError naming the bad field."""
        return _read(cls, text, False)[0]

    @classmethod
    def parse_view(cls, str text) -> tuple:
        """Parses a view: (a position consistent with it, the seat, the history as a list). The
        cards the seat cannot see are dealt in ascending order (hands, then the draw piles bottom
        first); determinize it (State.determinized) to sample one at random."""
        return _read(cls, text, True)


cdef tuple _read(type cls, str text, bint view):
    """The one parser of positions and views: (state, seat or -1, history or None)."""
    cdef DashStruct s
    cdef int n, k, v, c, seat = -1
    cdef int hidden[MAX_SEATS]
    f = FieldReader(text, "view" if view else "position")
    if f.first != NAME:
        raise NotationError(f"not a dash {f.what}", token=f.first, expected=NAME)
    goal = resolve_options(OPTION_SPECS, f.options(OPTION_SPECS), NAME)["goal"]
    n = f.integer("players", min(SEATS), max(SEATS))
    dash_blank(&s, n, goal)
    if view:
        seat = f.integer("seat", 0, n - 1)
    mover = f.take("to_move")
    phase = f.take("phase")
    if phase not in PHASES:
        raise NotationError("phase", token=phase, expected="play, more or over")
    s.phase = PHASES.index(phase)
    if s.phase == PH_OVER:
        if mover != "-":
            raise NotationError("to_move: the race is over", token=mover, expected="-")
        s.to_move = NONE
    else:
        s.to_move = integer("to_move", mover, 0, n - 1)
    for k, value in enumerate(f.listed("pos", n, "seats")):
        s.pos[k] = integer("pos", value, 0, goal)
    hands = f.listed("hands", n, "seats")
    for k, value in enumerate(f.listed("known", n, "seats")):
        _read_counts(s.known[k], value, "known")
    for k in range(n):
        hidden[k] = 0
        if view and k != seat:
            if not hands[k].startswith("?"):
                raise NotationError(f"hands: seat {k}'s hand is hidden from seat {seat}", token=hands[k],
                                    expected="? and its number of cards, e.g. ?4")
            hidden[k] = integer("hands", hands[k][1:], 0, HAND_SIZE) - _size(s.known[k])
            if hidden[k] < 0:
                raise NotationError(f"known: seat {k}'s hand holds fewer cards", token=hands[k],
                                    expected=f"at least {_size(s.known[k])} cards")
            memcpy(s.hand[k], s.known[k], NVALUES)  # its unknown cards are dealt below
        else:
            _read_counts(s.hand[k], hands[k], "hands")
    for k, value in enumerate(f.listed("discards", n, "seats")):
        _read_counts(s.discard[k], value, "discards")
    piles = f.listed("piles", n, "seats")
    history = None
    if view:
        for k in range(n):
            s.pile_n[k] = integer("piles", piles[k], 0, NCARDS)
        history = _history(f.take("history"))
    else:
        for k in range(n):
            cards = _cards(piles[k], "piles")
            if len(cards) > NCARDS:
                raise NotationError(f"piles: seat {k} owns {NCARDS} cards", token=piles[k])
            for i, v in enumerate(cards):
                s.pile[k][i] = v
            s.pile_n[k] = len(cards)
        value = f.take("rng")
        if len(value) != 16 or any(ch not in "0123456789abcdef" for ch in value):
            raise NotationError("rng", token=value, expected="16 lowercase hex digits")
        s.rng = int(value, 16)
    f.finish()
    for k in range(n):
        # What seat k owns beyond the cards the text places: its draw pile (and unknown hand cards).
        rest = []
        for v in range(NVALUES):
            c = _DECK_COUNT[v] - s.hand[k][v] - s.discard[k][v]
            if c < 0:
                raise NotationError(f"seat {k} shows more cards of value {v + 1} than it owns", token=hands[k],
                                    expected=f"the cards {''.join(map(str, DECK))} in all")
            rest.extend([v + 1] * c)
        if not view:
            if sorted(_pile_list(&s, k)) != rest:
                raise NotationError(f"piles: seat {k}'s draw pile holds the cards it has nowhere else",
                                    token=piles[k], expected="".join(map(str, rest)) + " in any order")
        elif len(rest) != hidden[k] + s.pile_n[k]:
            raise NotationError(f"piles: seat {k} owns {NCARDS} cards", token=piles[k],
                                expected=f"{len(rest) - hidden[k]} in its draw pile")
        else:
            for v in rest[:hidden[k]]:
                s.hand[k][v - 1] += 1
            for i, v in enumerate(rest[hidden[k]:]):
                s.pile[k][i] = v
    _validate(&s)
    cdef DashState state = cls.__new__(cls)
    state._adopt(&OPS, &s)
    return state, seat, history


cdef list _pile_list(const DashStruct* s, int k):
    """Seat k's draw pile, bottom first."""
    return [s.pile[k][i] for i in range(s.pile_n[k])]


cdef int _validate(DashStruct* s) except -1:
    """What the rules guarantee of a position: known cards in their hand, four cards in every
    hand but the mover's after its first card, the winner at the goal and no one else."""
    cdef int k, v, size
    at_goal = [k for k in range(s.nseats) if s.pos[k] == s.goal]
    if s.phase == PH_OVER:
        if len(at_goal) != 1:
            raise NotationError("pos: a race is over when one seat is at the goal", token=str(at_goal),
                                expected=f"one seat at {s.goal}")
        s.winner = at_goal[0]
    elif at_goal:
        raise NotationError(f"pos: seat {at_goal[0]} is at the goal but the race runs",
                            expected=f"positions below {s.goal}, or phase=over")
    for k in range(s.nseats):
        for v in range(NVALUES):
            if s.known[k][v] > s.hand[k][v]:
                raise NotationError(f"known: seat {k}'s known cards are not all in its hand",
                                    token=_counts_text(s.known[k]), expected=f"cards of {_counts_text(s.hand[k])}")
        size = _size(s.hand[k])
        played = k == s.winner or (k == s.to_move and s.phase == PH_MORE)
        if (size >= HAND_SIZE) if played else (size != HAND_SIZE):
            raise NotationError(f"hands: seat {k} holds {size} cards",
                                expected="fewer than 4 (it has played this turn)" if played else "4")
    return 0


def new_state(seed, int players, options) -> DashState:
    """A new race of `players` seats dealt from `seed` (options validated here).

    >>> new_state(5, 4, {}).to_text().split()[:6]
    ['dash', 'goal=30', 'players=4', 'to_move=0', 'phase=play', 'pos=0/0/0/0']
    """
    if players not in SEATS:
        raise ValueError(f"dash is played by 2, 3 or 4 players, not {players}")
    cdef DashStruct s
    dash_blank(&s, players, resolve_options(OPTION_SPECS, options, NAME)["goal"])
    dash_reset(&s, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
    cdef DashState state = DashState.__new__(DashState)
    state._adopt(&OPS, &s)
    return state
