"""Replays a recorded game from its initial position, checking every recorded decision.

>>> # expeditions replay --db arena.sqlite --game 3
"""
from __future__ import annotations

from collections.abc import Iterator

import engine
from arena.record import DecisionRecord, GameRecord
from engine.errors import ExpeditionsError


class ReplayError(ExpeditionsError):
    """The record does not replay (a decision is illegal or reveals another card)."""


def _estimate(d: DecisionRecord) -> str:
    """What the bot said of its decision, as a prefix: `0.62 20000it ` (value, search size)."""
    parts = []
    if d.value is not None:
        parts.append(f"{d.value:.2f}")
    if d.iterations is not None:
        parts.append(f"{d.iterations}it")
    return " ".join(parts) + " " if parts else ""


def _origin(game: GameRecord, start: engine.State) -> str:
    """Where the game's start came from: the deal of its seed, or a start position given to the
    tournament (`arena --positions`), whose seed dealt nothing."""
    dealt = engine.new_game(game.edition, seed=int(game.seed), players=start.num_seats, **game.options)
    return f"seed {game.seed}" if dealt.to_text() == game.initial_position else "from a given start position"


def positions(game: GameRecord) -> Iterator[tuple[int, DecisionRecord, engine.State]]:
    """Each decision of `game` (its index and record) with the position it was made in: one State,
    advanced after each step (copy it to keep it). Unchecked: `replay_lines` checks a record."""
    state = engine.parse_position(game.initial_position)
    for ply, record in enumerate(game.decisions):
        yield ply, record, state
        state.apply(record.played)


def replay_lines(game: GameRecord, pictures: bool = True) -> Iterator[str]:
    """Text lines: a header, then every turn's decisions, each turn after a picture of the table."""
    state = engine.parse_position(game.initial_position)
    name = "game" if game.id is None else f"game {game.id}"
    yield (f"{name}  #{game.index}  {game.edition} {engine.get_edition(game.edition).options_text(game.options)}"
           f"  {_origin(game, state)}")
    yield "seats: " + ", ".join(f"{seat} {name}" for seat, name in enumerate(game.seat_bots))
    begins_turn = engine.get_edition(game.edition).turn.begins
    turn: list[str] = []
    mover = -1  # no seat: the first decision begins a turn
    for ply, d in enumerate(game.decisions):
        if d.seat != mover or begins_turn(state):
            if turn:
                yield f"  seat {mover} ({game.seat_bots[mover]}): {'  '.join(turn)}"
                turn = []
            if pictures:
                yield ""
                yield state.pretty()
            mover = d.seat
        if state.to_move != d.seat:
            raise ReplayError(f"decision {ply}: recorded for seat {d.seat}, but seat {state.to_move} is to move")
        text = d.played
        try:
            recorded = state.record_text(text)
        except (engine.NotationError, engine.IllegalDecisionError) as err:
            raise ReplayError(f"decision {ply} ({d.decision}): {err}") from None
        if recorded != d.decision:
            raise ReplayError(f"decision {ply}: recorded {d.decision!r}, the position gives {recorded!r}")
        state.apply(text)
        turn.append(f"{d.decision} ({_estimate(d)}{d.time_ms:.1f} ms)")
    if turn:
        yield f"  seat {mover} ({game.seat_bots[mover]}): {'  '.join(turn)}"
    if pictures:
        yield ""
        yield state.pretty()
    end = "normally" if game.termination == "normal" else f"by {game.termination} of seat {game.failed_seat}: {game.reason}"
    yield f"ended {end}; scores {' '.join(map(str, game.scores))}; results {' '.join(f'{r:g}' for r in game.returns)}"
    if game.termination == "normal" and state.to_text() != game.final_position:
        raise ReplayError("the replayed final position differs from the recorded one")
    if game.termination == "normal" and state.scores() != game.scores:
        raise ReplayError(f"the replayed scores are {state.scores()}, the recorded ones {game.scores}")
