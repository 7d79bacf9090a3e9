"""What every reference model shares: the notation's error, the SplitMix64 generator with
Lemire's unbiased ``below``, the Fisher-Yates shuffle (docs/notation.md, "Dealing"), multiset
helpers and the reading of integers. Standard library only.

>>> gen = SplitMix64(1)
>>> gen.below(10) < 10
True
>>> parse_int("12", "turn", 0, 300)
12
>>> mover(1)
1
"""

from __future__ import annotations

import re
from collections import Counter

MASK64 = (1 << 64) - 1


class NotationError(ValueError):
    """A text (position, decision, card) that does not follow docs/notation.md."""


# ---------------------------------------------------------------------------------------------
# Randomness (docs/notation.md "Dealing")


class SplitMix64:
    """SplitMix64 on a 64-bit state, with Lemire's unbiased ``below``.

    >>> g = SplitMix64(0)
    >>> hex(g.next())
    '0xe220a8397b1dcdaf'
    """

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in 0..n-1 without bias (Lemire's multiply-and-reject)."""
        if n < 1:
            raise ValueError(f"below(n) needs n >= 1, got {n}")
        m = self.next() * n
        low = m & MASK64
        if low < n:
            threshold = ((1 << 64) - n) % n
            while low < threshold:
                m = self.next() * n
                low = m & MASK64
        return m >> 64


def shuffle(cards: list, gen: SplitMix64) -> None:
    """Fisher-Yates in place: for i from n-1 down to 1, swap cards i and below(i+1)."""
    for i in range(len(cards) - 1, 0, -1):
        j = gen.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]


# ---------------------------------------------------------------------------------------------
# Multiset helpers (hands and knowledge are collections.Counter of card texts)


def take(counter: Counter, card: str) -> None:
    """Remove one copy of ``card``; it must be there. Keeps no zero entries."""
    n = counter[card]
    if n <= 0:
        raise KeyError(card)
    if n == 1:
        del counter[card]
    else:
        counter[card] = n - 1


def take_if(counter: Counter, card: str) -> bool:
    """Remove one copy of ``card`` if present; report whether it was."""
    n = counter.get(card, 0)
    if n <= 0:
        return False
    if n == 1:
        del counter[card]
    else:
        counter[card] = n - 1
    return True


def contains(big: Counter, small: Counter) -> bool:
    """Multiset inclusion: every card of ``small`` at most as often as in ``big``."""
    return all(big.get(c, 0) >= n for c, n in small.items())


def mover(seat: int | None) -> int:
    """The seat to move of a running match (a model's to_move is None once it is over)."""
    if seat is None:
        raise ValueError("the match is over: no seat is to move")
    return seat


def size(counter: Counter) -> int:
    return sum(counter.values())


_INT = re.compile(r"0|[1-9][0-9]*")
_SIGNED_INT = re.compile(r"-?(0|[1-9][0-9]*)")


def parse_int(text: str, what: str, lo: int | None = None, hi: int | None = None,
              signed: bool = False) -> int:
    """A decimal integer, optionally range-checked; errors name ``what``."""
    pattern = _SIGNED_INT if signed else _INT
    if not pattern.fullmatch(text):
        raise NotationError(f"{what}: expected {'an integer' if signed else 'a non-negative integer'}, got {text!r}")
    value = int(text)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise NotationError(f"{what}: expected {lo}..{hi}, got {value}")
    return value
