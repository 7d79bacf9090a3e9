"""The greedy bot on `board` and the compiled heuristic it shares with the searcher
(bots/board/heuristic.pyx): legality, information, sensible choices, strength."""
from __future__ import annotations

import doctest
import random

import pytest

import engine
from board_positions import position
from bots.board import heuristic as board_heuristic
from bots.board.heuristic import check_params, decision_scores, default_params
from bots.greedy import GreedyPolicy
from arena.duplicate import run_duplicate
from bots.heuristics import EDITIONS, greedy_decision, heuristic_playouts
from arena.match import play_match
from bots.random import RandomPolicy
from bots.registry import make_policy

PLAYERS = (2, 3, 4)

# ----- helpers ------------------------------------------------------------------------------------


def board(**fields) -> engine.State:
    """A hand-built position (tests/board_positions.py fills in everything not given)."""
    return engine.parse_position(position(**fields))


def best(state: engine.State, seed: int = 1) -> str:
    return state.decision_to_text(greedy_decision(state, seed))


def scores(state: engine.State) -> dict[str, float]:
    return dict(decision_scores(state))


def states_along_games(players: int, games: int, epsilon: float = 0.3, seed: int = 0, **options):
    """Positions of epsilon-greedy games (random enough to reach odd corners, greedy enough to
    reach long, sensible expeditions); the up-and-down variant in every other game."""
    rng = random.Random(seed)
    for game in range(games):
        state = engine.new_game("board", seed=seed + game, players=players,
                                **{"rounds": 2, "updown": game % 2, **options})
        while not state.is_terminal():
            yield state
            state.apply(greedy_decision(state, rng) if rng.random() > epsilon else rng.choice(state.legal()))

# ----- legality and information -------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_decisions_are_legal(players):
    checked = 0
    for state in states_along_games(players, games=4, seed=100 + players):
        legal = state.legal()
        assert greedy_decision(state, checked) in legal
        assert greedy_decision(state, 3, epsilon=0.5) in legal
        checked += 1
    assert checked > 1000


@pytest.mark.parametrize("players", PLAYERS)
def test_decision_depends_only_on_the_view(players):
    """The same decision for the true state, the view's canonical filling and any determinization."""
    rng = random.Random(players)
    compared = 0
    for n, state in enumerate(states_along_games(players, games=3, seed=30)):
        if n % 9:
            continue
        seat = state.to_move
        view = state.view(seat)
        for seed in (11, 12):
            expected = greedy_decision(state, seed)
            assert greedy_decision(view.state, seed) == expected
            for _ in range(2):
                assert greedy_decision(view.sample(rng.getrandbits(64)), seed) == expected
        compared += 1
    assert compared > 40


def test_policy_decides_from_views():
    policy = make_policy("greedy", seed=3)
    assert "board" in EDITIONS and "board" in policy.editions
    for players in PLAYERS:
        state = engine.new_game("board", seed=8, players=players)
        for _ in range(80):
            view = state.view(state.to_move)
            decision = policy.choose(view, None)
            assert decision in state.legal()
            state.apply(decision)


def test_python_face_rejects_bad_input():
    state = engine.new_game("board", seed=1, players=3)
    with pytest.raises(KeyError):
        check_params({"no_such_weight": 1})
    with pytest.raises(ValueError):
        decision_scores(engine.new_game("classic", seed=1))
    with pytest.raises(ValueError):
        default_params(5)
    assert default_params(2) != default_params(4)  # tuned by number of players

# ----- sensible choices in hand-built positions ---------------------------------------------------
# tests/board_positions.py's tiles: y2 V10, y4 arrow, y6 y7 artifacts; g3 g4 V10; b3 b5 arrows ...


def test_advances_with_the_lowest_fitting_card():
    # The blue cards are dead (the blue column is at b9): the yellow ones carry the piece.
    state = board(hands=["y2y4y6b0b1b2b3b4", None], cols=["y0y1b8b9", "-"], pieces=["22...", "....."])
    scored = scores(state)
    assert best(state) == "+y2"
    assert scored["+y2"] > scored["+y4"] > scored["+y6"]


def test_begins_the_strong_colour_with_the_researcher():
    state = board(hands=["b2b3b4b5b6w9gTrT", None])
    scored = scores(state)
    assert best(state) == "+b2R"
    assert scored["+b2R"] > scored["+b2"] and scored["+b2R"] > scored["+b3R"]
    assert scored["+w9"] < 0 and scored["+rTR"] < 0  # a lone high card begins nothing


def test_discards_a_dead_card_rather_than_feed_the_next_seat():
    # y0 is dead for both seats; r7 fits the next seat's red column (r5).
    state = board(hands=["y0r7b5b6b7w5w6w7", None], cols=["y5y6", "y3r5"], pieces=["2....", "1...1"])
    scored = scores(state)
    assert scored["-y0"] > scored["-r7"]
    assert scored["-y0"] > scored["-b5"]  # b5 is worth keeping: it begins a blue run


def test_up_and_down_takes_the_better_direction():
    # The yellow column (y5) has no direction yet: three cards below it, one above.
    fields = dict(updown=1, cols=["y5b8b9", "-"], pieces=["12...", "....."])
    down = board(hands=["y1y2y3y7b0b1b2b3", None], **fields)
    assert best(down) == "+y3"  # falling, from the nearest card down
    up = board(hands=["y2y6y8y9b0b1b2b3", None], **fields)
    assert best(up) == "+y6"
    # A new column starts at the end of the held run: y9 goes down through y8 y6 y4 y3.
    start = scores(board(updown=1, hands=["y3y4y6y8y9g0g1gT", None]))
    assert start["+y9R"] > start["+y3R"] and start["+y9R"] > start["+y6R"]


def test_draws_a_discard_that_fits():
    fields = dict(hands=["g6g7y2y3w2w3b2", None], piles=["-", "-", "-", "g5", "-"], phase="draw")
    assert best(board(cols=["g3g4", "-"], pieces=["...2.", "....."], **fields)) == "Dg"
    # Past it (the column is at g8): the draw pile instead.
    assert best(board(cols=["g3g4g8", "-"], pieces=["...3.", "....."], **fields)) == "D"


def test_optional_step_moves_the_piece_that_gains_most():
    # The researcher on y3 steps onto y4: -10 -> +5, doubled, and an arrow; the green piece on
    # stone 1 would gain 5.
    state = board(hands=["b5b6b7w5w6w7r1", None], cols=["y0y1y2g0", "-"], pieces=["3..1.", "....."],
                  researcher=["y", "-"], phase="move")
    scored = scores(state)
    assert best(state) == ">y"
    assert scored[">g"] > scored[">-"]


def test_takes_the_last_card_when_ahead_and_stalls_when_behind():
    fields = dict(hands=["y3y4y5b3b4g1g2", None], cols=["y0b0g0", "y1w0"], pieces=["55.6.", "5.5.."],
                  phase="draw", deck_size=1, piles=["-", "-", "w9", "-", "-"])
    assert best(board(totals=[100, 0], **fields)) == "D"  # the last card ends the expedition
    assert best(board(totals=[0, 100], **fields)) != "D"


def test_crosses_the_last_bridge_when_ahead():
    # Four pieces are beyond a bridge: the green step onto stone 7 ends the expedition.
    fields = dict(hands=["y3y4y5b3b4g1g2", None], cols=["y0b0g0", "y1w0"], pieces=["77.6.", "7.7.."],
                  phase="move", rounds=1)
    ahead = scores(board(totals=[100, 0], **fields))
    behind = scores(board(totals=[0, 100], **fields))
    assert ahead[">g"] > behind[">g"]
    assert best(board(totals=[100, 0], **fields)) == ">g"

def test_heuristic_playouts_leave_the_template_unchanged():
    state = engine.new_game("board", seed=2, players=3, rounds=1)
    before = state.to_text()
    assert heuristic_playouts(state, 1, seed=0) > 0
    assert state.to_text() == before


def test_docstring_examples():
    failures, _ = doctest.testmod(board_heuristic, optionflags=doctest.ELLIPSIS)
    assert failures == 0

# ----- strength -----------------------------------------------------------------------------------


def _through_views(players: int, games: int, seed: int) -> tuple[float, float]:
    """In-process games through the views, greedy in one seat (rotating) and random in the others:
    greedy's mean return and how often it ranked first alone."""
    points = firsts = 0.0
    for game in range(games):
        seat = game % players
        policies = [GreedyPolicy(seed + game) if s == seat else RandomPolicy(seed + game + s)
                    for s in range(players)]
        result = play_match("board", seed + game, policies, {"rounds": 1}, players=players)
        points += result.returns[seat]
        firsts += result.returns[seat] == 1.0
    return points / games, firsts / games


def test_greedy_beats_random_quick():
    assert _through_views(2, 10, seed=1000)[0] >= 0.9
    assert _through_views(4, 4, seed=1000)[1] >= 0.75


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYERS)
def test_greedy_beats_random(players):
    share, first = _through_views(players, 200 if players == 2 else 120, seed=2000)
    assert share >= 0.9 and first >= 0.8


@pytest.mark.parametrize("players", PLAYERS)
def test_duplicate_deals_against_random(players):
    stats = run_duplicate("board", 40, 5, "greedy", "random", {"rounds": 1}, players=players)
    assert stats.games == (80 if players == 2 else 40 * players)
    assert stats.score >= 0.95 and (players == 2 or stats.first_rate >= 0.9)


def test_equals_are_even_and_playouts_end():
    stats = run_duplicate("board", 200, 9, "greedy", "greedy:Seed=1", {"rounds": 1}, players=2)
    assert 0.4 < stats.score < 0.6
    state = engine.new_game("board", seed=1, players=2, rounds=1)
    decisions = heuristic_playouts(state, 100, seed=3)
    assert 100 * 60 < decisions < 100 * 400  # ended by the bridges or the draw pile, not max_turns
