"""Builds `board` positions from the few fields a test cares about (docs/board.md, "Positions").

Cards not placed explicitly fill the hands (8, the mover 7 after its play), then the box (2
players), then the draw pile, in canonical order, so every position is valid by construction.

>>> import engine
>>> text = position(cols=["y3", "-"], pieces=["1....", "....."])
>>> engine.parse_position(text).pieces(0)
{'y': 1}
"""
from __future__ import annotations

from collections import Counter

COLOURS = "ybwgr"
RANKS = "0123456789T"
DECK = [c + r for c in COLOURS for r in RANKS for _ in range(2)]

TILES = "V10>AAV5/>>V15A>/>>V15AA/V10V10AA>/V5>>AA"
"""A fixed layout of the shipped tile set. Spaces: y 2 4 6 7 9, b 3 5 6 7 9, w 2 3 5 7 9,
g 3 4 6 8 9, r 2 5 6 8 9; so y2 = V10, y4 = arrow, y7 = artifact, w2 and w3 arrows, b9 arrow."""


def cards(text: str) -> list[str]:
    """`'y3b0'` -> `['y3', 'b0']`; `'-'` -> `[]`."""
    return [] if text in ("-", "") else [text[i:i + 2] for i in range(0, len(text), 2)]


def canonical(card_list: list[str]) -> str:
    return "".join(sorted(card_list, key=DECK.index)) or "-"


def position(players: int = 2, *, rounds: int = 3, max_turns: int = 300, updown: int = 0,
             round: int = 1, starter: int = 0, turn: int = 0, phase: str = "play", to_move: int = 0,
             nodraw: str = ".", totals: list[int] | None = None, artifacts: list[int] | None = None,
             hands: list[str | None] | None = None, cols: list[str] | None = None,
             pieces: list[str] | None = None, researcher: list[str] | None = None, tiles: str = TILES,
             piles: list[str] | None = None, deck_size: int | None = None,
             known: list[str] | None = None, rng: str = "0123456789abcdef") -> str:
    """A full position; hands given as None (or shorter than the rules want) are filled up.
    `deck_size` cuts the draw pile short; the cards left over go onto the discard piles."""
    n = players
    totals = totals or [0] * n
    artifacts = artifacts or [0] * n
    cols = cols or ["-"] * n
    pieces = pieces or ["....."] * n
    researcher = researcher or ["-"] * n
    piles = piles or ["-"] * 5
    known = known or ["-"] * n
    hands = list(hands or [None] * n)
    pool = Counter(DECK)
    placed = [c for text in cols + piles for c in cards(text)]
    placed += [c for h in hands if h for c in cards(h)]
    pool.subtract(placed)
    assert all(v >= 0 for v in pool.values()), f"more than two of {[c for c, v in pool.items() if v < 0]}"
    rest = []
    for card in DECK:  # canonical order, copies together
        if pool[card] > 0:
            rest.append(card)
            pool[card] -= 1
    out_hands = []
    for seat in range(n):
        want = 8 - (1 if seat == to_move and phase in ("move", "draw") else 0)
        have = cards(hands[seat]) if hands[seat] else []
        while len(have) < want and phase != "over":
            have.append(rest.pop(0))
        out_hands.append(canonical(have))
    box = []
    if n == 2:
        box, rest = rest[:30], rest[30:]
    if deck_size is not None:
        rest, extra = rest[:deck_size], rest[deck_size:]
        piles = [(p if p != "-" else "") + "".join(c for c in extra if c[0] == COLOURS[k]) or "-"
                 for k, p in enumerate(piles)]
    deck_text = "".join(rest) or "-"
    fields = [
        "board", f"rounds={rounds}", f"max_turns={max_turns}", f"updown={updown}", f"players={n}",
        f"round={round}/{rounds}", f"starter={starter}", f"turn={turn}", f"phase={phase}",
        f"to_move={'-' if phase == 'over' else to_move}", f"nodraw={nodraw}",
        "totals=" + "/".join(map(str, totals)), "artifacts=" + "/".join(map(str, artifacts)),
        "hands=" + "/".join(out_hands), "cols=" + "/".join(cols), "pieces=" + "/".join(pieces),
        "researcher=" + "/".join(researcher), f"tiles={tiles}", "piles=" + "/".join(piles),
        f"deck={deck_text}", "box=" + canonical(box), "known=" + "/".join(known), f"rng={rng}",
    ]
    return " ".join(fields)
