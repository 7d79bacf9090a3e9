"""The lab: the tools of the strength research, apart from the product (not installed with it).

Search traces of strength runs and the tools that read them, decision values, the heuristic's
benchmark, the results files and the notebook of every experiment (research/README.md). The tools
import the installed product (engine, bots, ...) and run from the repository root:

    python -m research.search_traces research/results/classic-traces.jsonl.gz
"""
import json
import os
import sys
from collections.abc import Iterator

# From the repository root (`python -m research.<tool>`) the source tree's packages come first on
# sys.path, and a non-editable install keeps its compiled modules elsewhere: the root goes last, so
# that `import engine` finds the installed product (in an editable install, the same files).
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _ROOT] + [_ROOT]


def read_jsonl(path: str) -> Iterator[dict]:
    """The JSON objects of a file written one a line (blank lines skipped): the tools' results files."""
    with open(path) as f:
        for line in f:
            if line.strip():
                yield json.loads(line)
