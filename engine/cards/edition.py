"""The records of the card games: `classic`, `partners` and `expedition`.

>>> [(ed.name, ed.seats, ed.teams) for ed in EDITIONS]
[('classic', (2,), False), ('partners', (4,), True), ('expedition', (2,), False)]
>>> EXPEDITION.new(7, 2, {"rounds": 1, "max_turns": 300, "cost": 20}).options["cost"]
20
"""
from __future__ import annotations

from collections.abc import Callable
from functools import partial

from engine.cards.notation import COLOURS, RANKS
from engine.cards.observation import OBSERVATIONS
from engine.cards.rules import EDITION_NAMES, OPTION_SPECS, RULES, SEATS
from engine.cards.state import CardState, new_state, read_position, read_view
from engine.edition import Edition, Palette, Ref, SearchDefaults, TurnShape
from engine.options import OptionSpec

TURN = TurnShape(decisions=2, begins=lambda state: state.phase == "play")
"""A turn is a play or discard, then a draw (or, in partners, one pass)."""


SUIT_COLOURS = {"y": "yellow", "b": "blue", "w": "bright_white", "g": "green", "r": "red",
                "c": "green", "d": "yellow", "h": "red", "s": "blue"}
"""The terminal colour of each colour or suit letter (the expedition's suits c d h s as the four
colours of a four-colour deck)."""


def palette(index: int) -> Palette:
    """A card is its colour letter then its rank (`y7`, `bW`, `hA`), not after another lowercase
    letter, and possibly right after another card (a pass, `>y4b2`).

    >>> palette(0).spans("hand y5 bW  >y4b2  Dy")
    [(5, 7, 'yellow'), (8, 10, 'blue'), (13, 15, 'yellow'), (15, 17, 'blue')]
    """
    letters = COLOURS[index]
    return Palette(rf"(?<![a-z])(?P<key>[{letters}])[{RANKS[index]}]", {x: SUIT_COLOURS[x] for x in letters})


def _dealer(name: str) -> Callable[[int, int, dict[str, int]], CardState]:
    def new(seed: int, players: int, options: dict[str, int]) -> CardState:
        return new_state(name, seed, options)
    return new


def _record(index: int, title: str, search: SearchDefaults, opponent_model: Ref | None = None,
            showcase: bool = False) -> Edition:
    name = EDITION_NAMES[index]
    options: tuple[OptionSpec, ...] = OPTION_SPECS[index]
    return Edition(
        name=name,
        title=title,
        order=index + 1,
        seats=(SEATS[index],),
        teams=SEATS[index] == 4,
        options=options,
        rules=RULES[index],
        state_type=CardState,
        new=_dealer(name),
        from_text=partial(read_position, edition=index),
        parse_view=partial(read_view, edition=index),
        turn=TURN,
        search=search,
        quick_options={"rounds": 1},
        heuristic=Ref("bots.cards.heuristic:HEURISTIC"),
        opponent_model=opponent_model,
        auditor=Ref("engine.cards.audit:SeatAudit"),
        reference=Ref(f"engine.cards.reference.{name}:Game"),
        drawing=Ref("engine.cards.drawing:DRAWING"),
        palette=palette(index),
        observation=OBSERVATIONS[index],
        showcase=showcase,
    )


# The searcher's defaults were measured with duplicate matches against greedy (docs/search.md,
# docs/strength.md): the spread of a round's margin over 600 deals each; the opponent model where it
# helped; in partners the two-card passes multiply the root decisions, and searching the heuristic's
# best 12 chose better than spreading a second over all of them.
_INFERENCE = Ref("bots.cards.inference:card_inference")
CLASSIC = _record(0, "Lost Cities, the card game (2 players)", SearchDefaults(38.0, infer=True), _INFERENCE)
PARTNERS = _record(1, "Lost Cities for 4 players in partnerships",
                   SearchDefaults(32.0, infer=False, root_candidates=12))
# The arena's embedded tournament plays `expedition`: at 50 ms a decision the searcher already wins
# about 0.72 of its games against greedy there (classic needs about a second for that),
# research/notebook.md "The first run's main job".
EXPEDITION = _record(2, "Expedition, the 52-card adaptation (2 players)", SearchDefaults(54.0, infer=True),
                     _INFERENCE, showcase=True)
EDITIONS = (CLASSIC, PARTNERS, EXPEDITION)
"""The family's records, for the registry (engine/editions.py)."""
