"""The UEI conformance checker behind `expeditions protocol-check`.

Runs a battery of checks against an external bot and returns one `CheckResult` per check. The
engine is the referee: it deals the positions, computes each seat's view and judges legality.
A check that breaks the bot (crash, garbage, timeout) fails with the reason, and the next check
starts a fresh process, so one fault does not hide the others.

Each check has a level (docs/protocol.md, section 9): *required* checks are what the arena needs
to play a tournament with the bot, *recommended* ones what a GUI or an analysis needs (`go
infinite`, `stop`, `searchmoves`, MultiPV, errors for bad input), *optional* ones the debugging
commands. A bot passes when every check of the required level (by default: the required ones)
passes; the others are advice.

>>> from protocol.local import builtin_bot, child_env
>>> results = run_checks(CheckConfig(builtin_bot("random"), env=child_env(), editions=("classic",),
...                                  positions=5, games=0))
>>> all(r.passed is not False for r in results), results[0].name
(True, 'handshake')
"""
from __future__ import annotations

import functools
import random
import subprocess
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import engine
from protocol.limits import Limits
from engine import State
from protocol.client import Engine, Search
from protocol.errors import EngineError, EngineTerminatedError, EngineTimeoutError, SearchRejectedError
from protocol.messages import format_go, is_error_info

REQUIRED, RECOMMENDED, OPTIONAL = "required", "recommended", "optional"
LEVELS = (REQUIRED, RECOMMENDED, OPTIONAL)
"""The levels of the checks, the most needed first."""

MOVETIME_CHECK_MS = 200
"""The movetime the `go movetime` check asks for."""


@dataclass(frozen=True)
class CheckConfig:
    """What to check and how strictly."""

    argv: Sequence[str]
    """The bot's command line (a list; no shell)."""
    env: Mapping[str, str] | None = None
    cwd: str | Path | None = None
    editions: Sequence[str] | None = None
    """Check only these of the editions the bot claims (default: all it claims)."""
    positions: int = 30
    """Positions per edition (views from random games, every round, every seat)."""
    games: int = 1
    """Complete two-round games per edition and number of players, one bot process per seat."""
    seed: int = 1
    fast_movetime_ms: int = 10
    """The movetime of the many-positions and whole-game checks."""
    margin_ms: int = 150
    """How far beyond a time limit an answer may come (process scheduling, pipes)."""
    stop_ms: int = 150
    """How soon after `stop` (and after `isready`) the answer must come."""
    handshake_timeout: float = 10.0
    reply_timeout: float = 3.0
    """Seconds for `readyok` and the debugging commands, and slack for answers to `go`."""
    log_path: str | Path | None = None
    """Where the bot's stderr goes (default: a temporary file)."""


@dataclass
class CheckResult:
    """The outcome of one check."""

    name: str
    passed: bool | None
    """True passed, False failed, None skipped."""
    detail: str = ""
    seconds: float = 0.0
    level: str = REQUIRED
    """REQUIRED, RECOMMENDED or OPTIONAL (LEVELS)."""

    @property
    def status(self) -> str:
        return {True: "pass", False: "FAIL", None: "skip"}[self.passed]


class CheckFailed(engine.ExpeditionsError):
    """A check's verdict, with the reason."""


class CheckSkipped(engine.ExpeditionsError):
    """A check that cannot run (e.g. no handshake)."""


# Owns the bot process the checks share, restarting it after a check that broke it.
class _Context:
    def __init__(self, config: CheckConfig) -> None:
        self.config = config
        self._bot: Engine | None = None
        self.handshake_ok = False
        self.editions: tuple[str, ...] = ()

    def start(self) -> Engine:
        c = self.config
        return Engine.start(list(c.argv), timeout=c.handshake_timeout, env=c.env, cwd=c.cwd, log_path=c.log_path,
                            reply_timeout=c.reply_timeout)

    def bot(self) -> Engine:
        if not self.handshake_ok:
            raise CheckSkipped("no handshake")
        if self._bot is None or self._bot.returncode is not None:
            self._bot = self.start()
        return self._bot

    def discard(self) -> None:
        """Drops the current process (its state is unknown after a failure)."""
        if self._bot is not None:
            self._bot.kill()
            self._bot = None

    def adopt(self, bot: Engine) -> None:
        self._bot = bot

    def close(self) -> None:
        if self._bot is not None:
            self._bot.quit()
            self._bot = None


def run_checks(config: CheckConfig, progress: Callable[[CheckResult], None] | None = None) -> list[CheckResult]:
    """Runs every check in order; `progress` sees each result as it comes."""
    ctx = _Context(config)
    results: list[CheckResult] = []

    def record(name: str, check: Callable[[], str], level: str = REQUIRED) -> None:
        started = time.perf_counter()
        try:
            result = CheckResult(name, True, check(), level=level)
        except CheckSkipped as why:
            result = CheckResult(name, None, str(why), level=level)
        except (CheckFailed, EngineError) as why:
            result = CheckResult(name, False, _first_line(why), level=level)
            ctx.discard()
        except Exception as why:  # a bug of the checker must still give a table
            result = CheckResult(name, False, f"checker error: {type(why).__name__}: {why}", level=level)
            ctx.discard()
        result.seconds = time.perf_counter() - started
        results.append(result)
        if progress is not None:
            progress(result)

    try:
        record("handshake", lambda: _check_handshake(ctx))
        record("isready", lambda: _check_isready(ctx))
        record("options", lambda: _check_options(ctx))
        for name in _editions_to_check(ctx):
            record(f"{name}: positions", functools.partial(_check_positions, ctx, name))
            if config.games > 0:
                record(f"{name}: whole games", functools.partial(_check_games, ctx, name))
        first = _first_edition(ctx)
        record("go movetime", lambda: _check_movetime(ctx, first))
        record("go clocks", lambda: _check_clocks(ctx, first))
        record("gameover", lambda: _check_gameover(ctx, first))
        record("options: bad values rejected", lambda: _check_bad_options(ctx), RECOMMENDED)
        record("go iterations, nodes, no limit", lambda: _check_other_limits(ctx, first), RECOMMENDED)
        record("go searchmoves", lambda: _check_searchmoves(ctx, first), RECOMMENDED)
        record("MultiPV lines", lambda: _check_multipv(ctx, first), RECOMMENDED)
        record("isready during go infinite", lambda: _check_isready_mid_search(ctx, first), RECOMMENDED)
        record("stop during go infinite", lambda: _check_stop(ctx, first), RECOMMENDED)
        record("bad input survived", lambda: _check_bad_input(ctx, first), RECOMMENDED)
        record("go when not to move", lambda: _check_not_to_move(ctx, first), RECOMMENDED)
        record("debug: d, legal, perft", lambda: _check_debug(ctx, first), OPTIONAL)
        record("quit", lambda: _check_quit(ctx))
    finally:
        ctx.close()
    return results


def passes(results: Sequence[CheckResult], require: str = REQUIRED) -> bool:
    """Whether no check of level `require` or a more needed one failed (skipped ones do not fail).

    >>> passes([CheckResult("quit", True), CheckResult("stop", False, level=RECOMMENDED)])
    True
    >>> passes([CheckResult("quit", True), CheckResult("stop", False, level=RECOMMENDED)], RECOMMENDED)
    False
    """
    needed = LEVELS[:LEVELS.index(require) + 1]
    return not any(r.passed is False and r.level in needed for r in results)


def format_table(results: Sequence[CheckResult], require: str = REQUIRED) -> str:
    """The table (check, level, result, time, detail), then the verdict against the level
    `require`, then the failures of the other levels as advice."""
    width = max([len(r.name) for r in results] + [5])
    lines = [f"{'check':<{width}}  {'level':<11}  result  time     detail"]
    for r in results:
        lines.append(f"{r.name:<{width}}  {r.level:<11}  {r.status:<6}  {r.seconds:6.2f}s  {r.detail}")
    passed = sum(r.passed is True for r in results)
    failed = sum(r.passed is False for r in results)
    skipped = sum(r.passed is None for r in results)
    needed = LEVELS[:LEVELS.index(require) + 1]
    advice = [r for r in results if r.passed is False and r.level not in needed]
    if advice:
        lines.append("advice: " + "; ".join(f"{r.name} ({r.level}): {r.detail}" for r in advice))
    verdict = "PASS" if passes(results, require) else "FAIL"
    lines.append(f"{verdict} ({require} level): {passed} passed, {failed} failed, {skipped} skipped")
    return "\n".join(lines)


# -- positions to play -------------------------------------------------------------------------------
def _first_line(err: BaseException) -> str:
    text = str(err) or type(err).__name__
    return text.splitlines()[0]


def _editions_to_check(ctx: _Context) -> list[str]:
    wanted = ctx.config.editions
    return [e for e in ctx.editions if e in engine.EDITIONS and (wanted is None or e in wanted)]


def _first_edition(ctx: _Context) -> str:
    editions = _editions_to_check(ctx)
    return editions[0] if editions else engine.default_edition().name


def _random_options(edition: engine.Edition, rng: random.Random) -> dict[str, int]:
    """Rule options for a test game: one to three rounds, and now and then another value of
    the edition's other options (the turn limit stays, so that rounds run their course)."""
    options: dict[str, int] = {}
    for spec in edition.options:
        if spec.name == "rounds":
            options["rounds"] = rng.randint(max(1, spec.low), min(3, spec.high))
        elif spec.name != "max_turns" and rng.random() < 0.3:
            options[spec.name] = rng.randint(spec.low, min(spec.high, spec.low + 100))
    return options


def sample_states(edition: str, count: int, seed: int) -> Iterator[State]:
    """`count` running states of `edition` from random games: every number of players, early,
    middle and late in the match, every round, every seat to move (with their history)."""
    rng = random.Random(seed)
    ed = engine.get_edition(edition)
    produced = 0
    while produced < count:
        options = _random_options(ed, rng)
        state = engine.new_game(edition, seed=rng.randrange(2**63), players=rng.choice(ed.seats), **options)
        states = []
        while not state.is_terminal():
            states.append(state.copy())
            state.apply(rng.choice(state.legal()))
        for picked in sorted(rng.sample(range(len(states)), min(6, count - produced, len(states)))):
            produced += 1
            yield states[picked]


def _play_checked(bot: Engine, state: State, limits: Limits, timeout: float) -> str:
    """Asks the bot (seated at the mover) for a decision and checks that it is legal."""
    seat = _mover(state)
    view = state.view_text(seat)
    result = bot.play(view, limits, timeout=timeout)
    legal = state.legal_text()
    if result.decision not in legal:
        raise CheckFailed(f"illegal decision {result.decision!r} for seat {seat} (legal: {' '.join(legal)}) "
                          f"in view: {view}")
    return result.decision


def _new_game_for(bot: Engine, state: State, seat: int) -> None:
    bot.new_game(state.edition, state.options, state.num_seats, seat, check=False)


def _expect_silence(bot: Engine, what: str) -> None:
    """Pings and fails if the bot reported an error since the last ping."""
    errors = [i.get("string", "") for i in bot.ping() if is_error_info(i)]
    if errors:
        raise CheckFailed(f"{what} rejected: {errors[0]}")


def _one_error(bot: Engine, line: str) -> None:
    """Sends a bad line and requires exactly one `info string error` line in answer."""
    bot.send(line)
    infos = bot.ping()
    errors = [i for i in infos if is_error_info(i)]
    if len(errors) != 1:
        shown = line if len(line) < 60 else line[:57] + "..."
        raise CheckFailed(f"{shown!r} got {len(errors)} `info string error` lines, expected exactly one")


def _a_position(edition: str, seed: int) -> State:
    """A mid-game state of `edition` (some cards on the table and in the piles)."""
    return next(iter(sample_states(edition, 1, seed)))


def _mover(state: State) -> int:
    """The seat to move in a running state (as `sample_states` gives)."""
    seat = state.to_move
    if seat is None:
        raise ValueError("the match is over: no seat is to move")
    return seat


def _fast(ctx: _Context) -> tuple[Limits, float]:
    c = ctx.config
    return Limits(movetime_ms=c.fast_movetime_ms), (c.fast_movetime_ms + c.margin_ms) / 1000 + c.reply_timeout


# -- the checks ------------------------------------------------------------------------------------
def _check_handshake(ctx: _Context) -> str:
    started = time.perf_counter()
    bot = ctx.start()
    elapsed = time.perf_counter() - started
    ctx.adopt(bot)
    if not bot.editions:
        raise CheckFailed("the editions line lists no edition")
    ctx.editions = bot.editions
    ctx.handshake_ok = True
    unknown = [e for e in bot.editions if e not in engine.EDITIONS]
    protocol = bot.id.get("protocol", "1")
    note = f"; not known to this engine: {' '.join(unknown)}" if unknown else ""
    if bot.wants_legal:
        note += "; asks for its legal decisions with each go"
    return (f"{bot.name!r} by {bot.author!r}, protocol {protocol}, {len(bot.options)} option(s), "
            f"editions {' '.join(bot.editions)}{note}; {elapsed * 1000:.0f} ms")


def _check_isready(ctx: _Context) -> str:
    bot = ctx.bot()
    started = time.perf_counter()
    for _ in range(10):
        bot.ping()
    return f"10 readyok, {(time.perf_counter() - started) * 100:.2f} ms each"


def _check_options(ctx: _Context) -> str:
    bot = ctx.bot()
    for option in bot.options.values():
        default = option.default
        if option.type == "check":
            default = "true" if default else "false"
        bot.send(f"setoption name {option.name} value {default}")
        _expect_silence(bot, f"option {option.name} at its default")
    return f"{len(bot.options)} option(s) set to their defaults"


def _check_bad_options(ctx: _Context) -> str:
    bot = ctx.bot()
    _one_error(bot, "setoption name NoSuchOptionAtAll value 1")
    out_of_range = 0
    for option in bot.options.values():
        if option.type == "spin" and option.max is not None and option.max < 2**62:
            _one_error(bot, f"setoption name {option.name} value {option.max + 1}")
            bot.configure({option.name: option.default})
            out_of_range += 1
    return f"an unknown option{' and out-of-range values' if out_of_range else ''} rejected"


def _check_positions(ctx: _Context, edition: str) -> str:
    bot = ctx.bot()
    limits, timeout = _fast(ctx)
    rounds = set()
    count = 0
    for state in sample_states(edition, ctx.config.positions, ctx.config.seed):
        mover = _mover(state)
        other = (mover + 1) % state.num_seats
        _new_game_for(bot, state, other)  # a view of a seat that is not to move must be accepted too
        bot.position(state.view_text(other))
        _expect_silence(bot, f"position for seat {other} (not to move)")
        _new_game_for(bot, state, mover)
        _play_checked(bot, state, limits, timeout)
        rounds.add(state.round_index)
        count += 1
    return f"{count} positions, rounds {'/'.join(str(r + 1) for r in sorted(rounds))}: every answer legal"


def _check_games(ctx: _Context, edition: str) -> str:
    ed = engine.get_edition(edition)
    limits, timeout = _fast(ctx)
    rng = random.Random(ctx.config.seed + 17)
    decisions = games = 0
    options = {"rounds": 2} if "rounds" in {o.name for o in ed.options} else {}
    for players in ed.seats:
        for _ in range(ctx.config.games):
            state = engine.new_game(edition, seed=rng.randrange(2**63), players=players, **options)
            seats = [ctx.bot()] + [ctx.start() for _ in range(state.num_seats - 1)]
            try:
                for seat, bot in enumerate(seats):
                    bot.new_game(edition, ed.resolve_options(options), state.num_seats, seat)
                while not state.is_terminal():
                    state.apply(_play_checked(seats[_mover(state)], state, limits, timeout))
                    decisions += 1
                for bot in seats:
                    bot.game_over(state.scores(), state.returns(), "normal")
                for bot in seats:
                    _expect_silence(bot, "gameover")
            finally:
                for bot in seats[1:]:
                    bot.quit()
            games += 1
    counts = "/".join(map(str, ed.seats))
    return (f"{games} game(s) of {options.get('rounds', 1)} rounds with {counts} players, {decisions} decisions, "
            "every answer legal")


def _check_movetime(ctx: _Context, edition: str) -> str:
    bot = ctx.bot()
    state = _a_position(edition, ctx.config.seed + 1)
    _new_game_for(bot, state, _mover(state))
    budget = MOVETIME_CHECK_MS
    limit = budget + ctx.config.margin_ms
    result = bot.play(state.view_text(_mover(state)), Limits(movetime_ms=budget),
                      timeout=limit / 1000 + ctx.config.reply_timeout)
    if result.decision not in state.legal_text():
        raise CheckFailed(f"illegal decision {result.decision!r}")
    if result.elapsed_ms > limit:
        raise CheckFailed(f"go movetime {budget} answered after {result.elapsed_ms:.0f} ms (allowed {limit})")
    return f"go movetime {budget}: answered in {result.elapsed_ms:.0f} ms"


def _check_clocks(ctx: _Context, edition: str) -> str:
    bot = ctx.bot()
    state = _a_position(edition, ctx.config.seed + 2)
    seat = _mover(state)
    _new_game_for(bot, state, seat)
    clocks = tuple(1000 + 250 * s for s in range(state.num_seats))
    limits = Limits(clocks_ms=clocks, increments_ms=tuple(100 for _ in clocks))
    result = bot.play(state.view_text(seat), limits, timeout=clocks[seat] / 1000 + ctx.config.reply_timeout)
    if result.decision not in state.legal_text():
        raise CheckFailed(f"illegal decision {result.decision!r} for {format_go(limits)}")
    if result.elapsed_ms > clocks[seat]:
        raise CheckFailed(f"with {clocks[seat]} ms on its clock the bot took {result.elapsed_ms:.0f} ms")
    return f"{clocks[seat]} ms on its clock: answered in {result.elapsed_ms:.0f} ms"


def _check_other_limits(ctx: _Context, edition: str) -> str:
    bot = ctx.bot()
    state = _a_position(edition, ctx.config.seed + 2)
    seat = _mover(state)
    _new_game_for(bot, state, seat)
    view = state.view_text(seat)
    notes = []
    for limits in (Limits(iterations=200), Limits(nodes=500), Limits()):
        result = bot.play(view, limits, timeout=ctx.config.margin_ms / 1000 + ctx.config.reply_timeout)
        if result.decision not in state.legal_text():
            raise CheckFailed(f"illegal decision {result.decision!r} for {format_go(limits)!r}")
        notes.append(f"{result.elapsed_ms:.0f}")
    return "iterations, nodes, no limit: answered in " + "/".join(notes) + " ms"


SEARCHMOVES_ROUNDS = 4
"""Rounds of `go searchmoves` (two decisions, then one) the check asks for."""
SEARCHMOVES_BREADTH = 6
"""Legal decisions the check's position has, where the edition's sample offers that many."""


def _check_searchmoves(ctx: _Context, edition: str) -> str:
    bot = ctx.bot()
    rng = random.Random(ctx.config.seed + 9)
    states = list(sample_states(edition, 50, ctx.config.seed + 9))
    state = max(states, key=lambda s: min(len(s.legal()), SEARCHMOVES_BREADTH))
    seat = _mover(state)
    _new_game_for(bot, state, seat)
    view = state.view_text(seat)
    legal = state.legal_text()
    limits, timeout = _fast(ctx)
    # Four rounds of two decisions then one, so that a bot answering at random among all its legal
    # decisions passes by luck once in thousands of runs (at 6 or more decisions), not once in eight.
    asked = [(first and rnd == 0, rng.sample(legal, size)) for rnd in range(SEARCHMOVES_ROUNDS)
             for first, size in ((True, 2), (False, 1))]
    for first, chosen in asked:
        moves = Limits(movetime_ms=limits.movetime_ms, searchmoves=tuple(chosen))
        try:
            result = bot.play(view, moves, timeout=timeout)
        except SearchRejectedError as why:
            if not first:
                raise CheckFailed(f"refused go searchmoves {' '.join(chosen)} after accepting the first: {why}") from None
            raise CheckSkipped(f"searchmoves not supported (refused with an error line, which the protocol "
                               f"allows): {_first_line(why)}") from None
        if result.decision not in chosen:
            raise CheckFailed(f"go searchmoves {' '.join(chosen)} answered {result.decision!r}")
    illegal = next(text for text in _well_formed_decisions(state) if text not in legal)
    seen = len(bot.ignored)
    _one_error(bot, f"go movetime 10 searchmoves {legal[0]} {illegal}")
    if any(line.startswith("bestmove") for line in bot.ignored[seen:]):
        raise CheckFailed(f"answered bestmove to searchmoves with the illegal {illegal!r}")
    return (f"answers among 2 and 1 of {len(legal)} decisions ({SEARCHMOVES_ROUNDS} times); an illegal one "
            f"({illegal}) refused")


def _check_multipv(ctx: _Context, edition: str) -> str:
    """A bot that announces `MultiPV`: with it at 3, the last report of a search holds lines 1, 2
    and 3, each led by a different legal decision, line 1 by the answer."""
    bot = ctx.bot()
    option = bot.option("MultiPV")
    if option is None:
        raise CheckSkipped("no MultiPV option")
    state = next(s for s in sample_states(edition, 50, ctx.config.seed + 10) if len(s.legal()) >= 4)
    seat = _mover(state)
    _new_game_for(bot, state, seat)
    bot.configure({option.name: 3})
    try:  # enough search for three decisions to have been tried, however fast the checks are
        result = bot.play(state.view_text(seat), Limits(iterations=1000, movetime_ms=1000),
                          timeout=1.0 + ctx.config.reply_timeout)
    finally:
        bot.configure({option.name: option.default})
    lines = result.lines
    firsts = [line.get("pv", ["?"])[0] for line in lines]
    if [line.get("multipv", 1) for line in lines] != [1, 2, 3]:
        raise CheckFailed(f"with MultiPV 3 the last report's lines were ranked {[l.get('multipv', 1) for l in lines]}")
    if len(set(firsts)) != 3 or not set(firsts) <= set(state.legal_text()):
        raise CheckFailed(f"the lines must start with three different legal decisions, got {firsts}")
    if firsts[0] != result.decision:
        raise CheckFailed(f"line 1 starts with {firsts[0]!r}, the answer was {result.decision!r}")
    return f"three lines ({' '.join(firsts)}), line 1 the answer"


def _well_formed_decisions(state: State) -> Iterator[str]:
    """Decision texts of the edition's notation, legal or not (the legal ones of other positions)."""
    for other in sample_states(state.edition, 30, 4242):
        yield from other.legal_text()


def _start_infinite(ctx: _Context, edition: str, seed: int) -> tuple[Engine, State, Search]:
    bot = ctx.bot()
    state = _a_position(edition, seed)
    _new_game_for(bot, state, _mover(state))
    search = bot.start_search(Limits(infinite=True), view=state.view_text(_mover(state)))
    return bot, state, search


def _finish_infinite(ctx: _Context, state: State, search: Search) -> float:
    """Stops an infinite search; returns ms from stop to bestmove, failing if too slow or illegal."""
    stopped = time.perf_counter()
    search.stop()
    result = search.wait(ctx.config.stop_ms / 1000 + ctx.config.reply_timeout)
    took = (time.perf_counter() - stopped) * 1000
    if result.decision not in state.legal_text():
        raise CheckFailed(f"illegal decision {result.decision!r} after stop")
    if took > ctx.config.stop_ms:
        raise CheckFailed(f"bestmove came {took:.0f} ms after stop (allowed {ctx.config.stop_ms})")
    return took


def _check_isready_mid_search(ctx: _Context, edition: str) -> str:
    bot, state, search = _start_infinite(ctx, edition, ctx.config.seed + 3)
    time.sleep(0.05)
    started = time.perf_counter()
    bot.ping(ctx.config.stop_ms / 1000 + ctx.config.reply_timeout)
    took = (time.perf_counter() - started) * 1000
    if search.done:
        raise CheckFailed("bestmove before stop in go infinite")
    if took > ctx.config.stop_ms:
        raise CheckFailed(f"readyok took {took:.0f} ms during the search (allowed {ctx.config.stop_ms})")
    _finish_infinite(ctx, state, search)
    return f"readyok in {took:.1f} ms while searching"


def _check_stop(ctx: _Context, edition: str) -> str:
    bot, state, search = _start_infinite(ctx, edition, ctx.config.seed + 4)
    bot.poll(0.3)  # it must keep searching until told to stop
    if search.done:
        raise CheckFailed("bestmove before stop in go infinite")
    took = _finish_infinite(ctx, state, search)
    return f"no answer for 300 ms, then bestmove {took:.1f} ms after stop; {len(search.info)} info line(s)"


def _bad_lines(state: State, view: str) -> list[str]:
    """Malformed or impossible commands; each must get one error line and change nothing."""
    corrupt_hand = view.replace(" hands=", " hands=zz", 1)
    option = engine.get_edition(state.edition).options[0]
    return [
        "frobnicate the pieces",
        "go movetime soon",
        "go movetime",
        "go nodes -5",
        "go clocks 1000 incs 1/2/3",
        "position",
        f"position {state.edition} garbage",
        "position " + view.replace(" turn=", " turn=x", 1),
        "position " + corrupt_hand,
        "position full " + view,
        "setoption name NoSuchOptionAtAll value 1",
        "setoption value 3",
        "newgame nosuchedition players 2 seat 0",
        f"newgame {state.edition} players {state.num_seats} seat {state.num_seats + 3}",
        f"newgame {state.edition} {option.name}={option.high + 1} players {state.num_seats} seat 0",
        "perft -1",
        "perft 2",  # needs a full position; the bot holds a view
        "gameover nothing",
        "\u00e9\u00e9 \u2603",
        "x" * 65536,  # a bot must accept lines of 64 KiB (docs/protocol.md, section 1)
    ]


def _check_bad_input(ctx: _Context, edition: str) -> str:
    bot = ctx.bot()
    state = _a_position(edition, ctx.config.seed + 5)
    seat = _mover(state)
    view = state.view_text(seat)
    _new_game_for(bot, state, seat)
    bot.position(view, check=True)
    before = _shown(bot)
    lines = _bad_lines(state, view)
    for line in lines:
        _one_error(bot, line)
    after = _shown(bot) if before is not None else None
    if after != before:
        raise CheckFailed(f"the position changed after bad input: was {before!r}, now {after!r}")
    limits, timeout = _fast(ctx)
    result = bot.go(limits, timeout=timeout)
    if result.decision not in state.legal_text():
        raise CheckFailed(f"after bad input the bot answered {result.decision!r}, not legal in the position "
                          "it had before")
    shown = "position unchanged (d); " if before is not None else ""
    return f"{len(lines)} bad lines: one error line each; {shown}still plays legally in the position"


def _shown(bot: Engine) -> str | None:
    """The position the bot shows with `d`, or None when it does not support `d` (an optional
    command: the bot answered it with an error line)."""
    try:
        return bot.show()
    except (EngineTerminatedError, EngineTimeoutError):
        raise
    except EngineError:
        return None


def _check_not_to_move(ctx: _Context, edition: str) -> str:
    bot = ctx.bot()
    state = _a_position(edition, ctx.config.seed + 6)
    other = (_mover(state) + 1) % state.num_seats
    _new_game_for(bot, state, other)
    bot.position(state.view_text(other), check=True)
    _one_error(bot, "go movetime 10")
    if any(line.startswith("bestmove") for line in bot.ignored):
        raise CheckFailed("answered bestmove for a seat that is not to move")
    return "one error line, no bestmove"


def _check_debug(ctx: _Context, edition: str) -> str:
    bot = ctx.bot()
    state = _a_position(edition, ctx.config.seed + 7)
    full = state.to_text()
    bot.position("full " + full, check=True)
    shown = bot.show()
    if shown != "full " + full:
        raise CheckFailed(f"d shows {shown!r}, expected 'full {full}'")
    legal = bot.legal()
    if legal != state.legal_text():
        raise CheckFailed(f"legal lists {' '.join(legal)}; expected {' '.join(state.legal_text())}")
    count = bot.perft(2, timeout=ctx.config.reply_timeout + 10)  # a slow perft is not a fault
    if count != state.perft(2):
        raise CheckFailed(f"perft 2 = {count}, expected {state.perft(2)}")
    view = state.view_text(_mover(state))
    bot.position(view, check=True)
    if bot.show() != view:
        raise CheckFailed("d does not show the view it was given")
    if bot.legal() != state.legal_text():
        raise CheckFailed("legal in a view differs from the engine's")
    return f"d echoes positions and views; legal ({len(legal)}) and perft 2 ({count}) agree with the engine"


def _check_gameover(ctx: _Context, edition: str) -> str:
    bot = ctx.bot()
    state = _a_position(edition, ctx.config.seed + 8)
    _new_game_for(bot, state, 0)
    bot.game_over(state.scores(), state.returns(), "normal")
    _expect_silence(bot, "gameover")
    return "accepted silently"


def _check_quit(ctx: _Context) -> str:
    bot = ctx.bot()
    started = time.perf_counter()
    bot.send("quit")
    try:
        code = bot.process.wait(1.0)
    except subprocess.TimeoutExpired:
        bot.kill()
        raise CheckFailed("still running 1 s after quit (killed)") from None
    ctx.discard()
    return f"exited with status {code} after {(time.perf_counter() - started) * 1000:.0f} ms"

