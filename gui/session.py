"""One game of the Play view: a person (or nobody) and bot processes, refereed as the arena does.

A session runs on a thread of its own; the websocket hands it the person's commands
(`command`) and sends on whatever frames it emits (`send`). Every frame is built from what the
browser's seat may know:

- the person's seat: `view` frames carry `state.view_text(seat)` and, on its turn, the legal
  decisions; `decision` frames the decision as that seat's history shows it;
- no person (bots only): the browser is a spectator, shown the public view (gui/public.py);
- the bots' `info` lines: while the game runs only the size of their search (`SEARCH_KEYS`: a
  value or a principal variation is read from the bot's hidden hand); all of them in the `end`
  frame, with the full record, the final position and every seat's view (a finished game may
  show all hands);
- a hint: the advisor bot is sent the person's view alone (its lines, drawn from that view, are
  shown whole).

A bot that crashes, hangs past its movetime plus the arena's margin, or answers what is not a
legal decision loses the game as the arena scores it (`forfeit_returns`). `close` (the tab went
away) kills every bot process of the session at once; the thread then ends.

>>> # see tests/test_gui.py: whole games over a websocket, every frame checked
"""
from __future__ import annotations

import os
import queue
import secrets
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import engine
from arena.config import BotSpec, TimeControl
from arena.play import PlaySettings, keep_game
from arena.record import DecisionRecord, GameRecord
from arena.referee import Forfeit, checked_decision, engine_forfeit, forfeit_returns, termination_of
from arena.review import review_game, start_bot
from arena.store import Store, now
from gui.public import public_entry, public_view
from protocol.client import Engine
from protocol.errors import EngineError
from protocol.limits import Limits
from protocol.messages import Info

PERSON = "person"
"""The seat kind of the person at the browser."""
SEARCH_KEYS = ("depth", "iterations", "nodes", "time", "rate")
"""What a bot's `info` shows of its search while the game runs: sizes, nothing read from its hand."""
MARGIN_MS = TimeControl().margin_ms
"""The arena's grace past a movetime before a bot loses on time."""

Frame = dict[str, Any]


@dataclass
class GameRequest:
    """What the browser asks for: the deal, who sits where, the bots' time."""

    edition: str
    seats: list[str]
    """Per seat: PERSON or the name of a bot the server offers."""
    options: dict[str, int] = field(default_factory=dict)
    movetime_ms: int = 200
    seed: int | None = None
    advisor: str | None = None
    """The bot asked for hints and the review (None: none)."""

    @classmethod
    def from_message(cls, message: dict[str, Any]) -> GameRequest:
        """From a `start` message of the page; ValueError names what is wrong.

        >>> GameRequest.from_message({"edition": "classic", "seats": ["person", "random"]}).movetime_ms
        200
        """
        seats = message.get("seats")
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise ValueError("seats: a list of 'person' or bot names")
        options = message.get("options") or {}
        if not isinstance(options, dict):
            raise ValueError("options: name to value")
        movetime = message.get("movetime_ms", 200)
        if isinstance(movetime, bool) or not isinstance(movetime, int) or not 1 <= movetime <= 600_000:
            raise ValueError("movetime_ms: 1..600000")
        seed = message.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64):
            raise ValueError("seed: an integer in 0..2^64-1")
        advisor = message.get("advisor")
        return cls(str(message.get("edition")), list(seats), {str(k): v for k, v in options.items()}, movetime, seed,
                   advisor if isinstance(advisor, str) and advisor else None)


class PlaySession:
    """One game between the seats of a `GameRequest`; `run()` plays it on the calling thread."""

    def __init__(self, request: GameRequest, bots: dict[str, BotSpec], send: Callable[[Frame], None],
                 store: Store | None = None, start: Callable[[BotSpec], Engine] = start_bot) -> None:
        edition = engine.get_edition(request.edition)
        persons = [s for s, kind in enumerate(request.seats) if kind == PERSON]
        if len(persons) > 1:
            raise ValueError("at most one seat for the person at this browser")
        unknown = sorted({kind for kind in request.seats if kind != PERSON and kind not in bots}
                         | ({request.advisor} - set(bots) if request.advisor else set()))
        if unknown:
            raise ValueError(f"no bot {', '.join(unknown)} here (bots: {', '.join(bots)})")
        self.seed = request.seed if request.seed is not None else secrets.randbits(63)
        self.state = edition.new_game(self.seed, len(request.seats), **request.options)
        self.request = request
        self.seat: int | None = persons[0] if persons else None
        """The person's seat; None: the browser only watches."""
        self.bots = bots
        self.send = send
        self.store = store
        self.start = start
        self.limits = Limits(movetime_ms=request.movetime_ms)
        self.engines: dict[int, Engine] = {}
        self.advisor: Engine | None = None
        self.commands: queue.Queue[Frame | None] = queue.Queue()
        self.closed = False
        self.infos: list[list[Info]] = []
        """Per decision, the info lines of the bot that made it (shown at the end)."""
        self.record: GameRecord | None = None
        self.ended = threading.Event()
        """Set when `run` has returned (its bots have quit)."""

    # -- from the websocket --------------------------------------------------------------------
    def command(self, message: Frame) -> None:
        """A message of the page during the game: `decide`, `hint`, `review`."""
        self.commands.put(message)

    def close(self) -> None:
        """The browser went away: every bot process of the session is killed now; `run` ends."""
        self.closed = True
        for bot in [*self.engines.values(), *([self.advisor] if self.advisor else [])]:
            try:
                os.killpg(bot.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        self.commands.put(None)

    # -- the game --------------------------------------------------------------------------------
    def run(self) -> None:
        """Plays the game, then answers `review` requests until closed."""
        state = self.state
        names = [kind if kind != PERSON else "you" for kind in self.request.seats]
        record = GameRecord(index=0, group=0, deal=0, rotation=0, edition=state.edition, options=dict(state.options),
                            seed=self.seed, seat_bots=names, scores=[], returns=[],
                            initial_position=state.to_text(), started=now())
        self.record = record
        drawing = engine.get_edition(state.edition).drawing
        self.send({"type": "start", "edition": state.edition, "options": dict(state.options), "seed": self.seed,
                   "seat": self.seat, "names": names, "movetime_ms": self.request.movetime_ms,
                   "layout": drawing.value.layout(state) if drawing else None})
        try:
            try:
                for seat, kind in enumerate(self.request.seats):
                    if kind != PERSON:
                        self.engines[seat] = self._start_bot(seat, kind)
                self._play(record)
                record.scores, record.returns = state.scores(), state.returns()
            except Forfeit as f:
                record.termination, record.reason, record.failed_seat = f.termination, f.reason, f.seat
                record.scores, record.returns = state.scores(), forfeit_returns(state, f.seat)
                self.send({"type": "fault", "seat": f.seat, "termination": f.termination, "reason": f.reason})
            if self.closed:
                return
            record.final_position, record.finished = state.to_text(), now()
            self._end(record)
            while (message := self.commands.get()) is not None and not self.closed:
                if message.get("type") == "review":
                    self._review(record)
        except Exception as err:  # a fault of the server's own: said to the page, not lost in a thread
            self.send({"type": "error", "message": f"the game stopped: {type(err).__name__}: {err}"})
            raise
        finally:
            for bot in [*self.engines.values(), *([self.advisor] if self.advisor else [])]:
                bot.quit()
            self.ended.set()

    def _start_bot(self, seat: int, name: str) -> Engine:
        try:
            bot = self.start(self.bots[name])
            bot.new_game(self.state.edition, self.state.options, self.state.num_seats, seat)
            return bot
        except EngineError as err:
            raise Forfeit(seat, termination_of(err), f"could not start a game: {err}") from err

    def _play(self, record: GameRecord) -> None:
        state = self.state
        while (mover := state.to_move) is not None and not self.closed:
            self._send_view()
            started = time.perf_counter()
            if mover == self.seat:
                decision = self._ask_person()
                if decision is None:
                    return
                estimate: tuple[float | None, int | None] = (None, None)
                infos: list[Info] = []
            else:
                decision, estimate, infos = self._ask_bot(mover)
            elapsed = round((time.perf_counter() - started) * 1000, 3)
            self._apply(record, mover, decision, elapsed, estimate, infos)

    def _send_view(self) -> None:
        state = self.state
        frame: Frame = {"type": "view", "to_move": state.to_move, "ply": len(self.infos)}
        if self.seat is None:
            frame["view"] = public_view(state)
        else:
            frame["view"] = state.view_text(self.seat)
            if state.to_move == self.seat:
                frame["legal"] = state.legal_text()
        self.send(frame)

    def _ask_person(self) -> int | None:
        """The person's decision; None when the browser went away."""
        state = self.state
        while True:
            message = self.commands.get()
            if message is None or self.closed:
                return None
            kind = message.get("type")
            if kind == "hint":
                self._hint()
            elif kind == "decide":
                text = message.get("decision")
                try:
                    decision = state.parse_decision(str(text))
                except engine.NotationError as err:
                    self.send({"type": "error", "message": f"{text!r} is not a decision: {err}"})
                    continue
                if state.is_legal(decision):
                    return decision
                self.send({"type": "error", "message": f"{text} is not legal now"})

    def _ask_bot(self, seat: int) -> tuple[int, tuple[float | None, int | None], list[Info]]:
        """The bot's decision, checked as the referee checks it (Forfeit otherwise)."""
        bot = self.engines[seat]
        budget = float(self.request.movetime_ms)

        def shown(info: Info) -> None:
            size = {key: value for key, value in info.items() if key in SEARCH_KEYS}
            if size:
                self.send({"type": "info", "seat": seat, "info": size})
        try:
            search = bot.start_search(self.limits, view=self.state.view_text(seat), on_info=shown)
            result = search.wait((budget + MARGIN_MS) / 1000)
        except EngineError as err:
            raise engine_forfeit(err, seat, budget, MARGIN_MS) from err
        return checked_decision(self.state, seat, result.decision), result.estimate, list(result.info)

    def _apply(self, record: GameRecord, mover: int, decision: int, elapsed: float,
               estimate: tuple[float | None, int | None], infos: list[Info]) -> None:
        state = self.state
        round_before = state.round_index
        seen = len(state.history(self.seat)) if self.seat is not None else 0
        record.decisions.append(DecisionRecord(mover, state.play(decision), elapsed, *estimate))
        self.infos.append(infos)
        new_round = state.round_index != round_before
        if self.seat is not None:
            texts = state.history(self.seat, previous=new_round)[seen:]
        else:
            texts = [public_entry(state, mover, new_round)]
        for text in texts:
            self.send({"type": "decision", "seat": mover, "text": text, "ms": elapsed})
        if new_round:
            self.send({"type": "round", "scores": state.scores()})

    def _hint(self) -> None:
        """The advisor's choice in the person's view, its lines streamed as they come."""
        assert self.seat is not None
        name = self.request.advisor
        if name is None:
            self.send({"type": "hint", "error": "no advisor chosen"})
            return
        try:
            if self.advisor is None:
                self.advisor = self.start(self.bots[name])
                self.advisor.new_game(self.state.edition, self.state.options, self.state.num_seats, self.seat)
            search = self.advisor.start_search(self.limits, view=self.state.view_text(self.seat),
                                               on_info=lambda info: self.send({"type": "hint-info", "info": _plain(info)}))
            result = search.wait(self.request.movetime_ms / 1000 + 5)
        except EngineError as err:
            if self.advisor is not None:
                self.advisor.quit()
            self.advisor = None
            self.send({"type": "hint", "error": f"the advisor failed: {err}"})
            return
        self.send({"type": "hint", "bot": name, "decision": result.decision, "lines": [_plain(i) for i in result.lines]})

    def _end(self, record: GameRecord) -> None:
        """The end frame: results, the full record, every seat's view and all the bots' lines."""
        state = self.state
        self.send({"type": "end", "scores": record.scores, "returns": record.returns,
                   "termination": record.termination, "reason": record.reason, "failed_seat": record.failed_seat,
                   "final": state.to_text(), "views": [state.view_text(s) for s in range(state.num_seats)],
                   "record": [list(d) for d in record.decisions],
                   "infos": [[_plain(i) for i in infos[-3:]] for infos in self.infos]})
        for seat, bot in self.engines.items():
            if record.termination == "normal":
                try:
                    bot.game_over(record.scores, record.returns)
                except EngineError:
                    pass
        if self.store is not None:
            settings = PlaySettings(state.edition, dict(state.options), state.num_seats, self.seed, self.seat or 0,
                                    [self.bots[name] for name in dict.fromkeys(self.request.seats) if name != PERSON],
                                    self.limits)
            game_id = keep_game(self.store, settings, record)
            self.send({"type": "kept", "game": game_id})

    def _review(self, record: GameRecord) -> None:
        """The advisor's review of the person's decisions, a row a frame."""
        name = self.request.advisor
        if self.seat is None or name is None:
            self.send({"type": "review", "error": "a review needs a person's seat and an advisor"})
            return
        try:
            with self.start(self.bots[name]) as bot:
                for row in review_game(record, bot, self.limits, [self.seat]):
                    self.send({"type": "review-row", "ply": row.ply, "played": row.played, "best": row.best,
                               "played_value": row.played_value, "best_value": row.best_value, "loss": row.loss})
                    if self.closed:
                        return
        except EngineError as err:
            self.send({"type": "review", "error": f"the advisor failed: {err}"})
            return
        self.send({"type": "review", "done": True})


def _plain(info: Info) -> dict[str, Any]:
    """An info line as JSON (its values are numbers, strings and lists already)."""
    return dict(info)
