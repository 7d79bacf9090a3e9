"""How much of a batched step the observation may cost: issue 36's target asks the batched
environment for 20 times the PettingZoo wrapper's steps a second, so a batched step may cost a
twentieth of a PettingZoo step. This measures, per edition and in CPU time of this thread, a batched
step as built (observation and mask written), the same loop with the observation not written at
all (`rl/batched.pyx` built again into a temporary folder with its observation writes and the copy
of the written state cut out), and a PettingZoo step (the loop of `expeditions bench --rl`), and
prints what the twentieth leaves for the observation: the floor the rest of the step sets.

    python -m research.rl_floor                  # every edition with an observation tensor
    python -m research.rl_floor -e classic --json

The variant is built from the checkout's `rl/batched.pyx` against the installed engine (the same
compiler flags as setup.py's native build), so run it from a checkout whose `pip install .` is
current.

>>> cut_observation("        if self.update_fn is NULL:\\n").count("return")
1
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import engine
from rl.batched import BatchedEnv
from rl.benchmark import BATCH, pettingzoo_slice

SOURCE = Path(__file__).resolve().parents[1] / "rl" / "batched.pyx"
OBSERVATION_WRITES = "        if self.update_fn is NULL:\n"
"""The line of `BatchedEnv._write` after the mask and the mover are written, where the observation's
writes (afresh or brought up to date) and the copy of the written state begin."""


def cut_observation(source: str) -> str:
    """`rl/batched.pyx` with `_write` returning before the observation is written."""
    if source.count(OBSERVATION_WRITES) != 1:
        raise ValueError("rl/batched.pyx changed: the observation's writes are not where this script cuts")
    return source.replace(OBSERVATION_WRITES, "        return\n" + OBSERVATION_WRITES)


def build_variant(folder: Path) -> Any:
    """Builds the cut `rl/batched.pyx` as the module `batched_floor` in `folder`; returns it."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension
    (folder / "batched_floor.pyx").write_text(cut_observation(SOURCE.read_text()))
    flags = ["-O3", "-fno-strict-aliasing", "-Wno-unused-function", "-march=native"]
    extension = Extension("batched_floor", [str(folder / "batched_floor.pyx")], extra_compile_args=flags)
    modules = cythonize([extension], include_path=[str(SOURCE.parents[1])], quiet=True,
                        compiler_directives={"language_level": "3"})
    dist = Distribution({"ext_modules": modules})
    command = dist.get_command_obj("build_ext")
    command.build_lib = str(folder)
    command.build_temp = str(folder / "build")
    command.ensure_finalized()
    command.run()
    built = next(folder.glob("batched_floor*.so"))
    spec = importlib.util.spec_from_file_location("batched_floor", built)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def batched_ns(cls: type, edition: str, steps: int = 200, repeats: int = 5) -> float:
    """CPU ns a step of `steps` × 256 random batched steps, the best of `repeats`."""
    env = cls(edition, BATCH, seed=1)
    env.step_random(steps // 4)
    best = float("inf")
    for _ in range(repeats):
        started = time.thread_time()
        env.step_random(steps)
        best = min(best, (time.thread_time() - started) / (steps * BATCH) * 1e9)
    return best


def pettingzoo_ns(edition: str, seconds: float = 0.3, repeats: int = 5) -> float:
    """CPU ns a step of the PettingZoo loop of `expeditions bench --rl`, the best of `repeats`."""
    record = engine.get_edition(edition)
    game = pettingzoo_slice(edition, dict(record.quick_options), None)
    game()
    best = float("inf")
    for _ in range(repeats):
        started, steps = time.thread_time(), 0
        while time.thread_time() - started < seconds:
            steps += game()[0]
        best = min(best, (time.thread_time() - started) / steps * 1e9)
    return best


def measure(editions: list[str], variant: Any) -> list[dict[str, Any]]:
    rows = []
    for edition in editions:
        written = batched_ns(BatchedEnv, edition)
        bare = batched_ns(variant.BatchedEnv, edition)
        pettingzoo = pettingzoo_ns(edition)
        budget = pettingzoo / 20
        rows.append({"edition": edition, "batched_ns": round(written, 1), "without_observation_ns": round(bare, 1),
                     "pettingzoo_ns": round(pettingzoo, 1), "step_budget_ns": round(budget, 1),
                     "observation_budget_ns": round(budget - bare, 1),
                     "observation_ns": round(written - bare, 1)})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m research.rl_floor", description=__doc__.split("\n\n")[0])
    parser.add_argument("-e", "--edition", action="append", help="an edition (default: every one with an observation)")
    parser.add_argument("--json", action="store_true", help="one JSON object a line")
    args = parser.parse_args(argv)
    editions = args.edition or [name for name in engine.EDITIONS if engine.get_edition(name).observation is not None]
    with tempfile.TemporaryDirectory() as folder:
        variant = build_variant(Path(folder))
        rows = measure(editions, variant)
    for row in rows:
        if args.json:
            print(json.dumps(row))
        else:
            print(f"{row['edition']:<11} batched {row['batched_ns']:6.1f} ns a step, without the observation "
                  f"{row['without_observation_ns']:6.1f} (the observation {row['observation_ns']:6.1f}); PettingZoo "
                  f"{row['pettingzoo_ns']:7.1f}, its twentieth {row['step_budget_ns']:6.1f}: "
                  f"{row['observation_budget_ns']:+6.1f} left for the observation")
    print(f"{cpu_model()}, python {sys.version.split()[0]}", file=sys.stderr)
    return 0


def cpu_model() -> str:
    """The processor's name from /proc/cpuinfo (the machine's architecture elsewhere)."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return os.uname().machine


if __name__ == "__main__":
    sys.exit(main())
