"""The interface every built-in bot implements, in-process or behind the protocol.

A policy sees only a seat's `engine.View` and answers with one atomic decision.

>>> import engine
>>> from bots.random import RandomPolicy
>>> from bots.policy import Limits
>>> p = RandomPolicy(seed=1)
>>> view = engine.new_game("classic", seed=2).view(0)
>>> p.choose(view, Limits()) in view.legal()
True
"""
from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine import View

InfoCallback = Callable[[dict[str, Any]], None]
"""Receives progress reports while a policy thinks (iterations, time, value, pv, string)."""


@dataclass(frozen=True)
class Limits:
    """How much a decision may cost; mirrors the protocol's `go` arguments (docs/protocol.md)."""

    movetime_ms: int | None = None
    """Think exactly about this long (at most)."""
    clocks_ms: tuple[int, ...] | None = None
    """Remaining clock per seat, when the game is played with clocks."""
    increments_ms: tuple[int, ...] | None = None
    """Increment per seat added after each decision."""
    iterations: int | None = None
    """Search iterations (playouts) budget."""
    nodes: int | None = None
    """Search tree nodes budget."""
    infinite: bool = False
    """Think until told to stop."""
    searchmoves: tuple[str, ...] | None = None
    """Consider only these of the seat's decisions (decision texts; `go searchmoves`)."""

    def time_budget_ms(self, seat: int, default_ms: int | None = None,
                       decisions_left: int | None = None) -> int | None:
        """A time to spend on this decision: movetime, else a share of the seat's clock — an equal
        share of the `decisions_left` the seat still has to make, when known, else a twentieth —
        plus ¾ of its increment, and never more than half the clock.

        >>> clock = Limits(clocks_ms=(60000, 60000))
        >>> clock.time_budget_ms(0), clock.time_budget_ms(0, decisions_left=120)
        (3000, 500)
        """
        if self.movetime_ms is not None:
            return self.movetime_ms
        if self.clocks_ms is not None and seat < len(self.clocks_ms):
            inc = self.increments_ms[seat] if self.increments_ms and seat < len(self.increments_ms) else 0
            clock = self.clocks_ms[seat]
            share = clock // max(1, decisions_left) if decisions_left is not None else clock // 20
            return max(1, min(share + inc * 3 // 4, clock // 2))
        return default_ms


DECISIONS_PER_TURN = 2
"""Decisions a seat makes in a turn, for sharing its clock: a play (or discard) and a draw."""


def decision_budget_ms(view: View, limits: Limits, default_ms: int | None = None) -> int | None:
    """The time for the decision of `view`'s seat under `limits`: `Limits.time_budget_ms` with the
    decisions the seat has left in the match (its turns left, from the engine, times the
    decisions of a turn). A bot and the protocol server that watches it use the same figure.

    >>> import engine
    >>> view = engine.new_game("classic", seed=1, rounds=3).view(0)
    >>> decision_budget_ms(view, Limits(clocks_ms=(132000, 132000)))  # 66 turns of 2 decisions
    1000
    """
    try:
        turns = view.state.turns_left(view.seat)
    except NotImplementedError:  # an edition that cannot tell: a twentieth of the clock
        return limits.time_budget_ms(view.seat, default_ms)
    return limits.time_budget_ms(view.seat, default_ms, decisions_left=max(1, turns * DECISIONS_PER_TURN))


def allowed_decisions(view: View, limits: Limits | None) -> list[int]:
    """The legal decisions of the view's seat that `limits` lets it choose from: all of them, or
    those its `searchmoves` names (in the view's order). ValueError names a searchmoves decision
    that is not legal here.

    >>> import engine
    >>> view = engine.new_game("classic", seed=3).view(0)
    >>> texts = view.state.legal_text()[:2]
    >>> [view.state.decision_to_text(d) for d in allowed_decisions(view, Limits(searchmoves=tuple(texts)))] == texts
    True
    """
    legal = view.legal()
    if not limits or not limits.searchmoves:
        return legal
    wanted = set()
    for text in limits.searchmoves:
        try:
            decision = view.state.parse_decision(text)
        except ValueError:
            decision = None
        if decision not in legal:
            raise ValueError(f"searchmoves: {text!r} is not a legal decision in this position")
        wanted.add(decision)
    return [d for d in legal if d in wanted]


@dataclass
class PolicyOption:
    """A setting a bot announces in the handshake (`option name … type …`)."""

    name: str
    type: str  # spin | check | combo | string
    default: Any
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()
    help: str = ""


class Policy(ABC):
    """A decision maker for one seat. Subclasses set `name`, `author` and `options`."""

    name: str = "policy"
    author: str = "expeditions"
    options: tuple[PolicyOption, ...] = ()
    editions: tuple[str, ...] | None = None
    """Editions this policy plays; None means every edition the engine has."""
    instant: bool = False
    """True when `choose` answers in well under a millisecond whatever the limits (no search).
    The protocol server then calls it on its command thread, sparing a thread handoff per
    decision; such a policy is never sent `stop`."""
    fast_decider: Any = None
    """For an instant policy: a compiled `bots.deciders.Decider` making the same decisions as
    `choose`, which the protocol's C loop calls for views it reads in C (protocol/fastloop.pyx)."""

    def __init__(self) -> None:
        self.settings: dict[str, Any] = {o.name: o.default for o in self.options}

    def set_option(self, name: str, value: Any) -> None:
        """Changes a setting; raises ValueError naming the option and what it accepts."""
        spec = {o.name.lower(): o for o in self.options}.get(name.lower())
        if spec is None:
            known = ", ".join(o.name for o in self.options) or "none"
            raise ValueError(f"unknown option {name!r} (options: {known})")
        previous = self.settings[spec.name]
        self.settings[spec.name] = coerce_option(spec, value)
        try:
            self.on_option(spec.name)
        except ValueError:  # the policy could not take the value: it keeps the previous one
            self.settings[spec.name] = previous
            self.on_option(spec.name)
            raise

    def on_option(self, name: str) -> None:
        """Hook called after a setting changed."""

    def new_game(self, edition: str, options: dict[str, int], players: int, seat: int) -> None:
        """Called before the first decision of a game."""

    @abstractmethod
    def choose(self, view: View, limits: Limits, stop: threading.Event | None = None,
               info: InfoCallback | None = None) -> int:
        """The decision (an int of view.legal()) for the seat of `view`."""

    def game_over(self, result: str) -> None:
        """Called with the final result; a policy may learn from it."""


class InstantPolicy(Policy):
    """A policy whose decisions are a compiled `bots.deciders.Decider`'s (random, greedy).

    Subclasses set `self.decider` in `__init__`. `choose` and the protocol's C loop both ask that
    one decider, so a seeded bot decides alike whichever path answers its `go`.

    >>> import engine
    >>> from bots.greedy import GreedyPolicy
    >>> view = engine.new_game("classic", seed=4).view(0)
    >>> last = view.legal()[-1]
    >>> GreedyPolicy().choose(view, Limits(searchmoves=(view.state.decision_to_text(last),))) == last
    True
    """

    instant = True  # microseconds a decision: the protocol server may call it inline
    decider: Any

    @property
    def fast_decider(self) -> Any:
        return self.decider

    def choose(self, view, limits, stop=None, info=None) -> int:
        if view.to_move != view.seat:
            raise ValueError(f"seat {view.seat} is not to move (to move: {view.to_move})")
        if limits is not None and limits.searchmoves:
            return self.decider.decide_among(view.state, allowed_decisions(view, limits))
        return self.decider.decide(view.state)


def coerce_option(spec: PolicyOption, value: Any) -> Any:
    """Converts protocol text (or a Python value) to the option's type, checking its range."""
    if spec.type == "spin":
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise ValueError(f"option {spec.name}: expected an integer, got {value!r}") from None
        if (spec.min is not None and number < spec.min) or (spec.max is not None and number > spec.max):
            raise ValueError(f"option {spec.name}: {number} out of range {spec.min}..{spec.max}")
        return number
    if spec.type == "check":
        text = str(value).lower()
        if text not in ("true", "false", "1", "0"):
            raise ValueError(f"option {spec.name}: expected true or false, got {value!r}")
        return text in ("true", "1")
    if spec.type == "combo":
        if str(value) not in spec.choices:
            raise ValueError(f"option {spec.name}: expected one of {', '.join(spec.choices)}, got {value!r}")
        return str(value)
    return str(value)


@dataclass
class ScriptedPolicy(Policy):
    """Plays the decisions it is given, in order (for tests and replays)."""

    script: list[str] = field(default_factory=list)
    name = "scripted"

    def __post_init__(self) -> None:
        super().__init__()

    def choose(self, view, limits, stop=None, info=None):
        return view.state.parse_decision(self.script.pop(0))
