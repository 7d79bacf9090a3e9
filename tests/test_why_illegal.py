"""`State.why_illegal`: the engine says which rule an illegal decision breaks (what `expeditions
play` tells a person who types one); a legal decision has no reason."""
from __future__ import annotations

import random

import pytest

import engine
from helpers import edition_cases


@pytest.mark.parametrize("case", edition_cases(), ids=lambda c: c.id)
def test_every_illegal_decision_has_a_reason_and_no_legal_one_has(case) -> None:
    rng = random.Random(5)
    state = engine.new_game(case, seed=5, players=case.players)
    seen: set[str] = set()
    for _ in range(120):
        if state.is_terminal():
            break
        legal = state.legal_text()
        seen.update(legal)
        assert all(state.why_illegal(d) == "" for d in legal)
        for text in sorted(seen - set(legal))[:40]:
            try:
                reason = state.why_illegal(text)
            except engine.NotationError as err:  # a text that names nothing here (a hex that is no neighbour)
                reason = str(err)
            assert reason and "\n" not in reason, text
        state.apply(rng.choice(legal))
    assert engine.new_game(case, seed=5, players=case.players).why_illegal(10**6) != ""


def classic_after(*decisions: str) -> engine.State:
    state = engine.new_game("classic", seed=1)
    for d in decisions:
        state.apply(d)
    return state


@pytest.mark.parametrize("decisions, tried, reason", [
    ((), "+y4", "you do not hold y4"),
    ((), "D", "you play or discard a card first, then draw"),
    (("-b7",), "Db", "you discarded onto that pile this turn"),
    (("-b7",), "Dy", "that discard pile is empty"),
    (("-b7",), "+b8", "you have played or discarded this turn: now you draw"),
    (("+b8", "D", "+y4"), "+b7", None),  # filled in below: lower than the expedition's card
])
def test_classic_reasons(decisions, tried, reason) -> None:
    state = engine.new_game("classic", seed=1)
    if reason is None:  # seat 0 plays b8, then its b7 is too low
        state.apply("+b8")
        state.apply("D")
        state.apply(state.legal_text()[0])
        state.apply("D")
        assert state.why_illegal("+b7") == "b7 is not higher than the highest card of your expedition of its colour"
        assert state.why_illegal("+bW") == "a wager goes only on an expedition of its colour with no number card yet (bW)"
        return
    for d in decisions:
        state.apply(d)
    assert state.why_illegal(tried) == reason


def test_a_text_that_is_no_decision_is_a_notation_error() -> None:
    with pytest.raises(engine.NotationError):
        engine.new_game("classic", seed=1).why_illegal("+zz")


def test_the_match_over() -> None:
    state = engine.new_game("classic", seed=1, rounds=1)
    while not state.is_terminal():
        state.apply(state.legal()[0])
    assert state.why_illegal("D") == "the match is over"
