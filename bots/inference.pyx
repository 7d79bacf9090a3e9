# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Opponent models for the searcher: a posterior over the worlds of a view, sampled by
Metropolis-Hastings chains.

A uniform determinization deals what a seat cannot see any way the counts allow. But the other
seats chose their decisions from what they held, and some worlds make those choices unlikely. An
edition's opponent model (`Edition.opponent_model`; the card family's in bots/cards/inference.pyx)
is an `OpponentModel`: a compiled `WorldModel` — a latent state (the hidden history of the others),
its log-likelihood given their observed decisions, a symmetric proposal and the world it realizes.
The searcher (bots/ismcts.pyx) is handed the model and draws its worlds from `Chain`s over it.

>>> import engine
>>> from bots.cards.inference import card_inference
>>> state = engine.new_game("expedition", seed=2, rounds=1)
>>> for _ in range(14):  # seven turns: seat 1 is to play, seat 0 has played four
...     state.apply(state.legal()[-1])
>>> view = state.view(state.to_move)
>>> model = card_inference(view.state, view.seat, view.history)
>>> isinstance(model, OpponentModel), model.observed > 0
(True, True)
>>> worlds, accepted = model.sample(view.state.determinized(view.seat, 1), 3, seed=2)
>>> len(worlds), 0.0 <= accepted <= 1.0
(3, True)
"""
from libc.math cimport exp
from libc.stdint cimport uint64_t
from libc.string cimport memcpy

from engine._core cimport State, Rng, rng_unit


# ----- the chain ----------------------------------------------------------------------------------
cdef int chain_start(Chain* ch, const WorldModel* model, const void* world, Rng* rng) noexcept nogil:
    """Starts the chain at a latent state of `world` (a determinization of the view); -1 if none."""
    ch.model = model
    ch.steps = 0
    ch.accepted = 0
    if model.init(model.data, ch.latent, world, rng) < 0:
        return -1
    ch.loglik = model.loglik(model.data, ch.latent)
    return -1 if impossible(ch.loglik) else 0


cdef void chain_step(Chain* ch, Rng* rng) noexcept nogil:
    """One Metropolis-Hastings step: propose, accept with probability min(1, L'/L)."""
    cdef const WorldModel* m = ch.model
    cdef double ll
    memcpy(ch.proposal, ch.latent, LATENT_BYTES)
    m.propose(m.data, ch.proposal, rng)
    ll = m.loglik(m.data, ch.proposal)
    ch.steps += 1
    if impossible(ll):
        return
    if ll >= ch.loglik or rng_unit(rng) < exp(ll - ch.loglik):
        memcpy(ch.latent, ch.proposal, LATENT_BYTES)
        ch.loglik = ll
        ch.accepted += 1


cdef void chain_world(const Chain* ch, void* world, Rng* rng) noexcept nogil:
    """The current latent state as a world: `world` holds a copy of the view's state on entry."""
    ch.model.realize(ch.model.data, ch.latent, world, rng)


# ----- the Python face -------------------------------------------------------------------------------
cdef class OpponentModel:
    """The model of one search's view: built by an edition's factory, handed to `bots.ismcts.Tree`.
    Subclasses fill `face` (and keep what it points to alive) and `_template` (the view's state)."""

    def __cinit__(self):
        self.face.data = NULL
        self._template = None

    @property
    def observed(self) -> int:
        """Decisions of the others the model has seen (0: it knows nothing a uniform
        determinization does not)."""
        return 0

    cdef int _latent_of(self, State world, seed, void* latent) except -1:
        cdef Rng rng
        if world.ops != (<State>self._template).ops:
            raise ValueError("the world is of another edition")
        rng.x = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
        if self.face.init(self.face.data, latent, world.ptr, &rng) < 0:
            raise ValueError("the world does not agree with the view")
        return 0

    def log_likelihood(self, State world, seed=0) -> float:
        """log P(the others' observed decisions | world), world a determinization of the view (or the
        true position). What the world leaves open about the latent state is drawn from `seed`."""
        cdef unsigned char latent[LATENT_BYTES]
        self._latent_of(world, seed, latent)
        return self.face.loglik(self.face.data, latent)

    def sample(self, State world, int count, int steps=20, int burn_in=2000, seed=0) -> tuple:
        """`count` worlds from the chain started at `world` (a determinization of the view) after
        `burn_in` steps, `steps` steps apart, and the share of steps accepted."""
        cdef Chain ch
        cdef Rng rng
        cdef State out
        cdef int i
        if world.ops != (<State>self._template).ops:
            raise ValueError("the world is of another edition")
        rng.x = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
        if chain_start(&ch, &self.face, world.ptr, &rng) < 0:
            raise ValueError("the world does not agree with the view")
        worlds = []
        for i in range(burn_in):
            chain_step(&ch, &rng)
        for _ in range(count):
            for i in range(steps):
                chain_step(&ch, &rng)
            out = world.copy()
            chain_world(&ch, out.ptr, &rng)
            out._forget()
            worlds.append(out)
        return worlds, (<double>ch.accepted / ch.steps if ch.steps else 0.0)
