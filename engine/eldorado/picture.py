"""Pictures of an El Dorado position: the text picture of `d`, `replay` and `expeditions play`
(`text_picture`, what `EldoradoState.pretty(seat)` returns) and a PNG of the map (`render_png`,
with matplotlib, an optional dependency).

Both read the position through its notation (`EldoradoState.fields(seat)`: a view's fields when a
seat is given, so a picture for a seat shows exactly what that seat may see) and the route's map
(engine/eldorado/components.py).

The map is drawn row by row (r of the axial coordinates), each hex a cell of four characters
shifted half a cell per row, so that neighbours touch as on the board:

- the first character: the number of the blockade lying on a border of the hex, if any;
- then the terrain and its power: `j` jungle (machete), `w` water (paddle), `v` village (coin),
  `r` rubble, `c` base camp; `^^` a mountain, `*a` … a cave (its letter), `s1`..`s4` a start
  space, `Ew`/`Ej` a finishing space (water or jungle of power 1);
- the last character: the piece on it, a letter, so that it never reads as a power or a
  blockade: `A` `B` `C` `D` the piece (a) of seat 0, 1, 2, 3; with 2 players `a` `b` the piece b
  of seat 0, 1; `+` for two pieces.

>>> import engine
>>> s = engine.new_game("eldorado", seed=1, players=2)
>>> lines = text_picture(s, 0).splitlines()
>>> lines[0]
'eldorado  first-expedition  caves=0  round 1/100  turn 0  seat 0 to play'
>>> any(" s1A" in line for line in lines), any(" s3a" in line for line in lines), lines[-3].startswith("seat 0*")
(True, True, True)
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.errors import MissingExtraError
from engine.eldorado.components import (BLOCKADES, CAMP, CARDS, CAVE, COIN, MACHETE, MOUNTAIN, PADDLE, RUBBLE,
                                        START, RouteMap)

TERRAIN_NAMES = {MACHETE: "machete", PADDLE: "paddle", COIN: "coin", RUBBLE: "rubble"}
_TERRAIN_LETTER = {MACHETE: "j", PADDLE: "w", COIN: "v", RUBBLE: "r", CAMP: "c"}
_SYMBOL_NAMES = {"m": "machete", "p": "paddle", "v": "coin"}


def _cards(text: str) -> list[str]:
    """The codes of a set or stack text (`-`: none)."""
    return [] if text == "-" else [text[i:i + 2] for i in range(0, len(text), 2)]


def _spaced(text: str) -> str:
    """A set text with a space between its cards (`-` stays)."""
    return " ".join(_cards(text)) or "-"


def _piece_marks(players: int, pieces: list[list[str]]) -> dict[int, str]:
    """hex -> the character of the piece(s) on it."""
    marks: dict[int, str] = {}
    for seat, hexes in enumerate(pieces):
        for p, where in enumerate(hexes):
            if where == "E":
                continue
            mark = "ABCD"[seat] if p == 0 else "ab"[seat]
            h = int(where)
            marks[h] = "+" if h in marks else mark
    return marks


def _blockade_marks(route: RouteMap, blockades: list[str]) -> dict[int, str]:
    """hex -> the number of a blockade on one of its borders (either side of the connection)."""
    marks: dict[int, str] = {}
    for h in range(len(route.hexes)):
        for k in route.crossing[h]:
            if k >= 0 and blockades[k] != "-":
                marks.setdefault(h, blockades[k])
    return marks


def map_rows(route: RouteMap, fields: dict[str, str]) -> list[str]:
    """The hex map of a position (its fields, as `EldoradoState.fields` gives them) as text rows."""
    players = int(fields["players"])
    pieces = [part.split(",") for part in fields["pieces"].split("/")]
    pieces_on = _piece_marks(players, pieces)
    blocked = _blockade_marks(route, fields["blockades"].split(","))
    start_number = {h: i + 1 for i, h in enumerate(route.starts)}
    cave_index = {h: k for k, h in enumerate(route.caves)}
    units = [2 * h.q + h.r for h in route.hexes]
    low = min(units)
    rows: dict[int, dict[int, str]] = {}
    for h, unit in zip(route.hexes, units):
        if h.finishing:
            label = "E" + _TERRAIN_LETTER[h.terrain]
        elif h.terrain == MOUNTAIN:
            label = "^^"
        elif h.terrain == CAVE:
            label = "*" + chr(97 + cave_index[h.number])
        elif h.terrain == START:
            label = f"s{start_number.get(h.number, '?')}"
        else:
            label = f"{_TERRAIN_LETTER[h.terrain]}{h.power}"
        last = pieces_on.get(h.number, " ")
        rows.setdefault(h.r, {})[2 * (unit - low)] = blocked.get(h.number, " ") + label + last
    out = []
    for r in sorted(rows):
        line = ""
        for col in sorted(rows[r]):
            line += " " * (col - len(line)) + rows[r][col]
        out.append(line.rstrip())
    return out


def text_picture(state: Any, seat: int | None = None) -> str:
    """The text picture of an `EldoradoState`; with `seat`, only what that seat may see."""
    fields = state.fields(seat)
    route: RouteMap = state.route
    players = int(fields["players"])
    turn = int(fields["turn"])
    options = state.options
    rounds = options["max_rounds"]
    if fields["phase"] == "over":
        status = f"game over after {turn // players} rounds"
    else:
        status = f"seat {fields['to_move']} to {fields['phase']}" + ("  final round" if fields["final"] == "1" else "")
    lines = [f"eldorado  {route.name}  caves={options['caves']}  round {min(turn // players + 1, rounds)}/{rounds}"
             f"  turn {turn}  {status}"]
    lines += map_rows(route, fields)
    blockades = []
    for k, b in enumerate(fields["blockades"].split(",")):
        if b == "-":
            blockades.append(f"{k}:taken")
        else:
            block = BLOCKADES[int(b) - 1]
            blockades.append(f"{k}:B{b} {TERRAIN_NAMES[block.terrain]} {block.power}")
    lines.append("blockades  " + "  ".join(blockades))
    board, beside = fields["market"].split("/")

    def piles(text: str) -> str:
        return " ".join(text[i:i + 3] for i in range(0, len(text), 3)) if text != "-" else "-"
    lines.append(f"market  board {piles(board)}  beside {piles(beside)}")
    if options["caves"]:
        caves = fields["cavepiles"].split(",")
        pool = fields.get("box", fields.get("cavepool", "-"))
        lines.append("caves  " + "  ".join(f"{chr(97 + k)}:{pile}" for k, pile in enumerate(caves))
                     + ("  box " if "box" in fields else "  in caves and box ") + _spaced(pool))
    if fields["phase"] != "over":
        moving = fields["moving"]
        if moving != "-" and len(moving) > 1:
            moving = f"{moving[0]} ({_SYMBOL_NAMES[moving[1]]} {moving[2:]} left)"
        pay = fields["pay"]
        if pay != "-":
            pay = f"{pay[:-1]} for a {'rubble' if pay[-1] == 'r' else 'base camp'}"
        coins = int(fields["coins"])
        lines.append(f"turn  played {_spaced(fields['played'])}  coins {coins // 2}{'.5' if coins % 2 else ''}"
                     f"  bought {'yes' if fields['bought'] == '1' else 'no'}  moving {moving}  pay {pay}"
                     f"  remove {fields['remove']}  replace {fields['replace']}  flags {fields['flags']}")
    parts = {name: fields[name].split("/") for name in ("pieces", "hands", "draws", "discards", "removed",
                                                        "tokens", "held", "explored")}
    for k in range(players):
        marker = "*" if fields["phase"] != "over" and fields["to_move"] == str(k) else " "
        where = " ".join(f"{'ab'[p]}@{h}" for p, h in enumerate(parts["pieces"][k].split(",")))
        hand = parts["hands"][k]
        hand = hand if hand.startswith("?") else _spaced(hand)
        draws = parts["draws"][k]
        size = draws if draws.isdigit() else str(len(_cards(draws)))
        lines.append(f"seat {k}{marker} pieces {where}  hand {hand}  draw {size}  discard {_spaced(parts['discards'][k])}"
                     f"  removed {_spaced(parts['removed'][k])}  tokens {' '.join(_cards(parts['tokens'][k])) or '-'}"
                     f"  blockades {parts['held'][k]}")
    lines.append("legend  " + "ABCD"[:players] + ": the seats' pieces" + ("  ab: their pieces b" if players == 2 else "")
                 + "  j w v r c: jungle water village rubble camp  ^^ mountain  *x cave  sN start  E El Dorado"
                 + "  a digit before a hex: the blockade on its border")
    return "\n".join(lines)


_COLOURS = {MACHETE: "#3a9d3a", PADDLE: "#3b7dd8", COIN: "#e8c547", RUBBLE: "#9a9a9a", CAMP: "#c8463c",
            MOUNTAIN: "#5b4636", CAVE: "#222222", START: "#f4f1e8"}
_SEAT_COLOURS = ("#ffffff", "#111111", "#e0457b", "#ff8c1a")


def render_png(state: Any, path: str | Path, seat: int | None = None) -> Path:
    """Draws the map of `state` into a PNG file at `path` (returned): hexes coloured by terrain with
    their powers, finishing spaces outlined in gold, caves lettered, blockades as thick bars on
    their borders (labelled B<n>), pieces as discs in their seat's colour with the seat number (and
    piece letter with 2 players). Needs matplotlib (the extra `plot`; MissingExtraError says how to add it).
    """
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Circle, RegularPolygon
    except ImportError as error:  # an optional dependency
        raise MissingExtraError("matplotlib", "plot", "render_png") from error
    fields = state.fields(seat)
    route: RouteMap = state.route
    players = int(fields["players"])
    root3 = 3 ** 0.5

    def centre(q: int, r: int) -> tuple[float, float]:
        return root3 * (q + r / 2), -1.5 * r

    xs = [centre(h.q, h.r)[0] for h in route.hexes]
    ys = [centre(h.q, h.r)[1] for h in route.hexes]
    width, height = max(xs) - min(xs) + 3, max(ys) - min(ys) + 3
    fig, ax = plt.subplots(figsize=(max(6.0, width * 0.32), max(4.0, height * 0.32)))
    start_number = {h: i + 1 for i, h in enumerate(route.starts)}
    cave_index = {h: k for k, h in enumerate(route.caves)}
    for h in route.hexes:
        x, y = centre(h.q, h.r)
        edge, line = ("#d4a017", 3.0) if h.finishing else ("#333333", 0.6)
        ax.add_patch(RegularPolygon((x, y), numVertices=6, radius=1.0, orientation=0.0,
                                    facecolor=_COLOURS[h.terrain], edgecolor=edge, linewidth=line))
        if h.terrain == CAVE:
            label, colour = chr(97 + cave_index[h.number]), "white"
        elif h.terrain == START:
            label, colour = f"S{start_number.get(h.number, '')}", "black"
        elif h.terrain == MOUNTAIN:
            label, colour = "", "white"
        else:
            label, colour = str(h.power) + ("\nE" if h.finishing else ""), "black"
        ax.text(x, y, label, ha="center", va="center", fontsize=7, color=colour)
    # blockades: a bar across each border edge of a connection that still holds one
    blockades = fields["blockades"].split(",")
    labelled = set()
    for h in route.hexes:
        for d, k in enumerate(route.crossing[h.number]):
            if k < 0 or blockades[k] == "-" or route.hexes[route.neighbours[h.number][d]].tile < h.tile:
                continue
            n = route.hexes[route.neighbours[h.number][d]]
            (x1, y1), (x2, y2) = centre(h.q, h.r), centre(n.q, n.r)
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            dx, dy = (y1 - y2) / 2 / root3, (x2 - x1) / 2 / root3  # along the shared edge
            block = BLOCKADES[int(blockades[k]) - 1]
            ax.plot([mx - dx, mx + dx], [my - dy, my + dy], color="black", linewidth=7, solid_capstyle="butt",
                    zorder=3)
            ax.plot([mx - dx, mx + dx], [my - dy, my + dy], color=_COLOURS[block.terrain], linewidth=4,
                    solid_capstyle="butt", zorder=4)
            if k not in labelled:
                labelled.add(k)
                ax.text(mx, my, f"B{blockades[k]}:{block.power}", fontsize=6, ha="center", va="center", zorder=5,
                        bbox={"boxstyle": "round,pad=0.1", "facecolor": "white", "alpha": 0.8})
    for k, part in enumerate(fields["pieces"].split("/")):
        for p, where in enumerate(part.split(",")):
            if where == "E":
                continue
            h = route.hexes[int(where)]
            x, y = centre(h.q, h.r)
            x += (0.3 if p else -0.3) if players == 2 else 0.0
            ax.add_patch(Circle((x, y - 0.35), 0.32, facecolor=_SEAT_COLOURS[k], edgecolor="black", zorder=6))
            ax.text(x, y - 0.35, str(k) + ("ab"[p] if players == 2 else ""), fontsize=6, ha="center", va="center",
                    color="black" if k != 1 else "white", zorder=7)
    ax.set_xlim(min(xs) - 1.5, max(xs) + 1.5)
    ax.set_ylim(min(ys) - 1.5, max(ys) + 1.5)
    ax.set_aspect("equal")
    ax.axis("off")
    turn = int(fields["turn"])
    ax.set_title(f"eldorado {route.name}, round {turn // players + 1}, turn {turn}, "
                 f"{'game over' if fields['phase'] == 'over' else 'seat ' + fields['to_move'] + ' to ' + fields['phase']}",
                 fontsize=9)
    out = Path(path)
    fig.savefig(out, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    return out


__all__ = ["TERRAIN_NAMES", "CARDS", "map_rows", "render_png", "text_picture"]
