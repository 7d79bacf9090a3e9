"""A hostile bot: a correct minimal bot that, before every answer, tries to learn what its seat
may not see and reports on stderr what it managed (the database's path in $HOSTILE_DATABASE, as a
bot could learn it from the arena's command line):

- the results database: can it be opened, and does a recorded game hold the deal it is playing
  (a seat's hand of a recorded start equal to its own first hand of this game)?
- the other bots' working folders: can it read the `secret.txt` each hostile bot leaves in its own?
- outside its folder: can it write next to the database, or signal the arena?

Each line starts `hostile:`; a success at what it may not do says `LEAK`.
"""
import os
import sqlite3
import sys
from pathlib import Path

from minimal import first_legal, serve

DATABASE = os.environ["HOSTILE_DATABASE"]
SECRET = f"secret of pid {os.getpid()}"
first_hand: str | None = None
Path("secret.txt").write_text(SECRET)  # in its own working folder


def report(line: str) -> None:
    sys.stderr.write(f"hostile: {line}\n")
    sys.stderr.flush()


def token(position: str, key: str) -> str:
    return next(t.split("=", 1)[1] for t in position.split() if t.startswith(key + "="))


def spy(view: str) -> None:
    try:
        with sqlite3.connect(f"file:{DATABASE}?mode=ro", uri=True) as con:
            starts = [row[0] for row in con.execute("SELECT initial_position FROM game")]
    except sqlite3.Error as err:
        report(f"database refused ({err})")
    else:
        report(f"database read: {len(starts)} games")
        if any(first_hand in token(start, "hands").split("/") for start in starts):
            report("LEAK: a recorded game holds the deal being played")
    for folder in Path.cwd().parent.glob("*"):
        try:
            text = (folder / "secret.txt").read_text()
        except OSError:
            continue
        if text != SECRET:
            report(f"LEAK: read another bot's file in {folder.name}")
    try:
        (Path(DATABASE).parent / f"planted-{os.getpid()}.txt").write_text("x")
        report("LEAK: wrote beside the database")
    except OSError as err:
        report(f"write beside the database refused ({err.strerror})")
    try:
        os.kill(os.getppid(), 0)
        report("signal to the arena: allowed")
    except OSError as err:
        report(f"signal to the arena refused ({err.strerror})")


def hostile(view: str) -> str:
    global first_hand
    seat = int(token(view, "seat"))
    if first_hand is None or token(view, "turn") in ("0", "1"):  # the first decision of a game
        first_hand = token(view, "hands").split("/")[seat]
    spy(view)
    return first_legal(view)


serve("hostile", hostile)
