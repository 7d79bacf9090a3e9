"""The registry of editions: the records of every family folder `engine/<family>/edition.py`
(found at import, none listed by hand) and of editions registered from elsewhere (`register`, and
`unregister` to take one out again).

>>> from engine.editions import EDITIONS, get_edition
>>> list(EDITIONS)
['classic', 'partners', 'expedition', 'board', 'eldorado']
>>> ed = get_edition("expedition")
>>> [o.name for o in ed.options]
['rounds', 'max_turns', 'cost']
>>> ed.new_game(seed=3).to_move
0
>>> get_edition("board").seats, get_edition("board").new_game(seed=3).num_seats
((2, 3, 4), 4)
"""
from __future__ import annotations

import importlib
import importlib.util
import pkgutil

import engine
from engine.edition import Edition
from engine.errors import NotationError, UnknownEditionError

EDITIONS: dict[str, Edition] = {}
"""Every edition by name, in the order of their `order` (the first is the default)."""


def register(edition: Edition) -> Edition:
    """Adds an edition defined outside engine/ (a test's, a plug-in's) to the registry.

    >>> register(get_edition("classic")) is get_edition("classic")
    True
    """
    known = EDITIONS.get(edition.name)
    if known is not None and known is not edition:
        raise ValueError(f"an edition named {edition.name!r} is registered already")
    ordered = sorted({**EDITIONS, edition.name: edition}.values(), key=lambda ed: (ed.order, ed.name))
    EDITIONS.clear()
    EDITIONS.update((ed.name, ed) for ed in ordered)
    return edition


def unregister(edition: Edition) -> None:
    """Takes a registered edition out of the registry again: how a test's edition leaves once its
    tests are done (other tests compare the registry with what a bot process lists).

    >>> import dataclasses
    >>> extra = register(dataclasses.replace(get_edition("classic"), name="variant", order=99))
    >>> unregister(extra); "variant" in EDITIONS
    False
    """
    if EDITIONS.get(edition.name) is not edition:
        raise ValueError(f"the edition {edition.name!r} is not registered")
    del EDITIONS[edition.name]


def _discover() -> None:
    """Registers the records of every family: each package of engine/ with an `edition` module."""
    for package in pkgutil.iter_modules(engine.__path__):
        name = f"engine.{package.name}.edition"
        if package.ispkg and importlib.util.find_spec(name) is not None:
            for edition in importlib.import_module(name).EDITIONS:
                register(edition)


def get_edition(name: str) -> Edition:
    """The edition called `name`; UnknownEditionError lists the known ones otherwise."""
    try:
        return EDITIONS[name]
    except (KeyError, TypeError):
        raise UnknownEditionError(f"unknown edition {name!r} (editions: {', '.join(EDITIONS)})") from None


def default_edition() -> Edition:
    """The first edition in listings (what a command uses when none is named)."""
    return next(iter(EDITIONS.values()))


def showcase_edition() -> Edition:
    """The edition of the arena's embedded tournament: the record that says `showcase`, else the
    default edition."""
    return next((edition for edition in EDITIONS.values() if edition.showcase), default_edition())


def edition_of_text(text: str) -> Edition:
    """The edition a position or view is written in (its first word)."""
    if not isinstance(text, str):
        raise NotationError(f"a position is text, not {type(text).__name__}")
    name = text.lstrip().split(" ", 1)[0]
    edition = EDITIONS.get(name)
    if edition is None:
        if not name.strip():
            raise NotationError("empty position", expected=f"an edition name first, e.g. {default_edition().name}")
        raise NotationError("unknown edition", token=name.split()[0], expected=" or ".join(EDITIONS))
    return edition


_discover()
