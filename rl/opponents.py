"""The other seats of a single-agent environment: a built-in bot in this process, or any protocol bot
started from its command line (the arena's way of meeting a bot).

>>> import engine
>>> from rl.opponents import opponent
>>> bot = opponent("random", seed=1)
>>> state = engine.new_game("classic", seed=3)
>>> bot.new_game(state, seat=0)
>>> bot.decide(state, 0) in state.legal()
True
"""
from __future__ import annotations

import shlex
from collections.abc import Sequence

from engine import State
from protocol.limits import Limits
from protocol.policy import Policy


class Opponent:
    """Decides for one seat from that seat's view only."""

    def new_game(self, state: State, seat: int) -> None:
        """Told before the first decision of a match, with the match's opening position."""

    def decide(self, state: State, seat: int) -> int:
        """The seat's decision in `state` (the bot sees the seat's view alone)."""
        raise NotImplementedError

    def close(self) -> None:
        """Releases what the bot holds (a process)."""


class PolicyOpponent(Opponent):
    """A `protocol.policy.Policy` in this process (e.g. a built-in bot by name). An instant bot with a
    compiled decider decides from the full state without building a view, as the arena's in-process
    matches do (it reads only what its seat knows: bots/deciders.pyx)."""

    def __init__(self, policy: Policy, limits: Limits | None = None) -> None:
        self.policy = policy
        self.limits = limits or Limits(iterations=200)
        self.decider = policy.fast_decider if policy.instant else None

    def new_game(self, state: State, seat: int) -> None:
        self.policy.new_game(state.edition, state.options, state.num_seats, seat)

    def decide(self, state: State, seat: int) -> int:
        if self.decider is not None:
            return self.decider.decide(state)
        return self.policy.choose(state.view(seat), self.limits)


class ProtocolOpponent(Opponent):
    """A protocol bot process started from `argv`, sent each of its seat's views."""

    def __init__(self, argv: Sequence[str], limits: Limits | None = None) -> None:
        from protocol.client import Engine
        self.engine = Engine.start(list(argv))
        self.limits = limits or Limits(movetime_ms=50)

    def new_game(self, state: State, seat: int) -> None:
        self.engine.new_game(state.edition, state.options, state.num_seats, seat)

    def decide(self, state: State, seat: int) -> int:
        return state.parse_decision(self.engine.play(state.view_text(seat), self.limits).decision)

    def close(self) -> None:
        self.engine.quit()


def opponent(spec: str | Sequence[str] | Opponent, seed: int = 0, limits: Limits | None = None) -> Opponent:
    """An opponent from a built-in bot's name (`random`, `greedy`, `ismcts`), a protocol bot's
    command line (a string split like a shell's, or an argv list), or an `Opponent` as it is."""
    if isinstance(spec, Opponent):
        return spec
    from bots.registry import POLICIES, make_policy
    if isinstance(spec, str) and spec in POLICIES:
        return PolicyOpponent(make_policy(spec, seed=seed), limits)
    argv = shlex.split(spec) if isinstance(spec, str) else list(spec)
    return ProtocolOpponent(argv, limits)
