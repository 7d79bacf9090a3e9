"""Helpers shared by the tests (importable as `helpers`: pytest puts tests/ on sys.path)."""
from __future__ import annotations

import random

import engine

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


def new_game(edition: str, seed: int, **options) -> engine.State:
    """`engine.new_game` for the edition's number of players when it is an EditionCase."""
    return engine.new_game(edition, seed=seed, players=getattr(edition, "players", None), **options)


def random_state(edition: str, seed: int, steps: int, **options) -> engine.State:
    """The position after up to `steps` random decisions from the deal of `seed`."""
    state = new_game(edition, seed, **options)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal()))
    return state
