"""The compiled engine against the independent pure-Python reference model.

Both deal the same game from a seed; at every step they must agree on the legal decisions (as
text, in order), every few steps and at every new round on the full position text, regularly on
every seat's view, and at the end on scores and results. Several random policies drive the games so that both endings (the last card
drawn, max_turns) and every kind of decision are exercised.

The default run plays GAMES games per edition; `pytest -m slow` plays ten times as many.
"""
from __future__ import annotations

import random

import pytest

import engine
from engine import reference
from helpers import CARD_EDITIONS

GAMES = 1000
TEXT_EVERY = 7   # full position compared every this many steps (and at each new round)
VIEW_EVERY = 41


def _policy(kind: str, rng: random.Random):
    def choose(legal: list[str]) -> str:
        if kind == "deck" and "D" in legal and rng.random() < 0.7:
            return "D"  # rounds that end by the last card drawn
        if kind == "play":
            plays = [d for d in legal if d.startswith("+")]
            if plays and rng.random() < 0.6:
                return rng.choice(plays)  # long expeditions: the 8-card bonus, high scores
        if kind != "uniform" and rng.random() < 0.9:
            # partners: passes outnumber plays; keep some games where they are rare
            legal = [d for d in legal if not d.startswith(">")] or legal
        return rng.choice(legal)
    return choose


def _options(edition: str, rng: random.Random) -> dict[str, int]:
    options = {"rounds": rng.choice((1, 1, 1, 2)), "max_turns": rng.choice((300, 300, 80, 9))}
    if edition == "expedition":
        options["cost"] = rng.choice((0, 0, 20, 7))
    return options


def play_both(edition: str, seed: int) -> int:
    rng = random.Random(seed)
    options = _options(edition, rng)
    choose = _policy(rng.choice(("uniform", "deck", "play")), rng)
    fast = engine.new_game(edition, seed=seed, **options)
    slow = reference.new(edition, seed, **options)
    step = 0
    round_seen = 0
    while True:
        if step % TEXT_EVERY == 0 or fast.round != round_seen:
            round_seen = fast.round
            assert fast.to_text() == slow.to_text(), f"{edition} seed {seed} step {step}"
        if step % VIEW_EVERY == 0:
            for seat in range(fast.num_seats):
                assert fast.view_text(seat) == slow.view_text(seat), f"{edition} seed {seed} step {step} seat {seat}"
        legal = fast.legal_text()
        assert legal == slow.legal(), f"{edition} seed {seed} step {step}"
        if not legal:
            break
        decision = choose(legal)
        fast.apply(decision)
        slow.apply(decision)
        step += 1
    assert slow.is_over() and fast.is_terminal()
    assert fast.to_text() == slow.to_text()
    assert fast.scores() == slow.seat_scores()
    assert fast.returns() == slow.result()
    assert fast.totals() == slow.totals()
    return step


@pytest.mark.parametrize("edition", CARD_EDITIONS)
def test_engine_matches_reference(edition):
    for seed in range(GAMES):
        play_both(edition, seed)


@pytest.mark.slow
@pytest.mark.parametrize("edition", CARD_EDITIONS)
def test_engine_matches_reference_long(edition):
    for seed in range(GAMES, 10 * GAMES):
        play_both(edition, seed)


@pytest.mark.parametrize("edition", CARD_EDITIONS)
def test_first_deals_match(edition):
    for seed in list(range(2000)) + [2**64 - 1, 2**63, 0xDEADBEEF]:
        assert engine.new_game(edition, seed=seed).to_text() == reference.new(edition, seed).to_text()


@pytest.mark.parametrize("edition", CARD_EDITIONS)
def test_views_parse_alike(edition):
    """A view parsed by the engine yields a position whose view text is the same."""
    for seed in range(200):
        state = engine.new_game(edition, seed=seed, rounds=1)
        state.playout(seed)  # to the end, then a fresh mid-game position:
        state = engine.new_game(edition, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(200)):
            state.apply(rng.choice(state.legal()))
        for seat in range(state.num_seats):
            text = state.view_text(seat)
            view = engine.parse_view(text)
            assert view.state.view_text(seat).rsplit(" ", 1)[0] == text.rsplit(" ", 1)[0]
            game = reference.from_text(view.state.to_text())
            assert game.view_text(seat).rsplit(" ", 1)[0] == text.rsplit(" ", 1)[0]


@pytest.mark.parametrize("edition", CARD_EDITIONS)
def test_views_in_other_forms_read_alike(edition):
    """The one parser reads a view with other whitespace between its tokens, and with its rule
    options in another order or left out at their defaults, as the view it is."""
    defaults = {spec.name: spec.default for spec in engine.get_edition(edition).options}
    for seed in range(150):
        state = engine.new_game(edition, seed=seed, rounds=2, max_turns=rng_turns(seed))
        rng = random.Random(seed)
        for _ in range(rng.randrange(400)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal()))
        for seat in range(state.num_seats):
            text = state.view_text(seat)
            view = engine.parse_view(text)
            tokens = text.split()
            options = [t for t in tokens[1:] if t.partition("=")[0] in defaults]
            kept = [t for t in reversed(options) if int(t.partition("=")[2]) != defaults[t.partition("=")[0]]]
            other = "\t " + "  \n".join(tokens[:1] + kept + tokens[1 + len(options):]) + " \r\n"
            again = engine.parse_view(other)
            assert (again.state, again.seat, again.history) == (view.state, view.seat, view.history), other


def rng_turns(seed: int) -> int:
    """max_turns of a test match: the default, or short rounds (so that a view shows it)."""
    return (300, 300, 40)[seed % 3]


@pytest.mark.parametrize("edition", CARD_EDITIONS)
def test_texts_agree_with_the_reference_model(edition):
    """The engine's one writer and the reference model's own write the same position and the same
    view of every seat, at every step of whole matches (the views' history of a round included)."""
    for seed in range(40):
        rng = random.Random(seed)
        state = engine.new_game(edition, seed=seed, rounds=2, max_turns=rng_turns(seed))
        model = reference.new(edition, seed, rounds=2, max_turns=rng_turns(seed))
        while True:
            assert state.to_text() == model.to_text(), f"{edition} seed {seed}"
            for seat in range(state.num_seats):
                assert state.view_text(seat) == model.view_text(seat), f"{edition} seed {seed} seat {seat}"
            if state.is_terminal():
                break
            decision = rng.choice(state.legal_text())
            state.apply(decision)
            model.apply(decision)
