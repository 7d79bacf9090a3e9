"""Every edition in the reinforcement-learning frameworks (docs/rl.md): an observation tensor and an
action mask per seat, and environments on them — a batched one stepped in compiled code
(`rl.batched`), a PettingZoo AEC environment (`rl.pettingzoo`), a Gymnasium single-agent environment
(`rl.gymnasium`), OpenSpiel games (`rl.openspiel`) — and a small learned agent (`rl.agent`).

Needs the optional extra: `pip install '.[rl]'` (numpy, gymnasium, pettingzoo, open_spiel). The
modules import their framework when they are imported, not before.
"""
