"""`expeditions play`: a person (here a script) against bot processes, seeing only their view."""
from __future__ import annotations

import random
import re
import subprocess

import pytest

import engine
from arena.config import builtin_bot
from arena.play import PlaySettings, Quit, play_game, review_lines
from arena.replay import replay_lines
from protocol.limits import Limits
from protocol.local import expeditions_argv
from helpers import random_state


class ScriptedPerson:
    """Answers from the last `legal:` line it was shown, after trying some bad input first."""

    def __init__(self, seed: int, bad_first: list[str] | None = None, quit_after: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.shown: list[str] = []
        self.styles: list[str] = []
        self.pending = list(bad_first or [])
        self.asked = 0
        self.quit_after = quit_after

    def show(self, text: str, style: str = "") -> None:
        self.shown.extend(text.splitlines() or [""])
        self.styles.extend([style] * max(1, len(text.splitlines())))

    def ask(self, prompt: str) -> str | None:
        self.asked += 1
        if self.quit_after is not None and self.asked > self.quit_after:
            return None
        if self.pending:
            return self.pending.pop(0)
        legal = next(line for line in reversed(self.shown) if line.startswith("legal: ")).split()[1:]
        return self.rng.choice(legal)


def settings(edition: str, seat: int, players: int | None = None, **options: int) -> PlaySettings:
    return PlaySettings(edition=edition, options=options, players=players, seed=11, seat=seat,
                        bots=[builtin_bot("random")], limits=Limits(movetime_ms=5), advisor=builtin_bot("greedy"),
                        advisor_limits=Limits(movetime_ms=5))


@pytest.mark.parametrize("edition,players,seat", [("classic", None, 1), ("partners", None, 2),
                                                  ("expedition", None, 0), ("board", 3, 1)])
def test_a_whole_game_against_bots(edition: str, players: int | None, seat: int) -> None:
    person = ScriptedPerson(seed=3, bad_first=["zz", "", "legal", "hint", "table", "help"])
    outcome = play_game(settings(edition, seat, players, rounds=2), person)
    state = outcome.state
    assert state.is_terminal() and len(outcome.record.decisions) > 20
    assert sum(1 for line in person.shown if line.startswith("round ") and " over: " in line) == 2
    assert any(line.startswith("'zz' is not a decision") for line in person.shown)
    hint = next(line for line in person.shown if line.startswith("greedy suggests "))
    assert re.fullmatch(r"greedy suggests \S+", hint)
    word = {1.0: "won", 0.0: "lost", 0.5: "drew"}.get(outcome.result)
    assert person.shown[-1].startswith(f"you {word}" if word else "you scored")


def test_the_record_replays_and_the_advisor_reviews_the_persons_decisions() -> None:
    person = ScriptedPerson(seed=8)
    outcome = play_game(settings("classic", 1, rounds=1), person)
    record = outcome.record
    assert record.seat_bots == ["random", "you"] and record.scores == outcome.state.scores()
    assert list(replay_lines(record, pictures=False))[-1].startswith("ended normally")  # every decision checks
    assert any(d.decision.startswith("D:") for d in record.decisions if d.seat == 0)  # the record holds the cards
    lines = list(review_lines(outcome, builtin_bot("greedy"), Limits(movetime_ms=5)))
    assert lines[0] == "review by greedy of seat 1's decisions (* : not the bot's choice)"
    rows = [line.split() for line in lines[2:-1]]
    person_choices = [d for d in record.decisions if d.seat == 1]
    assert rows and all(row[1] == "1" for row in rows) and len(rows) <= len(person_choices)
    assert lines[-1].startswith(f"seat 1: {len(rows)} decisions, ")


@pytest.mark.parametrize("edition,players", [("classic", None), ("partners", None), ("board", 4)])
def test_the_person_sees_only_their_view(edition: str, players: int | None) -> None:
    """Bots' draws from the draw pile read `D`, passes between opponents `>?`; the person's own
    draws show their card."""
    seat = 1
    person = ScriptedPerson(seed=5)
    play_game(settings(edition, seat, players, rounds=1), person)
    decisions = [line.split(": ", 1) for line in person.shown if line.startswith("  seat ")]
    others = [text for who, text in decisions if not who.startswith(f"  seat {seat} ")]
    own = [text for who, text in decisions if who.startswith(f"  seat {seat} ")]
    assert others and own
    assert not any(text.startswith("D:") for text in others)
    assert any(text.startswith("D:") for text in own)
    if edition == "partners":
        assert ">?" in others  # seats 0 and 2 pass to each other, seen by seat 1 as opponents


@pytest.mark.parametrize("edition,players", [("classic", None), ("partners", None), ("expedition", None),
                                             ("board", 3)])
def test_a_seats_picture_depends_on_its_view_alone(edition: str, players: int | None) -> None:
    """What the person is shown (`pretty(seat)`) is the same for the true position and for any
    position the seat's view allows: nothing hidden can reach it."""
    rng = random.Random(edition)
    for game in range(4):
        state = random_state(edition, game, rng.randrange(5, 60), players=players)
        for seat in range(state.num_seats):
            other = state.determinized(seat, seed=game)
            assert other.to_text() != state.to_text()
            assert other.pretty(seat) == state.pretty(seat)


def test_the_previous_rounds_history_keeps_the_decision_that_ended_it() -> None:
    state = engine.new_game("classic", seed=4, rounds=2, max_turns=6)
    before = []
    while state.round_index == 0:
        before = [state.history(s) for s in range(2)]
        mover, decision = state.to_move, state.legal()[-1]
        record = state.record_text(decision)
        state.apply(decision)
    for seat in range(2):
        kept = state.history(seat, previous=True)
        assert kept[:-1] == before[seat]
        assert kept[-1] == (record if seat == mover else record.split(":")[0])
    assert state.history() == [] and state.copy().history(0, previous=True) == state.history(0, previous=True)


def test_quitting_ends_the_game_and_its_bots() -> None:
    person = ScriptedPerson(seed=1, quit_after=3)
    started = []

    def start(spec):
        from protocol.client import Engine
        bot = Engine.start(spec.command, options=spec.options)
        started.append(bot)
        return bot

    with pytest.raises(Quit) as left:
        play_game(settings("classic", 0), person, start=start)
    assert started and all(bot.returncode is not None for bot in started)
    # The game as far as it went: a loss of the person's side, and a record that replays.
    outcome = left.value.outcome
    record = outcome.record
    assert record.termination == "quit" and record.failed_seat == 0 and record.returns == [0.0, 1.0]
    assert 0 < len(record.decisions) and not outcome.state.is_terminal()
    assert record.final_position == outcome.state.to_text()
    assert list(replay_lines(record, pictures=False))[-1].startswith("ended by quit of seat 0: the person left")


def test_a_kept_game_replays_and_an_arena_resumes_around_it(tmp_path) -> None:
    from arena.config import PLAYED, TournamentConfig
    from arena.play import keep_game
    from arena.store import Store

    store = Store(tmp_path / "r.sqlite")
    arena_tid = store.create_tournament(TournamentConfig("classic", [builtin_bot("random"), builtin_bot("greedy")]), 4)
    game = settings("partners", 1, rounds=1)
    outcome = play_game(game, ScriptedPerson(seed=4))
    game_id = keep_game(store, game, outcome.record)
    tid, config, planned, status = store.tournament()
    assert tid != arena_tid and config.format == PLAYED and planned == 1 and status == "played"
    assert [b.name for b in config.bots] == ["you", "random"] and config.players == 4
    assert store.tournament(skip_format=PLAYED)[0] == arena_tid  # what `arena --resume` finds
    kept = store.game(game_id)
    assert kept.seat_bots == ["random", "you", "random", "random"] and kept.decisions == outcome.record.decisions
    lines = list(replay_lines(kept, pictures=False))
    assert lines[0].endswith("  seed 11") and lines[-1].startswith("ended normally")  # its deal is its seed's


def test_the_command_at_a_terminal() -> None:
    done = subprocess.run(expeditions_argv("play", "--bot", "random", "--no-hints", "--seed", "3", "-o", "rounds=1"),
                          input="zz\n+y1\nhint\nquit\n", capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "classic rounds=1" in out and "seed 3" in out and "seat 0* hand" in out
    assert "'zz' is not a decision" in out and "no advisor" in out
    assert "play: game left unfinished (seed 3)" in out


def test_the_command_plays_a_game_to_its_end_and_reviews_it() -> None:
    state = engine.new_game("classic", seed=3, rounds=1, max_turns=2)  # one turn each
    first = state.legal_text()[0]
    done = subprocess.run(expeditions_argv("play", "--bot", "random", "--advisor", "greedy", "--movetime", "5",
                                           "--seed", "3", "-o", "rounds=1", "-o", "max_turns=2"),
                          input=f"{first}\nreview\n", capture_output=True, text=True, timeout=60)  # D: taken
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    # (a prompt and the next line share a line: input typed into a pipe is not echoed)
    assert any(line.endswith(f"  seat 0 (you): {first}") for line in out)
    assert any(line.startswith("you ") for line in out) and "play: seed 3, 4 decisions" in out
    start = next(i for i, line in enumerate(out) if line.endswith("review by greedy of seat 0's decisions "
                                                                   "(* : not the bot's choice)"))
    assert out[start + 2].split()[:3] == ["0", "0", first] and out[-1].startswith("seat 0: 1 decisions")


def test_the_command_keeps_the_game_for_replay_and_review(tmp_path) -> None:
    db = str(tmp_path / "games.sqlite")
    state = engine.new_game("classic", seed=3, rounds=1, max_turns=2)
    first = state.legal_text()[0]
    play = ["play", "--bot", "random", "--no-hints", "--movetime", "5", "--seed", "3", "-o", "rounds=1",
            "--db", db]
    done = subprocess.run(expeditions_argv(*play, "-o", "max_turns=2"), input=f"{first}\nD\n",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert f"play: kept as game 1 in {db} (expeditions replay --db {db} --game 1)" in done.stdout
    left = subprocess.run(expeditions_argv(*play), input=f"{first}\nquit\n", capture_output=True, text=True,
                          timeout=60)
    assert left.returncode == 0 and "play: game left unfinished (seed 3)" in left.stdout
    assert f"kept as game 2 in {db}" in left.stdout
    replay = subprocess.run(expeditions_argv("replay", "--db", db, "--game", "1", "--brief"), capture_output=True,
                            text=True, timeout=60)
    assert replay.returncode == 0 and f"seat 0 (you): {first}" in replay.stdout and "ended normally" in replay.stdout
    replay = subprocess.run(expeditions_argv("replay", "--db", db, "--game", "2", "--brief"), capture_output=True,
                            text=True, timeout=60)
    assert replay.returncode == 0 and "ended by quit of seat 0" in replay.stdout
    review = subprocess.run(expeditions_argv("analyse", "--db", db, "--game", "1", "--review", "--seat", "0",
                                             "--bot", "greedy", "--movetime", "5"),
                            capture_output=True, text=True, timeout=60)
    assert review.returncode == 0, review.stderr
    assert "review: game 1" in review.stdout
    resume = subprocess.run(expeditions_argv("arena", "--resume", "--db", db), capture_output=True, text=True,
                            timeout=60)
    assert resume.returncode == 2 and f"no tournament in {db}" in resume.stderr
    resume = subprocess.run(expeditions_argv("arena", "--resume", "2", "--db", db), capture_output=True, text=True,
                            timeout=60)
    assert resume.returncode == 2 and "is a game played with `expeditions play`" in resume.stderr


@pytest.mark.parametrize("argv,message", [
    (["--seat", "2"], "--seat: classic with 2 players has seats 0..1, got 2"),
    (["--bot", "random", "--bot", "greedy"], "--bot: 1 other seats need one bot for all or one each, got 2"),
    (["--movetime", "0"], "--movetime and --iterations must be at least 1"),
    (["--bot", "cmd=/no/such/bot"], "a bot failed: cannot start '/no/such/bot'"),
    (["--db", "/no/such/dir/games.sqlite"], "/no/such/dir/games.sqlite: cannot open as a results database"),
])
def test_bad_arguments_are_one_error(argv: list[str], message: str) -> None:
    done = subprocess.run(expeditions_argv("play", "--no-hints", *argv), input="", capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_a_failing_advisor_is_named_and_the_game_goes_on() -> None:
    game = settings("classic", 0, rounds=1)
    game.advisor = builtin_bot("random")
    game.advisor.command = ["/no/such/advisor"]
    person = ScriptedPerson(seed=2, bad_first=["hint"])
    outcome = play_game(game, person)
    assert outcome.state.is_terminal()
    assert any(line.startswith("the advisor failed: cannot start '/no/such/advisor'") for line in person.shown)


def test_an_illegal_decision_is_told_why_and_a_single_one_is_taken() -> None:
    """Seat 0 of classic tries to draw before playing, then plays; every draw phase of the game
    with only the draw pile to draw from is taken without asking."""
    person = ScriptedPerson(seed=4, bad_first=["D"])
    outcome = play_game(settings("classic", 0, rounds=1), person)
    told = next(i for i, line in enumerate(person.shown) if line.startswith("D is not legal now: "))
    assert person.shown[told] == "D is not legal now: you play or discard a card first, then draw"
    assert person.styles[told] == "red"
    taken = [line for line in person.shown if line.endswith(", your only legal decision")]
    singles = sum(1 for _ in _single_choices(outcome.record, 0))
    assert singles > 0 and len(taken) == singles
    assert person.asked == sum(1 for d in outcome.record.decisions if d.seat == 0) - singles + 1  # +1: the bad D


def _single_choices(record, seat: int):
    """The decisions of `seat` in `record` made where only one was legal."""
    from arena.replay import positions

    for _, decision, state in positions(record):
        if decision.seat == seat and len(state.legal()) == 1:
            yield decision


def test_colour_only_on_a_terminal(monkeypatch, capsys) -> None:
    """TerminalPerson writes plain text when its output is not a terminal (here: captured)."""
    from arena.play import TerminalPerson

    TerminalPerson().show("legal: +b7 D", "cyan")
    assert capsys.readouterr().out == "legal: +b7 D\n"
    monkeypatch.setenv("FORCE_COLOR", "1")
    TerminalPerson().show("legal: +b7 D", "cyan")
    assert "\x1b[36mlegal: +b7 D" in capsys.readouterr().out


@pytest.mark.parametrize("edition, text, cards, colours", [
    ("classic", "seat 0* hand y5 bW  >y4  D:w3", ["y5", "bW", "y4", "w3"], "ABAC"),
    ("partners", "  seat 1 (greedy): >y4b2", ["y4", "b2"], "AB"),
    ("expedition", "hand c3 hA sM c5  deck 38", ["c3", "hA", "sM", "c5"], "ABCA"),
    ("board", "columns y2y3 hand wT  path y  V15  +g1R", ["y2", "y3", "wT", "g1"], "AABC"),
    ("eldorado", "hand Ex Tv  Exa>31 Tm*Pi .:ExSa  Scout Sailing El Dorado", ["Ex", "Tv", "Ex", "Tm", "Pi", "Ex", "Sa"],
     "ABACAAD"),
])
def test_cards_are_coloured_by_the_editions_palette(edition, text, cards, colours) -> None:
    """Each edition's palette finds exactly the cards of a line (not the words around them); cards of
    one colour or suit (in eldorado, one symbol) share a colour, the others differ (`colours`: the
    pattern of equal letters)."""
    palette = engine.get_edition(edition).palette
    assert palette is not None
    spans = palette.spans(text)
    assert [text[start:end] for start, end, _ in spans] == cards
    shown = [colour for _, _, colour in spans]
    assert [shown.index(c) for c in shown] == [colours.index(letter) for letter in colours]


def test_cards_in_colour_on_a_terminal_only(monkeypatch, capsys) -> None:
    """With the palette, a card gets its colour inside the line's own style on a terminal; not in a
    pipe, and not with NO_COLOR."""
    from arena.play import TerminalPerson

    palette = engine.get_edition("classic").palette
    TerminalPerson(palette).show("legal: +b7 +y4 D", "cyan")
    assert capsys.readouterr().out == "legal: +b7 +y4 D\n"
    monkeypatch.setenv("FORCE_COLOR", "1")
    TerminalPerson(palette).show("legal: +b7 +y4 D", "cyan")
    out = capsys.readouterr().out
    assert "\x1b[34mb7" in out and "\x1b[33my4" in out and "\x1b[36mlegal: +" in out
    monkeypatch.setenv("NO_COLOR", "1")
    TerminalPerson(palette).show("legal: +b7 +y4 D", "cyan")
    assert "\x1b[3" not in capsys.readouterr().out
