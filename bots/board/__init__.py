"""The bots' knowledge of Lost Cities: The Board Game (`board`): its heuristic
(bots/board/heuristic.pyx)."""
