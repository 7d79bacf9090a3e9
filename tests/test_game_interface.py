"""One battery of checks every edition must pass (like OpenSpiel's basic tests)."""
from __future__ import annotations

import copy
import pickle
import random

import pytest

import engine
from engine.errors import IllegalDecisionError, NotationError
from helpers import edition_cases, new_game, random_state, short_options


def test_random_games_run_to_the_end(edition):
    for seed in range(20):
        state = new_game(edition, seed)
        rng = random.Random(seed)
        steps = 0
        while not state.is_terminal():
            legal = state.legal()
            assert legal, "a running game always has a legal decision"
            assert len(set(legal)) == len(legal)
            mover = state.to_move
            decision = rng.choice(legal)
            state.apply(decision)
            steps += 1
            assert steps < 100_000
        assert state.legal() == [] and state.to_move is None
        returns = state.returns()
        assert all(r in (0.0, 0.5, 1.0) for r in returns) or state.num_seats > 2
        assert len(state.scores()) == state.num_seats


def test_decision_text_round_trips(edition):
    for seed in range(10):
        state = random_state(edition, seed, steps=seed * 17)
        for decision in state.legal():
            text = state.decision_to_text(decision)
            assert state.parse_decision(text) == decision
            assert " " not in text


def test_position_text_round_trips(edition):
    for seed in range(30):
        state = random_state(edition, seed, steps=seed * 11)
        parsed = engine.parse_position(state.to_text())
        assert parsed == state
        assert parsed.to_text() == state.to_text()
        assert parsed.legal() == state.legal()


def test_copy_is_independent(edition):
    state = random_state(edition, 3, steps=10)
    twin = state.copy()
    assert twin == state and twin is not state
    twin.apply(twin.legal()[0])
    assert twin != state
    assert copy.deepcopy(state) == state
    assert pickle.loads(pickle.dumps(state)) == state


def test_illegal_decision_changes_nothing(edition):
    state = random_state(edition, 5, steps=7)
    before = state.to_text()
    illegal = next(d for d in range(4096) if not state.is_legal(d))
    with pytest.raises(IllegalDecisionError):
        state.apply(illegal)
    with pytest.raises(NotationError):
        state.apply("no-such-decision")
    with pytest.raises(TypeError):
        state.apply(3.5)
    assert state.to_text() == before


def test_views_survive_resampling_of_what_the_seat_cannot_see(edition):
    for seed in range(15):
        state = random_state(edition, seed, steps=seed * 13)
        for seat in range(state.num_seats):
            view = state.view_text(seat)
            for sample in range(3):
                other = state.determinized(seat, seed * 100 + sample)
                other_view = other.view_text(seat)
                # the resampled state has no history of its own
                assert other_view.rsplit(" ", 1)[0] == view.rsplit(" ", 1)[0]
                assert engine.parse_position(other.to_text()) == other


def test_parsed_view_gives_the_seats_legal_decisions(edition):
    for seed in range(15):
        state = random_state(edition, seed, steps=seed * 9 + 1)
        if state.is_terminal():
            continue
        view = engine.parse_view(state.view_text(state.to_move))
        assert view.seat == state.to_move
        assert view.legal() == state.legal()
        assert view.text == state.view_text(state.to_move)
        assert engine.parse_view(view.state.view_text(view.seat)).text.rsplit(" ", 1)[0] == view.text.rsplit(" ", 1)[0]


def test_new_game_is_reproducible(edition):
    a = new_game(edition, 123456789)
    b = new_game(edition, 123456789)
    c = new_game(edition, 123456790)
    assert a == b and a != c
    assert a.playout(5) == b.playout(5) and a == b


def test_perft_counts_sequences(edition):
    state = random_state(edition, 2, steps=6)
    assert state.perft(0) == 1
    assert state.perft(1) == len(state.legal())
    total = 0
    for decision in state.legal():
        child = state.copy()
        child.apply(decision)
        total += child.perft(2)
    assert state.perft(3) == total


def test_fast_playout_plays_the_same_games_as_the_generic_loop(edition):
    """Over a short match (two rounds where the edition has rounds: across a round's end)."""
    for seed in range(40):
        fast = new_game(edition, seed, **short_options(edition, rounds=2))
        slow = fast.copy()
        assert fast.playout(seed) == slow.playout(seed, fast=False)
        assert fast == slow


def test_random_decisions_are_legal_and_cover_the_legal_set(edition):
    for seed in range(10):
        state = random_state(edition, seed, steps=seed * 7)
        legal = set(state.legal())
        drawn = {state.random_decision(seed * 1000 + i) for i in range(60 * len(legal))}
        assert drawn == legal


def test_pictures_and_referee_records(edition):
    """Every edition draws its table and records decisions with what they reveal."""
    for seed in range(5):
        state = random_state(edition, seed, steps=seed * 23 + 5)
        picture = state.pretty()
        assert picture.startswith(state.edition) and "\n" in picture
        for seat in range(state.num_seats):
            assert state.pretty(seat).splitlines()[0] == picture.splitlines()[0]
        while not state.is_terminal():
            twin = state.copy()
            decision = state.legal()[seed % len(state.legal())]
            record = twin.record_text(decision)
            assert state.play(decision) == record
            assert record.split(":", 1)[0] == twin.decision_to_text(decision)
            if len(state.history()) > 3:
                break
        # a referee's record replays: its text before ':' is the decision
        assert all(":" not in h or h.split(":", 1)[0] for h in state.history())


COUNTED = [case for case in edition_cases() if engine.get_edition(case).rules.margin]
"""Editions whose match lasts as long as its deals (the card editions, `board`): played for the
scores' margin (`Rules.margin`) until the draw pile runs out, not a race."""
RACES = [case for case in edition_cases() if not engine.get_edition(case).rules.margin]
"""Races (`Rules.margin` 0: `eldorado`): a match ends when a seat wins it, which no count of
cards tells in advance."""


def test_turns_left_follows_only_what_the_seat_sees(edition):
    """`turns_left` is what a bot shares its clock over and the protocol server watches it with,
    both from the seat's view: it is the same from the view, from a resampled state and from the
    full state; at least 1 for the seat whose turn is under way; 0 for every seat once over."""
    for seed in range(12):
        state = random_state(edition, seed, steps=seed * 19, **short_options(edition))
        for seat in range(state.num_seats):
            left = state.turns_left(seat)
            assert engine.parse_view(state.view_text(seat)).state.turns_left(seat) == left
            assert state.determinized(seat, seed).turns_left(seat) == left
        if state.is_terminal():
            assert [state.turns_left(seat) for seat in range(state.num_seats)] == [0] * state.num_seats
        else:
            assert state.turns_left(state.to_move) >= 1
    with pytest.raises(ValueError):
        state.turns_left(state.num_seats)


@pytest.mark.parametrize("edition", COUNTED, ids=[case.id for case in COUNTED])
def test_turns_left_is_exact_when_every_turn_draws_from_the_draw_pile(edition):
    """`turns_left` (what a clock is shared over) counts each seat's plays to the end of the match
    when every turn draws from the draw pile — exactly in a card edition's round, as an upper bound
    in `board`, whose expeditions may end early, and in later rounds, whose starter is not known
    yet — never grows then, and is 0 once the game is over.
    (A draw from a discard pile, or a pass in `partners`, makes a round longer than it said.)
    A race's count is an estimate: test_turns_left_of_a_race_stays_within_its_round_limit."""
    for seed in range(6):
        rounds = 1 + seed % 2
        state = new_game(edition, seed, rounds=rounds)
        rng = random.Random(seed)
        seats = range(state.num_seats)
        before = [state.turns_left(seat) for seat in seats]
        plays = [0] * state.num_seats
        while not state.is_terminal():
            if state.phase == "play":
                plays[state.to_move] += 1
            legal = state.legal_text()
            plain = [d for d in legal if not d.startswith(("D", ">"))]  # no pile draws, no passes (partners)
            state.apply("D" if "D" in legal else rng.choice(plain or legal))
            after = [state.turns_left(seat) for seat in seats]
            assert all(a <= b for a, b in zip(after, before))
            before = after
        assert before == [0] * state.num_seats
        start = [new_game(edition, seed, rounds=rounds).turns_left(seat) for seat in seats]
        if str(edition).startswith("board"):
            assert all(p <= s for p, s in zip(plays, start)) and sum(plays) > 0
        elif rounds == 1:
            assert plays == start
        else:  # who starts a later round is not known yet: its turns are counted up to the next seat's
            assert all(0 <= s - p <= 1 for p, s in zip(plays, start)), (plays, start)
    with pytest.raises(ValueError):
        state.turns_left(state.num_seats)


@pytest.mark.parametrize("edition", RACES, ids=[case.id for case in RACES])
def test_turns_left_of_a_race_stays_within_its_round_limit(edition):
    """A race's `turns_left` is an estimate of when some seat wins (`eldorado`'s: the seat closest
    to its goal at two hexes a turn; it grows when a piece steps away), capped by the round limit.
    In a short match played at random, which no seat wins (it ends at the limit, every seat
    sharing the result), it never says more turns than a seat really still had, counting the one
    under way, and it is at least 1 for the seat to move and 0 for every seat once over."""
    begins = engine.get_edition(edition).turn.begins
    for seed in range(6):
        state = new_game(edition, seed, **short_options(edition))
        rng = random.Random(seed)
        seats = range(state.num_seats)
        said = []  # per position: what turns_left said per seat, the turns each seat had begun, the mover
        begun = [0] * state.num_seats
        while not state.is_terminal():
            if begins(state):
                begun[state.to_move] += 1
            said.append(([state.turns_left(seat) for seat in seats], list(begun), state.to_move))
            assert state.turns_left(state.to_move) >= 1
            state.apply(rng.choice(state.legal()))
        assert len(set(state.returns())) == 1, "a random short race ends at its round limit"
        assert [state.turns_left(seat) for seat in seats] == [0] * state.num_seats
        for left, then, mover in said:
            still = [begun[seat] - then[seat] + (seat == mover) for seat in seats]
            assert all(0 < l <= s or l == s == 0 for l, s in zip(left, still)), (left, still)
    with pytest.raises(ValueError):
        state.turns_left(state.num_seats)


@pytest.mark.parametrize("edition", ["classic", "partners", "expedition", "board"])
def test_what_an_own_draw_shows_reads_back(edition):
    """`parse_revealed` inverts `revealed_text` for the cards an own draw from the pile shows, as
    the record and the seat's history write them (`D:g4`), and refuses other text."""
    state = new_game(edition, 3, rounds=1)
    rng = random.Random(3)
    shown = 0
    while not state.is_terminal() and shown < 12:
        seat = state.to_move
        decision = rng.choice(state.legal())
        record = state.record_text(decision)
        state.apply(decision)
        if ":" in record and not state.is_terminal():
            card = record.split(":", 1)[1]
            assert state.revealed_text(state.parse_revealed(card)) == card
            assert state.history(seat)[-1] == record
            shown += 1
    assert shown > 0
    for bad in ("", "zz", "g", "g44"):
        with pytest.raises(NotationError):
            state.parse_revealed(bad)
