"""A PettingZoo AEC environment of any edition: agents `seat_0`, `seat_1`, …; each observation is
``{"observation": float32 tensor, "action_mask": int8 mask}`` of that seat's view; the rewards come
when the match ends (`rl.spaces.rewards`: +1 won, -1 lost, 0 drawn with two players; they sum to 0).
What the protocol calls at every step (`agent_iter`, `last`, `observe`, `step`) is compiled
(`rl.aec.AECCore`); this class adds PettingZoo's `AECEnv`, the spaces, `reset` and the match's end.

>>> from rl.pettingzoo import env
>>> e = env("classic")
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> e.agent_selection, obs["observation"].shape, int(obs["action_mask"].sum()) > 0
('seat_0', (383,), True)
"""
from __future__ import annotations

import secrets
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from engine import State
from engine.edition import Edition
from rl.aec import AECCore
from rl.spaces import BOUND, Spaces, edition_record, rewards


class ExpeditionsAEC(AECCore, AECEnv):  # type: ignore[misc]  # pettingzoo is not typed
    """One match of `edition` (a name or a record; None: the default edition) for `players` seats,
    with rule `options`; `reset(seed)` deals from the seed (from a fresh random one without)."""

    metadata = {"name": "expeditions_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, edition: str | Edition | None = None, players: int | None = None,
                 render_mode: str | None = None, **options: object) -> None:
        super().__init__()
        self.record = edition_record(edition)
        self.players = self.record.check_players(players)
        self.rule_options = self.record.resolve_options(options)
        self.spaces = Spaces(self.record)
        self.render_mode = render_mode
        self.game: State = self.record.new_game(0, self.players, **self.rule_options)
        self._bind(self.record, [f"seat_{k}" for k in range(self.players)], self.game)
        self.dealer.seed(secrets.randbits(64))
        box = spaces.Box(-BOUND, BOUND, shape=(self.spaces.size,), dtype=np.float32)
        masks = spaces.Box(0, 1, shape=(self.spaces.num_actions,), dtype=np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": masks})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.spaces.num_actions) for a in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self.dealer.seed(seed)
        self.game = self.dealer.next_game()  # as self.record.new_game(next seed, ...) deals it, quicker
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_move or 0]

    def _finish(self) -> None:
        """The match is over (called by `step`): every agent's reward, all terminated."""
        for agent, reward in zip(self.possible_agents, rewards(self.game)):
            self.rewards[agent] = reward
            self.terminations[agent] = True
        self._accumulate_rewards()

    def render(self) -> str:
        """The position as the edition's text picture (the full state: for a person watching; the
        `ansi` render mode)."""
        return self.game.pretty()

    def close(self) -> None:
        pass


def env(edition: str | Edition | None = None, players: int | None = None, render_mode: str | None = None,
        **options: object) -> ExpeditionsAEC:
    """The AEC environment of an edition (PettingZoo's `env()` convention)."""
    return ExpeditionsAEC(edition, players, render_mode, **options)
