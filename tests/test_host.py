"""The host protocol (docs/host.md): whole games of every edition from a client that does not import
the package, bad requests, what the client may see, bot seats the host plays, and the example
client of docs/examples."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

import engine
from arena.host import Host
from protocol.local import child_env, expeditions_argv

TESTS = Path(__file__).parent
BOTS = TESTS / "bot_scripts"
EXAMPLE = TESTS.parent / "docs" / "examples" / "host_client.js"
WAIT_S = 120.0
"""How long a test waits for something that must happen (never a bound on how fast it happens)."""


# ----- whole games from an outside client ---------------------------------------------------------

def test_whole_games_of_every_edition_through_a_client_that_does_not_import_the_package(tmp_path):
    """tests/host_client.py (standard library only, run with -I -S from an empty directory) plays two
    games of every edition at every number of players, the second against a bot the host plays;
    every message is then checked against the engine."""
    out = tmp_path / "games.json"
    options = {name: dict(record.quick_options) for name, record in engine.EDITIONS.items()}
    done = subprocess.run([sys.executable, "-I", "-S", str(TESTS / "host_client.py"), str(out), json.dumps(options),
                           "2", "--", *expeditions_argv("host")], cwd=tmp_path, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    played = json.loads(out.read_text())
    assert [e["name"] for e in played["hello"]["editions"]] == list(engine.EDITIONS)
    cases = {(g["edition"], g["players"], g["bot_seat"] is not None) for g in played["games"]}
    assert cases == {(name, n, bot) for name, record in engine.EDITIONS.items() for n in record.seats
                     for bot in (False, True)}
    for game in played["games"]:
        _check_against_the_engine(game)


def _check_against_the_engine(game: dict[str, Any]) -> None:
    """Replays the game's full record (the `state` reply after the end) with the engine and checks
    every event the client heard: turns, what each of its seats saw, round ends, the result."""
    received = [m["received"] for m in game["messages"] if "received" in m]
    events = [m for m in received if "event" in m]
    full = next(m for m in received if m.get("reply") == "state")
    start = next(m for m in received if m.get("reply") == "start")["game"]
    bot = game["bot_seat"]
    state = engine.new_game(game["edition"], seed=game["seed"], players=game["players"], **game["options"])
    assert full["initial"] == state.to_text() and start["seats"][bot or 0]["by"] == ("bot" if bot is not None else "client")
    turns = [e for e in events if e["event"] == "turn"]
    decisions = [e for e in events if e["event"] == "decision"]
    rounds = [e for e in events if e["event"] == "round"]
    assert len(turns) == len(decisions) == len(full["records"])
    expected_rounds = []
    for ply, (turn, decision, record) in enumerate(zip(turns, decisions, full["records"])):
        mover = state.to_move
        assert (turn["ply"], turn["seat"], decision["ply"], decision["seat"]) == (ply, mover, ply, mover)
        assert turn["by"] == decision["by"] == ("bot" if mover == bot else "client")
        if mover == bot:
            assert "view" not in turn and "legal" not in turn  # the bot's seat is its own
        else:
            assert turn["view"] == state.view_text(mover) and turn["legal"] == state.legal_text()
        heard = [len(state.history(s)) for s in range(state.num_seats)]
        round_before, totals = state.round_index, state.scores()
        assert state.play(record.split(":")[0]) == record
        new_round = state.round_index != round_before
        for seat in range(state.num_seats):
            seen = state.history(seat, previous=new_round)[heard[seat]]
            assert decision["seen"][seat] == (None if seat == bot else seen), (ply, seat)
        assert "record" not in decision  # a closed game
        if new_round or state.is_terminal():
            expected_rounds.append({"event": "round", "round": round_before + 1, "totals": state.scores(),
                                    "gained": [a - b for a, b in zip(state.scores(), totals)]})
    assert rounds == expected_rounds
    assert full["position"] == state.to_text()
    result = events[-1]
    assert result == {"event": "result", "scores": state.scores(), "returns": state.returns(),
                      "termination": "normal", "reason": "", "failed_seat": None}


# ----- in-process sessions ---------------------------------------------------------------------------

class Client:
    """A host session in this process, with every message it sent kept in order (bots' threads add
    events: `wait_for` waits for one)."""

    def __init__(self, **kwargs: Any) -> None:
        self.messages: list[dict[str, Any]] = []
        self._changed = threading.Condition()
        self.host = Host(self._emit, **kwargs)

    def _emit(self, message: dict[str, Any]) -> None:
        json.dumps(message)  # every message is JSON
        with self._changed:
            self.messages.append(message)
            self._changed.notify_all()

    def __call__(self, cmd: str, **fields: Any) -> dict[str, Any]:
        """Sends a request and returns its reply."""
        before = len(self.messages)
        self.host.handle({"cmd": cmd, **fields})
        replies = [m for m in self.messages[before:] if "reply" in m]
        assert len(replies) == 1, self.messages[before:]
        return replies[0]

    def ok(self, cmd: str, **fields: Any) -> dict[str, Any]:
        reply = self(cmd, **fields)
        assert reply["ok"], reply
        return reply

    def wait_for(self, event: str, after: int = 0, **fields: Any) -> dict[str, Any]:
        """The first event named `event` (with these fields) among the messages from index `after`, or
        the game's result if it comes first."""
        def found() -> dict[str, Any] | None:
            return next((m for m in self.messages[after:] if m.get("event") == "result" or (
                m.get("event") == event and all(m.get(k) == v for k, v in fields.items()))), None)
        with self._changed:
            assert self._changed.wait_for(lambda: found() is not None, WAIT_S), self.messages[-5:]
        return found()  # type: ignore[return-value]

    def close(self) -> None:
        self.host.close()


@pytest.fixture
def client():
    session = Client()
    yield session
    session.close()


def script_bot(name: str) -> dict[str, Any]:
    return {"cmd": [sys.executable, str(BOTS / f"{name}.py")], "name": name}


def test_hello_lists_every_edition_with_its_options(client):
    hello = client.ok("hello", id="h")
    assert hello["id"] == "h" and hello["protocol"] == 1 and hello["commands"] is True
    for entry, record in zip(hello["editions"], engine.EDITIONS.values()):
        assert entry["name"] == record.name and entry["players"] == list(record.seats)
        assert [o["name"] for o in entry["options"]] == [o.name for o in record.options]
    assert {"random", "greedy", "ismcts"} <= set(hello["bots"])


def test_bad_requests_get_one_clear_error_and_change_nothing(client):
    client.ok("start", edition="classic", options={"rounds": 1}, seed=5, open=True)
    before = client.ok("state")
    views = [client.ok("view", seat=s)["view"] for s in range(2)]
    mover = client.ok("legal")["seat"]
    bad: list[tuple[Any, str]] = [
        ("{not json", "not JSON: "),
        ("[1, 2]", "a request is a JSON object, got list"),
        ({"decision": "D"}, "unknown cmd none (commands: hello, start, view"),
        ({"cmd": "frobnicate"}, "unknown cmd 'frobnicate'"),
        ({"cmd": "apply"}, "apply: decision is missing"),
        ({"cmd": "apply", "decision": "+z9"}, "apply: not a decision of classic: '+z9'"),
        ({"cmd": "apply", "decision": 17}, "apply: decision must be a string in notation, got 17"),
        ({"cmd": "apply", "decision": "D", "seat": 1 - mover}, f"apply: seat {1 - mover} is not to move (seat {mover} is)"),
        ({"cmd": "apply", "decision": "D", "extra": 1}, "apply: unknown field 'extra' (fields: decision, seat)"),
        ({"cmd": "view", "seat": 2}, "view: seat must be an integer in 0..1, got 2"),
        ({"cmd": "view", "seat": True}, "view: seat must be an integer in 0..1, got True"),
        ({"cmd": "view"}, "view: seat is missing"),
        ({"cmd": "start", "edition": "classic"}, "start: a game is running (end it first)"),
        ({"cmd": "seat", "seat": 1, "bot": "nosuchbot"}, "seat: unknown built-in bot 'nosuchbot'"),
        ({"cmd": "seat", "seat": 1, "bot": {"builtin": "random", "cmd": "x"}}, "seat: bot needs one of builtin"),
        ({"cmd": "seat", "seat": 1, "bot": "random", "limits": {"movetime": 0}},
         "seat: limits: movetime must be an integer of at least 1, got 0"),
        ({"cmd": "seat", "seat": 1, "bot": "random", "limits": {"depth": 3}}, "seat: limits: unknown limit 'depth'"),
        ({"cmd": "seat", "seat": 1, "bot": {"cmd": ["/no/such/bot"]}}, "seat: bot bot did not start: cannot start '/no/such/bot'"),
        ({"cmd": "unseat", "seat": 1}, "unseat: seat 1 is the client's already"),
        ({"cmd": "legal", "id": [1]}, "id must be a string or a number, got [1]"),
    ]
    if mover == 0:  # a decision that is notation but not legal now: a draw in the play phase
        bad.append(({"cmd": "apply", "decision": "D"}, "apply: D is not legal now (legal: "))
    for request, error in bad:
        count = len(client.messages)
        client.host.handle(request if isinstance(request, str) else dict(request))
        assert len(client.messages) == count + 1, client.messages[count:]  # one reply, no event
        reply = client.messages[-1]
        assert reply["ok"] is False and reply["error"].startswith(error), (request, reply)
        assert "Traceback" not in reply["error"]
        state = client.ok("state")
        assert (state["position"], state["records"]) == (before["position"], before["records"])
        assert [client.ok("view", seat=s)["view"] for s in range(2)] == views
    # A request's id comes back even when the request is wrong; without an id, none.
    client.host.handle({"cmd": "frobnicate", "id": 7})
    assert client.messages[-1]["id"] == 7 and client.messages[-1]["reply"] is None
    assert "id" not in client("view", seat=0)


def test_starting_games_from_seeds_positions_and_rules(client):
    for record in engine.EDITIONS.values():
        for players in record.seats:
            game = client.ok("start", edition=record.name, players=players, seed=11)["game"]
            state = record.new_game(11, players)
            assert game["players"] == players and game["seed"] == 11 and "position" not in game
            assert client.ok("view", seat=0)["view"]["text"] == state.view_text(0)
            assert client.ok("end")["over"] is False
    # A position (a deal some decisions in); a random seed, reported; a choice option by name.
    state = engine.new_game("board", seed=3, players=3)
    for _ in range(7):
        state.apply(state.legal()[0])
    game = client.ok("start", position=state.to_text(), open=True)["game"]
    assert game["seed"] is None and game["position"] == state.to_text() and game["players"] == 3
    assert client.ok("state")["position"] == state.to_text()
    client.ok("end")
    assert isinstance(client.ok("start")["game"]["seed"], int)
    client.ok("end")
    route = engine.get_edition("eldorado").options[0]
    game = client.ok("start", edition="eldorado", options={route.name: route.choices[1]})["game"]
    assert game["options"][route.name] == route.choices[1]
    client.ok("end")
    for fields, error in [({"edition": "chess"}, "start: unknown edition 'chess'"),
                          ({"edition": "classic", "players": 3}, "start: classic is played by 2 players, not 3"),
                          ({"options": {"rounds": 0}}, "start: option rounds: 0 is out of range"),
                          ({"options": {"colour": 1}}, "start: unknown option of classic: 'colour'"),
                          ({"options": [1]}, "start: options must be an object"),
                          ({"seed": -1}, "start: seed: expected an integer in 0..2^64-1, got -1"),
                          ({"position": "classic nonsense"}, "start: position: "),
                          ({"position": state.to_text(), "seed": 1}, "start: a position says its edition"),
                          ({"open": "yes"}, "start: open must be true or false"),
                          ({"bots": {"x": "random"}}, "start: bots: a seat number as the key, got 'x'"),
                          ({"bots": {"5": "random"}}, "start: bots: seat must be an integer in 0..1, got 5")]:
        reply = client("start", **fields)
        assert not reply["ok"] and reply["error"].startswith(error), (fields, reply)
    assert client("view", seat=0)["error"] == "view: no game (start one first)"


def test_a_view_is_the_seats_alone_and_agrees_with_the_engine(client):
    """Each field of a view is the engine's, for the seat to move and the others, over whole games."""
    for record in engine.EDITIONS.values():
        players = record.seats[-1]
        client.ok("start", edition=record.name, players=players, seed=2, options=dict(record.quick_options))
        state = record.new_game(2, players, **record.quick_options)
        ply = 0
        while not state.is_terminal():
            if ply % 7 == 0:
                for seat in range(players):
                    view = client.ok("view", seat=seat)["view"]
                    assert view["text"] == state.view_text(seat) and view["picture"] == state.pretty(seat)
                    assert (view["to_move"], view["phase"], view["round"], view["turn"], view["scores"]) == \
                        (state.to_move, state.phase, state.round, state.turn, state.scores())
                    assert view["history"] == state.history(seat)
                    assert view["legal"] == (state.legal_text() if seat == state.to_move else [])
                    assert " ".join(f"{k}={v}" for k, v in view["fields"].items()) == view["text"].split(" ", 1)[1]
            decision = state.legal_text()[ply * 5 % len(state.legal())]
            client.ok("apply", decision=decision, seat=state.to_move)
            state.apply(decision)
            ply += 1
        assert client.ok("view", seat=0)["view"]["over"] is True
        client.ok("end")


def test_what_the_client_sees_of_a_bots_seat(client):
    """Closed: the bot's view, its legal decisions, what it learned and the full state are refused
    while the game runs. Open: everything, with each decision's full record."""
    client.ok("start", edition="classic", seed=4, options={"rounds": 1}, bots={"1": script_bot("hang")})
    assert client("view", seat=1)["error"].startswith("view: seat 1 is played by the bot 'hang'")
    assert client("state")["error"].startswith("state: the full state of a running game holds every hidden card")
    legal = client.ok("legal")["legal"]
    after = len(client.messages)
    client.ok("apply", decision=next(d for d in legal if d.startswith("+")))
    client.ok("apply", decision="D")
    decisions = [m for m in client.messages[after:] if m.get("event") == "decision"]
    assert decisions[1]["seen"][0].startswith("D:") and decisions[1]["seen"][1] is None
    assert "record" not in decisions[1]
    turn = client.wait_for("turn", after, seat=1)
    assert turn["by"] == "bot" and turn["name"] == "hang" and "view" not in turn and "legal" not in turn
    assert client("legal")["error"].startswith("legal: seat 1 is to move, played by the bot 'hang'")
    assert client("apply", decision="D")["error"] == "apply: seat 1 is to move, and the bot 'hang' plays it"
    client.ok("end")
    # Open: every seat's view, the record of each decision, the full state.
    client.ok("start", edition="classic", seed=4, options={"rounds": 1}, open=True, bots={"1": "random"})
    after = len(client.messages)
    legal = client.ok("legal")["legal"]
    client.ok("apply", decision=next(d for d in legal if d.startswith("+")))
    client.ok("apply", decision="D")
    bot_turn = client.wait_for("turn", after, seat=1)
    assert bot_turn["view"] and bot_turn["legal"]
    assert client.ok("view", seat=1)["view"]["seat"] == 1
    drawn = client.wait_for("decision", after, seat=1, ply=3)
    assert drawn["record"].startswith("D") and drawn["seen"][1] == drawn["record"]
    assert client.ok("state")["records"][:2] == [m["record"] for m in client.messages[after:]
                                                  if m.get("event") == "decision"][:2]


def test_a_seated_bot_plays_its_seat_to_the_end(client):
    """Bots seated at the start, another seated mid-game at the seat to move: the host plays them,
    and the result is the engine's."""
    client.ok("start", edition="partners", seed=8, options={"rounds": 1},
              bots={"1": "greedy", "3": {"builtin": "random", "limits": {"iterations": 1}}})
    ply = 0
    while True:
        turn = client.wait_for("turn", ply=ply)  # the first turn event of that ply
        if turn["by"] == "client":
            if ply >= 6:
                break
            client.ok("apply", decision=turn["legal"][0], seat=turn["seat"])
        ply += 1
    after = len(client.messages)
    seated = client.ok("seat", seat=turn["seat"], bot="greedy", limits={"movetime": 50})
    assert seated["name"] == "greedy" and seated["about"]["name"] == "greedy"
    assert client.wait_for("turn", after, ply=ply)["by"] == "bot"
    while True:
        message = client.wait_for("turn", after, ply=ply)  # the turn of that ply, or the result
        if message["event"] == "result":
            break
        if message["by"] == "client":
            client.ok("apply", decision=message["legal"][0], seat=message["seat"])
        ply += 1
    state = engine.parse_position(client.ok("state")["initial"])
    for record in client.ok("state")["records"]:
        state.play(record.split(":")[0])
    assert state.is_terminal() and message["scores"] == state.scores() and message["termination"] == "normal"
    assert client.ok("end")["over"] is True


def test_stop_makes_a_thinking_bot_answer_and_unseat_gives_the_seat_back(client):
    client.ok("start", edition="classic", seed=6, options={"rounds": 1},
              bots={"0": {"builtin": "ismcts", "limits": {"movetime": 600000}}})
    client.wait_for("turn", seat=0, by="bot")
    assert client.ok("stop")["stopped"] is True
    client.wait_for("decision", seat=0, ply=0)  # within the wait, not ten minutes
    client.ok("end")
    client.ok("start", edition="classic", seed=6, options={"rounds": 1}, bots={"0": script_bot("hang")})
    client.wait_for("turn", seat=0, by="bot")
    after = len(client.messages)
    assert client.ok("unseat", seat=0)["name"] == "hang"
    turn = client.wait_for("turn", after, seat=0, by="client")
    assert turn["legal"] and client.ok("view", seat=0)["view"]["seat"] == 0
    client.ok("apply", decision=turn["legal"][0])
    assert not any(m.get("event") == "decision" and m["by"] == "bot" for m in client.messages[after:])
    assert client.ok("stop")["stopped"] is False
    # Ending a game whose bot thinks and ignores stop: the bot is killed, no process is left.
    client.ok("seat", seat=client.ok("legal")["seat"], bot=script_bot("hang"))
    client.ok("end")
    assert _children() == []


def _children() -> list[int]:
    """Live child processes of this one (multiprocessing's resource tracker aside)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes()
        except (OSError, IndexError):
            continue
        if entry.name.isdigit() and int(stat[1]) == os.getpid() and stat[0] != "Z" and b"resource_tracker" not in command:
            found.append(int(entry.name))
    return found


@pytest.mark.parametrize("bot, termination", [("crash", "crash"), ("illegal", "illegal"), ("garbage", "malformed")])
def test_a_failing_bot_loses_as_in_the_arena(client, bot, termination):
    client.ok("start", edition="classic", seed=3, options={"rounds": 1}, bots={"0": script_bot(bot)})
    result = client.wait_for("result")
    assert (result["termination"], result["failed_seat"], result["returns"]) == (termination, 0, [0.0, 1.0])
    assert result["reason"].startswith(f"seat 0 ({bot}): ")
    assert client("apply", decision="D")["error"] == "apply: the game is over"
    assert client.ok("state")["records"] == []  # over: the full state is shown
    assert client.ok("end")["over"] is True


def test_a_host_for_built_in_bots_only_refuses_programs():
    session = Client(allow_commands=False)
    try:
        session.ok("start", edition="classic", seed=1)
        assert session("seat", seat=1, bot=script_bot("minimal"))["error"] == \
            "seat: this host runs built-in bots only (cmd is not allowed)"
        assert session.ok("hello")["commands"] is False
    finally:
        session.close()


def test_the_command_speaks_json_lines_and_quits(tmp_path):
    requests = [{"cmd": "hello", "id": 1}, {"cmd": "start", "id": 2, "edition": "expedition", "seed": 9,
                                           "options": {"rounds": 1}, "bots": {"0": "random", "1": "random"}}]
    process = subprocess.Popen(expeditions_argv("host"), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=child_env(), cwd=tmp_path)
    assert process.stdin is not None and process.stdout is not None
    for request in requests:
        process.stdin.write(json.dumps(request) + "\n")
    process.stdin.write("x" * (2 << 20) + "\n")  # a line over the limit: refused, read past
    process.stdin.flush()
    lines = []
    while not lines or lines[-1].get("event") != "result":
        lines.append(json.loads(process.stdout.readline()))
    process.stdin.write(json.dumps({"cmd": "quit", "id": 3}) + "\n")
    process.stdin.flush()
    rest = [json.loads(line) for line in process.stdout.read().splitlines()]
    assert process.wait(30) == 0
    assert [m["reply"] for m in lines + rest if "reply" in m] == ["hello", "start", None, "quit"]
    assert any(m.get("error", "").startswith("a line of more than 1048576 bytes") for m in lines)
    assert lines[-1]["termination"] == "normal"


@pytest.mark.skipif(shutil.which("node") is None, reason="the example client is JavaScript: node is not installed")
def test_the_example_client_in_javascript_plays_a_game(tmp_path):
    done = subprocess.run(["node", str(EXAMPLE), "--edition", "classic", "--seed", "3", "--bot", "greedy", "--",
                           *expeditions_argv("host")], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env=child_env())
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("expeditions host protocol 1: classic")
    assert any(line.startswith("round 1 over") for line in lines)
    assert lines[-1].startswith("game over (normal): scores ")
