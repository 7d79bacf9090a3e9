"""`expeditions serve`: the browser GUI — play against any bot, watch a tournament, replay games.

    expeditions serve                                        # http://127.0.0.1:8000/
    expeditions serve --db arena.sqlite                      # Watch and Replay that database
    expeditions serve --bot name=mine cmd="./mybot --fast"   # offer your bot at the seats
    expeditions serve --host 0.0.0.0                         # other machines: a token in the URL

Needs the web stack: pip install 'expeditions[gui]' (docs/gui.md).
"""
from __future__ import annotations

import argparse
import secrets
import socket
import webbrowser

from expeditions.commands import CommandError
from expeditions.commands.common import bot_argument, open_store

LOCALHOST = "127.0.0.1"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="a web GUI in the browser: play, watch, replay",
                       description="Starts a web server with one page: Play (a person or a bot at each seat; "
                                   "every bot through the protocol), Watch (a tournament of --db, live) and "
                                   "Replay (any game of --db). Listens on 127.0.0.1 unless --host is given, "
                                   "and then only with a token in the URL.")
    p.add_argument("--port", type=int, default=8000, help="the port (default 8000; 0: any free one)")
    p.add_argument("--host", default=None,
                   help=f"the address to listen on (default {LOCALHOST}); any other requires the printed token")
    p.add_argument("--db", metavar="FILE", help="the results database to watch and replay, where games played "
                                                  "in the browser are kept too (created if missing)")
    p.add_argument("--bot", action="append", nargs="+", default=[], metavar="KEY=VALUE",
                   help="a bot offered at the seats besides the built-in ones: name=NAME cmd=\"COMMAND ARGS\" "
                        "option.NAME=VALUE (repeatable); the browser can start no other program")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    p.set_defaults(run=run)


def offered_bots(tokens: list[list[str]]) -> dict:
    """The built-in bots and those of `--bot`, by name (a later one of the same name wins)."""
    from arena.config import builtin_bot
    from bots.registry import POLICIES

    bots = {name: builtin_bot(name) for name in POLICIES}
    for given in tokens:
        spec = bot_argument(given)
        bots[spec.name] = spec
    return bots


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from gui.app import ServeConfig, create_app
    except ImportError as err:
        raise CommandError(f"the GUI needs its web stack ({err.name} is missing): pip install 'expeditions[gui]'") from None
    if args.db:
        open_store(args.db, create=True).close()  # a bad path is named now
    host = args.host or LOCALHOST
    token = None if host == LOCALHOST else secrets.token_urlsafe(16)
    config = ServeConfig(bots=offered_bots(args.bot), db=args.db, token=token)
    listening = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind((host, args.port))
    except OSError as err:
        raise CommandError(f"cannot listen on {host}:{args.port}: {err.strerror}") from None
    port = listening.getsockname()[1]
    shown = LOCALHOST if host in ("0.0.0.0", "::") else host
    url = f"http://{shown}:{port}/" + (f"?token={token}" if token else "")
    print(f"serve: {url}  (Ctrl-C stops)", flush=True)
    if args.open:
        webbrowser.open(url)
    server = uvicorn.Server(uvicorn.Config(create_app(config), log_level="warning"))
    server.run(sockets=[listening])
    return 0
