"""A broken bot: announces a MultiPV option, accepts it, and still reports a single line (the
first legal decision, with a value) — built on the project's server library."""
from protocol.policy import Policy, PolicyOption
from protocol.server import serve_stdio


class OneLine(Policy):
    name = "onepv"
    options = (PolicyOption("MultiPV", "spin", 1, 1, 64),)

    def choose(self, view, limits, stop=None, info=None):
        decision = view.legal()[0]
        if info is not None:
            info({"iterations": 1, "value": 0.5, "pv": [decision]})
        return decision


serve_stdio(OneLine(), fast=False)
