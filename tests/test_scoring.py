"""Hand-scored cases from the rules (RULES.md sections 1-3), on the compiled engine."""
from __future__ import annotations

import pytest

import engine
from engine.cards.state import expedition_score


@pytest.mark.parametrize("cards, score", [
    ([], 0),                                                      # no cards: nothing, not -20
    (["yW"], -40), (["yW", "yW"], -60), (["yW", "yW", "yW"], -80),  # wagers only
    (["y2"], -18),
    (["y5", "y6", "y7"], -2),
    (["yW", "y9", "yT"], -2),                                       # (19 - 20) * 2
    (["yW", "yW", "y6", "y7", "y8", "y9", "yT"], 60),               # (40 - 20) * 3, 7 cards
    (["yW", "y4", "y5", "y6", "y7", "y8", "y9", "yT"], 78),         # (49-20)*2 + 20: 8 cards
    (["y2", "y3", "y4", "y5", "y6", "y7", "y8", "y9"], 44),         # (44-20) + 20: wagers not needed
    (["yW", "yW", "yW", "y2", "y3", "y4", "y5", "y6", "y7", "y8", "y9", "yT"], 156),  # the maximum
    (["yW", "yW", "yW", "y2", "y3", "y4", "y5", "y6"], 20),         # (20-20)*4 + 20
    (["yW", "yW", "yW", "y2"], -72),
])
def test_classic_expedition_scores(cards, score):
    assert expedition_score("classic", cards) == score
    assert expedition_score("partners", cards) == score


@pytest.mark.parametrize("cards, cost, score", [
    ([], 0, 0), ([], 20, 0),
    (["hM"], 0, 0), (["hM", "hM", "hM"], 0, 0),                     # multipliers only, no cost: 0
    (["hM"], 20, -40),
    (["hA"], 0, 1), (["hA", "h2", "h3"], 0, 6),
    (["hM", "h9", "hT"], 0, 38),                                    # 19 * 2
    (["hM", "hM", "hA", "h2", "h3", "h4", "h5", "h6"], 0, 83),      # 21 * 3 + 20 (8 cards)
    (["hM", "hM", "hM", "hA", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "h9", "hT"], 0, 240),
    (["hM", "hM", "hM", "hA", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "h9", "hT"], 20, 160),
    (["h5", "h6"], 7, 4),
])
def test_expedition_52_card_scores(cards, cost, score):
    assert expedition_score("expedition", cards, cost) == score


def _sorted(cards: list[str]) -> str:
    return "".join(sorted(cards, key=lambda c: ("ybwgr".index(c[0]), "W23456789T".index(c[1]))))


def test_round_score_is_the_sum_of_expeditions_and_ends_the_match():
    # Seat 0: yellow wager + 9 + T (-2), blue 2..9 (44, with the 8-card bonus);
    # seat 1: two white wagers only (-60). One card is left to draw.
    rows = ["yW", "y9", "yT", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9"], ["wW", "wW"]
    rest = [f"{c}{r}" for c in "ybwgr" for r in "WWW23456789T"]
    for card in rows[0] + rows[1]:
        rest.remove(card)
    hand0, hand1, last, discarded = rest[:7], rest[7:15], rest[15], rest[16:]
    piles = "/".join(_sorted([card for card in discarded if card[0] == c]) or "-" for c in "ybwgr")
    text = (f"classic rounds=1 max_turns=300 round=1/1 starter=0 turn=40 phase=draw to_move=0 nodraw=. "
            f"totals=5/-5 hands={_sorted(hand0)}/{_sorted(hand1)} rows={_sorted(rows[0])}/{_sorted(rows[1])} "
            f"piles={piles} deck={last} known=-/- rng=0000000000000001")
    state = engine.parse_position(text)
    assert state.expedition_score(0, "y") == -2
    assert state.expedition_score(0, "b") == 44
    assert state.expedition_score(1, "w") == -60
    assert state.row_score(0) == 42 and state.row_score(1) == -60
    state.apply("D")                       # the last card: the round and the match end at once
    assert state.is_terminal()
    assert state.totals() == [47, -65]
    assert state.scores() == [47, -65]
    assert state.returns() == [1.0, 0.0]


def test_partners_team_scores_are_shared():
    state = engine.new_game("partners", seed=9, rounds=1)
    state.playout(3)
    totals = state.totals()
    assert state.scores() == [totals[0], totals[1], totals[0], totals[1]]
    r = state.returns()
    assert r[0] == r[2] and r[1] == r[3] and r[0] + r[1] == 1.0


def test_draw_match_gives_half_points():
    text = engine.new_game("classic", seed=4, rounds=1).to_text()
    state = engine.parse_position(text.replace("max_turns=300", "max_turns=1"))
    state.apply(state.legal()[0])   # play or discard
    state.apply("D")                # turn 1 of 1: the round ends by max_turns
    assert state.is_terminal()
    if state.totals()[0] == state.totals()[1]:
        assert state.returns() == [0.5, 0.5]
    else:
        assert sorted(state.returns()) == [0.0, 1.0]
