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
from collections.abc import Container, Mapping, Sequence

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


# ---------------------------------------------------------------------------------------------
# Positions as text (docs/notation.md "Positions"): what the models read alike

OptionTable = Sequence[tuple[str, int, int, int]]
"""A model's rule options: (name, default, lowest, highest), in the order a position writes them."""


def check_options(edition: str, table: OptionTable, options: dict, note: str = "") -> dict[str, int]:
    """Every option of `table`, from `options` or its default; ValueError for an unknown name or a
    value that is not an integer in range (`note` is added to the unknown-name message).

    >>> check_options("classic", [("rounds", 3, 1, 99)], {})
    {'rounds': 3}
    """
    names = [o[0] for o in table]
    for name in options:
        if name not in names:
            raise ValueError(f"unknown option {name!r} for {edition}; options are {', '.join(names)}{note}")
    result = {}
    for name, default, lo, hi in table:
        value = options.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"option {name} must be an integer, got {value!r}")
        if not lo <= value <= hi:
            raise ValueError(f"option {name} must be in {lo}..{hi}, got {value}")
        result[name] = value
    return result


def read_position(text: str, edition: str, table: OptionTable, fields: Sequence[str],
                  choices: Mapping[str, Sequence[str]] | None = None) -> tuple[dict[str, int], dict[str, str]]:
    """The options given (in table order, each at most once) and the value of every field of a
    full position's text, the fields in their fixed order; NotationError names what is wrong.
    An option in `choices` may be written by name (its value is the name's index).

    >>> read_position("classic rounds=1 round=1/1", "classic", [("rounds", 3, 1, 99)], ["round"])
    ({'rounds': 1}, {'round': '1/1'})
    """
    if not isinstance(text, str):
        raise NotationError(f"position: expected a string, got {type(text).__name__}")
    tokens = text.split()
    if not tokens:
        raise NotationError("position: empty text")
    if tokens[0] != edition:
        raise NotationError(f"edition: expected {edition!r}, got {tokens[0]!r}")
    names = [o[0] for o in table]
    options: dict[str, int] = {}
    i, next_option = 1, 0
    while i < len(tokens) and tokens[i].partition("=")[0] in names:
        name, _, value = tokens[i].partition("=")
        index = names.index(name)
        if index < next_option:
            raise NotationError(f"option {name}: repeated or out of order (order: {' '.join(names)})")
        _, _, lo, hi = table[index]
        named = (choices or {}).get(name, ())
        if value in named:
            options[name] = list(named).index(value)
        elif named and not value.isdigit():
            raise NotationError(f"option {name}: expected one of {', '.join(named)}, got {value!r}")
        else:
            options[name] = parse_int(value, f"option {name}", lo, hi)
        next_option = index + 1
        i += 1
    values: dict[str, str] = {}
    rest = tokens[i:]
    for k, name in enumerate(fields):
        if k >= len(rest):
            raise NotationError(f"position: missing field {name}=")
        got, eq, value = rest[k].partition("=")
        if got == "seat" and "seat" not in fields:
            raise NotationError("seat=: this is a view, not a position")
        if got in names:
            raise NotationError(f"option {got}: repeated or out of order (order: {' '.join(names)})")
        if not eq or got != name:
            raise NotationError(f"position: expected field {name}= at token {rest[k]!r}")
        values[name] = value
    if len(rest) > len(fields):
        raise NotationError(f"position: unexpected token {rest[len(fields)]!r} after {fields[-1]}=")
    return options, values


def parse_cards(text: str, what: str, known: Container[str], deck: str) -> list[str]:
    """The cards of a concatenation of two-character cards (``-`` = none), each one of `known`
    (a card of the `deck` named in the message).

    >>> parse_cards("y2b7", "hand", {"y2", "b7"}, "classic")
    ['y2', 'b7']
    """
    if text == "-":
        return []
    if not text or len(text) % 2:
        raise NotationError(f"{what}: expected cards of two characters each or '-', got {text!r}")
    cards = [text[i:i + 2] for i in range(0, len(text), 2)]
    for c in cards:
        if c not in known:
            raise NotationError(f"{what}: {c!r} is not a {deck} card")
    return cards


def split(value: str, what: str, n: int) -> list[str]:
    """A field's `n` entries, separated by '/'.

    >>> split("0/5", "totals", 2)
    ['0', '5']
    """
    parts = value.split("/")
    if len(parts) != n:
        raise NotationError(f"{what}: expected {n} entries separated by '/', got {len(parts)} in {value!r}")
    return parts


# ---------------------------------------------------------------------------------------------
# A match of rounds, turns and phases (docs/notation.md "Positions"): what the models keep alike

class RoundsGame:
    """The progress of a match in rounds of turns, its options and its generator: the fields and
    queries every reference model of this project shares. Subclasses set `PHASES` (the last one
    is the finished match's) and `ROUND_WORD` (how a round is named in a message).

    >>> class Toy(RoundsGame):
    ...     PHASES = ("play", "over")
    >>> g = Toy()
    >>> g.options = {"rounds": 2, "max_turns": 9}
    >>> g._parse_progress({"round": "1/2", "starter": "0", "turn": "3", "phase": "play", "to_move": "1"}, 2)
    >>> g.progress_fields()[:3], g.to_move
    (['round=1/2', 'starter=0', 'turn=3'], 1)
    """

    PHASES: tuple[str, ...] = ()
    ROUND_WORD = "round"

    def __init__(self) -> None:
        self.options: dict[str, int] = {}
        self.round = 1
        self.starter = 0
        self.turn = 0
        self.phase = self.PHASES[0] if self.PHASES else ""
        self._to_move: int | None = 0
        self.nodraw: int | None = None  # the pile that received a card this turn (draw phase only)
        self.rng = 0

    @property
    def rounds(self) -> int:
        return self.options["rounds"]

    @property
    def max_turns(self) -> int:
        return self.options["max_turns"]

    @property
    def to_move(self) -> int | None:
        """The seat to move, or None when the match is over."""
        return self._to_move

    def is_over(self) -> bool:
        return self.phase == self.PHASES[-1]

    def _begin_round(self) -> None:
        """The first turn of a round just dealt: the starter plays."""
        self.turn = 0
        self.phase = self.PHASES[0]
        self._to_move = self.starter
        self.nodraw = None

    def progress_fields(self) -> list[str]:
        """round=, starter=, turn=, phase= and to_move=, as a position writes them."""
        return [f"round={self.round}/{self.rounds}", f"starter={self.starter}", f"turn={self.turn}",
                f"phase={self.phase}", f"to_move={'-' if self._to_move is None else self._to_move}"]

    def _parse_progress(self, v: dict[str, str], seats: int) -> None:
        """Reads the fields `progress_fields` writes (with `seats` seats), checking them together."""
        parts = v["round"].split("/")
        if len(parts) != 2:
            raise NotationError(f"round: expected r/R, got {v['round']!r}")
        total = parse_int(parts[1], "round (R)")
        if total != self.rounds:
            raise NotationError(f"round: R must equal the rounds option {self.rounds}, got {total}")
        self.round = parse_int(parts[0], "round (r)", 1, total)
        self.starter = parse_int(v["starter"], "starter", 0, seats - 1)
        self.phase = v["phase"]
        if self.phase not in self.PHASES:
            raise NotationError(f"phase: expected {', '.join(self.PHASES[:-1])} or {self.PHASES[-1]}, "
                                f"got {self.phase!r}")
        over = self.is_over()
        # While a round runs, 0 <= turn < max_turns; a finished match may sit at max_turns.
        self.turn = parse_int(v["turn"], "turn", 0, self.max_turns if over else self.max_turns - 1)
        if over:
            if v["to_move"] != "-":
                raise NotationError(f"to_move: expected '-' when the phase is over, got {v['to_move']!r}")
            if self.round != self.rounds:
                raise NotationError(f"phase: the match is over only after {self.ROUND_WORD} {self.rounds}, "
                                    f"got {self.ROUND_WORD} {self.round}")
            self._to_move = None
        else:
            self._to_move = parse_int(v["to_move"], "to_move", 0, seats - 1)

    def legal(self) -> list[str]:
        raise NotImplementedError

    def _check_decision_syntax(self, decision: str) -> None:
        raise NotImplementedError

    def _legal_mover(self, decision: str) -> int:
        """The seat to move, when `decision` is legal for it; else ValueError: a malformed decision
        named as such, then the match being over, then the legal decisions."""
        legal = self.legal()
        if decision not in legal:
            self._check_decision_syntax(decision)
            if self.is_over():
                raise ValueError(f"decision {decision!r}: the match is over")
            raise ValueError(f"illegal decision {decision!r} for seat {self._to_move} in phase "
                             f"{self.phase}; legal: {' '.join(legal)}")
        return mover(self._to_move)

    def _parse_rng(self, text: str) -> None:
        if len(text) != 16 or any(ch not in "0123456789abcdef" for ch in text):
            raise NotationError(f"rng: expected 16 lowercase hex digits, got {text!r}")
        self.rng = int(text, 16)
