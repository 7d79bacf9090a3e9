# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""N matches of one edition stepped together in compiled code, for training at scale.

Observations (the mover's observation tensor, `Edition.observation`) and action masks are written
into preallocated numpy arrays without the GIL; a match that ends is dealt again in place at once
(auto-reset: that step's `dones` is 1, its `rewards` the match's, and the observation already the
new match's first). Deals follow one seeded SplitMix64 sequence, so a run is reproducible.

The arrays are kept up to date in place: after a decision only the mask entries of the legal lists
before and after change, and the observation is brought from the state it was written from (a copy
kept per match) by the edition's incremental writer (`Observation.update`), which rewrites only what
differs. So the arrays are the environment's to write: read or copy them, never write into them
(`reset()` writes them afresh).

Rewards are per seat, given on the step that ends a match and 0 otherwise: the seat's return minus
the mean return of the other seats (`rl.spaces.rewards`: with two players +1 a win, -1 a loss, 0 a
draw; they sum to 0).

>>> import numpy as np
>>> from rl.batched import BatchedEnv
>>> env = BatchedEnv("classic", 4, seed=1)
>>> obs, masks = env.reset()
>>> obs.shape, masks.shape, int(env.to_move[0])
((4, 383), (4, 2214), 0)
>>> obs, masks, rewards, dones = env.step(env.sample_actions())
>>> bool(masks[0, 128]), rewards.shape
(True, (4, 2))
"""
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset
from libc.stdint cimport uint8_t, uint64_t, int32_t

from engine._core cimport GameOps, Rules, State, Rng, rng_next, rng_below, MAX_LEGAL, MAX_SEATS
from engine.observation cimport Observation, ObserveFn, UpdateFn

import numpy as np

import engine
from engine.edition import Edition
from engine.errors import IllegalDecisionError, OptionError


cdef class BatchedEnv:
    """`num_envs` matches of `edition` (a name or a record), dealt with `players` and rule `options`."""

    cdef const GameOps* ops
    cdef ObserveFn observe_fn
    cdef UpdateFn update_fn
    cdef readonly int num_envs, observation_size, num_actions, num_seats
    cdef size_t ssize
    cdef char* states
    cdef char* template
    cdef char* written       # per match, the state its observation row was written from
    cdef int* viewer         # per match, the seat that row observes
    cdef int* legal
    cdef int* nlegal
    cdef Rng deals
    cdef Rng picks
    cdef float[:, ::1] _obs
    cdef uint8_t[:, ::1] _mask
    cdef float[:, ::1] _rew
    cdef float[:, ::1] _scores
    cdef uint8_t[::1] _done
    cdef int32_t[::1] _to_move
    cdef int32_t[::1] _actions
    cdef readonly object observations, masks, rewards, scores, dones, to_move, edition
    cdef State _template_state
    cdef readonly long long games, steps

    def __cinit__(self):
        self.states = NULL
        self.template = NULL
        self.written = NULL
        self.viewer = NULL
        self.legal = NULL
        self.nlegal = NULL

    def __init__(self, edition, int num_envs, seed: int = 0, players: int | None = None, **options: object) -> None:
        record = edition if isinstance(edition, Edition) else engine.get_edition(edition)
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        if record.observation is None:
            raise OptionError(f"{record.name} has no observation tensor")
        cdef State template = record.new_game(0, players, **options)
        cdef Observation obs = record.observation
        self.edition = record
        self._template_state = template
        self.ops = template.ops
        if self.ops.reset is NULL:
            raise OptionError(f"{record.name} cannot deal a match in place (no GameOps.reset)")
        self.observe_fn = obs.fn
        self.update_fn = obs.update_fn
        self.num_envs = num_envs
        self.observation_size = obs.size
        self.num_actions = self.ops.num_decision_ids
        self.num_seats = self.ops.num_seats(template.ptr)
        self.ssize = self.ops.state_size
        self.template = <char*>malloc(self.ssize)
        self.states = <char*>malloc(self.ssize * num_envs)
        self.legal = <int*>malloc(sizeof(int) * MAX_LEGAL * num_envs)
        self.nlegal = <int*>malloc(sizeof(int) * num_envs)
        self.written = <char*>malloc(self.ssize * num_envs)
        self.viewer = <int*>malloc(sizeof(int) * num_envs)
        if not (self.template and self.states and self.legal and self.nlegal and self.written and self.viewer):
            raise MemoryError()
        memcpy(self.template, template.ptr, self.ssize)
        memset(self.nlegal, 0, sizeof(int) * num_envs)
        self.observations = np.zeros((num_envs, self.observation_size), dtype=np.float32)
        self.masks = np.zeros((num_envs, self.num_actions), dtype=np.uint8)
        self.rewards = np.zeros((num_envs, self.num_seats), dtype=np.float32)
        self.scores = np.zeros((num_envs, self.num_seats), dtype=np.float32)
        self.dones = np.zeros(num_envs, dtype=np.uint8)
        self.to_move = np.zeros(num_envs, dtype=np.int32)
        self._obs = self.observations
        self._mask = self.masks
        self._rew = self.rewards
        self._scores = self.scores
        self._done = self.dones
        self._to_move = self.to_move
        self._actions = np.zeros(num_envs, dtype=np.int32)
        self.reset(seed)

    def __dealloc__(self):
        free(self.states)
        free(self.template)
        free(self.written)
        free(self.viewer)
        free(self.legal)
        free(self.nlegal)

    def reset(self, seed: int | None = None) -> tuple:
        """Deals every match anew (from `seed`'s sequence when given); returns (observations, masks)."""
        cdef int i
        if seed is not None:
            self.deals.x = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)
            self.picks.x = rng_next(&self.deals) ^ <uint64_t>0x5851F42D4C957F2DULL
        self.games = 0
        self.steps = 0
        with nogil:
            for i in range(self.num_envs):
                self._deal(i)
                self._write(i, True)
        self.rewards[:] = 0
        self.dones[:] = 0
        return self.observations, self.masks

    cdef inline void _deal(self, int i) noexcept nogil:
        cdef char* s = self.states + self.ssize * i
        memcpy(s, self.template, self.ssize)
        self.ops.reset(s, rng_next(&self.deals))

    cdef inline void _write(self, int i, bint fresh) noexcept nogil:
        """The mover's observation (afresh, or brought up to date from the state the row was
        written from) and the mask of its legal decisions (clearing the last ones)."""
        cdef char* s = self.states + self.ssize * i
        cdef int* legal = self.legal + MAX_LEGAL * i
        cdef uint8_t* mask = &self._mask[i, 0]
        cdef int k, n = self.nlegal[i], seat = self.ops.to_move(s)
        for k in range(n):
            mask[legal[k]] = 0
        n = self.ops.legal(s, legal)
        for k in range(n):
            mask[legal[k]] = 1
        self.nlegal[i] = n
        self._to_move[i] = seat
        if self.update_fn is NULL:
            self.observe_fn(s, seat, &self._obs[i, 0])
            return
        if fresh:
            self.observe_fn(s, seat, &self._obs[i, 0])
        else:
            self.update_fn(self.written + self.ssize * i, self.viewer[i], s, seat, &self._obs[i, 0])
        memcpy(self.written + self.ssize * i, s, self.ssize)
        self.viewer[i] = seat

    cdef inline void _step_one(self, int i, int d) noexcept nogil:
        cdef char* s = self.states + self.ssize * i
        cdef double returns[MAX_SEATS]
        cdef double points[MAX_SEATS]
        cdef double total = 0
        cdef int k
        self.ops.apply(s, d)
        if self.ops.to_move(s) < 0:
            self.ops.returns(s, returns)
            self.ops.scores(s, points)
            for k in range(self.num_seats):
                total += returns[k]
            for k in range(self.num_seats):
                self._rew[i, k] = <float>(returns[k] - (total - returns[k]) / (self.num_seats - 1))
                self._scores[i, k] = <float>points[k]
            self._done[i] = 1
            self.games += 1
            self._deal(i)
        elif self._done[i]:
            self._done[i] = 0
            for k in range(self.num_seats):
                self._rew[i, k] = 0
        self._write(i, False)

    def step(self, actions) -> tuple:
        """Applies one decision per match (for its mover); returns (observations, masks, rewards,
        dones), the arrays the environment owns (overwritten by the next step). An illegal decision
        raises IllegalDecisionError and changes nothing."""
        cdef int32_t[::1] a = np.ascontiguousarray(actions, dtype=np.int32)
        cdef int i, d, bad = -1
        if a.shape[0] != self.num_envs:
            raise ValueError(f"{a.shape[0]} actions for {self.num_envs} matches")
        with nogil:
            for i in range(self.num_envs):
                d = a[i]
                if d < 0 or d >= self.num_actions or not self._mask[i, d]:
                    bad = i
                    break
            if bad < 0:
                for i in range(self.num_envs):
                    self._step_one(i, a[i])
                self.steps += self.num_envs
        if bad >= 0:
            raise IllegalDecisionError(f"match {bad}: decision {a[bad]} is not legal")
        return self.observations, self.masks, self.rewards, self.dones

    def sample_actions(self, out=None):
        """A uniformly random legal decision per match (into `out`, an int32 array, when given)."""
        cdef int32_t[::1] o = self._actions if out is None else out
        cdef int i
        with nogil:
            for i in range(self.num_envs):
                o[i] = self.legal[MAX_LEGAL * i + rng_below(&self.picks, self.nlegal[i])]
        return np.asarray(o)

    def step_random(self, long steps) -> int:
        """`steps` batched steps of uniformly random legal decisions, chosen and applied in compiled
        code with observations and masks written at each (the benchmark's loop); returns the matches
        finished."""
        cdef long t
        cdef int i
        cdef long long before = self.games
        with nogil:
            for t in range(steps):
                for i in range(self.num_envs):
                    self._step_one(i, self.legal[MAX_LEGAL * i + rng_below(&self.picks, self.nlegal[i])])
            self.steps += steps * self.num_envs
        return self.games - before

    def state(self, int i) -> State:
        """A copy of match i's full state (the truth: for tests and debugging, not for an agent)."""
        if not 0 <= i < self.num_envs:
            raise IndexError(i)
        cdef State s = self._template_state._blank()
        s._adopt(self.ops, self.states + self.ssize * i)
        s._forget()
        return s
