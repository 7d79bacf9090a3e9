"""Runs a policy's decisions off the command loop, so `stop` and `isready` are heard mid-search.

One persistent worker thread calls `Policy.choose`; one persistent watchdog thread enforces the
time limits: it sets the policy's stop flag when the budget is spent and, should the policy still
not answer within a grace period, answers for it with a fallback decision (the first legal one)
so that the referee never waits on a stuck search. Persistent threads, not a thread per `go`,
keep the round trip of instant policies in the tens of microseconds.

>>> import engine
>>> from protocol.limits import Limits
>>> from bots.random import RandomPolicy
>>> lines = []
>>> s = Searcher(RandomPolicy(1), lines.append)
>>> s.start(engine.new_game("classic", seed=1).view(0), Limits())
>>> s.wait_idle(1.0)
True
>>> lines[0].startswith("bestmove ")
True
"""
from __future__ import annotations

import functools
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TextIO

from protocol.limits import Limits, decision_budget_ms
from protocol.policy import Policy, StopSignal, allowed_decisions
from engine import View
from protocol.messages import format_info

GRACE_MS = 20
"""How long a policy may overrun a movetime or a `stop` before the watchdog answers for it: short,
since the referee's margin (100 ms by default) must also cover the way to the bot and back, which
under load takes tens of milliseconds (research/notebook.md, "Time discipline under load")."""

CLOCK_SAFETY_MS = 20
"""With clocks, the watchdog answers this long before the seat's clock would run out."""


class _Job:
    """One `go`: what to decide, its limits, and whether it has been answered."""

    __slots__ = ("view", "limits", "started", "stop", "soft_deadline", "hard_deadline", "answered")

    def __init__(self, view: View, limits: Limits, started: float) -> None:
        self.view = view
        self.limits = limits
        self.started = started
        """When the decision's time began (time.monotonic() seconds)."""
        self.stop = StopSignal()
        self.soft_deadline: float | None = None
        """When the stop flag is raised (time.monotonic() seconds), if ever."""
        self.hard_deadline: float | None = None
        """When the watchdog answers with the fallback decision, if ever."""
        self.answered = False


# Owns the worker and watchdog threads and the one-answer-per-go rule.
class Searcher:
    """Starts, stops and answers searches of one policy; writes `info` and `bestmove` lines."""

    def __init__(self, policy: Policy, write: Callable[[str], None], *, grace_ms: int = GRACE_MS,
                 log: TextIO | None = None) -> None:
        self.policy = policy
        self._write = write
        self._grace = grace_ms / 1000.0
        self._log = log if log is not None else sys.stderr
        self._lock = threading.Condition()
        self._job: _Job | None = None
        """The search the referee waits on (None once answered)."""
        self._pending: _Job | None = None
        """A job handed to the worker and not yet picked up."""
        self._closed = False
        self._idle_waiters = 0
        self._worker = threading.Thread(target=self._work, name="uei-search", daemon=True)
        self._watchdog = threading.Thread(target=self._watch, name="uei-watchdog", daemon=True)
        self._worker.start()
        self._watchdog.start()

    @property
    def busy(self) -> bool:
        """Whether a `go` is waiting for its `bestmove`."""
        return self._job is not None

    def start(self, view: View, limits: Limits, received_ns: int | None = None) -> None:
        """Starts deciding for `view` (the caller checked that its seat is to move); the time
        limits count from `received_ns` (`time.monotonic_ns()` when the `go` arrived; None: now).

        An `instant` policy is asked at once on the caller's thread (unless the search is
        infinite, whose answer must wait for `stop`): it needs no stop flag, and a thread
        handoff would cost more than its whole decision."""
        if self.policy.instant and not limits.infinite:
            if self._job is not None:
                raise RuntimeError("a search is already running")
            decision = self._choose(view, limits, None, None)
            if decision is None:
                decision = allowed_decisions(view, limits)[0]
                self._write("info string policy failed; playing the first legal decision")
            self._write("bestmove " + view.state.decision_to_text(decision))
            return
        if received_ns is None:
            received_ns = time.monotonic_ns()
        job = _Job(view, replace(limits, started_ns=received_ns), received_ns / 1e9)
        if not limits.infinite:
            budget = decision_budget_ms(view, limits)
            if budget is not None:
                job.soft_deadline = job.started + budget / 1000.0
                if limits.movetime_ms is not None:
                    job.hard_deadline = job.soft_deadline + self._grace
                elif limits.clocks_ms is not None and view.seat < len(limits.clocks_ms):
                    # a bad decision beats a loss on time: overrun the budget, never the clock
                    left = limits.clocks_ms[view.seat] - CLOCK_SAFETY_MS
                    job.hard_deadline = job.started + max(left, budget) / 1000.0
        with self._lock:
            if self._job is not None:
                raise RuntimeError("a search is already running")
            self._job = self._pending = job
            self._lock.notify_all()

    def stop(self) -> None:
        """Asks the running search to answer now (nothing happens when idle)."""
        with self._lock:
            job = self._job
            if job is None:
                return
            job.stop.set()
            now = time.monotonic()
            job.soft_deadline = now
            if job.hard_deadline is None or job.hard_deadline > now + self._grace:
                job.hard_deadline = now + self._grace
            self._lock.notify_all()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Waits until no search runs; False on timeout."""
        with self._lock:
            self._idle_waiters += 1
            try:
                return self._lock.wait_for(lambda: self._job is None, timeout)
            finally:
                self._idle_waiters -= 1

    def close(self) -> None:
        """Stops any search without answering it and ends the threads."""
        with self._lock:
            self._closed = True
            if self._job is not None:
                self._job.answered = True
                self._job.stop.set()
            self._job = self._pending = None
            self._lock.notify_all()

    # -- worker ------------------------------------------------------------------------------
    def _work(self) -> None:
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._pending is not None or self._closed)
                if self._closed:
                    return
                job, self._pending = self._pending, None
            assert job is not None
            decision = self._choose(job.view, job.limits, job.stop, functools.partial(self._info, job))
            if job.limits.infinite:
                job.stop.wait()  # in infinite mode the answer waits for `stop`
            self._answer(job, decision, fallback=False)

    def _choose(self, view: View, limits: Limits, stop: threading.Event | None,
                info: Callable[[dict[str, Any]], None] | None) -> int | None:
        """The policy's decision, or None (logged) when it fails or is not legal (or not one of
        the `go searchmoves` decisions)."""
        legal = allowed_decisions(view, limits)
        try:
            decision = self.policy.choose(view, limits, stop, info)
        except Exception:
            self._log.write(f"uei: policy {self.policy.name} failed:\n{traceback.format_exc()}")
            self._log.flush()
            return None
        if isinstance(decision, str):
            try:
                decision = view.state.parse_decision(decision)
            except ValueError:
                decision = None
        if decision not in legal:
            what = "one of the searchmoves" if limits.searchmoves else "a legal decision"
            self._log.write(f"uei: policy {self.policy.name} chose {decision!r}, not {what}\n")
            self._log.flush()
            return None
        return decision

    def _info(self, job: _Job, info: dict[str, Any]) -> None:
        if job.answered:
            return
        report = dict(info)
        if "string" not in report:  # a message, not a report of the search: no time of its own
            report.setdefault("time", int((time.monotonic() - job.started) * 1000))
        if report.get("pv"):
            report["pv"] = _pv_text(job.view, report["pv"])
        self._write(format_info(report))

    def _answer(self, job: _Job, decision: int | None, *, fallback: bool) -> None:
        with self._lock:
            if job.answered:
                if not fallback:
                    self._log.write("uei: a late answer of the policy was dropped\n")
                    self._log.flush()
                return
            job.answered = True
            if self._job is job:
                self._job = None  # idle before the answer goes out: the referee replies at once
            if decision is None:
                decision, which = self._fallback(job) if fallback else (None, "")
                if decision is None:
                    decision, which = allowed_decisions(job.view, job.limits)[0], "the first legal decision"
                reason = "did not answer in time" if fallback else "failed"
                self._write(f"info string policy {reason}; playing {which}")
            self._write("bestmove " + job.view.state.decision_to_text(decision))
            if job.soft_deadline is not None or job.limits.infinite or self._idle_waiters:
                self._lock.notify_all()  # only the watchdog and wait_idle care; waking them costs

    def _fallback(self, job: _Job) -> tuple[int | None, str]:
        """The policy's provisional decision for a search that overran, if it has a legal one."""
        try:
            decision = self.policy.provisional(job.view)
        except Exception:  # the policy is busy or broken: the referee must still get an answer
            return None, ""
        if decision is None or decision not in allowed_decisions(job.view, job.limits):
            return None, ""
        return decision, "its provisional decision"

    # -- watchdog ----------------------------------------------------------------------------
    def _watch(self) -> None:
        while True:
            with self._lock:
                if self._closed:
                    return
                job = self._job
                now = time.monotonic()
                if job is None or job.answered:
                    self._lock.wait()
                    continue
                if job.soft_deadline is not None and now >= job.soft_deadline:
                    job.stop.set()
                if job.hard_deadline is not None and now >= job.hard_deadline:
                    pass  # answered below, outside the wait
                else:
                    pending = [t for t in (job.soft_deadline, job.hard_deadline)
                               if t is not None and t > now]
                    self._lock.wait(min(pending) - now if pending else None)
                    continue
            self._answer(job, None, fallback=True)


def _pv_text(view: View, pv: list[Any]) -> list[str]:
    """Decisions of a principal variation as text; integers are replayed on the view's
    representative state, stopping where that state cannot follow (hidden cards)."""
    out: list[str] = []
    state = None
    for d in pv:
        if isinstance(d, str):
            out.append(d)
            state = None
            continue
        try:
            if state is None:
                if out:
                    break
                state = view.state.copy()
            out.append(state.decision_to_text(d))
            state.apply(d)
        except Exception:
            break
    return out
