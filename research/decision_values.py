"""What every decision of a position is worth to the search, and what the heuristic loses against it.

A measuring tool for the card editions: positions are sampled from greedy-against-greedy matches,
every legal decision of the seat to move is valued by the default search restricted to it (`go
searchmoves`), each from the same seed, so the decisions are compared on common worlds, and
the heuristic's choice is scored by its regret: the best decision's value minus its own, in units
of the search's reward. Where that regret sits (plays or draws, early or late in the round) is
where the one-step improvement of the search over greedy comes from — what a better rollout policy
would have to learn. research/notebook.md has the figures (seventh and eighth sessions).

    python -m research.decision_values generate -e classic --positions 3000 --worlds 1500 --seed 1 \\
        --out values.jsonl
    python -m research.decision_values report values.jsonl
    python -m research.decision_values noise values.jsonl --positions 300 --seed 777000

>>> import engine
>>> view = next(sample_positions("classic", seed=3, rate=1.0))
>>> record = value_decisions(view, worlds=20, seed=1)
>>> sorted(record.values) == sorted(view.legal_text())
True
>>> heuristic_regret(record) >= 0.0
True
"""
from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import engine
from bots.greedy import GreedyPolicy
from bots.ismcts_policy import IsmctsPolicy
from bots.cards.heuristic import EDITION_NAMES, decision_scores


@dataclass(frozen=True)
class ValuedPosition:
    """One position (the seat's view, as text) and the search's value of each legal decision."""

    view: str
    values: Mapping[str, float]
    """Decision text -> mean reward of the searching seat over the sampled worlds."""

    def as_json(self) -> dict:
        return {"view": self.view, "values": dict(self.values)}


def sample_positions(edition: str, seed: int, rate: float = 0.08, rounds: int = 3) -> Iterator[engine.View]:
    """Views of the seat to move from greedy-against-greedy matches dealt from seed, seed+1, …,
    each decision with more than one legal choice kept with probability `rate` (endless)."""
    if edition not in EDITION_NAMES:
        raise ValueError(f"decision values need a card edition ({', '.join(EDITION_NAMES)}), got {edition!r}")
    chance = random.Random(seed)
    deal = seed
    while True:
        state = engine.new_game(edition, seed=deal, rounds=rounds)
        greedy = GreedyPolicy(seed=deal)
        deal += 1
        while not state.is_terminal():
            view = state.view(state.to_move)
            if len(view.legal()) > 1 and chance.random() < rate:
                yield view
            state.apply(greedy.choose(view, None))


def value_decisions(view: engine.View, worlds: int, seed: int) -> ValuedPosition:
    """Every legal decision of `view` valued by the default search over `worlds` common worlds: the
    default tree restricted to the decision at its root, begun from the same seed each time (the
    same sequence of sampled worlds; the rollouts' own randomness differs)."""
    edition = engine.get_edition(view.state.edition)
    policy = IsmctsPolicy(seed=seed, RootCandidates=0)
    tree = policy._ensure_trees(edition)[0]  # configured as the bot's searches are
    model = policy._opponent_model(view, edition)
    values = {}
    for decision in view.legal():
        tree.begin(view.state, view.seat, seed, heuristic=edition.heuristic.value,
                   inference=model, only=[decision])
        tree.run(worlds)
        (_, visits, _, total), = tree.root_children()
        values[view.state.decision_to_text(decision)] = total / visits
    return ValuedPosition(view.text, values)


def heuristic_regret(record: ValuedPosition, params: Mapping[str, float] | None = None) -> float:
    """The best decision's value minus that of the heuristic's choice (ties: their mean value)."""
    scored = decision_scores(engine.parse_view(record.view).state, dict(params) if params else None)
    top = scored[0][1]
    chosen = [text for text, score in scored if score == top]
    return max(record.values.values()) - sum(record.values[text] for text in chosen) / len(chosen)


CATEGORIES = ("all", "plays and discards", "draws", "draw pile <= 15 cards", "draw pile >= 16 cards",
              "the last card of the draw pile")
"""The rows of `report`, in its order."""


def draw_pile(view: str) -> int:
    """The cards left in the draw pile of a view's text.

    >>> draw_pile("classic … phase=draw to_move=0 … deck=7 …")
    7
    """
    return int(re.search(r"\bdeck=(\d+)", view).group(1))


def categories(view: str) -> list[str]:
    """The rows of the report that a position (a view's text) counts in.

    >>> categories("classic … phase=draw to_move=0 … deck=1 …")
    ['all', 'draws', 'draw pile <= 15 cards', 'the last card of the draw pile']
    """
    phase = re.search(r"\bphase=(\w+)", view).group(1)
    deck = draw_pile(view)
    rows = ["all", "draws" if phase == "draw" else "plays and discards",
            "draw pile <= 15 cards" if deck <= 15 else "draw pile >= 16 cards"]
    if phase == "draw" and deck == 1:
        rows.append("the last card of the draw pile")
    return rows


def report(records: list[ValuedPosition]) -> list[dict]:
    """Per category: positions, their share, the mean regret, its share of all the regret and how
    often the heuristic's choice is not the best-valued decision."""
    regrets = [heuristic_regret(r) for r in records]
    total = sum(regrets) or 1.0
    rows: dict[str, list[float]] = {}
    for record, regret in zip(records, regrets):
        for name in categories(record.view):
            row = rows.setdefault(name, [0, 0.0, 0])
            row[0] += 1
            row[1] += regret
            row[2] += regret > 0
    order = [name for name in CATEGORIES if name in rows]
    return [{"positions": name, "count": rows[name][0], "share": rows[name][0] / len(records),
             "mean_regret": rows[name][1] / rows[name][0], "regret_share": rows[name][1] / total,
             "not_best": rows[name][2] / rows[name][0]} for name in order]


def valuation_noise(records: list[ValuedPosition], worlds: int, seed: int) -> dict:
    """How much of the values is the noise of the worlds sampled: each position valued again on
    other worlds; how often both valuations pick the same best decision, what the best of the first
    loses by the second (and the other way round), against the heuristic's regret."""
    same, cross, heuristic = 0, 0.0, 0.0
    for i, record in enumerate(records):
        again = value_decisions(engine.parse_view(record.view), worlds, seed + i)
        first = max(record.values, key=record.values.get)
        second = max(again.values, key=again.values.get)
        same += first == second
        cross += (again.values[second] - again.values[first] + record.values[first] - record.values[second]) / 2
        heuristic += (heuristic_regret(record) + heuristic_regret(again)) / 2
    n = len(records) or 1
    return {"positions": len(records), "same_best": same / n, "noise_regret": cross / n,
            "heuristic_regret": heuristic / n}


def read_records(path: str) -> list[ValuedPosition]:
    """The records of a file written by `generate` (one JSON object a line)."""
    records = []
    with open(path) as f:
        for number, line in enumerate(f, start=1):
            try:
                data = json.loads(line)
                records.append(ValuedPosition(data["view"], data["values"]))
            except (ValueError, KeyError, TypeError) as e:
                raise ValueError(f"{path} line {number}: not a valued position ({e})") from None
    return records


def positive_int(text: str) -> int:
    """An argparse type of the research tools: an integer of at least 1 (a count of positions, worlds
    or games)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {value}")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m research.decision_values", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="sample positions and value their decisions (appends to --out)")
    gen.add_argument("--edition", "-e", default="classic", choices=EDITION_NAMES)
    gen.add_argument("--positions", type=positive_int, default=100)
    gen.add_argument("--worlds", type=positive_int, default=1500, help="sampled worlds per decision")
    gen.add_argument("--seed", type=int, required=True, help="first deal (and the searches' seeds)")
    gen.add_argument("--out", required=True)
    rep = sub.add_parser("report", help="the heuristic's regret by kind of position")
    rep.add_argument("files", nargs="+")
    rep.add_argument("--json", action="store_true")
    noise = sub.add_parser("noise", help="value the first positions of a file again on other worlds")
    noise.add_argument("file")
    noise.add_argument("--positions", type=positive_int, default=300)
    noise.add_argument("--worlds", type=positive_int, default=1500)
    noise.add_argument("--seed", type=int, required=True, help="the searches' seeds (seed, seed+1, …)")
    args = parser.parse_args(argv)
    if args.command == "generate":
        print(f"generate {args.edition} positions={args.positions} worlds={args.worlds} seed={args.seed}", flush=True)
        with open(args.out, "a") as out:
            for i, view in enumerate(sample_positions(args.edition, args.seed)):
                if i >= args.positions:
                    break
                record = value_decisions(view, args.worlds, args.seed + i)
                out.write(json.dumps(record.as_json(), separators=(",", ":")) + "\n")
                out.flush()
        return 0
    paths = [args.file] if args.command == "noise" else args.files
    try:
        records = [r for path in paths for r in read_records(path)]
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if not records:
        print("error: no positions", file=sys.stderr)
        return 2
    if args.command == "noise":
        result = valuation_noise(records[:args.positions], args.worlds, args.seed)
        print(json.dumps(result))
        return 0
    rows = report(records)
    if args.json:
        print(json.dumps(rows))
        return 0
    print(f"{len(records)} positions")
    print(f"{'positions':32s} {'share':>6s} {'mean regret':>12s} {'regret share':>13s} {'not best':>9s}")
    for row in rows:
        print(f"{row['positions']:32s} {row['share']:6.3f} {row['mean_regret']:12.5f} "
              f"{row['regret_share']:13.3f} {row['not_best']:9.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
