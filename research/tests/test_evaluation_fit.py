"""The fit of El Dorado's evaluation (research/evaluation_fit.py): the features collected at every
turn start, the fitter against weights it must recover, and the command line."""
from __future__ import annotations

import json
import math

import engine
import numpy as np
import pytest

from bots.eldorado.heuristic import distances
from research.evaluation_fit import (OFFSET, TURN_FIELDS, Turns, collect, fit, main, old_loss, pooled,
                                     softmax_loss, turns_of)


def test_every_turn_start_of_two_games_is_recorded_per_seat():
    games = list(collect("first-expedition", 2, games=2, seed=5))
    assert [g["deal"] for g in games] == [5, 6]
    for game in games:
        assert sorted(game["returns"]) in ([0.0, 1.0], [0.5, 0.5])
        turns = game["turns"]
        assert len(turns) > 10 and [t["turn"] for t in turns] == list(range(len(turns)))
        first = turns[0]
        assert first["to_move"] == 0 and first["still"] == [1, 1] and first["held"] == [0, 0]
        start = engine.new_game("eldorado", seed=game["deal"], players=2)
        table = distances(start.options["route"], start.blockades())  # every blockade on the board
        assert first["distance"] == [sum(table[int(h)] for h in start.pieces(i)) for i in range(2)]
        assert min(first["distance"]) > 0
        for t in turns:
            assert sorted(t) == sorted(TURN_FIELDS)
            assert all(len(t[k]) == 2 for k in ("race", "distance", "held", "still"))
            assert t["still"] == [int(seat >= t["to_move"]) for seat in range(2)]
            assert min(t["race"]) >= 0 and min(t["distance"]) >= 0
        # the winner's pieces got nearer El Dorado in the game
        winner = game["returns"].index(max(game["returns"]))
        assert turns[-1]["distance"][winner] < first["distance"][winner]


def synthetic(rows: int, seats: int, w: np.ndarray, rng: np.random.Generator) -> list[Turns]:
    """Turn starts drawn at random, their winners drawn from the model with weights w."""
    race = rng.exponential(10.0, (rows, seats))  # often near 0, where the offset matters
    still = (np.arange(seats) >= rng.integers(0, seats, (rows, 1))).astype(float)
    distance = rng.uniform(0.0, 80.0, (rows, seats))
    held = rng.integers(0, 9, (rows, seats)).astype(float)
    z = -w[0] * np.log(race + OFFSET) + w[1] * still - w[2] * distance + w[3] * held
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    winners = (rng.random((rows, 1)) > p.cumsum(axis=1)).sum(axis=1)
    return [Turns(race, still, distance, held, np.eye(seats)[winners])]


def test_the_fit_recovers_the_weights_its_data_was_drawn_from():
    w = np.array([3.0, 2.0, 0.08, 0.5])
    rng = np.random.default_rng(7)
    files = [synthetic(2500, 2, w, rng), synthetic(2500, 4, w, rng)]
    fitted = fit(files)
    assert fitted == pytest.approx(w, rel=0.1)
    # the minimum of the pooled loss (the mean of the files' losses), below the true weights' on this sample
    loss, grad, _ = pooled(fitted, files, OFFSET)
    assert np.abs(grad).max() < 1e-4  # stationary (the loss changes by < 1e-10 from here)
    assert loss == pytest.approx(sum(softmax_loss(fitted, groups) for groups in files) / 2)
    assert loss < pooled(w, files, OFFSET)[0]


def test_the_old_evaluation_is_a_softmax_of_minus_the_turns_over_one_and_a_half():
    groups = turns_of([{"returns": [0.0, 1.0], "rows": [[0, 1, [10.0, 13.0], [{"D": 5, "held": 0}] * 2, 0.0]]}])
    assert old_loss(groups) == pytest.approx(math.log(1.0 + math.exp(3.0 / 1.5)))
    # the first fit's format: the seat to move and those after it still play in this round
    assert groups[0].still.tolist() == [[0.0, 1.0]] and groups[0].distance.tolist() == [[5.0, 5.0]]


def test_games_without_a_winner_are_left_out():
    shared = {"returns": [0.5, 0.5], "turns": [dict(turn=0, to_move=0, race=[9, 9], distance=[9, 9],
                                                     held=[0, 0], still=[1, 1])]}
    assert turns_of([shared]) == []


def test_command_line_collects_and_fits(tmp_path, capsys):
    out = tmp_path / "turns.jsonl"
    assert main(["collect", "--games", "3", "--seed", "11", "--players", "3", "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 3 and json.loads(lines[0])["players"] == 3
    capsys.readouterr()
    assert main(["fit", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert sorted(summary["weights"]) == ["a", "b", "d", "e"]
    row = summary["files"][0]
    # Newton's method starts from zero weights and only steps down: never worse than even chances
    assert row["loss"] <= row["even_loss"] == pytest.approx(math.log(3))
    assert summary["loss"] == pytest.approx(row["loss"])
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert main(["fit", str(empty)]) == 2
