"""expeditions: a tournament AI engine for Reiner Knizia's expedition games.

The packages: `engine` (rules, notation), `protocol` (the UEI bot protocol), `bots` (random,
greedy, ISMCTS), `arena` (tournaments). This package holds the `expeditions` command.
"""
__version__ = "0.1.0"
