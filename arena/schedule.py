"""Which games a tournament plays, in a fixed order: groups of bots x deals x rotations.

A *side* is a seat, or a team in team editions. Every deal is played once per rotation of the
sides (for two sides: a pair with the sides swapped) so that the luck of the deal cancels. Deal
seeds derive from the master seed, so every group plays the same deals.

>>> s = Schedule(num_bots=3, sides=2, format="round-robin", deals=2, master_seed=7)
>>> s.total(), s.game(0).sides, s.game(1).sides
(12, (0, 1), (1, 0))
"""
from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

_MASK = (1 << 64) - 1


def deal_seed(master_seed: int, deal: int) -> int:
    """The seed of deal number `deal`: a SplitMix64 output (documented, reproducible)."""
    z = (master_seed + (deal + 1) * 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


@dataclass(frozen=True)
class PlannedGame:
    """One game of the plan; `index` is its stable number (used to resume)."""

    index: int
    group: int
    deal: int
    rotation: int
    seed: int
    sides: tuple[int, ...]
    """Bot index playing each side."""

    def seat_bots(self, side_of_seat: list[int]) -> list[int]:
        """Bot index per seat, given each seat's side (team)."""
        return [self.sides[side] for side in side_of_seat]


def check_enough_bots(num_bots: int, sides: int, format: str) -> None:
    """ValueError saying what to do when `num_bots` cannot fill games of `sides` sides: every game
    seats each of its bots at one side, so a game of four sides needs four bots.

    >>> check_enough_bots(3, 4, "round-robin")
    Traceback (most recent call last):
    ValueError: round robin with 4 sides needs at least 4 bots, got 3: enter more bots (one program may play under several names, e.g. --bot greedy --bot greedy name=greedy2) or play with fewer sides
    """
    if num_bots < sides:
        what = {"round-robin": "round robin", "gauntlet": "a gauntlet"}.get(format, format)
        raise ValueError(f"{what} with {sides} sides needs at least {sides} bots, got {num_bots}: enter more "
                         "bots (one program may play under several names, e.g. --bot greedy --bot greedy "
                         "name=greedy2) or play with fewer sides")


class Schedule:
    """The planned games: `total()` of them, `game(i)` is the i-th, iteration in order."""

    def __init__(self, num_bots: int, sides: int, format: str, deals: int, master_seed: int) -> None:
        check_enough_bots(num_bots, sides, format)
        if format == "round-robin":
            self.groups = list(itertools.combinations(range(num_bots), sides))
        elif format == "gauntlet":
            self.groups = [(0, *rest) for rest in itertools.combinations(range(1, num_bots), sides - 1)]
        else:
            raise ValueError(f"unknown format {format!r}")
        self.sides = sides
        self.deals = deals
        self.master_seed = master_seed

    def total(self) -> int:
        return len(self.groups) * self.deals * self.sides

    def game(self, index: int) -> PlannedGame:
        if not 0 <= index < self.total():
            raise IndexError(index)
        rotation = index % self.sides
        group = (index // self.sides) % len(self.groups)
        deal = index // (self.sides * len(self.groups))
        members = self.groups[group]
        sides = tuple(members[(side + rotation) % self.sides] for side in range(self.sides))
        return PlannedGame(index, group, deal, rotation, deal_seed(self.master_seed, deal), sides)

    def __iter__(self) -> Iterator[PlannedGame]:
        return (self.game(i) for i in range(self.total()))

    def games_of_deal(self, deal: int) -> range:
        """Indices of every game dealt from deal number `deal`: each group plays it once per rotation.

        >>> list(Schedule(num_bots=3, sides=2, format="round-robin", deals=2, master_seed=7).games_of_deal(1))
        [6, 7, 8, 9, 10, 11]
        """
        size = self.sides * len(self.groups)
        return range(deal * size, (deal + 1) * size)

    def pair_of(self, index: int) -> tuple[int, ...]:
        """Indices of the games that share this game's deal and group (its duplicate set)."""
        first = index - index % self.sides
        return tuple(range(first, first + self.sides))
