"""The compiled `eldorado` edition against the independent pure-Python reference model
(engine/eldorado/reference.py, written from docs/eldorado.md alone).

Both deal the same game from a seed; at every step they must agree on the legal decisions (as
text, in order) and on the full position text, regularly on every seat's view, and at the end on
scores and results. Random policies of several kinds drive the games so that every kind of
decision and both endings (El Dorado reached, the round limit) occur; a coverage count checks that
they did. A "forward" policy walks toward El Dorado (hop distance on the map) so that games end by
a finish, not only by the round limit.

The default run plays GAMES games per route and number of players; `pytest -m slow` plays
SLOW_GAMES (the issue's 2,000 per route and player count).
"""
from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Callable

import pytest

import engine
from engine.eldorado import components as c
from engine.eldorado import reference as ref

PLAYERS = (2, 3, 4)
ROUTES = c.ROUTE_NAMES
GAMES = 25  # per route and number of players in the default run (300 games)
SLOW_GAMES = 2000
VIEW_EVERY = 23  # every seat's view compared every this many steps
POLICIES = ("uniform", "forward", "forward", "forward", "shopper")

# What the default run must have exercised, over all routes and player counts (see `_kind`).
EXPECTED = {"move", "move:joker", "move:token", "move:native", "move:blockade", "move:rubble", "move:camp",
            "step", "pay", "coins", "buy", "transmit", "Cg!", "Si!", "Co!", "Tl!", "dr!", "rm!", "rh!", "ki!",
            "po!", "cs!", "remove", "replace", "replace:done", "discard", "end", "finish", "end:finish", "end:cap"}


def _hops(route: c.RouteMap) -> list[int]:
    """Hops from each hex to the nearest finishing space over hexes a piece may stand on."""
    far = 10 ** 6
    dist = [far] * len(route.hexes)
    todo = deque(route.finishing)
    for f in route.finishing:
        dist[f] = 0
    while todo:
        h = todo.popleft()
        for n in route.neighbours[h]:
            if n >= 0 and dist[n] == far and route.hexes[n].terrain not in (c.MOUNTAIN, c.CAVE):
                dist[n] = dist[h] + 1
                if route.hexes[n].terrain != c.START:
                    todo.append(n)
    return dist


MAPS = {route.name: route for route in c.ROUTES}
HOPS = {name: _hops(route) for name, route in MAPS.items()}
CARD = set(c.CARD_CODES)
JOKERS = {card.code for card in c.CARDS if card.symbol == c.JOKER}


def _target(decision: str) -> str:
    return decision.split(">", 1)[1].split(":", 1)[0]


def _policy(kind: str, route: str, rng: random.Random) -> Callable[[list[str], dict[str, str]], str]:
    hops = HOPS[route]

    def progress(decision: str, pieces: list[str]) -> int:
        """How much closer the decision takes a piece (blockades count as one hop)."""
        target = _target(decision)
        if target.startswith("B"):
            return 1
        here = [hops[int(p)] for p in pieces if p not in ("E",)]
        return (max(here) if here else 0) - hops[int(target)]

    def choose(legal: list[str], fields: dict[str, str]) -> str:
        if kind == "uniform":
            return rng.choice(legal)
        seat = int(fields["to_move"])
        pieces = fields["pieces"].split("/")[seat].split(",")
        walks = [d for d in legal if ">" in d]
        if walks and rng.random() < (0.85 if kind == "forward" else 0.5):
            best = max(walks, key=lambda d: progress(d, pieces) + rng.random())
            if progress(best, pieces) > 0 or rng.random() < 0.2:
                return best
        buys = [d for d in legal if d[0] in "*$" or d.startswith("Tm*")]
        if buys and rng.random() < (0.9 if kind == "shopper" else 0.4):
            return rng.choice(buys)
        if "." in legal and rng.random() < 0.5:
            return "."
        return rng.choice(legal)
    return choose


def _options(rng: random.Random, route: str) -> dict[str, object]:
    return {"route": route, "caves": rng.choice((0, 1, 1)),
            "max_rounds": rng.choice((100, 100, 40, 12, 4))}


def _kind(decision: str) -> str:
    """The coverage class of a decision text (docs/eldorado.md "Decision ids and texts")."""
    head = decision.split(":", 1)[0] if not decision.startswith("Tm*") else "Tm*"
    if ">" in head and not head.startswith(">"):
        source = head.split(">", 1)[0][:2]
        target = _target(head)
        if target.startswith("B"):
            return "move:blockade"
        if source in ("Na", "nt"):
            return "move:native"
        if source in JOKERS:
            return "move:joker"
        if source not in CARD:
            return "move:token"
        return "move"
    if head.startswith(">"):
        return "step"
    prefixes = {"#": "pay", "$": "coins", "*": "buy", "x": "remove", "-": "discard"}
    if head[0] in prefixes:
        return prefixes[head[0]]
    if head == "Tm*":
        return "transmit"
    if head.startswith("~"):
        return "replace:done" if head == "~." else "replace"
    if head == ".":
        return "end"
    return head  # the actions: Cg! Si! Co! Tl! dr! rm! rh! ki! po! cs!


def _fields(text: str) -> dict[str, str]:
    return dict(token.split("=", 1) for token in text.split()[1:] if "=" in token)


def play_both(route: str, players: int, seed: int, cov: Counter | None = None) -> int:
    """Plays one game in both models, comparing as the module says; returns the number of steps."""
    rng = random.Random(f"{route}/{players}/{seed}")
    kind = rng.choice(POLICIES)
    options = _options(rng, route)
    fast = engine.new_game("eldorado", seed=seed, players=players, **options)
    slow = ref.Game.new(seed, players=players, **options)
    choose = _policy(kind, route, rng)
    where = f"eldorado {route} {players}p seed {seed} {kind} {options}"
    step = 0
    while True:
        text = slow.to_text()
        assert fast.to_text() == text, f"{where} step {step}\n{slow.history_text()}"
        if step % VIEW_EVERY == 0:
            for seat in range(players):
                assert fast.view_text(seat) == slow.view_text(seat), f"{where} step {step} seat {seat}"
        legal = fast.legal_text()
        assert legal == slow.legal(), f"{where} step {step}\n{text}"
        if not legal:
            break
        decision = choose(legal, _fields(text))
        fast.apply(decision)
        slow.apply(decision)
        if cov is not None:
            cov[_kind(decision)] += 1
            fields = _fields(slow.to_text())
            before, after = _fields(text)["pieces"].count("E"), fields["pieces"].count("E")
            if after > before:
                cov["finish"] += 1
            if _kind(decision) == "move":  # a card onto a hex (not a step, a blockade or a token)
                terrain = MAPS[route].hexes[int(_target(decision))].terrain
                if terrain in (c.RUBBLE, c.CAMP):
                    cov["move:rubble" if terrain == c.RUBBLE else "move:camp"] += 1
        step += 1
    assert fast.is_terminal(), where
    assert fast.to_text() == slow.to_text(), where
    for seat in range(players):
        assert fast.view_text(seat) == slow.view_text(seat), f"{where} end, seat {seat}"
    assert fast.returns() == pytest.approx(slow.returns()), where
    assert list(fast.scores()) == pytest.approx(slow.scores()), where
    if cov is not None:
        cov["end:finish" if "E" in ",".join(_fields(slow.to_text())["pieces"].split("/")) else "end:cap"] += 1
    return step


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("route", ROUTES)
def test_engine_matches_reference(route: str, players: int, coverage: Counter) -> None:
    for seed in range(GAMES):
        play_both(route, players, seed, coverage)


@pytest.fixture(scope="module")
def coverage() -> Counter:
    return Counter()


def test_the_games_exercised_every_kind_of_decision(coverage: Counter) -> None:
    """Runs after the parametrized games of this module (pytest keeps file order)."""
    if not coverage:
        pytest.skip("the differential games did not run in this session")
    missing = EXPECTED - set(coverage)
    assert not missing, f"the random games never exercised {sorted(missing)}: {dict(coverage)}"


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("route", ROUTES)
def test_engine_matches_reference_many_games(route: str, players: int) -> None:
    for seed in range(GAMES, GAMES + SLOW_GAMES):
        play_both(route, players, seed)
