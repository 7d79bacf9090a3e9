"""`expeditions serve` in a real browser: Playwright driving the system's Chromium (Playwright's
own browser download is not needed). Whole games played by clicking the drawings, a replay to
its end, a tournament watched as it plays.

The browser is found at $EXPEDITIONS_CHROMIUM, else `chromium` or `chromium-browser` on the PATH;
without one these tests are skipped (install it: `apt-get install chromium` on Debian or Ubuntu),
unless $EXPEDITIONS_REQUIRE_BROWSER is set (.ci/run sets it after installing the browser).
With $GUI_SCREENSHOTS set to a folder, each view is saved there as a PNG (docs/images/gui-*.png
were made so).
"""
from __future__ import annotations

import os
import random
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

REQUIRED = bool(os.environ.get("EXPEDITIONS_REQUIRE_BROWSER"))
"""Set by .ci/run, which installs the browser first: there a missing browser fails the run."""
if REQUIRED:
    import playwright.sync_api as playwright_api
else:
    pytest.importorskip("uvicorn", reason="the GUI's web stack: pip install 'expeditions[gui]'")
    playwright_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need Playwright: pip install playwright")

import uvicorn  # noqa: E402

import engine  # noqa: E402
from arena.config import TimeControl, TournamentConfig, builtin_bot  # noqa: E402
from arena.replay import positions  # noqa: E402
from arena.runner import LocalRunner  # noqa: E402
from arena.store import Store  # noqa: E402
from arena.tournament import Tournament  # noqa: E402
from gui.app import ServeConfig, create_app  # noqa: E402

CHROMIUM = os.environ.get("EXPEDITIONS_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
if REQUIRED and CHROMIUM is None:
    raise RuntimeError("EXPEDITIONS_REQUIRE_BROWSER is set but no Chromium was found")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium: install the distribution's package "
                                "(apt-get install chromium) or point $EXPEDITIONS_CHROMIUM at a Chromium binary")
SHOTS = os.environ.get("GUI_SCREENSHOTS")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A real server (uvicorn on a free port) with a results database; yields (url, db path)."""
    db = str(tmp_path_factory.mktemp("gui") / "gui.sqlite")
    Store(db).close()
    bots = {name: builtin_bot(name) for name in ("random", "greedy")}
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    uv = uvicorn.Server(uvicorn.Config(create_app(ServeConfig(bots=bots, db=db)), log_level="warning"))
    thread = threading.Thread(target=uv.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    while not uv.started:
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}/", db
    uv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    yield page
    page.close()
    assert not errors, errors


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"gui-{name}.png"), full_page=True)


def click_through_a_game(page, edition: str, players: int, seed: int) -> list[int]:
    """Plays the person's seat 0 against `random` by clicking the drawing (buttons where a decision
    has no clicks), and returns the scores the page shows at the end."""
    rng = random.Random(seed)
    page.select_option("select[name=edition]", edition)
    page.select_option("select[name=players]", str(players))
    page.fill("input[name=seed]", str(seed))
    page.fill("input[name=movetime]", "50")
    page.click("#play-start")
    page.wait_for_function("['your-turn', 'over'].includes(document.body.dataset.state)")
    clicked = 0
    while page.evaluate("document.body.dataset.state") != "over":
        ply = page.evaluate("document.body.dataset.ply")
        decisions = page.eval_on_selector_all("#play-choices button", "bs => bs.map(b => b.dataset.decision)")
        decision = rng.choice(decisions)
        parts = page.evaluate("async ([e, d]) => (await import(`/draw/${e}.js`)).parts(d, window.expeditionsView)",
                              [edition, decision])
        if parts:
            for part in parts:
                page.locator(f'#play-board [data-pick="{part}"]').first.click(force=True)
            clicked += 1
        else:
            page.click(f'#play-choices button[data-decision="{decision}"]')
        if clicked == 3:
            shot(page, f"play-{edition}")
        page.wait_for_function(f"document.body.dataset.state === 'over' || (document.body.dataset.state === "
                               f"'your-turn' && document.body.dataset.ply !== '{ply}')")
    assert clicked > 0
    shot(page, f"play-{edition}-end")
    return page.eval_on_selector("#play-result", "node => JSON.parse(node.dataset.scores)")


def kept_game_scores(db: str) -> tuple[int, list[int]]:
    """The id of the latest game kept in `db` and its final scores, replayed by the engine."""
    store = Store(db)
    tid = store.tournaments()[-1].id
    (game,) = store.games(tid, with_decisions=True)
    state = None
    for _, _, state in positions(game):
        pass
    assert state is not None and state.is_terminal()
    store.close()
    return game.id, state.scores()  # type: ignore[return-value]


@pytest.mark.parametrize("edition, players", [("classic", 2), ("board", 3)])
def test_a_whole_game_against_random_played_by_clicking(server, page, edition, players):
    url, db = server
    page.goto(url + "#play")
    page.wait_for_selector("body[data-ready='1']")
    shown = click_through_a_game(page, edition, players, seed=21)
    game_id, scores = kept_game_scores(db)
    assert shown == scores


def test_a_recorded_game_replays_to_its_end(server, page):
    url, db = server
    store = Store(db)
    tid = store.tournaments()[0].id
    game = store.games(tid)[0]
    store.close()
    page.goto(url + "#replay")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#replay-id", str(game.id))
    page.click("#replay-load")
    page.wait_for_selector("#replay-ply[data-ply='0']")
    page.click("#replay-slider")
    page.keyboard.press("End")
    last = len(Store(db).game(game.id).decisions)  # type: ignore[arg-type]
    page.wait_for_selector(f"#replay-ply[data-ply='{last}']")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f"#replay-ply[data-ply='{last - 1}']")
    shot(page, "replay")


def test_a_tournament_is_watched_as_it_plays(server, page):
    url, db = server
    config = TournamentConfig("classic", [builtin_bot("ismcts"), builtin_bot("random")], {"rounds": 1}, deals=2,
                              concurrency=1, time=TimeControl(movetime_ms=15))
    tournament = Tournament(config, Store(db))
    runner = LocalRunner(config.bots, config.limits, 1)
    play = threading.Thread(target=tournament.run, args=(runner,), daemon=True)
    play.start()
    try:
        page.goto(url + "#watch")
        page.wait_for_selector("body[data-ready='1']")
        page.select_option("#watch-select", str(tournament.id))
        page.wait_for_function("document.querySelectorAll('#watch-live svg').length >= 1", timeout=60000)
        shot(page, "watch")
        page.wait_for_function("document.getElementById('watch-summary').dataset.done === '4'", timeout=120000)
        assert page.locator("#watch-standings tr").count() == 3
    finally:
        play.join(120)
        runner.close()
