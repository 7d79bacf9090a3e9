"""The weights of El Dorado's position evaluation (bots/eldorado/heuristic.pyx, `ed_evaluate`): a
multinomial logit of the winner of greedy-against-greedy games, fitted on the seats' features at the
start of every turn — where a search's rollouts stop (`SearchDefaults.cutoff_turns`).

Per seat i, z_i = -a log(T_i + 2) + b still_i - d D_i + e held_i and the chance of winning is the
softmax of z over the seats: T the race estimate (`race_estimate`, turns to finish), still 1 for the
seat to move and the seats after it (they still play in this round), D the distance of the seat's
pieces to El Dorado (the heuristic's `seat_distance`) and held the blockades it holds. `collect`
plays the games (a file per route and number of players), `fit` fits (a, b, d, e) by maximum
likelihood, each file weighing the same, and compares with the evaluation the fit replaced (a
softmax of -T/1.5, `EVAL_SPREAD`). Needs numpy (the `rl` and `test` extras).

The evaluation's weights (EVAL_LOG 3.44, EVAL_TEMPO 0.65, EVAL_DISTANCE 0.081, EVAL_HELD 0.103) are
the fit of these seven files (a minute of CPU; first-expedition with 2 players: log-loss 0.564
against 1.009 for the old evaluation):

    python -m research.evaluation_fit collect --route first-expedition --players 2 --games 1000 \\
        --seed 100000 --out /tmp/turns/first-expedition-2.jsonl
    for rp in first-expedition:3 first-expedition:4 witchs-cauldron:2 witchs-cauldron:4 \\
              hills-of-gold:2 winding-paths:2; do
        python -m research.evaluation_fit collect --route ${rp%:*} --players ${rp#*:} --games 600 \\
            --seed 100000 --out /tmp/turns/${rp%:*}-${rp#*:}.jsonl
    done
    python -m research.evaluation_fit fit /tmp/turns/*.jsonl

A file holds one game a line: {"deal", "route", "players", "returns", "turns": [{"turn", "to_move",
"race", "distance", "held", "still"}, ...]}, the last four with a value per seat. `fit` also reads the
throwaway format the first fit was made from (`rows` of [turn, to_move, race, [{"D", "held", ...}
per seat], progress]).

>>> game = play_game("first-expedition", 2, deal=3)
>>> first = game["turns"][0]
>>> sorted(first) == sorted(TURN_FIELDS), [first[k] for k in ("turn", "to_move", "still", "held")]
(True, [0, 0, [1, 1], [0, 0]])
>>> round(softmax_loss(np.zeros(4), turns_of([game]), OFFSET), 4)  # no weights: every seat even
0.6931
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import engine
from bots.eldorado.heuristic import decide, distances, race_estimate
from research import read_jsonl
from research.decision_values import positive_int

OFFSET = 2.0
"""The turns added to the race estimate under the logarithm (`EVAL_OFFSET`, not fitted)."""

OLD_SPREAD = 1.5
"""The evaluation the fit replaced: a softmax of minus the race estimate over this many turns."""

WEIGHTS = ("a (log turns)", "b (still to play)", "d (distance)", "e (blockades held)")
TURN_FIELDS = ("turn", "to_move", "race", "distance", "held", "still")


# ----- collecting ---------------------------------------------------------------------------------

def seat_distance(state: engine.State, seat: int) -> int:
    """The distance of the seat's pieces to El Dorado on the current blockades: the heuristic's
    `seat_distance` (pieces on El Dorado count 0; a blockade taken no longer lengthens a way)."""
    table = distances(state.options["route"], [b or 0 for b in state.blockades()])
    return sum(table[int(h)] for h in state.pieces(seat) if h != "E")


def turn_features(state: engine.State) -> dict:
    """The seats' features at the start of a turn (TURN_FIELDS), a list per seat."""
    seats = range(state.num_seats)
    return {"turn": state.turn, "to_move": state.to_move,
            "race": race_estimate(state),
            "distance": [seat_distance(state, i) for i in seats],
            "held": [len(state.held(i)) for i in seats],
            "still": [int(i >= state.to_move) for i in seats]}


def play_game(route: str, players: int, deal: int) -> dict:
    """One greedy-against-greedy game dealt from `deal`, its features at every turn start and its
    returns. The heuristic's tie-breaks draw from random.Random(deal), as the first fit's games did."""
    state = engine.new_game("eldorado", seed=deal, players=players, route=route)
    chance = random.Random(deal)
    turns = []
    while not state.is_terminal():
        if state.begins_turn():
            turns.append(turn_features(state))
        state.apply(decide(state, chance.getrandbits(64)))
    return {"deal": deal, "route": route, "players": players, "returns": state.returns(), "turns": turns}


def collect(route: str, players: int, games: int, seed: int) -> Iterator[dict]:
    """The games dealt from seed, seed + 1, …"""
    for deal in range(seed, seed + games):
        yield play_game(route, players, deal)


# ----- reading ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Turns:
    """The turn starts of games with the same number of seats, an array row a turn start."""

    race: np.ndarray      # (rows, seats) the race estimate T
    still: np.ndarray     # (rows, seats) 1 where the seat still plays in this round
    distance: np.ndarray  # (rows, seats)
    held: np.ndarray      # (rows, seats)
    returns: np.ndarray   # (rows, seats) the game's returns: the winner's 1

    def __len__(self) -> int:
        return len(self.race)


def _turn_rows(game: dict) -> Iterator[dict]:
    """A game's turn starts as TURN_FIELDS, from either file format."""
    if "turns" in game:
        yield from game["turns"]
        return
    for turn, to_move, race, seats, _progress in game["rows"]:  # the first fit's format
        yield {"turn": turn, "to_move": to_move, "race": race,
               "distance": [f["D"] for f in seats], "held": [f["held"] for f in seats],
               "still": [int(i >= to_move) for i in range(len(race))]}


def turns_of(games: Iterable[dict]) -> list[Turns]:
    """The turn starts of the games that have a winner (a shared win says little about which seat
    was ahead), grouped by number of seats."""
    groups: dict[int, list[tuple[dict, list[float]]]] = {}
    for game in games:
        if max(game["returns"]) < 1.0:
            continue
        for row in _turn_rows(game):
            groups.setdefault(len(row["race"]), []).append((row, game["returns"]))
    return [Turns(*(np.array([row[k] for row, _ in rows], float) for k in ("race", "still", "distance", "held")),
                  returns=np.array([y for _, y in rows], float))
            for _, rows in sorted(groups.items())]


# ----- fitting ------------------------------------------------------------------------------------

def design(t: Turns, offset: float) -> np.ndarray:
    """(rows, seats, 4): the features the weights (a, b, d, e) multiply, signs included."""
    return np.stack([-np.log(t.race + offset), t.still, -t.distance, t.held], axis=-1)


def _log_softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def _terms(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """The summed log-loss of a group, its gradient and its Hessian in w (a softmax's: p-weighted
    covariance of the features, positive semi-definite, hence the convexity)."""
    logp = _log_softmax(x @ w)
    p = np.exp(logp)
    mass = y.sum(axis=1)                                   # 1 a row: the winner's return
    mean = np.einsum("ns,nsk->nk", p, x)                   # the features' mean under the model
    loss = -float((y * logp).sum())
    grad = -np.einsum("ns,nsk->k", y, x) + mass @ mean
    hess = np.einsum("ns,nsk,nsl->kl", p * mass[:, None], x, x) - np.einsum("n,nk,nl->kl", mass, mean, mean)
    return loss, grad, hess


def pooled(w: np.ndarray, files: Sequence[list[Turns]], offset: float) -> tuple[float, np.ndarray, np.ndarray]:
    """The mean over files of each file's mean log-loss a turn start (each file weighs the same,
    whatever its games' lengths), with its gradient and Hessian."""
    loss, grad, hess = 0.0, np.zeros(len(w)), np.zeros((len(w), len(w)))
    for groups in files:
        n = sum(len(t) for t in groups)
        for t in groups:
            l, g, h = _terms(w, design(t, offset), t.returns)
            loss, grad, hess = loss + l / n, grad + g / n, hess + h / n
    k = len(files)
    return loss / k, grad / k, hess / k


def fit(files: Sequence[list[Turns]], offset: float = OFFSET, tol: float = 1e-10,
        max_steps: int = 100) -> np.ndarray:
    """The maximum-likelihood weights (a, b, d, e): Newton's method from zero, each step halved
    until the loss falls (the loss is convex, so this finds its minimum)."""
    w = np.zeros(len(WEIGHTS))
    loss, grad, hess = pooled(w, files, offset)
    for _ in range(max_steps):
        # a feature constant in the data (no blockade ever held) leaves the Hessian singular
        step = np.linalg.lstsq(hess + 1e-12 * np.eye(len(w)), grad, rcond=None)[0]
        decrease = float(grad @ step)
        if decrease < tol:
            break
        size = 1.0
        while size > 1e-8:
            trial = pooled(w - size * step, files, offset)
            if trial[0] <= loss - 1e-4 * size * decrease:
                break
            size /= 2
        else:
            break
        w = w - size * step
        loss, grad, hess = trial
    return w


def softmax_loss(w: np.ndarray, groups: list[Turns], offset: float = OFFSET) -> float:
    """The mean log-loss a turn start of the weights on one file's turn starts."""
    return sum(_terms(w, design(t, offset), t.returns)[0] for t in groups) / sum(len(t) for t in groups)


def old_loss(groups: list[Turns], spread: float = OLD_SPREAD) -> float:
    """The mean log-loss of the evaluation the fit replaced: softmax of -T/spread."""
    total = sum(-float((t.returns * _log_softmax(-t.race / spread)).sum()) for t in groups)
    return total / sum(len(t) for t in groups)


# ----- command line -------------------------------------------------------------------------------

def _collect_command(args: argparse.Namespace) -> int:
    print(f"collect route={args.route} players={args.players} games={args.games} seed={args.seed} "
          f"-> {args.out}", file=sys.stderr)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w") as f:
        for game in collect(args.route, args.players, args.games, args.seed):
            f.write(json.dumps(game) + "\n")
    return 0


def _fit_command(args: argparse.Namespace) -> int:
    files = {path: turns_of(read_jsonl(path)) for path in args.files}
    empty = [path for path, groups in files.items() if not groups]
    if empty:
        print(f"no game with a winner in {', '.join(empty)}", file=sys.stderr)
        return 2
    w = fit(list(files.values()), args.offset)
    loss = pooled(w, list(files.values()), args.offset)[0]
    per_file = [{"file": path, "turn_starts": sum(len(t) for t in groups),
                 "loss": softmax_loss(w, groups, args.offset), "old_loss": old_loss(groups),
                 "even_loss": math.log(groups[0].race.shape[1]) if len(groups) == 1 else None}
                for path, groups in files.items()]
    summary = {"offset": args.offset, "weights": dict(zip("abde", w.tolist())), "loss": loss,
               "old_loss": sum(f["old_loss"] for f in per_file) / len(per_file), "files": per_file}
    if args.json:
        print(json.dumps(summary, indent=1))
        return 0
    print(f"offset {args.offset:g}: " + ", ".join(f"{name} {v:.4f}" for name, v in zip(WEIGHTS, w)))
    print(f"pooled log-loss {loss:.4f} (old evaluation, softmax of -T/{OLD_SPREAD:g}: {summary['old_loss']:.4f})")
    print(f"{'file':50s} {'turns':>7s} {'fitted':>7s} {'old':>7s} {'even':>7s}")
    for f in per_file:
        even = f"{f['even_loss']:7.4f}" if f["even_loss"] is not None else "      -"
        print(f"{f['file']:50s} {f['turn_starts']:7d} {f['loss']:7.4f} {f['old_loss']:7.4f} {even}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m research.evaluation_fit", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    col = sub.add_parser("collect", help="play greedy-against-greedy games, write their turn starts")
    col.add_argument("--route", default="first-expedition")
    col.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    col.add_argument("--games", type=positive_int, default=1000)
    col.add_argument("--seed", type=int, default=100000, help="the first deal")
    col.add_argument("--out", required=True, help="the JSON-lines file (overwritten)")
    fitp = sub.add_parser("fit", help="fit the weights on files of turn starts, each file weighing the same")
    fitp.add_argument("files", nargs="+")
    fitp.add_argument("--offset", type=float, default=OFFSET, help="turns added under the logarithm")
    fitp.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    return _collect_command(args) if args.command == "collect" else _fit_command(args)


if __name__ == "__main__":
    sys.exit(main())
