"""The ISMCTS searcher: budgets, stop, memory, determinism, reuse, info and every edition."""
from __future__ import annotations

import random
import threading
import time

import pytest
from helpers import edition_cases, heuristic_scores, new_game, random_state, search_defaults, searched_options

import engine
from bots.deciders import GreedyDecider
from bots.ismcts import NODE_BYTES, Tree
from bots.ismcts_policy import IsmctsPolicy
from protocol.limits import Limits, decision_budget_ms


def _view(edition: str = "classic", seed: int = 4, steps: int = 6, **options) -> engine.View:
    state = random_state(edition, seed, steps, rounds=1, **options)
    return state.view(state.to_move)


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("iterations", [1, 7, 1000, 4321])
def test_iteration_budget_is_exact(threads, iterations):
    bot = IsmctsPolicy(seed=1, Threads=threads)
    view = _view()
    decision = bot.choose(view, Limits(iterations=iterations))
    assert decision in view.legal()
    assert bot.last_search.iterations == iterations
    assert sum(v for v, _ in bot.last_search.children.values()) == iterations


def test_tree_run_counts_and_reasons():
    view = _view()
    tree = Tree(1000)
    tree.begin(view.state, view.seat, seed=5)
    assert tree.run(250) == 250 and tree.reason == "iterations"
    assert tree.run(250) == 250 and tree.iterations == 500 and tree.root_visits == 500
    tree.request_stop()
    assert tree.run(100) == 0 and tree.reason == "stop"


def test_node_budget():
    bot = IsmctsPolicy(seed=1, MaxDepth=0)
    bot.choose(_view(), Limits(nodes=300))
    assert bot.last_search.nodes == 300 and bot.last_search.reasons == ["nodes"]


def test_node_budget_of_a_tree_that_cannot_grow_so_far():
    bot = IsmctsPolicy(seed=1, MaxDepth=1)  # flat: the root and one node per legal decision
    view = _view()
    bot.choose(view, Limits(nodes=300))
    report = bot.last_search
    assert report.nodes == 1 + len(view.legal()) and report.iterations == 300 and report.reasons == ["nodes"]


def test_memory_stays_within_hash():
    bot = IsmctsPolicy(seed=1, Hash=1, MaxDepth=0)  # 1 MB: 32768 nodes of 32 bytes
    view = _view(steps=0)
    bot.choose(view, Limits(iterations=60_000))
    report = bot.last_search
    assert NODE_BYTES == 32
    assert report.capacity == 2**20 // NODE_BYTES
    assert report.nodes == report.capacity  # the pool filled up ...
    assert report.iterations == 60_000      # ... and the search kept sampling


def test_full_pool_still_improves_the_root():
    # With a pool of 2 nodes only the root and one child exist; the search still runs every
    # iteration (rollouts from the root) and answers a legal decision.
    view = _view()
    tree = Tree(2)
    tree.begin(view.state, view.seat, seed=1)
    assert tree.run(500) == 500 and tree.nodes == 2


def test_movetime_is_respected():
    bot = IsmctsPolicy(seed=1, EarlyStop="never")
    started = time.perf_counter()
    bot.choose(_view(), Limits(movetime_ms=150))
    elapsed = time.perf_counter() - started
    assert 0.1 <= elapsed < 0.15 + 0.05
    assert bot.last_search.reasons == ["deadline"]


def test_clock_share_is_a_budget():
    bot = IsmctsPolicy(seed=1, EarlyStop="never")
    started = time.perf_counter()
    bot.choose(_view(), Limits(clocks_ms=(2000, 2000)))  # its share of ~40 decisions left: 50 ms
    assert time.perf_counter() - started < 0.25


def test_a_clock_is_shared_over_the_decisions_left_in_the_match():
    """The whole match's decisions share the clock (the first third of a match used to take three
    quarters of it, at a twentieth of what was left per decision)."""
    first = engine.new_game("classic", seed=2, rounds=3)
    clock = Limits(clocks_ms=(132_000, 132_000))
    assert decision_budget_ms(first.view(0), clock) == 132_000 // (66 * 2)
    late = engine.new_game("classic", seed=2, rounds=1)
    while late.turns_left(late.to_move) > 5:  # plays, and draws from the draw pile
        late.apply("D" if late.phase == "draw" else late.legal()[0])
    assert decision_budget_ms(late.view(late.to_move), clock) == 132_000 // (2 * 5)
    with_inc = Limits(clocks_ms=(132_000, 132_000), increments_ms=(400, 400))
    assert decision_budget_ms(first.view(0), with_inc) == 1000 + 300
    while late.phase != "draw" or late.turns_left(late.to_move) > 0:
        late.apply("D" if late.phase == "draw" else late.legal()[0])
    assert decision_budget_ms(late.view(late.to_move), clock) == 66_000  # the last draw: half the clock at most

    class Unknown:  # an edition that cannot count its turns: a twentieth of the clock
        seat = 0
        state = type("S", (), {"turns_left": lambda self, seat: (_ for _ in ()).throw(NotImplementedError)})()
    assert decision_budget_ms(Unknown(), clock) == 132_000 // 20


@pytest.mark.parametrize("threads", [1, 2])
def test_stop_answers_within_a_few_milliseconds(threads):
    view = _view(steps=0)
    latencies = []
    for attempt in range(5):
        bot = IsmctsPolicy(seed=attempt, Threads=threads)
        stop = threading.Event()
        answer: list[tuple[int, float]] = []

        def search() -> None:
            decision = bot.choose(view, Limits(infinite=True), stop)
            answer.append((decision, time.perf_counter()))

        worker = threading.Thread(target=search)
        worker.start()
        time.sleep(0.05)
        assert not answer  # infinite: it waits for stop
        stopped = time.perf_counter()
        stop.set()
        worker.join(2.0)
        assert answer and answer[0][0] in view.legal()
        assert bot.last_search.iterations > 0 and set(bot.last_search.reasons) == {"stop"}
        latencies.append(answer[0][1] - stopped)
    latencies.sort()
    # Typically 1-5 ms (POLL_MS plus one iteration); on a machine busy with other jobs each wake-up
    # may wait for a time slice, so the bound, on the median, is the protocol checker's 150 ms: far
    # from an infinite search that ignored stop.
    assert latencies[2] < 0.15, latencies
    assert latencies[-1] < 0.15, latencies


def test_infinite_needs_a_stop_event():
    with pytest.raises(ValueError):
        IsmctsPolicy().choose(_view(), Limits(infinite=True))


@pytest.mark.parametrize("edition", ["classic", "partners", "expedition"])
def test_deterministic_with_a_seed(edition):
    def game() -> tuple[str, list]:
        state = new_game(edition, 11, rounds=1)
        bots = [IsmctsPolicy(seed=7 + seat, Iterations=300) for seat in range(state.num_seats)]
        visits = []
        while not state.is_terminal() and len(visits) < 60:
            seat = state.to_move
            state.apply(bots[seat].choose(state.view(seat), Limits()))
            visits.append(sorted(bots[seat].last_search.children.items()))
        return state.to_text(), visits

    assert game() == game()


def test_different_seeds_search_differently():
    view = _view(steps=0)
    a, b = IsmctsPolicy(seed=1), IsmctsPolicy(seed=2)
    a.choose(view, Limits(iterations=2000))
    b.choose(view, Limits(iterations=2000))
    assert a.last_search.children != b.last_search.children


def test_decides_from_the_view_alone():
    # Two true positions with the same view of seat 0 (everything it cannot see redealt) get
    # the same decision from the same seeded bot.
    truth = random_state("classic", 8, 10, rounds=1)
    seat = truth.to_move
    other = truth.determinized(seat, 99)
    assert other != truth and other.view_text(seat).split(" history=")[0] == truth.view_text(seat).split(" history=")[0]
    view_a = engine.parse_view(truth.view_text(seat).split(" history=")[0] + " history=-")
    view_b = engine.parse_view(other.view_text(seat).split(" history=")[0] + " history=-")
    da = IsmctsPolicy(seed=4).choose(view_a, Limits(iterations=3000))
    db = IsmctsPolicy(seed=4).choose(view_b, Limits(iterations=3000))
    assert da == db


def test_early_stop_keeps_the_decision():
    view = _view(steps=0)
    full = IsmctsPolicy(seed=5, EarlyStop="never")
    early = IsmctsPolicy(seed=5, EarlyStop="always")
    assert full.choose(view, Limits(iterations=30_000)) == early.choose(view, Limits(iterations=30_000))
    assert early.last_search.iterations <= 30_000


def test_single_legal_decision_is_answered_at_once():
    state = engine.new_game("classic", seed=1, rounds=1)
    state.apply("-" + state.legal_text()[0][1:])  # a discard: the draw phase offers only D
    view = state.view(0)
    assert len(view.legal()) == 1
    bot = IsmctsPolicy(seed=1)
    assert bot.choose(view, Limits(iterations=10**6)) == view.legal()[0]
    assert bot.last_search.iterations == 0


@pytest.mark.parametrize("others", ["tree", "heuristic"])
def test_reuses_the_subtree_after_its_own_play(others):
    state = engine.new_game("classic", seed=3, rounds=1)
    bot = IsmctsPolicy(seed=1, Others=others, MaxDepth=0)
    view = state.view(0)
    state.apply(bot.choose(view, Limits(iterations=5000)))
    assert state.phase == "draw"
    view = state.view(0)
    if len(view.legal()) > 1:
        bot.choose(view, Limits(iterations=100))
        assert bot.last_search.reused == 1
        assert sum(v for v, _ in bot.last_search.children.values()) > 100  # visits kept from before


@pytest.mark.parametrize("edition", ["classic", "partners"])
@pytest.mark.parametrize("others", ["tree", "heuristic"])
def test_reuse_across_the_opponents_turn(edition, others):
    state = engine.new_game(edition, seed=5, rounds=1)
    bots = [IsmctsPolicy(seed=seat, Others=others, MaxDepth=0) for seat in range(state.num_seats)]
    reused = 0
    for _ in range(24):
        seat = state.to_move
        state.apply(bots[seat].choose(state.view(seat), Limits(iterations=2000)))
        reused += bots[seat].last_search.reused
    assert reused > 0


@pytest.mark.parametrize("others", ["tree", "heuristic"])
def test_a_kept_subtree_offers_only_legal_decisions(others):
    # After its own draw from the pile the seat's next node has children for every card it might
    # have drawn; the search must drop those it did not draw (a regression: it once answered one).
    from bots.greedy import GreedyPolicy
    for seed in range(6):
        state = engine.new_game("classic", seed=seed, rounds=1)
        bots = [IsmctsPolicy(seed=seed, Others=others, Exploration=30, MaxDepth=0), GreedyPolicy(seed=1)]
        for _ in range(40):
            seat = state.to_move
            view = state.view(seat)
            decision = bots[seat].choose(view, Limits(iterations=300))
            assert decision in view.legal()
            if seat == 0:
                assert set(bots[0].last_search.children) <= set(view.legal())
            state.apply(decision)


def test_no_reuse_when_disabled_or_history_unknown():
    state = engine.new_game("classic", seed=3, rounds=1)
    bot = IsmctsPolicy(seed=1, Reuse=False)
    state.apply(bot.choose(state.view(0), Limits(iterations=500)))
    bot.choose(state.view(0), Limits(iterations=100))
    assert bot.last_search.reused == 0


def test_tree_advance_compacts_the_subtree():
    view = _view(steps=0)
    tree = Tree(100_000)
    tree.begin(view.state, view.seat, seed=2)
    tree.run(5000)
    decision, visits, _avail, _value = max(tree.root_children(), key=lambda c: c[1])
    before = tree.nodes
    assert tree.advance([decision])
    assert tree.nodes < before and tree.root_visits == visits
    state = view.state.copy()
    state.apply(decision)
    tree.begin(state, view.seat, seed=3, keep=True)
    tree.run(1000)
    assert tree.root_visits == visits + 1000
    assert not tree.advance([9999])  # no such child: the tree is dropped
    assert tree.nodes == 0


def test_info_reports(capsys):
    bot = IsmctsPolicy(seed=1)
    view = _view(steps=0)
    lines: list[dict] = []
    decision = bot.choose(view, Limits(movetime_ms=1200), threading.Event(), lines.append)
    assert len(lines) >= 2  # periodic (every INFO_MS) and final
    final = lines[-1]
    assert {"iterations", "nodes", "time", "rate", "value", "pv"} <= set(final)
    assert final["pv"][0] == view.state.decision_to_text(decision)
    assert 0.0 <= final["value"] <= 1.0
    assert all(line["iterations"] <= final["iterations"] for line in lines)


def _final_lines(lines: list[dict]) -> list[dict]:
    """The last report of a MultiPV search: its lines from the last `multipv 1` on."""
    start = max(i for i, line in enumerate(lines) if line["multipv"] == 1)
    return lines[start:]


@pytest.mark.parametrize("threads", [1, 2])
def test_multipv_reports_the_best_decisions_ranked(threads):
    bot = IsmctsPolicy(seed=3, MultiPV=3, Threads=threads)
    view = _view(steps=4)
    lines: list[dict] = []
    decision = bot.choose(view, Limits(iterations=4000), threading.Event(), lines.append)
    final = _final_lines(lines)
    report = bot.last_search
    assert [line["multipv"] for line in final] == [1, 2, 3]
    text = view.state.decision_to_text
    firsts = [line["pv"][0] for line in final]
    assert firsts[0] == text(decision) and len(set(firsts)) == 3
    ranked = sorted(report.children, key=lambda d: (report.children[d][0], report.children[d][1], -d), reverse=True)
    assert firsts == [text(d) for d in ranked[:3]]
    for line, d in zip(final, ranked):
        assert line["visits"] == report.children[d][0]
        assert line["value"] == round(report.children[d][1], 4)
        assert line["iterations"] == report.iterations == 4000
    assert final[0]["visits"] >= final[1]["visits"] >= final[2]["visits"]


def test_multipv_above_the_decisions_reports_each_once():
    bot = IsmctsPolicy(seed=3, MultiPV=256)
    view = _view(steps=4)
    lines: list[dict] = []
    bot.choose(view, Limits(iterations=3000), threading.Event(), lines.append)
    final = _final_lines(lines)
    assert len(final) == len(bot.last_search.children) == len(view.legal())
    assert sorted(line["pv"][0] for line in final) == sorted(view.state.decision_to_text(d) for d in view.legal())


def test_multipv_does_not_change_the_search():
    view = _view(steps=4)
    one, four = IsmctsPolicy(seed=5), IsmctsPolicy(seed=5, MultiPV=4)
    first = one.choose(view, Limits(iterations=3000), threading.Event(), lambda info: None)
    second = four.choose(view, Limits(iterations=3000), threading.Event(), lambda info: None)
    assert first == second and one.last_search.children == four.last_search.children


def test_multipv_lines_run_through_their_own_decision():
    """With every seat's decisions in the tree, each line is the tree's most visited path below
    its first decision."""
    bot = IsmctsPolicy(seed=2, MultiPV=2, Others="tree", MaxDepth=0)
    view = _view(steps=4)
    lines: list[dict] = []
    bot.choose(view, Limits(iterations=6000), threading.Event(), lines.append)
    tree = bot._trees[0]
    for line, d in zip(_final_lines(lines), bot.last_search.ranked):
        assert line["pv"] == [view.state.decision_to_text(x) for x in tree.principal_variation(first=d)]
        assert len(line["pv"]) > 1


def test_principal_variation_through_a_root_decision():
    view = _view(steps=4)
    tree = Tree(100_000)
    tree.configure(others="tree", max_depth=0)
    tree.begin(view.state, view.seat, 1)
    tree.run(5000)
    children = {d: visits for d, visits, _avail, _value in tree.root_children()}
    best = max(children, key=children.get)
    assert list(children.values()).count(children[best]) == 1  # no tie for the most visited
    assert tree.principal_variation(first=best) == tree.principal_variation() and len(tree.principal_variation()) > 2
    for d, visits in children.items():
        line = tree.principal_variation(first=d)
        assert (line[0] == d) if visits >= 2 else (line == [])
    assert tree.principal_variation(first=max(children) + 1000) == []


@pytest.mark.parametrize("others", ["tree", "heuristic"])
@pytest.mark.parametrize("rollout", ["random", "heuristic"])
@pytest.mark.parametrize("reward", ["auto", "margin", "round", "match"])
@pytest.mark.parametrize("max_depth", [0, 1])
@pytest.mark.parametrize("score_weight", [0, 30])
def test_every_setting_plays(rollout, reward, others, max_depth, score_weight):
    view = _view(seed=6, steps=4)
    assert len(view.legal()) > 1  # a real search
    bot = IsmctsPolicy(seed=1, Rollout=rollout, Reward=reward, Others=others, MaxDepth=max_depth,
                       ScoreWeight=score_weight)
    assert bot.choose(view, Limits(iterations=500)) in view.legal()
    assert 0.0 <= bot.last_search.value <= 1.0


@pytest.mark.parametrize("edition", edition_cases(), ids=lambda e: e.id)
def test_plays_a_whole_game_of_every_edition(edition):
    """A whole match, every decision searched: one round, or a race cut short (`searched_options`)."""
    state = new_game(edition, 2, **searched_options(edition))
    bots = [IsmctsPolicy(seed=seat, Iterations=60) for seat in range(state.num_seats)]
    decisions = 0
    while not state.is_terminal() and decisions < 3000:
        seat = state.to_move
        view = state.view(seat)
        decision = bots[seat].choose(view, Limits())
        assert decision in view.legal()
        state.apply(decision)
        decisions += 1
    assert state.is_terminal()


def test_hash_and_threads_reallocate():
    bot = IsmctsPolicy(seed=1, Hash=2, Threads=2)
    bot.choose(_view(), Limits(iterations=100))
    assert bot.last_search.capacity == 2 * (2 * 2**20 // NODE_BYTES // 2)
    bot.set_option("Hash", "4")
    bot.choose(_view(), Limits(iterations=100))
    assert bot.last_search.capacity == 4 * 2**20 // NODE_BYTES


def test_a_hash_that_cannot_be_allocated_is_refused_at_setoption(monkeypatch):
    """As Stockfish sizes its hash at setoption: the error comes there, and the bot keeps the
    previous size and plays (it used to fail at the next go and answer the first legal decision)."""
    import bots.ismcts_policy as policy_module

    real_tree = policy_module.Tree

    def scarce_tree(capacity):
        if capacity > 3_000_000:  # the memory this machine has, say
            raise MemoryError(f"cannot allocate {capacity} search nodes")
        return real_tree(capacity)

    monkeypatch.setattr(policy_module, "Tree", scarce_tree)
    bot = IsmctsPolicy(seed=1)
    with pytest.raises(ValueError, match="option Hash: cannot allocate 100 MB of search nodes for 1 thread"):
        bot.set_option("Hash", "100")
    assert bot.settings["Hash"] == 64
    assert bot.choose(_view(), Limits(iterations=100)) in _view().legal()
    assert bot.last_search.capacity == 64 * 2**20 // NODE_BYTES


def test_the_largest_hash_announced_fits_one_tree():
    from bots.ismcts import MAX_NODES
    from bots.ismcts_policy import MAX_HASH_MB

    hash_option = next(o for o in IsmctsPolicy.options if o.name == "Hash")
    assert hash_option.max == MAX_HASH_MB
    assert MAX_HASH_MB * 2**20 // NODE_BYTES <= MAX_NODES < (MAX_HASH_MB + 1) * 2**20 // NODE_BYTES
    with pytest.raises(ValueError, match="a tree needs 2..2e9 nodes"):
        Tree(MAX_NODES + 1)


@pytest.mark.parametrize("edition", ["classic", "partners", "expedition", "board"])
@pytest.mark.parametrize("k", [1, 3])
def test_root_candidates_are_the_heuristics_best(edition, k):
    from bots.heuristics import greedy_decision
    checked = 0
    for seed in range(8):
        state = random_state(edition, seed, 6 + seed % 2, rounds=1)
        view = state.view(state.to_move)
        if len(view.legal()) <= k:
            continue  # answered without a search
        bot = IsmctsPolicy(seed=2, RootCandidates=k)
        bot.choose(view, Limits(iterations=400))
        searched = set(bot.last_search.children)
        assert len(searched) == k
        if k == 1:  # the heuristic's own choice (ties broken alike: none in these positions)
            assert searched == {greedy_decision(view.state, 0)}
        assert sum(v for v, _ in bot.last_search.children.values()) == 400
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("edition", list(engine.EDITIONS))
@pytest.mark.parametrize("threads", [1, 2])
def test_searchmoves_restricts_the_root(edition, threads):
    rng = random.Random(3)
    checked = 0
    for seed in range(16):
        state = random_state(edition, seed, 5 + seed % 3, **searched_options(edition))
        view = state.view(state.to_move)
        legal = view.legal()
        if len(legal) < 4:
            continue
        allowed = rng.sample(legal, 3)
        texts = tuple(view.state.decision_to_text(d) for d in allowed)
        bot = IsmctsPolicy(seed=1, Threads=threads)
        decision = bot.choose(view, Limits(iterations=600, searchmoves=texts))
        assert decision in allowed and set(bot.last_search.children) == set(allowed)
        assert sum(v for v, _ in bot.last_search.children.values()) == 600
        # the heuristic's best of them alone, with RootCandidates=1; it is what greedy picks among them
        bot = IsmctsPolicy(seed=1, RootCandidates=1, Threads=threads)
        decision = bot.choose(view, Limits(iterations=100, searchmoves=texts))
        assert set(bot.last_search.children) == {decision}
        assert decision == GreedyDecider(0).decide_among(view.state, allowed) or _tied(view.state, decision, allowed)
        checked += 1
    assert checked >= 4


def _tied(state, decision, allowed) -> bool:
    """Whether `decision` ties for the heuristic's best score among `allowed` (ties go either way)."""
    scores = heuristic_scores(state)
    best = max(scores[state.decision_to_text(d)] for d in allowed)
    return scores[state.decision_to_text(decision)] >= best - 1e-9


@pytest.mark.parametrize("edition", list(engine.EDITIONS))
def test_a_search_too_small_to_choose_plays_the_heuristics_decision(edition):
    """Below MinVisits visits of its most visited root decision (a twentieth in a halving search,
    whose candidates share their worlds) the searcher plays what its heuristic plays (a few visits
    a decision pick nearly at random); above, its own choice."""
    halving = engine.get_edition(edition).search.halving
    # Without a floor of worlds every decision races (a floor would race the heuristic's best two);
    # without a margin the better mean wins among equals (a margin would keep the heuristic's).
    with search_defaults(edition, halving_floor=0, halving_margin=0.0):
        _check_small_searches(edition, halving)


def _check_small_searches(edition: str, halving: bool) -> None:
    checked = 0
    for seed in range(12):
        state = random_state(edition, seed, 5 + seed % 4, **searched_options(edition))
        view = state.view(state.to_move)
        if len(view.legal()) < 5:
            continue
        small = IsmctsPolicy(seed=seed, MultiPV=3)
        lines: list[dict] = []
        budget = len(view.legal()) if halving else 40  # one world each, or a few visits each
        decision = small.choose(view, Limits(iterations=budget), threading.Event(), lines.append)
        assert max(v for v, _ in small.last_search.children.values()) < (5 if halving else 100)
        assert _tied(view.state, decision, view.legal())  # the heuristic's best (up to its ties)
        assert lines[-3]["multipv"] == 1 and lines[-3]["pv"][0] == view.state.decision_to_text(decision)
        free = IsmctsPolicy(seed=seed, MinVisits=0)
        free_choice = free.choose(view, Limits(iterations=budget))
        children, greedy = free.last_search.children, free._heuristic_choice
        assert free_choice == max(children, key=lambda d: (children[d][0], children[d][1], d == greedy, -d))
        checked += 1
    assert checked >= 4


def test_a_full_search_is_never_overruled():
    """At the strength runs' budget every root decision with the most visits has far more than
    MinVisits: the rule cannot change them (the search benchmark's signature is unchanged)."""
    view = _view(steps=4)
    bot = IsmctsPolicy(seed=3, EarlyStop="always")
    decision = bot.choose(view, Limits(iterations=20000))
    children = bot.last_search.children
    assert children[decision][0] == max(v for v, _ in children.values()) >= 100 * 3


def test_searchmoves_with_one_decision_or_an_illegal_one():
    view = _view(steps=4)
    only = view.state.decision_to_text(view.legal()[-1])
    bot = IsmctsPolicy(seed=1)
    assert bot.choose(view, Limits(iterations=500, searchmoves=(only,))) == view.legal()[-1]
    assert bot.last_search.iterations == 0  # answered at once
    with pytest.raises(ValueError, match="not a legal decision"):
        bot.choose(view, Limits(iterations=500, searchmoves=("zz",)))
    tree = Tree(10_000)
    with pytest.raises(ValueError, match="none of these decisions"):
        tree.begin(view.state, view.seat, 1, only=[10_000])


def test_root_candidates_default_by_edition():
    # -1 (the default): partners searches the heuristic's best 12 root decisions, classic all
    for edition, most in (("partners", 12), ("classic", 64)):
        for seed in range(12):
            state = random_state(edition, seed, 4 + seed % 3, rounds=1)
            view = state.view(state.to_move)
            if len(view.legal()) < 2:
                continue
            bot = IsmctsPolicy(seed=1)
            bot.choose(view, Limits(iterations=3000))
            assert len(bot.last_search.children) == min(most, len(view.legal()))


def test_score_weight_out_of_range_is_refused():
    tree = Tree(100)
    for bad in ({"score_weight": 1.5}, {"score_weight": -0.1}, {"score_scale": 0.0}):
        with pytest.raises(ValueError, match="score_weight in 0..1, score_scale > 0"):
            tree.configure(**bad)
    with pytest.raises(ValueError):
        IsmctsPolicy(ScoreWeight=101)


def test_advertises_at_most_twenty_options():
    """Options are for users; a tuning knob whose value is settled is a constant (docs/search.md)."""
    assert len(IsmctsPolicy.options) <= 20
    assert len({o.name.lower() for o in IsmctsPolicy.options}) == len(IsmctsPolicy.options)


def test_a_race_cuts_its_rollouts_short_where_the_heuristic_evaluates():
    # eldorado (a race) with a heuristic evaluation: rollouts to the seat's `cutoff_turns`-th turn, then its chances
    state = engine.new_game("eldorado", seed=3, players=2)
    heuristic = engine.get_edition("eldorado").heuristic.value
    assert heuristic.evaluates and engine.get_edition("eldorado").search.cutoff_turns > 0
    tree = Tree(10_000)
    tree.configure(rollout="heuristic", others="heuristic", max_depth=1, cutoff_turns=1, haste=0.001)
    tree.begin(state, state.to_move, seed=1, heuristic=heuristic)
    assert tree.run(300) == 300
    children = tree.root_children()
    assert sum(c[1] for c in children) == 300 and all(0.0 <= c[3] / c[1] <= 1.0 for c in children if c[1])
    with pytest.raises(ValueError, match="cutoff_turns >= 0"):
        tree.configure(cutoff_turns=-1)


def test_a_go_without_limits_runs_the_editions_quick_search() -> None:
    """`Iterations` 0 (the default) takes the edition's `SearchDefaults.iterations`: a race's costly
    rollouts get fewer, so that a `go` with no limits stays about a second long everywhere."""
    view = engine.new_game("eldorado", seed=3).view(0)
    bot = IsmctsPolicy(seed=1)
    bot.choose(view, Limits())
    assert bot.last_search.iterations == engine.get_edition("eldorado").search.iterations == 7500
    bot = IsmctsPolicy(seed=1, Iterations=40)
    bot.choose(view, Limits())
    assert bot.last_search.iterations == 40
