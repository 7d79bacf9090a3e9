"""Traced positions searched again with other settings: how far a change to the searcher moves its
decisions, measured in minutes on positions of real games instead of hours of matches.

A strength run's search traces (research/search_traces.py) hold side A's positions with the decision
its search made and the visits and mean reward of every root decision. `research` draws a seeded
sample of them, lets each bot spec decide every sampled position afresh (a new bot per position:
no tree is reused), and reports per spec how often it made the traced decision, what its decisions
lose by the traced search's values (its *regret*: the best traced value minus that of the decision
made; a decision the traced search did not try counts as its worst), and how often any two specs
agree. The same spec with two `Seed`s gives the search's own noise, the yardstick of the rest:

    python -m research.trace_research research/results/classic-infer-traces.jsonl.gz --positions 300 \\
        --kind plays --spec ismcts:EarlyStop=always:Seed=1 --spec ismcts:EarlyStop=always:Seed=2 \\
        --spec ismcts:EarlyStop=always:Seed=1:Exploration=20 --spec greedy

The traced values are the traced search's model of the game, so a lower regret says "nearer that
search", not "stronger": what a change is worth in games, matches tell (research/notebook.md).

>>> from arena.duplicate import play_pair
>>> from arena.duplicate_results import RunConfig
>>> from protocol.limits import Limits
>>> from research.search_traces import TraceFile, search_trace
>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "t.jsonl")
>>> pair = play_pair("classic", 3, "ismcts", "greedy", {"rounds": 1}, Limits(iterations=50), observe=search_trace)
>>> TraceFile(path).append(RunConfig("classic", {"rounds": 1, "max_turns": 300}, 2, "ismcts", "greedy", 50, None), pair)
>>> table = research(path, ["greedy", "greedy"], positions=5, iterations=50)
>>> table.positions, table.agreement[0][1], table.mean_reward
(5, 1.0, (None, None))
"""
from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from arena.duplicate import make_bot
from protocol.limits import Limits
from research.decision_values import categories, draw_pile
from research.search_traces import TracedPosition, TraceFileError, positions, read_traces

KINDS = ("all", "plays", "draws")
"""Which traced positions to sample: every one, plays and discards, or draws."""


@dataclass(frozen=True)
class ResearchTable:
    """What each spec decided on the sampled positions."""

    specs: tuple[str, ...]
    positions: int
    traced_agreement: tuple[float, ...]
    """Per spec: the share of positions where it made the traced decision."""
    regret: tuple[float, ...]
    """Per spec: the mean loss of its decisions by the traced search's values (reward units)."""
    agreement: tuple[tuple[float, ...], ...]
    """Per pair of specs: the share of positions where they decided the same."""
    mean_reward: tuple[float | None, ...] = ()
    """Per spec that searches: the mean over the positions it searched (not those with one legal
    decision) of its root's visit-weighted mean reward — with the worlds and the other seats' model
    fixed, how well its model of the seat's own later decisions plays the rollouts (None for a spec
    that does not search)."""

    def lines(self) -> list[str]:
        width = max(len(s) for s in self.specs)
        out = [f"{self.positions} positions; regret by the traced search's values, a decision; "
               f"reward: the search's mean rollout reward",
               f"{'spec':{width}s}  {'= traced':>8s}  {'regret':>7s}  {'reward':>6s}  "
               f"agreement with spec 1..{len(self.specs)}"]
        for i, spec in enumerate(self.specs):
            row = " ".join(f"{a:5.3f}" for a in self.agreement[i])
            reward = self.mean_reward[i]
            shown = "     -" if reward is None else f"{reward:6.3f}"
            out.append(f"{spec:{width}s}  {self.traced_agreement[i]:8.3f}  {self.regret[i]:7.4f}  {shown}  {row}")
        return out


def sample(path: str, count: int, kind: str = "all", seed: int = 0,
           max_draw_pile: int | None = None) -> list[TracedPosition]:
    """`count` traced positions of the kind asked (and, with `max_draw_pile`, with at most that
    many cards left to draw: the end of a round), drawn without replacement with `seed` (all of
    them when there are fewer)."""
    if kind not in KINDS:
        raise ValueError(f"kind: expected one of {', '.join(KINDS)}, got {kind!r}")
    found = []
    for record in read_traces(path):
        for p in positions(record):
            if max_draw_pile is not None and draw_pile(p.view.text) > max_draw_pile:
                continue
            if kind == "all" or ("draws" in categories(p.view.text)) == (kind == "draws"):
                found.append(p)
    random.Random(seed).shuffle(found)
    return found[:count]


def traced_regret(p: TracedPosition, decision: int) -> float:
    """What `decision` loses against the best root decision by the traced search's mean rewards
    (a decision the traced search did not try: as much as its worst)."""
    best, worst = max(p.values.values()), min(p.values.values())
    return best - p.values.get(decision, worst)


def research(path: str, specs: Sequence[str], positions: int, iterations: int = 20000,
             kind: str = "all", seed: int = 0, max_draw_pile: int | None = None) -> ResearchTable:
    """Each spec's decisions on a sample of the traced positions of `path` (module docstring).
    A spec without a `Seed` option searches with seed 0, like the strength runs' first seat."""
    for spec in specs:
        make_bot(spec, 0)  # a bad spec fails before the first search
    chosen = sample(path, positions, kind, seed, max_draw_pile)
    decisions = [[0] * len(chosen) for _ in specs]
    rewards: list[list[float]] = [[] for _ in specs]
    for j, p in enumerate(chosen):
        for i, spec in enumerate(specs):
            bot = make_bot(spec, 0)  # a fresh bot a position: no tree kept from another position
            decisions[i][j] = bot.choose(p.view, Limits(iterations=iterations))
            children = getattr(getattr(bot, "last_search", None), "children", None)
            if children:
                visits = sum(v for v, _ in children.values())
                rewards[i].append(sum(v * mean for v, mean in children.values()) / visits)
    n = max(1, len(chosen))
    return ResearchTable(
        specs=tuple(specs), positions=len(chosen),
        traced_agreement=tuple(sum(d == p.chosen for d, p in zip(row, chosen)) / n for row in decisions),
        regret=tuple(sum(traced_regret(p, d) for d, p in zip(row, chosen)) / n for row in decisions),
        agreement=tuple(tuple(sum(a == b for a, b in zip(r, s)) / n for s in decisions) for r in decisions),
        mean_reward=tuple(sum(r) / len(r) if r else None for r in rewards))


def main(argv: list[str] | None = None) -> int:
    import argparse
    parser = argparse.ArgumentParser(prog="python -m research.trace_research", description=__doc__.split("\n\n")[0])
    parser.add_argument("file", metavar="TRACES.jsonl[.gz]")
    parser.add_argument("--spec", action="append", required=True, help="a bot spec (name:Option=value:…); repeat")
    parser.add_argument("--positions", type=int, default=200, help="positions sampled (default 200)")
    parser.add_argument("--iterations", type=int, default=20000, help="search budget a decision (default 20000)")
    parser.add_argument("--kind", choices=KINDS, default="all", help="which positions (default all)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sample (default 0)")
    parser.add_argument("--max-draw-pile", type=int, default=None, metavar="N",
                        help="only positions with at most N cards left to draw (the end of a round)")
    args = parser.parse_args(argv)
    if args.positions < 1 or args.iterations < 1:
        parser.error("--positions and --iterations must be at least 1")
    if args.max_draw_pile is not None and args.max_draw_pile < 0:
        parser.error("--max-draw-pile must be at least 0")
    for spec in args.spec:
        try:
            make_bot(spec, 0)
        except ValueError as e:
            parser.error(f"--spec {spec}: {e}")
    print(f"seed {args.seed}")
    try:
        table = research(args.file, args.spec, args.positions, args.iterations, args.kind, args.seed,
                         args.max_draw_pile)
    except (OSError, TraceFileError, ValueError) as e:
        print(e, file=sys.stderr)
        return 2
    print("\n".join(table.lines()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
