"""What every environment of rl/ shares: an edition's observation of a seat and its action mask as
numpy arrays, and the reward of a finished match.

>>> import engine
>>> from rl.spaces import Spaces
>>> spaces = Spaces(engine.get_edition("classic"))
>>> state = engine.new_game("classic", seed=2)
>>> obs, mask = spaces.observe(state, 0), spaces.mask(state)
>>> obs.shape, obs.dtype.name, int(mask.sum()) == len(state.legal())
((383,), 'float32', True)
"""
from __future__ import annotations

import numpy as np
import numpy.typing as npt

import engine
from engine import State
from engine.edition import Edition
from engine.errors import OptionError
from engine.observation import Observation
from rl.views import Views


def edition_record(edition: str | Edition | None) -> Edition:
    """The record of `edition` (a name, a record, or None for the default edition)."""
    if edition is None:
        return engine.default_edition()
    return edition if isinstance(edition, Edition) else engine.get_edition(edition)


def rewards(state: State) -> list[float]:
    """Per seat, the rewards of a finished match: its return (1 won, 1/2 drawn, 0 lost; shares where
    the edition has more) minus the mean return of the other seats. With two players +1 won, -1
    lost, 0 drawn; with more, partners or shares, between -1 and 1; the rewards always sum to 0.

    >>> import engine
    >>> state = engine.new_game("classic", seed=1, rounds=1)
    >>> _ = state.playout(2)
    >>> rewards(state) in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
    True
    """
    returns = state.returns()
    total, others = sum(returns), len(returns) - 1
    return [r - (total - r) / others for r in returns]


BOUND = float(2**24)
"""The observation spaces' bound: every entry is a count, a value or points, far below it, and float32
holds each integer up to it exactly."""


class Spaces:
    """An edition's observation tensor and decision-id space, as numpy arrays."""

    def __init__(self, record: Edition) -> None:
        if record.observation is None:
            raise OptionError(f"{record.name} has no observation tensor")
        self.record = record
        self.observation: Observation = record.observation
        self.size = self.observation.size
        """Floats of an observation."""
        self.num_actions = record.rules.num_decision_ids
        """The decision ids: every legal decision is one of range(num_actions)."""
        self.views = Views(record)
        """Writes a state's tensor and mask in C (what `observe` and `mask` call)."""

    def observe(self, state: State, seat: int, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """`seat`'s observation of `state` (written into `out` when given)."""
        if out is None:
            return self.views.observation(state, seat)
        self.observation.observe(state, seat, out)
        return out

    def mask(self, state: State, mover: bool = True) -> npt.NDArray[np.int8]:
        """1 (int8) for each legal decision of the mover, 0 elsewhere (all 0 once the match is over,
        or when `mover` is False: the mask of a seat that is not to move)."""
        return self.views.action_mask(state, mover)

    def fields(self, observation: npt.NDArray[np.float32]) -> dict[str, npt.NDArray[np.float32]]:
        """An observation cut into its named fields, each in its shape (views, not copies)."""
        return {f.name: observation[..., f.offset:f.offset + f.size].reshape(observation.shape[:-1] + f.shape)
                for f in self.observation.fields}
