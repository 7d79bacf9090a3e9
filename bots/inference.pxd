# Opponent modelling for the searcher: a posterior over the worlds of a view, from what the other
# seats chose to do. See bots/inference.pyx.
from libc.stdint cimport uint8_t

from engine._core cimport Rng, State
from engine.cards.rules cimport LCState, CardSet

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


cdef class Inference:
    cdef WorldModel face
    cdef CardModel card
    cdef object _template     # the view's state (for its type and GameOps)
    cdef int _allocate(self, int turns) except -1
    cdef int _latent_of(self, State world, seed, CardLatent* x) except -1
