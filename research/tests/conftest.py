"""The research tests import `research` from the repository root, put after the installed product
on sys.path: a non-editable install keeps the compiled modules there, not in the source tree."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.append(ROOT)
