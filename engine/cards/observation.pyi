"""Type stubs of engine/cards/observation.pyx: the card editions' observation tensors."""
from engine.observation import Observation

OBSERVATIONS: tuple[Observation, ...]
