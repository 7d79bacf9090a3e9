# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Heuristic policies and static evaluations by edition, and their Python face.

`bot_ops(edition)` (C) gives the searcher an edition's heuristic decision and evaluation as
function pointers over the generic state; editions without one give NULL. The card editions use
bots/lc_heuristic.pyx, `board` bots/board_heuristic.pyx. The Python functions below serve the
greedy bot, tests and benchmarks.

>>> import engine
>>> s = engine.new_game("classic", seed=3, rounds=1)
>>> greedy_decision(s, 7) in s.legal()
True
>>> evaluate(s, 0) == -evaluate(s, 1)
True
>>> heuristic_playouts(s, 10, seed=1) > 10 * 44
True
>>> b = engine.new_game("board", seed=3, players=4)
>>> greedy_decision(b, 7) in b.legal()
True
"""
import random as _random

from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.string cimport strcmp, memcpy
from libc.stdint cimport uint64_t, int64_t

from engine._core cimport State, GameOps, Rng, play_matches
from engine.cards.rules cimport LCState
from bots.lc_heuristic cimport (HeurParams, lc_default_params, lc_evaluate, lc_greedy_decision,
                                lc_greedy_decision_p, lc_score_decisions)
from bots.lc_heuristic import EDITION_NAMES as LC_EDITIONS, check_params
from bots.board_heuristic cimport board_default_params, board_evaluate, board_greedy_decision, board_score_decisions
from engine.board.rules cimport BoardStruct
from bots.board_heuristic import versus as _board_versus


cdef int _lc_decision(const void* s, Rng* rng, double epsilon) noexcept nogil:
    return lc_greedy_decision(<const LCState*>s, rng, epsilon)


cdef double _lc_evaluate(const void* s, int seat) noexcept nogil:
    return lc_evaluate(<const LCState*>s, seat)


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
    BOTS[_i].evaluate = _lc_evaluate
    BOTS[_i].score = _lc_score
BOTS[3].name = "board"  # bots/board_heuristic.pyx
BOTS[3].decision = board_greedy_decision
BOTS[3].evaluate = board_evaluate
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


def evaluate(State state, int seat) -> float:
    """Expected score margin the current round adds for `seat`'s row over the other (points).

    `board` (2-4 seats): the expected final margin of `seat` over the best other seat minus the
    current one (`scores()`): what the rest of the expedition and the artifact tables add.

    It reads the full state, so on a view's state it sees the canonical filler cards: evaluate
    determinizations (`view.sample(seed)`) instead.
    """
    cdef const BotOps* b = _require(state)
    state._check_seat(seat)
    return b.evaluate(state.ptr, seat)


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


cdef enum:
    SIDE_HEURISTIC = 0
    SIDE_RANDOM = 1


def duel(State template, long deals, seed, a=None, b=None, double epsilon=0.0) -> dict:
    """Duplicate match between two players, in compiled code.

    Card editions: each deal (seed + i, the template's edition and options) is played twice with
    the sides swapped; side A is row/team 0 in the first game. A side is None (the heuristic with
    default weights), a dict of weight overrides, or "random" (uniform random decisions). Returns
    A's wins, draws, losses, its points share, the mean score margin, both sides' mean
    scores and the number of decisions made. `board` (2-4 seats): see
    `bots.board_heuristic.versus` (A's seat rotates over each deal, B takes every other seat).
    """
    _require(template)
    if template.edition == "board":
        return _board_versus(template, deals, seed, a, b, epsilon)
    if template.edition not in LC_EDITIONS:
        raise NotImplementedError(f"duel plays the Lost Cities card editions, not {template.edition}")
    cdef HeurParams pa, pb
    cdef int kind[2]
    sides = []
    for who in (a, b):
        if isinstance(who, str) and who == "random":
            sides.append((SIDE_RANDOM, check_params(template.edition, None)))
        elif who is None or isinstance(who, dict):
            sides.append((SIDE_HEURISTIC, check_params(template.edition, who)))
        else:
            raise TypeError(f"a side is None, a dict of weights or 'random', not {who!r}")
    kind[0], pa = sides[0]
    kind[1], pb = sides[1]
    cdef const GameOps* ops = template.ops
    cdef LCState* buf = <LCState*>PyMem_Malloc(ops.state_size)
    if buf == NULL:
        raise MemoryError()
    cdef Rng rng
    cdef uint64_t base = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
    cdef long i
    cdef int swap, side, d, seat
    cdef long wins = 0, draws = 0, losses = 0
    cdef double margin = 0.0, diff, score_a = 0.0, score_b = 0.0
    cdef int64_t decisions = 0
    rng.x = base ^ <uint64_t>0x2545F4914F6CDD1DULL
    try:
        with nogil:
            for i in range(deals):
                for swap in range(2):
                    memcpy(buf, template.ptr, ops.state_size)
                    ops.reset(buf, base + <uint64_t>i)
                    while ops.to_move(buf) >= 0:
                        seat = ops.to_move(buf)
                        side = (seat & 1) ^ swap  # row (team) 0 is side A in the first game
                        if kind[side] == SIDE_RANDOM:
                            d = ops.random_decision(buf, &rng)
                        else:
                            d = lc_greedy_decision_p(buf, &rng, epsilon, &pa if side == 0 else &pb)
                        ops.apply(buf, d)
                        decisions += 1
                    diff = buf.totals[swap] - buf.totals[1 - swap]
                    score_a += buf.totals[swap]
                    score_b += buf.totals[1 - swap]
                    margin += diff
                    if diff > 0:
                        wins += 1
                    elif diff < 0:
                        losses += 1
                    else:
                        draws += 1
    finally:
        PyMem_Free(buf)
    games = 2 * deals
    return {"games": games, "wins": wins, "draws": draws, "losses": losses,
            "score": (wins + 0.5 * draws) / games if games else 0.0,
            "margin": margin / games if games else 0.0,
            "mean_a": score_a / games if games else 0.0, "mean_b": score_b / games if games else 0.0,
            "decisions": decisions}
