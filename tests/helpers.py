"""Helpers shared by the tests (importable as `helpers`: pytest puts tests/ on sys.path)."""
from __future__ import annotations

import dataclasses
import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import engine
from engine.edition import Ref

CARD_EDITIONS = ("classic", "partners", "expedition")


class EditionCase(str):
    """An edition name that also says how many players to deal for (None: the default).

    >>> case = EditionCase("board", 3)
    >>> case == "board", case.players, case.id
    (True, 3, 'board-3p')
    """

    players: int | None

    def __new__(cls, name: str, players: int | None = None) -> EditionCase:
        case = super().__new__(cls, name)
        case.players = players
        return case

    @property
    def id(self) -> str:
        return str(self) if self.players is None else f"{self}-{self.players}p"


def edition_cases() -> list[EditionCase]:
    """Every edition; those played by several numbers of players once per number."""
    cases = []
    for name, ed in engine.EDITIONS.items():
        if len(ed.seats) == 1:
            cases.append(EditionCase(name))
        else:
            cases.extend(EditionCase(name, n) for n in ed.seats)
    return cases


def played_in_rounds(edition: str) -> bool:
    """Whether a match of the edition is a number of rounds chosen by its `rounds` option (the
    card editions, `board`), rather than one long round (`eldorado`)."""
    return any(spec.name == "rounds" for spec in engine.get_edition(edition).options)


def short_options(edition: str, rounds: int = 1) -> dict[str, int]:
    """The rule options of a short match: `rounds` rounds of an edition played in rounds, else the
    record's `quick_options` (one long round, cut short: `eldorado`'s `max_rounds`).

    >>> short_options("classic", 2), short_options("eldorado", 2) == dict(engine.get_edition("eldorado").quick_options)
    ({'rounds': 2}, True)
    """
    if played_in_rounds(edition):
        return {"rounds": rounds}
    return dict(engine.get_edition(edition).quick_options)


SEARCHED_ROUNDS = 4
"""The round limit of an edition of one long round where every decision of a whole match is
searched: a searcher's rollout runs to the end of the match, so its cost grows with the square of
the match's length (an `eldorado` quick match of 20 rounds, searched with 60 iterations a decision,
takes ~25 s; four rounds, under a second)."""


def searched_options(edition: str) -> dict[str, int]:
    """The rule options of a match whose every decision a test searches: one round of an edition
    played in rounds; otherwise its quick match with a round limit of at most SEARCHED_ROUNDS (an
    option `max_rounds` of the record's quick options).

    >>> searched_options("classic"), searched_options("eldorado")
    ({'rounds': 1}, {'max_rounds': 4})
    """
    options = short_options(edition)
    if "max_rounds" in options:
        options["max_rounds"] = min(options["max_rounds"], SEARCHED_ROUNDS)
    return options


@contextmanager
def search_defaults(edition: str, **changes: object) -> Iterator[None]:
    """The edition's `SearchDefaults` with `changes` while the block runs (the record is frozen: its
    field is swapped and put back, for tests of a default's effect).

    >>> with search_defaults("eldorado", halving_floor=0):
    ...     engine.get_edition("eldorado").search.halving_floor
    0
    """
    record = engine.get_edition(edition)
    before = record.search
    object.__setattr__(record, "search", dataclasses.replace(before, **changes))
    try:
        yield
    finally:
        object.__setattr__(record, "search", before)


def heuristic_scores(state: engine.State) -> dict[str, float]:
    """The scores the heuristic of the state's edition (its record's `heuristic`) gives each legal
    decision of the seat to move, by decision text: its module's `decision_scores`."""
    ref = engine.get_edition(state.edition).heuristic
    assert ref is not None, f"{state.edition} has no heuristic"
    module = Ref(ref.target.partition(":")[0]).value
    return dict(module.decision_scores(state))


def new_game(edition: str, seed: int, **options) -> engine.State:
    """`engine.new_game` for the edition's number of players when it is an EditionCase."""
    return engine.new_game(edition, seed=seed, players=getattr(edition, "players", None), **options)


def random_state(edition: str, seed: int, steps: int, players: int | None = None, **options) -> engine.State:
    """The position after up to `steps` random decisions from the deal of `seed` (for `players`
    where given)."""
    state = engine.new_game(edition, seed=seed, players=players or getattr(edition, "players", None), **options)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal()))
    return state


GUIDE = Path(__file__).resolve().parents[1] / "docs" / "writing-a-bot.md"


def guide_bot(directory: Path) -> list[str]:
    """The argv of the minimal bot of docs/writing-a-bot.md: the Python block after the comment
    that marks it, written to `directory`."""
    text = GUIDE.read_text()
    block = text[text.index("<!-- the guide's minimal bot"):].split("```python\n", 1)[1].split("```", 1)[0]
    path = directory / "guide_bot.py"
    path.write_text(block)
    return [sys.executable, str(path)]
