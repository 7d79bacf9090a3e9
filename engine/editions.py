"""The registry of editions: names, seat counts, rule options, and how to make a game.

>>> from engine.editions import get_edition
>>> ed = get_edition("expedition")
>>> [o.name for o in ed.options]
['rounds', 'max_turns', 'cost']
>>> ed.new_game(seed=3).to_move
0
>>> get_edition("board").seats, get_edition("board").new_game(seed=3).num_seats
((2, 3, 4), 4)
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from engine import board, lostcities
from engine._core import State
from engine.errors import NotationError, OptionError, UnknownEditionError
from engine.options import OptionSpec, parse_option_tokens, resolve_options


@dataclass(frozen=True)
class Edition:
    """One game of the family, with its rule options; creates and parses its states."""

    name: str
    title: str
    seats: tuple[int, ...]
    """The numbers of players the edition is played with."""
    teams: bool
    """Whether seats play in partnerships (and share a score)."""
    options: tuple[OptionSpec, ...]
    _new: Callable[[int, int, dict[str, int]], State] = field(repr=False)
    _from_text: Callable[[str], State] = field(repr=False)
    _parse_view: Callable[[str], tuple[State, int, list[str] | str]] = field(repr=False)
    """(state, seat, history): the history as a list, or as its comma-separated text."""
    default_players: int | None = None
    """The number of players when none is given (None: the first of `seats`)."""

    def resolve_options(self, options: Mapping[str, object] | None = None) -> dict[str, int]:
        """All options with defaults filled in; raises OptionError for unknown names or bad values."""
        return resolve_options(self.options, dict(options or {}), self.name)

    def parse_options(self, tokens: list[str]) -> dict[str, int]:
        """Options from `name=value` tokens, with defaults filled in."""
        return self.resolve_options(parse_option_tokens(self.options, tokens, self.name))

    def check_players(self, players: int | None) -> int:
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
        return self._new(seed, self.check_players(players), self.resolve_options(options))

    def from_text(self, text: str) -> State:
        state = self._from_text(text)
        if state.edition != self.name:
            raise NotationError(f"a position of {state.edition}, not {self.name}", token=state.edition)
        return state


def _card_edition(name: str, title: str) -> Edition:
    return Edition(
        name=name,
        title=title,
        seats=(lostcities.SEATS[name],),
        teams=lostcities.SEATS[name] == 4,
        options=lostcities.OPTION_SPECS[name],
        _new=lambda seed, players, options: lostcities.new_state(name, seed, options),
        _from_text=lostcities.CardState.from_text,
        _parse_view=lambda text: lostcities.CardState.parse_view(text, raw_history=True),
    )


BOARD = Edition(
    name="board",
    title="Lost Cities: The Board Game (2-4 players)",
    seats=board.SEATS,
    teams=False,
    options=board.OPTION_SPECS,
    _new=board.new_state,
    _from_text=board.BoardState.from_text,
    _parse_view=board.BoardState.parse_view,
    default_players=board.DEFAULT_PLAYERS,
)

EDITIONS: dict[str, Edition] = {
    e.name: e
    for e in (
        _card_edition("classic", "Lost Cities, the card game (2 players)"),
        _card_edition("partners", "Lost Cities for 4 players in partnerships"),
        _card_edition("expedition", "Expedition, the 52-card adaptation (2 players)"),
        BOARD,
    )
}


def get_edition(name: str) -> Edition:
    """The edition called `name`; UnknownEditionError lists the known ones otherwise."""
    try:
        return EDITIONS[name]
    except (KeyError, TypeError):
        raise UnknownEditionError(f"unknown edition {name!r} (editions: {', '.join(EDITIONS)})") from None


def edition_of_text(text: str) -> Edition:
    """The edition a position or view is written in (its first word)."""
    if not isinstance(text, str):
        raise NotationError(f"a position is text, not {type(text).__name__}")
    name = text.lstrip().split(" ", 1)[0]
    edition = EDITIONS.get(name)
    if edition is None:
        if not name.strip():
            raise NotationError("empty position", expected="an edition name first, e.g. classic")
        raise NotationError("unknown edition", token=name.split()[0], expected=" or ".join(EDITIONS))
    return edition
