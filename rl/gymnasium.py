"""A Gymnasium single-agent environment of any edition: the agent plays one seat, and the other seats
are played by opponents — a built-in bot by name, or any protocol bot's command line
(`rl.opponents`). The observation is the agent's observation tensor; `info["action_mask"]` marks its
legal decisions. The reward comes when the match ends (`rl.spaces.rewards`: +1 won, -1 lost, 0 drawn with two players). A decision that is
not legal ends the episode with -1 (`info["illegal"]`), so a random agent cannot break it.

>>> from rl.gymnasium import ExpeditionsEnv
>>> env = ExpeditionsEnv("classic", opponents="random")
>>> obs, info = env.reset(seed=1)
>>> obs.shape, int(info["action_mask"].sum()) > 0
((383,), True)
>>> import numpy as np
>>> action = int(np.flatnonzero(info["action_mask"])[0])
>>> obs, reward, terminated, truncated, info = env.step(action)
>>> reward, terminated
(0.0, False)
"""
from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from engine import State
from engine.edition import Edition
from protocol.limits import Limits
from rl.dealer import Dealer
from rl.opponents import Opponent, opponent
from rl.spaces import BOUND, Spaces, edition_record, rewards


class ExpeditionsEnv(gymnasium.Env[np.ndarray, np.int64]):
    """Seat `seat` of `edition` against `opponents`: one spec for every other seat, or a list of one
    per other seat in turn order (a built-in bot's name, a protocol bot's command line as a string or
    an argv list, or an `Opponent`).
    `limits` is what each opponent may spend on a decision."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, edition: str | Edition | None = None, opponents: str | Sequence[str | Sequence[str] | Opponent] | Opponent = "random",
                 seat: int = 0, players: int | None = None, limits: Limits | None = None,
                 render_mode: str | None = None, **options: object) -> None:
        self.record = edition_record(edition)
        self.players = self.record.check_players(players)
        if not 0 <= seat < self.players:
            raise ValueError(f"seat {seat}: a match of {self.players} has seats 0..{self.players - 1}")
        self.seat = seat
        self.rule_options = self.record.resolve_options(options)
        self.spaces = Spaces(self.record)
        others = [k for k in range(self.players) if k != seat]
        specs = [opponents] * len(others) if isinstance(opponents, (str, Opponent)) else list(opponents)
        if len(specs) != len(others):
            raise ValueError(f"{len(specs)} opponents for {len(others)} other seats")
        self.opponents = {k: opponent(spec, seed=k, limits=limits) for k, spec in zip(others, specs)}
        self.observation_space = spaces.Box(-BOUND, BOUND, shape=(self.spaces.size,), dtype=np.float32)
        self.action_space = spaces.Discrete(self.spaces.num_actions)
        self.render_mode = render_mode
        self.state: State = self.record.new_game(0, self.players, **self.rule_options)
        self.dealer = Dealer(self.state)
        self.dealer.seed(secrets.randbits(64))
        self._views = self.spaces.views

    def _advance(self) -> None:
        """Lets the opponents decide until the agent is to move or the match is over."""
        while True:
            mover = self.state.to_move
            if mover is None or mover == self.seat:
                return
            self.state.apply(self.opponents[mover].decide(self.state, mover))

    def _observation(self) -> tuple[np.ndarray, dict[str, Any]]:
        observation, mask = self._views.observation_and_mask(self.state, self.seat)
        return observation, {"action_mask": mask}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)  # seeds self.np_random, as Gymnasium asks
        if seed is not None:
            self.dealer.seed(seed)
        self.state = self.dealer.next_game()
        for k, bot in self.opponents.items():
            bot.new_game(self.state, k)
        self._advance()
        return self._observation()

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.state.to_move != self.seat or not self.state.is_legal(int(action)):
            obs, info = self._observation()
            info["illegal"] = True
            return obs, -1.0, True, False, info
        self.state.apply(int(action))
        self._advance()
        obs, info = self._observation()
        if self.state.to_move is None:
            return obs, rewards(self.state)[self.seat], True, False, info
        return obs, 0.0, False, False, info

    def render(self) -> str:
        """The agent's text picture of the position."""
        return self.state.pretty(self.seat)

    def close(self) -> None:
        for bot in self.opponents.values():
            bot.close()
