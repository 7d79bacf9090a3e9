# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled core of the PettingZoo AEC environment (rl/pettingzoo.py): what the AEC protocol
calls at every step — `agent_iter`'s next agent, `last`/`observe` and `step` — each one compiled
call. The bookkeeping dictionaries PettingZoo reads (`rewards`, `terminations`, ...) are ordinary
dicts held in slots; the observation and mask are written in C into new arrays at each call (a
learner may keep them).

`AECCore` is a base: `rl.pettingzoo.ExpeditionsAEC` adds PettingZoo's `AECEnv`, spaces and reset.

>>> from rl.pettingzoo import env
>>> e = env("classic")
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> int(obs["action_mask"].sum()) == len(e.game.legal()), obs["observation"].dtype.name
(True, 'float32')
"""
from engine._core cimport State, MAX_LEGAL
from rl.dealer cimport Dealer
from rl.views cimport Views

from engine.errors import IllegalDecisionError

_NEVER = 2**63 - 1


cdef class AECCore:
    """One match of an edition as the AEC protocol steps it: `game` (the engine's state), the agents
    (`possible_agents[k]` plays seat k) and PettingZoo's bookkeeping dictionaries."""

    cdef public State game
    cdef public object agent_selection
    cdef public list agents, possible_agents
    cdef public dict rewards, _cumulative_rewards, terminations, truncations, infos
    cdef dict _seat_of
    cdef Views _views
    cdef int _num_actions
    cdef public Dealer dealer

    def _bind(self, edition, possible_agents: list, State template) -> None:
        """Takes the edition's observation writer, the agents (seat k is possible_agents[k]) and a
        match of the players and options to deal anew (`dealer`)."""
        self.dealer = Dealer(template)
        self._views = Views(edition)
        self._num_actions = edition.rules.num_decision_ids
        self.possible_agents = list(possible_agents)
        self._seat_of = {agent: k for k, agent in enumerate(self.possible_agents)}

    cdef object _observe(self, object agent):
        cdef int seat = self._seat_of[agent]
        cdef State game = self.game
        return {"observation": self._views._observation(game, seat),
                "action_mask": self._views._mask(game, game.ops.to_move(game.ptr) == seat)}

    def observe(self, agent: str) -> dict:
        """The agent's observation tensor and action mask (new arrays; the mask is all 0 for an agent
        not to move)."""
        return self._observe(agent)

    def last(self, bint observe=True) -> tuple:
        """(observation, cumulative reward, terminated, truncated, info) of the agent to act."""
        agent = self.agent_selection
        assert agent is not None
        return (self._observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def step(self, action) -> None:
        """Applies the agent to act's decision (None for an agent whose match is over)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        cdef State game = self.game
        cdef int legal[MAX_LEGAL]
        cdef int d = -1, n = 0, k, mover
        decision = int(action)
        if 0 <= decision < self._num_actions and game.ops.to_move(game.ptr) >= 0:
            d = decision
            n = game.ops.legal(game.ptr, legal)
        for k in range(n):
            if legal[k] == d:
                break
        else:
            game.apply(decision)  # raises IllegalDecisionError, in the engine's words
            raise IllegalDecisionError(f"decision {decision} is not legal")
        self._cumulative_rewards[agent] = 0.0
        game._apply(d, game._revealed(d))
        mover = game.ops.to_move(game.ptr)
        if mover >= 0:  # no rewards before the end: nothing to accumulate
            self.agent_selection = self.possible_agents[mover]
        else:
            self._finish()

    def _finish(self) -> None:
        """Called when the match has ended: every agent's reward, and all terminated."""
        raise NotImplementedError

    def agent_iter(self, max_iter: int = 2**63) -> AgentIter:
        """The agent to act, step after step, until every agent is done (or `max_iter` steps)."""
        return AgentIter(self, max_iter)


cdef class AgentIter:
    """PettingZoo's agent iterator, compiled: the agent to act while agents remain."""

    cdef AECCore env
    cdef long long left

    def __init__(self, AECCore env, max_iter: int) -> None:
        self.env = env
        self.left = min(max_iter, _NEVER)

    def __iter__(self) -> AgentIter:
        return self

    def __next__(self) -> object:
        if not self.env.agents or self.left <= 0:
            raise StopIteration
        self.left -= 1
        return self.env.agent_selection
