"""The record of The Quest for El Dorado (`eldorado`, 2-4 players).

>>> ELDORADO.default_players, ELDORADO.seats, [spec.name for spec in ELDORADO.options]
(2, (2, 3, 4), ['route', 'caves', 'max_rounds'])
>>> state = ELDORADO.new(3, 3, ELDORADO.resolve_options({"route": "winding-paths"}))
>>> state.options["route"], ELDORADO.turn.begins(state)
(2, True)
"""
from __future__ import annotations

from engine._core import State
from engine.edition import Edition, Palette, Ref, SearchDefaults, TurnShape
from engine.eldorado.components import ACTION, CARDS, COIN, JOKER, MACHETE, PADDLE
from engine.eldorado.observation import OBSERVATION
from engine.eldorado.rules import OPTION_SPECS, RULES, SEATS
from engine.eldorado.state import EldoradoState, new_state

DECISIONS_PER_TURN = 6
"""Decisions of an average turn as the bots play it (what a clock is shared over, with
`EldoradoState.turns_left`): the greedy heuristic in every seat, 20 games per case, caves off, makes
6.3 (2 players) and 6.1 (4 players) on first-expedition, 7.2 and 6.5 on witchs-cauldron (research/
notebook.md, 2026-11-29). Uniformly random play makes 3.1 to 4.4: too few, a clock shared over them
spends the turns' budget on their first decisions."""
ROLLOUT_TURNS = 2
"""A search's rollouts stop where the searching seat is about to begin its second turn after the root
(its own turn finished, then one more, and the others' in between) and are scored by the heuristic's
evaluation, which is calibrated there: cut after a count of decisions instead, rollouts stopped in
the middle of turns, where the evaluation misjudges whose turn it is (research/notebook.md,
2026-12-06)."""
HALVING_FLOOR = 16
"""Worlds a candidate gets at least in the first round of the root's halving race: at a second a turn
(300 - 1,000 iterations a decision) the budget cannot give every one of 10 - 30 root decisions that
many, and a handful of worlds each cannot tell the heuristic's choice from its neighbours; the
heuristic's best race instead (research/notebook.md, 2026-12-07)."""
HALVING_MARGIN = 0.02
"""The reward by which another finalist of the root's halving race must beat the heuristic's decision
to be played instead (the heuristic's decision always reaches the final). Valued by rollouts played to
the end of the game, the search's departures from greedy whose own estimate was below 0.01 lost on
average, and with 4 players a margin of 0.02 finished first in 0.460 of 200 games on witchs-cauldron
against 0.375 without (research/notebook.md, "El Dorado: a margin for greedy's decision")."""
VERIFY_ITERATIONS = 100
"""Worlds in which a departure of the search from the heuristic's decision is raced again, rollouts
played to the end of the game (`SearchDefaults.verify_iterations`). Against greedy, with the check and
without on the same deals: 4 players, first in 0.510 against 0.460 (witchs-cauldron, 300 iterations)
and 0.450 (first-expedition, 500); 2 players, 0.920 against 0.843 (witchs-cauldron, 600) and 0.880
against 0.770 (first-expedition, 1,000) (research/notebook.md, "El Dorado: a check against the end of
the game")."""
QUICK_ROUNDS = 20
"""`max_rounds` of a short game (random games never finish and end at the round limit)."""
QUICK_ITERATIONS = 7500
"""Iterations of a `go` without limits: about a second at the first decision of a 2-player game
(7,600 - 8,000 iterations/s, `heuristic_iterations_per_s` of `expeditions bench --search -e eldorado`;
rollouts of a race cost more than the card editions' rounds)."""


SYMBOL_COLOURS = {MACHETE: "green", PADDLE: "blue", COIN: "yellow", JOKER: "magenta", ACTION: "bright_white"}
"""A card's terminal colour by its symbol: the jungle's, the water's and the village's colours of the
map picture, the jokers and the action cards apart."""
PALETTE = Palette(r"(?<![a-z][a-z])(?P<key>" + "|".join(card.code for card in CARDS) + r")(?![a-z]{2})",
                  {card.code: SYMBOL_COLOURS[card.symbol] for card in CARDS})
"""A card is its code (`Ex`, also in a move `Exa>31` or a set `ExTvSa`), not the start of a word."""


def begins_turn(state: State) -> bool:
    """Whether the next decision of `state` begins a turn (`EldoradoState.begins_turn`)."""
    return isinstance(state, EldoradoState) and state.begins_turn()


ELDORADO = Edition(
    name="eldorado",
    title="The Quest for El Dorado (2-4 players)",
    order=5,
    seats=SEATS,
    teams=False,
    options=OPTION_SPECS,
    rules=RULES,
    state_type=EldoradoState,
    new=new_state,
    from_text=EldoradoState.from_text,
    parse_view=EldoradoState.parse_view,
    # A turn is any number of atomic decisions (moves, steps, payments, coins, a purchase, actions,
    # tokens, discards) ending with `.`; it begins when the last decision was an end (see
    # EldoradoState.begins_turn for a position without a record).
    turn=TurnShape(decisions=DECISIONS_PER_TURN, begins=begins_turn),
    # A race (GameOps.margin 0): only the result counts, so there is no margin's spread to scale.
    # Rollouts stop at the searching seat's ROLLOUT_TURNS-th turn and are scored by the heuristic's evaluation.
    search=SearchDefaults(round_spread=1.0, infer=False, cutoff_turns=ROLLOUT_TURNS, iterations=QUICK_ITERATIONS,
                          halving=True, halving_floor=HALVING_FLOOR, halving_margin=HALVING_MARGIN,
                          verify_iterations=VERIFY_ITERATIONS),
    quick_options={"max_rounds": QUICK_ROUNDS},
    default_players=2,
    heuristic=Ref("bots.eldorado.heuristic:HEURISTIC"),
    auditor=Ref("engine.eldorado.audit:EldoradoSeatAudit"),
    reference=Ref("engine.eldorado.reference:Game"),
    drawing=Ref("engine.eldorado.drawing:DRAWING"),
    palette=PALETTE,
    observation=OBSERVATION,
)
EDITIONS = (ELDORADO,)
"""The family's records, for the registry (engine/editions.py)."""
