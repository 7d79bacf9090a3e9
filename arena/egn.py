"""EGN, the portable text record of games (docs/egn.md), in the spirit of chess's PGN: tag pairs,
then the decisions, one per line. Other tools read it without this package; `expeditions export
--format egn` writes it, `expeditions replay FILE.egn` reads it back and replays it.

>>> import engine
>>> state = engine.new_game("classic", seed=4, rounds=1)
>>> start = state.to_text()
>>> decisions = [DecisionRecord(0, state.play("+b9"), 12.5), DecisionRecord(0, state.play("D"), 0.4, 0.5, 800)]
>>> game = GameRecord(0, 0, 0, 0, "classic", {"rounds": 1}, 4, ["you", "greedy"], [0, 0], [0.0, 1.0],
...                   termination="quit", reason="the person left", failed_seat=0, decisions=decisions,
...                   initial_position=start, final_position=state.to_text())
>>> text = format_game(game, event="expeditions play")
>>> print(text.split("[Start")[0] + "..." + text.split("]\\n\\n")[1], end="")  # doctest: +NORMALIZE_WHITESPACE
[Event "expeditions play"]
[Index "0"]
[Group "0"]
[Deal "0"]
[Rotation "0"]
[Edition "classic"]
[Options "rounds=1"]
[Players "2"]
[Seed "4"]
...0 +b9 time=12.5
0 D:gT time=0.4 value=0.5 iterations=800
>>> [g.decisions for g in read_games(text)] == [decisions]
True
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import IO

import engine
from arena.record import DecisionRecord, GameRecord
from engine.options import parse_option_tokens

SUFFIX = ".egn"
"""The file name suffix of EGN files."""

_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9]*) "((?:[^"\\]|\\.)*)"\]')


class RecordError(engine.ExpeditionsError):
    """A text that is not EGN, or a game in it that does not hold together; the message names the
    line."""


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _number(value: float) -> str:
    """A return or a time as short as it reads back exactly: 1, 0.5, 0.3333333333333333."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def format_game(game: GameRecord, event: str = "") -> str:
    """One game as EGN text: its tag pairs, a blank line, its decisions (ends with a newline)."""
    ed = engine.get_edition(game.edition)
    start = engine.parse_position(game.initial_position)
    tags: list[tuple[str, str]] = [("Event", event)] if event else []
    if game.id is not None:
        tags.append(("Game", str(game.id)))
    tags += [("Index", str(game.index)), ("Group", str(game.group)), ("Deal", str(game.deal)),
             ("Rotation", str(game.rotation)), ("Edition", game.edition), ("Options", ed.options_text(game.options)),
             ("Players", str(start.num_seats)), ("Seed", str(game.seed)), ("Start", game.initial_position)]
    tags += [(f"Seat{seat}", name) for seat, name in enumerate(game.seat_bots)]
    tags += [("Scores", "/".join(map(str, game.scores))), ("Result", "/".join(_number(r) for r in game.returns)),
             ("Termination", game.termination)]
    if game.termination != "normal":
        tags += [("Reason", game.reason), ("FailedSeat", str(game.failed_seat))]
    tags += [(key, value) for key, value in (("Started", game.started), ("Finished", game.finished),
                                             ("Worker", game.worker)) if value]
    lines = [f'[{key} "{_quote(value)}"]' for key, value in tags] + [""]
    for d in game.decisions:
        extra = [f"time={_number(d.time_ms)}"]
        if d.value is not None:
            extra.append(f"value={_number(d.value)}")
        if d.iterations is not None:
            extra.append(f"iterations={d.iterations}")
        lines.append(" ".join([str(d.seat), d.decision, *extra]))
    return "\n".join(lines) + "\n"


def write_games(games: Iterable[GameRecord], out: IO[str], event: str = "") -> int:
    """Writes games as EGN to `out`, a blank line between them; returns how many."""
    count = 0
    for game in games:
        out.write(("\n" if count else "") + format_game(game, event))
        count += 1
    return count


def read_games(text: str) -> Iterator[GameRecord]:
    """The games of an EGN text, each checked against the engine: every decision legal for the
    seat to move, what it revealed as the position gives it, and a normal game's scores those of
    its end. RecordError names the line at fault."""
    tags: dict[str, tuple[int, str]] = {}
    moves: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            if moves:  # the next game's tags
                yield _game(tags, moves)
                tags, moves = {}, []
            match = _TAG.fullmatch(line)
            if match is None:
                raise RecordError(f'line {number}: expected a tag pair [Name "value"], got {line[:60]!r}')
            if match.group(1) in tags:
                raise RecordError(f"line {number}: tag {match.group(1)} given twice")
            tags[match.group(1)] = (number, _unquote(match.group(2)))
        else:
            if not tags:
                raise RecordError(f"line {number}: a decision before the tags of a game")
            moves.append((number, line))
    if tags:
        yield _game(tags, moves)


def _game(tags: dict[str, tuple[int, str]], moves: list[tuple[int, str]]) -> GameRecord:
    first = min(number for number, _ in tags.values())

    def tag(name: str, default: str | None = None) -> str:
        if name in tags:
            return tags[name][1]
        if default is None:
            raise RecordError(f"the game of line {first} has no {name} tag")
        return default

    def integer(name: str, default: str | None = None) -> int:
        value = tag(name, default)
        try:
            return int(value)
        except ValueError:
            raise RecordError(f"line {tags[name][0]}: {name} {value!r} is not an integer") from None

    def floats(name: str) -> list[float]:
        try:
            return [float(v) for v in tag(name).split("/")]
        except ValueError:
            raise RecordError(f"line {tags[name][0]}: {name} {tag(name)!r}: expected numbers like 1/0") from None

    try:
        ed = engine.get_edition(tag("Edition"))
        options = parse_option_tokens(ed.options, tag("Options", "").split(), ed.name)
        seed = integer("Seed", "0")
        if "Start" in tags:
            state = engine.parse_position(tag("Start"))
        else:  # a record written by hand: the deal of its seed
            state = ed.new_game(seed, integer("Players", str(ed.check_players(None))), **options)
    except engine.ExpeditionsError as err:
        raise RecordError(f"the game of line {first}: {err}") from None
    if state.edition != ed.name:
        raise RecordError(f"line {tags['Start'][0]}: a start position of {state.edition}, not {ed.name}")
    game = GameRecord(index=integer("Index", "0"), group=integer("Group", "0"), deal=integer("Deal", "0"),
                      rotation=integer("Rotation", "0"), edition=ed.name, options=options, seed=seed,
                      seat_bots=[tag(f"Seat{s}", f"seat {s}") for s in range(state.num_seats)],
                      scores=[int(s) for s in floats("Scores")], returns=floats("Result"),
                      termination=tag("Termination", "normal"), reason=tag("Reason", ""),
                      failed_seat=integer("FailedSeat") if "FailedSeat" in tags else None,
                      initial_position=state.to_text(), started=tag("Started", ""), finished=tag("Finished", ""),
                      worker=tag("Worker", ""), id=integer("Game") if "Game" in tags else None)
    for number, line in moves:
        game.decisions.append(_decision(state, number, line))
    if game.termination == "normal" and game.scores != state.scores():
        raise RecordError(f"the game of line {first} ends normally with scores {tag('Scores')}, but its decisions "
                          f"give {'/'.join(map(str, state.scores()))}")
    game.final_position = state.to_text()
    return game


def _decision(state: engine.State, number: int, line: str) -> DecisionRecord:
    """One decision line, applied to `state` once checked."""
    words = line.split()
    if len(words) < 2 or not words[0].isdigit():
        raise RecordError(f"line {number}: expected '<seat> <decision> [time=… value=… iterations=…]', got "
                          f"{line[:60]!r}")
    seat, text = int(words[0]), words[1]
    if state.to_move != seat:
        raise RecordError(f"line {number}: a decision of seat {seat}, but "
                          f"{'the game is over' if state.to_move is None else f'seat {state.to_move} is to move'}")
    try:
        played = text.split(":", 1)[0]
        recorded = state.record_text(played)
    except engine.ExpeditionsError as err:
        raise RecordError(f"line {number}: {text}: {err}") from None
    if recorded != text:
        raise RecordError(f"line {number}: {text!r}, but the position gives {recorded!r}")
    extra: dict[str, str] = {}
    for word in words[2:]:
        key, sep, value = word.partition("=")
        if not sep or key not in ("time", "value", "iterations") or key in extra:
            raise RecordError(f"line {number}: {word!r}: expected time=, value= or iterations=, each once")
        extra[key] = value
    try:
        record = DecisionRecord(seat, text, float(extra.get("time", "0")),
                                float(extra["value"]) if "value" in extra else None,
                                int(extra["iterations"]) if "iterations" in extra else None)
    except ValueError:
        raise RecordError(f"line {number}: {' '.join(words[2:])!r}: expected numbers") from None
    state.apply(played)
    return record
