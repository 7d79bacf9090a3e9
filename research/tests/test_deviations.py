"""research/deviations.py: paired values are common-world differences, the report bins them, two searches
are compared position by position, and a second search reuses what the first valued."""
from __future__ import annotations

import pytest

import engine
from engine.editions import get_edition, register, unregister
from research import deviations
from research.deviations import compare, paired_value, report, set_search, value_rows


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


def _value(search, greedy, full, deal=1, seat=0):
    return {"deal": deal, "seat": seat, "search": search, "greedy": greedy, "legal": 3, "cut": 0.0, "full": full}


def test_compare_pairs_the_same_positions_and_refuses_others():
    first = [_value("a", "b", -0.1), _value("b", "b", 0.0), _value("c", "d", 0.2)]
    second = [_value("b", "b", 0.0), _value("b", "b", 0.0), _value("e", "d", 0.5)]
    text = compare(first, second)
    assert text.startswith("second - first: +0.13333 a decision")
    assert "over 3 decisions; disagreements with greedy 2 and 1; the two decide differently at 2" in text
    with pytest.raises(ValueError, match="same positions"):
        compare(first, second[:2])
    with pytest.raises(ValueError, match="same positions"):
        compare(first, [_value("a", "b", 0.0, deal=2)] + second[1:])


def test_value_rows_reuses_rows_decided_alike_and_values_the_others(monkeypatch):
    valued = []

    def fake_value(row, iterations, seed):
        valued.append((row["search"], seed))
        return _value(row["search"], row["greedy"], 1.0)

    monkeypatch.setattr(deviations, "value_row", fake_value)
    rows = [{"search": "a", "greedy": "b"}, {"search": "c", "greedy": "b"}, {"search": "d", "greedy": "e"}]
    reuse = [_value("a", "b", 0.25), _value("x", "b", 0.5), _value("d", "e", 0.75)]
    out = list(value_rows(rows, iterations=10, seed=7, reuse=reuse))
    assert [v["full"] for v in out] == [0.25, 1.0, 0.75]
    assert valued == [("c", 7 + 1000)]   # row 1 alone, from its own index's seed


def test_set_search_changes_the_record_the_search_reads():
    before = get_edition("eldorado")
    try:
        set_search(["halving_margin=0.05", "halving=0"])
        assert get_edition("eldorado").search.halving_margin == 0.05
        assert get_edition("eldorado").search.halving is False
        assert get_edition("eldorado").search.cutoff_turns == before.search.cutoff_turns
    finally:
        unregister(get_edition("eldorado"))
        register(before)
    with pytest.raises(ValueError, match="no search setting 'nothing'"):
        set_search(["nothing=1"])
    assert get_edition("eldorado") is before
