"""Type stubs of engine/observation.pyx: an edition's observation tensor."""
from dataclasses import dataclass

from typing_extensions import disjoint_base

from engine._core import State

@dataclass(frozen=True)
class Field:
    name: str
    offset: int
    shape: tuple[int, ...]
    doc: str
    @property
    def size(self) -> int: ...

def layout(blocks: list[tuple[str, tuple[int, ...], str]]) -> tuple[Field, ...]: ...

@disjoint_base
class Observation:
    @property
    def size(self) -> int: ...
    @property
    def fields(self) -> tuple[Field, ...]: ...
    @property
    def name(self) -> str: ...
    def offsets(self) -> dict[str, Field]: ...
    def observe(self, state: State, seat: int, out: object) -> None: ...
    @property
    def incremental(self) -> bool: ...
    def update(self, prev: State, prev_seat: int, state: State, seat: int, out: object) -> None: ...
