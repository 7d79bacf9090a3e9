"""EGN, the portable game record (docs/egn.md): `expeditions export --format egn` writes it and
`expeditions replay FILE.egn` reads it back, for every edition; a damaged record is refused with
the line at fault."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import engine
from arena.egn import RecordError, format_game, read_games, write_games
from arena.play import PlaySettings, keep_game
from arena.record import DecisionRecord, GameRecord
from arena.replay import replay_lines
from arena.config import builtin_bot
from arena.store import Store
from expeditions.cli import main
from helpers import edition_cases, short_options
from protocol.limits import Limits


def random_game(edition: str, players: int | None, seed: int, forfeit: bool = False) -> GameRecord:
    """A game of random decisions as the referee records it (reveals, times, some estimates)."""
    rng = random.Random(seed)
    options = short_options(edition)
    state = engine.new_game(edition, seed=seed, players=players, **options)
    game = GameRecord(index=seed, group=1, deal=2, rotation=1, edition=edition, options=options, seed=seed,
                      seat_bots=[f"bot {s}" for s in range(state.num_seats)], scores=[], returns=[],
                      initial_position=state.to_text(), started="2025-01-01T10:00:00.000+00:00")
    while not state.is_terminal() and not (forfeit and len(game.decisions) == 30):
        seat = state.to_move
        estimate = (rng.random(), rng.randrange(1, 10**6)) if rng.random() < 0.5 else (None, None)
        game.decisions.append(DecisionRecord(seat, state.play(rng.choice(state.legal())), round(rng.random() * 50, 3),
                                             *estimate))
    game.scores, game.returns = state.scores(), state.returns()
    if forfeit:
        game.termination, game.reason, game.failed_seat = "timeout", 'no "decision" within 50 ms', state.to_move
        game.returns = [1 / 3 if s != state.to_move else 0.0 for s in range(state.num_seats)]
    game.final_position = state.to_text()
    return game


@pytest.mark.parametrize("case", edition_cases(), ids=lambda c: c.id)
def test_round_trip_in_every_edition(case) -> None:
    games = [random_game(case, case.players, seed) for seed in (1, 2)] + [random_game(case, case.players, 3, True)]
    games[0].id = 17
    text = "".join(format_game(g, "a test") + "\n" for g in games)
    back = list(read_games(text))
    assert [g.to_dict() for g in back] == [g.to_dict() for g in games]
    for game in back:
        assert list(replay_lines(game, pictures=False))[-1].startswith("ended ")


def test_export_and_replay_commands(tmp_path: Path, capsys) -> None:
    """A game of `expeditions play` kept in a database, exported as EGN, replayed from the file as
    from the database."""
    game = random_game("classic", None, 5)
    store = Store(str(tmp_path / "g.sqlite"))
    game_id = keep_game(store, PlaySettings("classic", game.options, None, 5, 0, [builtin_bot("greedy")],
                                            Limits(iterations=10)), game)
    store.close()
    out = tmp_path / "games.egn"
    assert main(["export", "--db", str(tmp_path / "g.sqlite"), "--out", str(out)]) == 0
    assert "export: 1 games of tournament 1 as egn" in capsys.readouterr().err
    assert out.read_text().startswith('[Event "expeditions play"]\n[Game "1"]\n')
    assert main(["replay", "--db", str(tmp_path / "g.sqlite"), "--game", str(game_id), "--brief"]) == 0
    from_db = capsys.readouterr().out
    assert main(["replay", str(out), "--brief"]) == 0
    assert capsys.readouterr().out == from_db
    assert main(["replay", str(out), "--game", "2"]) == 2
    assert "holds 1 game(s); --game 2 is not one of them" in capsys.readouterr().err


def test_write_games_separates_games() -> None:
    import io
    out = io.StringIO()
    assert write_games([random_game("classic", None, s) for s in (1, 2)], out) == 2
    assert out.getvalue().count("\n\n[Index") == 1 and len(list(read_games(out.getvalue()))) == 2


@pytest.mark.parametrize("damage, message", [
    (lambda t: t.replace('[Edition "classic"]', '[Edition "chess"]'), "unknown edition"),
    (lambda t: t.replace("\n0 ", "\n1 ", 1), "a decision of seat 1, but seat 0 is to move"),
    (lambda t: t.replace("D:", "D:zz", 1), "but the position gives"),
    (lambda t: t.replace('[Scores "', '[Scores "1', 1), "expected numbers"),
    (lambda t: t.replace('[Scores "-', '[Scores "', 1).replace('[Scores "', '[Scores "1', 1), "ends normally with scores"),
    (lambda t: t.replace('[Seed', '[Seed bad', 1), "expected a tag pair"),
    (lambda t: t.replace(" time=", " clock=", 1), "expected time=, value= or iterations="),
    (lambda t: t.split("\n\n", 1)[1], "a decision before the tags"),
])
def test_a_damaged_record_names_the_line(damage, message) -> None:
    text = damage(format_game(random_game("classic", None, 4)))
    with pytest.raises(RecordError, match=message):
        list(read_games(text))


def test_a_record_written_by_hand_deals_from_its_seed() -> None:
    state = engine.new_game("classic", seed=9, rounds=1)
    first = state.legal_text()[0]
    text = f'[Edition "classic"]\n[Options "rounds=1"]\n[Seed "9"]\n[Scores "0/0"]\n[Result "0.5/0.5"]\n' \
           f'[Termination "abort"]\n[FailedSeat "0"]\n\n0 {first}\n'
    (game,) = read_games(text)
    assert game.initial_position == state.to_text() and game.decisions[0].decision == first
