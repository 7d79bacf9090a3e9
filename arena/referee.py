"""Plays one game between bot processes: the only full state, clocks, and adjudication.

The referee asks the engine for everything (views, legality, results) and sends each seat only
its own view. A crash, a timeout, a malformed or illegal answer loses the game for that seat's
side, with the reason recorded; the other sides are scored as having beaten it and drawn among
themselves.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import engine
from arena.config import TimeControl
from arena.live import LiveFeed
from arena.record import DecisionRecord, GameRecord
from arena.store import now
from protocol.limits import Limits
from engine.errors import ExpeditionsError, NotationError
from protocol.client import Engine
from protocol.errors import EngineError, EngineTerminatedError, EngineTimeoutError, ProtocolError
from protocol.transcript import TranscriptFile

STALL_LIMIT = 100_000
"""Decisions after which a game is stopped as a stall (max_turns should end every game long before)."""


class Forfeit(ExpeditionsError):
    """A seat's bot failed; the game ends with that seat's side losing."""

    def __init__(self, seat: int, termination: str, reason: str) -> None:
        super().__init__(reason)
        self.seat = seat
        self.termination = termination
        self.reason = reason


@dataclass
class GameSetup:
    """What the referee needs to know about one game."""

    index: int
    group: int
    deal: int
    rotation: int
    edition: str
    options: dict[str, int]
    players: int
    seed: int
    seat_bots: list[int]
    bot_names: list[str]
    time: TimeControl
    position: str = ""
    """The position the game starts from (full state); empty: dealt from `seed`."""
    seat_times: list[TimeControl] | None = None
    """Per seat, its bot's time control when the bots have their own (of `time`'s kind and
    margin); None: `time` for every seat."""
    live: tuple[str, int] | None = None
    """(results database, tournament id) where the game in progress is shown to watchers
    (arena/live.py); None: not shown."""
    transcript_dir: str = ""
    """Where to write the game's transcripts, one file per seat (`transcript_path`); empty: none."""
    tournament: int | None = None
    """The tournament's id, for the names of the transcripts."""


def transcript_path(setup: GameSetup, seat: int) -> Path:
    """The transcript file of `seat` in the game of `setup`.

    >>> setup = GameSetup(7, 0, 0, 0, "classic", {}, 2, 1, [0, 1], ["mine", "greedy"], TimeControl(),
    ...                   transcript_dir="logs", tournament=3)
    >>> str(transcript_path(setup, 1))
    'logs/t3-game-000007-seat1-greedy.log'
    """
    name = setup.bot_names[setup.seat_bots[seat]]
    prefix = f"t{setup.tournament}-" if setup.tournament is not None else ""
    return Path(setup.transcript_dir) / f"{prefix}game-{setup.index:06d}-seat{seat}-{name}.log"


def forfeit_returns(state: engine.State, failed_seat: int) -> list[float]:
    """Per seat: the failed side loses to everyone; the other sides draw among themselves."""
    teams = [state.team_of(s) for s in range(state.num_seats)]
    loser = teams[failed_seat]
    out = []
    for seat, team in enumerate(teams):
        if team == loser:
            out.append(0.0)
            continue
        opponents = [t for t in teams if t != team]
        out.append(sum(1.0 if t == loser else 0.5 for t in opponents) / len(opponents))
    return out


def _clock_limits(increments: tuple[int, ...], clocks: list[float]) -> Limits:
    return Limits(clocks_ms=tuple(max(0, int(c)) for c in clocks), increments_ms=increments)


def play_game(setup: GameSetup, acquire: Callable[[int], Engine], release: Callable[[int, Engine, bool], None],
              dropped: frozenset[int] = frozenset()) -> GameRecord:
    """Plays the game; `acquire(bot)` / `release(bot, engine, healthy)` lend the bot processes.

    Bots in `dropped` (failed too often) lose at once without being started.
    """
    state = (engine.parse_position(setup.position) if setup.position
             else engine.new_game(setup.edition, seed=setup.seed, players=setup.players, **setup.options))
    record = GameRecord(index=setup.index, group=setup.group, deal=setup.deal, rotation=setup.rotation,
                        edition=setup.edition, options=dict(setup.options), seed=setup.seed,
                        seat_bots=[setup.bot_names[b] for b in setup.seat_bots], scores=[], returns=[],
                        initial_position=state.to_text(), started=now())
    engines: dict[int, Engine] = {}
    healthy: dict[int, bool] = {}
    feed = None if setup.live is None else LiveFeed.open(*setup.live, setup.index, record.seat_bots, state)
    transcripts: dict[int, TranscriptFile] = {}
    started = time.perf_counter()
    try:
        for seat, bot in enumerate(setup.seat_bots):
            if bot in dropped:
                raise Forfeit(seat, "dropped", f"{setup.bot_names[bot]} was dropped after repeated failures")
            try:
                engines[seat] = acquire(bot)
                healthy[seat] = True
                engines[seat].log_section(f"game {setup.index} (deal {setup.deal}, rotation {setup.rotation}), "
                                          f"seat {seat}")
                if setup.transcript_dir:
                    transcripts[seat] = _transcript(setup, seat, engines[seat], record.started, started)
                engines[seat].new_game(setup.edition, setup.options, state.num_seats, seat)
            except EngineError as err:
                healthy[seat] = False
                raise Forfeit(seat, termination_of(err), f"could not start a game: {err}") from err
        _play_decisions(state, engines, setup.seat_times or [setup.time] * state.num_seats, setup.time.margin_ms,
                        record.decisions, feed)
        record.scores, record.returns = state.scores(), state.returns()
    except Forfeit as f:
        healthy[f.seat] = False
        record.termination, record.reason, record.failed_seat = f.termination, f.reason, f.seat
        if f.seat in transcripts:
            record.reason += f" (transcript {transcripts[f.seat].path})"
        record.scores, record.returns = state.scores(), forfeit_returns(state, f.seat)
    finally:
        if feed is not None:
            feed.close()
        for seat, eng in engines.items():
            if healthy.get(seat, False) and record.scores:  # the game ended: the bots still playing hear how
                try:
                    eng.game_over(record.scores, record.returns, record.termination)
                except EngineError:
                    healthy[seat] = False
            if seat in transcripts:
                eng.transcript = None
                transcripts[seat].close()
            release(setup.seat_bots[seat], eng, healthy.get(seat, False))
    record.final_position = state.to_text()
    record.finished = now()
    return record


def _transcript(setup: GameSetup, seat: int, bot: Engine, date: str, start: float) -> TranscriptFile:
    """Starts the transcript of `seat`'s bot for this game (OSError: the game cannot be recorded as
    asked, which stops the tournament rather than playing it without its transcripts)."""
    header = [f"game {setup.index} of tournament {setup.tournament}, {setup.edition}, seat {seat}: "
              f"{setup.bot_names[setup.seat_bots[seat]]} (process {bot.pid}), started {date}",
              "seconds since the game started, > referee to bot, < bot to referee"]
    transcript = TranscriptFile(transcript_path(setup, seat), header, start=start)
    bot.transcript = transcript
    return transcript


def termination_of(err: EngineError) -> str:
    """How a bot's failure ends a game: `timeout`, `crash`, or `malformed` (anything else it got wrong)."""
    if isinstance(err, EngineTimeoutError):
        return "timeout"
    if isinstance(err, EngineTerminatedError):
        return "crash"
    return "malformed"


def _play_decisions(state: engine.State, engines: dict[int, Engine], times: list[TimeControl], margin_ms: int,
                    decisions: list[DecisionRecord], feed: LiveFeed | None = None) -> None:
    """Every decision to the end of the game, each within its seat's time (`times`: all movetimes
    or all clocks), shown to watchers through `feed`; raises Forfeit on any failure.

    The loop is the whole cost of a game between instant bots, so the per-game work (the movetime
    budgets, their limits) is done once."""
    on_clocks = times[0].clock_ms is not None
    clocks = [float(t.clock_ms) for t in times] if on_clocks else None  # type: ignore[arg-type]  # all are clocks
    increments = tuple(t.increment_ms for t in times)
    movetimes = [float(t.movetime_ms or 0) for t in times]
    fixed = [Limits(movetime_ms=t.movetime_ms) for t in times]
    wants_legal = {seat: bot.wants_legal for seat, bot in engines.items()}
    while (seat := state.to_move) is not None:
        if len(decisions) >= STALL_LIMIT:
            raise Forfeit(seat, "stall", f"no end after {STALL_LIMIT} decisions")
        view = state.view_text(seat)
        budget = movetimes[seat] if clocks is None else clocks[seat]
        limits = fixed[seat] if clocks is None else _clock_limits(increments, clocks)
        try:
            text, value, size, elapsed = engines[seat].decide_with_estimate(
                view, limits, (budget + margin_ms) / 1000.0, state.legal_text() if wants_legal[seat] else None)
        except EngineError as err:
            raise engine_forfeit(err, seat, budget, margin_ms) from err
        if clocks is None:
            if elapsed > budget + margin_ms:
                raise Forfeit(seat, "timeout", f"took {elapsed:.0f} ms for movetime {budget:.0f} ms")
        else:
            clocks[seat] -= elapsed
            if clocks[seat] < -margin_ms:
                raise Forfeit(seat, "timeout", f"clock exhausted ({clocks[seat]:.0f} ms)")
            clocks[seat] += increments[seat]
        decisions.append(DecisionRecord(seat, state.play(checked_decision(state, seat, text)), round(elapsed, 3),
                                        value, size))
        if feed is not None:
            feed.update(state, len(decisions))


def engine_forfeit(err: EngineError, seat: int, budget: float, margin_ms: int) -> Forfeit:
    """The forfeit for a bot's failure while deciding (termination as `termination_of` says)."""
    kind = termination_of(err)
    if kind == "timeout":
        reason = f"no decision within {budget:.0f} ms + {margin_ms} ms margin"
    elif kind == "crash":
        reason = f"the bot exited: {err}"
    elif isinstance(err, ProtocolError):
        reason = f"not UEI: {err}"
    else:
        reason = f"the bot rejected the position: {err}"
    return Forfeit(seat, kind, reason)


def checked_decision(state: engine.State, seat: int, text: str) -> int:
    """The decision `text` names, if it is legal; else the seat forfeits."""
    try:
        decision = state.parse_decision(text)
    except NotationError as err:
        raise Forfeit(seat, "malformed", f"bestmove {text!r}: {err}") from err
    if not state.is_legal(decision):
        raise Forfeit(seat, "illegal", f"illegal decision {text!r} (legal: {' '.join(state.legal_text())})")
    return decision
