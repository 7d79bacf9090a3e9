"""Sequential halving at the root (`SearchDefaults.halving`): the candidates share their worlds,
each round keeps the better half, and the policy's budgets, stop and choice work with it."""
from __future__ import annotations

import math
import threading
import time

import pytest
from helpers import heuristic_scores, random_state, searched_options

import engine
from bots.ismcts import Tree
from bots.ismcts_policy import IsmctsPolicy
from protocol.limits import Limits

HALVING = [name for name in engine.EDITIONS if engine.get_edition(name).search.halving]


def _halving_tree(edition: str, floor: int = 0, candidates: int = 0, protect: bool = False) -> Tree:
    tree = Tree(10_000)
    search = engine.get_edition(edition).search
    tree.configure(rollout="heuristic", epsilon=0.0, reward="match", others="heuristic", max_depth=1,
                   cutoff_turns=search.cutoff_turns, halving=True, halving_floor=floor,
                   root_candidates=candidates, halving_protect=protect)
    return tree


def _wide_view(edition: str, least: int = 6) -> engine.View:
    """A position of `edition` whose seat to move has at least `least` legal decisions."""
    for seed in range(50):
        state = random_state(edition, seed, 3 + seed % 5, **searched_options(edition))
        if not state.is_terminal() and len(state.legal()) >= least:
            return state.view(state.to_move)
    raise AssertionError("no position with enough decisions")


def _heuristic(edition: str):
    return engine.get_edition(edition).heuristic.value


def _begun(edition: str, seed: int) -> tuple[engine.View, Tree]:
    """A halving tree begun at a wide position of `edition`."""
    view = _wide_view(edition)
    tree = _halving_tree(edition)
    tree.begin(view.state, view.seat, seed=seed, heuristic=_heuristic(edition))
    return view, tree


def test_some_edition_is_searched_by_halving():
    assert HALVING


@pytest.mark.parametrize("edition", HALVING)
def test_each_round_keeps_the_better_half(edition):
    view, tree = _begun(edition, seed=3)
    n = len(view.legal())
    iterations = 40 * n
    assert tree.run(iterations) == iterations
    children = tree.root_children()
    assert sorted(c[0] for c in children) == sorted(view.legal())
    visits = sorted((c[1] for c in children), reverse=True)
    rounds = math.ceil(math.log2(n))
    first = iterations // (rounds * n)  # worlds of the first round
    assert visits[-1] == first  # the first half out played the first round's worlds only
    assert sum(1 for v in visits if v > first) == (n + 1) // 2
    assert visits[0] == visits[1] > visits[2]  # two finalists, with the rest of the budget
    # Whole worlds only: a world's rewards count once every candidate still in the race played it.
    assert 0 <= iterations - sum(visits) < 2


@pytest.mark.parametrize("edition", HALVING)
def test_a_floor_of_worlds_races_the_heuristics_best(edition):
    """A budget too small to give every decision `floor` worlds in the first round races the
    heuristic's best few: the decisions `RootCandidates` would pick, each with at least that many."""
    view = _wide_view(edition, least=8)
    n, floor = len(view.legal()), 5
    iterations = 3 * floor * n // 2  # every decision could have 1.5 × floor worlds over all rounds
    racing = n
    while racing > 2 and iterations // (math.ceil(math.log2(racing)) * racing) < floor:
        racing -= 1
    assert 2 <= racing < n
    tree = _halving_tree(edition, floor=floor)
    tree.begin(view.state, view.seat, seed=7, heuristic=_heuristic(edition))
    assert tree.run(iterations) == iterations
    visited = {d: visits for d, visits, _, _ in tree.root_children() if visits > 0}
    assert len(visited) == racing and min(visited.values()) >= floor
    best = _halving_tree(edition, candidates=racing)
    best.begin(view.state, view.seat, seed=7, heuristic=_heuristic(edition))
    assert set(visited) == {d for d, _, _, _ in best.root_children()}  # a halving root links its candidates


@pytest.mark.parametrize("edition", HALVING)
def test_the_race_starts_in_the_heuristics_order(edition):
    """Candidates are raced best first by the heuristic's scores, so that a cut between equal
    rewards keeps its preference (a halving root links them in that order: the list is last first)."""
    view, tree = _begun(edition, seed=3)
    scores = heuristic_scores(view.state)
    linked = [scores[view.state.decision_to_text(d)] for d, _, _, _ in tree.root_children()]
    assert len(set(linked)) > 1 and linked == sorted(linked)


def test_the_final_choice_between_equals_is_the_heuristics():
    """Finalists with the same visits and mean (worlds that cannot tell them apart) go to the
    heuristic's decision, whatever its id; the lower id only when neither is its decision."""
    bot = IsmctsPolicy(seed=1, MinVisits=0)  # no small-search rule: the ranking alone
    children = {3: (40, 0.5), 7: (40, 0.5), 9: (12, 0.9)}
    bot._heuristic_choice = 7
    assert bot._ranked(children)[0] == 7
    bot._heuristic_choice = 9
    assert bot._ranked(children)[0] == 3


@pytest.mark.parametrize("edition", HALVING)
def test_a_protected_race_takes_the_heuristics_decision_to_the_final(edition):
    """With `halving_protect` the heuristic's decision (linked first, so listed last) is never cut:
    it reaches the final in every race, also in those where an unprotected race drops it."""
    view = _wide_view(edition)
    dropped = 0
    for seed in range(40):
        races = {}
        for protect in (False, True):
            tree = _halving_tree(edition, protect=protect)
            tree.begin(view.state, view.seat, seed=seed, heuristic=_heuristic(edition))
            tree.run(8 * len(view.legal()))
            races[protect] = tree.root_children()
        top = races[True][-1][0]
        most = max(visits for _, visits, _, _ in races[True])
        assert {d: v for d, v, _, _ in races[True]}[top] == most  # a finalist
        if {d: v for d, v, _, _ in races[False]}[top] < most:
            dropped += 1
    assert dropped > 0  # the unprotected race dropped it somewhere: the test tells the two apart


def test_a_margin_keeps_the_heuristics_finalist_unless_beaten_by_it():
    bot = IsmctsPolicy(seed=1, MinVisits=0)
    bot._heuristic_choice = 7
    bot._margin = 0.02
    assert bot._ranked({3: (40, 0.52), 7: (40, 0.51), 9: (12, 0.9)})[0] == 7
    assert bot._ranked({3: (40, 0.54), 7: (40, 0.51), 9: (12, 0.9)})[0] == 3
    assert bot._ranked({3: (40, 0.52), 7: (12, 0.51), 9: (40, 0.4)})[0] == 3  # 7 is no finalist
    bot._margin = 0.0
    assert bot._ranked({3: (40, 0.52), 7: (40, 0.51)})[0] == 3


@pytest.mark.parametrize("edition", HALVING)
def test_a_floor_the_budget_affords_changes_nothing(edition):
    view = _wide_view(edition)
    n = len(view.legal())
    searched = []
    for floor in (0, 3):
        tree = _halving_tree(edition, floor=floor)
        tree.begin(view.state, view.seat, seed=9, heuristic=_heuristic(edition))
        tree.run(40 * n)  # 40 / ⌈log₂ n⌉ ≥ 3 worlds each in the first round
        searched.append(sorted(tree.root_children()))
    assert searched[0] == searched[1]


@pytest.mark.parametrize("edition", HALVING)
def test_the_candidates_share_their_worlds(edition):
    """A candidate's rewards depend on the worlds alone, not on whom it races against: searched
    beside two different rivals, it gathers exactly the same sum (independent worlds would not)."""
    view = _wide_view(edition, least=3)
    a, b, c = view.legal()[:3]
    sums = []
    for rival in (b, c):
        tree = _halving_tree(edition)
        tree.begin(view.state, view.seat, seed=11, heuristic=_heuristic(edition), only=[a, rival])
        tree.run(60)
        stats = {d: (visits, value) for d, visits, _, value in tree.root_children()}
        assert stats[a][0] == stats[rival][0] == 30
        sums.append(stats[a])
    assert sums[0] == sums[1]


@pytest.mark.parametrize("edition", HALVING)
def test_a_world_cut_short_is_not_counted(edition):
    view, tree = _begun(edition, seed=5)
    n = len(view.legal())
    # Planned at the first run for this budget: one world for all, then the better half plays a
    # second world, cut one candidate short.
    assert tree.run(n + (n + 1) // 2 - 1) == n + (n + 1) // 2 - 1
    assert sorted(c[1] for c in tree.root_children()) == [1] * n


@pytest.mark.parametrize("edition", HALVING)
def test_the_policy_plays_a_finalist(edition):
    view = _wide_view(edition)
    bot = IsmctsPolicy(seed=2)
    decision = bot.choose(view, Limits(iterations=500))
    children = bot.last_search.children
    most = max(v for v, _ in children.values())
    finalists = [d for d, (v, _) in children.items() if v == most]
    assert len(finalists) == 2 and most >= 5
    best = max(finalists, key=lambda d: children[d][1])
    choice, margin = bot._heuristic_choice, view.edition.search.halving_margin
    if choice in finalists and children[best][1] - children[choice][1] < margin:
        best = choice
    verified = bot.last_search.verified  # a departure checked against the end of the game
    assert verified is None or best != choice
    assert decision == (choice if verified is not None and verified < 0 else best)
    assert bot.last_search.reused == 0  # a flat search starts afresh


@pytest.mark.parametrize("edition", HALVING)
def test_a_timed_halving_search_keeps_its_time_and_whole_worlds(edition):
    view = _wide_view(edition)
    bot = IsmctsPolicy(seed=4)
    for _ in range(2):  # the first plans from its first world's rate, the second from the first's
        started = time.monotonic()
        decision = bot.choose(view, Limits(movetime_ms=150))
        assert time.monotonic() - started < 0.5
        assert decision in view.legal()
        children = bot.last_search.children
        assert bot.last_search.iterations >= sum(v for v, _ in children.values())


@pytest.mark.parametrize("edition", HALVING)
def test_stop_ends_a_halving_search(edition):
    view = _wide_view(edition)
    bot = IsmctsPolicy(seed=6)
    stop = threading.Event()
    threading.Timer(0.1, stop.set).start()
    started = time.monotonic()
    decision = bot.choose(view, Limits(infinite=True), stop)
    assert time.monotonic() - started < 0.5 and decision in view.legal()
