"""The greedy bot and the compiled heuristic it shares with the searcher (bots/cards/heuristic.pyx)."""
from __future__ import annotations

import random

import pytest

import engine
from bots.greedy import GreedyPolicy
from arena.duplicate import run_duplicate
from bots.heuristics import EDITIONS, greedy_decision, heuristic_playouts
from bots.cards.heuristic import check_params, decision_scores, default_params
from arena.match import play_match
from bots.random import RandomPolicy
from bots.registry import make_policy
from helpers import CARD_EDITIONS, heuristic_scores, short_options

# ----- helpers ------------------------------------------------------------------------------------

_COLOURS = {"classic": "ybwgr", "expedition": "cdhs"}
_RANKS = {"classic": "W23456789T", "expedition": "MA23456789T"}


def _cards(text: str) -> list[str]:
    return [] if text in ("", "-") else [text[i:i + 2] for i in range(0, len(text), 2)]


def position(hands: tuple[str, str], rows: tuple[str, str] = ("-", "-"), piles: dict | None = None,
             deck: int | None = None, to_move: int = 0, phase: str = "play", edition: str = "classic",
             known: tuple[str, str] = ("-", "-"), options: str = "") -> engine.State:
    """A hand-built 2-player position: the cards not placed go to the draw pile (all of them, or
    the first `deck` in canonical order and the others under the discard pile of their colour)."""
    colours, ranks = _COLOURS[edition], _RANKS[edition]
    full = [c + r for c in colours for r in ranks for _ in range(3 if r in "WM" else 1)]

    def canonical(text: str) -> str:  # sets are written in canonical order
        return "".join(sorted(_cards(text), key=full.index)) or "-"
    hands, rows, known = (tuple(canonical(part) for part in group) for group in (hands, rows, known))
    piles = dict(piles or {})
    used = [card for part in (*hands, *rows, *piles.values()) for card in _cards(part)]
    rest = list(full)
    for card in used:
        rest.remove(card)
    deck = len(rest) if deck is None else deck
    stack, extra = rest[:deck], rest[deck:]
    npiles = 1 if edition == "expedition" else len(colours)
    pile_text = []
    for k in range(npiles):
        key = "-" if npiles == 1 else colours[k]
        under = [c for c in extra if npiles == 1 or c[0] == colours[k]]
        pile_text.append("".join(under + _cards(piles.get(key, ""))) or "-")
    opts = options or ("rounds=1 max_turns=300" + (" cost=0" if edition == "expedition" else ""))
    text = (f"{edition} {opts} round=1/1 starter=0 turn=40 phase={phase} to_move={to_move} "
            f"nodraw=. totals=0/0 hands={hands[0]}/{hands[1]} rows={rows[0]}/{rows[1]} "
            f"piles={'/'.join(pile_text)} deck={''.join(stack)} known={known[0]}/{known[1]} "
            f"rng=0000000000000001")
    return engine.parse_position(text)


def best(state: engine.State, seed: int = 1) -> str:
    return state.decision_to_text(greedy_decision(state, seed))


def states_along_games(edition: str, games: int, epsilon: float = 0.3, seed: int = 0):
    """Positions of epsilon-greedy games (random enough to reach odd corners, greedy enough to
    reach the long, sensible positions), each a short match: two rounds where the edition has
    rounds (across a round's end), else its quick match."""
    rng = random.Random(seed)
    for game in range(games):
        state = engine.new_game(edition, seed=seed + game, **short_options(edition, rounds=2))
        while not state.is_terminal():
            yield state
            state.apply(greedy_decision(state, rng) if rng.random() > epsilon else rng.choice(state.legal()))

# ----- legality and information -------------------------------------------------------------------


@pytest.mark.parametrize("edition", CARD_EDITIONS)
def test_decisions_are_legal(edition):
    checked = 0
    for state in states_along_games(edition, games=12, seed=100):
        legal = state.legal()
        for seed in (1, 2):
            assert greedy_decision(state, seed) in legal
        assert greedy_decision(state, 3, epsilon=0.5) in legal
        checked += 1
    assert checked > 1000


@pytest.mark.parametrize("edition", CARD_EDITIONS)
def test_the_decision_is_a_best_scored_one_of_the_whole_list(edition):
    """The decision leaves out the passes of a heuristic that never passes (partners, for speed):
    it is still one of the best-scored decisions of the whole legal list, passes included."""
    checked = 0
    for state in states_along_games(edition, games=4, seed=300):
        scored = decision_scores(state)
        if len(scored) < 2:
            continue
        assert len(scored) == len(state.legal())
        best = max(score for _, score in scored)
        tops = {text for text, score in scored if score >= best - 1e-9}
        for seed in (1, 2, 3):
            assert state.decision_to_text(greedy_decision(state, seed)) in tops
        checked += 1
    assert checked > 300


def test_partners_passing_variant_is_legal():
    """The optional pass rule (not the default: measured no better, docs/bots.md) passes legally."""
    passes = 0
    for state in states_along_games("partners", games=6, seed=7):
        if state.phase != "play":
            continue
        scored = decision_scores(state, {"pass_mode": 1, "pass_thresh": 0.0})
        top = scored[0][0]
        assert state.parse_decision(top) in state.legal()
        passes += top.startswith(">")
    assert passes > 0


@pytest.mark.parametrize("edition", CARD_EDITIONS)
def test_decision_depends_only_on_the_view(edition):
    """The same decision for the true state, the view's canonical filling and any determinization."""
    rng = random.Random(5)
    compared = 0
    for n, state in enumerate(states_along_games(edition, games=6, seed=30)):
        if n % 5:
            continue
        seat = state.to_move
        view = state.view(seat)
        for seed in (11, 12):
            expected = greedy_decision(state, seed)
            assert greedy_decision(view.state, seed) == expected
            for _ in range(3):
                sample = view.state.determinized(seat, rng.getrandbits(64))
                assert greedy_decision(sample, seed) == expected
        compared += 1
    assert compared > 100


def test_policy_decides_from_views():
    policy = make_policy("greedy", seed=3)
    assert isinstance(policy, GreedyPolicy) and policy.name == "greedy"
    for edition in CARD_EDITIONS:
        state = engine.new_game(edition, seed=8)
        for _ in range(60):
            view = state.view(state.to_move)
            decision = policy.choose(view, None)
            assert decision in state.legal()
            state.apply(decision)
    with pytest.raises(ValueError):
        state = engine.new_game("classic", seed=1)
        policy.choose(state.view(1), None)


def test_policy_options():
    policy = GreedyPolicy()
    policy.set_option("Epsilon", "100")
    policy.set_option("Seed", "9")
    state = engine.new_game("classic", seed=2)
    assert policy.choose(state.view(0), None) in state.legal()
    with pytest.raises(ValueError):
        policy.set_option("Epsilon", "101")


def test_python_face_rejects_bad_input():
    state = engine.new_game("classic", seed=1)
    with pytest.raises(TypeError):
        greedy_decision(state, "seed")
    with pytest.raises(ValueError):
        greedy_decision(state, 1, epsilon=2.0)
    with pytest.raises(KeyError):
        check_params("classic", {"no_such_weight": 1})
    # every heuristic is tested: board in tests/test_board_greedy.py, eldorado in tests/test_eldorado_greedy.py
    assert set(EDITIONS) == set(CARD_EDITIONS) | {"board", "eldorado"}
    assert default_params("partners")["pass_mode"] == 0

# ----- sensible choices in hand-built positions ---------------------------------------------------


def test_plays_the_next_card_of_its_open_expedition():
    state = position(hands=("y6y7y8b2b3w2g2r2", "bTwTgTrTb9w9g9r9"), rows=("y4y5", "-"))
    assert best(state) == "+y6"


def test_does_not_feed_the_opponents_open_expedition():
    # Red 9 fits the opponent's red expedition; blue 2 is dead for both (both blue rows are past it).
    state = position(hands=("r9b2y2y3w2w3g2g3", "bTwTgTyTb9w9g9y9"),
                     rows=("b5b6", "r5r6b7"), piles={"y": "y4", "w": "w4", "g": "g4"})
    scores = dict(decision_scores(state))
    assert scores["-b2"] > scores["-r9"]
    assert best(state) != "-r9"
    for seed in range(10):
        assert greedy_decision(state, seed) != state.parse_decision("-r9")


def test_draws_a_discard_that_fits():
    state = position(hands=("g6g7y2y3w2w3b2", "bTwTgTyTb9w9y9r9"), rows=("g3g4", "-"),
                     piles={"g": "g5"}, phase="draw")
    assert best(state) == "Dg"


def test_leaves_a_discard_that_does_not_fit():
    state = position(hands=("g6g7y2y3w2w3b2", "bTwTgTyTb9w9y9r9"), rows=("g3g4g8", "-"),
                     piles={"g": "g5"}, phase="draw")
    assert best(state) == "D"


def test_no_hopeless_wager_late_in_the_round():
    state = position(hands=("bWb7b8y2y3w2w3g2", "yTwTgTrTy9w9g9r9"), deck=3)
    choice = best(state)
    assert choice not in ("+bW", "+b7", "+b8")
    assert dict(decision_scores(state))["+bW"] < 0


def test_wagers_first_on_a_strong_expedition_early():
    state = position(hands=("bWb5b6b7b8b9y2w2", "yTwTgTrTy9w9g9r9"), deck=40)
    assert best(state) == "+bW"


def test_cost_zero_opens_freely():
    # expedition, cost 0: every expedition scores >= 0, so even late a lone card is worth playing;
    # with the cost option at 20 the same cards are not worth opening.
    hands = ("c2d3h4s5c7d7h7", "cTdThTsTc9d9h9")
    state = position(hands=hands, edition="expedition", deck=6)
    assert best(state).startswith("+")
    costly = position(hands=hands, edition="expedition", deck=6, options="rounds=1 max_turns=300 cost=20")
    assert best(costly).startswith("-")


def test_takes_the_last_card_when_ahead_and_stalls_when_behind():
    ahead = position(hands=("y2y3w2w3b2g2r2", "bTwTyTrTb9w9y9r9"), rows=("g5g6g7g8g9gT", "-"),
                     piles={"r": "r3"}, deck=1, phase="draw")
    assert best(ahead) == "D"
    behind = position(hands=("y2y3w2w3b2g2r2", "bTwTyTrTb9w9y9r9"), rows=("-", "g5g6g7g8g9gT"),
                      piles={"r": "r3"}, deck=1, phase="draw")
    assert best(behind) in ("Dy", "Db", "Dw", "Dg", "Dr")  # any discard pile, not the last card

def test_heuristic_playouts_leave_the_template_unchanged():
    state = engine.new_game("classic", seed=2, rounds=1)
    before = state.to_text()
    assert heuristic_playouts(state, 1, seed=0) > 0
    assert state.to_text() == before

# ----- strength -----------------------------------------------------------------------------------


def _share(edition: str, games: int, seed: int) -> float:
    """In-process games through the views, greedy and random alternating seats."""
    points = 0.0
    for game in range(games):
        greedy_seat = game % 2
        seats = 4 if edition == "partners" else 2
        policies = [GreedyPolicy(seed + game) if (s & 1) == greedy_seat else RandomPolicy(seed + game)
                    for s in range(seats)]
        result = play_match(edition, seed + game, policies, {"rounds": 1})
        points += result.returns[greedy_seat]
    return points / games


def test_greedy_beats_random_quick():
    assert _share("classic", 20, seed=1000) >= 0.9


@pytest.mark.slow
@pytest.mark.parametrize("edition", CARD_EDITIONS)
def test_greedy_beats_random(edition):
    assert _share(edition, 200, seed=2000) >= 0.9


@pytest.mark.parametrize("edition", CARD_EDITIONS)
def test_duplicate_deals_against_random(edition):
    stats = run_duplicate(edition, 100, 5, "greedy", "random", {"rounds": 1})
    assert stats.games == 200 and stats.score >= 0.95


def test_equals_are_even_and_playouts_end():
    stats = run_duplicate("classic", 300, 9, "greedy", "greedy:Seed=1", {"rounds": 1})
    assert 0.4 < stats.score < 0.6
    state = engine.new_game("classic", seed=1, rounds=1)
    decisions = heuristic_playouts(state, 200, seed=3)
    assert 200 * 44 < decisions < 200 * 300  # rounds end by the draw pile, not by max_turns


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_decide_among_is_the_best_scored_of_the_allowed(edition):
    """`go searchmoves`: the greedy decision among some legal decisions is a best-scored one of
    them (by the same scores as the whole list), and among all of them a best-scored one overall.
    The scores are those of the heuristic the edition's record names."""
    from bots.deciders import GreedyDecider
    rng = random.Random(5)
    checked = 0
    for state in states_along_games(edition, games=3, seed=700):
        scored = heuristic_scores(state)
        if len(scored) < 3:
            continue
        legal = state.legal()
        for allowed in (rng.sample(legal, 2), rng.sample(legal, len(legal) // 2), legal):
            best = max(scored[state.decision_to_text(d)] for d in allowed)
            choice = GreedyDecider(checked).decide_among(state, allowed)
            assert choice in allowed and scored[state.decision_to_text(choice)] >= best - 1e-9
        checked += 1
    assert checked > 50
    with pytest.raises(ValueError, match="not legal"):
        GreedyDecider(1).decide_among(engine.new_game(edition, seed=1), [10_000])
    with pytest.raises(ValueError, match="no decision"):
        GreedyDecider(1).decide_among(engine.new_game(edition, seed=1), [])
