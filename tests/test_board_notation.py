"""`board` notation (docs/board.md): the deal from a seed, round trips, views and bad input."""
from __future__ import annotations

import random

import pytest

import engine
from board_positions import DECK, position
from engine.errors import IllegalDecisionError, NotationError, OptionError

MASK = (1 << 64) - 1


# ----- the deal, written again from the spec ---------------------------------------------------------

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


def spec_deal(seed: int, players: int) -> dict[str, str]:
    """The fields of the first position, dealt as docs/board.md "Dealing" says."""
    gen = SplitMix64(seed)
    tiles = ["A"] * 9 + [">"] * 9 + ["V5", "V5", "V10", "V10", "V10", "V15", "V15"]
    gen.shuffle(tiles)
    cards = list(DECK)
    gen.shuffle(cards)
    box = []
    if players == 2:
        box, cards = cards[-30:], cards[:-30]
    hands = [[] for _ in range(players)]
    for k in range(8 * players):
        hands[k % players].append(cards[len(cards) - 1 - k])
    deck = cards[:len(cards) - 8 * players]
    per_path = [tiles[5 * x:5 * x + 5] for x in range(5)]
    return {
        "tiles": "/".join("".join(p) for p in per_path),
        "hands": "/".join("".join(sorted(h, key=DECK.index)) for h in hands),
        "deck": "".join(deck),
        "box": "".join(sorted(box, key=DECK.index)) or "-",
        "rng": f"{gen.x:016x}",
    }


def fields(text: str) -> dict[str, str]:
    return dict(t.split("=", 1) for t in text.split()[1:])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_first_deal_follows_the_spec(players):
    for seed in list(range(30)) + [2**64 - 1, 0xDEADBEEF]:
        got = fields(engine.new_game("board", seed=seed, players=players).to_text())
        for key, value in spec_deal(seed, players).items():
            assert got[key] == value, (seed, key)


def test_the_first_position_text():
    text = engine.new_game("board", seed=1, players=2).to_text()
    head = ("board rounds=3 max_turns=300 updown=0 players=2 round=1/3 starter=0 turn=0 phase=play to_move=0 "
            "nodraw=. totals=0/0 artifacts=0/0 hands=")
    assert text.startswith(head)
    assert " cols=-/- pieces=...../..... researcher=-/- tiles=" in text and " known=-/- rng=" in text


# ----- round trips ----------------------------------------------------------------------------------------

def _random_positions(count: int, players: int, **options):
    rng = random.Random(players * 1000 + count)
    for seed in range(count):
        s = engine.new_game("board", seed=seed, players=players, **options)
        for _ in range(rng.randrange(0, 700)):
            if s.is_terminal():
                break
            s.apply(rng.choice(s.legal()))
        yield s


@pytest.mark.parametrize("players", [2, 3, 4])
def test_positions_and_views_round_trip(players):
    phases = set()
    for s in _random_positions(40, players, updown=players % 2):
        phases.add(s.phase)
        text = s.to_text()
        assert engine.parse_position(text) == s and engine.parse_position(text).to_text() == text
        for seat in range(players):
            view = s.view_text(seat)
            parsed = engine.parse_view(view)
            assert parsed.text == view and parsed.seat == seat
            assert parsed.state.view_text(seat).rsplit(" history=", 1)[0] == view.rsplit(" history=", 1)[0]
    assert {"play", "draw"} <= phases


def test_move_phase_positions_round_trip():
    s = engine.parse_position(position(hands=["w4", None], cols=["b0w0", "-"], pieces=[".11..", "....."]))
    s.apply("+w4")
    assert s.phase == "move"
    assert engine.parse_position(s.to_text()) == s
    view = engine.parse_view(s.view_text(0))
    assert view.legal_text() == [">b", ">w", ">-"]


def test_decisions_as_text():
    s = engine.new_game("board", seed=2, players=3)
    for text in ("+y0", "+rTR", "-g5", "D", "Dw", ">b", ">-"):
        assert s.decision_to_text(s.parse_decision(text)) == text
    ids = [s.parse_decision(t) for t in ("+y0", "+rT", "+y0R", "+rTR", "-y0", "-rT", "D", "Dy", "Dr", ">y", ">r", ">-")]
    assert ids == sorted(ids), "decision ids follow notation order"


def test_history_masks_other_seats_draws_from_the_deck():
    s = engine.new_game("board", seed=4, players=3)
    s.apply(s.legal_text()[-1])
    s.apply("D")
    card = s.history()[-1]
    assert card.startswith("D:") and s.history(0)[-1] == card and s.history(1)[-1] == "D"
    assert s.view_text(2).endswith(f"history={s.history(2)[0]},D")


# ----- bad input ----------------------------------------------------------------------------------------------

GOOD = engine.new_game("board", seed=11, players=3).to_text()


def _field(name: str, text: str = GOOD) -> str:
    return next(t for t in text.split() if t.startswith(name + "=")).split("=", 1)[1]


def _replace(name: str, value: str, text: str = GOOD) -> str:
    tokens = text.split()
    for i, token in enumerate(tokens):
        if token.startswith(name + "="):
            tokens[i] = f"{name}={value}"
            return " ".join(tokens)
    raise AssertionError(name)


@pytest.mark.parametrize("text, fragment", [
    ("board", "ends early"),
    (GOOD.replace("updown=0", "updown=2"), "option updown"),
    (_replace("players", "5"), "players"),
    (_replace("players", "2"), "3 seats"),
    (_replace("round", "1/2"), "rounds option"),
    (_replace("phase", "bid"), "phase"),
    (_replace("phase", "move"), "no piece below stone 9"),
    (_replace("nodraw", "y"), "nodraw"),
    (_replace("totals", "0/0/-5"), "totals"),
    (_replace("artifacts", "0/x/0"), "artifacts"),
    (_replace("cols", "y5y3/-/-"), "cols"),
    (_replace("cols", "b1y3/-/-"), "colour by colour"),
    (_replace("pieces", "1..../...../....."), "pieces"),
    (_replace("pieces", "0..../...../....."), "pieces"),
    (_replace("researcher", "y/-/-"), "researcher"),
    (_replace("tiles", "AAAAA/AAAAA/AAAAA/AAAAA/AAAAA"), "tile set"),
    (_replace("tiles", "AAA/AAAAA/AAAAA/AAAAA/AAAAA"), "tiles: path y"),
    (_replace("piles", "b1/-/-/-/-"), "piles"),
    (_replace("box", "y0"), "the position holds"),
    (_replace("known", _field("deck")[:2] + "/-/-"), "known"),
    (_replace("rng", "XYZ"), "rng"),
    (GOOD + " extra", "extra text"),
])
def test_malformed_positions_name_the_problem(text, fragment):
    with pytest.raises(NotationError) as err:
        engine.parse_position(text)
    assert fragment in str(err.value)


def test_a_column_too_short_for_its_piece_and_five_adventurers_are_rejected():
    with pytest.raises(NotationError, match="behind its column"):
        engine.parse_position(position(cols=["y0y1y2", "-"], pieces=["2....", "....."]))
    with pytest.raises(NotationError, match="adventurers"):
        engine.parse_position(position(cols=["y0b0w0g0r0", "-"], pieces=["11111", "....."]))
    with pytest.raises(NotationError, match="beyond a bridge"):
        engine.parse_position(position(cols=["y0b0w0g0r0", "-"], pieces=["77777", "....."], researcher=["y", "-"]))


def test_falling_columns_need_the_updown_option():
    text = position(cols=["y5y3", "-"], pieces=["2....", "....."])
    with pytest.raises(NotationError, match="updown"):
        engine.parse_position(text)
    assert engine.parse_position(text.replace("updown=0", "updown=1")).options["updown"] == 1


@pytest.mark.parametrize("text", ["", "+", "+y", "+yA", "+y3X", "+y3RR", "-y", "Dq", ">", ">q", ">--", "y3", "D "])
def test_malformed_decisions(text):
    s = engine.new_game("board", seed=1)
    before = s.to_text()
    with pytest.raises(NotationError) as err:
        s.apply(text)
    assert "expected" in str(err.value) and s.to_text() == before


def test_illegal_decisions_change_nothing():
    s = engine.new_game("board", seed=1, players=2)
    before = s.to_text()
    for text in ("D", ">y", ">-", "Dy"):
        with pytest.raises(IllegalDecisionError):
            s.apply(text)
    assert s.to_text() == before


def test_options_and_players():
    with pytest.raises(OptionError, match="2, 3, 4"):
        engine.new_game("board", players=5)
    with pytest.raises(OptionError, match="updown"):
        engine.new_game("board", updown=3)
    with pytest.raises(OptionError, match="options:"):
        engine.new_game("board", cost=20)
    assert engine.new_game("board", seed=3, players=2, rounds=1, max_turns=50, updown=1).options == \
        {"rounds": 1, "max_turns": 50, "updown": 1}


@pytest.mark.parametrize("mutate, fragment", [
    (lambda v: v.replace("seat=1", "seat=4"), "seat"),
    (lambda v: v.replace("deck=78", "deck=77"), "hides"),
    (lambda v: v.replace("box=0", "box=1"), "hides"),
    (lambda v: v.replace(" history=-", ""), "history"),
    (lambda v: v.replace("?8", "?x", 1), "unknown cards"),
])
def test_malformed_views(mutate, fragment):
    view = engine.new_game("board", seed=3).view_text(1)
    with pytest.raises(NotationError) as err:
        engine.parse_view(mutate(view))
    assert fragment in str(err.value)


def test_mutated_positions_parse_or_raise_notation_errors():
    """Random edits of valid positions and views never crash the parser nor raise anything else."""
    rng = random.Random(5)
    texts = [s.to_text() for s in _random_positions(6, 2)] + [s.to_text() for s in _random_positions(6, 4)]
    texts += [s.view_text(1) for s in _random_positions(6, 3)]
    alphabet = "ybwgr0123456789TAV>.-/?=R"
    for _ in range(1500):
        text = rng.choice(texts)
        i = rng.randrange(len(text))
        edit = rng.choice(("drop", "swap", "insert"))
        if edit == "drop":
            text = text[:i] + text[i + 1:]
        elif edit == "swap":
            text = text[:i] + rng.choice(alphabet) + text[i + 1:]
        else:
            text = text[:i] + rng.choice(alphabet) * rng.randrange(1, 40) + text[i:]
        try:
            if " seat=" in text:
                engine.parse_view(text)
            else:
                engine.parse_position(text)
        except NotationError:
            pass
