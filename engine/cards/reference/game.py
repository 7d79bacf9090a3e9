"""The common reference game of the Lost Cities card editions.

``BaseGame`` implements ``classic`` and ``expedition`` completely (two seats, one row per seat);
``partners.Game`` overrides the few places where partnerships differ (team rows, passes, the
extra knowledge fields, the next starter). Subclasses only set the edition facts ``ED`` and the
rule options ``OPTIONS``.

The state is kept in plain data: hands and knowledge are ``collections.Counter`` of card texts,
rows are ``{colour: [cards in play order]}``, piles and the draw pile are lists bottom to top
(the last element is the top).

>>> from engine.cards.reference import classic
>>> g = classic.Game.new(1)
>>> g.to_move, g.phase, len(g.legal()) >= 8
(0, 'play', True)
"""

from __future__ import annotations

import random
from collections import Counter
from typing import ClassVar, Self

from engine.reference.base import (NotationError, RoundsGame, SplitMix64, check_options, contains, mover, parse_int,
                                   read_position, shuffle, size, split, take, take_if)

from .facts import Edition

PLAY, DRAW, OVER = "play", "draw", "over"

# One entry of the history: (seat, decision text, card drawn from the draw pile or None).
HistoryEntry = tuple[int, str, "str | None"]


class BaseGame(RoundsGame):
    """A full position of a card edition, with the rules to move from it.

    Use ``Game.new(seed, **options)`` or ``Game.from_text(text)``; the constructor makes an
    empty shell.
    """

    ED: ClassVar[Edition]
    # (name, default, lowest, highest) in the order of docs/notation.md "Rule options".
    OPTIONS: ClassVar[tuple[tuple[str, int, int, int], ...]] = (
        ("rounds", 3, 1, 99),
        ("max_turns", 300, 1, 10000),
    )
    FIXED_COST: ClassVar[int | None] = 20  # None: the cost is the `cost` option

    PHASES = (PLAY, DRAW, OVER)

    # ------------------------------------------------------------------ construction
    def __init__(self) -> None:
        super().__init__()
        self._totals: list[int] = []
        self.hands: list[Counter] = []
        self.rows: list[dict[str, list[str]]] = []
        self.piles: list[list[str]] = []
        self.deck: list[str] = []
        self.known: list[Counter] = []
        self._history: list[HistoryEntry] = []

    @classmethod
    def new(cls, seed: int, **options: int) -> Self:
        """Deal round 1 from ``seed`` (docs/notation.md "Dealing").

        >>> from engine.cards.reference import classic
        >>> g = classic.Game.new(7, rounds=1)
        >>> len(g.deck), g.to_move
        (44, 0)
        """
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 64:
            raise ValueError(f"seed must be an integer in 0..2^64-1, got {seed!r}")
        g = cls()
        g.options = check_options(cls.ED.name, cls.OPTIONS, options)
        g._totals = [0] * cls._n_rows()
        g.round = 1
        g.starter = 0
        g.rng = seed
        g._deal()
        return g

    def copy(self) -> Self:
        """An independent copy (history included)."""
        g = type(self)()
        g.options = dict(self.options)
        g.round, g.starter, g.turn, g.phase = self.round, self.starter, self.turn, self.phase
        g._to_move, g.nodraw, g.rng = self._to_move, self.nodraw, self.rng
        g._totals = list(self._totals)
        g.hands = [Counter(h) for h in self.hands]
        g.rows = [{c: list(v) for c, v in row.items()} for row in self.rows]
        g.piles = [list(p) for p in self.piles]
        g.deck = list(self.deck)
        g.known = [Counter(k) for k in self.known]
        g._history = list(self._history)
        self._copy_extra(g)
        return g

    def _copy_extra(self, g: Self) -> None:
        """Copy edition-specific fields (partners knowledge)."""

    # ------------------------------------------------------------------ edition hooks
    @classmethod
    def _n_rows(cls) -> int:
        return cls.ED.seats

    def _row_of(self, seat: int) -> int:
        return seat

    def _next_starter(self) -> int:
        # RULES.md 1 (Resolved): the leader starts; on a tie the player who did not start.
        a, b = self._totals
        if a != b:
            return 0 if a > b else 1
        return 1 - self.starter

    def _passes(self, seat: int, cards: list[str]) -> list[str]:
        return []

    def _do_pass(self, seat: int, c1: str, c2: str) -> None:  # pragma: no cover - partners only
        raise NotationError("passes exist only in partners")

    def _reset_knowledge(self) -> None:
        self.known = [Counter() for _ in range(self.ED.seats)]

    def _learn(self, seat: int, card: str) -> None:
        """``seat`` drew ``card`` from a discard pile: everybody saw it go into that hand."""
        self.known[seat][card] += 1

    def _forget(self, seat: int, card: str) -> None:
        """``card`` left ``seat``'s hand by a play or a discard (public)."""
        take_if(self.known[seat], card)

    def _seen_in_hand(self, viewer: int, seat: int) -> Counter:
        """The cards ``viewer`` knows to be in another seat's hand."""
        return self.known[seat]

    def _mask(self, viewer: int | None, seat: int, text: str, card: str | None) -> str:
        """One history entry as ``viewer`` sees it (None: the referee sees everything)."""
        if text == "D":
            # a draw from the draw pile is recorded with its card
            return "D" if viewer is not None and viewer != seat else "D:" + card  # type: ignore[operator]
        return text

    # ------------------------------------------------------------------ public queries
    @property
    def cost(self) -> int:
        return self.FIXED_COST if self.FIXED_COST is not None else self.options["cost"]

    def totals(self) -> list[int]:
        """Scores of the completed rounds, per row (seat; team in partners)."""
        return list(self._totals)

    def row_scores(self) -> list[int]:
        """Scores of the rows as they stand now (the current round only)."""
        return [sum(self.ED.expedition_score(cards, self.cost) for cards in row.values())
                for row in self.rows]

    def seat_scores(self) -> list[int]:
        """Match totals per seat (in partners each seat gets its team's total)."""
        return [self._totals[self._row_of(s)] for s in range(self.ED.seats)]

    def result(self) -> list[float]:
        """Per seat: 1 win, 0.5 draw, 0 loss, judged on the totals (final once is_over())."""
        best = max(self._totals)
        winners = [r for r, t in enumerate(self._totals) if t == best]
        out = []
        for s in range(self.ED.seats):
            r = self._row_of(s)
            out.append(0.0 if r not in winners else (1.0 if len(winners) == 1 else 0.5))
        return out

    # ------------------------------------------------------------------ dealing and flow
    def _deal(self) -> None:
        """Shuffle the canonical deck with the state's generator and deal a round."""
        ed = self.ED
        gen = SplitMix64(self.rng)
        cards = list(ed.canonical_deck)
        shuffle(cards, gen)
        self.rng = gen.state
        self.hands = [Counter() for _ in range(ed.seats)]
        dealt = ed.seats * ed.hand_size
        for k in range(dealt):
            # The last element is the top; card k goes to seat k mod seats.
            self.hands[k % ed.seats][cards[len(cards) - 1 - k]] += 1
        self.deck = cards[:len(cards) - dealt]
        self.rows = [{c: [] for c in ed.colours} for _ in range(self._n_rows())]
        self.piles = [[] for _ in ed.pile_names]
        self._reset_knowledge()
        self._begin_round()
        self._history = []

    def _end_turn(self) -> None:
        self.turn += 1
        self.phase = PLAY
        self.nodraw = None
        self._to_move = (mover(self._to_move) + 1) % self.ED.seats
        # RULES.md: the round ends at once on the last card of the draw pile, or after
        # max_turns completed turns ("What every edition shares").
        if not self.deck or self.turn >= self.max_turns:
            self._end_round()

    def _end_round(self) -> None:
        for r, score in enumerate(self.row_scores()):
            self._totals[r] += score
        if self.round >= self.rounds:
            # Final hands, rows and piles are kept (docs/notation.md "Rounds").
            self.phase = OVER
            self._to_move = None
            self.nodraw = None
            return
        self.round += 1
        self.starter = self._next_starter()  # from the totals including this round
        self._deal()

    # ------------------------------------------------------------------ decisions
    def _can_play(self, row: dict[str, list[str]], card: str) -> bool:
        exp = row[card[0]]
        if self.ED.is_wager(card):
            # Wagers only before the first number card, at most 3.
            return all(self.ED.is_wager(c) for c in exp) and len(exp) < 3
        if not exp or self.ED.is_wager(exp[-1]):
            return True
        return self.ED.value[exp[-1]] < self.ED.value[card]  # strictly increasing

    def legal(self) -> list[str]:
        """Legal decisions of the seat to move, in the documented order.

        >>> from engine.cards.reference import classic
        >>> g = classic.Game.new(3)
        >>> g.legal()[0][0] in '+-'
        True
        """
        if self.phase == OVER:
            return []
        seat = mover(self._to_move)
        if self.phase == DRAW:
            out = ["D"]  # the draw pile is never empty while a round runs
            for i, pile in enumerate(self.piles):
                if pile and i != self.nodraw:
                    out.append("D" + self.ED.pile_names[i])
            return out
        cards = self.ED.sort(self.hands[seat])  # distinct cards: identical cards decide alike
        row = self.rows[self._row_of(seat)]
        plays = ["+" + c for c in cards if self._can_play(row, c)]
        discards = ["-" + c for c in cards]
        return plays + discards + self._passes(seat, cards)

    def _check_decision_syntax(self, decision: str) -> None:
        ed = self.ED
        ok = False
        if isinstance(decision, str) and decision:
            head, rest = decision[0], decision[1:]
            if head in "+-":
                ok = rest in ed.key
            elif head == "D":
                ok = rest == "" or (len(rest) == 1 and rest in ed.pile_names)
            elif head == ">" and ed.seats == 4:  # passes exist only in partners
                ok = (len(rest) == 4 and rest[:2] in ed.key and rest[2:] in ed.key
                      and ed.key[rest[:2]] <= ed.key[rest[2:]])
        if not ok:
            raise NotationError(f"malformed decision {decision!r} for {ed.name}: expected +card, -card, "
                                f"D, D<pile>{', >card card (canonical order)' if ed.seats == 4 else ''}")

    def apply(self, decision: str) -> None:
        """Apply one decision given as text; ValueError (state unchanged) if malformed or illegal.

        >>> from engine.cards.reference import classic
        >>> g = classic.Game.new(3)
        >>> g.apply(g.legal()[0]); g.phase
        'draw'
        """
        seat = self._legal_mover(decision)
        head = decision[0]
        if head == "+":
            card = decision[1:]
            take(self.hands[seat], card)
            self._forget(seat, card)
            self.rows[self._row_of(seat)][card[0]].append(card)
            self.phase, self.nodraw = DRAW, None
            self._history.append((seat, decision, None))
        elif head == "-":
            card = decision[1:]
            take(self.hands[seat], card)
            self._forget(seat, card)
            pile = self.ED.pile_of(card)
            self.piles[pile].append(card)
            self.phase, self.nodraw = DRAW, pile
            self._history.append((seat, decision, None))
        elif head == ">":
            self._history.append((seat, decision, None))
            self._do_pass(seat, decision[1:3], decision[3:5])
            self._end_turn()  # a pass is a whole turn
        elif decision == "D":
            card = self.deck.pop()
            self.hands[seat][card] += 1
            self._history.append((seat, "D", card))
            self._end_turn()
        else:
            card = self.piles[self.ED.pile_names.index(decision[1])].pop()
            self.hands[seat][card] += 1
            self._learn(seat, card)
            self._history.append((seat, decision, None))
            self._end_turn()

    # ------------------------------------------------------------------ text: positions
    def _options_text(self) -> str:
        return " ".join(f"{name}={self.options[name]}" for name, *_ in self.OPTIONS)

    def _common_fields(self) -> list[str]:
        ed = self.ED
        return self.progress_fields() + [
            f"nodraw={'.' if self.nodraw is None else ed.pile_names[self.nodraw]}",
            "totals=" + "/".join(str(t) for t in self._totals),
        ]

    def _rows_text(self) -> str:
        return "rows=" + "/".join(
            self.ED.set_text([c for col in self.ED.colours for c in row[col]]) for row in self.rows)

    def _piles_text(self) -> str:
        return "piles=" + "/".join(self.ED.stack_text(p) for p in self.piles)

    def _knowledge_text(self) -> list[str]:
        return ["known=" + "/".join(self.ED.set_text(k) for k in self.known)]

    def to_text(self) -> str:
        """The full position, one line (docs/notation.md "Positions").

        >>> from engine.cards.reference import classic
        >>> g = classic.Game.new(1)
        >>> classic.Game.from_text(g.to_text()).to_text() == g.to_text()
        True
        """
        ed = self.ED
        parts = [ed.name, self._options_text(), *self._common_fields(),
                 "hands=" + "/".join(ed.set_text(h) for h in self.hands),
                 self._rows_text(), self._piles_text(),
                 "deck=" + ed.stack_text(self.deck),
                 *self._knowledge_text(),
                 f"rng={self.rng:016x}"]
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"<{type(self).__module__}.Game {self.to_text()}>"

    # ------------------------------------------------------------------ text: views
    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.ED.seats:
            raise ValueError(f"seat must be in 0..{self.ED.seats - 1}, got {seat!r}")

    def _view_extra(self, seat: int) -> list[str]:
        # What every seat knows about every hand is public.
        return ["known=" + "/".join(self.ED.set_text(k) for k in self.known)]

    def history_text(self, seat: int | None = None) -> str:
        """The decisions of the current round on this object: the referee's record
        (``seat=None``, deck draws as ``D:<card>``) or masked for ``seat``."""
        if seat is not None:
            self._check_seat(seat)
        return ",".join(self._mask(seat, s, text, card) for s, text, card in self._history) or "-"

    def view_text(self, seat: int) -> str:
        """What ``seat`` knows, written as docs/notation.md "Views" says.

        >>> from engine.cards.reference import classic
        >>> v = classic.Game.new(1).view_text(1)
        >>> v.split()[3], v.split()[-1]
        ('seat=1', 'history=-')
        """
        self._check_seat(seat)
        ed = self.ED
        hands = []
        for s in range(ed.seats):
            if s == seat:
                hands.append(ed.set_text(self.hands[s]))
                continue
            seen = self._seen_in_hand(seat, s)
            unknown = size(self.hands[s]) - size(seen)
            text = (ed.set_text(seen) if seen else "") + (f"?{unknown}" if unknown else "")
            hands.append(text or "-")
        parts = [ed.name, self._options_text(), f"seat={seat}", *self._common_fields(),
                 "hands=" + "/".join(hands), self._rows_text(), self._piles_text(),
                 f"deck={len(self.deck)}", *self._view_extra(seat),
                 "history=" + self.history_text(seat)]
        return " ".join(parts)

    # ------------------------------------------------------------------ parsing
    @classmethod
    def _knowledge_field_names(cls) -> list[str]:
        return ["known"]

    @classmethod
    def from_text(cls, text: str) -> Self:
        """Parse and check a full position; NotationError (a ValueError) names the bad field.

        >>> from engine.cards.reference import classic
        >>> classic.Game.from_text("classic rounds=3")
        Traceback (most recent call last):
        ...
        engine.reference.base.NotationError: position: missing field round=
        """
        field_names = ["round", "starter", "turn", "phase", "to_move", "nodraw", "totals", "hands",
                       "rows", "piles", "deck", *cls._knowledge_field_names(), "rng"]
        raw_options, values = read_position(text, cls.ED.name, cls.OPTIONS, field_names)
        g = cls()
        g.options = check_options(cls.ED.name, cls.OPTIONS, raw_options)
        g._parse_fields(values)
        return g

    def _parse_fields(self, v: dict[str, str]) -> None:
        ed = self.ED
        seats = ed.seats
        self._parse_progress(v, seats)
        # totals
        self._totals = [parse_int(t, "totals", signed=True)
                       for t in split(v["totals"], "totals", self._n_rows())]
        # hands, rows, piles, deck
        self.hands = [ed.parse_set(h, f"hands (seat {s})")
                      for s, h in enumerate(split(v["hands"], "hands", seats))]
        self.rows = []
        for r, text in enumerate(split(v["rows"], "rows", self._n_rows())):
            cards = ed.parse_set(text, f"rows (row {r})")
            row: dict[str, list[str]] = {c: [] for c in ed.colours}
            for card in ed.sort(cards.elements()):
                exp = row[card[0]]
                if not self._can_play(row, card):
                    raise NotationError(
                        f"rows (row {r}): {card} cannot follow {''.join(exp)} (at most 3 wagers before "
                        f"the numbers, numbers strictly increasing)")
                exp.append(card)
            self.rows.append(row)
        self.piles = []
        for p, text in enumerate(split(v["piles"], "piles", len(ed.pile_names))):
            pile = ed.parse_stack(text, f"piles (pile {ed.pile_names[p]})")
            for card in pile:
                if ed.pile_of(card) != p:
                    raise NotationError(f"piles: {card} lies on the {ed.pile_names[p]} pile, not its colour's")
            self.piles.append(pile)
        self.deck = ed.parse_stack(v["deck"], "deck")
        # nodraw
        nd = v["nodraw"]
        if nd == ".":
            self.nodraw = None
        elif self.phase != DRAW:
            raise NotationError(f"nodraw: expected '.' outside the draw phase, got {nd!r}")
        elif len(nd) == 1 and nd in ed.pile_names:
            self.nodraw = ed.pile_names.index(nd)
            if not self.piles[self.nodraw]:
                raise NotationError(f"nodraw: pile {nd} received a card this turn but is empty")
        else:
            raise NotationError(f"nodraw: expected one of {' '.join(ed.pile_names)} or '.', got {nd!r}")
        # every card in exactly one place
        seen: Counter[str] = Counter()
        for h in self.hands:
            seen.update(h)
        for row in self.rows:
            for exp in row.values():
                seen.update(exp)
        for pile in self.piles:
            seen.update(pile)
        seen.update(self.deck)
        for card in ed.sort(set(seen) | set(ed.full)):
            if seen[card] != ed.full[card]:
                raise NotationError(f"cards: {card} appears {seen[card]} times in hands, rows, piles and "
                                    f"deck; the {ed.name} deck has {ed.full[card]}")
        if not self.is_over() and not self.deck:
            raise NotationError("deck: the draw pile must not be empty while the match runs")
        self._check_hand_sizes()
        self._parse_knowledge(v)
        self._parse_rng(v["rng"])
        self._history = []

    def _check_hand_sizes(self) -> None:
        ed = self.ED
        for s, hand in enumerate(self.hands):
            want = ed.hand_size - (1 if self.phase == DRAW and s == self._to_move else 0)
            if size(hand) != want:
                raise NotationError(f"hands (seat {s}): expected {want} cards, got {size(hand)}")

    def _parse_known_list(self, value: str, what: str) -> list[Counter]:
        return [self.ED.parse_set(k, f"{what} (seat {s})")
                for s, k in enumerate(split(value, what, self.ED.seats))]

    def _parse_knowledge(self, v: dict[str, str]) -> None:
        self.known = self._parse_known_list(v["known"], "known")
        for s, k in enumerate(self.known):
            if not contains(self.hands[s], k):
                raise NotationError(f"known (seat {s}): {self.ED.set_text(k)} is not within that hand")

    # ------------------------------------------------------------------ determinization
    def _fixed_in_hand(self, viewer: int, seat: int) -> Counter:
        """Cards of another seat's hand that ``viewer`` knows (they stay put)."""
        return self._seen_in_hand(viewer, seat)

    def _resample_groups(self, viewer: int) -> list[tuple[tuple[int, ...], Counter]]:
        """Cards known to be somewhere among some seats' unknown slots (partners' tknown)."""
        return []

    def _after_resample(self, viewer: int, placed: dict[int, Counter]) -> None:
        """Make knowledge the viewer cannot know consistent with the new hands."""

    def resample(self, seat: int, rnd: random.Random) -> Self:
        """A full state drawn uniformly from those consistent with what ``seat`` knows.

        Every physical card ``seat`` cannot place is dealt at random into the unknown places
        (unknown hand slots, the draw pile order); cards known to be in a hand stay there; group
        constraints (partners ``tknown``) put those cards into the group's unknown slots. The
        dealing generator state is redrawn and the history starts empty.

        >>> import random
        >>> from engine.cards.reference import classic
        >>> g = classic.Game.new(5)
        >>> h = g.resample(1, random.Random(0))
        >>> h.view_text(1) == g.view_text(1)
        True
        """
        self._check_seat(seat)
        ed = self.ED
        others = [s for s in range(ed.seats) if s != seat]
        fixed = {s: Counter(self._fixed_in_hand(seat, s)) for s in others}
        slots = {s: size(self.hands[s]) - size(fixed[s]) for s in others}
        pool = list(self.deck)
        for s in others:
            pool.extend((self.hands[s] - fixed[s]).elements())
        groups = self._resample_groups(seat)
        for _, cards in groups:
            for card in cards.elements():
                pool.remove(card)
        rnd.shuffle(pool)

        g = self.copy()
        g._history = []
        placed: dict[int, Counter[str]] = {s: Counter() for s in others}
        new_hands = {s: Counter(fixed[s]) for s in others}
        grouped = set()
        pos = 0
        for group_seats, cards in groups:
            n_slots = sum(slots[s] for s in group_seats)
            n_free = n_slots - size(cards)
            cells = [(c, True) for c in cards.elements()] + [(c, False) for c in pool[pos:pos + n_free]]
            pos += n_free
            rnd.shuffle(cells)
            k = 0
            for s in group_seats:
                for card, is_group in cells[k:k + slots[s]]:
                    new_hands[s][card] += 1
                    if is_group:
                        placed[s][card] += 1
                k += slots[s]
                grouped.add(s)
        for s in others:
            if s not in grouped:
                new_hands[s].update(pool[pos:pos + slots[s]])
                pos += slots[s]
        g.deck = pool[pos:]
        for s in others:
            g.hands[s] = new_hands[s]
        g.rng = rnd.getrandbits(64)
        g._after_resample(seat, placed)
        return g
