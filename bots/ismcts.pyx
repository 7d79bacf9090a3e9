# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Single-observer Information Set MCTS (Cowling, Powley & Whitehouse 2012) over `GameOps`.

One `Tree` is one search tree of the searching seat with its node pool, allocated once. Each
iteration copies the root position (a full state consistent with the seat's view), redeals what the
seat cannot see (`determinize`), descends the tree by UCB over the decisions legal in that
determinization — with *availability* counts: a child's exploration term uses how often it was legal,
not the parent's visits — adds one untried decision, plays a rollout (random, or the edition's
heuristic with epsilon-random decisions) and backs up one reward per seat (teammates share theirs).
The loop holds no Python object and no GIL. Budgets, threads and `info` lines are bots/ismcts_policy.py's business.

>>> import engine
>>> state = engine.new_game("classic", seed=3, rounds=1)
>>> view = state.view(0)
>>> tree = Tree(10_000)
>>> tree.begin(view.state, 0, seed=1)
>>> tree.run(2_000)
2000
>>> best = max(tree.root_children(), key=lambda c: c[1])
>>> best[0] in view.legal(), tree.nodes <= tree.capacity
(True, True)
"""
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.math cimport sqrt, log, exp
from libc.stdint cimport uint64_t, int64_t, uint32_t, int32_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from engine._core cimport State, GameOps, Rng, rng_below, rng_next, MAX_LEGAL, MAX_SEATS
from bots.heuristics cimport BotOps, Heuristic
from bots.inference cimport OpponentModel, Chain, chain_start, chain_step, chain_world

cdef extern from *:
    """
    static inline int ism_load(const int *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void ism_store(int *p, int v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    """
    int ism_load(const int* p) noexcept nogil
    void ism_store(int* p, int v) noexcept nogil


ROLLOUTS = {"random": ROLLOUT_RANDOM, "heuristic": ROLLOUT_HEURISTIC}
"""Rollout policies by option value."""
OTHERS = {"tree": OTHERS_TREE, "heuristic": OTHERS_HEURISTIC}
"""How the other seats decide inside the tree, by option value."""
REWARDS = {"auto": REWARD_AUTO, "margin": REWARD_MARGIN, "round": REWARD_ROUND, "match": REWARD_MATCH}
"""Reward kinds by option value (docs/search.md explains them)."""

# Why run() returned.
REASONS = ("yield", "iterations", "deadline", "stop", "nodes", "settled")
cdef enum:
    R_YIELD = 0
    R_ITERATIONS = 1
    R_DEADLINE = 2
    R_STOP = 3
    R_NODES = 4
    R_SETTLED = 5

NODE_BYTES = sizeof(Node)
"""Bytes per tree node (the unit of the Hash option)."""
MAX_NODES = 2_000_000_000
"""The most nodes a tree can hold (its indices are int32)."""


cdef inline int64_t now_ns() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return <int64_t>ts.tv_sec * 1000000000 + ts.tv_nsec


def monotonic_ns() -> int:
    """The clock run() compares its deadlines with (CLOCK_MONOTONIC, like time.monotonic_ns)."""
    return now_ns()


cdef inline void link_child(Node* nodes, int32_t c, int32_t parent, int decision, int mover) noexcept nogil:
    """Makes the free node c a new, unvisited first child of `parent` (available once: now)."""
    nodes[c].value = 0.0
    nodes[c].visits = 0
    nodes[c].avail = 1
    nodes[c].child = -1
    nodes[c].sibling = nodes[parent].child
    nodes[c].decision = <int16_t>decision
    nodes[c].mover = <int8_t>mover
    nodes[c]._pad0 = 0
    nodes[c]._pad1 = 0
    nodes[parent].child = c


cdef void best_first(const double* scores, int* order, int n, int k) noexcept nogil:
    """Fills order with 0..n-1, the k best scored first (best to worst; ties to the earlier)."""
    cdef int i, j, best, tmp
    for i in range(n):
        order[i] = i
    for i in range(k):  # partial selection sort: k is small
        best = i
        for j in range(i + 1, n):
            if scores[order[j]] > scores[order[best]]:
                best = j
        tmp = order[i]
        order[i] = order[best]
        order[best] = tmp


cdef inline int halving_rounds(int n) noexcept nogil:
    """The rounds of a halving race of n candidates: as many as halvings leave two."""
    cdef int rounds = 1
    while (1 << rounds) < n:
        rounds += 1
    return rounds


# Owns one search tree: its node pool, the root position and the iteration loop.
cdef class Tree:
    """A search tree of at most `capacity` nodes (the pool is allocated once, here).

    Use: `configure(...)` once, then per decision `begin(state, seat, seed)` and `run(...)` until the
    budget is spent, then read `root_children()`. `advance(decisions)` keeps the subtree reached by
    decisions made since (tree reuse) before the next `begin(..., keep=True)`.
    """
    def __cinit__(self, long capacity):
        if capacity < 2 or capacity > MAX_NODES:
            raise ValueError(f"a tree needs 2..2e9 nodes, got {capacity}")
        self.ops = NULL
        self.bot = NULL
        self.root_state = NULL
        self.work = NULL
        self.world = NULL
        self.mark = NULL
        self.inference = None
        self.model = NULL
        self.chains = <Chain*>PyMem_Malloc(MAX_CHAINS * sizeof(Chain))
        if self.chains == NULL:
            raise MemoryError()
        self.nchains = 0
        self.chains_ready = 0
        self.next_chain = 0
        self.chain_steps = 1
        self.burn_in = 0
        # malloc without touching: pages become resident only as the tree grows into them.
        self.pool = <Node*>malloc(<size_t>capacity * sizeof(Node))
        if self.pool == NULL:
            raise MemoryError(f"cannot allocate {capacity} search nodes")
        self.cap = <int32_t>capacity
        self.count = 0
        self.stamp = 0
        self.stop_flag = 0
        self.iters = 0
        self.reason_code = R_YIELD
        self.p.exploration = 0.7
        self.p.epsilon = 0.1
        self.p.scale = 40.0
        self.p.residual = 0.25
        self.p.score_weight = 0.0
        self.p.score_scale = 40.0
        self.p.rollout = ROLLOUT_RANDOM
        self.p.reward = REWARD_AUTO
        self.p.others = OTHERS_TREE
        self.p.max_depth = 0
        self.p.root_candidates = 0
        self.p.cutoff_turns = 0
        self.p.haste = 0.0
        self.p.halving = 0
        self.p.halving_floor = 0
        self.p.halving_protect = 0
        self.ranked = False
        self.plan = 0
        self.nsurv = 0
        self.rate_hint = 0.0
        self.cut_turns = 0
        self.plies = 0
        self.nskip = 0

    def __dealloc__(self):
        free(self.pool)
        PyMem_Free(self.root_state)
        PyMem_Free(self.work)
        PyMem_Free(self.world)
        PyMem_Free(self.mark)
        PyMem_Free(self.skip)
        PyMem_Free(self.chains)

    # ----- set-up ----------------------------------------------------------------------------------
    def configure(self, *, double exploration=0.7, str rollout="random", double epsilon=0.1,
                  str reward="auto", double scale=40.0, double residual=0.25,
                  double score_weight=0.0, double score_scale=40.0,
                  str others="tree", int max_depth=0, int root_candidates=0, int cutoff_turns=0,
                  double haste=0.0, bint halving=False, int halving_floor=0,
                  bint halving_protect=False) -> None:
        """Sets the search parameters (see bots/ismcts_policy.py for their options)."""
        if others not in OTHERS:
            raise ValueError(f"others: expected one of {', '.join(OTHERS)}, got {others!r}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout: expected one of {', '.join(ROLLOUTS)}, got {rollout!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward: expected one of {', '.join(REWARDS)}, got {reward!r}")
        if exploration < 0 or not 0.0 <= epsilon <= 1.0 or scale <= 0 or residual < 0 or max_depth < 0 \
                or root_candidates < 0 or not 0.0 <= score_weight <= 1.0 or score_scale <= 0 \
                or cutoff_turns < 0 or haste < 0 or halving_floor < 0:
            raise ValueError("exploration >= 0, epsilon in 0..1, scale > 0, residual >= 0, max_depth >= 0, "
                             "root_candidates >= 0, score_weight in 0..1, score_scale > 0, cutoff_turns >= 0, "
                             "haste >= 0, halving_floor >= 0")
        self.p.exploration = exploration
        self.p.rollout = ROLLOUTS[rollout]
        self.p.epsilon = epsilon
        self.p.reward = REWARDS[reward]
        self.p.scale = scale
        self.p.residual = residual
        self.p.score_weight = score_weight
        self.p.score_scale = score_scale
        self.p.others = OTHERS[others]
        self.p.max_depth = max_depth
        self.p.root_candidates = root_candidates
        self.p.cutoff_turns = cutoff_turns
        self.p.haste = haste
        self.p.halving = halving
        self.p.halving_floor = halving_floor
        self.p.halving_protect = halving_protect

    cdef int _reserve(self, const GameOps* ops) except -1:
        if ops == self.ops:
            return 0
        if ops.num_decision_ids > 32767:
            raise ValueError(f"{ops.name.decode()}: decision ids must fit 15 bits")
        PyMem_Free(self.root_state)
        PyMem_Free(self.work)
        PyMem_Free(self.world)
        PyMem_Free(self.mark)
        PyMem_Free(self.skip)
        self.skip = <uint8_t*>PyMem_Malloc(ops.num_decision_ids)
        self.root_state = <char*>PyMem_Malloc(ops.state_size)
        self.work = <char*>PyMem_Malloc(ops.state_size)
        self.world = <char*>PyMem_Malloc(ops.state_size)
        self.mark = <uint32_t*>PyMem_Malloc(ops.num_decision_ids * sizeof(uint32_t))
        if self.root_state == NULL or self.work == NULL or self.world == NULL or self.mark == NULL or self.skip == NULL:
            self.ops = NULL
            raise MemoryError()
        memset(self.mark, 0, ops.num_decision_ids * sizeof(uint32_t))
        memset(self.skip, 0, ops.num_decision_ids)
        self.nskip = 0
        self.stamp = 0
        self.ops = ops
        self.count = 0
        return 0

    def begin(self, State state, int seat, seed, bint keep=False, Heuristic heuristic=None,
              OpponentModel inference=None, int chains=8, int chain_steps=1, int burn_in=500, only=None) -> None:
        """Starts a search for `seat` (to move) from `state`, a position consistent with its view.

        Only what `seat` can see in `state` matters: every iteration redeals the rest. The rounds
        the match has after the current one set the reward's scale and let random rollouts use the
        edition's inlined playout in the last round. `keep` keeps the tree (after `advance`),
        otherwise it starts empty. `heuristic` is the edition's
        (`Edition.heuristic`): it plays the heuristic rollouts and the modelled seats and ranks the
        root candidates; without one those are random and the other seats are tree nodes. With an
        `inference` (the opponent model of this view, bots/inference.pyx), worlds are drawn from the posterior instead
        of uniformly: from `chains` Metropolis-Hastings chains in turn, each burnt in for `burn_in`
        steps at its first use and moved `chain_steps` steps between two of its worlds. `only` (decision
        ids) restricts the root to those of its legal decisions (`go searchmoves`); the tree's
        `root_candidates` then picks among them.
        """
        cdef const GameOps* ops = state.ops
        cdef int i, t, k, rounds_after
        cdef double spread
        cdef int ids[MAX_SEATS]
        if ops.to_move(state.ptr) != seat:
            raise ValueError(f"seat {seat} is not to move")
        if not 1 <= chains <= MAX_CHAINS or chain_steps < 1 or burn_in < 0:
            raise ValueError(f"chains in 1..{MAX_CHAINS}, chain_steps >= 1 and burn_in >= 0")
        if keep and ops != self.ops:
            raise ValueError("keep: the tree holds another edition")
        self._reserve(ops)
        self.heuristic = heuristic
        self.bot = NULL if heuristic is None else &heuristic.ops
        memcpy(self.root_state, state.ptr, ops.state_size)
        self.seat = seat
        self.nseats = ops.num_seats(state.ptr)
        # Teams as contiguous indices, with one representative seat each.
        self.nteams = 0
        for i in range(self.nseats):
            t = ops.team_of(state.ptr, i)
            for k in range(self.nteams):
                if ids[k] == t:
                    break
            else:
                k = self.nteams
                ids[k] = t
                self.rep[k] = i
                self.nteams += 1
            self.team[i] = k
        rounds_after = ops.rounds(state.ptr) - 1 - ops.round_index(state.ptr)
        self.rounds_after = rounds_after
        # A race (GameOps.margin 0) is won or lost and nothing more: its reward is the result.
        self.reward = self.p.reward if ops.margin else REWARD_MATCH
        self.score_weight = self.p.score_weight if ops.margin else 0.0
        self.horizon_round = -1 if self.reward == REWARD_MATCH else ops.round_index(state.ptr)
        # Rollouts cut short and scored by the heuristic's evaluation: match rewards only (a margin
        # reward scores the horizon it reaches anyway).
        self.cut_turns = self.p.cutoff_turns if (self.reward == REWARD_MATCH and self.bot != NULL
                                                 and self.bot.evaluate != NULL) else 0
        self.fast_rollout = (self.p.rollout == ROLLOUT_RANDOM or self.bot == NULL) and self.cut_turns == 0 \
            and ops.playout != NULL and (self.horizon_round < 0 or rounds_after == 0)
        if self.reward == REWARD_MARGIN:
            self.inv_scale = 1.0 / self.p.scale
        elif self.reward == REWARD_AUTO:
            spread = rounds_after + self.p.residual
            self.inv_scale = 1.0 / (self.p.scale * sqrt(spread)) if spread > 0 else 0.0
        else:
            self.inv_scale = 0.0
        memset(self.margin_sum, 0, sizeof(self.margin_sum))
        self.margin_n = 0
        self.rng.x = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
        self.play_rng.x = rng_next(&self.rng)
        self.inference = inference
        self.model = &inference.face if inference is not None else NULL
        self.nchains = chains if inference is not None else 0
        self.chains_ready = 0
        self.next_chain = 0
        self.chain_steps = chain_steps
        self.burn_in = burn_in
        self.root_moves = ops.legal(state.ptr, self.root_list)
        for i in range(self.nskip):
            self.skip[self.skip_list[i]] = 0
        self.nskip = 0
        if only is not None:
            wanted = set(only)
            if not any(self.root_list[i] in wanted for i in range(self.root_moves)):
                raise ValueError("only: none of these decisions is legal at the root")
            for i in range(self.root_moves):
                if self.root_list[i] not in wanted:
                    self._skip(self.root_list[i])
            self._drop_skipped()
        self._choose_candidates(state.ptr)
        self.stop_flag = 0
        self.iters = 0
        self.reason_code = R_YIELD
        self.started_ns = now_ns()
        if self.p.halving:
            keep = False  # a flat search: a kept node holds no children worth keeping
        if keep and self.count >= 1:
            self._prune_root()
        if not keep or self.count < 1:
            self.count = 1
            memset(&self.pool[0], 0, sizeof(Node))
            self.pool[0].child = -1
            self.pool[0].sibling = -1
            self.pool[0].mover = -1
        if self.p.halving:
            # Every root decision races from the start, in the heuristic's order where it scores
            # decisions (else root_list's): ties in the race go to its preference.
            self.nsurv = min(self.root_moves, self.cap - 1)
            self._rank_candidates(state.ptr)
            for i in range(self.nsurv):
                link_child(self.pool, self.count, 0, self.root_list[i], seat)
                self.pool[self.count].avail = 0
                self.surv[i] = self.count
                self.count += 1
            self.plan = 0
            self.wpos = 0
            self.worlds_done = 0

    # ----- the search --------------------------------------------------------------------------------
    def run(self, long long max_iterations, long long deadline_ns=0, long long yield_ns=0,
            long long node_limit=0, bint early=False) -> int:
        """Runs iterations without the GIL; returns how many were made.

        Stops after `max_iterations`, at `deadline_ns` (monotonic_ns() clock; 0 none), when the tree
        holds `node_limit` nodes or has run that many iterations (0 none), at `request_stop()`, or — with `early` — once the most
        visited root decision cannot be overtaken in what is left of the budget. Returns early at
        `yield_ns` (0 none) so the caller can report; `reason` says why it returned.
        """
        if self.ops == NULL or self.count < 1:
            raise RuntimeError("begin() first")
        cdef int64_t n
        with nogil:
            n = self._run(max_iterations, deadline_ns, yield_ns, node_limit, early)
        return n

    def request_stop(self) -> None:
        """Makes a running run() return after its current iteration (callable from any thread)."""
        ism_store(&self.stop_flag, 1)

    cdef int64_t _run(self, int64_t max_iter, int64_t deadline_ns, int64_t yield_ns,
                      int64_t node_limit, bint early) noexcept nogil:
        cdef int64_t done = 0, now = 0
        cdef bint timed = deadline_ns > 0 or yield_ns > 0
        self.reason_code = R_ITERATIONS
        self.deadline_ns = deadline_ns
        self.running = True
        if self.p.halving and self.plan == 0 and max_iter > 0:  # the first run of a search plans it
            self._halving_plan(max_iter if max_iter < (<int64_t>1 << 40) else self._timed_budget(deadline_ns))
        while done < max_iter:
            if ism_load(&self.stop_flag):
                self.reason_code = R_STOP
                break
            # A tree that cannot grow so far (MaxDepth, a game near its end) stops after as many
            # iterations: an iteration adds at most one node, so this never cuts a growing tree short.
            if node_limit > 0 and (self.count >= node_limit or self.iters >= node_limit):
                self.reason_code = R_NODES
                break
            if timed:  # every iteration: one costs far more than reading the clock
                now = now_ns()
                if deadline_ns > 0 and now >= deadline_ns:
                    self.reason_code = R_DEADLINE
                    break
                if yield_ns > 0 and now >= yield_ns:
                    self.reason_code = R_YIELD
                    break
            if early and (self.iters & 63) == 0 and self.iters > 0:
                if deadline_ns > 0:
                    now = now_ns()
                if self._settled(max_iter - done, deadline_ns, now):
                    self.reason_code = R_SETTLED
                    break
            if not (self._halving_step() if self.p.halving else self._iterate()):
                # cut short inside a chain's burn-in: the deadline or a stop
                self.reason_code = R_STOP if ism_load(&self.stop_flag) else R_DEADLINE
                break
            done += 1
            self.iters += 1
        self.running = False
        now = now_ns()
        if self.iters > 0 and now > self.started_ns:
            self.rate_hint = self.iters * 1e9 / (now - self.started_ns)
        return done

    cdef int64_t _timed_budget(self, int64_t deadline_ns) noexcept nogil:
        """The iterations a halving search plans for without an iteration budget: what the previous
        search's rate makes of the time left; -1 (plan after the first world, from its rate) without
        one; a large number without a deadline (an infinite search)."""
        if deadline_ns <= 0:
            return <int64_t>1 << 24
        if self.rate_hint <= 0.0:
            return -1
        return max(<int64_t>1, <int64_t>(self.rate_hint * (deadline_ns - now_ns()) / 1e9))

    cdef void _rank_candidates(self, const void* state) noexcept:
        # The first nsurv decisions of root_list in the heuristic's order, best first (ties to the earlier).
        cdef double scores[512]
        cdef int order[512]
        cdef int decisions[512]
        cdef int i, n = self.nsurv
        self.ranked = False
        if self.bot == NULL or self.bot.score == NULL:
            return
        self.bot.score(state, self.root_list, n, scores)
        best_first(scores, order, n, n)
        for i in range(n):
            decisions[i] = self.root_list[order[i]]
        memcpy(self.root_list, decisions, n * sizeof(int))
        self.ranked = True

    cdef void _halving_plan(self, int64_t budget) noexcept nogil:
        """Plans the rounds for `budget` more iterations (-1: after the first world): as many
        rounds as halvings leave two candidates, each round an equal share of the budget spread over
        its candidates; the last round (two candidates, or one) runs until the budget ends. Where
        that share would give a candidate fewer than `halving_floor` worlds in the first round, only
        the heuristic's best candidates race, as many as can have that many (at least two), best first."""
        cdef int n = self.nsurv
        if budget < 0:
            self.plan = -1
            self.round_worlds = 1
            return
        self.plan = self.iters + budget
        if self.ranked:  # the heuristic's best first: a shorter race keeps them
            while n > 2 and budget // (halving_rounds(n) * n) < self.p.halving_floor:
                n -= 1
            self.nsurv = n
        self.rounds_left = halving_rounds(n)
        self._halving_round(budget)

    cdef void _halving_round(self, int64_t left) noexcept nogil:
        if self.nsurv <= 2 or self.rounds_left <= 1:
            self.round_worlds = 0
        else:
            self.round_worlds = max(<int64_t>1, left // (self.rounds_left * self.nsurv))

    cdef void _halving_cut(self) noexcept nogil:
        """Ends a round: the better half of the candidates (by their rewards in the same worlds; ties
        to the earlier) goes on; with `halving_protect`, the heuristic's decision always among them."""
        cdef int i, j, keep = (self.nsurv + 1) // 2
        cdef int32_t c
        for i in range(1, self.nsurv):  # insertion sort, best first
            c = self.surv[i]
            j = i - 1
            while j >= 0 and self.pool[self.surv[j]].value < self.pool[c].value:
                self.surv[j + 1] = self.surv[j]
                j -= 1
            self.surv[j + 1] = c
        if self.p.halving_protect and self.ranked:
            # The heuristic's decision (linked first: node 1) goes on in place of the last one kept.
            for i in range(keep, self.nsurv):
                if self.surv[i] == 1:
                    self.surv[i] = self.surv[keep - 1]
                    self.surv[keep - 1] = 1
                    break
        self.nsurv = keep
        self.rounds_left -= 1
        self.worlds_done = 0
        self._halving_round(self.plan - self.iters)

    cdef bint _halving_step(self) noexcept nogil:
        """One iteration of a halving search: the next candidate played out in the current world
        (a new world after the last). A world's rewards count once every candidate has played it,
        so that the candidates always share their worlds (a search stopped inside one drops it)."""
        cdef void* s = self.work
        cdef double reward[MAX_SEATS]
        cdef int i
        cdef int32_t c
        cdef int64_t elapsed
        if self.wpos == 0:
            if not self._sample_world(self.world):
                return False
            self.world_play.x = rng_next(&self.rng)
        c = self.surv[self.wpos]
        memcpy(s, self.world, self.ops.state_size)
        self.play_rng = self.world_play
        self.plies = 0
        self.turns = 0
        self.ops.apply(s, self.pool[c].decision)
        self.plies += 1
        self._count_turn(s, self.seat)
        self._rollout(s)
        self._reward(s, reward)
        self.wsum[self.wpos] = reward[self.seat]
        self.wpos += 1
        if self.wpos < self.nsurv:
            return True
        self.wpos = 0
        for i in range(self.nsurv):
            c = self.surv[i]
            self.pool[c].visits += 1
            self.pool[c].avail += 1
            self.pool[c].value += self.wsum[i]
        self.pool[0].visits += self.nsurv
        self.worlds_done += 1
        if self.plan < 0:  # timed, no rate yet: the first world's
            elapsed = now_ns() - self.started_ns
            self.rate_hint = (self.iters + 1) * 1e9 / elapsed if elapsed > 0 else 1e9
            self.plan = 0
            self._halving_plan(self._timed_budget(self.deadline_ns))
        if self.round_worlds > 0 and self.worlds_done >= self.round_worlds:
            self._halving_cut()
        return True

    cdef bint _late(self) noexcept nogil:
        """Whether a running run() must end now: a stop was asked for, or its deadline passed."""
        return self.running and (ism_load(&self.stop_flag) != 0
                                 or (self.deadline_ns > 0 and now_ns() >= self.deadline_ns))

    cdef bint _settled(self, int64_t left, int64_t deadline_ns, int64_t now) noexcept nogil:
        """Whether the runner-up at the root can no longer catch the most visited decision."""
        cdef uint32_t best = 0, second = 0, v
        cdef int32_t c = self.pool[0].child
        cdef int64_t elapsed, estimate
        if self.p.halving:
            return self.nsurv <= 1
        while c >= 0:
            v = self.pool[c].visits
            if v > best:
                second = best
                best = v
            elif v > second:
                second = v
            c = self.pool[c].sibling
        if deadline_ns > 0:
            elapsed = now - self.started_ns
            if elapsed <= 0 or self.iters < 256:
                return False
            estimate = <int64_t>(<double>self.iters * <double>(deadline_ns - now) / <double>elapsed)
            if estimate < left:
                left = estimate
        return <int64_t>best - <int64_t>second > left

    cdef bint _sample_world(self, void* s) noexcept nogil:
        """A world of the root's view: a uniform determinization, or the next opponent-model chain's
        (several chains, so that one stuck in a wrong corner of the posterior weighs little). False,
        and no world, when a chain's burn-in (milliseconds of work, far more than an iteration) was
        cut short by the deadline or a stop: on a loaded machine it could otherwise run a search
        tens of milliseconds past its time. The chain is burnt in afresh at its next use."""
        cdef int i, k
        cdef Chain* ch
        memcpy(s, self.root_state, self.ops.state_size)
        if self.nchains == 0:
            self.ops.determinize(s, self.seat, &self.rng)
            return True
        k = self.next_chain
        self.next_chain = k + 1 if k + 1 < self.nchains else 0
        ch = &self.chains[k]
        if k >= self.chains_ready:
            # First use: start at a uniform determinization and burn in.
            self.ops.determinize(s, self.seat, &self.rng)
            if chain_start(ch, self.model, s, &self.rng) < 0:
                self.nchains = 0  # the view and its model disagree: uniform from now on
                return True
            for i in range(self.burn_in):
                chain_step(ch, &self.rng)
                if (i & 31) == 31 and self._late():
                    self.next_chain = k
                    return False
            self.chains_ready += 1
            memcpy(s, self.root_state, self.ops.state_size)
        else:
            for i in range(self.chain_steps):
                chain_step(ch, &self.rng)
        chain_world(ch, s, &self.rng)
        return True

    cdef bint _iterate(self) noexcept nogil:
        cdef const GameOps* ops = self.ops
        cdef void* s = self.work
        cdef Node* nodes = self.pool
        cdef uint32_t* mark = self.mark
        cdef int moves[MAX_LEGAL]
        cdef int32_t path[MAX_DEPTH]
        cdef double reward[MAX_SEATS]
        cdef int depth = 1, n, i, k, mover, d = 0, compatible, untried, excluded
        cdef int32_t node = 0, c, best
        cdef uint32_t stamp
        cdef double score, best_score, C = self.p.exploration
        cdef bint model = self.p.others == OTHERS_HEURISTIC and self.bot != NULL
        if not self._sample_world(s):
            return False
        self.plies = 0
        self.turns = 0
        path[0] = 0
        while True:
            mover = ops.to_move(s)
            if mover < 0 or (self.horizon_round >= 0 and ops.round_index(s) != self.horizon_round):
                break  # a terminal of the search: scored as it stands
            if model and mover != self.seat:
                # The other seats are modelled by the heuristic: their decisions take no node, and
                # the seat's next node gathers whatever they did (like a chance event).
                ops.apply(s, self.bot.decision(s, &self.play_rng, self.p.epsilon))
                self.plies += 1
                self._count_turn(s, mover)
                continue
            if depth >= MAX_DEPTH or (self.p.max_depth > 0 and depth > self.p.max_depth):
                self._rollout(s)
                break
            n = ops.legal(s, moves)
            self.stamp += 1
            if self.stamp == 0xFFFFFFFFU:
                memset(mark, 0, ops.num_decision_ids * sizeof(uint32_t))
                self.stamp = 1
            stamp = self.stamp
            for i in range(n):
                mark[moves[i]] = stamp
            excluded = 0
            if node == 0 and self.nskip > 0:
                for i in range(n):
                    if self.skip[moves[i]]:
                        mark[moves[i]] = 0  # neither tried nor untried: never searched
                        excluded += 1
            # Children legal in this determinization are available: count it, score them by UCB.
            compatible = 0
            best = -1
            best_score = -1e300
            c = nodes[node].child
            while c >= 0:
                k = nodes[c].decision
                if mark[k] == stamp:
                    mark[k] = 0  # tried: what keeps the stamp is untried
                    compatible += 1
                    nodes[c].avail += 1
                    score = nodes[c].value / nodes[c].visits \
                        + C * sqrt(log(<double>nodes[c].avail) / nodes[c].visits)
                    if score > best_score:
                        best_score = score
                        best = c
                c = nodes[c].sibling
            untried = n - excluded - compatible
            if untried > 0:
                k = rng_below(&self.rng, untried)
                for i in range(n):
                    if mark[moves[i]] == stamp:
                        if k == 0:
                            d = moves[i]
                            break
                        k -= 1
            if untried > 0 and self.count < self.cap:
                c = self.count
                self.count += 1
                link_child(nodes, c, node, d, mover)
                ops.apply(s, d)
                self.plies += 1
                self._count_turn(s, mover)
                path[depth] = c
                depth += 1
                self._rollout(s)
                break
            if best < 0:  # the pool is full and nothing here was ever expanded
                self._rollout(s)
                break
            ops.apply(s, nodes[best].decision)
            self.plies += 1
            self._count_turn(s, mover)
            node = best
            path[depth] = best
            depth += 1
        self._reward(s, reward)
        nodes[0].visits += 1
        for i in range(1, depth):
            c = path[i]
            nodes[c].visits += 1
            nodes[c].value += reward[nodes[c].mover]
        return True

    cdef int32_t _find(self, int32_t parent, int decision) noexcept nogil:
        """The child of `parent` for `decision`, or -1."""
        cdef int32_t c = self.pool[parent].child
        while c >= 0 and self.pool[c].decision != decision:
            c = self.pool[c].sibling
        return c

    cdef inline void _count_turn(self, const void* s, int mover) noexcept nogil:
        """Counts a turn of the searching seat begun by the decision `mover` just made (only where
        rollouts are cut after turns: elsewhere nothing reads the count)."""
        if self.cut_turns > 0 and mover != self.seat and self.ops.to_move(s) == self.seat:
            self.turns += 1

    cdef void _rollout(self, void* s) noexcept nogil:
        """Plays on to the horizon or, when rollouts are cut short, to where the searching seat is
        about to begin its `cut_turns`-th turn since the root."""
        cdef const GameOps* ops = self.ops
        cdef int horizon = self.horizon_round, n = 0, mover
        cdef bint heuristic = self.p.rollout == ROLLOUT_HEURISTIC and self.bot != NULL
        if self.fast_rollout:
            ops.playout(s, &self.play_rng)
            return
        while True:
            mover = ops.to_move(s)
            if mover < 0 or (horizon >= 0 and ops.round_index(s) != horizon) \
                    or (self.cut_turns > 0 and self.turns >= self.cut_turns):
                break
            if heuristic:
                ops.apply(s, self.bot.decision(s, &self.play_rng, self.p.epsilon))
            else:
                ops.apply(s, ops.random_decision(s, &self.play_rng))
            self._count_turn(s, mover)
            n += 1
        self.plies += n

    cdef void _reward(self, void* s, double* out) noexcept nogil:
        """Per seat, the reward of the position where the iteration ended (teams share one).

        With a score weight w, (1 - w) of it is the win term of the reward kind and w a logistic of
        the margin against the mean margin of the iterations so far: where every line wins (or loses)
        the win term is flat, and this share still prefers the decisions that win by more (lose by
        less) than the search expects."""
        cdef const GameOps* ops = self.ops
        cdef double scores[MAX_SEATS]
        cdef double side[MAX_SEATS]
        cdef double value[MAX_SEATS]
        cdef double x, total, relative, centre, w = self.score_weight
        cdef int t, u, i, k, nt = self.nteams
        cdef bint result = self.reward == REWARD_MATCH and ops.to_move(s) < 0
        cdef bint estimate = self.reward == REWARD_MATCH and not result and self.cut_turns > 0
        cdef double shrink, draw
        if result or estimate:
            if result:
                ops.returns(s, out)  # the win term: the match's result
            else:
                self.bot.evaluate(s, out)  # a rollout cut short: the heuristic's chances
                result = True
            if self.p.haste > 0.0 and nt > 1:
                # Haste: a win sooner is worth more than a win later (a loss later, less than one
                # sooner), so that decided positions still make progress instead of tying.
                shrink = exp(-self.p.haste * self.plies)
                draw = 1.0 / nt
                for i in range(self.nseats):
                    out[i] = draw + (out[i] - draw) * shrink
            if w <= 0.0:
                return
        ops.scores(s, scores)
        for t in range(nt):
            side[t] = scores[self.rep[t]]
        for t in range(nt):
            total = 0.0
            relative = 0.0
            for u in range(nt):
                if u == t:
                    continue
                x = side[t] - side[u]
                if self.inv_scale > 0.0:
                    total += 1.0 / (1.0 + exp(-x * self.inv_scale))
                else:
                    total += 1.0 if x > 0 else (0.5 if x == 0 else 0.0)
                if w > 0.0:
                    k = t * MAX_SEATS + u
                    centre = self.margin_sum[k] / self.margin_n if self.margin_n > 0 else x
                    self.margin_sum[k] += x
                    relative += 1.0 / (1.0 + exp(-(x - centre) / self.p.score_scale))
            if nt < 2:
                value[t] = 0.5
            else:
                value[t] = out[self.rep[t]] if result else total / (nt - 1)
                if w > 0.0:
                    value[t] = (1.0 - w) * value[t] + w * relative / (nt - 1)
        if w > 0.0:
            self.margin_n += 1
        for i in range(self.nseats):
            out[i] = value[self.team[i]]

    # ----- reading the tree ----------------------------------------------------------------------------
    @property
    def capacity(self) -> int:
        """Nodes the pool can hold."""
        return self.cap

    @property
    def nodes(self) -> int:
        """Nodes in use (the root included)."""
        return self.count

    @property
    def iterations(self) -> int:
        """Iterations since begin()."""
        return self.iters

    def chain_stats(self) -> tuple:
        """(steps, accepted steps, mean log-likelihood now) of the opponent model's chains started so
        far; None when worlds are uniform determinizations."""
        cdef int k
        if self.nchains == 0 or self.chains_ready == 0:
            return None
        steps = sum(self.chains[k].steps for k in range(self.chains_ready))
        accepted = sum(self.chains[k].accepted for k in range(self.chains_ready))
        return steps, accepted, sum(self.chains[k].loglik for k in range(self.chains_ready)) / self.chains_ready

    @property
    def reason(self) -> str:
        """Why the last run() returned: yield, iterations, deadline, stop, nodes or settled."""
        return REASONS[self.reason_code]

    @property
    def halving(self) -> bool:
        """Whether the root is searched by sequential halving over shared worlds."""
        return self.p.halving != 0

    @property
    def others_in_tree(self) -> bool:
        """Whether the other seats' decisions are tree nodes (false when the heuristic plays them)."""
        return not (self.p.others == OTHERS_HEURISTIC and self.bot != NULL)

    @property
    def root_visits(self) -> int:
        return self.pool[0].visits if self.count > 0 else 0

    def root_children(self) -> list:
        """(decision, visits, availability, sum of the searching seat's rewards) per root child."""
        out = []
        if self.count < 1:
            return out
        cdef int32_t c = self.pool[0].child
        while c >= 0:
            out.append((self.pool[c].decision, self.pool[c].visits, self.pool[c].avail, self.pool[c].value))
            c = self.pool[c].sibling
        return out

    def principal_variation(self, int max_length=16, int min_visits=2, int first=-1) -> list:
        """Decisions along the most visited children from the root (each with >= min_visits); with
        `first` (a decision id), the line through that root child instead of the most visited one
        (the lines of `MultiPV`), empty when the root has no such child."""
        out = []
        cdef int32_t node = 0, c, best
        cdef uint32_t most
        if self.count < 1:
            return out
        if first >= 0:
            c = self.pool[0].child
            while c >= 0 and self.pool[c].decision != first:
                c = self.pool[c].sibling
            if c < 0 or self.pool[c].visits < <uint32_t>min_visits:
                return out
            out.append(first)
            node = c
        while len(out) < max_length:
            best = -1
            most = 0
            c = self.pool[node].child
            while c >= 0:
                if self.pool[c].visits > most:
                    most = self.pool[c].visits
                    best = c
                c = self.pool[c].sibling
            if best < 0 or most < <uint32_t>min_visits:
                break
            out.append(self.pool[best].decision)
            node = best
        return out

    def sample(self, State out) -> None:
        """Writes into `out` (same edition) one determinization the search would use next."""
        if self.ops == NULL or out.ops != self.ops:
            raise ValueError("begin() with a state of out's edition first")
        self._sample_world(out.ptr)

    # ----- reuse ---------------------------------------------------------------------------------------
    def advance(self, decisions) -> bool:
        """Keeps only the subtree reached from the root by `decisions` (decision ids), compacted to
        the front of the pool; False (and an empty tree) when some step has no node."""
        cdef int32_t node
        if self.count < 1:
            return False
        node = self._walk(decisions)
        if node < 0:
            self.count = 0
            return False
        if node != 0:
            self._compact(node)
        return True

    cdef int32_t _walk(self, decisions) except -2:
        """The node reached from the root by `decisions`, or -1 when some step has no node."""
        cdef int32_t node = 0
        for decision in decisions:
            node = self._find(node, decision)
            if node < 0:
                return -1
        return node

    cdef void _skip(self, int decision) noexcept:
        self.skip[decision] = 1
        self.skip_list[self.nskip] = decision
        self.nskip += 1

    cdef void _drop_skipped(self) noexcept:
        # Leaves the decisions marked in `skip` out of root_list.
        cdef int i, j = 0
        for i in range(self.root_moves):
            if not self.skip[self.root_list[i]]:
                self.root_list[j] = self.root_list[i]
                j += 1
        self.root_moves = j

    cdef void _choose_candidates(self, const void* state) noexcept:
        # RootCandidates: the heuristic's best decisions only (ties to the earlier decision); the
        # others are marked in `skip`, left out of root_list (so a kept subtree loses them too).
        cdef double scores[512]
        cdef int order[512]
        cdef int i, k = self.p.root_candidates, n = self.root_moves
        if k <= 0 or n <= k or self.bot == NULL or self.bot.score == NULL:
            return
        self.bot.score(state, self.root_list, n, scores)
        best_first(scores, order, n, k)
        for i in range(k, n):
            self._skip(self.root_list[order[i]])
        self._drop_skipped()

    cdef void _prune_root(self) noexcept:
        # A kept subtree's root has children for decisions that were legal only in some worlds
        # (cards the seat might have drawn): unlink those not legal now.
        cdef int32_t prev = -1, c = self.pool[0].child, nxt
        cdef int i
        cdef bint legal
        while c >= 0:
            nxt = self.pool[c].sibling
            legal = False
            for i in range(self.root_moves):
                if self.root_list[i] == self.pool[c].decision:
                    legal = True
                    break
            if legal:
                prev = c
            elif prev < 0:
                self.pool[0].child = nxt
            else:
                self.pool[prev].sibling = nxt
            c = nxt

    cdef int _compact(self, int32_t new_root) except -1:
        # Children are allocated after their parents, so the subtree's nodes keep their order when
        # slid down: every node moves to a lower or equal index, never over one not yet moved.
        cdef int32_t n = self.count, i, k = 0, c, top = 0
        cdef int32_t* remap = <int32_t*>malloc(n * sizeof(int32_t))
        cdef int32_t* stack = <int32_t*>malloc(n * sizeof(int32_t))
        cdef Node node
        if remap == NULL or stack == NULL:
            free(remap)
            free(stack)
            raise MemoryError()
        for i in range(n):
            remap[i] = -1
        remap[new_root] = 0
        stack[top] = new_root
        top += 1
        while top > 0:
            top -= 1
            c = self.pool[stack[top]].child
            while c >= 0:
                remap[c] = 0
                stack[top] = c
                top += 1
                c = self.pool[c].sibling
        for i in range(new_root, n):
            if remap[i] >= 0:
                remap[i] = k
                k += 1
        for i in range(new_root, n):
            if remap[i] >= 0:
                node = self.pool[i]
                node.child = remap[node.child] if node.child >= 0 else -1
                node.sibling = remap[node.sibling] if (node.sibling >= 0 and i != new_root) else -1
                self.pool[remap[i]] = node
        self.pool[0].mover = -1
        self.count = k
        free(remap)
        free(stack)
        return 0
