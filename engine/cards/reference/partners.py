"""Reference model of ``partners`` — Lost Cities for 4 players in partnerships.

Written straight from RULES.md section 2 and docs/notation.md: 75 cards (classic plus a second
2, 3 and 4 of every colour), seats 0..3 in turn order, team 0 = seats 0 and 2, team 1 = seats
1 and 3; each team has ONE row that both partners play into; a turn is play + draw, or a pass
of two cards to the partner (``>c1c2``) when the passer keeps at least 6 cards.

Knowledge bookkeeping (docs/notation.md "Positions"), and the cases resolved here:

* ``known[s]``  — what every other seat knows to be in hand s (cards drawn from discard piles).
* ``pknown[s]`` — what s's partner knows to be in hand s; always contains ``known[s]``.
* ``tknown[t]`` — what the opponents know to be somewhere in team t's two hands.

Invariants (checked when parsing): known[s] <= pknown[s] <= hand[s] and
known[a] + known[b] + tknown[t] <= hand[a] + hand[b] for team t = {a, b} (multisets).

1. Draw from a discard pile by s (public): the card joins ``known[s]`` and ``pknown[s]``.
2. Play or discard of card c by s (public):
   - the partner's bookkeeping: one c leaves ``pknown[s]`` if present;
   - the opponents' bookkeeping: one c leaves ``known[s]`` if present, otherwise one c leaves
     ``tknown[team]`` if present. Removing from ``known`` first is the weaker claim that stays
     true: if c is in both, the team held at least two c and still holds one somewhere, but
     not necessarily in s's hand. Removing from ``tknown`` in the other case is needed because
     the tknown copy may have been the one played.
   The two are independent: c may be in ``pknown[s]`` but not in ``known[s]`` (s drew it from a
   discard pile, then passed other cards: the partner still knows, the opponents lost track).
3. Pass of c1, c2 by h to partner p (the opponents see only that a pass happened):
   - ``tknown[team] += known[h]`` and ``known[h] = {}`` — taken BEFORE removing the passed
     cards, on purpose: the opponents cannot tell whether a known card was passed, so it stays
     known to be somewhere in the team. Removing a passed known card first would make the
     opponents' view depend on which cards were passed (an information leak).
   - ``pknown[h]`` loses c1 and c2 where present (p sees what it gets, learns nothing else);
   - ``pknown[p] += {c1, c2}`` (h knows p now holds them).
   The pass leaves ``tknown`` untouched otherwise: the cards stay inside the team.

>>> g = Game.new(2)
>>> len(g.hands), len(g.deck)
(4, 43)
>>> expedition_score(["y2", "y3", "y4"], cost=20)
-11
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from engine.reference.base import NotationError, contains, mover, size, split, take, take_if

from .facts import PARTNERS
from .game import DRAW, BaseGame

__all__ = ["Game", "expedition_score", "NotationError", "EDITION", "team_of", "partner_of"]

EDITION = PARTNERS


def expedition_score(cards: Sequence[str], *, cost: int = 20) -> int:
    """Score of one colour's expedition of a team row (as in classic).

    >>> expedition_score(["gW", "g5"], cost=20)
    -30
    """
    return PARTNERS.expedition_score(cards, cost)


def team_of(seat: int) -> int:
    """Team 0 = seats 0 and 2; team 1 = seats 1 and 3."""
    return seat % 2


def partner_of(seat: int) -> int:
    """Partners sit opposite."""
    return (seat + 2) % 4


class Game(BaseGame):
    """A ``partners`` position with its rules (see ``BaseGame`` and the module notes)."""

    ED = PARTNERS
    FIXED_COST = 20

    def __init__(self) -> None:
        super().__init__()
        self.pknown: list[Counter] = []
        self.tknown: list[Counter] = []

    def _copy_extra(self, g: "Game") -> None:
        g.pknown = [Counter(k) for k in self.pknown]
        g.tknown = [Counter(k) for k in self.tknown]

    # ------------------------------------------------------------------ rules
    @classmethod
    def _n_rows(cls) -> int:
        return 2

    def _row_of(self, seat: int) -> int:
        return team_of(seat)

    def _next_starter(self) -> int:
        # RULES.md 2 (Resolved): the first seat after the previous starter (strictly after, in
        # turn order) that belongs to the leading team; on equal totals the very next seat.
        prev = self.starter
        a, b = self._totals
        if a == b:
            return (prev + 1) % 4
        lead = 0 if a > b else 1
        for k in range(1, 5):
            if team_of((prev + k) % 4) == lead:
                return (prev + k) % 4
        raise AssertionError("unreachable")

    def _passes(self, seat: int, cards: list[str]) -> list[str]:
        # The passer must keep at least 6 cards: a hand of 8 or more.
        hand = self.hands[seat]
        if size(hand) < 8:
            return []
        out = []
        for i, c1 in enumerate(cards):
            for c2 in cards[i:]:
                if c1 != c2 or hand[c1] >= 2:
                    out.append(">" + c1 + c2)
        return out

    def _do_pass(self, seat: int, c1: str, c2: str) -> None:
        p, team = partner_of(seat), team_of(seat)
        # Opponents lose track of everything they knew in the passer's hand (module note 3).
        self.tknown[team] += self.known[seat]
        self.known[seat] = Counter()
        for card in (c1, c2):
            take(self.hands[seat], card)
            self.hands[p][card] += 1
            take_if(self.pknown[seat], card)
            self.pknown[p][card] += 1

    # ------------------------------------------------------------------ knowledge
    def _reset_knowledge(self) -> None:
        self.known = [Counter() for _ in range(4)]
        self.pknown = [Counter() for _ in range(4)]
        self.tknown = [Counter() for _ in range(2)]

    def _learn(self, seat: int, card: str) -> None:
        self.known[seat][card] += 1
        self.pknown[seat][card] += 1

    def _forget(self, seat: int, card: str) -> None:
        take_if(self.pknown[seat], card)  # the partner's bookkeeping
        if not take_if(self.known[seat], card):  # the opponents' bookkeeping
            take_if(self.tknown[team_of(seat)], card)

    def _seen_in_hand(self, viewer: int, seat: int) -> Counter:
        return self.pknown[seat] if seat == partner_of(viewer) else self.known[seat]

    def _mask(self, viewer: int | None, seat: int, text: str, card: str | None) -> str:
        if text.startswith(">") and viewer is not None and team_of(viewer) != team_of(seat):
            return ">?"  # a pass between opponents
        return super()._mask(viewer, seat, text, card)

    # ------------------------------------------------------------------ text
    def _knowledge_text(self) -> list[str]:
        ed = self.ED
        return ["known=" + "/".join(ed.set_text(k) for k in self.known),
                "pknown=" + "/".join(ed.set_text(k) for k in self.pknown),
                "tknown=" + "/".join(ed.set_text(k) for k in self.tknown)]

    def _view_extra(self, seat: int) -> list[str]:
        # known and tknown are public; what partners know of each other's hands is private to
        # the team, so the opponents' pknown entries are masked as '?'.
        ed, mine = self.ED, team_of(seat)
        return ["known=" + "/".join(ed.set_text(k) for k in self.known),
                "pknown=" + "/".join(ed.set_text(self.pknown[s]) if team_of(s) == mine else "?"
                                     for s in range(4)),
                "tknown=" + "/".join(ed.set_text(k) for k in self.tknown)]

    @classmethod
    def _knowledge_field_names(cls) -> list[str]:
        return ["known", "pknown", "tknown"]

    def _check_hand_sizes(self) -> None:
        # A team's two hands hold 16 cards (15 when its player is in the draw phase); no hand
        # below 6 (5 for the mover in the draw phase).
        for team in (0, 1):
            drawing = self.phase == DRAW and team_of(mover(self._to_move)) == team
            want = 15 if drawing else 16
            got = size(self.hands[team]) + size(self.hands[team + 2])
            if got != want:
                raise NotationError(f"hands: team {team} (seats {team} and {team + 2}) must hold {want} "
                                    f"cards together, got {got}")
            for s in (team, team + 2):
                low = 5 if drawing and s == self._to_move else 6
                if size(self.hands[s]) < low:
                    raise NotationError(f"hands (seat {s}): expected at least {low} cards, "
                                        f"got {size(self.hands[s])}")

    def _parse_knowledge(self, v: dict[str, str]) -> None:
        ed = self.ED
        self.known = self._parse_known_list(v["known"], "known")
        self.pknown = self._parse_known_list(v["pknown"], "pknown")
        self.tknown = [ed.parse_set(t, f"tknown (team {i})")
                       for i, t in enumerate(split(v["tknown"], "tknown", 2))]
        for s in range(4):
            if not contains(self.hands[s], self.known[s]):
                raise NotationError(f"known (seat {s}): {ed.set_text(self.known[s])} is not within that hand")
            if not contains(self.pknown[s], self.known[s]):
                raise NotationError(f"pknown (seat {s}): must include known {ed.set_text(self.known[s])}")
            if not contains(self.hands[s], self.pknown[s]):
                raise NotationError(f"pknown (seat {s}): {ed.set_text(self.pknown[s])} is not within that hand")
        for t in (0, 1):
            a, b = t, t + 2
            claimed = self.known[a] + self.known[b] + self.tknown[t]
            if not contains(self.hands[a] + self.hands[b], claimed):
                raise NotationError(f"tknown (team {t}): {ed.set_text(self.tknown[t])} is not within the "
                                    f"team's hands beside their known cards")

    # ------------------------------------------------------------------ determinization
    def _resample_groups(self, viewer: int) -> list[tuple[tuple[int, ...], Counter]]:
        # The opposing team's tknown cards go into the unknown slots of the two opposing hands.
        opp = 1 - team_of(viewer)
        return [((opp, opp + 2), Counter(self.tknown[opp]))]

    def _after_resample(self, viewer: int, placed: dict[int, Counter]) -> None:
        # What an opponent's partner knows is not visible to the viewer; the consistent choice
        # is its public known cards plus the tknown cards that landed in that hand.
        opp = 1 - team_of(viewer)
        for s in (opp, opp + 2):
            self.pknown[s] = self.known[s] + placed[s]
