"""The check of a departure against the end of the game (`SearchDefaults.verify_iterations`): where
the halving race would leave the heuristic's decision, the two race again with rollouts played to the
end, and the heuristic's decision is played unless the departure does at least as well there."""
from __future__ import annotations

import threading

from helpers import search_defaults

import engine
from bots.ismcts import monotonic_ns
from bots.ismcts_policy import IsmctsPolicy, SearchReport
from protocol.limits import Limits
from protocol.messages import latest_lines

CHECKED = [name for name in engine.EDITIONS if IsmctsPolicy._verify_iterations(engine.get_edition(name))]

# A 4-player witchs-cauldron position (a searcher-against-greedy game, deal 10) where moving the piece
# to hex 126 instead of 127 leaves a blockade for the seat to pay, the way opened for a rival: the
# search's rollouts, cut at its second turn, rate the two alike; played to the end, 126 loses far
# more often (research/notebook.md, "El Dorado: a check against the end of the game").
BLOCKADE_POSITION = (
    "eldorado route=witchs-cauldron caves=0 max_rounds=100 players=4 turn=40 phase=play to_move=0 final=0 "
    "pieces=133/146/124/108 blockades=-,-,-,6,4 held=3,5/-/2/- market=Pi2Gm1Ca2Tc2Ja3Tm2/Mi3Ad3Pp3Cg3Si3Na3 "
    "hands=ExSaSc/TvSaScJo/ExTvTvCo/ExTvTbPh draws=CoTvExTb/ExPiExSc/ExPhTvTbTv/ExSaTcJo "
    "discards=-/-/ExSaCaPhJo/- removed=TvTvTvGm/ExTvTvTvGmTmTl/-/ExTvTvTvCoTlTl played=Ex tokens=-/-/-/- "
    "cavepiles=-,-,-,-,-,- box=- explored=-/-/-/- coins=0 bought=0 lastcoin=- moving=a pay=- remove=0 "
    "replace=- last=- flags=- rng=0292a2fa81ca46a4")


def test_some_edition_checks_its_departures():
    assert "eldorado" in CHECKED


def _checked(decision: str, choice: str) -> SearchReport:
    """The report of a search that chose `decision` where the heuristic chose `choice`, checked."""
    state = engine.parse_position(BLOCKADE_POSITION)
    view = state.view(0)
    a, b = state.parse_decision(decision), state.parse_decision(choice)
    report = SearchReport(decision=a, ranked=[a], children={a: (50, 0.5), b: (50, 0.49)}, lines={a: [a]})
    bot = IsmctsPolicy(seed=1)
    edition = view.edition
    bot._ensure_trees(edition)
    bot._verify(report, view, edition, b, 200, 0, 7, None, monotonic_ns())
    return report


def test_a_departure_that_loses_at_the_end_of_the_game_is_not_played():
    report = _checked("Sc>126", "Sa>127")
    state = engine.parse_position(BLOCKADE_POSITION)
    assert report.verified is not None and report.verified < -0.2
    assert state.decision_to_text(report.decision) == "Sa>127"
    assert report.ranked[0] == report.decision and report.pv == [report.decision]
    assert report.value == 0.49  # the heuristic decision's mean in the search


def test_a_departure_that_wins_at_the_end_of_the_game_is_played():
    report = _checked("Sa>127", "Sc>126")
    state = engine.parse_position(BLOCKADE_POSITION)
    assert report.verified is not None and report.verified > 0.2
    assert state.decision_to_text(report.decision) == "Sa>127"


def test_the_check_is_reported_in_an_info_string():
    view = engine.parse_position(BLOCKADE_POSITION).view(0)
    vetoed, played = _checked("Sc>126", "Sa>127"), _checked("Sa>127", "Sc>126")
    bot = IsmctsPolicy(seed=1)
    line = bot._info(vetoed, view)[-1]["string"]
    assert line.startswith("check Sc>126 -0.") and line.endswith(" against Sa>127: vetoed")
    assert bot._info(played, view)[-1]["string"].endswith(" against Sc>126: played")
    assert all("string" not in line for line in bot._info(SearchReport(decision=1, pv=[1]), view))


def _game_views(players: int = 4, seed: int = 3, count: int = 24):
    """The searching seat's views along a game of greedy play (seat 0's turns)."""
    state = engine.new_game("eldorado", seed=seed, players=players, route="witchs-cauldron")
    greedy = engine.get_edition("eldorado").heuristic.value
    views, step = [], 0
    while not state.is_terminal() and len(views) < count:
        if state.to_move == 0 and len(state.legal()) > 2:
            views.append(state.view(0))
        state.apply(greedy.decide(state, step))
        step += 1
    return views


def test_the_check_runs_exactly_where_the_race_departs():
    bot = IsmctsPolicy(seed=5)
    checked = 0
    for view in _game_views():
        decision = bot.choose(view, Limits(iterations=120))
        report = bot.last_search
        choice = bot._heuristic_choice
        raced = bot._ranked(report.children)[0] if report.verified is None else None
        if report.verified is None:
            assert raced == decision  # the race's own choice: the heuristic's, or unchecked
            assert decision == choice or choice is None
        else:
            checked += 1
            assert (decision == choice) == (report.verified < 0)
    assert checked > 0


def test_a_search_reports_its_check_to_the_info_callback():
    bot = IsmctsPolicy(seed=5)
    checked = 0
    for view in _game_views(count=12):
        lines: list[dict] = []
        bot.choose(view, Limits(iterations=120), info=lines.append)
        strings = [line["string"] for line in lines if "string" in line]
        report = bot.last_search
        assert len(strings) == (report.verified is not None)
        if strings:
            checked += 1
            assert strings[0].startswith(f"check {view.state.decision_to_text(report.checked[0])} ")
        # what a client reads as the search's lines: the check's info string is not one of them
        best = latest_lines(lines)[0]
        assert best.get("multipv", 1) == 1 and best["pv"][0] == view.state.decision_to_text(report.decision)
    assert checked > 0


def test_without_check_iterations_no_check_runs():
    with search_defaults("eldorado", verify_iterations=0):
        bot = IsmctsPolicy(seed=5)
        departed = 0
        for view in _game_views():
            decision = bot.choose(view, Limits(iterations=120))
            assert bot.last_search.verified is None
            departed += decision != bot._heuristic_choice
        assert departed > 0  # departures happened, and none was checked


def test_a_stopped_search_is_not_checked():
    view = _game_views()[0]
    bot = IsmctsPolicy(seed=6)
    stop = threading.Event()
    stop.set()
    decision = bot.choose(view, Limits(infinite=True), stop)
    assert decision in view.legal() and bot.last_search.verified is None
