"""Bad input gets one clear error naming the token and what was expected; nothing changes."""
from __future__ import annotations

import pytest

import engine
from engine.errors import IllegalDecisionError, NotationError, OptionError, UnknownEditionError

GOOD = engine.new_game("classic", seed=11).to_text()


def _replace(field: str, value: str, text: str = GOOD) -> str:
    tokens = text.split()
    for i, token in enumerate(tokens):
        if token.startswith(field + "="):
            tokens[i] = f"{field}={value}"
            return " ".join(tokens)
    raise AssertionError(field)


@pytest.mark.parametrize("text, fragment", [
    ("", "empty"),
    ("chess", "unknown edition"),
    (GOOD.replace("rounds=3", "rounds=0").replace("round=1/3", "round=1/0"), "option rounds"),
    (GOOD.replace("max_turns=300", "max_turns=x"), "option max_turns"),
    (_replace("round", "4/3"), "round"),
    (_replace("round", "1/2"), "rounds option"),
    (_replace("starter", "2"), "starter"),
    (_replace("phase", "bid"), "phase"),
    (_replace("to_move", "-"), "to_move"),
    (_replace("nodraw", "b"), "nodraw"),
    (_replace("totals", "0"), "totals"),
    (_replace("hands", "bW"), "hands"),
    (_replace("rows", "zz/-"), "unknown card"),
    (_replace("piles", "-/-/-/-"), "piles"),
    (_replace("deck", "b"), "two characters"),
    (_replace("known", "yT/-"), "known"),
    (_replace("rng", "xyz"), "rng"),
    (GOOD + " extra", "extra text"),
    (GOOD.replace(" rng=", " bogus=1 rng="), "rng="),
    (" ".join(t for t in GOOD.split() if not t.startswith("deck=")), "deck="),
])
def test_malformed_positions_name_the_problem(text, fragment):
    with pytest.raises(NotationError) as err:
        engine.parse_position(text)
    assert fragment in str(err.value)


def _field(name: str, text: str = GOOD) -> str:
    return next(t for t in text.split() if t.startswith(name + "=")).split("=", 1)[1]


def test_card_conservation_is_checked():
    deck = _field("deck")
    with pytest.raises(NotationError) as err:   # a card missing from the deck is nowhere
        engine.parse_position(_replace("deck", deck[2:]))
    assert deck[:2] in str(err.value) and "exactly once" in str(err.value)


def test_sets_must_be_canonical():
    first, second = _field("hands").split("/")
    swapped = first[2:4] + first[0:2] + first[4:]
    with pytest.raises(NotationError) as err:
        engine.parse_position(_replace("hands", f"{swapped}/{second}"))
    assert "canonical order" in str(err.value)


@pytest.mark.parametrize("text", ["", "X", "+", "+zz", "-b1", "Dq", ">b2b3", "D ", "+b7 ", "bW"])
def test_malformed_decisions(text):
    state = engine.new_game("classic", seed=1)
    before = state.to_text()
    with pytest.raises(NotationError) as err:
        state.parse_decision(text)
    assert "expected" in str(err.value)
    with pytest.raises(NotationError):
        state.apply(text)
    assert state.to_text() == before


def test_illegal_decision_lists_the_legal_ones():
    state = engine.new_game("classic", seed=1)
    with pytest.raises(IllegalDecisionError) as err:
        state.apply("D")
    assert "legal:" in str(err.value) and "+" in str(err.value)


def test_applying_after_the_end_is_an_error():
    state = engine.new_game("expedition", seed=1, rounds=1)
    state.playout(1)
    with pytest.raises(IllegalDecisionError) as err:
        state.apply("D")
    assert "over" in str(err.value)


def test_unknown_edition_and_options():
    with pytest.raises(UnknownEditionError) as err:
        engine.new_game("chess")
    assert "classic" in str(err.value)
    with pytest.raises(OptionError) as err:
        engine.new_game("classic", cost=20)
    assert "cost" in str(err.value) and "options:" in str(err.value)
    with pytest.raises(OptionError) as err:
        engine.new_game("classic", rounds=100)
    assert "1..99" in str(err.value)
    with pytest.raises(OptionError):
        engine.new_game("classic", seed=-1)
    with pytest.raises(OptionError):
        engine.new_game("classic", players=3)


@pytest.mark.parametrize("mutate, fragment", [
    (lambda v: v.replace("seat=1", "seat=5"), "seat"),
    (lambda v: v.replace("deck=44", "deck=43"), "hides"),
    (lambda v: v.replace("history=-", "history"), "history"),
    (lambda v: v.replace(" history=-", ""), "history"),
    (lambda v: v.replace("?8", "?x"), "unknown cards"),
])
def test_malformed_views(mutate, fragment):
    view = engine.new_game("classic", seed=3).view_text(1)
    with pytest.raises(NotationError) as err:
        engine.parse_view(mutate(view))
    assert fragment in str(err.value)


def test_view_of_own_hand_cannot_hide_cards():
    view = engine.new_game("classic", seed=3).view_text(0)
    hands = next(t for t in view.split() if t.startswith("hands="))
    with pytest.raises(NotationError):
        engine.parse_view(view.replace(hands, "hands=?8/?8"))


def test_empty_list_entries_are_not_sets():
    with pytest.raises(NotationError) as err:
        engine.parse_position(_replace("piles", "-//-/-/-"))
    assert "empty entry" in str(err.value)
