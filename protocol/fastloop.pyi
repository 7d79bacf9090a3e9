"""Type stubs of protocol/fastloop.pyx (the C command loop of instant bots)."""
from bots.deciders import Decider
from protocol.server import Server

class FastLoop:
    fast_lines: int
    slow_lines: int
    def __init__(self, server: Server, decider: Decider, out_fd: int) -> None: ...
    def run(self, in_fd: int) -> None: ...
