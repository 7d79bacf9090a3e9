"""The bots' knowledge of The Quest for El Dorado (`eldorado`): its greedy heuristic
(bots/eldorado/heuristic.pyx)."""
