"""A recorded game reviewed by a bot: at each decision with a choice, what the bot would have
played and what it thinks the decision played was worth next to its own (like a chess GUI's game
analysis). The bot gets only the mover's view, over UEI, with `MultiPV` as high as it allows so
that its report holds the decision played.

>>> # expeditions analyse --game 3 --review --seat 1 --iterations 20000
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import engine
from arena.config import BotSpec
from arena.record import GameRecord
from arena.replay import positions
from protocol.limits import Limits
from engine.errors import NotationError
from protocol.client import Engine, PlayResult
from protocol.errors import EngineTimeoutError, ProtocolError

MOVETIME_GRACE_S = 5.0
"""How long past its movetime a consulted bot may take before it is sent `stop`."""
PATIENCE_S = 60.0
"""How long a bot searching to another limit (iterations) may take before it is sent `stop`."""
AFTER_STOP_S = 1.0
"""How long a bot may take to answer `stop`."""


def start_bot(spec: BotSpec) -> Engine:
    """A bot process for `spec` outside a tournament (no launcher, no resource limits),
    handshaken, with its options set."""
    return Engine.start(spec.command, options=spec.options)


def answer(bot: Engine, view: str, limits: Limits) -> PlayResult:
    """The bot's answer to `go` with `limits` on the view (its text), unchecked: a bot that does not
    answer in time (its movetime and MOVETIME_GRACE_S, or PATIENCE_S) is sent `stop`, and then
    EngineTimeoutError if it does not answer within AFTER_STOP_S."""
    patience = limits.movetime_ms / 1000 + MOVETIME_GRACE_S if limits.movetime_ms else PATIENCE_S
    search = bot.start_search(limits, view=view)
    try:
        return search.wait(patience)
    except EngineTimeoutError:
        search.stop()
        try:
            return search.wait(AFTER_STOP_S)
        except EngineTimeoutError:
            raise EngineTimeoutError(f"{bot.name} gave no bestmove within {patience:.1f} s, "
                                     f"nor {AFTER_STOP_S:g} s after stop") from None


def consult(bot: Engine, view: engine.View, limits: Limits) -> PlayResult:
    """The bot's answer and report on `view`, checked: a bot that does not answer in time is sent
    `stop`, and then EngineTimeoutError (`answer`); an answer that is not a legal decision of the
    view is a ProtocolError, never shown as the bot's choice."""
    result = answer(bot, view.text, limits)
    try:
        decision = view.state.parse_decision(result.decision)
    except NotationError as err:
        raise ProtocolError(f"{bot.name} answered {result.decision!r}: {err}") from None
    if decision not in view.legal():
        raise ProtocolError(f"{bot.name} answered {result.decision!r}, not a legal decision here "
                            f"(legal: {' '.join(view.legal_text())})")
    return result


@dataclass(frozen=True)
class ReviewedDecision:
    """One decision of the game, and the reviewing bot's view of it."""

    ply: int
    """Decisions of the game before this one."""
    seat: int
    played: str
    """The decision played (without the card a draw from the draw pile showed its mover)."""
    best: str
    """The bot's choice in the same view."""
    played_value: float | None
    """The bot's value (0..1, its `info value`) of the decision played, None when it reported none."""
    best_value: float | None
    played_visits: int | None = None
    """Iterations of the bot's search through the decision played (how much its value rests on)."""

    @property
    def loss(self) -> float | None:
        """What the decision played gave up against the bot's choice, by the bot's values (≥ 0).

        >>> ReviewedDecision(0, 0, "+b4", "-y3", 0.52, 0.55).loss
        0.03...
        """
        if self.played_value is None or self.best_value is None:
            return None
        return max(0.0, self.best_value - self.played_value)


def review_game(game: GameRecord, bot: Engine, limits: Limits, seats: Sequence[int] | None = None,
                multipv: int = 256) -> Iterator[ReviewedDecision]:
    """Replays `game` and asks `bot` about every decision with more than one legal choice (of
    `seats`, all when None). The bot gets the mover's view alone and a `newgame` for each seat it
    plays; its `MultiPV` option, if it has one, is set to `multipv` (within its range)."""
    option = bot.option("MultiPV")
    if option is not None:
        bot.configure({option.name: max(option.min or 1, min(multipv, option.max or multipv))})
    current_seat = None
    for ply, record, state in positions(game):
        played = record.played
        if len(state.legal()) > 1 and (seats is None or record.seat in seats):
            if record.seat != current_seat:
                bot.new_game(state.edition, state.options, state.num_seats, record.seat)
                current_seat = record.seat
            result = consult(bot, state.view(record.seat), limits)
            lines = {line["pv"][0]: line for line in result.lines if line.get("pv")}
            mine, best = lines.get(played, {}), lines.get(result.decision, {})
            yield ReviewedDecision(ply, record.seat, played, result.decision, mine.get("value"), best.get("value"),
                                   mine.get("visits"))


REVIEW_HEADER = "  ply  seat  played  bot's   value played  value bot's    loss  visits played"
"""The header of `review_row`'s table."""


def review_row(row: ReviewedDecision) -> str:
    """One row of a review table; `*` marks a decision that was not the bot's choice.

    >>> review_row(ReviewedDecision(12, 1, "-y3", "+b4", 0.4, 0.5, 310))
    '   12     1  -y3     +b4    *      0.4000       0.5000   0.1000            310'
    """
    values = [f"{v:.4f}" if v is not None else "-" for v in (row.played_value, row.best_value)]
    loss = f"{row.loss:.4f}" if row.loss is not None else "-"
    mark = " " if row.played == row.best else "*"
    visits = "-" if row.played_visits is None else row.played_visits
    return (f"{row.ply:>5} {row.seat:>5}  {row.played:<7} {row.best:<7}{mark} {values[0]:>11} "
            f"{values[1]:>12} {loss:>8} {visits:>14}")


def review_summary(rows: Sequence[ReviewedDecision]) -> list[str]:
    """Per seat: decisions reviewed, how many were the bot's choice, and the mean loss.

    >>> review_summary([ReviewedDecision(0, 1, "D", "D", 0.5, 0.5), ReviewedDecision(2, 1, "-y3", "+b4", 0.4, 0.5)])
    ["seat 1: 2 decisions, 1 the bot's choice (0.50), mean loss 0.0500 over 2 with values"]
    """
    out = []
    for seat in sorted({row.seat for row in rows}):
        mine = [row for row in rows if row.seat == seat]
        same = sum(row.played == row.best for row in mine)
        losses = [row.loss for row in mine if row.loss is not None]
        mean = f"{sum(losses) / len(losses):.4f}" if losses else "-"
        out.append(f"seat {seat}: {len(mine)} decisions, {same} the bot's choice ({same / len(mine):.2f}), "
                   f"mean loss {mean} over {len(losses)} with values")
    return out
