"""The record of Lost Cities: The Board Game (`board`, 2-4 players).

>>> BOARD.default_players, BOARD.check_players(None), BOARD.seats
(4, 4, (2, 3, 4))
>>> BOARD.new(3, 2, {"rounds": 1, "max_turns": 300, "updown": 0}).players
2
"""
from __future__ import annotations

from engine.board.observation import OBSERVATION
from engine.board.rules import OPTION_SPECS, RULES, SEATS
from engine.board.state import COLOUR_NAMES, RANKS, BoardState, new_state
from engine.board.rules import COLOURS
from engine.edition import Edition, Palette, Ref, SearchDefaults, TurnShape

PALETTE = Palette(rf"(?<![a-z])(?P<key>[{COLOURS}])[{RANKS}]", dict(zip(COLOURS, COLOUR_NAMES)))
"""A card is its path's letter then its value (`y3`, `rT`, also in a column `y2y3`), in the colour
of its path (the data's colour names are terminal colours)."""

BOARD = Edition(
    name="board",
    title="Lost Cities: The Board Game (2-4 players)",
    order=4,
    seats=SEATS,
    teams=False,
    options=OPTION_SPECS,
    rules=RULES,
    state_type=BoardState,
    new=new_state,
    from_text=BoardState.from_text,
    parse_view=BoardState.parse_view,
    # a turn is a play or discard, optional steps (a `move` phase of the same seat), then a draw
    turn=TurnShape(decisions=2, begins=lambda state: state.phase == "play"),
    search=SearchDefaults(40.0, infer=False),  # the spread is assumed, not measured
    quick_options={"rounds": 1},
    default_players=4,
    heuristic=Ref("bots.board.heuristic:HEURISTIC"),
    auditor=Ref("engine.board.audit:BoardSeatAudit"),
    reference=Ref("engine.board.reference:Game"),
    drawing=Ref("engine.board.drawing:DRAWING"),
    palette=PALETTE,
    observation=OBSERVATION,
)
EDITIONS = (BOARD,)
"""The family's records, for the registry (engine/editions.py)."""
