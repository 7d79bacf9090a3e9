"""A small learned agent: a linear softmax policy over an edition's observation tensor, trained by
policy gradient (REINFORCE with a batch-mean baseline and Adam, numpy only) in the batched
environment against the random bot, saved as one `.npz`, and played as a protocol bot
(`expeditions rl-bot WEIGHTS`, docs/rl.md).

The policy has a column for each decision id seen legal during a warm-up of random play (in
`classic`, 106 of the 2,214 ids); a legal decision without one is played only when no legal
decision has one.

>>> from rl.agent import train
>>> policy, report = train("classic", steps=300, envs=32, seed=1)
>>> policy.weights.shape[0] == policy.scale.shape[0], report["matches"] > 0
(True, True)
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engine import View
from engine.edition import Edition
from protocol.limits import Limits
from protocol.policy import Policy, allowed_decisions
from rl.spaces import Spaces, edition_record

Array = npt.NDArray[Any]


class LinearPolicy:
    """Logits `(obs / scale) @ weights + bias` over the decision ids `ids`, masked to the legal ones."""

    def __init__(self, edition: str, ids: Array, scale: Array, weights: Array, bias: Array) -> None:
        self.edition = edition
        self.ids = ids.astype(np.int64)
        self.scale = scale.astype(np.float32)
        self.weights = weights.astype(np.float32)
        self.bias = bias.astype(np.float32)

    @classmethod
    def blank(cls, edition: str, ids: Array, scale: Array) -> LinearPolicy:
        """A policy of zero weights (uniform over the legal decisions)."""
        return cls(edition, ids, scale, np.zeros((scale.shape[0], ids.shape[0]), np.float32),
                   np.zeros(ids.shape[0], np.float32))

    def probabilities(self, obs: Array, masks: Array) -> Array:
        """Per row, the probability of each column's decision (0 for those not legal)."""
        logits = (obs / self.scale) @ self.weights + self.bias
        legal = masks[:, self.ids] != 0
        logits = np.where(legal, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=1, keepdims=True)

    def decide(self, obs: Array, legal: list[int]) -> int:
        """The most probable legal decision for one observation (a legal one without a column: only
        when no legal decision has one)."""
        mask = np.zeros(int(self.ids.max()) + 1, dtype=np.int8)
        known = [d for d in legal if d < mask.shape[0]]
        mask[known] = 1
        if not mask[self.ids].any():
            return legal[0]
        p = self.probabilities(obs[None, :], mask[None, :])[0]
        return int(self.ids[int(np.argmax(p))])

    def save(self, path: str | Path) -> None:
        """Writes the policy as one .npz (about 4 bytes per weight)."""
        np.savez_compressed(path, edition=np.array(self.edition), ids=self.ids, scale=self.scale,
                            weights=self.weights, bias=self.bias)

    @classmethod
    def load(cls, path: str | Path) -> LinearPolicy:
        with np.load(path) as f:
            return cls(str(f["edition"]), f["ids"], f["scale"], f["weights"], f["bias"])


class _Adam:
    def __init__(self, shapes: list[tuple[int, ...]], lr: float) -> None:
        self.lr, self.t = lr, 0
        self.m = [np.zeros(s, np.float32) for s in shapes]
        self.v = [np.zeros(s, np.float32) for s in shapes]

    def step(self, params: list[Array], grads: list[Array]) -> None:
        self.t += 1
        for p, g, m, v in zip(params, grads, self.m, self.v):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            p += self.lr * (m / (1 - 0.9 ** self.t)) / (np.sqrt(v / (1 - 0.999 ** self.t)) + 1e-8)


def _reward(record: Edition, rewards: Array, scores: Array, seat: int) -> float:
    """The training signal of a finished match for `seat`: with a margin worth playing for, the
    score margin over the best other seat squashed by the edition's round spread; in a race, the
    reward (+1 won, -1 lost)."""
    if not record.rules.margin:
        return float(rewards[seat])
    others = np.delete(scores, seat)
    return float(np.tanh((scores[seat] - others.max()) / record.search.round_spread))


def train(edition: str | Edition | None = None, seconds: float = 180.0, envs: int = 256, seed: int = 0,
          lr: float = 0.01, batch: int = 8192, log: Any = None,
          steps: int | None = None) -> tuple[LinearPolicy, dict[str, Any]]:
    """Trains a LinearPolicy for `seconds` on the edition's short matches against the random bot
    (the agent takes seat i mod seats of match i); returns it and a report of the training. With
    `steps`, for that many steps of the batched environment instead, whatever they take: the same
    seed then trains the same policy on any machine, however loaded."""
    from rl.batched import BatchedEnv
    record = edition_record(edition)
    env = BatchedEnv(record, envs, seed=seed, **dict(record.quick_options))
    rng = np.random.default_rng(seed)
    # Warm-up of random play: the decision ids that occur, and the scale of each feature.
    seen = np.zeros(env.num_actions, dtype=bool)
    peak = np.zeros(env.observation_size, dtype=np.float32)
    for _ in range(200):
        obs, masks, _, _ = env.step(env.sample_actions())
        seen |= masks.any(axis=0)
        np.maximum(peak, np.abs(obs).max(axis=0), out=peak)
    policy = LinearPolicy.blank(record.name, np.flatnonzero(seen), np.maximum(peak, 1.0))
    adam = _Adam([policy.weights.shape, policy.bias.shape], lr)
    obs, masks = env.reset(seed)
    agent_seat = np.arange(envs) % env.num_seats
    pending: list[list[tuple[Array, Array, int]]] = [[] for _ in range(envs)]
    samples: list[tuple[Array, Array, int, float]] = []
    matches = updates = stepped = 0
    results: list[float] = []
    start = time.perf_counter()
    while stepped < steps if steps is not None else time.perf_counter() - start < seconds:
        stepped += 1
        actions = env.sample_actions().copy()
        acting = np.flatnonzero(env.to_move == agent_seat)
        if acting.size:
            p = policy.probabilities(obs[acting], masks[acting])
            cols = (p.cumsum(axis=1) > rng.random((acting.size, 1))).argmax(axis=1)
            actions[acting] = policy.ids[cols]
            for row, i in enumerate(acting):
                pending[i].append((obs[i].copy(), masks[i, policy.ids] != 0, int(cols[row])))
        obs, masks, rewards, dones = env.step(actions)
        for i in np.flatnonzero(dones):
            r = _reward(record, rewards[i], env.scores[i], int(agent_seat[i]))
            results.append(float(rewards[i, agent_seat[i]]))
            samples.extend((o, m, a, r) for o, m, a in pending[i])
            pending[i] = []
            matches += 1
        if len(samples) >= batch:
            _update(policy, adam, samples)
            samples = []
            updates += 1
            if log is not None and updates % 10 == 0:
                recent = results[-2000:]
                log(f"{time.perf_counter() - start:6.0f}s  matches {matches:7d}  "
                    f"mean reward vs random (last {len(recent)}) {np.mean(recent):+.3f}")
    recent = results[-2000:]
    return policy, {"matches": matches, "updates": updates, "steps": stepped, "seconds": round(time.perf_counter() - start, 1),
                    "mean_reward_last_2000": round(float(np.mean(recent)), 3) if recent else None}


def _update(policy: LinearPolicy, adam: _Adam, samples: list[tuple[Array, Array, int, float]]) -> None:
    """One policy-gradient step: grad log pi(a) x (reward - batch mean), with a little entropy."""
    x = np.stack([s[0] for s in samples]) / policy.scale
    legal = np.stack([s[1] for s in samples])
    chosen = np.array([s[2] for s in samples])
    advantage = np.array([s[3] for s in samples], dtype=np.float32)
    advantage -= advantage.mean()
    logits = np.where(legal, x @ policy.weights + policy.bias, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    g = -p
    g[np.arange(len(samples)), chosen] += 1.0
    g *= advantage[:, None]
    logp = np.log(np.where(legal, p, 1.0))
    entropy = -(p * logp).sum(axis=1, keepdims=True)
    g += 0.01 * -p * (logp + entropy)  # d(entropy)/d(logits)
    g = np.where(legal, g, 0.0).astype(np.float32)
    n = float(len(samples))
    adam.step([policy.weights, policy.bias], [x.T @ g / n, g.sum(axis=0) / n])


class LearnedPolicy(Policy):
    """A saved LinearPolicy as a protocol bot: it plays the most probable legal decision of its
    observation of the view (instant: no search)."""

    name = "rl-linear"
    instant = True

    def __init__(self, weights: str | Path) -> None:
        super().__init__()
        self.policy = LinearPolicy.load(weights)
        self.record = edition_record(self.policy.edition)
        self.spaces = Spaces(self.record)
        self.editions = (self.record.name,)

    def choose(self, view: View, limits: Limits, stop: Any = None, info: Any = None) -> int:
        legal = allowed_decisions(view, limits)
        return self.policy.decide(self.spaces.observe(view.state, view.seat), legal)
