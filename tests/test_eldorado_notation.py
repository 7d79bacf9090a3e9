"""`eldorado` notation (docs/eldorado.md): the deal from a seed, round trips of positions and views
over random games, decision texts, what a view hides, records with what decisions drew, precise
errors for bad text, the pictures and the seat auditor."""
from __future__ import annotations

import random
import re
from collections import Counter

import pytest

import engine
from engine.eldorado import components as c
from engine.eldorado.audit import EldoradoSeatAudit
from engine.errors import NotationError
from engine.audit import InformationLeak

MASK = (1 << 64) - 1
ROUTES = c.ROUTE_NAMES
MARKET_START = "market=Sc3Tb3Ph3Tc3Ja3Tm3/Pi3Gm3Ca3Jo3Mi3Ad3Pp3Cg3Si3Co3Tl3Na3"


def fields(text: str) -> dict[str, str]:
    """The fields of a position or view after its options (the option and the field `caves` share
    a name)."""
    tokens = text.split()
    start = next(i for i, t in enumerate(tokens) if t.startswith("players="))
    return dict(t.split("=", 1) for t in tokens[start:])


def replace_field(text: str, name: str, value: str) -> str:
    """`text` with the field `name` (after the options) set to `value`."""
    tokens = text.split()
    start = next(i for i, t in enumerate(tokens) if t.startswith("players="))
    for i in range(start, len(tokens)):
        if tokens[i].partition("=")[0] == name:
            tokens[i] = f"{name}={value}"
            return " ".join(tokens)
    raise KeyError(name)


def without_history(view: str) -> str:
    return view.rsplit(" history=", 1)[0]


# ----- the deal, written again from the spec -------------------------------------------------------------

class SplitMix64:
    def __init__(self, seed: int) -> None:
        self.x = seed

    def next(self) -> int:
        self.x = (self.x + 0x9E3779B97F4A7C15) & MASK
        z = self.x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        m = self.next() * n
        if (m & MASK) < n:
            t = ((1 << 64) - n) % n
            while (m & MASK) < t:
                m = self.next() * n
        return m >> 64

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def spec_deal(seed: int, players: int, route: str, caves: int) -> dict[str, str]:
    """The fields of the first position, dealt as docs/eldorado.md "Dealing" says."""
    gen = SplitMix64(seed)
    geometry = c.ROUTES[ROUTES.index(route)]
    blockades = [1, 2, 3, 4, 5, 6]
    gen.shuffle(blockades)
    piles = ["-"] * len(geometry.caves)
    box = "-"
    if caves:
        tokens = [t.code for t in c.TOKENS for _ in range(t.count)]
        gen.shuffle(tokens)
        piles = ["".join(tokens[4 * k:4 * k + 4]) for k in range(len(geometry.caves))]
        rest = tokens[4 * len(geometry.caves):]
        box = "".join(sorted(rest, key=lambda code: [t.code for t in c.TOKENS].index(code))) or "-"
    hands, draws = [], []
    for _ in range(players):
        deck = ["Ex"] * 3 + ["Tv"] * 4 + ["Sa"]
        gen.shuffle(deck)
        hand, draw = deck[4:], deck[:4]
        hands.append("".join(sorted(hand, key=["Ex", "Tv", "Sa"].index)))
        draws.append("".join(draw))
    return {
        "blockades": ",".join(str(b) for b in blockades[:geometry.connections]),
        "cavepiles": ",".join(piles),
        "box": box,
        "hands": "/".join(hands),
        "draws": "/".join(draws),
        "rng": f"{gen.x:016x}",
    }


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_first_deal_follows_the_spec(route, players):
    for seed in [0, 1, 2, 3, 17, 2**64 - 1, 0xDEADBEEF]:
        for caves in (0, 1):
            got = fields(engine.new_game("eldorado", seed=seed, players=players, route=route, caves=caves).to_text())
            for key, value in spec_deal(seed, players, route, caves).items():
                assert got[key] == value, (seed, caves, key)


def test_the_first_position_text():
    text = engine.new_game("eldorado", seed=1, players=2).to_text()
    head = ("eldorado route=first-expedition caves=0 max_rounds=100 players=2 turn=0 phase=play to_move=0 final=0 "
            "pieces=36,34/35,33 blockades=")
    assert text.startswith(head)
    assert f" held=-/- {MARKET_START} hands=" in text
    assert (" discards=-/- removed=-/- played=- tokens=-/- cavepiles=-,-,- box=- explored=-,-/-,- coins=0 bought=0 "
            "lastcoin=- moving=- pay=- remove=0 replace=- last=- flags=- rng=") in text
    three = fields(engine.new_game("eldorado", seed=1, players=3, route="witchs-cauldron").to_text())
    assert three["pieces"] == "33/34/35" and three["explored"] == "-/-/-"
    assert three["cavepiles"] == "-,-,-,-,-,-"


def test_options_are_written_by_name_and_read_by_name_or_number():
    s = engine.new_game("eldorado", seed=4, players=4, route="winding-paths", caves=1, max_rounds=7)
    assert s.options == {"route": 2, "caves": 1, "max_rounds": 7}
    assert s.to_text().split()[1:4] == ["route=winding-paths", "caves=1", "max_rounds=7"]
    assert engine.new_game("eldorado", seed=4, players=4, route=2, caves=1, max_rounds=7) == s
    # missing options take their defaults; a number names a route too
    assert engine.parse_position(s.to_text().replace(" route=winding-paths", " route=2")) == s
    default = engine.new_game("eldorado", seed=4)
    assert engine.parse_position(default.to_text().replace(" caves=0 max_rounds=100", "")) == default


# ----- random games -------------------------------------------------------------------------------------

def random_positions(count: int, players: int, route: str, caves: int, seed: int = 0, longest: int = 600,
                     rounds: tuple[int, ...] = (3, 10, 100)):
    """Positions of random games: after a random number of uniformly random decisions, some finished
    (`rounds`: the choices of max_rounds)."""
    rng = random.Random(seed * 7919 + players * 131 + ROUTES.index(route) * 17 + caves)
    for k in range(count):
        s = engine.new_game("eldorado", seed=seed * 1000 + k, players=players, route=route, caves=caves,
                            max_rounds=rng.choice(rounds))
        for _ in range(rng.randrange(0, longest)):
            if s.is_terminal():
                break
            s.apply(rng.choice(s.legal()))
        yield s


CASES = [(route, players, caves) for route in ROUTES for players in (2, 3, 4) for caves in (0, 1)]


@pytest.mark.parametrize("route, players, caves", CASES)
def test_positions_and_views_round_trip(route, players, caves):
    phases = set()
    for s in random_positions(6, players, route, caves):
        phases.add(s.phase)
        text = s.to_text()
        parsed = engine.parse_position(text)
        assert parsed == s and parsed.to_text() == text
        assert parsed.legal() == s.legal()
        for seat in range(players):
            view = s.view_text(seat)
            got = engine.parse_view(view)
            assert got.text == view and got.seat == seat
            assert list(got.history) == s.history(seat)
            again = got.state.view_text(seat)
            assert without_history(again) == without_history(view) and again.endswith(" history=-")
            if s.to_move == seat:
                assert got.legal() == s.legal()
    assert phases <= {"play", "discard", "over"}


def test_views_of_resampled_positions_are_the_same():
    for s in random_positions(12, 3, "hills-of-gold", 1, seed=5):
        for seat in range(3):
            view = without_history(s.view_text(seat))
            for sample in range(3):
                other = s.determinized(seat, sample)
                assert without_history(other.view_text(seat)) == view
                assert engine.parse_position(other.to_text()) == other


def test_finished_games_round_trip():
    done = 0
    for players in (2, 3, 4):
        for s in random_positions(3, players, "first-expedition", players % 2, seed=9, longest=100_000):
            if not s.is_terminal():
                continue
            done += 1
            f = fields(s.to_text())
            assert f["phase"] == "over" and f["to_move"] == "-" and f["played"] == "-"
            assert int(f["turn"]) % players == 0
            assert engine.parse_position(s.to_text()) == s
            for seat in range(players):
                view = s.view_text(seat)
                assert without_history(engine.parse_view(view).state.view_text(seat)) == without_history(view)
            assert s.turns_left(0) == 0 and s.begins_turn() is False
    assert done > 0


# ----- decisions ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("route, players, caves", CASES)
def test_every_legal_decision_reads_back(route, players, caves):
    kinds = Counter()
    for s in random_positions(5, players, route, caves, seed=2, longest=800, rounds=(100,)):
        while not s.is_terminal():
            texts = s.legal_text()
            for d, text in zip(s.legal(), texts):
                assert s.parse_decision(text) == d, text
                assert " " not in text and "," not in text
                kinds[_kind(text)] += 1
                if players == 2 and ">" in text and not text.startswith(">"):
                    assert re.fullmatch(r"[a-zA-Z0-9]{2}[ab]>(\d+|B\d)", text), text
                elif ">" in text and not text.startswith(">"):
                    assert re.fullmatch(r"[a-zA-Z0-9]{2}>(\d+|B\d)", text), text
            s.apply(random.Random(len(s.history())).choice(s.legal()))
            if len(s.history()) % 97 == 0:
                break
    assert {"move", "coins", "end"} <= set(kinds)


def _kind(text: str) -> str:
    if text == ".":
        return "end"
    if text.startswith(">"):
        return "step"
    if ">" in text:
        return "blockade" if ">B" in text else "move"
    return {"#": "pay", "$": "coins", "*": "buy", "x": "remove", "~": "replace", "-": "discard"}.get(
        text[0], "transmit" if text.startswith("Tm*") else "action")


def test_every_decision_id_has_a_text():
    """Every id has a text, legal or not (an illegal one's target may be `?`), without spaces."""
    s = engine.new_game("eldorado", seed=6, players=3)
    num = engine.get_edition("eldorado").rules.num_decision_ids
    assert num == 509
    texts = [s.decision_to_text(d) for d in range(num)]
    assert all(t and " " not in t for t in texts)
    assert texts[348:354] == [f">{s.decision_to_text(348 + d)[1:]}" for d in range(6)]
    assert texts[354] == "#Ex" and texts[375] == "$Ex" and texts[396:398] == ["$c1", "$c2"]
    assert texts[398] == "*Sc" and texts[416] == "Tm*Sc" and texts[434:444] == [
        "Cg!", "Si!", "Co!", "Tl!", "dr!", "rm!", "rh!", "ki!", "po!", "cs!"]
    assert texts[444] == "xEx" and texts[465] == "~Ex" and texts[486] == "~." and texts[487] == "-Ex"
    assert texts[508] == "."
    with pytest.raises(ValueError):
        s.decision_to_text(509)


def test_moves_name_their_target_hex_through_the_map():
    s = engine.new_game("eldorado", seed=1, players=2)
    route = s.route
    for d in s.legal():
        text = s.decision_to_text(d)
        if d < 348:
            source, piece, direction = d // 12, (d // 6) % 2, d % 6
            here = int(s.pieces(0)[piece])
            assert text.startswith(s.decision_to_text(d).split(">")[0])
            assert text == f"{c.CARDS[source].code}{'ab'[piece]}>{route.neighbours[here][direction]}"


def test_bad_decision_texts():
    s = engine.new_game("eldorado", seed=1, players=2)
    here = int(s.pieces(0)[0])
    far = next(h for h in range(len(s.route.hexes)) if h not in s.route.neighbours[here] and h != here)
    for text, match in [("", "empty decision"), ("Ex>57", "names its piece"), (f"Exa>{far}", "not a neighbour"),
                        ("Exa>B9", "blockade"), (">58", "a step continues"), ("Zz>1", "names its piece"),
                        ("Zza>1", "source"), ("*Ex", "not a decision"), ("Tm*Tv", "not a decision"),
                        ("$zz", "not a decision"), ("Exa>", "not a decision"), ("Exa>x", "target hex"),
                        ("Exa>999", "target hex")]:
        with pytest.raises(NotationError, match=match):
            s.parse_decision(text)
    three = engine.new_game("eldorado", seed=1, players=3)
    with pytest.raises(NotationError, match="source"):
        three.parse_decision(f"Exa>{three.route.neighbours[int(three.pieces(0)[0])][2]}")


# ----- records and what a view hides ----------------------------------------------------------------------

def test_records_show_what_a_decision_drew_to_its_mover_only():
    shown = 0
    for s in random_positions(8, 2, "first-expedition", 1, seed=3, longest=1, rounds=(100,)):
        rng = random.Random(shown)
        while not s.is_terminal() and len(s.history()) < 400:
            mover = s.to_move
            d = rng.choice(s.legal())
            record, written = s.record_text(d), s.decision_to_text(d)
            assert s.play(d) == record
            assert s.history(1 - mover)[-1] == written  # as written when it was made
            text, colon, drawn = record.partition(":")
            if text == "Tm":  # a transmit's text holds a colon, and it draws nothing
                assert written == record
                continue
            assert text == written
            if colon:
                shown += 1
                assert text in ("Cg!", "Si!", "Co!", "Tl!", "dr!", "~.", ".")
                assert s.revealed_text(s.parse_revealed(drawn)) == drawn
                assert s.history(mover)[-1] == record and s.history()[-1] == record
                assert s.history(1 - mover)[-1] == text
    assert shown > 20
    for bad in ("", "-", "E", "Exx", "Zz", "Ex" * 17):
        with pytest.raises(NotationError):
            s.parse_revealed(bad)


def test_a_view_hides_other_hands_draw_orders_cave_piles_and_the_generator():
    for s in random_positions(10, 3, "witchs-cauldron", 1, seed=4, longest=500):
        full = fields(s.to_text())
        for seat in range(3):
            view = s.view_text(seat)
            f = fields(view)
            assert "rng" not in f and "box" not in f and f["seat"] == str(seat)
            for k, (hand, draw, unseen) in enumerate(zip(f["hands"].split("/"), f["draws"].split("/"),
                                                         f["unseen"].split("/"))):
                true_hand = full["hands"].split("/")[k]
                true_draw = full["draws"].split("/")[k]
                assert draw == str(0 if true_draw == "-" else len(true_draw) // 2)
                if k == seat:
                    assert hand == true_hand
                    assert Counter(_pairs(unseen)) == Counter(_pairs(true_draw))
                else:
                    assert hand == f"?{0 if true_hand == '-' else len(true_hand) // 2}"
                    assert Counter(_pairs(unseen)) == Counter(_pairs(true_hand) + _pairs(true_draw))
                assert unseen == "".join(sorted(_pairs(unseen), key=c.CARD_CODES.index)) or unseen == "-"
            assert f["cavepiles"] == ",".join(str(len(_pairs(p))) for p in full["cavepiles"].split(","))
            pool = _pairs(full["box"]) + [t for p in full["cavepiles"].split(",") for t in _pairs(p)]
            assert Counter(_pairs(f["cavepool"])) == Counter(pool)
            for name in ("pieces", "blockades", "held", "market", "discards", "removed", "played", "tokens",
                         "explored", "coins", "moving", "pay", "flags"):
                assert f[name] == full[name]
            # what the view hides is nowhere else in it: the generator, the draw orders
            assert full["rng"] not in view
            for k in range(3):
                if len(_pairs(full["draws"].split("/")[k])) > 2:
                    assert full["draws"].split("/")[k] not in view.split(" history=")[0]


def _pairs(text: str) -> list[str]:
    return [] if text == "-" else [text[i:i + 2] for i in range(0, len(text), 2)]


def test_a_view_parses_into_the_canonical_filling():
    s = engine.new_game("eldorado", seed=12, players=2, caves=1)
    for d in ["$Tv"] if "$Tv" in s.legal_text() else []:
        s.apply(d)
    view = engine.parse_view(s.view_text(0))
    mine, theirs = view.state, s
    assert mine.hand(0) == theirs.hand(0)
    # seat 1's unseen cards in canonical order: its hand first, then its draw pile bottom up
    unseen = sorted(theirs.hand(1) + theirs.draw_pile(1), key=c.CARD_CODES.index)
    assert mine.hand(1) == unseen[:4] and mine.draw_pile(1) == unseen[4:]
    assert mine.draw_pile(0) == sorted(theirs.draw_pile(0), key=c.CARD_CODES.index)
    assert fields(mine.to_text())["rng"] == "0" * 16
    piles = fields(mine.to_text())["cavepiles"].split(",")
    pool = sorted(_pairs(fields(s.view_text(0))["cavepool"]), key=c.TOKEN_CODES.index)
    assert "".join(piles) == "".join(pool[:4 * len(piles)])


# ----- bad text -----------------------------------------------------------------------------------------

MOUNTAIN = next(h.number for h in c.ROUTES[0].hexes if h.terrain == c.MOUNTAIN)


def _base() -> str:
    return engine.new_game("eldorado", seed=5, players=2).to_text()


def _base3() -> str:
    return engine.new_game("eldorado", seed=5, players=3).to_text()


BAD_POSITIONS = [
    (lambda: _base().replace("eldorado", "eldorad", 1), "not an eldorado position"),
    (lambda: _base().replace("route=first-expedition", "route=atlantis"), "option route"),
    (lambda: _base().replace("caves=0 ", "caves=2 ", 1), "option caves"),
    (lambda: _base().replace("max_rounds=100", "max_rounds=0"), "option max_rounds"),
    (lambda: _base().replace("players=2", "players=5"), "players"),
    (lambda: _base().replace("caves=0 max_rounds=100", "max_rounds=100 caves=0"), "option caves: repeated or out of order"),
    (lambda: replace_field(_base(), "turn", "x"), "turn: not an integer"),
    (lambda: replace_field(_base(), "phase", "shopping"), "phase"),
    (lambda: replace_field(_base(), "to_move", "1"), "to_move: seat turn mod players"),
    (lambda: replace_field(_base(), "final", "1"), "final: the final round is set exactly"),
    (lambda: replace_field(_base(), "pieces", "36/35,33"), "pieces: 1 pieces"),
    (lambda: replace_field(_base(), "pieces", f"36,34/35,{MOUNTAIN}"), "pieces: seat 1's piece b on a mountain"),
    (lambda: replace_field(_base(), "pieces", "36,34/35,187"), "finishing space"),
    (lambda: replace_field(_base(), "blockades", "1,1,2,3"), "blockades: a blockade on two connections"),
    (lambda: replace_field(_base(), "blockades", "1,2,3"), "blockades: 3 connections"),
    (lambda: replace_field(replace_field(_base(), "blockades", "1,2,3,-"), "held", "1/-"),
     "held: seat 0 holds blockade 1, which lies on a connection"),
    (lambda: replace_field(replace_field(_base(), "blockades", "1,2,3,4"), "held", "5/-"), "held: 1 blockades held"),
    (lambda: replace_field(_base(), "held", "3,1/-"), "ascending"),
    (lambda: _base().replace(MARKET_START, "market=Ex3Tb3Ph3Tc3Ja3Tm3/Pi3Gm3Ca3Jo3Mi3Ad3Pp3Cg3Si3Co3Tl3Na3"),
     "market: not a market card"),
    (lambda: _base().replace(MARKET_START, "market=Sc3Tb3Pi3Ph3Tc3Ja3Tm3/Gm3Ca3Jo3Mi3Ad3Pp3Cg3Si3Co3Tl3Na3"),
     "at most six piles"),
    (lambda: _base().replace(MARKET_START, "market=Tb3Sc3Ph3Tc3Ja3Tm3/Pi3Gm3Ca3Jo3Mi3Ad3Pp3Cg3Si3Co3Tl3Na3"),
     "market: piles in card order"),
    (lambda: _base().replace(MARKET_START, "market=Sc4Tb3Ph3Tc3Ja3Tm3/Pi3Gm3Ca3Jo3Mi3Ad3Pp3Cg3Si3Co3Tl3Na3"),
     "market \\(count\\)"),
    (lambda: _base().replace(MARKET_START, "market=Sc2Tb3Ph3Tc3Ja3Tm3/Pi3Gm3Ca3Jo3Mi3Ad3Pp3Cg3Si3Co3Tl3Na3"),
     "the position holds 2 Sc"),
    (lambda: replace_field(_base(), "hands", "ExQq/" + fields(_base())["hands"].split("/")[1]), "hands: unknown card"),
    (lambda: replace_field(_base(), "hands", "SaEx/" + fields(_base())["hands"].split("/")[1]), "canonical order"),
    (lambda: replace_field(_base(), "discards", "Sc/-"), "the position holds 4 Sc"),
    (lambda: replace_field(_base(), "removed", "Ex/-"), "seat 0 owns 4 Ex"),
    (lambda: replace_field(_base(), "tokens", "m1/-"), "caves=0: no cave tokens"),
    (lambda: replace_field(_base(), "cavepiles", "-,-"), "cavepiles: 2 caves"),
    (lambda: replace_field(_base(), "explored", "x,-/-,-"), "explored: seat 0's piece a"),
    (lambda: replace_field(_base(), "explored", "-/-,-"), "explored: 1 pieces"),
    (lambda: replace_field(_base(), "coins", "-1"), "coins"),
    (lambda: replace_field(_base(), "bought", "2"), "bought"),
    (lambda: replace_field(_base(), "lastcoin", "m1"), "lastcoin"),
    (lambda: replace_field(_base3(), "moving", "b"), "moving"),
    (lambda: replace_field(_base(), "moving", "am0"), "moving"),
    (lambda: replace_field(_base(), "pay", "2x"), "pay"),
    (lambda: replace_field(_base(), "remove", "3"), "remove: out of range"),
    (lambda: replace_field(_base(), "replace", "5"), "replace: out of range"),
    (lambda: replace_field(_base(), "last", "E"), "last"),
    (lambda: replace_field(_base(), "flags", "sk"), "flags"),
    (lambda: replace_field(_base(), "rng", "XYZ"), "rng"),
    (lambda: replace_field(replace_field(_base(), "phase", "discard"), "pay", "1r"), "phase=discard"),
    (lambda: replace_field(replace_field(_base(), "phase", "over"), "to_move", "-"), "turn: a game ends with a round"),
    (lambda: _base() + " more=1", "extra text"),
    (lambda: _base().replace(" flags=-", ""), "field"),
]


@pytest.mark.parametrize("make, match", BAD_POSITIONS, ids=[m for _, m in BAD_POSITIONS])
def test_bad_positions_raise_notation_errors_naming_the_field(make, match):
    text = make()
    with pytest.raises(NotationError, match=match) as info:
        engine.get_edition("eldorado").from_text(text)
    assert info.value.token is not None or info.value.expected is not None


def _view(seat: int = 0) -> str:
    return engine.new_game("eldorado", seed=5, players=2, caves=1).view_text(seat)


BAD_VIEWS = [
    (lambda: replace_field(_view(), "hands", fields(_view())["hands"].split("/")[0] + "/ExExTvTv"),
     "hands: seat 1's hand is hidden"),
    (lambda: replace_field(_view(), "draws", "4/ExEx"), "draws: not an integer"),
    (lambda: replace_field(_view(), "unseen", "ExTv/" + fields(_view())["unseen"].split("/")[1]),
     "unseen: seat 0's unseen cards"),
    (lambda: replace_field(_view(), "cavepiles", "4,4,9"), "cavepiles: out of range"),
    (lambda: replace_field(_view(), "cavepool", "m1"), "cavepool: fewer tokens"),
    (lambda: replace_field(_view(), "history", "Ex>57>58"), "history"),
    (lambda: replace_field(_view(), "seat", "2"), "seat: out of range"),
    (lambda: _view().replace(" history=-", " rng=0000000000000000"), "history"),
]


@pytest.mark.parametrize("make, match", BAD_VIEWS, ids=[m for _, m in BAD_VIEWS])
def test_bad_views_raise_notation_errors_naming_the_field(make, match):
    with pytest.raises(NotationError, match=match):
        engine.parse_view(make())


# ----- turns, pictures -----------------------------------------------------------------------------------

def test_turns_begin_and_end():
    s = engine.new_game("eldorado", seed=8, players=3)
    ed = engine.get_edition("eldorado")
    assert ed.turn.begins(s) and s.turns_left(0) >= 1
    s.apply(s.legal()[0])
    assert not ed.turn.begins(s)
    while s.to_move == 0:
        s.apply(".") if "." in s.legal_text() else s.apply(s.legal()[0])
    assert ed.turn.begins(s) and s.turn == 1
    assert s.turns_left(0) == s.turns_left(1) - 1 == s.turns_left(2) - 1
    assert ed.turn.begins(engine.parse_position(s.to_text()))
    with pytest.raises(ValueError):
        s.turns_left(3)


def test_pictures():
    for s in random_positions(4, 2, "hills-of-gold", 1, seed=11, longest=300):
        picture = s.pretty()
        assert picture.startswith("eldorado  hills-of-gold")
        for seat in range(2):
            mine = s.pretty(seat)
            assert mine.splitlines()[0] == picture.splitlines()[0]
            other = mine.splitlines()[-2 - seat]  # the other seat's line: its hand hidden
            assert "hand ?" in other
        assert len(picture.splitlines()) > 20


def test_render_png(tmp_path):
    pytest.importorskip("matplotlib")
    from engine.eldorado.picture import render_png

    for route in ROUTES:
        s = next(random_positions(1, 2, route, 1, seed=13, longest=60))
        out = render_png(s, tmp_path / f"{route}.png")
        data = out.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


# ----- the seat auditor ---------------------------------------------------------------------------------

def _follow(state):
    """What the auditor follows: the reference model's game at the state's position."""
    reference = engine.get_edition("eldorado").reference
    try:
        return reference.value.from_text(state.to_text())
    except ImportError:  # the model is written apart; the auditor only reads its full position
        return state.copy()


def test_the_auditor_passes_the_engines_views_and_catches_leaks():
    for s in random_positions(4, 3, "winding-paths", 1, seed=14, longest=400):
        for seat in range(3):
            audit = EldoradoSeatAudit(_follow(s), seat)
            view = s.view_text(seat)
            audit.check("position " + view)
            full = fields(s.to_text())
            other = (seat + 1) % 3
            leaks = [
                view.replace(" history=", f" rng={full['rng']} history="),
                replace_field(view, "hands", "/".join(full["hands"].split("/"))),
                replace_field(view, "draws", full["draws"]),
                replace_field(view, "cavepiles", full["cavepiles"]),
                replace_field(view, "seat", str(other)),
            ]
            unseen = fields(view)["unseen"].split("/")
            if full["hands"].split("/")[other] != "-":
                unseen[other] = full["hands"].split("/")[other]  # one seat's hand alone
                leaks.append(replace_field(view, "unseen", "/".join(unseen)))
            for leak in leaks:
                if leak == view:
                    continue
                with pytest.raises(InformationLeak):
                    audit.check("position " + leak)
            with pytest.raises(InformationLeak):
                audit.check("position full " + s.to_text())


def test_the_auditor_refuses_another_seats_draws_in_the_history():
    s = engine.new_game("eldorado", seed=15, players=2)
    s.apply("$Tv")
    s.apply(".")
    record = s.history()[-1]
    assert record.startswith(".:")
    audit = EldoradoSeatAudit(_follow(s), 1)
    view = s.view_text(1)
    audit.check("position " + view)
    with pytest.raises(InformationLeak, match="draw"):
        audit.check("position " + replace_field(view, "history", record))


# ----- the examples of the docstrings ---------------------------------------------------------------------

@pytest.mark.parametrize("name", ["engine.eldorado", "engine.eldorado.state", "engine.eldorado.edition",
                                  "engine.eldorado.audit", "engine.eldorado.picture"])
def test_module_examples(name):
    import doctest
    import importlib

    failures, _ = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert failures == 0
