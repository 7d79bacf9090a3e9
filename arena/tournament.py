"""Runs a tournament: plays the planned games not yet in the database, records them, stops early
on an SPRT decision, and reports progress.

A deal's games are recorded together once all of them are over (every group, every rotation):
a record shows the deal's hidden parts (hands, the draw pile), so none reaches the database while
a game of that deal may still be played. A run cut short keeps the deals it finished; a resume
plays the others whole. One arena at a time plays a tournament (`Store.claim`).

>>> # see tests/test_arena.py for tournaments with real bot processes
"""
from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from arena.config import TimeControl, TournamentConfig
from arena.statistics import pentanomial_index
from arena.record import GameRecord
from arena.referee import GameSetup
from arena.runner import Runner
from arena.schedule import PlannedGame, Schedule
from arena.store import Store


@dataclass
class Progress:
    """What the reporters see after every game."""

    planned: int
    done: int
    last: GameRecord | None
    games: list[GameRecord]
    dropped: list[str]
    sprt_llr: float | None = None
    note: str = ""


@dataclass
class Outcome:
    tournament: int
    games: list[GameRecord]
    planned: int
    status: str
    dropped: list[str] = field(default_factory=list)
    sprt: str | None = None
    unkept: int = 0
    """Games played but not recorded: their deals have games left (stopped by SPRT)."""


SPRT_STOPPED = "stopped: SPRT accepted "
"""The status of a tournament the SPRT stopped, before the hypothesis it accepted (H0 or H1)."""


class Tournament:
    """One tournament in a store: `run(runner)` plays what is missing."""

    def __init__(self, config: TournamentConfig, store: Store, tournament_id: int | None = None) -> None:
        config.validate()
        self.config = config
        self.store = store
        self.sides = config.seat_sides()
        self.schedule = Schedule(len(config.bots), len(set(self.sides)), config.format, config.deals, config.seed)
        if tournament_id is None:
            tournament_id = store.create_tournament(config, self.schedule.total())
        self.id = tournament_id
        self._stop = threading.Event()

    def stop(self) -> None:
        """Ask `run` to stop starting games (the running ones are abandoned, not recorded)."""
        self._stop.set()

    def setup(self, planned: PlannedGame) -> GameSetup:
        c = self.config
        return GameSetup(index=planned.index, group=planned.group, deal=planned.deal, rotation=planned.rotation,
                         edition=c.edition, options=dict(c.options), players=len(self.sides), seed=planned.seed,
                         seat_bots=planned.seat_bots(self.sides), bot_names=[b.name for b in c.bots], time=c.time,
                         position=c.positions[planned.deal] if c.positions else "",
                         seat_times=self._seat_times(planned), live=(self.store.path, self.id),
                         transcript_dir=c.transcript, tournament=self.id)

    def _seat_times(self, planned: PlannedGame) -> list[TimeControl] | None:
        """Each seat's time control when a bot has its own (time odds), else None."""
        if all(b.time is None for b in self.config.bots):
            return None
        return [self.config.seat_time(bot) for bot in planned.seat_bots(self.sides)]

    def run(self, runner: Runner, on_progress: Callable[[Progress], None] | None = None) -> Outcome:
        """Plays what is missing (TournamentBusyError if another arena plays this tournament)."""
        self.store.claim(self.id)
        try:
            return self._run(runner, on_progress)
        finally:
            self.store.release(self.id)

    def _run(self, runner: Runner, on_progress: Callable[[Progress], None] | None) -> Outcome:
        c = self.config
        games = self.store.games(self.id)
        finished = {g.index for g in games}
        pending = [g for g in self.schedule if g.index not in finished]
        unplayed = {d: sum(i not in finished for i in self.schedule.games_of_deal(d)) for d in range(c.deals)}
        held: dict[int, list[GameRecord]] = defaultdict(list)
        """Finished games of the deals that still have games to play: not in the database yet."""
        failures_in_a_row: dict[str, int] = defaultdict(int)
        dropped: set[int] = set()
        names = [b.name for b in c.bots]
        in_flight: dict[object, PlannedGame] = {}
        decision = self._decided(games)
        status = "running"
        try:
            while (pending or in_flight) and not self._stop.is_set():
                while pending and len(in_flight) < runner.slots and decision is None and not self._stop.is_set():
                    planned = pending.pop(0)
                    in_flight[runner.submit(self.setup(planned), frozenset(dropped))] = planned
                if not in_flight:
                    break
                for future in runner.wait_any(list(in_flight), timeout=0.5):
                    planned = in_flight.pop(future)
                    if self._stop.is_set():
                        break
                    record = runner.result(future)
                    held[planned.deal].append(record)
                    unplayed[planned.deal] -= 1
                    if unplayed[planned.deal] == 0:
                        self.store.record_games(self.id, sorted(held.pop(planned.deal), key=lambda g: g.index))
                    games.append(record)
                    self._track_failures(record, failures_in_a_row, dropped, names)
                    llr = None
                    if c.sprt is not None:
                        penta = self.pentanomial(games)
                        llr = c.sprt.llr(penta)
                        decision = decision or c.sprt.status(penta)
                    if on_progress is not None:
                        on_progress(Progress(self.schedule.total(), len(games), record, games,
                                             [names[b] for b in sorted(dropped)], llr))
            if self._stop.is_set():
                status = "interrupted"
            elif decision is not None:
                status = SPRT_STOPPED + decision
            elif len(games) == self.schedule.total():
                status = "finished"
        except KeyboardInterrupt:
            self._stop.set()
            status = "interrupted"
            raise
        finally:
            self.store.set_status(self.id, status, note=", ".join(f"dropped {names[b]}" for b in sorted(dropped)))
        return Outcome(self.id, games, self.schedule.total(), status, [names[b] for b in sorted(dropped)], decision,
                       sum(len(h) for h in held.values()))

    def _decided(self, games: list[GameRecord]) -> str | None:
        """The SPRT's verdict on the games already recorded ('H0', 'H1' or None): a tournament the test
        stopped stays stopped when it is resumed, even if the games that were in flight when it stopped
        (recorded since) moved the ratio back between the bounds."""
        sprt = self.config.sprt
        if sprt is None:
            return None
        status = self.store.tournament(self.id)[3]
        if status.startswith(SPRT_STOPPED):
            return status[len(SPRT_STOPPED):]
        return sprt.status(self.pentanomial(games)) if games else None

    def _track_failures(self, record: GameRecord, in_a_row: dict[str, int], dropped: set[int],
                        names: list[str]) -> None:
        """A bot failing max_failures games in a row is dropped: its later games are lost at once."""
        involved = set(record.seat_bots)
        failed = record.seat_bots[record.failed_seat] if record.failed_seat is not None else None
        for name in involved:
            if name == failed and record.termination != "dropped":
                in_a_row[name] += 1
                if in_a_row[name] >= self.config.max_failures:
                    dropped.add(names.index(name))
            elif name != failed:
                in_a_row[name] = 0

    def pentanomial(self, games: list[GameRecord]) -> list[int]:
        """Pair counts of the first bot against the second (complete pairs only)."""
        first = self.config.bots[0].name
        pairs: dict[tuple[int, int], list[float]] = defaultdict(list)
        for g in games:
            seat = g.seat_bots.index(first)
            pairs[(g.group, g.deal)].append(g.returns[seat])
        penta = [0] * 5
        for results in pairs.values():
            if len(results) == len(set(self.sides)):
                penta[pentanomial_index(sum(results))] += 1
        return penta
