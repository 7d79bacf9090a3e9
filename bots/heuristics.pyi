"""Type stubs of bots/heuristics.pyx (the Python face of the per-edition heuristics)."""
import random

from engine import State

EDITIONS: tuple[str, ...]

def greedy_decision(state: State, rng: int | random.Random = 0, epsilon: float = 0.0) -> int: ...
def heuristic_playouts(template: State, games: int, seed: int, epsilon: float = 0.0) -> int: ...
