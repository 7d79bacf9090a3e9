"""What a spectator of a running game may see: the part of every seat's view that the seat's
opponents all see too.

The server knows no rule and no notation beyond the shape every edition's views share (docs/
notation.md): `name=value` fields after the edition's name, where a field that differs between
seats' views holds one `/`-separated part per seat, and `history=` one `,`-separated entry per
decision. The public view takes each such part from the views of the seats on other teams than
the part's seat (which must all agree on it), each history entry from the views of the other
teams than its mover's, and drops `seat=`. A field that differs between views and is not of that
shape is refused (PublicViewError), never guessed at.

>>> import engine
>>> s = engine.new_game("classic", seed=1)
>>> s.apply("+b7"); s.apply("D")
>>> text = public_view(s)
>>> "seat=" in text, fields(text)["hands"], fields(text)["history"]
(False, '?8/?8', '+b7,D')
"""
from __future__ import annotations

from engine import ExpeditionsError, State

HISTORY = "history"


class PublicViewError(ExpeditionsError):
    """The views differ in a way that has no public part (a field of an unknown shape)."""


def fields(view: str) -> dict[str, str]:
    """The `name=value` fields of a view (its first word, the edition, left out)."""
    return dict(token.partition("=")[::2] for token in view.split()[1:])


def _agreed(values: list[str], what: str) -> str:
    if len(set(values)) != 1:
        raise PublicViewError(f"{what}: the opponents' views disagree ({' | '.join(sorted(set(values)))})")
    return values[0]


def public_view(state: State) -> str:
    """The public view of `state`: every field as all opponents of its owner see it (see above)."""
    seats = range(state.num_seats)
    views = [fields(state.view_text(seat)) for seat in seats]
    opponents = [[other for other in seats if state.team_of(other) != state.team_of(seat)] for seat in seats]
    out = [state.edition]
    for name, value in views[0].items():
        if name == "seat":
            continue
        values = [view.get(name, "") for view in views]
        if name == HISTORY:
            value = _history(state, views, opponents)
        elif len(set(values)) > 1:
            split = [v.split("/") for v in values]
            if any(len(parts) != state.num_seats for parts in split):
                raise PublicViewError(f"field {name!r} differs between seats and is not one part per seat")
            value = "/".join(_agreed([split[o][seat] for o in opponents[seat]], f"{name} of seat {seat}")
                             for seat in seats)
        out.append(f"{name}={value}")
    return " ".join(out)


def _history(state: State, views: list[dict[str, str]], opponents: list[list[int]]) -> str:
    """Each entry of the views' history as the opponents of its mover see it."""
    entries = [[] if view[HISTORY] == "-" else view[HISTORY].split(",") for view in views]
    count = len(entries[0])
    if any(len(e) != count for e in entries):
        raise PublicViewError("the seats' histories differ in length")
    movers = [seat for seat, _, _ in state.record()][-count:] if count else []
    if len(movers) != count:
        raise PublicViewError("the history is longer than the record of the game")
    public = [_agreed([entries[o][j] for o in opponents[mover]], f"history entry {j}") for j, mover in enumerate(movers)]
    return ",".join(public) or "-"


def public_entry(state: State, mover: int, previous: bool = False) -> str:
    """The last decision of the (`previous`: the just ended) round as the opponents of its mover
    see it.

    >>> import engine
    >>> s = engine.new_game("classic", seed=1)
    >>> s.apply("+b7"); s.apply("D")
    >>> public_entry(s, 0)
    'D'
    """
    seen = [state.history(seat, previous=previous)[-1] for seat in range(state.num_seats)
            if state.team_of(seat) != state.team_of(mover)]
    return _agreed(seen, "the last decision")
