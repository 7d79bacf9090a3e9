"""What the Watch and Replay views read from a results database, as JSON-able data.

- `tournaments`: every entry of the database (tournaments and games played with `play --db` or in
  the browser), newest first;
- `tournament`: standings with Elo and its 95% interval (arena/standings.py), each finished game's
  result for the plot of ratings over games, and the games in progress (arena/live.py), each as
  its public view only (gui/public.py): a running game never shows a hand;
- `replay`: a recorded game decision by decision. A recorded game has ended, so its frames may
  show every hand (the full positions); `seat=` gives the frames as that seat saw them.

>>> # see tests/test_gui.py
"""
from __future__ import annotations

import math
from typing import Any

import engine
from arena.live import live_games
from arena.ratings import rating_list
from arena.replay import positions
from arena.standings import standings
from arena.store import Store
from gui.public import PublicViewError, public_view


def tournaments(store: Store) -> list[dict[str, Any]]:
    """Every entry of the database, newest first."""
    out = []
    for entry in reversed(store.tournaments()):
        config = entry.config
        out.append({"id": entry.id, "edition": config.edition, "format": config.format, "status": entry.status,
                    "planned": entry.planned, "bots": [b.name for b in config.bots]})
    return out


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def tournament(store: Store, tid: int) -> dict[str, Any]:
    """Standings, the rating plot's points and the games in progress of tournament `tid`."""
    _, config, planned, status = store.tournament(tid)
    games = store.games(tid)
    sides = config.seat_sides()
    table = standings(games, sides, margins=engine.get_edition(config.edition).rules.margin)
    rows = []
    for row in table.rows:
        rating = row.rating
        rows.append({"name": row.name, "games": row.games, "points": row.points, "share": row.share,
                     "margin": row.margin if table.margins else None, "failures": row.failures,
                     "elo": _finite(rating.elo) if rating else None,
                     "error": _finite(rating.error) if rating else None})
    return {"id": tid, "edition": config.edition, "status": status, "planned": planned, "done": len(games),
            "bots": [b.name for b in config.bots], "standings": rows, "plot": _rating_plot(games, sides),
            "terminations": table.terminations,
            "games": [{"id": g.id, "index": g.index, "bots": g.seat_bots, "scores": g.scores, "returns": g.returns,
                       "termination": g.termination} for g in games[-50:]],
            "live": _live(store.path, tid, config.edition)}


def _rating_plot(games: list[Any], sides: list[int], points: int = 12) -> list[dict[str, Any]]:
    """Elo of each bot (two-sided games) after growing shares of the games: the plot's points."""
    out: list[dict[str, Any]] = []
    if len(set(sides)) != 2 or not games:
        return out
    first = [s for s in range(len(sides)) if sides[s] == sides[0]][0]
    second = next(s for s in range(len(sides)) if sides[s] != sides[0])
    results = [(g.seat_bots[first], g.seat_bots[second], g.returns[first]) for g in games]
    marks = sorted({max(1, round(len(results) * k / points)) for k in range(1, points + 1)})
    for count in marks:
        out.append({"games": count, "ratings": [{"name": r.name, "elo": _finite(r.elo), "error": _finite(r.error)}
                                                for r in rating_list(results[:count], iterations=200)]})
    return out


def _live(path: str, tid: int, edition: str) -> list[dict[str, Any]]:
    """The games of `tid` in progress, each as its public view."""
    out = []
    for game in live_games(path, tid):
        try:
            view = public_view(engine.parse_position(game.position))
        except (engine.ExpeditionsError, PublicViewError):
            continue
        out.append({"index": game.index, "bots": game.seat_bots, "ply": game.ply, "view": view,
                    "layout": layout(edition, game.position),
                    "updated": game.updated})
    return out


def layout(edition: str, position: str) -> Any:
    """The drawing's layout of the game that starts at `position` (None without one)."""
    drawing = engine.get_edition(edition).drawing
    return drawing.value.layout(engine.parse_position(position)) if drawing else None


def replay(store: Store, game_id: int, seat: int | None = None) -> dict[str, Any]:
    """A recorded game's frames: the position before each decision and after the last, as full
    positions (it has ended), or as seat `seat`'s views."""
    game = store.game(game_id)
    frames = []
    state = None
    for _, record, state in positions(game):
        frames.append({"seat": record.seat, "decision": record.decision, "ms": record.time_ms,
                       "value": record.value, "text": _as_seen(state, seat)})
    final = state if state is not None else engine.parse_position(game.initial_position)  # positions() applied the last
    frames.append({"seat": None, "decision": None, "ms": None, "value": None, "text": _as_seen(final, seat)})
    return {"id": game_id, "edition": game.edition, "options": game.options, "bots": game.seat_bots,
            "scores": game.scores, "returns": game.returns, "termination": game.termination, "reason": game.reason,
            "layout": layout(game.edition, game.initial_position), "frames": frames, "seat": seat}


def _as_seen(state: engine.State, seat: int | None) -> str:
    return state.to_text() if seat is None else state.view_text(seat)
