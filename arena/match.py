"""Plays a game between in-process policies, each seeing only its own seat's view.

Used by `expeditions selfplay` and its duplicate runs (arena/duplicate.py); the arena plays the
same games between external processes through the protocol. Where every seat is an instant bot
(random, greedy), the game is played in compiled code by their deciders: the same decisions,
without a view built for each.

>>> from arena.match import play_match
>>> from bots.random import RandomPolicy
>>> r = play_match("classic", 5, [RandomPolicy(1), RandomPolicy(2)], {"rounds": 1})
>>> len(r.scores), r.decisions > 0
(2, True)
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import engine
from bots.deciders import play_instant
from protocol.limits import Limits
from protocol.policy import Policy


Observer = Callable[[int, int, Policy], None]
"""Called by `play_match` with (ply, seat, policy) after each decision (e.g. to keep what a search found)."""


@dataclass(frozen=True)
class MatchResult:
    """The outcome of one game."""

    edition: str
    seed: int
    scores: list[int]
    """Final totals per seat."""
    returns: list[float]
    """Per seat: 1 win, 0.5 draw, 0 loss (share of opponents beaten)."""
    decisions: int
    final_position: str
    moves: tuple[int, ...] = ()
    """Every decision of the game in order: with (edition, options, seed) the game replays exactly."""


def play_match(edition: str, seed: int, policies: Sequence[Policy], options: Mapping[str, object] | None = None,
               players: int | None = None, limits: Limits | None = None,
               observer: Observer | None = None) -> MatchResult:
    """Deals from `seed` and lets policies[seat] decide for every seat until the match ends;
    `observer(ply, seat, policy)` is called after each decision (e.g. to keep what a search found)."""
    state = engine.new_game(edition, seed=seed, players=players, **dict(options or {}))
    if len(policies) != state.num_seats:
        raise ValueError(f"{edition} with {state.num_seats} seats needs {state.num_seats} policies, "
                         f"got {len(policies)}")
    resolved = engine.get_edition(edition).resolve_options(options)
    for seat, policy in enumerate(policies):
        policy.new_game(edition, resolved, state.num_seats, seat)
    limits = limits or Limits()
    deciders = [policy.fast_decider for policy in policies if policy.fast_decider is not None]
    if observer is None and not limits.searchmoves and len(deciders) == len(policies):
        moves = play_instant(state, deciders)  # instant bots: the whole game in compiled code
    else:
        moves = []
        while (mover := state.to_move) is not None:
            view = state.view(mover)
            decision = policies[mover].choose(view, limits)
            state.apply(decision)
            if observer is not None:
                observer(len(moves), mover, policies[mover])
            moves.append(decision)
    scores, returns = state.scores(), state.returns()
    for seat, policy in enumerate(policies):
        policy.game_over(" ".join(map(str, scores)))
    return MatchResult(edition, seed, scores, returns, len(moves), state.to_text(), tuple(moves))
