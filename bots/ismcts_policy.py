"""The ISMCTS bot: budgets, threads, tree reuse and `info` reports around bots/ismcts.pyx.

`IsmctsPolicy` decides for one seat from its view only. It turns the protocol's limits into an
iteration quota, a deadline and a node limit, runs one independent tree per thread (root
parallelism: the trees' root statistics are summed) and picks the most visited decision. Searches
run in slices of at most `SLICE_MS` without the GIL, the first tree on the calling thread; between
slices each publishes its root statistics. The protocol server's stop flag (`StopSignal`) raises
each tree's C-level stop flag the moment it is set, so `stop` is answered within an iteration.

>>> import engine
>>> from protocol.limits import Limits
>>> view = engine.new_game("classic", seed=2, rounds=1).view(0)
>>> bot = IsmctsPolicy(seed=1)
>>> bot.choose(view, Limits(iterations=3000)) in view.legal()
True
>>> bot.last_search.iterations
3000
"""
from __future__ import annotations

import random
import threading
from contextlib import nullcontext
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import engine
from bots.deciders import GreedyDecider
from bots.inference import OpponentModel
from bots.ismcts import MAX_NODES, NODE_BYTES, Tree, monotonic_ns
from engine import Edition, View
from protocol.limits import Limits, decision_budget_ms
from protocol.policy import InfoCallback, Policy, PolicyOption, StopSignal, allowed_decisions

SLICE_MS = 50
"""Longest stretch of nogil search between two snapshots of a worker."""
POLL_MS = 2
"""How often a search looks at a stop event that is not a `StopSignal` (which calls it back)."""
INFO_MS = 500
"""Interval of the `info` lines during a search (one more comes at the end)."""
VERIFY_SHARE = 0.25
"""Under a clock, the share of a decision's time the first race leaves to the check of its choice
against the end of the game, where the edition has one (`SearchDefaults.verify_iterations`)."""

# Defaults, tuned with duplicate matches against greedy (docs/strength.md): flat Monte Carlo over
# the root decisions with the edition's heuristic playing every seat to the end of the round.
DEFAULTS: dict[str, Any] = {
    "Exploration": 30,
    "Rollout": "heuristic",
    "Epsilon": 0,
    "Reward": "auto",
    "MarginScale": 0,
    "Residual": 25,
    "ScoreWeight": 20,
    "Reuse": True,
    "Others": "heuristic",
    "MaxDepth": 1,
    "RootCandidates": -1,
    "Infer": "auto",
    "MinVisits": 100,
}

MAX_HASH_MB = MAX_NODES * NODE_BYTES // 2**20
"""The largest `Hash` one tree can use (with Threads > 1 the trees share it)."""


@dataclass
class SearchReport:
    """What the last search did (for tests, benchmarks and `info`)."""

    iterations: int = 0
    nodes: int = 0
    """Tree nodes in use at the end, all trees."""
    capacity: int = 0
    """Nodes the pools can hold, all trees."""
    elapsed_ms: float = 0.0
    value: float | None = None
    """Mean reward of the chosen decision for the searching seat (0..1)."""
    decision: int | None = None
    pv: list[int] = field(default_factory=list)
    children: dict[int, tuple[int, float]] = field(default_factory=dict)
    """Per root decision: (visits, mean reward), summed over the trees."""
    ranked: list[int] = field(default_factory=list)
    """The best `MultiPV` root decisions, best first (the first is `decision`)."""
    lines: dict[int, list[int]] = field(default_factory=dict)
    """Principal line through each decision of `ranked` (the first tree's; `pv` for `decision`)."""
    reasons: list[str] = field(default_factory=list)
    """Why each tree stopped (iterations, deadline, stop, nodes, settled)."""
    reused: int = 0
    """Trees that kept a subtree of the previous search."""
    verified: float | None = None
    """Where the search's choice was checked against the end of the game (`SearchDefaults.
    verify_iterations`): its mean reward there minus the heuristic's decision's; below 0 the
    heuristic's decision was played instead."""
    checked: tuple[int, int] | None = None
    """The two decisions of that check: the search's choice, the heuristic's."""


class IsmctsPolicy(Policy):
    """Information Set MCTS for every edition through the compiled game interface."""

    name = "ismcts"
    options = (
        PolicyOption("Hash", "spin", 64, 1, MAX_HASH_MB, help="MB of search-tree nodes, all threads together"),
        PolicyOption("Threads", "spin", 1, 1, 64, help="independent trees searched in parallel (root parallelism)"),
        PolicyOption("Exploration", "spin", DEFAULTS["Exploration"], 0, 1000,
                     help="UCB exploration constant, in hundredths"),
        PolicyOption("Rollout", "combo", DEFAULTS["Rollout"], choices=("random", "heuristic"),
                     help="rollout policy (heuristic: the edition's greedy policy, random where it has none)"),
        PolicyOption("Epsilon", "spin", DEFAULTS["Epsilon"], 0, 100,
                     help="heuristic rollouts: percent of uniformly random decisions"),
        PolicyOption("Others", "combo", DEFAULTS["Others"], choices=("tree", "heuristic"),
                     help="the other seats' decisions: tree nodes chosen by UCB (SO-ISMCTS), or the "
                          "rollout heuristic inside the tree too (the tree then holds only this seat's decisions)"),
        PolicyOption("MaxDepth", "spin", DEFAULTS["MaxDepth"], 0, 1000,
                     help="tree nodes below the root on a path (1: flat Monte Carlo at the root); 0 unlimited"),
        PolicyOption("RootCandidates", "spin", DEFAULTS["RootCandidates"], -1, 64,
                     help="search only the heuristic's best this many decisions at the root (0: all; "
                          "-1: the edition's tuned number)"),
        PolicyOption("Reward", "combo", DEFAULTS["Reward"], choices=("auto", "margin", "round", "match"),
                     help="auto: logistic of the match margin scaled by the rounds left; margin: fixed scale; "
                          "round: who leads after this round; match: rollouts to the end, win/draw/loss "
                          "(a race, with no margin to play for, is always searched for its result)"),
        PolicyOption("MarginScale", "spin", DEFAULTS["MarginScale"], 0, 1000,
                     help="points of margin per logistic unit (auto, margin rewards); 0: the edition's "
                          "spread of a round's margin / 1.7"),
        PolicyOption("Residual", "spin", DEFAULTS["Residual"], 0, 400,
                     help="auto reward: rounds of spread, in hundredths, added to the rounds still to come "
                          "(0: the last round is played for win/draw/loss alone)"),
        PolicyOption("ScoreWeight", "spin", DEFAULTS["ScoreWeight"], 0, 100,
                     help="percent of the reward given to the margin against the margin the search expects, "
                          "so that decided positions still prefer winning by more and losing by less"),
        PolicyOption("Infer", "combo", DEFAULTS["Infer"], choices=("auto", "on", "off"),
                     help="sample the opponent's hidden cards by how likely its decisions this round make them "
                          "(the heuristic as its model; two-seat card editions), not uniformly; auto: where "
                          "the edition's record says it helps"),
        PolicyOption("Reuse", "check", DEFAULTS["Reuse"], help="keep the subtree after the decisions seen since"),
        PolicyOption("EarlyStop", "combo", "time", choices=("time", "always", "never"),
                     help="stop once the best decision cannot be overtaken: in timed searches, "
                          "in all searches, or never"),
        PolicyOption("MoveOverhead", "spin", 10, 0, 5000, help="ms kept back from time budgets for transport"),
        PolicyOption("Iterations", "spin", 0, 0, 10**9,
                     help="iterations of a go without limits (0: the edition's, about a second's search)"),
        PolicyOption("Seed", "spin", 0, 0, 2**63 - 1, help="seed of the search (deterministic with one thread)"),
        PolicyOption("MinVisits", "spin", DEFAULTS["MinVisits"], 0, 10**6,
                     help="a search whose most visited root decision has fewer visits than this is too small "
                          "to choose: the heuristic's decision is played (0: never)"),
        PolicyOption("MultiPV", "spin", 1, 1, 256,
                     help="info reports the best this many root decisions, a line each (multipv 1 is the best); "
                          "the search itself is unchanged"),
    )

    def __init__(self, seed: int = 0, **settings: Any) -> None:
        super().__init__()
        self.settings["Seed"] = seed
        for key, value in settings.items():
            self.set_option(key, value)
        self._rng = random.Random(self.settings["Seed"])
        self._trees: list[Tree] = []
        self._last: tuple | None = None
        """(edition, options, seat, round, history) of the previous search, for tree reuse."""
        self._mine: list[tuple[int, int]] = []
        """This seat's decisions since the previous search (its answer first), each with its index in
        the round's history: which entries of the history since are the seat's own."""
        self._heuristic_choice: int | None = None
        """The heuristic's decision in the position being searched (MinVisits, a halving margin)."""
        self._margin = 0.0
        """The edition's `halving_margin` where its root is a halving race, else 0."""
        self._verifier: Tree | None = None
        """The tree of the check against the end of the game (`SearchDefaults.verify_iterations`)."""
        self._provisional: tuple[View | None, int | None] = (None, None)
        """(the view being decided, the heuristic's decision for it), for `provisional`."""
        self._snapshot: dict[int, tuple[int, float]] = {}
        """The root statistics of the first tree at its latest slice, for `provisional`."""
        self.last_search = SearchReport()

    # ----- settings --------------------------------------------------------------------------------
    def on_option(self, name: str) -> None:
        if name == "Seed":
            self._rng = random.Random(self.settings["Seed"])
        if name in ("Hash", "Threads"):
            # Allocated now, as Stockfish sizes its hash at setoption: a size that cannot be had is
            # refused here (set_option then keeps the previous value), not found at the next go.
            self._trees = []
            try:
                self._allocate_trees()
            except MemoryError:
                raise ValueError(f"option {name}: cannot allocate {self.settings['Hash']} MB of search nodes "
                                 f"for {self.settings['Threads']} thread(s); the previous setting stays") from None
        self._last = None

    def new_game(self, edition: str, options: dict[str, int], players: int, seat: int) -> None:
        super().new_game(edition, options, players, seat)
        self._last = None

    def _scale(self, edition: Edition) -> float:
        """Points of margin per logistic unit: `MarginScale`, or the edition's measured spread of a
        round's margin / 1.7, so that the logistic approximates the normal distribution function of
        what the rounds still to come can change."""
        return float(self.settings["MarginScale"] or edition.search.round_spread / 1.7)

    def _allocate_trees(self) -> None:
        threads = self.settings["Threads"]
        capacity = max(2, self.settings["Hash"] * 2**20 // NODE_BYTES // threads)
        self._trees = []  # free the old pools before allocating the new ones
        self._trees = [Tree(capacity) for _ in range(threads)]

    def _ensure_trees(self, edition: Edition) -> list[Tree]:
        """The trees, configured by the options and, where they say `auto` (or -1), by the edition's
        search defaults (`Edition.search`)."""
        if len(self._trees) != self.settings["Threads"]:
            self._allocate_trees()
        for tree in self._trees:
            tree.configure(**self._tree_settings(edition))
        self._margin = edition.search.halving_margin if edition.search.halving else 0.0
        return self._trees

    def _tree_settings(self, edition: Edition) -> dict[str, Any]:
        """`Tree.configure`'s arguments: the options, and the edition's search defaults where they
        say `auto` (or -1)."""
        s = self.settings
        candidates = edition.search.root_candidates if s["RootCandidates"] < 0 else s["RootCandidates"]
        return dict(exploration=s["Exploration"] / 100.0, rollout=s["Rollout"], epsilon=s["Epsilon"] / 100.0,
                    reward=s["Reward"], scale=self._scale(edition), residual=s["Residual"] / 100.0,
                    score_weight=s["ScoreWeight"] / 100.0, score_scale=self._scale(edition),
                    others=s["Others"], max_depth=s["MaxDepth"], root_candidates=candidates,
                    cutoff_turns=edition.search.cutoff_turns, haste=edition.search.haste,
                    halving=edition.search.halving, halving_floor=edition.search.halving_floor,
                    halving_protect=edition.search.halving_margin > 0)

    @staticmethod
    def _verify_iterations(edition: Edition) -> int:
        """Worlds of the check of a departure from the heuristic against the end of the game (0: none)."""
        search = edition.search
        return search.verify_iterations if search.halving and search.halving_margin > 0 else 0

    # ----- deciding --------------------------------------------------------------------------------
    def choose(self, view: View, limits: Limits | None, stop: threading.Event | None = None,
               info: InfoCallback | None = None) -> int:
        legal = allowed_decisions(view, limits)
        started = limits.start_ns() if limits is not None else monotonic_ns()
        if len(legal) == 1:
            self.last_search = SearchReport(decision=legal[0])
            self._mine.append((len(view.history), legal[0]))
            return legal[0]
        limits = limits or Limits()
        iterations, nodes, deadline = self._budget(view, limits, started)
        if limits.infinite and stop is None:
            raise ValueError("an infinite search needs a stop event")
        early = {"always": True, "never": False}.get(self.settings["EarlyStop"], deadline > 0)
        edition = engine.get_edition(view.state.edition)
        trees = self._ensure_trees(edition)
        verify = self._verify_iterations(edition)
        race_deadline = started + int((deadline - started) * (1 - VERIFY_SHARE)) if verify and deadline else deadline
        # A halving search is flat and starts afresh: nothing below the root is worth keeping.
        reuse = self.settings["Reuse"] and not trees[0].halving
        path = self._reuse_path(view, trees[0].others_in_tree) if reuse else None
        state = view.state
        base = self._rng.getrandbits(64)
        self._heuristic_choice = self._heuristic(view, legal, base)
        self._snapshot = {}
        self._provisional = (view, self._heuristic_choice)
        reused = 0
        model = self._opponent_model(view, edition)
        heuristic = edition.heuristic.value if edition.heuristic is not None else None
        for i, tree in enumerate(trees):
            keep = path is not None and tree.advance(path)
            reused += keep
            tree.begin(state, view.seat, (base + i * 0x9E3779B97F4A7C15) % 2**64, keep,
                       heuristic=heuristic, inference=model, only=legal if limits.searchmoves else None)
        self._last = (state.edition, tuple(sorted(getattr(state, "options", {}).items())), view.seat,
                      state.round_index, view.history)
        self._mine = []
        quotas = _split(iterations, len(trees)) if iterations is not None else [2**62] * len(trees)
        node_limit = max(2, nodes // len(trees)) if nodes is not None else 0
        if len(trees) == 1 and stop is None and info is None:
            trees[0].run(quotas[0], race_deadline, 0, node_limit, early)
        else:
            self._searched(trees, quotas, race_deadline, node_limit, early, stop, info, view, started)
        report = self._report(trees, view, started, reused, legal)
        choice = self._heuristic_choice
        if verify and choice is not None and report.decision != choice and "stop" not in report.reasons \
                and not (stop is not None and stop.is_set()):
            self._verify(report, view, edition, choice, verify, deadline, base, model, started)
        self.last_search = report
        decision = report.decision
        assert decision is not None  # a report always makes a choice
        self._mine.append((len(view.history), decision))
        if info is not None:
            for line in self._info(report, view):
                info(line)
        return decision

    def _verify(self, report: SearchReport, view: View, edition: Edition, choice: int, iterations: int,
                deadline: int, seed: int, model: OpponentModel | None, started: int) -> None:
        """Races the report's decision against the heuristic's `choice` again, rollouts played to the
        end of the game in common worlds, and puts `choice` first unless the decision's mean is at
        least as high there (`SearchReport.verified`)."""
        decision = report.decision
        assert decision is not None
        if self._verifier is None or self._verifier.capacity < iterations + 16:
            self._verifier = Tree(max(1024, iterations + 16))
        tree = self._verifier
        tree.configure(**{**self._tree_settings(edition), "cutoff_turns": 0, "root_candidates": 0,
                          "halving_protect": False})
        heuristic = edition.heuristic.value if edition.heuristic is not None else None
        tree.begin(view.state, view.seat, (seed ^ 0x5851F42D4C957F2D) % 2**64, False, heuristic=heuristic,
                   inference=model, only=[decision, choice])
        tree.run(iterations, deadline, 0, 0, False)
        means = {d: total / visits for d, visits, _, total in tree.root_children() if visits}
        if decision not in means or choice not in means:
            return  # the clock left no world to compare them in: the search's choice stands
        report.verified = means[decision] - means[choice]
        report.checked = (decision, choice)
        report.elapsed_ms = (monotonic_ns() - started) / 1e6
        if report.verified < 0:
            ranked = [choice, *(d for d in report.ranked if d != choice)][:len(report.ranked)]
            self._fill(report, ranked, report.lines)

    def provisional(self, view: View) -> int | None:
        """While `choose(view)` searches: the most visited decision of the latest snapshot once it
        has `MinVisits` visits, else the heuristic's decision (what the search itself falls back on)."""
        seen, choice = self._provisional
        if seen is not view:
            return None
        snapshot = self._snapshot
        if snapshot:
            ranked = self._ranked(snapshot)
            if ranked:
                return ranked[0]
        return choice

    def _opponent_model(self, view: View, edition: Edition) -> OpponentModel | None:
        """The edition's posterior over the others' hidden cards from their decisions (`Infer`), or
        None: uniform determinizations (no model, a view without its round's history, or nothing
        observed yet)."""
        chosen = self.settings["Infer"]
        if edition.opponent_model is None or chosen == "off" or (chosen == "auto" and not edition.search.infer):
            return None
        model = edition.opponent_model.value(view.state, view.seat, view.history)
        return model if model is not None and model.observed > 0 else None

    def _budget(self, view: View, limits: Limits, started: int) -> tuple[int | None, int | None, int]:
        """(iterations, nodes, deadline in monotonic ns or 0) for this decision."""
        iterations, nodes = limits.iterations, limits.nodes
        time_ms = None if limits.infinite else decision_budget_ms(view, limits)
        if not limits.infinite and iterations is None and nodes is None and time_ms is None:
            iterations = self.settings["Iterations"] or view.edition.search.iterations
        deadline = 0
        if time_ms is not None:
            usable = max(time_ms - self.settings["MoveOverhead"], time_ms / 2, 1)
            deadline = started + int(usable * 1_000_000)
        return iterations, nodes, deadline

    def _searched(self, trees: Sequence[Tree], quotas: Sequence[int], deadline: int, node_limit: int,
                  early: bool, stop: threading.Event | None, info: InfoCallback | None, view: View,
                  started: int) -> None:
        """Runs the trees to their budget: the first on this thread, every other on a thread of its
        own, each in slices of at most SLICE_MS after which it leaves a snapshot of its root (what
        `provisional` and the `info` lines read). A `StopSignal` stops them the moment it is set;
        a plain event is looked at every POLL_MS. No thread hop lies between the search's end and
        the answer: under load every hop waits for a core."""
        snapshots: list[tuple[int, int, list, dict]] = [(0, 0, [], {})] * len(trees)
        polled = stop is not None and not isinstance(stop, StopSignal)
        next_info = [started + INFO_MS * 1_000_000]

        def stop_all() -> None:
            for tree in trees:
                tree.request_stop()

        def snapshot(i: int, tree: Tree, lines: bool) -> None:
            children = tree.root_children()
            pvs = self._lines(tree, view, self._ranked(_merge([children]))) if lines else {}
            snapshots[i] = (tree.iterations, tree.nodes, children, pvs)
            if i == 0:
                self._snapshot = _merge([children])

        def work(i: int, tree: Tree, left: int) -> None:
            while left > 0:
                now = monotonic_ns()
                yield_at = now + SLICE_MS * 1_000_000
                if i == 0 and info is not None:
                    yield_at = min(yield_at, next_info[0])
                if polled:
                    yield_at = min(yield_at, now + POLL_MS * 1_000_000)
                left -= tree.run(left, deadline, yield_at, node_limit, early)
                if polled and stop.is_set():  # type: ignore[union-attr]  # polled: stop is an event
                    stop_all()
                reporting = i == 0 and info is not None and monotonic_ns() >= next_info[0]
                snapshot(i, tree, reporting)
                if reporting:
                    next_info[0] += INFO_MS * 1_000_000
                    for line in self._info(self._snapshot_report(snapshots, started), view):
                        info(line)  # type: ignore[misc]  # reporting: info is set
                if tree.reason != "yield":
                    return

        with stop.calling(stop_all) if isinstance(stop, StopSignal) else nullcontext():
            helpers = [threading.Thread(target=work, args=(i, tree, quota), name=f"ismcts-{i}", daemon=True)
                       for i, (tree, quota) in enumerate(zip(trees, quotas)) if i > 0]
            for helper in helpers:
                helper.start()
            work(0, trees[0], quotas[0])
            for helper in helpers:
                helper.join()

    def _report(self, trees: Sequence[Tree], view: View, started: int, reused: int,
                allowed: list[int]) -> SearchReport:
        legal = set(allowed)
        children = {d: stats for d, stats in _merge([tree.root_children() for tree in trees]).items() if d in legal}
        ranked = self._ranked(children)
        lines = self._lines(trees[0], view, ranked)
        report = SearchReport(
            iterations=sum(t.iterations for t in trees), nodes=sum(t.nodes for t in trees),
            capacity=sum(t.capacity for t in trees), elapsed_ms=(monotonic_ns() - started) / 1e6,
            children=children, reasons=[t.reason for t in trees], reused=reused)
        if not ranked:  # no iteration ran (a stop at once) and no heuristic: any allowed decision
            report.decision = allowed[0]
            report.pv = [report.decision]
            return report
        self._fill(report, ranked, lines)
        return report

    def _snapshot_report(self, snapshots: Sequence[tuple[int, int, list, dict]], started: int) -> SearchReport:
        """A report of the running search from the workers' latest snapshots."""
        children = _merge([snap[2] for snap in snapshots])
        report = SearchReport(iterations=sum(s[0] for s in snapshots), nodes=sum(s[1] for s in snapshots),
                              elapsed_ms=(monotonic_ns() - started) / 1e6, children=children)
        ranked = self._ranked(children)
        if ranked:
            self._fill(report, ranked, snapshots[0][3])
        return report

    @staticmethod
    def _fill(report: SearchReport, ranked: list[int], lines: dict[int, list[int]]) -> None:
        """Sets the report's choice, value and lines from the ranked decisions; a decision whose
        line is missing, or starts elsewhere (a snapshot of another ranking), gets itself alone."""
        report.ranked = ranked
        report.lines = {d: lines[d] if lines.get(d) and lines[d][0] == d else [d] for d in ranked}
        report.decision = ranked[0]
        report.value = report.children[ranked[0]][1] if ranked[0] in report.children else _mean_value(report.children)
        report.pv = report.lines[ranked[0]]

    def _ranked(self, children: dict[int, tuple[int, float]]) -> list[int]:
        """The best `MultiPV` root decisions, best first (the first is the final choice). While the
        most visited has fewer than `MinVisits` visits, the heuristic's decision comes first: a few
        dozen rollouts a decision do not yet tell the decisions apart, and the most visited of them
        is then close to a random pick (docs/search.md, "Small searches"). A halving race with a
        margin (`SearchDefaults.halving_margin`) plays the heuristic's decision, a finalist, unless
        the other finalist's mean is higher by the margin."""
        ranked = sorted(children, key=self._preference(children), reverse=True)
        choice = self._heuristic_choice
        if self._margin > 0 and choice in children and ranked and ranked[0] != choice \
                and children[ranked[0]][0] == children[choice][0] \
                and children[ranked[0]][1] - children[choice][1] < self._margin:
            ranked.remove(choice)  # a finalist not better by the margin: the heuristic's decision
            ranked.insert(0, choice)
        least = self.settings["MinVisits"]
        if self._trees and self._trees[0].halving:
            # Its candidates are compared in the same worlds: a twentieth of the visits suffices.
            least = -(-least // 20)
        if choice is not None and (not ranked or children[ranked[0]][0] < least):
            if choice in children:
                ranked.remove(choice)
            ranked.insert(0, choice)  # even before the search has tried it
        return ranked[:self.settings["MultiPV"]]

    @staticmethod
    def _heuristic(view: View, allowed: list[int], seed: int) -> int | None:
        """The edition's heuristic decision among `allowed` (ties from `seed`), None without one."""
        try:
            return GreedyDecider(seed).decide_among(view.state, allowed)
        except ValueError:
            return None

    def _preference(self, children: dict[int, tuple[int, float]]) -> Callable[[int], tuple[int, float, bool, int]]:
        """The sort key of the final choice: most visits, then the best mean, then the heuristic's
        decision (decisions the searched worlds cannot tell apart — a halving race's finalists often
        lead to one position — are its to choose)."""
        choice = self._heuristic_choice
        return lambda d: (children[d][0], children[d][1], d == choice, -d)

    def _lines(self, tree: Tree, view: View, decisions: Sequence[int]) -> dict[int, list[int]]:
        """The principal line through each of `decisions` at the root of `tree`."""
        return {d: self._pv(tree, view, first=d) for d in decisions}

    def _pv(self, tree: Tree, view: View, first: int = -1) -> list[int]:
        """The tree's principal variation (through the root decision `first`, when given); when
        the tree holds only this seat's decisions, its first run of them (what follows skips the
        other seats' decisions, so it is no line)."""
        pv = tree.principal_variation(first=first)
        if tree.others_in_tree:
            return pv
        state = view.state.copy()
        run = []
        for decision in pv:
            # Stop where the others would move, or where the line went through worlds unlike this one
            # (the modelled seats acted differently there, so the public position differs).
            if state.to_move != view.seat or not state.is_legal(decision):
                break
            run.append(decision)
            state.apply(decision)
        return run

    def _info(self, report: SearchReport, view: View) -> list[dict[str, Any]]:
        """The `info` lines of a report: one, or with `MultiPV` above 1 one per ranked decision
        (`multipv` k, its `visits`, `value` and line), best first, the search's figures on each;
        then, where the search's choice was checked against the end of the game, an `info string`
        saying what the check found (`check <choice> <difference> against <heuristic's>: played`
        or `vetoed`)."""
        elapsed = max(report.elapsed_ms, 1e-3)
        figures: dict[str, Any] = {
            "iterations": report.iterations, "nodes": report.nodes, "time": int(report.elapsed_ms),
            "rate": int(report.iterations * 1000 / elapsed)}
        text = view.state.decision_to_text
        lines = []
        if self.settings["MultiPV"] == 1 or not report.ranked:
            out = dict(figures)
            if report.value is not None:
                out["value"] = round(report.value, 4)
            if report.pv:
                out["pv"] = [text(d) for d in report.pv]
            lines.append(out)
        else:
            for rank, d in enumerate(report.ranked, 1):
                visits, value = report.children.get(d, (0, None))
                line = {"multipv": rank, **figures, "visits": visits,
                        "value": None if value is None else round(value, 4), "pv": [text(x) for x in report.lines[d]]}
                lines.append({key: v for key, v in line.items() if v is not None})
        if report.checked is not None and report.verified is not None:
            choice, heuristic = report.checked
            verdict = "played" if report.decision == choice else "vetoed"
            lines.append({"string": f"check {text(choice)} {report.verified:+.4f} against {text(heuristic)}: {verdict}"})
        return lines

    # ----- tree reuse ------------------------------------------------------------------------------
    def _reuse_path(self, view: View, others_in_tree: bool) -> list[int] | None:
        """The tree path of the decisions made since the previous search: all of them when the
        other seats' decisions are tree nodes (None when the history masks one); else this seat's
        decisions alone."""
        if self._last is None or not self._mine:
            return None
        state = view.state
        edition, options, seat, round_index, history = self._last
        if (edition, options, seat, round_index) != (
                state.edition, tuple(sorted(getattr(state, "options", {}).items())), view.seat, state.round_index):
            return None
        if len(view.history) <= len(history) or view.history[:len(history)] != history:
            return None
        mine = dict(self._mine)
        if self._mine[0][0] != len(history):
            return None  # the answer of the previous search was not the next decision
        path: list[int] = []
        for index, text in enumerate(view.history[len(history):], start=len(history)):
            decision_text = text.partition(":")[0]  # own draws read D:card
            try:
                decision = state.parse_decision(decision_text)
            except ValueError:
                if index in mine or others_in_tree:
                    return None  # masked (a pass between others): the tree cannot follow
                decision = -1
            if index in mine and decision != mine[index]:
                return None  # the answer of the previous search was not what was played
            path.append(decision)
        if others_in_tree:
            return path
        return [decision for _, decision in self._mine]


def _mean_value(children: dict[int, tuple[int, float]]) -> float | None:
    """The mean reward of all the root's visits: the value of a decision the search has not tried
    (MinVisits), from what it found of the position. None before any visit.

    >>> _mean_value({1: (3, 0.5), 2: (1, 0.9)}), _mean_value({})
    (0.6, None)
    """
    visits = sum(v for v, _ in children.values())
    return sum(v * mean for v, mean in children.values()) / visits if visits else None


def _split(total: int, parts: int) -> list[int]:
    """`total` as `parts` near-equal shares."""
    return [total // parts + (1 if i < total % parts else 0) for i in range(parts)]


def _merge(children_lists: Sequence[list]) -> dict[int, tuple[int, float]]:
    """Root statistics of several trees summed: decision -> (visits, mean reward)."""
    totals: dict[int, list[float]] = {}
    for children in children_lists:
        for decision, visits, _avail, value in children:
            entry = totals.setdefault(decision, [0, 0.0])
            entry[0] += visits
            entry[1] += value
    return {d: (int(v), s / v if v else 0.0) for d, (v, s) in totals.items()}
