"""One game run for the client of a host (`expeditions host`, docs/host.md): the only full state,
who holds each seat — the client, or a bot process the game plays — and what each decision tells
the client.

The rules are the engine's: legality, views, histories, scores. What the client is shown follows
one test, `sees(seat)`: the seats it holds, every seat of an `open` game, and every seat once the
game is over. A seat a bot holds in a closed game is the bot's alone — its view, its legal
decisions (they name its cards), what it learned from a decision (a card drawn) and what it says
while it thinks are never sent to the client; the bot itself is sent only its seat's view, as in
the arena. Views are written from the seat's view text alone (`engine.parse_view`), so a reply can
hold nothing the view does not.

Bot seats are played by one short thread per decision, so that the client's requests are answered
while a bot thinks; the game's lock orders everything (replies, events, state changes).

>>> events = []
>>> game = HostedGame(engine.new_game("classic", seed=1, rounds=1), seed=1, open_game=False, emit=events.append)
>>> with game.lock:
...     game.advance()
>>> events[-1]["event"], events[-1]["seat"], events[-1]["legal"][:3]
('turn', 0, ['+bW', '+b7', '+b8'])
>>> with game.lock:
...     game.apply("+b7", seat=0)["decision"]; game.advance()
'+b7'
>>> [e["event"] for e in events], events[1]["seen"]
(['turn', 'decision', 'turn'], ['+b7', '+b7'])
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import engine
from arena.config import BotSpec
from arena.referee import Forfeit, checked_decision, forfeit_returns, termination_of
from arena.review import answer
from engine.errors import ExpeditionsError
from engine.options import OptionSpec
from protocol.client import Engine
from protocol.errors import EngineError
from protocol.limits import Limits

Emit = Callable[[dict[str, Any]], None]
"""Where the game's events go (the host writes them to its client)."""

BOT_STOP_WAIT_S = 3.0
"""Seconds the host waits, when it closes, for bots told to stop to answer before it kills them."""


def option_value(spec: OptionSpec, value: int) -> int | str:
    """A rule option's value in JSON: a number, or a choice's name.

    >>> option_value(OptionSpec("route", 0, 0, 1, "the map", ("short", "long")), 1), option_value(OptionSpec("rounds", 3, 1, 9, ""), 2)
    ('long', 2)
    """
    return spec.text(value) if spec.choices else value


class HostError(ExpeditionsError):
    """A request the game cannot do as asked; its message is the client's error, and nothing changed."""


@dataclass
class BotSeat:
    """A bot process holding one seat: what started it, its budget per decision, and its state."""

    spec: BotSpec
    limits: Limits
    engine: Engine
    busy: bool = False
    """Whether it is thinking (a thread waits for its answer)."""
    seated: bool = True
    """False once it has left its seat; a thread still waiting for it then quits it."""
    healthy: bool = True
    threads: list[threading.Thread] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.spec.name

    def leave(self) -> None:
        """Leaves the seat: quits the process now, or, while it thinks, tells it to stop and lets
        the waiting thread quit it when the answer (now void) comes."""
        self.seated = False
        if self.busy:
            try:
                self.engine.stop()
            except EngineError:
                pass
        else:
            self.engine.quit()


class HostedGame:
    """A game: `apply` and `seat` change it (the caller holds `lock`, then calls `advance`, which
    sends the events and hands the turn on); `view`, `legal` and `full_state` read it."""

    def __init__(self, state: engine.State, *, seed: int | None, open_game: bool, emit: Emit) -> None:
        self.state = state
        self.initial = state.to_text()
        self.seed = seed
        """The seed that dealt it (None: started from a given position)."""
        self.open = open_game
        self.emit = emit
        self.lock = threading.RLock()
        self.seats: list[BotSeat | None] = [None] * state.num_seats
        """Per seat, the bot holding it; None: the client."""
        self.ply = 0
        """Decisions made since the start."""
        self.records: list[str] = []
        """The referee's record of each decision (what the mover alone learned too)."""
        self.result: dict[str, Any] | None = None
        """The `result` event, once the game is over."""
        self.ended = False
        """Whether the client ended it (over or not)."""
        self._pending: list[dict[str, Any]] = []
        self._leaving: list[BotSeat] = []
        """Bots that left their seat while they thought (their threads quit them; `close` makes sure)."""

    # ----- what the client may see --------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.result is not None

    def sees(self, seat: int) -> bool:
        """Whether the client may see what `seat` knows: its own seats, every seat of an open game,
        every seat once the game is over."""
        return self.open or self.over or self.seats[seat] is None

    def check_seat(self, seat: object, what: str) -> int:
        """`seat` as a seat number of this game, or HostError."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.state.num_seats:
            raise HostError(f"{what}: seat must be an integer in 0..{self.state.num_seats - 1}, got {seat!r}")
        return seat

    def describe(self) -> dict[str, Any]:
        """The game as the reply to `start` shows it."""
        state = self.state
        edition = engine.get_edition(state.edition)
        out: dict[str, Any] = {
            "edition": state.edition, "options": {o.name: option_value(o, state.options[o.name]) for o in edition.options},
            "players": state.num_seats, "seed": self.seed, "open": self.open,
            "seats": [self._seat_entry(seat) for seat in range(state.num_seats)]}
        if self.open:
            out["position"] = self.initial
        return out

    def _seat_entry(self, seat: int) -> dict[str, Any]:
        bot = self.seats[seat]
        entry: dict[str, Any] = {"seat": seat, "team": self.state.team_of(seat), "by": "client" if bot is None else "bot"}
        if bot is not None:
            entry["name"] = bot.name
        return entry

    def view(self, seat: object) -> dict[str, Any]:
        """What `seat` knows, as text (notation and picture) and as fields, from its view alone."""
        seat = self.check_seat(seat, "view")
        if not self.sees(seat):
            raise HostError(f"view: seat {seat} is played by the bot {self.seats[seat].name!r}: its view "  # type: ignore[union-attr]
                            f"is the bot's alone (an open game shows every seat)")
        text = self.state.view_text(seat)
        view = engine.parse_view(text)
        known = view.state  # consistent with the view, not the truth: read only what the view holds
        return {"seat": seat, "edition": view.edition.name, "text": text, "picture": known.pretty(seat),
                "to_move": known.to_move, "phase": known.phase, "round": known.round, "turn": known.turn,
                "over": known.is_terminal(), "scores": known.scores(), "history": list(view.history),
                "legal": view.legal_text() if known.to_move == seat else [],
                "fields": dict(token.split("=", 1) for token in text.split()[1:])}

    def legal(self) -> dict[str, Any]:
        """The legal decisions of the seat to move (one the client may see)."""
        seat = self._mover("legal")
        if not self.sees(seat):
            raise HostError(f"legal: seat {seat} is to move, played by the bot {self.seats[seat].name!r}: "  # type: ignore[union-attr]
                            f"its decisions would show its hand")
        return {"seat": seat, "legal": self.state.legal_text()}

    def full_state(self) -> dict[str, Any]:
        """The full position and every decision's record: an open game's, or a finished one's."""
        if not (self.open or self.over):
            raise HostError("state: the full state of a running game holds every hidden card; ask for a "
                            "seat's view (an open game, or one that is over, shows it)")
        return {"position": self.state.to_text(), "initial": self.initial, "records": list(self.records)}

    def _mover(self, what: str) -> int:
        if self.over or self.ended:
            raise HostError(f"{what}: the game is over")
        seat = self.state.to_move
        assert seat is not None  # a game not over has a seat to move
        return seat

    # ----- changes (the caller holds the lock, then calls advance) --------------------------------
    def apply(self, text: object, seat: object = None) -> dict[str, Any]:
        """Applies the client's decision `text` for the seat to move (which must be `seat`, when
        given); HostError, nothing changed, if it cannot."""
        mover = self._mover("apply")
        if seat is not None and self.check_seat(seat, "apply") != mover:
            raise HostError(f"apply: seat {seat} is not to move (seat {mover} is)")
        bot = self.seats[mover]
        if bot is not None:
            raise HostError(f"apply: seat {mover} is to move, and the bot {bot.name!r} plays it")
        if not isinstance(text, str):
            raise HostError(f"apply: decision must be a string in notation, got {text!r}")
        try:
            decision = self.state.parse_decision(text.strip())
        except engine.NotationError as err:
            raise HostError(f"apply: {err}") from None
        if not self.state.is_legal(decision):
            raise HostError(f"apply: {text.strip()} is not legal now (legal: {' '.join(self.state.legal_text())})")
        played = self.state.decision_to_text(decision)
        self._play(decision, "client")
        return {"seat": mover, "decision": played}

    def seat_bot(self, seat: int, bot: BotSeat) -> None:
        """Puts `bot` (started, told the game) at `seat`; a bot there before leaves."""
        if self.over or self.ended:
            bot.leave()
            raise HostError("seat: the game is over")
        previous = self.seats[seat]
        self.seats[seat] = bot
        if previous is not None:
            self._dismiss(previous)

    def unseat(self, seat: int) -> str:
        """Gives `seat` back to the client; the bot there leaves (its answer, if it thinks, is void)."""
        if self.over or self.ended:
            raise HostError("unseat: the game is over")
        bot = self.seats[seat]
        if bot is None:
            raise HostError(f"unseat: seat {seat} is the client's already")
        self.seats[seat] = None
        self._dismiss(bot)
        return bot.name

    def stop(self) -> bool:
        """Asks the bot thinking for the seat to move to answer now; whether one was thinking."""
        seat = self.state.to_move
        bot = None if seat is None or self.over or self.ended else self.seats[seat]
        if bot is None or not bot.busy:
            return False
        try:
            bot.engine.stop()
        except EngineError:
            pass  # it has gone: its thread ends the game
        return True

    def end(self) -> None:
        """Ends the game (over or not): its bots leave."""
        self.ended = True
        for seat, bot in enumerate(self.seats):
            if bot is not None:
                self.seats[seat] = None
                self._dismiss(bot)

    def close(self) -> None:
        """Ends the game and waits (a little) for bots that were thinking; kills any still running."""
        with self.lock:
            self.end()
            bots = list(self._leaving)
        for bot in bots:
            for thread in bot.threads:
                thread.join(BOT_STOP_WAIT_S)
            bot.engine.kill()

    def _dismiss(self, bot: BotSeat) -> None:
        bot.leave()
        if bot.busy:
            self._leaving.append(bot)

    def advance(self, announce: bool = True) -> None:
        """Sends the events of the changes made, then hands the turn on: the `result` once the game
        is over, else (with `announce`) a `turn` event, and a bot to move starts thinking."""
        pending, self._pending = self._pending, []
        for message in pending:
            self.emit(message)
        if self.ended or self.over:
            return
        if self.state.is_terminal():
            self._finish("normal", "", None)
            return
        seat = self.state.to_move
        assert seat is not None  # not terminal
        bot = self.seats[seat]
        if announce:
            event: dict[str, Any] = {"event": "turn", "ply": self.ply, "seat": seat,
                                     "by": "client" if bot is None else "bot", "round": self.state.round,
                                     "phase": self.state.phase}
            if bot is not None:
                event["name"] = bot.name
            if self.sees(seat):
                event["view"] = self.state.view_text(seat)
                event["legal"] = self.state.legal_text()
            self.emit(event)
        if bot is not None and not bot.busy:
            self._think(seat, bot)

    # ----- inside --------------------------------------------------------------------------------
    def _play(self, decision: int, by: str) -> None:
        """Applies a legal decision and queues its events: what each seat the client may see
        learned of it, and the end of a round."""
        state = self.state
        mover = state.to_move
        assert mover is not None
        round_before = state.round_index
        totals_before = state.scores()
        heard = [len(state.history(seat)) for seat in range(state.num_seats)]
        record = state.play(decision)
        self.records.append(record)
        new_round = state.round_index != round_before  # the decision's round is now the previous one
        seen = [state.history(seat, previous=new_round)[heard[seat]] if self.open or self.seats[seat] is None
                else None for seat in range(state.num_seats)]
        event: dict[str, Any] = {"event": "decision", "ply": self.ply, "seat": mover,
                                 "by": by, "seen": seen}
        if self.open:
            event["record"] = record
        self._pending.append(event)
        self.ply += 1
        if new_round or state.is_terminal():
            totals = state.scores()
            self._pending.append({"event": "round", "round": round_before + 1,
                                  "gained": [a - b for a, b in zip(totals, totals_before)], "totals": totals})

    def _finish(self, termination: str, reason: str, failed_seat: int | None) -> None:
        """The game is over: the `result` event, `gameover` to the bots still playing, which then leave."""
        state = self.state
        returns = state.returns() if failed_seat is None else forfeit_returns(state, failed_seat)
        self.result = {"event": "result", "scores": state.scores(), "returns": returns,
                       "termination": termination, "reason": reason, "failed_seat": failed_seat}
        self.emit(self.result)
        for seat, bot in enumerate(self.seats):
            if bot is None:
                continue
            self.seats[seat] = None
            if bot.healthy and seat != failed_seat:
                try:
                    bot.engine.game_over(self.result["scores"], returns, termination)
                except EngineError:
                    pass
            self._dismiss(bot)

    def _think(self, seat: int, bot: BotSeat) -> None:
        """Asks `bot` for the decision of `seat` on a thread of its own."""
        bot.busy = True
        ply, view = self.ply, self.state.view_text(seat)
        thread = threading.Thread(target=self._ask, args=(seat, bot, ply, view), daemon=True,
                                  name=f"host-seat-{seat}")
        bot.threads = [t for t in bot.threads if t.is_alive()] + [thread]
        thread.start()

    def _ask(self, seat: int, bot: BotSeat, ply: int, view: str) -> None:
        failure: EngineError | None = None
        text = ""
        try:
            text = answer(bot.engine, view, bot.limits).decision
        except EngineError as err:
            failure = err
        with self.lock:
            bot.busy = False
            if not bot.seated or self.ended or self.over or self.ply != ply:
                if not bot.seated:  # it left while it thought: its answer is void
                    bot.engine.quit()
                return
            try:
                if failure is not None:
                    raise Forfeit(seat, termination_of(failure), str(failure))
                decision = checked_decision(self.state, seat, text)
            except Forfeit as forfeit:
                bot.healthy = False
                self._finish(forfeit.termination, f"seat {seat} ({bot.name}): {forfeit.reason}", seat)
                return
            self._play(decision, "bot")
            self.advance()
