"""Policies whose decisions are a compiled decider's: no search, microseconds a decision.

>>> import engine
>>> from bots.greedy import GreedyPolicy
>>> from protocol.limits import Limits
>>> view = engine.new_game("classic", seed=4).view(0)
>>> last = view.legal()[-1]
>>> GreedyPolicy().choose(view, Limits(searchmoves=(view.state.decision_to_text(last),))) == last
True
"""
from __future__ import annotations

import threading

from engine import View
from protocol.decider import Decider
from protocol.limits import Limits
from protocol.policy import InfoCallback, Policy, allowed_decisions


class InstantPolicy(Policy):
    """A policy whose decisions are a compiled `protocol.decider.Decider`'s (random, greedy).

    Subclasses set `self.decider` in `__init__`. `choose` and the protocol's C loop both ask that
    one decider, so a seeded bot decides alike whichever path answers its `go`."""

    instant = True  # microseconds a decision: the protocol server may call it inline
    decider: Decider

    @property
    def fast_decider(self) -> Decider:
        return self.decider

    def choose(self, view: View, limits: Limits | None, stop: threading.Event | None = None,
               info: InfoCallback | None = None) -> int:
        if view.to_move != view.seat:
            raise ValueError(f"seat {view.seat} is not to move (to move: {view.to_move})")
        if limits is not None and limits.searchmoves:
            return self.decider.decide_among(view.state, allowed_decisions(view, limits))
        return self.decider.decide(view.state)
