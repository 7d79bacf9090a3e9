"""Rules of RULES.md sections 1-3 checked on the compiled engine in hand-built positions."""
from __future__ import annotations

import engine
from helpers import random_state


def _field(state: engine.State, name: str) -> str:
    return next(t for t in state.to_text().split() if t.startswith(name + "=")).split("=", 1)[1]


def _start(edition: str, seed: int, **options) -> engine.State:
    return engine.new_game(edition, seed=seed, **options)


def test_wagers_only_before_numbers_and_numbers_strictly_increase():
    for seed in range(200):
        state = random_state("classic", seed, steps=80)
        if state.is_terminal() or state.phase != "play":
            continue
        me = state.to_move
        row = _field(state, "rows").split("/")[me]
        plays = {d[1:] for d in state.legal_text() if d.startswith("+")}
        for colour in "ybwgr":
            numbers = [row[i:i + 2] for i in range(0, len(row), 2) if row[i] == colour and row[i + 1] != "W"]
            top = max(("23456789T".index(card[1]) for card in numbers), default=-1)
            for card in plays:
                if card[0] != colour:
                    continue
                if card[1] == "W":
                    assert not numbers, f"wager after a number: {state.to_text()}"
                else:
                    assert "23456789T".index(card[1]) > top


def test_no_draw_from_the_pile_just_discarded_to():
    state = _start("classic", 3)
    card = state.legal_text()[-1][1:]          # a discard
    state.apply("-" + card)
    assert "D" + card[0] not in state.legal_text()
    assert state.legal_text() == ["D"]
    single = _start("expedition", 3)
    single.apply(next(d for d in single.legal_text() if d.startswith("-")))
    assert single.legal_text() == ["D"]         # the only pile's top is the card just discarded


def test_round_ends_when_the_last_card_is_drawn_and_next_starter_leads():
    state = _start("classic", 8, rounds=2)
    while state.round == 1:
        state.apply("D" if "D" in state.legal_text() else state.legal()[0])
    totals = state.totals()
    # the higher total starts; on a tie the player who did not start round 1 (seat 0)
    leader = 0 if totals[0] > totals[1] else 1
    assert state.to_move == leader and _field(state, "starter") == str(leader)
    assert state.turn == 0 and len(_field(state, "deck")) == 2 * 44


def test_max_turns_ends_the_round():
    state = _start("classic", 5, rounds=1, max_turns=6)
    for _ in range(6):
        state.apply(next(d for d in state.legal_text() if d.startswith("-")))
        state.apply(state.legal_text()[-1])  # a pile when there is one
    assert state.is_terminal() and state.turn == 6


def test_partners_pass_is_a_whole_turn_and_needs_eight_cards():
    state = _start("partners", 4)
    passes = [d for d in state.legal_text() if d.startswith(">")]
    assert passes, "8 cards: passing two is allowed"
    state.apply(passes[0])
    assert state.to_move == 1 and state.phase == "play" and state.turn == 1
    hands = _field(state, "hands").split("/")
    assert len(hands[0]) == 12 and len(hands[2]) == 20
    # seat 0 now holds 6: it may not pass again on its next turn
    for _ in range(3):
        d = state.legal_text()
        state.apply(next((x for x in d if x.startswith("+") or x.startswith("-")), d[0]))
        state.apply(state.legal_text()[0])
    assert state.to_move == 0
    assert not any(d.startswith(">") for d in state.legal_text())


def test_partners_next_round_starter():
    state = _start("partners", 6, rounds=2, max_turns=8)
    while state.round == 1:
        state.apply(state.legal()[0])
    a, b = state.totals()
    starter = int(_field(state, "starter"))
    if a == b:
        assert starter == 1                      # right after the previous starter (seat 0)
    else:
        lead = 0 if a > b else 1
        assert starter % 2 == lead and starter == next(s for s in (1, 2, 3, 0) if s % 2 == lead)
