# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Edition-independent parts of the compiled game interface.

`State` is the Python face of one game state of any edition; the edition modules subclass it to add
notation. The generic C routines here (perft, random playouts, rank-based returns) only use the
edition's `GameOps` table, like the searcher does.
"""
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.string cimport memcpy, memcmp
from libc.stdlib cimport malloc, free
from libc.stdint cimport uint64_t, int64_t

from engine.errors import IllegalDecisionError


cdef void rank_returns(int nseats, const int* team, const double* key, double* out) noexcept nogil:
    """Per seat: the share of opposing seats it beats (ties count half); teams share a key."""
    cdef int i, j, others
    cdef double won
    for i in range(nseats):
        won = 0.0
        others = 0
        for j in range(nseats):
            if team[j] == team[i]:
                continue
            others += 1
            if key[i] > key[j]:
                won += 1.0
            elif key[i] == key[j]:
                won += 0.5
        out[i] = won / others if others > 0 else 0.5


cdef int64_t _perft(const GameOps* ops, const void* s, int depth, char* stack) noexcept nogil:
    cdef int moves[MAX_LEGAL]
    cdef int n, i
    cdef int64_t total = 0
    cdef void* child = stack
    if depth == 0:
        return 1
    if ops.to_move(s) < 0:
        return 0
    n = ops.legal(s, moves)
    if depth == 1:
        return n
    for i in range(n):
        memcpy(child, s, ops.state_size)
        ops.apply(child, moves[i])
        total += _perft(ops, child, depth - 1, stack + ops.state_size)
    return total


cdef int64_t perft(const GameOps* ops, void* s, int depth) noexcept nogil:
    """Number of decision sequences of length `depth` from s (a finished match has none)."""
    cdef char* stack = <char*>malloc(ops.state_size * (depth + 1))
    cdef int64_t total
    if stack == NULL:
        return -1
    total = _perft(ops, s, depth, stack)
    free(stack)
    return total


cdef int random_playout(const GameOps* ops, void* s, Rng* rng) noexcept nogil:
    """Plays uniformly random decisions until the match ends; returns how many were made."""
    if ops.playout != NULL:
        return ops.playout(s, rng)
    return _generic_playout(ops, s, rng)


cdef int _generic_playout(const GameOps* ops, void* s, Rng* rng) noexcept nogil:
    cdef int n = 0
    while ops.to_move(s) >= 0:
        ops.apply(s, ops.random_decision(s, rng))
        n += 1
    return n


cdef class Rules:
    """One edition's compiled rules: its `GameOps` table, made by the edition's rules module.

    >>> import engine
    >>> rules = engine.get_edition("classic").rules
    >>> rules.name, rules.num_decision_ids, rules.state_size
    ('classic', 2214, 472)
    """

    def __init__(self):
        raise TypeError("Rules are made by an edition's rules module, not called")

    @property
    def name(self) -> str:
        """The edition's name, e.g. ``'classic'``."""
        return self.ops.name.decode()

    @property
    def num_decision_ids(self) -> int:
        """Decisions are the integers below this."""
        return self.ops.num_decision_ids

    @property
    def state_size(self) -> int:
        """Bytes of the edition's C state."""
        return self.ops.state_size

    @property
    def margin(self) -> bool:
        """Whether scores differ by a margin worth playing for (False: a race, only the result counts)."""
        return bool(self.ops.margin)

    def __repr__(self) -> str:
        return f"<Rules {self.name}>"


cdef Rules rules_of(const GameOps* ops):
    """The Python object of a GameOps table (its module keeps the table alive)."""
    cdef Rules rules = Rules.__new__(Rules)
    rules.ops = ops
    return rules


cdef class State:
    """One game state of some edition, with its record of the current round.

    Decisions are small integers; `decision_to_text` and `parse_decision` translate them, and
    `apply` accepts either. States compare equal when their positions are equal (the history is a
    record, not part of the position, like a PGN beside a FEN).

    >>> import engine
    >>> s = engine.new_game("classic", seed=7)
    >>> s.to_move, len(s.legal()) > 0
    (0, True)
    >>> s.apply(s.legal()[0]); s.phase
    'draw'
    """

    def __cinit__(self):
        self.ops = NULL
        self.ptr = NULL
        self._record = []
        self._round_start = 0
        self._last_round_start = 0
        self._record_round = 0

    def __dealloc__(self):
        if self.ptr != NULL:
            PyMem_Free(self.ptr)
            self.ptr = NULL

    cdef int _adopt(self, const GameOps* ops, const void* src) except -1:
        if self.ptr == NULL:
            self.ptr = PyMem_Malloc(ops.state_size)
            if self.ptr == NULL:
                raise MemoryError()
        self.ops = ops
        memcpy(self.ptr, src, ops.state_size)
        self._record_round = ops.round_index(self.ptr)
        return 0

    cdef State _blank(self):
        return type(self).__new__(type(self))

    cdef void _forget(self):
        """Empties the record (the position was changed outside it)."""
        self._record = []
        self._round_start = self._last_round_start = 0
        self._record_round = self.ops.round_index(self.ptr)

    # ----- facts -------------------------------------------------------------------------
    @property
    def edition(self) -> str:
        """The edition's name, e.g. ``'classic'``."""
        return self.ops.name.decode()

    @property
    def num_seats(self) -> int:
        return self.ops.num_seats(self.ptr)

    def team_of(self, int seat) -> int:
        """The team (or row) a seat plays for; in two-player editions the seat itself."""
        self._check_seat(seat)
        return self.ops.team_of(self.ptr, seat)

    @property
    def to_move(self):
        """The seat whose decision it is, or None once the match is over."""
        cdef int p = self.ops.to_move(self.ptr)
        return None if p < 0 else p

    @property
    def round_index(self) -> int:
        """0-based index of the current round."""
        return self.ops.round_index(self.ptr)

    @property
    def round(self) -> int:
        """The current round, 1-based (a round is an expedition in `board`)."""
        return self.ops.round_index(self.ptr) + 1

    def is_terminal(self) -> bool:
        return self.ops.to_move(self.ptr) < 0

    def scores(self) -> list:
        """Match totals per seat (team editions: every seat gets its team's total)."""
        cdef double out[MAX_SEATS]
        self.ops.scores(self.ptr, out)
        return [int(out[i]) for i in range(self.ops.num_seats(self.ptr))]

    def returns(self) -> list:
        """Per seat: 1 for a win, 0.5 for a draw, 0 for a loss (shares of opponents beaten)."""
        cdef double out[MAX_SEATS]
        self.ops.returns(self.ptr, out)
        return [out[i] for i in range(self.ops.num_seats(self.ptr))]

    # ----- decisions ---------------------------------------------------------------------
    def legal(self) -> list:
        """The legal decisions of the seat to move, in notation order (empty once over)."""
        cdef int moves[MAX_LEGAL]
        cdef int n
        if self.ops.to_move(self.ptr) < 0:
            return []
        n = self.ops.legal(self.ptr, moves)
        return [moves[i] for i in range(n)]

    def legal_text(self) -> list:
        """The legal decisions as text."""
        return [self.decision_to_text(d) for d in self.legal()]

    def why_illegal(self, decision) -> str:
        """Why `decision` (an id, or its text) cannot be made now, in the words of the rules; empty
        when it is legal. NotationError for a text that is no decision of the edition.

        >>> import engine
        >>> s = engine.new_game("classic", seed=1)
        >>> s.apply("-b7"); s.why_illegal("Db"), s.why_illegal("+y4"), s.why_illegal("D")
        ('you discarded onto that pile this turn', 'you have played or discarded this turn: now you draw', '')
        """
        cdef int d = self.parse_decision(decision) if isinstance(decision, str) else decision
        if self.is_legal(d):
            return ""
        if self.ops.to_move(self.ptr) < 0:
            return "the match is over"
        if not 0 <= d < self.ops.num_decision_ids:
            return f"{d} is not a decision id of {self.edition}"
        return self._why_illegal(d) or f"{self.decision_to_text(d)} is not one of the decisions of this {self.phase} step"

    def _why_illegal(self, int d) -> str:
        """The rule that decision id `d` of the seat to move breaks, in the words of the rules; empty
        where the family names none (then `why_illegal` says only that `d` fails the current step).
        `board` and `eldorado` return empty exactly for a legal decision (their tests check it)."""
        return ""

    def is_legal(self, int decision) -> bool:
        cdef int moves[MAX_LEGAL]
        cdef int n, i
        if self.ops.to_move(self.ptr) < 0:
            return False
        n = self.ops.legal(self.ptr, moves)
        for i in range(n):
            if moves[i] == decision:
                return True
        return False

    def apply(self, decision) -> None:
        """Applies a legal decision (an int, or its text); raises and changes nothing otherwise."""
        cdef int d = self._checked(decision)
        self._apply(d, self._revealed(d))

    def play(self, decision) -> str:
        """Applies a legal decision like `apply` and returns the referee's record of it (its text,
        plus what it revealed to the mover alone, e.g. `D:g4`): one call for a referee.

        >>> import engine
        >>> s = engine.new_game("classic", seed=1)
        >>> s.play("+b7"), s.play("D")
        ('+b7', 'D:w3')
        """
        cdef int d = self._checked(decision)
        cdef tuple revealed = self._revealed(d)
        record = self._record_text(d, revealed)
        self._apply(d, revealed)
        return record

    cdef tuple _revealed(self, int d):
        """What decision d, about to be applied, shows its mover alone (GameOps.reveal)."""
        cdef int out[MAX_REVEAL]
        cdef int n = self.ops.reveal(self.ptr, d, out)
        return () if n <= 0 else tuple([out[i] for i in range(n)])

    cdef int _checked(self, decision) except -1:
        """The decision id of `decision` if it is legal here; raises otherwise."""
        cdef int d
        if isinstance(decision, str):
            d = self.parse_decision(decision)
        elif isinstance(decision, int) and not isinstance(decision, bool):
            d = decision if 0 <= decision < self.ops.num_decision_ids else -1
        else:
            raise TypeError(f"a decision is an int or its text, not {type(decision).__name__}")
        if not self.is_legal(d):
            if self.ops.to_move(self.ptr) < 0:
                raise IllegalDecisionError(f"the match is over; no decision is legal ({decision!r})")
            shown = self.decision_to_text(d) if d >= 0 else repr(decision)
            raise IllegalDecisionError(
                f"illegal decision {shown} for seat {self.ops.to_move(self.ptr)}; "
                f"legal: {' '.join(self.legal_text())}")
        return d

    cdef int _apply(self, int d, tuple revealed) except -1:
        """Records decision d (with what it showed its mover) and applies it."""
        self._record.append((self.ops.to_move(self.ptr), d, revealed))
        self.ops.apply(self.ptr, d)
        cdef int r = self.ops.round_index(self.ptr)
        if r != self._record_round:  # the decision ended the round: a new one begins
            self._last_round_start = self._round_start
            self._round_start = len(self._record)
            self._record_round = r
        return 0

    def decision_to_text(self, int d) -> str:
        raise NotImplementedError

    # ----- positions and views -------------------------------------------------------------
    def to_text(self) -> str:
        """The full position (the referee's); the edition's `from_text(to_text())` gives it back
        exactly."""
        return self._format(-1)

    def view_text(self, int seat) -> str:
        """What `seat` knows: the position with what it cannot see masked, and the masked history
        of the current round (of the whole match where a match is one round).

        >>> import engine
        >>> engine.new_game("classic", seed=1).view_text(1).split()[-1]
        'history=-'
        """
        self._check_seat(seat)
        return self._format(seat)

    def view(self, int seat):
        """The seat's view as an `engine.View` (read back from `view_text` by the edition's parser)."""
        from engine.view import View
        return View.from_text(self.view_text(seat))

    def _format(self, int viewer) -> str:
        """The edition's one writer of positions (viewer -1) and views (viewer: the seat)."""
        raise NotImplementedError

    def pretty(self, seat=None) -> str:
        """A text picture of the table (hands `seat` cannot see hidden, when given)."""
        raise NotImplementedError

    @property
    def phase(self) -> str:
        """The step of the current turn in the edition's words (e.g. 'play', 'draw'), 'over' once
        the match is over (edition-specific)."""
        raise NotImplementedError

    def turns_left(self, int seat) -> int:
        """Turns `seat` still has in the match if every turn draws from the draw pile (an estimate
        for sharing a clock; edition-specific)."""
        raise NotImplementedError

    def revealed_text(self, tuple revealed) -> str:
        """Text of what a decision showed its mover alone (a non-empty tuple of `GameOps.reveal`'s
        numbers; edition-specific)."""
        raise NotImplementedError

    def parse_revealed(self, str text) -> tuple:
        """The inverse of `revealed_text` (NotationError for a text it never gives)."""
        raise NotImplementedError

    def record_text(self, decision) -> str:
        """The referee's record of a legal decision about to be applied: its text, plus what it
        reveals to the mover alone (e.g. `D:g4` for the card drawn from the draw pile)."""
        cdef int d = self.parse_decision(decision) if isinstance(decision, str) else decision
        if not self.is_legal(d):
            raise IllegalDecisionError(f"not a legal decision here: {self.decision_to_text(d)}")
        return self._record_text(d, self._revealed(d))

    def _record_text(self, int decision, tuple revealed) -> str:
        text = self.decision_to_text(decision)
        return f"{text}:{self.revealed_text(revealed)}" if revealed else text

    def parse_decision(self, str text) -> int:
        raise NotImplementedError

    # ----- the match and its notation (edition-specific) ---------------------------------------
    @property
    def options(self) -> dict:
        """The rule options of the match, by name (none by default)."""
        return {}

    @property
    def turn(self) -> int:
        """Turns completed in the current round."""
        raise NotImplementedError

    def history(self, seat=None, bint previous=False) -> list:
        """The decisions of the current round as text, masked for `seat` if given; with
        `previous`, those of the round before."""
        raise NotImplementedError

    @classmethod
    def from_text(cls, str text) -> State:
        """Parses a full position; raises NotationError naming the bad field."""
        raise NotImplementedError

    # ----- copies, sampling, counting ------------------------------------------------------
    def copy(self) -> State:
        """An independent copy (position and history)."""
        cdef State other = self._blank()
        other._adopt(self.ops, self.ptr)
        other._record = list(self._record)
        other._round_start = self._round_start
        other._last_round_start = self._last_round_start
        other._record_round = self._record_round
        return other

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def determinized(self, int seat, seed) -> State:
        """A copy in which everything `seat` cannot see is dealt again at random.

        The copy agrees with everything the seat knows (its hand, public piles, cards known to
        be in other hands); the draw order and the future deals are redrawn from `seed`.
        """
        self._check_seat(seat)
        cdef Rng rng
        rng.x = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
        cdef State other = self.copy()
        other.ops.determinize(other.ptr, seat, &rng)
        other._forget()
        return other

    def perft(self, int depth) -> int:
        """Counts the decision sequences of length `depth` from this position."""
        if depth < 0:
            raise ValueError(f"perft depth must be >= 0, got {depth}")
        cdef int64_t n
        with nogil:
            n = perft(self.ops, self.ptr, depth)
        if n < 0:
            raise MemoryError()
        return n

    def playout(self, seed, bint fast=True) -> int:
        """Plays uniformly random decisions to the end of the match in compiled code.

        Returns the number of decisions made; the history is not recorded. `fast=False` uses the
        generic loop (random_decision + apply) instead of the edition's inlined playout; both play
        the same games.
        """
        cdef Rng rng
        cdef int n
        rng.x = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
        with nogil:
            if fast:
                n = random_playout(self.ops, self.ptr, &rng)
            else:
                n = _generic_playout(self.ops, self.ptr, &rng)
        self._forget()
        return n

    def random_decision(self, seed) -> int:
        """A uniformly random legal decision drawn by the compiled sampler (for tests)."""
        if self.ops.to_move(self.ptr) < 0:
            raise ValueError("the match is over")
        cdef Rng rng
        rng.x = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
        return self.ops.random_decision(self.ptr, &rng)

    def __eq__(self, other):
        if not isinstance(other, State):
            return NotImplemented
        cdef State o = <State>other
        return self.ops == o.ops and memcmp(self.ptr, o.ptr, self.ops.state_size) == 0

    def __hash__(self):
        raise TypeError("states are mutable and unhashable; hash their to_text()")

    def __reduce__(self):
        return (_rebuild, (type(self), self.to_text()))

    def _check_seat(self, int seat):
        if not 0 <= seat < self.ops.num_seats(self.ptr):
            raise ValueError(f"seat {seat} out of range 0..{self.ops.num_seats(self.ptr) - 1}")

    def record(self) -> list:
        """The referee's record of every decision since the position was set up, however many
        rounds it spans: (mover, decision, revealed) triples, `revealed` the tuple of what the
        decision showed its mover alone (`revealed_text` writes it).

        >>> import engine
        >>> s = engine.new_game("classic", seed=1)
        >>> s.apply("+b7"); s.apply("D")
        >>> s.record()
        [(0, 16, ()), (0, 128, (22,))]
        """
        return list(self._record)

    def _round_entries(self, bint previous=False) -> list:
        """The record of the current round (or, with `previous`, of the round before)."""
        if previous:
            return self._record[self._last_round_start:self._round_start]
        return self._record[self._round_start:]

    def __repr__(self):
        return f"<{type(self).__name__} {self.to_text()!r}>"


def _rebuild(cls, text):
    return cls.from_text(text)


cdef int _random_policy_playout(const GameOps* ops, void* s, Rng* rng, const void* policy) noexcept nogil:
    return random_playout(ops, s, rng)


cdef object play_matches(State template, long games, object seed, PlayoutFn playout, const void* policy):
    """Plays `games` matches in compiled code without the GIL: match i is dealt afresh from
    seed + i with the template's edition and options, then played to its end by `playout`.
    Returns the total number of decisions (a benchmark divides it by the elapsed time)."""
    if template.ops.reset == NULL:
        raise NotImplementedError(f"{template.edition} has no reset")
    cdef const GameOps* ops = template.ops
    cdef void* buf = PyMem_Malloc(ops.state_size)
    if buf == NULL:
        raise MemoryError()
    cdef Rng rng
    cdef uint64_t base = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
    cdef long i
    cdef int64_t total = 0
    rng.x = base ^ <uint64_t>0x5DEECE66DULL
    try:
        with nogil:
            for i in range(games):
                memcpy(buf, template.ptr, ops.state_size)
                ops.reset(buf, base + <uint64_t>i)
                total += playout(ops, buf, &rng, policy)
    finally:
        PyMem_Free(buf)
    return total


def compiled_playouts(State template, long games, seed) -> int:
    """Plays `games` complete random matches in compiled code without the GIL (see play_matches)."""
    return play_matches(template, games, seed, _random_policy_playout, NULL)


def measure_copy_ns(State state, long copies) -> float:
    """Mean nanoseconds to copy the state's C struct (what a searcher does per determinization)."""
    from time import perf_counter_ns
    cdef size_t size = state.ops.state_size
    cdef char* bufs = <char*>PyMem_Malloc(2 * size)
    if bufs == NULL:
        raise MemoryError()
    cdef long i
    cdef unsigned long sink = 0
    try:
        start = perf_counter_ns()
        with nogil:
            for i in range(copies):
                memcpy(bufs + (i & 1) * size, state.ptr, size)
                sink += <unsigned char>bufs[(i & 1) * size + (i % size)]
        elapsed = perf_counter_ns() - start
    finally:
        PyMem_Free(bufs)
    return elapsed / copies + 0.0 * sink


def measure_determinize_ns(State state, int seat, long samples) -> float:
    """Mean nanoseconds to copy the state and redeal what `seat` cannot see."""
    from time import perf_counter_ns
    cdef size_t size = state.ops.state_size
    cdef void* buf = PyMem_Malloc(size)
    if buf == NULL:
        raise MemoryError()
    cdef Rng rng
    rng.x = 12345
    cdef long i
    try:
        start = perf_counter_ns()
        with nogil:
            for i in range(samples):
                memcpy(buf, state.ptr, size)
                state.ops.determinize(buf, seat, &rng)
        elapsed = perf_counter_ns() - start
    finally:
        PyMem_Free(buf)
    return elapsed / samples
