"""The facts of the reference card-edition models: per edition its cards, their texts (sets and
stacks), and the scoring of one expedition (docs/notation.md "Cards", RULES.md sections 1-3).

>>> CLASSIC.set_text(CLASSIC.parse_set("yWyWb3", "hand"))
'yWyWb3'
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Sequence

from engine.reference.base import NotationError, parse_cards

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
        return parse_cards(text, what, self.key, self.name)

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


CLASSIC_COLOURS = "ybwgr"
CLASSIC_RANKS = "W23456789T"

CLASSIC = Edition("classic", CLASSIC_COLOURS, CLASSIC_RANKS, "W", {"W": 3},
                  seats=2, hand_size=8, single_pile=False)
PARTNERS = Edition("partners", CLASSIC_COLOURS, CLASSIC_RANKS, "W",
                   {"W": 3, "2": 2, "3": 2, "4": 2}, seats=4, hand_size=8, single_pile=False)
EXPEDITION = Edition("expedition", "cdhs", "MA23456789T", "M", {"M": 3},
                     seats=2, hand_size=7, single_pile=True)
