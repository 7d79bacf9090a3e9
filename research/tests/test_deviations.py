"""research/deviations.py: paired values are common-world differences, and the report bins them."""
from __future__ import annotations

import engine
from research.deviations import paired_value, report


def test_a_paired_value_is_antisymmetric_and_zero_for_one_decision():
    state = engine.new_game("eldorado", seed=4, players=4, route="witchs-cauldron")
    a, b = state.legal()[:2]
    seat = state.to_move
    for cut in (2, 0):
        forward = paired_value(state, seat, a, b, cut, 60, seed=3)
        assert forward == -paired_value(state, seat, b, a, cut, 60, seed=3)
    assert paired_value(state, seat, a, a, 2, 20, seed=3) == 0.0


def test_the_report_bins_disagreements_by_the_search_estimate():
    values = [{"search": "a", "greedy": "b", "cut": -0.02, "full": -0.1},
              {"search": "a", "greedy": "c", "cut": 0.005, "full": 0.0},
              {"search": "a", "greedy": "d", "cut": 0.1, "full": 0.3},
              {"search": "a", "greedy": "a", "cut": 0.0, "full": 0.0}]
    text = report(values)
    assert text.startswith("decisions 4  full +0.05000 a decision")
    assert "disagreements 3" in text
    assert "[-1.00, +0.00):    1  cut -0.0200  full -0.1000" in text
    assert "[+0.06, +1.00):    1  cut +0.1000  full +0.3000" in text
    assert report(values[3:]) == "no disagreements"
