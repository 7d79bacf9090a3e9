"""`expeditions bench --protocol`: the round-trip benchmark runs and reports its key."""
from __future__ import annotations

import json
import subprocess
import sys

from protocol.local import expeditions_argv


def test_bench_protocol_json() -> None:
    done = subprocess.run(expeditions_argv("bench", "--protocol", "--json", "--seconds", "0.2",
                           "--edition", "partners"), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["roundtrip_us_median"] > 0 and figures["roundtrips"] >= 200 and figures["illegal"] == 0
    assert figures["edition"] == "partners"


def test_bench_protocol_table() -> None:
    done = subprocess.run(expeditions_argv("bench", "--protocol", "--seconds", "0.1"),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "roundtrip_us_median" in done.stdout
