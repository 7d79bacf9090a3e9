"""The searcher finds the obviously best decision in hand-built endgames of the card editions.

Each position is written with only the cards that matter placed by hand; every other card lies on
the discard piles (so the seat to move can stall by drawing from a pile). The searcher decides from
its seat's view, like in a game.
"""
from __future__ import annotations

from collections import Counter

import pytest

import engine
from bots.ismcts_policy import IsmctsPolicy
from protocol.limits import Limits

COLOURS = {"classic": "ybwgr", "partners": "ybwgr", "expedition": "cdhs"}
RANKS = {"classic": "W23456789T", "partners": "W23456789T", "expedition": "MA23456789T"}


def _cards(text: str) -> list[str]:
    text = text.replace("-", "")
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def _full_deck(edition: str) -> list[str]:
    fields = dict(t.split("=", 1) for t in engine.new_game(edition, seed=0).to_text().split() if "=" in t)
    return _cards(fields["hands"].replace("/", "") + fields["deck"])


def _set(edition: str, cards: list[str]) -> str:
    order = sorted(cards, key=lambda c: (COLOURS[edition].index(c[0]), RANKS[edition].index(c[1])))
    return "".join(order) or "-"


def position(edition: str, hands: list[str], rows: list[str], deck: str, *, to_move: int = 0,
             phase: str = "play", known: list[str] | None = None, turn: int = 40,
             totals: list[int] | None = None) -> engine.State:
    """A position of one round with the given hands, rows and draw pile (top last); every other
    card lies on the discard pile of its colour (expedition: the single pile)."""
    pool = Counter(_full_deck(edition))
    for part in [*hands, *rows, deck]:
        for card in _cards(part):
            pool[card] -= 1
            assert pool[card] >= 0, f"{card} placed twice"
    rest = sorted(pool.elements(), key=lambda c: (COLOURS[edition].index(c[0]), RANKS[edition].index(c[1])))
    if edition == "expedition":
        piles = ["".join(rest) or "-"]
    else:
        piles = ["".join(c for c in rest if c[0] == colour) or "-" for colour in COLOURS[edition]]
    known = known or ["-"] * len(hands)
    fields = [edition, "rounds=1", "max_turns=300"] + (["cost=0"] if edition == "expedition" else [])
    fields += [f"round=1/1", "starter=0", f"turn={turn}", f"phase={phase}", f"to_move={to_move}", "nodraw=.",
               "totals=" + "/".join(map(str, totals or [0] * len(rows))),
               "hands=" + "/".join(_set(edition, _cards(h)) for h in hands),
               "rows=" + "/".join(_set(edition, _cards(r)) for r in rows),
               "piles=" + "/".join(piles), "deck=" + (deck or "-"),
               "known=" + "/".join(_set(edition, _cards(k)) for k in known)]
    if edition == "partners":
        fields += ["pknown=" + "/".join(_set(edition, _cards(k)) for k in known), "tknown=-/-"]
    fields.append("rng=0123456789abcdef")
    return engine.parse_position(" ".join(fields))


def decide(state: engine.State, iterations: int = 20_000, **settings) -> str:
    view = state.view(state.to_move)
    bot = IsmctsPolicy(seed=3, **settings)
    return view.state.decision_to_text(bot.choose(view, Limits(iterations=iterations)))


# Seat 0 leads 25 to 12 with one card left to draw; seat 1 is known to hold r9, which would lift its
# wagered red expedition to 30. Taking the last card ends the round won; drawing from a pile lets
# seat 1 play r9 and take the last card itself.
TAKE_LAST = dict(hands=["wWw2w3g2g3r2r3", "rWr9rTgWg4g5w4w5"], rows=["y4y5y6y7y8b5b6b7b8b9", "rWr5r6r7r8"],
                 deck="y2", phase="draw", known=["-", "r9"])


@pytest.mark.parametrize("reward", ["auto", "round", "margin"])
def test_takes_the_last_card_to_end_a_won_round(reward):
    state = position("classic", **TAKE_LAST)
    assert state.scores() == [0, 0] and "D" in state.legal_text() and len(state.legal_text()) > 3
    assert decide(state, Reward=reward) == "D"


def test_takes_the_last_card_for_the_team():
    # The same endgame in partners: seat 0 and its partner (seat 2) lead; seat 1, next to move, holds r9.
    state = position("partners", hands=["wWw2w3g2g3r2r3", "rWr9rTgWg4g5w4w5", "y2y3wWw6w7w8w9wT",
                                        "b2b3b4g2g3g4g6g7"],
                     rows=["y4y5y6y7y8b5b6b7b8b9", "rWr5r6r7r8"], deck="y9", phase="draw",
                     known=["-", "r9", "-", "-"])
    assert decide(state) == "D"


def test_plays_the_only_card_that_wins():
    # Seat 0 trails 10 to 12 with one card left: +y9 (then the last card) wins; anything else loses.
    state = position("classic", hands=["y9w2w3g2g3r2r3b2", "rWrTgWg4g5w4w5bT"], rows=["y4y5y6y7y8", "rWr5r6r7r8"],
                     deck="y2")
    assert decide(state) == "+y9"


def test_avoids_opening_a_losing_expedition():
    # Seat 0 leads 10 to 6 with one card left and holds only cards of colours it has not opened:
    # every play costs at least 17 points and loses the round, every discard keeps the win.
    state = position("classic", hands=["wWw2w3g2g3bWb2b3", "rTgTwTbTr9g9w9b9"], rows=["y4y5y6y7y8", "r5r6r7r8"],
                     deck="y2")
    assert state.legal_text()[0].startswith("+")
    assert decide(state).startswith("-")


@pytest.mark.parametrize("rollout", ["random", "heuristic"])
def test_both_rollout_policies_find_the_win(rollout):
    state = position("classic", **TAKE_LAST)
    assert decide(state, Rollout=rollout) == "D"


def test_residual_zero_plays_the_last_round_for_the_result_alone():
    # Residual=0: in a match's last round the reward is win/draw/loss, so every root decision's
    # reward sum is a multiple of 1/2; the default keeps a slope (the winning draw is worth < 1).
    state = position("classic", **TAKE_LAST)
    view = state.view(0)
    exact = IsmctsPolicy(seed=3, Residual=0, ScoreWeight=0)
    assert view.state.decision_to_text(exact.choose(view, Limits(iterations=3000))) == "D"
    for visits, mean in exact.last_search.children.values():
        assert abs(2 * visits * mean - round(2 * visits * mean)) < 1e-6
    assert exact.last_search.value == 1.0  # taking the last card wins in every world
    soft = IsmctsPolicy(seed=3, ScoreWeight=0)
    soft.choose(view, Limits(iterations=3000))
    assert 0.5 < soft.last_search.value < 1.0


# Seat 0 trails the match by 500 points in its last round: every line loses. One card is left to
# draw, and seat 1, far ahead, will take it: +r9 on the wagered red expedition now adds 18 points,
# which any other decision gives up (its other cards are of colours it has not opened).
LOST = dict(hands=["r9wWw2g2g3b2b3y2", "y9yTgWg4g5w4w5bT"], rows=["rWr4r5r6r7r8", "y4y5y6y7y8"],
            deck="b4", totals=[0, 500])


def test_a_lost_match_still_plays_for_the_margin():
    state = position("classic", **LOST)
    view = state.view(0)
    flat = IsmctsPolicy(seed=3, ScoreWeight=0)
    flat.choose(view, Limits(iterations=3000))
    assert max(mean for _visits, mean in flat.last_search.children.values()) < 1e-6  # no reward says anything
    bot = IsmctsPolicy(seed=3, ScoreWeight=20)
    assert view.state.decision_to_text(bot.choose(view, Limits(iterations=5000))) == "+r9"
    visits, mean = bot.last_search.children[view.state.parse_decision("+r9")]
    assert visits > 5000 * 0.4 and all(m < mean for v, m in bot.last_search.children.values() if v < visits)


def test_score_weight_is_a_share_of_the_reward():
    state = position("classic", **TAKE_LAST)
    view = state.view(0)
    bot = IsmctsPolicy(seed=3, ScoreWeight=100)
    bot.choose(view, Limits(iterations=3000))
    # All of the reward is the margin against the search's mean margin: its mean over all visits is
    # about one half, whatever the result.
    children = bot.last_search.children.values()
    mean = sum(v * m for v, m in children) / sum(v for v, _m in children)
    assert 0.4 < mean < 0.6
