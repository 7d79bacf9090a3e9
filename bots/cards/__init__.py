"""The bots' knowledge of the Lost Cities card family (`classic`, `partners`, `expedition`): its
heuristic (bots/cards/heuristic.pyx) and its opponent model (bots/cards/inference.pyx)."""
