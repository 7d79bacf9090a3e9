"""Where the El Dorado search leaves greedy's decision, and what that is worth by full rollouts.

A measuring tool for issue 34's multiplayer gap, far more sensitive than matches: a 4-player match
decides one bit (first or not) from some 150 decisions of the searching seat, while here every
decision where the search and greedy disagree is valued on its own, by the same paired halving race
that the search runs (`go searchmoves` of the two decisions, common worlds), once with the search's
own rollouts (cut at a turn start and scored by the evaluation, `SearchDefaults.cutoff_turns`) and
once with rollouts played to the end of the game (`cutoff_turns` 0, the result itself). The second
is the *truth* the first approximates: what the decision is worth if every seat then plays greedy.
It undervalues decisions only a searching seat can follow up, so it is a yardstick, not a verdict.

    python -m research.deviations collect --route witchs-cauldron --players 4 --iterations 300 \\
        --deals 6 --seed 1 --out deviations.jsonl
    python -m research.deviations value deviations.jsonl --iterations 1000 --out values.jsonl
    python -m research.deviations report values.jsonl
    python -m research.deviations decide deviations.jsonl --iterations 300 --set cutoff_turns=3 \\
        --jobs 2 --out other.jsonl
    python -m research.deviations value other.jsonl --reuse values.jsonl --jobs 2 --out other-values.jsonl
    python -m research.deviations compare values.jsonl other-values.jsonl

`collect` plays searcher-against-greedy games (the searching seat moves on with each deal) and
writes every decision of the searching seat that has two legal decisions of different text: the
position, the seat, the search's and greedy's decision. `value` values each disagreement (`cut`:
the search's rollouts; `full`: to the end; each the search's decision minus greedy's, in the
searching seat's share of first place; an agreement is worth 0 to both). `report` prints the mean
of each, per decision and per disagreement, and the full value by bins of the cut value: where the
search's own estimate of its advantage is small, its deviations are what noise chose. `decide` has
the search of the installed build decide the same positions again (another seed, another budget,
another build; `--set` changes a field of the edition's `SearchDefaults` for that run), so that two
searches are compared on the same decisions: the mean full value per decision is what each gains over
greedy there, and `compare` pairs two such files position by position. `value --reuse` copies the
values of the rows whose decisions an earlier file of the same positions valued already (a row's
seeds are its index's): most decisions of two searches are the same, so a second search is valued
in a fraction of the time. The full value depends on greedy alone; the cut one on the build that
valued it, so reuse a file valued by the same build.

>>> rows = list(collect_rows("witchs-cauldron", 4, iterations=30, deals=1, seed=1, max_decisions=4))
>>> sorted(rows[0]) == sorted(ROW_FIELDS)
True
>>> value = value_row(rows[0], iterations=40, seed=1)
>>> -1.0 <= value["cut"] <= 1.0 and -1.0 <= value["full"] <= 1.0
True
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import sys
from collections.abc import Iterable, Iterator, Sequence
from multiprocessing import Pool

import engine
from arena.statistics import mean_and_interval, plus_minus
from bots.eldorado.heuristic import decide
from bots.ismcts import Tree
from bots.ismcts_policy import IsmctsPolicy
from protocol.limits import Limits
from engine.editions import get_edition, register, unregister
from research import read_jsonl
from research.decision_values import positive_int

ROW_FIELDS = ("deal", "seat", "position", "search", "greedy", "legal")
BINS = ((-1.0, 0.0), (0.0, 0.01), (0.01, 0.03), (0.03, 0.06), (0.06, 1.0))
"""Bins of the cut value in `report`: the search's own estimate of its advantage over greedy."""


def collect_rows(route: str, players: int, iterations: int, deals: int, seed: int,
                 max_decisions: int = 0) -> Iterator[dict]:
    """Plays `deals` games dealt from seed, seed + 1, … (the searching seat the game's place in the
    run modulo `players`, the default search at `iterations` a decision, greedy elsewhere) and yields a row
    (ROW_FIELDS) per decision of the searching seat with two legal decisions of different text;
    `max_decisions` ends a game after that many rows (0: none)."""
    for k in range(deals):
        deal = seed + k
        state = engine.new_game("eldorado", seed=deal, players=players, route=route)
        searcher = k % players
        policy = IsmctsPolicy(seed=deal)
        chance = random.Random(deal)
        found = 0
        while not state.is_terminal() and not (max_decisions and found >= max_decisions):
            seat = state.to_move
            view = state.view(seat)
            greedy = decide(view.state, chance.getrandbits(63))
            if seat != searcher:
                state.apply(greedy)
                continue
            chosen = policy.choose(view, Limits(iterations=iterations))
            texts = set(view.legal_text())
            if len(texts) > 1:
                found += 1
                yield {"deal": deal, "seat": seat, "position": state.to_text(),
                       "search": state.decision_to_text(chosen), "greedy": state.decision_to_text(greedy),
                       "legal": len(texts)}
            state.apply(chosen)


def set_search(settings: Sequence[str]) -> None:
    """Changes fields of the `eldorado` record's `SearchDefaults` in this process (`field=value`, the
    value converted to the field's type): the record is replaced in the registry, where the search
    reads it.

    >>> before = get_edition("eldorado")
    >>> set_search(["halving_margin=0.04", "cutoff_turns=3"])
    >>> get_edition("eldorado").search.halving_margin, get_edition("eldorado").search.cutoff_turns
    (0.04, 3)
    >>> unregister(get_edition("eldorado")); _ = register(before)
    >>> set_search(["margin=1"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: no search setting 'margin': one of round_spread, infer, ...
    >>> set_search(["cutoff_turns=two"])
    Traceback (most recent call last):
    ValueError: search setting cutoff_turns: expected int, got 'two'
    """
    record = get_edition("eldorado")
    fields = {f.name: f for f in dataclasses.fields(record.search)}
    changes: dict[str, object] = {}
    for setting in settings:
        name, _, text = setting.partition("=")
        if name not in fields:
            raise ValueError(f"no search setting {name!r}: one of {', '.join(fields)}")
        kind = type(getattr(record.search, name))
        try:
            changes[name] = text.lower() in ("1", "true", "yes") if kind is bool else kind(text)
        except ValueError:
            raise ValueError(f"search setting {name}: expected {kind.__name__}, got {text!r}") from None
    if changes:
        unregister(record)
        register(dataclasses.replace(record, search=dataclasses.replace(record.search, **changes)))


def _decide_one(job: tuple[int, dict, int, int]) -> dict:
    i, row, iterations, seed = job
    state = engine.parse_position(row["position"])
    chosen = IsmctsPolicy(seed=seed + i).choose(state.view(row["seat"]), Limits(iterations=iterations))
    return {**row, "search": state.decision_to_text(chosen)}


def decide_rows(rows: Iterable[dict], iterations: int, seed: int, jobs: int = 1) -> Iterator[dict]:
    """The rows with the search's decision made again, by the installed build's default search at
    `iterations`, each from its own seed (`jobs` processes; the same decisions with any number)."""
    work = ((i, row, iterations, seed) for i, row in enumerate(rows))
    yield from _mapped(_decide_one, work, jobs)


def _mapped(function, work: Iterable, jobs: int) -> Iterator:
    """function over work in order, in `jobs` processes (forked: they inherit `set_search`)."""
    if jobs <= 1:
        yield from map(function, work)
        return
    with Pool(jobs) as pool:
        yield from pool.imap(function, work, chunksize=4)


def paired_value(state: engine.State, seat: int, a: int, b: int, cutoff_turns: int, iterations: int,
                 seed: int) -> float:
    """The halving race of decisions a and b alone from `seat`'s view (common worlds, heuristic
    rollouts as the edition's search plays them, cut after `cutoff_turns` turns or, with 0, played to
    the end): a's mean reward minus b's."""
    edition = engine.get_edition("eldorado")
    tree = Tree(max(1024, iterations + 16))
    tree.configure(rollout="heuristic", epsilon=0.0, others="heuristic", max_depth=1,
                   cutoff_turns=cutoff_turns, halving=True, halving_floor=edition.search.halving_floor)
    tree.begin(state.view(seat).state, seat, seed, False, heuristic=edition.heuristic.value, only=[a, b])
    tree.run(iterations, 0, 0, 0, False)
    means = {d: total / visits for d, visits, _, total in tree.root_children() if visits}
    return means[a] - means[b]


def value_row(row: dict, iterations: int, seed: int) -> dict:
    """The row's disagreement valued by the search's rollouts (`cut`) and played to the end
    (`full`, twice the iterations: its rewards are 0 or 1), the search's decision minus greedy's;
    both 0 where they agree."""
    keep = {k: row[k] for k in ("deal", "seat", "search", "greedy", "legal")}
    if row["search"] == row["greedy"]:
        return {**keep, "cut": 0.0, "full": 0.0}
    state = engine.parse_position(row["position"])
    a, b = state.parse_decision(row["search"]), state.parse_decision(row["greedy"])
    cut = engine.get_edition("eldorado").search.cutoff_turns
    return {**keep,
            "cut": round(paired_value(state, row["seat"], a, b, cut, iterations, seed), 5),
            "full": round(paired_value(state, row["seat"], a, b, 0, 2 * iterations, seed), 5)}


def _value_one(job: tuple[int, dict, int, int]) -> dict:
    i, row, iterations, seed = job
    return value_row(row, iterations, seed + 1000 * i)


def value_rows(rows: Iterable[dict], iterations: int, seed: int, reuse: Sequence[dict] = (),
               jobs: int = 1) -> Iterator[dict]:
    """Every row valued (`value_row`, row i from seed + 1000 i), in order; a row whose search and
    greedy decisions are those of row i of `reuse` (values of the same positions) takes that value."""
    rows = list(rows)
    done = {i: old for i, (row, old) in enumerate(zip(rows, reuse))
            if (old["search"], old["greedy"]) == (row["search"], row["greedy"])}
    fresh = _mapped(_value_one, ((i, row, iterations, seed) for i, row in enumerate(rows) if i not in done), jobs)
    for i in range(len(rows)):
        yield done[i] if i in done else next(fresh)


def compare(first: Sequence[dict], second: Sequence[dict]) -> str:
    """Two searches' values of the same positions paired: the second's full value minus the first's,
    a decision, with its 95% interval; their disagreements with greedy, and where they differ."""
    if len(first) != len(second) or any((a["deal"], a["seat"], a["greedy"]) != (b["deal"], b["seat"], b["greedy"])
                                         for a, b in zip(first, second)):
        raise ValueError("the two files do not value the same positions in the same order")
    mean, half = mean_and_interval([b["full"] - a["full"] for a, b in zip(first, second)])
    return (f"second - first: {mean:+.5f} a decision{plus_minus(half, 5)} over {len(first)} decisions; "
            f"disagreements with greedy {sum(a['search'] != a['greedy'] for a in first)} and "
            f"{sum(b['search'] != b['greedy'] for b in second)}; "
            f"the two decide differently at {sum(a['search'] != b['search'] for a, b in zip(first, second))}")


def report(values: list[dict]) -> str:
    """The mean full value per decision, the mean cut and full values of the disagreements, and
    their full value by bins of the cut one."""
    decisions = len(values)
    per_decision = mean_and_interval([v["full"] for v in values])
    values = [v for v in values if v["search"] != v["greedy"]]
    if not values:
        return "no disagreements"
    full = mean_and_interval([v["full"] for v in values])
    lines = [f"decisions {decisions}  full {per_decision[0]:+.5f} a decision{plus_minus(per_decision[1], 5)}",
             f"disagreements {len(values)}  cut {statistics.mean(v['cut'] for v in values):+.4f}  "
             f"full {full[0]:+.4f}{plus_minus(full[1], 4)}"]
    for lo, hi in BINS:
        inside = [v for v in values if lo <= v["cut"] < hi]
        if inside:
            lines.append(f"  cut in [{lo:+.2f}, {hi:+.2f}): {len(inside):4d}  cut {statistics.mean(v['cut'] for v in inside):+.4f}"
                         f"  full {statistics.mean(v['full'] for v in inside):+.4f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m research.deviations", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="play searcher-against-greedy games, write the disagreements")
    c.add_argument("--route", default="first-expedition")
    c.add_argument("--players", type=positive_int, default=4)
    c.add_argument("--iterations", type=positive_int, default=300)
    c.add_argument("--deals", type=positive_int, default=6)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--out", required=True)
    v = sub.add_parser("value", help="value each disagreement by cut and by full rollouts")
    v.add_argument("rows")
    v.add_argument("--iterations", type=positive_int, default=1000)
    v.add_argument("--seed", type=int, default=7)
    v.add_argument("--reuse", help="a values file of the same positions: rows decided alike copy its values")
    v.add_argument("--jobs", type=positive_int, default=1)
    v.add_argument("--out", required=True)
    d = sub.add_parser("decide", help="the installed build's search decides the rows' positions again")
    d.add_argument("rows")
    d.add_argument("--iterations", type=positive_int, default=300)
    d.add_argument("--seed", type=int, default=100)
    d.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                   help="a field of the edition's SearchDefaults changed for this run (repeatable)")
    d.add_argument("--jobs", type=positive_int, default=1)
    d.add_argument("--out", required=True)
    r = sub.add_parser("report", help="summarize values")
    r.add_argument("values", nargs="+")
    p = sub.add_parser("compare", help="two searches' values of the same positions, paired")
    p.add_argument("first")
    p.add_argument("second")
    args = parser.parse_args(argv)
    if args.command == "collect":
        print(f"collect route={args.route} players={args.players} iterations={args.iterations} "
              f"deals={args.deals} seed={args.seed} -> {args.out}", file=sys.stderr)
        with open(args.out, "a") as out:
            for row in collect_rows(args.route, args.players, args.iterations, args.deals, args.seed):
                print(json.dumps(row), file=out, flush=True)
    elif args.command == "value":
        print(f"value {args.rows} iterations={args.iterations} seed={args.seed} -> {args.out}", file=sys.stderr)
        reuse = list(read_jsonl(args.reuse)) if args.reuse else []
        with open(args.out, "a") as out:
            for value in value_rows(read_jsonl(args.rows), args.iterations, args.seed, reuse, args.jobs):
                print(json.dumps(value), file=out, flush=True)
    elif args.command == "decide":
        try:
            set_search(args.set)
        except ValueError as error:
            parser.error(str(error))
        print(f"decide {args.rows} iterations={args.iterations} seed={args.seed} set={','.join(args.set) or '-'}"
              f" -> {args.out}", file=sys.stderr)
        with open(args.out, "a") as out:
            for row in decide_rows(read_jsonl(args.rows), args.iterations, args.seed, args.jobs):
                print(json.dumps(row), file=out, flush=True)
    elif args.command == "compare":
        print(compare(list(read_jsonl(args.first)), list(read_jsonl(args.second))))
    else:
        print(report([row for path in args.values for row in read_jsonl(path)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
