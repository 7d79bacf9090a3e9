"""The widened GameOps (issue 32, item 3), shown with `dash`, the tests' race edition that the session
compiles from tests/editions/: a decision that shows its mover several cards (drawing up to four,
across a reshuffle), a record not bounded by a round, and a race searched for its result alone. And
the seam: an edition added in one place (its files and one `register`) is played by the generic
searcher, the protocol server and in-process matches, none of which changed for it."""
from __future__ import annotations

import doctest
import random
import sys
from collections import Counter
from collections.abc import Iterator

import pytest

import engine
from arena.duplicate import run_duplicate
from arena.match import play_match
from bots.ismcts import Tree
from bots.ismcts_policy import IsmctsPolicy
from bots.random import RandomPolicy
from engine.edition import Edition
from engine.editions import register, unregister
from protocol.limits import Limits
from protocol.server import Server

DECK = Counter({1: 3, 2: 2, 3: 2, 4: 1})
"""The cards every seat owns."""
END = 4
"""The decision id of `E`, ending a turn."""

# Seat 0 is four steps from the goal with 1 1 1 4 in hand; seat 1 wins with any card on its turn.
# Only +4 wins for sure (+1 wins only if the 4 follows before E).
ONE_WINS = ("dash goal=30 players=2 to_move=0 phase=play pos=26/29 hands=1114/1223 known=-/- discards=-/- "
            "piles=3232/4311 rng=0123456789abcdef")


@pytest.fixture(scope="module", autouse=True)
def dash(dash_record: Edition) -> Iterator[Edition]:
    """The race, registered for this module's tests only."""
    register(dash_record)
    yield dash_record
    unregister(dash_record)


def new_race(seed: int, players: int = 2, goal: int = 30) -> engine.State:
    return engine.new_game("dash", seed=seed, players=players, goal=goal)


def random_race(seed: int, players: int, goal: int = 30) -> Iterator[engine.State]:
    """Each position of a race played by random decisions, the last one over."""
    state, rng = new_race(seed, players, goal), random.Random(seed)
    yield state
    while not state.is_terminal():
        state.apply(rng.choice(state.legal()))
        yield state


def play_turn(state: engine.State, cards: int) -> str:
    """The seat to move plays its `cards` lowest cards, then ends its turn; the record text of `E`."""
    for _ in range(cards):
        state.apply(state.legal()[0])
    return state.play("E")


def without_history(view: str) -> str:
    return view.rsplit(" history=", 1)[0]


def perft(state: engine.State, depth: int) -> int:
    """Decision sequences of length `depth`, counted in Python through `legal`, `copy` and `apply`."""
    if depth == 0:
        return 1
    total = 0
    for decision in state.legal():
        child = state.copy()
        child.apply(decision)
        total += perft(child, depth - 1)
    return total


# ----- the rules through GameOps -------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_races_end_with_one_winner(dash: Edition, players: int) -> None:
    for seed in range(12):
        for state in random_race(seed, players):
            if state.is_terminal():
                break
            legal = state.legal()
            assert legal and legal == sorted(legal) and legal[-1] < dash.rules.num_decision_ids
            assert state.random_decision(seed) in legal
            assert (END in legal) == (state.phase == "more")
            for seat in range(players):
                assert Counter(state.hand(seat) + state.discard(seat) + state.pile(seat)) == DECK
                assert not Counter(state.known(seat)) - Counter(state.hand(seat)), "the public's knowledge is wrong"
        assert state.legal() == [] and state.to_move is None and state.phase == "over"
        winner = state.returns().index(1.0)
        # the winner beats everyone; the others tie for the places behind it
        assert state.returns() == [1.0 if seat == winner else (players - 2) / 2 / (players - 1)
                                   for seat in range(players)]
        assert state.scores()[winner] == 30 and max(state.scores()[:winner] + state.scores()[winner + 1:]) < 30


def test_compiled_playouts_end_the_race() -> None:
    for seed in range(20):
        fast, generic = new_race(seed, 4), new_race(seed, 4)
        assert fast.playout(seed) == generic.playout(seed, fast=False) > 0  # no inlined playout: one loop
        assert fast == generic and fast.is_terminal() and sorted(fast.returns())[-1] == 1.0


def test_positions_and_views_read_back(dash: Edition) -> None:
    # 8 (generator) + 8 (five facts, three spare) + 4 positions + 3 * 16 (hands, known, discards)
    # + 4 pile sizes + 32 piles: no padding, so positions read back equal byte for byte
    assert dash.rules.state_size == 104
    for seed in range(6):
        for state in random_race(seed, 3):
            text = state.to_text()
            assert engine.parse_position(text) == state and engine.parse_position(text).to_text() == text
            for seat in range(3):
                view = state.view(seat)
                assert view.seat == seat and view.history == tuple(state.history(seat))
                assert without_history(view.state.view_text(seat)) == without_history(view.text)


@pytest.mark.parametrize("change, message", [
    (("phase=play", "phase=run"), "phase"),
    (("hands=1114/", "hands=1141/"), "ascending order"),
    (("known=-/-", "known=3/-"), "not all in its hand"),
    (("piles=3232/", "piles=3222/"), "draw pile holds the cards"),
    (("pos=26/29", "pos=30/29"), "at the goal but the race runs"),
    (("rng=0123456789abcdef", "rng=xyz"), "rng"),
    (("players=2", "players=5"), "players: out of range"),
])
def test_a_bad_position_is_named(change: tuple[str, str], message: str) -> None:
    with pytest.raises(engine.NotationError, match=message):
        engine.parse_position(ONE_WINS.replace(*change))


@pytest.mark.parametrize("change, message", [
    (("hands=1114/?4", "hands=1114/1223"), "hidden from seat 0"),
    (("piles=4/4", "piles=4/3"), "owns 8 cards"),
    (("history=-", "history=+1:3"), "only an E shows"),
    (("history=-", "history=+5"), "not a decision of dash"),
])
def test_a_bad_view_is_named(change: tuple[str, str], message: str) -> None:
    view = engine.parse_position(ONE_WINS).view_text(0)
    with pytest.raises(engine.NotationError, match=message):
        engine.parse_view(view.replace(*change))


def test_a_copy_is_independent() -> None:
    state = new_race(4)
    play_turn(state, 2)
    copy = state.copy()
    assert copy == state and copy.record() == state.record()
    copy.apply(copy.legal()[0])
    assert copy != state and len(copy.record()) == len(state.record()) + 1


def test_perft_counts_as_a_brute_count() -> None:
    for seed in range(3):
        for ply, state in enumerate(random_race(seed, 3, goal=60)):
            if ply % 7 == 0 and not state.is_terminal():
                for depth in range(1, 5):
                    assert state.perft(depth) == perft(state, depth), (state.to_text(), depth)
            if ply > 40:
                break


def test_a_determinization_keeps_the_view_and_deals_the_rest_again() -> None:
    hands = piles = kept_known = 0
    for seed in range(6):
        for state in random_race(seed, 3, goal=60):
            for seat in range(3):
                view = without_history(state.view_text(seat))
                for sample in range(4):
                    world = state.determinized(seat, seed * 1000 + sample)
                    assert without_history(world.view_text(seat)) == view
                    assert world.hand(seat) == state.hand(seat)
                    for other in range(3):
                        assert Counter(world.hand(other) + world.pile(other)) == Counter(state.hand(other) + state.pile(other))
                        assert not Counter(world.known(other)) - Counter(world.hand(other))
                        kept_known += other != seat and bool(world.known(other))
                    hands += any(world.hand(o) != state.hand(o) for o in range(3) if o != seat)
                    piles += world.pile(seat) != state.pile(seat)
    # it does deal the others' hands and reorder the seat's own pile, and there were known cards to keep
    assert hands > 500 and piles > 500 and kept_known > 100


# ----- a decision that shows several cards ---------------------------------------------------------

def test_an_end_of_turn_shows_its_mover_every_card_drawn() -> None:
    state = new_race(3, goal=200)
    pile = state.pile(0)
    record = play_turn(state, 4)  # four cards to draw: the whole draw pile, top first
    drawn = tuple(reversed(pile))
    assert record == "E:" + "".join(map(str, drawn)) and len(drawn) == 4
    assert state.record()[-1] == (0, END, drawn) and state.hand(0) == sorted(drawn)
    assert state.view(0).history[-1] == record and state.view(1).history[-1] == "E"
    assert " piles=0/4 " in state.view_text(0)  # its own draw pile too is a number of cards, no order


def test_a_draw_across_a_reshuffle_shows_the_cards_in_the_order_drawn() -> None:
    state = new_race(8, goal=200)
    play_turn(state, 2)  # seat 0 draws two of its four: two are left
    play_turn(state, 1)
    left, hand = state.pile(0), state.hand(0)
    state.apply(state.legal()[0])
    state.apply(state.legal()[0])
    state.apply(state.legal()[0])  # one card left in hand: three to draw
    kept, discard = state.hand(0), state.discard(0)
    record = state.play("E")
    _, _, revealed = state.record()[-1]
    assert record == "E:" + "".join(map(str, revealed)) and len(revealed) == 3
    assert revealed[:2] == tuple(reversed(left))  # the old pile, then one card of the new
    assert Counter(discard)[revealed[2]] > 0 and state.discard(0) == []
    assert Counter(state.pile(0)) == Counter(discard) - Counter([revealed[2]])
    assert state.hand(0) == sorted(kept + list(revealed))
    # what seat 0 held outside its discard pile went into its hand, and seat 1 knows it
    assert state.known(0) == sorted(kept + left) and len(hand) == 4
    assert f" known={''.join(map(str, sorted(kept + left)))}/" in state.view_text(1)
    assert state.view(1).history[-1] == "E" and state.view(0).history[-1] == record


def test_the_record_spans_the_whole_race() -> None:
    state = new_race(5, goal=120)
    decisions = 0
    while not state.is_terminal():
        state.apply(state.legal()[0] if state.phase == "play" else END)
        decisions += 1
        assert state.round_index == 0
    record = state.record()
    assert decisions > 150 and len(record) == decisions
    assert state.history() == [state.decision_to_text(d) + (":" + state.revealed_text(r) if r else "")
                               for _, d, r in record]
    for seat in range(2):
        view = state.view(seat)
        assert len(view.history) == decisions
        own = [entry for (mover, d, _), entry in zip(record, view.history) if d == END and mover == seat]
        others = [entry for (mover, d, _), entry in zip(record, view.history) if d == END and mover != seat]
        assert all(entry.startswith("E:") for entry in own) and set(others) == {"E"}


# ----- the searcher, the protocol server, in-process matches -----------------------------------------

@pytest.mark.parametrize("players", [2, 4])
def test_the_searcher_plays_whole_races(players: int) -> None:
    searched = []
    policies = [IsmctsPolicy(seed=seat) for seat in range(players)]
    result = play_match("dash", 3, policies, {"goal": 15}, players=players, limits=Limits(iterations=150),
                        observer=lambda ply, seat, policy: searched.append(policy.last_search.iterations))
    assert sorted(result.returns)[-1] == 1.0 and result.decisions == len(searched) > 10
    assert max(searched) == 150
    replay = new_race(3, players, goal=15)
    for decision in result.moves:
        replay.apply(decision)
    assert replay.to_text() == result.final_position and replay.is_terminal()


def test_the_searcher_takes_the_win() -> None:
    view = engine.parse_position(ONE_WINS).view(0)
    bot = IsmctsPolicy(seed=1)
    assert view.state.decision_to_text(bot.choose(view, Limits(iterations=2000))) == "+4"
    assert bot.last_search.children[0][1] < bot.last_search.children[3][1] == 1.0


@pytest.mark.parametrize("reward", ["margin", "round", "auto"])
def test_a_race_is_searched_for_its_result_whatever_the_reward_option(reward: str) -> None:
    """The race has no margin (GameOps.margin 0): the reward is the result, so the Reward option
    and the margin's share (ScoreWeight) change nothing in the search."""
    view = engine.parse_position(ONE_WINS).view(0)
    settings = {"Iterations": 2000, "MaxDepth": 0, "ScoreWeight": 50}
    plain, chosen = IsmctsPolicy(seed=1, Reward="match", **settings), IsmctsPolicy(seed=1, Reward=reward, **settings)
    assert plain.choose(view, None) == chosen.choose(view, None) == view.state.parse_decision("+4")
    assert chosen.last_search.children == plain.last_search.children
    tree = Tree(20_000)
    tree.configure(reward=reward, score_weight=0.5)
    tree.begin(view.state, 0, seed=2)
    tree.run(1000)
    # two seats: every iteration's reward is a win (1) or a loss (0), never a share of a margin
    assert all(value == int(value) for _, _, _, value in tree.root_children())


def test_the_protocol_server_answers_for_the_race() -> None:
    out: list[str] = []
    server = Server(IsmctsPolicy(seed=1), out.append)
    try:
        server.handle("uei")
        assert "dash" in next(line for line in out if line.startswith("editions ")).split()
        view = engine.parse_position(ONE_WINS).view_text(0)
        for line in ("position " + view, "legal", "d", "go iterations 1500"):
            server.handle(line)
        assert server.searcher.wait_idle(30)
        assert "legal +1 +4" in out and "info string dash  goal 30  seat 0 to play" in out
        assert out[-1] == "bestmove +4"
        server.handle("position " + view.replace("piles=4/4", "piles=4/3"))
        assert out[-1].startswith("info string error") and "owns 8 cards" in out[-1]
    finally:
        server.searcher.close()


def test_in_process_matches_play_the_race() -> None:
    result = play_match("dash", 7, [RandomPolicy(seed) for seed in range(3)], {"goal": 20}, players=3)
    assert result.edition == "dash" and sorted(result.returns) == [0.25, 0.25, 1.0]
    stats = run_duplicate("dash", 2, 11, "random", "ismcts:Iterations=100", {"goal": 15})
    assert stats.games == 4 and stats.wins + stats.losses == 4  # a race of two has no draw
    stats = run_duplicate("dash", 1, 11, "ismcts:Iterations=100", "random", {"goal": 15}, players=3)
    assert stats.games == 3  # one game with A at each seat


def test_the_examples_of_the_edition_run() -> None:
    for name in ("dash_game", "dash_edition"):
        failures, tried = doctest.testmod(sys.modules[name], optionflags=doctest.ELLIPSIS)
        assert failures == 0 and tried > 0, name
