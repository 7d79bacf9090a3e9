"""`expeditions serve` without a browser: its routes, its token, whole games over the websocket
with every frame checked against the engine's view of the browser's seat (and by the edition's
seat auditor, as the protocol's integrity audit checks what a bot is sent), spectators' public
views, bots that fail, tabs that close, and the Watch and Replay data. The page itself is tested
in a real browser by tests/test_gui_browser.py.
"""
from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # Starlette's test client on httpx
pytest.importorskip("starlette", reason="the GUI's web stack: pip install 'expeditions[gui]'")
pytest.importorskip("httpx", reason="Starlette's test client needs httpx")

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

import engine  # noqa: E402
from arena.config import BotSpec, builtin_bot  # noqa: E402
from arena.live import LiveFeed, live_games  # noqa: E402
from arena.record import DecisionRecord  # noqa: E402
from arena.store import Store  # noqa: E402
from engine import reference  # noqa: E402
from gui.app import ServeConfig, create_app  # noqa: E402
from gui.public import PublicViewError, public_view  # noqa: E402
from gui.session import SEARCH_KEYS  # noqa: E402
from protocol.integrity import seat_audit  # noqa: E402
from helpers import random_state  # noqa: E402

SCRIPTS = Path(__file__).parent / "bot_scripts"
BOTS = {"random": builtin_bot("random"), "greedy": builtin_bot("greedy"),
        "crash": BotSpec("crash", [sys.executable, str(SCRIPTS / "crash.py")]),
        "hang": BotSpec("hang", [sys.executable, str(SCRIPTS / "hang.py")])}


def client(db: str | None = None, token: str | None = None) -> TestClient:
    return TestClient(create_app(ServeConfig(bots=dict(BOTS), db=db, token=token)))


def play(ws, request: dict, rng: random.Random, on_frame=None) -> list[dict]:
    """Sends `request`, answers every turn of the person with a random legal decision, and returns
    every frame up to `end` (or an error)."""
    ws.send_json({"type": "start", **request})
    frames = []
    while True:
        frame = ws.receive_json()
        frames.append(frame)
        if on_frame is not None:
            on_frame(ws, frame)
        if frame["type"] == "view" and frame.get("legal"):
            ws.send_json({"type": "decide", "decision": rng.choice(frame["legal"])})
        if frame["type"] in ("end", "error"):
            return frames


def replayed(start: dict, end: dict) -> list[tuple[engine.State, DecisionRecord | None]]:
    """The states of the game the frames tell, from its deal (seed, options and seats of the start
    frame) and the end frame's record: (state before the decision, the decision), then (final, None)."""
    state = engine.new_game(start["edition"], seed=start["seed"], players=len(start["names"]), **start["options"])
    out = []
    for item in end["record"]:
        record = DecisionRecord(*item)
        out.append((state.copy(), record))
        state.apply(record.played)
    out.append((state, None))
    return out


# ----- routes and the token -----------------------------------------------------------------------

def test_the_page_its_setup_and_every_editions_drawing_are_served():
    with client() as c:
        assert "<script type=\"module\"" in c.get("/").text
        setup = c.get("/api/setup").json()
        assert [e["name"] for e in setup["editions"]] == list(engine.EDITIONS)
        assert setup["bots"] == list(BOTS)
        for name in engine.EDITIONS:
            response = c.get(f"/draw/{name}.js")
            assert response.status_code == 200 and "javascript" in response.headers["content-type"]
            assert "export function draw" in response.text and "export function parts" in response.text
        assert c.get("/draw/nothing.js").status_code == 404
        assert c.get("/static/app.js").status_code == 200
        assert c.get("/api/tournaments").status_code == 404  # no database


def test_with_a_token_every_request_but_the_pages_code_needs_it():
    with client(token="s3cret") as c:
        assert c.get("/").status_code == 403
        assert c.get("/api/setup").status_code == 403
        assert c.get("/api/setup?token=wrong").status_code == 403
        assert c.get("/?token=s3cret").status_code == 200
        assert c.get("/api/setup?token=s3cret").status_code == 200
        assert c.get("/static/play.js").status_code == 200  # code, no data
        with pytest.raises(WebSocketDisconnect):
            with c.websocket_connect("/ws/play") as ws:
                ws.receive_json()
        with c.websocket_connect("/ws/play?token=s3cret") as ws:
            ws.send_json({"type": "start", "edition": "classic", "seats": ["person", "random"], "seed": 1})
            assert ws.receive_json()["type"] == "start"


def test_the_browser_can_only_name_the_bots_the_server_offers():
    with client() as c, c.websocket_connect("/ws/play") as ws:
        ws.send_json({"type": "start", "edition": "classic", "seats": ["person", "/bin/sh -c 'touch x'"]})
        frame = ws.receive_json()
        assert frame["type"] == "error" and "no bot" in frame["message"]
        ws.send_json({"type": "start", "edition": "classic", "seats": ["person", "person"]})
        assert ws.receive_json()["type"] == "error"


# ----- whole games: every frame is the seat's view ------------------------------------------------

GAMES = [("classic", {"rounds": 2}, 2, 1), ("partners", {"rounds": 1}, 4, 2), ("expedition", {"rounds": 1}, 2, 0),
         ("board", {"rounds": 1}, 3, 0), ("eldorado", {"max_rounds": 12}, 2, 1)]


@pytest.mark.parametrize("edition, options, players, seat", GAMES, ids=[g[0] for g in GAMES])
def test_every_frame_of_a_whole_game_is_what_the_persons_seat_may_see(edition, options, players, seat):
    rng = random.Random(7)
    seats = ["random"] * players
    seats[seat] = "person"
    with client() as c, c.websocket_connect("/ws/play") as ws:
        frames = play(ws, {"edition": edition, "options": options, "seats": seats, "seed": 11, "movetime_ms": 2000}, rng)
    start, end = frames[0], frames[-1]
    assert start["type"] == "start" and start["seat"] == seat and end["type"] == "end", frames[-1]
    states = replayed(start, end)
    model = reference.from_text(states[0][0].to_text())
    audit = seat_audit(model, seat)
    views = [f for f in frames if f["type"] == "view"]
    assert len(views) == len(states) - 1  # one before every decision
    ply = 0
    seen_history: list[str] = []
    for frame in frames[1:-1]:
        kind = frame["type"]
        if kind == "view":
            state, decision = states[ply]
            assert frame["view"] == state.view_text(seat)
            audit.check("position " + frame["view"])
            assert frame.get("legal", []) == (state.legal_text() if state.to_move == seat else [])
            assert set(frame) <= {"type", "view", "legal", "to_move", "ply"}
        elif kind == "decision":
            state, decision = states[ply]
            after = states[ply + 1][0]
            assert frame["seat"] == decision.seat
            new_round = after.round_index != state.round_index
            expected = after.history(seat, previous=new_round)[len(state.history(seat)):]
            assert frame["text"] in expected
            seen_history.append(frame["text"])
            if frame["text"] == expected[-1]:
                model.apply(decision.played)
                audit.observe(model)
                ply += 1
        elif kind == "info":
            assert frame["seat"] != seat and set(frame["info"]) <= set(SEARCH_KEYS)
        else:
            assert kind == "round" and set(frame) == {"type", "scores"}
    final = states[-1][0]
    assert end["scores"] == final.scores() and end["final"] == final.to_text()
    assert end["termination"] == "normal"


def test_a_spectator_of_a_bots_game_sees_only_what_is_public():
    rng = random.Random(3)
    with client() as c, c.websocket_connect("/ws/play") as ws:
        frames = play(ws, {"edition": "partners", "options": {"rounds": 1}, "seats": ["random"] * 4, "seed": 5}, rng)
    start, end = frames[0], frames[-1]
    assert start["seat"] is None
    states = replayed(start, end)
    views = [f["view"] for f in frames if f["type"] == "view"]
    assert len(views) == len(states) - 1
    for view, (state, _) in zip(views, states):
        assert view == public_view(state) and " seat=" not in view


@pytest.mark.parametrize("edition, players", [(e, n) for e in engine.EDITIONS for n in engine.get_edition(e).seats])
def test_the_public_view_does_not_change_when_any_seat_redeals_what_it_cannot_see(edition, players):
    rng = random.Random(edition)
    for game in range(4):
        state = random_state(edition, game, rng.randint(5, 120), players=players)
        public = public_view(state).partition(" history=")[0]
        assert " seat=" not in public
        for seat in range(players):
            resampled = state.determinized(seat, game + 100)
            assert public_view(resampled).partition(" history=")[0] == public


def test_a_public_view_refuses_a_field_it_cannot_split_by_seat():
    state = engine.new_game("classic", seed=1)

    class Odd:  # a state whose views differ in a field that is not one part per seat
        edition, num_seats = "classic", 2

        def view_text(self, seat):
            return f"classic seat={seat} odd={seat}x history=-"

        def team_of(self, seat):
            return seat

        def record(self):
            return []
    assert public_view(state)
    with pytest.raises(PublicViewError):
        public_view(Odd())  # type: ignore[arg-type]


# ----- faults ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("bot, termination", [("crash", "crash"), ("hang", "timeout")])
def test_a_bot_that_fails_loses_the_game_as_the_arena_scores_it(bot, termination):
    rng = random.Random(1)
    with client() as c, c.websocket_connect("/ws/play") as ws:
        frames = play(ws, {"edition": "classic", "options": {"rounds": 1}, "seats": ["person", bot], "seed": 2,
                           "movetime_ms": 100}, rng)
    fault = next(f for f in frames if f["type"] == "fault")
    end = frames[-1]
    assert fault["seat"] == 1 and fault["termination"] == termination
    assert end["termination"] == termination and end["failed_seat"] == 1 and end["returns"] == [1.0, 0.0]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as f:  # a zombie is gone too
        return f.read().split(") ")[1][0] != "Z"


def test_closing_the_tab_stops_the_games_bot_processes():
    config = ServeConfig(bots=dict(BOTS))
    with TestClient(create_app(config)) as c:
        with c.websocket_connect("/ws/play") as ws:
            ws.send_json({"type": "start", "edition": "board", "options": {"rounds": 1}, "seats": ["person", "greedy", "random"],
                          "seed": 4})
            while ws.receive_json()["type"] != "view":
                pass
            (session,) = config.sessions
            pids = [bot.pid for bot in session.engines.values()]
            assert len(pids) == 2 and all(_alive(pid) for pid in pids)
        assert session.ended.wait(10)  # the game's thread has ended, its bots quit
        assert not any(_alive(pid) for pid in pids)
        assert not config.sessions


def test_a_hint_is_the_advisors_choice_in_the_persons_view():
    def ask(ws, frame):
        if frame["type"] == "view" and frame.get("legal") and frame["ply"] == 0:
            ws.send_json({"type": "hint"})
            hint = ws.receive_json()
            while hint["type"] == "hint-info":
                hint = ws.receive_json()
            assert hint["type"] == "hint" and hint["decision"] in frame["legal"], hint

    with client() as c, c.websocket_connect("/ws/play") as ws:
        frames = play(ws, {"edition": "classic", "options": {"rounds": 1}, "seats": ["person", "random"], "seed": 9,
                           "advisor": "greedy"}, random.Random(2), ask)
    assert frames[-1]["type"] == "end"


# ----- Watch and Replay -----------------------------------------------------------------------------

def test_a_game_played_in_the_browser_is_kept_and_replays_to_its_end(tmp_path):
    db = str(tmp_path / "games.sqlite")
    with client(db) as c:
        with c.websocket_connect("/ws/play") as ws:
            frames = play(ws, {"edition": "board", "options": {"rounds": 1}, "seats": ["random", "person", "random"],
                               "seed": 8}, random.Random(4))
            kept = ws.receive_json()
        assert kept["type"] == "kept"
        game = c.get(f"/api/games/{kept['game']}").json()
        states = replayed(frames[0], frames[-2] if frames[-1]["type"] != "end" else frames[-1])
        assert [f["text"] for f in game["frames"]] == [s.to_text() for s, _ in states]
        as_seat = c.get(f"/api/games/{kept['game']}?seat=2").json()
        assert [f["text"] for f in as_seat["frames"]] == [s.view_text(2) for s, _ in states]
        assert game["layout"]["bridge"] == 6
        listed = c.get("/api/tournaments").json()
        assert listed[0]["format"] == "played" and listed[0]["edition"] == "board"
        assert c.get("/api/games/999").status_code == 404


def test_watch_shows_standings_and_the_games_in_progress_as_public_views(tmp_path):
    from arena.config import TournamentConfig
    from arena.runner import LocalRunner
    from arena.tournament import Tournament

    db = str(tmp_path / "arena.sqlite")
    store = Store(db)
    config = TournamentConfig("classic", [builtin_bot("random"), builtin_bot("greedy")], {"rounds": 1}, deals=3,
                              concurrency=1)
    tournament = Tournament(config, store)
    runner = LocalRunner(config.bots, config.limits, 1)
    try:
        tournament.run(runner)
    finally:
        runner.close()
    assert live_games(db, tournament.id) == []  # every game's row went when it ended
    state = engine.new_game("classic", seed=12, rounds=1)
    for _ in range(9):
        state.apply(state.legal()[-1])
    feed = LiveFeed.open(db, tournament.id, 99, ["random", "greedy"], state)
    with client(db) as c:
        t = c.get(f"/api/tournaments/{tournament.id}").json()
    feed.close()
    assert t["done"] == 6 and {row["name"] for row in t["standings"]} == {"random", "greedy"}
    assert t["plot"] and t["plot"][-1]["games"] == 6
    (live,) = t["live"]
    assert live["view"] == public_view(engine.parse_position(state.to_text())) and live["ply"] == 0
    hands = [h for h in live["view"].split("hands=")[1].split()[0].split("/")]
    assert all(h.startswith("?") for h in hands)
