"""The interface every bot implements behind the protocol, and the options it announces.

A policy sees only a seat's `engine.View` and answers with one atomic decision; the protocol
server (`protocol.server.serve_stdio`) makes any `Policy` a UEI bot.

>>> import engine
>>> from bots.random import RandomPolicy
>>> from protocol.limits import Limits
>>> p = RandomPolicy(seed=1)
>>> view = engine.new_game("classic", seed=2).view(0)
>>> p.choose(view, Limits()) in view.legal()
True
"""
from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import engine
from engine import View
from protocol.limits import Limits

if TYPE_CHECKING:
    from protocol.decider import Decider

InfoCallback = Callable[[dict[str, Any]], None]
"""Receives progress reports while a policy thinks (iterations, time, value, pv, string)."""


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

    @property
    def fast_decider(self) -> Decider | None:
        """For an instant policy: a compiled `protocol.decider.Decider` making the same decisions as
        `choose`, which the protocol's C loop calls for views it reads in C (protocol/fastloop.pyx)."""
        return None

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
        """Called before the first decision of a game (at `newgame`, before any clock runs): loads
        the edition's bot parts (`Edition.load_bot_parts`), so that the first `go` costs what every
        other does. A policy that overrides it calls it."""
        engine.get_edition(edition).load_bot_parts()

    @abstractmethod
    def choose(self, view: View, limits: Limits, stop: threading.Event | None = None,
               info: InfoCallback | None = None) -> int:
        """The decision (an int of view.legal()) for the seat of `view`."""

    def game_over(self, result: str) -> None:
        """Called with the final result; a policy may learn from it."""

    def provisional(self, view: View) -> int | None:
        """The decision a running `choose(view, …)` would make if it had to answer now (called
        from another thread when the search overruns its time), or None without one; the protocol
        server then plays it rather than the first legal decision."""
        return None


# Owns the callbacks of one `go`'s stop flag.
class StopSignal(threading.Event):
    """The stop flag the protocol server hands to `Policy.choose`: a `threading.Event` that also
    calls the functions subscribed with `calling` the moment it is set, so a search running in C
    without the GIL hears `stop` at once, without a thread that polls the event for it.

    >>> signal, heard = StopSignal(), []
    >>> with signal.calling(lambda: heard.append("stop")):
    ...     signal.set()
    >>> heard, signal.is_set()
    (['stop'], True)
    """

    def __init__(self) -> None:
        super().__init__()
        self._callbacks: list[Callable[[], None]] = []
        self._callbacks_lock = threading.Lock()

    def set(self) -> None:
        super().set()
        with self._callbacks_lock:
            callbacks = list(self._callbacks)
        for callback in callbacks:
            callback()

    @contextmanager
    def calling(self, callback: Callable[[], None]) -> Iterator[None]:
        """Calls `callback` (from the setting thread) if the flag is set while the block runs — at
        once if it already is; never after the block (the next search is not stopped by this one's
        late flag)."""
        with self._callbacks_lock:
            self._callbacks.append(callback)
        try:
            if self.is_set():
                callback()
            yield
        finally:
            with self._callbacks_lock:
                self._callbacks.remove(callback)


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
