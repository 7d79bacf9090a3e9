"""The complete session in docs/protocol.md (section 10) is replayed against the random bot:
the spec's example is what the implementation does, line for line."""
from __future__ import annotations

import os
import re
import select
import subprocess
import time
from pathlib import Path

import engine
from protocol.local import builtin_bot, child_env

SPEC = Path(__file__).resolve().parents[1] / "docs" / "protocol.md"


def example_session() -> list[str]:
    text = SPEC.read_text()
    section = text[text.index("## 10."):]
    block = re.search(r"```\n(.*?)```", section, re.S)
    assert block is not None
    return block.group(1).splitlines()


def read_line(proc: subprocess.Popen, buffer: bytearray, timeout: float = 5.0) -> str:
    deadline = time.monotonic() + timeout
    fd = proc.stdout.fileno()  # type: ignore[union-attr]
    while b"\n" not in buffer:
        left = deadline - time.monotonic()
        assert left > 0, f"no line from the bot (have {bytes(buffer)!r})"
        if select.select([fd], [], [], left)[0]:
            chunk = os.read(fd, 65536)
            assert chunk, "the bot exited"
            buffer += chunk
    end = buffer.index(b"\n")
    line = buffer[:end].decode()
    del buffer[:end + 1]
    return line


def test_the_example_session_is_what_the_random_bot_does() -> None:
    lines = example_session()
    assert lines[0] == "> uei" and lines[-1] == "> quit"
    proc = subprocess.Popen(builtin_bot("random"), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=child_env(), bufsize=0)
    buffer = bytearray()
    try:
        for line in lines:
            direction, text = line[0], line[2:]
            if direction == ">":
                proc.stdin.write((text + "\n").encode())  # type: ignore[union-attr]
            elif text.startswith("editions "):  # the engine's list grows edition by edition
                assert read_line(proc, buffer).split()[1:] == list(engine.EDITIONS)
                assert text.split()[1:] == list(engine.EDITIONS)[:len(text.split()) - 1]
            elif not text.startswith("info iterations"):  # a searching bot's progress, for illustration
                assert read_line(proc, buffer) == text
        assert proc.wait(5) == 0
        assert buffer == bytearray() and proc.stdout.read() == b""  # type: ignore[union-attr]
    finally:
        if proc.poll() is None:
            proc.kill()
