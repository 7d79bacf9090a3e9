"""The web application of `expeditions serve` (Starlette): one page, its assets, a JSON API over the
results database and a websocket per game played.

Routes (every one behind the token when the server has one, `?token=`):

- `/`, `/static/…`: the page (plain ES modules and CSS shipped in gui/static/, no build step);
- `/draw/{edition}.js`: the edition's drawing (its record's `drawing`, engine/drawing.py);
- `/api/setup`: the editions (options, numbers of players) and the bots offered;
- `/api/tournaments`, `/api/tournaments/{id}`, `/api/games/{id}[?seat=k]`: Watch and Replay
  (gui/records.py);
- `/ws/play`: one game (gui/session.py) per connection; closing it kills the game's bots.

The browser names bots only by the names the server offers (the built-in bots and those given on
the command line): no message can make the server start a program of its choosing.

>>> app = create_app(ServeConfig(bots={}))
>>> sorted(route.path for route in app.routes)[:3]
['/', '/api/games/{game_id:int}', '/api/setup']
"""
from __future__ import annotations

import asyncio
import contextlib
import hmac
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

import engine
from arena.config import BotSpec
from arena.store import Store
from gui import records
from gui.session import GameRequest, PlaySession

STATIC = Path(__file__).resolve().parent / "static"


@dataclass
class ServeConfig:
    """What the server offers: its bots by name, its database, its token."""

    bots: dict[str, BotSpec]
    """The bots a seat may be given, by name (the built-in ones and those of the command line)."""
    db: str | None = None
    """The results database for Watch and Replay (and where played games are kept); None: none."""
    token: str | None = None
    """Required as `?token=` on every request when set (the server listens beyond localhost)."""
    sessions: set[PlaySession] = field(default_factory=set)
    """The games being played (for tests and shutdown)."""


PUBLIC_PREFIXES = ("/static/", "/draw/")
"""Paths served without the token: the page's own code and the editions' drawings (no data, no
action; an ES module cannot pass a query string on to the modules it imports)."""


class TokenGuard:
    """ASGI middleware: a request (HTTP or websocket) without the right `token` gets 403, but for
    the page's code (PUBLIC_PREFIXES)."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and not scope["path"].startswith(PUBLIC_PREFIXES):
            query = scope.get("query_string", b"").decode("latin-1")
            given = next((part[6:] for part in query.split("&") if part.startswith("token=")), "")
            if not hmac.compare_digest(given.encode(), self.token.encode()):
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008})
                    return
                await PlainTextResponse("a token is required (the URL the server printed)", 403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_app(config: ServeConfig) -> ASGIApp:
    """The application for `config` (wrapped in the token guard when it has a token)."""
    store = Store(config.db) if config.db else None

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    async def setup(request: Request) -> Response:
        editions = [{"name": ed.name, "title": ed.title, "seats": list(ed.seats), "default_players": ed.check_players(None),
                     "teams": ed.teams, "options": [{"name": o.name, "default": o.default, "low": o.low, "high": o.high,
                                                     "choices": list(o.choices) if o.choices else None, "help": o.help}
                                                    for o in ed.options],
                     "quick": dict(ed.quick_options)} for ed in engine.EDITIONS.values()]
        return JSONResponse({"editions": editions, "bots": list(config.bots), "db": config.db is not None})

    async def draw(request: Request) -> Response:
        name = request.path_params["edition"]
        edition = engine.EDITIONS.get(name)
        if edition is None or edition.drawing is None:
            return PlainTextResponse(f"no drawing of {name!r}", 404)
        return FileResponse(edition.drawing.value.script_path(), media_type="text/javascript",
                            headers={"Cache-Control": "no-store"})

    def need_store() -> Store:
        if store is None:
            raise LookupError("the server has no database (expeditions serve --db FILE)")
        return store

    async def api(call: Any) -> Response:
        try:
            return JSONResponse(await asyncio.to_thread(call))
        except LookupError as err:
            return JSONResponse({"error": str(err).strip("'\"")}, 404)

    async def list_tournaments(request: Request) -> Response:
        return await api(lambda: records.tournaments(need_store()))

    async def one_tournament(request: Request) -> Response:
        return await api(lambda: records.tournament(need_store(), request.path_params["tid"]))

    async def one_game(request: Request) -> Response:
        seat = request.query_params.get("seat")
        if seat is not None and not seat.isdigit():
            return JSONResponse({"error": "seat: a number"}, 400)
        return await api(lambda: records.replay(need_store(), request.path_params["game_id"],
                                                None if seat is None else int(seat)))

    async def play(socket: WebSocket) -> None:
        await socket.accept()
        await play_socket(socket, config, store)

    routes = [Route("/", index), Route("/api/setup", setup), Route("/draw/{edition}.js", draw),
              Route("/api/tournaments", list_tournaments), Route("/api/tournaments/{tid:int}", one_tournament),
              Route("/api/games/{game_id:int}", one_game), WebSocketRoute("/ws/play", play),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        for session in list(config.sessions):  # the server stops: no bot left behind
            session.close()

    app: ASGIApp = Starlette(routes=routes, lifespan=lifespan)
    return TokenGuard(app, config.token) if config.token else app


async def play_socket(socket: WebSocket, config: ServeConfig, store: Store | None) -> None:
    """One connection of the Play view: a `start` message begins a game on a thread of its own;
    the frames it emits go out in order; when the connection closes, the game's bots are killed
    and the thread is waited for."""
    loop = asyncio.get_running_loop()
    out: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()

    def send(frame: dict[str, Any]) -> None:
        loop.call_soon_threadsafe(out.put_nowait, frame)

    async def writer() -> None:
        while (frame := await out.get()) is not None:
            await socket.send_json(frame)

    writing = asyncio.create_task(writer())
    session: PlaySession | None = None
    thread: threading.Thread | None = None
    try:
        while True:
            message = await socket.receive_json()
            if not isinstance(message, dict):
                continue
            if message.get("type") == "start":
                if session is not None:
                    send({"type": "error", "message": "one game per connection: open a new one"})
                    continue
                try:
                    request = GameRequest.from_message(message)
                    session = PlaySession(request, config.bots, send, store)
                except (ValueError, engine.ExpeditionsError) as err:
                    send({"type": "error", "message": str(err)})
                    continue
                config.sessions.add(session)
                thread = threading.Thread(target=session.run, name="expeditions-serve-game", daemon=True)
                thread.start()
            elif session is not None:
                session.command(message)
    except WebSocketDisconnect:
        pass
    finally:
        if session is not None:
            session.close()
            config.sessions.discard(session)
            if thread is not None:
                await asyncio.to_thread(thread.join, 10)
        out.put_nowait(None)
        writing.cancel()
