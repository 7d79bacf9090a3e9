"""A seat's view: exactly what one seat knows, as the protocol sends it.

>>> import engine
>>> s = engine.new_game("classic", seed=5)
>>> v = s.view(0)
>>> v.seat, v.to_move, len(v.legal()) == len(s.legal())
(0, 0, True)
>>> engine.parse_view(str(v)).text == v.text
True
"""
from __future__ import annotations

from engine._core import State
from engine.edition import Edition
from engine.editions import edition_of_text


class View:
    """A parsed view. `state` is one full state consistent with it (the unseen cards dealt in
    canonical order, so it is *not* the truth); `sample(seed)` draws one at random."""

    __slots__ = ("edition", "seat", "_history", "text", "state")

    def __init__(self, edition: Edition, seat: int, history: list[str] | str, text: str, state: State) -> None:
        self.edition = edition
        self.seat = seat
        """The seat whose view this is."""
        # split on first use: most readers (a bot deciding) never need it
        self._history: tuple[str, ...] | list[str] | str = history
        self.text = text
        """The view in notation."""
        self.state = state

    @classmethod
    def from_text(cls, text: str) -> View:
        """Parses a view; raises NotationError naming the bad field."""
        edition = edition_of_text(text)
        state, seat, history = edition.parse_view(text)
        return cls(edition, seat, history, text.strip(), state)

    @property
    def history(self) -> tuple[str, ...]:
        """Decisions of the current round, masked for this seat."""
        if isinstance(self._history, str):
            self._history = () if self._history == "-" else tuple(self._history.split(","))
        return tuple(self._history)

    @property
    def to_move(self) -> int | None:
        return self.state.to_move

    def legal(self) -> list[int]:
        """The legal decisions, when it is this seat's turn (otherwise they depend on a hidden hand)."""
        if self.state.to_move != self.seat:
            raise ValueError(f"seat {self.seat} is not to move (to move: {self.state.to_move})")
        return self.state.legal()

    def legal_text(self) -> list[str]:
        return [self.state.decision_to_text(d) for d in self.legal()]

    def sample(self, seed: int) -> State:
        """A full state drawn at random among those consistent with the view."""
        return self.state.determinized(self.seat, seed)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"View({self.text!r})"
