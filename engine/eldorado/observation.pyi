"""Type stubs of engine/eldorado/observation.pyx: the edition's observation tensor."""
from engine.observation import Field, Observation

S: int
FIELDS: tuple[Field, ...]
OBSERVATION: Observation
N_COIN_SOURCES: int
