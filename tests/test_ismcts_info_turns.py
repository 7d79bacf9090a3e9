"""InfoTurns: the seat's next turns as tree nodes of its information sets.

Below the root the tree branches on what the seat observes between its decisions — the other
seats' decisions as it sees them, the card its own draw shows it — and never on what it cannot
see, so every node of its later decisions is one information set of the seat.
"""
from __future__ import annotations

import random

import pytest
from helpers import edition_cases, random_state

import engine
from bots.ismcts import Tree
from bots.ismcts_policy import IsmctsPolicy
from bots.policy import Limits


def _tree(info_turns: int, info_visits: int, capacity: int = 200_000) -> Tree:
    tree = Tree(capacity)
    tree.configure(exploration=0.3, rollout="heuristic", epsilon=0.0, others="heuristic", max_depth=1,
                   info_turns=info_turns, info_visits=info_visits)
    return tree


def _play_position(edition: str = "classic", seed: int = 4):
    """A position where the seat to move plays (rather than draws), some turns into the round."""
    for steps in range(8, 80, 2):
        state = random_state(edition, seed, steps, rounds=1)
        if state.phase == "play" and len(state.legal()) > 4:
            return state
    raise AssertionError("no play position")


def _searched(info_turns: int, info_visits: int, iterations: int, seed: int, capacity: int = 200_000):
    """(position, seat, tree) after a search of `_play_position()` with those settings."""
    state = _play_position()
    seat = state.to_move
    tree = _tree(info_turns, info_visits, capacity)
    tree.begin(state.view(seat).state, seat, seed=seed)
    assert tree.run(iterations) == iterations
    return state, seat, tree


def _hand(state, seat: int) -> list[str]:
    line = next(line for line in state.pretty(seat).splitlines() if line.startswith(f"seat {seat}*"))
    return line.split("hand", 1)[1].split()


@pytest.mark.parametrize("edition", edition_cases(), ids=lambda e: e.id)
def test_a_node_that_never_reaches_its_visits_plays_as_the_flat_search(edition):
    """Below InfoVisits a node makes the heuristic's decision with the rollout's own random
    numbers: the root's statistics are those of the flat search to the last bit."""
    state = random_state(edition, 7, 10, rounds=1)
    seat = state.to_move
    view = state.view(seat)
    children = []
    for info_turns in (0, 1, 2):
        tree = _tree(info_turns, 10**6)
        tree.begin(view.state, seat, seed=9)
        tree.run(1500)
        children.append(sorted(tree.root_children()))
    assert children[0] == children[1] == children[2]


def test_later_decisions_are_nodes_of_the_seats_information_sets():
    state, seat, tree = _searched(1, 8, 6000, seed=3)
    hand = _hand(state, seat)
    checked_draws = checked_turns = 0
    for kind, play, *_ in tree.node_children():
        assert kind == "decision"
        played = state.decision_to_text(play)[1:]  # +r7 / -r7: the card
        after_play = state.copy()
        after_play.apply(play)
        for kind, draw, mover, *_ in tree.node_children([("decision", play)]):
            assert kind == "decision" and mover == seat and after_play.is_legal(draw)
            below = tree.node_children([("decision", play), ("decision", draw)])
            if after_play.decision_to_text(draw) != "D":
                # A card taken from a discard pile is public: what follows is the opponent's turn.
                assert all(kind == "observed" and mover != seat for kind, _, mover, *_ in below)
                continue
            for kind, card, mover, *_ in below:
                # The draw pile's card is seen by the seat alone, and is one it could not see before.
                assert kind == "revealed" and mover == seat
                drawn = state.revealed_text(card)
                assert drawn not in state.pretty(seat).split("hand", 1)[0]  # not on the table
                checked_draws += 1
                held = list(hand)
                held.remove(played)
                held.append(drawn)
                path = [("decision", play), ("decision", draw), ("revealed", card)]
                for kind, opp_play, mover, *_ in tree.node_children(path):
                    assert kind == "observed" and mover != seat and opp_play >= 0
                    for kind, opp_draw, mover, *_ in tree.node_children(path + [("observed", opp_play)]):
                        assert kind == "observed" and mover != seat
                        turn = path + [("observed", opp_play), ("observed", opp_draw)]
                        for kind, mine, mover, *_ in tree.node_children(turn):
                            # The seat's next decision: a node of that information set, and one it
                            # can make there — a card of the hand it then holds.
                            assert kind == "decision" and mover == seat
                            assert state.decision_to_text(mine)[1:] in held
                            checked_turns += 1
    assert checked_draws > 20 and checked_turns > 20, (checked_draws, checked_turns)


def test_a_visited_information_set_searches_beyond_the_heuristic():
    """Past InfoVisits a node of the seat's next turn tries the heuristic's runner-up too."""
    _, _, tree = _searched(1, 8, 6000, seed=3)

    def widest(path, depth):
        children = tree.node_children(path)
        here = sum(1 for kind, *_ in children if kind == "decision") if depth >= 2 else 0
        return max([here] + [widest(path + [(kind, key)], depth + 1) for kind, key, *_ in children])

    assert widest([], 0) >= 2


def test_an_opponents_pass_is_an_observation_without_its_cards():
    """partners: a pass between the seat's two opponents is observed as a pass, not as its cards."""
    state = random_state("partners", 5, 4, rounds=1)
    seat = state.to_move
    tree = _tree(1, 4)
    tree.configure(exploration=0.3, rollout="heuristic", epsilon=0.5, others="heuristic", max_depth=1,
                   info_turns=1, info_visits=4)  # the others pass now and then (epsilon)
    tree.begin(state.view(seat).state, seat, seed=2)
    tree.run(4000)
    seen = {"hidden": 0, "opponents": 0}

    def walk(path):
        for kind, key, mover, *_ in tree.node_children(path):
            if kind == "observed" and state.team_of(mover) != state.team_of(seat):
                seen["opponents"] += 1
                if key == -1:
                    seen["hidden"] += 1
                else:
                    assert not state.decision_to_text(key).startswith(">"), "an opponent's pass leaked"
            walk(path + [(kind, key)])

    walk([])
    assert seen["hidden"] > 0 and seen["opponents"] > seen["hidden"], seen


def test_a_full_pool_keeps_sampling_within_its_bound():
    _, _, tree = _searched(2, 1, 3000, seed=1, capacity=60)
    assert tree.nodes <= 60


def test_reuse_keeps_a_played_decisions_subtree_and_not_one_past_an_observation():
    state, seat, tree = _searched(1, 8, 3000, seed=1)
    play = max(tree.root_children(), key=lambda child: child[1])[0]
    after = state.copy()
    after.apply(play)  # the seat draws next: its draws are the kept subtree's root decisions
    assert tree.advance([play])
    tree.begin(after.view(seat).state, seat, seed=2, keep=True)
    assert tree.root_visits > 0 and all(after.is_legal(d) for d, *_ in tree.root_children())
    draw = after.parse_decision("D")
    assert not tree.advance([draw])  # what the draw showed is not among the decisions


def test_the_options_reach_the_tree_and_are_checked():
    state = _play_position()
    view = state.view(state.to_move)
    bot = IsmctsPolicy(seed=1, InfoTurns=1, InfoVisits=8, EarlyStop="never")
    assert bot.choose(view, Limits(iterations=2000)) in view.legal()
    assert bot.last_search.nodes > 1 + len(view.legal())  # more than the flat root
    with pytest.raises(ValueError):
        IsmctsPolicy(InfoVisits=0)
    with pytest.raises(ValueError):
        IsmctsPolicy(InfoTurns=-1)


def test_every_edition_plays_with_it():
    for edition in edition_cases():
        state = random_state(edition, 3, 6, rounds=1)
        view = state.view(state.to_move)
        bot = IsmctsPolicy(seed=1, InfoTurns=2, InfoVisits=4)
        assert bot.choose(view, Limits(iterations=800)) in view.legal(), edition.id
        assert bot.last_search.iterations == 800


def test_a_round_dealt_since_is_left_to_the_rollout():
    """Reward=match: when the opponent's draw ends the round, the seat's next decision is in a new
    deal that no observation of the tree holds, so it is not a node."""
    state = engine.new_game("classic", seed=2, rounds=2)
    rng = random.Random(2)
    while not (state.phase == "play" and state.pretty().split("deck ")[1].split()[0] == "2"):
        state.apply(rng.choice(state.legal()))
    seat = state.to_move
    tree = Tree(200_000)
    tree.configure(exploration=0.3, rollout="heuristic", epsilon=0.0, others="heuristic", max_depth=1,
                   reward="match", info_turns=2, info_visits=1)
    tree.begin(state.view(seat).state, seat, seed=1)
    tree.run(3000)
    ends = 0
    for _, play, *_ in tree.node_children():
        deck_draw = state.copy()
        deck_draw.apply(play)
        draw = deck_draw.parse_decision("D")
        path = [("decision", play), ("decision", draw)]
        for _, card, *_ in tree.node_children(path):
            for _, opp_play, *_ in tree.node_children(path + [("revealed", card)]):
                for _, opp_draw, *_ in tree.node_children(path + [("revealed", card), ("observed", opp_play)]):
                    turn = path + [("revealed", card), ("observed", opp_play), ("observed", opp_draw)]
                    if deck_draw.decision_to_text(opp_draw) == "D":  # the last card: the round ends
                        assert tree.node_children(turn) == []
                        ends += 1
    assert ends > 0


@pytest.mark.parametrize("edition", ["classic", "expedition"])
def test_reuse_follows_what_the_seat_observed_to_its_information_set(edition):
    """At the seat's next turn the kept subtree is the node of what it saw since — its draw's card,
    the others' decisions as it saw them — and every decision there is legal in the real position."""
    from bots.greedy import GreedyPolicy
    state = engine.new_game(edition, seed=5, rounds=1)
    bot = IsmctsPolicy(seed=1, InfoTurns=1, InfoVisits=8, EarlyStop="never")
    others = {seat: GreedyPolicy(seed=seat) for seat in range(1, state.num_seats)}
    followed = 0
    for _ in range(40):
        seat = state.to_move
        view = state.view(seat)
        path = bot._reuse_path(view, others_in_tree=False) if seat == 0 else None
        found, children = False, []
        observed = bool(path) and any(kind == "observed" for kind, _ in path)
        if observed:
            try:  # the node of this information set, before the search prunes anything
                children = bot._trees[0].node_children(path)
                found = bool(children)
            except KeyError:  # no sampled world of the last search saw what the others did
                pass
            assert all(kind == "decision" and view.state.is_legal(d) for kind, d, *_ in children)
        state.apply((bot if seat == 0 else others[seat]).choose(view, Limits(iterations=3000)))
        if observed and len(view.legal()) > 1:
            assert bot.last_search.reused == found
            followed += found
    assert followed >= 3
