# cython: language_level=3
"""New matches for the single-match environments, dealt quickly: a template match of the players and
options, copied and dealt again in place from a seed (`GameOps.reset`) — the position
`Edition.new_game` deals from that seed, without building it from the options each time — and a
seeded sequence of such seeds (SplitMix64, compiled).

>>> import engine
>>> from rl.dealer import Dealer
>>> dealer = Dealer(engine.new_game("classic", seed=0, rounds=1))
>>> dealer.deal(7) == engine.new_game("classic", seed=7, rounds=1)
True
>>> dealer.seed(1); first = dealer.next_game(); dealer.seed(1)
>>> dealer.next_game() == first
True
"""
from libc.stdint cimport uint64_t

from engine._core cimport State, rng_next


cdef class Dealer:
    """Deals matches like `template` (its edition, players and options)."""

    def __init__(self, State template) -> None:
        self.template = template.copy()
        self.deals.x = 0

    def seed(self, seed: int) -> None:
        """Starts the sequence of `next_game` from `seed`."""
        self.deals.x = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)

    def next_game(self) -> State:
        """The match dealt from the sequence's next seed."""
        return self._deal(rng_next(&self.deals))

    def deal(self, seed: int) -> State:
        """The match dealt from `seed` (as `Edition.new_game(seed, ...)` deals it)."""
        return self._deal(<uint64_t>(seed & 0xFFFFFFFFFFFFFFFF))

    cdef State _deal(self, uint64_t seed):
        cdef State game = self.template._blank()
        game._adopt(self.template.ops, self.template.ptr)
        game.ops.reset(game.ptr, seed)
        game._forget()
        return game
