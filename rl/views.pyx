# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""One state's observation and action mask, written in compiled code: what the single-match
environments (PettingZoo, Gymnasium, OpenSpiel) ask for at every step. A `Views` object owns two
buffers it writes into (acquiring a numpy buffer costs more than writing it) and hands out copies.

>>> import engine
>>> from rl.views import Views
>>> views = Views(engine.get_edition("classic"))
>>> state = engine.new_game("classic", seed=4)
>>> obs, mask = views.observation(state, 1), views.action_mask(state)
>>> obs.shape, int(mask.sum()) == len(state.legal()), mask.dtype.name
((383,), True, 'int8')
"""
from libc.stdint cimport int8_t

from engine._core cimport State, MAX_LEGAL
from engine.observation cimport Observation, ObserveFn

import numpy as np


cdef class Views:
    """Observations and action masks of one edition's states (`edition`: its record)."""

    cdef ObserveFn fn
    cdef bytes name
    cdef readonly int size, num_actions
    cdef object obs_array, mask_array
    cdef float[::1] obs
    cdef int8_t[::1] mask
    cdef int legal[MAX_LEGAL]
    cdef int nlegal

    def __init__(self, edition) -> None:
        cdef Observation obs = edition.observation
        self.fn = obs.fn
        self.name = obs.name.encode()
        self.size = obs.size
        self.num_actions = edition.rules.num_decision_ids
        self.obs_array = np.zeros(self.size, dtype=np.float32)
        self.mask_array = np.zeros(self.num_actions, dtype=np.int8)
        self.obs = self.obs_array
        self.mask = self.mask_array
        self.nlegal = 0

    cdef int _check(self, State state, int seat) except -1:
        if state.ops.name != self.name:
            raise ValueError(f"a state of {state.edition}, views of {self.name.decode()}")
        if not 0 <= seat < state.ops.num_seats(state.ptr):
            raise ValueError(f"no seat {seat}")
        return 0

    def observation(self, State state, int seat):
        """`seat`'s observation tensor of `state` (a new float32 array)."""
        self._check(state, seat)
        self.fn(state.ptr, seat, &self.obs[0])
        return self.obs_array.copy()

    def action_mask(self, State state, bint mover=True):
        """1 (a new int8 array) at each legal decision of the mover; all 0 when `mover` is False (the
        mask of a seat not to move) or the match is over."""
        self._check(state, 0)
        cdef int k
        for k in range(self.nlegal):
            self.mask[self.legal[k]] = 0
        self.nlegal = 0
        if mover and state.ops.to_move(state.ptr) >= 0:
            self.nlegal = state.ops.legal(state.ptr, self.legal)
            for k in range(self.nlegal):
                self.mask[self.legal[k]] = 1
        return self.mask_array.copy()
