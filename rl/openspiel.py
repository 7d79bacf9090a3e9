"""Every edition as an OpenSpiel Python game: `expeditions_<edition>` (e.g. `expeditions_classic`),
registered with `pyspiel.register_game` when this module is imported.

- Dynamics sequential, imperfect information, zero-sum (returns `rl.spaces.rewards`: +1 won, -1 lost,
  0 drawn with two players; a seat's return less the others' mean with more), terminal rewards.
- Chance is explicit: one chance node opens the match, choosing its deal among `deals` seeds (a game
  parameter, uniform); every later random event (the next round's deal, a draw) follows from it.
- Parameters: `players` (editions with a choice), `deals`, and every rule option of the edition.
- Observation tensor: the edition's observation tensor (`Edition.observation`, docs/rl.md); the
  information-state tensor is the same tensor (the view holds what bears on the rest of the match,
  not the order of past decisions). Observation string: the seat's view text without its history;
  information-state string: the view without history, then every decision of the match as the seat
  saw it (perfect recall across rounds).
- `resample_from_infostate(player, sampler)` redeals what the player cannot see (the engine's
  determinization), keeping its information state; OpenSpiel's ISMCTS bot
  (`open_spiel.python.algorithms.ismcts`) searches with it.

>>> import pyspiel
>>> import rl.openspiel
>>> game = pyspiel.load_game("expeditions_classic", {"rounds": 1})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), game.num_distinct_actions()
(True, 2214)
>>> state.apply_action(7)
>>> state.current_player(), len(state.observation_tensor(0)) == game.observation_tensor_size()
(0, True)
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyspiel

import engine
from engine import State
from engine.edition import Edition
from rl.spaces import Spaces, rewards

DEALS = 10_000
"""Deals the chance node chooses among, unless the game parameter `deals` says otherwise."""
MAX_GAME_LENGTH = 100_000
"""A bound of a match's decisions (OpenSpiel asks for one; no edition comes near it)."""


def short_name(record: Edition) -> str:
    """The OpenSpiel name of an edition's game."""
    return f"expeditions_{record.name}"


@dataclass(frozen=True)
class _Setup:
    """What a game was loaded with: plain data, shared by its states (deep copies keep it)."""

    edition: str
    players: int
    deals: int
    options: tuple[tuple[str, int], ...]
    spaces: Spaces = field(compare=False, repr=False)

    def __deepcopy__(self, memo: Any) -> _Setup:
        return self

    def __reduce__(self) -> tuple[Callable[..., _Setup], tuple[Any, ...]]:
        return _setup, (self.edition, self.players, self.deals, self.options)


def _setup(edition: str, players: int, deals: int, options: tuple[tuple[str, int], ...]) -> _Setup:
    record = engine.get_edition(edition)
    return _Setup(edition, players, deals, options, Spaces(record))


class _Match:
    """The engine state of a match, and what each player saw that the state's record no longer
    holds (earlier rounds; what came before a resampling or a deserialization), as its history entries.
    A copy keeps the record; a pickle (OpenSpiel's serialization) writes the position and every seen
    decision."""

    def __init__(self, state: State, past: list[list[str]]) -> None:
        self.state = state
        self.past = past

    def seen(self, player: int) -> list[str]:
        """Every decision of the match as `player` saw it."""
        return self.past[player] + self.state.history(player)

    def apply(self, decision: int) -> None:
        rounds = self.state.round_index
        self.state.apply(decision)
        if self.state.round_index != rounds:  # the record's slice of the round just ended moves to past
            for player, past in enumerate(self.past):
                past.extend(self.state.history(player, previous=True))

    def resampled(self, player: int, seed: int) -> _Match:
        """Everything `player` cannot see dealt again; what each player saw kept."""
        return _Match(self.state.determinized(player, seed), [self.seen(k) for k in range(len(self.past))])

    def __deepcopy__(self, memo: Any) -> _Match:
        return _Match(self.state.copy(), [list(past) for past in self.past])

    def __getstate__(self) -> dict[str, Any]:
        return {"position": self.state.to_text(), "seen": [self.seen(k) for k in range(len(self.past))]}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.state = engine.parse_position(data["position"])
        self.past = data["seen"]


class ExpeditionsState(pyspiel.State):  # type: ignore[misc]  # pyspiel is not typed
    """A match: the chance node of the deal, then the engine's state."""

    def __init__(self, game: ExpeditionsGame) -> None:
        super().__init__(game)
        self._setup: _Setup = game.setup
        self._match: _Match | None = None

    @property
    def _state(self) -> State | None:
        return None if self._match is None else self._match.state

    # ----- the game tree ----------------------------------------------------------------------------
    def current_player(self) -> int:
        if self._state is None:
            return int(pyspiel.PlayerId.CHANCE)
        mover = self._state.to_move
        return int(pyspiel.PlayerId.TERMINAL) if mover is None else mover

    def _legal_actions(self, player: int) -> list[int]:
        assert self._state is not None
        return sorted(self._state.legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self._setup.deals
        return [(k, p) for k in range(self._setup.deals)]

    def _apply_action(self, action: int) -> None:
        if self._match is None:
            record = engine.get_edition(self._setup.edition)
            state = record.new_game(int(action), self._setup.players, **dict(self._setup.options))
            self._match = _Match(state, [[] for _ in range(self._setup.players)])
        else:
            self._match.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE) or self._state is None:
            return f"deal {action}"
        return self._state.decision_to_text(action)

    def is_terminal(self) -> bool:
        return self._state is not None and self._state.is_terminal()

    def returns(self) -> list[float]:
        if self._state is None or not self._state.is_terminal():
            return [0.0] * self._setup.players
        return rewards(self._state)

    def __str__(self) -> str:
        return "(the deal)" if self._state is None else self._state.to_text()

    # ----- what a player knows ----------------------------------------------------------------------
    def view_without_history(self, player: int) -> str:
        """The player's view text with its history left out ('' before the deal)."""
        if self._state is None:
            return ""
        return self._state.view_text(player).rsplit(" ", 1)[0]

    def information_state(self, player: int) -> str:
        """The view without history, then the match's decisions as the player saw them."""
        if self._match is None:
            return ""
        return self.view_without_history(player) + " seen=" + ",".join(self._match.seen(player))

    def observe(self, player: int, out: np.ndarray) -> None:
        if self._state is None:
            out[:] = 0
        else:
            self._setup.spaces.observe(self._state, player, out)

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> ExpeditionsState:
        """A state drawn among those consistent with the player's information state: what it cannot
        see dealt again (engine determinization, seeded from the sampler)."""
        sample: ExpeditionsState = self.clone()
        if self._match is not None and not self._match.state.is_terminal():
            sample._match = self._match.resampled(player_id, int(probability_sampler() * 2**53))
        return sample


class _Observer:
    """A pyspiel Python observer: the observation tensor, and the observation or information-state string."""

    def __init__(self, size: int, perfect_recall: bool) -> None:
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}
        self.perfect_recall = perfect_recall

    def set_from(self, state: ExpeditionsState, player: int) -> None:
        state.observe(player, self.tensor)

    def string_from(self, state: ExpeditionsState, player: int) -> str:
        return state.information_state(player) if self.perfect_recall else state.view_without_history(player)


class ExpeditionsGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is not typed
    """One edition's game, with its parameters."""

    record: Edition
    """The edition (each registered game is a subclass naming its own)."""
    kind: Any
    """Its `pyspiel.GameType`."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        record, params = self.record, dict(params or {})
        players = int(params.get("players", record.check_players(None)))
        options = record.resolve_options({spec.name: params[spec.name] for spec in record.options if spec.name in params})
        deals = int(params.get("deals", DEALS))
        self.setup = _setup(record.name, record.check_players(players), deals, tuple(sorted(options.items())))
        info = pyspiel.GameInfo(num_distinct_actions=record.rules.num_decision_ids, max_chance_outcomes=deals,
                                num_players=players, min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                max_game_length=MAX_GAME_LENGTH)
        super().__init__(self.kind, info, params)

    def new_initial_state(self) -> ExpeditionsState:
        return ExpeditionsState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        if iig_obs_type is not None and (iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                                         or not iig_obs_type.public_info):
            raise ValueError("the games observe one player's view: public information and its own private information")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return _Observer(self.setup.spaces.size, perfect_recall)


def game_type(record: Edition) -> Any:
    """The `pyspiel.GameType` of an edition's game."""
    parameters: dict[str, Any] = {"deals": DEALS, "players": record.check_players(None)}
    parameters.update({spec.name: spec.default for spec in record.options})
    return pyspiel.GameType(
        short_name=short_name(record),
        long_name=record.title,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(record.seats),
        min_num_players=min(record.seats),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


def register(record: Edition) -> str:
    """Registers an edition's game (once); returns its short name."""
    name = short_name(record)
    if name not in pyspiel.registered_names():
        kind = game_type(record)
        # A class, not a closure: OpenSpiel's registry keeps its creator until after the interpreter
        # has shut down, and a class (unlike a closure) is never freed then, which would crash the exit.
        creator = type(f"ExpeditionsGame_{record.name}", (ExpeditionsGame,), {"record": record, "kind": kind})
        pyspiel.register_game(kind, creator)
    return name


def register_all() -> list[str]:
    """Registers the game of every edition that has an observation tensor; returns their names."""
    return [register(record) for record in engine.EDITIONS.values() if record.observation is not None]


GAMES = register_all()
"""The short names of the registered games."""
