"""`expeditions arena`: a tournament between bot processes; `expeditions export`."""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path
from typing import IO, TYPE_CHECKING

import engine
from arena.config import PLAYED, BotSpec, ResourceLimits, TimeControl, TournamentConfig, builtin_bot, usable_cpus
from arena.report import LiveReporter, PlainReporter, failures_text, plot_ratings, standings_text
from arena.sandbox import MODES, SandboxError, absolute_command, check_hidden, describe, resolve_mode
from arena.timing import timing_rows, timing_text
from arena.sprt import parse_sprt
from arena.standings import standings
from arena.tournament import Progress, Tournament
from bots.registry import POLICIES
from expeditions.commands import CommandError
from expeditions.commands.common import bot_argument, master_seed, open_store, raise_keyboard_interrupt, seed_argument
from protocol.stderr import LOG_LIMIT

if TYPE_CHECKING:
    from arena.runner import Runner
    from arena.store import Store

DEFAULT_BOTS = ("ismcts", "greedy", "random")
"""The embedded default field (those of them that are built in)."""
DEFAULT_DEALS = 12
"""Deals of a tournament that does not say (a file: its own default)."""
EMBEDDED_DEALS = 36
"""Deals of the embedded tournament (`expeditions arena` alone, the README's first command): single
rounds of the showcase edition at 50 ms a decision, two at a time, about two minutes on two cores,
and enough pairs for the searcher's lead over greedy to clear its 95% interval."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("arena", help="run a tournament between bot processes",
                       description="Plays a tournament between external bots (UEI over pipes): duplicate "
                                   "deals, time controls, adjudication, results in SQLite, ratings, SPRT. "
                                   "Without bots it plays the built-in ismcts, greedy and random.")
    p.add_argument("file", nargs="?", help="tournament file (TOML, see docs/arena.md)")
    p.add_argument("--edition", "-e", choices=sorted(engine.EDITIONS),
                   help=f"edition (default {engine.default_edition().name}; without bots either, the "
                        f"embedded tournament on {engine.showcase_edition().name})")
    p.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE", help="rule option")
    p.add_argument("--players", type=int, help="number of players (editions with a choice)")
    p.add_argument("--bot", action="append", nargs="+", default=[], metavar="KEY=VALUE",
                   help="a bot: name=NAME cmd=\"COMMAND ARGS\" option.NAME=VALUE, and movetime=MS or clock=MS "
                        "increment=MS for a time control of its own (repeatable)")
    p.add_argument("--format", choices=("round-robin", "gauntlet"), help="pairing format (default round-robin)")
    p.add_argument("--deals", type=int, help="deals per group of bots, each played once per seat rotation "
                                              f"(default {DEFAULT_DEALS}; {EMBEDDED_DEALS} in the embedded tournament)")
    p.add_argument("--positions", metavar="FILE",
                   help="start the deals from the positions of FILE (one full-state position a line, # "
                        "comments) instead of dealing them from seeds; --deals N plays the first N")
    p.add_argument("--seed", type=seed_argument, help="master seed (printed; random if omitted)")
    p.add_argument("--concurrency", "-j", type=int, help="games at once (default: CPU count)")
    p.add_argument("--movetime", type=int, metavar="MS", help="time per decision")
    p.add_argument("--clock", type=int, metavar="MS", help="time per game per seat")
    p.add_argument("--increment", type=int, metavar="MS", help="increment per decision with --clock")
    p.add_argument("--margin", type=int, metavar="MS", help="grace before a timeout forfeit (default 100)")
    p.add_argument("--sprt", metavar="ELO0_ELO1", help="e.g. 'elo0=0 elo1=5 alpha=0.05 beta=0.05': stop early")
    p.add_argument("--max-failures", type=int, help="drop a bot after this many failed games in a row (default 3)")
    p.add_argument("--memory-mb", type=int, help="address-space limit per bot process (default 4096)")
    p.add_argument("--cpu-seconds", type=int, help="CPU-time limit per bot process (default none)")
    p.add_argument("--db", default="arena.sqlite", help="results database (default arena.sqlite)")
    p.add_argument("--resume", nargs="?", const=-1, type=int, metavar="ID",
                   help="continue the latest (or the given) tournament of --db without replaying finished games")
    p.add_argument("--log-dir", help="directory for the bots' stderr logs")
    p.add_argument("--transcript", metavar="DIR",
                   help="write every line between the referee and each bot, timestamped, to DIR: a file per "
                        "game and seat, named in a failed game's termination reason (like cutechess's -debug)")
    p.add_argument("--log-limit", type=int, metavar="KIB", default=LOG_LIMIT // 1024,
                   help=f"KiB of a bot's stderr kept per game in its log; the rest is discarded with a note "
                        f"(default {LOG_LIMIT // 1024})")
    p.add_argument("--sandbox", choices=MODES,
                   help="how bots are confined: landlock (the kernel denies them the database, the logs and "
                        "each other's files), folder (only a working folder of their own), auto (landlock "
                        "where the kernel offers it; the default); see docs/arena.md")
    p.add_argument("--plot", metavar="FILE.png", help="write a PNG of the ratings with intervals")
    p.add_argument("--export", metavar="FILE.jsonl", help="write every game as JSON lines at the end")
    p.add_argument("--processes", action="store_true",
                   help="referee each of the -j games at once in its own worker process (with its own "
                        "bot processes) instead of a thread of the arena: for bots that answer in "
                        "microseconds, whose games the arena's own Python would limit (docs/arena.md)")
    p.add_argument("--pin", action="store_true",
                   help="with --processes: keep each worker and its bots on one CPU (round robin), so "
                        "that the hand-offs of a game never cross cores; for single-threaded bots that "
                        "think in turn (an ISMCTS bot with Threads > 1 would get one core)")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="run the games on this Dask cluster")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress display")
    p.set_defaults(run=run)
    e = sub.add_parser("export", help="write a tournament's games as EGN text records or JSON lines",
                       description="Writes the games of a tournament (or one game) of the results database: as "
                                   "EGN, the portable text record that other tools read without this package "
                                   "(docs/egn.md; `expeditions replay FILE.egn` reads it back), or as JSON lines.")
    e.add_argument("--db", default="arena.sqlite", help="results database (default arena.sqlite)")
    e.add_argument("--tournament", type=int, help="tournament id (default: the latest)")
    e.add_argument("--game", type=int, help="only this game (its id, as replay --game takes it)")
    e.add_argument("--format", choices=("egn", "jsonl"),
                   help="egn or jsonl (default: egn for an --out ending in .egn, else jsonl)")
    e.add_argument("--out", default="-", help="output file (default stdout)")
    e.set_defaults(run=run_export)


def build_config(args: argparse.Namespace) -> TournamentConfig:
    """The tournament from the file (if any) with the command line on top."""
    try:
        config = TournamentConfig.from_toml(args.file) if args.file else None
    except (OSError, ValueError) as err:
        raise CommandError(str(err)) from None
    bots = [bot_argument(tokens, own_time=True) for tokens in args.bot]
    if config is None:
        # The rules are the edition's own (a full match) unless -o says otherwise: one rule with
        # or without -e, with or without bots (docs/arena.md, "What a tournament is").
        config = TournamentConfig(edition=args.edition or engine.default_edition().name,
                                  bots=bots or [builtin_bot(n) for n in DEFAULT_BOTS if n in POLICIES],
                                  deals=DEFAULT_DEALS, concurrency=usable_cpus(), time=TimeControl(movetime_ms=50))
        if not bots and not args.edition:
            # The embedded tournament: single rounds of the edition that shows in two minutes what
            # the searcher does best (the record's `showcase`; -o and the flags still apply).
            showcase = engine.showcase_edition()
            config.edition, config.options, config.deals = showcase.name, dict(showcase.quick_options), EMBEDDED_DEALS
    elif bots:
        config.bots = bots
    if args.edition:
        config.edition = args.edition
    if args.option:
        from engine.options import parse_option_tokens
        record = engine.get_edition(config.edition)
        config.options = {**config.options, **parse_option_tokens(record.options, args.option, record.name)}
    if args.positions is not None:
        from arena.config import game_of, read_positions
        try:
            config.positions = read_positions(args.positions)
        except ValueError as err:
            raise CommandError(f"--positions {err}") from None
        if args.deals is None:
            config.deals = len(config.positions)
        if not args.file:  # what the flags leave out, the positions say (validate checks every one)
            edition, options, players = game_of(config.positions[0])
            if not args.edition:
                config.edition = edition
            if config.edition == edition:  # the rules of another edition would not apply
                if not args.option:
                    config.options = options
                if args.players is None:
                    config.players = players
    for name in ("players", "format", "deals", "concurrency", "max_failures"):
        if getattr(args, name) is not None:
            setattr(config, name, getattr(args, name))
    if args.seed is not None:
        config.seed = args.seed
    elif not args.file or "seed" not in _toml_keys(args.file):
        config.seed = master_seed(None)
    try:
        if args.movetime is not None or args.clock is not None:
            config.time = TimeControl(movetime_ms=args.movetime, clock_ms=args.clock,
                                      increment_ms=args.increment or 0, margin_ms=config.time.margin_ms)
        elif args.increment is not None:
            config.time.increment_ms = args.increment  # the file's clock, if it has one
        if args.margin is not None:
            config.time.margin_ms = args.margin
        if args.memory_mb is not None:
            config.limits.memory_mb = args.memory_mb
        if args.cpu_seconds is not None:
            config.limits.cpu_seconds = args.cpu_seconds
        if args.sandbox is not None:
            config.limits.sandbox = args.sandbox
        if args.sprt:
            config.sprt = parse_sprt(args.sprt)
        config.validate()  # every field, whoever set it: the file, the defaults or the flags above
    except ValueError as err:
        raise CommandError(str(err)) from None
    return config


def _toml_keys(path: str) -> set[str]:
    import tomllib
    with open(path, "rb") as f:
        return set(tomllib.load(f))


def _require(module: str, extra: str, flag: str) -> None:
    import importlib.util

    from engine.errors import missing_extra
    if importlib.util.find_spec(module) is None:
        raise CommandError(missing_extra(module, extra, flag))


def _runner(config: TournamentConfig, args: argparse.Namespace) -> Runner:
    if args.scheduler:
        from arena.cluster import DaskRunner
        try:
            return DaskRunner(args.scheduler, config.bots, config.limits,
                              config.concurrency if args.concurrency else None)
        except (OSError, ValueError, RuntimeError) as err:  # no answer, a malformed address, no workers
            raise CommandError(f"--scheduler {args.scheduler}: {err}") from None
    from arena.runner import LocalRunner, ProcessRunner
    log_limit = args.log_limit * 1024
    if args.processes:
        return ProcessRunner(config.bots, config.limits, config.concurrency, args.log_dir, pin_cpus=args.pin,
                             log_limit=log_limit)
    if args.pin:
        raise CommandError("--pin needs --processes (threads of one arena process cannot be pinned apart)")
    return LocalRunner(config.bots, config.limits, config.concurrency, args.log_dir, log_limit)


def run(args: argparse.Namespace) -> int:
    if args.plot:
        _require("matplotlib", "plot", "--plot")
    if args.scheduler:
        _require("distributed", "cluster", "--scheduler")
    _check_outputs(args)
    if args.resume is not None:
        _check_nothing_to_change(args)
    config = build_config(args) if args.resume is None else None
    store, resumed = None, None
    if config is None:
        store = open_store(args.db)  # resuming reads the database: never create an empty one
        try:
            tid, config, _, status = store.tournament(None if args.resume < 0 else args.resume, skip_format=PLAYED)
        except LookupError as err:
            raise CommandError(str(err)) from None
        if config.format == PLAYED:
            raise CommandError(f"tournament {tid} is a game played with `expeditions play`: there is nothing to resume")
        store.claim(tid)  # before anything is started: another arena playing it is named at once
        if args.concurrency:
            config.concurrency = args.concurrency
        if args.sandbox is not None:  # how the bots are run, not what the tournament is
            config.limits.sandbox = args.sandbox
        resumed = tid, status
    if args.transcript is not None:
        config.transcript = args.transcript
    if config.transcript:
        try:
            Path(config.transcript).mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise CommandError(f"transcript directory {config.transcript}: {err.strerror}") from None
    confinement = "the cluster's workers confine the bots as each can"
    if not args.scheduler:  # a cluster's workers start the bots: what they can run is theirs to check
        mode = _confinement(config, args)
        _check_bots(config.bots, config.edition, config.limits, mode)
        confinement = describe(mode)
    # The runner first: a cluster that does not answer is named before a tournament is stored.
    runner = _runner(config, args)
    try:
        return _play(args, config, runner, store, resumed, confinement)
    finally:
        runner.close()


def _play(args: argparse.Namespace, config: TournamentConfig, runner: Runner, store: Store | None,
          resumed: tuple[int, str] | None, confinement: str = "") -> int:
    """Plays the tournament on `runner` — a new one, or with `resumed` (its id and status) the
    one of `store` — then prints and writes what it found."""
    if resumed is not None:
        assert store is not None  # a tournament to resume comes with its store
        tid, status = resumed
        try:
            tournament = Tournament(config, store, tid)
        except ValueError as err:  # stored by an earlier version under looser checks
            raise CommandError(f"tournament {tid} cannot be resumed: {err}") from None
        print(f"arena: resuming tournament {tid} ({status}) in {args.db}", file=sys.stderr)
    else:
        store = open_store(args.db, create=True)
        try:
            tournament = Tournament(config, store)
        except ValueError as err:  # a schedule the bots cannot fill (e.g. more seats than bots)
            raise CommandError(str(err)) from None
    c = tournament.config
    print(f"arena: tournament {tournament.id} {c.edition} {engine.get_edition(c.edition).options_text(c.options)} "
          f"players={len(tournament.sides)} {c.format} deals={c.deals}{' (start positions)' if c.positions else ''} "
          f"games={tournament.schedule.total()} "
          f"seed={c.seed} {c.time.describe()} concurrency={c.concurrency} db={args.db}")
    print("arena: bots " + ", ".join(f"{b.name}=[{' '.join(b.command)}]{' ' + b.time.describe() if b.time else ''}"
                                     for b in c.bots))
    if confinement:
        print(f"arena: {confinement}")
    if c.sprt is not None:
        print(f"arena: SPRT {c.sprt.describe()} bounds {c.sprt.bounds[0]:.2f} {c.sprt.bounds[1]:.2f}")
    reporter = None
    if not args.quiet:
        reporter = LiveReporter(tournament.schedule.total(), f"{c.edition}") if sys.stderr.isatty() else PlainReporter()

    margins = engine.get_edition(c.edition).rules.margin  # scores are points, not places in a race

    def progress(p: Progress) -> None:
        if reporter is not None:
            note = f"SPRT LLR {p.sprt_llr:.2f}" if p.sprt_llr is not None else ""
            if p.dropped:
                note += f"  dropped: {', '.join(p.dropped)}"
            reporter.update(p.done, p.planned, standings(p.games, tournament.sides, margins=margins), note)

    previous = signal.signal(signal.SIGTERM, raise_keyboard_interrupt)
    try:
        outcome = tournament.run(runner, progress)
    except KeyboardInterrupt:
        tournament.stop()
        print(f"\narena: interrupted; the games of every deal played to the end are saved (a deal's games are "
              f"kept together); continue with --resume {tournament.id} --db {args.db}", file=sys.stderr)
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous)
        if reporter is not None:
            reporter.close()
    st = standings(outcome.games, tournament.sides, margins=margins)
    print(standings_text(st))
    failed = failures_text(outcome.games)
    if failed:
        print(failed)
    timed = store.games(outcome.tournament, with_decisions=True)  # resumed games too
    print(timing_text(timing_rows(timed, c.time, {b.name: b.time for b in c.bots}), c.time.margin_ms))
    print(f"arena: {outcome.status}; {len(outcome.games) - outcome.unkept} of {outcome.planned} games in {args.db} "
          f"(tournament {outcome.tournament})"
          + (f"; {outcome.unkept} games of deals left unfinished are not kept" if outcome.unkept else ""))
    if outcome.dropped:
        print(f"arena: dropped after repeated failures: {', '.join(outcome.dropped)}")
    written = True
    try:
        if args.plot:
            plot_ratings(st, args.plot, f"{c.edition}: {len(outcome.games)} games")
            print(f"arena: plot written to {args.plot}")
        if args.export:
            with open(args.export, "w") as f:
                store.export_jsonl(outcome.tournament, f)
            print(f"arena: games written to {args.export}")
    except OSError as err:  # checked before playing, but a disk can fill or a directory go
        print(f"arena: could not write {err.filename}: {err.strerror}; the games are in {args.db} "
              f"(expeditions export --db {args.db} --tournament {outcome.tournament})", file=sys.stderr)
        written = False
    store.close()
    return 0 if written else 1


TOURNAMENT_FLAGS = {"file": "a tournament file", "edition": "--edition", "option": "--option", "players": "--players",
                    "bot": "--bot", "format": "--format", "deals": "--deals", "positions": "--positions", "seed": "--seed",
                    "movetime": "--movetime", "clock": "--clock", "increment": "--increment", "margin": "--margin",
                    "sprt": "--sprt", "max_failures": "--max-failures", "memory_mb": "--memory-mb",
                    "cpu_seconds": "--cpu-seconds"}
"""The flags that define a tournament (what --resume restores from the database as it was)."""


def _check_nothing_to_change(args: argparse.Namespace) -> None:
    """--resume plays the stored tournament as it was stored: a flag that would change it is an
    error, not silently ignored (only how it is run may change: -j, the runner, the outputs)."""
    given = [flag for dest, flag in TOURNAMENT_FLAGS.items() if getattr(args, dest) not in (None, [])]
    if given:
        raise CommandError(f"--resume continues the stored tournament unchanged; {', '.join(given)} "
                           f"cannot change it (start a new tournament instead)")


def _check_outputs(args: argparse.Namespace) -> None:
    """Names an output the tournament could not write before any game is played, not after."""
    for flag, path in (("--plot", args.plot), ("--export", args.export)):
        if path is None:
            continue
        target = Path(path)
        folder = target.parent if str(target.parent) else Path(".")
        if target.is_dir() or not folder.is_dir() or not os.access(folder, os.W_OK):
            raise CommandError(f"{flag} {path}: cannot write there (no such directory, or not writable)")
    if args.log_limit < 0:
        raise CommandError(f"--log-limit must be at least 0 KiB, got {args.log_limit}")
    if args.log_dir is not None:
        try:
            Path(args.log_dir).mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise CommandError(f"--log-dir {args.log_dir}: {err.strerror}") from None


def _confinement(config: TournamentConfig, args: argparse.Namespace) -> str:
    """The sandbox mode the bots will run in; under Landlock, CommandError if a bot could still
    read the database or the logs (they lie in a folder it may read)."""
    try:
        mode = resolve_mode(config.limits.sandbox)
        if mode == "landlock":
            hidden: dict[str, str] = {"the results database": args.db}
            if args.log_dir is not None:
                hidden["the logs"] = args.log_dir
            check_hidden(hidden, {bot.name: absolute_command(bot.command) for bot in config.bots})
    except SandboxError as err:
        raise CommandError(str(err)) from None
    return mode


def _check_bots(bots: list[BotSpec], edition: str, limits: ResourceLimits, mode: str = "folder") -> None:
    """Starts each bot once, as the games will (through the launcher, within the resource
    limits), and names the first that cannot play: a program that does not start, a failed
    handshake, an option it refuses (name or value, e.g. a Hash above the memory limit), an
    edition it does not play. Otherwise every game of that bot would be forfeited for the same
    reason."""
    from concurrent.futures import ThreadPoolExecutor

    from arena.pool import launch_argv
    from protocol.client import Engine
    from protocol.errors import EngineError

    def problem(bot: BotSpec) -> str | None:
        if shutil.which(bot.command[0]) is None:
            return f"cannot run {bot.command[0]!r} (not found, or not executable)"
        with tempfile.TemporaryDirectory(prefix="expeditions-check-") as folder:
            try:
                with Engine.start(launch_argv(absolute_command(bot.command), limits, folder, mode),
                                  options=bot.options) as engine:
                    if edition not in engine.editions:
                        return f"it does not play {edition} (it plays {', '.join(engine.editions) or 'nothing'})"
            except EngineError as err:
                return str(err)
        return None

    with ThreadPoolExecutor(max_workers=min(8, len(bots))) as pool:
        for bot, found in zip(bots, pool.map(problem, bots)):
            if found is not None:
                raise CommandError(f"bot {bot.name}: {found}")


def run_export(args: argparse.Namespace) -> int:
    from arena.egn import SUFFIX, write_games

    store = open_store(args.db)
    try:
        games = [store.game(args.game)] if args.game is not None else None
        tid, config, _, _ = store.tournament(store.tournament_of(args.game) if args.game is not None
                                             else args.tournament)
    except LookupError as err:
        raise CommandError(str(err)) from None
    form = args.format or ("egn" if args.out.endswith(SUFFIX) else "jsonl")
    event = "expeditions play" if config.format == PLAYED else f"expeditions arena, tournament {tid}"

    def write(out: IO[str]) -> int:
        if form == "jsonl" and games is None:
            return store.export_jsonl(tid, out)
        chosen = games if games is not None else store.iter_games(tid)
        if form == "jsonl":
            out.writelines(json.dumps(g.to_dict(), sort_keys=True) + "\n" for g in chosen)
            return len(games or [])
        return write_games(chosen, out, event)

    if args.out == "-":
        count = write(sys.stdout)
    else:
        try:
            f = open(args.out, "w")
        except OSError as err:
            raise CommandError(f"--out {args.out}: {err.strerror}") from None
        with f:
            count = write(f)
    what = f"game {args.game}" if args.game is not None else f"{count} games of tournament {tid}"
    print(f"export: {what} as {form}", file=sys.stderr)
    return 0
