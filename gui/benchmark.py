"""The GUI's latency: from the click that completes a person's decision to the next turn drawn in
the browser, less the time the bots took to answer in between (their thinking, as the server timed
each `go`). Plays whole games of an edition against a bot in Chromium driven by Playwright (not a
dependency of the package: `pip install playwright`, and a Chromium, docs/gui.md).

    python -m gui.benchmark --games 3 --edition classic --bot random
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import socket
import statistics
import threading
import time

import engine
from arena.config import builtin_bot
from gui.app import ServeConfig, create_app


def measure(edition: str, bot: str, games: int, chromium: str, seed: int = 1) -> list[dict]:
    """The page's timings (`ms`: click to next turn drawn; `bots`: the bots' time in between) of
    `games` games against `bot`, the person at seat 0 clicking a random legal decision each turn."""
    import uvicorn
    from playwright.sync_api import sync_playwright

    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(ServeConfig(bots={bot: builtin_bot(bot)})), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    rng = random.Random(seed)
    timings: list[dict] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = browser.new_page()
            for game in range(games):
                page.goto(f"http://127.0.0.1:{port}/#play")
                page.wait_for_selector("body[data-ready='1']")
                page.select_option("select[name=edition]", edition)
                page.fill("input[name=seed]", str(seed + game))
                page.click("#play-start")
                page.wait_for_function("['your-turn', 'over'].includes(document.body.dataset.state)")
                while page.evaluate("document.body.dataset.state") != "over":
                    ply = page.evaluate("document.body.dataset.ply")
                    decisions = page.eval_on_selector_all("#play-choices button", "bs => bs.map(b => b.dataset.decision)")
                    page.click(f'#play-choices button[data-decision="{rng.choice(decisions)}"]')
                    page.wait_for_function(f"document.body.dataset.state === 'over' || (document.body.dataset.state "
                                           f"=== 'your-turn' && document.body.dataset.ply !== '{ply}')")
                timings += page.evaluate("window.expeditionsTimings || []")
            browser.close()
    finally:
        server.should_exit = True
        thread.join(10)
    return timings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--edition", default=engine.default_edition().name)
    parser.add_argument("--bot", default="random")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--chromium", default=os.environ.get("EXPEDITIONS_CHROMIUM") or shutil.which("chromium"))
    args = parser.parse_args(argv)
    if not args.chromium:
        parser.error("no Chromium found: apt-get install chromium, or --chromium PATH")
    timings = measure(args.edition, args.bot, args.games, args.chromium)
    overhead = sorted(t["ms"] - t["bots"] for t in timings)
    p95 = overhead[int(0.95 * (len(overhead) - 1))]
    print(f"{args.edition} against {args.bot}, {args.games} games, {len(overhead)} turns: click to next turn drawn, "
          f"less the bots' time: median {statistics.median(overhead):.1f} ms, p95 {p95:.1f} ms, "
          f"max {overhead[-1]:.1f} ms; bots' time median {statistics.median(t['bots'] for t in timings):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
