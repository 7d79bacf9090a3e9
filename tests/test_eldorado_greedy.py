"""The greedy heuristic of `eldorado` (bots/eldorado/heuristic.pyx): legality, information, finishing
races, strength against the random bot, and sensible choices in hand-built positions."""
from __future__ import annotations

import doctest
import random
import re

import pytest

import engine
from bots.eldorado import heuristic as ed_heuristic
from bots.eldorado.heuristic import HEURISTIC, check_params, context, decision_scores, distances, simulate
from engine.eldorado.components import CARD_CODES, ROUTE_NAMES, ROUTES

PLAYERS = (2, 3, 4)

# ----- helpers ------------------------------------------------------------------------------------


def new_game(seed: int, players: int = 2, **options) -> engine.State:
    return engine.new_game("eldorado", seed=seed, players=players, **options)


def greedy(state: engine.State, rng) -> int:
    return HEURISTIC.decide(state, rng)


def best(state: engine.State, seed: int = 1) -> str:
    return state.decision_to_text(greedy(state, seed))


def scores(state: engine.State) -> dict[str, float]:
    return dict(decision_scores(state))


def play_out(state: engine.State, seed: int, policies=None) -> int:
    """Plays a game to its end (greedy in every seat, or per seat "greedy"/"random"); returns the
    number of decisions."""
    rng = random.Random(seed)
    n = 0
    while not state.is_terminal():
        if policies is not None and policies[state.to_move] == "random":
            state.apply(rng.choice(state.legal()))
        else:
            state.apply(greedy(state, rng))
        n += 1
    return n


def states_along_games(players: int, games: int, epsilon: float = 0.2, seed: int = 0, **options):
    """Positions of epsilon-greedy games (random enough to reach odd corners, greedy enough to go
    far), on every route in turn, the caves variant in every other game."""
    rng = random.Random(seed)
    for game in range(games):
        opts = {"route": ROUTE_NAMES[game % len(ROUTE_NAMES)], "caves": game % 2, "max_rounds": 60, **options}
        state = new_game(seed + game, players, **opts)
        while not state.is_terminal():
            yield state
            state.apply(greedy(state, rng) if rng.random() > epsilon else rng.choice(state.legal()))


def position(text_fields: dict, players: int = 2, **options) -> engine.State:
    """A position from a new game's text with some fields replaced."""
    state = new_game(1, players, **options)
    tokens = state.to_text().split()
    out = []
    for token in tokens:
        name = token.split("=", 1)[0]
        out.append(f"{name}={text_fields.pop(name)}" if name in text_fields else token)
    assert not text_fields, f"unknown fields {text_fields}"
    return engine.parse_position(" ".join(out))

# ----- tables ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("route", range(len(ROUTES)))
def test_distances_reach_every_start_and_count_blockades(route):
    plain = distances(route)
    rmap = ROUTES[route]
    assert all(plain[h] == 0 for h in rmap.finishing)
    assert all(0 < plain[h] < 1000 for h in rmap.starts)
    # a hex's distance is the cheapest neighbour's distance plus that neighbour's cost
    for h in rmap.starts:
        steps = [plain[n] + max(1, rmap.hexes[n].power) for n in rmap.neighbours[h]
                 if n >= 0 and rmap.hexes[n].terrain not in (5, 6, 7)]
        assert plain[h] == min(steps)
    # blockades on every connection: every start (tile 0) is behind all of them
    blocked = distances(route, [1] * rmap.connections)
    assert all(blocked[h] >= plain[h] for h in range(len(rmap.hexes)))
    assert max(blocked[h] - plain[h] for h in rmap.starts) > 0

# ----- legality and information -------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_decisions_are_legal(players):
    checked = 0
    for state in states_along_games(players, games=4, seed=100 + players):
        legal = state.legal()
        assert greedy(state, checked) in legal
        assert HEURISTIC.decide(state, 3, epsilon=0.5) in legal
        checked += 1
    assert checked > 500


def test_deterministic_given_the_generator():
    runs = []
    for _ in range(2):
        state = new_game(5, 3, route="hills-of-gold", caves=1)
        rng = random.Random(42)
        record = []
        while not state.is_terminal():
            d = greedy(state, rng)
            record.append(d)
            state.apply(d)
        runs.append(record)
    assert runs[0] == runs[1]


@pytest.mark.parametrize("players", PLAYERS)
def test_decision_depends_only_on_what_the_seat_knows(players):
    """The same decision (and scores) for the true state, the view's canonical filling and random
    determinizations: other hands, draw-pile order, cave piles dealt again."""
    rng = random.Random(players)
    compared = 0
    for n, state in enumerate(states_along_games(players, games=4, seed=30)):
        if n % 7:
            continue
        seat = state.to_move
        view = state.view(seat)
        expected = [greedy(state, seed) for seed in (11, 12)]
        expected_scores = decision_scores(state)
        for other in [view.state] + [view.sample(rng.getrandbits(63)) for _ in range(2)]:
            assert [greedy(other, seed) for seed in (11, 12)] == expected
            assert decision_scores(other) == expected_scores
        compared += 1
    assert compared > 50


def _with_fields(state: engine.State, **fields) -> engine.State:
    tokens = state.to_text().split()
    return engine.parse_position(" ".join(
        f"{t.split('=', 1)[0]}={fields[t.split('=', 1)[0]]}" if t.split("=", 1)[0] in fields else t for t in tokens))


def test_draw_pile_order_and_other_hands_change_nothing():
    """Positions that differ in the mover's draw-pile order and in which of another seat's cards are
    in its hand or its draw pile: the same scores, the same decision for the same generator."""
    compared = 0
    for n, state in enumerate(states_along_games(2, games=2, seed=60)):
        if n % 5 or state.phase != "play" or len(state.draw_pile(state.to_move)) < 2:
            continue
        me, other = state.to_move, 1 - state.to_move
        draws = [state.draw_pile(seat) for seat in (0, 1)]
        hands = [state.hand(seat) for seat in (0, 1)]
        draws[me] = draws[me][::-1]
        k = len(hands[other])                       # the other seat's cards dealt another way
        pool = hands[other] + draws[other]
        pool = pool[k:] + pool[:k]
        hands[other], draws[other] = sorted(pool[:k], key=CARD_CODES.index), pool[k:]
        twin = _with_fields(state, hands="/".join("".join(h) or "-" for h in hands),
                            draws="/".join("".join(d) or "-" for d in draws))
        assert decision_scores(twin) == decision_scores(state)
        assert [greedy(twin, seed) for seed in (1, 2, 3)] == [greedy(state, seed) for seed in (1, 2, 3)]
        compared += 1
    assert compared > 20


def test_python_face_rejects_bad_input():
    with pytest.raises(KeyError):
        check_params({"no_such_weight": 1})
    with pytest.raises(ValueError):
        decision_scores(engine.new_game("classic", seed=1))
    with pytest.raises(ValueError):
        distances(9)
    state = new_game(1)
    assert ed_heuristic.decide(state, 1, params={"real": 0.2}) in state.legal()

# ----- races --------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("route", ROUTE_NAMES)
def test_self_play_finishes_well_within_the_round_limit(players, route):
    for seed in range(2):
        state = new_game(seed, players, route=route, max_rounds=100)
        play_out(state, seed)
        assert state.is_terminal()
        assert max(state.returns()) > 1.0 / players + 1e-9, "someone reaches El Dorado"
        assert state.turn // players <= 45, f"{state.turn // players} rounds"


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("route", ROUTE_NAMES)
def test_self_play_with_caves_finishes(players, route):
    state = new_game(7, players, route=route, caves=1)
    play_out(state, 7)
    assert max(state.returns()) > 1.0 / players + 1e-9
    assert state.turn // players <= 45


def test_compiled_playouts():
    """The heuristic in every seat in compiled code (the searcher's rollouts)."""
    template = new_game(0, 3)
    decisions = HEURISTIC.playouts(template, 6, seed=7)
    assert 6 * 50 < decisions < 6 * 3 * 45 * 12


def test_beats_the_random_bot():
    """40 two-player games, seats swapped: the greedy wins nearly all of them."""
    won = 0.0
    games = 40
    for game in range(games):
        greedy_seat = game % 2
        state = new_game(1000 + game, 2, route=ROUTE_NAMES[game // 2 % len(ROUTE_NAMES)], max_rounds=60)
        policies = ["greedy", "greedy"]
        policies[1 - greedy_seat] = "random"
        play_out(state, game, policies)
        won += state.returns()[greedy_seat]
    assert won / games >= 0.9

# ----- sensible choices in hand-built positions ---------------------------------------------------


def test_plays_a_draw_action_first():
    # seat 0 holds a Cartographer (from the market's Cg pile) among its starting cards
    state = position({"hands": "ExExSaCg/ExExTvSa", "draws": "ExTvTvTv/TvExTvTv", "discards": "Tv/-",
                      "market": "Sc3Tb3Ph3Tc3Ja3Tm3/Pi3Gm3Ca3Jo3Mi3Ad3Pp3Cg2Si3Co3Tl3Na3"})
    assert best(state) == "Cg!"
    assert scores(state)["Cg!"] > scores(state)["."]


def test_steps_on_with_leftover_power():
    # A Trailblazer (machete 3) into a jungle hex leaves 2 to step on: the steps come first.
    state = position({"hands": "ExTvTvTb/ExExTvSa", "draws": "ExExTvTvSa/TvExTvTv",
                      "market": "Sc3Tb2Ph3Tc3Ja3Tm3/Pi3Gm3Ca3Jo3Mi3Ad3Pp3Cg3Si3Co3Tl3Na3"})
    moves = [d for d in state.legal() if state.decision_to_text(d).startswith("Tb")]
    stepped = 0
    for move in moves:
        after = state.copy()
        after.apply(move)
        steps = [t for t in after.legal_text() if t.startswith(">")]
        progressing = [t for t, score in decision_scores(after) if t in steps and score > 0]
        if progressing:
            assert best(after).startswith(">")
            stepped += 1
    assert stepped > 0


def test_discards_weak_cards_rather_than_keep_them():
    # The turn is over but for the discards: the Sailor (no water next) goes, for a fresh card from a
    # draw pile with a Trailblazer and a Pioneer in it.
    state = position({"hands": "Sa/ExExTvSa", "draws": "ExExTvTvTbPi/TvExTvTv", "played": "ExTvTv",
                      "bought": "1", "market": "Sc3Tb2Ph3Tc3Ja3Tm3/Pi2Gm3Ca3Jo3Mi3Ad3Pp3Cg3Si3Co3Tl3Na3"})
    scored = scores(state)
    assert scored["-Sa"] > scored["."]


def test_removes_weak_cards_with_a_removal_right():
    # Mid-game: the deck has good cards (a Pioneer, a Trailblazer, a Scout, a Captain, a Journalist),
    # so the starting cards are its weakest.
    state = position({"hands": "ExTvSaPiSi/ExExTvSa", "draws": "ExExTvTvTvScTbCaJo/TvExTvTv",
                      "market": "Sc2Tb2Ph3Tc3Ja3Tm3/Pi2Gm3Ca2Jo2Mi3Ad3Pp3Cg3Si2Co3Tl3Na3"})
    assert best(state) == "Si!"
    state.apply(state.parse_decision("Si!"))
    text = best(state)
    assert text in ("xEx", "xTv"), text
    scored = scores(state)
    assert scored["xPi"] < scored[text]


def test_finishes_and_buys_nothing_on_the_last_turn():
    # Both pieces next to the finishing spaces (water on first-expedition), a Sailor and a Captain in
    # hand: both pieces go onto El Dorado, and the rest of the hand buys nothing.
    state = position({"pieces": "151,150/35,33", "blockades": "-,-,-,-", "held": "1,2,3,5/-",
                      "hands": "ExTvSaCa/ExExTvSa", "draws": "ExExTvTvTv/TvExTvTv",
                      "market": "Sc3Tb3Ph3Tc3Ja3Tm3/Pi3Gm3Ca2Jo3Mi3Ad3Pp3Cg3Si3Co3Tl3Na3"})
    assert context(state)["turns"] <= 2.0
    while state.to_move == 0:
        text = best(state)
        assert not text.startswith("*"), text
        state.apply(state.parse_decision(text))
    assert state.pieces(0) == ["E", "E"]


def _special_steps(route: int, terrain: int):
    """(h, n): a hex h past the first tile and a neighbour n of the given terrain and power 1 on the
    same tile, nearer to El Dorado."""
    rmap, dist = ROUTES[route], distances(route)
    for h in rmap.hexes:
        if h.tile < 1 or h.terrain > 2:
            continue
        for n in rmap.neighbours[h.number]:
            if n >= 0 and rmap.hexes[n].terrain == terrain and rmap.hexes[n].power == 1 \
                    and rmap.hexes[n].tile == h.tile and dist[n] < dist[h.number]:
                yield h.number, n


@pytest.mark.parametrize("route,terrain", [(0, 3), (0, 4), (2, 3), (2, 4)])
def test_pays_rubble_and_base_camps_with_weak_cards(route, terrain):
    """Into a rubble or a base camp (power 1) the hand pays a starting card, never its Pioneer."""
    checked = 0
    for h, n in list(_special_steps(route, terrain))[:3]:
        blockades = ",".join("-" for _ in range(ROUTES[route].connections))
        start = new_game(1, 2, route=ROUTE_NAMES[route])
        held = ",".join(str(b) for b in sorted(b for b in start.blockades() if b))
        state = position({"pieces": f"{h},{start.pieces(0)[1]}/{start.pieces(1)[0]},{start.pieces(1)[1]}",
                          "blockades": blockades, "held": f"{held}/-",
                          "hands": "ExTvSaPi/" + "".join(start.hand(1)), "draws": "ExExTvTvTv/" + "".join(start.draw_pile(1)),
                          "market": "Sc3Tb3Ph3Tc3Ja3Tm3/Pi2Gm3Ca3Jo3Mi3Ad3Pp3Cg3Si3Co3Tl3Na3"},
                         route=ROUTE_NAMES[route])
        scored = scores(state)
        into = {text[:2]: score for text, score in scored.items() if text.endswith(f">{n}") and text[2] == "a"}
        if "Pi" not in into:
            continue
        assert max(into.get("Ex", -1e9), into.get("Tv", -1e9)) > into["Pi"]
        checked += 1
    assert checked > 0


def test_buys_cards_that_fit_the_way_early():
    # At the start the deck moves badly: the whole hand goes to a good card, a machete one on
    # first-expedition (mostly jungle).
    state = new_game(1)
    c = context(state)
    assert c["gain"]["Tb"] > c["gain"]["Ph"] and c["gain"]["Tb"] > c["gain"]["Ca"]
    bought = None
    while state.to_move == 0:
        text = best(state)
        if text.startswith("*"):
            bought = text[1:]
        state.apply(state.parse_decision(text))
    assert bought is not None
    assert c["gain"][bought] > 0


def test_simulation_and_context_read_the_position():
    state = new_game(2, 3)
    progress, uses, value = simulate(state)
    assert progress >= 0 and value < 0
    c = context(state)
    assert c["deck"] == 8 and c["turns"] > 5
    assert c["worth"]["Pi"] > c["worth"]["Sc"] > c["worth"]["Ex"]
    assert c["gain"]["Pi"] > c["gain"]["Sc"] > 0


def test_module_examples():
    failures, _ = doctest.testmod(ed_heuristic, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert failures == 0


def test_the_evaluation_is_a_chance_per_seat():
    """The race estimate the searcher scores cut-off rollouts with (bots/heuristics.pxd `evaluate`)."""
    from bots.eldorado.heuristic import HEURISTIC
    assert HEURISTIC.evaluates
    for players in (2, 3, 4):
        st = engine.new_game("eldorado", seed=players, players=players)
        n = 0
        while not st.is_terminal() and n < 120:
            out = HEURISTIC.evaluate(st)
            assert len(out) == players and abs(sum(out) - 1.0) < 1e-9 and all(0.0 <= x <= 1.0 for x in out)
            st.apply(HEURISTIC.decide(st, n))
            n += 1


@pytest.mark.parametrize("players", PLAYERS)
def test_the_distance_cache_changes_nothing(players):
    """The weighted distances and ways' summaries remembered per thread (`_distance_cache`) give every
    score, race estimate and evaluation that fresh ones give, along games where blockades are taken,
    pieces move and decks change, with a deck changed in between that keeps the multipliers, and with
    weights that change the multipliers and the occupied cost."""
    other = {"occupied": 3.0, "mult_max": 2.0}

    def outputs(states):
        return [(decision_scores(s), decision_scores(s, other), ed_heuristic.race_estimate(s),
                 ed_heuristic.race_estimate(s, other), HEURISTIC.evaluate(s)) for s in states]

    def with_native(state):
        """The position with a Native of the market in the mover's discard pile (None when the market
        holds fewer than two): the same multipliers and ways, another deck."""
        fields = dict(t.split("=", 1) for t in state.to_text().split()[1:])
        left = re.search(r"Na(\d+)", fields["market"])
        if left is None or int(left.group(1)) < 2:
            return None
        piles = fields["discards"].split("/")
        piles[state.to_move] = piles[state.to_move].replace("-", "") + "Na"
        return _with_fields(state, discards="/".join(piles),
                            market=fields["market"].replace(left.group(0), f"Na{int(left.group(1)) - 1}"))

    states = []
    for n, s in enumerate(states_along_games(players, games=4, seed=70 + players)):
        if n % 3 == 0:
            states += [s.copy()] + [x for x in [with_native(s)] if x is not None]
    assert len(states) > 200
    was = ed_heuristic._distance_cache(True)
    try:
        cached = outputs(states)
        ed_heuristic._distance_cache(False)
        assert outputs(states) == cached
    finally:
        ed_heuristic._distance_cache(was)
