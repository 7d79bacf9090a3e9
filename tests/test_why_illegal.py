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


# ----- board and eldorado: a reason exactly for the illegal decisions -----------------------------

FAMILY_CASES = [("board", {"players": 2}), ("board", {"players": 3, "updown": 1}), ("board", {"players": 4}),
                ("eldorado", {"players": 2, "caves": 1}),
                ("eldorado", {"players": 3, "caves": 1, "route": "witchs-cauldron"}),
                ("eldorado", {"players": 4, "route": "hills-of-gold"})]


def played_positions(edition: str, options: dict, seed: int, steps: int):
    """The positions of a game played by the edition's heuristic with a third of its decisions at
    random (random play alone seldom reaches a blockade or the lost city)."""
    heuristic = engine.get_edition(edition).heuristic.value
    state = engine.new_game(edition, seed=seed, **options)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            return
        yield state
        state.apply(heuristic.decide(state, rng, epsilon=0.3))


def reasons_of(state: engine.State) -> dict[int, str]:
    """The family's reason for every decision id of the edition (empty: no rule broken)."""
    return {d: state._why_illegal(d) for d in range(engine.get_edition(state.edition).rules.num_decision_ids)}


@pytest.mark.parametrize("edition, options", FAMILY_CASES, ids=lambda c: c if isinstance(c, str) else
                         ",".join(f"{k}={v}" for k, v in c.items()))
def test_the_rule_named_agrees_with_the_engine(edition, options) -> None:
    """Over whole games, every decision id gets a reason exactly when the engine finds it illegal,
    and `why_illegal` of its text gives that reason (when the text names it: a move across a
    blockade is named through the first direction)."""
    positions = 0
    for state in played_positions(edition, options, seed=11, steps=300):
        positions += 1
        legal = set(state.legal())
        for d, reason in reasons_of(state).items():
            assert (reason == "") == (d in legal), (state.to_text(), state.decision_to_text(d), reason)
            assert "\n" not in reason
            try:
                same = state.parse_decision(state.decision_to_text(d)) == d
            except engine.NotationError:  # a move off the map, onto no neighbour: the parser says why
                same = False
            if same:
                assert state.why_illegal(state.decision_to_text(d)) == reason
    assert positions >= 100


# Every reason a family gives, as a pattern; each must occur in the games played below (the rare ones
# are built by hand further down).
BOARD_REASONS = [
    r"you do not hold [ybwgr]\w", r"\w\w is lower than \w\w, the last card of your \w+ column$",
    r"is lower than .*, which ascends", r"is higher than .*, which descends",
    r"you have begun the \w+ path already: \+\w\w plays onto its column", r"your researcher is on the \w+ path already",
    r"you discarded onto the \w+ pile this turn", r"the \w+ discard pile is empty",
    r"you have no piece on the \w+ path", r"is on the lost city \(stone 9\) and moves no further",
    r"an optional step is pending", r"no optional step is pending", r"you play or discard a card first, then draw",
    r"you have played or discarded this turn: now you draw",
]
ELDORADO_REASONS = [
    r"you do not hold [A-Z][a-z]$", r"you do not hold the token \w\w$", r"you have one piece, a",
    r"your piece [ab] is on El Dorado already", r"no hex lies in direction \d of hex \d+",
    r"blockade B\d is taken through the first direction across its border", r"hex \d+ is a mountain: no piece enters it",
    r"hex \d+ is a cave", r"hex \d+ is a start space", r"hex \d+ is occupied by your piece [ab]",
    r"hex \d+ is occupied by seat \d's piece", r"hex \d+ takes machete power \d, and \w\w gives paddle power \d",
    r"hex \d+ takes (\w+) power \d, and \w\w gives \1 power \d",
    r"blockade B\d takes \w+ power \d, and \w\w gives", r"hex \d+ is rubble of power \d: it takes \d cards",
    r"hex \d+ is a base camp of power \d: it takes \d cards", r"is rubble of power \d, paid with cards, and the token",
    r"\w\w is an action card: it has no power to move with", r"no piece is moving", r"the moving piece has no power left",
    r"the moving piece's leftover gives", r"a step never enters rubble or a base camp",
    r"you still owe \d cards? for rubble", r"you still owe \d cards? for the base camp",
    r"cards are paid in card order", r"the payment is made in card order and \d still owed",
    r"you owe no payment", r"coins are played in card order", r"you have bought this turn: coins buy nothing more",
    r"you have bought this turn \(one purchase a turn\)", r"\w\w costs \d coins?, and you have played \d",
    r"the \w\w pile is empty", r"lies beside the market board, and the board has no empty slot",
    r"no replacement is under way", r"a replacement is under way", r"cards are replaced in card order",
    r"you have no removal right", r"cards are removed in card order", r"your hand is empty: there is no card to",
    r"you have begun discarding", r"cards are discarded in card order",
]


@pytest.mark.parametrize("edition, patterns", [("board", BOARD_REASONS), ("eldorado", ELDORADO_REASONS)])
def test_each_reason_occurs(edition, patterns) -> None:
    import re

    seen: set[str] = set()
    for _, options in [case for case in FAMILY_CASES if case[0] == edition]:
        for seed in (3, 4):
            for state in played_positions(edition, options, seed, steps=400):
                seen.update(reasons_of(state).values())
    missing = [p for p in patterns if not any(re.search(p, reason) for reason in seen)]
    assert not missing


def board_until(choose, players: int = 2, seed: int = 2, turns: int = 80) -> engine.State:
    """A board game where seat 0 plays `choose(state)` (a text, or None for the first legal decision)
    and the other seats discard and draw, until `choose` returns ``"stop"``."""
    state = engine.new_game("board", seed=seed, players=players)
    for _ in range(turns * players * 3):
        text = choose(state) if state.to_move == 0 else None
        if text == "stop":
            return state
        legal = state.legal_text()
        state.apply(text or ([d for d in legal if d.startswith("-")] or legal)[0])
    raise AssertionError("the position was not reached")


def test_board_a_fifth_path_needs_the_researcher() -> None:
    """Seat 0 begins four paths with its adventurers; a card of the fifth colour then can only go
    on a new path with the researcher."""
    def choose(state):
        begun = state.pieces(0)
        if state.phase != "play":
            return None
        fresh = [d for d in state.legal_text() if d.startswith("+") and not d.endswith("R") and d[1] not in begun]
        if len(begun) == 4:
            return "stop" if any(c[0] not in begun for c in state.hand(0)) else None
        return fresh[0] if fresh else None

    state = board_until(choose)
    card = next(c for c in state.hand(0) if c[0] not in state.pieces(0))
    assert state.why_illegal("+" + card) == (f"your 4 adventurers are on paths already: only your researcher "
                                             f"can begin one (+{card}R)")
    assert state.is_legal(state.parse_decision(f"+{card}R"))


def test_board_reasons_by_hand() -> None:
    state = engine.new_game("board", seed=1, players=2)
    assert state.why_illegal("+y0") == "you do not hold y0"
    assert state.why_illegal("D") == "you play or discard a card first, then draw"
    assert state.why_illegal(">y") == "no optional step is pending (an arrow tile or an advance from the lost city gives one)"
    state.apply("+b8R")
    state.apply("D")
    state.apply(state.legal_text()[-1])
    state.apply("D")
    assert state.why_illegal("+y1R") == "your researcher is on the blue path already"
    assert state.why_illegal("+b8R") in ("you do not hold b8", "you have begun the blue path already: +b8 plays onto its column")


def eldorado_edited(state: engine.State, **fields: str) -> engine.State:
    """The position of `state` with some fields of its text replaced (a hand-built position)."""
    words = state.to_text().split()
    for i, word in enumerate(words):
        name = word.partition("=")[0]
        if name in fields:
            words[i] = f"{name}={fields[name]}"
    return engine.get_edition("eldorado").from_text(" ".join(words))


def test_eldorado_reasons_by_hand() -> None:
    state = engine.new_game("eldorado", seed=1, players=2)
    assert state.why_illegal("*Sc") == "Sc costs 1 coin, and you have played 0"
    assert state.why_illegal("Tm*Pi") == "you do not hold Tm"
    assert state.why_illegal("~.") == "no replacement is under way (the token rh starts one: rh!)"
    state.apply("$Tv")
    assert state.why_illegal("$Ex") == "coins are played in card order (tokens last): Ex comes before Tv"
    state.apply("*Sc")
    assert state.why_illegal("*Sc") == "you have bought this turn (one purchase a turn)"
    assert state.why_illegal("$Sa") == "you have bought this turn: coins buy nothing more"
    state.apply("-Ex")
    assert state.why_illegal("$Sa") == "you have begun discarding: discard more (-X) or end the turn (.)"
    with_flag = eldorado_edited(engine.new_game("eldorado", seed=1, players=2), flags="k")
    assert with_flag.why_illegal("ki!") == "you do not hold the token ki"
    rich = eldorado_edited(engine.new_game("eldorado", seed=1, players=2), coins="10")
    assert rich.why_illegal("$Tv") == "no card you could buy costs more than the 5 coins played"
