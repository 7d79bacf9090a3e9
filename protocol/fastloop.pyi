"""Type stubs of protocol/fastloop.pyx: the command loop in C of instant bots."""
from typing_extensions import disjoint_base

from protocol.decider import Decider
from protocol.server import Server

@disjoint_base
class FastLoop:
    fast_lines: int
    slow_lines: int
    def __init__(self, server: Server, decider: Decider, out_fd: int) -> None: ...
    def run(self, in_fd: int) -> None: ...
