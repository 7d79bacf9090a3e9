# Opponent models for the searcher: a posterior over the worlds of a view, from what the other
# seats chose to do, sampled by Metropolis-Hastings chains. See bots/inference.pyx.
from engine._core cimport Rng, State

cdef enum:
    LATENT_BYTES = 128    # room for any model's latent state (the card model's: 80 slots + a hand)

# The compiled face the searcher samples through: a Metropolis-Hastings chain over a latent state
# (the hidden history of the other seats), each latent state realized as a world of the view.
ctypedef struct WorldModel:
    const void* data
    # a latent state consistent with `world` (a determinization of the view); -1 if none
    int (*init)(const void* data, void* latent, const void* world, Rng* rng) noexcept nogil
    # a symmetric proposal: another latent state (possibly inconsistent: loglik says so)
    void (*propose)(const void* data, void* latent, Rng* rng) noexcept nogil
    # log-likelihood of the other seats' observed decisions; IMPOSSIBLE when inconsistent
    double (*loglik)(const void* data, void* latent) noexcept nogil
    # writes the latent state's world into `world` (a copy of the view's state); what the
    # likelihood does not depend on (the draw pile's order, future deals) is drawn from rng
    void (*realize)(const void* data, const void* latent, void* world, Rng* rng) noexcept nogil

cdef inline bint impossible(double loglik) noexcept nogil:
    """Whether a log-likelihood says the latent state contradicts what was observed."""
    return loglik < -1e299


# A Metropolis-Hastings chain over a model's latent states (one per search tree).
ctypedef struct Chain:
    const WorldModel* model
    double loglik         # of the current latent state
    long long steps
    long long accepted
    unsigned char latent[LATENT_BYTES]
    unsigned char proposal[LATENT_BYTES]

cdef int chain_start(Chain* ch, const WorldModel* model, const void* world, Rng* rng) noexcept nogil
cdef void chain_step(Chain* ch, Rng* rng) noexcept nogil
cdef void chain_world(const Chain* ch, void* world, Rng* rng) noexcept nogil


# One view's model, as the Python object that owns it; editions subclass it.
cdef class OpponentModel:
    cdef WorldModel face
    cdef object _template     # the view's state (for its type and GameOps)
    cdef int _latent_of(self, State world, seed, void* latent) except -1
