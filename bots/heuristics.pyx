# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Heuristic policies by edition, and their Python face.

`bot_ops(edition)` (C) gives the searcher an edition's heuristic decision and scores as
function pointers over the generic state; editions without one give NULL. The card editions use
bots/cards/heuristic.pyx, `board` bots/board/heuristic.pyx. The Python functions below serve the
greedy bot, tests and benchmarks.

>>> import engine
>>> s = engine.new_game("classic", seed=3, rounds=1)
>>> greedy_decision(s, 7) in s.legal()
True
>>> heuristic_playouts(s, 10, seed=1) > 10 * 44
True
>>> b = engine.new_game("board", seed=3, players=4)
>>> greedy_decision(b, 7) in b.legal()
True
"""
import random as _random

from libc.string cimport strcmp

from engine._core cimport State, GameOps, Rng, play_matches
from engine.cards.rules cimport LCState
from bots.cards.heuristic cimport lc_default_params, lc_greedy_decision, lc_score_decisions
from bots.board.heuristic cimport board_default_params, board_greedy_decision, board_score_decisions
from engine.board.rules cimport BoardStruct


cdef int _lc_decision(const void* s, Rng* rng, double epsilon) noexcept nogil:
    return lc_greedy_decision(<const LCState*>s, rng, epsilon)


cdef void _lc_score(const void* s, const int* legal, int n, double* scores) noexcept nogil:
    cdef const LCState* st = <const LCState*>s
    lc_score_decisions(st, lc_default_params(st.edition), legal, n, scores)


cdef void _board_score(const void* s, const int* legal, int n, double* scores) noexcept nogil:
    cdef const BoardStruct* st = <const BoardStruct*>s
    board_score_decisions(st, board_default_params(st.nseats), legal, n, scores)


cdef enum:
    N_BOTS = 4

cdef BotOps BOTS[N_BOTS]
BOTS[0].name = "classic"
BOTS[1].name = "partners"
BOTS[2].name = "expedition"
for _i in range(3):
    BOTS[_i].decision = _lc_decision
    BOTS[_i].score = _lc_score
BOTS[3].name = "board"  # bots/board/heuristic.pyx
BOTS[3].decision = board_greedy_decision
BOTS[3].score = _board_score

EDITIONS = tuple(BOTS[i].name.decode() for i in range(N_BOTS))
"""The editions that have a heuristic."""


cdef const BotOps* bot_ops(const char* edition) noexcept nogil:
    cdef int i
    for i in range(N_BOTS):
        if strcmp(BOTS[i].name, edition) == 0:
            return &BOTS[i]
    return NULL


cdef const BotOps* bot_ops_for(const GameOps* ops) noexcept nogil:
    return bot_ops(ops.name)


cdef const BotOps* _require(State state) except NULL:
    cdef const BotOps* b = bot_ops_for(state.ops)
    if b == NULL:
        raise NotImplementedError(f"no heuristic for {state.edition} (heuristics: {', '.join(EDITIONS)})")
    return b


def _seed_of(rng) -> int:
    if isinstance(rng, _random.Random):
        return rng.getrandbits(64)
    if isinstance(rng, bool) or not isinstance(rng, int):
        raise TypeError(f"expected an int seed or a random.Random, got {type(rng).__name__}")
    return rng & 0xFFFFFFFFFFFFFFFF


def greedy_decision(State state, rng=0, double epsilon=0.0) -> int:
    """The heuristic's decision for the seat to move, from what that seat knows.

    `rng` is an int seed or a `random.Random` (64 bits are drawn from it); it breaks ties and
    drives the epsilon-random decisions. Raises ValueError once the match is over.
    """
    cdef const BotOps* b = _require(state)
    cdef Rng r
    r.x = _seed_of(rng)
    if state.is_terminal():
        raise ValueError("the match is over: no decision to make")
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon must be in 0..1, got {epsilon}")
    return b.decision(state.ptr, &r, epsilon)


ctypedef struct _HeuristicPolicy:
    const BotOps* bot
    double epsilon


cdef int _heuristic_playout(const GameOps* ops, void* s, Rng* rng, const void* policy) noexcept nogil:
    cdef const _HeuristicPolicy* h = <const _HeuristicPolicy*>policy
    cdef int n = 0
    while ops.to_move(s) >= 0:
        ops.apply(s, h.bot.decision(s, rng, h.epsilon))
        n += 1
    return n


def heuristic_playouts(State template, long games, seed, double epsilon=0.0) -> int:
    """Plays `games` matches with the heuristic in every seat, in compiled code without the GIL.

    Like `engine._core.compiled_playouts`: match i is dealt from seed + i with the template's
    edition and options; returns the total number of decisions made.
    """
    cdef _HeuristicPolicy policy
    policy.bot = _require(template)
    policy.epsilon = epsilon
    return play_matches(template, games, seed, _heuristic_playout, &policy)
