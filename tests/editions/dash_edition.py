"""The record of `dash`, the tests' race (tests/editions/dash_game.pyx): what the layers above the
engine learn of it, in the one place an edition is added. It has no heuristic, opponent model,
auditor or reference model, so the searcher plays it with random rollouts and every seat in its
tree. Importable once tests/editions/build.py has compiled `dash_game`.

>>> DASH.name, DASH.seats, [spec.name for spec in DASH.options], DASH.rules.name
('dash', (2, 3, 4), ['goal'], 'dash')
>>> state = DASH.new_game(seed=1, players=3)
>>> DASH.turn.begins(state), DASH.from_text(state.to_text()) == state
(True, True)
"""
from __future__ import annotations

import dash_game
from engine.edition import Edition, SearchDefaults, TurnShape

DASH = Edition(
    name=dash_game.NAME,
    title="Dash, a deck-building race (the tests' edition, 2-4 players)",
    order=100,  # after the product's editions: never the default
    seats=dash_game.SEATS,
    teams=False,
    options=dash_game.OPTION_SPECS,
    rules=dash_game.RULES,
    state_type=dash_game.DashState,
    new=dash_game.new_state,
    from_text=dash_game.DashState.from_text,
    parse_view=dash_game.DashState.parse_view,
    # A turn plays one card or more and ends with E; turns_left counts turns that play a whole
    # hand: four cards and E.
    turn=TurnShape(decisions=5, begins=lambda state: state.phase == "play"),
    # A race is searched for its result (GameOps.margin 0): no margin's spread to scale, no model.
    search=SearchDefaults(round_spread=1.0, infer=False),
    quick_options={"goal": 15},
)
