# Single-observer Information Set MCTS over the compiled game face (GameOps): one tree, its node
# pool and the nogil iteration loop. Budgets, threads and the protocol live in bots/ismcts_policy.py.
from libc.stdint cimport uint32_t, int32_t, int16_t, int8_t, uint8_t, int64_t, uint64_t

from engine._core cimport GameOps, Rng, MAX_SEATS
from bots.heuristics cimport BotOps, Heuristic
from bots.inference cimport Chain, WorldModel

cdef enum:
    ROLLOUT_RANDOM = 0
    ROLLOUT_HEURISTIC = 1

cdef enum:
    REWARD_AUTO = 0       # logistic of the match margin, its scale growing with the rounds left
    REWARD_MARGIN = 1     # logistic of the match margin with a fixed scale
    REWARD_ROUND = 2      # 1 / 0.5 / 0 by who leads the match once the current round is scored
    REWARD_MATCH = 3      # rollouts to the end of the match, 1 / 0.5 / 0 by the engine's returns

cdef enum:
    OTHERS_TREE = 0       # every seat's decisions are tree nodes (plain SO-ISMCTS)
    OTHERS_HEURISTIC = 1  # the other seats play the rollout heuristic; the tree holds the seat's own

cdef enum:
    MAX_DEPTH = 1024      # decisions from the root before the tree stops descending
    MAX_CHAINS = 64       # opponent-model chains per tree

# One decision edge of the tree, 32 bytes. Children form a singly linked list (newest first).
ctypedef struct Node:
    double value          # sum of the rewards of `mover` over the visits
    uint32_t visits
    uint32_t avail        # iterations in which `decision` was legal at the parent
    int32_t child         # first child, -1 for none
    int32_t sibling       # next sibling, -1 for none
    int16_t decision
    int8_t mover          # the seat that made `decision` (-1 at the root)
    uint8_t _pad0
    int32_t _pad1

ctypedef struct SearchParams:
    double exploration    # UCB constant c
    double epsilon        # heuristic rollouts: share of uniformly random decisions
    double scale          # margin / auto rewards: points of margin per logistic unit
    double residual       # auto: rounds' worth of spread still counted in the last round
    double score_weight   # share of the reward given to the margin against its running mean
    double score_scale    # points of margin per logistic unit of that share
    int rollout           # ROLLOUT_*
    int reward            # REWARD_*
    int others            # OTHERS_*: how the other seats decide inside the tree
    int max_depth         # nodes below the root on a path before rollouts take over; 0 unlimited
    int root_candidates   # > 0: only the heuristic's best this many root decisions are searched
    int cutoff_turns      # > 0: match rewards end a rollout where the searching seat is about to begin
                          # its cutoff_turns-th turn since the root, scored by the heuristic's
                          # evaluation (where it has one)
    double haste          # match rewards: the result's distance from a draw shrinks by exp(-haste) a decision
    int halving           # flat root search by sequential halving over worlds shared by the candidates
    int halving_floor     # > 0: worlds a halving's first round gives each candidate at least (the
                          # heuristic's best decisions race alone when the budget cannot give all that many)
    int halving_protect   # the heuristic's decision is never cut from a halving race (it reaches the final)


cdef class Tree:
    cdef const GameOps* ops
    cdef const BotOps* bot    # the edition's heuristic (rollouts, modelled seats, root candidates), or NULL
    cdef Heuristic heuristic  # keeps `bot` alive
    cdef SearchParams p
    cdef Node* pool
    cdef int32_t cap
    cdef int32_t count
    cdef char* root_state
    cdef char* work
    cdef object inference     # the opponent model of this search (bots.inference.OpponentModel) or None
    cdef const WorldModel* model  # its compiled face, NULL: uniform determinizations
    cdef Chain* chains        # Metropolis-Hastings chains over the model's worlds, used in turn
    cdef int nchains
    cdef int chains_ready     # chains started and burnt in (each at its first use)
    cdef int next_chain
    cdef int chain_steps      # steps of a chain between two of its worlds
    cdef int burn_in          # steps of a chain before its first world
    cdef int root_moves       # legal decisions at the root
    cdef int root_list[512]   # and which (MAX_LEGAL)
    cdef uint32_t* mark       # per decision id: == stamp when legal at the node being visited
    cdef uint8_t* skip        # per decision id: 1 when left out at the root (root_candidates)
    cdef int skip_list[512]   # the root decisions left out (to clear `skip` at the next begin)
    cdef int nskip            # how many
    cdef uint32_t stamp
    cdef int seat
    cdef int reward           # the reward kind of this search (REWARD_MATCH in a race, whatever p says)
    cdef double score_weight  # the margin's share of the reward (0 in a race)
    cdef int horizon_round    # the round whose end is terminal, or -1 (REWARD_MATCH)
    cdef int rounds_after     # rounds the match has after the root's round
    cdef int fast_rollout     # the edition's inlined playout reaches the horizon
    cdef int cut_turns        # the searching seat's turns begun before the evaluation scores a rollout; 0: none
    cdef int turns            # turns the searching seat began in the current iteration
    cdef int plies            # decisions made from the root in the current iteration
    cdef int nseats
    cdef int nteams
    cdef int team[MAX_SEATS]
    cdef int rep[MAX_SEATS]   # one seat of each team
    cdef double inv_scale     # 0: win/draw/loss rewards
    cdef double margin_sum[MAX_SEATS * MAX_SEATS]  # per pair of teams, the margins of the iterations so far
    cdef int64_t margin_n     # iterations summed there (since begin)
    cdef Rng rng              # determinizations and the tree's own choices
    cdef Rng play_rng         # the decisions of rollouts and of the modelled seats
    cdef int stop_flag        # set from another thread (atomic store), polled every iteration
    cdef int64_t iters        # since begin()
    cdef int64_t started_ns
    cdef int64_t deadline_ns  # the running run()'s deadline (0: none), also read inside a chain's burn-in
    cdef bint running         # inside run(): a chain's burn-in may be cut short
    cdef int reason_code      # why the last run() returned (R_* in ismcts.pyx)
    # Sequential halving (p.halving): every candidate still in the race is played out in the same
    # world, one world after another; after each round the worse half drops out.
    cdef char* world          # the world of the current round's current world index
    cdef int32_t surv[512]    # root children still in the race
    cdef int nsurv
    cdef bint ranked          # the candidates were put in the heuristic's order, best first
    cdef int rounds_left      # rounds planned from here (the last one takes what the budget leaves)
    cdef int64_t round_worlds # worlds planned for the current round (0: until the budget ends)
    cdef int64_t worlds_done  # worlds finished in the current round
    cdef int64_t plan         # iterations the schedule is planned for (0: not planned; -1: after a world)
    cdef int wpos             # candidates played out in the current world
    cdef double wsum[512]     # their rewards, committed when the world is complete
    cdef Rng world_play       # the rollouts' generator at the start of the current world
    cdef double rate_hint     # iterations a second of this tree's previous search (timed plans)
    cdef int _reserve(self, const GameOps* ops) except -1
    cdef bint _late(self) noexcept nogil
    cdef bint _sample_world(self, void* s) noexcept nogil
    cdef bint _iterate(self) noexcept nogil
    cdef bint _halving_step(self) noexcept nogil
    cdef void _halving_plan(self, int64_t budget) noexcept nogil
    cdef void _rank_candidates(self, const void* state) noexcept
    cdef void _halving_cut(self) noexcept nogil
    cdef void _halving_round(self, int64_t left) noexcept nogil
    cdef int64_t _timed_budget(self, int64_t deadline_ns) noexcept nogil
    cdef void _count_turn(self, const void* s, int mover) noexcept nogil
    cdef void _rollout(self, void* s) noexcept nogil
    cdef int32_t _walk(self, decisions) except -2
    cdef int32_t _find(self, int32_t parent, int decision) noexcept nogil
    cdef void _reward(self, void* s, double* out) noexcept nogil
    cdef int _compact(self, int32_t new_root) except -1
    cdef void _prune_root(self) noexcept
    cdef void _choose_candidates(self, const void* state) noexcept
    cdef void _skip(self, int decision) noexcept
    cdef void _drop_skipped(self) noexcept
    cdef bint _settled(self, int64_t left, int64_t deadline_ns, int64_t now) noexcept nogil
    cdef int64_t _run(self, int64_t max_iter, int64_t deadline_ns, int64_t yield_ns,
                      int64_t node_limit, bint early) noexcept nogil
