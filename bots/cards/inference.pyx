# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The card family's opponent model: what the opponent's decisions say about its hand.

A uniform determinization deals the opponent any hand its card count allows. But the opponent chose
its plays, discards and draws from the hand it held: a hand from which it would never have made those
choices is unlikely. `card_inference(view)` replays the round's history (the view's, masked) to get
the public position at each of the opponent's decisions. A latent state is the opponent's hidden
history — its starting hand, the card it took at each draw from the draw pile, then the draw pile —
and its likelihood plays that hand forward through the opponent's turns, scoring each observed
decision with the edition's heuristic as the model of the opponent:

    P(d) = noise / n + (1 - noise) * softmax(score / temperature)[d]

over the n legal decisions (0 when the history makes it play a card it did not hold). The searcher
(bots/ismcts.pyx) draws worlds from Metropolis-Hastings chains over these latent states
(bots/inference.pyx); a move swaps the cards of two slots.

The card editions with two seats (`classic`, `expedition`) have a model; `partners` (four hands, two
of them opponents, passes) and the board games have none: `card_inference` returns None.

>>> import engine
>>> from bots.greedy import GreedyPolicy
>>> state = engine.new_game("classic", seed=5, rounds=1)
>>> greedy = GreedyPolicy(seed=1)
>>> for _ in range(12):
...     state.apply(greedy.choose(state.view(state.to_move), None))
>>> view = state.view(state.to_move)
>>> model = card_inference(view.state, view.seat, view.history)
>>> model.turns
3
>>> model.log_likelihood(state) <= 0.0
True
"""

from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.math cimport exp, log
from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memcpy, memset, memcmp

from engine._core cimport State, Rng, rng_below, rng_next, exp_ctz, MAX_LEGAL
from engine.cards.rules cimport (LCState, LCConfig, CardSet, lc_config, lc_legal, lc_apply, lc_clear_round,
                                 cs_add, cs_remove, cs_count, cs_size, D_DISCARD, D_DRAW_DECK, D_DRAW_PILE)
from engine.cards.notation import card_list
from bots.cards.heuristic cimport lc_default_params, lc_score_decisions
from bots.inference cimport LATENT_BYTES, OpponentModel, impossible

DEFAULT_NOISE = 0.1
"""Share of the opponent's decisions modelled as uniformly random (tuned: research/notebook.md)."""
DEFAULT_TEMPERATURE = 0.5
"""Softmax temperature of the heuristic's scores, in points (tuned: research/notebook.md)."""

cdef double IMPOSSIBLE = -1e300


# One observed turn of the opponent (card editions): the play or discard, then the draw.
ctypedef struct OppTurn:
    int play              # the decision (a play or a discard)
    int card              # its card type
    int draw              # the draw decision
    int drawn             # the card type drawn from a discard pile, -1 for the draw pile
    int slot              # the latent slot of a card drawn from the draw pile, else -1
    int draw_choices      # legal decisions at the draw (1: nothing to learn)
    CardSet known_after   # the opponent's publicly known cards after the turn

# The card model's latent state: the opponent's starting hand, the cards it drew from the draw
# pile, then the draw pile, as card types in slots; and the opponent's hand now (derived).
ctypedef struct CardLatent:
    uint8_t slot[80]
    CardSet hand          # set by the likelihood, which plays the history forward

ctypedef struct CardModel:
    int edition
    int seat              # the searching seat
    int opp               # the modelled seat
    int nturns
    int hand_size         # slots [0, hand_size): the opponent's starting hand
    int ndraws            # slots [hand_size, hand_size + ndraws): its draws from the draw pile
    int nslots            # then the draw pile now, to nslots
    double noise          # share of the opponent's decisions modelled as uniformly random
    double inv_temp       # 1 / softmax temperature, in points of the heuristic's scores
    OppTurn* turns        # chronological
    LCState* before_play  # per turn: the public state as the opponent was to play
    LCState* before_draw  # per turn: the public state as the opponent was to draw



# ----- the likelihood ------------------------------------------------------------------------------
cdef inline int _index_of(const int* legal, int n, int d) noexcept nogil:
    """Where d is in legal[:n], -1 if absent."""
    cdef int i
    for i in range(n):
        if legal[i] == d:
            return i
    return -1


cdef double _log_prob(const CardModel* m, const LCState* s, int d) noexcept nogil:
    """log P(the opponent, to move in s, chooses d)."""
    cdef int legal[MAX_LEGAL]
    cdef double scores[MAX_LEGAL]
    cdef int n = lc_legal(s, legal), i, at = _index_of(legal, n, d)
    cdef double top = IMPOSSIBLE, z = 0.0
    if n <= 1:
        return 0.0 if at == 0 else IMPOSSIBLE
    if at < 0:
        return IMPOSSIBLE
    lc_score_decisions(s, lc_default_params(s.edition), legal, n, scores)
    for i in range(n):
        if scores[i] > top:
            top = scores[i]
    for i in range(n):
        z += exp((scores[i] - top) * m.inv_temp)
    return log(m.noise / n + (1.0 - m.noise) * exp((scores[at] - top) * m.inv_temp) / z)


cdef int _random_unknown(const CardSet* hand, const CardSet* known, const LCConfig* c, Rng* rng) noexcept nogil:
    """A uniformly random card of `hand` that is not among its `known` cards (-1 if none)."""
    cdef int total = cs_size(hand) - cs_size(known), t, k
    cdef uint64_t m
    if total <= 0:
        return -1
    k = rng_below(rng, total)
    m = hand.any
    while m:
        t = exp_ctz(m)
        m &= m - 1
        k -= cs_count(hand, c, t) - cs_count(known, c, t)
        if k < 0:
            return t
    return -1


cdef int _card_init(const void* data, void* latent, const void* world, Rng* rng) noexcept nogil:
    """Walks the world's opponent hand back through its turns (the card drawn from the draw pile at a
    turn: any unknown card of the hand after it, at random) to a starting hand."""
    cdef const CardModel* m = <const CardModel*>data
    cdef const LCState* w = <const LCState*>world
    cdef const LCConfig* c = lc_config(w.edition)
    cdef CardLatent* x = <CardLatent*>latent
    cdef CardSet hand = w.hand[m.opp]
    cdef const OppTurn* turn
    cdef int j, t, k, i = 0
    cdef uint64_t bits
    if m.hand_size + m.ndraws + w.deck_n != m.nslots:
        return -1
    for j in range(m.nturns - 1, -1, -1):
        turn = &m.turns[j]
        t = turn.drawn if turn.drawn >= 0 else _random_unknown(&hand, &turn.known_after, c, rng)
        if t < 0 or not cs_remove(&hand, c, t):
            return -1
        if turn.slot >= 0:
            x.slot[turn.slot] = <uint8_t>t
        cs_add(&hand, c, turn.card)
    if cs_size(&hand) != m.hand_size:
        return -1
    bits = hand.any
    while bits:
        t = exp_ctz(bits)
        bits &= bits - 1
        for k in range(cs_count(&hand, c, t)):
            x.slot[i] = <uint8_t>t
            i += 1
    for k in range(w.deck_n):
        x.slot[m.hand_size + m.ndraws + k] = w.deck[k]
    x.hand = w.hand[m.opp]
    return 0


cdef void _card_propose(const void* data, void* latent, Rng* rng) noexcept nogil:
    """Swaps the cards of two slots: one of the opponent's (its starting hand or a draw), the other
    any other slot. Symmetric: the reverse swap is as likely."""
    cdef const CardModel* m = <const CardModel*>data
    cdef CardLatent* x = <CardLatent*>latent
    cdef int own = m.hand_size + m.ndraws, a, b
    cdef uint8_t t
    if own < 1 or m.nslots < 2:
        return
    a = rng_below(rng, own)
    b = rng_below(rng, m.nslots - 1)
    if b >= a:
        b += 1
    t = x.slot[a]
    x.slot[a] = x.slot[b]
    x.slot[b] = t


cdef double _card_loglik(const void* data, void* latent) noexcept nogil:
    return _forward(<const CardModel*>data, <CardLatent*>latent, NULL)


cdef double _forward(const CardModel* m, CardLatent* x, double* terms) noexcept nogil:
    """Plays the opponent's turns forward from its starting hand, scoring each of its decisions; the
    sum of the log-probabilities (IMPOSSIBLE when it plays a card it does not hold). Sets x.hand.
    With `terms`, also each one (play and draw of each turn, in order)."""
    cdef const LCConfig* c
    cdef CardSet hand
    cdef LCState tmp
    cdef const OppTurn* turn
    cdef double ll = 0.0, v
    cdef int j, i, t
    c = lc_config(m.edition)
    hand.any = 0
    hand.extra = 0
    for i in range(m.hand_size):
        cs_add(&hand, c, x.slot[i])
    for j in range(m.nturns):
        turn = &m.turns[j]
        memcpy(&tmp, &m.before_play[j], sizeof(LCState))
        tmp.hand[m.opp] = hand
        v = _log_prob(m, &tmp, turn.play)
        if impossible(v) or not cs_remove(&hand, c, turn.card):
            return IMPOSSIBLE
        ll += v
        if terms != NULL:
            terms[2 * j] = v
        v = 0.0
        if turn.draw_choices > 1:
            memcpy(&tmp, &m.before_draw[j], sizeof(LCState))
            tmp.hand[m.opp] = hand
            v = _log_prob(m, &tmp, turn.draw)
        ll += v
        if terms != NULL:
            terms[2 * j + 1] = v
        t = turn.drawn if turn.drawn >= 0 else x.slot[turn.slot]
        if cs_count(&hand, c, t) >= c.copies[t]:
            return IMPOSSIBLE  # more copies than the deck has: not a history that can happen
        cs_add(&hand, c, t)
    x.hand = hand
    return ll


cdef void _card_realize(const void* data, const void* latent, void* world, Rng* rng) noexcept nogil:
    """The opponent's hand from the latent state, the draw pile its last slots in a random order."""
    cdef const CardModel* m = <const CardModel*>data
    cdef const CardLatent* x = <const CardLatent*>latent
    cdef LCState* w = <LCState*>world
    cdef int first = m.hand_size + m.ndraws, n = m.nslots - first, i, j
    cdef uint8_t t
    w.hand[m.opp] = x.hand
    for i in range(n):
        w.deck[i] = x.slot[first + i]
    for i in range(n - 1, 0, -1):
        j = rng_below(rng, i + 1)
        t = w.deck[i]
        w.deck[i] = w.deck[j]
        w.deck[j] = t
    w.rng = rng_next(rng)


# ----- replaying the round's history ---------------------------------------------------------------
cdef void _round_start(LCState* s, const LCState* root, const LCConfig* c) noexcept nogil:
    """The public position at the start of the root's round, every hand empty."""
    memcpy(s, root, sizeof(LCState))
    lc_clear_round(s)
    s.deck_n = c.deck_size - c.hand_size * c.nseats


cdef int _legal_count(const LCState* s, int d) noexcept nogil:
    """How many decisions are legal in s, or 0 when d is not one of them."""
    cdef int legal[MAX_LEGAL]
    cdef int n = lc_legal(s, legal)
    return n if _index_of(legal, n, d) >= 0 else 0


cdef int _replay(LCState* s, const LCConfig* c, int seat, const int* decisions, const int* revealed,
                 int n, bint own_known, CardModel* m, int* drawn, int* played) noexcept nogil:
    """Replays n decisions from s. A card the mover plays or discards is first put in its hand when
    that hand is not known (the opponent's always; the seat's own unless `own_known`). Records the
    opponent's turns into m (when not NULL) and counts the seat's draws and plays by card type into
    drawn / played.
    Returns n, or the index of the first decision that is not legal."""
    cdef int i, d, p, t, k, j = -1, card, choices
    for i in range(n):
        d = decisions[i]
        p = s.to_move
        if p >= s.nseats:
            return i
        if d < D_DRAW_DECK:
            card = d if d < D_DISCARD else d - D_DISCARD
            if (p != seat or not own_known) and not cs_count(&s.hand[p], c, card):
                cs_add(&s.hand[p], c, card)
            if not _legal_count(s, d):
                return i
            if p == seat:
                played[card] += 1
            elif m != NULL:
                j = m.nturns
                m.nturns += 1
                memcpy(&m.before_play[j], s, sizeof(LCState))
                m.turns[j].play = d
                m.turns[j].card = card
            lc_apply(s, d)
            if m != NULL and p != seat:
                memcpy(&m.before_draw[j], s, sizeof(LCState))
        else:
            choices = _legal_count(s, d)
            if not choices:
                return i
            t = -1
            if d == D_DRAW_DECK:
                if p == seat:
                    if revealed[i] < 0:
                        return i
                    t = revealed[i]
                    s.deck[s.deck_n - 1] = <uint8_t>t
                else:
                    s.deck[s.deck_n - 1] = 0  # unknown: the opponent's hand is rebuilt per world
            else:
                k = d - D_DRAW_PILE
                t = s.piles[k * c.pile_cap + s.pile_n[k] - 1]
            if p == seat:
                drawn[t] += 1
            elif m != NULL:
                if j < 0:
                    return i  # the history starts in the middle of a turn
                m.turns[j].draw = d
                m.turns[j].drawn = -1 if d == D_DRAW_DECK else t
                m.turns[j].slot = -1
                if d == D_DRAW_DECK:
                    m.turns[j].slot = m.hand_size + m.ndraws
                    m.ndraws += 1
                m.turns[j].draw_choices = choices
            lc_apply(s, d)
            if d == D_DRAW_DECK and p != seat:
                cs_remove(&s.hand[p], c, 0)  # the placeholder: the opponent's hand holds what it played
            if m != NULL and p != seat:
                m.turns[j].known_after = s.known[p]
    return n


cdef bint _same_public(const LCState* a, const LCState* b, int seat) noexcept nogil:
    """Whether a and b agree on everything public and on seat's hand."""
    return (memcmp(a.rows, b.rows, sizeof(a.rows)) == 0 and memcmp(a.known, b.known, sizeof(a.known)) == 0
            and memcmp(a.piles, b.piles, sizeof(a.piles)) == 0 and memcmp(a.pile_n, b.pile_n, sizeof(a.pile_n)) == 0
            and memcmp(a.playable, b.playable, sizeof(a.playable)) == 0
            and a.deck_n == b.deck_n and a.turn == b.turn and a.to_move == b.to_move and a.phase == b.phase
            and a.nodraw == b.nodraw and a.nonempty == b.nonempty and a.round == b.round
            and a.hand[seat].any == b.hand[seat].any and a.hand[seat].extra == b.hand[seat].extra)


# ----- the Python face -------------------------------------------------------------------------------
cdef class CardOpponentModel(OpponentModel):
    """The opponent model of a two-seat card edition's view: built by `card_inference`."""

    cdef CardModel card

    def __cinit__(self):
        self.card.turns = NULL
        self.card.before_play = NULL
        self.card.before_draw = NULL
        self.card.nturns = 0
        self.face.data = &self.card
        self.face.init = _card_init
        self.face.propose = _card_propose
        self.face.loglik = _card_loglik
        self.face.realize = _card_realize

    def __dealloc__(self):
        PyMem_Free(self.card.turns)
        PyMem_Free(self.card.before_play)
        PyMem_Free(self.card.before_draw)

    cdef int _allocate(self, int turns) except -1:
        self.card.turns = <OppTurn*>PyMem_Malloc(max(1, turns) * sizeof(OppTurn))
        self.card.before_play = <LCState*>PyMem_Malloc(max(1, turns) * sizeof(LCState))
        self.card.before_draw = <LCState*>PyMem_Malloc(max(1, turns) * sizeof(LCState))
        if self.card.turns == NULL or self.card.before_play == NULL or self.card.before_draw == NULL:
            raise MemoryError()
        memset(self.card.turns, 0, max(1, turns) * sizeof(OppTurn))
        return 0

    @property
    def turns(self) -> int:
        """The opponent's turns observed this round."""
        return self.card.nturns

    @property
    def observed(self) -> int:
        return 2 * self.card.nturns  # a play and a draw each

    @property
    def seat(self) -> int:
        """The seat whose view this is."""
        return self.card.seat

    def log_probabilities(self, State world, seed=0) -> list:
        """The terms of `log_likelihood`: [play, draw] log-probabilities of each observed turn."""
        cdef CardLatent x
        cdef double* terms
        self._latent_of(world, seed, &x)
        terms = <double*>PyMem_Malloc(max(1, 2 * self.card.nturns) * sizeof(double))
        if terms == NULL:
            raise MemoryError()
        try:
            if impossible(_forward(&self.card, &x, terms)):
                return None
            return [[terms[2 * j], terms[2 * j + 1]] for j in range(self.card.nturns)]
        finally:
            PyMem_Free(terms)

    def observations(self) -> list:
        """The opponent's turns: (play, draw, drawn card type or -1, position before the play,
        position before the draw) — positions with the opponent's hand left as the replay had it."""
        cdef State before, after
        cdef int j
        out = []
        for j in range(self.card.nturns):
            before = (<State>self._template)._blank()
            before._adopt((<State>self._template).ops, &self.card.before_play[j])
            after = (<State>self._template)._blank()
            after._adopt((<State>self._template).ops, &self.card.before_draw[j])
            t = &self.card.turns[j]
            out.append((t.play, t.draw, t.drawn, before, after))
        return out


def card_inference(State state, int seat, history, double noise=DEFAULT_NOISE,
                   double temperature=DEFAULT_TEMPERATURE, bint strict=False):
    """The opponent model of `seat`'s view `state` with its masked `history` (texts, as in a view),
    or None when there is none: an edition without a model, or a history that does not reach back to
    the start of the round (a view set up from text) or does not lead to the view. With `strict`,
    ValueError says why instead of None."""
    cdef const LCState* root
    cdef const LCConfig* c
    cdef LCState s
    cdef CardSet start
    cdef int drawn[64]
    cdef int played[64]
    cdef CardOpponentModel model
    cdef int n = len(history), i, t, k
    cdef int* decisions
    cdef int* revealed
    if not 0.0 <= noise <= 1.0 or temperature <= 0:
        raise ValueError(f"noise must be in 0..1 and temperature > 0, got {noise} and {temperature}")

    def none(reason):
        if strict:
            raise ValueError(reason)
        return None

    if state.edition not in ("classic", "expedition"):
        return none(f"no opponent model for {state.edition}")
    root = <const LCState*>state.ptr
    c = lc_config(root.edition)
    if root.nseats != 2 or not 0 <= seat < 2 or root.to_move != seat:
        return none(f"seat {seat} is not to move in a two-seat game")
    codes = []
    for text in history:
        head, _, card = text.partition(":")
        try:
            codes.append((state.parse_decision(head), card_list(root.edition, card, "history")[0] if card else -1))
        except (ValueError, IndexError):
            return none(f"history: cannot read {text!r}")
    decisions = <int*>PyMem_Malloc(max(1, n) * sizeof(int))
    revealed = <int*>PyMem_Malloc(max(1, n) * sizeof(int))
    if decisions == NULL or revealed == NULL:
        PyMem_Free(decisions)
        PyMem_Free(revealed)
        raise MemoryError()
    try:
        for i in range(n):
            decisions[i], revealed[i] = codes[i]
        # Pass 1: the seat's hand at the start of the round = hand now + played - drawn.
        memset(drawn, 0, sizeof(drawn))
        memset(played, 0, sizeof(played))
        _round_start(&s, root, c)
        i = _replay(&s, c, seat, decisions, revealed, n, False, NULL, drawn, played)
        if i < n:
            return none(f"history: {history[i]!r} (decision {i + 1}) is not legal from the start of the round")
        memset(&start, 0, sizeof(CardSet))
        for t in range(c.ntypes):
            k = cs_count(&root.hand[seat], c, t) + played[t] - drawn[t]
            if not 0 <= k <= c.copies[t]:
                return none("history: the seat's draws and plays do not agree with its hand")
            for _ in range(k):
                cs_add(&start, c, t)
        if cs_size(&start) != c.hand_size:
            return none(f"history: the seat's hand goes back to {cs_size(&start)} cards, not {c.hand_size}")
        # Pass 2: the seat's hand known all along; the opponent's turns recorded.
        model = CardOpponentModel()
        model._allocate(n // 2 + 1)
        model._template = state
        model.card.edition = root.edition
        model.card.seat = seat
        model.card.opp = 1 - seat
        model.card.hand_size = c.hand_size
        model.card.ndraws = 0
        model.card.noise = noise
        model.card.inv_temp = 1.0 / temperature
        _round_start(&s, root, c)
        s.hand[seat] = start
        i = _replay(&s, c, seat, decisions, revealed, n, True, &model.card, drawn, played)
        if i < n:
            return none(f"history: {history[i]!r} (decision {i + 1}) is not legal for the seat's hand")
        if not _same_public(&s, root, seat):
            return none("history: does not lead to the view (it does not start at the round's start)")
        model.card.nslots = c.hand_size + model.card.ndraws + root.deck_n
        return model
    finally:
        PyMem_Free(decisions)
        PyMem_Free(revealed)


if sizeof(CardLatent) > LATENT_BYTES:
    raise ImportError("CardLatent does not fit LATENT_BYTES")
