"""A game between a person and bot processes (`expeditions play`): a small text GUI on UEI.

The person holds one seat; every other seat is a bot process that, as in the arena, is sent only
its own view and whose answers are checked. The person is shown only what their seat may see:
every picture comes from their view (`State.pretty(seat)`) and every decision is printed as their
masked history shows it (`State.history(seat)`), so a bot's draw from the draw pile reads `D`,
never the card. A hint comes from a separate advisor process that gets the person's view alone;
the opponents' processes never hear of it. The game is kept as the arena's `GameRecord`, so that
the advisor can review the person's decisions afterwards (`arena.review`), as `analyse --review`
does for a recorded game; `keep_game` writes it into a results database (`play --db`), finished or
left unfinished, for `replay`, `analyse --game` and `export`.

>>> # expeditions play --bot ismcts --movetime 1000
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

import engine
from arena.config import PLAYED, BotSpec, TimeControl, TournamentConfig
from arena.record import DecisionRecord, GameRecord
from arena.referee import forfeit_returns
from arena.review import REVIEW_HEADER, consult, review_game, review_row, review_summary, start_bot
from arena.store import Store, now
from engine.edition import Palette
from protocol.limits import Limits
from protocol.client import Engine
from protocol.errors import EngineError

HELP = ("Type one of the legal decisions as the list writes it (docs/notation.md), or: legal (the list), "
        "hint (an advisor's choice), table (the picture again), help, quit.")


class Person(Protocol):
    """Where the person sits: the terminal, or a script in tests."""

    def show(self, text: str, style: str = "") -> None:
        """Shows one or more lines, in a `rich` style where the terminal has colour (e.g. "red")."""

    def ask(self, prompt: str) -> str | None:
        """One line typed after `prompt`; None at the end of input."""


class TerminalPerson:
    """The person at this terminal (stdin and stdout), in colour where the terminal has it: `rich`
    leaves colour out when the output is not a terminal, or NO_COLOR is set. With the edition's
    `palette`, every card in the text is shown in its colour or suit's colour."""

    def __init__(self, palette: Palette | None = None) -> None:
        from rich.console import Console

        self.console = Console(highlight=False, soft_wrap=True)
        self.palette = palette

    def show(self, text: str, style: str = "") -> None:
        from rich.text import Text

        shown = Text(text, style=style)
        for start, end, colour in self.palette.spans(text) if self.palette else []:
            shown.stylize(colour, start, end)
        self.console.print(shown, emoji=False)
        self.console.file.flush()

    def ask(self, prompt: str) -> str | None:
        try:
            return input(prompt)
        except EOFError:
            print()
            return None


@dataclass
class PlaySettings:
    """One game: the deal, the person's seat, the bots of the other seats and their budget."""

    edition: str
    options: dict[str, int]
    players: int | None
    seed: int
    seat: int
    """The person's seat."""
    bots: list[BotSpec]
    """The bots of the other seats, in seat order (one bot may be given for all of them)."""
    limits: Limits
    advisor: BotSpec | None = None
    """The bot asked for hints (started on the first `hint`); None: no hints."""
    advisor_limits: Limits = field(default_factory=lambda: Limits(movetime_ms=1000))


class Quit(engine.ExpeditionsError):
    """The person quit (or their input ended) before the game was over. From `play_game`, `outcome`
    holds the game as far as it went: its record ends by `quit`, a loss of the person's side."""

    def __init__(self, reason: str, outcome: PlayOutcome | None = None) -> None:
        super().__init__(reason)
        self.outcome = outcome


@dataclass
class PlayOutcome:
    """How the game ended: the final position, the game's record, and the person's seat."""

    state: engine.State
    record: GameRecord
    seat: int

    @property
    def result(self) -> float:
        """The person's return: 1 won, 0.5 drawn, 0 lost (a share of opponents beaten)."""
        return self.state.returns()[self.seat]


def seat_bots(settings: PlaySettings, num_seats: int) -> dict[int, BotSpec]:
    """The bot of each seat but the person's.

    >>> from arena.config import builtin_bot
    >>> s = PlaySettings("partners", {}, None, 1, 2, [builtin_bot("greedy")], Limits())
    >>> sorted(seat_bots(s, 4)), {b.name for b in seat_bots(s, 4).values()}
    ([0, 1, 3], {'greedy'})
    """
    others = [s for s in range(num_seats) if s != settings.seat]
    if len(settings.bots) == 1:
        return {s: settings.bots[0] for s in others}
    if len(settings.bots) != len(others):
        raise ValueError(f"{len(others)} other seats need one bot for all or one each, got {len(settings.bots)}")
    return dict(zip(others, settings.bots))


def play_game(settings: PlaySettings, person: Person,
              start: Callable[[BotSpec], Engine] | None = None) -> PlayOutcome:
    """Plays the game to its end; raises Quit if the person quits first, and an EngineError if a
    bot fails (a protocol error for an illegal answer). `start` starts a bot (default
    `start_bot`)."""
    start = start or start_bot
    state = engine.new_game(settings.edition, seed=settings.seed, players=settings.players, **settings.options)
    if not 0 <= settings.seat < state.num_seats:
        raise ValueError(f"seat {settings.seat}: the game has seats 0..{state.num_seats - 1}")
    table = _Table(state, settings, person)
    bots: dict[int, Engine] = {}
    advisor: list[Engine] = []  # started on the first hint
    try:
        for bot_seat, spec in seat_bots(settings, state.num_seats).items():
            bots[bot_seat] = start(spec)
            bots[bot_seat].new_game(state.edition, state.options, state.num_seats, bot_seat)
        names = {**{seat: bot.name for seat, bot in bots.items()}, settings.seat: "you"}
        record = GameRecord(index=0, group=0, deal=0, rotation=0, edition=state.edition, options=dict(state.options),
                            seed=settings.seed, seat_bots=[names[s] for s in range(state.num_seats)], scores=[],
                            returns=[], initial_position=state.to_text(), started=now())
        table.introduce(names)
        while (seat := state.to_move) is not None:
            started = time.perf_counter()
            if seat == settings.seat:
                try:
                    decision = table.ask_person(lambda: _hint(settings, state, advisor, start))
                except Quit as left:
                    record.termination, record.reason, record.failed_seat = "quit", f"the person left ({left})", seat
                    record.scores, record.returns = state.scores(), forfeit_returns(state, seat)
                    record.final_position, record.finished = state.to_text(), now()
                    raise Quit(str(left), PlayOutcome(state, record, seat)) from None
                estimate: tuple[float | None, int | None] = (None, None)
            else:
                result = consult(bots[seat], state.view(seat), settings.limits)
                decision, estimate = state.parse_decision(result.decision), result.estimate
            elapsed_ms = round((time.perf_counter() - started) * 1000, 3)
            record.decisions.append(DecisionRecord(seat, table.apply(decision), elapsed_ms, *estimate))
        table.finish()
        record.scores, record.returns = state.scores(), state.returns()
        record.final_position, record.finished = state.to_text(), now()
        for seat, bot in bots.items():
            bot.game_over(record.scores, record.returns, record.termination)
        return PlayOutcome(state, record, settings.seat)
    finally:
        for bot in [*bots.values(), *advisor]:
            bot.quit()


def keep_game(store: Store, settings: PlaySettings, record: GameRecord) -> int:
    """Writes a game of `play_game` (finished, or ended by `quit`) into the results database as an
    entry of its own, format `played`, and returns the game's id.

    >>> import os, tempfile
    >>> from arena.config import builtin_bot
    >>> game = GameRecord(0, 0, 0, 0, "classic", {"rounds": 1}, 5, ["you", "greedy"], [0, 0], [0.0, 1.0],
    ...                   termination="quit", failed_seat=0)
    >>> store = Store(os.path.join(tempfile.mkdtemp(), "t.sqlite"))
    >>> s = PlaySettings("classic", {"rounds": 1}, None, 5, 0, [builtin_bot("greedy")], Limits(iterations=500))
    >>> game_id = keep_game(store, s, game)
    >>> _, config, planned, status = store.tournament()
    >>> config.format, [b.name for b in config.bots], planned, status, store.game(game_id).termination
    ('played', ['you', 'greedy'], 1, 'quit', 'quit')
    """
    bots = list({bot.name: bot for bot in settings.bots}.values())
    person = BotSpec("you", [])  # a person at the terminal: nothing to start
    movetime = settings.limits.movetime_ms
    config = TournamentConfig(record.edition, [person, *bots], dict(record.options), len(record.seat_bots),
                              format=PLAYED, deals=1, seed=settings.seed, concurrency=1,
                              time=TimeControl(movetime_ms=movetime) if movetime else TimeControl())
    budget = f"{movetime} ms" if movetime else f"{settings.limits.iterations} iterations"
    tid = store.create_tournament(config, planned=1)
    game_id = store.record_game(tid, record)
    store.set_status(tid, "played" if record.termination == "normal" else "quit",
                     note=f"expeditions play, seat {settings.seat}; the bots had {budget} a decision")
    return game_id


def review_lines(outcome: PlayOutcome, advisor: BotSpec, limits: Limits,
                 start: Callable[[BotSpec], Engine] | None = None) -> Iterator[str]:
    """The advisor's review of the person's decisions that had a choice, a line each as it comes
    (the table of `expeditions analyse --review`), then the summary."""
    start = start or start_bot
    rows = []
    with start(advisor) as bot:
        yield f"review by {bot.name} of seat {outcome.seat}'s decisions (* : not the bot's choice)"
        yield REVIEW_HEADER
        for row in review_game(outcome.record, bot, limits, [outcome.seat]):
            rows.append(row)
            yield review_row(row)
    yield from review_summary(rows) if rows else ["no decision with a choice to review"]


def _hint(settings: PlaySettings, state: engine.State, advisor: list[Engine],
          start: Callable[[BotSpec], Engine]) -> str:
    """The advisor's choice in the person's view, with its value if it reports one. An advisor
    that fails is stopped and named; the game goes on (the next hint starts it again)."""
    if settings.advisor is None:
        return "no advisor (see --advisor)"
    try:
        if not advisor:
            advisor.append(start(settings.advisor))
            advisor[0].new_game(state.edition, state.options, state.num_seats, settings.seat)
        result = consult(advisor[0], state.view(settings.seat), settings.advisor_limits)
    except EngineError as err:
        for bot in advisor:
            bot.quit()
        advisor.clear()
        return f"the advisor failed: {err}"
    lines = result.lines
    value = f", value {lines[0]['value']:.2f}" if lines and "value" in lines[0] else ""
    return f"{advisor[0].name} suggests {result.decision}{value}"


class _Table:
    """What the person sees: pictures of their view, and the decisions as their history shows them."""

    def __init__(self, state: engine.State, settings: PlaySettings, person: Person) -> None:
        self.state = state
        self.seat = settings.seat
        self.settings = settings
        self.person = person
        self.names: dict[int, str] = {}

    def introduce(self, names: dict[int, str]) -> None:
        self.names = names
        options = engine.get_edition(self.state.edition).options_text(self.state.options)
        self.person.show(f"{self.state.edition} {options}  seed {self.settings.seed}  "
                         f"seats: {', '.join(f'{s} {self.names[s]}' for s in range(self.state.num_seats))}")
        if self.state.num_seats == 4 and self.state.team_of(0) == self.state.team_of(2):
            self.person.show(f"your partner: seat {(self.seat + 2) % 4} ({self.names[(self.seat + 2) % 4]})")
        self.person.show(HELP)

    def ask_person(self, hint: Callable[[], str]) -> int:
        """The person's decision, asked until it is a legal one; the only legal one is taken
        without asking."""
        state = self.state
        legal = state.legal_text()
        if len(legal) == 1:
            self.person.show(f"seat {self.seat}: {legal[0]}, your only legal decision", "cyan")
            return state.parse_decision(legal[0])
        self.person.show("")
        self.person.show(state.pretty(self.seat))
        self.person.show("legal: " + " ".join(legal), "cyan")
        while True:
            answer = self.person.ask(f"seat {self.seat}, {state.phase}> ")
            if answer is None:
                raise Quit("the input ended")
            answer = answer.strip()
            if not answer:
                continue
            if answer == "quit":
                raise Quit("quit")
            if answer == "help":
                self.person.show(HELP)
            elif answer == "legal":
                self.person.show("legal: " + " ".join(legal), "cyan")
            elif answer == "table":
                self.person.show(state.pretty(self.seat))
            elif answer == "hint":
                self.person.show(hint(), "magenta")
            else:
                try:
                    decision = state.parse_decision(answer)
                except engine.NotationError as err:
                    self.person.show(f"{answer!r} is not a decision: {err}", "red")
                    continue
                if not state.is_legal(decision):
                    self.person.show(f"{answer} is not legal now: {state.why_illegal(decision)}", "red")
                    continue
                return decision

    def apply(self, decision: int) -> str:
        """Applies a decision, shows it as the person's history shows it, and returns the
        referee's record of it."""
        state = self.state
        mover, round_before = state.to_move, state.round_index
        assert mover is not None  # a decision is applied in a running game
        seen = len(state.history(self.seat))
        totals_before = state.scores()
        record = state.play(decision)
        new_round = state.round_index != round_before  # the decision's round is now the previous one
        for text in state.history(self.seat, previous=new_round)[seen:]:
            self.person.show(f"  seat {mover} ({self.names[mover]}): {text}", "bold" if mover == self.seat else "")
        if new_round or state.is_terminal():
            totals = state.scores()
            gained = [after - before for after, before in zip(totals, totals_before)]
            self.person.show(f"round {round_before + 1} over: {' / '.join(f'{g:+d}' for g in gained)}; "
                             f"totals {' / '.join(map(str, totals))}", "yellow")
        return record

    def finish(self) -> None:
        state = self.state
        self.person.show("")
        self.person.show(state.pretty(self.seat))
        result = state.returns()[self.seat]
        word = "won" if result == 1 else "lost" if result == 0 else "drew" if result == 0.5 else f"scored {result:g}"
        self.person.show(f"you {word}: scores {' / '.join(map(str, state.scores()))}",
                         "bold green" if result == 1 else "bold red" if result == 0 else "bold")
