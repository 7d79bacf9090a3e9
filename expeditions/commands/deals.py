"""`expeditions deals`: start positions for `arena --positions`, one full-state position a line.

    expeditions deals -e classic -o rounds=1 --count 200 --seed 7 --out deals.txt
    expeditions deals --count 50 --after 30 --by greedy --out midgame.txt   # positions 30 decisions in

Deal i is the one `arena --seed S` would deal as its i-th (arena/schedule.py), so a file of fresh
deals plays as the seeded tournament does; `--after N` plays N decisions of each deal first, by the
greedy heuristic or at random (seeded by the deal), for suites of later positions. The first line is
a `#` comment with the command's settings, so the file says how it was made.
"""
from __future__ import annotations

import argparse
import random
import sys

import engine
from expeditions.commands import CommandError
from expeditions.commands.common import add_edition_arguments, edition_options, master_seed, seed_argument

PLAYERS_OF_THE_DECISIONS = ("greedy", "random")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("deals", help="write start positions for arena --positions",
                       description="Writes full-state positions, one a line: the deals of a master seed as "
                                   "the arena deals them, or positions some decisions into them.")
    add_edition_arguments(p)
    p.add_argument("--count", type=int, default=10, help="positions to write (default 10)")
    p.add_argument("--seed", type=seed_argument, help="master seed (printed; random if omitted)")
    p.add_argument("--after", type=int, default=0, metavar="N",
                   help="decisions played in each deal before its position is written (default 0: the deal)")
    p.add_argument("--by", choices=PLAYERS_OF_THE_DECISIONS, default="greedy",
                   help="who plays those decisions (default greedy; random is seeded by the deal)")
    p.add_argument("--out", default="-", help="output file (default stdout)")
    p.set_defaults(run=run)


def positions(edition: engine.Edition, options: dict[str, int], players: int | None, count: int, seed: int,
              after: int = 0, by: str = "greedy") -> list[str]:
    """The start positions: deal i of master seed `seed`, after `after` decisions played by `by`.

    >>> from arena.schedule import deal_seed
    >>> classic = engine.get_edition("classic")
    >>> first = positions(classic, {"rounds": 1}, None, 2, seed=7)[0]
    >>> first == classic.new_game(deal_seed(7, 0), None, rounds=1).to_text()
    True
    >>> engine.parse_position(positions(classic, {}, None, 1, 7, after=5)[0]).turn
    2
    """
    from arena.schedule import deal_seed
    from bots.heuristics import greedy_decision

    out = []
    for deal in range(count):
        state = edition.new_game(deal_seed(seed, deal), players, **options)
        rng = random.Random(deal_seed(seed, deal))
        for played in range(after):
            if state.is_terminal():
                raise ValueError(f"deal {deal} ended after {played} decisions, before --after {after}")
            state.apply(greedy_decision(state, rng) if by == "greedy" else rng.choice(state.legal()))
        if state.is_terminal():
            raise ValueError(f"deal {deal} ended after {after} decisions: no decision left to play")
        out.append(state.to_text())
    return out


def run(args: argparse.Namespace) -> int:
    edition, options = edition_options(args)
    if args.count < 1 or args.after < 0:
        raise CommandError("--count must be at least 1 and --after at least 0")
    seed = master_seed(args.seed)
    try:
        lines = positions(edition, options, args.players, args.count, seed, args.after, args.by)
    except ValueError as err:
        raise CommandError(str(err)) from None
    words = ["# expeditions deals", "-e", edition.name, *(f"-o {word}" for word in edition.options_text(options).split()),
             *(["--players", str(args.players)] if args.players else []),
             "--count", str(args.count), "--seed", str(seed), "--after", str(args.after), "--by", args.by]
    header = " ".join(words)
    text = "\n".join([header, *lines]) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        try:
            with open(args.out, "w") as f:
                f.write(text)
        except OSError as err:
            raise CommandError(f"--out {args.out}: {err.strerror}") from None
        print(f"deals: {len(lines)} positions written to {args.out} (seed {seed})", file=sys.stderr)
    return 0
