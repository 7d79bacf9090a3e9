"""The compiled rules of `eldorado` (engine/eldorado/rules.pyx) driven by decision ids, without the
notation: dealing, the invariants of legal decisions and random games, the GameOps entries
(random_decision, reveal, determinize, returns, perft), and hand-built positions for the rules of
docs/eldorado.md. Positions are built from the raw C struct (`rules._struct` / `rules._load`).
"""
from __future__ import annotations

import random
from collections import Counter, deque

import pytest

from engine._core import compiled_playouts
from engine.eldorado import components as C
from engine.eldorado import rules as R
from engine.reference.base import SplitMix64, shuffle

CARD = {code: t for t, code in enumerate(C.CARD_CODES)}
TOKEN = {code: k for k, code in enumerate(C.TOKEN_CODES)}
NTYPES, NTOKENS, MARKET_FIRST = 21, 14, 3
D_STEP, D_PAY, D_COIN, D_BUY, D_TRANSMIT, D_ACTION = 348, 354, 375, 398, 416, 434
D_REMOVE, D_REPLACE, D_REPLACE_DONE, D_DISCARD, D_END, N_DECISIONS = 444, 465, 486, 487, 508, 509
ACTIONS = ("Cg", "Si", "Co", "Tl", "dr", "rm", "rh", "ki", "po", "cs")
NONE = ELDORADO = 255
PLAY, DISCARD, OVER = 0, 1, 2
KEEP, PASS, CHANGE = 1, 2, 4
SOURCES = C.CARD_CODES + ("m1", "m2", "m3", "p1", "p2", "c1", "c2", "nt")
COINS = C.CARD_CODES + ("c1", "c2")
FE = C.ROUTES[0]


def move(src: str, d: int, piece: int = 0) -> int:
    return (SOURCES.index(src) * 2 + piece) * 6 + d


def action(code: str) -> int:
    return D_ACTION + ACTIONS.index(code)


def new(seed: int = 1, players: int = 2, **options) -> R._TestState:
    return R._new(seed, players, options)


def counts(cards: dict[str, int] | str) -> list[int]:
    """A list of per-type counts from {'Ex': 2} or 'ExExTv'."""
    out = [0] * NTYPES
    if isinstance(cards, str):
        cards = Counter(cards[i:i + 2] for i in range(0, len(cards), 2))
    for code, n in cards.items():
        out[CARD[code]] += n
    return out


def tokens(codes: str) -> list[int]:
    out = [0] * NTOKENS
    for i in range(0, len(codes), 2):
        out[TOKEN[codes[i:i + 2]]] += 1
    return out


def build(players: int = 2, route: int = 0, caves: int = 0, *, hand: str = "", draw: str = "", discard: str = "",
          pieces=None, tok: str = "", conn=None, seat: int = 0, **fields) -> R._TestState:
    """A position of seat `seat` to move: its hand, draw pile (bottom first), discard pile and
    tokens as given, its pieces (and other seats' with pieces={seat: (a, b)}); the rest as dealt
    from seed 1 without any other card (other seats' cards stay as dealt)."""
    f = R._struct(new(1, players, route=route, caves=caves))
    q = f["seat"][seat]
    q["hand"] = counts(hand)
    q["discard"] = counts(discard)
    drawn = [CARD[draw[i:i + 2]] for i in range(0, len(draw), 2)]
    q["draw"] = drawn + [0] * (64 - len(drawn))
    q["draw_n"] = len(drawn)
    q["tokens"] = tokens(tok)
    for k, ps in (pieces or {}).items():
        f["seat"][k]["piece"] = list(ps) + [0] * (2 - len(ps))
    if conn is not None:
        f["conn"] = list(conn) + [0] * (5 - len(conn))
    f["to_move"] = seat
    f["turn"] = seat
    for key, value in fields.items():
        f[key] = value
    return R._load(f)


def hand_of(st, seat=None) -> Counter:
    f = R._struct(st)
    q = f["seat"][f["to_move"] if seat is None else seat]
    return Counter({C.CARD_CODES[t]: n for t, n in enumerate(q["hand"]) if n})


def find_hex(route, want, avoid=()):
    """The first standable hex h with a neighbour in direction d satisfying want(neighbour, d)
    that does not cross a connection: (h, d, neighbour)."""
    for h in route.hexes:
        if h.terrain > C.CAMP or h.finishing or h.number in avoid:
            continue
        for d, n in enumerate(route.neighbours[h.number]):
            if n >= 0 and route.crossing[h.number][d] < 0 and want(route.hexes[n], d):
                return h.number, d, n
    raise AssertionError("no such hex")


# ----- the layout -------------------------------------------------------------------------------------


def test_the_state_is_a_flat_struct_without_padding():
    assert R.state_size() == 720
    assert R.RULES.state_size == 720 and R.RULES.name == "eldorado" and R.RULES.num_decision_ids == N_DECISIONS
    assert R.SEATS == (2, 3, 4)
    assert [(o.name, o.default, o.low, o.high) for o in R.OPTION_SPECS] == [
        ("route", 0, 0, 3), ("caves", 0, 0, 1), ("max_rounds", 100, 1, 1000)]
    assert R.OPTION_SPECS[0].choices == C.ROUTE_NAMES


@pytest.mark.parametrize("route", C.ROUTES, ids=lambda r: r.name)
def test_the_map_tables_are_the_components(route):
    m = R._map(route.index)
    assert (m["nhex"], m["nconn"], m["ncaves"]) == (len(route.hexes), route.connections, len(route.caves))
    assert m["nb"] == [list(n) for n in route.neighbours] and m["cross"] == [list(c) for c in route.crossing]
    assert m["terrain"] == [h.terrain for h in route.hexes] and m["power"] == [h.power for h in route.hexes]
    assert m["start"] == list(route.starts) and m["cave_hex"] == list(route.caves)
    assert m["open"] == {h.number for h in route.hexes if h.terrain <= C.CAMP}
    assert m["special"] == {h.number for h in route.hexes if h.terrain in (C.RUBBLE, C.CAMP)}
    assert m["finishing"] == set(route.finishing)
    for s in range(3):
        for p in range(7):
            assert m["enter"][s][p] == {h.number for h in route.hexes if h.terrain == s and h.power <= p}
    for h in route.hexes:
        want = sum(1 << k for k, cave in enumerate(route.caves) if cave in route.neighbours[h.number])
        assert m["cave_adj"][h.number] == want


# ----- dealing ----------------------------------------------------------------------------------------


def _dealt_by_the_spec(seed: int, players: int, route: int, caves: int) -> dict:
    """docs/eldorado.md "Dealing", steps 1-3, with the reference generator."""
    gen = SplitMix64(seed)
    blockades = [1, 2, 3, 4, 5, 6]
    shuffle(blockades, gen)
    r = C.ROUTES[route]
    out = {"conn": blockades[:r.connections] + [0] * (5 - r.connections)}
    piles, box = [[] for _ in range(6)], [0] * NTOKENS
    if caves:
        order = [k for t in C.TOKENS for k in [t.index] * t.count]
        shuffle(order, gen)
        for k in range(len(r.caves)):
            piles[k] = order[4 * k:4 * k + 4]
        for k in order[4 * len(r.caves):]:
            box[k] += 1
    out["piles"], out["box"] = piles, box
    out["draws"], out["hands"] = [], []
    for _ in range(players):
        deck = list(C.STARTING_DECK)
        shuffle(deck, gen)
        out["draws"].append(deck[:-4])
        out["hands"].append(Counter(deck[-4:]))
    out["rng"] = gen.state
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("route", [0, 1, 2, 3])
@pytest.mark.parametrize("caves", [0, 1])
def test_dealing_follows_the_spec(players, route, caves):
    for seed in (0, 1, 12345, 2**64 - 1):
        f = R._struct(new(seed, players, route=route, caves=caves))
        want = _dealt_by_the_spec(seed, players, route, caves)
        assert f["conn"] == want["conn"]
        assert [f["cave"][k][:f["cave_n"][k]] for k in range(6)] == want["piles"]
        assert f["box"] == want["box"]
        assert f["rng"] == want["rng"]
        for k in range(4):
            q = f["seat"][k]
            if k >= players:
                assert not any(q["hand"]) and q["draw_n"] == 0 and q["piece"] == [0, 0]
                continue
            assert q["draw"][:q["draw_n"]] == want["draws"][k] and not any(q["draw"][q["draw_n"]:])
            assert Counter({t: n for t, n in enumerate(q["hand"]) if n}) == want["hands"][k]
            assert sum(q["hand"]) == 4
        starts = C.ROUTES[route].starts
        pieces = [f["seat"][k]["piece"] for k in range(players)]
        if players == 2:
            assert pieces == [[starts[0], starts[2]], [starts[1], starts[3]]]
        else:
            assert pieces == [[starts[k], 0] for k in range(players)]
        assert f["market"] == [0] * 3 + [3] * 18
        assert f["on_board"] == sum(1 << c.index for c in C.CARDS if c.on_board)
        assert (f["turn"], f["phase"], f["to_move"], f["final"]) == (0, PLAY, 0, 0)
        assert (f["lastcoin"], f["moving"], f["replace"], f["last"]) == (NONE, NONE, NONE, NONE)


def test_dealing_is_reproducible_and_depends_on_the_seed():
    assert R._bytes(new(7, 3, caves=1)) == R._bytes(new(7, 3, caves=1))
    assert R._bytes(new(7, 3, caves=1)) != R._bytes(new(8, 3, caves=1))
    st = new(7, 2)
    st.playout(3)
    st2 = new(7, 2)
    st2.playout(3)
    assert st == st2


# ----- invariants over random games -------------------------------------------------------------------


def _check_cards(st) -> None:
    """Every market type totals its copies; each seat owns its starting cards and no other's."""
    f = R._struct(st)
    n = f["players"]
    total = list(f["market"])
    for k in range(4):
        q = f["seat"][k]
        own = [q["hand"][t] + q["discard"][t] + q["removed"][t] + q["draw"][:q["draw_n"]].count(t)
               for t in range(NTYPES)]
        if k == f["to_move"]:
            own = [own[t] + f["played"][t] for t in range(NTYPES)]
        for t in range(MARKET_FIRST):
            assert own[t] == (C.STARTING_DECK.count(t) if k < n else 0), (k, t, own)
        for t in range(MARKET_FIRST, NTYPES):
            total[t] += own[t]
        assert not any(q["draw"][q["draw_n"]:]), "the draw pile's unused entries are zero"
    assert total[MARKET_FIRST:] == [c.copies for c in C.CARDS[MARKET_FIRST:]]
    # tokens: caves, box and seats hold each kind's count (or none without caves)
    held = [sum(f["seat"][k]["tokens"][t] for k in range(4)) + f["box"][t]
            + sum(f["cave"][c][:f["cave_n"][c]].count(t) for c in range(6)) for t in range(NTOKENS)]
    if f["caves"]:
        assert all(h <= tk.count for h, tk in zip(held, C.TOKENS))
    else:
        assert held == [0] * NTOKENS
    # the blockades: on the board or held, never both
    on_board = {b for b in f["conn"] if b}
    held_b = [{b for b in range(1, 7) if f["seat"][k]["held"] >> (b - 1) & 1} for k in range(4)]
    assert all(not (on_board & h) for h in held_b)
    assert sum(len(h) for h in held_b) + len(on_board) == FE.connections if f["route"] == 0 else True


def _random_game(seed, players, route, caves, max_rounds, check_every=1, rnd=None):
    rnd = rnd or random.Random(seed)
    st = new(seed, players, route=route, caves=caves, max_rounds=max_rounds)
    steps = 0
    while st.to_move is not None:
        legal = st.legal()
        assert legal and legal == sorted(set(legal)) and len(legal) <= 512 and legal[-1] < N_DECISIONS
        if steps % check_every == 0:
            assert R._plain_legal_ids(st) == legal
            _check_cards(st)
        st.apply(rnd.choice(legal))
        steps += 1
    _check_cards(st)
    return st, steps


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("route", [0, 1, 2, 3])
@pytest.mark.parametrize("caves", [0, 1])
def test_random_games_end_and_keep_every_card(players, route, caves):
    for seed in range(2):
        st, steps = _random_game(seed * 7 + route, players, route, caves, max_rounds=25, check_every=3)
        f = R._struct(st)
        assert f["phase"] == OVER and f["to_move"] == NONE and f["turn"] % players == 0
        assert f["turn"] == players * 25 or f["final"]
        assert sum(st.returns()) == pytest.approx(1.0)
        assert st.legal() == []
        # at rest
        assert (f["coins"], f["bought"], f["lastcoin"], f["moving"], f["pay_n"], f["remove_n"], f["replace"],
                f["last"], f["flags"], sum(f["played"])) == (0, 0, NONE, NONE, 0, 0, NONE, NONE, 0, 0)


def test_compiled_playouts_end():
    for players in (2, 3, 4):
        for caves in (0, 1):
            template = new(1, players, caves=caves, route=players - 1)
            assert compiled_playouts(template, 20, 5) > 0
            st = new(3, players, caves=caves)
            n = st.playout(11)
            assert n > 0 and st.to_move is not None or st.is_terminal()
            assert st.is_terminal()


def test_every_legal_decision_changes_the_position():
    rnd = random.Random(5)
    for seed, players, caves in ((1, 2, 1), (2, 3, 1), (3, 4, 0)):
        st = new(seed, players, caves=caves, max_rounds=12, route=seed)
        while st.to_move is not None:
            before = R._bytes(st)
            for d in st.legal():
                child = st.copy()
                child.apply(d)
                assert R._bytes(child) != before, d
                assert R._bytes(st) == before
            st.apply(rnd.choice(st.legal()))


def test_random_decision_is_legal_at_below_len():
    rnd = random.Random(2)
    st = new(4, 2, caves=1)
    for _ in range(400):
        if st.to_move is None:
            break
        legal = st.legal()
        for seed in (rnd.getrandbits(64) for _ in range(3)):
            assert st.random_decision(seed) == legal[SplitMix64(seed).below(len(legal))]
        st.apply(rnd.choice(legal))


def test_the_fast_playout_plays_the_generic_loops_games():
    for players in (2, 3, 4):
        a, b = new(9, players, caves=1), new(9, players, caves=1)
        assert a.playout(77, fast=True) == b.playout(77, fast=False)
        assert a == b


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_fast_playout_plays_the_generic_loops_games_from_every_position(players):
    """ed_playout keeps the moves of a turn across decisions and counts each kind of decision instead
    of listing the set: from every position of random games (every route, with and without caves:
    payments, tokens, flags, replacements, the discard phase) it must draw the same decisions as
    random_decision + apply and reach the same bytes."""
    rnd = random.Random(players)
    for route in range(4):
        for caves in (0, 1):
            st = new(route * 2 + caves, players, route=route, caves=caves, max_rounds=30)
            while st.to_move is not None:
                a, b = st.copy(), st.copy()
                seed = rnd.getrandbits(64)
                assert a.playout(seed, fast=True) == b.playout(seed, fast=False)
                assert R._bytes(a) == R._bytes(b)
                st.apply(rnd.choice(st.legal()))


def test_returns():
    st = new(1, 3, max_rounds=1)
    assert st.returns() == pytest.approx([1 / 3] * 3)
    for _ in range(3):
        st.apply(D_END)
    assert st.is_terminal() and st.returns() == pytest.approx([1 / 3] * 3)
    assert st.scores() == [0, 0, 0]           # nobody finished: all share, nobody scores


# ----- reveal and determinize -------------------------------------------------------------------------


def _expected_draws(st, d) -> list[int]:
    """The cards d draws, worked out in Python from the struct and the reference generator."""
    f = R._struct(st)
    q = f["seat"][f["to_move"]]
    hand = sum(q["hand"])
    if d == D_END:
        if f["phase"] == PLAY and f["replace"] == NONE:
            pass
        k = max(0, 4 - hand)
        discard = list(q["discard"])
        for t in range(NTYPES):
            discard[t] += f["played"][t]
    elif d == D_REPLACE_DONE:
        k, discard = f["replace"], list(q["discard"])
    elif D_ACTION <= d <= D_ACTION + 4:
        k, discard = (2, 1, 3, 2, 1)[d - D_ACTION], list(q["discard"])
    else:
        return []
    pile = q["draw"][:q["draw_n"]]
    out, gen = [], SplitMix64(f["rng"])
    for _ in range(k):
        if not pile:
            pile = [t for t in range(NTYPES) for _ in range(discard[t])]
            discard = [0] * NTYPES
            if not pile:
                break
            shuffle(pile, gen)
        out.append(pile.pop())
    return out


def test_reveal_predicts_the_cards_drawn():
    rnd = random.Random(3)
    seen = Counter()
    for seed in range(6):
        st = new(seed, 2 + seed % 3, caves=1, max_rounds=40)
        while st.to_move is not None:
            legal = st.legal()
            d = rnd.choice(legal)
            shown = R._reveal(st, d)
            assert list(shown) == _expected_draws(st, d)
            before = hand_of(st)
            mover = st.to_move
            used = Counter()
            if D_ACTION <= d < D_ACTION + 4:
                used[("Cg", "Si", "Co", "Tl")[d - D_ACTION]] += 1
            st.apply(d)
            if shown:
                seen[d] += 1
                after = hand_of(st, mover)
                assert after == before - used + Counter(C.CARD_CODES[t] for t in shown)
            assert len(shown) <= 16
    assert seen[D_END] > 50


def test_reveal_across_a_reshuffle():
    # draw pile of one card, discard pile of three: `.` from an empty hand draws 1, reshuffles, draws 3
    st = build(hand="", draw="Sa", discard="ExExTv", rng=99)
    shown = R._reveal(st, D_END)
    gen = SplitMix64(99)
    pile = [CARD["Ex"], CARD["Ex"], CARD["Tv"]]
    shuffle(pile, gen)
    assert list(shown) == [CARD["Sa"]] + pile[::-1]
    before = R._bytes(st)
    R._reveal(st, D_END)
    assert R._bytes(st) == before
    st.apply(D_END)
    f = R._struct(st)
    assert f["seat"][0]["hand"] == counts("ExExTvSa") and f["seat"][0]["draw_n"] == 0
    assert f["rng"] == gen.state


def _unseen(f, seat):
    out = []
    for k in range(f["players"]):
        q = f["seat"][k]
        pile = q["draw"][:q["draw_n"]]
        out.append(Counter(pile) if k == seat else Counter(pile) + Counter(
            {t: n for t, n in enumerate(q["hand"]) if n}))
    pool = Counter()
    for c in range(6):
        pool += Counter(f["cave"][c][:f["cave_n"][c]])
    pool += Counter({t: n for t, n in enumerate(f["box"]) if n})
    return out, pool


def test_determinize_keeps_what_the_seat_sees():
    rnd = random.Random(8)
    for seed in range(4):
        players = 2 + seed % 3
        st = new(seed, players, caves=1, route=seed)
        for _ in range(rnd.randrange(50, 200)):
            if st.to_move is None:
                break
            st.apply(rnd.choice(st.legal()))
        for seat in range(players):
            f = R._struct(st)
            changed = False
            for sample in range(5):
                g = R._struct(st.determinized(seat, 1000 * seed + sample))
                assert g["seat"][seat]["hand"] == f["seat"][seat]["hand"]
                for k in range(4):
                    a, b = f["seat"][k], g["seat"][k]
                    assert (a["discard"], a["removed"], a["tokens"], a["piece"], a["explored"], a["held"],
                            a["draw_n"], sum(a["hand"])) == \
                           (b["discard"], b["removed"], b["tokens"], b["piece"], b["explored"], b["held"],
                            b["draw_n"], sum(b["hand"]))
                    assert not any(b["draw"][b["draw_n"]:])
                for key in f:
                    if key not in ("seat", "cave", "box", "rng"):
                        assert f[key] == g[key], key
                assert f["cave_n"] == g["cave_n"]
                assert _unseen(f, seat) == _unseen(g, seat)
                changed |= g != f
                assert g["rng"] != f["rng"]
            assert changed


# ----- perft --------------------------------------------------------------------------------------------


def _count(st, depth):
    if depth == 0:
        return 1
    if st.to_move is None:
        return 0
    total = 0
    for d in st.legal():
        child = st.copy()
        child.apply(d)
        total += _count(child, depth - 1)
    return total


PERFT = {(1, 2, 0): (11, 63, 352, 2241), (2, 3, 1): (7, 43, 198, 937), (3, 4, 0): (9, 58, 293, 1210)}


@pytest.mark.parametrize("seed, players, caves", list(PERFT))
def test_perft_from_the_start(seed, players, caves):
    st = new(seed, players, caves=caves)
    got = [st.perft(depth) for depth in (1, 2, 3, 4)]
    assert got == [_count(st, depth) for depth in (1, 2, 3, 4)]
    assert tuple(got) == PERFT[(seed, players, caves)]


# ----- the rules, position by position -------------------------------------------------------------------


def test_a_move_plays_the_card_and_leaves_the_leftover():
    h, d, n = find_hex(FE, lambda x, d: x.terrain == C.MACHETE and x.power == 1)
    st = build(hand="TbTv", pieces={0: (h, FE.starts[2]), 1: FE.starts[1::2]})
    assert move("Tb", d) in st.legal() and move("Tv", d) not in st.legal()
    st.apply(move("Tb", d))
    f = R._struct(st)
    assert f["seat"][0]["piece"][0] == n and f["played"] == counts("Tb") and f["seat"][0]["hand"] == counts("Tv")
    assert (f["moving"], f["move_symbol"], f["leftover"]) == (0, C.MACHETE, 2)
    steps = [x for x in st.legal() if D_STEP <= x < D_PAY]
    for x in steps:
        target = FE.hexes[FE.neighbours[n][x - D_STEP]]
        assert target.terrain == C.MACHETE and target.power <= 2
    # any other decision stops the piece: the leftover is lost
    st.apply(D_COIN + CARD["Tv"])
    f = R._struct(st)
    assert (f["moving"], f["move_symbol"], f["leftover"], f["coins"]) == (NONE, 0, 0, 2)


def test_jokers_and_change_symbol_match_any_symbol():
    h, d, n = find_hex(FE, lambda x, d: x.terrain == C.PADDLE and x.power == 1)
    st = build(hand="JaEx", pieces={0: (h, FE.starts[2]), 1: FE.starts[1::2]}, tok="cs")
    assert move("Ja", d) in st.legal() and move("Ex", d) not in st.legal()
    st.apply(action("cs"))
    assert move("Ex", d) in st.legal() and action("cs") not in st.legal()
    st.apply(move("Ex", d))
    f = R._struct(st)
    assert f["flags"] == 0 and f["seat"][0]["piece"][0] == n


def test_rubble_is_paid_in_card_order_with_enough_cards():
    hg = C.ROUTES[1]   # hills-of-gold has rubble of power 2
    h, d, n = find_hex(hg, lambda x, d: x.terrain == C.RUBBLE and x.power == 2)
    st = build(route=1, hand="ExTvNa", pieces={0: (h, hg.starts[2]), 1: hg.starts[1::2]})
    legal = st.legal()
    # Ex and Tv leave a card >= them; Na is a Native move, never the first payment
    assert move("Ex", d) in legal and move("Tv", d) in legal and move("Na", d) in legal
    st2 = build(route=1, hand="TvEx", pieces={0: (h, hg.starts[2]), 1: hg.starts[1::2]})
    assert move("Ex", d) in st2.legal() and move("Tv", d) not in st2.legal()
    st.apply(move("Ex", d))
    f = R._struct(st)
    assert (f["pay_n"], f["pay_kind"], f["last"]) == (1, C.RUBBLE, CARD["Ex"])
    assert f["seat"][0]["piece"][0] == n and f["moving"] == 0 and f["leftover"] == 0
    assert st.legal() == [D_PAY + CARD["Tv"], D_PAY + CARD["Na"]]
    st.apply(D_PAY + CARD["Na"])
    f = R._struct(st)
    assert (f["pay_n"], f["pay_kind"], f["last"]) == (0, 0, NONE)
    assert f["played"] == counts("ExNa") and f["seat"][0]["hand"] == counts("Tv")


def test_a_base_camp_removes_its_payment():
    h, d, n = find_hex(FE, lambda x, d: x.terrain == C.CAMP)
    power = FE.hexes[n].power
    st = build(hand="Ex" * power, pieces={0: (h, FE.starts[2]), 1: FE.starts[1::2]})
    st.apply(move("Ex", d))
    for _ in range(power - 1):
        assert st.legal() == [D_PAY + CARD["Ex"]]
        st.apply(D_PAY + CARD["Ex"])
    f = R._struct(st)
    assert f["seat"][0]["removed"] == counts("Ex" * power) and not any(f["played"])


def test_tokens_never_pay_rubble_and_the_native_ignores_requirements():
    h, d, n = find_hex(FE, lambda x, d: x.terrain == C.RUBBLE)
    st = build(hand="", pieces={0: (h, FE.starts[2]), 1: FE.starts[1::2]}, tok="m3c2nt")
    legal = st.legal()
    assert move("m3", d) not in legal and move("nt", d) in legal
    st.apply(move("nt", d))
    f = R._struct(st)
    assert f["seat"][0]["piece"][0] == n and f["pay_n"] == 0 and f["seat"][0]["tokens"] == tokens("m3c2")


def test_occupied_hexes_and_pass_occupied():
    h, d, n = find_hex(FE, lambda x, d: x.terrain == C.MACHETE and x.power == 1)
    st = build(hand="Ex", pieces={0: (h, FE.starts[2]), 1: (n, FE.starts[3])}, tok="po")
    assert move("Ex", d) not in st.legal()
    st.apply(action("po"))
    assert move("Ex", d) in st.legal()


def _border(route, k):
    """A hex of tile k next to connection k, the first direction across it, and the other hexes
    of the same border (h, d, across)."""
    for hx in route.hexes:
        if hx.tile != k or hx.terrain > C.CAMP:
            continue
        dirs = [d for d in range(6) if route.crossing[hx.number][d] == k]
        if len(dirs) >= 2:
            return hx.number, dirs
    raise AssertionError


def test_a_blockade_is_taken_from_its_first_direction_and_the_piece_stays():
    h, dirs = _border(FE, 0)
    blockade = next(b for b in C.BLOCKADES if b.terrain == C.MACHETE and b.power == 1)
    others = [b.number for b in C.BLOCKADES if b.number != blockade.number]
    st = build(hand="Sc", pieces={0: (h, FE.starts[2]), 1: FE.starts[1::2]}, conn=[blockade.number] + others[:3])
    legal = st.legal()
    assert move("Sc", dirs[0]) in legal and not any(move("Sc", d) in legal for d in dirs[1:])
    st.apply(move("Sc", dirs[0]))
    f = R._struct(st)
    assert f["conn"][0] == 0 and f["seat"][0]["held"] == 1 << (blockade.number - 1)
    assert f["seat"][0]["piece"][0] == h and (f["moving"], f["leftover"], f["move_symbol"]) == (0, 1, C.MACHETE)
    # the border is open now: the leftover may cross it
    for d in dirs:
        across = FE.hexes[FE.neighbours[h][d]]
        assert ((D_STEP + d) in st.legal()) == (across.terrain == C.MACHETE and across.power <= 1)


def test_coins_are_ordered_and_stop_once_nothing_costs_more():
    st = build(hand="TvTvExMi", pieces={0: FE.starts[0::2], 1: FE.starts[1::2]})
    legal = st.legal()
    assert [x - D_COIN for x in legal if D_COIN <= x < D_BUY] == [CARD["Ex"], CARD["Tv"], CARD["Mi"]]
    st.apply(D_COIN + CARD["Tv"])
    assert D_COIN + CARD["Ex"] not in st.legal() and D_COIN + CARD["Tv"] in st.legal()
    st.apply(D_COIN + CARD["Mi"])          # 5 coins: nothing on the board costs more than 5
    f = R._struct(st)
    assert f["coins"] == 10 and f["lastcoin"] == CARD["Mi"]
    legal = st.legal()
    assert not any(D_COIN <= x < D_BUY for x in legal)
    board = [t for t in range(NTYPES) if f["on_board"] >> t & 1]
    assert [x - D_BUY + MARKET_FIRST for x in legal if D_BUY <= x < D_TRANSMIT] == board  # the board is full
    st.apply(D_BUY + CARD["Tb"] - MARKET_FIRST)
    f = R._struct(st)
    assert (f["coins"], f["bought"]) == (0, 1) and f["seat"][0]["discard"][CARD["Tb"]] == 1
    assert f["market"][CARD["Tb"]] == 2
    assert not any(D_COIN <= x < D_TRANSMIT for x in st.legal())


def test_buying_beside_the_board_needs_an_empty_slot():
    f = R._struct(new(1, 2))
    f["market"][CARD["Sc"]] = 0
    f["on_board"] &= ~(1 << CARD["Sc"])
    st = build(hand="MiMi", pieces={0: FE.starts[0::2], 1: FE.starts[1::2]}, market=f["market"],
               on_board=f["on_board"])
    st.apply(D_COIN + CARD["Mi"])
    st.apply(D_COIN + CARD["Mi"])
    legal = st.legal()
    assert D_BUY + CARD["Pi"] - MARKET_FIRST in legal
    st.apply(D_BUY + CARD["Pi"] - MARKET_FIRST)
    f = R._struct(st)
    assert f["on_board"] >> CARD["Pi"] & 1 and f["market"][CARD["Pi"]] == 2


def test_the_transmitter_takes_any_card_and_is_no_purchase():
    st = build(hand="TmTvTv", pieces={0: FE.starts[0::2], 1: FE.starts[1::2]})
    legal = st.legal()
    assert [x - D_TRANSMIT + MARKET_FIRST for x in legal if D_TRANSMIT <= x < D_ACTION] == list(range(3, 21))
    st.apply(D_TRANSMIT + CARD["Na"] - MARKET_FIRST)     # beside the board, no empty slot: stays beside
    f = R._struct(st)
    assert f["seat"][0]["discard"][CARD["Na"]] == 1 and f["seat"][0]["removed"][CARD["Tm"]] == 1
    assert not f["on_board"] >> CARD["Na"] & 1 and f["market"][CARD["Na"]] == 2
    st.apply(D_COIN + CARD["Tv"])
    st.apply(D_COIN + CARD["Tv"])
    assert D_BUY + CARD["Sc"] - MARKET_FIRST in st.legal()


def test_keep_item_keeps_one_item():
    st = build(hand="CoTc", draw="ExExExExEx", pieces={0: FE.starts[0::2], 1: FE.starts[1::2]}, tok="ki")
    st.apply(action("ki"))
    assert action("ki") not in st.legal()
    st.apply(action("Co"))
    f = R._struct(st)
    assert f["played"] == counts("Co") and f["flags"] == 0 and f["seat"][0]["hand"] == counts("TcExExEx")
    st.apply(D_COIN + CARD["Tc"])
    f = R._struct(st)
    assert f["seat"][0]["removed"] == counts("Tc") and f["coins"] == 8


def test_scientist_and_the_removal_right():
    st = build(hand="SiExTv", draw="SaTv", pieces={0: FE.starts[0::2], 1: FE.starts[1::2]})
    st.apply(action("Si"))
    f = R._struct(st)
    assert f["remove_n"] == 1 and f["seat"][0]["hand"] == counts("ExTvTv")
    assert [x - D_REMOVE for x in st.legal() if D_REMOVE <= x < D_REPLACE] == [CARD["Ex"], CARD["Tv"]]
    child = st.copy()
    child.apply(D_REMOVE + CARD["Ex"])
    g = R._struct(child)
    assert g["remove_n"] == 0 and g["last"] == NONE and g["seat"][0]["removed"] == counts("Ex")
    st.apply(D_COIN + CARD["Tv"])       # any other decision ends the right
    assert R._struct(st)["remove_n"] == 0 and not any(D_REMOVE <= x < D_REPLACE for x in st.legal())


def test_travel_log_removes_two_in_card_order():
    st = build(hand="TlTvEx", draw="SaSa", pieces={0: FE.starts[0::2], 1: FE.starts[1::2]})
    st.apply(action("Tl"))
    f = R._struct(st)
    assert f["remove_n"] == 2 and f["seat"][0]["removed"] == counts("Tl")
    st.apply(D_REMOVE + CARD["Tv"])
    assert [x - D_REMOVE for x in st.legal() if D_REMOVE <= x < D_REPLACE] == [CARD["Tv"], CARD["Sa"]] or \
        [x - D_REMOVE for x in st.legal() if D_REMOVE <= x < D_REPLACE] == [CARD["Sa"]]


def test_replace_hand():
    st = build(hand="ExExTvSa", draw="ScScScScSc", pieces={0: FE.starts[0::2], 1: FE.starts[1::2]}, tok="rh")
    st.apply(action("rh"))
    assert st.legal() == [D_REPLACE + CARD[c] for c in ("Ex", "Tv", "Sa")] + [D_REPLACE_DONE]
    st.apply(D_REPLACE + CARD["Tv"])
    assert st.legal() == [D_REPLACE + CARD["Sa"], D_REPLACE_DONE]
    st.apply(D_REPLACE + CARD["Sa"])
    assert R._reveal(st, D_REPLACE_DONE) == (CARD["Sc"], CARD["Sc"])
    st.apply(D_REPLACE_DONE)
    f = R._struct(st)
    assert f["seat"][0]["hand"] == counts("ExExScSc") and f["played"] == counts("TvSa")
    assert (f["replace"], f["last"]) == (NONE, NONE)


def test_discard_phase_and_end_of_turn():
    st = build(hand="ExTvTvSa", draw="ScScScScSc", discard="", pieces={0: FE.starts[0::2], 1: FE.starts[1::2]})
    st.apply(D_COIN + CARD["Ex"])
    st.apply(D_DISCARD + CARD["Tv"])
    f = R._struct(st)
    assert f["phase"] == DISCARD and f["last"] == CARD["Tv"]
    assert st.legal() == [D_DISCARD + CARD["Tv"], D_DISCARD + CARD["Sa"], D_END]
    st.apply(D_END)
    f = R._struct(st)
    q = f["seat"][0]
    assert q["hand"] == counts("TvSaScSc") and q["discard"] == counts("ExTv")
    assert (f["to_move"], f["turn"], f["phase"], f["coins"], f["lastcoin"]) == (1, 1, PLAY, 0, NONE)


def test_caves_give_tokens_at_a_stop():
    route = C.ROUTES[0]
    cave = route.caves[0]
    near = [n for n in route.neighbours[cave] if n >= 0 and route.hexes[n].terrain <= C.COIN]
    target = near[0]
    h, d = next((m, e) for m in route.neighbours[target] if m >= 0 and route.hexes[m].terrain <= C.CAMP
                for e in range(6) if route.neighbours[m][e] == target and m not in near)
    power = route.hexes[target].power
    card = {C.MACHETE: "Pi", C.PADDLE: "Ca", C.COIN: "Mi"}[route.hexes[target].terrain]
    st = build(caves=1, hand=card + "Tv", pieces={0: (h, route.starts[2]), 1: route.starts[1::2]})
    f = R._struct(st)
    top = f["cave"][0][f["cave_n"][0] - 1]
    st.apply(move(card, d))
    assert R._struct(st)["seat"][0]["tokens"] == [0] * NTOKENS     # still moving
    st.apply(D_COIN + CARD["Tv"])                                  # stops
    g = R._struct(st)
    assert g["seat"][0]["tokens"][top] == 1 and g["cave_n"][0] == f["cave_n"][0] - 1
    assert g["seat"][0]["explored"][0] & 1


def test_finishing_sets_the_final_round_and_the_winner_takes_it():
    fin = FE.finishing[0]
    h, d = next((m, e) for m in FE.neighbours[fin] if m >= 0 and FE.hexes[m].tile >= 0 and
                FE.hexes[m].terrain <= C.CAMP for e in range(6) if FE.neighbours[m][e] == fin)
    card = "Sa" if FE.hexes[fin].terrain == C.PADDLE else "Ex"
    f = R._struct(build(3, hand=card, seat=1, pieces={0: (FE.starts[0],), 1: (h,), 2: (FE.starts[2],)}))
    st = R._load(f)
    st.apply(move(card, d))
    g = R._struct(st)
    assert g["seat"][1]["piece"][0] == ELDORADO and g["final"] == 1 and g["moving"] == NONE
    st.apply(D_END)
    assert st.to_move == 2
    st.apply(D_END)
    assert st.is_terminal()
    assert st.returns() == [0.0, 1.0, 0.0] and st.scores() == [0, 2, 0]


def test_ties_between_finishers_go_to_blockades():
    f = R._struct(new(1, 2, max_rounds=5))
    f["seat"][0]["piece"] = [ELDORADO, ELDORADO]
    f["seat"][1]["piece"] = [ELDORADO, ELDORADO]
    f["final"], f["turn"], f["to_move"] = 1, 1, 1
    st = R._load(f)
    assert st.returns() == [0.5, 0.5]          # judged on the position as it stands
    st.apply(D_END)
    assert st.returns() == [0.5, 0.5] and st.scores() == [2, 2]
    strong = max(C.BLOCKADES, key=lambda b: (b.power, b.number))
    two = [b.number for b in C.BLOCKADES if b.number != strong.number][-2:]
    for held, want in ((1 << (strong.number - 1), [1.0, 0.0]), ((1 << (two[0] - 1)) | (1 << (two[1] - 1)), [1.0, 0.0])):
        f2 = dict(f)
        f2["seat"] = [dict(q) for q in f["seat"]]
        f2["seat"][0]["held"] = held
        f2["seat"][1]["held"] = 1 << (next(b.number for b in C.BLOCKADES if b.number != strong.number) - 1)
        st = R._load(f2)
        st.apply(D_END)
        assert st.returns() == want and st.scores() == [2, 1]


def test_the_round_limit_ends_the_game_after_the_last_seat():
    st = new(1, 4, max_rounds=2)
    for k in range(7):
        assert st.to_move == k % 4
        st.apply(D_END)
    assert st.to_move == 3
    st.apply(D_END)
    assert st.is_terminal() and R._struct(st)["turn"] == 8 and st.round_index == 0


# ----- a walk to El Dorado ---------------------------------------------------------------------------------


def _distances(route):
    dist = {h: 0 for h in route.finishing}
    todo = deque(route.finishing)
    while todo:
        h = todo.popleft()
        for n in route.neighbours[h]:
            if n >= 0 and n not in dist and route.hexes[n].terrain <= C.CAMP:
                dist[n] = dist[h] + 1
                todo.append(n)
    return dist


def _greedy(st, route, dist, rnd):
    """Moves that bring a piece nearer to El Dorado first, then money and purchases, then ends."""
    f = R._struct(st)
    q = f["seat"][f["to_move"]]
    best, score = None, 0
    for d in st.legal():
        if d < D_PAY:
            if d < D_STEP:
                p, dirn = (d // 6) % 2, d % 6
            else:
                p, dirn = f["moving"], d - D_STEP
            pos = q["piece"][p]
            nxt = route.neighbours[pos][dirn]
            gain = dist.get(pos, 99) - dist.get(nxt, 99) + rnd.random() * 0.1
            if gain > score:
                best, score = d, gain
    if best is not None:
        return best
    legal = st.legal()
    for lo, hi in ((D_PAY, D_COIN), (D_BUY, D_TRANSMIT), (D_COIN, D_BUY), (D_ACTION, D_REMOVE)):
        options = [d for d in legal if lo <= d < hi]
        if options:
            return options[-1] if lo == D_BUY else rnd.choice(options)
    return D_END if D_END in legal else rnd.choice(legal)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_games_reach_el_dorado(players):
    finished = 0
    for seed in range(3):
        rnd = random.Random(seed)
        route = C.ROUTES[seed % 4]
        dist = _distances(route)
        st = new(seed, players, route=route.index, caves=seed % 2, max_rounds=60)
        while st.to_move is not None:
            st.apply(_greedy(st, route, dist, rnd))
        _check_cards(st)
        ret = st.returns()
        assert sum(ret) == pytest.approx(1.0)
        f = R._struct(st)
        if f["final"]:
            finished += 1
            done = [k for k in range(players) if all(p == ELDORADO for p in f["seat"][k]["piece"][:2 if players == 2 else 1])]
            assert done and all(ret[k] == 0 for k in range(players) if k not in done)
    assert finished >= 1
