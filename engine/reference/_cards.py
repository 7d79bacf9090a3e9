"""Shared facts and helpers of the reference card-edition models.

Everything here comes straight from ``docs/notation.md`` ("Cards", "Dealing") and
``RULES.md`` sections 1-3: the SplitMix64 generator with Lemire's unbiased ``below``, the
Fisher-Yates shuffle, the per-edition card facts, the text form of sets and stacks, and the
scoring of one expedition.

>>> gen = SplitMix64(1)
>>> gen.below(10) < 10
True
>>> CLASSIC.set_text(CLASSIC.parse_set("yWyWb3", "hand"))
'yWyWb3'
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Iterable, Sequence

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


def size(counter: Counter) -> int:
    return sum(counter.values())


# ---------------------------------------------------------------------------------------------
# Edition facts

_INT = re.compile(r"0|[1-9][0-9]*")
_SIGNED_INT = re.compile(r"-?(0|[1-9][0-9]*)")


class Edition:
    """The facts of one card edition, and its card texts.

    Cards are two-character strings (colour letter, rank letter). ``key[card]`` is the card's
    position in the canonical order (colour-major, then rank), used for every set.
    """

    def __init__(
        self,
        name: str,
        colours: str,
        ranks: str,
        wager: str,
        copies: dict[str, int],
        seats: int,
        hand_size: int,
        single_pile: bool,
    ) -> None:
        self.name = name
        self.colours = colours
        self.ranks = ranks
        self.wager = wager  # the rank letter of wagers / multipliers
        self.seats = seats
        self.hand_size = hand_size
        self.single_pile = single_pile
        self.key: dict[str, int] = {}
        self.value: dict[str, int] = {}  # number value; 0 for wagers
        canonical: list[str] = []
        for ci, col in enumerate(colours):
            for ri, rank in enumerate(ranks):
                card = col + rank
                self.key[card] = ci * len(ranks) + ri
                self.value[card] = 0 if rank == wager else (
                    1 if rank == "A" else 10 if rank == "T" else int(rank))
                canonical.extend([card] * copies.get(rank, 1))
        self.canonical_deck: tuple[str, ...] = tuple(canonical)  # copies together
        self.full = Counter(canonical)
        # Discard piles: one per colour, or one single pile written "-".
        self.pile_names: str = "-" if single_pile else colours
        self.n_cards = len(canonical)

    # -- cards -----------------------------------------------------------------------------
    def is_card(self, text: str) -> bool:
        return text in self.key

    def is_wager(self, card: str) -> bool:
        return card[1] == self.wager

    def pile_of(self, card: str) -> int:
        """Index of the discard pile a card goes to."""
        return 0 if self.single_pile else self.colours.index(card[0])

    def sort(self, cards: Iterable[str]) -> list[str]:
        return sorted(cards, key=self.key.__getitem__)

    # -- text of sets and stacks --------------------------------------------------------------
    def set_text(self, cards: Counter | Iterable[str]) -> str:
        """A set in canonical order, repeats written out; ``-`` when empty."""
        items = cards.elements() if isinstance(cards, Counter) else cards
        text = "".join(self.sort(items))
        return text or "-"

    @staticmethod
    def stack_text(cards: Sequence[str]) -> str:
        """A stack bottom to top; ``-`` when empty."""
        return "".join(cards) or "-"

    def parse_cards(self, text: str, what: str) -> list[str]:
        """Split a concatenation of cards (``-`` = none), checking every card."""
        if text == "-":
            return []
        if not text or len(text) % 2:
            raise NotationError(f"{what}: expected cards of two characters each or '-', got {text!r}")
        cards = [text[i:i + 2] for i in range(0, len(text), 2)]
        for c in cards:
            if c not in self.key:
                raise NotationError(f"{what}: {c!r} is not a {self.name} card")
        return cards

    def parse_set(self, text: str, what: str) -> Counter:
        cards = self.parse_cards(text, what)
        for a, b in zip(cards, cards[1:]):
            if self.key[a] > self.key[b]:
                raise NotationError(f"{what}: a set must be in canonical order, {a} comes after {b} in {text!r}")
        return Counter(cards)

    def parse_stack(self, text: str, what: str) -> list[str]:
        return self.parse_cards(text, what)

    # -- scoring --------------------------------------------------------------------------------
    def expedition_score(self, cards: Sequence[str], cost: int) -> int:
        """(sum of numbers - cost) * (1 + wagers), +20 for 8 or more cards; 0 when empty."""
        cards = list(cards)
        for c in cards:
            if c not in self.key:
                raise ValueError(f"expedition_score: {c!r} is not a {self.name} card")
        if not cards:
            return 0
        if len({c[0] for c in cards}) != 1:
            raise ValueError(f"expedition_score: cards of one colour expected, got {cards}")
        wagers = sum(1 for c in cards if self.is_wager(c))
        score = (sum(self.value[c] for c in cards) - cost) * (1 + wagers)
        if len(cards) >= 8:  # the bonus comes after the multiplier
            score += 20
        return score


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


CLASSIC_COLOURS = "ybwgr"
CLASSIC_RANKS = "W23456789T"

CLASSIC = Edition("classic", CLASSIC_COLOURS, CLASSIC_RANKS, "W", {"W": 3},
                  seats=2, hand_size=8, single_pile=False)
PARTNERS = Edition("partners", CLASSIC_COLOURS, CLASSIC_RANKS, "W",
                   {"W": 3, "2": 2, "3": 2, "4": 2}, seats=4, hand_size=8, single_pile=False)
EXPEDITION = Edition("expedition", "cdhs", "MA23456789T", "M", {"M": 3},
                     seats=2, hand_size=7, single_pile=True)
