"""The record of one edition: everything the layers above the engine need to know about it.

An edition's family (a folder `engine/<family>/`) fills one `Edition` per edition in its
`edition.py`; `engine.editions` finds them. The searcher, the protocol, the arena and the command
line are to read an edition's facts here instead of comparing its name (as python-chess's variant
classes carry their own facts).

>>> import engine
>>> ed = engine.get_edition("expedition")
>>> ed.order, ed.seats, [o.name for o in ed.options], ed.quick_options
(3, (2,), ['rounds', 'max_turns', 'cost'], {'rounds': 1})
>>> ed.rules.name, ed.rules.num_decision_ids
('expedition', 2214)
>>> ed.turn.decisions, ed.turn.begins(ed.new_game(seed=3))
(2, True)
>>> ed.auditor.value.__name__, ed.heuristic.target
('SeatAudit', 'bots.cards.heuristic:HEURISTIC')
"""
from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from engine._core import Rules, State
from engine.observation import Observation
from engine.errors import OptionError
from engine.options import OptionSpec, parse_option_tokens, resolve_options


@dataclass(frozen=True)
class Ref:
    """A module (`"package.module"`) or one of its attributes (`"package.module:attribute"`),
    imported on first use: how a record names what lives above the engine (a heuristic, an
    opponent model) without importing it.

    >>> Ref("engine.options:OptionSpec").value.__name__, Ref("engine.options").value.__name__
    ('OptionSpec', 'engine.options')
    """

    target: str

    @cached_property
    def value(self) -> Any:
        """The module or attribute itself (imported once, then cached)."""
        module, _, attribute = self.target.partition(":")
        found = importlib.import_module(module)
        return getattr(found, attribute) if attribute else found


@dataclass(frozen=True)
class TurnShape:
    """How decisions group into turns."""

    decisions: int
    """Decisions of one turn, for sharing a clock over the turns left (2: play, then draw)."""
    begins: Callable[[State], bool]
    """Whether the next decision of a state begins a turn (a replay groups a turn's decisions)."""


@dataclass(frozen=True)
class SearchDefaults:
    """What the searcher assumes of an edition where its options say `auto`."""

    round_spread: float
    """Standard deviation of one round's margin between two greedy players, in points (the
    logistic reward's scale is this / 1.7)."""
    infer: bool
    """Whether `Infer=auto` samples the opponents' hidden cards from the opponent model."""
    root_candidates: int = 0
    """Root decisions searched when `RootCandidates` is -1 (0: all)."""
    cutoff_turns: int = 0
    """Where the heuristic evaluates positions (`Heuristic.evaluates`), a rollout of a race (match
    rewards) stops where the searching seat is about to begin its `cutoff_turns`-th turn since the root,
    and the evaluation scores it: every rollout stops at the same point of the round, a turn's start;
    0: rollouts play to the end."""
    iterations: int = 20000
    """Iterations of a `go` without limits (`Iterations` 0): about a second's search, so that such a
    `go` stays quick as docs/protocol.md asks."""
    haste: float = 0.0
    """Match rewards: per decision from the search's root, the result's distance from a draw shrinks
    by exp(-haste), so that a win sooner beats a win later (0: a win is a win)."""
    halving: bool = False
    """The root searched by sequential halving: every candidate played out in the same worlds, the
    worse half dropped after each round (a flat search: `MaxDepth` and `Others` do not apply)."""
    halving_floor: int = 0
    """A halving root: worlds the first round gives each candidate at least; where the budget cannot
    give every root decision that many, only the heuristic's best race (0: all race). An edition
    constant, not a searcher option."""
    halving_margin: float = 0.0
    """A halving root: the heuristic's decision is never cut from the race, and the other finalist
    is chosen over it only when its mean reward is higher by at least this (0: no protection, the
    better mean wins). An edition constant, not a searcher option."""
    verify_iterations: int = 0
    """A halving root with a margin: where the search would leave the heuristic's decision, the two
    race again over this many worlds with rollouts played to the end of the game (common worlds, every
    seat the heuristic), and the search leaves the heuristic's decision only if that race does not
    rate it lower: the cut rollouts' evaluation is the search's bias, the end of the game is not
    (0: no such check). On top of an iteration budget; under a clock the first race leaves it
    `VERIFY_SHARE` of the time. An edition constant, not a searcher option."""


@dataclass(frozen=True)
class Palette:
    """The colours a terminal shows an edition's cards in (`expeditions play`): each match of
    `card`, a regular expression whose group `key` is the card's colour or suit (or its code), takes
    the colour `colours[key]`, a `rich` colour name.

    >>> palette = Palette(r"(?<![A-Za-z])(?P<key>[yb])[0-9]", {"y": "yellow", "b": "blue"})
    >>> palette.spans("hand y4 b7  pile by")
    [(5, 7, 'yellow'), (8, 10, 'blue')]
    """

    card: str
    colours: Mapping[str, str]

    @cached_property
    def _pattern(self) -> re.Pattern[str]:
        return re.compile(self.card)

    def spans(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, colour) of every card in `text` whose key has a colour, in order."""
        return [(m.start(), m.end(), self.colours[m["key"]]) for m in self._pattern.finditer(text)
                if m["key"] in self.colours]


@dataclass(frozen=True, eq=False)
class Edition:
    """One edition: its facts, its compiled rules, how to make, read and show its states, and
    references to what the upper layers add for it. Records compare by identity."""

    name: str
    """The edition's name in notation and on the command line, e.g. ``'classic'``."""
    title: str
    order: int
    """Place in listings (and the default edition: the first)."""
    seats: tuple[int, ...]
    """The numbers of players the edition is played with."""
    teams: bool
    """Whether seats play in partnerships (and share a score)."""
    options: tuple[OptionSpec, ...]
    rules: Rules
    """The compiled rules (`(<Rules>edition.rules).ops` is the GameOps table in Cython)."""
    state_type: type[State]
    """The Python face of a state; its `pretty(seat)` is the text picture of `d` and replays."""
    new: Callable[[int, int, dict[str, int]], State] = field(repr=False)
    """`new(seed, players, options)`: a new match (players checked, options resolved)."""
    from_text: Callable[[str], State] = field(repr=False)
    """Parses a full position of this edition (NotationError names what is wrong)."""
    parse_view: Callable[[str], tuple[State, int, list[str] | str]] = field(repr=False)
    """(state, seat, history) of a view: the history as a list, or as its comma-separated text."""
    turn: TurnShape = field(repr=False)
    search: SearchDefaults = field(repr=False)
    quick_options: Mapping[str, int] = field(default_factory=dict)
    """The rule options of a short match, for benchmarks, checks and tests."""
    default_players: int | None = None
    """The number of players when none is given (None: the first of `seats`)."""
    heuristic: Ref | None = None
    """The bots' heuristic of the edition (a `bots.heuristics.Heuristic`: the greedy bot's decision,
    the searcher's rollouts and modelled seats)."""
    opponent_model: Ref | None = None
    """`opponent_model(state, seat, history)` of a view: a `bots.inference.OpponentModel` (how the
    searcher samples the others' hidden cards from their decisions), or None where it has none."""
    auditor: Ref | None = None
    """`auditor(game, seat)`: checks every line sent to a seat against what it has seen."""
    reference: Ref | None = None
    """The independent pure-Python model's `Game` class (the engine is tested against it)."""
    drawing: Ref | None = None
    """How a browser draws the edition's views (`expeditions serve`): a `Ref` to the family's
    `engine.drawing.Drawing` (its ES module, shipped beside it, and the public layout of a game)."""
    palette: Palette | None = None
    """How `expeditions play` colours the edition's cards on a terminal (None: not at all)."""
    observation: Observation | None = None
    """A seat's view as a fixed vector of floats, written in C (`engine.observation`; the
    reinforcement-learning environments of rl/ read it), or None where the edition has none."""
    showcase: bool = False
    """Whether this is the edition of the arena's embedded tournament (`expeditions arena` with
    neither bots nor an edition, the README's first command): the one where the searcher at 50 ms a
    decision already beats greedy by a margin a two-minute tournament resolves. At most one
    record sets it (`engine.editions.showcase_edition`)."""

    def resolve_options(self, options: Mapping[str, object] | None = None) -> dict[str, int]:
        """All options with defaults filled in; raises OptionError for unknown names or bad values."""
        return resolve_options(self.options, dict(options or {}), self.name)

    def options_text(self, options: Mapping[str, int]) -> str:
        """Options as `name=value` words, in the order given, a choice by its name.

        >>> import engine
        >>> engine.get_edition("eldorado").options_text({"route": 1, "caves": 0})
        'route=hills-of-gold caves=0'
        """
        return " ".join(f"{name}={word}" for name, word in self.option_words(options).items())

    def option_words(self, options: Mapping[str, object]) -> dict[str, str]:
        """Options as the words of `name=value`, in the order given: a choice by its name, the
        way `newgame` and the command line write them.

        >>> import engine
        >>> engine.get_edition("eldorado").option_words({"route": 3, "caves": 1})
        {'route': 'witchs-cauldron', 'caves': '1'}
        """
        specs = {spec.name: spec for spec in self.options}
        return {name: specs[name].text(value) if name in specs and isinstance(value, int) else str(value)
                for name, value in options.items()}

    def parse_options(self, tokens: list[str]) -> dict[str, int]:
        """Options from `name=value` tokens, with defaults filled in."""
        return self.resolve_options(parse_option_tokens(self.options, tokens, self.name))

    def load_bot_parts(self) -> None:
        """Imports now what bots take from the record on first use, the heuristic and the opponent
        model: their modules build tables at import (a tenth of a second for `eldorado`'s
        heuristic), which a game's first decision would otherwise pay on its clock.

        >>> import engine
        >>> record = engine.get_edition("eldorado")
        >>> record.load_bot_parts()
        >>> "value" in record.heuristic.__dict__      # imported and cached
        True
        """
        for part in (self.heuristic, self.opponent_model):
            if part is not None:
                part.value

    def check_players(self, players: int | None) -> int:
        """The number of players to deal for (`players`, or the default); OptionError if not allowed."""
        if players is None:
            return self.default_players or self.seats[0]
        if players not in self.seats:
            allowed = ", ".join(map(str, self.seats))
            raise OptionError(f"{self.name} is played by {allowed} players, not {players}")
        return players

    def new_game(self, seed: int, players: int | None = None, **options: object) -> State:
        """Deals a new match from `seed` (every random thing of the match follows from it)."""
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise OptionError(f"seed: expected an integer in 0..2^64-1, got {seed!r}")
        return self.new(seed, self.check_players(players), self.resolve_options(options))
