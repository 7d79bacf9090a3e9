"""The decision-values tool (research/decision_values.py): every legal decision valued, the heuristic's
regret measured against those values, the report's rows, and its command line."""
from __future__ import annotations

import json

import engine
import pytest

from bots.cards.heuristic import decision_scores
from research.decision_values import (ValuedPosition, heuristic_regret, main, read_records, report,
                                      sample_positions, valuation_noise, value_decisions)

# The last round of a match, the draw pile down to one card, seat 0 behind by 50: taking the card
# ends the match lost, drawing from a discard pile plays on. Greedy's rule reads only the round's
# score (seat 0 leads the round) and takes it.
BEHIND_AT_THE_END = (
    "classic rounds=3 max_turns=300 round=3/3 starter=1 turn=45 phase=draw to_move=0 nodraw=. "
    "totals=36/86 hands=yWy8b9wWg6rWr2/y6bWbWb6w4gWgWg4 "
    "rows=yWy3y4y5y7y9yTb2b3b7wWw2w6w7wTrWr3r4r7r9rT/bWb4b5b8bTw3w5w8w9g2g3g5g7g8g9gTr5r6r8 "
    "piles=yWy2/-/wW/gW/- deck=rW known=wW/gW rng=0000000000000000")


def test_every_legal_decision_gets_a_value_from_the_seats_view():
    views = sample_positions("expedition", seed=11, rate=0.5)
    for _ in range(3):
        view = next(views)
        record = value_decisions(view, worlds=30, seed=2)
        assert sorted(record.values) == sorted(view.legal_text())
        assert all(0.0 <= v <= 1.0 for v in record.values.values())
        assert record.view == view.text  # what is stored is the view: nothing hidden leaks into it


def test_the_search_values_playing_on_above_ending_a_lost_match():
    view = engine.parse_position(BEHIND_AT_THE_END).view(0)
    record = value_decisions(view, worlds=200, seed=1)
    assert decision_scores(view.state)[0][0] == "D"  # greedy takes the last card
    assert max(record.values, key=record.values.get) != "D"
    assert heuristic_regret(record) > 0.05


def test_regret_is_the_gap_to_the_best_value():
    view = engine.parse_position(BEHIND_AT_THE_END).view(0)
    choice = decision_scores(view.state)[0][0]
    values = {text: 0.4 for text in view.legal_text()}
    values[choice] = 0.5
    assert heuristic_regret(ValuedPosition(view.text, values)) == 0.0
    other = next(t for t in values if t != choice)
    values[other] = 0.75
    assert heuristic_regret(ValuedPosition(view.text, values)) == pytest.approx(0.25)


def test_report_rows_partition_the_positions():
    views = sample_positions("classic", seed=4, rate=0.3)
    records = [value_decisions(next(views), worlds=10, seed=i) for i in range(8)]
    rows = {row["positions"]: row for row in report(records)}
    assert rows["all"]["count"] == 8 and rows["all"]["regret_share"] == pytest.approx(1.0)
    assert rows.get("draws", {"count": 0})["count"] + rows.get("plays and discards", {"count": 0})["count"] == 8
    assert sum(rows[name]["count"] for name in rows if name.startswith("draw pile")) == 8


def test_command_line_generates_and_reports(tmp_path, capsys):
    out = tmp_path / "v.jsonl"
    assert main(["generate", "-e", "classic", "--positions", "2", "--worlds", "10", "--seed", "3",
                 "--out", str(out)]) == 0
    assert len(read_records(str(out))) == 2
    capsys.readouterr()
    assert main(["report", str(out), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["positions"] == "all" and rows[0]["count"] == 2
    out.write_text(out.read_text() + "{not json\n")
    assert main(["report", str(out)]) == 2
    assert "line 3: not a valued position" in capsys.readouterr().err


def test_board_is_refused_with_a_clear_error():
    with pytest.raises(ValueError, match="a card edition"):
        next(sample_positions("board", seed=1))


def test_noise_of_a_valuation_against_itself_and_another():
    views = sample_positions("classic", seed=5, rate=0.3)
    records = [value_decisions(next(views), worlds=40, seed=i) for i in range(4)]
    again = valuation_noise(records, worlds=40, seed=0)  # the same seeds: the same worlds
    assert again["same_best"] == 1.0 and again["noise_regret"] == 0.0
    assert again["heuristic_regret"] == pytest.approx(sum(heuristic_regret(r) for r in records) / 4)
    other = valuation_noise(records, worlds=40, seed=1000)
    assert other["positions"] == 4 and other["noise_regret"] >= 0.0


def test_noise_command_prints_its_figures(tmp_path, capsys):
    views = sample_positions("classic", seed=6, rate=0.3)
    path = tmp_path / "v.jsonl"
    path.write_text("".join(json.dumps(value_decisions(next(views), worlds=20, seed=i).as_json()) + "\n"
                            for i in range(2)))
    assert main(["noise", str(path), "--positions", "1", "--worlds", "20", "--seed", "3"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["positions"] == 1 and 0.0 <= printed["same_best"] <= 1.0


@pytest.mark.parametrize("command", [["noise", "v.jsonl", "--seed", "1"], ["generate", "--seed", "1", "--out", "v.jsonl"]])
@pytest.mark.parametrize("bad", [["--positions", "0"], ["--positions", "-3"], ["--worlds", "0"], ["--worlds", "x"]])
def test_counts_below_one_are_refused(command, bad, capsys):
    with pytest.raises(SystemExit):
        main(command + bad)
    assert "expected" in capsys.readouterr().err
