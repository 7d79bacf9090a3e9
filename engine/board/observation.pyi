"""Type stubs of engine/board/observation.pyx: the edition's observation tensor."""
from engine.observation import Field, Observation

S: int
FIELDS: tuple[Field, ...]
OBSERVATION: Observation
