"""The shape of the code base, tested: the layers import downwards only, and every error the
project raises is one family.

engine (rules) <- protocol (the bot interface and its transport) <- bots (policies) <- arena, the
command line. The protocol's value types (`Limits`, options, `Policy`, the compiled `Decider`)
live in protocol/, so protocol/ never imports bots/.
"""
from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest

from engine.errors import ExpeditionsError

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "protocol", "bots", "arena", "expeditions")
_CIMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+c?import|c?import\s+([\w.]+))", re.M)


def _imported_modules(path: Path) -> set[str]:
    """The modules a source file imports (Python via its syntax tree, Cython by its import lines)."""
    text = path.read_text()
    if path.suffix == ".py":
        found = set()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module)
        return found
    return {m.group(1) or m.group(2) for m in _CIMPORT.finditer(text)}


def _sources(package: str) -> list[Path]:
    return sorted(p for p in (ROOT / package).rglob("*") if p.suffix in (".py", ".pyx", ".pxd"))


@pytest.mark.parametrize("lower, upper", [("engine", "protocol"), ("engine", "bots"), ("engine", "arena"),
                                          ("protocol", "bots"), ("protocol", "arena"), ("bots", "arena")])
def test_a_layer_does_not_import_the_layers_above_it(lower, upper):
    offenders = [f"{path.relative_to(ROOT)} imports {module}" for path in _sources(lower)
                 for module in _imported_modules(path) if module == upper or module.startswith(upper + ".")]
    assert not offenders, offenders


def _product_modules() -> list[str]:
    names = []
    for package in PACKAGES:
        module = importlib.import_module(package)
        names.append(package)
        names.extend(info.name for info in pkgutil.walk_packages(module.__path__, package + ".")
                     if not info.name.endswith("__main__"))
    return names


def test_every_error_of_the_project_is_an_expeditions_error():
    """One family: the command line (and any caller) catches `ExpeditionsError` and gets them all.
    The reference models are left out: they import nothing of the engine, to stay independent."""
    strays = []
    for name in _product_modules():
        if ".reference" in name:
            continue
        module = importlib.import_module(name)
        for value in vars(module).values():
            if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == name \
                    and not issubclass(value, ExpeditionsError):
                strays.append(f"{name}.{value.__name__}")
    assert not strays, strays
