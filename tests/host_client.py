"""A client of the host protocol that knows nothing of this project but docs/host.md: the standard
library only (tests run it with `python -I -S`, so that not even the installed package is
importable). It plays games of every edition the host's `hello` lists, at every number of players,
through `expeditions host`, and writes every message of each game to a JSON file for the test to
check against the engine.

    python -I -S host_client.py OUT.json OPTIONS_JSON GAMES -- expeditions host

OPTIONS_JSON maps an edition to the rule options of its games (short games for a quick run). In
every second game the last seat is held by a built-in bot the host plays; in every game, once,
the client sends bad requests and checks that they change nothing.
"""
from __future__ import annotations

import json
import random
import subprocess
import sys


class Host:
    def __init__(self, argv: list[str]) -> None:
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.log: list[dict] = []
        self.next_id = 0

    def send(self, request: dict) -> int:
        self.next_id += 1
        request = {**request, "id": self.next_id}
        self.log.append({"sent": request})
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return self.next_id

    def receive(self) -> dict:
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"the host closed its output (exit status {self.process.wait()})")
        message = json.loads(line)
        self.log.append({"received": message})
        return message

    def request(self, request: dict, events: list[dict]) -> dict:
        """Sends a request and returns its reply; events read meanwhile go to `events`."""
        wanted = self.send(request)
        while True:
            message = self.receive()
            if message.get("id") == wanted and "reply" in message:
                return message
            events.append(message)


def expect(condition: bool, what: str) -> None:
    if not condition:
        raise SystemExit(f"host_client: {what}")


def play(host: Host, edition: str, players: int, options: dict, seed: int, bot_seat: int | None) -> dict:
    host.log = []
    rng = random.Random(seed)
    events: list[dict] = []
    start = {"cmd": "start", "edition": edition, "players": players, "options": options, "seed": seed}
    if bot_seat is not None:
        start["bots"] = {str(bot_seat): {"builtin": "random", "options": {"Seed": seed}, "limits": {"iterations": 1}}}
    reply = host.request(start, events)
    expect(reply["ok"], f"start refused: {reply}")
    game = reply["game"]
    expect(game["players"] == players and game["seed"] == seed, f"start reply {game}")
    if bot_seat is not None:
        expect(game["seats"][bot_seat]["by"] == "bot", f"seat {bot_seat} should be the bot's: {game}")
        refused = host.request({"cmd": "view", "seat": bot_seat}, events)
        expect(not refused["ok"] and "bot" in refused["error"], f"a bot's view was shown: {refused}")
    probed = False
    while True:
        event = events.pop(0) if events else host.receive()
        if event.get("event") == "result":
            break
        if event.get("event") != "turn" or event["by"] != "client":
            continue
        seat, legal = event["seat"], event["legal"]
        expect(bool(legal), f"a turn without legal decisions: {event}")
        if not probed and event["ply"] >= 3:
            probed = True
            before = host.request({"cmd": "view", "seat": seat}, events)
            for bad in ({"cmd": "apply", "decision": "no-such-decision"}, {"cmd": "apply"},
                        {"cmd": "apply", "decision": legal[0], "seat": (seat + 1) % players},
                        {"cmd": "apply", "decision": 7}, {"cmd": "view", "seat": players},
                        {"cmd": "frobnicate"}, {"cmd": "start", "edition": edition}):
                refused = host.request(bad, events)
                expect(not refused["ok"] and refused["error"], f"{bad} was not refused: {refused}")
            after = host.request({"cmd": "view", "seat": seat}, events)
            expect(after["view"] == before["view"], "a refused request changed the view")
        reply = host.request({"cmd": "apply", "decision": rng.choice(legal), "seat": seat}, events)
        expect(reply["ok"], f"apply refused: {reply}")
    state = host.request({"cmd": "state"}, events)
    expect(state["ok"], f"the state of a finished game was refused: {state}")
    ended = host.request({"cmd": "end"}, events)
    expect(ended["ok"] and ended["over"], f"end: {ended}")
    return {"edition": edition, "players": players, "options": options, "seed": seed, "bot_seat": bot_seat,
            "messages": host.log}


def main() -> None:
    out, options, games, argv = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3]), sys.argv[5:]
    host = Host(argv)
    hello = host.request({"cmd": "hello"}, [])
    expect(hello["ok"] and hello["protocol"] == 1, f"hello: {hello}")
    played = []
    for edition in hello["editions"]:
        for players in edition["players"]:
            for game in range(games):
                bot_seat = players - 1 if game % 2 == 1 else None
                played.append(play(host, edition["name"], players, options.get(edition["name"], {}),
                                   1000 + game, bot_seat))
    host.request({"cmd": "quit"}, [])
    expect(host.process.wait(10) == 0, "the host did not exit after quit")
    with open(out, "w") as f:
        json.dump({"hello": hello, "games": played}, f)


if __name__ == "__main__":
    main()
