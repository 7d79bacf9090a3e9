"""`expeditions list`: the tournaments and games of a results database, with their ids.

    expeditions list --db arena.sqlite                 # every tournament, each with its games
    expeditions list --db arena.sqlite --tournament 2  # one tournament and its games
    expeditions list --db arena.sqlite --no-games      # the tournaments only
"""
from __future__ import annotations

import argparse
from collections.abc import Iterator

import engine
from arena.record import GameRecord
from arena.store import TournamentEntry
from expeditions.commands import CommandError
from expeditions.commands.common import open_store

REASON_SHOWN = 100
"""Characters of a failed game's reason on its line (`expeditions replay --game ID` shows the game)."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("list", help="list the tournaments and games of a results database",
                       description="Lists each tournament of a results database (its id, when it was made, "
                                   "its game, format, bots, games recorded of those planned, and status), each "
                                   "followed by its games: id, deal, seat rotation, the bot of each seat, "
                                   "scores, and how the game ended (with the reason when a bot failed). The "
                                   "ids are those of `arena --resume ID`, `replay --game ID`, `analyse --game "
                                   "ID` and `export --tournament ID`.")
    p.add_argument("--db", default="arena.sqlite", help="results database (default arena.sqlite)")
    p.add_argument("--tournament", type=int, metavar="ID", help="only this tournament")
    p.add_argument("--no-games", action="store_true", help="the tournaments only, without their games")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    store = open_store(args.db)
    try:
        entries = store.tournaments()
        if args.tournament is not None:
            entries = [t for t in entries if t.id == args.tournament]
            if not entries:
                raise CommandError(f"no tournament {args.tournament} in {args.db}")
        if not entries:
            print(f"{args.db}: no tournaments")
        for entry in entries:
            print(tournament_line(entry))
            if not args.no_games:
                for line in game_lines(store.games(entry.id)):
                    print(line)
    finally:
        store.close()
    return 0


def tournament_line(t: TournamentEntry) -> str:
    """One tournament: id, creation time, game, format, bots, games recorded of those planned, status.

    >>> from arena.config import BotSpec, TournamentConfig
    >>> c = TournamentConfig("classic", [BotSpec("a", ["x"]), BotSpec("b", ["y"])], {"rounds": 1}, players=2)
    >>> tournament_line(TournamentEntry(3, "2025-01-02T10:00:00.000+00:00", c, 20, "finished", "", 20))
    'tournament 3  2025-01-02 10:00  classic rounds=1 players=2  round-robin  bots a, b  20 of 20 games  finished'
    """
    c = t.config
    try:
        edition = engine.get_edition(c.edition)
        options = edition.options_text({o.name: c.options[o.name] for o in edition.options if o.name in c.options})
    except engine.UnknownEditionError:  # an edition this version does not have: show what is stored
        options = " ".join(f"{k}={v}" for k, v in c.options.items())
    game = " ".join(part for part in (c.edition, options, f"players={c.players}" if c.players else "") if part)
    note = f" ({t.note})" if t.note else ""
    return (f"tournament {t.id}  {t.created[:16].replace('T', ' ')}  {game}  {c.format}  "
            f"bots {', '.join(b.name for b in c.bots)}  {t.recorded} of {t.planned} games  {t.status}{note}")


def game_lines(games: list[GameRecord]) -> Iterator[str]:
    """A header, then one line per game (nothing for a tournament without games).

    >>> g = GameRecord(0, 0, 4, 1, "classic", {}, 9, ["b", "a"], [12, -3], [1.0, 0.0], id=17)
    >>> print("\\n".join(game_lines([g])))
       game   deal  rot  seats                      scores        ended
         17      4    1  b / a                      12/-3         normal
    """
    if not games:
        return
    yield f"  {'game':>5}  {'deal':>5}  {'rot':>3}  {'seats':<25}  {'scores':<12}  ended"
    for g in games:
        ended = g.termination
        if g.failed_seat is not None:
            reason = " ".join(g.reason.split())
            reason = reason if len(reason) <= REASON_SHOWN else reason[:REASON_SHOWN] + "…"
            ended += f" of seat {g.failed_seat} ({g.seat_bots[g.failed_seat]}): {reason}"
        yield (f"  {g.id:>5}  {g.deal:>5}  {g.rotation:>3}  {' / '.join(g.seat_bots):<25}  "
               f"{'/'.join(map(str, g.scores)):<12}  {ended}")
