"""Hand-scored and hand-played cases of `board` (docs/board.md), one rule per test.

Board layout used (board_positions.TILES): y2 = V10, y4 = arrow, y7 = artifact; w2, w3 arrows,
w5 = V15; b9 arrow. Stones: -20 -15 -10 5 10 15 | bridge | 30 35 50.
"""
from __future__ import annotations

import pytest

import engine
from board_positions import position
from engine.board.rules import artifact_score, stone_value


def state(**fields) -> engine.State:
    return engine.parse_position(position(**fields))


def field(s: engine.State, name: str) -> str:
    return next(t for t in s.to_text().split() if t.startswith(name + "=")).split("=", 1)[1]


def end_by_max_turns(**fields) -> engine.State:
    """A position whose next decision (the draw) completes the last allowed turn."""
    s = state(max_turns=1, phase="draw", to_move=0, **fields)
    s.apply("D")
    return s


# ----- scoring an expedition ----------------------------------------------------------------------

def test_the_board_data_is_loaded():
    assert [stone_value(k) for k in range(1, 10)] == [-20, -15, -10, 5, 10, 15, 30, 35, 50]
    assert [artifact_score(k, False) for k in (0, 5, 6, 9, 10, 27)] == [-30, -5, 30, 70, 90, 90]
    assert [artifact_score(k, True) for k in (0, 1, 2, 4, 5, 9)] == [-20, -15, 10, 30, 50, 50]


def test_researcher_on_minus_20_scores_minus_40():
    before = state(rounds=2, totals=[100, 0], cols=["y3", "-"], pieces=["1....", "....."],
                   researcher=["y", "-"])
    assert before.piece_score(0) == -40
    s = end_by_max_turns(rounds=2, totals=[100, 0], cols=["y3", "-"], pieces=["1....", "....."],
                         researcher=["y", "-"])
    assert s.round == 2 and s.totals() == [60, 0]


def test_researcher_doubles_positive_stones_and_adventurers_do_not():
    s = end_by_max_turns(rounds=2, cols=["y3b2", "g0"], pieces=["99...", "...7."], researcher=["y", "-"])
    assert s.totals() == [100 + 50, 30]


def test_the_total_is_floored_at_zero_after_each_expedition():
    s = end_by_max_turns(rounds=2, totals=[10, 0], cols=["y3b2w0", "-"], pieces=["123..", "....."])
    assert s.totals() == [0, 0]          # 10 - 20 - 15 - 10 < 0
    s = end_by_max_turns(rounds=2, totals=[50, 0], cols=["y3b2w0", "-"], pieces=["123..", "....."])
    assert s.totals() == [5, 0]


def test_victory_points_are_never_doubled():
    for who in ("y", "-"):
        s = state(cols=["y3", "-"], pieces=["1....", "....."], researcher=[who, "-"], hands=["y5", None])
        s.apply("+y5")                    # y1 -> y2, a V10 tile
        assert s.totals() == [10, 0] and s.phase == "draw"
        assert field(s, "tiles").startswith("V10>"), "a victory-point tile stays"


def test_artifact_is_taken_and_the_space_emptied():
    s = state(cols=["y0y1y2", "-"], pieces=["6....", "....."], hands=["y3", None])
    s.apply("+y3")                        # y6 -> y7: crosses a bridge (1st piece), takes the artifact
    assert s.artifacts() == [1, 0] and s.crossed == 1
    assert field(s, "tiles").split("/")[0] == "V10>A.V5"


def test_short_game_artifact_table_at_the_end():
    s = end_by_max_turns(rounds=1, totals=[30, 0], artifacts=[0, 5])
    assert s.is_terminal() and s.totals() == [10, 50]


def test_long_game_artifact_table_at_the_end():
    s = end_by_max_turns(rounds=3, round=3, totals=[0, 0], artifacts=[6, 10])
    assert s.totals() == [30, 90]
    s = end_by_max_turns(rounds=3, round=3, totals=[20, 10], artifacts=[5, 0])
    assert s.totals() == [15, 0]          # -5; and -30 floored at 0


def test_ties_go_to_the_most_artifacts_then_share():
    s = end_by_max_turns(rounds=3, round=3, totals=[10, 0], artifacts=[6, 7])
    assert s.totals() == [40, 40] and s.returns() == [0.0, 1.0]
    s = end_by_max_turns(rounds=3, round=3, totals=[10, 10], artifacts=[6, 6])
    assert s.returns() == [0.5, 0.5]
    s = end_by_max_turns(players=3, rounds=3, round=3, totals=[10, 10, 0], artifacts=[6, 6, 0])
    assert s.returns() == [0.75, 0.75, 0.0]


# ----- the end of an expedition ---------------------------------------------------------------------

FOUR_ACROSS = dict(cols=["y0", "y1b1w1g1"], pieces=["6....", "7777."])


def test_the_fifth_piece_across_a_bridge_ends_the_expedition_without_its_event():
    s = state(rounds=1, hands=["y2", None], **FOUR_ACROSS)
    assert s.crossed == 4
    s.apply("+y2")                        # y6 -> y7 (an artifact tile): the 5th crossing
    assert s.is_terminal()
    assert s.artifacts() == [0, 0], "the event of the stone reached is not performed"
    assert field(s, "tiles").split("/")[0] == "V10>AAV5"
    assert field(s, "pieces") == "7..../7777."
    assert s.totals() == [max(0, 30 - 20), 4 * 30 - 20]   # stones, then the short table (0 artifacts)


def test_after_the_fifth_crossing_the_next_seat_starts_the_next_expedition():
    s = state(rounds=3, hands=["y2", None], **FOUR_ACROSS)
    s.apply("+y2")
    assert s.round == 2 and s.to_move == 1 and field(s, "starter") == "1"
    assert s.totals() == [30, 120] and s.phase == "play" and s.turn == 0


def test_an_optional_step_can_be_the_fifth_crossing():
    s = state(rounds=2, hands=["w0", None], cols=["y0w0", "y1b1w1g1"], pieces=["6.1..", "7777."])
    s.apply("+w0")                        # w1 -> w2, an arrow
    s.apply(">y")                         # y6 -> y7: the 5th crossing, no artifact
    assert s.round == 2 and s.artifacts() == [0, 0]


def test_the_last_card_drawn_ends_the_expedition_and_the_next_seat_starts():
    s = state(players=3, phase="draw", to_move=1, deck_size=1)
    s.apply("D")
    assert s.round == 2 and s.to_move == 2 and field(s, "starter") == "2"


def test_max_turns_ends_the_expedition_like_the_last_card():
    s = state(players=4, max_turns=7, turn=6, phase="draw", to_move=3, cols=["-", "-", "-", "y5"],
              pieces=[".....", ".....", ".....", "1...."], researcher=["-", "-", "-", "y"])
    s.apply("D")
    assert s.round == 2 and s.to_move == 0 and s.totals() == [0, 0, 0, 0]


# ----- optional steps ---------------------------------------------------------------------------------

def test_chained_arrows():
    s = state(hands=["w4", None], cols=["b0w0", "-"], pieces=[".11..", "....."])
    s.apply("+w4")                        # w1 -> w2, an arrow
    assert s.phase == "move" and s.legal_text() == [">b", ">w", ">-"]
    s.apply(">w")                         # w2 -> w3, another arrow: the chain goes on
    assert s.phase == "move"
    s.apply(">w")                         # w3 -> w4, no tile
    assert s.phase == "draw" and field(s, "pieces").split("/")[0] == ".14.."
    assert s.history() == ["+w4", ">w", ">w"]


def test_an_arrow_step_can_be_declined_or_move_another_piece():
    s = state(hands=["w4", None], cols=["b0w0", "-"], pieces=[".11..", "....."])
    t = s.copy()
    s.apply("+w4")
    s.apply(">-")
    assert s.phase == "draw" and field(s, "pieces").split("/")[0] == ".12.."
    t.apply("+w4")
    t.apply(">b")                         # b1 -> b2, no tile
    assert t.phase == "draw" and field(t, "pieces").split("/")[0] == ".22.."


def test_an_arrow_that_can_move_no_piece_asks_nothing():
    s = state(hands=["b1", None], cols=["b0", "-"], pieces=[".8...", "....."])
    s.apply("+b1")                        # b8 -> b9: an arrow, but the only piece is on stone 9
    assert s.phase == "draw"


def test_the_lost_city_advance():
    s = state(hands=["y5", None], cols=["y3y4b0", "-"], pieces=["91...", "....."])
    s.apply("+y5")                        # the yellow piece is on stone 9: it stays
    assert s.phase == "move" and s.legal_text() == [">b", ">-"]
    s.apply(">b")
    assert field(s, "pieces").split("/")[0] == "92..." and field(s, "cols").split("/")[0] == "y3y4y5b0"


def test_the_lost_city_advance_with_every_piece_in_a_lost_city_asks_nothing():
    s = state(hands=["y5", None], cols=["y3y4", "-"], pieces=["9....", "....."])
    s.apply("+y5")
    assert s.phase == "draw"


# ----- playing cards ------------------------------------------------------------------------------------

def test_begin_with_an_adventurer_or_the_researcher():
    s = state(hands=["y3", None])
    assert {"+y3", "+y3R"} <= set(s.legal_text())
    s.apply("+y3R")
    assert s.pieces(0) == {"y": 1, "R": "y"}


def test_with_four_adventurers_out_only_the_researcher_can_begin():
    s = state(hands=["r3", None], cols=["y0b0w0g0", "-"], pieces=["1111.", "....."])
    legal = s.legal_text()
    assert "+r3R" in legal and "+r3" not in legal


def test_with_the_researcher_out_no_researcher_begin():
    s = state(hands=["r3", None], cols=["y0b0w0g0", "-"], pieces=["1111.", "....."],
              researcher=["y", "-"])
    legal = s.legal_text()
    assert "+r3" in legal and "+r3R" not in legal


def test_columns_accept_equal_or_higher_cards():
    s = state(hands=["y4y5y6y7b0b1b2b3", None], cols=["y5", "-"], pieces=["1....", "....."])
    assert [d for d in s.legal_text() if d.startswith("+y")] == ["+y5", "+y6", "+y7"]


def test_up_and_down_variant():
    hand = ["y3y4y6y7b0b1b2b3", None]
    every = ["+y3", "+y4", "+y6", "+y7"]
    open_column = state(updown=1, hands=hand, cols=["y5", "-"], pieces=["1....", "....."])
    assert [d for d in open_column.legal_text() if d.startswith("+y")] == every
    equal = state(updown=1, hands=hand, cols=["y5y5", "-"], pieces=["2....", "....."])
    assert [d for d in equal.legal_text() if d.startswith("+y")] == every
    rising = state(updown=0, hands=hand, cols=["y5", "-"], pieces=["1....", "....."])
    assert [d for d in rising.legal_text() if d.startswith("+y")] == ["+y6", "+y7"]
    falling = state(updown=1, hands=hand, cols=["y5y4", "-"], pieces=["2....", "....."])
    assert [d for d in falling.legal_text() if d.startswith("+y")] == ["+y3", "+y4"]
    open_column.apply("+y4")              # the first different card fixes the direction: down
    assert field(open_column, "cols").split("/")[0] == "y5y4"


def test_the_card_just_discarded_cannot_be_drawn():
    s = state(hands=["y3", None], piles=["y0", "b0", "-", "-", "-"])
    s.apply("-y3")
    assert s.legal_text() == ["D", "Db"]


def test_cards_drawn_from_a_pile_are_known_until_played():
    s = state(hands=["y3", None], piles=["-", "b4", "-", "-", "-"], cols=["b2", "-"],
              pieces=[".1...", "....."])
    s.apply("-y3")
    s.apply("Db")
    assert field(s, "known") == "b4/-"
    assert s.view_text(1).split(" hands=")[1].startswith("b4?7/")
    s.apply(s.legal_text()[-1])           # seat 1 discards ...
    s.apply("D")                          # ... and draws
    s.apply("+b4")                        # seat 0 plays it: forgotten
    assert field(s, "known") == "-/-"


def test_the_two_player_deal_removes_thirty_cards_unseen():
    for players, deck in ((2, 64), (3, 86), (4, 78)):
        s = engine.new_game("board", seed=9, players=players)
        assert len(field(s, "deck")) // 2 == deck
        assert len(s.box_cards()) == (30 if players == 2 else 0)
        view = s.view_text(0)
        assert f"box={30 if players == 2 else 0}" in view and f"deck={deck}" in view


def test_new_game_defaults_to_four_players():
    assert engine.new_game("board", seed=1).players == 4
    assert engine.get_edition("board").seats == (2, 3, 4)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_hide_only_what_the_seat_cannot_see(players):
    s = engine.new_game("board", seed=17, players=players)
    s.playout(3)                          # a finished game shows everything it keeps
    s = engine.new_game("board", seed=17, players=players)
    for step in range(60):
        s.apply(s.legal()[(step * 7) % len(s.legal())])
    for seat in range(players):
        view = s.view_text(seat)
        assert "rng=" not in view and " deck=" in view
        for sample in range(4):
            other = s.determinized(seat, sample)
            assert other.view_text(seat).rsplit(" history=", 1)[0] == view.rsplit(" history=", 1)[0]
        if players == 2:
            assert {tuple(s.determinized(seat, k).box_cards()) for k in range(4)} != {tuple(s.box_cards())}
